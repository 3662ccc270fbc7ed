#!/bin/bash
# Software/hardware equivalence (docs/equivalence.md), in the check's
# guest (booted with --ports 2): every example program's corpus in every
# placement (one mixed seed), the runner's self-test, the saved
# regressions and 60 iterations of differential fuzzing from seed 1
# (tests/equivalence/suite): make check's fixed, seeded share.  The long
# runs are make equivalence (200 iterations, any seed) and make soak
# (2,000 from the day's seed).  60 since 2026-12-06: with 100 (461 s
# here) each of the check's two guest stages took 1,230-1,250 s of their
# 1,200 s share.
# The report, regression files and pcaps of differences go to the run
# directory.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
export PATH=$top/build/iproute2/bin:$PATH
expect_ok "every placement gives what software gives" \
	"$top/tests/equivalence/suite" --seed 1 --iter 60 --mixed 1
finish
