#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the seed corpus of fuzz/fuzz_l2tp_msg.c: hand-made L2TPv2 control
messages (RFC 2661), one per bug class of Documentation/reliability.md
named after it, plus valid samples of every message the agent sends or
receives.  Run from the repo root:
    fuzz/mk_corpus_l2tp_msg.py
The files are committed; this script documents how each was made.

The xl2tpd-* seeds are not made here: they are datagrams captured (by
fuzz/capture-xl2tpd.sh) between
two xl2tpd 1.3.18 (Debian 12) instances through a UDP relay on loopback,
with "challenge = yes", "hidden bit = yes" and the secret "tunnel-secret"
(SCCRQ, SCCRP, SCCCN with Challenge / Challenge Response, ICRQ, ICRP, ICCN,
CDN, ZLB).  selftests/unit/test_l2tp_corpus.c checks that they parse and
that xl2tpd's Challenge Responses verify with our MD5."""
import hashlib
import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "l2tp_msg")
SECRET = b"fuzz-secret"     # the secret fuzz_l2tp_msg.c parses with
M, H = 0x8000, 0x4000


def avp(typ, value=b"", m=True, h=False, vendor=0, length=None):
    flags = (M if m else 0) | (H if h else 0)
    ln = 6 + len(value) if length is None else length
    return struct.pack(">HHH", flags | (ln & 0x3ff), vendor, typ) + value


def u16(t, v, **kw):
    return avp(t, struct.pack(">H", v), **kw)


def u32(t, v, **kw):
    return avp(t, struct.pack(">I", v), **kw)


def msg(mtype, avps=b"", tid=0, sid=0, ns=0, nr=0, length=None, flags=0xc802):
    body = (u16(0, mtype) if mtype is not None else b"") + avps
    ln = 12 + len(body) if length is None else length
    return struct.pack(">HHHHHH", flags, ln, tid, sid, ns, nr) + body


def hide(typ, value, rv, pad=b"", claimed=None):
    """RFC 2661 section 4.3; claimed overrides the hidden length sub-field."""
    p = struct.pack(">H", len(value) if claimed is None else claimed) + value + pad
    out, prev = b"", None
    for i in range(0, len(p), 16):
        seed = struct.pack(">H", typ) + SECRET + rv if prev is None else SECRET + prev
        key = hashlib.md5(seed).digest()
        c = bytes(a ^ b for a, b in zip(p[i:i + 16], key))
        out, prev = out + c, c
    return out


RV = bytes(range(16))
SCCRQ_AVPS = (u16(2, 0x0100) + avp(7, b"lac.example.net") + u32(3, 3) +
              u16(9, 4242) + u16(10, 4) + avp(5, b"\x01" * 8, m=False) +
              avp(8, b"l2tpsel", m=False))
ICRQ_AVPS = u16(14, 77) + u32(15, 1) + u32(18, 1) + avp(22, b"5550100")

