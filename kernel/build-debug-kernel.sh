#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (or reuse) the l2tpsel debug kernel: Debian's linux-source-6.1 with
# x86_64_defconfig + kvm_guest.config + kernel/debug.config (KUnit, KASAN,
# lockdep, kmemleak; L2TP/PPP/veth as modules; virtio and 9p built in).
#
#   kernel/build-debug-kernel.sh              build unless cached; print the dir
#   kernel/build-debug-kernel.sh --print-dir  only print the dir it would use
#   kernel/build-debug-kernel.sh --force      rebuild even when cached
#
# The result lives in $L2TPSEL_CACHE/debug-kernel/<key>/ (default cache
# /var/cache/l2tpsel), outside the work tree so that every clone on the
# machine shares it.  <key> hashes every input: the fragment, this script, the
# linux-source package version and the compiler and linker versions.  The
# directory holds:
#   bzImage                            the kernel
#   build/                             the configured and built tree (make M=)
#   modroot/lib/modules/<release>/     its modules, for vm.sh --modules
#   release, inputs, build.log, build-seconds
# A build runs in a temporary directory next to it and is renamed into place
# only when complete, so an interrupted build is never mistaken for a cached
# one.  A lock serialises two builds of the same key.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
fragment=$here/debug.config
self=$here/$(basename "$0")
src_pkg=linux-source-6.1
src_tar=/usr/src/linux-source-6.1.tar.xz
keep=3	# cached kernels kept per machine (newest used first)

mode=build
case "${1:-}" in
--print-dir) mode=print ;;
--force) mode=force ;;
"") ;;
*) echo "usage: $0 [--print-dir|--force]" >&2; exit 2 ;;
esac

die() { echo "debug-kernel: $*" >&2; exit 1; }
log() { echo "debug-kernel: $*" >&2; }

# Cache root: /var/cache/l2tpsel when writable (CI runs as root), else the
# user's cache directory.  L2TPSEL_CACHE overrides both.
cache_root() {
	if [ -n "${L2TPSEL_CACHE:-}" ]; then
		echo "$L2TPSEL_CACHE"
	elif mkdir -p /var/cache/l2tpsel 2>/dev/null && [ -w /var/cache/l2tpsel ]; then
		echo /var/cache/l2tpsel
	else
		echo "${XDG_CACHE_HOME:-$HOME/.cache}/l2tpsel"
	fi
}

src_version=$(dpkg-query -W -f='${Version}' "$src_pkg" 2>/dev/null) ||
	die "$src_pkg is not installed (run: make deps)"
[ -r "$src_tar" ] || die "$src_tar missing (run: make deps)"

inputs=$(
	echo "fragment $(sha256sum <"$fragment" | cut -d' ' -f1)"
	echo "script $(sha256sum <"$self" | cut -d' ' -f1)"
	echo "source $src_pkg $src_version"
	echo "gcc $(gcc --version | head -n 1)"
	echo "ld $(ld --version | head -n 1)"
	echo "arch $(uname -m)"
)
key=$(printf '%s\n' "$inputs" | sha256sum | cut -c1-16)
top=$(cache_root)/debug-kernel
dir=$top/$key

if [ "$mode" = print ]; then
	echo "$dir"
	exit 0
fi

mkdir -p "$top" || die "cannot create $top (set L2TPSEL_CACHE)"
exec 9>"$top/$key.lock"
flock 9

if [ -f "$dir/bzImage" ] && [ "$mode" != force ]; then
	touch "$dir"	# most recently used: kept by the pruning below
	log "reusing $dir ($(cat "$dir/release"))"
	echo "$dir"
	exit 0
fi

# Temporary directories of builds that died (a crash, ^C, a CI timeout).
# Safe under the lock: a live build of this key would hold it.
rm -rf "$top/.tmp-$key-"*

tmp=$top/.tmp-$key-$$
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/build"
start=$(date +%s)
jobs=$(($(nproc) + 1))
blog=$tmp/build.log
log "building into $tmp (key $key, make -j$jobs, about 10 minutes on 2 cores)"
log "log: $blog"

tar -xJf "$src_tar" -C "$tmp/build" --strip-components=1
cd "$tmp/build"

{
	make x86_64_defconfig kvm_guest.config
	scripts/kconfig/merge_config.sh -m .config "$fragment"
	make olddefconfig
} >>"$blog" 2>&1 || { tail -n 40 "$blog" >&2; die "configuration failed"; }

# A fragment line that Kconfig dropped (unknown symbol, unmet dependency,
# a choice that went another way) would silently give a kernel without the
# checker it asked for: every line must appear in .config exactly as written.
bad=0
while IFS= read -r line; do
	case "$line" in
	"# CONFIG_"*" is not set")
		sym=${line#\# }
		sym=${sym%% *}
		got=$(grep "^$sym=" .config || true)
		[ -z "$got" ] && continue
		;;
	CONFIG_*=*)
		grep -qxF -- "$line" .config && continue
		sym=${line%%=*}
		got=$(grep -E "^$sym=|^# $sym is not set" .config || echo "(absent)")
		;;
	*) continue ;;
	esac
	echo "debug-kernel: fragment line not in .config: '$line' (got: $got)" >&2
	bad=1
done <"$fragment"
[ "$bad" = 0 ] || die "kernel/debug.config does not apply cleanly; fix the fragment"

if ! make -j"$jobs" bzImage modules >>"$blog" 2>&1; then
	grep -E "error|Error" "$blog" | tail -n 20 >&2 || true
	tail -n 20 "$blog" >&2
	cp "$blog" "$top/last-failed-build.log" 2>/dev/null || true
	die "build failed; full log in $top/last-failed-build.log"
fi
# Only now: before the build, kernelrelease does not yet see LOCALVERSION
# (include/config/auto.conf is written by the build's syncconfig).
release=$(make -s kernelrelease)
make INSTALL_MOD_PATH="$tmp/modroot" modules_install >>"$blog" 2>&1 ||
	{ tail -n 20 "$blog" >&2; die "modules_install failed"; }
if [ ! -d "$tmp/modroot/lib/modules/$release" ]; then
	cp "$blog" "$top/last-failed-build.log" 2>/dev/null || true
	die "no modules for $release in $tmp/modroot/lib/modules: $(ls "$tmp/modroot/lib/modules" 2>&1)"
fi
case $release in *-l2tpsel-debug) ;; *) die "release $release lacks the fragment's LOCALVERSION" ;; esac

# Keep what an out-of-tree module build needs; the objects are most of the
# size (the modules are in modroot already).
find . \( -path ./scripts -o -path ./tools \) -prune -o \
	\( -name '*.o' -o -name '*.ko' -o -name '*.a' \) -type f -print0 | xargs -0 rm -f
cp arch/x86/boot/bzImage "$tmp/bzImage"
echo "$release" >"$tmp/release"
printf '%s\n' "$inputs" >"$tmp/inputs"
echo $(($(date +%s) - start)) >"$tmp/build-seconds"
cd /

rm -rf "$dir"	# only after --force
mv -T "$tmp" "$dir"
trap - EXIT
log "built $release in $(cat "$dir/build-seconds") s: $dir"

# Prune: keep the $keep most recently used kernels.
ls -1dt "$top"/*/ 2>/dev/null | tail -n +$((keep + 1)) | while read -r old; do
	log "removing old cached kernel $old"
	rm -rf "$old"
	rm -f "${old%/}.lock"
done
echo "$dir"
