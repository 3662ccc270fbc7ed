#!/bin/bash
# The VLAN program of tests/programs/vlan/ on real packets: access hosts
# h1 (VLAN 10) and h2 (VLAN 20) are wired untagged to switch ports p1 and
# p2; trunk host tr is wired to the trunk port pt and talks to them over
# its VLAN devices tr0.10 and tr0.20.  Checked: pings cross both VLANs
# (tags pushed towards the trunk, popped from it), the trunk carries
# them tagged with the right VLAN id and the access side untagged, the
# entries count their frames, and a VLAN without an entry (30) or an
# untagged frame on the trunk is dropped.  The command refusals are tdc
# cases (tests/tdc/p4tc-cmds.json).
. "$(dirname "$0")/lib.sh"

# the program as p4tc-compile made it of tests/programs/vlan/vlan.p4
prog=$(cd "$(dirname "$0")/../.." && pwd)/build/compiler/vlan
export INTROSPECTION=$prog
RT="tc p4 create vlan/table/cb/port"
cap=$(mktemp)
caperr=$(mktemp)

cleanup() {
	# the ports go first: a namespace's veths go with it only later,
	# and their p4 filters hold the pipeline until then
	for p in p1 p2 pt; do
		ip link del $p 2>/dev/null
	done
	for ns in h1 h2 tr; do
		ip netns del $ns 2>/dev/null
	done
	tc p4template del pipeline/vlan 2>/dev/null
	rm -f "$cap" "$caperr"
}
trap cleanup EXIT

for i in 1 2; do
	ip netns add h$i
	ip link add x$i netns h$i type veth peer name p$i
	ip -n h$i addr add 10.$((i * 10)).0.1/24 dev x$i
	ip -n h$i link set x$i up
	ip link set p$i up
done
ip netns add tr
ip link add tr0 netns tr type veth peer name pt
ip link set pt up
ip -n tr link set tr0 up
for v in 10 20 30; do
	ip -n tr link add link tr0 name tr0.$v type vlan id $v
	ip -n tr addr add 10.$v.0.2/24 dev tr0.$v
	ip -n tr link set tr0.$v up
done
ip -n tr addr add 10.99.0.2/24 dev tr0
for ns in h1 h2 tr; do
	ip netns exec $ns sysctl -qw net.ipv6.conf.all.disable_ipv6=1
done

expect_ok "load the program" tc -b "$prog/vlan.tc"
for d in p1 p2 pt; do
	tc qdisc add dev $d clsact
	expect_ok "bind on $d" tc filter add dev $d ingress prio 1 p4 pname vlan
done
expect_ok "p1 is in VLAN 10" $RT port p1 vid 0 action vlan/cb/push \
	param vid 10 param out pt
expect_ok "p2 is in VLAN 20" $RT port p2 vid 0 action vlan/cb/push \
	param vid 20 param out pt
expect_ok "VLAN 10 leaves the trunk on p1" $RT port pt vid 10 \
	action vlan/cb/pop param out p1
expect_ok "VLAN 20 leaves the trunk on p2" $RT port pt vid 20 \
	action vlan/cb/pop param out p2

expect_ok "h1 reaches the trunk host over VLAN 10" \
	ip netns exec h1 ping -c 2 -W 2 10.10.0.2
expect_ok "h2 reaches the trunk host over VLAN 20" \
	ip netns exec h2 ping -c 2 -W 2 10.20.0.2

# On the trunk the frames carry their VLAN's tag; on the access side none.
capture tr tr0 -e icmp
ip netns exec h1 ping -c 1 -W 2 10.10.0.2 >/dev/null 2>&1
capture_wait
grep -q "vlan 10, .*10.10.0.1 > 10.10.0.2: ICMP echo request" "$cap" ||
	fail "trunk: h1's ping is not tagged with VLAN 10: $(cat "$cap")"
capture h2 x2 -e -Q in icmp
ip netns exec h2 ping -c 1 -W 2 10.20.0.2 >/dev/null 2>&1
capture_wait
grep -q "ethertype IPv4 .*10.20.0.2 > 10.20.0.1: ICMP echo reply" "$cap" ||
	fail "access: h2's reply is not an untagged IPv4 frame: $(cat "$cap")"
grep -q "802.1Q" "$cap" && fail "access: h2 got a tagged frame: $(cat "$cap")"

j=$(tc -s -j p4 get vlan/table/cb/port port p1 vid 0)
n=$(json_get "$j" 'j[1]["entries"][0]["stats"]["packets"]')
[ "$n" -ge 3 ] 2>/dev/null || fail "p1's push entry counted '$n' frames, expected 3 or more"
j=$(tc -s -j p4 get vlan/table/cb/port port pt vid 20)
n=$(json_get "$j" 'j[1]["entries"][0]["stats"]["packets"]')
[ "$n" -ge 3 ] 2>/dev/null || fail "the VLAN 20 pop entry counted '$n' frames, expected 3 or more"

# VLAN 30 has no entry, nor untagged frames from the trunk: both drop.
expect_err "VLAN 30 is dropped" 1 "100% packet loss" \
	ip netns exec tr ping -c 1 -W 1 10.30.0.1
expect_err "untagged frames from the trunk are dropped" 1 "100% packet loss" \
	ip netns exec tr ping -c 1 -W 1 10.99.0.1

finish
