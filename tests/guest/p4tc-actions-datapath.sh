#!/bin/bash
# P4 actions on real packets.  Host sa (10.11.0.1 on a0) reaches the root
# namespace's b0; b1 leads to host sc (c0).  A sealed pipeline parses
# Ethernet and IPv4; dynamic actions on b0's ingress (matchall) act on
# what sa sends, and tcpdump in sc shows what comes out of b1:
#   - ipv4_forward (the seed's example): swap MACs, decrement TTL with an
#     incremental checksum update (branches, labels, plus), send out of
#     the port its parameter names;
#   - mirror: a copy out of b1, the original goes on;
#   - header and kernel metadata reads in branches: only ICMP passes and
#     gets skb mark 7 (which a u32 filter then counts), the rest drops;
#   - concat, slices, bxor and sub on metadata, checked by their effect on
#     the mark; tcindex written and read back.
. "$(dirname "$0")/lib.sh"

P="tc p4template"
H=hdrfield.ptest.parser1
cap=$(mktemp)
caperr=$(mktemp)

cleanup() {
	ip netns del sa 2>/dev/null
	ip netns del sc 2>/dev/null
	tc qdisc del dev b0 clsact 2>/dev/null
	tc actions flush action ptest/ipv4_forward 2>/dev/null
	$P del pipeline/ptest 2>/dev/null
	rm -f "$cap" "$caperr"
}
trap cleanup EXIT

ip netns add sa
ip netns add sc
ip link add a0 netns sa type veth peer name b0
ip link add c0 netns sc type veth peer name b1
ip -n sa addr add 10.11.0.1/24 dev a0
ip -n sc addr add 10.11.0.2/24 dev c0
ip -n sa link set a0 up
ip -n sc link set c0 up
ip link set b0 up
ip link set b1 up
# sa sends to a made-up MAC: the program must turn it into the source
ip -n sa neigh add 10.11.0.2 lladdr 02:00:00:00:00:02 dev a0
amac=$(ip -n sa -br link show a0 | awk '{print $3}')

expect_ok "pipeline" $P create pipeline/ptest numtables 0 \
	preactions action gact ok postactions action gact ok
expect_ok "eth" $P create header/ptest/parser1/ethernet len 14 start
for f in "ethernet/dstAddr type mac offset 0" "ethernet/srcAddr type mac offset 48" \
	"ethernet/etherType type be16 offset 96" "ipv4/version type bit4 offset 0" \
	"ipv4/ihl type bit4 offset 4" "ipv4/ttl type bit8 offset 64" \
	"ipv4/protocol type bit8 offset 72" "ipv4/csum type bit16 offset 80" \
	"ipv4/dstAddr type ipv4 offset 128"; do
	# shellcheck disable=SC2086
	expect_ok "field $f" $P create hdrfield/ptest/parser1/$f
done
expect_ok "ipv4" $P create header/ptest/parser1/ipv4 len 20 maxlen 60 \
	lenfield ihl lenmult 4
expect_ok "graph" $P update header/ptest/parser1/ethernet select etherType \
	transition 0x800 ipv4 default accept
expect_ok "metadata" $P create metadata/ptest/tmpmac type mac
expect_ok "metadata" $P create metadata/ptest/m16 type bit16
expect_ok "metadata" $P create metadata/ptest/m32 type bit32

expect_ok "ipv4_forward" $P create action/ptest/ipv4_forward actid 1 \
	param port type dev \
	cmd set metadata.ptest.tmpmac $H.ethernet.dstAddr \
	cmd set $H.ethernet.dstAddr $H.ethernet.srcAddr \
	cmd set $H.ethernet.srcAddr metadata.ptest.tmpmac \
	cmd sub $H.ipv4.ttl $H.ipv4.ttl constant.bit8.1 \
	cmd bge $H.ipv4.csum constant.bit16.0xff00 control jump carry / pipe \
	cmd plus $H.ipv4.csum $H.ipv4.csum constant.bit16.0x100 \
	cmd jump done \
	cmd label carry \
	cmd plus $H.ipv4.csum $H.ipv4.csum constant.bit16.0x101 \
	cmd label done \
	cmd send_port_egress param.port \
	state active
expect_ok "mirror" $P create action/ptest/mirror param port type dev \
	cmd mirror_port_egress param.port state active
expect_ok "icmp only" $P create action/ptest/icmp_only \
	cmd bne $H.ethernet.etherType metadata.kernel.skbproto control drop \
	cmd bne $H.ipv4.protocol constant.bit8.1 control drop \
	cmd set metadata.kernel.skbmark constant.bit32.7 state active
