// SPDX-License-Identifier: GPL-2.0
/*
 * RADIUS codec (RFC 2865): an Access-Request with a hidden User-Password
 * (section 5.2) or CHAP-Password and CHAP-Challenge (sections 5.3, 5.40),
 * ending with a Message-Authenticator (RFC 3579 section 3.2); and the
 * checks and decoding of the reply; a Disconnect-Request (RFC 5176) and its
 * answer; what the server does before it acts on one (authentication, the
 * duplicate cache, the Event-Timestamp window) is radius_das.c.  Plain C,
 * no sockets:
 * the client is radclient.c, the server of dynamic authorization das.c, the
 * fuzz targets fuzz/fuzz_radius.c, fuzz/fuzz_radius_dm.c and fuzz/fuzz_das.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "accessline.h"
#include "md5.h"
#include "radius.h"

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

void rad_pkt_init(struct rad_pkt *p, uint8_t code, uint8_t id, const uint8_t auth[RAD_AUTH_LEN])
{
	p->buf[0] = code;
	p->buf[1] = id;
	memcpy(p->buf + 4, auth, RAD_AUTH_LEN);
	p->len = RAD_HDR_LEN;
	p->full = false;
}

/* Section 5: Type, Length (2 + value), at most 253 bytes of value. */
void rad_put(struct rad_pkt *p, uint8_t type, const void *val, size_t len)
{
	if (len > 253 || p->len + 2 + len > RAD_MAX_LEN) {
		p->full = true;
		return;
	}
	p->buf[p->len] = type;
	p->buf[p->len + 1] = (uint8_t)(2 + len);
	memcpy(p->buf + p->len + 2, val, len);
	p->len += 2 + len;
}

void rad_put_str(struct rad_pkt *p, uint8_t type, const char *s)
{
	if (s && *s)
		rad_put(p, type, s, strlen(s));
}

void rad_put_u32(struct rad_pkt *p, uint8_t type, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };

	rad_put(p, type, b, sizeof(b));
}

/*
 * Section 5.2: the password padded with NULs to a multiple of 16 (at most
 * 128), c(1) = p(1) XOR MD5(S + RA), c(i) = p(i) XOR MD5(S + c(i-1)).
 */
void rad_put_password(struct rad_pkt *p, const uint8_t *pw, size_t len, const uint8_t *secret,
		      size_t slen)
{
	uint8_t out[128], b[MD5_DIGEST_LEN];
	const uint8_t *prev = p->buf + 4;	/* the Request Authenticator */
	size_t n = len ? (len + 15) / 16 * 16 : 16, i, j;
	struct md5_ctx ctx;

	if (len > sizeof(out)) {
		p->full = true;
		return;
	}
	memset(out, 0, n);
	memcpy(out, pw, len);
	for (i = 0; i < n; i += 16) {
		md5_init(&ctx);
		md5_update(&ctx, slen, secret);
		md5_update(&ctx, 16, prev);
		md5_digest(&ctx, MD5_DIGEST_SIZE, b);
		for (j = 0; j < 16; j++)
			out[i + j] ^= b[j];
		prev = out + i;
	}
	rad_put(p, RAD_USER_PASSWORD, out, n);
	explicit_bzero(out, sizeof(out));
	explicit_bzero(b, sizeof(b));
}

/* RFC 3579 section 3.2: HMAC-MD5 of the packet with the attribute's value zero. */
int rad_finish(struct rad_pkt *p, const uint8_t *secret, size_t slen)
{
	static const uint8_t zero[MD5_DIGEST_LEN];
	size_t at = p->len + 2;

	rad_put(p, RAD_MESSAGE_AUTHENTICATOR, zero, sizeof(zero));
	if (p->full)
		return -1;
	put16(p->buf + 2, (uint16_t)p->len);
	hmac_md5(secret, slen, p->buf, p->len, p->buf + at);
	return 0;
}

void rad_finish_acct(struct rad_pkt *p, const uint8_t *secret, size_t slen)
{
	struct md5_ctx ctx;

	put16(p->buf + 2, (uint16_t)p->len);
	memset(p->buf + 4, 0, RAD_AUTH_LEN);
	md5_init(&ctx);
	md5_update(&ctx, p->len, p->buf);
	md5_update(&ctx, slen, secret);
	md5_digest(&ctx, MD5_DIGEST_SIZE, p->buf + 4);
}

