#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only the agent's RADIUS client; its kernel paths are access_pppoe's
#
# RADIUS for the access role (Documentation/radius.md, S-RAD-1, S-RAD-3 to 5),
# against Debian's FreeRADIUS with a configuration of its own in the hub
# namespace.  PPPoE subscribers (selftests/access.sh) dial the agent, which
# asks RADIUS before it selects a tunnel; its first server is silent, the
# second is FreeRADIUS:
#   - PAP: server 1 is given up after 2 tries and marked dead, server 2's
#     Access-Accept names profile Q (Juniper's Tunnel-Group, 26-2636-64)
#     while the domain map says P: the call goes to Q's LNS;
#   - CHAP, straight to server 2, an Access-Accept without a profile: the
#     domain map decides;
#   - a wrong password: Access-Reject, its Reply-Message in the
#     subscriber's pppd log, nothing counted;
#   - FreeRADIUS stopped: after radius-tries x radius-timeout the
#     radius-fallback (domain-map) lets the login through to P's LNS;
#   - accounting (S-RAD-4): a Start and a Stop per session in FreeRADIUS's
#     detail file, with the tunnel's RFC 2867 attributes; the records made
#     while FreeRADIUS was stopped wait and arrive when it is back;
#   - the agent's radius counters equal what happened, no reply was bad;
#   - a failover's failed attempt (a silent LNS at level 0 of the profile
#     RADIUS names) is a Tunnel-Reject record (RFC 2867) before the Start;
#   - Disconnect-Requests (S-RAD-5) from FreeRADIUS's radclient: one for
#     nobody (NAK 503), one with another secret (dropped, counted), one by
#     User-Name and one by Acct-Session-Id end their calls (ACK, pppd gone,
#     Stop with Admin-Reset), one naming another NAS (NAK 403).
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../peers.sh"
source "$(dirname "$0")/../access.sh"

L=$L2TPSEL_CLI

require_root
peers_require
require_cmd freeradius
access_require
mod_load || fail "insmod $L2TPSEL_KO failed"

peers_init 10.210.0.1 || fail "cannot set up the hub"
peers_add "lns1 10.220.0.11" "lns2 10.220.0.13" "quiet 10.220.0.14" "lns3 10.220.0.15" ||
	fail "cannot add the peers"
peer_silent_start quiet || fail "the silent destination did not start"
peer_lns_start lns1 host lns-one || fail "xl2tpd lns1 did not start"
peer_lns_start lns2 host lns-two || fail "xl2tpd lns2 did not start"
# lns3: in no profile; only RADIUS's tunnel attributes name it, with its secret
peer_lns_start lns3 host lns-three secret radpw || fail "xl2tpd lns3 did not start"
D=$PEERS_DIR
access_init 7 || fail "cannot set up the subscribers' link"
printf '%s\n' "profile add P" "tunnel add T1 profile P level 0 dest 10.220.0.11" \
	"domain add example profile P" "profile add Q" \
	"tunnel add TQ profile Q level 0 dest 10.220.0.13" "profile add F" \
	"tunnel add TS profile F level 0 dest 10.220.0.14" \
	"tunnel add TF profile F level 1 dest 10.220.0.11" >"$D/config"
hub "$L" -b "$D/config" >/dev/null || fail "hub configuration failed"
peers_ready || fail "an xl2tpd did not start"
keep_logs "$D"

# --- FreeRADIUS: Debian's configuration, our users, on the hub's loopback ----
# Debian's tree with four changes: it runs as root (our copy is root's),
# answers a reject at once, takes realms without a dot ("example"), and
# writes its logs and accounting detail files under $R/log.
R=$D/raddb
peer_radius_prepare "$R" || fail "cannot copy /etc/freeradius/3.0"
cat >"$R/mods-config/files/authorize" <<'EOF'
alice@example	Cleartext-Password := "secret"
		Juniper-Tunnel-Group = "Q",
		Reply-Message = "welcome alice"
bob@example	Cleartext-Password := "secret"
carol@example	Cleartext-Password := "not-what-she-types"
		Reply-Message = "wrong password for carol"