# m16 = 0x1234; mark = m16[8-15] ++ m16[0-7] ++ 0xab = 0x1234ab;
# m32 = mark ^ 0xff = 0x123454; mark = m32 - 0x54 = 0x123400; + ihl (5)
expect_ok "arith" $P create action/ptest/arith \
	cmd set metadata.ptest.m16 constant.bit16.0x1234 \
	cmd concat metadata.kernel.skbmark metadata.ptest.m16[8-15] metadata.ptest.m16[0-7] constant.bit8.0xab \
	cmd bxor metadata.ptest.m32 metadata.kernel.skbmark constant.bit8.0xff \
	cmd sub metadata.kernel.skbmark metadata.ptest.m32 constant.bit8.0x54 \
	cmd plus metadata.kernel.skbmark metadata.kernel.skbmark $H.ipv4.ihl \
	state active
# tcindex written, then read back from the skb into the mark
expect_ok "tcindex" $P create action/ptest/tcidx \
	cmd set metadata.kernel.tcindex constant.bit16.0x4321 \
	cmd set metadata.kernel.skbmark metadata.kernel.tcindex state active
expect_ok "seal" $P update pipeline/ptest state ready

tc qdisc add dev b0 clsact
mark_guard b0 ip netns exec sa ping -c 1 -W 1 10.11.0.2
expect_ok "instance" tc actions add action ptest/ipv4_forward param port b1 index 1
expect_ok "filter" tc filter add dev b0 ingress prio 1 matchall \
	action ptest/ipv4_forward index 1

capture sc c0 -e -v icmp
ip netns exec sa ping -c 1 -W 1 -t 64 10.11.0.2 >/dev/null 2>&1
capture_wait
out=$(cat "$cap")
grep -q "02:00:00:00:00:02 > $amac" <<<"$out" ||
	fail "ipv4_forward: MACs not swapped: $out"
grep -q "ttl 63" <<<"$out" || fail "ipv4_forward: TTL not 63: $out"
grep -q "bad cksum" <<<"$out" && fail "ipv4_forward: IPv4 checksum wrong: $out"
grep -q "10.11.0.1 > 10.11.0.2: ICMP echo request" <<<"$out" ||
	fail "ipv4_forward: not the ping: $out"
j=$(tc -s -j actions get action ptest/ipv4_forward index 1)
n=$(json_get "$j" 'j[1]["actions"][0]["stats"]["packets"]')
[ "$n" -ge 1 ] 2>/dev/null || fail "ipv4_forward counted '$n' packets"

# mark_test NAME ACTION MARK MIN PING_ARGS...: b0's ingress runs ACTION
# (continue), then a u32 filter drops and counts packets with MARK; after
# the ping, at least MIN must have been counted (other IPv4 packets the
# host sends may get the same mark).
mark_test() {
	local name=$1 action=$2 mark=$3 min=$4 j n
	shift 4
	tc filter del dev b0 ingress
	expect_ok "$name" tc filter add dev b0 ingress prio 1 matchall \
		action "ptest/$action" continue
	expect_ok "$name count" tc filter add dev b0 ingress prio 2 u32 \
		match mark "$mark" 0xffffffff action gact drop
	ip netns exec sa ping "$@" 10.11.0.2 >/dev/null 2>&1
	j=$(tc -s -j filter show dev b0 ingress)
	n=$(json_get "$j" '[f for f in j if f.get("kind") == "u32" and "actions" in f.get("options", {})][0]["options"]["actions"][0]["stats"]["packets"]')
	[ "$n" -ge "$min" ] 2>/dev/null ||
		fail "$name: u32 counted '$n' packets with mark $mark, expected at least $min"
}

# ICMP over IPv4 gets mark 7 (other packets are dropped by the action)
mark_test icmp_only icmp_only 7 2 -c 2 -i 0.3 -W 1
# arithmetic: the mark becomes 0x123405
mark_test arith arith 0x123405 1 -c 1 -W 1
# tcindex: the mark becomes what was written to tcindex
mark_test tcidx tcidx 0x4321 1 -c 1 -W 1

# mirror: a copy reaches sc, the original goes on (gact ok after it)
tc filter del dev b0 ingress
ip -n sa neigh replace 10.11.0.2 lladdr "$(ip -n sc -br link show c0 | awk '{print $3}')" dev a0
expect_ok "mirror" tc filter add dev b0 ingress prio 1 matchall \
	action ptest/mirror param port b1 pipe action gact ok
capture sc c0 icmp
ip netns exec sa ping -c 1 -W 1 10.11.0.2 >/dev/null 2>&1
capture_wait
grep -q "10.11.0.1 > 10.11.0.2: ICMP echo request" "$cap" ||
	fail "mirror: no copy reached sc: $(cat "$cap")"

finish
