#!/bin/bash
# P4TC offload of p4 filters, with the p4nic driver (make check boots
# with --ports 2): the flag rules of tc-flower for the filter that binds a
# pipeline (skip_sw, skip_hw, verbose, in_hw_count), hw-tc-offload, shared
# blocks with a veth, reoffload when a port joins or leaves a block, one
# pipeline per device, every example program offloaded, and the router
# running in the NIC with its routes: the device routes, drops what the
# program drops and hands the host what the program accepts (the filter
# does not run it twice); table entries follow the same flag rules
# (skip_sw, skip_hw, in_hw_count), and a software-only entry sends its
# table's lookups to the host.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

[ "${P4TC_PORTS:-0}" -ge 2 ] || fail "needs two p4nic ports: boot with tests/vm/run --ports 2"
export INTROSPECTION=$top/build/compiler/router
. "$(dirname "$0")/../programs/router/hosts.sh"

cleanup() {
	ip netns del t0 2>/dev/null
	ip netns del t1 2>/dev/null
	ip link del v0 2>/dev/null
	for d in "${P0:-}" "${P1:-}"; do
		[ -n "$d" ] && tc qdisc del dev "$d" clsact 2>/dev/null
	done
	for p in router acl counter l2switch mirror pbad pbig; do
		tc p4template del "pipeline/$p" 2>/dev/null
	done
	rmmod p4nic 2>/dev/null
}
trap cleanup EXIT

expect_ok "load the driver" modprobe p4nic
P0=$(p4nic_dev 0)
P1=$(p4nic_dev 1)
[ -n "$P0" ] && [ -n "$P1" ] || { fail "no p4nic netdevs"; finish; }
ip link set "$P0" up
ip link set "$P1" up
ip link add v0 type veth peer name v1
ip link set v0 up
expect_ok "load the router" tc -b $top/build/compiler/router/router.tc

# offload_flags JSON PYEXPR: the offload flags of the objects PYEXPR picks
# out of JSON (as "j"), as "skip_sw in_hw in_hw_count 1" and so on
offload_flags() {
	json_get "$1" "' '.join(str(k) if v is True else f'{k} {v}' for o in $2 for k, v in o.items() if k in ('skip_sw', 'skip_hw', 'in_hw', 'not_in_hw', 'in_hw_count'))"
}

# filter_flags DEV: those of DEV's ingress p4 filter at prio 1
filter_flags() {
	offload_flags "$(tc -j filter show dev "$1" ingress prio 1)" \
		"[f['options'] for f in j if 'options' in f]"
}
filter_del() {
	tc filter del dev "$1" ingress prio 1 2>/dev/null
}

# --- the flag rules, on one port --------------------------------------
tc qdisc add dev "$P0" clsact
tc qdisc add dev v0 clsact

expect_err "skip_sw with skip_hw" 1 "exclude each other" \
	tc filter add dev "$P0" ingress prio 1 p4 pname router skip_sw skip_hw
expect_err "skip_sw on a veth" 2 "skip_sw: a device on this block cannot offload P4 pipelines" \
	tc filter add dev v0 ingress prio 1 p4 pname router skip_sw
[ -z "$(tc filter show dev v0 ingress)" ] || fail "a refused skip_sw filter was left on v0"

expect_ok "skip_sw on p4nic" tc filter add dev "$P0" ingress prio 1 p4 pname router skip_sw
[ "$(filter_flags "$P0")" = "skip_sw in_hw in_hw_count 1" ] ||
	fail "skip_sw on p4nic: flags '$(filter_flags "$P0")'"
filter_del "$P0"

expect_ok "no flags on p4nic" tc filter add dev "$P0" ingress prio 1 p4 pname router
[ "$(filter_flags "$P0")" = "in_hw in_hw_count 1" ] ||
	fail "no flags on p4nic: flags '$(filter_flags "$P0")'"
filter_del "$P0"

