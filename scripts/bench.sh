#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make bench`: every l2tpsel benchmark in one go, each figure next to a peer
# measured in the same run, written as a Markdown report with PNG plots into
# a folder of its own (Documentation/performance.md explains the figures).
#
#   scripts/bench.sh [--size tiny|full] [--out DIR] [--no-vm]
#   scripts/bench.sh --smoke        host part, tiny, into build/bench/smoke;
#                                   checks the report; one KTAP line (make unit)
#   scripts/bench.sh --doc DIR      copy report DIR, as it is, into
#                                   Documentation/perf/
#
# Needs the build (make; make bench does it), gnuplot, and for the VM part
# qemu and the kernel of `make deps` (selftests/vm/vm.sh).  The folder is
# build/bench/<UTC time>/ unless --out; its path is the last line printed.
set -u
cd "$(dirname "$0")/.."
top=$PWD
BUILD=${BUILD:-build}

size=full out= vm=1 mode=run docdir=
while [ $# -gt 0 ]; do
	case $1 in
	--size) size=${2:-}; shift ;;
	--out) out=${2:-}; shift ;;
	--no-vm) vm=0 ;;
	--smoke) mode=smoke ;;
	--doc) mode=doc; docdir=${2:-}; shift ;;
	-h|--help) sed -n '3,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench.sh: unknown argument \"$1\" (try --help)" >&2; exit 2 ;;
	esac
	shift
done
case $size in
tiny|full) ;;
*) echo "bench.sh: --size is tiny or full, not \"$size\"" >&2; exit 2 ;;
esac

# ---- --doc: publish a report ------------------------------------------------

if [ "$mode" = doc ]; then
	if [ -z "$docdir" ] || [ ! -f "$docdir/report.md" ]; then
		echo "bench.sh: --doc needs a report folder (make bench-doc BENCH_DIR=build/bench/<time>)" >&2
		exit 2
	fi
	if ! grep -q '^Size: full' "$docdir/report.md"; then
		echo "bench.sh: $docdir is not a full-size run; publish only full runs" >&2
		exit 1
	fi
	rm -rf Documentation/perf
	mkdir -p Documentation/perf
	cp "$docdir"/*.png "$docdir/report.md" Documentation/perf/
	echo "bench.sh: $docdir -> Documentation/perf/"
	exit 0
fi

# ---- run --------------------------------------------------------------------

if [ "$mode" = smoke ]; then
	size=tiny vm=0
	out=$BUILD/bench/smoke
	rm -rf "$out"
fi
[ -n "$out" ] || out=$BUILD/bench/$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$out/host" "$out/vm" "$out/raw"
out=$(cd "$out" && pwd -P)
log() { echo "bench: $*" >&2; }
start=$(date +%s)
notes=()

for b in bench-host; do
	[ -x "$BUILD/$b" ] || { echo "bench.sh: $BUILD/$b is missing (make bench builds it)" >&2; exit 1; }
done

log "host: core decision, hash disruption, rate limiter ($size) -> $out/host"
if ! "$BUILD/bench-host" "$size" "$out/host" 2> "$out/host/stderr"; then
	cat "$out/host/stderr" >&2
	echo "bench.sh: bench-host failed" >&2
	exit 1
fi

if [ "$mode" = run ]; then
	# The earlier per-part benchmarks, kept whole as raw output.
	for b in bench-core bench-rl; do
		if [ -x "$BUILD/$b" ]; then
			log "raw: $b"
			"$BUILD/$b" > "$out/raw/$b.txt" 2>&1 || notes+=("$b exited non-zero, see raw/$b.txt")
		fi
	done
fi

vm_ok=0
# vm_part MEM TIMEOUT SCRIPT NAME: one VM boot running SCRIPT SIZE DIR; its
# log is vm/NAME-vm.log (vm/vm.log for "vm"), its table vm/NAME.txt, which
# must not be empty.  On failure the log's tail and a note in the report.
vm_part() {
	local logf=$out/vm/$4-vm.log
	[ "$4" = vm ] && logf=$out/vm/vm.log
	if selftests/vm/vm.sh --mem "$1" --timeout "$2" -- "$3" "$size" "$out/vm" \
		> "$logf" 2>&1 && [ -s "$out/vm/$4.txt" ]; then
		return 0
	fi
	tail -n 30 "$logf" >&2
	notes+=("the VM part $3 failed: see vm/${logf##*/}")
	return 1
}

if [ "$vm" = 1 ]; then
	for b in l2tpsel bench-nl; do
		[ -x "$BUILD/$b" ] || { echo "bench.sh: $BUILD/$b is missing (make bench builds it)" >&2; exit 1; }
	done
	[ -f kmod/l2tpsel.ko ] || { echo "bench.sh: kmod/l2tpsel.ko is missing (make bench builds it)" >&2; exit 1; }
	log "vm: tables, memory, netlink round trips, dumps ($size); log in $out/vm/vm.log"
	vm_part 3G 900 bench/vm/guest.sh vm && vm_ok=1
fi

# Sessions per second with PPP, in a VM boot of its own: real pppd processes,
# network namespaces and xl2tpd instances, none of them near the tables above.
ppp_ok=0
if [ "$vm" = 1 ]; then
	log "vm: sessions per second with PPP ($size); log in $out/vm/ppp-vm.log"
	vm_part 1G 600 bench/vm/ppp.sh ppp && ppp_ok=1
fi

# The PPPoE access role with real subscribers, a VM boot of its own too:
# pppd with pppoe.so on macvlans, l2tpseld bridging them to an xl2tpd LNS,
# against pppoe-server terminating them and the kernel forwarding plain IP.
pppoe_ok=0
if [ "$vm" = 1 ]; then
	log "vm: PPPoE access, subscribers per second and throughput ($size); log in $out/vm/pppoe-vm.log"
	vm_part 1G 600 bench/vm/pppoe.sh pppoe && pppoe_ok=1
fi

# Subscriber storms (S-STORM-1..4), a VM boot of its own: l2tpsel-subgen's
# PPPoE subscribers through the l2tpseld LAC to l2tpns and to the l2tpseld
# LNS, beside the generator's floor against a trivial responder.
storm_ok=0
if [ "$vm" = 1 ]; then
	for b in l2tpsel-subgen l2tpsel-subresp; do
		[ -x "$BUILD/$b" ] || { echo "bench.sh: $BUILD/$b is missing (make bench builds it)" >&2; exit 1; }
	done
	log "vm: subscriber storms ($size); log in $out/vm/storm-vm.log"
	vm_part 2G 1500 bench/vm/storm.sh storm && storm_ok=1
