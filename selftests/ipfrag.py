#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# What crosses one link, for the MTU tests (S-MTU-1): the IPv4 packets
# seen on IFNAME both ways (AF_PACKET, ETH_P_ALL: a tap of one protocol
# sees no outgoing packet), until SIGTERM or SIGINT; then one line of
# counts to OUT:
#
#   packets N fragments N max-len N l2tp-data N data-df N data-max-len N
#   l2tp-control N control-df N
#
# fragments: packets with More Fragments set or a fragment offset; max-len:
# the largest IPv4 Total Length; l2tp-data / l2tp-control: unfragmented UDP
# datagrams from or to port 1701 whose L2TP T bit is clear / set (RFC 2661
# section 3.1), data-df / control-df: how many of them had DF set.  A
# sample: what overflows the socket's 8 MB buffer is not counted (the
# kernel's /proc/net/snmp counts every fragment).
#
# Usage: ipfrag.py IFNAME OUT   (prints "ready" once the socket is bound)
import signal
import socket
import struct
import sys

ETH_P_ALL, ETH_P_IP = 0x0003, 0x0800
SO_RCVBUFFORCE = 33


def main():
    ifname, out = sys.argv[1], sys.argv[2]
    s = socket.socket(socket.AF_PACKET, socket.SOCK_DGRAM, socket.htons(ETH_P_ALL))
    s.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 8 << 20)
    s.bind((ifname, ETH_P_ALL))
    s.settimeout(0.2)
    c = dict.fromkeys(["packets", "fragments", "max-len", "l2tp-data", "data-df",
                       "data-max-len", "l2tp-control", "control-df"], 0)
    done = []
    signal.signal(signal.SIGTERM, lambda *a: done.append(1))
    signal.signal(signal.SIGINT, lambda *a: done.append(1))
    print("ready", flush=True)
    while not done:
        try:
            p, addr = s.recvfrom(65535)
        except (socket.timeout, InterruptedError):
            continue
        if addr[1] != ETH_P_IP or len(p) < 20 or p[0] >> 4 != 4:
            continue
        ihl = (p[0] & 15) * 4
        tot, frag = struct.unpack("!H2xH", p[2:8])
        c["packets"] += 1
        c["max-len"] = max(c["max-len"], tot)
        if frag & 0x3FFF:
            c["fragments"] += 1
            continue
        if p[9] != 17 or len(p) < ihl + 9:
            continue
        sport, dport = struct.unpack("!HH", p[ihl:ihl + 4])
        if 1701 not in (sport, dport):
            continue
        df = 1 if frag & 0x4000 else 0
        if p[ihl + 8] & 0x80:
            c["l2tp-control"] += 1
            c["control-df"] += df
        else:
            c["l2tp-data"] += 1
            c["data-df"] += df
            c["data-max-len"] = max(c["data-max-len"], tot)
    with open(out, "w") as f:
        f.write(" ".join("%s %d" % kv for kv in c.items()) + "\n")


main()
