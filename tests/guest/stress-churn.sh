#!/bin/bash
# Concurrent churn (make check boots with --ports 2; make soak runs it on
# two vCPUs for STRESS_SECONDS): for a fixed time, all at once,
#   - three writers add, update and delete routes of the router's FIB,
#     each in its own prefixes, placed in software (skip_hw), in the
#     p4nic (skip_sw) or in both;
#   - traffic crosses both engines: pings from t0 through the p4nic's
#     pipeline, from sa through the software pipeline on veth b0;
#   - the p4nic is reset (function-level reset) and unbound and bound
#     again, its filters and next hops given back after each bind; the
#     filter on its port 1 is replaced between;
#   - a second pipeline (counter) is created, bound to a veth with pings
#     through it, and deleted under those pings;
#   - dumps of the FIB and of the filters run, and a watcher samples the
#     counters users read.
# Then: every route a writer added and did not delete is in the FIB with
# the flags it was given, in the device where placed (in_hw_count, and
# the device's own view through QMP), no other route is; no counter went
# backwards; the datapath still routes.  A splat or a leak fails the run
# through the guest runner.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
export INTROSPECTION=$top/build/compiler/router
. "$top/tests/programs/router/hosts.sh"

[ "${P4TC_PORTS:-0}" -ge 2 ] || { fail "needs two p4nic ports: boot with tests/vm/run --ports 2"; finish; }
secs=${STRESS_SECONDS:-45}
dir=$(mktemp -d)

