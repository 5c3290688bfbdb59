#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# l2tpseld's operational safety on the host (S-SEC-5), control
# plane only (kernel none) on 127.0.0.x: test switches need "test-mode yes";
# secrets never on a command line, a world-readable file with secrets is
# refused, a configuration file others may write or another user owns is
# refused, no core dumps; the API socket is 0660 from its bind on and checks
# its peer's credentials; SIGHUP reloads (or says why not) and never ends the
# agent; a failing getrandom ends the agent with a message; peer-supplied
# strings cannot forge log or API lines.  Part of `make unit`; a few
# seconds.  The checks that change user (setpriv) need root and are skipped
# without it.
#
# Usage: selftests/unit/l2tpseld_safety.sh BUILD_DIR
set -u
B=${1:-build}
D=$(cd "$B" && pwd)
L2D=$D/l2tpseld
CLI=$D/l2tpsel
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d /tmp/l2tpseld-safety.XXXXXX)
P=$((20000 + RANDOM % 20000))
pids=()

cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$T"
}
[ -n "${KEEP:-}" ] || trap cleanup EXIT

# shellcheck source=ktap.sh
source "$(dirname "${BASH_SOURCE[0]}")/ktap.sh"

skip() {	# skip DESCRIPTION REASON
	n=$((n + 1))
	echo "ok $n $1 # SKIP $2"
}

has() {	# has FILE REGEX
	grep -Eq -a -- "$2" "$1"
}

wait_has() {	# wait_has FILE REGEX: up to 5 s
	local i
	for i in $(seq 50); do
		has "$1" "$2" && return 0
		sleep 0.1
	done
	return 1
}

alive() { kill -0 "$1" 2>/dev/null; }

