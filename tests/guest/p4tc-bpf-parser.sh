#!/bin/bash
# The p4 classifier's eBPF parsers ("prog tc", "prog xdp"), beside what
# program-router-bpf-tc.sh and -xdp.sh check on packets: what the filter
# dumps (the program's id, name and type, the cookie), what tc and the
# kernel refuse and why, that the parser names headers by their template
# ids, that its buffer exists only for the p4 classifier's run (the same
# program run by act_bpf gets none, and drops), that packets without the
# XDP parser's cookie are dropped and counted (a wrong cookie, the XDP
# program taken off the port), and that the filter holds its program while
# bound and lets go of it with the filter.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
prog=$top/tests/programs/router
compiled=$top/build/compiler/router
obj=$top/build/bpf/router/parser.bpf.o
xobj=$top/build/bpf/router/parser-xdp.bpf.o
export INTROSPECTION=$compiled
pin=/sys/fs/bpf/p4tc-test-parser
. "$prog/hosts.sh"

cleanup() {
	router_hosts_del
	tc p4template del pipeline/router 2>/dev/null
	tc p4template del pipeline/bigid 2>/dev/null
	rm -f "$pin-cls" "$pin-tc" "$pin-xdp"
}
trap cleanup EXIT
mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf

router_hosts
expect_ok "load the router" tc -b "$compiled/router.tc"
tc qdisc add dev b0 clsact
tc qdisc add dev b1 clsact

# the generated parser says ethernet is header 1 and ipv4 header 2
j=$(tc -j p4template get header/router/parser1/)
ids=$(json_get "$j" '",".join("%s=%s" % (t["hdrname"], t["hdrid"]) for t in j[1]["templates"])')
[ "$ids" = "ethernet=1,ipv4=2" ] ||
	fail "the router's header ids are '$ids': the generated parser names ethernet=1,ipv4=2"

# Refusals, each leaving no filter behind
expect_err "skip_sw with an eBPF parser" 2 "skip_sw: an eBPF parser runs in software only" \
	tc filter add dev b0 ingress prio 1 p4 pname router \
	prog tc obj "$obj" section p4tc/parser skip_sw
expect_err "prog_cookie with prog tc" 2 "prog_cookie is for a parser that ran at XDP" \
	tc filter add dev b0 ingress prio 1 p4 pname router \
	prog tc obj "$obj" section p4tc/parser prog_cookie 22
expect_err "a section the object lacks" 1 "unable to load the prog" \
	tc filter add dev b0 ingress prio 1 p4 pname router \
	prog tc obj "$obj" section p4tc/nosuch
expect_err "prog neither tc nor xdp" 1 'prog is "tc" or "xdp", not "lwt"' \
	tc filter add dev b0 ingress prio 1 p4 pname router prog lwt obj "$obj"
# programs of the wrong type: the kernel checks
expect_ok "pin the tc parser" bpftool prog load "$obj" "$pin-tc" type action
expect_ok "pin the XDP parser" bpftool prog load "$xobj" "$pin-xdp" type xdp
expect_err "prog tc: an XDP program" 2 \
	"The eBPF parser's fd is not a program of type BPF_PROG_TYPE_SCHED_ACT" \
	tc filter add dev b0 ingress prio 1 p4 pname router prog tc pinned "$pin-xdp"
expect_err "prog xdp: a tc action program" 2 \
	"The eBPF parser's fd is not a program of type BPF_PROG_TYPE_XDP" \
	tc filter add dev b0 ingress prio 1 p4 pname router \
	prog xdp pinned "$pin-tc" prog_cookie 22
# the kfuncs are the parsers' own: a classifier may not call them
expect_err "a classifier calling bpf_p4tc_get_parser_buffer" 255 \
	"calling kernel function bpf_p4tc_get_parser_buffer is not allowed" \
	bpftool prog load "$obj" "$pin-cls" type classifier
expect_err "prog xdp without a cookie" 2 "A parser at XDP needs a prog_cookie other than 0" \
	tc filter add dev b0 ingress prio 1 p4 pname router prog xdp pinned "$pin-xdp"
expect_err "prog xdp with cookie 0" 2 "A parser at XDP needs a prog_cookie other than 0" \
	tc filter add dev b0 ingress prio 1 p4 pname router \
	prog xdp pinned "$pin-xdp" prog_cookie 0
expect_err "prog xdp with skip_sw" 2 "skip_sw: an eBPF parser runs in software only" \
	tc filter add dev b0 ingress prio 1 p4 pname router \
	prog xdp pinned "$pin-xdp" prog_cookie 22 skip_sw
expect_err "a cookie over 32 bits" 1 "prog_cookie \"4294967296\" is not a 32-bit number" \
	tc filter add dev b0 ingress prio 1 p4 pname router \
	prog xdp pinned "$pin-xdp" prog_cookie 4294967296
n=$(json_get "$(tc -j filter show dev b0 ingress)" 'len(j)')
[ "$n" = 0 ] || fail "refused filters left $n entries on b0: $(tc filter show dev b0 ingress)"

# A header id the parser buffer cannot hold
tc p4template create pipeline/bigid pipeid 46 numtables 0 \
	preactions action gact pipe postactions action gact pipe
expect_ok "a header with id 40" tc p4template create header/bigid/parser1/h hdrid 40 len 14 start
expect_ok "seal bigid" tc p4template update pipeline/bigid state ready
tc qdisc add dev lo clsact
expect_err "a header id over 32" 2 "Header h has id 40: an eBPF parser names headers 1 to 32" \
	tc filter add dev lo ingress prio 1 p4 pname bigid prog tc obj "$obj" section p4tc/parser