expect_ok "no flags on a veth" tc filter add dev v0 ingress prio 1 p4 pname router
[ "$(filter_flags v0)" = "not_in_hw" ] || fail "no flags on a veth: flags '$(filter_flags v0)'"
filter_del v0

expect_ok "skip_hw on p4nic" tc filter add dev "$P0" ingress prio 1 p4 pname router skip_hw
[ "$(filter_flags "$P0")" = "skip_hw not_in_hw" ] ||
	fail "skip_hw on p4nic: flags '$(filter_flags "$P0")'"
# skip_hw never asked the driver: hw-tc-offload may go off
expect_ok "hw-tc-offload off with a skip_hw filter" ethtool -K "$P0" hw-tc-offload off
ethtool -K "$P0" hw-tc-offload on
filter_del "$P0"

# hw-tc-offload: refused off while bound; off, skip_sw fails and no flags
# stays in software
expect_ok "bind for hw-tc-offload" tc filter add dev "$P0" ingress prio 1 p4 pname router
expect_err "hw-tc-offload off while bound" 1 "Could not change" \
	ethtool -K "$P0" hw-tc-offload off
dmesg | tail -5 | grep -q "a P4 pipeline is offloaded on this port" ||
	fail "hw-tc-offload refusal: no message in the kernel log"
ethtool -K "$P0" hw-tc-offload on	# the refused request stays wanted
filter_del "$P0"
expect_ok "hw-tc-offload off" ethtool -K "$P0" hw-tc-offload off
expect_err "skip_sw with hw-tc-offload off" 2 "TC offload is disabled on net device" \
	tc filter add dev "$P0" ingress prio 1 p4 pname router skip_sw
expect_ok "no flags with hw-tc-offload off" tc filter add dev "$P0" ingress prio 1 p4 pname router
[ "$(filter_flags "$P0")" = "not_in_hw" ] ||
	fail "hw-tc-offload off: flags '$(filter_flags "$P0")'"
filter_del "$P0"
ethtool -K "$P0" hw-tc-offload on

# refused_bind WHAT DEV PIPE MSG: binding PIPE on DEV fails with skip_sw
# (MSG says why), and verbose binds it in software with MSG as a warning
refused_bind() {
	expect_err "$1, skip_sw" 2 "$4" \
		tc filter add dev "$2" ingress prio 1 p4 pname "$3" skip_sw
	expect_err "$1, verbose" 0 "Warning: $4" \
		tc filter add dev "$2" ingress prio 1 p4 pname "$3" verbose
	[ "$(filter_flags "$2")" = "not_in_hw" ] || fail "$1: flags '$(filter_flags "$2")'"
	filter_del "$2"
}

# one pipeline per device: a second one stays in software (verbose says
# why) or fails (skip_sw)
expect_ok "load the ACL" tc -b $top/build/compiler/acl/acl.tc
expect_ok "bind the router" tc filter add dev "$P0" ingress prio 1 p4 pname router skip_sw
tc qdisc add dev "$P1" clsact
refused_bind "a second pipeline" "$P1" acl \
	"p4nic: the device runs pipeline 40: one pipeline per device"
filter_del "$P0"
tc qdisc del dev "$P1" clsact
tc p4template del pipeline/acl

# a pipeline P4TC cannot describe (a preaction that is no plain verdict)
# is offered to no device
tc p4template create pipeline/pbad pipeid 77 numtables 0 \
	preactions action gact continue postactions action gact pipe
tc p4template update pipeline/pbad state ready
refused_bind "an undescribable pipeline" "$P0" pbad \
	'P4TC: bound action of kind "gact" has no offload description'
expect_ok "the undescribable pipeline goes" tc p4template del pipeline/pbad

# the device's capabilities (IDENTIFY's limits): a table larger than the
# device's tables is refused, named with both sizes
tc p4template create pipeline/pbig pipeid 78 numtables 1 \
	preactions action gact pipe postactions action gact pipe
