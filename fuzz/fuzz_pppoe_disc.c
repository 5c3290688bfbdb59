// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for l2tpseld's PPPoE discovery codec (S-ACC-1, RFC 2516
 * §5).  Each input is the Ethernet payload of one ETH_P_PPP_DISC frame.  A
 * packet that parses must hand out values inside itself; the AC's answers
 * to it (PADO, PADS, a PADS refusal, PADT), built for an offer of two
 * services, must parse again and echo Host-Uniq and Relay-Session-Id
 * exactly, and build the same in an exactly-sized buffer and not at all in
 * one byte less.  The input's AC-Cookie is checked as a PADR's would be.
 * Any read outside the frame is caught by ASan: the copy is exactly sized.
 *
 *	make fuzz-smoke FUZZ_TARGETS=pppoe_disc	bounded run (mk/fuzz.mk)
 *	make fuzz FUZZ_TARGETS=pppoe_disc	long run
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pppoe.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

/* Answers to inputs of up to this many bytes always fit in answer[]. */
#define FUZZ_FIT_LEN	8192

static const char *const fuzz_services[] = { "internet", "voip" };
static const struct pppoe_offer fuzz_offer = { "fuzz-ac", fuzz_services, 2 };
static const uint8_t fuzz_mac[6] = { 0x02, 0x00, 0x5e, 0x00, 0x53, 0x01 };
static const struct pppoe_cookie_keys fuzz_keys = {
	.epoch = 41,
	.cur = "current-secret!",
	.prev = "previous-secret",
	.has_prev = true,
};

static uint8_t answer[70000];

enum fuzz_answer { ANS_PADO, ANS_PADS, ANS_REFUSAL, ANS_PADT, ANS_COUNT };

static bool tv_same(const struct pppoe_tagval *a, const struct pppoe_tagval *b)
{
	if (a->present != b->present)
		return false;
	if (!a->present)
		return true;
	return a->len == b->len && !memcmp(a->data, b->data, a->len);
}

static void check_tv(const struct pppoe_tagval *tv, const uint8_t *buf, size_t end)
{
	if (!tv->present) {
		CHECK(!tv->data && !tv->len);
		return;
	}
	CHECK(tv->data >= buf + PPPOE_HDR_LEN);
	CHECK(tv->data + tv->len <= buf + end);
}

/* Every value the parser hands out lies inside LENGTH. */
static void check_bounds(const struct pppoe_disc *p, const uint8_t *buf, size_t len)
{
	size_t end = PPPOE_HDR_LEN + (size_t)p->length;

	CHECK(end <= len);
	check_tv(&p->service, buf, end);
	check_tv(&p->ac_name, buf, end);
	check_tv(&p->host_uniq, buf, end);
	check_tv(&p->cookie, buf, end);
	check_tv(&p->relay_sid, buf, end);
	check_tv(&p->max_payload, buf, end);
	check_tv(&p->circuit_id, buf, end);
	check_tv(&p->remote_id, buf, end);
	check_tv(&p->error, buf, end);
	CHECK(p->error.present == (p->error_type != 0));
	CHECK(p->n_tags <= p->length / 4);
}

static size_t build(enum fuzz_answer w, const struct pppoe_disc *req, const uint8_t *cookie,
		    uint8_t *out, size_t cap)
{
	switch (w) {
	case ANS_PADO:
		return pppoe_build_pado(&fuzz_offer, req, cookie, out, cap);
	case ANS_PADS:
		return pppoe_build_pads(req, 0x1234, false, NULL, out, cap);
	case ANS_REFUSAL:
		return pppoe_build_pads(req, 0, true, "unknown service", out, cap);
	default:
		return pppoe_build_padt(0x1234, &req->host_uniq, "bye", out, cap);
	}
}

