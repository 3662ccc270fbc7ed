#!/bin/bash
# What p4tc-compile writes loads: every golden script of tests/compiler/
# (the example programs and the upstream-style samples, which the host
# test compares with the compiler's output) goes into the kernel with
# tc -b, comes out sealed, and is deleted again.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
export PATH=$top/build/iproute2/bin:$PATH
# const entries name their key fields: tc reads them from the JSON
export INTROSPECTION=$top/tests/compiler/golden
for tc in "$top"/tests/compiler/golden/*.tc; do
	name=$(basename "$tc" .tc)
	if ! expect_ok "$name: loads" tc -b "$tc"; then
		continue
	fi
	out=$(tc p4template get "pipeline/$name" 2>&1)
	grep -q "state ready" <<<"$out" || fail "$name: not sealed after loading: $out"
	expect_ok "$name: deleted" tc p4template del "pipeline/$name"
done
finish