tc p4template create table/pbig/cb/big type exact keysz 32 tentries 2000000
tc p4template update pipeline/pbig state ready
expect_err "a table over the device's size, skip_sw" 2 \
	"p4nic: entries of a table: 2000000, the device takes at most 1048576" \
	tc filter add dev "$P0" ingress prio 1 p4 pname pbig skip_sw
expect_ok "the same table in software" tc filter add dev "$P0" ingress prio 1 p4 pname pbig
[ "$(filter_flags "$P0")" = "not_in_hw" ] || fail "a table over the device's size: flags '$(filter_flags "$P0")'"
filter_del "$P0"
expect_ok "the large pipeline goes" tc p4template del pipeline/pbig

# --- shared blocks and reoffload --------------------------------------
tc qdisc del dev "$P0" clsact
tc qdisc del dev v0 clsact
block_flags() {
	offload_flags "$(tc -j filter show block "$1" prio 1)" \
		"[f['options'] for f in j if 'options' in f]"
}
tc qdisc add dev "$P0" ingress_block 7 clsact
expect_ok "a filter on block 7" tc filter add block 7 prio 1 p4 pname router
[ "$(block_flags 7)" = "in_hw in_hw_count 1" ] || fail "block 7, one port: '$(block_flags 7)'"
tc qdisc add dev "$P1" ingress_block 7 clsact
[ "$(block_flags 7)" = "in_hw in_hw_count 2" ] || fail "block 7, port 1 joined: '$(block_flags 7)'"
# a device that cannot offload may not join a block with offloaded filters
expect_err "a veth joins an offloaded block" 2 "." \
	tc qdisc add dev v0 ingress_block 7 clsact
tc qdisc del dev "$P1" clsact
[ "$(block_flags 7)" = "in_hw in_hw_count 1" ] || fail "block 7, port 1 left: '$(block_flags 7)'"
tc qdisc del dev "$P0" clsact
# a veth first, then a p4nic port: skip_sw is refused, no flags binds
# where it can
tc qdisc add dev v0 ingress_block 8 clsact
tc qdisc add dev "$P1" ingress_block 8 clsact
expect_err "skip_sw on a block with a veth" 2 "skip_sw: a device on this block cannot offload P4 pipelines" \
	tc filter add block 8 prio 1 p4 pname router skip_sw
expect_ok "no flags on a block with a veth" tc filter add block 8 prio 1 p4 pname router
[ "$(block_flags 8)" = "in_hw in_hw_count 1" ] || fail "block 8: '$(block_flags 8)'"
tc qdisc del dev "$P1" clsact
[ "$(block_flags 8)" = "not_in_hw" ] || fail "block 8, p4nic left: '$(block_flags 8)'"
tc qdisc del dev v0 clsact
expect_ok "the router goes once its blocks did" tc p4template del pipeline/router

# --- every example program fits the device ----------------------------
tc qdisc add dev "$P0" clsact
for prog in router acl counter l2switch mirror; do
	tc -b "$top/build/compiler/$prog/$prog.tc" || { fail "$prog: template load"; continue; }
	expect_ok "$prog offloaded" tc filter add dev "$P0" ingress prio 1 p4 pname "$prog" skip_sw
	filter_del "$P0"
	tc p4template del "pipeline/$prog"
done
tc qdisc del dev "$P0" clsact

# --- the router in the NIC, its routes in the NIC too -----------------
# t0 (10.1.0.1) behind port 0, t1 (10.2.0.1) behind port 1
router_nic_hosts "$P0" "$P1" || fail "no tester ports"

# --- registers: the device's copy --------------------------------------
# it starts from the cells' values at BIND and counts what the device
# runs; tc p4template get shows software's cells and the device's
head -n -1 $top/build/compiler/counter/counter.tc | tc -b -
expect_ok "a register cell set before sealing" \
	tc p4template update register/counter/pkts index 2 value constant.bit64.100