void rad_put_tagged_u32(struct rad_pkt *p, uint8_t type, uint8_t tag, uint32_t v)
{
	uint8_t b[4] = { tag, (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };

	rad_put(p, type, b, sizeof(b));
}

void rad_put_tagged_str(struct rad_pkt *p, uint8_t type, uint8_t tag, const char *s)
{
	uint8_t b[253];
	size_t n = s ? strlen(s) : 0;

	if (!n)
		return;
	if (n > sizeof(b) - 1) {
		p->full = true;
		return;
	}
	b[0] = tag;
	memcpy(b + 1, s, n);
	rad_put(p, type, b, n + 1);
}

/* Section 3: MD5(Code + ID + Length + Request Authenticator + Attributes + Secret). */
static void response_auth(const uint8_t *buf, size_t len, const uint8_t req_auth[RAD_AUTH_LEN],
			  const uint8_t *secret, size_t slen, uint8_t out[MD5_DIGEST_LEN])
{
	struct md5_ctx ctx;

	md5_init(&ctx);
	md5_update(&ctx, 4, buf);
	md5_update(&ctx, RAD_AUTH_LEN, req_auth);
	md5_update(&ctx, len - RAD_HDR_LEN, buf + RAD_HDR_LEN);
	md5_update(&ctx, slen, secret);
	md5_digest(&ctx, MD5_DIGEST_SIZE, out);
}

/* True when the 16 octets at @a and @b differ (compared in constant time). */
static bool differs(const uint8_t *a, const uint8_t *b)
{
	unsigned int i, diff = 0;

	for (i = 0; i < MD5_DIGEST_LEN; i++)
		diff |= a[i] ^ b[i];
	return diff;
}

/* Length of the packet in @buf (@len octets read), or 0 and @why when it is cut or too long. */
static size_t packet_len(const uint8_t *buf, size_t len, const char **why)
{
	size_t plen;

	if (len < RAD_HDR_LEN) {
		*why = "shorter than the 20-byte header";
		return 0;
	}
	plen = get16(buf + 2);
	/* section 3: shorter than Length is dropped, octets beyond it are padding */
	if (plen < RAD_HDR_LEN || plen > RAD_MAX_LEN || plen > len) {
		*why = "Length outside 20..4096 or beyond the datagram";
		return 0;
	}
	return plen;
}

/*
 * A received packet, read in three steps: rx_open() checks its Length, its
 * Code and its Authenticator; rx_next() walks its attributes (RFC 2865
 * section 5) and notes the Message-Authenticator; rx_close() checks that
 * one (RFC 3579 section 3.2).  Both authenticators are computed with @base
 * in the Authenticator's place: for a reply the Request Authenticator of
 * the request (RFC 2865 section 3, Response Authenticator), for a request
 * of a Dynamic Authorization Client 16 zero octets (RFC 5176 sections 2.3
 * and 3.5, as RFC 2866 section 3).
 */
struct rad_rx {
	const uint8_t *buf;
	size_t len;			/* the Length: octets beyond it are padding */
	size_t next;			/* the next attribute's offset */
	size_t ma_at;			/* the Message-Authenticator's value; 0: none */
	const uint8_t *base;
	const uint8_t *secret;
	size_t slen;
};

/* What a packet of one kind must be, and the sentences that refuse it. */
struct rad_rx_kind {
	uint64_t codes;			/* bit (1 << Code) per Code taken */
	const char *not_code, *bad_auth;
};

static int rx_open(struct rad_rx *x, const struct rad_rx_kind *k, const uint8_t *buf, size_t len,
		   const uint8_t base[RAD_AUTH_LEN], const uint8_t *secret, size_t slen,
		   const char **why)
{
	uint8_t want[MD5_DIGEST_LEN];

	*x = (struct rad_rx){ buf, packet_len(buf, len, why), RAD_HDR_LEN, 0, base, secret, slen };
	if (!x->len)
		return -1;
	if (buf[0] >= 64 || !(k->codes & 1ull << buf[0])) {
		*why = k->not_code;
		return -1;
	}
	response_auth(buf, x->len, base, secret, slen, want);
	if (differs(want, buf + 4)) {
		*why = k->bad_auth;
		return -1;
	}
	return 0;
}

/*
 * The next attribute other than the Message-Authenticator (kept in @x):
 * 1 with its *@type and its value *@v of *@n octets; 0 at the end of the
 * packet; -1 with @why when an attribute's length runs past the packet or
 * is below 2, or a Message-Authenticator comes twice or not of 16 octets.
 */
static int rx_next(struct rad_rx *x, uint8_t *type, const uint8_t **v, size_t *n,
		   const char **why)
{
	const uint8_t *b = x->buf;
	size_t o;

	for (o = x->next; o < x->len; o = x->next) {
		if (o + 2 > x->len || b[o + 1] < 2 || o + b[o + 1] > x->len) {
			*why = "an attribute's length runs past the packet or is below 2";
			return -1;
		}
		x->next = o + b[o + 1];
		*type = b[o];
		*v = b + o + 2;
		*n = b[o + 1] - 2u;
		if (*type != RAD_MESSAGE_AUTHENTICATOR)
			return 1;
		if (x->ma_at || *n != MD5_DIGEST_LEN) {
			*why = "Message-Authenticator twice or not 16 bytes";
			return -1;
		}
		x->ma_at = o + 2;
	}
	return 0;
}

/* After the last attribute: the Message-Authenticator, when there was one. */
static int rx_close(const struct rad_rx *x, const char **why)
{
	uint8_t copy[RAD_MAX_LEN], mac[MD5_DIGEST_LEN];

	if (!x->ma_at)
		return 0;
	memcpy(copy, x->buf, x->len);
	memcpy(copy + 4, x->base, RAD_AUTH_LEN);
	memset(copy + x->ma_at, 0, MD5_DIGEST_LEN);
	hmac_md5(x->secret, x->slen, copy, x->len, mac);
	if (differs(mac, x->buf + x->ma_at)) {
		*why = "wrong Message-Authenticator";
		return -1;
	}
	return 0;
}

static void add_message(struct rad_reply *r, const uint8_t *v, size_t n)
{
	size_t have = strlen(r->message), room;

	if (have && have < RAD_MSG_MAX)
		r->message[have++] = ' ';
	room = RAD_MSG_MAX - have;
	if (n > room)
		n = room;
	memcpy(r->message + have, v, n);
	r->message[have + n] = '\0';
}

/* A text value for @dst: no NUL inside, fits. */
static int set_text(char *dst, size_t cap, const uint8_t *v, size_t n)
{
	if (!n || n >= cap || memchr(v, '\0', n))
		return -1;
	memcpy(dst, v, n);
	dst[n] = '\0';
	return 0;
}

/*
 * Tunnel-Password (RFC 2868 section 3.5): Tag, Salt (2 octets, the high bit
 * set), then the encrypted String: b(1) = MD5(secret + Request
 * Authenticator + Salt), b(i) = MD5(secret + c(i-1)), p(i) = c(i) xor b(i);
 * the plain text is a length octet, the password, padding.
 */
static int tunnel_password(const uint8_t *v, size_t n, const uint8_t req_auth[RAD_AUTH_LEN],
			   const uint8_t *secret, size_t slen, char *out)
{
	uint8_t plain[256], b[MD5_DIGEST_LEN];
	const uint8_t *c = v + 3, *prev;
	size_t clen = n - 3, i, j;
	struct md5_ctx ctx;

	if (n < 3 + 16 || clen % 16 || !(v[1] & 0x80))
		return -1;
	for (i = 0; i < clen; i += 16) {
		md5_init(&ctx);
		md5_update(&ctx, slen, secret);
		if (!i) {
			md5_update(&ctx, RAD_AUTH_LEN, req_auth);
			md5_update(&ctx, 2, v + 1);
		} else {
			prev = c + i - 16;
			md5_update(&ctx, 16, prev);
		}
		md5_digest(&ctx, MD5_DIGEST_SIZE, b);
		for (j = 0; j < 16; j++)
			plain[i + j] = c[i + j] ^ b[j];
	}
	if (!plain[0] || plain[0] > clen - 1 || plain[0] > RAD_TUNNEL_PW_MAX ||
	    memchr(plain + 1, '\0', plain[0]))
		return -1;
	memcpy(out, plain + 1, plain[0]);
	out[plain[0]] = '\0';
	return 0;
}

/*
 * One RFC 2868 attribute of an Access-Accept into its tag's set: 1; 0 when
 * @type is not one; -1 with *@why to refuse the reply.
 */
static int tunnel_attr(const struct rad_rx *x, struct rad_reply *r, uint8_t type,
		       const uint8_t *v, size_t n, const char **why)
{
	unsigned int kind, tag = 0;
	struct rad_tunnel *t;
	char *text = NULL;

	switch (type) {
	case RAD_TUNNEL_TYPE: kind = RAD_TK_TYPE; break;
	case RAD_TUNNEL_MEDIUM_TYPE: kind = RAD_TK_MEDIUM; break;
	case RAD_TUNNEL_PREFERENCE: kind = RAD_TK_PREFERENCE; break;
	case RAD_TUNNEL_SERVER_ENDPOINT: kind = RAD_TK_SERVER; break;
	case RAD_TUNNEL_CLIENT_ENDPOINT: kind = RAD_TK_CLIENT; break;
	case RAD_TUNNEL_ASSIGNMENT_ID: kind = RAD_TK_ASSIGNMENT; break;
	case RAD_TUNNEL_CLIENT_AUTH_ID: kind = RAD_TK_CLIENT_AUTH; break;
	case RAD_TUNNEL_SERVER_AUTH_ID: kind = RAD_TK_SERVER_AUTH; break;
	case RAD_TUNNEL_PASSWORD: kind = RAD_TK_PASSWORD; break;
	default: return 0;
	}
	if (kind == RAD_TK_TYPE || kind == RAD_TK_MEDIUM || kind == RAD_TK_PREFERENCE ||
	    kind == RAD_TK_PASSWORD) {
		/* sections 3.1, 3.2, 3.8, 3.5: the Tag octet is always there */
		if (n < 1 || v[0] > 0x1f) {
			*why = "a tunnel attribute's Tag is missing or above 0x1f";
			return -1;
		}
		if (kind != RAD_TK_PASSWORD && n != 4) {
			*why = "a tagged integer tunnel attribute is not 4 octets";
			return -1;
		}
		tag = v[0];
	} else if (n && v[0] <= 0x1f) {
		/* section 3: a first octet above 0x1f is the string's, the Tag is 0 */
		tag = v[0];
		v++;
		n--;
	}
	t = &r->tun[tag];
	if (t->seen & (1u << kind)) {
		*why = "a tunnel attribute twice in one tag";
		return -1;
	}
	t->seen |= 1u << kind;
	r->tags |= 1u << tag;
	switch (kind) {
	case RAD_TK_TYPE: t->type = get32(v) & 0xffffff; return 1;
	case RAD_TK_MEDIUM: t->medium = get32(v) & 0xffffff; return 1;
	case RAD_TK_PREFERENCE: t->preference = get32(v) & 0xffffff; return 1;
	case RAD_TK_PASSWORD:
		if (tunnel_password(v, n, x->base, x->secret, x->slen, t->password)) {
			*why = "a Tunnel-Password that does not decrypt to 1..63 octets";
			return -1;
		}
		return 1;
	case RAD_TK_SERVER: text = t->server; break;
	case RAD_TK_CLIENT: text = t->client; break;
	case RAD_TK_ASSIGNMENT: text = t->assignment; break;
	case RAD_TK_CLIENT_AUTH: text = t->client_auth; break;
	default: text = t->server_auth; break;
	}
	if (set_text(text, RAD_TEXT_MAX, v, n)) {
		*why = "a tunnel attribute's text is empty, longer than 63 octets or has a NUL";
		return -1;
	}
	return 1;
}

static bool set_name_taken(const struct rad_set_entry *out, unsigned int n, const char *name)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(out[i].name, name))
			return true;
	return false;
}

