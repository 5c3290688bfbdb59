#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Where a process spends its wall time: sample it until SIGTERM.

    sample_proc.py PID OUT [HZ]

Reads /proc/PID/stat (state), /proc/PID/syscall (the system call it is in)
and /proc/PID/wchan (where in the kernel it sleeps) HZ times a second
(200) and writes to OUT the share of samples per state/syscall/wchan.  A
process that waits with the CPU idle shows here where it waits: in
epoll_wait with nothing to do, or inside one system call.
"""
import collections
import signal
import sys
import time

pid, out = sys.argv[1], sys.argv[2]
hz = float(sys.argv[3]) if len(sys.argv) > 3 else 200.0
stop = False


def on_term(signum, frame):
    global stop
    stop = True


signal.signal(signal.SIGTERM, on_term)
names = {}
try:
    import re
    for line in open("/usr/include/x86_64-linux-gnu/asm/unistd_64.h"):
        m = re.match(r"#define __NR_(\w+) (\d+)", line)
        if m:
            names[m.group(2)] = m.group(1)
except OSError:
    pass
c = collections.Counter()
n = 0
while not stop:
    try:
        st = open("/proc/%s/stat" % pid).read().rsplit(")", 1)[1].split()[0]
        sc = open("/proc/%s/syscall" % pid).read().split()[0]
        wc = open("/proc/%s/wchan" % pid).read().strip() or "-"
    except OSError:
        break
    c[(st, names.get(sc, sc), wc)] += 1
    n += 1
    time.sleep(1.0 / hz)
with open(out, "w") as f:
    for (st, sc, wc), k in c.most_common(40):
        f.write("%5.1f%% %s %s %s\n" % (100.0 * k / max(n, 1), st, sc, wc))
