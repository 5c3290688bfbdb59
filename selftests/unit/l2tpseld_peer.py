#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# A hostile L2TP peer for selftests/unit/l2tpseld_safety.sh: it dials an
# l2tpseld LNS on the loopback (SCCRQ, SCCCN, ICRQ) with a Host Name and a
# Calling Number full of line breaks, an escape sequence and bytes that are
# not UTF-8, then prints the agent's "show" answer (read from its API
# socket) as Python byte strings, one per line, and ends the tunnel.
#
# Usage: l2tpseld_peer.py LNS_ADDR LNS_PORT API_SOCKET
import socket
import struct
import sys
import time

HOSTILE_HOST = b"evil\nl2tpseld: FORGED host\r\x1b[31m\xff\xfe"
HOSTILE_NUMBER = b"0123\nsession 9 FORGED\x1b]0;x\x07\xc3\x28"


def avp(typ, value):
    return struct.pack("!HHH", 0x8000 | (6 + len(value)), 0, typ) + value


def control(tid, sid, ns, nr, body):
    return struct.pack("!HHHHHH", 0xC802, 12 + len(body), tid, sid, ns, nr) + body


def avps(data):
    out, off = {}, 12
    while off + 6 <= len(data):
        flags_len, _vendor, typ = struct.unpack("!HHH", data[off:off + 6])
        n = flags_len & 0x3FF
        if n < 6:
            break
        out[typ] = data[off + 6:off + n]
        off += n
    return out


def recv_control(sock, want):
    """The next non-ZLB control message of type @want (its AVPs)."""
    end = time.time() + 3
    while time.time() < end:
        sock.settimeout(max(0.1, end - time.time()))
        try:
            data, _ = sock.recvfrom(4096)
        except socket.timeout:
            break
        a = avps(data)
        if 0 in a and struct.unpack("!H", a[0])[0] == want:
            return a
    sys.exit("no message type %d from the agent" % want)


def main():
    addr, port, api = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    s.connect((addr, port))
    our_tid = 4242
    s.send(control(0, 0, 0, 0,
                   avp(0, struct.pack("!H", 1)) + avp(2, b"\x01\x00") +
                   avp(7, HOSTILE_HOST) + avp(3, struct.pack("!I", 3)) +
                   avp(9, struct.pack("!H", our_tid))))
    sccrp = recv_control(s, 2)
    tid = struct.unpack("!H", sccrp[9])[0]
    s.send(control(tid, 0, 1, 1, avp(0, struct.pack("!H", 3))))
    s.send(control(tid, 0, 2, 1,
                   avp(0, struct.pack("!H", 10)) + avp(14, struct.pack("!H", 77)) +
                   avp(15, struct.pack("!I", 1)) + avp(22, HOSTILE_NUMBER)))
    recv_control(s, 11)		# ICRP
    time.sleep(0.2)
    u = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    u.connect(api)
    u.sendall(b"show\n")
    got = b""
    u.settimeout(3)
    while not got.endswith(b"end\n"):
        chunk = u.recv(4096)
        if not chunk:
            break
        got += chunk
    for line in got.split(b"\n"):
        if line:
            print(repr(line))
    s.send(control(tid, 0, 3, 2,
                   avp(0, struct.pack("!H", 4)) + avp(9, struct.pack("!H", our_tid)) +
                   avp(1, struct.pack("!HH", 1, 0) + b"bye\nl2tpseld: FORGED stop\x1b[0m")))
    time.sleep(0.2)


if __name__ == "__main__":
    main()
