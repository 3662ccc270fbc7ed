#!/usr/bin/env bash
# make demo: boot the test guest, load the IPv4 router P4 program, add
# routes and route real packets between two hosts (scripts/demo-guest.sh).
# Later issues add the NIC: entries in hardware and software.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/tests/vm/run" --no-leak-check -- "$top/scripts/demo-guest.sh"
