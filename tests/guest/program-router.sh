#!/bin/bash
# The IPv4 router of tests/programs/router/ on real packets: host sa
# (10.1.0.1/24 on a0) and host sc (10.2.0.1/24 on c0) reach each other
# through b0 and b1, which run the router (p4 filters on both ingresses,
# one pipeline).  Checked: pings routed both ways; on c0, tcpdump sees the
# routed packet with TTL decremented, the next hop's MACs and a good IPv4
# checksum; TTL expiry drops; the longest prefix wins; a missing route or
# next hop drops; per-entry counters count; malformed headers are
# rejected; a frame whose headers are in paged data is routed.
# ROUTER_PARSER=tc runs it all with the router's eBPF parser in the parse
# graph's place (program-router-bpf-tc.sh), ROUTER_PARSER=xdp with its
# eBPF parser at XDP (program-router-bpf-xdp.sh).
. "$(dirname "$0")/lib.sh"

prog=$(cd "$(dirname "$0")/../programs/router" && pwd)
# the router as p4tc-compile made it of router.p4 (make compiled)
tcdir=$(cd "$prog/../../.." && pwd)/build/compiler/router
export INTROSPECTION=$tcdir
RT="tc p4 create router/table/cb"
cap=$(mktemp)
caperr=$(mktemp)

. "$prog/hosts.sh"

# what the p4 filters say after "pname router"
P4_PARSER_ARGS=()
case ${ROUTER_PARSER:-graph} in
graph) ;;
tc) P4_PARSER_ARGS=(prog tc obj "$prog/../../../build/bpf/router/parser.bpf.o"
		section p4tc/parser) ;;
xdp) pin=/sys/fs/bpf/p4tc-router-xdp
	P4_PARSER_ARGS=(prog xdp pinned "$pin" prog_cookie 22) ;;
*) fail "ROUTER_PARSER is graph or tc, not '$ROUTER_PARSER'"; finish ;;
esac

cleanup() {
	router_hosts_del
	[ "${ROUTER_PARSER:-graph}" != xdp ] || rm -f "$pin"
	tc p4template del pipeline/router 2>/dev/null
	rm -f "$cap" "$caperr"
}
trap cleanup EXIT

router_hosts
if [ "${ROUTER_PARSER:-graph}" = xdp ]; then
	mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf
	rm -f "$pin"
	expect_ok "load the XDP parser" bpftool prog load \
		"$prog/../../../build/bpf/router/parser-xdp.bpf.o" "$pin" type xdp
	for d in b0 b1; do
		expect_ok "XDP parser on $d" ip link set dev $d xdpgeneric pinned "$pin"
	done
fi
expect_ok "load the router" tc -b "$tcdir/router.tc"
for d in b0 b1; do
	tc qdisc add dev $d clsact
	expect_ok "bind on $d" tc filter add dev $d ingress prio 1 p4 pname router \
		"${P4_PARSER_ARGS[@]}"
done

expect_err "no route: dropped" 1 "100% packet loss" \
	ip netns exec sa ping -c 1 -W 1 10.2.0.1
expect_ok "next hops" router_nexthops
expect_ok "route to sc" $RT/fib dstAddr 10.2.0.0/24 action router/cb/set_nh param nh 1
expect_ok "route to sa" $RT/fib dstAddr 10.1.0.0/24 action router/cb/set_nh param nh 2

expect_ok "ping routed both ways" ip netns exec sa ping -c 2 -W 2 10.2.0.1

capture sc c0 -e -v icmp
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

# Replace the filters while pings flow: each packet is routed by the old
# filter or the new one, never by a half-built one, so none is lost.
replace_under_pings router 8 sa 10.2.0.1 100 b0 b1

# Malformed and truncated IPv4: an IHL below 5 and a header cut short are
# rejected by the parse graph (counted, dropped); a header with options
# (IHL 6) is parsed at its length and routed.  tcpdump on c0 sees only it.
r0=$(p4_filter_stat b0 1 parser_rejects)
capture sc c0 -v udp
ip netns exec sa /usr/bin/python3 - "$(mac b0)" <<'PYEOF' || fail "scapy could not send"
import sys
from scapy.packet import Raw
from scapy.layers.l2 import Ether
from scapy.layers.inet import IP, UDP
from scapy.sendrecv import sendp
# type 0x800 by hand: over Raw, scapy would not say IPv4
eth = Ether(dst=sys.argv[1], src=open("/sys/class/net/a0/address").read().strip(),
            type=0x800)
ip = IP(src="10.1.0.1", dst="10.2.0.1", ttl=9)
bad_ihl = bytearray(bytes(ip / UDP(sport=40000, dport=40000)))
bad_ihl[0] = 0x44
short = bytes(ip / UDP(sport=40001, dport=40001))[:12]
opts = IP(src="10.1.0.1", dst="10.2.0.1", ttl=9, options=b"\x01\x01\x01\x00")
sendp([eth / Raw(bytes(bad_ihl)), eth / Raw(short),
       eth / opts / UDP(sport=40002, dport=40002)], iface="a0", verbose=False)
PYEOF
capture_wait
out=$(cat "$cap")
grep -q "ttl 8,.*options (NOP,NOP,NOP,EOL)" <<<"$out" &&
	grep -q "10.1.0.1.40002 > 10.2.0.1.40002" <<<"$out" ||
	fail "the IPv4 header with options was not routed (TTL 9 -> 8): $out"
r1=$(p4_filter_stat b0 1 parser_rejects)
[ "$((r1 - r0))" = 2 ] 2>/dev/null ||
	fail "parser rejects went from '$r0' to '$r1', expected 2 more"

# A frame over a page: a packet socket sends it as its MAC header in the
# skb's head and the rest in pages, so the IPv4 fields the program reads
# and writes are not in the head.  The general path reaches them (and
# pulls them in to write them): routed as any other, TTL 9 -> 8, a good
# checksum.
ip -n sa link set a0 mtu 9000
ip -n sc link set c0 mtu 9000
ip link set b0 mtu 9000
ip link set b1 mtu 9000
capture sc c0 -v udp port 40003
ip netns exec sa /usr/bin/python3 - "$(mac b0)" <<'PYEOF' || fail "scapy could not send"
import sys
from scapy.packet import Raw
from scapy.layers.l2 import Ether
from scapy.layers.inet import IP, UDP
from scapy.sendrecv import sendp
eth = Ether(dst=sys.argv[1], src=open("/sys/class/net/a0/address").read().strip())
sendp(eth / IP(src="10.1.0.1", dst="10.2.0.1", ttl=9) /
      UDP(sport=40003, dport=40003) / Raw(b"x" * 6000), iface="a0", verbose=False)
PYEOF
capture_wait
out=$(cat "$cap")
grep -q "ttl 8,.*length 6028" <<<"$out" &&
	grep -q "10.1.0.1.40003 > 10.2.0.1.40003" <<<"$out" ||
	fail "the 6042-byte frame was not routed (TTL 9 -> 8): $out"
grep -q "bad cksum" <<<"$out" && fail "the 6042-byte frame: IPv4 checksum wrong: $out"

finish
