#!/bin/bash
# Upstream-style samples that p4tc-compile compiles (tests/compiler/
# upstream/, their scripts the goldens the host test checks), on real
# packets: what the compiler lowers beyond one command per statement.
#
# - checksum.p4: h1 and h2 (one subnet, static neighbours: the parser
#   rejects ARP) through p1/p2; each port's entry rewrites the MACs,
#   takes one off the TTL and sends to the other port; the deparser's
#   InternetChecksum recomputes the IPv4 header checksum.  A ping that
#   comes back proves the checksum right (Linux drops an IPv4 packet
#   with a bad one); h2 sees TTL 63.
# - calculator.p4: frames of EtherType 0x1234 from h1 go back to h1 with
#   the result of their operation (const entries on the operation, local
#   variables, actions calling actions, shifts and slices); a frame of
#   another version is dropped; the const entries cannot be deleted.
# - signed_arith.p4: frames of EtherType 0x5001 from h1 go back with what
#   P4-16 says of their int<8> and int<16> fields (signed comparisons,
#   >> shifting the sign in, sign-extending casts, a table keyed on an
#   int<8> whose action takes one), checked against Python's integers
#   for values at the edges (-128, -1, 0, 127) and between; a keyless
#   table's default action stamps the frame, and stamps it otherwise
#   once the control plane changed it.
# - header_stack_example.p4: a QinQ frame fills the two-tag stack and
#   goes by the pair's entry, a one-tag frame by its own, a third tag is
#   past the stack: rejected.
# - ipip.p4: h1 to h2 through an IPv4-in-IPv4 tunnel (t1/t2): p1 pushes
#   the outer header (setValid, a header copy), t2 pops it (setInvalid);
#   in the tunnel, the outer header's checksum (computed in the
#   deparser) is right and its protocol 4.
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
export INTROSPECTION=$top/tests/compiler/golden
cap=$(mktemp)
caperr=$(mktemp)

cleanup() {
	for p in p1 p2 t1; do
		ip link del $p 2>/dev/null
	done
	for ns in h1 h2; do
		ip netns del $ns 2>/dev/null
	done
	for p in checksum calculator signed_arith header_stack_example ipip; do
		tc p4template del pipeline/$p 2>/dev/null
	done
	rm -f "$cap" "$caperr"
}
trap cleanup EXIT

two_hosts 10.62.0
mac1=$(ip netns exec h1 cat /sys/class/net/x1/address)
mac2=$(ip netns exec h2 cat /sys/class/net/x2/address)
ip -n h1 neigh add 10.62.0.2 lladdr 02:00:00:00:62:02 dev x1
ip -n h2 neigh add 10.62.0.1 lladdr 02:00:00:00:62:01 dev x2
for d in p1 p2; do
	tc qdisc add dev $d clsact
done

# bind PROG DEV...: PROG's filter on the ingress of each DEV (replacing
# the one before)
bind() {
	local p=$1 d
	shift
	for d in "$@"; do
		tc filter del dev "$d" ingress 2>/dev/null
		expect_ok "$p on $d" tc filter add dev "$d" ingress prio 1 p4 pname "$p"
	done
}

# --- checksum -----------------------------------------------------------
expect_ok "load checksum" tc -b "$INTROSPECTION/checksum.tc"
bind checksum p1 p2
T="tc p4 create checksum/table/ingress/fwd_table"
expect_ok "p1 to p2" $T port p1 action checksum/ingress/send_nh \
	param port_id p2 param dmac "$mac2" param smac 02:00:00:00:62:01
expect_ok "p2 to p1" $T port p2 action checksum/ingress/send_nh \
	param port_id p1 param dmac "$mac1" param smac 02:00:00:00:62:02
expect_ok "h1 pings h2 (the checksums are right)" \
	ip netns exec h1 ping -c 2 -W 2 10.62.0.2
