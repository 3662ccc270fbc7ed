#!/usr/bin/env bash
# Build QEMU's fuzzer for the p4nic: qemu-fuzz-x86_64 (QEMU's own
# tests/qtest/fuzz framework, --enable-fuzzing) with clang, libFuzzer and
# ASan + UBSan (--enable-sanitizers), from the source tree make qemu
# prepared (Debian's QEMU 7.2, our patches, the p4nic overlay and the
# firmware model), in build/qemu-fuzz/obj.  The target that matters is
# generic-fuzz-p4nic (qemu-device/patches/0002-*); tests/fuzz/p4nic/run
# runs it.
# Incremental like make qemu: configure reruns only when its flags change,
# ninja rebuilds what changed, and a tree built before on this machine
# comes from the output cache.
set -euo pipefail
step=qemu-fuzz
. "$(dirname "$0")/lib.sh"

src=$build/src/qemu
out=$build/qemu-fuzz
obj=$out/obj
mkdir -p "$obj"
[ -e "$build/qemu/outputs.key" ] || die "the QEMU tree is not prepared: run make qemu"

# Debian's clang 14 (libclang-rt-14-dev has libFuzzer and the sanitizers'
# runtimes); ccache's masquerade directory comes first in PATH (lib.sh).
# The q35 machine's SeaBIOS: Debian's, where make qemu's tests find it
# (bundle_links below).
flags=(--cc=clang --cxx=clang++ --host-cc=clang
	--target-list=x86_64-softmmu --without-default-features
	--enable-fuzzing --enable-sanitizers --disable-docs --disable-werror
	--enable-trace-backends=log
	--firmwarepath=/usr/share/seabios:/usr/share/qemu)
fhash=$(printf '%s\n' "${flags[@]}" | sha256sum | cut -d' ' -f1)

# QEMU looks for its firmware below qemu-bundle/ beside the binary when
# that exists (the build tree has one): the firmware path's directories
# are linked there too.
bundle_links() {
	local d
	for d in /usr/share/seabios /usr/share/qemu; do
		mkdir -p "$obj/qemu-bundle${d%/*}"
		ln -sfn "$d" "$obj/qemu-bundle$d"
	done
}

outputs=(obj/qemu-fuzz-x86_64)
key=$( { tree_key "$src"; echo "$fhash"; clang --version | head -n1
	cat "$top/scripts/build-qemu-fuzz.sh" "$top/scripts/lib.sh"; } | sha256sum | cut -c1-32)
if [ "$(cat "$out/outputs.key" 2>/dev/null)" = "$key" ] && [ -x "$obj/qemu-fuzz-x86_64" ]; then
	bundle_links
	say "up to date"
	exit 0
fi
rm -f "$out/outputs.key"
if [ ! -e "$obj/build.ninja" ] && outcache_restore qemu-fuzz "$key" "$out"; then
	echo "$key" >"$out/outputs.key"
	bundle_links
	say "ok: qemu-fuzz-x86_64, from the output cache"
	exit 0
fi
if [ ! -e "$obj/build.ninja" ] || [ "$(cat "$out/configure.stamp" 2>/dev/null)" != "$fhash" ]; then
	say "configure ${flags[*]}"
	run_logged qemu-fuzz-configure sh -c "cd '$obj' && '$src/configure' $(printf "'%s' " "${flags[@]}")"
	echo "$fhash" >"$out/configure.stamp"
fi

say "ninja qemu-fuzz-x86_64 (log: $logs/qemu-fuzz-build.log)"
run_logged qemu-fuzz-build ninja -C "$obj" -j"$jobs" qemu-fuzz-x86_64
echo "$key" >"$out/outputs.key"
bundle_links
outcache_store qemu-fuzz "$key" "$out" "${outputs[@]}"
say "ok: $obj/qemu-fuzz-x86_64"
