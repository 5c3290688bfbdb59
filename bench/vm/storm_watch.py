#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Follow l2tpseld's logins through its API's `watch` for the storm bench.

    storm_watch.py SOCKET READY_FILE OUT_JSON EXPECT QUIET_S

Connects to the agent's API socket, asks `watch`, creates READY_FILE once
the agent answers `watching` (the clock starts then), and reads every
login's lines until EXPECT logins have ended, nothing has come for QUIET_S
seconds, or SIGTERM.  OUT_JSON gets one object: logins ended ok and failed,
the failures by reason, seconds from the start to the first and the last
ok, their rate (ok / last), the agent's own setup time of the ok logins
(`setup-us`, from the login's request to its done line) as p50/p99 in ms,
and the ok logins per tunnel name.  Reads only the API's fields
(Documentation/l2tpseld.md), never the log's wording.
"""
import json
import signal
import socket
import sys
import time

sock_path, ready, out, expect, quiet = sys.argv[1], sys.argv[2], sys.argv[3], \
    int(sys.argv[4]), float(sys.argv[5])
stop = False


def on_term(signum, frame):
    global stop
    stop = True


signal.signal(signal.SIGTERM, on_term)


def pct(v, p):
    if not v:
        return 0.0
    v = sorted(v)
    return v[min(len(v) - 1, int(len(v) * p / 100))]


s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sock_path)
s.sendall(b"watch\n")
f = s.makefile("rb")
if f.readline().strip() != b"watching":
    sys.exit("storm_watch: the agent did not answer watching")
t0 = time.monotonic()
open(ready, "w").close()
s.settimeout(0.5)
ok = fail = 0
first = last = None
setup = []
parts = {"kernel-us": [], "tunnel-us": [], "call-us": [], "bridge-us": []}
tunnels = {}
reasons = {}
buf = b""
idle_since = time.monotonic()
while not stop and ok + fail < expect:
    try:
        chunk = s.recv(65536)
    except socket.timeout:
        if time.monotonic() - idle_since > quiet:
            break
        continue
    except InterruptedError:
        continue
    if not chunk:
        break
    now = time.monotonic() - t0
    idle_since = time.monotonic()
    buf += chunk
    *lines, buf = buf.split(b"\n")
    for line in lines:
        w = line.decode("ascii", "replace").split()
        # login ID done ok|fail ...
        if len(w) < 4 or w[0] != "login" or w[2] != "done":
            continue
        kv = {w[i]: w[i + 1] for i in range(4, len(w) - 1)}
        if w[3] == "ok":
            ok += 1
            if first is None:
                first = now
            last = now
            setup.append(int(kv.get("setup-us", "0")) / 1000.0)
            for k in parts:
                parts[k].append(int(kv.get(k, "0")) / 1000.0)
            t = kv.get("tunnel", "?")
            tunnels[t] = tunnels.get(t, 0) + 1
        else:
            fail += 1
            r = kv.get("reason", "?")
            reasons[r] = reasons.get(r, 0) + 1
res = {
    "ok": ok, "failed": fail, "reasons": reasons,
    "first_s": round(first or 0, 3), "last_s": round(last or 0, 3),
    "per_s": round(ok / last, 1) if last else 0,
    "setup_ms": {"p50": round(pct(setup, 50), 2), "p99": round(pct(setup, 99), 2),
                 "max": round(max(setup), 2) if setup else 0},
    "tunnels": tunnels,
}
for k, v in parts.items():
    res[k.replace("-us", "_ms")] = {"p50": round(pct(v, 50), 2), "p99": round(pct(v, 99), 2)}
with open(out, "w") as o:
    json.dump(res, o)
    o.write("\n")
