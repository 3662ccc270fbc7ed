#!/bin/bash
# The eBPF datapath with P4TC tables (seed mode 2): the router's
# datapath.bpf.c, bound as act_bpf under matchall (and as a cls_bpf
# classifier), reads the router's tables with bpf_p4tc_tbl_read().  Beside
# the router's corpus (the equivalence suite's bpf-dp placement): the ids
# the program names are router.tc's; routes added with tc p4 route; an
# entry the datapath may not execute (no X permission) does not match, as
# in tableapply; the entries' counters count the program's hits; a
# pipeline deleted under the program makes its reads fail (dropped, no
# splat).
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
prog=$top/tests/programs/router
compiled=$top/build/compiler/router
obj=$top/build/bpf/router/datapath.bpf.o
export INTROSPECTION=$compiled
. "$prog/hosts.sh"
RT="tc p4 create router/table/cb"

cleanup() {
	router_hosts_del
	tc p4template del pipeline/router 2>/dev/null
}
trap cleanup EXIT

router_hosts
expect_ok "load the router" tc -b "$compiled/router.tc"

# datapath.bpf.c names pipeline 40, tables fib=1 nexthop=2 and actions
# set_nh=1 drop=2 forward=3
j=$(tc -j p4template get pipeline/router)
[ "$(json_get "$j" 'j[0]["pipeid"]')" = 40 ] || fail "router's pipeid is not 40: $j"
j=$(tc -j p4template get table/router/)
ids=$(json_get "$j" '",".join("%s=%s" % (t["tname"], t["tblid"]) for t in j[1]["templates"])')
[ "$ids" = "cb/fib=1,cb/nexthop=2" ] || fail "router's table ids are '$ids'"
j=$(tc -j p4template get action/router/)
for a in set_nh=1 drop=2 forward=3; do
	json_get "$j" '["%s=%s" % (t["aname"].split("/")[-1], t["actid"]) for t in j[1]["templates"]]' |
		grep -q "'$a'" || fail "router's actions: no $a in $j"
done

for d in b0 b1; do
	tc qdisc add dev $d clsact
	expect_ok "the eBPF datapath on $d" tc filter add dev $d ingress prio 1 matchall \
		action bpf obj "$obj" sec p4tc/datapath
done
expect_err "no route: dropped" 1 "100% packet loss" \
	ip netns exec sa ping -c 1 -W 1 10.2.0.1
expect_ok "next hops" router_nexthops
expect_ok "route to sc" $RT/fib dstAddr 10.2.0.0/24 action router/cb/set_nh param nh 1
expect_ok "route to sa" $RT/fib dstAddr 10.1.0.0/24 action router/cb/set_nh param nh 2
expect_ok "routed by the eBPF datapath" ip netns exec sa ping -c 3 -W 2 10.2.0.1
j=$(tc -s -j p4 get router/table/cb/fib dstAddr 10.2.0.0/24)
n=$(json_get "$j" 'j[1]["entries"][0]["stats"]["packets"]')
[ "$n" -ge 3 ] 2>/dev/null || fail "the fib /24 counted '$n' packets, expected 3 or more"

# an entry without datapath X does not match: the /24 to nh 2 below
# loses to the /16 to nh 1 only while it may execute
expect_ok "a /25 to the dropping next hop, without X" \
	$RT/fib dstAddr 10.2.0.0/25 permissions -RUD--R--- action router/cb/set_nh param nh 3
expect_ok "the /25 does not match" ip netns exec sa ping -c 1 -W 2 10.2.0.1
expect_ok "give the /25 X" tc p4 update router/table/cb/fib dstAddr 10.2.0.0/25 \
	permissions -RUD--R--X action router/cb/set_nh param nh 3
expect_err "the /25 matches: next hop 3 drops" 1 "100% packet loss" \
	ip netns exec sa ping -c 1 -W 1 10.2.0.1
expect_ok "del the /25" tc p4 del router/table/cb/fib dstAddr 10.2.0.0/25
expect_ok "routed again" ip netns exec sa ping -c 1 -W 2 10.2.0.1

# as a cls_bpf classifier in direct-action mode
tc filter del dev b0 ingress prio 1
expect_ok "the eBPF datapath as cls_bpf on b0" \
	tc filter add dev b0 ingress prio 1 bpf da obj "$obj" sec p4tc/datapath
expect_ok "routed by cls_bpf" ip netns exec sa ping -c 1 -W 2 10.2.0.1

# The pipeline goes while the program runs: no p4 filter pins it, so it
# may; the program's reads then fail and it drops.
tc p4template del pipeline/router ||
	fail "the pipeline could not be deleted under the eBPF datapath"
expect_err "no pipeline: dropped" 1 "100% packet loss" \
	ip netns exec sa ping -c 1 -W 1 10.2.0.1

finish