dave@example	Cleartext-Password := "secret"
erin@example	Cleartext-Password := "secret"
		Juniper-Tunnel-Group = "F"
EOF
# frank and gina: RADIUS's tunnel attributes, two tags (S-RAD-2)
for u in frank gina; do
	cat >>"$R/mods-config/files/authorize" <<EOF
$u@example	Cleartext-Password := "secret"
		Tunnel-Type:1 = L2TP, Tunnel-Medium-Type:1 = IPv4,
		Tunnel-Server-Endpoint:1 = "10.220.0.14", Tunnel-Preference:1 = 1,
		Tunnel-Type:2 = L2TP, Tunnel-Medium-Type:2 = IPv4,
		Tunnel-Server-Endpoint:2 = "10.220.0.15", Tunnel-Preference:2 = 2,
		Tunnel-Password:2 = "radpw", Tunnel-Assignment-Id:2 = "lns-three",
		Tunnel-Client-Auth-Id:2 = "lac-radius"
EOF
done
printf 'henry@example\tCleartext-Password := "secret"\n' >>"$R/mods-config/files/authorize"
# ivan: the profile attribute and tunnel attributes
cat >>"$R/mods-config/files/authorize" <<'EOF'
ivan@example	Cleartext-Password := "secret"
		Juniper-Tunnel-Group = "Q",
		Tunnel-Type:1 = L2TP, Tunnel-Server-Endpoint:1 = "10.220.0.15"
EOF
# radiusd_start LOG: -X, in the foreground, every request and reply in LOG
radiusd_start() {
	peer_radius_start "$R" "$1" || { tail -20 "$1"; fail "freeradius did not start"; }
	RADIUSD=$PEER_RADIUSD
}
radiusd_start "$D/radiusd.log"

# server 1: nothing listens on its authentication port, its accounting port
# is FreeRADIUS's; server 2: FreeRADIUS
printf '%s\n' 'radius-server 127.0.0.1 port 1999 acct-port 1813 secret testing123' \
	'radius-server 127.0.0.1 secret testing123' 'radius-timeout 1s' 'radius-tries 2' \
	'radius-fallback domain-map' 'radius-accounting yes' 'radius-dead-time 3s' \
	'radius-das 127.0.0.1' 'radius-das-client 127.0.0.1 secret dm-secret' >"$D/agent.conf"
chmod 0600 "$D/agent.conf"
agent_start -c "$D/agent.conf" -o 'access-auth chap pap' -o 'sccrq-timeout 3s' -o 'log-level 2'
rstat() {	# rstat KEY: the agent's radius counter
	val "$(hub "$L" login stats socket "$D/agent.sock" | grep '^radius ')" "$1"
}
dsess() {	# dsess ADDR: sessions the kernel counts on that destination
	val "$(hub "$L" destination show | grep "^$1 ")" sessions
}

# --- PAP; the profile attribute beats the domain map (S-RAD-3) ---------------
dial 0 alice@example refuse-chap
wait_for 30 sub_up 0
check_err $? "subscriber 0: no IPCP (PAP through RADIUS)"
grep -q 'RADIUS Access-Accept, profile Q$' "$D/agent.log"
check_err $? "the agent did not log the Access-Accept with profile Q"
expect "$(dsess 10.220.0.13)" 1 "sessions on Q's LNS"
expect "$(dsess 10.220.0.11)" 0 "sessions on P's LNS (the domain map's)"
sub_ping 0 "$(peer_lns_ppp_addr lns2)"
check_err $? "no ping to Q's LNS"
grep -q 'User-Password = "secret"' "$D/radiusd.log"
check_err $? "FreeRADIUS did not read alice's password from the hidden User-Password"
grep -q 'radius: authentication server 1 did not answer 2 tries: dead for 3000 ms' "$D/agent.log"
check_err $? "server 1 was not given up after 2 tries"
expect "$(rstat timeouts)" 2 "timeouts on server 1"
# the Access-Request's attributes as FreeRADIUS decoded them (RFC 2865 section 4.1)
for a in 'Service-Type = Framed-User' 'Framed-Protocol = PPP' 'NAS-Port-Type = PPPoEoE' \
	'NAS-Port-Id = "acc0"' 'NAS-Identifier = "' 'Calling-Station-Id = "' 'Message-Authenticator = 0x'; do
	grep -qF "$a" "$D/radiusd.log" || check_err 1 "FreeRADIUS saw no $a in the Access-Request"
