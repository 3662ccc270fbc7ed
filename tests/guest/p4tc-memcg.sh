#!/bin/bash
# What a user makes P4TC allocate is charged to the user's memory cgroup
# (GFP_KERNEL_ACCOUNT, as for other user-driven kernel objects): table
# entries a container's user adds count against the container's memory
# limit, not against the host's.  A tc run in a memory cgroup of its own
# adds entries; the cgroup's kernel memory ("slab" in memory.stat) must
# grow by at least the entries' size and shrink again once they are gone.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
export INTROSPECTION=$top/tests/introspection

N=600		# entries
MIN=64		# bytes an entry takes at least (its struct and key)
cg=/sys/fs/cgroup
grp=$cg/p4tc-memcg

cleanup() {
	tc p4template del pipeline/ptest 2>/dev/null
	[ -d "$grp" ] && rmdir "$grp" 2>/dev/null
}
trap cleanup EXIT

if ! grep -q cgroup2 /proc/mounts; then
	mount -t cgroup2 none "$cg" || { fail "cannot mount cgroup2"; finish; }
fi
grep -qw memory "$cg/cgroup.controllers" ||
	{ fail "no memory controller (CONFIG_MEMCG)"; finish; }
echo +memory >"$cg/cgroup.subtree_control"
mkdir -p "$grp"

# slab bytes charged to the group; memory.stat flushes the counters
slab() {
	awk '$1 == "slab" { print $2 }' "$grp/memory.stat"
}

# in_group CMD...: CMD runs as a member of the group
in_group() {
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$grp" "$@"
}

expect_ok "pipeline ptest with table cb/batch" tc -b - <<'EOF'
p4template create pipeline/ptest pipeid 22 numtables 1
p4template create table/ptest/cb/batch tblid 5 type exact keysz 32 tentries 100000
p4template update pipeline/ptest preactions action gact ok postactions action gact ok state ready
EOF

lines=$(mktemp)
for i in $(seq 1 $N); do
	echo "p4 create ptest/table/cb/batch k $i"
done >"$lines"

before=$(slab)
expect_ok "$N entries added from the group" in_group tc -b "$lines"
sleep 2		# the per-CPU charge stocks drain, the stats settle
added=$(slab)
grew=$((added - before))
[ "$grew" -ge $((N * MIN)) ] ||
	fail "the group's slab grew by $grew bytes for $N entries (at least $((N * MIN)) expected): entries are not charged to their creator's cgroup"

expect_ok "the entries deleted" tc p4 del ptest/table/cb/batch
expect_ok "the pipeline deleted" tc p4template del pipeline/ptest
sleep 2		# freed after an RCU grace period, by a worker
after=$(slab)
[ "$((added - after))" -ge $((N * MIN)) ] ||
	fail "the group's slab went from $added to $after bytes after the entries went: they were not uncharged"
echo "memcg: $N entries: the group's slab grew by $grew bytes, then fell by $((added - after))"
rm -f "$lines"
finish