fi

# ---- report -----------------------------------------------------------------

H=$out/host
V=$out/vm/vm.txt
R=$out/report.md
gp_term="pngcairo size 900,560 font 'Sans,10'"
gnuplot -e "set terminal pngcairo" -e "exit" 2>/dev/null || gp_term="png size 900,560"

# ratio A B: A / B to two decimals, "-" when either is missing ("" or "-") or B is 0.
ratio() { awk -v a="${1:-}" -v b="${2:-}" 'BEGIN { if (a == "" || b == "" || a == "-" || b == "-" || b + 0 == 0) print "-"; else printf "%.2f\n", a / b }'; }
# vm KIND WHAT N FIELD: one value from vm.txt.
vmv() {
	[ -f "$V" ] || return 0
	awk -v k="$1" -v w="$2" -v n="$3" -v f="$4" '$1 == k && $2 == w && $3 == n {
		for (i = 4; i <= NF; i++) { split($i, kv, "="); if (kv[1] == f) print kv[2] } }' "$V" | tail -n 1
}
vmns() { awk -v k="$1" -v w="$2" '$1 == k && $2 == w { print $3 }' "$V" 2>/dev/null; }
us() { awk -v x="${1:-}" 'BEGIN { if (x == "") print "-"; else printf "%.1f\n", x / 1000 }'; }
# kbd A B: A - B, "-" when either is missing
kbd() { awk -v a="${1:-}" -v b="${2:-}" 'BEGIN { if (a == "" || b == "") print "-"; else print a - b }'; }
ms() { awk -v x="${1:-}" 'BEGIN { if (x == "") print "-"; else printf "%.2f\n", x / 1e6 }'; }
# bytes per object between two mem lines: (free before - free after) kB / count
per_obj() {
	awk -v a="${1:-}" -v b="${2:-}" -v n="${3:-}" 'BEGIN {
		if (a == "" || b == "" || n + 0 == 0) print "-"; else printf "%.0f\n", (a - b) * 1024 / n }'
}

commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git status --porcelain 2>/dev/null | grep -v '^??' | head -1)
{
	echo "# l2tpsel benchmark report"
	echo
	echo "Size: $size. Run: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $commit${dirty:+ (with local changes)},"
	echo "host $(uname -r), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end of the run."
	echo "Every row: the figure, its peer measured in the same run, and the ratio figure / peer"
	echo "(below 1: l2tpsel is faster or smaller).  Absolute times on a shared machine are noisy;"
	echo "the ratios are what to compare between runs.  What each peer is and why: Documentation/performance.md."
	echo
} > "$R"

# -- 1. core decision
{
	echo "## Selection decision, userspace core"
	echo
	echo "ns per decision: \`l2s_sel_begin()\` up to the first attempt (core/sel.c, -O2), against a"
	echo "naive linear scan making the same first choice (bench/host/bench_host.c); best of"
	echo "$(awk '!/^#/ { print $7 " x " $6; exit }' "$H/core.tsv") decisions, the two interleaved."
	echo "Lockouts: every destination but the last is locked."
	echo
	echo "| tunnels | lockouts | lb | l2tpsel ns | naive scan ns | ratio |"
	echo "|---|---|---|---:|---:|---:|"
	awk '!/^#/ { printf "| %s | %s | %s | %.1f | %.1f | %.2f |\n", $1, $2, $3, $4, $5, ($5 > 0 ? $4 / $5 : 0) }' "$H/core.tsv"
	echo
	echo "![core decision](core.png)"
	echo
} >> "$R"
awk '!/^#/ && $3 == "random" { print $1 "/" ($2 == "yes" ? "locked" : "free"), $4, $5 }' "$H/core.tsv" > "$H/core-random.dat"
gnuplot <<EOF 2> "$H/gnuplot-core.err" || notes+=("gnuplot core.png failed")
set terminal $gp_term
set output "$out/core.png"
set title "Selection decision, lb random: l2tpsel core vs naive linear scan (same run)"
set ylabel "ns per decision"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set key top left
set grid ytics
plot "$H/core-random.dat" using 2:xtic(1) title "l2tpsel l2s\\\_sel\\\_begin", '' using 3 title "naive linear scan"
EOF

