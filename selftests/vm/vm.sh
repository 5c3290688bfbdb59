#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a kernel in qemu (software emulation), run one command in it, and fail
# when the guest kernel complains.
#
#   selftests/vm/vm.sh [OPTIONS] -- CMD [ARGS...]
#   selftests/vm/vm.sh [OPTIONS] --shell
#
#   --kernel BZIMAGE  kernel to boot (default /boot/vmlinuz-$KVER, KVER = newest
#                     in /lib/modules unless set in the environment)
#   --modules DIR     DIR/lib/modules/<release>/ holds that kernel's modules; the
#                     guest uses DIR/lib/modules as its /lib/modules
#   --timeout SECS    kill the guest after SECS (default 600; none for --shell)
#   --mem SIZE        guest memory (default 1G)
#   --kmemleak        scan kmemleak after CMD; any report fails the run
#   --env VAR=VAL     set VAR in CMD's environment (repeatable)
#   --boot-retries N  boot again, up to N times, when the guest died before
#                     CMD started (nothing of ours had run yet), or was killed
#                     then for a TSC calibrated far from the host's rate or a
#                     hung boot (watch_boot); each such boot is reported with
#                     its panic lines or the reason (default 2)
#   --shell           interactive shell on the console instead of CMD
#
# The guest sees the host root read-only (9p) and this work tree writable at
# its own absolute path; CMD runs as root with the work tree as its cwd.  The
# exit status is CMD's; when the guest kernel logged a WARNING, BUG, oops,
# lockdep/KASAN/UBSAN report, hung task, kmemleak report or an unexpected
# taint, or when the guest died or hung, the run fails even if CMD passed.
# The verdict is one KTAP line, "ok 1 vm_kernel_log_clean" or "not ok 1 ...",
# and on failure the guest's whole kernel log is printed as "# " lines.
#
# Environment: KVER; L2TPSEL_VM_STALL_RCU / L2TPSEL_VM_STALL_BOOT (seconds
# of console silence that make a boot hung, see watch_boot) and
# L2TPSEL_VM_HOST_MHZ (the TSC rate expected); L2TPSEL_VM_PANIC_ON_WARN=0 keeps the guest running after
# a WARN (the log check still fails the run, but later tests get to run);
# L2TPSEL_VM_BZIMAGE=1 boots the bzImage itself rather than the vmlinux
# extracted from it (see pvh_image); L2TPSEL_VM_KEEP=1 keeps the run directory (build/vm/run.*: console.log,
# result, cmd) even when the run passed; a failed run always keeps it.
# CMD sees L2TPSEL_VM=1.  Documentation/testing.md explains the machinery.
set -u

vm_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
top=$(cd "$vm_dir/../.." && pwd -P)
cache=$top/build/vm

usage() {
	sed -n '/^#   selftests/,/^#   --shell/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

fatal() {
	echo "vm.sh: $*" >&2
	exit 2
}

kernel= modules= timeout= mem=1G kmemleak=0 shell=0 boot_retries=2
envs=()
while [ $# -gt 0 ]; do
	case $1 in
	--kernel|--modules|--timeout|--mem|--env|--boot-retries)
		[ $# -ge 2 ] || fatal "$1 needs a value"
		case $1 in
		--boot-retries)	[[ $2 =~ ^[0-9]+$ ]] || fatal "--boot-retries wants a number, not \"$2\""
				boot_retries=$2 ;;
		--kernel)	kernel=$2 ;;
		--modules)	modules=$2 ;;
		--timeout)	timeout=$2 ;;
		--mem)		mem=$2 ;;
		--env)		envs+=("$2") ;;
		esac
		shift 2 ;;
	--kmemleak)	kmemleak=1; shift ;;
	--shell)	shell=1; shift ;;
	-h|--help)	usage; exit 0 ;;
	--)		shift; break ;;
	*)		usage >&2; fatal "unknown argument \"$1\"" ;;
	esac
