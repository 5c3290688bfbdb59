#!/bin/bash
# Install everything l2tpsel needs on a fresh Debian 12 machine, from Debian's packages only.
# Idempotent: when every package is already present it returns in about a second without touching apt.
set -eu

PKGS="build-essential pkg-config bc kmod cpio xz-utils
linux-image-amd64 linux-headers-amd64
qemu-system-x86 busybox-static
iproute2 iputils-ping xl2tpd ppp pppoe freeradius freeradius-utils l2tpns
libmnl-dev nettle-dev libmicrohttpd-dev ppp-dev prometheus curl strace dkms openssl sparse
debhelper dh-dkms lintian fakeroot
clang llvm libclang-rt-14-dev
linux-source-6.1 flex bison libelf-dev libssl-dev rsync python3
gnuplot-nox jq"

missing=
for p in $PKGS; do
	dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null | grep -qx installed || missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "deps: all packages present"
	exit 0
fi
echo "deps: installing:$missing"
[ "$(id -u)" = 0 ] || { echo "deps: must run as root to install packages" >&2; exit 1; }
export DEBIAN_FRONTEND=noninteractive
# INITRD=No: the guest boots with our own tiny initramfs; update-initramfs is 14 s of nothing.
export INITRD=No
# The peers' daemons (xl2tpd, l2tpns, freeradius) are run by the tests in
# their namespaces, never as services of this machine: policy-rc.d keeps
# their packages from starting them (a postinst whose start fails, as
# l2tpns's does without an eth0, would fail the install).
policy=
if [ ! -e /usr/sbin/policy-rc.d ]; then
	printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
	chmod 755 /usr/sbin/policy-rc.d
	policy=1
fi
rc=0
apt-get update -q && apt-get install -y -q --no-install-recommends $missing || rc=$?
[ -z "$policy" ] || rm -f /usr/sbin/policy-rc.d
exit $rc
