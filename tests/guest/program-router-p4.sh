#!/bin/bash
# The IPv4 router's whole test (program-router.sh) with the router that
# p4tc-compile makes of tests/programs/router/router.p4 (make compiled:
# build/compiler/router/router.tc and router.json) instead of the
# hand-written router.tc: routing, TTL and checksum, the drops, the LPM,
# the counters, the parser rejects, IPv4 options, the paged frame,
# filters replaced under pings.  Every check must come out as with the
# hand-written script.
top=$(cd "$(dirname "$0")/../.." && pwd)
ROUTER_PROG=$top/build/compiler/router exec "$(dirname "$0")/program-router.sh"
