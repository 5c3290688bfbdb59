# SPDX-License-Identifier: GPL-2.0
# For the shell tests of selftests/unit/ (sourced): KTAP result lines.
#
#   ok DESCRIPTION RC    "ok N DESCRIPTION" when RC is 0, else "not ok N ..."
#                        and one more in $fail; $n counts them all.
n=0
fail=0

ok() {
	n=$((n + 1))
	if [ "$2" -eq 0 ]; then
		echo "ok $n $1"
	else
		echo "not ok $n $1"
		fail=$((fail + 1))
	fi
}