capture h2 x2 -v -Q in icmp
ip netns exec h1 ping -c 1 -W 2 10.62.0.2 >/dev/null 2>&1
capture_wait
grep -q "ttl 63," "$cap" || fail "checksum: h2 did not see TTL 63: $(cat "$cap")"
grep -q "bad cksum" "$cap" && fail "checksum: a bad checksum: $(cat "$cap")"
j=$(tc -s -j p4 get checksum/table/ingress/fwd_table port p1)
n=$(json_get "$j" 'j[1]["entries"][0]["stats"]["packets"]')
[ "$n" -ge 3 ] 2>/dev/null || fail "checksum: p1's entry counted '$n' packets, expected 3 or more"
tc filter del dev p1 ingress
tc filter del dev p2 ingress
expect_ok "checksum deleted" tc p4template del pipeline/checksum

# --- calculator ---------------------------------------------------------
expect_ok "load calculator" tc -b "$INTROSPECTION/calculator.tc"
bind calculator p1
expect_err "a const entry cannot be deleted" 255 "Table permissions forbid deleting entries" \
	tc p4 del calculator/table/MainControlImpl/calculate op 43
expect_err "a table of const entries takes no other" 255 "Table permissions forbid" \
	tc p4 create calculator/table/MainControlImpl/calculate op 42 \
	action calculator/MainControlImpl/operation_add
out=$(ip netns exec h1 /usr/bin/python3 - 2>&1 <<'PY'
import struct
from scapy.layers.l2 import Ether
from scapy.packet import Raw
from scapy.sendrecv import srp1
mac = open("/sys/class/net/x1/address").read().strip()
a, b = 0x12345678, 0x0000ff0f
for op, ver in ((b"+", 1), (b"-", 1), (b"&", 1), (b"|", 1), (b"^", 1),
                (b"<", 1), (b"+", 2), (b"*", 1)):
    body = b"P4" + bytes([ver]) + op + struct.pack("!III", a, b, 0)
    req = Ether(src=mac, dst="02:00:00:00:62:99", type=0x1234) / Raw(body)
    r = srp1(req, iface="x1", timeout=2, verbose=False)
    if r is None:
        print(op.decode(), ver, "none")
        continue
    raw = bytes(r)
    print(op.decode(), ver, "%08x" % struct.unpack("!I", raw[26:30])[0],
          r.src, r.dst)
PY
)
for w in "+ 1 12355587" "- 1 12335769" "& 1 00005608" "| 1 1234ff7f" \
	"^ 1 1234a977" "< 1 2345678f"; do
	grep -q "^$w 02:00:00:00:62:99 $mac1\$" <<<"$out" ||
		fail "calculator: no '$w' back with the MACs swapped: $out"
done
grep -q "^+ 2 none" <<<"$out" || fail "calculator: version 2 was not dropped: $out"
grep -q "^\* 1 none" <<<"$out" || fail "calculator: an unknown operation was not dropped: $out"
tc filter del dev p1 ingress
expect_ok "calculator deleted" tc p4template del pipeline/calculator

# --- signed_arith -------------------------------------------------------
expect_ok "load signed_arith" tc -b "$INTROSPECTION/signed_arith.tc"
bind signed_arith p1
out=$(tc p4 get signed_arith/table/MainControlImpl/adjust 2>&1)
grep -q "key sig.a -1$" <<<"$out" && grep -q "param d type int8 value -5 " <<<"$out" ||
	fail "signed_arith: the const entry is not shown as key -1, param -5: $out"
# A raw socket, not scapy: its import alone takes ~20 s here.
# signed.py STAMP [A B W [SRC]]: the frames (all the cases, or one, from
# SRC), the keyless table's stamp expected in each; from the source the
# parser rejects, no answer is expected.
signed_py=$(mktemp)
cat >"$signed_py" <<'PY'
import socket, struct, sys

def s8(x):
    x &= 0xff
    return x - 0x100 if x & 0x80 else x

def s16(x):
    x &= 0xffff
    return x - 0x10000 if x & 0x8000 else x

stamp = int(sys.argv[1])


