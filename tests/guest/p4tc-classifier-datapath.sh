#!/bin/bash
# The p4 classifier on real packets.  Host sa (10.11.0.1 on a0) and the
# root namespace (10.11.0.2 on b0) talk over a veth pair; b0 carries the
# pipeline pcls (ethernet, IPv4 with IHL, IPv6 rejected) whose preactions
# apply an LPM route table on the destination:
#   - ingress: a hit runs the entry's action, a miss the default miss
#     action (both leave an skb mark that u32 filters after the p4 filter
#     count); an entry whose action drops ends classification before the
#     filter's own actions;
#   - parse rejects, sent by scapy: IPv6 (a reject transition), IPv4
#     truncated inside its header, IHL below 5, IHL past the packet; the
#     packets are dropped and counted as parser rejects, nothing else runs;
#   - egress: an entry that drops the root namespace's pings to sa;
#   - tc filter replace while pings flow: every ping is processed by one
#     whole filter, the old or the new (its mark says which), none by none.
# Key fields come from tests/introspection/pcls.json.
. "$(dirname "$0")/lib.sh"

export INTROSPECTION
INTROSPECTION=$(cd "$(dirname "$0")/../introspection" && pwd)
P="tc p4template"
H=hdrfield.pcls.parser1
RT="tc p4 create pcls/table/cb/route"
batch=$(mktemp)

cleanup() {
	ip netns del sa 2>/dev/null
	tc qdisc del dev b0 clsact 2>/dev/null
	ip link del b0 2>/dev/null
	$P del pipeline/pcls 2>/dev/null
	rm -f "$batch" "${pings:-}"
}
trap cleanup EXIT

ip netns add sa
ip link add a0 netns sa type veth peer name b0
# IPv4 only on the wire: no IPv6 neighbour discovery to count
ip netns exec sa sysctl -qw net.ipv6.conf.all.disable_ipv6=1
sysctl -qw net.ipv6.conf.b0.disable_ipv6=1
ip -n sa addr add 10.11.0.1/24 dev a0
ip -n sa link set a0 up
ip addr add 10.11.0.2/24 dev b0
ip link set b0 up
# no ARP either
ip -n sa neigh add 10.11.0.2 lladdr "$(cat /sys/class/net/b0/address)" dev a0
ip -n sa neigh add 10.11.0.3 lladdr 02:00:00:00:00:03 dev a0
ip neigh add 10.11.0.1 lladdr "$(ip netns exec sa cat /sys/class/net/a0/address)" dev b0

cat >"$batch" <<EOF
p4template create pipeline/pcls pipeid 30 numtables 1 preactions action gact pipe postactions action gact pipe
p4template create header/pcls/parser1/ethernet len 14 start
p4template create hdrfield/pcls/parser1/ethernet/etherType type be16 offset 96
p4template create hdrfield/pcls/parser1/ipv4/ihl type bit4 offset 4
p4template create hdrfield/pcls/parser1/ipv4/dstAddr type ipv4 offset 128
p4template create header/pcls/parser1/ipv4 len 20 maxlen 60 lenfield ihl lenmult 4
p4template update header/pcls/parser1/ethernet select etherType transition 0x800 ipv4 transition 0x86dd reject default accept
p4template create table/pcls/cb/route tblid 1 keysz 32 type lpm nummasks 8
p4template create action/pcls/cb/setmark param m type bit32 cmd set metadata.kernel.skbmark param.m state active
p4template create action/pcls/cb/dropit cmd ret drop state active
p4template create action/pcls/cb/route_key cmd set key.pcls.cb/route[0-31] $H.ipv4.dstAddr state active
p4template create action/pcls/cb/apply_route cmd tableapply table.pcls.cb/route state active
p4template update table/pcls/cb/route key action pcls/cb/route_key default_miss_action action pcls/cb/setmark param m 1 table_acts act name pcls/cb/setmark act name pcls/cb/dropit
p4template update pipeline/pcls preactions action pcls/cb/apply_route pipe
p4template update pipeline/pcls state ready
EOF
expect_ok "pipeline" tc -b "$batch"

tc qdisc add dev b0 clsact
mark_guard b0 ip netns exec sa ping -c 1 -W 1 10.11.0.2

# prio 1 counts the pings (ICMP), prio 2 is the p4 filter, then one u32
# per mark a test expects
expect_ok "icmp counter" tc filter add dev b0 ingress prio 1 u32 \
	match ip protocol 1 0xff action gact continue
expect_ok "p4 filter" tc filter add dev b0 ingress prio 2 handle 1 p4 \
	pname pcls action gact continue
for m in 1 24 0x100 0x200; do
	expect_ok "mark $m counter" tc filter add dev b0 ingress \
		prio $((10 + $(printf %d "$m") % 1000)) u32 \
		match mark "$m" 0xffffffff action gact ok
done

# count_of DIR PRIO: packets the first action of the filter at PRIO saw
count_of() {
	local j
	j=$(tc -s -j filter show dev b0 "$1" prio "$2")
	json_get "$j" '[f for f in j if "actions" in f.get("options", {})][0]["options"]["actions"][0]["stats"]["packets"]'
}
# mark_count MARK: packets the u32 filter of MARK counted
mark_count() {
	count_of ingress $((10 + $(printf %d "$1") % 1000))
}
# p4_stat DIR KEY: the p4 filter's pkts or parser_rejects
p4_stat() {
	local j
	j=$(tc -s -j filter show dev b0 "$1" prio 2)
	json_get "$j" "[f for f in j if 'options' in f][0]['options']['$2']"
}
# expect_eq DESC GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"
}

