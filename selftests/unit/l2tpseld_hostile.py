#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# A hostile L2TP peer for selftests/unit/l2tpseld_hostile.sh
# (S-L2TP-3): against an l2tpseld LNS on the loopback it sends
# truncated, oversized, malformed, reordered, duplicated, wrong-Nr and
# wrong-Tunnel-ID datagrams, and checks what RFC 2661 says the LNS does:
#
#   truncated, a Length field past the datagram, garbage (§3.1): dropped,
#   no answer;
#   an SCCRQ with a malformed AVP (4 KB, zeros after its AVPs): StopCCN,
#   result 2 (general error), error 2 (length is wrong) (§4.1, §4.4.2);
#   Ns ahead of the next expected (§5.8): dropped until it is resent in order;
#   a duplicate (§5.8): acknowledged again (ZLB), delivered once;
#   Nr acknowledging what the LNS never sent: the message is not trusted;
#   a Tunnel ID that is not this peer's (another source address): dropped.
#
# Every check prints one KTAP line; the exit status is the number failed.
#
# Usage: l2tpseld_hostile.py LNS_ADDR LNS_PORT OTHER_SOURCE_ADDR
import socket
import struct
import sys
import time

T_SCCRQ, T_SCCRP, T_SCCCN, T_STOPCCN, T_HELLO, T_ICRQ, T_ICRP = 1, 2, 3, 4, 6, 10, 11
failed = 0
count = 0


def check(name, cond):
    global failed, count
    count += 1
    print("%sok %d %s" % ("" if cond else "not ", count, name), flush=True)
    failed += 0 if cond else 1


def avp(typ, value):
    return struct.pack("!HHH", 0x8000 | (6 + len(value)), 0, typ) + value


def control(tid, sid, ns, nr, body):
    return struct.pack("!HHHHHH", 0xC802, 12 + len(body), tid, sid, ns, nr) + body


def msg_type(data):
    """The Message Type of a control message, 0 for a ZLB, None for garbage."""
    if len(data) < 12:
        return None
    if len(data) == 12:
        return 0
    flags_len, _vendor, typ = struct.unpack("!HHH", data[12:18])
    return struct.unpack("!H", data[18:20])[0] if typ == 0 else None


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


def nr_of(data):
    return struct.unpack("!H", data[10:12])[0]


def receive(sock, secs):
    """Every datagram within @secs."""
    got, end = [], time.time() + secs
    while True:
        left = end - time.time()
        if left <= 0:
            return got
        sock.settimeout(left)
        try:
            got.append(sock.recv(8192))
        except socket.timeout:
            return got


def wait_for(sock, want, secs=3.0):
    """The first datagram of type @want (0: a ZLB) within @secs, or None."""
    end = time.time() + secs
    while time.time() < end:
        for d in receive(sock, min(0.2, end - time.time())):
            if msg_type(d) == want:
                return d
    return None


def sccrq(ptid):
    return control(0, 0, 0, 0,
                   avp(0, struct.pack("!H", T_SCCRQ)) + avp(2, b"\x01\x00") +
                   avp(7, b"hostile") + avp(3, struct.pack("!I", 3)) +
                   avp(9, struct.pack("!H", ptid)))


def icrq(tid, ns, nr, psid):
    return control(tid, 0, ns, nr,
                   avp(0, struct.pack("!H", T_ICRQ)) + avp(14, struct.pack("!H", psid)) +
                   avp(15, struct.pack("!I", psid)))