def expected(a, b, w):
    f = (a < 0) | (a >= b) << 1 | (a <= -100) << 2 | ((a & 0xff) > 127) << 3 \
        | (w > -1000) << 4 | (s8(a - b) < -3) << 5 | (a == -128) << 6 \
        | (b < w) << 7
    delta = {-1: -5, 100: 27}.get(a, 0)
    return (a, b, w, f, a >> 2, a, max(min(a, b), -50), s8(a - b) >> 1, (a + b) >> 1,
            s8(-a), s8(b + delta), w >> 9, stamp,
            1 if b == -128 else 2 if b in (0, 1) else 3, s8(a - 1), abs(b) & 0xff)

FMT = "!bbhBbhbbhbbhbBbB"
mac = bytes.fromhex(open("/sys/class/net/x1/address").read().strip().replace(":", ""))
peer = bytes.fromhex("020000006299")
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x5001))
s.bind(("x1", 0))
s.settimeout(2)
cases = [(-128, 127, -32768), (127, -128, 32767), (-1, 0, -1000), (0, -1, -999),
         (-100, -99, 1), (-101, 5, -1001), (100, 99, 300), (-3, 0, -512),
         (5, 9, 511), (-7, -4, 512), (64, -64, -32767), (-1, -1, 0)]
if len(sys.argv) > 2:
    cases = [tuple(int(x) for x in sys.argv[2:5])]
if len(sys.argv) > 5:
    mac = bytes.fromhex(sys.argv[5].replace(":", ""))
bad = 0
for a, b, w in cases:
    body = struct.pack(FMT, a, b, w, *[0] * 13)
    s.send(peer + mac + struct.pack("!H", 0x5001) + body)
    while True:
        try:
            raw, addr = s.recvfrom(2048)
        except socket.timeout:
            raw = None
            break
        if addr[2] != socket.PACKET_OUTGOING:
            break
    if raw is None:
        if len(sys.argv) <= 5:
            print("no answer to", (a, b, w))
            bad += 1
        continue
    if len(sys.argv) > 5:
        print("an answer from the rejected source")
        bad += 1
        continue
    got = struct.unpack(FMT, raw[14:34])
    want = expected(a, b, w)
    if got != want or raw[:12] != mac + peer:
        print("for", (a, b, w), "got", got, "want", want, raw[:12].hex())
        bad += 1
print("signed cases:", len(cases), "wrong:", bad)
PY
out=$(ip netns exec h1 /usr/bin/python3 "$signed_py" 7 2>&1)
grep -q "^signed cases: 12 wrong: 0$" <<<"$out" || fail "signed_arith: $out"
expect_ok "the keyless table's default action changed" \
	tc p4template update table/signed_arith/MainControlImpl/stamp \
	default_miss_action action signed_arith/MainControlImpl/set_stamp param v -9
out=$(ip netns exec h1 /usr/bin/python3 "$signed_py" -9 -5 3 100 2>&1)
grep -q "^signed cases: 1 wrong: 0$" <<<"$out" ||
	fail "signed_arith: after the default action changed: $out"
out=$(ip netns exec h1 /usr/bin/python3 "$signed_py" -9 -5 3 100 02:00:00:00:00:66 2>&1)
grep -q "^signed cases: 1 wrong: 0$" <<<"$out" ||
	fail "signed_arith: the source its tuple select rejects: $out"
rm -f "$signed_py"
tc filter del dev p1 ingress
expect_ok "signed_arith deleted" tc p4template del pipeline/signed_arith

# --- header stack -------------------------------------------------------
expect_ok "load header_stack_example" tc -b "$INTROSPECTION/header_stack_example.tc"
bind header_stack_example p1
H="tc p4 create header_stack_example/table/MainControlImpl"
expect_ok "QinQ 10/20 to p2" $H/qinq_tbl outer 10 inner 20 \
	action header_stack_example/MainControlImpl/send_to param port p2
expect_ok "VLAN 10 to p2" $H/vlan_tbl vid 10 \
	action header_stack_example/MainControlImpl/send_to param port p2
