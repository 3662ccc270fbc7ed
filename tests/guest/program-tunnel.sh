#!/bin/bash
# The tunnel of tests/programs/tunnel/ (written in P4, compiled by
# p4tc-compile) on real packets: host h1 (10.40.0.1 on x1) and host h2
# (10.40.0.2 on x2), one subnet, joined through two tunnel ends: p1
# pushes tunnel 7 and sends into the tunnel link (t1, whose peer is t2),
# t2 pops it and sends to p2; back the same way.  Checked: pings go
# through; inside the tunnel the frames carry the tunnel header (0x88b5,
# id 7) around the inner frame, outside none; a frame of another tunnel
# id is dropped at the far end; the entries count; a port without an
# entry drops.
. "$(dirname "$0")/lib.sh"

prog=$(cd "$(dirname "$0")/../.." && pwd)/build/compiler/tunnel
export INTROSPECTION=$prog
RT="tc p4 create tunnel/table/cb/ports"
cap=$(mktemp)
caperr=$(mktemp)

cleanup() {
	for p in p1 p2 t1; do
		ip link del $p 2>/dev/null
	done
	for ns in h1 h2 mon; do
		ip netns del $ns 2>/dev/null
	done
	tc p4template del pipeline/tunnel 2>/dev/null
	rm -f "$cap" "$caperr"
}
trap cleanup EXIT

two_hosts 10.40.0
ip link add t1 type veth peer name t2
ip link set t1 up
ip link set t2 up

expect_ok "load the program" tc -b "$prog/tunnel.tc"
for d in p1 p2 t1 t2; do
	tc qdisc add dev $d clsact
	expect_ok "bind on $d" tc filter add dev $d ingress prio 1 p4 pname tunnel
done
expect_ok "p1 pushes tunnel 7 into t1" $RT port p1 action tunnel/cb/push \
	param id 7 param port t1
expect_ok "t2 pops tunnel 7 to p2" $RT port t2 action tunnel/cb/pop \
	param id 7 param port p2
expect_ok "p2 pushes tunnel 7 into t2" $RT port p2 action tunnel/cb/push \
	param id 7 param port t2
expect_ok "t1 pops tunnel 7 to p1" $RT port t1 action tunnel/cb/pop \
	param id 7 param port p1

expect_ok "h1 reaches h2 through the tunnel" ip netns exec h1 ping -c 2 -W 2 10.40.0.2
expect_ok "h2 reaches h1 through the tunnel" ip netns exec h2 ping -c 2 -W 2 10.40.0.1

# Inside the tunnel (on t2, as it arrives) the frame carries the tunnel
# header; at h2 it is a plain IPv4 frame again.
# (the p4 filters' namespace is this one: capture()'s "ip netns exec" has
# no name for it, so tcpdump runs here, with capture()'s wait)
: >"$caperr"
# (a tunneled frame around IPv4 only: the tunnel header's inner EtherType
# at bytes 18-19; an ARP the hosts send meanwhile goes through it too)
tcpdump -l -n -e -x -c 1 -i t2 -Q in 'ether proto 0x88b5 and ether[18:2] = 0x0800' \
	>"$cap" 2>"$caperr" &
tpid=$!
for _ in {1..40}; do
	grep -q "listening on" "$caperr" && break
	sleep 0.25
done
ip netns exec h1 ping -c 1 -W 2 10.40.0.2 >/dev/null 2>&1
capture_wait
grep -q "ethertype Unknown (0x88b5)" "$cap" ||
	fail "in the tunnel: no frame with the tunnel's EtherType: $(cat "$cap" "$caperr")"
# the tunnel header: id 7 (00000007), then the inner EtherType 0800
grep -q "0x0000:  0000 0007 0800 45" "$cap" ||
	fail "in the tunnel: not tunnel id 7 around an IPv4 packet: $(cat "$cap")"
capture h2 x2 -e -Q in icmp
ip netns exec h1 ping -c 1 -W 2 10.40.0.2 >/dev/null 2>&1
capture_wait
grep -q "ethertype IPv4 .*10.40.0.1 > 10.40.0.2: ICMP echo request" "$cap" ||
	fail "at h2: the request is not a plain IPv4 frame: $(cat "$cap")"

j=$(tc -s -j p4 get tunnel/table/cb/ports port p1)
n=$(json_get "$j" 'j[1]["entries"][0]["stats"]["packets"]')
[ "$n" -ge 4 ] 2>/dev/null || fail "p1's push entry counted '$n' frames, expected 4 or more"

# The far end pops tunnel 7 only: with p1 pushing tunnel 8, t2 drops.
expect_ok "p1 pushes tunnel 8" tc p4 update tunnel/table/cb/ports port p1 \
	action tunnel/cb/push param id 8 param port t1
expect_err "tunnel 8 is dropped at t2" 1 "100% packet loss" \
	ip netns exec h1 ping -c 1 -W 1 10.40.0.2
# A port without an entry drops.
expect_ok "p2's entry goes" tc p4 del tunnel/table/cb/ports port p2
expect_err "p2 without an entry drops" 1 "100% packet loss" \
	ip netns exec h2 ping -c 1 -W 1 10.40.0.1

finish
