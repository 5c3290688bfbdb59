// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld: a tunnel's messages (RFC 2661 sections 4, 5.1.1, 6.1-6.4), for
 * the state machines (tunnel.c, session.c): the header and the AVPs we
 * build, hidden when the tunnel has a secret (section 4.3), the Challenge
 * and its Response, and what we take from the peer's SCCRQ, SCCRP and
 * StopCCN.  No state of its own beyond the tunnel's fields it fills.
 */
#include <string.h>

#include "auth.h"
#include "avp.h"
#include "l2d.h"
#include "tunnel.h"

void l2d_tunnel_builder(struct l2d_tunnel *t, struct l2tp_builder *b, uint8_t *buf,
			size_t cap, uint16_t sid, uint16_t type)
{
	l2tp_build_begin(b, buf, cap, t->peer_tid, sid, type, t->has_secret ? &t->sec : NULL);
}

/* An AVP hidden when a secret is set and hide-avps asks for it (§4.3). */
/*
 * A hidden value is padded to one MD5 block (16 octets with its length
 * field): §4.3 allows padding to hide the true length, and l2tpns refuses
 * hidden AVPs of fewer than 8 value octets ("Short hidden AVP").
 */
#define L2D_HIDDEN_MIN	16

static int put_hidden_if(struct l2d_tunnel *t, struct l2tp_builder *b, uint16_t type,
			 const void *val, size_t len, bool hide)
{
	if (t->has_secret && hide) {
		uint8_t pad[L2D_HIDDEN_MIN];
		size_t pad_len = 2 + len < L2D_HIDDEN_MIN ? L2D_HIDDEN_MIN - 2 - len : 0;

		if (!b->rv) {
			uint8_t rv[16];

			t->d->env->random(t->d, rv, sizeof(rv));
			l2tp_put_random_vector(b, rv, sizeof(rv));
		}
		if (pad_len)
			t->d->env->random(t->d, pad, pad_len);
		return l2tp_put_hidden(b, type, val, len, pad, pad_len);
	}
	return l2tp_put_avp(b, type, val, len);
}

static int put_maybe_hidden(struct l2d_tunnel *t, struct l2tp_builder *b, uint16_t type,
			    const void *val, size_t len)
{
	return put_hidden_if(t, b, type, val, len, t->d->conf->hide_avps);
}

/* A password (Proxy Authen Response of PAP): hidden whenever the tunnel has a secret. */
int l2d_tunnel_put_secret(struct l2d_tunnel *t, struct l2tp_builder *b, uint16_t type,
			  const void *val, size_t len)
{
	return put_hidden_if(t, b, type, val, len, true);
}

int l2d_tunnel_put_u16(struct l2d_tunnel *t, struct l2tp_builder *b, uint16_t type, uint16_t v)
{
	uint8_t x[2];

	l2tp_put16(x, v);
	return put_maybe_hidden(t, b, type, x, 2);
}

static void copy_host(struct l2d_tunnel *t, const struct l2tp_msg *m)
{
	const struct l2tp_avp_val *v = &m->avp[L2TP_AVP_HOST_NAME];
	size_t n = v->present ? v->len : 0;

	if (n >= sizeof(t->peer_host))
		n = sizeof(t->peer_host) - 1;
	memcpy(t->peer_host, v->data, n);
	t->peer_host[n] = '\0';
}

int l2d_tunnel_take_peer_ids(struct l2d_tunnel *t, const struct l2tp_msg *m)
{
	uint16_t id = 0, win;

	if (!l2tp_msg_get_u16(m, L2TP_AVP_ASSIGNED_TUNNEL_ID, &id) || !id)
		return -1;
	t->peer_tid = id;
	l2tp_rel_set_peer_tunnel(&t->rel, id);
	if (l2tp_msg_get_u16(m, L2TP_AVP_RECEIVE_WINDOW_SIZE, &win))
		l2tp_rel_set_peer_window(&t->rel, win);
	copy_host(t, m);
	return 0;
}

/* The common AVPs of SCCRQ and SCCRP (§6.1, §6.2). */
void l2d_tunnel_put_sccrx(struct l2d_tunnel *t, struct l2tp_builder *b)
{
	struct l2d *d = t->d;

	l2tp_put_u16(b, L2TP_AVP_PROTOCOL_VERSION, L2TP_PROTOCOL_VERSION);
	l2tp_put_string(b, L2TP_AVP_HOST_NAME, t->host[0] ? t->host : d->conf->hostname);
	l2tp_put_u32(b, L2TP_AVP_FRAMING_CAPS, L2TP_FRAMING_SYNC | L2TP_FRAMING_ASYNC);
	l2tp_put_u32(b, L2TP_AVP_BEARER_CAPS, L2TP_BEARER_DIGITAL | L2TP_BEARER_ANALOG);
	l2tp_put_u16(b, L2TP_AVP_FIRMWARE_REVISION, 0x0100);
	l2tp_put_string(b, L2TP_AVP_VENDOR_NAME, "l2tpsel");
	l2tp_put_u16(b, L2TP_AVP_RECEIVE_WINDOW_SIZE, d->conf->recv_window);
	l2d_tunnel_put_u16(t, b, L2TP_AVP_ASSIGNED_TUNNEL_ID, t->tid);
	if (t->has_secret) {
		d->env->random(d, t->challenge, sizeof(t->challenge));
		t->challenged = true;
		l2tp_put_avp(b, L2TP_AVP_CHALLENGE, t->challenge, sizeof(t->challenge));
	}
}

/* Answer the peer's Challenge, if any (§5.1.1). Return: -1 to clear. */
int l2d_tunnel_put_response(struct l2d_tunnel *t, struct l2tp_builder *b,
			    const struct l2tp_msg *m, uint8_t type)
{
	const struct l2tp_avp_val *c = &m->avp[L2TP_AVP_CHALLENGE];
	uint8_t resp[L2TP_CHALLENGE_RESPONSE_LEN];

	if (!c->present)
		return 0;
	if (!t->has_secret)
		return -1;
	l2tp_auth_response(resp, type, t->secret, t->secret_len, c->data, c->len);
	return put_maybe_hidden(t, b, L2TP_AVP_CHALLENGE_RESPONSE, resp, sizeof(resp));
}

/* Check the peer's answer to our Challenge. Return: -1 to clear. */
int l2d_tunnel_check_response(struct l2d_tunnel *t, const struct l2tp_msg *m, uint8_t type)
{
	const struct l2tp_avp_val *r = &m->avp[L2TP_AVP_CHALLENGE_RESPONSE];

	if (!t->challenged)
		return 0;
	if (!r->present)
		return -1;
	return l2tp_auth_verify(r->data, r->len, type, t->secret, t->secret_len,
				t->challenge, sizeof(t->challenge)) ? 0 : -1;
}

void l2d_tunnel_result_of(const struct l2tp_msg *m, uint16_t *result, uint16_t *error)
{
	const struct l2tp_avp_val *v = &m->avp[L2TP_AVP_RESULT_CODE];

	*result = v->present && v->len >= 2 ? l2tp_get16(v->data) : 0;
	*error = v->present && v->len >= 4 ? l2tp_get16(v->data + 2) : 0;
}