tc p4template update pipeline/counter state ready
tc qdisc add dev "$P0" clsact
expect_ok "the counter offloaded" tc filter add dev "$P0" ingress prio 1 p4 pname counter skip_sw
ip netns exec t0 /usr/bin/python3 -c "
from scapy.packet import Raw
from scapy.layers.l2 import Ether
from scapy.layers.inet import IP, UDP
from scapy.sendrecv import sendp
sendp(Ether(dst='$(mac "$P0")') / IP(dst='10.1.0.2') / UDP(dport=9) / Raw(b'p4tc' * 8),
      iface='$T0', count=3, verbose=False)"
sleep 1
cells() {
	json_get "$(tc -j p4template get register/counter/pkts)" \
		"' '.join(str(e['value']) for e in j[1]['templates'][0]['elements']) + ' / ' + ' '.join(h['device'] + ': ' + ' '.join(str(e['value']) for e in h['elements']) for h in j[1]['templates'][0].get('hw', []))"
}
pci0=$(basename "$(readlink -f "/sys/class/net/$P0/device")")
[ "$(cells)" = "0 0 100 0 / $pci0: 0 0 103 0" ] ||
	fail "the counter's register, software / device: '$(cells)'"
tc p4template get register/counter/pkts | grep -q "in hw $pci0" ||
	fail "tc p4template get: no device copy: $(tc p4template get register/counter/pkts)"
filter_del "$P0"
tc qdisc del dev "$P0" clsact
[ "$(cells)" = "0 0 100 0 / " ] || fail "the register once unbound: '$(cells)'"
expect_ok "the counter goes" tc p4template del pipeline/counter
tc -b $top/build/compiler/router/router.tc
rt="tc p4 create router/table/cb/nexthop"
expect_ok "next hop 1" $rt nh 1 action router/cb/forward param dmac "$cmac" \
	param smac "$(mac "$P1")" param port "$P1"
expect_ok "next hop 2" $rt nh 2 action router/cb/forward param dmac "$amac" \
	param smac "$(mac "$P0")" param port "$P0"
expect_ok "route to t1" tc p4 create router/table/cb/fib dstAddr 10.2.0.0/24 \
	action router/cb/set_nh param nh 1
expect_ok "route to t0" tc p4 create router/table/cb/fib dstAddr 10.1.0.0/24 \
	action router/cb/set_nh param nh 2

# entry_flags KEY...: the flags of the FIB entry KEY names
entry_flags() {
	offload_flags "$(tc -j p4 get router/table/cb/fib "$@")" \
		"j[1]['entries'][:1]"
}
[ "$(entry_flags dstAddr 10.2.0.0/24)" = "not_in_hw" ] ||
	fail "a route with no device bound: '$(entry_flags dstAddr 10.2.0.0/24)'"
expect_err "a skip_sw route with no device bound" 255 "skip_sw: no device runs pipeline router" \
	tc p4 create router/table/cb/fib dstAddr 10.9.0.0/16 skip_sw \
	action router/cb/set_nh param nh 1
expect_err "a route with skip_sw and skip_hw" 255 "skip_sw and skip_hw exclude each other" \
	tc p4 create router/table/cb/fib dstAddr 10.9.0.0/16 skip_sw skip_hw \
	action router/cb/set_nh param nh 1

for d in "$P0" "$P1"; do
	tc qdisc add dev "$d" clsact
	expect_ok "router on $d" tc filter add dev "$d" ingress prio 1 p4 pname router
done
# binding gave the device the entries there were: one device, two blocks
[ "$(entry_flags dstAddr 10.2.0.0/24)" = "in_hw in_hw_count 2" ] ||
	fail "a route once the router is bound: '$(entry_flags dstAddr 10.2.0.0/24)'"
# QEMU's view of the device (QMP x-query-p4nic): the router and its routes
fib_view() { $top/tests/vm/qmp x-query-p4nic | grep "^  table 1:"; }
view=$($top/tests/vm/qmp x-query-p4nic)
grep -q "^  pipeline 40: 2 tables, .*, 4 entries$" <<<"$view" ||
	fail "QMP: the device's pipeline: $view"
grep -Eq "^  table 1: lpm, key 32 bits, 2/[0-9]+ entries, miss default," <<<"$view" ||
	fail "QMP: the device's FIB: $view"
