#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only real peers: Debian's kernel only (L2TPSEL_PEERS_ON_DEBUG=1 runs it on the debug kernel)
#
# l2tpseld and xl2tpd on Ns/Nr (S-L2TP-1), control plane only
# (kernel none, dataplane none; xl2tpd's pppd is a stub that sleeps, in a
# mount namespace of this test), on the guest's loopback:
#
# - xl2tpd as LAC places calls one after another (one lac section each, as
#   bench/vm/agent.sh does) to an l2tpseld LNS: every call is established;
# - l2tpseld as LAC, 4 clients at once (4 calls on one tunnel), 20 logins
#   to an xl2tpd LNS: every login is ok;
# - xl2tpd never logs "out of order control packet": it takes a control
#   message (a ZLB too) only with the next Ns, and logs any other.  The one
#   exception is a copy of a message it already took, resent by l2tpseld's
#   retransmission timer (xl2tpd stalled past 1 s in a loaded guest, RFC 2661
#   §5.8); l2tpseld's debug log names every such resend, and only those
#   explain a line.
#
# The benchmark saw both fail (xl2tpd: "got 1, expected 2"; 35 of 100
# logins no-reply).  About 15 s in the VM.
source "$(dirname "$0")/../lib.sh"

L2D=${L2TPSELD:-$TOP/build/l2tpseld}
L=$L2TPSEL_CLI

require_root
require_cmd xl2tpd unshare
# control plane only (kernel none): nothing for KASAN to see in l2tpsel, as
# peers.sh's peers_require without "debug"
[ -z "$L2TPSEL_DEBUG_KERNEL" ] || [ "${L2TPSEL_PEERS_ON_DEBUG:-}" = 1 ] ||
	skip "Debian's kernel only (L2TPSEL_PEERS_ON_DEBUG=1 runs it on the debug kernel)"
[ -x "$L2D" ] || skip "no $L2D (run make)"
[ -x "$L" ] || skip "no $L (run make)"

make_tmpdir T || fail "no temporary directory"
XN=4		# xl2tpd LAC calls
N=20		# l2tpseld LAC logins, 4 at a time
printf '#!/bin/sh\nexec sleep 600\n' > "$T/pppd"
chmod +x "$T/pppd"
echo noauth > "$T/options"
ip link set lo up

# xl2tpd (config, name) in a mount namespace where /usr/sbin/pppd sleeps
xl2tpd_start() {
	unshare -m sh -c "mount --bind '$T/pppd' /usr/sbin/pppd || exit 1
		exec xl2tpd -D -c '$T/$1.conf' -p '$T/$1.pid' -C '$T/$1.ctl' > '$T/$1.log' 2>&1" &
	local pid=$!
	defer kill "$pid"
	wait_for 10 test -p "$T/$1.ctl"
}

common=(-o 'kernel none' -o 'log-level 2' -o 'dataplane none')

# ooo_check XL2TPD_LOG L2TPSELD_LOG: print xl2tpd's "out of order" lines, each
# with what explains it; return how many nothing explains.  Explained: "got
# G, expected E" with G before E (a copy of a message xl2tpd already took)
# where l2tpseld logged "tunnel T: tx message (again, timeout) ns G".
ooo_check() {
	awk '
	NR == FNR {
		if (match($0, /tunnel [0-9]+: tx message \(again, timeout\) ns [0-9]+/)) {
			split(substr($0, RSTART, RLENGTH), w, /[ :]+/)
			resent[w[2] ":" w[8]] = 1
		}
		next
	}
	/out of order control packet/ {
		match($0, /on tunnel [0-9]+ \(got [0-9]+, expected [0-9]+\)/)
		split(substr($0, RSTART, RLENGTH), w, /[ (),]+/)
		t = w[3]; g = w[5]; e = w[7]
		dup = (e - g + 65536) % 65536
		if (dup > 0 && dup < 32768 && ((t ":" g) in resent)) {
			print "# explained (resent by the timer): " $0
		} else {
			print "# NOT explained: " $0
			bad++
		}
	}
	END { exit bad > 0 }' "$2" "$1"
}

