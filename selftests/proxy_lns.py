#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# A minimal L2TPv2 LNS for the tests, with behaviour RFC 2661 allows and
# pppd-based LNS do not show: it takes the LAC's proxy LCP (section 4.4.5)
# instead of renegotiating, so the subscriber's PPP stays in its
# Authentication phase, and it answers the PAP Authenticate-Requests that
# reach it through the call's data channel (RFC 1334 section 2.2) with an
# Authenticate-Ack, and an LCP Terminate-Request with its Ack and a CDN.
# One tunnel at a time, no tunnel secret.  It prints one line per event to stdout:
# "ready", "tunnel TID", "call SID", "pap-request ID", "pap-ack ID",
# "lcp-terminate ID", "cdn-sent SID", "cdn", "stopccn".
#
# Usage: proxy_lns.py ADDRESS [PORT]
import socket
import struct
import sys

T_BIT, L_BIT, S_BIT, O_BIT = 0x8000, 0x4000, 0x0800, 0x0200
SCCRQ, SCCRP, SCCCN, STOPCCN, HELLO = 1, 2, 3, 4, 6
ICRQ, ICRP, ICCN, CDN = 10, 11, 12, 14
PPP_LCP, PPP_PAP = 0xC021, 0xC023


def say(*words):
    print(*words, flush=True)


def avp(typ, value, mandatory=True):
    return struct.pack("!HHH", (0x8000 if mandatory else 0) | (6 + len(value)), 0, typ) + value


def parse_avps(body):
    out, off = {}, 0
    while off + 6 <= len(body):
        flags_len, vendor, typ = struct.unpack("!HHH", body[off:off + 6])
        n = flags_len & 0x3FF
        if n < 6 or off + n > len(body):
            break
        if vendor == 0:
            out[typ] = body[off + 6:off + n]
        off += n
    return out


class Lns:
    def __init__(self, addr, port):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind((addr, port))
        self.peer = None
        self.peer_tid = 0
        self.tid = 7
        self.ns = 0        # our next Ns
        self.nr = 0        # the next Ns we expect
        self.calls = {}    # our session id -> the LAC's
        self.next_sid = 100

    def send_control(self, sid, body):
        hdr = struct.pack("!HHHHHH", T_BIT | L_BIT | S_BIT | 2, 12 + len(body),
                          self.peer_tid, sid, self.ns, self.nr)
        if body:
            self.ns = (self.ns + 1) & 0xFFFF
        self.sock.sendto(hdr + body, self.peer)

    def zlb(self):
        self.send_control(0, b"")

    def control(self, data, src):
        if len(data) < 12:
            return
        flags, length, _tid, _sid, ns, _nr = struct.unpack("!HHHHHH", data[:12])
        body = data[12:length]
        if not body:
            return     # a ZLB: acknowledges ours
        a = parse_avps(body)
        mtype = struct.unpack("!H", a.get(0, b"\xff\xff"))[0]
        if mtype == SCCRQ:
            self.peer, self.ns, self.nr = src, 0, 0
            self.peer_tid = struct.unpack("!H", a[9])[0]
        if ns != self.nr:
            self.zlb()  # a duplicate (our ack was lost) or out of order: ack what we have
            return
        self.nr = (self.nr + 1) & 0xFFFF
        if mtype == SCCRQ:
            self.send_control(0, avp(0, struct.pack("!H", SCCRP)) +
                              avp(2, b"\x01\x00") + avp(3, struct.pack("!I", 3)) +
                              avp(7, b"proxy-lns") + avp(9, struct.pack("!H", self.tid)) +
                              avp(10, struct.pack("!H", 16)))
            say("tunnel", self.peer_tid)
        elif mtype == ICRQ:
            peer_sid = struct.unpack("!H", a[14])[0]
            sid = self.next_sid
            self.next_sid += 1
            self.calls[sid] = peer_sid
            self.send_control(peer_sid, avp(0, struct.pack("!H", ICRP)) +
                              avp(14, struct.pack("!H", sid)))
        elif mtype == ICCN:
            self.zlb()
            say("call", _sid)
        elif mtype == CDN:
            self.zlb()
            say("cdn")
        elif mtype == STOPCCN:
            self.zlb()
            say("stopccn")
        else:
            self.zlb()  # SCCCN, HELLO, anything else: acknowledged

    def data(self, data):
        flags = struct.unpack("!H", data[:2])[0]
        off = 2
        if flags & L_BIT:
            off += 2
        if len(data) < off + 4:
            return
        _tid, sid = struct.unpack("!HH", data[off:off + 4])
        off += 4
        if flags & S_BIT:
            off += 4
        if flags & O_BIT:
            if len(data) < off + 2:
                return
            off += 2 + struct.unpack("!H", data[off:off + 2])[0]
        ppp = data[off:]
        if ppp[:2] == b"\xff\x03":
            ppp = ppp[2:]
        if len(ppp) < 6 or sid not in self.calls:
            return
        proto, code, pid = struct.unpack("!HBB", ppp[:4])
        if proto == PPP_LCP and code == 5:
            # RFC 1661 section 5.5: a Terminate-Request gets its Terminate-Ack
            self.ppp_send(sid, struct.pack("!HBBH", PPP_LCP, 6, pid, 4))
            say("lcp-terminate", pid)
            # then the call goes, as an LNS's pppd ending does (RFC 2661 section 5.4.3)
            peer_sid = self.calls.pop(sid)
            self.send_control(peer_sid, avp(0, struct.pack("!H", CDN)) +
                              avp(1, struct.pack("!H", 1)) + avp(14, struct.pack("!H", sid)))
            say("cdn-sent", sid)
        elif proto == PPP_PAP and code == 1:
            say("pap-request", pid)
            self.ppp_send(sid, struct.pack("!HBBHB", PPP_PAP, 2, pid, 5, 0))
            say("pap-ack", pid)

    def ppp_send(self, sid, frame):
        hdr = struct.pack("!HHH", 2, self.peer_tid, self.calls[sid])
        self.sock.sendto(hdr + b"\xff\x03" + frame, self.peer)

    def run(self):
        say("ready")
        while True:
            data, src = self.sock.recvfrom(4096)
            if len(data) < 6:
                continue
            if struct.unpack("!H", data[:2])[0] & T_BIT:
                self.control(data, src)
            elif self.peer:
                self.data(data)


if __name__ == "__main__":
    Lns(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1701).run()
