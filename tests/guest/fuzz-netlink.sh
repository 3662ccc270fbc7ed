#!/bin/bash
# The P4TC netlink fuzzer's seeded share of make check: a fixed seed and
# number of batches, the same messages on every run (make soak runs it
# for longer, from other seeds).  A finding prints the command that
# replays its batch; a splat it causes fails the run through the guest
# log check, a leak through the leak scan at the end of the boot.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

out=$(/usr/bin/python3 "$top/tests/fuzz/netlink/p4tc_fuzz.py" \
	--seed "${FUZZ_NETLINK_SEED:-1}" --batches "${FUZZ_NETLINK_BATCHES:-6}" \
	--messages 200 2>&1)
rc=$?
echo "$out"
[ "$rc" -eq 0 ] || fail "the netlink fuzzer found something (above)"
# every refusal says why: the seeded share has none without a message
if grep -q "refused without a message" <<<"$out"; then
	fail "refusals without an extended ack message (above)"
fi
finish
