#!/bin/bash
# The build's caches (scripts/lib.sh) on bad stores: a compiler cache or
# output cache directory that cannot be made, is not writable or is on a
# full disk leaves the build without that cache and says so once; a
# usable output cache stores, restores and keeps the newest results.
# One line per check ("ok" or "FAIL"), then "caches: N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
passed=0 failed=0
check() {	# check DESC CONDITION-EXIT-STATUS
	if [ "$2" = 0 ]; then
		passed=$((passed + 1)); echo "ok   caches: $1"
	else
		failed=$((failed + 1)); echo "FAIL caches: $1"
	fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ccache_setup: WHY when the store at DIR is unusable
ccache_why() {
	P4TC_CCACHE_DIR=$1 bash -c 'step=t; . "$0/scripts/lib.sh"
		[ "${CCACHE_DISABLE:-}" = 1 ] && echo "$P4TC_CCACHE_OFF"' "$top"
}
why=$(ccache_why /proc/p4tc-nope/ccache)
[[ $why = "cannot create /proc/p4tc-nope/ccache" ]]
check "a compiler cache that cannot be made is off ($why)" $?
why=$(ccache_why /sys/kernel)
[[ $why = "/sys/kernel is not writable" ]]
check "an unwritable compiler cache is off ($why)" $?
why=$(ccache_why off)
[[ $why = "P4TC_CCACHE_DIR=off" ]]
check "P4TC_CCACHE_DIR=off turns it off" $?
if [ -x /usr/lib/ccache/gcc ]; then
	why=$(ccache_why "$tmp/cc")
	[ -z "$why" ] && [ -d "$tmp/cc" ]
	check "a usable compiler cache is made and used" $?
fi

# outcache: what the build says and does with STORE
outcache_try() {
	P4TC_OUTPUT_CACHE=$1 bash -c 'step=t; . "$0/scripts/lib.sh"
		outcache_restore x k "$1/dst"; echo "restore $?"
		outcache_store x k "$1/src" blob; echo "store $?"' "$top" "$tmp" 2>&1
}
mkdir -p "$tmp/src"
head -c 300000 /dev/urandom >"$tmp/src/blob"
out=$(outcache_try /sys/kernel)
[ "$(grep -c 'no output cache (/sys/kernel not writable): building without it' <<<"$out")" = 1 ] &&
	grep -qx "restore 1" <<<"$out" && grep -qx "store 0" <<<"$out"
check "an unwritable output cache is skipped, said once" $?
out=$(outcache_try /proc/p4tc-nope/out)
[ "$(grep -c 'no output cache' <<<"$out")" = 1 ] && grep -qx "store 0" <<<"$out"
check "an output cache that cannot be made is skipped, said once" $?
# a full disk, in a mount namespace of our own (root only)
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
	mkdir -p "$tmp/full"
	out=$(unshare -m bash -c 'mount -t tmpfs -o size=256k tmpfs "$1" &&
		mkdir "$1/cc" "$1/out" && { dd if=/dev/zero of="$1/fill" bs=4k 2>/dev/null; true; } &&
		P4TC_CCACHE_DIR=$1/cc bash -c "step=t; . \"\$0/scripts/lib.sh\"; echo \"cc: \$P4TC_CCACHE_OFF\"" "$2" &&
		P4TC_OUTPUT_CACHE=$1/out bash -c "step=t; . \"\$0/scripts/lib.sh\"
			outcache_store x k \"\$1/src\" blob; echo \"store \$?\"" "$2" "$3"' \
		_ "$tmp/full" "$top" "$tmp" 2>&1) || true
	grep -q "^cc: .* has less than 1 GiB free$" <<<"$out"
	check "a compiler cache on a full disk is off" $?
	grep -q "could not store the result in .* (full?): the next clone builds it" <<<"$out" &&
		grep -qx "store 0" <<<"$out"
	check "an output cache on a full disk: the build goes on, said" $?
fi
# a usable store: round trip, and only the newest OUTCACHE_KEEP kept
P4TC_OUTPUT_CACHE=$tmp/out bash -c 'step=t; . "$0/scripts/lib.sh"
	for k in 1 2 3 4 5 6; do outcache_store x "$k" "$1/src" blob; sleep 0.01; touch -d "-$((10 - k)) min" "$outcache/x-$k.tar"; done
	outcache_restore x 6 "$1/dst"' "$top" "$tmp"
cmp -s "$tmp/src/blob" "$tmp/dst/blob" && [ "$(ls "$tmp/out" | wc -l)" -le 5 ] &&
	[ -e "$tmp/out/x-6.tar" ] && [ ! -e "$tmp/out/x-1.tar" ]
check "an output cache stores, restores and drops the oldest" $?
echo "caches: $passed passed, $failed failed"
[ "$failed" = 0 ]