done
log_test "S-RAD-1/S-RAD-3 PAP through RADIUS: server 1 silent, server 2 answers; the Tunnel-Group attribute picks profile Q over the domain map"

# --- CHAP without a profile attribute: the domain map ------------------------
dial 1 bob@example
wait_for 30 sub_up 1
check_err $? "subscriber 1: no IPCP (CHAP through RADIUS)"
grep -q 'login bob@example (CHAP)' "$D/agent.log"
check_err $? "bob did not log in with CHAP"
grep -q 'CHAP-Password' "$D/radiusd.log"
check_err $? "FreeRADIUS saw no CHAP-Password"
expect "$(dsess 10.220.0.11)" 1 "sessions on P's LNS"
log_test "S-RAD-1 CHAP through RADIUS (CHAP-Password, CHAP-Challenge), no profile: the domain map decides"

# --- Access-Reject --------------------------------------------------------------
dial 2 carol@example refuse-chap
wait_for 30 pid_gone "${SUBPID[2]}"
check_err $? "the rejected subscriber's pppd is still running"
grep -q 'wrong password for carol' "$D/sub2.log"
check_err $? "the subscriber's pppd did not log the Reply-Message: $(grep -i 'message\|auth' "$D/sub2.log" | head -3)"
expect "$(sessions)" 2 "sessions counted (alice and bob only)"
expect "$(astat refused)" 1 "access refused"
log_test "S-RAD-1 Access-Reject: PAP Authenticate-Nak with the Reply-Message, nothing counted"

# --- no RADIUS server: the fallback -------------------------------------------
kill_wait $RADIUSD
t0=$SECONDS
dial 3 dave@example
wait_for 40 sub_up 3
check_err $? "subscriber 3: no IPCP after the RADIUS server went away (fallback domain-map)"
log_info "subscriber 3 up $((SECONDS - t0)) s after dialing with no RADIUS server"
grep -q 'no RADIUS server answered: the domain map decides' "$D/agent.log"
check_err $? "the agent did not log the fallback"
expect "$(astat radius-fallback)" 1 "logins through the fallback"
expect "$(dsess 10.220.0.11)" 2 "sessions on P's LNS"
log_test "S-RAD-1 the server stops: radius-fallback domain-map, the login goes through"

