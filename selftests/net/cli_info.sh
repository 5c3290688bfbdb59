#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "l2tpsel info" in text and JSON matches the module it talks to, and the CLI
# says plainly that the module is not loaded (and fails) once it is gone.
source "$(dirname "$0")/../lib.sh"

require_root
require_cmd python3 modinfo
require_module_file

version=$(modinfo -F version "$L2TPSEL_KO")
mod_load || fail "insmod $L2TPSEL_KO failed"

out=$("$L2TPSEL_CLI" info)
check_err $? "l2tpsel info failed"
echo "text: $out"
[[ $out =~ ^version\ ([^ ]+)\ api\ ([0-9]+)\ netns-cookie\ ([0-9]+)$ ]]
check_err $? "text output is not \"version V api N netns-cookie C\""
[ "${BASH_REMATCH[1]:-}" = "$version" ]
check_err $? "text says version \"${BASH_REMATCH[1]:-}\", the module file says \"$version\""
log_test "info: text output"

json=$("$L2TPSEL_CLI" -j info)
check_err $? "l2tpsel -j info failed"
echo "json: $json"
python3 - "$version" "$json" <<'PY'
import json, sys
want, text = sys.argv[1], sys.argv[2]
info = json.loads(text)
assert set(info) == {"version", "api", "netns_cookie"}, f"keys {sorted(info)}"
assert info["version"] == want, f"version {info['version']!r}, module file says {want!r}"
assert isinstance(info["api"], int) and info["api"] >= 1, f"api {info['api']!r}"
assert isinstance(info["netns_cookie"], int) and info["netns_cookie"] > 0, \
    f"netns_cookie {info['netns_cookie']!r}"
PY
check_err $? "JSON output is not the expected object"
log_test "info: JSON output"

pretty=$("$L2TPSEL_CLI" -j -p info | python3 -c 'import json, sys; json.load(sys.stdin)')
check_err $? "l2tpsel -j -p info is not valid JSON"
log_test "info: pretty JSON output"

mod_unload
check_err $? "rmmod failed"
err=$("$L2TPSEL_CLI" info 2>&1)
rc=$?
echo "after rmmod: exit $rc: $err"
[ "$rc" -ne 0 ]
check_err $? "l2tpsel info succeeded without the module"
[[ $err == *"not loaded"* ]]
check_err $? "the message does not say \"not loaded\""
log_test "info: says plainly that the module is not loaded"

exit $EXIT_STATUS