# ---- ingress: miss, hit, an entry that drops
expect_ok "ping (miss)" ip netns exec sa ping -c 1 -W 2 10.11.0.2
expect_eq "miss: default miss action's mark" "$(mark_count 1)" 1
expect_ok "route /24" $RT dstAddr 10.11.0.0/24 action pcls/cb/setmark param m 24
expect_ok "ping (hit)" ip netns exec sa ping -c 2 -W 2 10.11.0.2
expect_eq "hit: the entry's mark" "$(mark_count 24)" 2
expect_eq "hit and miss: pipeline runs" "$(p4_stat ingress pkts)" 3
expect_eq "filter action ran for each" "$(count_of ingress 2)" 3
expect_ok "route /32 drops" $RT dstAddr 10.11.0.3/32 action pcls/cb/dropit
ip netns exec sa ping -c 1 -W 1 10.11.0.3 >/dev/null 2>&1
expect_eq "drop: the pipeline ran" "$(p4_stat ingress pkts)" 4
expect_eq "drop: the filter's own action did not" "$(count_of ingress 2)" 3
expect_eq "drop: no mark counted" "$(($(mark_count 1) + $(mark_count 24)))" 3

# ---- parse rejects: dropped, counted, nothing else runs
ip netns exec sa /usr/bin/python3 - <<'EOF' || fail "scapy could not send"
from scapy.packet import Raw
from scapy.layers.l2 import Ether
from scapy.layers.inet import IP, ICMP
from scapy.layers.inet6 import IPv6, ICMPv6EchoRequest
from scapy.sendrecv import sendp
mac = open("/sys/class/net/a0/address").read().strip()
eth = Ether(src=mac, dst="02:00:00:00:00:02")
sendp([eth / IPv6(dst="fe80::2") / ICMPv6EchoRequest(),
       Ether(src=mac, dst="02:00:00:00:00:02", type=0x800) / Raw(b"\x45" * 10),
       eth / IP(dst="10.11.0.2", ihl=4) / ICMP(),
       eth / IP(dst="10.11.0.2", ihl=15) / ICMP(),
       # a good packet last: a hit on the /24
       eth / IP(dst="10.11.0.2") / ICMP()], iface="a0", verbose=False)
EOF
expect_eq "rejects counted" "$(p4_stat ingress parser_rejects)" 4
expect_eq "rejects and the good one ran" "$(p4_stat ingress pkts)" 9
expect_eq "rejects: the filter's action saw the good one only" \
	"$(count_of ingress 2)" 4
expect_eq "rejects: no mark" "$(mark_count 24)" 3

# ---- egress: the root namespace's pings to sa
expect_ok "egress p4 filter" tc filter add dev b0 egress prio 2 handle 1 p4 \
	pname pcls action gact ok
expect_ok "egress ping" ping -c 1 -W 2 10.11.0.1
expect_ok "route to sa drops" $RT dstAddr 10.11.0.1/32 action pcls/cb/dropit
expect_err "egress ping dropped" 1 "100% packet loss" ping -c 1 -W 1 10.11.0.1
expect_ok "route to sa goes" tc p4 del pcls/table/cb/route dstAddr 10.11.0.1/32
expect_ok "egress ping again" ping -c 1 -W 2 10.11.0.1
n=$(p4_stat egress pkts)
[ "$n" -ge 3 ] 2>/dev/null || fail "egress: pipeline runs '$n', expected 3 or more"
expect_ok "egress filter del" tc filter del dev b0 egress prio 2

# ---- replace while pings flow: each ping is marked by one whole filter
before=$(count_of ingress 1)
b100=$(mark_count 0x100) b200=$(mark_count 0x200)
b1=$(mark_count 1) b24=$(mark_count 24) bp4=$(p4_stat ingress pkts)
pings=$(mktemp)
ip netns exec sa ping -q -c 400 -i 0.02 -W 1 10.11.0.2 >"$pings" 2>&1 &
pid=$!
n=0
while kill -0 "$pid" 2>/dev/null || [ "$n" -lt 4 ]; do
	m=$((n % 2 ? 0x200 : 0x100))
	tc filter replace dev b0 ingress prio 2 handle 1 p4 pname pcls \
		action pcls/cb/setmark param m "$m" pipe action gact continue ||
		fail "replace $n"
	n=$((n + 1))
done
wait "$pid" || fail "pings lost while the filter was replaced: $(cat "$pings")"
sent=$(($(count_of ingress 1) - before))
marked=$(($(mark_count 0x100) - b100 + $(mark_count 0x200) - b200))
[ "$sent" -ge 400 ] || fail "replace: $sent pings crossed, expected 400"
# what the unmarked ones met, should there be any: the pipeline's runs,
# the marks its entry and its miss give, and ping's own count
[ "$marked" = "$sent" ] ||
	fail "replace ($n times): $sent pings crossed, $marked marked by one filter or the other; the pipeline ran $(($(p4_stat ingress pkts) - bp4)) times; marks: entry $(($(mark_count 24) - b24)), miss $(($(mark_count 1) - b1)); ping: $(grep -o '[0-9]* received.*loss' "$pings")"
rm -f "$pings"

# ---- unbinding: the pipeline goes once its filter does
expect_err "bound pipeline" 255 "Can't delete referenced pipeline" $P del pipeline/pcls
expect_ok "filter del" tc filter del dev b0 ingress prio 2
expect_ok "pipeline del" $P del pipeline/pcls

finish
