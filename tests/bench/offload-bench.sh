#!/bin/bash
# Offload control-plane benchmark (make offload-bench), in the test guest
# with the p4nic: the IPv4 router bound to a p4nic port, BENCH_N (default
# 20000) /32 routes created through tc -b (each one an admin command to
# the device), then the FIB dumped with its counters (tc -s: the device's
# hits, read a whole table at a time), then flushed (one command).
# Entries per second for each.  The numbers are the debug guest's (TCG,
# KASAN, lockdep): they compare the steps, they are no absolute speed.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
if [ "${P4TC_GUEST:-0}" != 1 ]; then
	exec "$top/tests/vm/run" --ports 2 --timeout "${BENCH_TIMEOUT:-3600}" \
		--mem "${BENCH_MEM:-4G}" --no-leak-check -- "$0" "$@"
fi
set -eu
export PATH=$top/build/iproute2/bin:$PATH
export INTROSPECTION=$top/build/compiler/router
. "$top/tests/guest/lib.sh"
N=${BENCH_N:-20000}
batch=$(mktemp)
trap 'rm -f "$batch"' EXIT

modprobe p4nic
P0=$(p4nic_dev 0)
ip link set "$P0" up
tc -b "$top/build/compiler/router/router.tc"
tc qdisc add dev "$P0" clsact
tc filter add dev "$P0" ingress prio 1 p4 pname router skip_sw

for i in $(seq 0 $((N - 1))); do
	echo "p4 create router/table/cb/fib dstAddr 10.$((i >> 16 & 255)).$((i >> 8 & 255)).$((i & 255))/32 action router/cb/set_nh param nh 1 skip_sw"
done >"$batch"

# timed NAME CMD...: run CMD, print entries per second
timed() {
	local name=$1 t0 t1
	shift
	t0=$(date +%s.%N)
	"$@" >/dev/null
	t1=$(date +%s.%N)
	awk -v w="$name" -v n="$N" -v s="$(echo "$t1 - $t0" | bc)" \
		'BEGIN { printf "%-40s %8u entries %8.2f s %10.0f entries/s\n", w, n, s, n / s }'
}

echo "== $N skip_sw routes in the p4nic (router bound with skip_sw)"
timed "create (tc -b, into the device)" tc -b "$batch"
[ "$(tc -j p4 get router/table/cb/fib | python3 -c 'import json,sys; print(sum(len(p.get("entries", [])) for p in json.load(sys.stdin)))')" = "$N" ]
timed "dump without counters (tc)" tc p4 get router/table/cb/fib
timed "dump with the device's counters (tc -s)" tc -s p4 get router/table/cb/fib
timed "dump again (tc -s)" tc -s p4 get router/table/cb/fib
timed "flush (one device command)" tc p4 del router/table/cb/fib
tc filter del dev "$P0" ingress prio 1
tc p4template del pipeline/router
rmmod p4nic