# hw DEV COUNTER: one of ethtool -S's counters (parsed with builtins)
hw() {
	local l
	while IFS= read -r l; do
		[[ $l =~ ^\ *$2:\ (.*)$ ]] && echo "${BASH_REMATCH[1]}"
	done <<<"$(ethtool -S "$1")"	# (the guest has no /dev/fd for <(...))
}

# hits ROUTE: the hit counter of the FIB entry ROUTE (software's and the
# devices')
hits() {
	json_get "$(tc -s -j p4 get router/table/cb/fib dstAddr "$1")" \
		'j[1]["entries"][0]["stats"]["packets"]'
}

# routed_in_hw WHAT [ROUTE]: pings cross the router, no pipeline runs in
# software, and ROUTE's counter (from the device) counts them (ROUTE "-":
# no route does)
routed_in_hw() {
	local runs0 tx0 hits0 route=${2:-10.2.0.0/24}
	runs0=$(p4_filter_stat "$P0" 1 pkts)
	tx0=$(hw "$P1" hw_wire_tx_packets)
	[ "$route" = - ] || hits0=$(hits "$route")
	expect_ok "$1: ping through the router" \
		ip netns exec t0 ping -c 3 -i 0.2 -W 5 10.2.0.1
	[ "$(p4_filter_stat "$P0" 1 pkts)" = "$runs0" ] ||
		fail "$1: the software pipeline ran $(( $(p4_filter_stat "$P0" 1 pkts) - runs0 )) times"
	[ $(( $(hw "$P1" hw_wire_tx_packets) - tx0 )) -ge 3 ] ||
		fail "$1: the device sent $(( $(hw "$P1" hw_wire_tx_packets) - tx0 )) frames out of port 1"
	[ "$route" = - ] || [ $(( $(hits "$route") - hits0 )) -ge 3 ] ||
		fail "$1: tc -s counted $(( $(hits "$route") - hits0 )) hits of $route"
}
routed_in_hw "routes in hardware"

# a function-level reset takes the device's pipeline and entries: the
# driver loads them again
pci=$(readlink -f "/sys/class/net/$P0/device")
expect_ok "function-level reset with the router bound" sh -c "echo 1 >$pci/reset"
for _ in $(seq 1 50); do
	[ "$(cat "/sys/class/net/$P1/carrier" 2>/dev/null)" = 1 ] && break
	sleep 0.1
done
routed_in_hw "after a reset"

# TTL 1: the program drops it before any table, in the device
runs0=$(p4_filter_stat "$P0" 1 pkts)
drops0=$(hw "$P0" hw_pipeline_drops)
ip netns exec t0 ping -c 2 -i 0.2 -W 1 -t 1 10.2.0.1 >/dev/null 2>&1 &&
	fail "a TTL 1 ping crossed the router"
[ $(( $(hw "$P0" hw_pipeline_drops) - drops0 )) = 2 ] ||
	fail "TTL 1: the device dropped $(( $(hw "$P0" hw_pipeline_drops) - drops0 )), expected 2"
[ "$(p4_filter_stat "$P0" 1 pkts)" = "$runs0" ] ||
	fail "TTL 1: the software pipeline ran on packets the device dropped"

# not IPv4: the program accepts it (ok) in the device; the host gets it
# marked as decided and the filter does not run the pipeline again
runs0=$(p4_filter_stat "$P0" 1 pkts)
rx0=$(cat "/sys/class/net/$P0/statistics/rx_packets")
ip netns exec t0 /usr/bin/python3 -c "
from scapy.packet import Raw
from scapy.layers.l2 import Ether
from scapy.sendrecv import sendp
sendp(Ether(dst='$(mac "$P0")', type=0x88b5) / Raw(b'p4tc' * 12), iface='$T0', count=3, verbose=False)"
sleep 1
[ $(( $(cat "/sys/class/net/$P0/statistics/rx_packets") - rx0 )) -ge 3 ] ||
	fail "non-IPv4 frames did not reach the host"
