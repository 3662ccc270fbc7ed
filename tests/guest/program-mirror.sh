#!/bin/bash
# The port mirror of tests/programs/mirror/ on real packets: host sa
# (10.11.0.1) pings the root namespace (10.11.0.2 on b0); b0's ingress runs
# the program, which copies packets from mirrored sources to b1, whose
# peer c0 (namespace sc) is the monitor.  Checked: without an entry the
# monitor sees nothing; with one it sees the ping, unchanged, and the ping
# is still answered; malformed IPv4 from a mirrored source (an IHL below
# 5, a header cut short) is rejected by the parse graph, not copied;
# deleting the entry stops the copies; bound at b0's egress the program
# mirrors what the root namespace sends.
. "$(dirname "$0")/lib.sh"

# the program as p4tc-compile made it of tests/programs/mirror/mirror.p4
prog=$(cd "$(dirname "$0")/../.." && pwd)/build/compiler/mirror
export INTROSPECTION=$prog
cap=$(mktemp)
caperr=$(mktemp)

cleanup() {
	ip netns del sa 2>/dev/null
	ip netns del sc 2>/dev/null
	ip link del b0 2>/dev/null
	tc p4template del pipeline/mirror 2>/dev/null
	rm -f "$cap" "$caperr"
}
trap cleanup EXIT

ip netns add sa
ip netns add sc
ip link add a0 netns sa type veth peer name b0
ip link add c0 netns sc type veth peer name b1
for ns in sa sc; do
	ip netns exec $ns sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	ip -n $ns link set lo up
done
sysctl -qw net.ipv6.conf.b0.disable_ipv6=1
sysctl -qw net.ipv6.conf.b1.disable_ipv6=1
ip -n sa addr add 10.11.0.1/24 dev a0
ip addr add 10.11.0.2/24 dev b0
ip -n sa link set a0 up
ip -n sc link set c0 up
ip link set b0 up
ip link set b1 up
ip -n sa neigh add 10.11.0.2 lladdr "$(cat /sys/class/net/b0/address)" dev a0
ip neigh add 10.11.0.1 lladdr "$(ip netns exec sa cat /sys/class/net/a0/address)" dev b0

expect_ok "load the mirror" tc -b "$prog/mirror.tc"
tc qdisc add dev b0 clsact
expect_ok "bind" tc filter add dev b0 ingress prio 1 p4 pname mirror \
	action gact ok

capture sc c0 icmp
expect_ok "ping, no entry" ip netns exec sa ping -c 2 -W 2 10.11.0.2
capture_wait
grep -q "ICMP" "$cap" && fail "no entry: the monitor saw $(cat "$cap")"

expect_ok "mirror 10.11.0.0/24" tc p4 create mirror/table/cb/mirror \
	srcAddr 10.11.0.0/24 action mirror/cb/mirror_to param port b1
capture sc c0 -v icmp
expect_ok "ping, mirrored" ip netns exec sa ping -c 1 -W 2 -t 64 10.11.0.2
capture_wait
grep -q "10.11.0.1 > 10.11.0.2: ICMP echo request" "$cap" ||
	fail "mirrored: the monitor did not see the ping: $(cat "$cap")"
grep -q "ttl 64" "$cap" || fail "mirrored: the copy was changed: $(cat "$cap")"

r0=$(p4_filter_stat b0 1 parser_rejects)
capture sc c0 ip
ip netns exec sa /usr/bin/python3 - "$(cat /sys/class/net/b0/address)" \
	"$prog/../../../tests/equivalence/programs" <<'PYEOF' || fail "could not send"
import socket, sys
sys.path.insert(0, sys.argv[2])
from wire import eth, ipv4, l4
src = open("/sys/class/net/a0/address").read().strip()
ip = ipv4("10.11.0.1", "10.11.0.2", 17, l4(17, "10.11.0.1", "10.11.0.2", 1, 2))
bad_ihl = bytes([0x44]) + ip[1:]
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("a0", 0))
# unpadded: 34 zero bytes would make the cut header whole again
for payload in (bad_ihl, ip[:12]):
    s.send(eth(sys.argv[1], src, 0x800, payload))
PYEOF
capture_wait
grep -q "10.11.0.1" "$cap" && fail "malformed: the monitor saw $(cat "$cap")"
r1=$(p4_filter_stat b0 1 parser_rejects)
[ "$((r1 - r0))" = 2 ] 2>/dev/null ||
	fail "parser rejects went from '$r0' to '$r1', expected 2 more"

expect_ok "del the entry" tc p4 del mirror/table/cb/mirror srcAddr 10.11.0.0/24
capture sc c0 icmp
expect_ok "ping, entry gone" ip netns exec sa ping -c 2 -W 2 10.11.0.2
capture_wait
grep -q "ICMP" "$cap" && fail "entry gone: the monitor saw $(cat "$cap")"

expect_ok "bind at egress" tc filter add dev b0 egress prio 1 p4 pname mirror \
	action gact ok
expect_ok "mirror 10.11.0.2" tc p4 create mirror/table/cb/mirror \
	srcAddr 10.11.0.2/32 action mirror/cb/mirror_to param port b1
capture sc c0 icmp
expect_ok "ping from b0, mirrored at egress" ping -c 1 -W 2 10.11.0.1
capture_wait
grep -q "10.11.0.2 > 10.11.0.1: ICMP echo request" "$cap" ||
	fail "egress: the monitor did not see the root namespace's ping: $(cat "$cap")"

finish