# -- 2/3. VM: decision vs table size, admission, memory, dumps
if [ "$vm_ok" = 1 ]; then
	{
		echo "## Login decision in the kernel against table size (VM)"
		echo
		echo "µs per LOGIN_BEGIN round trip (\`bench-nl login-bench\`: begin, then report client-gone,"
		echo "as \`l2tpsel login bench\` does), each login followed by a bare nlctrl GETFAMILY of the family"
		echo "on the same socket: medians of $(vmv login domain 1 count) logins, the lowest of $(vmv login domain 1 best_of) runs."
		echo "Slab growth: SUnreclaim after the step (caches dropped) less before the table's first step;"
		echo "per-CPU caches move it by some hundred kB, so only the large steps say much (per object:"
		echo "Kernel memory below).  The login after each step names the last profile or domain added.  The VM is"
		echo "software-emulated (TCG): both sides are slow alike."
		echo
		echo "| table | objects | login begin µs | GETFAMILY µs | ratio | slab growth kB |"
		echo "|---|---:|---:|---:|---:|---:|"
		pmax=$(vmns mem profile | tail -n 1)
		for w in profile domain sessions tunnels-8x31; do
			for n in $(vmns login "$w"); do
				b=$(vmv login "$w" "$n" begin_ns) g=$(vmv login "$w" "$n" getfamily_ns)
				label=$w
				# the table's unreclaimable slab after the step, against before its first step
				case $w in
				profile) label="profiles (login by profile)"
					sl=$(kbd "$(vmv mem profile "$n" sunreclaim_kb)" "$(vmv mem base 0 sunreclaim_kb)") ;;
				domain) label="domains (login by user@domain)"
					sl=$(kbd "$(vmv mem domain "$n" sunreclaim_kb)" "$(vmv mem domain 0 sunreclaim_kb)") ;;
				sessions) label="live sessions"
					sl=$(kbd "$(vmv mem session "$n" sunreclaim_kb)" "$(vmv mem session 0 sunreclaim_kb)") ;;
				tunnels-8x31) label="one 8x31 profile (248 tunnels)"; n=248
					tn=$(vmns mem tunnel | tail -n 1)
					sl="$(kbd "$(vmv mem tunnel "$tn" sunreclaim_kb)" "$(vmv mem profile "$pmax" sunreclaim_kb)") ($tn tunnels)" ;;
				esac
				echo "| $label | $n | $(us "$b") | $(us "$g") | $(ratio "$b" "$g") | $sl |"
			done
		done
		n=$(vmns login-cli domain | tail -n 1)
		if [ -n "$n" ]; then
			b=$(vmv login-cli domain "$n" begin_ns) g=$(vmv login-cli domain "$n" getfamily_ns)
			echo "| cross-check: \`l2tpsel login bench\` (means, once), domains | $n | $(us "$b") | $(us "$g") | $(ratio "$b" "$g") |"
		fi
		echo
		echo "![decision against table size](scale.png)"
		echo
		echo "## Admission decision against live sessions (VM)"
		echo
		echo "µs per SESSION_UP round trip (counted on chassis and tunnel, verdict in the reply) and"
		echo "SESSION_DOWN, each pair followed by a GETFAMILY on the same socket (\`bench-nl session-bench\`):"
		echo "medians, the lowest of $(vmv admit sessions 1 best_of) runs.  The live sessions are LAC sessions over 1000 L2TP tunnel ids."
		echo
		echo "| live sessions | SESSION_UP µs | SESSION_DOWN µs | GETFAMILY µs | up / GETFAMILY |"
		echo "|---:|---:|---:|---:|---:|"
		for n in $(vmns admit sessions); do
			u=$(vmv admit sessions "$n" up_ns) d=$(vmv admit sessions "$n" down_ns) g=$(vmv admit sessions "$n" getfamily_ns)
			echo "| $n | $(us "$u") | $(us "$d") | $(us "$g") | $(ratio "$u" "$g") |"
		done
		echo
	} >> "$R"
	# scale.dat: N and the ratio for each table
	for w in profile domain sessions; do
		for n in $(vmns login "$w"); do
			echo "$n $(ratio "$(vmv login "$w" "$n" begin_ns)" "$(vmv login "$w" "$n" getfamily_ns)")"
		done > "$out/vm/scale-$w.dat"
	done
	for n in $(vmns admit sessions); do
		echo "$n $(ratio "$(vmv admit sessions "$n" up_ns)" "$(vmv admit sessions "$n" getfamily_ns)")"
	done > "$out/vm/scale-admit.dat"
	gnuplot <<EOF 2> "$out/vm/gnuplot-scale.err" || notes+=("gnuplot scale.png failed")
set terminal $gp_term
set output "$out/scale.png"
set title "Decision round trip / GETFAMILY round trip against table size (VM, same run)"
set xlabel "objects in the table (1 plotted at 1)"
set ylabel "round trip / GETFAMILY"
set logscale x
set yrange [0:1.4]
set grid
set key bottom right
plot "$out/vm/scale-profile.dat" using 1:2 with linespoints title "login, N profiles", \
     "$out/vm/scale-domain.dat" using 1:2 with linespoints title "login by domain, N domains", \
     "$out/vm/scale-sessions.dat" using 1:2 with linespoints title "login, N live sessions", \
     "$out/vm/scale-admit.dat" using 1:2 with linespoints title "SESSION\\\_UP, N live sessions", \
     1 with lines dt 2 lc rgb "gray" title "= GETFAMILY"
