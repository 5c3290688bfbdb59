#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The floods of selftests/net/hostile_edge.sh.

    hostile_edge.py padi IFACE RATE SECONDS
        PADI (RFC 2516 section 5.1) broadcast on IFACE at RATE a second for
        SECONDS, each from a random unicast MAC with a random Host-Uniq;
        prints "padi sent N" (the frames the kernel took).
    hostile_edge.py tunnels SRC DST N HOLD
        up to N L2TP tunnels (RFC 2661 section 5.1: SCCRQ, SCCRP, SCCCN)
        from SRC to DST:1701, one after another, each from a port of its
        own; then holds the established ones for HOLD seconds (their
        HELLOs acknowledged) and ends each with a StopCCN.  Prints
        "tunnels established E refused R silent S closed C" (refused: a
        StopCCN instead of the SCCRP or after the SCCCN).

Every datagram and frame is built by hand (struct): the point is the
agent's answers to exactly these.
"""
import os
import random
import select
import socket
import struct
import sys
import time

# the L2TP control message helpers of the unit tests' hostile peer
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "unit"))
import l2tpseld_peer as peer  # noqa: E402
from l2tpseld_peer import avp, avps  # noqa: E402


def padi(ifname, rate, seconds):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((ifname, 0))
    made, sent, start = 0, 0, time.monotonic()
    while True:
        now = time.monotonic() - start
        if now >= seconds:
            break
        due = int(now * rate)
        while made < due:
            made += 1
            mac = bytearray(os.urandom(6))
            mac[0] = (mac[0] & 0xFC) | 0x02	# unicast, locally administered
            uniq = os.urandom(8)
            tags = struct.pack("!HH", 0x0101, 0) + struct.pack("!HH", 0x0103, 8) + uniq
            frame = (b"\xff" * 6 + bytes(mac) + struct.pack("!H", 0x8863) +
                     struct.pack("!BBHH", 0x11, 0x09, 0, len(tags)) + tags)
            try:
                s.send(frame)
                sent += 1
            except OSError:
                pass	# a full queue: the frame is lost, as on a wire
        time.sleep(0.002)
    print("padi sent %d" % sent, flush=True)


def control(tid, ns, nr, body):
    return peer.control(tid, 0, ns, nr, body)


def msg_type(data):
    """(message type or 0 for a ZLB, AVPs) of a control message, or None."""
    if len(data) < 12 or not data[0] & 0x80:
        return None
    out = avps(data)
    if 0 not in out:
        return 0, out
    return struct.unpack("!H", out[0][:2])[0], out


class Tunnel:
    def __init__(self, src, dst, our_tid):
        self.s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.s.bind((src, 0))
        self.s.connect((dst, 1701))
        self.our_tid = our_tid
        self.tid = 0
        self.ns = 0
        self.nr = 0

    def send(self, body):
        self.s.send(control(self.tid, self.ns, self.nr, body))
        if body:
            self.ns += 1

    def recv(self, timeout):
        """The next message that is not a ZLB: (type, avps, ns), or None; acknowledged."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            r, _, _ = select.select([self.s], [], [], max(0.0, end - time.monotonic()))
            if not r:
                break
            try:
                data = self.s.recv(4096)
            except OSError:
                return None
            m = msg_type(data)
            if m is None or m[0] == 0:
                continue
            ns = struct.unpack("!H", data[8:10])[0]
            if not self.tid and 9 in m[1] and len(m[1][9]) == 2:
                self.tid = struct.unpack("!H", m[1][9])[0]	# a StopCCN's, acknowledged
            if ns == self.nr:
                self.nr = (self.nr + 1) & 0xFFFF
            self.ack()
            return m[0], m[1], ns
        return None

    def ack(self):
        self.s.send(control(self.tid, self.ns, self.nr, b""))

    def open(self):
        """'answered' (SCCCN sent), 'refused' (StopCCN) or 'silent'."""
        self.send(avp(0, struct.pack("!H", 1)) + avp(2, b"\x01\x00") +
                  avp(7, b"flooder") + avp(3, struct.pack("!I", 3)) +
                  avp(9, struct.pack("!H", self.our_tid)))
        m = self.recv(1.5)
        if m is None:
            return "silent"
        if m[0] != 2 or 9 not in m[1]:
            return "refused"
        self.tid = struct.unpack("!H", m[1][9])[0]
        self.send(avp(0, struct.pack("!H", 3)))
        return "answered"

    def close(self):
        self.send(avp(0, struct.pack("!H", 4)) + avp(1, struct.pack("!HH", 1, 0)) +
                  avp(9, struct.pack("!H", self.our_tid)))


def tunnels(src, dst, n, hold):
    count = {"answered": 0, "refused": 0, "silent": 0}
    up = []
    for i in range(n):
        t = Tunnel(src, dst, 1000 + i)
        r = t.open()
        count[r] += 1
        if r == "answered":
            up.append(t)
        else:
            t.s.close()
    # a StopCCN after our SCCCN: the cap was reached meanwhile (S-SEC-7);
    # the rest are established and held, their HELLOs acknowledged
    stopped = set()
    end = time.monotonic() + hold
    while time.monotonic() < end:
        r, _, _ = select.select([t.s for t in up], [], [], min(1.0, max(0.0, end - time.monotonic())))
        for t in up:
            if t.s in r:
                m = t.recv(0.05)
                if m is not None and m[0] == 4:
                    stopped.add(t)
    up = [t for t in up if t not in stopped]
    for t in up:
        t.close()
    print("tunnels established %d refused %d silent %d closed %d" %
          (len(up), count["refused"] + len(stopped), count["silent"], len(up)), flush=True)


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "padi":
        padi(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))
    elif len(sys.argv) == 6 and sys.argv[1] == "tunnels":
        tunnels(sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    random.seed()
    main()
