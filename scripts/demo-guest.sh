#!/usr/bin/env bash
# Runs in the test guest (make demo): the IPv4 router of
# tests/programs/router/ on two ports, routes added with tc p4, pings from
# host sa (10.1.0.1) to host sc (10.2.0.1) routed by the software
# pipeline, and the per-entry counters.  The NIC comes with later issues;
# until then the router runs in software.
set -eu
top=$P4TC_TOP
prog=$top/tests/programs/router
export PATH=$top/build/iproute2/bin:$PATH INTROSPECTION=$prog
. "$prog/hosts.sh"

step() { printf '\n== %s\n' "$*"; }
show() { printf '$ %s\n' "$*"; "$@"; }

step "guest kernel $(uname -r); debug options on: $(grep -cE '^CONFIG_(PROVE_LOCKING|KASAN|DEBUG_KMEMLEAK)=y' "$top/build/linux/obj/.config") of 3"
step "hosts sa (10.1.0.1, port b0) and sc (10.2.0.1, port b1), in their namespaces"
router_hosts
step "load the router program and bind it to both ports"
show tc -b "$prog/router.tc"
for d in b0 b1; do
	tc qdisc add dev $d clsact
	show tc filter add dev $d ingress prio 1 p4 pname router
done
step "no route yet: sa cannot reach sc"
show ip netns exec sa ping -c 1 -W 1 10.2.0.1 || true
step "next hops and routes"
router_nexthops
show tc p4 create router/table/cb/fib dstAddr 10.2.0.0/24 action router/cb/set_nh param nh 1
show tc p4 create router/table/cb/fib dstAddr 10.1.0.0/24 action router/cb/set_nh param nh 2
show tc p4 get router/table/cb/nexthop
step "routed: pings from sa to sc and back"
show ip netns exec sa ping -c 3 -W 2 10.2.0.1
step "TTL 1 expires in the router"
show ip netns exec sa ping -c 1 -W 1 -t 1 10.2.0.1 || true
step "per-entry counters"
show tc -s p4 get router/table/cb/fib dstAddr 10.2.0.0/24
show tc -s p4 get router/table/cb/nexthop nh 1
step "the p4 filters"
show tc -s filter show dev b0 ingress
router_hosts_del
