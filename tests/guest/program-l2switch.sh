#!/bin/bash
# The L2 switch of tests/programs/l2switch/ on real packets: hosts h1, h2
# and h3 (10.3.0.1-3/24 on x1-x3, each in its namespace) are wired to the
# switch ports p1-p3, which all run the program.  Checked: a miss drops
# until the flood ports are set; then misses flood (ARP resolves, pings
# cross, h3 sees h1's pings to h2); with MAC entries the pings go only
# where they belong (h3 sees none of them); entries count their packets;
# the filters replaced while pings flow lose none of them.
. "$(dirname "$0")/lib.sh"

# the program as p4tc-compile made it of tests/programs/l2switch/l2switch.p4
prog=$(cd "$(dirname "$0")/../.." && pwd)/build/compiler/l2switch
export INTROSPECTION=$prog
RT="tc p4 create l2switch/table/cb/mac"
cap=$(mktemp)
caperr=$(mktemp)

cleanup() {
	# the ports go first: a namespace's veths go with it only later,
	# and their p4 filters hold the pipeline until then
	for i in 1 2 3; do
		ip link del p$i 2>/dev/null
		ip netns del h$i 2>/dev/null
	done
	tc p4template del pipeline/l2switch 2>/dev/null
	rm -f "$cap" "$caperr"
}
trap cleanup EXIT

for i in 1 2 3; do
	ip netns add h$i
	ip link add x$i netns h$i type veth peer name p$i
	ip netns exec h$i sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	ip -n h$i addr add 10.3.0.$i/24 dev x$i
	ip -n h$i link set x$i up
	ip link set p$i up
done
hmac() { ip netns exec "h$1" cat "/sys/class/net/x$1/address"; }

expect_ok "load the switch" tc -b "$prog/l2switch.tc"
for i in 1 2 3; do
	tc qdisc add dev p$i clsact
	expect_ok "bind on p$i" tc filter add dev p$i ingress prio 1 p4 \
		pname l2switch
done

expect_err "a miss drops before flooding is set" 1 "100% packet loss" \
	ip netns exec h1 ping -c 1 -W 1 10.3.0.2
expect_ok "flood ports" tc p4template update table/l2switch/cb/mac \
	default_miss_action action l2switch/cb/flood param p1 p1 param p2 p2 \
	param p3 p3
expect_ok "flooding: ARP and pings cross" ip netns exec h1 ping -c 2 -W 2 10.3.0.2
capture h3 x3 icmp
ip netns exec h1 ping -c 1 -W 2 10.3.0.2 >/dev/null 2>&1
capture_wait
grep -q "10.3.0.1 > 10.3.0.2: ICMP echo request" "$cap" ||
	fail "flooding: h3 did not see h1's ping to h2: $(cat "$cap")"

expect_ok "h1's MAC" $RT dstAddr "$(hmac 1)" action l2switch/cb/fwd param port p1
expect_ok "h2's MAC" $RT dstAddr "$(hmac 2)" action l2switch/cb/fwd param port p2
expect_ok "h3's MAC" $RT dstAddr "$(hmac 3)" action l2switch/cb/fwd param port p3
capture h3 x3 icmp
expect_ok "forwarded ping" ip netns exec h1 ping -c 3 -W 2 10.3.0.2
capture_wait
grep -q "ICMP" "$cap" && fail "forwarding: h3 saw a ping it should not: $(cat "$cap")"
expect_ok "h3 reaches h1" ip netns exec h3 ping -c 1 -W 2 10.3.0.1

j=$(tc -s -j p4 get l2switch/table/cb/mac dstAddr "$(hmac 2)")
n=$(json_get "$j" 'j[1]["entries"][0]["stats"]["packets"]')
[ "$n" -ge 3 ] 2>/dev/null || fail "h2's entry counted '$n' packets, expected 3 or more"
# Replace the filters while pings flow: each frame is switched by the old
# filter or the new one, never by a half-built one, so none is lost.
replace_under_pings l2switch 6 h1 10.3.0.2 60 p1 p2

expect_err "flood is for the default only" 255 "Action is not allowed as entry action" \
	$RT dstAddr 02:00:00:00:00:99 action l2switch/cb/flood param p1 p1 \
	param p2 p2 param p3 p3

finish
