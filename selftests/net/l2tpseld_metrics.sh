#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only real peers: Debian's kernel only (L2TPSEL_PEERS_ON_DEBUG=1 runs it on the debug kernel)
#
# l2tpseld's Prometheus endpoint (S-OPS-3) on a live agent with the real
# l2tpsel module: a LAC (kernel netlink, control plane only) whose profile P
# has a silent destination at level 0 and an xl2tpd LNS at level 1, and
# "metrics 127.0.0.1" in its namespace.
#
# - after logins (one fails over from the silent destination, which is
#   locked out; two reuse the tunnel; one is logged out) the endpoint's text
#   passes "promtool check metrics";
# - every figure of the endpoint is the one the CLI gives: the agent's
#   "login stats -j" and "login show -j" (its API) and the kernel's
#   "destination show -j", read before and after the scrape (a counter
#   lies between the two reads, a gauge equals both);
# - other paths are 404, other methods 405; the agent refuses a
#   non-loopback address without "metrics-remote yes".
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../peers.sh"

L2D=${L2TPSELD:-$TOP/build/l2tpseld}
L=$L2TPSEL_CLI
PORT=9717

require_root
peers_require
[ -x "$L2D" ] || skip "no $L2D (run make)"
command -v python3 >/dev/null || skip "no python3"
mod_load || fail "insmod $L2TPSEL_KO failed"

peers_init 10.210.0.1 || fail "cannot set up the hub"
peers_add "lns1 10.220.0.11" "quiet 10.220.0.99" || fail "cannot add the peers"
peer_lns_start lns1 host lns-one secret sesame || fail "xl2tpd lns1 did not start"
peer_silent_start quiet || fail "the silent destination did not start"
HUB=$PEERS_HUB
D=$PEERS_DIR
hub() { ip netns exec "$HUB" "$@"; }

cat >"$D/config" <<EOF2
profile add P
tunnel add T0 profile P level 0 dest 10.220.0.99
tunnel add T1 profile P level 1 dest 10.220.0.11
domain add example profile P
lockout time 300
EOF2
hub "$L" -b "$D/config" >/dev/null
check_err $? "hub configuration failed"

# off the host only when asked: refused at the configuration check
"$L2D" -t -o 'kernel netlink' -o 'metrics 10.210.0.1' >/dev/null 2>"$D/err"
expect $? 1 "non-loopback metrics address without metrics-remote"
grep -q 'metrics-remote yes' "$D/err"
check_err $? "the refusal does not name metrics-remote: $(cat "$D/err")"
"$L2D" -t -o 'kernel netlink' -o 'metrics 10.210.0.1' -o 'metrics-remote yes' >/dev/null 2>"$D/err"
expect $? 0 "non-loopback metrics address with metrics-remote yes"
log_test "config: a non-loopback endpoint needs metrics-remote yes"

ip netns exec "$HUB" "$L2D" -o 'kernel netlink' -o "socket $D/lac.sock" -o 'agent-id 7' \
	-o 'hostname hub-lac' -o 'sccrq-timeout 2s' -o 'icrq-timeout 3s' \
	-o "metrics 127.0.0.1 port $PORT" -c <(echo 'secret T1 sesame') -o 'log-level 1' \
	2>>"$D/lac.log" &
LAC_PID=$!
defer kill -9 $LAC_PID
wait_for 5 test -S "$D/lac.sock" || { tail -20 "$D/lac.log"; fail "l2tpseld LAC did not start"; }
peers_ready || fail "a peer did not start"
grep -q "metrics: serving http://127.0.0.1:$PORT/metrics" "$D/lac.log"
check_err $? "the agent does not say where it serves the metrics"
log_test "agent: serves the metrics on 127.0.0.1:$PORT"

# logins: a failover (T0 silent, locked out), two reuses, one logout
for u in u1 u2 u3; do
	hub "$L" login start $u@example socket "$D/lac.sock" >"$D/o-$u" 2>&1
	check_err $? "login $u failed: $(cat "$D/o-$u")"
done
hub "$L" login stop 3 socket "$D/lac.sock" >/dev/null
check_err $? "logout of login 3"
sleep 0.5
log_test "logins: u1 fails over to T1, u2 and u3 reuse it, u3 logged out"

scrape() {	# scrape PATH [METHOD]: the body on stdout, "HTTP STATUS" on stderr
	hub python3 - "$PORT" "$@" <<'EOF'
import http.client, sys
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=5)
c.request(sys.argv[3] if len(sys.argv) > 3 else "GET", sys.argv[2])
r = c.getresponse()
body = r.read()
sys.stdout.buffer.write(body)
print("HTTP %d %s" % (r.status, r.getheader("Content-Type")), file=sys.stderr)
EOF
}

