// SPDX-License-Identifier: GPL-2.0
/*
 * Fair PPPoE discovery budgets (S-SEC-6, userspace/l2tpseld/discrate.c):
 * a flood of PADIs from random MAC addresses on one line or one access
 * interface leaves every other line its share, and a PADR with a valid
 * cookie is never crowded out by PADIs.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "../../userspace/l2tpseld/discrate.h"

static const uint8_t key[16] = "0123456789abcdef";

static void mac_of(uint32_t i, uint8_t mac[6])
{
	mac[0] = 0x02;
	mac[1] = 0x5e;
	mac[2] = (uint8_t)(i >> 24);
	mac[3] = (uint8_t)(i >> 16);
	mac[4] = (uint8_t)(i >> 8);
	mac[5] = (uint8_t)i;
}

static struct disc_rate *rate_new(uint32_t per_if, uint32_t per_line, uint32_t per_mac)
{
	static struct disc_rate r;
	struct disc_rate_conf c = { per_if, per_line, per_mac };

	disc_rate_init(&r, &c, key);
	return &r;
}

/* 1000 PADI/s on circuit "A" (random MACs) and 40 subscribers on lines of their own */
TEST(discrate_flooded_line_spares_the_others)
{
	struct disc_rate *r = rate_new(500, 10, 5);
	unsigned int i, flood_ok = 0, others_ok = 0;
	uint8_t mac[6];
	char line[32];

	for (i = 0; i < 1000; i++) {
		mac_of(0x10000 + i * 7919, mac);
		flood_ok += disc_rate_padi(r, 100, 0, (const uint8_t *)"A", 1, mac) == DISC_PASS;
		if (i % 25 == 0) {
			mac_of(i, mac);
			snprintf(line, sizeof(line), "dslam1 eth 1/%u", i);
			others_ok += disc_rate_padi(r, 100, 0, (const uint8_t *)line, strlen(line),
						    mac) == DISC_PASS;
		}
	}
	EXPECT_EQ(flood_ok, 10);
	EXPECT_EQ(others_ok, 40);
	/* the next second the line has its 10 again */
	mac_of(5, mac);
	EXPECT_EQ(disc_rate_padi(r, 101, 0, (const uint8_t *)"A", 1, mac), DISC_PASS);
}

/* no circuit IDs: 1000 PADI/s on interface 1 leave interface 0 its budget */
TEST(discrate_flooded_interface_spares_the_others)
{
	struct disc_rate *r = rate_new(500, 10, 5);
	unsigned int i, flood_ok = 0, others_ok = 0;
	uint8_t mac[6];

	for (i = 0; i < 1000; i++) {
		mac_of(0x20000 + i * 104729, mac);
		flood_ok += disc_rate_padi(r, 7, 1, NULL, 0, mac) == DISC_PASS;
		if (i % 20 == 0) {
			mac_of(i, mac);
			others_ok += disc_rate_padi(r, 7, 0, NULL, 0, mac) == DISC_PASS;
		}
	}
	EXPECT_EQ(flood_ok, 500);
	EXPECT_EQ(others_ok, 50);
	EXPECT_EQ(disc_rate_padi(r, 7, 1, NULL, 0, mac), DISC_OVER_IF);
}

/* the interface's budget spent: a PADR we invited still passes */
TEST(discrate_padr_not_crowded_out_by_padis)
{
	struct disc_rate *r = rate_new(100, 0, 0);
	uint8_t mac[6];
	unsigned int i;

	for (i = 0; i < 300; i++) {
		mac_of(i, mac);
		disc_rate_padi(r, 3, 0, NULL, 0, mac);
	}
	mac_of(9999, mac);
	EXPECT_EQ(disc_rate_padi(r, 3, 0, NULL, 0, mac), DISC_OVER_IF);
	EXPECT_EQ(disc_rate_padr(r, 3, mac), DISC_PASS);
}

/* one MAC address: 5 a second, PADI and PADR together; 0 turns it off */
TEST(discrate_per_mac)
{
	struct disc_rate *r = rate_new(0, 0, 5);
	uint8_t mac[6];
	unsigned int i;

	mac_of(42, mac);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(disc_rate_padi(r, 1, 0, NULL, 0, mac), DISC_PASS);
	EXPECT_EQ(disc_rate_padr(r, 1, mac), DISC_PASS);
	EXPECT_EQ(disc_rate_padi(r, 1, 0, NULL, 0, mac), DISC_OVER_MAC);
	EXPECT_EQ(disc_rate_padr(r, 1, mac), DISC_OVER_MAC);
	EXPECT_EQ(disc_rate_padi(r, 2, 0, NULL, 0, mac), DISC_PASS);
	r = rate_new(0, 0, 0);
	for (i = 0; i < 1000; i++)
		EXPECT_EQ(disc_rate_padi(r, 1, 0, NULL, 0, mac), DISC_PASS);
	EXPECT_STREQ(disc_verdict_name(DISC_OVER_LINE), "over the line's discovery rate");
}
