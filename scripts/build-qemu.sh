#!/usr/bin/env bash
# Build QEMU: Debian's qemu 7.2 source package (Debian's patches applied by
# make deps), qemu-device/patches/ applied and the qemu-device/overlay/ files
# (new files mirroring the QEMU tree) copied in, x86_64-softmmu only, with
# the p4nic device and its qtest.
# Incremental: configure reruns only when its flags change; ninja rebuilds
# what changed.
set -euo pipefail
step=qemu
. "$(dirname "$0")/lib.sh"

src=$build/src/qemu
out=$build/qemu
obj=$out/obj
mkdir -p "$obj"
[ -e "$src/.p4tc-fetched" ] || die "QEMU source missing: run make deps"

tree_make_pristine "$src"
tree_apply_patches "$src" "$top/qemu-device/patches" "$out/patches.stamp"
tree_overlay "$src" "$top/qemu-device/overlay" "$out/overlay.manifest"

# The firmware model is the device's brain: its sources and the device ABI
# go beside the device (hw/net/p4nic/fw), and the image assembler and
# example programs of its tests beside the qtest that loads them.  Copies
# are rewritten only when their bytes change, so ninja rebuilds what did.
stage=$out/stage
rm -rf "$stage"
mkdir -p "$stage/abi" "$stage/qtest"
cp "$top/offload-api/p4nic_abi.h" "$stage/abi/"
cp "$top/offload-api/p4nic_abi.h" "$top"/firmware-model/tests/{imgbuild,programs}.[ch] \
	"$stage/qtest/"
sync_overlay "$top/firmware-model/src" "$src/hw/net/p4nic/fw/src" "$out/fw-src.manifest"
sync_overlay "$top/firmware-model/include" "$src/hw/net/p4nic/fw/include" "$out/fw-include.manifest"
sync_overlay "$stage/abi" "$src/hw/net/p4nic/fw/abi" "$out/fw-abi.manifest"
sync_overlay "$stage/qtest" "$src/tests/qtest/p4nic" "$out/qtest-fw.manifest"

flags=(--target-list=x86_64-softmmu --without-default-features --enable-kvm
	--enable-slirp --enable-cap-ng --enable-attr --enable-virtfs
	--enable-fdt=system --disable-docs --disable-werror
	--enable-trace-backends=log)
fhash=$(printf '%s\n' "${flags[@]}" | sha256sum | cut -d' ' -f1)

# The output cache (lib.sh): the key is the source tree as it is now
# (patches, overlay and firmware model in), the flags, the compiler and
# this script.  The same key as the last build: nothing to do; a tree
# never built here: the binaries from the cache, when it has them.
outputs=(obj/qemu-system-x86_64 obj/tests/qtest/p4nic-test)
key=$( { tree_key "$src"; echo "$fhash"; cc --version | head -n1
	cat "$top/scripts/build-qemu.sh" "$top/scripts/lib.sh"; } | sha256sum | cut -c1-32)
if [ "$(cat "$out/outputs.key" 2>/dev/null)" = "$key" ] && [ -x "$obj/qemu-system-x86_64" ]; then
	ln -sf obj/qemu-system-x86_64 "$out/qemu-system-x86_64"
	say "up to date"
	exit 0
fi
rm -f "$out/outputs.key"
if [ ! -e "$obj/build.ninja" ] && outcache_restore qemu "$key" "$out"; then
	ln -sf obj/qemu-system-x86_64 "$out/qemu-system-x86_64"
	echo "$key" >"$out/outputs.key"
	say "ok: $("$out/qemu-system-x86_64" --version | head -n1), from the output cache"
	exit 0
fi
if [ ! -e "$obj/build.ninja" ] || [ "$(cat "$out/configure.stamp" 2>/dev/null)" != "$fhash" ]; then
	say "configure ${flags[*]}"
	run_logged qemu-configure sh -c "cd '$obj' && '$src/configure' $(printf "'%s' " "${flags[@]}")"
	echo "$fhash" >"$out/configure.stamp"
fi

say "ninja qemu-system-x86_64 tests/qtest/p4nic-test (log: $logs/qemu-build.log)"
run_logged qemu-build ninja -C "$obj" -j"$jobs" qemu-system-x86_64 tests/qtest/p4nic-test
ln -sf obj/qemu-system-x86_64 "$out/qemu-system-x86_64"
echo "$key" >"$out/outputs.key"
outcache_store qemu "$key" "$out" "${outputs[@]}"
say "ok: $("$out/qemu-system-x86_64" --version | head -n1)"
