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
# and the eBPF modes of the p4 classifier (the seed's comparison of the
# scriptable datapath with eBPF at tc and at XDP; programs of
# tests/programs/router/, make bpf):
#   bpf-tc:   chain 3, p4 with its eBPF parser (prog tc obj parser.bpf.o)
#   bpf-xdp:  chain 4, p4 with the XDP parser (parser-xdp.bpf.o, generic
#             XDP on b0 during its blasts; prog xdp ... prog_cookie 22)
#   ebpf-tc:  chain 5, the eBPF datapath over P4TC tables (matchall
#             action bpf obj datapath.bpf.o)
#   ebpf-xdp: the same at XDP (datapath-xdp.bpf.o, generic XDP on b0)
#   floor:    chain 6, matchall action mirred egress redirect to b1: no
#             lookup, no rewrite, the least any setup can do to get a
#             frame to sc.  Its CPU per frame is what the sender, the
#             veths and the redirect cost; a setup's figure less floor's
#             is what its classifier costs alone
# All are loaded at once; a matchall in chain 0 sends every frame to one
# of them (goto chain), the same cost for each.  The blasts alternate,
# each setup in turn, BENCH_DP_ROUNDS times (3): this machine's speed
# drifts by tens of percent within minutes, and blasts next to each other
# see about the same machine.  Printed: each round's frames/s, p4's ratio
# to flower and the eBPF modes' ratios to p4, and the median ratios; then
# each setup's CPU time per frame routed (the guest's busy time in
# /proc/stat over the blast, divided by the frames that reached sc: TCG
# has no PMU to count cycles with, and p4's figure less flower's is what
# the P4 half costs more).
# The guest runs the bench kernel (BENCH_KERNEL=bench, make kernel-bench):
# the test kernel's KASAN and lockdep would dominate what is measured.
# BENCH_KERNEL=test runs it on the debug kernel.  BENCH_DP_VARIANTS
# picks the setups blasted (default all); BENCH_DP_PERF=1 profiles each
# blast and prints its top symbols.  On the bench kernel,
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
# the router as p4tc-compile made it of router.p4 (make compiled)
compiled=$top/build/compiler/router
bpf=$top/build/bpf/router
pin=/sys/fs/bpf/p4tc-bench-xdp-parser
VARIANTS=${BENCH_DP_VARIANTS:-"p4 flower bpf-tc bpf-xdp ebpf-tc ebpf-xdp floor"}
export INTROSPECTION=$compiled
. "$prog/hosts.sh"
batch=$(mktemp)
dir=$(mktemp -d)
trap 'rm -rf "$batch" "$batch.sum" "$batch.cpu" "$batch.above" "$dir"; teardown' EXIT

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

# busy CPU time of the guest so far, in ticks (USER_HZ): /proc/stat's
# first line but idle and iowait
busy_ticks() {
	local cpu a b c d e f g h rest
	read -r cpu a b c d e f g h rest </proc/stat
	echo $((a + b + c + f + g + h))
}

# blast: frames/s that reached sc, and a check that they were routed;
# the busy CPU time per frame that reached sc goes to $dir/ns-$3
blast() {
	local before after out secs t0 t1
	local -a perf=()
	# BENCH_DP_PERF=1: a system-wide profile of each blast (perf's
	# cpu-clock: TCG has no PMU), its top symbols printed with the blast
	# (the guest's /tmp holds the data; the tree is read-only there)
	if [ "${BENCH_DP_PERF:-0}" = 1 ]; then
		perf=(perf record -q -e cpu-clock -a -o "/tmp/perf-$3.data" --)
	fi
	before=$(sc_rx)
	t0=$(busy_ticks)
	out=$("${perf[@]}" ip netns exec sa "$BLAST" a0 "$(mac b0)" "$1" "$SECS") || { echo "pktblast failed: $out" >&2; echo 0; return; }
	t1=$(busy_ticks)
	if [ "${BENCH_DP_PERF:-0}" = 1 ]; then
		echo "  profile of $2 (perf report --sort sym, 0.5% and up):" >&2
		perf report -q -i "/tmp/perf-$3.data" --stdio --sort sym \
			--percent-limit ${BENCH_DP_PERF_LIMIT:-0.5} 2>&1 | sed 's/^/    /' >&2
		rm -f "/tmp/perf-$3.data"
	fi
	after=$(sc_rx)
	secs=$(sed -n 's/.* in \([0-9.]*\) s:.*/\1/p' <<<"$out")
	# every CPU's busy time (the blaster, the veths, the classifier) per
	# frame routed: TCG has no PMU, so no cycles; p4's figure less
	# flower's is what the P4 half costs more
	awk -v n=$((after - before)) -v t=$((t1 - t0)) -v hz="$(getconf CLK_TCK)" \
		'BEGIN { if (n > 0) printf "%.0f", t / hz * 1e9 / n; else print "-" }' >"$dir/ns-$3"
	echo "  $2: $out; $((after - before)) reached sc; $(cat "$dir/ns-$3") ns of CPU per frame" >&2
	awk -v n=$((after - before)) -v s="$secs" 'BEGIN { printf "%.0f", n / s }'
}

