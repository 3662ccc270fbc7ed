# Shared helpers for the build scripts.  Sourced, not run.
# shellcheck shell=bash

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD:-$top/build}
logs=$build/logs
mkdir -p "$logs"
jobs=${JOBS:-$(($(nproc) + 1))}

say() { printf '%s: %s\n' "$step" "$*"; }
die() { printf '%s: error: %s\n' "$step" "$*" >&2; exit 1; }

# run_logged NAME CMD...: run CMD with its output in $logs/NAME.log; on
# failure name the step, show the log's tail and its path, and exit.
run_logged() {
	local name=$1
	shift
	if ! "$@" >"$logs/$name.log" 2>&1; then
		printf '%s: error: step "%s" failed; last lines of %s:\n' \
			"$step" "$name" "$logs/$name.log" >&2
		tail -n 30 "$logs/$name.log" >&2
		exit 1
	fi
}

# hash_of FILE...: one content hash over files (names and bytes), so a
# stamp can tell when any of them changed, was added or was removed.
hash_of() {
	local f
	for f in "$@"; do
		[ -e "$f" ] || continue
		printf '%s\n' "${f#"$top"/}"
		cat "$f"
	done | sha256sum | cut -d' ' -f1
}

# sync_overlay SRC DST MANIFEST: copy every file below SRC to the same
# path below DST, touching only files whose bytes differ (so make rebuilds
# only what changed), and delete files a previous sync installed that SRC
# no longer has.
sync_overlay() {
	local src=$1 dst=$2 manifest=$3 f rel
	local new=$manifest.new
	: >"$new"
	if [ -d "$src" ]; then
		while IFS= read -r -d '' f; do
			rel=${f#"$src"/}
			printf '%s\n' "$rel" >>"$new"
			if ! cmp -s "$f" "$dst/$rel"; then
				mkdir -p "$(dirname "$dst/$rel")"
				cp "$f" "$dst/$rel"
			fi
		done < <(find "$src" -type f -print0 | sort -z)
	fi
	if [ -e "$manifest" ]; then
		comm -23 <(sort "$manifest") <(sort "$new") | while IFS= read -r rel; do
			rm -f "$dst/$rel"
		done
	fi
	mv "$new" "$manifest"
}

git_in() {
	local dir=$1
	shift
	git -C "$dir" -c user.name=p4tc -c user.email=p4tc@localhost "$@"
}

# tree_make_pristine SRC: make an unpacked source tree a git repository
# whose tag "pristine" is the tree as unpacked (once).
tree_make_pristine() {
	local src=$1
	[ -e "$src/.p4tc-pristine" ] && return 0
	say "recording the pristine tree of $src (once)"
	rm -rf "$src/.git"
	run_logged "$step-git-init" git_in "$src" init -q
	run_logged "$step-git-add" git_in "$src" add -A -f .
	run_logged "$step-git-commit" git_in "$src" commit -q -m pristine
	run_logged "$step-git-tag" git_in "$src" tag pristine
	touch "$src/.p4tc-pristine"
}

# tree_apply_patches SRC PATCHDIR STAMP: when the series in PATCHDIR
# changed, bring the tree's tracked files to pristine + the new series
# (sorted by name).  The series is applied to a scratch index first; then
# only files whose bytes differ from that result are rewritten, so a patch
# edit rebuilds what it changes, not everything the series touches.
tree_apply_patches() {
	local src=$1 dir=$2 stamp=$3 p h f
	local patches=() idx
	while IFS= read -r -d '' p; do patches+=("$p"); done \
		< <(find "$dir" -name '*.patch' -print0 2>/dev/null | sort -z)
	h=$(hash_of "${patches[@]}")
	[ "$(cat "$stamp" 2>/dev/null)" = "$h" ] && return 0
	say "applying ${#patches[@]} patches from ${dir#"$top"/}"
	rm -f "$stamp"
	idx=$(mktemp "$build/.series-index.XXXXXX")
	rm -f "$idx"
	GIT_INDEX_FILE=$idx git_in "$src" read-tree pristine
	for p in "${patches[@]}"; do
		GIT_INDEX_FILE=$idx git_in "$src" apply --cached --whitespace=nowarn "$p" \
			>"$logs/$step-patch.log" 2>&1 || {
			rm -f "$idx"
			die "patch ${p#"$top"/} does not apply (see $logs/$step-patch.log)"
		}
	done
	# Files the old or the new series touch: write those that differ.
	{ git_in "$src" diff --name-only pristine
	  GIT_INDEX_FILE=$idx git_in "$src" diff --cached --name-only pristine
	} | sort -u | while IFS= read -r f; do
		if GIT_INDEX_FILE=$idx git_in "$src" cat-file -e ":$f" 2>/dev/null; then
			GIT_INDEX_FILE=$idx git_in "$src" show ":$f" >"$idx.file"
			if ! cmp -s "$idx.file" "$src/$f"; then
				mkdir -p "$(dirname "$src/$f")"
				cat "$idx.file" >"$src/$f"	# keeps the file's mode
			fi
		else
			rm -f "$src/$f"	# a file the new series deletes
		fi
	done
	rm -f "$idx" "$idx.file"
	# The real index follows the tree (git status shows the series).
	git_in "$src" read-tree pristine
	echo "$h" >"$stamp"
}

# tree_overlay SRC OVERLAYDIR MANIFEST: copy the overlay's new files into
# the tree.  An overlay file that exists in the pristine tree is refused:
# changing an existing file is a patch, so that `make series` shows it.
tree_overlay() {
	local src=$1 dir=$2 manifest=$3 f rel
	while IFS= read -r -d '' f; do
		rel=${f#"$dir"/}
		if git_in "$src" cat-file -e "pristine:$rel" 2>/dev/null; then
			die "${dir#"$top"/}/$rel exists in the pristine tree: change it with a patch"
		fi
	done < <(find "$dir" -type f -print0 2>/dev/null)
	sync_overlay "$dir" "$src" "$manifest"
}

# ccache_setup: route every C compile of the build through Debian's
# ccache, with its store outside the clone, so that a fresh clone on a
# machine that built before (CI's case) compiles almost nothing.
#
#   P4TC_CCACHE_DIR   the store (default /var/cache/p4tc/ccache);
#                     "off" builds without a cache
#
# The compilers are reached through ccache's masquerade directory
# (/usr/lib/ccache first in PATH), so the command lines make and ninja
# record do not change with the cache on or off: turning it off, or a
# store that became unusable, rebuilds nothing.  CCACHE_BASEDIR is the
# clone, so the absolute paths of its source trees are hashed (and passed
# on) relative to the compiler's directory, the same in every clone; the
# working directory is left out of the hash (CCACHE_NOHASHDIR), so debug
# information keeps the first clone's directory name, which nothing reads.
# A store that is missing and cannot be made, is unwritable or on a disk
# with less than 1 GiB free leaves the build without a cache: said once
# per build (deps.sh runs first), never an error.  A store at its size
# limit is ccache's to handle: it evicts the oldest results
# (CCACHE_MAXSIZE).
free_kib() {
	df -Pk "$1" 2>/dev/null | awk 'NR == 2 { print $4 + 0; found = 1 } END { if (!found) print 0 }'
}

ccache_setup() {
	local dir=${P4TC_CCACHE_DIR:-/var/cache/p4tc/ccache} why=
	unset CCACHE_DISABLE
	if [ "$dir" = off ]; then
		why="P4TC_CCACHE_DIR=off"
	elif [ ! -x /usr/lib/ccache/gcc ]; then
		why="ccache is not installed (make deps installs it)"
	elif ! mkdir -p "$dir" 2>/dev/null; then
		why="cannot create $dir"
	elif ! { : >"$dir/.probe"; } 2>/dev/null; then
		why="$dir is not writable"
	elif [ "$(free_kib "$dir")" -lt 1048576 ]; then
		# ccache itself would go on without storing; say so instead
		why="$dir has less than 1 GiB free"
	fi
	if [ -n "$why" ]; then
		export CCACHE_DISABLE=1
		P4TC_CCACHE_OFF=$why
		return 0
	fi
	rm -f "$dir/.probe"
	export PATH=/usr/lib/ccache:$PATH
	export CCACHE_DIR=$dir CCACHE_BASEDIR=$top CCACHE_NOHASHDIR=1
	export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-25G}
	P4TC_CCACHE_OFF=
}
ccache_setup

# The output cache: whole build results (the kernel's bzImage, modules
# and headers; QEMU's binaries) stored under a key that hashes everything
# that goes into them, so that a fresh clone of a commit whose inputs this
# machine built before restores them in seconds instead of building.
#
#   P4TC_OUTPUT_CACHE  the store (default /var/cache/p4tc/outputs);
#                      "off" neither restores nor stores
#
# The newest OUTCACHE_KEEP results of each name are kept.  A store that
# cannot be made, read or written is skipped, said once per step.
OUTCACHE_KEEP=4
# outcache_open: true when the store is usable, its path in $outcache;
# the first refusal is said, once per step.
outcache_open() {
	if [ -z "${outcache_state:-}" ]; then
		outcache=${P4TC_OUTPUT_CACHE:-/var/cache/p4tc/outputs}
		outcache_state=ok
		if [ "$outcache" = off ]; then
			outcache_state=off
		elif ! mkdir -p "$outcache" 2>/dev/null || ! { : >"$outcache/.probe"; } 2>/dev/null; then
			outcache_state=off
			say "no output cache ($outcache not writable): building without it"
		else
			rm -f "$outcache/.probe"
		fi
	fi
	[ "$outcache_state" = ok ]
}

# tree_key SRC: the tree's content as a git tree id: tracked files as they
# are now (patched, edited by hand) and untracked ones (the overlay).  A
# scratch copy of the index keeps git's stat data, so only files that
# changed since the last add are hashed again.  What a build leaves in a
# source tree is not an input (QEMU's configure writes
# .git-submodule-status there; Python, __pycache__): with it, a fresh
# clone's key differed from the key its outputs were stored under.
tree_key() {
	local src=$1 idx
	idx=$(mktemp "$build/.key-index.XXXXXX")
	cp "$src/.git/index" "$idx"
	GIT_INDEX_FILE=$idx git_in "$src" add -A -f -- . ':!.git-submodule-status' \
		':!**/__pycache__' >/dev/null 2>&1 &&
		GIT_INDEX_FILE=$idx git_in "$src" write-tree
	rm -f "$idx"
}

# outcache_restore NAME KEY DEST: unpack the result stored as NAME-KEY
# into DEST; false when there is none.
outcache_restore() {
	local name=$1 key=$2 dest=$3
	outcache_open || return 1
	[ -r "$outcache/$name-$key.tar" ] || return 1
	mkdir -p "$dest"
	tar -C "$dest" -xf "$outcache/$name-$key.tar" 2>/dev/null || return 1
	touch "$outcache/$name-$key.tar"	# newest used: kept longest
}

# outcache_store NAME KEY BASE PATH...: store PATHs (relative to BASE) as
# NAME-KEY, then drop all but the newest OUTCACHE_KEEP results of NAME.
# A full disk or an unwritable store only costs the next clone a build.
outcache_store() {
	local name=$1 key=$2 base=$3 tmp
	shift 3
	outcache_open || return 0
	tmp=$outcache/.$name-$key.$$
	if tar -C "$base" -cf "$tmp" "$@" 2>/dev/null && mv "$tmp" "$outcache/$name-$key.tar"; then
		ls -t "$outcache/$name"-*.tar 2>/dev/null | tail -n +$((OUTCACHE_KEEP + 1)) |
			xargs -r rm -f
	else
		rm -f "$tmp"
		say "could not store the result in $outcache (full?): the next clone builds it"
	fi
}
