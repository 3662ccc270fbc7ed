#!/bin/bash
# Software/hardware equivalence (docs/equivalence.md), in the check's
# guest (booted with --ports 2): every example program's corpus in every
# placement of its entries (sw, hw, both, two mixed placements) must give
# what all software gives, frame by frame, with the same hits and
# register cells.  The report goes to the run directory.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
export PATH=$top/build/iproute2/bin:$PATH
for prog in router acl mirror l2switch counter; do
	expect_ok "$prog: every placement gives what software gives" \
		/usr/bin/python3 "$top/tests/equivalence/equiv.py" \
		--program "$prog" --report "$P4TC_OUT/equivalence.md"
done
finish
