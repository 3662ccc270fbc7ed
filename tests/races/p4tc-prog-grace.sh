#!/bin/bash
# Issue 27, item 1: a pipeline deleted while a packet runs one of its
# programs.  The programs, and their templates' cmds_nla (where the
# print prefixes are), must outlive every packet inside them: the
# delete waits for an RCU grace period whether or not instances of the
# templates remain, and frees cmds_nla only after it.
#
# A packet from ns ra reaches rb0's p4 filter (pipeline race), which
# runs action template slow (a print, then a set): in case "entry" as
# the action of table cb/proto's entry (the preaction apply applies the
# table), in case "preaction" as the preaction of a pipeline without
# tables.  race_delay holds CPU 0 on return from the print's rate check
# (inside slow's program, the packet in softirq) for DELAY_MS.
# Meanwhile CPU 1 deletes the filter and then the pipeline (its
# preactions given back first: no instance is left).  It passes when
# the pipeline's delete returns only once the packet left the program,
# and no KASAN report follows.  With the grace periods on the way taken
# away (planted/p4tc-no-grace-period.patch: the filter's, the
# pipeline's, the action templates'), the delete returns at once and the
# packet reads freed memory when the delay ends.  Needs two CPUs.
. "$(dirname "$0")/../guest/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
export INTROSPECTION=$here
H=hdrfield.race.parser1
RD=/sys/module/race_delay/parameters
DELAY_MS=3000
dir=$(mktemp -d)

cleanup() {
	[ -n "${writer:-}" ] && kill "$writer" 2>/dev/null
	[ -n "${pinger:-}" ] && kill "$pinger" 2>/dev/null
	rmmod race_delay 2>/dev/null
	taskset -pc 0-1 $$ >/dev/null 2>&1
	ip netns del ra 2>/dev/null
	tc qdisc del dev rb0 clsact 2>/dev/null
	tc p4template del pipeline/race 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT

[ "$(nproc)" -ge 2 ] || { fail "needs two CPUs (tests/races/run boots them)"; finish; }

ip netns add ra
ip link add ra0 netns ra type veth peer name rb0
ip -n ra addr add 10.12.0.1/24 dev ra0
ip -n ra link set ra0 up
ip link set rb0 up
ip -n ra neigh add 10.12.0.2 lladdr 02:00:00:00:00:02 dev ra0

common="p4template create header/race/parser1/ethernet len 14 start
p4template create hdrfield/race/parser1/ethernet/etherType type be16 offset 96
p4template create hdrfield/race/parser1/ipv4/protocol type bit8 offset 72
p4template create header/race/parser1/ipv4 len 20
p4template update header/race/parser1/ethernet select etherType transition 0x800 ipv4 default accept
p4template create action/race/cb/slow param m type bit32 cmd print prefix RACE metadata.kernel.skbmark cmd set metadata.kernel.skbmark param.m state active"
cat >"$dir/entry" <<EOT
p4template create pipeline/race pipeid 23 numtables 1 preactions action gact pipe postactions action gact pipe
$common
p4template create table/race/cb/proto tblid 1 type exact keysz 8 tentries 16
p4template create action/race/cb/proto_key cmd set key.race.cb/proto[0-7] $H.ipv4.protocol state active
p4template create action/race/cb/apply cmd tableapply table.race.cb/proto state active
p4template update table/race/cb/proto key action race/cb/proto_key
p4template update pipeline/race preactions action race/cb/apply pipe
p4template update pipeline/race state ready
p4 create race/table/cb/proto protocol 1 action race/cb/slow param m 0x33
EOT
cat >"$dir/preaction" <<EOT
p4template create pipeline/race pipeid 23 numtables 0 preactions action gact pipe postactions action gact pipe
$common
p4template update pipeline/race preactions action race/cb/slow param m 0x33 pipe
p4template update pipeline/race state ready
EOT
tc qdisc add dev rb0 clsact
mkfifo "$dir/cmds"

# race CASE: one packet held inside slow's program while CPU 1 deletes
# the filter and the pipeline
race() {
	local case=$1 start hit t_hit t_done rc took_ms
	expect_ok "$case: pipeline" tc -b "$dir/$case" || return
	expect_ok "$case: filter" tc filter add dev rb0 ingress prio 1 p4 pname race action gact ok || return

	# The writer is a tc reading its batch from a FIFO, started now on
	# CPU 1: starting a process while CPU 0 is held could wait for CPU 0
	# (a TLB shootdown), and the race would not happen.  This shell moves
	# to CPU 1 too and only uses builtins until the writer is done.
	taskset -pc 1 $$ >/dev/null
	taskset -c 1 tc -b "$dir/cmds" >"$dir/writer.out" 2>&1 &
	writer=$!
	exec {cmds}>"$dir/cmds"

	echo 1 >"$RD/armed"
	# (without the FIFO: the writer must see its end when this shell closes it)
	taskset -c 0 ip netns exec ra ping -c 1 -W 10 10.12.0.2 >/dev/null 2>&1 {cmds}>&- &
	pinger=$!

	# wait (builtins only) until the packet is inside the program
	start=$EPOCHREALTIME hit=0
	while [ "$hit" = 0 ]; do
		read -r hit <"$RD/hits"
		[ "${EPOCHREALTIME%.*}" -lt $((${start%.*} + 20)) ] || break
	done
	if [ "$hit" = 0 ]; then
		fail "$case: the packet never reached the print"
		exec {cmds}>&-
		return
	fi
	t_hit=$EPOCHREALTIME
	printf '%s\n' "filter del dev rb0 ingress prio 1" \
		"p4template del pipeline/race" >&"$cmds"
	exec {cmds}>&-
	wait "$writer"
	rc=$?
	t_done=$EPOCHREALTIME
	writer=
	[ "$rc" = 0 ] || fail "$case: the writer's batch failed ($rc): $(cat "$dir/writer.out")"

	# The pipeline's delete must wait for the packet (held DELAY_MS from
	# the hit): a delete back within half of that freed what it runs.
	took_ms=$(( (${t_done/./} - ${t_hit/./}) / 1000 ))
	[ "$took_ms" -ge $((DELAY_MS / 2)) ] ||
		fail "$case: the pipeline's delete returned ${took_ms} ms after the packet entered slow's program, which holds it ${DELAY_MS} ms: it did not wait for the packet"
	wait "$pinger"
	pinger=
	taskset -pc 0-1 $$ >/dev/null
	echo 0 >"$RD/hits"
	if dmesg | grep -qE "BUG: KASAN|general protection|Oops"; then
		fail "$case: the packet ran freed memory: $(dmesg | grep -m3 -E 'BUG: KASAN|general protection|Oops')"
	fi
	expect_err "$case: the pipeline is gone" 255 "Pipeline name not found" \
		tc p4template get pipeline/race
}

# the window: CPU 0 held where slow's print checked its rate (on return,
# interrupts on: a CPU held with them off could stop the jiffies that
# the writer sleeps on), only while a pipeline runs there
expect_ok "race_delay" modprobe race_delay symbol=___ratelimit at=return \
	gate=p4tc_pipeline_classify delay_ms=$DELAY_MS || finish
race entry
race preaction
finish