static bool is_addr(const char *s, int *family)
{
	struct in6_addr a;

	if (inet_pton(AF_INET, s, &a) == 1)
		*family = 4;
	else if (inet_pton(AF_INET6, s, &a) == 1)
		*family = 6;
	else
		return false;
	return true;
}

/* Why the tunnel of one tag is unusable (RFC 2868 section 3), or NULL. */
static const char *tunnel_bad(const struct rad_tunnel *t)
{
	int fam, lfam;

	if (!(t->seen & (1u << RAD_TK_TYPE)) || t->type != RAD_TUNNEL_L2TP)
		return "no Tunnel-Type L2TP";
	if (!(t->seen & (1u << RAD_TK_SERVER)))
		return "no Tunnel-Server-Endpoint";
	if (!is_addr(t->server, &fam))
		return "Tunnel-Server-Endpoint is not an IPv4 or IPv6 address (names are not resolved)";
	if ((t->seen & (1u << RAD_TK_MEDIUM)) &&
	    t->medium != (fam == 4 ? RAD_MEDIUM_IPV4 : RAD_MEDIUM_IPV6))
		return "Tunnel-Medium-Type is not the server endpoint's family";
	if (t->client[0] && (!is_addr(t->client, &lfam) || lfam != fam))
		return "Tunnel-Client-Endpoint is not an address of the server endpoint's family";
	return NULL;
}