done
cmd=("$@")
if [ "$shell" = 1 ] && [ ${#cmd[@]} -gt 0 ]; then
	fatal "--shell takes no command"
elif [ "$shell" = 0 ] && [ ${#cmd[@]} -eq 0 ]; then
	usage >&2
	fatal "no command (put it after --) and no --shell"
fi
for e in ${envs[@]+"${envs[@]}"}; do
	[[ $e =~ ^[A-Za-z_][A-Za-z0-9_]*= ]] || fatal "--env \"$e\" is not VAR=VALUE"
done
[ -z "$timeout" ] || [[ $timeout =~ ^[0-9]+$ ]] || fatal "--timeout \"$timeout\" is not a number of seconds"
[ -n "$timeout" ] || { [ "$shell" = 1 ] || timeout=600; }
case $top in
*[[:space:]]*) fatal "the work tree path \"$top\" contains white space; the guest's kernel command line cannot carry it" ;;
esac

# Release string of a bzImage: the setup header (magic "HdrS" at 0x202) points
# at it through the 16-bit field at 0x20e, relative to 0x200.
kernel_release() {
	local off
	[ "$(tail -c +515 "$1" 2>/dev/null | head -c 4)" = HdrS ] || return 1
	off=$(od -An -tu2 -j 526 -N 2 "$1" | tr -d ' ')
	[ -n "$off" ] || return 1
	tail -c +$((off + 512 + 1)) "$1" | head -c 256 | tr '\0' '\n' | head -n 1 | cut -d ' ' -f 1
}

if [ -z "$kernel" ]; then
	KVER=${KVER:-$(ls -1 /lib/modules 2>/dev/null | sort -V | tail -n 1)}
	[ -n "$KVER" ] || fatal "no kernel in /lib/modules; install linux-image-amd64 (make deps)"
	kernel=/boot/vmlinuz-$KVER
fi
[ -r "$kernel" ] || fatal "cannot read kernel \"$kernel\""
release=$(kernel_release "$kernel") || fatal "\"$kernel\" is not a bzImage"
[ -n "$release" ] || fatal "cannot read the release of \"$kernel\""

modroot=/
if [ -n "$modules" ]; then
	modules=$(cd "$modules" 2>/dev/null && pwd -P) || fatal "--modules: no such directory"
	[ -d "$modules/lib/modules" ] || fatal "--modules: $modules/lib/modules does not exist"
	modroot=$modules
fi
[ -d "$modroot/lib/modules/$release" ] ||
	echo "vm.sh: warning: no $modroot/lib/modules/$release: the guest cannot load modules" >&2

command -v qemu-system-x86_64 >/dev/null || fatal "qemu-system-x86_64 is missing (make deps)"
busybox=/bin/busybox
[ -x $busybox ] || fatal "$busybox is missing (busybox-static; make deps)"

# --- initramfs: busybox, init, the modprobe wrapper, the 9p modules -------

# Modules the stock kernel needs before it can mount 9p, in load order; none
# when they are built in (modprobe says "builtin").
boot_modules() {
	local out line seen=" "
	out=$(modprobe -d "$modroot" -S "$release" --show-depends -a virtio_pci 9pnet_virtio 9p 2>/dev/null) || {
		echo "vm.sh: note: modprobe cannot resolve the 9p modules of $release; assuming they are built in" >&2
		return 0
	}
	while read -r line; do
		case $line in
		insmod\ *)
			line=${line#insmod }
			line=${line%% *}
			case $seen in *" $line "*) continue ;; esac
			seen="$seen$line "
			echo "$line" ;;
		esac
	done <<<"$out"
}

mapfile -t bootmods < <(boot_modules)
mkdir -p "$cache" || fatal "cannot create $cache"
# One cache file per kernel release and module tree, so that switching
# between the stock and the debug kernel does not rebuild every time.
if [ "$modroot" = / ]; then
	initrd=$cache/initramfs-$release.cpio
else
	initrd=$cache/initramfs-$release-$(sha256sum <<<"$modroot" | cut -c 1-8).cpio
fi
key=$( {
	echo "release $release"
	sha256sum "$vm_dir/init" "$vm_dir/modprobe"
	stat -L -c '%n %s %Y' $busybox ${bootmods[@]+"${bootmods[@]}"}
} | sha256sum | cut -d ' ' -f 1)

build_initramfs() {
	local stage m name
	stage=$(mktemp -d "$cache/initramfs.XXXXXX") || return 1
	mkdir -p "$stage"/{bin,sbin,dev,proc,sys,tmp,mnt/root,boot-modules}
	cp $busybox "$stage/bin/busybox"
	ln -s busybox "$stage/bin/sh"
	cp "$vm_dir/init" "$stage/init"
	cp "$vm_dir/modprobe" "$stage/sbin/modprobe"
	chmod 755 "$stage/init" "$stage/sbin/modprobe"
	# Without /dev/console the kernel starts init with no stdio; needs root.
	mknod "$stage/dev/console" c 5 1 2>/dev/null
	for m in ${bootmods[@]+"${bootmods[@]}"}; do
		name=$(basename "$m")
		case $m in
		*.ko.xz)  name=${name%.xz};  xz -dc "$m" >"$stage/boot-modules/$name" ;;
		*.ko.zst) name=${name%.zst}; zstd -qdc "$m" >"$stage/boot-modules/$name" ;;
		*.ko.gz)  name=${name%.gz};  gzip -dc "$m" >"$stage/boot-modules/$name" ;;
		*)        cp "$m" "$stage/boot-modules/$name" ;;
		esac || { rm -rf "$stage"; return 1; }
		echo "$name" >>"$stage/boot-modules/order"
	done
	# Uncompressed: unpacking gzip costs more than reading a few MB under TCG.
	(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$stage.cpio" &&
		mv -f "$stage.cpio" "$initrd" && echo "$key" >"$initrd.key"
	local rc=$?
	rm -rf "$stage" "$stage.cpio"
	return $rc
}

