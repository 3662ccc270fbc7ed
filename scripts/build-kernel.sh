#!/usr/bin/env bash
# Build the guest kernel: Debian's linux-source-6.1, kernel/patches/ applied
# in series order, the kernel/linux/ overlay copied in, kernel/config/
# fragments merged onto tinyconfig.  Incremental: the tree is extracted
# once (as a git repository whose first commit is the pristine source) and
# only files whose bytes changed are rewritten, so make rebuilds only what
# depends on them.
#
# Layout under build/linux/:
#   src/      the source tree (git: tag "pristine" is Debian's source)
#   obj/      the object tree (make O=)
#   mods/     modules_install output (guest binds mods/lib/modules)
#   headers/  headers_install output (iproute2 builds against it)
#
# KERNEL_VARIANT=bench builds the same source without the debug and
# selftest fragments (no KASAN, lockdep, kmemleak), for the datapath
# benchmark: its obj/, mods/, bzImage and release go to build/linux-bench/.
set -euo pipefail
step=kernel
. "$(dirname "$0")/lib.sh"

tarball=/usr/src/linux-source-6.1.tar.xz
kdir=$build/linux
src=$kdir/src
case ${KERNEL_VARIANT:-test} in
test)
	vdir=$kdir
	frags=("$top"/kernel/config/*.config)
	;;
bench)
	vdir=$build/linux-bench
	frags=()
	for f in "$top"/kernel/config/*.config; do
		case $(basename "$f") in
		*-debug.config | *-selftest.config) ;;
		*) frags+=("$f") ;;
		esac
	done
	;;
*) die "KERNEL_VARIANT is test or bench, not '$KERNEL_VARIANT'" ;;
esac
obj=$vdir/obj
lg=kernel${KERNEL_VARIANT:+-$KERNEL_VARIANT}	# log names
lg=${lg%-test}
mkdir -p "$kdir" "$vdir" "$obj"

[ -r "$tarball" ] || die "$tarball missing: run make deps"

# 1. Extract once, and record the pristine tree (git tag "pristine").
if [ ! -e "$src/.p4tc-pristine" ]; then
	say "extracting $tarball (once)"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	run_logged kernel-extract tar -C "$src.tmp" --strip-components=1 -xf "$tarball"
	mv "$src.tmp" "$src"
	rm -f "$kdir/patches.stamp" "$kdir/overlay.manifest"
fi
tree_make_pristine "$src"

# 2. Patches (when the series changed) and 3. the overlay (new files only).
tree_apply_patches "$src" "$top/kernel/patches" "$kdir/patches.stamp"
tree_overlay "$src" "$top/kernel/linux" "$kdir/overlay.manifest"
# The device ABI is shared byte for byte with QEMU's device and the
# firmware model: one copy in offload-api/, installed as a kernel header.
mkdir -p "$kdir/stage/include/linux"
cp "$top/offload-api/p4nic_abi.h" "$kdir/stage/include/linux/"
sync_overlay "$kdir/stage/include/linux" "$src/include/linux" "$kdir/abi.manifest"

# 4. The output cache (lib.sh): the key is the source tree as it is now,
# the fragments, the tools and this script.  Outputs built from the same
# key are used as they are: here (nothing changed since the last build)
# or from the cache (a fresh clone of a commit this machine built).
variant=${KERNEL_VARIANT:-test}
outputs=(bzImage mods release config config.stamp)
[ "$variant" != test ] || outputs+=(headers)
key=$( { tree_key "$src"; for f in "${frags[@]}"; do echo "${f##*/}"; cat "$f"; done
	gcc --version | head -n1; pahole --version
	cat "$top/scripts/build-kernel.sh" "$top/scripts/lib.sh"; } | sha256sum | cut -c1-32)
if [ "$(cat "$vdir/outputs.key" 2>/dev/null)" = "$key" ] && [ -e "$vdir/bzImage" ]; then
	say "up to date: $(cat "$vdir/release") ($variant)"
	exit 0