seeds = {
    # valid samples
    "valid-sccrq": msg(1, SCCRQ_AVPS),
    "valid-sccrq-challenge": msg(1, SCCRQ_AVPS + avp(11, b"\xde\xad\xbe\xef" * 4)),
    "valid-sccrp": msg(2, u16(2, 0x0100) + avp(7, b"lns") + u32(3, 3) + u16(9, 17) +
                       avp(13, b"\x55" * 16), tid=4242, nr=1),
    "valid-scccn": msg(3, avp(13, b"\xaa" * 16), tid=17, ns=1, nr=1),
    "valid-stopccn": msg(4, u16(9, 4242) + avp(1, struct.pack(">HH", 2, 8) + b"unknown AVP"),
                         tid=17, ns=2, nr=1),
    "valid-hello": msg(6, tid=17, ns=3, nr=2),
    "valid-icrq": msg(10, ICRQ_AVPS, tid=17, ns=4, nr=2),
    "valid-icrp": msg(11, u16(14, 5), tid=4242, sid=77, ns=2, nr=5),
    "valid-iccn": msg(12, u32(24, 100000000) + u32(19, 1) + avp(39) +
                      u16(29, 4, m=False), tid=17, sid=5, ns=5, nr=3),
    "valid-cdn": msg(14, avp(1, struct.pack(">HH", 4, 4) + b"limit") + u16(14, 5),
                     tid=17, sid=5, ns=6, nr=3),
    "valid-zlb": msg(None, tid=17, ns=7, nr=4),
    "valid-hidden-icrq": msg(10, avp(36, RV) + avp(14, hide(14, b"\x00\x4d", RV, b"\x01\x02"), h=True) +
                             avp(15, hide(15, b"\x00\x00\x00\x01", RV), h=True), tid=17),
    # bug classes
    "cve-2020-15173-avp-length-underflow": msg(1, SCCRQ_AVPS + avp(7, b"", length=3) + b"\x00" * 8),
    "zero-length-avp-loop": msg(6, avp(0x55, b"", length=0) + b"\x00" * 6, tid=17),
    "avp-length-overflow": msg(6, avp(8, b"x" * 4, m=False, length=200), tid=17),
    "avp-header-truncated": msg(6, b"\x80\x08\x00", tid=17),
    "hidden-avp-length-trust": msg(10, avp(36, RV) +
                                   avp(14, hide(14, b"\x00\x4d", RV, claimed=0x3ff), h=True) +
                                   u32(15, 1), tid=17),
    "hidden-avp-before-random-vector": msg(10, avp(14, hide(14, b"\x00\x4d", RV), h=True) +
                                           avp(36, RV) + u32(15, 1), tid=17),
    "hidden-avp-forbidden": msg(1, avp(36, RV) + u16(2, 0x0100) +
                                avp(7, hide(7, b"lac", RV), h=True) + u32(3, 3) + u16(9, 1)),
    "vendor-id-confusion": msg(1, SCCRQ_AVPS + u16(9, 1, vendor=9) +
                               avp(7, b"other", vendor=311, m=False)),
    "vendor-id-message-type": struct.pack(">HHHHHH", 0xc802, 20, 0, 0, 0, 0) +
                              struct.pack(">HHHH", M | 8, 9, 0, 1),
    "unknown-mandatory-avp": msg(10, ICRQ_AVPS + avp(200, b"ab"), tid=17),
    "unknown-message-type": msg(99, tid=17),
    "session-id-collision": msg(10, u16(14, 77) + u16(14, 78) + u32(15, 1), tid=17),
    "assigned-id-zero": msg(1, u16(2, 0x0100) + avp(7, b"h") + u32(3, 3) + u16(9, 0)),
    "tunnel-id-zero-icrq": msg(10, ICRQ_AVPS, tid=0),
    "missing-required-avp": msg(1, u16(2, 0x0100) + u32(3, 3) + u16(9, 1)),
    "protocol-version-2": msg(1, u16(2, 0x0200) + avp(7, b"h") + u32(3, 3) + u16(9, 1)),
    "result-code-length-3": msg(14, avp(1, b"\x00\x02\x00") + u16(14, 5), tid=17, sid=5),
    "receive-window-zero": msg(2, u16(2, 0x0100) + avp(7, b"h") + u32(3, 3) + u16(9, 1) + u16(10, 0)),
    # header and Ns/Nr edge cases
    "l2f-version-1": msg(6, flags=0xc801),
    "data-message": struct.pack(">HHH", 0x4002, 10, 17) + b"\xff\x03\xc0\x21",
    "header-length-beyond-datagram": msg(6, tid=17, length=400),
    "ns-wrap-65535": msg(6, tid=17, ns=65535, nr=65535),
    "nr-acks-unsent": msg(6, tid=17, ns=65535, nr=30000),
    "zlb-stale-nr": msg(None, tid=17, ns=0, nr=65000),
    "ns-out-of-window": msg(6, tid=17, ns=100, nr=65535),
    "ns-duplicate": msg(6, tid=17, ns=65534, nr=65535),
}

os.makedirs(OUT, exist_ok=True)
for name, data in sorted(seeds.items()):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
print("%d seeds in %s" % (len(seeds), OUT))
