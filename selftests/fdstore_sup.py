#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A service manager's file descriptor store for the VM, which has no systemd
(busybox init): runs COMMAND as systemd runs a service with
FileDescriptorStoreMax= and Restart=on-failure, for l2tpseld's "fd-store yes"
(S-OPS-2, Documentation/l2tpseld.md).

  fdstore_sup.py PIDFILE COMMAND [ARG]...

The protocol, as sd_notify(3) and sd_listen_fds(3) document it:
  - $NOTIFY_SOCKET, a datagram socket of ours; each datagram is lines of
    KEY=VALUE, with descriptors as SCM_RIGHTS;
  - FDSTORE=1 with FDNAME=NAME: the descriptors are kept under NAME (one of
    the same NAME is replaced);
  - FDSTOREREMOVE=1 with FDNAME=NAME: every descriptor of NAME is closed;
  - the command, when it exits by a signal or with a status other than 0,
    is started again after 0.5 s with the kept descriptors from 3 on and
    LISTEN_PID (its pid), LISTEN_FDS (their count), LISTEN_FDNAMES (their
    names, colon-separated).  Exit 0: we exit too, the store closed.
The pid of the running command is in PIDFILE.  SIGTERM is passed on.
"""
import os
import signal
import socket
import sys
import time

pidfile, cmd = sys.argv[1], sys.argv[2:]
path = "%s.notify" % pidfile
try:
    os.unlink(path)
except FileNotFoundError:
    pass
sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
sock.bind(path)
store = {}          # name -> [fd, ...]
child = 0
stopping = False


def start():
    names = [n for n in store for _ in store[n]]
    fds = [f for n in store for f in store[n]]
    pid = os.fork()
    if pid == 0:
        base = 3 + len(fds) + max(fds + [0]) + 1
        high = [os.dup2(f, base + i) for i, f in enumerate(fds)]
        for i, h in enumerate(high):
            os.dup2(h, 3 + i, inheritable=True)
        os.closerange(3 + len(fds), base + len(fds) + 1)
        env = dict(os.environ, NOTIFY_SOCKET=path)
        if fds:
            env.update(LISTEN_PID=str(os.getpid()), LISTEN_FDS=str(len(fds)),
                       LISTEN_FDNAMES=":".join(names))
        os.execvpe(cmd[0], cmd, env)
    with open(pidfile, "w") as f:
        f.write("%d\n" % pid)
    return pid


def on_term(signo, frame):
    global stopping
    stopping = True
    if child:
        os.kill(child, signal.SIGTERM)


def handle(msg, anc):
    fds = []
    for level, kind, data in anc:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds += list(memoryview(data).cast("i")[:len(data) // 4])
    kv = dict(l.split("=", 1) for l in msg.decode(errors="replace").split("\n") if "=" in l)
    name = kv.get("FDNAME", "stored")
    if kv.get("FDSTOREREMOVE") == "1":
        for f in store.pop(name, []):
            os.close(f)
    if kv.get("FDSTORE") == "1" and fds:
        for f in store.pop(name, []):
            os.close(f)
        store[name] = fds
        fds = []
    for f in fds:
        os.close(f)


def receive(timeout):
    """One datagram within @timeout, then every one already queued."""
    sock.settimeout(timeout)
    while True:
        try:
            msg, anc, _, _ = sock.recvmsg(4096, socket.CMSG_SPACE(253 * 4))
        except (socket.timeout, BlockingIOError):
            return
        handle(msg, anc)
        sock.settimeout(0)


signal.signal(signal.SIGTERM, on_term)
child = start()
while True:
    receive(0.1)
    pid, status = os.waitpid(child, os.WNOHANG)
    if pid != child:
        continue
    receive(0)      # what it sent before it died
    if stopping or (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0):
        sys.exit(0)
    time.sleep(0.5)
    child = start()