cli_json() {	# the CLI's three JSON views into $D/$1.*
	hub "$L" -j login stats socket "$D/lac.sock" >"$D/$1.stats"
	hub "$L" -j login show socket "$D/lac.sock" >"$D/$1.show"
	hub "$L" -j destination show >"$D/$1.dest"
}

cli_json before
scrape /metrics >"$D/metrics.txt" 2>"$D/metrics.status"
cli_json after
grep -q '^HTTP 200 text/plain; version=0.0.4; charset=utf-8$' "$D/metrics.status"
check_err $? "GET /metrics: $(cat "$D/metrics.status")"
echo "# $(wc -l <"$D/metrics.txt") lines, $(wc -c <"$D/metrics.txt") bytes"
log_test "GET /metrics: 200, text/plain version 0.0.4"

if command -v promtool >/dev/null; then
	promtool check metrics <"$D/metrics.txt"
	check_err $? "promtool check metrics refused the text"
	log_test "promtool check metrics passes"
else
	echo "# promtool not installed: lint not run"
fi

# every figure of the endpoint against the CLI's, read before and after
python3 - "$D" <<'EOF' >"$D/compare.out" 2>&1
import json, re, sys
d = sys.argv[1]
samples = {}
for line in open(d + "/metrics.txt"):
    if line.startswith("#") or not line.strip():
        continue
    m = re.match(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$', line.rstrip("\n"))
    assert m, "bad line: " + line
    labels = tuple(sorted(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', m.group(2) or "")))
    samples[(m.group(1), labels)] = float(m.group(3))

def load(which):
    out = {}
    for k in ("stats", "show", "dest"):
        out[k] = []
        for l in open("%s/%s.%s" % (d, which, k)):
            if l.strip():
                v = json.loads(l)	# a line an object (the agent's), or an array (a dump)
                out[k] += v if isinstance(v, list) else [v]
    return out
b, a = load("before"), load("after")
checked, bad = 0, []

def check(name, labels, vb, va, gauge=False):
    global checked
    key = (name, tuple(sorted(labels.items())))
    if key not in samples:
        bad.append("missing %s %s" % key)
        return
    v = samples[key]
    ok = (vb == v == va) if gauge else (min(vb, va) <= v <= max(vb, va))
    checked += 1
    if not ok:
        bad.append("%s %s = %s, CLI %s..%s" % (name, labels, v, vb, va))

def event(rows, ev):
    return [r for r in rows if r.get("event") == ev]

sb, sa = event(b["stats"], "stats")[0], event(a["stats"], "stats")[0]
for key, name, gauge in (("tunnels", "l2tpsel_tunnels", True), ("sessions", "l2tpsel_sessions", True),
                         ("rx", "l2tpsel_datagrams_received_total", False),
                         ("rx_discard", "l2tpsel_datagrams_discarded_total", False),
                         ("tx", "l2tpsel_datagrams_sent_total", False),
                         ("tunnels_up", "l2tpsel_tunnels_established_total", False),
                         ("tunnels_failed", "l2tpsel_tunnels_failed_total", False),
                         ("sessions_up", "l2tpsel_sessions_established_total", False),
                         ("sessions_refused", "l2tpsel_sessions_refused_total", False)):
    check(name, {}, sb[key], sa[key], gauge)
cb, ca = event(b["stats"], "control")[0], event(a["stats"], "control")[0]
for key, name in (("sent", "l2tpsel_control_sent_total"),
                  ("retransmits", "l2tpsel_control_retransmissions_total"),
                  ("duplicates", "l2tpsel_control_duplicates_total"),
                  ("out_of_order", "l2tpsel_control_out_of_order_total"),
                  ("stashed", "l2tpsel_control_stashed_total")):
    check(name, {}, cb[key], ca[key])
lb, la = event(b["stats"], "logins")[0], event(a["stats"], "logins")[0]
for key in lb:
    if key != "event":
        check("l2tpsel_logins_total", {"result": key.replace("_", "-")}, lb[key], la[key])
assert lb["ok"] == 3, "3 logins ok, API says %s" % lb["ok"]
hb, ha = event(b["stats"], "login-setup")[0], event(a["stats"], "login-setup")[0]
for key in hb:
    m = re.match(r'le_(\d+)ms$', key)
    if m:
        le = "%g" % (int(m.group(1)) / 1000)
        check("l2tpsel_login_setup_seconds_bucket", {"le": le}, hb[key], ha[key])
check("l2tpsel_login_setup_seconds_bucket", {"le": "+Inf"}, hb["count"], ha["count"])
check("l2tpsel_login_setup_seconds_count", {}, hb["count"], ha["count"])
check("l2tpsel_login_setup_seconds_sum", {}, hb["sum_us"] / 1e6, ha["sum_us"] / 1e6)
for pb, pa in zip(event(b["stats"], "profile"), event(a["stats"], "profile")):
    check("l2tpsel_profile_logins_total", {"profile": pb["name"], "result": "ok"}, pb["logins_ok"], pa["logins_ok"])
    check("l2tpsel_profile_logins_total", {"profile": pb["name"], "result": "failed"}, pb["logins_failed"], pa["logins_failed"])
    check("l2tpsel_profile_sessions", {"profile": pb["name"]}, pb["sessions"], pa["sessions"], True)
assert event(b["stats"], "profile"), "no profile line"
# the agent's tunnels ("login show")
tb = {t["tunnel"]: t for t in event(b["show"], "tunnel")}
ta = {t["tunnel"]: t for t in event(a["show"], "tunnel")}
assert tb, "no tunnel in login show"
for tid, t in tb.items():
    u = ta[tid]
    lab = {"tunnel": str(tid), "peer": t["peer"], "role": t["role"]}
    check("l2tpsel_tunnel_state", dict(lab, state=t["state"]), 1, 1, True)
    check("l2tpsel_tunnel_sessions", lab, t["sessions"], u["sessions"], True)
    check("l2tpsel_tunnel_retransmissions_total", lab, t["retransmits"], u["retransmits"])
    check("l2tpsel_tunnel_out_of_order_total", lab, t["out_of_order"], u["out_of_order"])
    check("l2tpsel_tunnel_stashed_total", lab, t["stashed"], u["stashed"])
    check("l2tpsel_tunnel_send_window_messages", lab, t["send_window"], u["send_window"], True)
# the kernel's destinations ("destination show", the module's DEST_GET)
db = {(x["dest"], x["port"]): x for x in b["dest"]}
da = {(x["dest"], x["port"]): x for x in a["dest"]}
assert len(db) == 2, "two destinations, CLI shows %d" % len(db)
for k, x in db.items():
    y = da[k]
    lab = {"destination": x["dest"], "port": str(x["port"]), "local": x.get("local", "any")}
    check("l2tpsel_destination_sessions", lab, x["sessions"], y["sessions"], True)
    check("l2tpsel_destination_tunnels", lab, x["tunnels"], y["tunnels"], True)
    check("l2tpsel_destination_attempts_total", lab, x["attempts"], y["attempts"])
    check("l2tpsel_destination_failures_total", lab, x["failures"], y["failures"])
    check("l2tpsel_destination_locked_out", lab, int(x["lockout_ms"] > 0), int(y["lockout_ms"] > 0), True)
# and the agent's own destination lines are the kernel's
for x in event(b["stats"], "destination"):
    k = (x["name"], x["port"])
    assert k in db and db[k]["attempts"] == x["attempts"] and db[k]["sessions"] == x["sessions"], \
        "agent's destination %s differs from the kernel's" % (k,)
q = ("l2tpsel_destination_locked_out", tuple(sorted({"destination": "10.220.0.99", "port": "1701", "local": "any"}.items())))
assert samples.get(q) == 1, "the silent destination is not locked out in the metrics"
print("checked %d figures" % checked)
for x in bad:
    print("MISMATCH " + x)
sys.exit(1 if bad else 0)
EOF
rc=$?
cat "$D/compare.out"
expect $rc 0 "the endpoint's figures against the CLI's"
log_test "every figure agrees with login stats/show -j and destination show -j"

scrape /other >/dev/null 2>"$D/st"
grep -q '^HTTP 404 ' "$D/st"
check_err $? "GET /other: $(cat "$D/st")"
scrape /metrics POST >/dev/null 2>"$D/st"
grep -q '^HTTP 405 ' "$D/st"
check_err $? "POST /metrics: $(cat "$D/st")"
# the loop still serves the API after the scrapes
hub "$L" login show socket "$D/lac.sock" >/dev/null
check_err $? "the API after the scrapes"
log_test "GET /other 404, POST 405, the API still answers"

exit $EXIT_STATUS