def main():
    addr, port, other = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    s.connect((addr, port))

    # Truncated SCCRQs (every prefix), a Length past the datagram, garbage:
    # none gets an answer.
    good = sccrq(101)
    for n in range(1, len(good)):
        s.send(good[:n])
    s.send(good[:2] + struct.pack("!H", len(good) + 40) + good[4:])
    s.send(b"\xff" * 64)
    got = receive(s, 1.0)
    check("truncated, overlong-Length and garbage datagrams: no answer (%d)" % len(got), not got)
    # 4 KB: the SCCRQ's AVPs, then zeros (an AVP of length 0)
    s.send(good[:2] + struct.pack("!H", 4096) + good[4:] + b"\0" * (4096 - len(good)))
    d = wait_for(s, T_STOPCCN, 2.0)
    rc = struct.unpack("!HH", avps(d)[1][:4]) if d is not None and 1 in avps(d) else None
    check("a 4 KB SCCRQ with a malformed AVP: StopCCN result 2 error 2 (%s)" % (rc,),
          rc == (2, 2))

    # A tunnel of ours, then a call whose ICRQ comes before the SCCCN.
    s.send(sccrq(102))
    d = wait_for(s, T_SCCRP)
    check("a well-formed SCCRQ after them gets its SCCRP", d is not None)
    if d is None:
        return
    tid = struct.unpack("!H", avps(d)[9])[0]
    s.send(icrq(tid, 2, 1, 77))		# Ns 2 before Ns 1
    check("an ICRQ ahead of the SCCCN (Ns 2, 1 expected) is not answered (§5.8)",
          wait_for(s, T_ICRP, 1.0) is None)
    s.send(control(tid, 0, 1, 1, avp(0, struct.pack("!H", T_SCCCN))))
    s.send(icrq(tid, 2, 1, 77))		# resent, now in order
    d = wait_for(s, T_ICRP)
    check("the SCCCN, then the ICRQ resent in order: ICRP", d is not None)
    lns_ns = 2				# SCCRP 0, ICRP 1: the LNS's next is 2

    # A duplicate SCCCN: acknowledged again (a ZLB with Nr 3), nothing else.
    s.send(control(tid, 0, 1, 1, avp(0, struct.pack("!H", T_SCCCN))))
    d = wait_for(s, 0, 3.0)
    check("a duplicate (Ns 1 again) is acknowledged with a ZLB, Nr 3 (§5.8)",
          d is not None and nr_of(d) == 3)

    # Nr beyond what the LNS sent: not trusted, not acknowledged; then the
    # same HELLO with a right Nr is.
    s.send(control(tid, 0, 3, lns_ns + 100, avp(0, struct.pack("!H", T_HELLO))))
    got = receive(s, 1.5)
    check("a HELLO with Nr %d (the LNS sent %d) is not acknowledged" % (lns_ns + 100, lns_ns),
          not [g for g in got if msg_type(g) == 0 and nr_of(g) == 4])
    s.send(control(tid, 0, 3, lns_ns, avp(0, struct.pack("!H", T_HELLO))))
    d = wait_for(s, 0, 3.0)
    check("the same HELLO with Nr %d is acknowledged (ZLB, Nr 4)" % lns_ns,
          d is not None and nr_of(d) == 4)

    # Every Tunnel ID from another source address: dropped, none answered;
    # the real calls of the test's LAC go on meanwhile.
    o = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    o.bind((other, 0))
    o.connect((addr, port))
    for t in range(1, 65536):
        o.send(control(t, 0, 0, 0, avp(0, struct.pack("!H", T_HELLO))))
        if not t % 512:
            time.sleep(0.002)	# the LNS's receive buffer, not its code, would drop them
    got = receive(o, 1.0)
    check("HELLO to each of the 65535 Tunnel IDs from %s: no answer (%d)" % (other, len(got)),
          not got)

    # Our tunnel is still there: a HELLO in order is acknowledged.
    s.send(control(tid, 0, 4, lns_ns, avp(0, struct.pack("!H", T_HELLO))))
    d = wait_for(s, 0, 3.0)
    check("after all that our tunnel still answers a HELLO (ZLB, Nr 5)",
          d is not None and nr_of(d) == 5)
    s.send(control(tid, 0, 5, lns_ns,
                   avp(0, struct.pack("!H", T_STOPCCN)) + avp(9, struct.pack("!H", 102)) +
                   avp(1, struct.pack("!H", 1))))
    receive(s, 0.3)


main()
sys.exit(failed)