if [ ! -s "$initrd" ] || [ "$(cat "$initrd.key" 2>/dev/null)" != "$key" ]; then
	echo "vm.sh: building $initrd" >&2
	build_initramfs || fatal "cannot build the initramfs"
fi

# --- the boot image ---------------------------------------------------------

# Under TCG the bzImage's decompressor is slow: unpacking Debian's XZ kernel
# took 7-9 s of a 14-23 s run here.  A kernel with CONFIG_PVH can instead be
# booted as the ELF vmlinux inside it, through its PVH entry point (an ELF
# note of type 0x12, XEN_ELFNOTE_PHYS32_ENTRY).  Unpack the payload that the
# setup header points at once per kernel, keep it in build/vm/, and fall back
# to the bzImage when anything is amiss.
pvh_image() {
	local out key sects off len magic
	out=$cache/vmlinux-$release-$(sha256sum <<<"$kernel" | cut -c 1-8)
	key=$(stat -L -c '%s %Y' "$kernel")
	if [ -s "$out" ] && [ "$(cat "$out.key" 2>/dev/null)" = "$key" ]; then
		echo "$out"
		return 0
	fi
	command -v readelf >/dev/null || return 1
	# Boot protocol 2.08+: setup_sects (0x1f1), payload_offset (0x248) from the
	# protected-mode code after the setup sectors, payload_length (0x24c).
	sects=$(od -An -tu1 -j $((0x1f1)) -N 1 "$kernel" | tr -d ' ')
	off=$(od -An -tu4 -j $((0x248)) -N 4 "$kernel" | tr -d ' ')
	len=$(od -An -tu4 -j $((0x24c)) -N 4 "$kernel" | tr -d ' ')
	[ -n "$sects" ] && [ -n "$off" ] && [ -n "$len" ] && [ "$len" -gt 0 ] || return 1
	[ "$sects" = 0 ] && sects=4
	off=$(((sects + 1) * 512 + off))
	magic=$(tail -c +$((off + 1)) "$kernel" | head -c 6 | od -An -tx1 | tr -d ' \n')
	tail -c +$((off + 1)) "$kernel" | head -c "$len" | case $magic in
		fd377a585a00) xz -dc ;;
		28b52ffd*)    zstd -dcq ;;
		1f8b*)        gzip -dc ;;
		*)            false ;;
	esac >"$out.tmp.$$" 2>/dev/null
	# Some formats carry trailing size bytes and make the tools complain;
	# what counts is an ELF with the PVH entry note.
	if [ "$(head -c 4 "$out.tmp.$$" | od -An -c | tr -d ' ')" = '177ELF' ] &&
	   readelf -n "$out.tmp.$$" 2>/dev/null | grep -qE '\(0x00000012\)|PHYS32_ENTRY' &&
	   mv -f "$out.tmp.$$" "$out" && echo "$key" >"$out.key"; then
		echo "$out"
		return 0
	fi
	rm -f "$out.tmp.$$"
	return 1
}

