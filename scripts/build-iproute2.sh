#!/usr/bin/env bash
# Build tc and ip from Debian's iproute2 6.1 source with kernel/iproute2/
# patches and the new files of kernel/iproute2/overlay/, against the
# patched kernel's UAPI headers: every UAPI header
# that our kernel patches change or our overlay adds is copied (as
# sanitized by headers_install) over iproute2's own copy.
set -euo pipefail
step=iproute2
. "$(dirname "$0")/lib.sh"

src=$build/src/iproute2
out=$build/iproute2
ksrc=$build/linux/src
khdr=$build/linux/headers/include
mkdir -p "$out/bin"
[ -e "$src/.p4tc-fetched" ] || die "iproute2 source missing: run make deps"
[ -d "$khdr" ] || die "kernel headers missing: build the kernel first (make kernel)"

tree_make_pristine "$src"
tree_apply_patches "$src" "$top/kernel/iproute2" "$out/patches.stamp"
tree_overlay "$src" "$top/kernel/iproute2/overlay" "$out/overlay.manifest"

# UAPI headers our kernel changes or adds.
changed=$( { git_in "$ksrc" diff --name-only pristine -- include/uapi/linux
	     git_in "$ksrc" ls-files --others -- include/uapi/linux; } | sort -u)
for f in $changed; do
	name=${f#include/uapi/linux/}
	[ -e "$khdr/linux/$name" ] || continue
	cmp -s "$khdr/linux/$name" "$src/include/uapi/linux/$name" ||
		cp "$khdr/linux/$name" "$src/include/uapi/linux/$name"
done

# Only libmnl (extack messages) besides libc.  In the debug guest every
# shared library a program loads costs about 45 ms per exec (KASAN and
# kmemleak on each mmap and fault), and make check runs tc thousands of
# times: with Debian's full set (libbpf, libelf, libz, libcap, libbsd,
# libmd) one tc took 622 ms, with libmnl alone 356 ms.  libbpf (eBPF
# object loading: the p4 classifier's "prog tc obj", "action bpf obj")
# is linked in statically with libelf and zlib, which costs no load.
# scripts/pkg-config-lean tells configure the others are absent.
conf="PKG_CONFIG=$top/scripts/pkg-config-lean ./configure --libbpf_force on"
if [ ! -e "$src/config.mk" ] || [ "$(cat "$out/configure.stamp" 2>/dev/null)" != "$conf" ]; then
	rm -f "$out/configure.stamp"
	run_logged iproute2-configure sh -c "cd '$src' && $conf"
	# libbpf is linked in: its version is the one tc was built with (with
	# LIBBPF_DYNAMIC, "tc -V" looks for a shared libbpf and complains)
	sed -i '/-DLIBBPF_DYNAMIC/d' "$src/config.mk"
	# objects built against the old config.mk
	run_logged iproute2-clean make -C "$src" clean
	printf '%s\n' "$conf" >"$out/configure.stamp"
fi
say "make tc ip devlink (log: $logs/iproute2-build.log)"
run_logged iproute2-build make -C "$src" -j"$jobs" SUBDIRS="lib tc ip devlink"
for t in tc/tc ip/ip devlink/devlink; do
	cmp -s "$src/$t" "$out/bin/${t#*/}" || cp "$src/$t" "$out/bin/${t#*/}"
done
say "ok: $("$out/bin/tc" -V)"