EOF

	# memory
	pmax=$(vmns mem profile | tail -n 1) dmax=$(vmns mem domain | tail -n 1)
	smax=$(vmns mem session | tail -n 1) rmax=$(vmns mem route | tail -n 1)
	tn=$(vmns mem tunnel | tail -n 1)
	f() { vmv mem "$1" "$2" free_kb; }
	s() { vmv mem "$1" "$2" sunreclaim_kb; }
	route_b=$(per_obj "$(f route 0)" "$(f route "$rmax")" "$rmax")
	route_s=$(per_obj "$(s route "$rmax")" "$(s route 0)" "$rmax")
	prof_b=$(per_obj "$(f profile 1)" "$(f profile "$pmax")" $((pmax - 1)))
	prof_s=$(per_obj "$(s profile "$pmax")" "$(s profile 1)" $((pmax - 1)))
	# destinations: the drop of the step adding DN of them less that of the
	# same step to one existing destination (bench/vm/guest.sh)
	dn=$(vmns mem dest | tail -n 1)
	# dgrow FIELD SIGN: kB that FIELD moved (times SIGN) over the step beyond
	# what it moved over the control step
	dgrow() {
		awk -v a="$(vmv mem dest 0 "$1")" -v b="$(vmv mem dest "$dn" "$1")" \
		    -v c="$(vmv mem dest-same 0 "$1")" -v d="$(vmv mem dest-same "$dn" "$1")" -v sg="$2" 'BEGIN {
			if (a == "" || b == "" || c == "" || d == "") print "-"; else print sg * ((b - a) - (d - c)) }'
	}
	# dper X UNIT: X (UNIT bytes) in bytes each of the dn destinations
	dper() { awk -v k="$1" -v u="$2" -v n="$dn" 'BEGIN { if (k == "-" || n + 0 == 0) print "-"; else printf "%.0f\n", k * u / n }'; }
	dtab_kb=$(dgrow free_kb -1) dtab_cgb=$(dgrow cg_slab_b 1)
	dtab_cgkb=$(awk -v b="$dtab_cgb" 'BEGIN { if (b == "-") print "-"; else printf "%.0f\n", b / 1024 }')
	dest_b=$(dper "$dtab_kb" 1024) dest_s=$(dper "$dtab_cgb" 1)
	tun_b=$(per_obj "$(f tunnel 0)" "$(f tunnel "$tn")" "$tn")
	tun_s=$(per_obj "$(s tunnel "$tn")" "$(s tunnel 0)" "$tn")
	dom_b=$(per_obj "$(f domain 0)" "$(f domain "$dmax")" "$dmax")
	dom_s=$(per_obj "$(s domain "$dmax")" "$(s domain 0)" "$dmax")
	ses_b=$(per_obj "$(f session 0)" "$(f session "$smax")" "$smax")
	ses_s=$(per_obj "$(s session "$smax")" "$(s session 0)" "$smax")
	{
		echo "## Kernel memory (VM)"
		echo
		echo "Bytes per object: the drop in MemFree (every kernel allocation, slab or page) over the"
		echo "largest step, caches dropped before each reading and the per-CPU page lists kept at their"
		echo "smallest (read until two readings 0.5 s apart agree within 64 kB); in brackets the part in"
		echo "unreclaimable slab (SUnreclaim).  The peer: one IPv4 route (a blackhole /32 in the main"
		echo "table) measured the same way in the same VM."
		echo
		echo "| object | measured over | bytes each [slab] | bytes per route [slab] | ratio |"
		echo "|---|---:|---:|---:|---:|"
		echo "| live session (admission counters) | $smax | $ses_b [$ses_s] | $route_b [$route_s] | $(ratio "$ses_b" "$route_b") |"
		echo "| domain map entry | $dmax | $dom_b [$dom_s] | $route_b [$route_s] | $(ratio "$dom_b" "$route_b") |"
		echo "| profile with one tunnel (its array sized to it) | $((pmax - 1)) | $prof_b [$prof_s] | $route_b [$route_s] | $(ratio "$prof_b" "$route_b") |"
		echo "| tunnel (grows its profile's array) | $tn | $tun_b [$tun_s] | $route_b [$route_s] | $(ratio "$tun_b" "$route_b") |"
		echo "| destination (table filled by need, less a step naming an existing one; [slab]: charged to the loader's memory cgroup) | ${dn:--} | $dest_b [$dest_s] | $route_b [$route_s] | $(ratio "$dest_b" "$route_b") |"
		echo
		echo "Destinations: a second tunnel in each of ${dn:--} one-tunnel profiles, each to a new address"
		echo "(the table by need: 64 slots of 64 bytes to a chunk, 4096 slots), less the same step to one"
		echo "address already there (as many tunnels, their arrays grown alike), over ${dn:--}: ${dtab_kb} kB"
		echo "of MemFree, ${dtab_cgkb} kB of slab charged to the memory cgroup the loader ran in"
		echo "(\`memory.stat\` slab_unreclaimable, bytes per object; MemFree moves by hundreds of kB"
		echo "between readings), on top of the 31 slots the tunnels above took."
		echo
		echo "## Dumps (VM)"
		echo
		echo "One dump request read to its end (\`bench-nl dump\`), against an rtnetlink dump of as many IPv4"
		echo "routes in the same VM."
		echo
		echo "| objects | count | dump ms | route dump ms (routes) | ratio |"
		echo "|---|---:|---:|---:|---:|"
		for w in domain profile session; do
			for n in $(vmns dump "$w"); do
				t=$(vmv dump "$w" "$n" ns) rt=$(vmv dump route "$n" ns) rc=$(vmv dump route "$n" count)
				echo "| $w | $(vmv dump "$w" "$n" count) | $(ms "$t") | $(ms "$rt") (${rc:--}) | $(ratio "$t" "$rt") |"
			done
		done
		echo
		echo "## A login while a dump runs (VM)"
		echo
		echo "\`bench-nl login-under-dump\`: logins to p0 one after another (LOGIN_BEGIN, LOGIN_REPORT), their"
		echo "round trip, while another process dumps every domain over and over, each dump part built"
		echo "under the namespace mutex.  The peer: the same logins with no dump.  Dumps \"whole\":"
		echo "read to the end; \"interrupted\": given up after the CLI's retries (logins move the generation)."
		echo
		echo "| dumps | domains | logins | p50 µs | p99 µs | max µs | p99 / no dump | dumps whole | interrupted |"
		echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
		base=$(vmv readpath none "$(vmns readpath none)" p99_us)
		for w in none dump; do
			n=$(vmns readpath "$w")
			[ -n "$n" ] || continue
			r() { vmv readpath "$w" "$n" "$1"; }
			case $w in none) lbl="none" ;; *) lbl="domain dump" ;; esac
			echo "| $lbl | $n | $(r count) | $(r p50_us) | $(r p99_us) | $(r max_us) | $(ratio "$(r p99_us)" "$base") | $(r dumps) | $(r dumps_intr) |"
		done
		echo
	} >> "$R"
elif [ "$vm" = 1 ]; then
	echo "## VM part: failed (see vm/vm.log); no kernel figures in this run" >> "$R"
	echo >> "$R"
else
	{
		echo "## VM part: not run (--no-vm or --smoke)"
		echo
	} >> "$R"
fi

# -- hash disruption
{
	echo "## Hash disruption"
	echo
	echo "Percent of $(awk '!/^#/ { print $12; exit }' "$H/hash.tsv") keys (subscriber names) moved when member N/2 of N fails"
	echo "(loss), when it returns (return), and not back on their first member after both (cycle)."
	echo "The peer: plain hash (key modulo the members up).  Reference: the MinMiss list of 003 as"
	echo "read in bench/host/bench_host.c (a baseline implemented only there).  Ideal loss: 1/N."
	echo
	echo "| N | 1/N % | minmiss loss % | plain loss % | ratio | reference loss % | minmiss return % | plain return % | reference return % | minmiss cycle % | reference cycle % |"
	echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	awk '!/^#/ && ($1 <= 4 || $1 == 8 || $1 == 16 || $1 == 24 || $1 == 31) {
		printf "| %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n",
			$1, $2, $5, $3, ($3 > 0 ? $5 / $3 : 0), $7, $6, $4, $8, $10, $11 }' "$H/hash.tsv"
	echo
	echo "Every N from 2 to 31: host/hash.tsv."
	echo
	echo "![hash disruption](hash.png)"
	echo
} >> "$R"
gnuplot <<EOF 2> "$H/gnuplot-hash.err" || notes+=("gnuplot hash.png failed")
set terminal ${gp_term/size 900,560/size 1200,420}
set output "$out/hash.png"
set multiplot layout 1,3 title "Keys moved when 1 of N members fails and returns (same run)"
set xlabel "N members"
set ylabel "% of keys"
set xrange [2:31]
set yrange [0:100]
set grid
set key right center
set title "member fails"
plot "$H/hash.tsv" using 1:3 with linespoints pt 7 ps 0.5 title "plain hash", \
     '' using 1:5 with linespoints pt 5 ps 0.5 title "minmiss (l2tpsel)", \
     '' using 1:7 with lines dt 2 lw 2 title "reference MinMiss", \
     '' using 1:2 with lines dt 3 lc rgb "black" title "1/N"
set title "member returns"
plot "$H/hash.tsv" using 1:4 with linespoints pt 7 ps 0.5 title "plain hash", \
     '' using 1:6 with linespoints pt 5 ps 0.5 title "minmiss (l2tpsel)", \
     '' using 1:8 with lines dt 2 lw 2 title "reference MinMiss", \
     '' using 1:2 with lines dt 3 lc rgb "black" title "1/N"