# --- accounting: kept while the server is away, delivered when it returns -----
for i in 0 1 3; do kill_wait "${SUBPID[$i]}"; done
wait_for 15 sessions_are 0
check_err $? "sessions left after the hang-ups: $(sessions)"
[ "$(rstat acct-queued)" -ge 4 ]
check_err $? "records waiting with FreeRADIUS away: $(rstat acct-queued), expected dave's Start and 3 Stops"
radiusd_start "$D/radiusd2.log"
acct_done() { [ "$(rstat acct-queued)" = 0 ]; }
wait_for 30 acct_done
check_err $? "records still waiting after FreeRADIUS came back: $(rstat acct-queued)"
cat "$R"/log/radacct/*/detail-* >"$D/detail" 2>/dev/null
expect "$(grep -c 'Acct-Status-Type = Start' "$D/detail")" 3 "Start records in FreeRADIUS's detail file"
expect "$(grep -c 'Acct-Status-Type = Stop' "$D/detail")" 3 "Stop records"
for u in alice bob dave; do
	expect "$(grep -c "User-Name = \"$u@example\"" "$D/detail")" 2 "records of $u (Start and Stop)"
done
expect "$(grep -o 'Acct-Session-Id = "[0-9A-F]*"' "$D/detail" | sort | uniq -c | awk '$1 != 2' | wc -l)" 0 \
	"Acct-Session-Ids with other than one Start and one Stop"
grep -q 'Tunnel-Server-Endpoint:1 = "10.220.0.13"' "$D/detail"
check_err $? "alice's records do not name Q's LNS as Tunnel-Server-Endpoint"
grep -q 'Acct-Tunnel-Connection = ' "$D/detail"
check_err $? "no Acct-Tunnel-Connection"
# pppd's Terminate-Request crosses the bridge: the LNS clears the call first
expect "$(grep -c 'Acct-Terminate-Cause = Lost-Service' "$D/detail")" 3 \
	"Stops with Acct-Terminate-Cause Lost-Service (the LNS cleared the call)"
log_test "S-RAD-4 accounting: Start and Stop per session with the tunnel's attributes, kept while FreeRADIUS was away"

# --- the counters -----------------------------------------------------------------
expect "$(rstat requests)" 4 "RADIUS requests"
expect "$(rstat accepts)" 2 "Access-Accepts"
expect "$(rstat rejects)" 1 "Access-Rejects"
expect "$(rstat down)" 1 "requests no server answered"
expect "$(rstat bad)" 0 "replies refused"
expect "$(rstat acct-sent)" 6 "accounting records delivered"
expect "$(rstat acct-dropped)" 0 "accounting records dropped"
log_test "counters: requests, accepts, rejects, fallbacks, records exact"

# --- a failover's failed attempt: a Tunnel-Reject record (RFC 2867) ------------
# erin's profile F: a silent LNS at level 0, lns1 at level 1
dial 6 erin@example
wait_for 40 sub_up 6
check_err $? "subscriber 6: no IPCP through profile F's failover"
kill_wait "${SUBPID[6]}"
wait_for 15 sessions_are 0
acct_done() { [ "$(rstat acct-queued)" = 0 ]; }
wait_for 15 acct_done
cat "$R"/log/radacct/*/detail-* >"$D/detail" 2>/dev/null
# erin's records, in order: "STATUS ENDPOINT CAUSE" each
erin=$(awk '/^[A-Z][a-z][a-z] / { if (u) print st, ep, tc; u = 0; st = ep = tc = "-" }
	/User-Name = "erin@example"/ { u = 1 } /Acct-Status-Type = / { st = $3 }
	/Tunnel-Server-Endpoint:1 = / { ep = $3 } /Acct-Terminate-Cause = / { tc = $3 }
	END { if (u) print st, ep, tc }' "$D/detail" | tr -d '"')
expect "$(head -n 2 <<<"$erin" | tr '\n' ';')" \
	"Tunnel-Reject 10.220.0.14 Service-Unavailable;Start 10.220.0.11 -;" \
	"erin's first records (the silent LNS's Tunnel-Reject, then the call's Start on lns1)"
log_test "S-RAD-4 RFC 2867: the failed attempt of a failover is a Tunnel-Reject naming the silent LNS, before the call's Start"

# --- Disconnect-Request (S-RAD-5, RFC 5176) with FreeRADIUS's radclient ---------
# dm SECRET ATTRIBUTE...: a Disconnect-Request to the agent, with the
# Event-Timestamp it requires (S-SEC-8); radclient's output
dm() {
	local secret=$1
	shift
	printf '%s\n' "$@" "Event-Timestamp = $(date +%s)" |
		hub radclient -x -t 2 -r 1 127.0.0.1:3799 disconnect "$secret" 2>&1
}
dstat() {	# dstat KEY: the agent's radius-das counter
	val "$(hub "$L" login stats socket "$D/agent.sock" | grep '^radius-das ')" "$1"
}
dial 4 bob@example
dial 5 dave@example
wait_for 30 sub_up 4 && wait_for 30 sub_up 5
check_err $? "subscribers 4 and 5: no IPCP"
out=$(dm dm-secret 'User-Name = "nobody@example"')
[[ $out == *"Disconnect-NAK"* && $out == *"Session-Context-Not-Found"* ]]
check_err $? "a request for no session: not a NAK with Error-Cause 503: $out"
out=$(dm wrong-secret 'User-Name = "bob@example"')
[[ $out != *"Received Disconnect"* ]]
check_err $? "a request with another secret was answered: $out"
out=$(dm dm-secret 'User-Name = "bob@example"' 'Proxy-State = 0x6c32747073656c')
[[ $out == *"Disconnect-ACK"* && $out == *"Proxy-State = 0x6c32747073656c"* ]]
check_err $? "bob's Disconnect-Request: no ACK with the Proxy-State copied back: $out"
wait_for 15 pid_gone "${SUBPID[4]}"
check_err $? "bob's pppd still runs after the Disconnect-ACK"
expect "$(sessions)" 1 "sessions after bob's disconnect (dave's only)"
# dave by the Acct-Session-Id of his Start, as a billing system would name him
wait_for 15 acct_done
id=$(cat "$R"/log/radacct/*/detail-* | awk '/^[A-Z]/ { u = ""; s = ""; st = "" }
	/User-Name = "dave@example"/ { u = 1 } /Acct-Status-Type = Start/ { st = 1 }
	/Acct-Session-Id = / { s = $3 } u && st && s { id = s } END { gsub(/"/, "", id); print id }')
out=$(dm dm-secret "Acct-Session-Id = \"$id\"" 'NAS-Identifier = "no-such-nas"')
[[ $out == *"Disconnect-NAK"* && $out == *"NAS-Identification-Mismatch"* ]]
check_err $? "a request for another NAS: not a NAK with Error-Cause 403: $out"
out=$(dm dm-secret "Acct-Session-Id = \"$id\"")
[[ $out == *"Disconnect-ACK"* ]]
check_err $? "dave's Disconnect-Request by Acct-Session-Id $id: no ACK: $out"
wait_for 15 pid_gone "${SUBPID[5]}"
check_err $? "dave's pppd still runs after the Disconnect-ACK"
wait_for 15 sessions_are 0
check_err $? "sessions left after the disconnects: $(sessions)"
wait_for 15 acct_done
cat "$R"/log/radacct/*/detail-* >"$D/detail" 2>/dev/null
expect "$(grep -c 'Acct-Terminate-Cause = Admin-Reset' "$D/detail")" 2 \
	"Stops with Acct-Terminate-Cause Admin-Reset"
expect "$(dstat requests)" 4 "Disconnect-Requests taken"
expect "$(dstat acks)" 2 "Disconnect-ACKs"
expect "$(dstat naks)" 2 "Disconnect-NAKs"
expect "$(dstat bad)" 1 "requests dropped (another secret)"
log_test "S-RAD-5 Disconnect-Request: by User-Name and by Acct-Session-Id the call ends (ACK, Stop with Admin-Reset); NAK 503 and 403; another secret dropped"

# --- RADIUS's tunnel attributes: the login's own tunnel set (S-RAD-2) ---------
# frank's Access-Accept: tag 1 the silent 10.220.0.14 (profile F's TS too) at
# preference 1, tag 2 lns3 at preference 2 with its Tunnel-Password.  erin's
# failover locked 10.220.0.14: the set shares that destination and its
# lockout, so frank's first attempt is lns3 (level 1).
dattr() {	# dattr ADDR KEY: a field of the destination's line
	val "$(hub "$L" destination show | grep "^$1 ")" "$2"
}
[ "$(dattr 10.220.0.14 lockout-ms)" -gt 0 ]
check_err $? "10.220.0.14 is not locked after erin's failover"
dial 7 frank@example refuse-chap
wait_for 40 sub_up 7
check_err $? "subscriber 7: no IPCP through RADIUS's tunnel set"
grep -q 'RADIUS Access-Accept, tunnel attributes$' "$D/agent.log"
check_err $? "the agent did not log an Access-Accept with tunnel attributes"
grep -q 'RADIUS tunnel tag 1: tag1 level 0 remote 10.220.0.14$' "$D/agent.log" &&
	grep -q 'RADIUS tunnel tag 2: lns-three level 1 remote 10.220.0.15 secret$' "$D/agent.log"
check_err $? "the set's entries: $(grep 'RADIUS tunnel tag' "$D/agent.log")"
fa=$(grep '(frank@example): attempt ' "$D/agent.log" | grep -o 'tunnel .* remote [0-9.]*' | tr '\n' ';')
expect "$fa" "tunnel lns-three profile ~1 remote 10.220.0.15;" "frank's attempts (the locked one skipped)"
expect "$(dsess 10.220.0.15)" 1 "sessions on lns3"
expect "$(dattr 10.220.0.14 tunnels)" 2 "tunnels naming 10.220.0.14 (F's TS and the set's tag1)"
expect "$(hub "$L" profile show | grep -c '^~1 .* dynamic yes')" 1 "the set as the kernel's profile ~1"
sub_ping 7 "$(peer_lns_ppp_addr lns3)"
check_err $? "no ping to lns3 through the set's tunnel"
log_test "S-RAD-2 tunnel attributes: a set of two tags, the Tunnel-Password opens lns3's tunnel; the destination it shares with profile F shares F's lockout"

# gina has the same attributes: the same set ~1.  With the lockout cleared,
# her first attempt is the silent tag 1: no reply, locked, failover to tag 2.
hub "$L" clear lockout >/dev/null
dial 6 gina@example refuse-chap
wait_for 40 sub_up 6
check_err $? "subscriber 6: no IPCP after the set's failover"
ga=$(grep '(gina@example): attempt ' "$D/agent.log" | grep -o 'tunnel .* remote [0-9.]*' | tr '\n' ';')
expect "$ga" "tunnel tag1 profile ~1 remote 10.220.0.14;tunnel lns-three profile ~1 remote 10.220.0.15;" \
	"gina's attempts (silent tag 1, then tag 2)"
[ "$(dattr 10.220.0.14 lockout-ms)" -gt 0 ]
check_err $? "10.220.0.14 is not locked after gina's failover"
expect "$(dsess 10.220.0.15)" 2 "sessions on lns3 (frank and gina, one set)"
expect "$(hub "$L" profile show | grep -c 'dynamic yes')" 1 "tunnel sets (one for both)"
for i in 6 7; do kill_wait "${SUBPID[$i]}"; done
wait_for 15 sessions_are 0
check_err $? "sessions left after frank and gina hung up: $(sessions)"
wait_for 15 acct_done
cat "$R"/log/radacct/*/detail-* >"$D/detail" 2>/dev/null
gina=$(awk '/^[A-Z][a-z][a-z] / { if (u) print st, ep, tc; u = 0; st = ep = tc = "-" }
	/User-Name = "gina@example"/ { u = 1 } /Acct-Status-Type = / { st = $3 }
	/Tunnel-Server-Endpoint:1 = / { ep = $3 } /Acct-Terminate-Cause = / { tc = $3 }
	END { if (u) print st, ep, tc }' "$D/detail" | tr -d '"' | tr '\n' ';')
expect "$gina" "Tunnel-Reject 10.220.0.14 Service-Unavailable;Start 10.220.0.15 -;Stop 10.220.0.15 Lost-Service;" \
	"gina's records"
grep -q 'Tunnel-Client-Auth-Id:1 = "lac-radius"' "$D/detail"
check_err $? "the records do not carry tag 2's Tunnel-Client-Auth-Id as the LAC's Host Name"
log_test "S-RAD-2 the same attributes share set ~1; its silent tag 1 is locked out and the login fails over to tag 2 (Tunnel-Reject, Start, Stop)"

# --- the profile attribute beats tunnel attributes ---------------------------
dial 5 ivan@example refuse-chap
wait_for 30 sub_up 5
check_err $? "subscriber 5: no IPCP for ivan"
grep -q 'RADIUS Access-Accept, profile Q, tunnel attributes ignored$' "$D/agent.log"
check_err $? "the agent did not log ivan's tunnel attributes as ignored"
expect "$(dsess 10.220.0.13)" 1 "sessions on Q's LNS (ivan)"
expect "$(dsess 10.220.0.15)" 0 "sessions on lns3 (the ignored tunnel attributes')"
kill_wait "${SUBPID[5]}"
wait_for 15 sessions_are 0
check_err $? "sessions left after ivan hung up: $(sessions)"
log_test "S-RAD-3 the profile attribute beats tunnel attributes (ignored, logged)"

# --- Interim-Update and RFC 2867's tunnel records, turned on by a reload ------
# henry's call opens a tunnel to lns1 (the LAC closes a tunnel when its last
# call ends): Tunnel-Start, the call's Start and Tunnel-Link-Start, an
# Interim-Update every 2 s, then Tunnel-Link-Stop, Stop and Tunnel-Stop.
printf '%s\n' 'radius-acct-interim 2s' 'radius-accounting-tunnel yes' >>"$D/agent.conf"
kill -HUP "$AGENT"
wait_for 10 grep -q 'SIGHUP: configuration reloaded' "$D/agent.log"
check_err $? "the agent did not reload its configuration"
wait_for 15 acct_done
n0=$(cat "$R"/log/radacct/*/detail-* | wc -l)
newrec() { cat "$R"/log/radacct/*/detail-* | tail -n +$((n0 + 1)); }
dial 4 henry@example refuse-chap
wait_for 30 sub_up 4
check_err $? "subscriber 4: no IPCP for henry"
sleep 5
kill_wait "${SUBPID[4]}"
wait_for 15 sessions_are 0
tstop() { newrec | grep -q 'Acct-Status-Type = Tunnel-Stop'; }
wait_for 30 tstop
check_err $? "no Tunnel-Stop after henry's tunnel closed"
wait_for 15 acct_done
newrec >"$D/detail3"
expect "$(awk '/Acct-Status-Type = / { print $3 }' "$D/detail3" | uniq | tr '\n' ' ')" \
	"Tunnel-Start Start Tunnel-Link-Start Interim-Update Tunnel-Link-Stop Stop Tunnel-Stop " \
	"the records of henry's call and its tunnel, in order"
ni=$(grep -c 'Acct-Status-Type = Interim-Update' "$D/detail3")
[ "$ni" -ge 2 ]
check_err $? "Interim-Updates in 5 s at 2 s: $ni"
st=$(awk '/Acct-Status-Type = Interim-Update/ { i = 1 } i && /Acct-Session-Time = / { print $3; i = 0 }' \
	"$D/detail3" | tr '\n' ' ')
[[ $st =~ ^[0-9]+\ [0-9]+ ]] && [ "${st%% *}" -lt "$(cut -d' ' -f2 <<<"$st")" ]
check_err $? "the Interim-Updates' Acct-Session-Times do not grow: $st"
ids=$(awk '/^[A-Z][a-z][a-z] / { if (st) print st, id; st = id = "" }
	/Acct-Status-Type = / { st = $3 } /Acct-Session-Id = / { id = $3 }
	END { if (st) print st, id }' "$D/detail3")
sid() { awk -v s="$1" '$1 == s { print $2; exit }' <<<"$ids"; }
[ "$(sid Start)" = "$(sid Interim-Update)" ] && [ "$(sid Start)" = "$(sid Stop)" ] &&
	[ "$(sid Tunnel-Start)" = "$(sid Tunnel-Stop)" ] &&
	[ "$(sid Tunnel-Link-Start)" = "$(sid Tunnel-Link-Stop)" ] &&
	[ "$(sid Start)" != "$(sid Tunnel-Start)" ] && [ "$(sid Start)" != "$(sid Tunnel-Link-Start)" ]
check_err $? "Acct-Session-Ids: one per pair, three pairs: $(tr '\n' ';' <<<"$ids")"
grep -A20 'Acct-Status-Type = Tunnel-Stop' "$D/detail3" | grep -q 'Acct-Terminate-Cause = NAS-Request'
check_err $? "the Tunnel-Stop's Acct-Terminate-Cause is not NAS-Request (the LAC closed it)"
grep -A20 'Acct-Status-Type = Tunnel-Start' "$D/detail3" | grep -q 'Tunnel-Server-Endpoint:1 = "10.220.0.11"'
check_err $? "the Tunnel-Start does not name lns1"
log_test "S-RAD-4 after a reload: Interim-Update every radius-acct-interim, RFC 2867 Tunnel-Start/Stop and Tunnel-Link-Start/Stop, each pair its own Acct-Session-Id"

[ "$EXIT_STATUS" = 0 ] || show_logs
exit $EXIT_STATUS
