#!/bin/bash
# The IPv4 router of tests/programs/router/ on real packets: host sa
# (10.1.0.1/24 on a0) and host sc (10.2.0.1/24 on c0) reach each other
# through b0 and b1, which run the router (p4 filters on both ingresses,
# one pipeline).  Checked: pings routed both ways; on c0, tcpdump sees the
# routed packet with TTL decremented, the next hop's MACs and a good IPv4
# checksum; TTL expiry drops; the longest prefix wins; a missing route or
# next hop drops; per-entry counters count.
. "$(dirname "$0")/lib.sh"

prog=$(cd "$(dirname "$0")/../programs/router" && pwd)
export INTROSPECTION=$prog
RT="tc p4 create router/table/cb"
cap=$(mktemp)
caperr=$(mktemp)

cleanup() {
	ip netns del sa 2>/dev/null
	ip netns del sc 2>/dev/null
	ip link del b0 2>/dev/null
	ip link del b1 2>/dev/null
	tc p4template del pipeline/router 2>/dev/null
	rm -f "$cap" "$caperr"
}
trap cleanup EXIT

# capture ARGS...: one packet on c0 in sc, into $cap, once tcpdump listens
capture() {
	: >"$caperr"
	ip netns exec sc tcpdump -l -n -c 1 -i c0 "$@" >"$cap" 2>"$caperr" &
	tpid=$!
	for _ in $(seq 1 40); do
		grep -q "listening on" "$caperr" && return
		sleep 0.25
	done
}

# capture_wait: until the packet came (or 5 s)
capture_wait() {
	for _ in $(seq 1 20); do
		kill -0 $tpid 2>/dev/null || break
		sleep 0.25
	done
	kill $tpid 2>/dev/null
	wait $tpid 2>/dev/null
}

mac() { cat "/sys/class/net/$1/address"; }

ip netns add sa
ip netns add sc
ip link add a0 netns sa type veth peer name b0
ip link add c0 netns sc type veth peer name b1
for ns in sa sc; do
	ip netns exec $ns sysctl -qw net.ipv6.conf.all.disable_ipv6=1
done
ip -n sa addr add 10.1.0.1/24 dev a0
ip -n sc addr add 10.2.0.1/24 dev c0
ip -n sa link set a0 up
ip -n sc link set c0 up
ip link set b0 up
ip link set b1 up
amac=$(ip netns exec sa cat /sys/class/net/a0/address)
cmac=$(ip netns exec sc cat /sys/class/net/c0/address)
# the router answers no ARP: the hosts know its MACs
ip -n sa neigh add 10.1.0.254 lladdr "$(mac b0)" dev a0
ip -n sc neigh add 10.2.0.254 lladdr "$(mac b1)" dev c0
ip -n sa route add default via 10.1.0.254
ip -n sc route add default via 10.2.0.254

expect_ok "load the router" tc -b "$prog/router.tc"
for d in b0 b1; do
	tc qdisc add dev $d clsact
	expect_ok "bind on $d" tc filter add dev $d ingress prio 1 p4 pname router
done

expect_err "no route: dropped" 1 "100% packet loss" \
	ip netns exec sa ping -c 1 -W 1 10.2.0.1
expect_ok "next hop 1" $RT/nexthop nh 1 action router/cb/forward \
	param dmac "$cmac" param smac "$(mac b1)" param port b1
expect_ok "next hop 2" $RT/nexthop nh 2 action router/cb/forward \
	param dmac "$amac" param smac "$(mac b0)" param port b0
expect_ok "next hop 3 drops" $RT/nexthop nh 3 action router/cb/drop
expect_ok "route to sc" $RT/fib dstAddr 10.2.0.0/24 action router/cb/set_nh param nh 1
expect_ok "route to sa" $RT/fib dstAddr 10.1.0.0/24 action router/cb/set_nh param nh 2

expect_ok "ping routed both ways" ip netns exec sa ping -c 2 -W 2 10.2.0.1

capture -e -v icmp
ip netns exec sa ping -c 1 -W 1 -t 64 10.2.0.1 >/dev/null 2>&1
capture_wait
out=$(cat "$cap")
grep -q "$(mac b1) > $cmac" <<<"$out" ||
	fail "routed packet: MACs are not the next hop's: $out"
grep -q "ttl 63" <<<"$out" || fail "routed packet: TTL not 63: $out"
grep -q "bad cksum" <<<"$out" && fail "routed packet: IPv4 checksum wrong: $out"
grep -q "10.1.0.1 > 10.2.0.1: ICMP echo request" <<<"$out" ||
	fail "routed packet: not the ping: $out"

expect_err "TTL 1 expires" 1 "100% packet loss" \
	ip netns exec sa ping -c 1 -W 1 -t 1 10.2.0.1
expect_ok "TTL 2 goes through" ip netns exec sa ping -c 1 -W 2 -t 2 10.2.0.1

# longest prefix: a /16 to the dropping next hop loses to the /24
expect_ok "route /16" $RT/fib dstAddr 10.2.0.0/16 action router/cb/set_nh param nh 3
expect_ok "the /24 wins" ip netns exec sa ping -c 1 -W 2 10.2.0.1
expect_ok "del /24" tc p4 del router/table/cb/fib dstAddr 10.2.0.0/24
expect_err "the /16 drops" 1 "100% packet loss" \
	ip netns exec sa ping -c 1 -W 1 10.2.0.1
# a route to a next hop that does not exist drops
expect_ok "route /24 to nh 9" $RT/fib dstAddr 10.2.0.0/24 action router/cb/set_nh param nh 9
expect_err "missing next hop drops" 1 "100% packet loss" \
	ip netns exec sa ping -c 1 -W 1 10.2.0.1
expect_ok "route /24 to nh 1" tc p4 update router/table/cb/fib dstAddr 10.2.0.0/24 \
	action router/cb/set_nh param nh 1
expect_ok "routed again" ip netns exec sa ping -c 3 -W 2 10.2.0.1

j=$(tc -s -j p4 get router/table/cb/fib dstAddr 10.2.0.0/24)
n=$(json_get "$j" 'j[1]["entries"][0]["stats"]["packets"]')
# the /24 made now: the three pings (and the one before the update)
[ "$n" -ge 3 ] 2>/dev/null || fail "fib /24 counted '$n' packets, expected 3 or more"
j=$(tc -s -j p4 get router/table/cb/nexthop nh 1)
n=$(json_get "$j" 'j[1]["entries"][0]["stats"]["packets"]')
[ "$n" -ge 7 ] 2>/dev/null || fail "next hop 1 counted '$n' packets, expected 7 or more"

finish