[ "$(p4_filter_stat "$P0" 1 pkts)" = "$runs0" ] ||
	fail "non-IPv4: the pipeline ran again on frames the device decided"

# a skip_hw route: the FIB has an entry only software holds, which may
# match better, so every FIB lookup goes to the host (and routes there)
expect_ok "a skip_hw route" tc p4 create router/table/cb/fib \
	dstAddr 10.2.0.0/28 skip_hw action router/cb/set_nh param nh 1
[ "$(entry_flags dstAddr 10.2.0.0/28)" = "skip_hw not_in_hw" ] ||
	fail "a skip_hw route: '$(entry_flags dstAddr 10.2.0.0/28)'"
fib_view | grep -q "lookups to host" || fail "QMP: the FIB with a skip_hw route: $(fib_view)"
runs0=$(p4_filter_stat "$P0" 1 pkts)
expect_ok "ping with a software-only route" ip netns exec t0 ping -c 3 -i 0.2 -W 5 10.2.0.1
[ $(( $(p4_filter_stat "$P0" 1 pkts) - runs0 )) -ge 3 ] ||
	fail "a software-only route: the software pipeline ran $(( $(p4_filter_stat "$P0" 1 pkts) - runs0 )) times"
expect_ok "the skip_hw route goes" tc p4 del router/table/cb/fib dstAddr 10.2.0.0/28
routed_in_hw "the software-only route gone"

# a skip_sw route: only the device has it, and routes with it
# (the flags may follow the action, as the interface spec writes them)
expect_ok "a skip_sw route" tc p4 create router/table/cb/fib \
	dstAddr 10.2.0.1/32 action router/cb/set_nh param nh 1 skip_sw
[ "$(entry_flags dstAddr 10.2.0.1/32)" = "skip_sw in_hw in_hw_count 2" ] ||
	fail "a skip_sw route: '$(entry_flags dstAddr 10.2.0.1/32)'"
routed_in_hw "a skip_sw route" 10.2.0.1/32

# an update states the entry's flags, as a flower filter's replace does:
# the entry leaves the devices and is placed anew
nh1="action router/cb/set_nh param nh 1"
expect_ok "the skip_sw route to skip_hw" tc p4 update router/table/cb/fib \
	dstAddr 10.2.0.1/32 $nh1 skip_hw
[ "$(entry_flags dstAddr 10.2.0.1/32)" = "skip_hw not_in_hw" ] ||
	fail "a route updated to skip_hw: '$(entry_flags dstAddr 10.2.0.1/32)'"
fib_view | grep -q "lookups to host" ||
	fail "QMP: the FIB with a route updated to skip_hw: $(fib_view)"
expect_ok "the route with no flags" tc p4 update router/table/cb/fib \
	dstAddr 10.2.0.1/32 $nh1
[ "$(entry_flags dstAddr 10.2.0.1/32)" = "in_hw in_hw_count 2" ] ||
	fail "a route updated to no flags: '$(entry_flags dstAddr 10.2.0.1/32)'"
expect_err "skip_sw with an action the device refuses" 255 \
	"p4nic: an entry whose action has a verdict of its own is not supported" \
	tc p4 update router/table/cb/fib dstAddr 10.2.0.1/32 $nh1 ok skip_sw
[ "$(entry_flags dstAddr 10.2.0.1/32)" = "in_hw in_hw_count 2" ] ||
	fail "a route whose update the device refused: '$(entry_flags dstAddr 10.2.0.1/32)'"
expect_ok "the route to skip_sw" tc p4 update router/table/cb/fib \
	dstAddr 10.2.0.1/32 $nh1 skip_sw
[ "$(entry_flags dstAddr 10.2.0.1/32)" = "skip_sw in_hw in_hw_count 2" ] ||
	fail "a route updated to skip_sw: '$(entry_flags dstAddr 10.2.0.1/32)'"
