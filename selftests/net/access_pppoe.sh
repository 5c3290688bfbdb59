#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The access role (Documentation/access.md): PPPoE subscribers,
# Debian's pppd with its pppoe plugin in a namespace of their own, dial the
# agent (LAC, hub namespace) over a veth link; the agent answers discovery,
# runs LCP and PAP or CHAP, logs the name in through the module's selection,
# places the call to an xl2tpd LNS and bridges the PPPoE channel to the
# PPPoL2TP one in the kernel.  IPCP comes up between the subscriber and the
# LNS's pppd and a ping crosses PPPoE -> bridge -> L2TP (S-ACC-1, S-ACC-2,
# S-ACC-3, S-ACC-4, S-ACC-5, S-LIM-9).
#
#   - PAP: up, ping, counted (S-LIM-9), no pppd on the LAC, Proxy AVPs sent;
#   - PADT from the subscriber: CDN to the LNS, counts back to 0;
#   - a domain without a profile: PAP Authenticate-Nak carrying the reason,
#     which the subscriber's pppd logs;
#   - CHAP: up and ping; the agent stopping: PADT, counts 0;
#   - l2tpseld as the LNS (pppd in LNS mode): up and ping; its pppd ends
#     the call: CDN -> LCP Terminate-Request and PADT to the subscriber;
#   - failover: a silent LNS at level 0 is locked out by the first
#     subscriber, the next goes straight to level 1;
#   - truncated and oversized discovery frames: dropped and counted, the
#     next subscriber is served;
#   - 50 subscribers at once (ACCESS_SUBS - 6): all up and counted; kill -9
#     of the agent: they lose their sessions (LCP echo), the restarted
#     agent's counts are exact.
#
# On the debug kernel (no CONFIG_PPPOE, CONFIG_MACVLAN in kernel/debug.config)
# the kernel's own pppoe.c and macvlan.c built against the cached tree
# ($L2TPSEL_EXTRA_KOS, comma-separated, mk/debug-kernel.mk) are loaded, and the
# kernel paths run: PAP up with a ping across the bridge,
# PADT, the LNS ending the call (unbridge while frames flow), several
# subscribers and kill -9 (the kernel closing bridged channels).  What is the
# agent's alone (CHAP, refusals, SIGTERM, failover, malformed discovery)
# runs on Debian's kernel only.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../peers.sh"
source "$(dirname "$0")/../access.sh"

L=$L2TPSEL_CLI
FULL=1
[ -z "$L2TPSEL_DEBUG_KERNEL" ] || FULL=
NSUBS=${ACCESS_SUBS:-$([ -n "$FULL" ] && echo 56 || echo 9)}

require_root
peers_require debug
access_require
mod_load || fail "insmod $L2TPSEL_KO failed"

peers_init 10.210.0.1 || fail "cannot set up the hub"
peers_add "lns1 10.220.0.11" "dead 10.220.0.12" "lns2 10.220.0.13" ||
	fail "cannot add the peers"
peer_lns_start lns1 host lns-one || fail "xl2tpd lns1 did not start"
peer_silent_start dead
HUB=$PEERS_HUB
D=$PEERS_DIR
access_init "$NSUBS" || fail "cannot set up the subscribers' link"

printf '%s\n' "profile add P" "tunnel add T1 profile P level 0 dest 10.220.0.11" \
	"domain add example profile P" "profile add Q" \
	"tunnel add TQ profile Q level 0 dest 10.220.0.13" "domain add agent.example profile Q" \
	>"$D/config"
hub "$L" -b "$D/config" >/dev/null || fail "hub configuration failed"
peers_ready || fail "an xl2tpd did not start"

LNS_PPP=$(peer_lns_ppp_addr lns1)
keep_logs "$D"

# --- PAP ----------------------------------------------------------------------
agent_start -o 'access-auth pap'
dial 0 alice@example
wait_for 30 sub_up 0
check_err $? "subscriber 0: no IPCP (PAP)"
sub_ping 0 "$LNS_PPP"
check_err $? "no ping from the subscriber to the LNS ($LNS_PPP)"
expect "$(sessions)" 1 "sessions counted"
expect "$(astat up)" 1 "access up"
hub ip l2tp show session | grep -q '^Session'
check_err $? "no kernel L2TP session on the LAC"
grep -q 'pppd [0-9]* started' "$D/agent.log"
check_fail $? "the LAC started a pppd for an access call"
grep -q 'login alice@example (PAP)' "$D/agent.log"
check_err $? "the agent did not log the PAP login"
log_test "PAP: PPPoE -> LCP, PAP -> selection -> L2TP, kernel bridge, IPCP, ping, counted"

