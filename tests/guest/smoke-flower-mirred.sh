#!/bin/bash
# Smoke test of the guest's datapath: two hosts in their own namespaces,
# each on a veth pair whose other end is in the root namespace; flower
# filters (skip_hw) with mirred redirect join the two root-side ends.  Ping
# must cross, the filters must count it, and without the filters it must
# not cross (so the test proves the path goes through tc).
. "$(dirname "$0")/lib.sh"

cleanup() { ip netns del sa 2>/dev/null; ip netns del sc 2>/dev/null; }
trap cleanup EXIT

expect_ok "netns" ip netns add sa
expect_ok "netns" ip netns add sc
expect_ok "veth a" ip link add a0 netns sa type veth peer name b0
expect_ok "veth c" ip link add c0 netns sc type veth peer name b1
ip -n sa addr add 10.11.0.1/24 dev a0
ip -n sc addr add 10.11.0.2/24 dev c0
for l in "-n sa link set a0 up" "-n sc link set c0 up" "link set b0 up" "link set b1 up"; do
	# shellcheck disable=SC2086
	ip $l
done

expect_err "ping without filters" 1 "100% packet loss" \
	ip netns exec sa ping -c 1 -W 1 10.11.0.2

expect_ok "clsact b0" tc qdisc add dev b0 clsact
expect_ok "clsact b1" tc qdisc add dev b1 clsact
expect_ok "flower b0" tc filter add dev b0 ingress protocol all prio 1 \
	flower skip_hw action mirred egress redirect dev b1
expect_ok "flower b1" tc filter add dev b1 ingress protocol all prio 1 \
	flower skip_hw action mirred egress redirect dev b0

# -w: a reply lost on a loaded machine costs time, not the test (3 replies
# are needed, for at most 10 s)
expect_ok "ping through flower+mirred" ip netns exec sa ping -c 3 -i 0.2 -w 10 10.11.0.2

# One python run for both checks: each costs seconds in the debug guest.
j=$(tc -s -j filter show dev b0 ingress)
res=$(json_get "$j" '(lambda o: "%d %s" % (o["actions"][0]["stats"]["packets"],
	",".join(k for k in ("skip_hw", "not_in_hw") if o.get(k))))([f for f in j if "options" in f][0]["options"])')
[ "${res%% *}" -ge 3 ] 2>/dev/null || fail "flower on b0 counted '${res%% *}' packets, expected at least 3"
[ "${res#* }" = "skip_hw,not_in_hw" ] || fail "flower on b0 shows flags '${res#* }', expected 'skip_hw,not_in_hw'"

expect_ok "filter delete" tc filter del dev b1 ingress prio 1
expect_err "ping after delete" 1 "100% packet loss" \
	ip netns exec sa ping -c 1 -W 1 10.11.0.2
finish
