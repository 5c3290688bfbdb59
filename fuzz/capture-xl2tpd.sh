#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Capture the control datagrams two xl2tpd instances exchange, for the
# xl2tpd-* seeds of fuzz/corpus/l2tp_msg/.  Root; runs in a private network
# namespace (unshare -n), loopback only, so nothing else on the host sees it:
#
#   LAC xl2tpd 127.0.0.3:1701 -> relay 127.0.0.1:1701 -> LNS xl2tpd 127.0.0.2:1701
#
# The relay writes each datagram to OUT/NNN-{lac,lns}.bin.
#   fuzz/capture-xl2tpd.sh OUT
set -eu
[ "${1:-}" ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
if [ "${XL2TPD_CAPTURE_INNER:-}" != 1 ]; then
	exec env XL2TPD_CAPTURE_INNER=1 unshare -n "$0" "$(realpath -m "$1")"
fi
D=$1
rm -rf "$D"
mkdir -p "$D/pk"
ip link set lo up
ip addr add 127.0.0.2/8 dev lo
ip addr add 127.0.0.3/8 dev lo
for role in lns lac; do
	{
		printf '[global]\nport = 1701\naccess control = no\n'
		[ $role = lns ] && printf 'listen-addr = 127.0.0.2\n[lns default]\nip range = 10.9.0.10-10.9.0.20\nlocal ip = 10.9.0.1\n'
		[ $role = lac ] && printf 'listen-addr = 127.0.0.3\n[lac lns]\nlns = 127.0.0.1\nautodial = yes\nredial = no\n'
		printf 'require authentication = no\nlength bit = yes\nchallenge = yes\nhidden bit = yes\nname = x%s\n' $role
	} >"$D/$role.conf"
done
echo "* * tunnel-secret" >"$D/secrets"

python3 - "$D/pk" 8 <<'PY' &
import os, select, socket, sys, time
out = sys.argv[1]
a = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); a.bind(("127.0.0.1", 1701))
b = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); b.bind(("127.0.0.1", 0))
lns, lac, n, end = ("127.0.0.2", 1701), None, 0, time.time() + float(sys.argv[2])
while time.time() < end:
    for s in select.select([a, b], [], [], 0.2)[0]:
        d, src = s.recvfrom(65536)
        if s is a:
            lac, tag = src, "lac"
            b.sendto(d, lns)
        else:
            lns, tag = src, "lns"
            if lac:
                a.sendto(d, lac)
        with open("%s/%03d-%s.bin" % (out, n, tag), "wb") as f:
            f.write(d)
        n += 1
PY
relay=$!
sleep 0.5
xl2tpd -D -c "$D/lns.conf" -p "$D/lns.pid" -C "$D/lns.ctrl" -s "$D/secrets" >"$D/lns.log" 2>&1 &
lns=$!
sleep 0.3
xl2tpd -D -c "$D/lac.conf" -p "$D/lac.pid" -C "$D/lac.ctrl" -s "$D/secrets" >"$D/lac.log" 2>&1 &
lac=$!
sleep 5
kill $lac
sleep 1.5
kill $lns
wait $relay
ls "$D/pk"