set title "not on their first member after both"
set yrange [0:60]
plot "$H/hash.tsv" using 1:9 with linespoints pt 7 ps 0.5 title "plain hash", \
     '' using 1:10 with linespoints pt 5 ps 0.5 title "minmiss (l2tpsel)", \
     '' using 1:11 with lines dt 2 lw 2 title "reference MinMiss"
unset multiplot
EOF

# -- rate limiter
{
	echo "## Rate limiter"
	echo
	echo "ns per decision of the token bucket (core/rl.c) against a fixed-window counter (reset every"
	echo "second: the cheapest limiter, which lets up to twice the rate through across a window edge)."
	echo
	echo "| case | token bucket ns | fixed window ns | ratio |"
	echo "|---|---:|---:|---:|"
	awk '!/^#/ { printf "| %s | %.2f | %.2f | %.2f |\n", $1, $2, $3, ($3 > 0 ? $2 / $3 : 0) }' "$H/rl.tsv"
	echo
	echo "Admitted against offered, limit $(awk '!/^#/ { print $5 "/s, burst " $6 ", " $7; exit }' "$H/rlcurve.tsv") s of Poisson arrivals per point:"
	echo
	echo "| offered / limit | offered /s | token bucket admitted /s | fixed window admitted /s | ratio | token bucket most in 100 ms | fixed window most in 100 ms | ratio |"
	echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
	awk '!/^#/ { printf "| %.2f | %.1f | %.1f | %.1f | %.3f | %d | %d | %.2f |\n", $1, $2, $3, $4,
		($4 > 0 ? $3 / $4 : 0), $8, $9, ($9 > 0 ? $8 / $9 : 0) }' "$H/rlcurve.tsv"
	echo
	echo "Both admit the limit on average; the most admitted in any 100 ms shows the difference:"
	echo "the token bucket stays near a tenth of the rate plus its burst, the fixed window lets a"
	echo "whole second's worth through at the start of each window under overload."
	echo
	echo "![rate limiter](rl.png)"
	echo
} >> "$R"
gnuplot <<EOF 2> "$H/gnuplot-rl.err" || notes+=("gnuplot rl.png failed")
set terminal ${gp_term/size 900,560/size 1200,460}
set output "$out/rl.png"
set multiplot layout 1,2 title "Rate limiter, limit 1000/s, Poisson arrivals (same run)"
set xlabel "offered / s"
set logscale x
set grid
set key bottom right
set title "admitted against offered"
set ylabel "admitted / s"
plot "$H/rlcurve.tsv" using 2:3 with linespoints pt 7 title "token bucket (l2tpsel)", \
     '' using 2:4 with linespoints pt 5 title "fixed window (peer)", \
     '' using 2:(\$2 < \$5 ? \$2 : \$5) with lines dt 2 lc rgb "black" title "min(offered, limit)"
set title "most admitted in any 100 ms"
set ylabel "requests"
set key top left
plot "$H/rlcurve.tsv" using 2:8 with linespoints pt 7 title "token bucket (l2tpsel)", \
     '' using 2:9 with linespoints pt 5 title "fixed window (peer)", \
     '' using 2:(\$5 / 10 + \$6) with lines dt 2 lc rgb "black" title "limit / 10 + burst"
unset multiplot
EOF

