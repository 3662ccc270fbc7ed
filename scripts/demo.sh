#!/usr/bin/env bash
# make demo: boot the test guest and show what it runs.  Later issues turn
# this into the P4 offload demo (router pipeline, entries in software and
# hardware, packets through both).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/tests/vm/run" --no-leak-check -- bash -c '
echo "== guest kernel: $(uname -r) ($(nproc) CPUs, $(awk "/MemTotal/{print \$2 \" kB\"}" /proc/meminfo))"
echo "== tc: $(command -v tc): $(tc -V)"
echo "== debug options the tests run with:"
grep -E "^CONFIG_(PROVE_LOCKING|KASAN|DEBUG_KMEMLEAK|DEBUG_ATOMIC_SLEEP|DEBUG_LIST)=" "$P4TC_TOP/build/linux/obj/.config" | sed "s/^/   /"
echo "== a filter in the guest:"
ip link add d0 type dummy && ip link set d0 up
tc qdisc add dev d0 clsact
tc filter add dev d0 ingress protocol ip prio 1 flower skip_hw dst_ip 10.0.0.1 action drop
tc filter show dev d0 ingress
'
