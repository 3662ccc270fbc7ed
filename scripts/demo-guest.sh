#!/usr/bin/env bash
# Runs in the test guest (make demo): the IPv4 router of
# tests/programs/router/ on two ports, routes added with tc p4, pings from
# host sa (10.1.0.1) to host sc (10.2.0.1) routed by the software
# pipeline, and the per-entry counters; then the same router in the P4
# NIC (p4nic, two ports wired to two tester hosts), its routes skip_sw:
# the NIC routes, the kernel's pipeline sees none of the packets.
set -eu
top=$P4TC_TOP
prog=$top/tests/programs/router
# the router as p4tc-compile made it of router.p4 (make compiled)
compiled=$top/build/compiler/router
export PATH=$top/build/iproute2/bin:$PATH INTROSPECTION=$compiled
. "$prog/hosts.sh"

step() { printf '\n== %s\n' "$*"; }
show() { printf '$ %s\n' "$*"; "$@"; }

step "guest kernel $(uname -r); debug options on: $(grep -cE '^CONFIG_(PROVE_LOCKING|KASAN|DEBUG_KMEMLEAK)=y' "$top/build/linux/obj/.config") of 3"
step "hosts sa (10.1.0.1, port b0) and sc (10.2.0.1, port b1), in their namespaces"
router_hosts
step "load the router program and bind it to both ports"
show tc -b "$compiled/router.tc"
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
router_hosts_del || true
# the program stays loaded; its routes went with their ports
tc p4 del router/table/cb/fib >/dev/null 2>&1 || true
tc p4 del router/table/cb/nexthop >/dev/null 2>&1 || true

[ "${P4TC_PORTS:-0}" -ge 2 ] || exit 0
. "$top/tests/guest/lib.sh"
set +u
step "the same router in the P4 NIC: the p4nic driver, two ports wired to hosts t0 and t1"
show modprobe p4nic
P0=$(p4nic_dev 0)
P1=$(p4nic_dev 1)
router_nic_hosts "$P0" "$P1"
for d in "$P0" "$P1"; do
	tc qdisc add dev "$d" clsact
	show tc filter add dev "$d" ingress prio 1 p4 pname router skip_sw
done
show tc filter show dev "$P0" ingress
step "next hops and routes, skip_sw: only the NIC has them"
show tc p4 create router/table/cb/nexthop nh 1 action router/cb/forward \
	param dmac "$cmac" param smac "$(mac "$P1")" param port "$P1" skip_sw
show tc p4 create router/table/cb/nexthop nh 2 action router/cb/forward \
	param dmac "$amac" param smac "$(mac "$P0")" param port "$P0" skip_sw
show tc p4 create router/table/cb/fib dstAddr 10.2.0.0/24 action router/cb/set_nh param nh 1 skip_sw
show tc p4 create router/table/cb/fib dstAddr 10.1.0.0/24 action router/cb/set_nh param nh 2 skip_sw
show tc p4 get router/table/cb/fib
step "routed by the NIC: pings from t0 to t1 and back"
show ip netns exec t0 ping -c 3 -W 2 10.2.0.1
step "the route's hits, counted by the NIC; its port counters; the p4 filter's (no pipeline run in software)"
show tc -s p4 get router/table/cb/fib dstAddr 10.2.0.0/24
show sh -c "ethtool -S $P1 | grep hw_"
show tc -s filter show dev "$P0" ingress
step "the NIC's tables as QEMU sees them (QMP x-query-p4nic), and its devlink view"
show "$top/tests/vm/qmp" x-query-p4nic
show devlink resource show "pci/$(basename "$(readlink -f "/sys/class/net/$P0/device")")"
ip netns del t0
ip netns del t1
