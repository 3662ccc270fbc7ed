#!/usr/bin/env bash
# make demo: boot the test guest, load the IPv4 router P4 program, add
# routes and route real packets between two hosts in software, then in the
# P4 NIC (scripts/demo-guest.sh).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/tests/vm/run" --no-leak-check --ports 2 -- "$top/scripts/demo-guest.sh"