# -- the agent
{
	echo "## Agent: sessions per second and failover cost (VM)"
	echo
	if [ "$vm_ok" != 1 ]; then
		why="not measured: no VM part in this run"
		[ "$vm" = 1 ] && why="not measured: the VM part failed (vm/vm.log)"
	elif [ -n "$(vmns agent missing)" ]; then
		why="not measured: the agent does not exist yet ($BUILD/l2tpseld)"
	elif [ -n "$(vmns agent failed)" ]; then
		why="not measured: the agent part stopped (vm/agent.log)"
		notes+=("the agent part stopped: see vm/agent.log")
	else
		why="not measured"
	fi
	sccrq=$(vmv agent sccrq-timeout 1 ms)
	echo "Control plane only (\`bench/vm/agent.sh\`): l2tpseld as LAC on the module's selection, logins through its"
	echo "API from \`bench-nl agent\` (a connection per login, as a PPP front end opens them); the peer, xl2tpd"
	echo "as LAC, one call per \`c\` command.  Both against the same LNS on the guest's loopback: an xl2tpd LNS"
	echo "(pppd replaced by a stub it still forks per call), and an l2tpseld LNS (\`kernel none\`, \`dataplane"
	echo "none\`), the peer that is not the bottleneck.  xl2tpd as LAC carries one session per tunnel and"
	echo "takes one command at a time, so it makes its sessions one after another, each with its tunnel;"
	echo "l2tpseld's serial rows do the same on one tunnel, its scale rows as many at once as the row says."
	echo "With PPP (\`bench/vm/ppp.sh\`, a VM boot of its own): an xl2tpd"
	echo "LNS with the real pppd behind a veth pair; l2tpseld (\`dataplane kernel\`) makes its logins one"
	echo "after another, xl2tpd is one instance per LAC source address with one call each (one xl2tpd's"
	echo "tunnels to one LNS share an address pair, and the kernel carries PPP on one tunnel per pair);"
	echo "both issue every setup without waiting for PPP, timed until the LNS's pppd ran ip-up for each."
	echo "The failover rows: profile fo has a silent LNS at level 0"
	echo "and the live one at level 1; the agent's SCCRQ setup timeout in this run:"
	echo "${sccrq:-(none)} ms (10 s is its default; the tiny size uses 1 s)."
	echo
	echo "| figure | l2tpseld | peer | peer figure | ratio |"
	echo "|---|---:|---|---:|---:|"
	n=$(vmns agent serial) xn=$(vmns agent xl2tpd)
	a=$(vmv agent serial "$n" per_s) x=$(vmv agent xl2tpd "$xn" per_s)
	echo "| sessions/s, one after another, xl2tpd LNS ($n / $xn sessions) | ${a:-$why} | xl2tpd as LAC | ${x:-$why} | $(ratio "$a" "$x") |"
	n=$(vmns agent serial-sel) xn=$(vmns agent xl2tpd-sel)
	a=$(vmv agent serial-sel "$n" per_s) x=$(vmv agent xl2tpd-sel "$xn" per_s)
	echo "| sessions/s, one after another, l2tpseld LNS ($n / $xn sessions) | ${a:-$why} | xl2tpd as LAC | ${x:-$why} | $(ratio "$a" "$x") |"
	# the best concurrent row against xl2tpd's one-at-a-time
	best=$(awk '$1 == "agent" && $2 == "scale" { for (i = 4; i <= NF; i++) { split($i, kv, "=")
		if (kv[1] == "per_s" && kv[2] + 0 > b + 0) { b = kv[2]; c = $3 } } }
		END { if (b != "") print c, b }' "$V" 2>/dev/null)
	a=${best#* }
	echo "| sessions/s, as many at once as it takes (best scale row: ${best%% *} at once), l2tpseld LNS | ${a:-$why} | xl2tpd as LAC, one command at a time | ${x:-$why} | $(ratio "$a" "$x") |"
	a=$(vmv agent failover-first 1 ms) x=$(vmv agent live-first 1 ms)
	echo "| ms: first login, top LNS dead (failover) | ${a:-$why} | first login, LNS alive | ${x:-$why} | $(ratio "$a" "$x") |"
	k=$(vmns agent failover-later)
	a=$(vmv agent failover-later "$k" ms) x=$(vmv agent live-later "$(vmns agent live-later)" ms)
	echo "| ms: later logins inside the lockout (median of ${k:-K}) | ${a:-$why} | later logins, LNS alive | ${x:-$why} | $(ratio "$a" "$x") |"
	PV=$out/vm/ppp.txt
	pv() { [ -f "$PV" ] && awk -v w="$1" -v f="$2" '$1 == "ppp" && $2 == w {
		for (i = 4; i <= NF; i++) { split($i, kv, "="); if (kv[1] == f) print kv[2] } }' "$PV" | tail -n 1; }
	if [ "$vm" != 1 ]; then
		pwhy="not measured: no VM part in this run"
	else
		pwhy="not measured: the PPP part failed (vm/ppp-vm.log)"
	fi
	a=$(pv l2tpseld per_s) x=$(pv xl2tpd per_s)
	for w in l2tpseld xl2tpd; do
		c=$(pv $w count) u=$(pv $w up)
		if [ -n "$u" ] && [ "$u" != "$c" ]; then
			notes+=("with PPP, $w: $u of $c PPP links came up: see vm/ppp-logs/")
			[ $w = l2tpseld ] && a="$a ($u of $c up)" || x="$x ($u of $c up)"
		fi
	done
	echo "| sessions/s with PPP, to IPCP up at the LNS ($(pv l2tpseld count) / $(pv xl2tpd count) sessions; kernel data path, real pppd at both ends) | ${a:-$pwhy} | xl2tpd as LAC, one per source address | ${x:-$pwhy} | $(ratio "$(pv l2tpseld per_s)" "$(pv xl2tpd per_s)") |"
	echo
	echo "### Setup rate against concurrency (VM)"
	echo
	echo "l2tpseld as LAC, N logins C at a time through one tunnel to the l2tpseld LNS (\`bench-nl agent\`),"
	echo "then their logouts C at a time, timed until the LNS holds that many sessions fewer (\`bench-nl logout\`; the"
	echo "API answers \`ok\` when the CDN is queued).  Setup time: from the request to \`done\`; the steps are"
	echo "the medians of the agent's own figures in each \`done\` line (\`kernel\`: LOGIN_BEGIN and"
	echo "LOGIN_REPORT; \`tunnel\`: waiting for the tunnel; \`call\`: ICRQ queued to ICRP; \`own\`: the rest,"
	echo "the agent's loop).  CPU: the LAC's and the LNS's user + system time over the row, per session."
	echo "The floor: the same four datagrams of a login on an established tunnel (ICRQ, ICRP, ICCN, ZLB)"
	echo "between two bare UDP sockets in the same guest, C in flight (\`bench-nl udp-floor\`)."
	echo "Each row of logins and each of logouts is the fastest of $(vmv agent scale 1 best_of) runs, its figures all from that run (the"
	echo "other load on the machine only adds time); a run with a failed login, or one whose logouts left"
	echo "sessions at the LNS, is shown instead of the others."
	echo
	echo "| at once | logins | ok | sessions/s | p50 ms | p99 ms | kernel µs | tunnel µs | call µs | own µs | LAC CPU µs | LNS CPU µs | logouts/s | logout p99 ms | LNS left | floor /s | floor p50 ms |"
	echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	: > "$out/vm/scale-agent.tsv"
	for c in $(vmns agent scale); do
		g() { vmv agent scale "$c" "$1"; }
		lo() { vmv agent logout "$c" "$1"; }
		fl() { vmv agent floor "$c" "$1"; }
		n=$(g count) ok=$(g ok)
		[ -n "$ok" ] && [ "$ok" != "$n" ] && notes+=("$((n - ok)) of $n logins $c at a time failed: see vm/agent-logs/")
		[ -n "$(lo lns_left)" ] && [ "$(lo lns_left)" != 0 ] && notes+=("after the logouts $c at a time the LNS held $(lo lns_left) sessions")
		echo "| $c | $n | $ok | $(g per_s) | $(g p50_ms) | $(g p99_ms) | $(g kernel_us) | $(g tunnel_us) | $(g call_us) | $(g own_us) | $(g lac_cpu_us) | $(g lns_cpu_us) | $(lo per_s) | $(lo p99_ms) | $(lo lns_left) | $(fl per_s) | $(fl p50_ms) |"
		printf '%s\t%s\t%s\t%s\n' "$c" "$(g per_s)" "$(lo per_s)" "$(fl per_s)" >> "$out/vm/scale-agent.tsv"
	done
	s1=$(vmv agent scale 1 per_s)
	best=$(sort -k2 -g "$out/vm/scale-agent.tsv" 2>/dev/null | tail -n 1 | cut -f2)
	echo
	echo "Concurrent against the agent's own one-at-a-time rate (1 at once): $(ratio "$best" "$s1")."
	echo
	if [ -s "$out/vm/scale-agent.tsv" ]; then
		echo "![setup rate against concurrency](agent-scale.png)"
		echo
	fi
} >> "$R"
if [ -s "$out/vm/scale-agent.tsv" ]; then
	xs=$(vmv agent xl2tpd-sel "$(vmns agent xl2tpd-sel)" per_s)
	gnuplot <<EOF 2> "$out/vm/gnuplot-agent.err" || notes+=("gnuplot agent-scale.png failed")