boot_image=$kernel
if [ -z "${L2TPSEL_VM_BZIMAGE:-}" ]; then
	boot_image=$(pvh_image) || boot_image=$kernel
fi

# --- the run ---------------------------------------------------------------

# Failed runs keep their directory for a look; a day later it goes.
find "$cache" -maxdepth 1 -name 'run.*' -type d -mmin +1440 -exec rm -rf {} + 2>/dev/null
run=$(mktemp -d "$cache/run.XXXXXX") || fatal "cannot create a run directory in $cache"
keep_run=0
cleanup() {
	[ "$keep_run" = 1 ] || [ -n "${L2TPSEL_VM_KEEP:-}" ] || rm -rf "$run"
}
trap cleanup EXIT

{
	printf 'cd %q || exit 1\n' "$top"
	printf 'export L2TPSEL_VM=1\n'
	for e in ${envs[@]+"${envs[@]}"}; do
		printf 'export %q\n' "$e"
	done
	if [ "$shell" = 0 ]; then
		printf 'exec'
		printf ' %q' "${cmd[@]}"
		printf '\n'
	else
		printf 'export TERM=%q\n' "${TERM:-linux}"
	fi
} >"$run/cmd"
: >"$run/console.log"
: >"$run/result"

pow=${L2TPSEL_VM_PANIC_ON_WARN:-1}
append="console=ttyS1 loglevel=7 printk.time=1 panic=-1 oops=panic panic_on_warn=$pow"
append+=" mitigations=off tsc=reliable no_timer_check"
# TCG's TSC runs at the host's rate: tell the guest that rate rather than
# let it calibrate, which a loaded host disturbs (a guest clock running
# many times fast; watch_boot below catches what still goes wrong)
host_khz=$(awk -F: '/^cpu MHz/ { printf "%d", $2 * 1000; exit }' /proc/cpuinfo 2>/dev/null)
[ -n "$host_khz" ] && [ "$host_khz" -gt 0 ] && append+=" tsc_early_khz=$host_khz"
append+=" l2tpselvm_top=$top l2tpselvm_run=$run"
append+=" l2tpselvm_mode=$([ "$shell" = 1 ] && echo shell || echo cmd)"
[ "$kmemleak" = 1 ] && append+=" kmemleak=on l2tpselvm_kmemleak=1"
[ -n "$modules" ] && append+=" l2tpselvm_modules=1"
if [ "$shell" = 1 ] && [ -t 0 ] && size=$(stty size 2>/dev/null); then
	append+=" l2tpselvm_rows=${size% *} l2tpselvm_cols=${size#* }"
fi