/* An answer parses again with what it must carry. */
static void check_answer(enum fuzz_answer w, const struct pppoe_disc *req, const uint8_t *cookie,
			 const uint8_t *a, size_t len)
{
	bool maxp = req->max_payload.present && req->max_payload.len == 2;
	struct pppoe_disc p;

	CHECK(pppoe_disc_parse(a, len, &p, NULL) == 0);
	CHECK(p.length == len - PPPOE_HDR_LEN);
	CHECK(tv_same(&p.host_uniq, &req->host_uniq));
	switch (w) {
	case ANS_PADO:
		CHECK(p.code == PPPOE_CODE_PADO && p.sid == 0);
		CHECK(tv_same(&p.relay_sid, &req->relay_sid));
		CHECK(p.ac_name.present && p.ac_name.len == 7);
		CHECK(p.cookie.present && p.cookie.len == PPPOE_COOKIE_LEN);
		CHECK(!memcmp(p.cookie.data, cookie, PPPOE_COOKIE_LEN));
		CHECK(pppoe_cookie_check(&fuzz_keys, fuzz_mac, 2, p.cookie.data, p.cookie.len));
		CHECK(p.service.present);
		if (req->service.present && req->service.len)
			CHECK(tv_same(&p.service, &req->service));
		else
			CHECK(p.service.len == 0);
		CHECK(maxp ? tv_same(&p.max_payload, &req->max_payload) : !p.max_payload.present);
		CHECK(!p.error.present);
		break;
	case ANS_PADS:
	case ANS_REFUSAL:
		CHECK(p.code == PPPOE_CODE_PADS);
		CHECK(tv_same(&p.relay_sid, &req->relay_sid));
		CHECK(p.service.present);
		if (req->service.present)
			CHECK(tv_same(&p.service, &req->service));
		if (w == ANS_PADS) {
			CHECK(p.sid == 0x1234 && !p.error.present);
			CHECK(maxp ? tv_same(&p.max_payload, &req->max_payload) :
			      !p.max_payload.present);
		} else {
			CHECK(p.sid == 0 && p.error_type == PPPOE_TAG_SERVICE_NAME_ERROR);
			CHECK(p.error.len == 15 && !memcmp(p.error.data, "unknown service", 15));
		}
		break;
	default:
		CHECK(p.code == PPPOE_CODE_PADT && p.sid == 0x1234);
		CHECK(!p.relay_sid.present);
		CHECK(p.error_type == PPPOE_TAG_GENERIC_ERROR && p.error.len == 3);
		break;
	}
}

static void check_answers(const struct pppoe_disc *req, size_t in_len)
{
	uint8_t cookie[PPPOE_COOKIE_LEN], *exact;
	unsigned int w;
	size_t len;

	pppoe_cookie_make(&fuzz_keys, fuzz_mac, 2, cookie);
	(void)pppoe_service_ok(&fuzz_offer, &req->service);
	for (w = 0; w < ANS_COUNT; w++) {
		len = build(w, req, cookie, answer, sizeof(answer));
		if (!len) {
			/* only when the echoed tags are too big for LENGTH */
			CHECK(in_len > FUZZ_FIT_LEN);
			continue;
		}
		check_answer(w, req, cookie, answer, len);

		/* the same bytes in exactly as much room, nothing in less */
		exact = malloc(len);
		if (!exact)
			return;
		CHECK(build(w, req, cookie, exact, len) == len);
		CHECK(!memcmp(exact, answer, len));
		CHECK(build(w, req, cookie, exact, len - 1) == 0);
		free(exact);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pppoe_disc p;
	const char *why = NULL;
	char tmp[16];
	uint8_t *buf;

	if (size > 65535 + PPPOE_HDR_LEN + 64)
		return 0;
	buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);

	if (pppoe_disc_parse(buf, size, &p, &why) == 0) {
		check_bounds(&p, buf, size);
		CHECK(pppoe_code_name(p.code, tmp) != tmp);
		check_answers(&p, size);
		/* a forged cookie creates no state: it must not pass either */
		if (pppoe_cookie_check(&fuzz_keys, fuzz_mac, 2, p.cookie.data, p.cookie.len)) {
			uint8_t want[PPPOE_COOKIE_LEN];
			struct pppoe_cookie_keys prev = fuzz_keys;

			prev.epoch--;
			memcpy(prev.cur, fuzz_keys.prev, PPPOE_SECRET_LEN);
			pppoe_cookie_make(p.cookie.data[3] == (uint8_t)fuzz_keys.epoch ?
					  &fuzz_keys : &prev, fuzz_mac, 2, want);
			CHECK(!memcmp(want, p.cookie.data, PPPOE_COOKIE_LEN));
		}
	} else {
		CHECK(why != NULL);
		CHECK(pppoe_code_name(size > 1 ? buf[1] : 0, tmp) != NULL);
	}
	free(buf);
	return 0;
}
