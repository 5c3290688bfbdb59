#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Where the guest's CPU went between two snapshots, process by process.

    cpu_by_proc.py snap FILE        # save every process's CPU time
    cpu_by_proc.py diff FILE N OUT  # CPU since FILE, per process name

Reads utime + stime of every task in /proc (threads summed into their
process) and the guest's /proc/stat (interrupt and softirq time, idle).
The diff writes OUT: each process name's CPU milliseconds and its share of
the guest's time, per subscriber (N) in microseconds, and the part of it
spent in the kernel (stime); processes that
started and ended between the snapshots (a shell's awk, say) count whole.
"""
import collections
import json
import os
import sys

HZ = os.sysconf("SC_CLK_TCK")


def stat_fields(path):
    with open(path) as f:
        s = f.read()
    # the name is between the first '(' and the last ')'
    name = s[s.index("(") + 1:s.rindex(")")]
    rest = s[s.rindex(")") + 2:].split()
    return name, rest


def snapshot():
    procs = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            name, f = stat_fields("/proc/%s/stat" % d)
        except (OSError, ValueError):
            continue
        # utime + stime, cutime + cstime, starttime, stime (fields 14-17, 22)
        procs[d] = [name, int(f[11]) + int(f[12]), int(f[13]) + int(f[14]), int(f[19]),
                    int(f[12])]
    with open("/proc/stat") as f:
        cpu = [int(x) for x in f.readline().split()[1:]]
    return {"procs": procs, "cpu": cpu}


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "snap":
        with open(sys.argv[2], "w") as f:
            json.dump(snapshot(), f)
        return 0
    if len(sys.argv) != 5 or sys.argv[1] != "diff":
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    with open(sys.argv[2]) as f:
        a = json.load(f)
    b = snapshot()
    n = max(int(sys.argv[3]), 1)
    by = collections.Counter()
    sys_ = collections.Counter()
    for pid, (name, own, children, start, stime) in b["procs"].items():
        old = a["procs"].get(pid)
        if old is not None and old[3] == start:
            by[name] += own - old[1]
            sys_[name] += stime - old[4]
            # children reaped meanwhile (short-lived helpers)
            by[name + " (children)"] += children - old[2]
        else:
            by[name] += own + children
            sys_[name] += stime
    ca, cb = a["cpu"], b["cpu"]
    d = [y - x for x, y in zip(ca, cb)]
    total = sum(d[:8]) or 1
    # user nice system idle iowait irq softirq steal
    by["[irq+softirq]"] = d[5] + d[6]
    ms = 1000.0 / HZ
    with open(sys.argv[4], "w") as out:
        out.write("%-28s %10s %7s %10s %7s\n" % ("process", "cpu_ms", "share", "us_per_sub",
                                                   "kernel"))
        for name, t in by.most_common():
            if t <= 0:
                continue
            k = "%6.0f%%" % (100.0 * sys_[name] / t) if name in sys_ else ""
            out.write("%-28s %10.0f %6.1f%% %10.0f %7s\n" %
                      (name, t * ms, 100.0 * t / total, t * ms * 1000.0 / n, k))
        out.write("%-28s %10.0f %6.1f%%\n" % ("[idle]", (d[3] + d[4]) * ms,
                                             100.0 * (d[3] + d[4]) / total))
        out.write("%-28s %10.0f\n" % ("[guest total]", total * ms))
    return 0


if __name__ == "__main__":
    sys.exit(main())