routed_in_hw "a route updated to skip_sw" 10.2.0.1/32
expect_ok "the skip_sw route goes" tc p4 del router/table/cb/fib dstAddr 10.2.0.1/32

# a default action changed while the router is bound: the device runs the
# new one; one it cannot run makes the FIB's lookups the host's
fib_tmpl=table/router/cb/fib
expect_ok "the route to t1 goes" tc p4 del router/table/cb/fib dstAddr 10.2.0.0/24
drops0=$(hw "$P0" hw_pipeline_drops)
ip netns exec t0 ping -c 2 -i 0.2 -W 1 10.2.0.1 >/dev/null 2>&1 &&
	fail "a ping crossed the router without a route"
[ $(( $(hw "$P0" hw_pipeline_drops) - drops0 )) = 2 ] ||
	fail "no route: the device's default miss dropped $(( $(hw "$P0" hw_pipeline_drops) - drops0 )), expected 2"
expect_ok "default miss: next hop 1" tc p4template update "$fib_tmpl" \
	default_miss_action action router/cb/set_nh param nh 1
routed_in_hw "routed by the new default miss action" -
runs0=$(p4_filter_stat "$P0" 1 pkts)
drops0=$(hw "$P0" hw_pipeline_drops)
expect_err "a default miss the device cannot run" 0 \
	"Warning: p4nic: table 1: default miss action has a verdict: lookups go to the host" \
	tc p4template update "$fib_tmpl" default_miss_action action router/cb/set_nh param nh 1 drop
[ "$(json_get "$(tc -j p4template get "$fib_tmpl")" \
	'j[1]["templates"][0]["default_miss"]["action"]["actions"][0]["control_action"]["type"]')" = drop ] ||
	fail "the default the device refused is not software's"
fib_view | grep -q "lookups to host" ||
	fail "QMP: the FIB with a default the device refused: $(fib_view)"
ip netns exec t0 ping -c 2 -i 0.2 -W 1 10.2.0.1 >/dev/null 2>&1 &&
	fail "a ping crossed a default miss action that drops"
[ $(( $(p4_filter_stat "$P0" 1 pkts) - runs0 )) -ge 2 ] ||
	fail "a refused default: the software pipeline ran $(( $(p4_filter_stat "$P0" 1 pkts) - runs0 )) times, expected 2"
[ "$(hw "$P0" hw_pipeline_drops)" = "$drops0" ] ||
	fail "a refused default: the device dropped what the host decides"
expect_ok "default miss: drop again" tc p4template update "$fib_tmpl" \
	default_miss_action action router/cb/drop
expect_ok "the route to t1 again" tc p4 create router/table/cb/fib \
	dstAddr 10.2.0.0/24 action router/cb/set_nh param nh 1
routed_in_hw "the default given back to the device"

# the same packets with the router in software only; the filter that
# goes takes the routes back from its device
filter_del "$P0"
[ "$(entry_flags dstAddr 10.2.0.0/24)" = "in_hw in_hw_count 1" ] ||
	fail "a route after a filter went: '$(entry_flags dstAddr 10.2.0.0/24)'"
expect_ok "router on $P0, skip_hw" tc filter add dev "$P0" ingress prio 1 p4 pname router skip_hw
runs0=$(p4_filter_stat "$P0" 1 pkts)
expect_ok "ping through the software router" ip netns exec t0 ping -c 2 -i 0.2 -W 5 10.2.0.1
ip netns exec t0 ping -c 1 -W 1 -t 1 10.2.0.1 >/dev/null 2>&1 &&
	fail "a TTL 1 ping crossed the software router"
[ $(( $(p4_filter_stat "$P0" 1 pkts) - runs0 )) -ge 3 ] ||
	fail "software router: pipeline runs $(( $(p4_filter_stat "$P0" 1 pkts) - runs0 ))"

# a device leaving a block takes the routes back, a skip_sw one too
# (it stays, in no datapath, as with flower); joining gives them again
filter_del "$P1"
[ "$(entry_flags dstAddr 10.2.0.0/24)" = "not_in_hw" ] ||
	fail "a route with no filter in hardware: '$(entry_flags dstAddr 10.2.0.0/24)'"
