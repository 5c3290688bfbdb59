#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A RADIUS accounting server for the tests (RFC 2866): every
Accounting-Request whose Request Authenticator checks against SECRET gets
an Accounting-Response, and one line on stdout:

    acct STATUS attr TYPE HEX ... vsa VENDOR VTYPE HEX ...

every attribute in the order received, Vendor-Specific ones (26) split
into their sub-attributes.  Prints "ready" once listening.

Usage: acct_sink.py ADDR PORT SECRET
"""
import hashlib
import socket
import struct
import sys


def attrs(body):
    off = 0
    while off + 2 <= len(body):
        t, n = body[off], body[off + 1]
        if n < 2 or off + n > len(body):
            raise ValueError("attribute %d: bad length %d" % (t, n))
        yield t, body[off + 2:off + n]
        off += n


def words(body):
    out = []
    for t, v in attrs(body):
        if t == 26 and len(v) >= 6:
            vendor = struct.unpack("!I", v[:4])[0]
            sub = v[4:]
            while len(sub) >= 2 and sub[1] >= 2 and sub[1] <= len(sub):
                out.append("vsa %d %d %s" % (vendor, sub[0], sub[2:sub[1]].hex()))
                sub = sub[sub[1]:]
        else:
            out.append("attr %d %s" % (t, v.hex()))
    return out


def main():
    addr, port, secret = sys.argv[1], int(sys.argv[2]), sys.argv[3].encode()
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((addr, port))
    print("ready", flush=True)
    while True:
        pkt, peer = s.recvfrom(4096)
        if len(pkt) < 20 or pkt[0] != 4:
            continue
        code, ident, length = struct.unpack("!BBH", pkt[:4])
        pkt = pkt[:length]
        want = hashlib.md5(pkt[:4] + b"\0" * 16 + pkt[20:] + secret).digest()
        if want != pkt[4:20]:
            print("bad-authenticator", flush=True)
            continue
        status = 0
        for t, v in attrs(pkt[20:]):
            if t == 40 and len(v) == 4:
                status = struct.unpack("!I", v)[0]
        print("acct %d %s" % (status, " ".join(words(pkt[20:]))), flush=True)
        head = struct.pack("!BBH", 5, ident, 20)
        auth = hashlib.md5(head + pkt[4:20] + secret).digest()
        s.sendto(head + auth, peer)


if __name__ == "__main__":
    main()