# --- PADT from the subscriber -------------------------------------------------
kill "${SUBPID[0]}"
wait_for 15 sessions_are 0
check_err $? "the session is still counted after the subscriber's PADT" || true
[ "$(sessions)" = 0 ] || { grep -E 'access |closed|CDN' "$D/agent.log" | tail -20; tail -20 "$D/sub0.log"; }
no_ksession() { [ -z "$(hub ip l2tp show session)" ]; }
wait_for 10 no_ksession
check_err $? "a kernel session was left: $(hub ip l2tp show session)"
expect "$(astat gone)" 1 "subscribers gone"
log_info "PADT seen by the agent: $(astat padt-rx) (the pppoe module may take it first)"
log_test "PADT from the subscriber: CDN, kernel session gone, counts 0"

if [ -n "$FULL" ]; then
# --- refusal ------------------------------------------------------------------
dial 1 bob@nowhere.example
wait_for 30 pid_gone "${SUBPID[1]}"
check_err $? "the refused subscriber's pppd is still running"
grep -Eiq 'message.*(domain|profile)' "$D/sub1.log"
check_err $? "the subscriber's pppd did not log the reason: $(grep -i 'message\|auth' "$D/sub1.log" | head -3)"
expect "$(sessions)" 0 "sessions counted after the refusal"
expect "$(astat refused)" 1 "access refused"
log_test "no profile for the domain: PAP Authenticate-Nak with the reason, Terminate, PADT"

# --- CHAP, and the agent stopping ---------------------------------------------
kill_wait "$AGENT"
agent_start -o 'access-auth chap'
dial 2 carol@example
wait_for 30 sub_up 2
check_err $? "subscriber 2: no IPCP (CHAP)"
sub_ping 2 "$LNS_PPP"
check_err $? "no ping across the CHAP subscriber's call"
grep -q 'login carol@example (CHAP)' "$D/agent.log"
check_err $? "the agent did not log the CHAP login"
expect "$(sessions)" 1 "sessions counted (CHAP)"
kill_wait "$AGENT"
wait_for 15 pid_gone "${SUBPID[2]}"
check_err $? "the subscriber's pppd is still up after the agent stopped"
expect "$(sessions)" 0 "sessions counted after the agent stopped"
log_test "CHAP: up and ping; the agent stopping: PADT, the subscriber goes, counts 0"
else
	kill_wait "$AGENT"
fi

# --- l2tpseld as the LNS; the LNS ends the call ---------------------------------
# the peers' pppd options (peers.sh), with the LNS's addresses
_peer_ppp_options lns2
echo "10.240.0.1:10.240.0.2" >>"$D/lns2.options"
ip netns exec "$(peer_ns lns2)" "$L2D" -o 'kernel netlink' -o 'dataplane kernel' \
	-o "socket $D/lns2.sock" -o 'hostname lns-two' -o 'listen 10.220.0.13' \
	-o "lns-pppd-file $D/lns2.options" -o 'log-level 1' 2>"$D/lns2.log" &
defer kill_wait $!
wait_for 5 test -S "$D/lns2.sock" || { cat "$D/lns2.log"; fail "the LNS l2tpseld did not start"; }
agent_start -o 'access-auth chap pap'
dial 6 grace@agent.example
wait_for 30 sub_up 6
check_err $? "subscriber 6: no IPCP through l2tpseld as the LNS"
sub_ping 6 10.240.0.1
check_err $? "no ping to the l2tpseld LNS's PPP address"
lns2_sessions() { val "$(ip netns exec "$(peer_ns lns2)" "$L" summary)" sessions; }
expect "$(lns2_sessions)" 1 "sessions counted by the LNS"
expect "$(sessions)" 1 "sessions counted by the LAC"
log_test "l2tpseld as the LNS: PPPoE subscriber up, ping, counted on both sides"
lns_pppd=$(sed -n 's/.*: pppd \([0-9]*\) started$/\1/p' "$D/lns2.log" | tail -1)
[ -n "$lns_pppd" ] && kill "$lns_pppd"
check_err $? "no pppd on the LNS to stop"
wait_for 15 pid_gone "${SUBPID[6]}"
check_err $? "the subscriber's pppd is still up after the LNS ended the call"
grep -Eiq 'LNS cleared the call|terminat' "$D/sub6.log"
check_err $? "the subscriber did not see the termination: $(tail -3 "$D/sub6.log")"
wait_for 15 sessions_are 0
check_err $? "the LAC still counts the session after the CDN"
expect "$(lns2_sessions)" 0 "sessions counted by the LNS after its pppd ended"
log_test "the LNS ends the call: CDN -> Terminate-Request and PADT to the subscriber"
kill_wait "$AGENT"