qemu=(qemu-system-x86_64 -name l2tpsel-vm
	-accel tcg,thread=multi -cpu max -smp 2 -m "$mem"
	-kernel "$boot_image" -initrd "$initrd" -append "$append"
	-display none -no-reboot -nodefaults -monitor none -nic none
	-virtfs "local,path=/,mount_tag=rootfs,security_model=none,readonly=on,multidevs=remap"
	-virtfs "local,path=$top,mount_tag=work,security_model=none,multidevs=remap")
[ -n "$modules" ] &&
	qemu+=(-virtfs "local,path=$modules/lib/modules,mount_tag=modules,security_model=none,readonly=on,multidevs=remap")
if [ "$shell" = 1 ]; then
	# Ctrl-C goes to the guest; Ctrl-A x leaves qemu.
	qemu+=(-chardev stdio,id=con,mux=on,signal=off -serial chardev:con)
else
	qemu+=(-serial stdio)
fi
qemu+=(-serial "file:$run/console.log" -serial "file:$run/result")

# Host CPU MHz: what a sane guest TSC calibration comes near (TCG's TSC runs
# at the host's rate); L2TPSEL_VM_HOST_MHZ overrides it (to try the retry).
host_mhz=${L2TPSEL_VM_HOST_MHZ:-$(awk -F: '/^cpu MHz/ { printf "%d", $2; exit }' /proc/cpuinfo 2>/dev/null)}