fi
rm -f "$vdir/outputs.key"
if [ ! -e "$obj/vmlinux" ] && outcache_restore "kernel-$variant" "$key" "$vdir"; then
	# the configuration too, for a later build in this tree (and the demo)
	cp "$vdir/config" "$obj/.config"
	echo "$key" >"$vdir/outputs.key"
	say "ok: $(cat "$vdir/release") ($variant), from the output cache"
	exit 0
fi

# 5. Configuration: tinyconfig + fragments, redone only when they change.
chash=$(hash_of "${frags[@]}")
if [ ! -e "$obj/.config" ] || [ "$(cat "$vdir/config.stamp" 2>/dev/null)" != "$chash" ]; then
	say "configuring (tinyconfig + ${#frags[@]} fragments)"
	run_logged $lg-config sh -c "
		make -C '$src' O='$obj' tinyconfig &&
		cd '$obj' && '$src/scripts/kconfig/merge_config.sh' -m -O '$obj' '$obj/.config' $(printf "'%s' " "${frags[@]}") &&
		make -C '$src' O='$obj' olddefconfig"
	# Every symbol a fragment asks for must have taken: a silent drop
	# (unmet dependency) is a configuration bug, not a warning.
	bad=0
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*)
			sym=${line%%=*}
			grep -qxF "$line" "$obj/.config" || {
				echo "kernel: $sym: asked '$line', got '$(grep -E "^(# )?$sym[= ]" "$obj/.config" || echo unset)'" >&2
				bad=1
			}
			;;
		"# CONFIG_"*" is not set")
			sym=${line#\# }
			sym=${sym%% *}
			if grep -qE "^$sym=" "$obj/.config"; then
				echo "kernel: $sym: asked unset, got set" >&2
				bad=1
			fi
			;;
		esac
	done < <(cat "${frags[@]}")
	[ "$bad" = 0 ] || die "configuration fragments did not all apply (log: $logs/$lg-config.log)"
	echo "$chash" >"$vdir/config.stamp"
fi

# 6. Build.  LOCALVERSION set (empty) keeps setlocalversion from appending
# a "+" because the source tree is a git repository.
# The same objects from every clone (ccache_setup in lib.sh): the build's
# user, host and time are fixed, and __FILE__ loses the source tree's
# path however the compiler is given it (absolute without ccache,
# relative to the object tree with it).
export KBUILD_BUILD_USER=p4tc KBUILD_BUILD_HOST=p4tc
export KBUILD_BUILD_TIMESTAMP="${KBUILD_BUILD_TIMESTAMP:-Thu Jan  1 00:00:00 UTC 2026}"
export KCFLAGS="-fmacro-prefix-map=$(realpath --relative-to="$obj" "$src")/="
say "make bzImage modules (-j$jobs; log: $logs/$lg-build.log)"
run_logged $lg-build make -C "$src" O="$obj" -j"$jobs" LOCALVERSION= bzImage modules
run_logged $lg-modules-install sh -c "rm -rf '$vdir/mods.tmp' &&
	make -C '$src' O='$obj' LOCALVERSION= INSTALL_MOD_PATH='$vdir/mods.tmp' modules_install &&
	rm -rf '$vdir/mods' && mv '$vdir/mods.tmp' '$vdir/mods'"
# iproute2 builds against the test kernel's headers; the UAPI is the same
[ "$vdir" != "$kdir" ] ||
	run_logged kernel-headers-install make -C "$src" O="$obj" INSTALL_HDR_PATH="$kdir/headers" headers_install
cp "$obj/arch/x86/boot/bzImage" "$vdir/bzImage.tmp" && mv "$vdir/bzImage.tmp" "$vdir/bzImage"
make -s -C "$src" O="$obj" LOCALVERSION= kernelrelease >"$vdir/release"
cp "$obj/.config" "$vdir/config"
echo "$key" >"$vdir/outputs.key"
outcache_store "kernel-$variant" "$key" "$vdir" "${outputs[@]}"
say "ok: $(cat "$vdir/release") (${KERNEL_VARIANT:-test})"
