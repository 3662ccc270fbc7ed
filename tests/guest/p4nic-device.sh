#!/bin/bash
# The emulated P4 NIC as the guest sees it before any driver binds: the
# PCI function with its IDs and class, BAR 0 answering with the device
# ABI's registers, the MSI-X capability with 2 + 2 * ports vectors, the
# function-level reset capability, and one virtio-net tester port wired
# to each p4nic port.  make check boots with --ports 2.
. "$(dirname "$0")/lib.sh"

ports=${P4TC_PORTS:-0}
[ "$ports" -ge 1 ] || fail "no p4nic in this guest: boot with tests/vm/run --ports N"

dev=
for d in /sys/bus/pci/devices/*; do
	if [ "$(cat "$d/vendor")" = 0x1234 ] && [ "$(cat "$d/device")" = 0x5034 ]; then
		dev=$d
	fi
done
[ -n "$dev" ] || fail "no PCI function 1234:5034"
[ "$(cat "$dev/class")" = 0x020000 ] || fail "class is $(cat "$dev/class"), expected 0x020000"
[ "$(cat "$dev/revision")" = 0x01 ] || fail "revision is $(cat "$dev/revision")"
if command -v lspci >/dev/null; then
	lspci -nn -s "${dev##*/}" | grep -q "\[0200\]: .*\[1234:5034\]" ||
		fail "lspci does not show the function: $(lspci -nn -s "${dev##*/}")"
fi

# BAR 0 through sysfs, as a driver's first reads would see it
echo 1 >"$dev/enable" || fail "cannot enable the function"
# the version the device ABI header states (offload-api/p4nic_abi.h)
abi=$(dirname "$0")/../../offload-api/p4nic_abi.h
version=$(awk '/^#define P4NIC_ABI_MAJOR / { M = $3 } /^#define P4NIC_ABI_MINOR / { m = $3 }
	END { print M * 65536 + m }' "$abi")
[ "$version" -ge 65536 ] 2>/dev/null || fail "no ABI version in $abi"
/usr/bin/python3 - "$dev" "$ports" "$version" <<'PY' || fail "BAR 0 registers are wrong"
import mmap, os, struct, sys
dev, ports, version = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
fd = os.open(dev + "/resource0", os.O_RDONLY | os.O_SYNC)
bar = mmap.mmap(fd, 0x4000, mmap.MAP_SHARED, mmap.PROT_READ)
def reg(off):
    return struct.unpack("<I", bar[off:off + 4])[0]
want = {0x000: 0x434e3450, 0x004: version, 0x008: 3, 0x00c: ports,
        0x014: 1, 0x01c: 0}
for off, val in want.items():
    if reg(off) != val:
        sys.exit(f"register 0x{off:03x} reads 0x{reg(off):x}, expected 0x{val:x}")
for p in range(ports):
    mac = struct.pack("<IH", reg(0x1000 + 0x40 * p + 0x2c),
                      reg(0x1000 + 0x40 * p + 0x30) & 0xffff)
    if mac != bytes([0x52, 0x54, 0, 0x34, 0, p]):
        sys.exit(f"port {p} MAC is {mac.hex(':')}")
    if reg(0x1000 + 0x40 * p + 0x28) != 1:
        sys.exit(f"port {p} status 0x{reg(0x1000 + 0x40 * p + 0x28):x}: link up, not enabled expected")
PY
echo 0 >"$dev/enable"

# capabilities: MSI-X with its vectors, Advanced Features with FLR
caps=$(/usr/bin/python3 - "$dev" <<'PY'
import sys
cfg = open(sys.argv[1] + "/config", "rb").read()
pos, out = cfg[0x34], []
while pos:
    cid = cfg[pos]
    if cid == 0x11:
        out.append(f"msix={((cfg[pos + 2] | cfg[pos + 3] << 8) & 0x7ff) + 1}")
    elif cid == 0x13:
        out.append(f"af={cfg[pos + 3]}")
    pos = cfg[pos + 1]
print(" ".join(sorted(out)))
PY
)
[ "$caps" = "af=3 msix=$((2 + 2 * ports))" ] ||
	fail "capabilities '$caps', expected 'af=3 msix=$((2 + 2 * ports))'"
grep -q af_flr "$dev/reset_method" 2>/dev/null ||
	fail "the kernel offers no af_flr reset: $(cat "$dev/reset_method" 2>&1)"
echo 1 >"$dev/reset" || fail "function-level reset failed"

# a tester port per p4nic port
n=0
for i in /sys/class/net/*; do
	case $(cat "$i/address") in 52:54:00:7e:00:*) n=$((n + 1)) ;; esac
done
[ "$n" = "$ports" ] || fail "$n tester ports, expected $ports"

finish
