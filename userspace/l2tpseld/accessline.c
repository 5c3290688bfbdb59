// SPDX-License-Identifier: GPL-2.0
/*
 * Access-line information (S-AL-1): TR-101 PPPoE tag, RFC 4679 VSAs and
 * RFC 5515 AVPs (accessline.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "accessline.h"

#define VENDOR_ID_LEN	4
#define RAD_VSA		26	/* RFC 2865 section 5.26 */

int al_index(uint8_t type)
{
	if (type == AL_CIRCUIT_ID || type == AL_REMOTE_ID)
		return type - 1;
	if (type >= AL_ACT_RATE_UP && type <= AL_ACT_DELAY_DOWN)
		return 2 + (type - AL_ACT_RATE_UP);
	if (type == AL_ENCAP)
		return AL_N_ATTRS - 1;
	return -1;
}

uint8_t al_type_at(int i)
{
	if (i < 2)
		return (uint8_t)(i + 1);
	if (i < AL_N_ATTRS - 1)
		return (uint8_t)(AL_ACT_RATE_UP + i - 2);
	return AL_ENCAP;
}

static bool is_rate(uint8_t t)
{
	return t >= AL_ACT_RATE_UP && t <= AL_MIN_RATE_DOWN_LP;
}

static bool is_delay(uint8_t t)
{
	return t >= AL_MAX_DELAY_UP && t <= AL_ACT_DELAY_DOWN;
}

uint64_t al_rate(const struct access_line *al, uint8_t type)
{
	return is_rate(type) && al_has(al, type) ? al->rate[type - AL_ACT_RATE_UP] : 0;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) << 32 | get32(p + 4);
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p + 4, (uint32_t)v);
}

static int fail(const char **why, const char *text)
{
	if (why)
		*why = text;
	return -EBADMSG;
}

/*
 * One attribute of @type, @len bytes at @v, into @al; @rate_mult scales a
 * 4-byte rate (1000 for TR-101's kb/s).  Types we do not carry are skipped.
 */
static int al_set(struct access_line *al, uint8_t type, const uint8_t *v, size_t len,
		  uint64_t rate_mult, const char **why)
{
	int i = al_index(type);

	if (i < 0)
		return 0;
	if (type == AL_CIRCUIT_ID || type == AL_REMOTE_ID) {
		char *dst = type == AL_CIRCUIT_ID ? al->circuit_id : al->remote_id;

		if (!len || len > AL_ID_MAX)
			return fail(why, "identifier empty or longer than 63 bytes");
		memcpy(dst, v, len);
		dst[len] = '\0';
		if (type == AL_CIRCUIT_ID)
			al->circuit_len = (uint8_t)len;
		else
			al->remote_len = (uint8_t)len;
	} else if (is_rate(type) || is_delay(type)) {
		if (len != 4)
			return fail(why, "rate or delay not 4 bytes");
		if (is_rate(type))
			al->rate[type - AL_ACT_RATE_UP] = get32(v) * rate_mult;
		else
			al->delay[type - AL_MAX_DELAY_UP] = get32(v);
	} else {
		if (len != AL_ENCAP_LEN)
			return fail(why, "Access-Loop-Encapsulation not 3 bytes");
		memcpy(al->encap, v, AL_ENCAP_LEN);
	}
	al->present |= 1u << i;
	return 0;
}

/* Sub-options of type (1), length (1: the value's, TR-101; the whole, RFC 4679), value. */
static int parse_subopts(struct access_line *al, const uint8_t *v, size_t len, bool tr101,
			 const char **why)
{
	size_t off;

	if (len < VENDOR_ID_LEN)
		return fail(why, "vendor id truncated");
	if (get32(v) != AL_VENDOR_BBF)
		return -ENOENT;
	for (off = VENDOR_ID_LEN; off < len;) {
		uint8_t type, l;
		size_t vlen;
		int err;

		if (len - off < 2)
			return fail(why, "sub-option header truncated");
		type = v[off];
		l = v[off + 1];
		/* RFC 2865 section 5.26: Vendor-Length counts its own 2 bytes */
		if (!tr101 && l < 2)
			return fail(why, "sub-option header truncated");
		vlen = tr101 ? l : (size_t)l - 2;
		if (vlen > len - off - 2)
			return fail(why, "sub-option beyond the tag");
		if (tr101 && al_has(al, type))
			return fail(why, "sub-option repeated");
		err = al_set(al, type, v + off + 2, vlen, tr101 ? 1000 : 1, why);
		if (err)
			return err;
		off += 2 + vlen;
	}
	return 0;
}

int al_parse_tr101(struct access_line *al, const uint8_t *v, size_t len, const char **why)
{
	int err;

	memset(al, 0, sizeof(*al));
	err = parse_subopts(al, v, len, true, why);
	if (err)
		memset(al, 0, sizeof(*al));
	return err;
}