if [ -n "$FULL" ]; then
# --- malformed discovery, then a subscriber -----------------------------------
agent_start -o 'access-auth pap chap' -o 'pppoe-padi-rate-per-mac 0'
subs python3 - <<'PY' 2>"$D/scapy.err"
import socket, struct
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("s3", 0))
src = open("/sys/class/net/s3/address").read().strip()
mac = bytes(int(x, 16) for x in src.split(":"))
eth = b"\xff" * 6 + mac + b"\x88\x63"
frames = [
    b"\x11\x09\x00\x00",                                  # shorter than the header
    b"\x11\x09\x00\x00\x00\x08\x01\x01\x00\x10",          # tag beyond LENGTH
    b"\x11\x09\x00\x00\x05\xdc\x01\x01\x00\x00",          # LENGTH beyond the frame
    b"\x11\x09\x00\x00\x00\x03\x01\x01\x00",              # tag header truncated
    b"\x22\x09\x00\x00\x00\x00",                          # version 2
    b"\x11\x09\x00\x07\x00\x00",                          # PADI with a session id
    b"\x11\x09\x00\x00\x05\xd4" + b"\x01\x03\x05\xd0" + b"A" * 1488,  # oversized Host-Uniq
    b"\x11\x19\x00\x00\x00\x08\x01\x04\x00\x04ABCD",      # PADR, forged cookie
]
for f in frames:
    s.send(eth + f)
PY
check_err $? "could not send the malformed frames: $(cat "$D/scapy.err")"
dial 3 dave@example
wait_for 30 sub_up 3
check_err $? "subscriber 3 was not served after the malformed frames"
[ "$(astat bad)" -ge 6 ]
check_err $? "malformed frames counted: $(astat bad), expected at least 6"
[ "$(astat cookie-bad)" -ge 1 ]
check_err $? "the forged cookie was not counted: $(astat cookie-bad)"
kill_wait "${SUBPID[3]}"
wait_for 15 sessions_are 0
check_err $? "sessions left after subscriber 3"
log_test "truncated and oversized discovery frames dropped and counted; the next subscriber served"

# --- the module's rate limit on PPPoE discovery (S-RL-1, S-RL-2) ---------------
# A limit of type pppoe on acc0 (burst 3, 1/s, reject).  From s3: one PADI
# (a PADO), ten more at once, then thirty PADRs with the cookie.  Every PADI
# and PADR is checked once: the limit's counters add up to 41, a passed
# PADI got a PADO, a passed PADR a PADS, a rejected PADR a PADS with session
# ID 0 and the limit's message as AC-System-Error (RFC 2516 section 5.5).
RLMSG="discovery rate exceeded"
hub "$L" ratelimit add disc ingress pppoe peer acc0 rate 1 burst 3 message "$RLMSG"
check_err $? "ratelimit add disc (type pppoe)"
read -r burst ok refused < <(RLMSG=$RLMSG subs python3 - <<'PY' 2>"$D/rl.err"
import os, select, socket, struct, sys, time
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x8863))
s.bind(("s3", 0x8863))
mac = bytes.fromhex(open("/sys/class/net/s3/address").read().strip().replace(":", ""))
def frame(dst, code, tl, sid=0):
    p = b"".join(struct.pack("!HH", t, len(v)) + v for t, v in tl)
    return dst + mac + b"\x88\x63" + struct.pack("!BBHH", 0x11, code, sid, len(p)) + p
def tags(p):
    out, i = {}, 0
    while i + 4 <= len(p):
        t, n = struct.unpack("!HH", p[i:i + 4]); out[t] = p[i + 4:i + 4 + n]; i += 4 + n
    return out
def recv(code, secs, want=1000):
    got, end = [], time.time() + secs
    while len(got) < want and select.select([s], [], [], max(0, end - time.time()))[0]:
        f = s.recv(2048)
        if f[6:12] != mac and f[15] == code:
            sid, n = struct.unpack("!HH", f[16:20])
            got.append((f[6:12], sid, tags(f[20:20 + n])))
    return got