r0=$(p4_filter_stat p1 1 parser_rejects)
capture h2 x2 -e 'vlan and vlan'
ip netns exec h1 /usr/bin/python3 - "$mac2" <<'PY' || fail "scapy could not send"
import sys
from scapy.layers.l2 import Ether, Dot1Q
from scapy.layers.inet import IP, UDP
from scapy.sendrecv import sendp
e = Ether(dst=sys.argv[1], src=open("/sys/class/net/x1/address").read().strip())
ip = IP(src="10.62.0.1", dst="10.62.0.2") / UDP(dport=9)
sendp([e / Dot1Q(vlan=10) / Dot1Q(vlan=20) / ip,          # the stack full
       e / Dot1Q(vlan=10) / ip,                           # one element
       e / Dot1Q(vlan=10) / Dot1Q(vlan=21) / ip,          # no such pair
       e / Dot1Q(vlan=10) / Dot1Q(vlan=20) / Dot1Q(vlan=30) / ip],  # past it
      iface="x1", verbose=False)
PY
capture_wait
grep -q "vlan 10, .*vlan 20, .*10.62.0.1.* > 10.62.0.2" <<<"$(tr -d '\n' <"$cap")" ||
	fail "header stack: the QinQ frame did not reach h2 with both tags: $(cat "$cap")"
for k in "qinq_tbl outer 10 inner 20" "vlan_tbl vid 10"; do
	set -- $k
	j=$(tc -s -j p4 get "header_stack_example/table/MainControlImpl/$1" "$2" "$3" ${4:+"$4"} ${5:+"$5"})
	n=$(json_get "$j" 'j[1]["entries"][0]["stats"]["packets"]')
	[ "$n" = 1 ] || fail "header stack: $1's entry counted '$n' frames, expected 1"
done
r1=$(p4_filter_stat p1 1 parser_rejects)
[ "$((r1 - r0))" = 1 ] 2>/dev/null ||
	fail "header stack: $((r1 - r0)) frames rejected, expected the one with a third tag"
tc filter del dev p1 ingress
expect_ok "header_stack_example deleted" tc p4template del pipeline/header_stack_example

# --- ipip ---------------------------------------------------------------
ip link add t1 type veth peer name t2
ip link set t1 up
ip link set t2 up
for d in t1 t2; do
	tc qdisc add dev $d clsact
done
expect_ok "load ipip" tc -b "$INTROSPECTION/ipip.tc"
bind ipip p1 p2 t1 t2
T="tc p4 create ipip/table/Main/fwd_table"
expect_ok "p1 pushes into t1" $T port p1 action ipip/Main/set_ipip \
	param src 192.0.2.1 param dst 192.0.2.2 param port t1
expect_ok "t2 pops to p2" $T port t2 action ipip/Main/set_nh \
	param dmac "$mac2" param port p2
expect_ok "p2 pushes into t2" $T port p2 action ipip/Main/set_ipip \
	param src 192.0.2.2 param dst 192.0.2.1 param port t2
expect_ok "t1 pops to p1" $T port t1 action ipip/Main/set_nh \
	param dmac "$mac1" param port p1
expect_ok "h1 pings h2 through the tunnel" ip netns exec h1 ping -c 2 -W 2 10.62.0.2
: >"$caperr"
tcpdump -l -n -v -c 1 -i t2 -Q in 'ip proto 4' >"$cap" 2>"$caperr" &
tpid=$!
for _ in {1..40}; do
	grep -q "listening on" "$caperr" && break
	sleep 0.25
done
ip netns exec h1 ping -c 1 -W 2 10.62.0.2 >/dev/null 2>&1
capture_wait
grep -q "192.0.2.1 > 192.0.2.2: .*10.62.0.1 > 10.62.0.2: ICMP echo request" \
	<<<"$(tr -d '\n' <"$cap")" ||
	fail "ipip: in the tunnel, no 192.0.2.1 > 192.0.2.2 around the ping: $(cat "$cap")"
grep -q "proto IPIP (4)" "$cap" || fail "ipip: the outer protocol is not 4: $(cat "$cap")"
grep -q "bad cksum" "$cap" && fail "ipip: a bad outer checksum: $(cat "$cap")"

finish
