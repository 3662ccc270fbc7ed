#!/bin/bash
# The port security program of tests/programs/portsec/ (written in P4,
# compiled by p4tc-compile) on real packets: hosts h1 (10.60.0.1 on x1)
# and h2 (10.60.0.2 on x2), joined through ports p1 and p2.  Each port's
# station (its host's MAC) is known; the ports table sends each port's
# frames to the other.  Checked: pings pass; a frame from a MAC the port
# does not know is dropped and counted (violations[0]); a known station
# on a port with no way out is dropped and counted (violations[1]); the
# stations' entries count their frames.
. "$(dirname "$0")/lib.sh"

prog=$(cd "$(dirname "$0")/../.." && pwd)/build/compiler/portsec
export INTROSPECTION=$prog

cleanup() {
	for p in p1 p2; do
		ip link del $p 2>/dev/null
	done
	for ns in h1 h2; do
		ip netns del $ns 2>/dev/null
	done
	tc p4template del pipeline/portsec 2>/dev/null
}
trap cleanup EXIT

two_hosts 10.60.0
for i in 1 2; do
	ip -n h$i link set x$i address 02:60:00:00:00:0$i
done

expect_ok "load the program" tc -b "$prog/portsec.tc"
for d in p1 p2; do
	tc qdisc add dev $d clsact
	expect_ok "bind on $d" tc filter add dev $d ingress prio 1 p4 pname portsec
done
for i in 1 2; do
	expect_ok "h$i's station on p$i" tc p4 create portsec/table/cb/stations \
		port p$i srcAddr 02:60:00:00:00:0$i action portsec/cb/known
done
expect_ok "p1 to p2" tc p4 create portsec/table/cb/ports port p1 \
	action portsec/cb/forward param port p2
expect_ok "p2 to p1" tc p4 create portsec/table/cb/ports port p2 \
	action portsec/cb/forward param port p1

expect_ok "h1 pings h2" ip netns exec h1 ping -c 3 -W 2 10.60.0.2

# reg INDEX: element INDEX of the violations register
reg() {
	tc p4template get register/portsec/violations |
		sed -n "s/.*index $1 value \([0-9]*\).*/\1/p"
}
[ "$(reg 0)" = 0 ] || fail "violations[0] is '$(reg 0)' after known stations only"

# h1 takes another MAC: its frames are dropped at p1 and counted
ip -n h1 link set x1 address 02:60:00:00:00:99
ip -n h1 neigh flush dev x1
expect_err "h1 under another MAC is cut off" 1 "100% packet loss" \
	ip netns exec h1 ping -c 2 -W 1 10.60.0.2
n=$(reg 0)
[ "$n" -ge 2 ] 2>/dev/null || fail "violations[0] is '$n', expected 2 or more"
ip -n h1 link set x1 address 02:60:00:00:00:01

# p2 loses its way out: h2's frames are dropped and counted as such
expect_ok "p2's way out goes" tc p4 del portsec/table/cb/ports port p2
before=$(reg 1)
expect_err "h2 cannot reach h1" 1 "100% packet loss" \
	ip netns exec h2 ping -c 2 -W 1 10.60.0.1
n=$(reg 1)
[ "$n" -gt "$before" ] 2>/dev/null || fail "violations[1] went from '$before' to '$n'"

j=$(tc -s -j p4 get portsec/table/cb/stations port p2 srcAddr 02:60:00:00:00:02)
n=$(json_get "$j" 'j[1]["entries"][0]["stats"]["packets"]')
[ "$n" -ge 5 ] 2>/dev/null || fail "h2's station counted '$n' frames, expected 5 or more"

finish
