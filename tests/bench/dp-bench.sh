#!/bin/bash
# Datapath benchmark (make dp-bench), in the guest: the IPv4 router of
# tests/programs/router/ against an equivalent tc-flower setup, with 1,
# 1,000 and 100,000 routes (BENCH_DP_ROUTES).  Host sa blasts 64-byte UDP
# frames (build/bench/pktblast, BENCH_DP_SECONDS seconds) at router port
# b0, spread over every route; b0's ingress routes them out of b1 to host
# sc, where a matchall drops them; frames/s are what reached sc.
#   p4:     chain 1, tc filter ... p4 pname router; fib /24 routes -> next hop 1
#   flower: chain 2, one flower rule per route (skip_hw): pedit the MACs
#           and the TTL, csum ip, mirred egress redirect to b1
# Both are loaded at once; a matchall in chain 0 sends every frame to one
# of them (goto chain), the same cost for both.  The blasts alternate, p4
# then flower, BENCH_DP_ROUNDS times (3): this machine's speed drifts by
# tens of percent within minutes, and a p4 blast and the flower blast
# after it see about the same machine.  Printed: each round's frames/s
# and ratio, and the median ratio.
# The guest runs the bench kernel (BENCH_KERNEL=bench, make kernel-bench):
# the test kernel's KASAN and lockdep would dominate what is measured.
# BENCH_KERNEL=test runs it on the debug kernel.  On the bench kernel,
# 100,000 routes load in about 20 s (p4) and 80 s (flower); the whole
# default run takes about 4 minutes.
# Under TCG the figures compare the two classifiers; they are not the
# speed of either on hardware.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
if [ "${P4TC_GUEST:-0}" != 1 ]; then
	# shellcheck disable=SC2086
	exec "$top/tests/vm/run" --timeout "${BENCH_TIMEOUT:-7200}" \
		--kernel "${BENCH_KERNEL:-bench}" --mem "${BENCH_MEM:-4G}" \
		--no-leak-check ${VM_OPTS:-} -- "$0" "$@"
fi
set -u
ROUTES=${BENCH_DP_ROUTES:-1 1000 100000}
SECS=${BENCH_DP_SECONDS:-5}
ROUNDS=${BENCH_DP_ROUNDS:-3}
BLAST=$top/build/bench/pktblast
prog=$top/tests/programs/router
export INTROSPECTION=$prog
. "$prog/hosts.sh"
batch=$(mktemp)
trap 'rm -f "$batch" "$batch.sum"; teardown' EXIT

# route I as a prefix, as pktblast numbers them, in REPLY: the batches
# are written without a subshell per route (a fork costs milliseconds
# under TCG: with one per line, writing the batch took longer than
# loading it)
prefix() { REPLY="$((16 + $1 / 65536)).$(($1 / 256 % 256)).$(($1 % 256)).0/24"; }

sc_rx() { ip netns exec sc cat /sys/class/net/c0/statistics/rx_packets; }

# topology and the drop at sc, for either setup
topology() {
	router_hosts
	ip netns exec sc tc qdisc add dev c0 clsact
	ip netns exec sc tc filter add dev c0 ingress prio 1 matchall action drop
	tc qdisc add dev b0 clsact
}

# blast: frames/s that reached sc, and a check that they were routed
blast() {
	local before after out secs
	before=$(sc_rx)
	out=$(ip netns exec sa "$BLAST" a0 "$(mac b0)" "$1" "$SECS") || { echo "pktblast failed: $out" >&2; echo 0; return; }
	after=$(sc_rx)
	secs=$(sed -n 's/.* in \([0-9.]*\) s:.*/\1/p' <<<"$out")
	echo "  $2: $out; $((after - before)) reached sc" >&2
	awk -v n=$((after - before)) -v s="$secs" 'BEGIN { printf "%.0f", n / s }'
}

p4_setup() {
	local n=$1 i
	tc -b "$prog/router.tc" || return 1
	tc filter add dev b0 ingress chain 1 prio 1 p4 pname router || return 1
	tc p4 create router/table/cb/nexthop nh 1 action router/cb/forward \
		param dmac "$cmac" param smac "$(mac b1)" param port b1 || return 1
	for ((i = 0; i < n; i++)); do
		prefix $i
		echo "p4 create router/table/cb/fib dstAddr $REPLY action router/cb/set_nh param nh 1"
	done >"$batch"
	tc -b "$batch" || return 1
}

flower_setup() {
	local n=$1 i smac
	smac=$(mac b1)
	for ((i = 0; i < n; i++)); do
		prefix $i
		echo "filter add dev b0 ingress chain 2 prio 1 protocol ip flower skip_hw dst_ip $REPLY action pedit ex munge eth dst set $cmac munge eth src set $smac munge ip ttl add 255 pipe action csum ip pipe action mirred egress redirect dev b1"
	done >"$batch"
	tc -b "$batch" || return 1
}

# use CHAIN: every frame goes to chain 1 (p4) or 2 (flower); between
# blasts (matchall changes no filter in place: delete, then add)
use() {
	tc filter del dev b0 ingress chain 0 prio 1 2>/dev/null
	tc filter add dev b0 ingress chain 0 prio 1 matchall action goto chain "$1"
}

teardown() {
	router_hosts_del
	tc p4template del pipeline/router 2>/dev/null
	return 0
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf '%-8s %6s %14s %14s %7s\n' routes round "p4 frames/s" "flower frames/s" ratio >"$batch.sum"
for n in $ROUTES; do
	echo "== $n routes"
	topology
	start=$SECONDS
	p4_setup "$n" || { echo "p4 setup failed"; exit 1; }
	echo "  p4 setup: $((SECONDS - start)) s"
	start=$SECONDS
	flower_setup "$n" || { echo "flower setup failed"; exit 1; }
	echo "  flower setup: $((SECONDS - start)) s"
	ratios=()
	for ((r = 1; r <= ROUNDS; r++)); do
		use 1 || { echo "the goto chain 1 failed"; exit 1; }
		p4=$(blast "$n" "p4, round $r")
		use 2 || { echo "the goto chain 2 failed"; exit 1; }
		fl=$(blast "$n" "flower, round $r")
		ratio=$(awk -v a="$p4" -v b="$fl" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')
		ratios+=("$ratio")
		printf '%-8s %6s %14s %14s %7s\n' "$n" "$r" "$p4" "$fl" "$ratio" >>"$batch.sum"
	done
	printf '%-8s %6s %14s %14s %7s\n' "$n" median "" "" \
		"$(printf '%s\n' "${ratios[@]}" | median)" >>"$batch.sum"
	teardown
done
echo "== frames/s that reached sc (target: p4 at least 0.8 x flower at 1000 routes)"
cat "$batch.sum"
