#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only the README's demo: real peers (the stock stage runs it)
#
# The README's first command, `make demo`, as a test: scripts/demo.sh's
# second half, every step, on Debian's kernel.  The agent's log lines are
# reworded on their way to the log (every login word a reader might match
# on), so the demo passes only if it judges what happened from the agent's
# API and the CLI's JSON, as it must.
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
export PEERS_AGENT_LOG_SED='s/attempt/try/g; s/outcome/verdict/g; s/done/finished/g; s/level/tier/g; s/remote/peer-address/g; s/no-reply/silence/g'
exec "$top/scripts/demo.sh" --in-vm
