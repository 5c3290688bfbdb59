#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read loop_syscalls.bt's maps into a table per subscriber.

    loop_syscalls.py RAW N OUT

RAW is bpftrace's output (@ns[NR]: total, @calls[NR]: count); OUT gets one
line a system call: its name, calls and microseconds per subscriber (N)
and its share of the time in all of them, the largest first.
"""
import re
import sys

names = {}
try:
    with open("/usr/include/x86_64-linux-gnu/asm/unistd_64.h") as f:
        for line in f:
            m = re.match(r"#define __NR_(\w+)\s+(\d+)", line)
            if m:
                names[int(m.group(2))] = m.group(1)
except OSError:
    pass
ns, calls = {}, {}
with open(sys.argv[1]) as f:
    for line in f:
        m = re.match(r"@(ns|calls)\[(\d+)\]: (\d+)", line)
        if m:
            (ns if m.group(1) == "ns" else calls)[int(m.group(2))] = int(m.group(3))
n = max(int(sys.argv[2]), 1)
total = sum(v for k, v in ns.items() if names.get(k) != "epoll_wait") or 1
with open(sys.argv[3], "w") as out:
    out.write("%-18s %10s %12s %7s\n" % ("syscall", "calls/sub", "us/sub", "share"))
    for k, v in sorted(ns.items(), key=lambda kv: -kv[1]):
        nm = names.get(k, str(k))
        share = "" if nm == "epoll_wait" else "%6.1f%%" % (100.0 * v / total)
        out.write("%-18s %10.2f %12.1f %7s\n" % (nm, calls.get(k, 0) / n, v / 1000.0 / n, share))
    out.write("%-18s %10s %12.1f\n" % ("[all but epoll_wait]", "", total / 1000.0 / n))