# watch_boot PID: watch the guest (qemu under timeout, PID) until init says
# L2TPSEL-VM-BOOTED or PID ends.  A boot that cannot give a result is killed
# and why is printed: a TSC calibrated far from the host's rate (seen: 85 MHz
# for 2096 under load; the guest clock then runs ~25 times fast, RCU reports
# stalls and every test hits its limit in guest seconds), a console stuck at
# "Running RCU-tasks wait API self tests" for $stall_rcu s (it is followed
# within a fraction of a second normally; one such boot hung 10 minutes) or
# silent for $stall_any s before the command started.
stall_rcu=${L2TPSEL_VM_STALL_RCU:-90} stall_any=${L2TPSEL_VM_STALL_BOOT:-300}
watch_boot() {
	local pid=$1 size=-1 n quiet=0 why= last
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		grep -q '^L2TPSEL-VM-BOOTED' "$run/result" 2>/dev/null && return 0
		n=$(stat -c %s "$run/console.log" 2>/dev/null) || n=0
		if [ "$n" != "$size" ]; then
			size=$n quiet=0
			why=$(tr -d '\r' <"$run/console.log" | awk -v host="${host_mhz:-0}" '
				match($0, /tsc: (Detected|Refined TSC clocksource calibration:) [0-9.]+ MHz/) {
					n = split(substr($0, RSTART, RLENGTH), w, " ")
					mhz = w[n - 1] + 0
					if (host > 0 ? (mhz * 2 < host || mhz > host * 2) : (mhz < 500 || mhz > 10000)) {
						printf "the guest calibrated its TSC at %s MHz (host: %s MHz; \"%s\")", w[n - 1], (host > 0 ? host : "unknown"), substr($0, RSTART, RLENGTH)
						exit
					}
				}')
		else
			quiet=$((quiet + 1))
			last=$(tr -d '\r' <"$run/console.log" | grep -v '^[[:space:]]*$' | tail -n 1)
			if [ $quiet -ge "$stall_rcu" ] && [[ $last == *"Running RCU-tasks wait API self tests"* ]]; then
				why="the boot hung at \"Running RCU-tasks wait API self tests\" (no console output for ${quiet}s)"
			elif [ $quiet -ge "$stall_any" ]; then
				why="the boot stalled before the command started (no console output for ${quiet}s; last: \"${last:0:100}\")"
			fi
		fi
		if [ -n "$why" ]; then
			echo "$why"
			kill "$pid" 2>/dev/null
			return 0
		fi
	done
}

start=$(date +%s.%N)
boot=0 qpid= boot_trouble=
trap '[ -n "$qpid" ] && kill "$qpid" 2>/dev/null; exit 130' INT TERM
while :; do
	: >"$run/console.log"
	: >"$run/result"
	boot_trouble=
	if [ "$shell" = 1 ]; then
		if [ -n "$timeout" ]; then
			timeout --foreground -k 5 "$timeout" "${qemu[@]}"
		else
			"${qemu[@]}"
		fi
		qemu_rc=$?
	else
		# In the background, watched while it boots (watch_boot).
		timeout --foreground -k 5 "$timeout" "${qemu[@]}" </dev/null &
		qpid=$!
		boot_trouble=$(watch_boot "$qpid")
		wait "$qpid"
		qemu_rc=$?
		qpid=
	fi
	# A guest that died on its own before CMD started never ran anything of
	# ours (the module is loaded by CMD): the debug kernel under TCG
	# sometimes panics in early boot (see Documentation/debug-kernel.md).
	# Boot again when asked to, and say so.  A boot watch_boot gave up on is
	# retried too; any other hang (the timeout) is not.
	if [ "$boot" -ge "$boot_retries" ] ||
	   { [ -z "$boot_trouble" ] && { [ "$qemu_rc" = 124 ] || [ "$qemu_rc" = 137 ] ||
	     grep -q '^L2TPSEL-VM-BOOTED' "$run/result"; }; }; then
		break
	fi
	boot=$((boot + 1))
	cp "$run/console.log" "$run/console.boot$boot.log"
	keep_run=1
	if [ -n "$boot_trouble" ]; then
		echo "# vm: boot $boot abandoned before the command started: $boot_trouble; booting again ($run/console.boot$boot.log)"
	else
		echo "# vm: boot $boot died before the command started (qemu exit $qemu_rc); booting again ($run/console.boot$boot.log):"
		tr -d '\r' <"$run/console.log" | grep -E 'Kernel panic|BUG:|KASAN|RIP:' | head -n 8 | sed 's/^/#   /'
	fi
done
trap - INT TERM
wall=$(echo "$(date +%s.%N) - $start" | bc)

# --- the verdict -----------------------------------------------------------

result=$(tr -d '\r' <"$run/result")
klog=$(tr -d '\r' <"$run/console.log")
reasons=()

rc=$(sed -n 's/^L2TPSEL-VM-RESULT rc=\([0-9]\{1,\}\)$/\1/p' <<<"$result" | tail -n 1)
booted=$(sed -n 's/^L2TPSEL-VM-BOOTED \([0-9.]\{1,\}\).*/\1/p' <<<"$result" | tail -n 1)
if [ -z "$rc" ] || ! grep -qx L2TPSEL-VM-END <<<"$result"; then
	if [ "$qemu_rc" = 124 ] || [ "$qemu_rc" = 137 ]; then
		reasons+=("the guest did not finish within ${timeout}s (hung?); it was killed")
	else
		reasons+=("the guest stopped before reporting a result (qemu exit status $qemu_rc)")
	fi
	while read -r l; do
		reasons+=("  $l")
	done < <(grep -E 'Kernel panic|^vm-init:' <<<"$klog")
fi
[ -n "$boot_trouble" ] && reasons+=("boot $((boot + 1)) was killed: $boot_trouble (--boot-retries $boot_retries)")

# Kernel lines only (they carry a timestamp): what userspace writes to the
# console must not be mistaken for a kernel report.
bad='WARNING:|BUG:|kernel BUG at|Oops|general protection fault|UBSAN:|Kernel panic'
bad+='|possible recursive locking|inconsistent lock state|suspicious RCU usage|circular locking'
bad+='|irq lock inversion|lock held when returning|held lock freed|bad unlock balance'
bad+='|hung_task|blocked for more than|soft lockup|hard LOCKUP|detected stall'
bad+='|kmemleak: [0-9]+ new suspected memory leak'
# SLUB debug ("BUG kmalloc-64 (Tainted: G): Redzone overwritten"), an
# allocation failure that was not expected, a device reference leaked.
bad+='|BUG [^ ]+ \([^)]*\): |page allocation failure|unregister_netdevice: waiting for'
hits=$(grep -E '^\[ *[0-9]+\.[0-9]+\]' <<<"$klog" | grep -E "$bad")
if [ -n "$hits" ]; then
	reasons+=("the guest kernel log has $(wc -l <<<"$hits") line(s) that report a problem:")
	while read -r l; do
		reasons+=("  $l")
	done < <(head -n 20 <<<"$hits")
fi

taint=$(sed -n 's/^L2TPSEL-VM-TAINT \([0-9]\{1,\}\)$/\1/p' <<<"$result" | tail -n 1)
# Loading our unsigned out-of-tree module sets O (4096) and E (8192), and
# running a KUnit suite sets N (262144, TAINT_TEST); nothing else may.  N only
# when a suite ran ("# Subtest:" in the log: kunit.sh's l2tpsel_kunit.ko):
# l2tpsel.ko carries no suite, so N in a run without kunit.sh means it or
# another module runs KUnit code it should not.
taint_ok=$((4096 | 8192)) taint_ok_letters="O and E"
if grep -qE '^\[ *[0-9]+\.[0-9]+\] +# Subtest: ' <<<"$klog"; then
	taint_ok=$((taint_ok | 262144)) taint_ok_letters="O, E and N (a KUnit suite ran)"
fi
if [ -n "$taint" ] && [ $((taint & ~taint_ok)) -ne 0 ]; then
	flags=PFSRMBUDAWCIOELKXTN letters=
	for ((b = 0; b < ${#flags}; b++)); do
		((taint >> b & 1)) && letters+=${flags:b:1}
	done
	reasons+=("the guest kernel is tainted $taint ($letters); only $taint_ok_letters are expected")
fi

if [ "$kmemleak" = 1 ] && [ -n "$rc" ]; then
	if grep -qx L2TPSEL-VM-KMEMLEAK-UNAVAILABLE <<<"$result"; then
		reasons+=("--kmemleak: this kernel has no /sys/kernel/debug/kmemleak (CONFIG_DEBUG_KMEMLEAK, kmemleak=on)")
	else
		leaks=$(sed -n '/^L2TPSEL-VM-KMEMLEAK-BEGIN$/,/^L2TPSEL-VM-KMEMLEAK-END$/p' <<<"$result" | sed '1d;$d')
		if [ -n "$leaks" ]; then
			reasons+=("kmemleak reports $(grep -c '^unreferenced object' <<<"$leaks") unreferenced object(s):")
			while IFS= read -r l; do
				reasons+=("  $l")
			done <<<"$leaks"
		fi
	fi
fi

msg="vm: kernel $release, ${wall%.*}s wall"
[ -n "$booted" ] && msg+=", command started ${booted}s after boot"
scan_from=$(sed -n 's/^L2TPSEL-VM-BOOTED .* kmemleak-scan-from \([0-9.]\{1,\}\).*/\1/p' <<<"$result" | tail -n 1)
[ -n "$scan_from" ] && msg+=" (kmemleak's boot scan from ${scan_from}s)"
echo "# $msg"
if [ ${#reasons[@]} -eq 0 ]; then
	echo "ok 1 vm_kernel_log_clean"
else
	keep_run=1
	echo "# guest kernel log ($run/console.log):"
	sed 's/^/#   /' <<<"$klog"
	for r in "${reasons[@]}"; do
		echo "# $r"
	done
	echo "not ok 1 vm_kernel_log_clean"
fi

if [ -z "$rc" ]; then
	exit 1
elif [ "$rc" != 0 ]; then
	exit "$rc"
elif [ ${#reasons[@]} -ne 0 ]; then
	exit 1
fi
exit 0
