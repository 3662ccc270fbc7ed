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

# tc and ip are linked statically, devlink dynamically.  In the debug
# guest (KASAN, kmemleak, under TCG) every exec of a dynamic program costs
# the dynamic loader's work and about 45 ms per shared library: on
# 2026-12-06 one "tc -V" took 494-648 ms dynamic and 183-253 ms static
# (two guests at once), and make check runs tc thousands of times.  The
# extack messages, which need libmnl in stock iproute2 (Debian ships no
# static libmnl), are parsed with iproute2's own helpers (patch 0005);
# the plugin lookups use iproute2's static-syms table (SHARED_LIBS=n).
# libbpf (eBPF object loading: the p4 classifier's "prog tc obj", "action
# bpf obj", "ip link set ... xdp obj") is linked in with libelf and
# zlib.  devlink keeps libmnl, which it needs for more than extack.
# scripts/pkg-config-lean tells configure which libraries to leave out.
conf="PKG_CONFIG=$top/scripts/pkg-config-lean ./configure --libbpf_force on"
mode="static tc ip; SHARED_LIBS=n"
if [ ! -e "$src/config.mk" ] || [ "$(cat "$out/configure.stamp" 2>/dev/null)" != "$conf; $mode" ]; then
	rm -f "$out/configure.stamp"
	run_logged iproute2-configure sh -c "cd '$src' && $conf"
	# libbpf is linked in: its version is the one tc was built with (with
	# LIBBPF_DYNAMIC, "tc -V" looks for a shared libbpf and complains)
	sed -i '/-DLIBBPF_DYNAMIC/d' "$src/config.mk"
	# objects built against the old config.mk or another mode
	run_logged iproute2-clean make -C "$src" clean
	printf '%s\n' "$conf; $mode" >"$out/configure.stamp"
fi
# config.mk names -lmnl for every program; tc and ip call no libmnl
# function any more (patch 0005), so their static link gets an empty
# libmnl.a: a libmnl call creeping back fails the link, loudly.
stub=$out/static-stubs
if [ ! -e "$stub/libmnl.a" ]; then
	mkdir -p "$stub"
	ar rc "$stub/libmnl.a"
fi
say "make tc ip (static) devlink (log: $logs/iproute2-build.log)"
run_logged iproute2-build sh -c "
	make -C '$src' -j'$jobs' SHARED_LIBS=n SUBDIRS='lib tc ip' LDFLAGS='-static -L$stub' &&
	make -C '$src' -j'$jobs' SHARED_LIBS=n SUBDIRS='devlink'"
for t in tc/tc ip/ip devlink/devlink; do
	cmp -s "$src/$t" "$out/bin/${t#*/}" || cp "$src/$t" "$out/bin/${t#*/}"
done
say "ok: $("$out/bin/tc" -V)"
