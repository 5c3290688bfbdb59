#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Where an L2TP storm's calls wait, read from a capture of the LAC's link.

    bench/vm/l2tp_pcap.py FILE.pcap LAC_ADDRESS

Reads a classic pcap (Ethernet, IPv4, UDP) written by tcpdump on the LAC's
network side and prints, for the LAC's control messages (RFC 2661 section
5.8: each non-ZLB message takes a place in the peer's receive window until
the peer's Nr passes its Ns):
  - the time from a message's first sending to its acknowledgement (the
    peer's answer time), p50/p90/p99;
  - how many of the LAC's messages were unacknowledged when each one left
    (4 or more: the window towards a peer that gave no Receive Window Size
    AVP was full up to that send);
  - when an acknowledgement opened the window full up to then, the time
    until the LAC's next message left (the LAC's own reaction), and the
    share of the time the window was full;
  - per call: ICRQ to ICRP (the peer), ICRP to ICCN (the LAC), ICCN to the
    peer's first PPP frame of the call (the peer starting PPP), and the
    peer's messages' wait for the LAC's acknowledgement.
No library: the pcap and L2TP headers are read by hand (text only, a tool
for measuring, not product code).
"""
import socket
import struct
import sys

WINDOW = 4	# the peer's receive window: none given, RFC 2661 section 5.8
MSG = {1: 'SCCRQ', 2: 'SCCRP', 3: 'SCCCN', 4: 'StopCCN', 6: 'HELLO',
       10: 'ICRQ', 11: 'ICRP', 12: 'ICCN', 14: 'CDN', 0: 'ZLB'}


def packets(path):
    """(time, src, dst, udp payload) of each IPv4/UDP frame."""
    data = open(path, 'rb').read()
    magic = struct.unpack('<I', data[:4])[0]
    endian = '<' if magic in (0xa1b2c3d4, 0xa1b23c4d) else '>'
    nano = magic in (0xa1b23c4d, 0x4d3cb2a1)
    off = 24
    while off + 16 <= len(data):
        sec, frac, incl, _ = struct.unpack(endian + 'IIII', data[off:off + 16])
        frame = data[off + 16:off + 16 + incl]
        off += 16 + incl
        t = sec + frac / (1e9 if nano else 1e6)
        if len(frame) < 42 or frame[12:14] != b'\x08\x00':
            continue
        ihl = (frame[14] & 15) * 4
        if frame[23] != 17:
            continue
        src = socket.inet_ntoa(frame[26:30])
        dst = socket.inet_ntoa(frame[30:34])
        yield t, src, dst, frame[14 + ihl + 8:]


def l2tp(p):
    """(control, tunnel, session, ns, nr, message type, avps) or None."""
    if len(p) < 6:
        return None
    flags = struct.unpack('!H', p[:2])[0]
    if flags & 0xf != 2:
        return None
    o = 2
    if flags & 0x4000:
        o += 2
    tid, sid = struct.unpack('!HH', p[o:o + 4])
    o += 4
    ns = nr = None
    if flags & 0x0800:
        ns, nr = struct.unpack('!HH', p[o:o + 4])
        o += 4
    if flags & 0x0200:
        o += 2 + struct.unpack('!H', p[o:o + 2])[0]
    if not flags & 0x8000:
        return False, tid, sid, ns, nr, None, {}
    avps = {}
    mtype = 0
    while o + 6 <= len(p):
        hdr, vendor, attr = struct.unpack('!HHH', p[o:o + 6])
        ln = hdr & 0x3ff
        if ln < 6:
            break
        val = p[o + 6:o + ln]
        if vendor == 0:
            avps.setdefault(attr, val)
            if attr == 0 and len(val) >= 2:
                mtype = struct.unpack('!H', val[:2])[0]
        o += ln
    return True, tid, sid, ns, nr, mtype, avps


def after(a, b):
    """a is after b in 16-bit sequence space (RFC 2661 section 5.8)."""
    return 0 < ((a - b) & 0xffff) < 0x8000


def pct(v, q):
    if not v:
        return 0.0
    v = sorted(v)
    return v[min(len(v) - 1, int(q * len(v)))]


def main():
    lac = sys.argv[2]
    # a tunnel is named by the LAC's Tunnel ID; the LNS's is mapped to it
    # from the SCCRP (its Assigned Tunnel ID, sent to the LAC's)
    lns2lac = {}
    unacked = {True: {}, False: {}}	# from_lac -> {conn: [(ns, t, type)]}
    lat = {True: [], False: []}	# (type, ms)
    seen = set()
    inflight_at_send = []
    rtx = {True: 0, False: 0}
    zlb = {True: 0, False: 0}
    icrq_t, icrp_t, iccn_t, first_ppp, peer_sid = {}, {}, {}, {}, {}
    ppp_from_peer = {}	# LAC session id -> times of the peer's data frames
    ppp_from_lac = {}
    opened = {}	# conn -> time an ack opened the LAC's full window
    react = []
    full_since, full_s = {}, 0.0
    t0 = None
    for t, src, dst, p in packets(sys.argv[1]):
        m = l2tp(p)
        if not m:
            continue
        t0 = t if t0 is None else t0
        ctl, tid, sid, ns, nr, mtype, avps = m
        from_lac = src == lac
        if not ctl:
            if not from_lac and sid not in first_ppp:
                first_ppp[sid] = t
            if not from_lac:
                ppp_from_peer.setdefault(sid, []).append(t)
            else:
                ppp_from_lac.setdefault(peer_sid.get(sid, -1), []).append(t)
            continue
        if mtype == 2 and 9 in avps:
            lns2lac[struct.unpack('!H', avps[9][:2])[0]] = tid
        conn = lns2lac.get(tid, tid) if from_lac else tid
        # Nr acknowledges the other side's messages before it
        q = unacked[not from_lac].setdefault(conn, [])
        was_full = len(q) >= WINDOW
        while q and after(nr, q[0][0]):
            k_ns, k_t, k_type = q.pop(0)
            lat[not from_lac].append((k_type, 1000 * (t - k_t)))
        if not from_lac and was_full and len(q) < WINDOW:
            opened[conn] = t
            full_s += t - full_since.pop(conn, t)
        if mtype == 0:
            zlb[from_lac] += 1
            continue
        if (from_lac, conn, ns) in seen:
            rtx[from_lac] += 1
            continue
        seen.add((from_lac, conn, ns))
        mine = unacked[from_lac].setdefault(conn, [])
        if from_lac:
            inflight_at_send.append(len(mine))
            if conn in opened:
                react.append(1000 * (t - opened.pop(conn)))
        mine.append((ns, t, MSG.get(mtype, str(mtype))))
        if from_lac and len(mine) == WINDOW:
            full_since[conn] = t
        if mtype == 10 and 14 in avps:
            icrq_t[struct.unpack('!H', avps[14][:2])[0]] = t
        elif mtype == 11 and 14 in avps:
            icrp_t[sid] = t
            peer_sid[struct.unpack('!H', avps[14][:2])[0]] = sid
        elif mtype == 12:
            iccn_t[peer_sid.get(sid, -1)] = t

    def sel(from_lac, types=None):
        return [v for k, v in lat[from_lac] if types is None or k in types]

    def line(name, v):
        print(f'{name}: n={len(v)} p50={pct(v, .5):.1f} p90={pct(v, .9):.1f} '
              f'p99={pct(v, .99):.1f} max={max(v or [0]):.1f} ms')

    line('peer acknowledges a LAC message', sel(True))
    line('peer acknowledges a LAC ICRQ', sel(True, {'ICRQ'}))
    line('peer acknowledges a LAC ICCN', sel(True, {'ICCN'}))
    line('LAC acknowledges a peer message', sel(False))
    hist = {}
    for u in inflight_at_send:
        hist[min(u, 8)] = hist.get(min(u, 8), 0) + 1
    print('LAC messages unacknowledged when one left:',
          ' '.join(f'{k}:{hist[k]}' for k in sorted(hist)), f'(of {len(inflight_at_send)})')
    line('LAC sends after an ack opened its full window', react)
    if t0 is not None:
        print(f'window full {full_s:.2f} s of {t - t0:.2f} s captured')
    print(f'retransmitted: by LAC {rtx[True]}, by peer {rtx[False]}; '
          f'ZLB: LAC {zlb[True]}, peer {zlb[False]}')
    line('call ICRQ -> ICRP (peer)', [1000 * (icrp_t[s] - icrq_t[s]) for s in icrp_t if s in icrq_t])
    line('call ICRP -> ICCN (LAC)', [1000 * (iccn_t[s] - icrp_t[s]) for s in iccn_t if s in icrp_t])
    line('call ICCN -> peer first PPP', [1000 * (first_ppp[s] - iccn_t[s]) for s in iccn_t if s in first_ppp])
    after_iccn = []
    lost = []
    for s_, t_ in iccn_t.items():
        later = [x for x in ppp_from_peer.get(s_, []) if x > t_]
        if later:
            after_iccn.append(1000 * (later[0] - t_))
        lost.append(sum(1 for x in ppp_from_peer.get(s_, []) if x < t_))
    line('call ICCN -> peer first PPP after it', after_iccn)
    print(f'peer PPP frames sent before the ICCN (lost): {sum(lost)} over {len(lost)} calls')
    line('call ICCN -> LAC first PPP to peer', [1000 * (min(v) - iccn_t[s_]) for s_, v in ppp_from_lac.items()
                                               if s_ in iccn_t])
    line('call ICRQ -> peer first PPP', [1000 * (first_ppp[s] - icrq_t[s]) for s in icrq_t if s in first_ppp])
    if icrq_t:
        ts = sorted(icrq_t.values())
        print(f'ICRQ first {ts[0] - t0:.2f} s, last {ts[-1] - t0:.2f} s after the first packet; '
              f'{len(ts) / max(ts[-1] - ts[0], 1e-9):.0f} calls/s')


if __name__ == '__main__':
    main()
