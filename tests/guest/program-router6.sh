#!/bin/bash
# The IPv6 router of tests/programs/router6/ (written in P4, compiled by
# p4tc-compile) on real packets: host sa (2001:db8:1::1/64 on a0) and
# host sc (2001:db8:2::1/64 on c0) reach each other through b0 and b1,
# which run the router; their default routes go through the router's
# address on each link, whose MAC they know.  The FIB's key is a 128-bit
# field of type ipv6 in the introspection file: tc takes and prints it
# as an address.  Checked: pings routed both ways with the hop limit one
# less and the next hop's MACs; the longest prefix wins; hop limit 1
# expires; a missing route drops; entries print as IPv6 addresses and
# count; a key that is no IPv6 address is refused.
. "$(dirname "$0")/lib.sh"

prog=$(cd "$(dirname "$0")/../.." && pwd)/build/compiler/router6
export INTROSPECTION=$prog
FIB="tc p4 create router6/table/cb/fib"
NH="tc p4 create router6/table/cb/nexthop"
cap=$(mktemp)
caperr=$(mktemp)

cleanup() {
	ip netns del sa 2>/dev/null
	ip netns del sc 2>/dev/null
	ip link del b0 2>/dev/null
	ip link del b1 2>/dev/null
	tc p4template del pipeline/router6 2>/dev/null
	rm -f "$cap" "$caperr"
}
trap cleanup EXIT

mac() { cat "/sys/class/net/$1/address"; }
ip netns add sa
ip netns add sc
ip link add a0 netns sa type veth peer name b0
ip link add c0 netns sc type veth peer name b1
ip -n sa addr add 2001:db8:1::1/64 dev a0 nodad
ip -n sc addr add 2001:db8:2::1/64 dev c0 nodad
ip -n sa link set a0 up
ip -n sc link set c0 up
ip link set b0 up
ip link set b1 up
amac=$(ip netns exec sa cat /sys/class/net/a0/address)
cmac=$(ip netns exec sc cat /sys/class/net/c0/address)
ip -n sa -6 neigh add 2001:db8:1::fe lladdr "$(mac b0)" dev a0 nud permanent
ip -n sc -6 neigh add 2001:db8:2::fe lladdr "$(mac b1)" dev c0 nud permanent
ip -n sa -6 route add default via 2001:db8:1::fe
ip -n sc -6 route add default via 2001:db8:2::fe

expect_ok "load the router" tc -b "$prog/router6.tc"
for d in b0 b1; do
	tc qdisc add dev $d clsact
	expect_ok "bind on $d" tc filter add dev $d ingress prio 1 p4 pname router6
done

expect_err "no route: dropped" 1 "100% packet loss" \
	ip netns exec sa ping -6 -c 1 -W 1 2001:db8:2::1
expect_ok "next hop 1: sc via b1" $NH nh 1 action router6/cb/forward \
	param dmac "$cmac" param smac "$(mac b1)" param port b1
expect_ok "next hop 2: sa via b0" $NH nh 2 action router6/cb/forward \
	param dmac "$amac" param smac "$(mac b0)" param port b0
expect_ok "next hop 3 drops" $NH nh 3 action router6/cb/drop
expect_ok "route to sc" $FIB dstAddr 2001:db8:2::/64 action router6/cb/set_nh param nh 1
expect_ok "route to sa" $FIB dstAddr 2001:db8:1::/64 action router6/cb/set_nh param nh 2
expect_err "a key that is no IPv6 address" 255 "not a 128-bit ipv6 value" \
	$FIB dstAddr 10.0.0.0/8 action router6/cb/set_nh param nh 1

expect_ok "ping routed both ways" ip netns exec sa ping -6 -c 2 -W 2 2001:db8:2::1

capture sc c0 -e -v icmp6
ip netns exec sa ping -6 -c 1 -W 2 -t 64 2001:db8:2::1 >/dev/null 2>&1
capture_wait
out=$(cat "$cap")
grep -q "$(mac b1) > $cmac" <<<"$out" ||
	fail "routed packet: MACs are not the next hop's: $out"
grep -q "hlim 63" <<<"$out" || fail "routed packet: hop limit not 63: $out"
grep -q "2001:db8:1::1 > 2001:db8:2::1: .*echo request" <<<"$(tr -d '\n' <"$cap")" ||
	fail "routed packet: not the ping: $out"

expect_err "hop limit 1 expires" 1 "100% packet loss" \
	ip netns exec sa ping -6 -c 1 -W 1 -t 1 2001:db8:2::1
expect_ok "hop limit 2 goes through" ip netns exec sa ping -6 -c 1 -W 2 -t 2 2001:db8:2::1

# the longest prefix wins: a /32 to the dropping next hop loses to the /64
expect_ok "route /32" $FIB dstAddr 2001:db8::/32 action router6/cb/set_nh param nh 3
expect_ok "the /64 wins" ip netns exec sa ping -6 -c 1 -W 2 2001:db8:2::1
expect_ok "del the /64" tc p4 del router6/table/cb/fib dstAddr 2001:db8:2::/64
expect_err "the /32 drops" 1 "100% packet loss" \
	ip netns exec sa ping -6 -c 1 -W 1 2001:db8:2::1

out=$(tc p4 get router6/table/cb/fib dstAddr 2001:db8:1::/64 2>&1)
grep -q "2001:db8:1::" <<<"$out" || fail "the entry does not print as an IPv6 address: $out"
j=$(tc -s -j p4 get router6/table/cb/fib dstAddr 2001:db8:1::/64)
n=$(json_get "$j" 'j[1]["entries"][0]["stats"]["packets"]')
[ "$n" -ge 4 ] 2>/dev/null || fail "the route to sa counted '$n' packets, expected 4 or more"

finish