ask = [(0x0101, b""), (0x0103, b"rl-test")]
s.send(frame(b"\xff" * 6, 0x09, ask))
pado = recv(0x07, 5, 1)
if not pado:
    sys.exit("no PADO for the first PADI")
ac, cookie = pado[0][0], pado[0][2][0x0104]
for _ in range(10):
    s.send(frame(b"\xff" * 6, 0x09, ask))
burst = len(recv(0x07, 1.5))
for _ in range(30):
    s.send(frame(ac, 0x19, ask + [(0x0104, cookie)]))
pads = recv(0x65, 3)
ok = [p for p in pads if p[1]]
refused = [p for p in pads if not p[1] and p[2].get(0x0202) == os.environ["RLMSG"].encode()]
for sid in {p[1] for p in ok}:
    s.send(frame(ac, 0xa7, [], sid))
print(burst, len(ok), len(refused))
PY
)
check_err $? "the discovery exchange failed: $(cat "$D/rl.err")"
log_info "10 PADIs at once: $burst PADO; 30 PADRs: $ok PADS, $refused refused with the message"
rl=$(hub "$L" ratelimit show disc)
expect "$(($(val "$rl" passed) + $(val "$rl" rejected)))" 41 "PADIs and PADRs the limit saw ($rl)"
expect "$(val "$rl" passed)" "$((1 + burst + ok))" "passed: one PADO or PADS each"
expect "$(val "$rl" rejected)" "$((10 - burst + refused))" "rejected: the unanswered PADIs and the refusing PADS"
[ "$burst" -le 3 ] && [ "$refused" -ge 25 ]
check_err $? "a burst of 3 at 1/s let $burst of 10 PADIs and $((30 - refused)) of 30 PADRs through"
hub "$L" ratelimit del disc
wait_for 10 eval '[ "$(astat subscribers)" = 0 ]'
check_err $? "the PPPoE session of the limit test is left: $(astat subscribers) subscribers"
log_test "S-RL-1/S-RL-2 a pppoe limit on the access interface: PADI unanswered, PADR refused with its message"

# --- failover: a silent LNS at level 0 ----------------------------------------
kill_wait "$AGENT"
printf '%s\n' "tunnel del T1 profile P" "tunnel add T0 profile P level 0 dest 10.220.0.12" \
	"tunnel add T1 profile P level 1 dest 10.220.0.11" >"$D/config2"
hub "$L" -b "$D/config2" >/dev/null || { show_logs; fail "failover configuration failed"; }
agent_start -o 'access-auth pap' -o 'sccrq-timeout 4s' -o 'rto-initial 1s'
t0=$SECONDS
dial 4 erin@example
wait_for 40 sub_up 4
check_err $? "subscriber 4 did not fail over to level 1"
first=$((SECONDS - t0))
hub "$L" destination show | grep -Eq '^10.220.0.12 .*lockout-ms [1-9]'
check_err $? "the silent LNS was not locked out: $(hub "$L" destination show)"
[ "$(peer_silent_count dead)" -ge 1 ]
check_err $? "the silent LNS was never tried"
n0=$(peer_silent_count dead)
t0=$SECONDS
dial 5 frank@example
wait_for 20 sub_up 5
check_err $? "subscriber 5 did not come up"
second=$((SECONDS - t0))
expect "$(peer_silent_count dead)" "$n0" "datagrams to the locked-out LNS by the second subscriber"
log_info "first subscriber up in ${first}s (silent level 0), second in ${second}s"
expect "$(sessions)" 2 "sessions counted after failover"
log_test "failover: the first subscriber locks the silent LNS out, the next goes to level 1"
kill_wait "${SUBPID[4]}"
kill_wait "${SUBPID[5]}"
wait_for 15 sessions_are 0
check_err $? "sessions left after the failover subscribers"
printf '%s\n' "tunnel del T0 profile P" "tunnel del T1 profile P" "tunnel add T1 profile P level 0 dest 10.220.0.11" \
	>"$D/config3"
hub "$L" -b "$D/config3" >/dev/null
else
	agent_start -o 'access-auth pap'
fi