int al_parse_radius_vsa(struct access_line *al, const uint8_t *v, size_t len, const char **why)
{
	struct access_line tmp = *al;
	int err = parse_subopts(&tmp, v, len, false, why);

	if (!err)
		*al = tmp;
	return err;
}

/* RFC 5515: Vendor ID 3561, M bit 0, H bit 0 as we send them. */
static int put_vendor(struct l2tp_builder *b, uint8_t type, const void *val, size_t len)
{
	return l2tp_put_raw(b, (uint16_t)(L2TP_AVP_HDR_LEN + len), AL_VENDOR_BBF, type, val, len);
}

int al_put_avps(const struct access_line *al, struct l2tp_builder *b)
{
	int i;

	for (i = 0; i < AL_N_ATTRS; i++) {
		uint8_t t = al_type_at(i), v[8];

		if (!(al->present & (1u << i)))
			continue;
		if (t == AL_CIRCUIT_ID)
			put_vendor(b, t, al->circuit_id, al->circuit_len);
		else if (t == AL_REMOTE_ID)
			put_vendor(b, t, al->remote_id, al->remote_len);
		else if (is_rate(t)) {
			/* RFC 5515: 64-bit unsigned, bits per second */
			put64(v, al->rate[t - AL_ACT_RATE_UP]);
			put_vendor(b, t, v, 8);
		} else if (is_delay(t)) {
			put32(v, al->delay[t - AL_MAX_DELAY_UP]);
			put_vendor(b, t, v, 4);
		} else
			put_vendor(b, t, al->encap, AL_ENCAP_LEN);
	}
	return b->error;
}

struct from_msg {
	struct access_line *al;
	unsigned int taken, ignored;
};

static void take_avp(void *arg, uint16_t w, uint16_t vendor, uint16_t type, const uint8_t *v,
		     size_t len)
{
	struct from_msg *f = arg;
	const char *why;
	uint8_t t = (uint8_t)type;

	if (vendor != AL_VENDOR_BBF)
		return;
	if ((w & L2TP_AVP_H) || type > 0xff || al_index(t) < 0 || al_has(f->al, t)) {
		f->ignored++;
		return;
	}
	if (is_rate(t)) {
		/* RFC 5515: 8 bytes, where the other encodings have 4 */
		if (len != 8) {
			f->ignored++;
			return;
		}
		f->al->rate[t - AL_ACT_RATE_UP] = get64(v);
		f->al->present |= 1u << al_index(t);
	} else if (al_set(f->al, t, v, len, 1, &why)) {
		f->ignored++;
		return;
	}
	f->taken++;
}

unsigned int al_from_msg(struct access_line *al, const uint8_t *buf, size_t len,
			 unsigned int *ignored)
{
	struct from_msg f = { .al = al };

	memset(al, 0, sizeof(*al));
	l2tp_avp_walk(buf, len, take_avp, &f);
	if (ignored)
		*ignored += f.ignored;
	return f.taken;
}

size_t al_put_radius(const struct access_line *al, uint8_t *out, size_t cap)
{
	size_t n = 0;
	int i;

	for (i = 0; i < AL_N_ATTRS; i++) {
		uint8_t t = al_type_at(i), v[AL_ID_MAX];
		size_t vlen;

		if (!(al->present & (1u << i)))
			continue;
		if (t == AL_CIRCUIT_ID || t == AL_REMOTE_ID) {
			vlen = t == AL_CIRCUIT_ID ? al->circuit_len : al->remote_len;
			memcpy(v, t == AL_CIRCUIT_ID ? al->circuit_id : al->remote_id, vlen);
		} else if (is_rate(t)) {
			uint64_t r = al->rate[t - AL_ACT_RATE_UP];

			/* RFC 4679 section 3.3: a 4-byte unsigned integer */
			put32(v, r > UINT32_MAX ? UINT32_MAX : (uint32_t)r);
			vlen = 4;
		} else if (is_delay(t)) {
			put32(v, al->delay[t - AL_MAX_DELAY_UP]);
			vlen = 4;
		} else {
			memcpy(v, al->encap, AL_ENCAP_LEN);
			vlen = AL_ENCAP_LEN;
		}
		/* Type 26, Length, Vendor-Id, Vendor-Type, Vendor-Length, value */
		if (cap - n < 8 + vlen)
			return 0;
		out[n] = RAD_VSA;
		out[n + 1] = (uint8_t)(8 + vlen);
		put32(out + n + 2, AL_VENDOR_BBF);
		out[n + 6] = t;
		out[n + 7] = (uint8_t)(2 + vlen);
		memcpy(out + n + 8, v, vlen);
		n += 8 + vlen;
	}
	return n;
}