expect_ok "bigid without an eBPF parser" tc filter add dev lo ingress prio 1 p4 pname bigid
tc qdisc del dev lo clsact
tc p4template del pipeline/bigid

# The same program as a plain tc action: bpf_p4tc_get_parser_buffer()
# gives it no buffer, so it says shot (its NULL check): act_bpf counts
# the drop.
expect_ok "act_bpf runs the parser" \
	tc filter add dev b0 ingress prio 1 matchall action bpf obj "$obj" sec p4tc/parser
ip netns exec sa ping -c 1 -W 1 10.2.0.1 >/dev/null 2>&1
n=$(json_get "$(tc -s -j filter show dev b0 ingress prio 1)" \
	'[f for f in j if "actions" in f.get("options", {})][0]["options"]["actions"][0]["stats"]["drops"]')
[ "$n" -ge 1 ] 2>/dev/null ||
	fail "act_bpf: the parser outside the p4 classifier dropped '$n' packets, expected 1 or more"
tc filter del dev b0 ingress prio 1

# Bound: the dump shows the program
for d in b0 b1; do
	expect_ok "bind on $d with the eBPF parser" \
		tc filter add dev $d ingress prio 1 p4 pname router \
		prog tc obj "$obj" section p4tc/parser
done
j=$(tc -j filter show dev b0 ingress prio 1)
o=$(json_get "$j" '[f for f in j if "options" in f][0]["options"]')
id=$(json_get "$j" '[f for f in j if "options" in f][0]["options"]["prog_id"]')
grep -q "'prog_type': 'tc'" <<<"$o" || fail "dump: no prog_type tc: $o"
grep -q "'prog_name': 'parser.bpf.o:\[p4tc/parser\]'" <<<"$o" ||
	fail "dump: prog_name is not the object and section: $o"
expect_ok "the program of id $id is loaded" bpftool prog show id "$id"
out=$(tc filter show dev b0 ingress prio 1)
grep -q "prog tc id $id name parser.bpf.o:\[p4tc/parser\]" <<<"$out" ||
	fail "tc filter show: no 'prog tc id $id name ...': $out"

expect_ok "next hops" router_nexthops
expect_ok "route to sc" tc p4 create router/table/cb/fib dstAddr 10.2.0.0/24 \
	action router/cb/set_nh param nh 1
expect_ok "route to sa" tc p4 create router/table/cb/fib dstAddr 10.1.0.0/24 \
	action router/cb/set_nh param nh 2
expect_ok "routed with the eBPF parser" ip netns exec sa ping -c 2 -W 2 10.2.0.1

# At XDP: the parser on b0 writes cookie 22; a filter that wants 23 sees
# none of its packets as parsed, drops them and counts them.
tc filter del dev b0 ingress prio 1
expect_ok "XDP parser on b0" ip link set dev b0 xdpgeneric pinned "$pin-xdp"
expect_ok "bind b0 with prog_cookie 23" tc filter add dev b0 ingress prio 1 p4 pname router \
	prog xdp pinned "$pin-xdp" prog_cookie 23
expect_err "cookie 22 is not 23: dropped" 1 "100% packet loss" \
	ip netns exec sa ping -c 2 -W 1 10.2.0.1
n=$(p4_filter_stat b0 1 cookie_mismatches)
[ "$n" -ge 2 ] 2>/dev/null || fail "cookie mismatches counted '$n', expected 2 or more"
out=$(tc -s filter show dev b0 ingress prio 1)
grep -q "prog xdp id [0-9]* name p4tc-test-parser-xdp:\[\*fsobj\] prog_cookie 23" <<<"$out" ||
	fail "tc filter show: no 'prog xdp id N name ... prog_cookie 23': $out"
grep -q "prog_cookie mismatches $n" <<<"$out" ||
	fail "tc -s filter show: no 'prog_cookie mismatches $n': $out"
expect_ok "replace with prog_cookie 22" tc filter replace dev b0 ingress prio 1 handle 1 p4 pname router \
	prog xdp pinned "$pin-xdp" prog_cookie 22
expect_ok "routed with the XDP parser" ip netns exec sa ping -c 2 -W 2 10.2.0.1
[ "$(p4_filter_stat b0 1 cookie_mismatches)" = 0 ] ||
	fail "the new filter counted cookie mismatches"
# the XDP program taken off the port: nothing parses, all is dropped
expect_ok "XDP off b0" ip link set dev b0 xdpgeneric off
expect_err "no XDP parser: dropped" 1 "100% packet loss" \
	ip netns exec sa ping -c 1 -W 1 10.2.0.1
n=$(p4_filter_stat b0 1 cookie_mismatches)
[ "$n" -ge 1 ] 2>/dev/null || fail "without the XDP parser: cookie mismatches '$n'"
# another program writing the same cookie (a new load of the object) is
# taken: the filter checks the cookie, not which program wrote it
expect_ok "XDP parser loaded again on b0" ip link set dev b0 xdpgeneric obj "$xobj" sec xdp
expect_ok "routed with the new XDP program" ip netns exec sa ping -c 1 -W 2 10.2.0.1
ip link set dev b0 xdpgeneric off

# Deleting the filter lets go of the program
tc filter del dev b0 ingress prio 1
tc filter del dev b1 ingress prio 1
for _ in $(seq 1 20); do
	bpftool prog show id "$id" >/dev/null 2>&1 || break
	sleep 0.25
done
bpftool prog show id "$id" >/dev/null 2>&1 &&
	fail "program $id still loaded after its filters went"

finish