# --- several at once, then kill -9 of the agent ----------------------------------
NB=$((NSUBS - 6))
up0=$(astat up)
for i in $(seq 7 "$NSUBS"); do
	# LCP echo to notice the kill -9 below; not every second: between the
	# bridge and the LNS's LCP no one answers an echo (the LNS's pppd only
	# does when its LCP is open), which takes seconds on the debug kernel
	dial "$i" "user$i@example" lcp-echo-interval 3 lcp-echo-failure 5
done
n_up() {
	local i k=0
	for i in $(seq 7 "$NSUBS"); do sub_up "$i" && k=$((k + 1)); done
	echo $k
}
# until all are up, while they keep coming: the xl2tpd LNS starts a pppd per
# call, seconds each under TCG, so the time it takes is the machine's load;
# 60 s without one more subscriber up (or 600 s in all) is a failure
all_up() {
	local k last=-1 since=$SECONDS start=$SECONDS
	while k=$(n_up) && [ "$k" -lt "$NB" ]; do
		[ "$k" -gt "$last" ] && { last=$k; since=$SECONDS; }
		[ $((SECONDS - since)) -lt $((60 * L2TPSEL_WAIT_SCALE)) ] &&
			[ $((SECONDS - start)) -lt 600 ] || return 1
		lib_sleep 1
	done
}
# stuck N...: what the subscribers that did not come up and the agent said
stuck() {
	local n mac
	for n in "$@"; do
		mac=$(ip -n "$SUBS" -o link show "s$n" | grep -o 'link/ether [0-9a-f:]*')
		mac=${mac#link/ether }
		echo "--- subscriber $n ($mac): pppd"
		tail -20 "$D/sub$n.log"
		echo "--- the agent on $mac"
		grep -i -- "$mac" "$D/agent.log" | tail -20
	done
}
t0=$SECONDS
if ! all_up; then
	down=$(for i in $(seq 7 "$NSUBS"); do sub_up "$i" || echo -n "$i "; done)
	check_err 1 "not every subscriber came up: $down"
	stuck $down
fi
log_info "$NB subscribers up in $((SECONDS - t0)) s"
expect "$(sessions)" "$NB" "sessions counted with $NB subscribers"
expect "$(($(astat up) - up0))" "$NB" "access up"
log_test "$NB subscribers at once: all up and counted"
# S-OPS-3: the one interface's counters (access-if, what the metrics serve)
# are the whole access role's
hub "$L" login stats socket "$D/agent.sock" >"$D/stats"
aif() { val "$(grep '^access-if acc0 ' "$D/stats")" "$1"; }
aall() { val "$(grep '^access ' "$D/stats")" "$1"; }
for k in subscribers padi pado padr pads pads-refused padt-rx padt-tx bad logins up refused; do
	expect "$(aif $k)" "$(aall $k)" "access-if acc0 $k"
done
expect "$(aif subscribers)" "$NB" "access-if acc0 subscribers"
log_test "S-OPS-3 access-if acc0: the interface's counters are the access role's"
# PPPoE session IDs nobody can guess: not handed out in order, so a PADT
# with a subscriber's MAC and a guessed ID does not end its session
sids=$(for i in $(seq 7 "$NSUBS"); do sed -n 's/^PPP session is \([0-9]*\)$/\1/p' "$D/sub$i.log"; done | sort -n)
span=$(( $(tail -n 1 <<<"$sids") - $(head -n 1 <<<"$sids") ))
expect "$(sort -u <<<"$sids" | wc -l)" "$NB" "distinct PPPoE session IDs"
[ "$span" -ge $((2 * NB)) ]
check_err $? "the PPPoE session IDs are packed in a span of $span: $(tr '\n' ' ' <<<"$sids")"
log_test "PPPoE session IDs are random, not counted up"
kill -9 "$AGENT"
wait "$AGENT" 2>/dev/null
expect "$(sessions)" 0 "sessions counted right after kill -9 (the agent's socket's)"
all_gone() {
	local i
	for i in $(seq 7 "$NSUBS"); do pid_gone "${SUBPID[$i]}" || return 1; done
}
wait_for 60 all_gone
check_err $? "subscribers still up 60 s after kill -9 of the agent"
agent_start -o 'access-auth pap'
wait_for 10 sessions_are 0
check_err $? "the restarted agent left $(sessions) sessions counted"
kill_wait "$AGENT"
log_test "kill -9 of the agent: its counts end with it, the subscribers lose their sessions"

[ "$EXIT_STATUS" = 0 ] || show_logs
exit $EXIT_STATUS
