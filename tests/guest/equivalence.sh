#!/bin/bash
# Software/hardware equivalence (docs/equivalence.md), in the check's
# guest (booted with --ports 2): every example program's corpus in every
# placement (one mixed seed), the runner's self-test, the saved regressions and 100
# iterations of differential fuzzing from seed 1 (tests/equivalence/suite;
# make equivalence runs 200).  100 since 2026-12-05: the check's guest
# stages had grown to 3,600 s each, too close to CI's 90 minutes.
# The report, regression files and pcaps of differences go to the run
# directory.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
export PATH=$top/build/iproute2/bin:$PATH
expect_ok "every placement gives what software gives" \
	"$top/tests/equivalence/suite" --seed 1 --iter 100 --mixed 1
finish
