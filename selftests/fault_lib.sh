#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Shared checks of the fault tests (selftests/net/fault_*.sh).
# Source after lib.sh and peers.sh.
#
#   fault_kernel_view NS          one line from the module of NS (one CLI
#                                 batch, one jq): "chassis N dest N tun N
#                                 sess N logins N" (the chassis count, the
#                                 summed sessions of every destination and of
#                                 every selection tunnel, the sessions the
#                                 admission tables list, logins in progress)
#                                 then " ADDR=N" per destination, sorted
#   fault_agent_view SOCK         the agent's established LAC sessions from
#                                 "login show": "live N" then " ADDR=N" per
#                                 peer address that has any, sorted
#   fault_want N [ADDR=N...]      what both must say when N sessions are live
#   fault_check_counts NS SOCK WHAT [ADDR=N...]
#                                 every kernel counter equals the agent's live
#                                 sessions, and the per-destination split is
#                                 the one given (destinations with 0 may be
#                                 left out); check_err on a mismatch
#   fault_data_objects NS         "tunnels N sessions N": the kernel L2TP data
#                                 path objects (ip l2tp) in NS

fault_kernel_view() {
	local ns=$1
	printf '%s\n' "summary" "destination show" "tunnel show" "session show" "lockout show" |
		ip netns exec "$ns" "$L2TPSEL_CLI" -j -b - | jq -rs '
		def arr: if type == "array" then . else [.] end;
		def total: arr | [.[].sessions // 0] | add // 0;
		"chassis \(.[0].sessions) dest \(.[1] | total) tun \(.[2] | total) " +
		"sess \(.[3] | arr | length) logins \(.[4].logins)" +
		(.[1] | arr | map(select((.sessions // 0) > 0)) | sort_by(.dest) |
			map(" \(.dest)=\(.sessions)") | join(""))'
}

fault_agent_view() {
	ip netns exec "$PEERS_HUB" "$L2TPSEL_CLI" login show socket "$1" 2>/dev/null |
		awk '$1 == "tunnel" { for (i = 2; i < NF; i++) if ($i == "peer") p = $(i + 1)
				      sub(/:[0-9]+$/, "", p); peer[$2] = p }
		     $1 == "session" && / role lac / && / state established / { n++; by[peer[$4]]++ }
		     END { printf "live %d", n
			   k = 0; for (a in by) keys[++k] = a
			   # a few addresses: a plain insertion sort
			   for (i = 2; i <= k; i++) for (j = i; j > 1 && keys[j - 1] > keys[j]; j--) {
				   t = keys[j]; keys[j] = keys[j - 1]; keys[j - 1] = t }
			   for (i = 1; i <= k; i++) printf " %s=%d", keys[i], by[keys[i]]
			   print "" }'
}

fault_want() {
	local n=$1 kv per=
	shift
	# destinations with 0 sessions are not in fault_kernel_view's list
	for kv in "$@"; do
		[[ $kv == *=0 ]] || per+=" $kv"
	done
	echo "chassis $n dest $n tun $n sess $n logins 0$per"
}

# fault_check_counts NS SOCK WHAT [ADDR=N...]
fault_check_counts() {
	local ns=$1 sock=$2 what=$3 kv av live
	shift 3
	kv=$(fault_kernel_view "$ns")
	if [ "$sock" = none ]; then
		av="live 0"
	else
		av=$(fault_agent_view "$sock")
	fi
	live=$(set -- $av; echo "$2")
	echo "$what: kernel: $kv; agent: $av"
	[ "$kv" = "$(fault_want "$live" ${av#live $live})" ]
	check_err $? "$what: the kernel's counters ($kv) are not the agent's live sessions ($av)"
	if [ $# -gt 0 ]; then
		[ "$kv" = "$(fault_want "$live" "$@")" ]
		check_err $? "$what: expected $(fault_want "$live" "$@")"
	fi
}

fault_data_objects() {
	local t s
	t=$(ip -n "$1" l2tp show tunnel | grep -c '^Tunnel')
	s=$(ip -n "$1" l2tp show session | grep -c '^Session')
	echo "tunnels $t sessions $s"
}