# --- xl2tpd LAC -> l2tpseld LNS ------------------------------------------------
"$L2D" "${common[@]}" -o 'listen 127.0.0.2 port 1701' -o 'socket none' -o 'hostname lns' \
	2> "$T/lns.log" &
defer kill $!
{
	printf '%s\n' '[global]' 'listen-addr = 127.0.0.10' 'port = 1701' 'access control = no'
	for i in $(seq $XN); do
		printf '\n[lac b%d]\nlns = 127.0.0.2\nautodial = no\nredial = no\npppoptfile = %s\n' \
			"$i" "$T/options"
	done
} > "$T/lac.conf"
xl2tpd_start lac || fail "xl2tpd LAC did not start: $(cat "$T/lac.log")"
calls() { [ "$(grep -c 'Call established' "$T/lac.log")" -ge "$1" ]; }
for i in $(seq $XN); do
	echo "c b$i" > "$T/lac.ctl"
	wait_for 15 calls "$i"
	check_err $? "xl2tpd call $i of $XN was not established"
done
sleep 1		# the acks of the last call
n=$(grep -c '^l2tpseld: session .* established as LNS' "$T/lns.log")
echo "# xl2tpd LAC: $(grep -c 'Call established' "$T/lac.log") calls established, l2tpseld LNS: $n sessions"
[ "$n" -eq "$XN" ]
check_err $? "l2tpseld LNS has $n sessions, not $XN"
# xl2tpd moves a tunnel to a new connected socket right after sending SCCCN
# and reads that socket first: an immediate ZLB for SCCCN reached the old one
# and was read after the ICRP ("got 1, expected 2").  l2tpseld's
# ack of SCCCN now rides on the ICRP (ack-delay, 100 ms).
ooo_check "$T/lac.log" "$T/lns.log"
check_err $? "xl2tpd LAC saw a control message out of order"
log_test "xl2tpd LAC: $XN calls one after another to l2tpseld LNS, Ns in order"

# --- l2tpseld LAC -> xl2tpd LNS, 4 logins at once ------------------------------
printf '%s\n' '[global]' 'listen-addr = 127.0.0.3' 'port = 1701' 'access control = no' '' \
	'[lns default]' 'ip range = 10.99.0.10-10.99.3.250' 'local ip = 10.99.0.1' \
	'require authentication = no' 'refuse pap = yes' 'refuse chap = yes' \
	"pppoptfile = $T/options" > "$T/xlns.conf"
xl2tpd_start xlns || fail "xl2tpd LNS did not start: $(cat "$T/xlns.log")"
"$L2D" "${common[@]}" -o 'port 17011' -o "socket $T/lac.sock" \
	-o 'route ok t-ok 127.0.0.3 port 1701' 2> "$T/agent.log" &
defer kill $!
wait_for 10 test -S "$T/lac.sock" || fail "l2tpseld LAC did not start: $(cat "$T/agent.log")"
for r in $(seq $((N / 4))); do
	cli=()
	for c in 1 2 3 4; do
		timeout 60 "$L" login start "u$r-$c@x" profile ok socket "$T/lac.sock" > "$T/o.$r.$c" 2>&1 &
		cli+=($!)
	done
	wait "${cli[@]}"
done
ok=$(cat "$T"/o.* | grep -c '^done ok')
echo "# l2tpseld LAC: $ok of $N logins ok"
[ "$ok" -eq "$N" ]
check_err $? "only $ok of $N logins ok: $(cat "$T"/o.* | grep '^done' | grep -v '^done ok' | sort | uniq -c)"
echo "# l2tpseld LAC: $(grep -c 'established as LAC' "$T/agent.log") tunnel/session lines"
ooo_check "$T/xlns.log" "$T/agent.log"
check_err $? "xl2tpd LNS saw a control message out of order"
log_test "l2tpseld LAC: $N logins, 4 at once, to xl2tpd LNS, Ns in order"

exit $EXIT_STATUS