cleanup() {
	local j
	for j in ${pids[@]+"${pids[@]}"} ${watcher:-}; do kill "$j" 2>/dev/null; done
	ip netns del t0 2>/dev/null
	ip netns del t1 2>/dev/null
	ip netns del sv 2>/dev/null
	router_hosts_del
	ip link del v0 2>/dev/null
	# the p4nic's ports (and their filters) go first: a pipeline bound
	# to a filter cannot be deleted
	rmmod p4nic 2>/dev/null
	tc p4template del pipeline/counter 2>/dev/null
	tc p4template del pipeline/router 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT

expect_ok "load the driver" modprobe p4nic
P0=$(p4nic_dev 0)
P1=$(p4nic_dev 1)
[ -n "$P0" ] && [ -n "$P1" ] || { fail "no p4nic netdevs"; finish; }
pci=$(readlink -f "/sys/class/net/$P0/device")
# sa and sc first: both set amac and cmac, and every next hop is a tester
router_hosts
router_nic_hosts "$P0" "$P1" || { fail "no testers for the p4nic ports"; finish; }
expect_ok "load the router" tc -b "$top/build/compiler/router/router.tc"

# bind_router: the router on both p4nic ports (and its next hops through
# them), as after a bind; P0 and P1 are the ports' netdevs now
bind_router() {
	local d
	P0=$(p4nic_dev 0)
	P1=$(p4nic_dev 1)
	for d in "$P0" "$P1"; do
		ip link set "$d" up
		tc qdisc add dev "$d" clsact 2>/dev/null
		tc filter add dev "$d" ingress prio 1 p4 pname router ||
			echo "bind: the router on $d refused" >>"$dir/errors"
	done
	tc p4 update router/table/cb/nexthop nh 1 action router/cb/forward \
		param dmac "$cmac" param smac "$(mac "$P1")" param port "$P1" &&
	tc p4 update router/table/cb/nexthop nh 2 action router/cb/forward \
		param dmac "$amac" param smac "$(mac "$P0")" param port "$P0" ||
		echo "bind: next hops refused" >>"$dir/errors"
}
rt="tc p4 create router/table/cb/nexthop"
$rt nh 1 action router/cb/forward param dmac "$cmac" param smac "$(mac "$P1")" param port "$P1"
$rt nh 2 action router/cb/forward param dmac "$amac" param smac "$(mac "$P0")" param port "$P0"
expect_ok "route to t1" tc p4 create router/table/cb/fib dstAddr 10.2.0.0/24 \
	action router/cb/set_nh param nh 1
expect_ok "route to t0" tc p4 create router/table/cb/fib dstAddr 10.1.0.0/24 \
	action router/cb/set_nh param nh 2
bind_router
tc qdisc add dev b0 clsact
expect_ok "the router on b0 (software)" tc filter add dev b0 ingress prio 1 p4 pname router skip_hw
expect_ok "a ping through the p4nic before the churn" \
	ip netns exec t0 ping -c 2 -i 0.2 -W 5 10.2.0.1
[ "$failures" = 0 ] || finish

# the counter pipeline's veth: pings from namespace sv through v0
ip netns add sv
ip link add v0 type veth peer name v1 netns sv
ip -n sv addr add 10.77.0.1/24 dev v1
ip -n sv link set v1 up
ip -n sv neigh add 10.77.0.2 lladdr 02:00:00:00:77:02 dev v1
ip link set v0 up
tc qdisc add dev v0 clsact

end=$(($(date +%s) + secs))
alive() { [ "$(date +%s)" -lt "$end" ]; }

# writer W: routes 10.(100+W).I.0/24, I < 24; its log: one line per
# accepted change, its final state in $dir/want.W ("PREFIX FLAG", FLAG
# one of both, skip_sw, skip_hw); refusals other than "no device runs
# the pipeline" (a skip_sw entry while the device is unbound) are errors
writer() {
	local w=$1 i p f op out n=0 refused=0
	local -A have
	local flags=(both skip_sw skip_hw)
	RANDOM=$w
	while alive; do
		i=$((RANDOM % 24))
		p=10.$((100 + w)).$i.0/24
		f=${flags[RANDOM % 3]}
		if [ -z "${have[$p]:-}" ]; then
			op=create
		elif [ $((RANDOM % 3)) = 0 ]; then
			op=update
		else
			op=del
		fi
		if [ "$op" = del ]; then
			out=$(tc p4 del router/table/cb/fib dstAddr "$p" 2>&1)
		else
			out=$(tc p4 "$op" router/table/cb/fib dstAddr "$p" \
				action router/cb/set_nh param nh 1 ${f/both/} 2>&1)
		fi
		if [ $? = 0 ]; then
			n=$((n + 1))
			if [ "$op" = del ]; then unset "have[$p]"; else have[$p]=$f; fi
		elif [ "$f" = skip_sw ] && [[ $out = *"no device runs pipeline router"* ]]; then
			refused=$((refused + 1))
		else
			echo "writer $w: $op $p $f: $out" >>"$dir/errors"
		fi
	done
	for p in "${!have[@]}"; do echo "$p ${have[$p]}"; done >"$dir/want.$w"
	echo "writer $w: $n changes, $refused skip_sw refused while unbound" >>"$dir/log"
}

# the device: a function-level reset, then an unbind and bind, in turn,
# the filter on port 1 replaced between
device() {
	local n=0 r=0
	while alive; do
		sleep 2
		if [ $((n % 2)) = 0 ]; then
			echo 1 >"$pci/reset" || echo "device: reset refused" >>"$dir/errors"
		else
			echo "${pci##*/}" >/sys/bus/pci/drivers/p4nic/unbind &&
				sleep 0.5 &&
				echo "${pci##*/}" >/sys/bus/pci/drivers/p4nic/bind ||
				echo "device: unbind/bind failed" >>"$dir/errors"
			bind_router
		fi
		n=$((n + 1))
		sleep 1
		tc filter replace dev "$(p4nic_dev 1)" ingress prio 1 handle 1 p4 pname router &&
			r=$((r + 1))
	done
	echo "device: $((n - n / 2)) resets, $((n / 2)) unbinds, $r filter replaces" >>"$dir/log"
}

# the second pipeline: created, bound, run by pings, deleted under them
pipelines() {
	local n=0
	ip netns exec sv ping -q -i 0.02 -w "$secs" 10.77.0.2 >/dev/null 2>&1 &
	while alive; do
		tc -b "$top/build/compiler/counter/counter.tc" &&
			tc filter add dev v0 ingress prio 1 p4 pname counter action gact ok ||
			{ echo "pipelines: counter refused" >>"$dir/errors"; continue; }
		sleep 0.5
		tc filter del dev v0 ingress prio 1
		tc p4template del pipeline/counter ||
			echo "pipelines: the counter did not go" >>"$dir/errors"
		n=$((n + 1))
	done
	echo "pipelines: $n counter pipelines created, run and deleted" >>"$dir/log"
}

# dumps: the FIB and the filters, whole, while they change
dumps() {
	local n=0
	while alive; do
		tc -s p4 get router/table/cb/fib >/dev/null 2>"$dir/dump.err" &&
			tc -s filter show dev b0 ingress >/dev/null ||
			echo "dumps: $(cat "$dir/dump.err")" >>"$dir/errors"
		n=$((n + 1))
	done
	echo "dumps: $n" >>"$dir/log"
}

: >"$dir/errors"
: >"$dir/log"
echo "stress: $secs s of churn"
# (the workers by their pids: jobs -p also lists lib.sh's coprocess)
pids=()
ip netns exec t0 ping -q -i 0.02 -w "$secs" 10.2.0.1 >/dev/null 2>&1 &
pids+=($!)
ip netns exec sa ping -q -i 0.02 -w "$secs" 10.2.0.1 >/dev/null 2>&1 &
pids+=($!)
# the watcher samples the counters users read: route 10.2.0.0/24's hits
# (both engines), the software filter's runs
/usr/bin/python3 "$top/tests/guest/stress_check.py" watch "$secs" "$dir/watch" &
watcher=$!
for w in 1 2 3; do
	writer "$w" &
	pids+=($!)
done
device &
pids+=($!)
pipelines &
pids+=($!)
dumps &
pids+=($!)
wait "${pids[@]}"
wait "$watcher" || fail "the counters: $(cat "$dir/watch")"
cat "$dir/log"
[ -s "$dir/errors" ] && fail "during the churn: $(head -20 "$dir/errors")"

# the end state: the device bound, the router on both ports
echo "stress: the end state"
[ -n "$(p4nic_dev 0)" ] || bind_router
cat "$dir"/want.* >"$dir/want"
out=$(/usr/bin/python3 "$top/tests/guest/stress_check.py" final "$dir/want" 2>&1) ||
	fail "the FIB after the churn: $out"
echo "$out"
expect_ok "a ping through the p4nic after the churn" \
	ip netns exec t0 ping -c 2 -i 0.2 -W 5 10.2.0.1
# what the churn made goes with it (the tests after this one start clean)
cleanup
trap - EXIT
[ -z "$(tc p4template get pipeline/ 2>/dev/null)" ] ||
	fail "pipelines left after the cleanup: $(tc p4template get pipeline/ 2>&1)"
finish