/*
 * names: the Assignment-Id when it fits, is not a name of the kernel's
 * ("~...") or of the fallback's form ("tag" and digits) and no earlier
 * entry has it; else "tagN", unique by the tag
 */
static void set_names(const struct rad_reply *r, struct rad_set_entry *out, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		const char *a = r->tun[out[i].tag].assignment;

		if (a[0] && strlen(a) < sizeof(out[i].name) && a[0] != '~' &&
		    !(strncmp(a, "tag", 3) == 0 && a[3] && strspn(a + 3, "0123456789") == strlen(a + 3)) &&
		    !set_name_taken(out, i, a))
			snprintf(out[i].name, sizeof(out[i].name), "%s", a);
		else
			snprintf(out[i].name, sizeof(out[i].name), "tag%u", out[i].tag);
	}
}

/* levels: rank of the preference @prefs[i] among the distinct values */
static void set_levels(struct rad_set_entry *out, const uint32_t *prefs, unsigned int n)
{
	uint32_t distinct[RAD_TAGS];
	unsigned int i, j, np = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < np && distinct[j] != prefs[i]; j++)
			;
		if (j == np)
			distinct[np++] = prefs[i];
	}
	for (i = 0; i < n; i++) {
		unsigned int rank = 0;

		for (j = 0; j < np; j++)
			rank += distinct[j] < prefs[i];
		out[i].level = rank > 7 ? 7 : rank;
	}
}