filter_del "$P0"
tc qdisc del dev "$P0" clsact
tc qdisc del dev "$P1" clsact
tc qdisc add dev v0 ingress_block 9 clsact
tc qdisc add dev "$P0" ingress_block 9 clsact
expect_ok "the router on block 9" tc filter add block 9 prio 1 p4 pname router
expect_ok "a skip_sw route on block 9" tc p4 create router/table/cb/fib \
	dstAddr 10.9.0.0/16 skip_sw action router/cb/set_nh param nh 1
routes_flags() {
	echo "$(entry_flags dstAddr 10.2.0.0/24) / $(entry_flags dstAddr 10.9.0.0/16)"
}
[ "$(routes_flags)" = "in_hw in_hw_count 1 / skip_sw in_hw in_hw_count 1" ] ||
	fail "routes on block 9: '$(routes_flags)'"
tc qdisc del dev "$P0" clsact
[ "$(routes_flags)" = "not_in_hw / skip_sw not_in_hw" ] ||
	fail "routes once the p4nic port left block 9: '$(routes_flags)'"
[ "$(block_flags 9)" = "not_in_hw" ] || fail "block 9, p4nic left: '$(block_flags 9)'"
expect_ok "the p4nic port joins block 9 again" \
	tc qdisc add dev "$P0" ingress_block 9 clsact
[ "$(routes_flags)" = "in_hw in_hw_count 1 / skip_sw in_hw in_hw_count 1" ] ||
	fail "routes once the p4nic port joined block 9 again: '$(routes_flags)'"
expect_ok "the skip_sw route goes" tc p4 del router/table/cb/fib dstAddr 10.9.0.0/16
tc qdisc del dev "$P0" clsact
tc qdisc del dev v0 clsact

# devlink: the device's table capacity and what the router occupies
pci=$(basename "$(readlink -f "/sys/class/net/$P0/device")")
occ() {
	json_get "$(devlink -j resource show "pci/$pci")" \
		"' '.join('%s %s' % (r['name'], r['occ']) for d in j['resources'].values() for r in d)"
}

# PCI unbind with the pipeline bound and traffic flowing: the ports and
# their blocks go, and with them the filter and the device's entries;
# bound again, the device is plain and its ports bind the router anew
tc qdisc add dev "$P0" clsact
expect_ok "the router on $P0" tc filter add dev "$P0" ingress prio 1 p4 pname router
[ "$(occ)" = "tables 2 entries 4" ] ||
	fail "devlink occupancy with the router bound: '$(occ)'"
ip netns exec t0 ping -i 0.02 -c 200 -q 10.2.0.1 >/dev/null 2>&1 &
pinger=$!
sleep 1
expect_ok "PCI unbind with the pipeline bound" \
	sh -c "echo $pci >/sys/bus/pci/drivers/p4nic/unbind"
wait $pinger
[ "$(entry_flags dstAddr 10.2.0.0/24)" = "not_in_hw" ] ||
	fail "a route once the device is unbound: '$(entry_flags dstAddr 10.2.0.0/24)'"
expect_ok "PCI bind again" sh -c "echo $pci >/sys/bus/pci/drivers/p4nic/bind"
P0=$(p4nic_dev 0)
[ "$(occ)" = "tables 0 entries 0" ] ||
	fail "devlink occupancy of a device bound again: '$(occ)'"
ip link set "$P0" up

# rmmod with the pipeline bound and traffic flowing
tc qdisc add dev "$P0" clsact
expect_ok "router on $P0 again" tc filter add dev "$P0" ingress prio 1 p4 pname router
ip netns exec t0 ping -i 0.02 -c 200 -q 10.2.0.1 >/dev/null 2>&1 &
pinger=$!
sleep 1
expect_ok "unload with the pipeline bound" rmmod p4nic
wait $pinger
expect_ok "the pipeline can go once its devices did" tc p4template del pipeline/router

finish
