#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the seed corpus of fuzz/fuzz_subgen.c: hand-made Ethernet frames of
the kinds l2tpsel-subgen and l2tpsel-subresp read (RFC 2516 discovery and
session, LCP, PAP, CHAP, IPCP, ICMP), valid ones and a few broken at the
edges the parser checks.  Run from the repo root:
    fuzz/mk_corpus_subgen.py
The files are committed; this script documents how each was made."""
import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "subgen")
SUB = bytes.fromhex("025347000001")
AC = bytes.fromhex("02aabbccddee")
BCAST = b"\xff" * 6


def tag(t, v=b""):
    return struct.pack(">HH", t, len(v)) + v


def disc(code, tags, sid=0, dst=SUB, src=AC, length=None):
    ln = len(tags) if length is None else length
    return dst + src + b"\x88\x63" + struct.pack(">BBHH", 0x11, code, sid, ln) + tags


def sess(proto, info, sid=0x1234, dst=SUB, src=AC, pad=0):
    body = struct.pack(">H", proto) + info
    return (dst + src + b"\x88\x64" + struct.pack(">BBHH", 0x11, 0, sid, len(body)) + body +
            b"\0" * pad)


def cp(code, ident, data, length=None):
    ln = 4 + len(data) if length is None else length
    return struct.pack(">BBH", code, ident, ln) + data


def opt(t, v=b""):
    return bytes([t, 2 + len(v)]) + v


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack(">%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return (~s) & 0xffff


def icmp(typ, ident, seq, src, dst):
    ic = struct.pack(">BBHHH", typ, 0, 0, ident, seq) + b"x" * 56
    ic = ic[:2] + struct.pack(">H", csum(ic)) + ic[4:]
    ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(ic), 1, 0, 64, 1, 0, src, dst)
    ip = ip[:10] + struct.pack(">H", csum(ip)) + ip[12:]
    return ip + ic


HU = tag(0x0103, bytes.fromhex("1122334400000000"))
LCP, PAP, CHAP, IPCP, IP = 0xc021, 0xc023, 0xc223, 0x8021, 0x0021
PEER = bytes([10, 63, 255, 254])
ME = bytes([10, 64, 0, 1])

SEEDS = {
    "padi": disc(0x09, tag(0x0101) + HU, dst=BCAST, src=SUB),
    "pado": disc(0x07, tag(0x0102, b"subresp") + tag(0x0101) + HU +
                 tag(0x0104, b"cookie!!") + tag(0x0110, b"relay")),
    "padr": disc(0x19, tag(0x0101) + HU + tag(0x0104, b"cookie!!"), dst=AC, src=SUB),
    "pads": disc(0x65, tag(0x0101) + HU, sid=0x1234),
    "pads-error": disc(0x65, HU + tag(0x0201, b"no such service")),
    "padt": disc(0xa7, tag(0x0203, b"bye"), sid=0x1234),
    "tag-past-length": disc(0x07, tag(0x0102, b"ac") + b"\x01\x03\x00\x40abc"),
    "length-past-frame": disc(0x07, tag(0x0102, b"ac"), length=200),
    "tag-end-then-junk": disc(0x07, tag(0x0102, b"ac") + tag(0) + b"\xff\xff"),
    "lcp-confreq": sess(LCP, cp(1, 1, opt(1, b"\x05\xd4") + opt(3, b"\xc0\x23") +
                                opt(5, b"\x12\x34\x56\x78"))),
    "lcp-confreq-chap": sess(LCP, cp(1, 2, opt(1, b"\x05\xd4") + opt(3, b"\xc2\x23\x05") +
                                     opt(5, b"\x12\x34\x56\x78") + opt(7) + opt(8))),
    "lcp-confack": sess(LCP, cp(2, 1, opt(1, b"\x05\xd4") + opt(5, b"\x01\x02\x03\x05"))),
    "lcp-option-zero-length": sess(LCP, cp(1, 3, b"\x01\x00\x05\xd4")),
    "lcp-option-past-end": sess(LCP, cp(4, 3, b"\x05\x08\x01\x02")),
    "lcp-length-past-info": sess(LCP, cp(1, 4, b"", length=40)),
    "lcp-padded": sess(LCP, cp(9, 5, b"\x12\x34\x56\x78echo"), pad=20),
    "lcp-termreq": sess(LCP, cp(5, 6, b"")),
    "ip-pfc": (SUB + AC + b"\x88\x64" + struct.pack(">BBHH", 0x11, 0, 0x1234, 85) + b"\x21" +
               icmp(0, 1, 0, PEER, ME)),
    "pap-request": sess(PAP, cp(1, 1, b"\x0fuser1@example\x06secret")),
    "pap-request-short": sess(PAP, cp(1, 1, b"\x40user")),
    "pap-ack": sess(PAP, cp(2, 1, b"\x02ok")),
    "chap-challenge": sess(CHAP, cp(1, 7, b"\x10" + bytes(range(16)) + b"subresp")),
    "chap-value-past-end": sess(CHAP, cp(1, 7, b"\x30abc")),
    "chap-success": sess(CHAP, cp(3, 7, b"ok")),
    "ipcp-confreq": sess(IPCP, cp(1, 1, opt(3, PEER))),
    "ipcp-confnak": sess(IPCP, cp(3, 2, opt(3, ME))),
    "ipcp-confreq-dns": sess(IPCP, cp(1, 3, opt(3, bytes(4)) + opt(129, bytes(4)) +
                                     opt(131, bytes(4)))),
    "icmp-echo-request": sess(IP, icmp(8, 1, 0, ME, PEER)),
    "icmp-echo-reply": sess(IP, icmp(0, 1, 0, PEER, ME)),
    "icmp-total-length-past-info": sess(IP, icmp(0, 1, 0, PEER, ME)[:30]),
    "ipv6cp": sess(0x8057, cp(1, 1, opt(1, bytes(8)))),
    "short-frame": SUB + AC + b"\x88\x64\x11",
    "not-pppoe": SUB + AC + b"\x08\x00" + bytes(46),
}


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, frame in sorted(SEEDS.items()):
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(frame)


if __name__ == "__main__":
    main()
