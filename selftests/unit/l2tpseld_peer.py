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
#
# With a fourth argument "proxy" it is a LAC with an ordinary Host Name
# that places three calls whose ICCNs carry the Proxy LCP and Proxy
# Authentication AVPs (RFC 2661 section 4.4.5): acceptable (PAP), a Last
# Sent LCP CONFREQ whose option runs past its end, and a subscriber that
# asked for PFC; then it prints the agent's "stats" line and ends the tunnel.
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


def api_lines(api, req):
    u = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    u.connect(api)
    u.sendall(req)
    got = b""
    u.settimeout(3)
    while not got.endswith(b"end\n") and not got.startswith(b"error"):
        chunk = u.recv(4096)
        if not chunk:
            break
        got += chunk
    return [line for line in got.split(b"\n") if line]


# The LAC's Configure-Request (MRU 1442, PAP, magic) and the subscriber's
# (MRU 1492, magic), as the options of AVPs 26 to 28.
LAC_OPTS = bytes([1, 4, 0x05, 0xa2, 3, 4, 0xc0, 0x23, 5, 6, 9, 8, 7, 6])
SUB_OPTS = bytes([1, 4, 0x05, 0xd4, 5, 6, 1, 2, 3, 4])
PROXY_CALLS = [
    (LAC_OPTS, SUB_OPTS),
    (LAC_OPTS[:-1] + b"", SUB_OPTS),           # the magic option past the end
    (LAC_OPTS, SUB_OPTS + bytes([7, 2])),      # the subscriber asked for PFC
]


def proxy_lac(addr, port, api):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    s.connect((addr, port))
    our_tid = 4343
    s.send(control(0, 0, 0, 0,
                   avp(0, struct.pack("!H", 1)) + avp(2, b"\x01\x00") +
                   avp(7, b"lac-proxy") + avp(3, struct.pack("!I", 3)) +
                   avp(9, struct.pack("!H", our_tid))))
    sccrp = recv_control(s, 2)
    tid = struct.unpack("!H", sccrp[9])[0]
    ns, nr = 1, 1
    s.send(control(tid, 0, ns, nr, avp(0, struct.pack("!H", 3))))
    ns += 1
    for i, (sent, rcvd) in enumerate(PROXY_CALLS):
        s.send(control(tid, 0, ns, nr,
                       avp(0, struct.pack("!H", 10)) + avp(14, struct.pack("!H", 100 + i)) +
                       avp(15, struct.pack("!I", 1 + i))))
        ns += 1
        icrp = recv_control(s, 11)
        nr += 1
        sid = struct.unpack("!H", icrp[14])[0]
        s.send(control(tid, sid, ns, nr,
                       avp(0, struct.pack("!H", 12)) + avp(24, struct.pack("!I", 1000000)) +
                       avp(19, struct.pack("!I", 1)) + avp(26, rcvd) + avp(27, sent) +
                       avp(28, rcvd) + avp(29, struct.pack("!H", 3)) +
                       avp(30, b"alice@example") + avp(33, b"secret")))
        ns += 1
    time.sleep(0.3)
    for line in api_lines(api, b"stats\n"):
        if line.startswith(b"stats "):
            print(line.decode())
    s.send(control(tid, 0, ns, nr,
                   avp(0, struct.pack("!H", 4)) + avp(9, struct.pack("!H", our_tid)) +
                   avp(1, struct.pack("!HH", 1, 0))))
    time.sleep(0.2)


def main():
    addr, port, api = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if len(sys.argv) > 4 and sys.argv[4] == "proxy":
        return proxy_lac(addr, port, api)
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
