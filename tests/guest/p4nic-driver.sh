#!/bin/bash
# The p4nic driver as a plain NIC (no pipeline loaded): it binds, gives
# one netdev per port with the device's MACs, and pings cross the emulated
# wire both ways between each tester port (in its own namespace) and its
# p4nic port; ethtool shows the driver, the ABI and the device's counters;
# the module unloads with traffic flowing and loads again.  make check
# boots with --ports 2.
. "$(dirname "$0")/lib.sh"

ports=${P4TC_PORTS:-0}
[ "$ports" -ge 1 ] || fail "no p4nic in this guest: boot with tests/vm/run --ports N"

cleanup() {
	for p in $(seq 0 $((ports - 1))); do
		ip netns del "t$p" 2>/dev/null
	done
	rmmod p4nic 2>/dev/null
}
trap cleanup EXIT

# setup: testers into their namespaces, addresses on both sides
setup() {
	local p dev tst
	for p in $(seq 0 $((ports - 1))); do
		dev=$(p4nic_dev "$p")
		[ -n "$dev" ] || { fail "no netdev for p4nic port $p"; continue; }
		[ "$(cat "/sys/class/net/$dev/address")" = "52:54:00:34:00:0$p" ] ||
			fail "port $p MAC is $(cat "/sys/class/net/$dev/address")"
		ip addr add "10.77.$p.2/24" dev "$dev"
		ip link set "$dev" up
		if ! ip netns list | grep -qw "t$p"; then
			tst=$(tester_dev "$p")
			ip netns add "t$p"
			ip link set "$tst" netns "t$p"
			ip -n "t$p" addr add "10.77.$p.1/24" dev "$tst"
			ip -n "t$p" link set "$tst" up
		fi
	done
}

expect_ok "load the driver" modprobe p4nic
setup
for p in $(seq 0 $((ports - 1))); do
	dev=$(p4nic_dev "$p")
	[ -n "$dev" ] || continue
	for i in $(seq 1 50); do
		[ "$(cat "/sys/class/net/$dev/carrier" 2>/dev/null)" = 1 ] && break
		sleep 0.1
	done
	[ "$(cat "/sys/class/net/$dev/carrier")" = 1 ] || fail "$dev: no carrier"
	expect_ok "ping from tester $p to p4nic port $p" \
		ip netns exec "t$p" ping -c 3 -i 0.2 -W 5 "10.77.$p.2"
	expect_ok "ping from p4nic port $p to tester $p" \
		ping -c 3 -i 0.2 -W 5 -I "$dev" "10.77.$p.1"
	info=$(ethtool -i "$dev")
	grep -q "^driver: p4nic" <<<"$info" || fail "$dev: ethtool -i: $info"
	grep -q "^firmware-version: 1\.2\.0 (ABI 1\.2)" <<<"$info" || fail "$dev: ethtool -i: $info"
	stats=$(ethtool -S "$dev")
	rx=$(sed -n 's/^ *hw_wire_rx_packets: //p' <<<"$stats")
	tohost=$(sed -n 's/^ *hw_to_host: //p' <<<"$stats")
	[ "${rx:-0}" -ge 6 ] && [ "${tohost:-0}" -ge 6 ] ||
		fail "$dev: the device counted rx '$rx' to_host '$tohost', expected 6 or more"
	[ "$(cat "/sys/class/net/$dev/statistics/rx_packets")" -ge 6 ] ||
		fail "$dev: rx_packets $(cat "/sys/class/net/$dev/statistics/rx_packets")"
done

# devlink: the driver, the device and its versions; its table capacity,
# empty without a pipeline
pci=$(basename "$(readlink -f "/sys/class/net/$(p4nic_dev 0)/device")")
info=$(devlink -j dev info "pci/$pci")
[ "$(json_get "$info" "' '.join(v['driver'] + ' ' + v['versions']['fixed']['asic.id'] + ' ' + v['versions']['running']['fw'] + ' ' + v['versions']['running']['fw.mgmt.api'] for v in j['info'].values())")" = "p4nic 1234:5034 1.2.0 1.2" ] ||
	fail "devlink dev info: $info"
res=$(devlink -j resource show "pci/$pci")
[ "$(json_get "$res" "' '.join('%s %s %s' % (r['name'], r['size'], r['occ']) for d in j['resources'].values() for r in d)")" = "tables 32 0 entries 1048576 0" ] ||
	fail "devlink resource show: $res"
expect_err "a resource size the device fixes" 1 "." \
	devlink resource set "pci/$pci" path /entries size 1024

# down and up again
dev=$(p4nic_dev 0)
ip link set "$dev" down
ip link set "$dev" up
expect_ok "ping after down/up" ip netns exec t0 ping -c 2 -i 0.2 -W 5 10.77.0.2

# a function-level reset through sysfs while pings flow: the ports stop,
# the device comes back with its queues, and the ports run again
dev=$(p4nic_dev 0)
pci=$(readlink -f "/sys/class/net/$dev/device")
ip netns exec t0 ping -i 0.05 -c 100 -q 10.77.0.2 >/dev/null 2>&1 &
pinger=$!
sleep 1
expect_ok "function-level reset with the driver bound" sh -c "echo 1 >$pci/reset"
wait $pinger
[ "$(cat "/sys/class/net/$dev/operstate")" = up ] ||
	fail "$dev is $(cat "/sys/class/net/$dev/operstate") after the reset"
expect_ok "ping after the reset" ip netns exec t0 ping -c 3 -i 0.2 -W 5 10.77.0.2

# unload with traffic flowing, load again
ip netns exec t0 ping -i 0.01 -c 500 -q 10.77.0.2 >/dev/null 2>&1 &
pinger=$!
sleep 1
expect_ok "unload with traffic" rmmod p4nic
wait $pinger
[ -z "$(p4nic_dev 0)" ] || fail "netdevs left after rmmod"
expect_ok "load again" modprobe p4nic
setup
expect_ok "ping after reload" ip netns exec t0 ping -c 3 -i 0.2 -W 5 10.77.0.2

finish
