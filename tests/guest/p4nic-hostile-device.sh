#!/bin/bash
# The driver facing a device that breaks the ABI, and the paths a healthy
# device never takes:
#
# 1. a device that keeps writing events while the handler runs (QEMU's
#    x-babble: every read of a port's STATUS register writes another link
#    event past the head the driver gave).  The handler must stop after a
#    queue's worth, not spend the CPU on it for ever;
# 2. the command cookie's wrap (debugfs cookie): 0 means "no command
#    waiting" to the completion handler, so a command must never carry it;
# 3. a probe that fails after some ports exist (fail_function on
#    p4nic_port_create for the second port): the ports that were made go
#    again without a splat or a leak, and the next probe works.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
qmp=$top/tests/vm/qmp
dev_path=/machine/peripheral/p4nic0
EQ_SIZE=64	# P4NIC_EQ_SIZE, the driver's event queue
fi=/sys/kernel/debug/fail_function

[ "${P4TC_PORTS:-0}" -ge 2 ] || { fail "needs a p4nic with 2 ports"; finish; }

knob() {
	"$qmp" qom-set "{\"path\": \"$dev_path\", \"property\": \"$1\", \"value\": $2}" >/dev/null
}

knob_get() {
	"$qmp" qom-get "{\"path\": \"$dev_path\", \"property\": \"$1\"}"
}

set_link() {
	"$qmp" set_link "{\"name\": \"p4p0\", \"up\": $1}" >/dev/null
}

carrier_is() {
	local want=$1 i
	for i in $(seq 1 50); do
		[ "$(cat "/sys/class/net/$dev/carrier" 2>/dev/null)" = "$want" ] && return 0
		sleep 0.1
	done
	return 1
}

cleanup() {
	knob x-babble false
	set_link true
	[ -d "$fi" ] && echo >"$fi/inject" 2>/dev/null
	rmmod p4nic 2>/dev/null
}
trap cleanup EXIT

expect_ok "load the driver" modprobe p4nic
dev=$(p4nic_dev 0)
[ -n "$dev" ] || { fail "no netdev for p4nic port 0"; finish; }
pci=$(basename "$(readlink -f "/sys/class/net/$dev/device")")
expect_ok "port up" ip link set "$dev" up
carrier_is 1 || fail "no carrier on $dev"

# 1. The babbling device.  One link event (set_link) starts it; each
#    event the handler reads makes the device write one more.  A handler
#    without a budget never returns (the count keeps growing); ours reads
#    a queue's worth, then returns, and the device stops with it.
knob x-babble true || fail "qom-set x-babble"
set_link false
carrier_is 0 || fail "the link went down, the carrier did not"
sleep 1
n1=$(knob_get x-babbled)
sleep 1
n2=$(knob_get x-babbled)
[ "$n1" = "$n2" ] ||
	fail "the event handler still runs on a babbling device: $n1, then $n2 events"
[ "$n1" -ge 1 ] && [ "$n1" -le $EQ_SIZE ] ||
	fail "$n1 events babbled in one interrupt, expected 1..$EQ_SIZE"
knob x-babble false
# the events left in the queue are read with the next real one
set_link true
carrier_is 1 || fail "no carrier after the babbling stopped and the link came back"

# 2. The cookie's wrap: the next command gets 2^32-1, the one after must
#    skip 0 (whose completion the handler would drop: a timeout, then a
#    dead device).
ck=/sys/kernel/debug/p4nic/$pci/cookie
[ -w "$ck" ] || fail "no $ck"
dmesg -C
echo 4294967294 >"$ck"
expect_ok "down across the cookie's wrap" ip link set "$dev" down
expect_ok "up across the cookie's wrap" ip link set "$dev" up
expect_ok "down again" ip link set "$dev" down
c=$(cat "$ck")
[ "$c" -ge 1 ] && [ "$c" -lt 100 ] ||
	fail "cookie $c after the wrap, expected a small number"
dmesg | grep -q "timed out" && fail "a command timed out at the wrap: $(dmesg | grep 'timed out')"
expect_ok "the device still answers" ip link set "$dev" up
carrier_is 1 || fail "no carrier after the cookie's wrap"

# 3. A probe that fails at the second port: the first goes again.  The
#    function is in the module, so the module stays and the device is
#    unbound and bound again.
drv=/sys/bus/pci/drivers/p4nic
if [ ! -d "$fi" ]; then
	fail "no $fi (CONFIG_FAIL_FUNCTION)"
else
	expect_ok "unbind" sh -c "echo $pci >$drv/unbind"
	echo 0 >"$fi/verbose"	# no stack dump per injected failure
	expect_ok "inject into p4nic_port_create" sh -c "echo p4nic_port_create >$fi/inject"
	printf '%#x\n' -12 >"$fi/p4nic_port_create/retval"	# -ENOMEM
	echo 100 >"$fi/probability"
	echo 2 >"$fi/space"	# the first call passes
	echo 1 >"$fi/times"
	dmesg -C
	echo "$pci" >"$drv/bind" 2>/dev/null
	dmesg | grep -q "probe of $pci failed with error -12" ||
		fail "no failed probe logged: $(dmesg | tail -3)"
	[ -z "$(p4nic_dev 0)" ] || fail "a port survived the failed probe"
	[ -e "/sys/kernel/debug/p4nic/$pci" ] && fail "the failed probe left its debugfs directory"
	echo >"$fi/inject"
	expect_ok "bind again" sh -c "echo $pci >$drv/bind"
	dev=$(p4nic_dev 0)
	[ -n "$dev" ] && [ -n "$(p4nic_dev 1)" ] || fail "not both ports after the failed probe"
	expect_ok "port up after the failed probe" ip link set "$dev" up
	carrier_is 1 || fail "no carrier after the failed probe"
fi

expect_ok "unload" rmmod p4nic
finish
