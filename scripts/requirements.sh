#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# For each requirement ID of Documentation/requirements.md, the files of the
# tree (git ls-files) that cite it; "-" when none does.
#
#   scripts/requirements.sh [ID...]
set -u
cd "$(dirname "$0")/.."
ids=${*:-$(grep -o '^| S-[A-Z0-9]*-[0-9]*' Documentation/requirements.md | cut -c3-)}
for id in $ids; do
	files=$(git grep -l -w -e "$id" -- . ':!Documentation/requirements.md' 2>/dev/null | tr '\n' ' ')
	printf '%-9s %s\n' "$id" "${files:--}"
done
