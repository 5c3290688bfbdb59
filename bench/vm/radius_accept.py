#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A RADIUS server that accepts every user, for the storm bench's l2tpns.

    radius_accept.py SECRET POOL_PREFIX

l2tpns checks PAP and CHAP through RADIUS only.  This answers every
Access-Request (RFC 2865 section 4.1) on ports 1812 and 1645 with an
Access-Accept carrying Service-Type Framed, Framed-Protocol PPP and a
Framed-IP-Address of its own per User-Name (POOL_PREFIX, two octets such
as 10.100, then a counter), and every Accounting-Request (RFC 2866) on
1813 and 1646 with an Accounting-Response; both signed with the Response
Authenticator of RFC 2865 section 3.  It checks nothing: it stands for a
RADIUS server that is fast and says yes, so that the bench measures the
LAC and the LNS.
"""
import hashlib
import select
import socket
import struct
import sys

secret = sys.argv[1].encode()
a, b = (int(x) for x in sys.argv[2].split("."))
socks = []
for port in (1812, 1645, 1813, 1646):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("0.0.0.0", port))
    socks.append(s)
addrs = {}


def attrs_of(pkt):
    out, i = {}, 20
    while i + 2 <= len(pkt):
        t, n = pkt[i], pkt[i + 1]
        if n < 2:
            break
        out.setdefault(t, pkt[i + 2:i + n])
        i += n
    return out


def reply(req, code, attrs):
    body = b"".join(struct.pack("BB", t, len(v) + 2) + v for t, v in attrs)
    hdr = struct.pack("!BBH", code, req[1], 20 + len(body))
    auth = hashlib.md5(hdr + req[4:20] + body + secret).digest()
    return hdr + auth + body


while True:
    for s in select.select(socks, [], [])[0]:
        pkt, peer = s.recvfrom(4096)
        if len(pkt) < 20:
            continue
        if pkt[0] == 1:		# Access-Request
            user = attrs_of(pkt).get(1, b"")
            if user not in addrs:
                n = len(addrs) + 2
                addrs[user] = bytes([a, b, (n >> 8) & 0xff, n & 0xff])
            s.sendto(reply(pkt, 2, [(6, struct.pack("!I", 2)), (7, struct.pack("!I", 1)),
                                    (8, addrs[user])]), peer)
        elif pkt[0] == 4:	# Accounting-Request
            s.sendto(reply(pkt, 5, []), peer)
