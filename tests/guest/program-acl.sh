#!/bin/bash
# The 5-tuple ACL of tests/programs/acl/ on real packets: host sa
# (10.11.0.1 on a0) sends TCP, UDP and ICMP packets crafted by scapy to
# b0, whose ingress runs the ACL and then, for what it allows, a matchall
# that counts.  Checked: the lowest priority number wins among matching
# entries, masks on addresses and exact protocol and ports, a miss is
# denied, and each entry counts the packets it decided.
. "$(dirname "$0")/lib.sh"

# the program as p4tc-compile made it of tests/programs/acl/acl.p4
prog=$(cd "$(dirname "$0")/../.." && pwd)/build/compiler/acl
export INTROSPECTION=$prog
RT="tc p4 create acl/table/cb/acl"
RG="tc p4 get acl/table/cb/acl"

cleanup() {
	ip netns del sa 2>/dev/null
	ip link del b0 2>/dev/null
	tc p4template del pipeline/acl 2>/dev/null
}
trap cleanup EXIT

ip netns add sa
ip link add a0 netns sa type veth peer name b0
ip netns exec sa sysctl -qw net.ipv6.conf.all.disable_ipv6=1
sysctl -qw net.ipv6.conf.b0.disable_ipv6=1
ip -n sa addr add 10.11.0.1/24 dev a0
ip -n sa link set a0 up
ip link set b0 up

expect_ok "load the ACL" tc -b "$prog/acl.tc"
tc qdisc add dev b0 clsact
expect_ok "bind" tc filter add dev b0 ingress prio 1 p4 pname acl \
	action gact continue
expect_ok "allowed counter" tc filter add dev b0 ingress prio 2 matchall \
	action gact drop

expect_ok "ssh from sa: prio 5" $RT srcAddr 10.11.0.1 protocol 6 dstPort 22 \
	prio 5 action acl/cb/allow
expect_ok "dns from anyone: prio 10" $RT protocol 17 dstPort 53 prio 10 \
	action acl/cb/allow
expect_ok "nothing else from the /24: prio 20" $RT srcAddr 10.11.0.0/24 \
	prio 20 action acl/cb/deny
expect_ok "high ports from 10.99/16 to .2: prio 30" $RT srcAddr 10.99.0.0/16 \
	dstAddr 10.11.0.2 protocol 6 dstPort 0x8000/0x8000 prio 30 \
	action acl/cb/allow

ip netns exec sa /usr/bin/python3 - <<'EOF' || fail "scapy could not send"
from scapy.layers.l2 import Ether
from scapy.layers.inet import IP, TCP, UDP, ICMP
from scapy.sendrecv import sendp
mac = open("/sys/class/net/a0/address").read().strip()
e = Ether(src=mac, dst="02:00:00:00:00:02")
me, other, to = "10.11.0.1", "10.99.1.1", "10.11.0.2"
sendp([e / IP(src=me, dst=to) / TCP(dport=22),      # prio 5 (and 20)
       e / IP(src=me, dst=to) / UDP(dport=53),      # prio 10 (and 20)
       e / IP(src=other, dst=to) / UDP(dport=53),   # prio 10
       e / IP(src=me, dst=to) / TCP(dport=80),      # prio 20: denied
       e / IP(src=me, dst=to) / ICMP(),             # prio 20: denied
       e / IP(src=other, dst=to) / TCP(dport=40000),  # prio 30
       e / IP(src=other, dst=to) / TCP(dport=80),   # miss: denied
       e / IP(src=other, dst="10.11.0.3") / TCP(dport=40000)],  # miss
      iface="a0", verbose=False)
EOF

# hits PRIO: the packets the entry of PRIO decided
hits() {
	local j
	j=$(tc -s -j p4 get acl/table/cb/acl)
	json_get "$j" "[e for e in j[1]['entries'] if e['prio'] == $1][0]['stats']['packets']"
}
for want in "5 1" "10 2" "20 2" "30 1"; do
	set -- $want
	n=$(hits "$1")
	[ "$n" = "$2" ] || fail "entry prio $1 decided '$n' packets, expected $2"
done
n=$(action_packets b0 2)
[ "$n" = 4 ] || fail "the ACL let '$n' packets through, expected 4"
n=$(p4_filter_stat b0 1 pkts)
[ "$n" = 8 ] || fail "the ACL ran on '$n' packets, expected 8"

# Malformed TCP: a data offset below 5 and a header cut short are parser
# rejects, dropped before the ACL; ssh with TCP options (data offset 6)
# is parsed at its length and allowed by the prio 5 entry.
ip netns exec sa /usr/bin/python3 - <<'EOF' || fail "scapy could not send"
from scapy.packet import Raw
from scapy.layers.l2 import Ether
from scapy.layers.inet import IP, TCP
from scapy.sendrecv import sendp
mac = open("/sys/class/net/a0/address").read().strip()
e = Ether(src=mac, dst="02:00:00:00:00:02")
ip = IP(src="10.11.0.1", dst="10.11.0.2", proto=6)
bad = bytearray(bytes(TCP(dport=22)))
bad[12] = 0x40
sendp([e / ip / Raw(bytes(bad)), e / ip / Raw(bytes(TCP(dport=22))[:8]),
       e / ip / TCP(dport=22, options=[("NOP", None)] * 4)],
      iface="a0", verbose=False)
EOF
n=$(hits 5)
[ "$n" = 2 ] || fail "ssh with TCP options: prio 5 decided '$n' packets in all, expected 2"
n=$(p4_filter_stat b0 1 parser_rejects)
[ "$n" = 2 ] || fail "the parse graph rejected '$n' packets, expected 2"
n=$(action_packets b0 2)
[ "$n" = 5 ] || fail "the ACL let '$n' packets through in all, expected 5"

expect_err "an entry identical in key, mask and priority" 255 "exist" \
	$RT srcAddr 10.11.0.0/24 prio 20 action acl/cb/deny
expect_ok "get by key and priority" $RG srcAddr 10.11.0.0/24 prio 20

finish