p4_setup() {
	local n=$1 i
	tc -b "$compiled/router.tc" || return 1
	tc filter add dev b0 ingress chain 1 prio 1 p4 pname router || return 1
	tc filter add dev b0 ingress chain 3 prio 1 p4 pname router \
		prog tc obj "$bpf/parser.bpf.o" section p4tc/parser || return 1
	rm -f "$pin"
	bpftool prog load "$bpf/parser-xdp.bpf.o" "$pin" type xdp || return 1
	tc filter add dev b0 ingress chain 4 prio 1 p4 pname router \
		prog xdp pinned "$pin" prog_cookie 22 || return 1
	tc filter add dev b0 ingress chain 5 prio 1 matchall \
		action bpf obj "$bpf/datapath.bpf.o" sec p4tc/datapath || return 1
	tc filter add dev b0 ingress chain 6 prio 1 matchall \
		action mirred egress redirect dev b1 || return 1
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

# use VARIANT: every frame goes to its chain, and XDP runs on b0 for the
# XDP variants only; between blasts (matchall changes no filter in place:
# delete, then add)
use() {
	local chain
	ip link set dev b0 xdpgeneric off 2>/dev/null
	tc filter del dev b0 ingress chain 0 prio 1 2>/dev/null
	case $1 in
	p4) chain=1 ;;
	flower) chain=2 ;;
	bpf-tc) chain=3 ;;
	bpf-xdp) chain=4
		ip link set dev b0 xdpgeneric pinned "$pin" || return 1 ;;
	ebpf-tc) chain=5 ;;
	floor) chain=6 ;;
	ebpf-xdp) chain=1	# XDP sends the frames on before tc
		ip link set dev b0 xdpgeneric obj "$bpf/datapath-xdp.bpf.o" sec xdp ||
			return 1 ;;
	esac
	tc filter add dev b0 ingress chain 0 prio 1 matchall action goto chain "$chain"
}

teardown() {
	router_hosts_del
	tc p4template del pipeline/router 2>/dev/null
	rm -f "$pin"
	return 0
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "") print "-"; else if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf
# frames/s of each variant, then p4/flower and each eBPF mode / p4
{
	printf '%-8s %6s' routes round
	for v in $VARIANTS; do printf ' %9s' "$v"; done
	printf ' %11s' p4/flower
	for v in bpf-tc bpf-xdp ebpf-tc ebpf-xdp; do printf ' %9s' "$v/p4"; done
	echo
} >"$batch.sum"
for n in $ROUTES; do
	echo "== $n routes"
	topology
	start=$SECONDS
	p4_setup "$n" || { echo "p4 setup failed"; exit 1; }
	echo "  p4 setup: $((SECONDS - start)) s"
	start=$SECONDS
	flower_setup "$n" || { echo "flower setup failed"; exit 1; }
	echo "  flower setup: $((SECONDS - start)) s"
	declare -A med=() ns=() above=()
	for ((r = 1; r <= ROUNDS; r++)); do
		declare -A fps=()
		for v in $VARIANTS; do
			use "$v" || { echo "selecting $v failed"; exit 1; }
			fps[$v]=$(blast "$n" "$v, round $r" "$v-$n-$r")
			ns[$v]+="$(cat "$dir/ns-$v-$n-$r") "
		done
		ip link set dev b0 xdpgeneric off 2>/dev/null
		# what each classifier costs alone: its CPU per frame less
		# floor's in the same round (the machine's speed drifts)
		for v in $VARIANTS; do
			above[$v]+="$(awk -v a="$(cat "$dir/ns-$v-$n-$r")" \
				-v f="$(cat "$dir/ns-floor-$n-$r" 2>/dev/null)" \
				'BEGIN { if (a != "-" && f != "" && f != "-") print a - f }') "
		done
		line=$(printf '%-8s %6s' "$n" "$r")
		for v in $VARIANTS; do line+=$(printf ' %9s' "${fps[$v]}"); done
		x=$(ratio "${fps[p4]:-}" "${fps[flower]:-}")
		med[p4/flower]+="$x "
		line+=$(printf ' %11s' "$x")
		for v in bpf-tc bpf-xdp ebpf-tc ebpf-xdp; do
			x=$(ratio "${fps[$v]:-}" "${fps[p4]:-}")
			med[$v]+="$x "
			line+=$(printf ' %9s' "$x")
		done
		echo "$line" >>"$batch.sum"
	done
	line=$(printf '%-8s %6s' "$n" median)
	for v in $VARIANTS; do line+=$(printf ' %9s' ""); done
	line+=$(printf ' %11s' "$(tr ' ' '\n' <<<"${med[p4/flower]}" | grep . | median)")
	for v in bpf-tc bpf-xdp ebpf-tc ebpf-xdp; do
		line+=$(printf ' %9s' "$(tr ' ' '\n' <<<"${med[$v]}" | grep . | median)")
	done
	echo "$line" >>"$batch.sum"
	line=$(printf '%-8s' "$n")
	for v in $VARIANTS; do
		line+=$(printf ' %9s' "$(tr ' ' '\n' <<<"${ns[$v]}" | grep -v '^-*$' | median)")
	done
	echo "$line" >>"$batch.cpu"
	line=$(printf '%-8s' "$n")
	for v in $VARIANTS; do
		line+=$(printf ' %9s' "$(tr ' ' '\n' <<<"${above[$v]}" | grep . | median)")
	done
	echo "$line" >>"$batch.above"
	teardown
done
echo "== frames/s that reached sc (target: p4 at least 0.8 x flower at 1000 routes;"
echo "   the eBPF modes as ratios to p4, the scriptable datapath)"
cat "$batch.sum"
echo "== CPU per frame that reached sc, ns (busy time of the whole guest from"
echo "   /proc/stat over the blast, median of the rounds; no PMU under TCG)"
printf '%-8s' routes
for v in $VARIANTS; do printf ' %9s' "$v"; done
echo
cat "$batch.cpu"
case " $VARIANTS " in
*" floor "*)
	echo "== CPU per frame above floor's, ns: what each classifier costs alone"
	echo "   (its figure less floor's in the same round, median of the rounds)"
	printf '%-8s' routes
	for v in $VARIANTS; do printf ' %9s' "$v"; done
	echo
	cat "$batch.above" ;;
esac
