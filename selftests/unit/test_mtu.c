// SPDX-License-Identifier: GPL-2.0
/*
 * The access MRU from the path to the LNS (S-MTU-1,
 * userspace/l2tpseld/mtu.c): the overhead of the kernel's L2TPv2 data
 * path byte by byte, the figures for a 1500-byte path, and for every path
 * MTU the MRU is the largest whose frame fits, at most PPPoE's 1492.
 */
#include "harness.h"
#include "../../userspace/l2tpseld/mtu.h"

TEST(mtu_overhead_exact)
{
	/* IPv4 20, UDP 8, L2TP 6 (no L, no O), PPP address/control 2, protocol 2 */
	EXPECT_EQ(l2d_mtu_overhead(false, false), 38);
	/* + Ns, Nr */
	EXPECT_EQ(l2d_mtu_overhead(false, true), 42);
	/* IPv6 40 */
	EXPECT_EQ(l2d_mtu_overhead(true, false), 58);
	EXPECT_EQ(l2d_mtu_overhead(true, true), 62);
}

TEST(mtu_1500_path)
{
	EXPECT_EQ(l2d_access_mru(1500, false, false), 1462);
	EXPECT_EQ(l2d_access_mru(1500, false, true), 1458);
	EXPECT_EQ(l2d_access_mru(1500, true, false), 1442);
	EXPECT_EQ(l2d_access_mru(1500, true, true), 1438);
	/* what PPPoE's 1492 needs: 1530 over IPv4, 1550 over IPv6 */
	EXPECT_EQ(l2d_access_mru(1530, false, false), 1492);
	EXPECT_EQ(l2d_access_mru(1529, false, false), 1491);
	EXPECT_EQ(l2d_access_mru(1550, true, false), 1492);
	EXPECT_EQ(l2d_access_mru(1554, true, true), 1492);
	EXPECT_EQ(l2d_access_mru(1553, true, true), 1491);
	/* a jumbo core: RFC 2516's cap */
	EXPECT_EQ(l2d_access_mru(9000, true, true), 1492);
	EXPECT_EQ(l2d_access_mru(65535, false, false), 1492);
	/* the smallest paths the configuration takes */
	EXPECT_EQ(l2d_access_mru(576, false, true), 534);
	EXPECT_EQ(l2d_access_mru(1280, true, true), 1218);
}

TEST(mtu_every_path_fits_and_is_largest)
{
	unsigned int mtu, bad = 0;
	int v6, seq;

	for (v6 = 0; v6 < 2; v6++)
		for (seq = 0; seq < 2; seq++)
			for (mtu = 0; mtu <= 65535; mtu++) {
				unsigned int over = l2d_mtu_overhead(v6, seq);
				unsigned int mru = l2d_access_mru(mtu, v6, seq);

				if (!mru) {
					/* only where not even 64 bytes fit */
					bad += mtu >= over + 64;
					continue;
				}
				bad += mru < 64 || mru > 1492;		/* RFC 2516 section 7 */
				bad += mru + over > mtu;		/* a full frame fits */
				bad += mru < 1492 && mru + 1 + over <= mtu;	/* and is the largest */
			}
	EXPECT_EQ(bad, 0);
}
