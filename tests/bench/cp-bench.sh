#!/bin/bash
# Control-plane benchmark (make cp-bench), in the test guest: BENCH_N
# (default 100000) exact and LPM P4TC entries inserted and deleted
# through one netlink socket, 16 per message, and through tc -b, next to
# the same number of equivalent flower filters (skip_hw, one per message
# both ways); entries per second, the P4/flower ratio and kernel memory
# per entry (slab and per-CPU deltas).  Then the tables datapath test
# with BENCH_LPM_N (default BENCH_N) more LPM prefixes in the table.
# Last, an exact and an LPM table of BENCH_BIG entries (default 1000000,
# 0 to skip; about 12 minutes each here): all accepted, one more refused
# as the table is full, the flush timed.
#
# The numbers are the debug guest's (TCG, KASAN, lockdep, kmemleak): they
# compare P4TC with flower in one run, they are no absolute speed.  tc -b
# runs BENCH_TCB_N commands (default BENCH_N) of each kind.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
if [ "${P4TC_GUEST:-0}" != 1 ]; then
	# shellcheck disable=SC2086
	exec "$top/tests/vm/run" --timeout "${BENCH_TIMEOUT:-14400}" \
		--mem "${BENCH_MEM:-8G}" --no-leak-check ${VM_OPTS:-} -- "$0" "$@"
fi
set -eu
N=${BENCH_N:-100000}
TN=${BENCH_TCB_N:-$N}
LN=${BENCH_LPM_N:-$N}
BIG=${BENCH_BIG:-1000000}
B=$top/build/bench/p4rt_bench
export INTROSPECTION=$top/tests/introspection
out=$(mktemp)
batch=$(mktemp)
trap 'rm -f "$out" "$batch"' EXIT

tc -b - <<EOF
p4template create pipeline/pbench pipeid 5 numtables 2 preactions action gact ok postactions action gact ok
p4template create action/pbench/setmark param m type bit32 cmd set metadata.kernel.skbmark param.m state active
p4template create table/pbench/cb/exact tblid 1 type exact keysz 32 tentries 1000000
p4template create table/pbench/cb/lpm tblid 2 keysz 32 type lpm nummasks 32 tentries 1000000
p4template update pipeline/pbench state ready
EOF
ip link add bench0 type dummy
ip link set bench0 up
tc qdisc add dev bench0 clsact

echo "== one netlink socket: P4TC 16 entries per message, flower 1 per message"
for kind in exact lpm; do
	"$B" p4 pbench "cb/$kind" "$kind" "$N" 16 pbench/setmark | tee -a "$out"
	"$B" flower bench0 "$kind" "$N" | tee -a "$out"
done

# tc_b NAME FILE: time tc -b FILE, print a line like p4rt_bench's
tc_b() {
	local t0 t1
	t0=$(date +%s.%N)
	tc -b "$2"
	t1=$(date +%s.%N)
	awk -v w="$1" -v n="$TN" -v s="$(echo "$t1 - $t0" | bc)" \
		'BEGIN { printf "%-34s %8u entries %8.2f s %10.0f entries/s\n", w, n, s, n / s }' |
		tee -a "$out"
}

echo "== tc -b: one command per entry"
for kind in exact lpm; do
	for i in $(seq 0 $((TN - 1))); do
		if [ $kind = exact ]; then
			a=$((i / 65536)) b=$((i / 256 % 256)) c=$((i % 256)) len=32
		else
			len=$((20 + i % 13)) v=$(((i / 13 + 1) << (32 - len) & 0x3fffffff | 0x40000000))
			a=$((v >> 16 & 255)) b=$((v >> 8 & 255)) c=$((v & 255))
			v=$((v >> 24))
		fi
		[ $kind = exact ] && echo "p4 create pbench/table/cb/exact dstAddr 10.$a.$b.$c action pbench/setmark param m $i" ||
			echo "p4 create pbench/table/cb/lpm dstAddr $v.$a.$b.$c/$len action pbench/setmark param m $i"
	done >"$batch"
	tc_b "p4 $kind insert (tc -b)" "$batch"
	sed 's/^p4 create \([^ ]*\) \([^ ]*\) \([^ ]*\) .*/p4 del \1 \2 \3/' "$batch" >"$batch.del"
	tc_b "p4 $kind delete (tc -b)" "$batch.del"
	awk '{ n++; split($5, x, "/"); ip = x[1]; len = x[2] == "" ? 32 : x[2];
	       printf "filter add dev bench0 ingress prio 1 handle %d protocol ip flower skip_hw dst_ip %s/%s action gact ok\n", n, ip, len }' \
		"$batch" >"$batch.fl"
	tc_b "flower $kind insert (tc -b)" "$batch.fl"
	awk '{ n++; printf "filter del dev bench0 ingress prio 1 handle %d protocol ip flower\n", n }' \
		"$batch" >"$batch.fl"
	tc_b "flower $kind delete (tc -b)" "$batch.fl"
	rm -f "$batch.del" "$batch.fl"
done

echo "== P4TC insertion rate / flower insertion rate (target: 5 or more)"
awk '/entries\/s/ {
	via = ($4 ~ /msg/) ? "socket" : "tc-b"
	rate[$1 SUBSEP $2 SUBSEP $3 SUBSEP via] = $(NF - 1)
}
END {
	for (k in rate) {
		split(k, p, SUBSEP)
		f = "flower" SUBSEP p[2] SUBSEP p[3] SUBSEP p[4]
		if (p[1] == "p4" && (f in rate))
			printf "%-6s %-7s %-7s %6.1fx\n", p[2], p[3], p[4],
			       rate[k] / rate[f]
	}
}' "$out" | sort

tc qdisc del dev bench0 clsact
ip link del bench0
tc p4template del pipeline/pbench

echo "== tables datapath test with $LN more LPM prefixes"
P4TC_LPM_EXTRA=$LN P4RT_BENCH=$B bash "$top/tests/guest/p4tc-tables-datapath.sh" &&
	echo "ok: a table of $LN more LPM prefixes classifies packets correctly"

[ "$BIG" -gt 0 ] || exit 0
echo "== tables of $BIG entries"
tc -b - <<EOF
p4template create pipeline/pbig pipeid 6 numtables 2 preactions action gact ok postactions action gact ok
p4template create action/pbig/setmark param m type bit32 cmd set metadata.kernel.skbmark param.m state active
p4template create table/pbig/cb/exact tblid 1 type exact keysz 32 tentries $BIG
p4template create table/pbig/cb/lpm tblid 2 keysz 32 type lpm nummasks 32 tentries $BIG
p4template update pipeline/pbig state ready
EOF
for kind in exact lpm; do
	"$B" p4 pbig "cb/$kind" "$kind" "$BIG" 16 pbig/setmark keep
	n=$(tc -j p4template get "table/pbig/cb/$kind" |
	    python3 -c 'import json,sys; print(json.load(sys.stdin)[1]["templates"][0]["entries"])')
	[ "$n" = "$BIG" ] || { echo "FAIL: $kind table holds $n entries, not $BIG"; exit 1; }
	if msg=$(tc p4 create "pbig/table/cb/$kind" dstAddr 1.2.3.4 action pbig/setmark param m 1 2>&1); then
		echo "FAIL: a full $kind table took one more entry"; exit 1
	fi
	echo "ok: $BIG $kind entries; one more: $msg"
	t0=$(date +%s.%N)
	tc p4 del "pbig/table/cb/$kind"
	t1=$(date +%s.%N)
	echo "$kind flush of $BIG entries: $(echo "$t1 - $t0" | bc) s"
done
tc p4template del pipeline/pbig
