# Sourced: the router's test topology, used by tests/guest/program-router.sh
# and make demo.  Host sa (10.1.0.1/24 on a0) and host sc (10.2.0.1/24 on
# c0), each in its namespace, are wired to the router's ports b0 and b1
# (veth pairs); their default routes go through the router (10.1.0.254,
# 10.2.0.254), whose MACs they know (the router answers no ARP).
# shellcheck shell=bash

mac() { cat "/sys/class/net/$1/address"; }

# router_hosts: the namespaces, links and addresses; sets amac and cmac
router_hosts() {
	local ns
	ip netns add sa
	ip netns add sc
	ip link add a0 netns sa type veth peer name b0
	ip link add c0 netns sc type veth peer name b1
	for ns in sa sc; do
		ip netns exec $ns sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	done
	ip -n sa addr add 10.1.0.1/24 dev a0
	ip -n sc addr add 10.2.0.1/24 dev c0
	ip -n sa link set a0 up
	ip -n sc link set c0 up
	ip link set b0 up
	ip link set b1 up
	amac=$(ip netns exec sa cat /sys/class/net/a0/address)
	cmac=$(ip netns exec sc cat /sys/class/net/c0/address)
	ip -n sa neigh add 10.1.0.254 lladdr "$(mac b0)" dev a0
	ip -n sc neigh add 10.2.0.254 lladdr "$(mac b1)" dev c0
	ip -n sa route add default via 10.1.0.254
	ip -n sc route add default via 10.2.0.254
}

# router_hosts_del: undo router_hosts
router_hosts_del() {
	ip netns del sa 2>/dev/null
	ip netns del sc 2>/dev/null
	# the ports go with their peers; left alone, they go now
	ip link del b0 2>/dev/null
	ip link del b1 2>/dev/null
	return 0
}

# router_nic_hosts P0 P1: hosts t0 (10.1.0.1/24) and t1 (10.2.0.1/24) in
# their namespaces, on the virtio testers wired to p4nic ports P0 and P1
# (tests/vm/run --ports 2: tester p has MAC 52:54:00:7e:00:0p), their
# default routes through the router's ports, whose MACs they know; sets
# T0 and T1 (the testers' netdevs), amac and cmac
router_nic_hosts() {
	local p i dev port tst
	for p in 0 1; do
		port=$1
		shift
		tst=
		for i in /sys/class/net/*; do
			[ "$(cat "$i/address")" = "52:54:00:7e:00:0$p" ] && tst=$(basename "$i")
		done
		[ -n "$tst" ] || return 1
		ip netns add "t$p"
		ip link set "$tst" netns "t$p"
		ip netns exec "t$p" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
		ip -n "t$p" addr add "10.$((p + 1)).0.1/24" dev "$tst"
		ip -n "t$p" link set "$tst" up
		ip -n "t$p" neigh add "10.$((p + 1)).0.254" lladdr "$(mac "$port")" dev "$tst"
		ip -n "t$p" route add default via "10.$((p + 1)).0.254"
		ip link set "$port" up
		dev=$tst
		eval "T$p=\$dev"
	done
	amac=$(ip netns exec t0 cat "/sys/class/net/$T0/address")
	cmac=$(ip netns exec t1 cat "/sys/class/net/$T1/address")
}

# router_nexthops: next hop 1 is sc via b1, 2 is sa via b0, 3 drops
router_nexthops() {
	local rt="tc p4 create router/table/cb/nexthop"
	$rt nh 1 action router/cb/forward param dmac "$cmac" \
		param smac "$(mac b1)" param port b1 &&
	$rt nh 2 action router/cb/forward param dmac "$amac" \
		param smac "$(mac b0)" param port b0 &&
	$rt nh 3 action router/cb/drop
}