set terminal $gp_term
set output "$out/agent-scale.png"
set title "Sessions per second against logins at once (same VM run)"
set xlabel "logins at once"
set ylabel "per second"
set logscale xy
set grid
set key top left
plot "$out/vm/scale-agent.tsv" using 1:2 with linespoints pt 7 title "l2tpseld LAC -> l2tpseld LNS, setup", \
     '' using 1:3 with linespoints pt 5 title "the same, logout", \
     '' using 1:4 with linespoints pt 9 dt 2 title "floor: bare UDP sockets", \
     ${xs:-0} with lines dt 3 lc rgb "black" title "xl2tpd LAC, one at a time"
EOF
fi

# -- the PPPoE access role
{
	echo "## PPPoE access: subscribers per second and throughput (VM)"
	echo
	EV=$out/vm/pppoe.txt
	ev() {	# ev KIND WHO FIELD: one value from pppoe.txt
		[ -f "$EV" ] && awk -v k="$1" -v w="$2" -v f="$3" '$1 == k && $2 == w {
			for (i = 4; i <= NF; i++) { split($i, kv, "="); if (kv[1] == f) print kv[2] } }' "$EV" | tail -n 1
	}
	if [ "$vm" != 1 ]; then
		ewhy="not measured: no VM part in this run"
	elif [ -s "$EV" ]; then
		ewhy="not measured: see vm/pppoe-vm.log"
	else
		ewhy="not measured: the PPPoE part failed (vm/pppoe-vm.log)"
	fi
	echo "\`bench/vm/pppoe.sh\`: N subscribers (Debian's pppd with pppoe.so, a macvlan each on a veth link"
	echo "into the LAC's namespace) dial at once; timed from starting the pppds until every one has its"
	echo "IPCP address.  l2tpseld (\`access pppoe\`, PAP, \`dataplane kernel\`) logs each in and bridges"
	echo "its PPPoE channel to a PPPoL2TP session to an xl2tpd LNS in the kernel, IPCP is the LNS's"
	echo "pppd's; the peer, pppoe-server in the LAC's namespace on the same link, terminates them there"
	echo "with a pppd each.  Throughput: a TCP transfer for a few seconds from subscriber 1 (the others"
	echo "up and idle) to the LNS's PPP address across the bridge, to pppoe-server's PPP address, and,"
	echo "without PPP, from the subscribers' namespace to the LNS's forwarded by the LAC's (Python"
	echo "sockets, Mbit/s at the receiver).  Debian's pppoe-server has no kernel mode: its sessions'"
	echo "frames go through a user-space pppoe process and a pty, so the routed row is the"
	echo "kernel-forwarding peer for the bridge.  After each figure, the IP fragments the three"
	echo "namespaces made during its transfer (/proc/net/snmp FragCreates): 0 when every frame fits."
	echo
	echo "| figure | l2tpseld | peer | peer figure | ratio |"
	echo "|---|---:|---|---:|---:|"
	a=$(ev pppoe l2tpseld per_s) x=$(ev pppoe server per_s) n=$(ev pppoe l2tpseld count)
	for w in l2tpseld server; do
		c=$(ev pppoe $w count) u=$(ev pppoe $w up)
		if [ -n "$u" ] && [ "$u" != "$c" ]; then
			notes+=("PPPoE, $w: $u of $c subscribers came up: see vm/pppoe-logs/")
			[ $w = l2tpseld ] && a="$a ($u of $c up)" || x="$x ($u of $c up)"
		fi
	done
	echo "| subscribers/s to IPCP up at the subscriber (${n:-N} at once; bridged to an xl2tpd LNS) | ${a:-$ewhy} | pppoe-server, PPP terminated on the LAC | ${x:-$ewhy} | $(ratio "$(ev pppoe l2tpseld per_s)" "$(ev pppoe server per_s)") |"
	a=$(ev tput l2tpseld mbit_s) x=$(ev tput server mbit_s) r=$(ev tput routed mbit_s)
	fa=$(ev tput l2tpseld frags) fx=$(ev tput server frags) fr=$(ev tput routed frags)
	echo "| Mbit/s TCP, subscriber -> LNS across the bridge | ${a:-$ewhy}${fa:+ ($fa fragments)} | pppoe-server (user-space PPPoE), to its PPP address | ${x:-$ewhy}${fx:+ ($fx fragments)} | $(ratio "$a" "$x") |"
	echo "| Mbit/s TCP, subscriber -> LNS across the bridge | ${a:-$ewhy}${fa:+ ($fa fragments)} | kernel IPv4 forwarding, no PPP, same hop | ${r:-$ewhy}${fr:+ ($fr fragments)} | $(ratio "$a" "$r") |"
	echo
	echo "Every figure here is a rate: above 1, l2tpseld brings subscribers up faster or carries more than its peer."
	echo
} >> "$R"