static const char *const short_names[AL_N_ATTRS] = {
	"circuit-id", "remote-id", "act-up", "act-down", "min-up", "min-down", "att-up",
	"att-down", "max-up", "max-down", "min-up-lp", "min-down-lp", "max-delay-up",
	"act-delay-up", "max-delay-down", "act-delay-down", "encap",
};

/* Append to @buf (@len bytes) at *@n; nothing once it is full. */
static void app(char *buf, size_t len, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void app(char *buf, size_t len, size_t *n, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (*n >= len)
		return;
	va_start(ap, fmt);
	r = vsnprintf(buf + *n, len - *n, fmt, ap);
	va_end(ap);
	if (r > 0)
		*n += (size_t)r;
}

static void app_quoted(char *buf, size_t len, size_t *n, const char *s, size_t slen)
{
	size_t i;

	app(buf, len, n, "\"");
	for (i = 0; i < slen; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
			app(buf, len, n, "%c", c);
		else
			app(buf, len, n, "\\x%02x", c);
	}
	app(buf, len, n, "\"");
}

char *al_format(const struct access_line *al, char *buf, size_t len)
{
	size_t n = 0;
	int i;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (i = 0; i < AL_N_ATTRS; i++) {
		uint8_t t = al_type_at(i);

		if (!(al->present & (1u << i)))
			continue;
		app(buf, len, &n, "%s%s ", n ? " " : "", short_names[i]);
		if (t == AL_CIRCUIT_ID)
			app_quoted(buf, len, &n, al->circuit_id, al->circuit_len);
		else if (t == AL_REMOTE_ID)
			app_quoted(buf, len, &n, al->remote_id, al->remote_len);
		else if (is_rate(t))
			app(buf, len, &n, "%llu", (unsigned long long)al->rate[t - AL_ACT_RATE_UP]);
		else if (is_delay(t))
			app(buf, len, &n, "%u", al->delay[t - AL_MAX_DELAY_UP]);
		else
			app(buf, len, &n, "%02x%02x%02x", al->encap[0], al->encap[1], al->encap[2]);
	}
	return buf;
}

int al_put_csu_enable(struct l2tp_builder *b)
{
	/* RFC 5515: no value, M bit 0 */
	return l2tp_put_raw(b, L2TP_AVP_HDR_LEN, L2TP_VENDOR_IETF,
			    L2TP_AVP_CONNECT_SPEED_UPDATE_ENABLE, NULL, 0);
}

int al_put_csu(struct l2tp_builder *b, uint16_t peer_sid, uint32_t tx_bps, uint32_t rx_bps)
{
	uint8_t v[L2TP_CSU_LEN] = { 0 };

	/* L2TPv2: Reserved (2), Remote Session ID (2), Current Tx, Current Rx (4 each) */
	v[2] = (uint8_t)(peer_sid >> 8);
	v[3] = (uint8_t)peer_sid;
	put32(v + 4, tx_bps);
	put32(v + 8, rx_bps);
	return l2tp_put_raw(b, L2TP_AVP_HDR_LEN + L2TP_CSU_LEN, L2TP_VENDOR_IETF,
			    L2TP_AVP_CONNECT_SPEED_UPDATE, v, sizeof(v));
}

struct from_csu {
	struct al_csu *out;
	unsigned int max, n, ignored;
	bool enable;
};

static void take_csu(void *arg, uint16_t w, uint16_t vendor, uint16_t type, const uint8_t *v,
		     size_t len)
{
	struct from_csu *f = arg;

	if (vendor != L2TP_VENDOR_IETF)
		return;
	if (type == L2TP_AVP_CONNECT_SPEED_UPDATE_ENABLE && !(w & L2TP_AVP_H))
		f->enable = true;
	if (type != L2TP_AVP_CONNECT_SPEED_UPDATE)
		return;
	if ((w & L2TP_AVP_H) || len != L2TP_CSU_LEN || f->n >= f->max) {
		f->ignored++;
		return;
	}
	f->out[f->n].sid = l2tp_get16(v + 2);
	f->out[f->n].tx_bps = get32(v + 4);
	f->out[f->n].rx_bps = get32(v + 8);
	f->n++;
}

unsigned int al_csu_from_msg(const uint8_t *buf, size_t len, struct al_csu *out,
			     unsigned int max, unsigned int *ignored)
{
	struct from_csu f = { .out = out, .max = max };

	l2tp_avp_walk(buf, len, take_csu, &f);
	if (ignored)
		*ignored += f.ignored;
	return f.n;
}

bool al_csu_enabled(const uint8_t *buf, size_t len)
{
	struct from_csu f = { 0 };

	l2tp_avp_walk(buf, len, take_csu, &f);
	return f.enable;
}
