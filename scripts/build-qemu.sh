#!/usr/bin/env bash
# Build QEMU: Debian's qemu 7.2 source package (Debian's patches applied by
# make deps), qemu-device/patches/ applied and the qemu-device/overlay/ files
# (new files mirroring the QEMU tree) copied in, x86_64-softmmu only.
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

flags=(--target-list=x86_64-softmmu --without-default-features --enable-kvm
	--enable-slirp --enable-cap-ng --enable-attr --enable-virtfs
	--enable-fdt=system --disable-docs --disable-werror
	--enable-trace-backends=log)
fhash=$(printf '%s\n' "${flags[@]}" | sha256sum | cut -d' ' -f1)
if [ ! -e "$obj/build.ninja" ] || [ "$(cat "$out/configure.stamp" 2>/dev/null)" != "$fhash" ]; then
	say "configure ${flags[*]}"
	run_logged qemu-configure sh -c "cd '$obj' && '$src/configure' $(printf "'%s' " "${flags[@]}")"
	echo "$fhash" >"$out/configure.stamp"
fi

say "ninja qemu-system-x86_64 (log: $logs/qemu-build.log)"
run_logged qemu-build ninja -C "$obj" -j"$jobs" qemu-system-x86_64
ln -sf obj/qemu-system-x86_64 "$out/qemu-system-x86_64"
say "ok: $("$out/qemu-system-x86_64" --version | head -n1)"