root=0
[ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && root=1
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

common=(-o 'kernel none')

echo "KTAP version 1"
echo "1..40"

# --- test switches -----------------------------------------------------------
"$L2D" "${common[@]}" -o 'listen 127.0.0.1' -o 'lns-mode silent' -t 2>"$T/err"
ok "test switch: lns-mode silent without test-mode is refused" \
	$([ $? -eq 1 ] && has "$T/err" 'lns-mode silent is a test switch: refused without "test-mode yes"'; echo $?)
"$L2D" "${common[@]}" -o 'test-chassis-limit 1' -t 2>"$T/err"
ok "test switch: test-chassis-limit without test-mode is refused" \
	$([ $? -eq 1 ] && has "$T/err" 'test-chassis-limit is a test switch'; echo $?)
printf 'kernel none\nlisten 127.0.0.1\ntest-ratelimit-verdict sccrq drop\n' >"$T/prod.conf"
"$L2D" -c "$T/prod.conf" -t 2>"$T/err"
ok "test switch: test-ratelimit-verdict in a configuration file without test-mode is refused" \
	$([ $? -eq 1 ] && has "$T/err" 'test-ratelimit-verdict is a test switch'; echo $?)
"$L2D" "${common[@]}" -o 'lns-mode silent' -o 'test-mode yes' -t 2>"$T/err"
ok "test switch: accepted with test-mode yes (after it, too)" $?
"$L2D" "${common[@]}" -o 'lns-mode normal' -t 2>"$T/err"
ok "test switch: lns-mode normal needs no test-mode" $?

# --- secrets -----------------------------------------------------------------
"$L2D" "${common[@]}" -o 'secret t1 Cmdline-Secret-1' -t 2>"$T/err"
ok "secrets: a secret with -o is refused, and the message does not repeat it" \
	$([ $? -eq 1 ] && has "$T/err" 'secrets are refused on the command line' &&
	  ! has "$T/err" 'Cmdline-Secret-1'; echo $?)
"$L2D" "${common[@]}" -o 'lns-secret * Cmdline-Secret-2' -t 2>"$T/err"
ok "secrets: an lns-secret with -o is refused" $([ $? -eq 1 ] && ! has "$T/err" 'Cmdline-Secret-2'; echo $?)
"$L2D" "${common[@]}" -o 'radius-server 127.0.0.1 secret Cmdline-Secret-4' -t 2>"$T/err"
ok "secrets: a RADIUS server's secret with -o is refused" \
	$([ $? -eq 1 ] && has "$T/err" 'secrets are refused' && ! has "$T/err" 'Cmdline-Secret-4'; echo $?)
"$L2D" "${common[@]}" -o 'radius-das-client 127.0.0.1 secret Cmdline-Secret-6' -t 2>"$T/err"
ok "secrets: a Disconnect-Request client's secret with -o is refused" \
	$([ $? -eq 1 ] && has "$T/err" 'secrets are refused' && ! has "$T/err" 'Cmdline-Secret-6'; echo $?)
printf 'access pppoe lo\ndataplane kernel\nradius-server 127.0.0.1 secret File-Secret-5\n' >"$T/rad.conf"
chmod 0644 "$T/rad.conf"
"$L2D" "${common[@]}" -c "$T/rad.conf" -t 2>"$T/err"
ok "secrets: a world-readable file with a RADIUS secret is refused" \
	$([ $? -eq 1 ] && has "$T/err" 'holds secrets and is open to other users' &&
	  ! has "$T/err" 'File-Secret-5'; echo $?)
printf 'secret t1 File-Secret-3\n' >"$T/open.conf"
chmod 0644 "$T/open.conf"
"$L2D" "${common[@]}" -c "$T/open.conf" -t 2>"$T/err"
ok "secrets: a world-readable file with secrets is refused" \
	$([ $? -eq 1 ] && has "$T/err" 'holds secrets and is open to other users \(mode 0644\)' &&
	  ! has "$T/err" 'File-Secret-3'; echo $?)
chmod 0600 "$T/open.conf"
"$L2D" "${common[@]}" -c "$T/open.conf" -t 2>"$T/err"
ok "secrets: the same file with mode 0600 is accepted" $?
printf 'pppd /usr/sbin/pppd\n' >"$T/w.conf"
chmod 0664 "$T/w.conf"
"$L2D" "${common[@]}" -c "$T/w.conf" -t 2>"$T/err"
ok "config: a file its group may write is refused, named with its mode" \
	$([ $? -eq 1 ] && has "$T/err" "$T/w.conf is writable by its group \(mode 0664\)"; echo $?)
chmod 0646 "$T/w.conf"
"$L2D" "${common[@]}" -c "$T/w.conf" -t 2>"$T/err"
ok "config: a file others may write is refused" \
	$([ $? -eq 1 ] && has "$T/err" 'is writable by others \(mode 0646\)'; echo $?)
chmod 0644 "$T/w.conf"
"$L2D" "${common[@]}" -c "$T/w.conf" -t 2>"$T/err"
ok "config: the same file with mode 0644 is accepted" $?
if [ "$(id -u)" = 0 ]; then
	chown 65534 "$T/w.conf"
	"$L2D" "${common[@]}" -c "$T/w.conf" -t 2>"$T/err"
	ok "config: a file owned by another user is refused" \
		$([ $? -eq 1 ] && has "$T/err" 'is owned by uid 65534, neither root nor the agent'; echo $?)
	chown 0 "$T/w.conf"
fi
"$L2D" "${common[@]}" -o 'pppd-options password Pppd-Secret-4' -t 2>"$T/err"
ok "secrets: pppd's password option in pppd-options is refused" \
	$([ $? -eq 1 ] && has "$T/err" 'pppd-options: "password" would show on pppd' &&
	  ! has "$T/err" 'Pppd-Secret-4'; echo $?)

# A running LNS with its secret from a pipe: not in its command line, no core.
"$L2D" "${common[@]}" -c <(printf 'lns-secret * Pipe-Secret-5\n') -o "listen 127.0.0.2 port $P" \
	-o "socket $T/lns.sock" -o 'hostname lns-safe' -o 'log-level 2' 2>"$T/lns.log" &
LNS=$!
pids+=($LNS)
wait_has "$T/lns.log" '^l2tpseld: started' || echo "# the LNS did not start: $(cat "$T/lns.log")"
ok "secrets: not in the agent's /proc/PID/cmdline" \
	$(alive $LNS && ! tr '\0' ' ' </proc/$LNS/cmdline | grep -q 'Pipe-Secret-5'; echo $?)
ok "core dumps: the agent's core size limit is 0" \
	$(awk '/^Max core file size/ { exit !($5 == 0 && $6 == 0) }' /proc/$LNS/limits; echo $?)
if [ $root -eq 1 ]; then
	# the files in /proc/PID of a process that is not dumpable are root's
	setpriv --reuid=65534 --regid=65534 --clear-groups "$L2D" "${common[@]}" -o 'socket none' \
		-o "listen 127.0.0.3 port $P" 2>"$T/nobody.log" &
	NB=$!
	pids+=($NB)
	wait_has "$T/nobody.log" '^l2tpseld: started'
	ok "core dumps: the agent is not dumpable (/proc/PID/status of an unprivileged agent is root's)" \
		$([ "$(stat -c %u /proc/$NB/status)" = 0 ]; echo $?)
	kill $NB
else
	skip "core dumps: the agent is not dumpable" "needs root and setpriv"
fi

# --- the API socket -----------------------------------------------------------
ok "api: the socket is mode 0660" $([ "$(stat -c %a "$T/lns.sock")" = 660 ]; echo $?)
cat >"$T/bind.c" <<-'EOF'
	#define _GNU_SOURCE
	#include <dlfcn.h>
	#include <stdio.h>
	#include <stdlib.h>
	#include <sys/socket.h>
	#include <sys/stat.h>
	#include <sys/un.h>
	/* the mode a UNIX socket file has the moment bind() returns */
	int bind(int fd, const struct sockaddr *sa, socklen_t len)
	{
		int (*real)(int, const struct sockaddr *, socklen_t) =
			(int (*)(int, const struct sockaddr *, socklen_t))dlsym(RTLD_NEXT, "bind");
		int rc = real(fd, sa, len);
		struct stat st;
		FILE *f;

		if (rc == 0 && sa->sa_family == AF_UNIX &&
		    !stat(((const struct sockaddr_un *)sa)->sun_path, &st) &&
		    (f = fopen(getenv("BIND_LOG"), "a"))) {
			fprintf(f, "%o\n", (unsigned int)(st.st_mode & 0777));
			fclose(f);
		}
		return rc;
	}
EOF
cat >"$T/rand.c" <<-'EOF'
	#include <errno.h>
	#include <sys/types.h>
	/* a random source that has gone away */
	ssize_t getrandom(void *buf, size_t len, unsigned int flags)
	{
		errno = ENOSYS;
		return -1;
	}
EOF
shims=1
cc -shared -fPIC -o "$T/bind.so" "$T/bind.c" -ldl && cc -shared -fPIC -o "$T/rand.so" "$T/rand.c" || shims=0
if [ $shims -eq 1 ]; then
	(umask 0
	 BIND_LOG=$T/bind.log LD_PRELOAD=$T/bind.so exec "$L2D" "${common[@]}" \
		-o "socket $T/umask.sock" 2>"$T/umask.log") &
	p=$!
	pids+=($p)
	wait_has "$T/umask.log" '^l2tpseld: started'
	kill $p
	ok "api: the socket file is 0660 the moment it is bound, under umask 0 too" \
		$([ "$(cat "$T/bind.log" 2>/dev/null)" = 660 ]; echo $?)
else
	skip "api: the socket file is 0660 the moment it is bound" "no C compiler for the shim"
fi
if [ $root -eq 1 ]; then
	chmod 0755 "$T"
	chmod 0666 "$T/lns.sock"	# an operator's mistake: the file is open to all
	as_nobody "$CLI" login show socket "$T/lns.sock" >"$T/o-nobody" 2>&1
	ok "api: another user is refused even when the file lets it connect" \
		$([ $? -ne 0 ] && ! has "$T/o-nobody" '^end'; echo $?)
	ok "api: the refusal is logged with the peer's uid" \
		$(wait_has "$T/lns.log" 'api: connection from pid [0-9]+ uid 65534 gid 65534 refused'; echo $?)
	"$L2D" "${common[@]}" -o "socket $T/grp.sock" -o 'api-group nogroup' -o 'log-level 2' \
		-o "listen 127.0.0.4 port $P" 2>"$T/grp.log" &
	pids+=($!)
	wait_has "$T/grp.log" '^l2tpseld: started'
	ok "api: api-group owns the socket, mode 0660" \
		$([ "$(stat -c '%a %G' "$T/grp.sock")" = "660 nogroup" ]; echo $?)
	as_nobody "$CLI" login show socket "$T/grp.sock" >"$T/o-grp" 2>&1
	ok "api: a member of api-group is served" $([ $? -eq 0 ]; echo $?)
	chmod 0666 "$T/grp.sock"	# past the file's mode: the credentials decide
	setpriv --reuid=65534 --regid=100 --clear-groups "$CLI" login show socket "$T/grp.sock" \
		>"$T/o-grp2" 2>&1
	# (the client may see the answer, or only the closed connection)
	ok "api: a user outside api-group is refused" \
		$([ $? -ne 0 ] && ! has "$T/o-grp2" '^end' &&
		  wait_has "$T/grp.log" 'api: connection from pid [0-9]+ uid 65534 gid 100 refused'; echo $?)
	setpriv --reuid=65534 --regid=100 --groups=65534 "$CLI" login show socket "$T/grp.sock" \
		>"$T/o-grp3" 2>&1
	ok "api: a user with api-group as a supplementary group is served" $([ $? -eq 0 ]; echo $?)
	chmod 0700 "$T"
else
	for c in "another user is refused" "the refusal is logged" "api-group owns the socket" \
		 "a member of api-group is served" "a user outside api-group is refused" \
		 "a supplementary member of api-group is served"; do
		skip "api: $c" "needs root and setpriv"
	done
fi

# --- hostile peer strings -----------------------------------------------------
"$L2D" "${common[@]}" -o "listen 127.0.0.5 port $P" -o "socket $T/open.sock" -o 'log-level 2' \
	2>"$T/open.log" &
pids+=($!)
wait_has "$T/open.log" '^l2tpseld: started'
python3 "$HERE/l2tpseld_peer.py" 127.0.0.5 $P "$T/open.sock" >"$T/show" 2>"$T/peer.err"
ok "hostile peer: tunnel and call set up, show answered" \
	$(has "$T/show" "^b'tunnel " && has "$T/show" "^b'session " && has "$T/show" "^b'end'"; echo $?)
ok "hostile peer: every show line is a show line, host and user each one field" \
	$(! grep -Evq "^b'(tunnel|session) .* (host|user) [^ ]+( [a-z-]+ [0-9]+)*'$|^b'end'$" "$T/show"; echo $?)
ok "hostile peer: show has the Host Name's bytes escaped" \
	$(grep -Fq 'host evil\\x0al2tpseld:\\x20FORGED\\x20host\\x0d\\x1b[31m\\xff\\xfe' "$T/show"; echo $?)
ok "hostile peer: show has the Calling Number's bytes escaped" \
	$(grep -Fq 'user 0123\\x0asession\\x209\\x20FORGED\\x1b]0;x\\x07\\xc3(' "$T/show"; echo $?)
wait_has "$T/open.log" 'StopCCN received'
ok "hostile peer: every log line is the agent's, no forged line" \
	$(! grep -avq '^l2tpseld: ' "$T/open.log" && ! grep -aq '^l2tpseld: FORGED' "$T/open.log" &&
	  ! LC_ALL=C grep -aq $'[\x01-\x08\x0b-\x1f\x7f-\xff]' "$T/open.log"; echo $?)
ok "hostile peer: the log shows the Host Name escaped" \
	$(grep -Faq 'evil\x0al2tpseld:\x20FORGED\x20host\x0d\x1b[31m\xff\xfe' "$T/open.log"; echo $?)

# --- proxy-lcp: a LAC's ICCNs with Proxy LCP (RFC 2661 section 4.4.5) ---------
"$L2D" "${common[@]}" -o "listen 127.0.0.13 port $P" -o "socket $T/proxy.sock" -o 'log-level 2' \
	-o 'proxy-lcp yes' 2>"$T/proxy.log" &
pids+=($!)
PROXY=$!
wait_has "$T/proxy.log" '^l2tpseld: started'
python3 "$HERE/l2tpseld_peer.py" 127.0.0.13 $P "$T/proxy.sock" proxy >"$T/proxy.out" 2>"$T/proxy.err"
ok "proxy-lcp: three calls, one taken, two renegotiated (stats)" \
	$(has "$T/proxy.out" ' proxy-lcp-taken 1 proxy-lcp-renegotiated 2 '; echo $?)
ok "proxy-lcp: each refusal logged with its reason, the agent up" \
	$(has "$T/proxy.log" 'proxy LCP taken \(pap, mru 1442/1492\)' &&
	  has "$T/proxy.log" 'proxy LCP not taken: the proxied LCP options are malformed; pppd negotiates' &&
	  has "$T/proxy.log" 'proxy LCP not taken: the subscriber asked an option other than' &&
	  alive $PROXY; echo $?)

# --- SIGHUP -------------------------------------------------------------------
printf 'kernel none\nsocket %s\nlog-level 1\nport %s\n' "$T/lac.sock" $((P + 1)) >"$T/lac.conf"
"$L2D" -c "$T/lac.conf" 2>"$T/lac.log" &
LAC=$!
pids+=($LAC)
# the socket file is there from bind(), before listen() and the loop: wait for the loop
wait_has "$T/lac.log" '^l2tpseld: started'
"$CLI" login start a@x profile hup socket "$T/lac.sock" >"$T/o-hup1" 2>&1
printf 'route hup t-hup 127.0.0.2 port %s\nport %s\n' $P $((P + 7)) >>"$T/lac.conf"
kill -HUP $LAC
wait_has "$T/lac.log" 'SIGHUP: configuration reloaded'
ok "SIGHUP: the agent is still running and says it reloaded" \
	$(alive $LAC && has "$T/lac.log" 'SIGHUP: configuration reloaded; changed but kept until a restart: port$'; echo $?)
"$CLI" login start b@x profile hup socket "$T/lac.sock" >"$T/o-hup2" 2>&1
ok "SIGHUP: a route added to the file is used by the next login" \
	$(has "$T/o-hup1" 'done fail reason no-tunnels' && has "$T/o-hup2" "^attempt 1 tunnel t-hup .*remote 127.0.0.2 port $P"; echo $?)
echo 'lns-mode silent' >>"$T/lac.conf"
kill -HUP $LAC
wait_has "$T/lac.log" 'SIGHUP: configuration not reloaded'
ok "SIGHUP: a configuration that does not check is not taken, the agent runs on" \
	$(alive $LAC && has "$T/lac.log" 'not reloaded, the running one stays: lns-mode silent is a test switch'; echo $?)

# --- getrandom ----------------------------------------------------------------
if [ $shims -eq 1 ]; then
	LD_PRELOAD=$T/rand.so timeout 10 "$L2D" "${common[@]}" -o "socket $T/rnd.sock" \
		-o "port $((P + 2))" -o "route * t-r 127.0.0.2 port $P" 2>"$T/rnd.log" &
	R=$!
	for i in $(seq 50); do [ -S "$T/rnd.sock" ] && break; sleep 0.1; done
	timeout 5 "$CLI" login start r@x socket "$T/rnd.sock" >/dev/null 2>&1
	wait $R
	rc=$?
	ok "getrandom: a failing random source ends the agent with an error (exit 1), no loop" \
		$([ $rc -eq 1 ] && has "$T/rnd.log" 'getrandom: Function not implemented: no random numbers, exiting'; echo $?)
else
	skip "getrandom: a failing random source ends the agent" "no C compiler for the shim"
fi

echo "# l2tpseld safety: $((n - fail)) passed, $fail failed"
[ $fail -eq 0 ]
