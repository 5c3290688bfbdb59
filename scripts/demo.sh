#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo: build, boot a VM, load l2tpsel, show what it says about itself,
# then bring up a real L2TP tunnel (xl2tpd LAC <-> xl2tpd LNS, PPP over the
# kernel's L2TP data path) in two namespaces and ping across it.  Each step
# says what it does.  Exits 0 when every step worked.
#
#   scripts/demo.sh            on the host: builds with make, then runs the
#                              second half in the VM (selftests/vm/vm.sh)
#   scripts/demo.sh --in-vm    that second half (root, in the VM)
set -u

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)

if [ "${1:-}" != --in-vm ]; then
	cd "$top" || exit 1
	echo "== demo: building the module and the CLI (make)"
	make --no-print-directory -s all || { echo "demo: make failed" >&2; exit 1; }
	echo "== demo: booting $(ls -1 /lib/modules | sort -V | tail -n 1) in qemu (software emulation, a few seconds)"
	exec selftests/vm/vm.sh -- scripts/demo.sh --in-vm
fi

source "$top/selftests/lib.sh"

step=0
say() {
	step=$((step + 1))
	printf '\n== %d. %s\n' "$step" "$*"
}
# run CMD...: show a command, then run it.
run() {
	printf '$ %s\n' "$*"
	"$@"
}
die() {
	echo "demo: FAILED: $*"
	exit 1
}

cli=$L2TPSEL_CLI

say "In the VM: kernel $(uname -r), the host's files read-only, this work tree at $top"
require_root
require_module_file
require_l2tp_peers

say "Before loading: the CLI says plainly that the module is not there"
mod_unload_quiet
run "$cli" info
echo "(exit status $?)"

say "Load the module"
run insmod "$L2TPSEL_KO" || die "insmod failed"
defer mod_unload_quiet
grep "^$L2TPSEL_MOD " /proc/modules

say "What the module says about itself, as text and as JSON"
run "$cli" info || die "l2tpsel info failed"
run "$cli" -j -p info || die "l2tpsel -j info failed"

say "Two network namespaces, a LAC and an LNS, joined by a veth pair"
setup_ns lac lns || die "cannot create namespaces"
veth_link "$lac" $PEER_LAC_ADDR "$lns" $PEER_LNS_ADDR || die "cannot set up the veth pair"
echo "$lac: veth0 $PEER_LAC_ADDR    $lns: veth0 $PEER_LNS_ADDR"
echo "Each namespace has its own l2tpsel state; the family answers in both:"
run "$cli" -n "$lac" info
run "$cli" -n "$lns" info

say "Start xl2tpd as LNS in $lns and as LAC in $lac"
make_tmpdir d || die "cannot create a temporary directory"
peers_write_config "$d"
xl2tpd_start lns "$lns" "$d" || { peers_show "$d"; die "xl2tpd (LNS) did not start"; }
xl2tpd_start lac "$lac" "$d" || { peers_show "$d"; die "xl2tpd (LAC) did not start"; }
grep -h 'Listening on' "$d"/*-xl2tpd.log

say "The LAC dials: control connection, call, then PPP over the kernel's L2TP session"
ppp_up() {
	[ -n "$(ppp_addr "$lac")" ] && [ -n "$(ppp_addr "$lns")" ]
}
t0=$(date +%s%N)
printf '$ echo "c lns" > %s\n' "$d/lac.ctrl"
echo "c lns" >"$d/lac.ctrl"
wait_for 20 ppp_up || { peers_show "$d" "$lac" "$lns"; die "no PPP link within 20 s"; }
echo "PPP is up after $((($(date +%s%N) - t0) / 1000000)) ms:"
grep -h 'Connection established\|Call established' "$d"/*-xl2tpd.log
read -r lac_if lac_addr <<<"$(ppp_addr "$lac")"
read -r lns_if lns_addr <<<"$(ppp_addr "$lns")"
echo "LAC $lac_if $lac_addr  <-- PPP -->  LNS $lns_if $lns_addr"

say "The kernel carries it: its L2TP tunnel and session in the LAC's namespace"
echo "(session 0 is xl2tpd's control socket; the other one carries the PPP frames)"
run ip -n "$lac" l2tp show tunnel
run ip -n "$lac" l2tp show session

say "Ping from the LAC to the LNS across the tunnel"
run ip netns exec "$lac" ping -c 3 -i 0.2 -W 2 "$lns_addr" ||
	{ peers_show "$d" "$lac" "$lns"; die "ping over PPP failed"; }

say "Hang up, stop the daemons, delete the namespaces, unload the module"
printf '$ echo "d lns" > %s\n' "$d/lac.ctrl"
echo "d lns" >"$d/lac.ctrl"
defer_run
"$cli" info >/dev/null 2>&1 && die "the module is still loaded"
echo "done: $(grep -c "^$L2TPSEL_MOD " /proc/modules) l2tpsel module(s) loaded, $(ip netns list | wc -l) namespace(s) left"

printf '\n== demo: every step worked\n'
exit 0