unsigned int rad_tunnel_set(const struct rad_reply *r, struct rad_set_entry *out,
			    unsigned int *skipped, const char **why)
{
	uint32_t prefs[RAD_TAGS];
	unsigned int tag, n = 0;

	*skipped = 0;
	*why = NULL;
	for (tag = 0; tag < RAD_TAGS; tag++) {
		const struct rad_tunnel *t = &r->tun[tag];
		const char *bad;
		struct rad_set_entry *e = &out[n];

		if (!(r->tags & (1u << tag)))
			continue;
		bad = tunnel_bad(t);
		if (!bad && n == RAD_SET_MAX)
			bad = "more than 31 tunnels";
		if (bad) {
			if (!*skipped)
				*why = bad;
			++*skipped;
			continue;
		}
		memset(e, 0, sizeof(*e));
		e->tag = tag;
		snprintf(e->remote, sizeof(e->remote), "%s", t->server);
		snprintf(e->local, sizeof(e->local), "%s", t->client);
		snprintf(e->secret, sizeof(e->secret), "%s", t->password);
		snprintf(e->client_auth, sizeof(e->client_auth), "%s", t->client_auth);
		snprintf(e->server_auth, sizeof(e->server_auth), "%s", t->server_auth);
		/* level: filled by set_levels(); the preference is kept in prefs[] meanwhile */
		prefs[n] = t->preference;
		n++;
	}
	set_names(r, out, n);
	set_levels(out, prefs, n);
	return n;
}

/* The profile attribute's value (Access-Accept or not): once, 1..63 octets, no NUL. */
static int set_profile(struct rad_reply *r, const uint8_t *v, size_t n, const char **why)
{
	if (r->profile[0] || set_text(r->profile, sizeof(r->profile), v, n)) {
		*why = "the profile attribute twice, empty, too long or with a NUL";
		return -1;
	}
	return 1;
}

/*
 * One attribute of a reply other than the Message-Authenticator: 1 when
 * taken, 0 when of no meaning here, -1 with *@why to refuse the reply.
 */
