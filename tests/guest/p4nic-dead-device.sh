#!/bin/bash
# The driver facing a device that misbehaves (QEMU's test knobs, set with
# qom-set): before a port's rings are freed the device must have stopped
# writing them.  A device that refuses to disable the port, or that
# reported a fatal error (after which no command is answered), is reset
# before the rings go; it then stays dead to the driver until a
# function-level reset brings it back, and the port works again.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
qmp=$top/tests/vm/qmp
dev_path=/machine/peripheral/p4nic0
PORT_SET=3	# P4NIC_CMD_PORT_SET

[ "${P4TC_PORTS:-0}" -ge 1 ] || { fail "no p4nic in this guest"; finish; }

knob() {
	"$qmp" qom-set "{\"path\": \"$dev_path\", \"property\": \"$1\", \"value\": $2}" >/dev/null
}

cleanup() {
	knob x-refuse-opcode 0
	rmmod p4nic 2>/dev/null
}
trap cleanup EXIT

# port 0 of the device in QEMU's view: "enabled" or "disabled"
port0_state() {
	"$qmp" x-query-p4nic | sed -n 's/^  port 0: .* link [a-z]* \([a-z]*\).*/\1/p'
}

# an FLR brings the device back; the port must come up and carry frames
revive() {
	local what=$1 pci
	pci=$(readlink -f "/sys/class/net/$dev/device")
	expect_ok "$what: function-level reset" sh -c "echo 1 >$pci/reset"
	expect_ok "$what: the port goes up again" ip link set "$dev" up
	[ "$(port0_state)" = enabled ] ||
		fail "$what: port 0 is $(port0_state) after the reset and up"
}

expect_ok "load the driver" modprobe p4nic
dev=$(p4nic_dev 0)
[ -n "$dev" ] || { fail "no netdev for p4nic port 0"; finish; }
expect_ok "port up" ip link set "$dev" up
[ "$(port0_state)" = enabled ] || fail "port 0 is $(port0_state) after up"

# 1. the device refuses PORT_SET: the driver must reset it, not free
#    rings a still-enabled port writes
dmesg -C
knob x-refuse-opcode $PORT_SET || fail "qom-set x-refuse-opcode"
expect_ok "port down while the device refuses" ip link set "$dev" down
knob x-refuse-opcode 0
[ "$(port0_state)" = disabled ] ||
	fail "port 0 is still $(port0_state) in the device after its rings were freed"
dmesg | grep -q "a port could not be disabled: resetting the device" ||
	fail "no reset logged: $(dmesg | tail -5)"
revive "after a refused disable"

# 2. a fatal error: no command gets an answer; the rings still must not
#    go before a reset
dmesg -C
knob x-fatal true || fail "qom-set x-fatal"
for i in $(seq 1 50); do
	dmesg | grep -q "device stopped" && break
	sleep 0.1
done
dmesg | grep -q "device stopped" || fail "no fatal error logged"
expect_ok "port down after a fatal error" ip link set "$dev" down
"$qmp" qom-get "{\"path\": \"$dev_path\", \"property\": \"x-fatal\"}" |
	grep -q false || fail "the device still holds its fatal error: no reset before the rings went"
revive "after a fatal error"

expect_ok "unload" rmmod p4nic
finish
