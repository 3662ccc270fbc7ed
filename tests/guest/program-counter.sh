#!/bin/bash
# The register counters of tests/programs/counter/ on real packets: host
# sa sends ICMP, TCP, UDP and ARP packets crafted by scapy to b0, whose
# ingress runs the program; the registers must count each class's packets
# and bytes.  Malformed IPv4 (an IHL below 5, a header cut short) is
# rejected by the parse graph before the program runs: counted by the
# filter's parser_rejects, in no register; a header with options is
# parsed at its length and counted by its protocol.
. "$(dirname "$0")/lib.sh"

# the program as p4tc-compile made it of tests/programs/counter/counter.p4
prog=$(cd "$(dirname "$0")/../.." && pwd)/build/compiler/counter

cleanup() {
	ip netns del sa 2>/dev/null
	ip link del b0 2>/dev/null
	tc p4template del pipeline/counter 2>/dev/null
}
trap cleanup EXIT

ip netns add sa
ip link add a0 netns sa type veth peer name b0
ip netns exec sa sysctl -qw net.ipv6.conf.all.disable_ipv6=1
sysctl -qw net.ipv6.conf.b0.disable_ipv6=1
ip -n sa link set a0 up
ip link set b0 up

expect_ok "load the counters" tc -b "$prog/counter.tc"
tc qdisc add dev b0 clsact
expect_ok "bind" tc filter add dev b0 ingress prio 1 p4 pname counter \
	action gact drop

ip netns exec sa /usr/bin/python3 - <<'PY' || fail "scapy could not send"
from scapy.packet import Raw
from scapy.layers.l2 import Ether, ARP
from scapy.layers.inet import IP, TCP, UDP, ICMP
from scapy.sendrecv import sendp
mac = open("/sys/class/net/a0/address").read().strip()
e = Ether(src=mac, dst="02:00:00:00:00:02")
ip = IP(src="10.11.0.1", dst="10.11.0.2")
# type 0x800 by hand: over Raw, scapy would not say IPv4
e4 = Ether(src=mac, dst="02:00:00:00:00:02", type=0x800)
bad_ihl = bytearray(bytes(ip / UDP(dport=53)))
bad_ihl[0] = 0x44
short = bytes(ip / UDP(dport=53))[:12]
opts = IP(src="10.11.0.1", dst="10.11.0.2", options=b"\x01\x01\x01\x00")
sendp([e / ip / ICMP() / Raw(b"x" * 10)] * 3 +
      [e / ip / TCP(dport=80)] * 2 + [e / opts / TCP(dport=80)] +
      [e / ip / UDP(dport=53) / Raw(b"y" * 20)] * 4 +
      [Ether(src=mac, dst="ff:ff:ff:ff:ff:ff") / ARP(pdst="10.11.0.2")] +
      [e4 / Raw(bytes(bad_ihl)), e4 / Raw(short)],
      iface="a0", verbose=False)
PY

# reg NAME INDEX: the value of element INDEX
reg() {
	tc p4template get "register/counter/$1" |
		sed -n "s/.*index $2 value \([0-9]*\).*/\1/p"
}
for want in "0 3" "1 3" "2 4" "3 1"; do
	set -- $want
	n=$(reg pkts "$1")
	[ "$n" = "$2" ] || fail "pkts[$1] is '$n', expected $2"
done
# every packet of a class has the same length
icmp=$(reg bytes 0) udp=$(reg bytes 2)
[ "$icmp" -gt 0 ] 2>/dev/null && [ $((icmp % 3)) = 0 ] ||
	fail "bytes[0] is '$icmp', expected three equal ICMP packets"
[ "$udp" -gt 0 ] 2>/dev/null && [ $((udp % 4)) = 0 ] &&
	[ $((udp / 4 - icmp / 3)) = 10 ] ||
	fail "bytes[2] is '$udp': four UDP packets, 10 bytes longer than ICMP's"
n=$(p4_filter_stat b0 1 parser_rejects)
[ "$n" = 2 ] || fail "parser rejects: '$n', expected the 2 malformed frames"

finish