static int reply_attr(const struct rad_rx *x, struct rad_reply *r,
		      const struct rad_attr_ref *prof, uint8_t type, const uint8_t *v, size_t n,
		      const char **why)
{
	switch (type) {
	case RAD_REPLY_MESSAGE:
		add_message(r, v, n);
		return 1;
	case RAD_VENDOR_SPECIFIC:
		/* RFC 2865 section 5.26: Vendor-Id (4), then vendor type, length, value */
		if (!prof || !prof->vendor || n < 6 || get32(v) != prof->vendor ||
		    v[4] != prof->type)
			return 0;
		if (v[5] != n - 4) {
			*why = "the profile's vendor attribute has a wrong length";
			return -1;
		}
		return set_profile(r, v + 6, n - 6, why);
	}
	if (prof && !prof->vendor && type == prof->type)
		return set_profile(r, v, n, why);
	if (r->code != RAD_ACCESS_ACCEPT)
		return 0;
	if (type == RAD_ACCT_INTERIM_INTERVAL) {
		if (n != 4 || r->interim || !get32(v)) {
			*why = "Acct-Interim-Interval twice, 0 or not 4 octets";
			return -1;
		}
		r->interim = get32(v);
		return 1;
	}
	return tunnel_attr(x, r, type, v, n, why);
}

int rad_reply_parse(const uint8_t *buf, size_t len, const uint8_t req_auth[RAD_AUTH_LEN],
		    const uint8_t *secret, size_t slen, const struct rad_attr_ref *prof,
		    struct rad_reply *r, const char **why)
{
	static const struct rad_rx_kind reply = {
		1ull << RAD_ACCESS_ACCEPT | 1ull << RAD_ACCESS_REJECT |
		1ull << RAD_ACCESS_CHALLENGE | 1ull << RAD_ACCOUNTING_RESPONSE,
		"not a reply to an Access- or Accounting-Request",
		"wrong Response Authenticator (another secret, or forged)",
	};
	struct rad_rx x;
	const uint8_t *v;
	uint8_t type;
	size_t n;
	int more, took;

	memset(r, 0, sizeof(*r));
	if (rx_open(&x, &reply, buf, len, req_auth, secret, slen, why))
		return -1;
	r->code = buf[0];
	r->id = buf[1];
	while ((more = rx_next(&x, &type, &v, &n, why)) > 0) {
		took = reply_attr(&x, r, prof, type, v, n, why);
		if (took < 0)
			return -1;
		r->ignored += !took;	/* section 5: a client MAY ignore what it does not know */
	}
	if (more < 0)
		return -1;
	/*
	 * S-SEC-8: every Access-Request carries a Message-Authenticator, so an
	 * Access-Accept, -Reject or -Challenge must carry one too (RFC 3579
	 * section 3.2).  Without it the Response Authenticator (MD5) is all
	 * that protects the reply, and CVE-2024-3596 forges it.  RFC 2866 gives
	 * an Accounting-Response none: it is taken without, checked with one.
	 */
	if (!x.ma_at && r->code != RAD_ACCOUNTING_RESPONSE) {
		*why = "no Message-Authenticator (RFC 3579 section 3.2; a reply without one "
		       "may be forged, CVE-2024-3596)";
		return -1;
	}
	return rx_close(&x, why);
}

/* ---- Dynamic Authorization (RFC 5176) ---- */

/* One attribute of a request (section 3): 0, or the Error-Cause it calls for. */
static uint32_t dm_attr(struct rad_dm *m, uint8_t type, const uint8_t *v, size_t n)
{
	size_t cap;
	char *text;
	bool bad;
	int err;

	switch (type) {
	case RAD_USER_NAME: text = m->user; cap = sizeof(m->user); break;
	case RAD_ACCT_SESSION_ID: text = m->acct_id; cap = sizeof(m->acct_id); break;
	case RAD_CALLING_STATION_ID: text = m->calling; cap = sizeof(m->calling); break;
	case RAD_NAS_PORT_ID: text = m->port_id; cap = sizeof(m->port_id); break;
	case RAD_NAS_IDENTIFIER: text = m->nas_id; cap = sizeof(m->nas_id); break;
	case RAD_NAS_IP_ADDRESS:
		bad = n != 4 || m->has_nas_ip;
		memcpy(m->nas_ip, v, n == 4 ? 4 : 0);
		m->has_nas_ip = true;
		return bad ? RAD_EC_INVALID_VALUE : 0;
	case RAD_ACCT_TERMINATE_CAUSE:
		if (n != 4 || m->term_cause || !get32(v))
			return RAD_EC_INVALID_VALUE;
		m->term_cause = get32(v);
		return 0;
	case RAD_EVENT_TIMESTAMP:	/* the replay window: radius_das.c */
		if (n != 4)
			return RAD_EC_INVALID_VALUE;
		if (m->has_ts)
			return RAD_EC_INVALID_REQUEST;	/* twice */
		m->has_ts = true;
		m->ts = get32(v);
		return 0;
	case RAD_PROXY_STATE:		/* section 3.1: copied back unchanged, in order */
		memcpy(m->proxy + m->proxy_len, v - 2, n + 2);
		m->proxy_len += n + 2;
		return 0;
	case RAD_VENDOR_SPECIFIC:
		/* a CoA's DSL Forum VSAs (RFC 4679): the line's new rates (S-AL-1) */
		err = m->code == RAD_COA_REQUEST ? al_parse_radius_vsa(&m->al, v, n, NULL) : -ENOENT;
		if (err == -EBADMSG)
			return RAD_EC_INVALID_VALUE;
		return err ? RAD_EC_UNSUPPORTED_ATTRIBUTE : 0;
	default:
		/* section 3: an attribute the NAS cannot act on refuses the request */
		return RAD_EC_UNSUPPORTED_ATTRIBUTE;
	}
	/* a text: once, not empty, no NUL; all but NAS-Identifier name the session */
	if (text[0])
		return RAD_EC_INVALID_REQUEST;	/* twice */
	if (set_text(text, cap, v, n))
		return RAD_EC_INVALID_VALUE;
	m->n_ids += type != RAD_NAS_IDENTIFIER;
	return 0;
}

