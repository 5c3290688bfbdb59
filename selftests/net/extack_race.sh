#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Extack messages of concurrent requests on one socket: two
# threads on ONE netlink socket send refused requests whose
# messages differ (build/extack_race, selftests/net/extack_race.c); every
# ACK must carry exactly its own request's message.  A message kept where
# the other thread's request may rewrite or free it before netlink_ack()
# copies it shows as a wrong text here, or as a WARN in netlink_ack(),
# which vm.sh's kernel log check (and panic_on_warn) turns into a failure.
source "$(dirname "$0")/../lib.sh"

EXTACK_RACE=${EXTACK_RACE:-$TOP/build/extack_race}
# Seconds of hammering, 20 on both kernels: the debug kernel answers some
# 30 times slower, but what it adds is KASAN and lockdep on the same race.
secs=${EXTACK_RACE_SECS:-20}

require_root
require_module_file
[ -x "$EXTACK_RACE" ] || skip "no $EXTACK_RACE (run make)"

mod_load || fail "insmod $L2TPSEL_KO failed"

"$EXTACK_RACE" -s "$secs"
check_err $? "an ACK came back without its own request's message"
log_test "two threads on one socket: every ACK has its own message (${secs} s)"

mod_unload
check_err $? "rmmod l2tpsel failed"
log_test "module unloads after the race"

exit $EXIT_STATUS
