#!/bin/bash
# The L3 firewall of tests/programs/firewall/ (written in P4, compiled by
# p4tc-compile) on real packets: host h1 (10.50.0.1 on x1) and host h2
# (10.50.0.2 on x2), one subnet, joined through ports p1 and p2, whose
# ports table sends each one's frames to the other.  The ACL permits
# ICMP and UDP to port 53 from h1, TCP to port 22 from the /24 (prio 10)
# but not from 10.50.0.1 (prio 5, deny); a miss denies.  Checked: ARP and
# pings pass; UDP to 53 reaches h2 and UDP to 9 does not; the ssh rule's
# deny wins by its priority; the verdict registers and each entry's
# counter count what they decided.
. "$(dirname "$0")/lib.sh"

prog=$(cd "$(dirname "$0")/../.." && pwd)/build/compiler/firewall
export INTROSPECTION=$prog
ACL="tc p4 create firewall/table/cb/acl"
cap=$(mktemp)
caperr=$(mktemp)

cleanup() {
	for p in p1 p2; do
		ip link del $p 2>/dev/null
	done
	for ns in h1 h2; do
		ip netns del $ns 2>/dev/null
	done
	tc p4template del pipeline/firewall 2>/dev/null
	rm -f "$cap" "$caperr"
}
trap cleanup EXIT

two_hosts 10.50.0

expect_ok "load the program" tc -b "$prog/firewall.tc"
for d in p1 p2; do
	tc qdisc add dev $d clsact
	expect_ok "bind on $d" tc filter add dev $d ingress prio 1 p4 pname firewall
done
expect_ok "p1 to p2" tc p4 create firewall/table/cb/ports port p1 \
	action firewall/cb/forward param port p2
expect_ok "p2 to p1" tc p4 create firewall/table/cb/ports port p2 \
	action firewall/cb/forward param port p1
expect_ok "ICMP: permit (prio 20)" $ACL protocol 1 prio 20 action firewall/cb/permit
expect_ok "DNS from h1: permit (prio 30)" $ACL srcAddr 10.50.0.1 protocol 17 \
	dstPort 53 prio 30 action firewall/cb/permit
expect_ok "ssh from the /24: permit (prio 10)" $ACL srcAddr 10.50.0.0/24 \
	protocol 6 dstPort 22 prio 10 action firewall/cb/permit
expect_ok "ssh from h1: deny (prio 5)" $ACL srcAddr 10.50.0.1 protocol 6 \
	dstPort 22 prio 5 action firewall/cb/deny

expect_ok "h1 pings h2 (ARP passes, ICMP permitted)" \
	ip netns exec h1 ping -c 3 -W 2 10.50.0.2

# udp DPORT: does a datagram from h1 to h2's port DPORT reach h2?
udp_reaches() {
	capture h2 x2 "udp port $1"
	ip netns exec h1 bash -c "echo firewall >/dev/udp/10.50.0.2/$1"
	capture_wait
	grep -q "10.50.0.1.[0-9]* > 10.50.0.2.$1: " "$cap"
}
udp_reaches 53 || fail "UDP to 53 from h1 did not reach h2: $(cat "$cap" "$caperr")"
udp_reaches 9 && fail "UDP to 9 reached h2: the ACL's miss must deny"
# TCP to 22 from h1: the prio 5 deny wins over the prio 10 permit
capture h2 x2 "tcp port 22"
ip netns exec h1 timeout 3 bash -c "echo >/dev/tcp/10.50.0.2/22" 2>/dev/null
capture_wait
grep -q "10.50.0.1.* > 10.50.0.2.22:" "$cap" &&
	fail "a TCP SYN to 22 from h1 reached h2: the prio 5 deny must win"

# reg INDEX: element INDEX of the verdicts register
reg() {
	tc p4template get register/firewall/verdicts |
		sed -n "s/.*index $1 value \([0-9]*\).*/\1/p"
}
# permitted: 3 echo requests and 3 replies, the UDP to 53 and the ICMP
# port unreachable h2 answers it with (no DNS server there); denied: the
# UDP to 9 and the SYN to 22 (retransmitted within the 3 s: at least 1)
n=$(reg 0)
[ "$n" = 8 ] || fail "verdicts[0] (permitted) is '$n', expected 8"
n=$(reg 1)
[ "$n" -ge 2 ] 2>/dev/null || fail "verdicts[1] (denied) is '$n', expected 2 or more"
j=$(tc -s -j p4 get firewall/table/cb/acl protocol 1 prio 20)
n=$(json_get "$j" 'j[1]["entries"][0]["stats"]["packets"]')
[ "$n" = 7 ] || fail "the ICMP entry counted '$n' packets, expected 7"
j=$(tc -s -j p4 get firewall/table/cb/acl srcAddr 10.50.0.1 protocol 6 dstPort 22 prio 5)
n=$(json_get "$j" 'j[1]["entries"][0]["stats"]["packets"]')
[ "$n" -ge 1 ] 2>/dev/null || fail "the ssh deny entry counted '$n' packets, expected 1 or more"

finish
