#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Where a process spends its wall time: sample it until SIGTERM.

    sample_proc.py PID OUT [HZ]

Reads /proc/PID/stat (state), /proc/PID/syscall (the system call it is in)
and /proc/PID/wchan (where in the kernel it sleeps) HZ times a second
(200) and writes to OUT the share of samples per state/syscall/wchan.  A
process that waits with the CPU idle shows here where it waits: in
epoll_wait with nothing to do, or inside one system call.  For the
process's other threads (a pool making blocking calls) it writes how often
K of them were asleep at the same kernel wait channel.
"""
import collections
import os
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
workers = collections.Counter()	# (threads in a kernel wait, by wchan) per sample
n = 0
while not stop:
    try:
        tasks = [t for t in os.listdir("/proc/%s/task" % pid) if t != pid]
    except OSError:
        break
    waits = collections.Counter()
    for t in tasks:
        try:
            waits[open("/proc/%s/task/%s/wchan" % (pid, t)).read().strip() or "-"] += 1
        except OSError:
            pass
    for wc, k in waits.items():
        workers[(wc, k)] += 1
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
    f.write("other threads: share of samples with K threads at WCHAN\n")
    for (wc, k), m in sorted(workers.items(), key=lambda x: -x[1])[:40]:
        f.write("%5.1f%% %3d %s\n" % (100.0 * m / max(n, 1), k, wc))