# -- subscriber storms
{
	echo "## Subscriber storms: PPPoE subscribers a second through the LAC (VM)"
	echo
	SV=$out/vm/storm.txt
	sv() {	# sv WHO N FIELD: one value from storm.txt
		[ -f "$SV" ] && awk -v w="$1" -v n="$2" -v f="$3" '$1 == "storm" && $2 == w && $3 == n {
			for (i = 4; i <= NF; i++) { split($i, kv, "="); if (kv[1] == f) print kv[2] } }' "$SV" | tail -n 1
	}
	echo "\`bench/vm/storm.sh\`: l2tpsel-subgen (one process, raw sockets: PPPoE discovery, LCP, PAP,"
	echo "IPCP for every subscriber) offers N subscribers at R a second to l2tpseld as LAC (\`access pppoe\`,"
	echo "PAP, \`dataplane kernel\`), which logs each in and bridges it to the LNS in the kernel."
	echo "**l2tpns** (Debian's, PPP terminated in one process, PAP through an accept-all RADIUS):"
	echo "subscribers/s from the first PADI to the last IPCP up at the subscriber, setup p50/p99,"
	echo "failures.  **l2tpseld LNS** (no PPP of its own): logins a second up to the bridged call,"
	echo "counted at the LAC.  **floor**: the same generator against l2tpsel-subresp, a trivial"
	echo "responder on the same kind of link: what the generator and the VM can do at all."
	echo "lns_rtx: messages the LNS sent twice (duplicates the LAC received); CPU a subscriber of the"
	echo "LAC and of l2tpns; idle: the guest's idle CPU share over the row (high: something waits)."
	echo "**l2tpns, own CPU**: the same with l2tpns and its RADIUS server first to a CPU whenever they"
	echo "want one (nice -10), as on the LNS's own machine; in the plain l2tpns rows the five processes"
	echo "share the guest's two CPUs as equals, and l2tpns's one thread waits on the run queue."
	echo "want %: the most of a second the LAC agent's event loop and l2tpns's one thread ran or"
	echo "waited on a run queue to run (near 100: that thread is the limit)."
	echo
	if [ "$storm_ok" != 1 ]; then
		echo "Not measured: $([ "$vm" = 1 ] && echo "the storm part failed (vm/storm-vm.log)" || echo "no VM part in this run")."
		echo
	else
		echo "| N at R/s | floor /s | l2tpns /s | p50 / p99 ms | failed | lns_rtx | LAC / LNS CPU µs | idle % | want %: LAC loop / l2tpns | l2tpns, own CPU /s | p50 / p99 ms | failed | want % | l2tpseld LNS logins/s | p50 / p99 ms | l2tpns / floor |"
		echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
		for n in $(awk '$1 == "storm" && $2 == "floor" { print $3 }' "$SV"); do
			f=$(sv floor "$n" per_s) k=$(sv l2tpns "$n" per_s) l=$(sv lns "$n" per_s)
			o=$(sv l2tpns-own "$n" per_s)
			echo "| $n at $(sv floor "$n" rate) | $f | ${k:--} | $(sv l2tpns "$n" p50_ms) / $(sv l2tpns "$n" p99_ms) | $(sv l2tpns "$n" failed) | $(sv l2tpns "$n" lns_rtx) | $(sv l2tpns "$n" lac_cpu_us) / $(sv l2tpns "$n" lns_cpu_us) | $(sv l2tpns "$n" idle_pct) | $(sv l2tpns "$n" lac_demand_pct) / $(sv l2tpns "$n" lns_demand_pct) | ${o:--} | $(sv l2tpns-own "$n" p50_ms) / $(sv l2tpns-own "$n" p99_ms) | $(sv l2tpns-own "$n" failed) | $(sv l2tpns-own "$n" lac_demand_pct) / $(sv l2tpns-own "$n" lns_demand_pct) | ${l:--} | $(sv lns "$n" p50_ms) / $(sv lns "$n" p99_ms) | $(ratio "$k" "$f") |"
			echo "$(sv floor "$n" rate) $f ${k:-0} ${l:-0} ${o:-0}" >> "$out/vm/storm-rate.dat"
		done
		echo
		n=$(awk '$1 == "storm" && $2 == "spread" { print $3 }' "$SV" | tail -n 1)
		m=$(awk '$1 == "storm" && $2 == "maxsess" { print $3 }' "$SV" | tail -n 1)
		echo "destination-equal, $n logins at once over four equal LNS: $(sv spread "$n" min) to $(sv spread "$n" max) on each"
		echo "(mean $(sv spread "$n" mean)), spread $(sv spread "$n" spread_pct) % of the mean (S-STORM-1: within 10)."
		echo "max-sessions $(sv maxsess "$m" limit) on four level-0 tunnels, $m logins at once: at most $(sv maxsess "$m" worst)"
		echo "sessions on one, overshoot $(sv maxsess "$m" overshoot) (S-STORM-2: 0); $(sv maxsess "$m" level1) went on to level 1."
		echo
		if [ -s "$out/vm/storm-rate.dat" ] && gnuplot <<EOF 2> "$out/vm/gnuplot-storm.err"; then
set terminal $gp_term
set output "$out/storm.png"
set title "Subscribers up a second against subscribers offered a second (VM, same run)"
set xlabel "offered a second"
set ylabel "up a second"
set key top left
set grid
plot "$out/vm/storm-rate.dat" using 1:2 with linespoints title "floor: subgen against subresp", \\
     '' using 1:3 with linespoints title "l2tpseld LAC to l2tpns (PADI to IPCP)", \\
     '' using 1:5 with linespoints title "the same, l2tpns with its own CPU", \\
     '' using 1:4 with linespoints title "l2tpseld LAC to l2tpseld LNS (to the bridged call)", \\
     x with lines dt 3 lc rgb "black" title "offered"
EOF
			echo "![storm rates](storm.png)"
			echo
		else
			notes+=("storm.png was not drawn")
		fi
	fi
} >> "$R"

# -- files and notes
for p in core hash rl; do
	[ -s "$out/$p.png" ] || notes+=("$p.png was not drawn")
done
if [ "$vm_ok" = 1 ] && [ ! -s "$out/scale.png" ]; then
	notes+=("scale.png was not drawn")
fi
if [ -s "$out/vm/scale-agent.tsv" ] && [ ! -s "$out/agent-scale.png" ]; then
	notes+=("agent-scale.png was not drawn")
fi
{
	echo "## Files"
	echo
	echo "host/*.tsv (bench-host), vm/vm.txt and vm/vm.log (bench/vm/guest.sh), vm/ppp.txt (bench/vm/ppp.sh),"
	echo "vm/pppoe.txt and vm/pppoe-logs/ (bench/vm/pppoe.sh), vm/storm.txt and vm/storm-logs/ (bench/vm/storm.sh),"
	echo "raw/ (bench-core, bench-rl).  Wall time of this run: $(( $(date +%s) - start )) s."
	if [ ${#notes[@]} -gt 0 ]; then
		echo
		echo "Problems in this run:"
		for n in "${notes[@]}"; do echo "- $n"; done
	fi
} >> "$R"

if [ "$mode" = smoke ]; then
	fail=
	for p in core hash rl; do [ -s "$out/$p.png" ] || fail="$fail $p.png"; done
	for t in core hash rl rlcurve; do
		[ "$(grep -vc '^#' "$out/host/$t.tsv")" -gt 0 ] || fail="$fail host/$t.tsv"
	done
	[ "$(grep -c '^| 8x31 | yes | random |' "$R")" = 1 ] || fail="$fail core-row"
	[ "$(grep -c '^| 31 |' "$R")" = 1 ] || fail="$fail hash-row"
	grep -q 'not measured: ' "$R" || fail="$fail agent-rows"
	if [ -n "$fail" ]; then
		echo "# bench smoke: missing:$fail (in $out)"
		echo "not ok 1 bench_smoke_tiny"
		exit 1
	fi
	echo "ok 1 bench_smoke_tiny # report $R"
	exit 0
fi

log "done in $(( $(date +%s) - start )) s"
echo "$out"
[ ${#notes[@]} -eq 0 ]