int rad_dm_parse(const uint8_t *buf, size_t len, const uint8_t *secret, size_t slen,
		 struct rad_dm *m, const char **why)
{
	static const struct rad_rx_kind request = {
		1ull << RAD_DISCONNECT_REQUEST | 1ull << RAD_COA_REQUEST,
		"not a Disconnect-Request or CoA-Request",
		"wrong Request Authenticator (another secret, or forged)",
	};
	/* section 2.3: MD5(Code + Identifier + Length + 16 zero octets + Attributes + Secret) */
	static const uint8_t zero[RAD_AUTH_LEN];
	struct rad_rx x;
	const uint8_t *v;
	uint8_t type;
	size_t n;
	int more;

	memset(m, 0, sizeof(*m));
	if (rx_open(&x, &request, buf, len, zero, secret, slen, why))
		return -1;
	m->code = buf[0];
	m->id = buf[1];
	memcpy(m->auth, buf + 4, RAD_AUTH_LEN);
	while ((more = rx_next(&x, &type, &v, &n, why)) > 0) {
		uint32_t cause = dm_attr(m, type, v, n);

		if (!m->cause)
			m->cause = cause;	/* the first one found */
	}
	if (more < 0 || rx_close(&x, why))
		return -1;
	m->ma = x.ma_at != 0;
	/* a change of authorization other than the line's rates: not done here */
	if (m->code == RAD_COA_REQUEST &&
	    !(m->al.present & ~(1u << al_index(AL_CIRCUIT_ID) | 1u << al_index(AL_REMOTE_ID))))
		m->cause = RAD_EC_UNSUPPORTED_EXTENSION;
	else if (!m->cause && !m->n_ids)
		m->cause = RAD_EC_MISSING_ATTRIBUTE;	/* no session named */
	return 0;
}

size_t rad_dm_answer(const struct rad_dm *m, bool ack, uint32_t cause, const uint8_t *secret,
		     size_t slen, uint8_t *out)
{
	struct rad_pkt p;
	uint8_t code;

	if (m->code == RAD_COA_REQUEST)
		code = ack ? RAD_COA_ACK : RAD_COA_NAK;
	else
		code = ack ? RAD_DISCONNECT_ACK : RAD_DISCONNECT_NAK;
	rad_pkt_init(&p, code, m->id, m->auth);
	if (!ack)
		rad_put_u32(&p, RAD_ERROR_CAUSE, cause);
	if (m->proxy_len && p.len + m->proxy_len <= RAD_MAX_LEN - 2 - MD5_DIGEST_LEN) {
		memcpy(p.buf + p.len, m->proxy, m->proxy_len);
		p.len += m->proxy_len;
	}
	/* RFC 3579 section 3.2: over the answer with the request's authenticator */
	if (!m->ma || rad_finish(&p, secret, slen))
		put16(p.buf + 2, (uint16_t)p.len);
	response_auth(p.buf, p.len, m->auth, secret, slen, p.buf + 4);
	memcpy(out, p.buf, p.len);
	return p.len;
}
