#!/usr/bin/env bash
# make series: our kernel changes as a git format-patch series with a cover
# letter, against the pristine Debian 6.1 tree, in build/series/.
#   - each kernel/patches/*.patch becomes one commit (git am for mails,
#     else applied with the file name as subject);
#   - the kernel/linux/ overlay becomes one commit per directory, in the
#     order kernel/series-order lists (directories not listed come last),
#     with the message in kernel/commit-messages/DIR.txt (DIR with / as -;
#     first line the subject) or a generated one.
# The cover letter is kernel/cover-letter.txt: first line the subject.
set -euo pipefail
step=series
. "$(dirname "$0")/lib.sh"

ksrc=$build/linux/src
work=$build/series-work
out=$build/series
[ -e "$ksrc/.p4tc-pristine" ] || die "kernel tree not extracted yet: run make kernel"

rm -rf "$work" "$out"
git_in "$ksrc" worktree prune
git_in "$ksrc" worktree add -q --detach "$work" pristine
trap 'git_in "$ksrc" worktree remove --force "$work" 2>/dev/null || true' EXIT

commit_patch() {
	local p=$1
	if head -n 20 "$p" | grep -q '^Subject: '; then
		git_in "$work" am -q --keep-cr "$p" || die "git am ${p#"$top"/} failed"
	else
		git_in "$work" apply --index "$p" || die "${p#"$top"/} does not apply"
		git_in "$work" commit -q -m "$(basename "$p" .patch)"
	fi
}

# "patch NAME" lines of series-order place a patch among the overlay
# commits (build glue after the code it builds); the others go first.
placed=$( [ -e "$top/kernel/series-order" ] && awk '$1 == "patch" { print $2 }' "$top/kernel/series-order" || true)
for p in $(find "$top/kernel/patches" -name '*.patch' | sort); do
	grep -qxF "$(basename "$p")" <<<"$placed" || commit_patch "$p"
done

dirs=$( (cd "$top/kernel/linux" 2>/dev/null && find . -type f -printf '%h\n' | sed 's|^\./||' | sort -u) || true)
ordered=$( { [ -e "$top/kernel/series-order" ] && grep -v '^#' "$top/kernel/series-order" | sed 's/^patch /patch:/'; echo "$dirs"; } |
	awk 'NF && !seen[$0]++')
for d in $ordered; do
	if [ "${d#patch:}" != "$d" ]; then
		[ -e "$top/kernel/patches/${d#patch:}" ] || die "series-order: no kernel/patches/${d#patch:}"
		commit_patch "$top/kernel/patches/${d#patch:}"
		continue
	fi
	grep -qxF "$d" <<<"$dirs" || continue
	mkdir -p "$work/$d"
	find "$top/kernel/linux/$d" -maxdepth 1 -type f -exec cp {} "$work/$d/" \;
	git_in "$work" add -A -f "$d"
	# The device ABI header lives in offload-api/ (QEMU's device and the
	# firmware model include it too); the driver's commit carries it.
	if [ "$d" = drivers/net/ethernet/p4nic ]; then
		cp "$top/offload-api/p4nic_abi.h" "$work/include/linux/p4nic_abi.h"
		git_in "$work" add -f include/linux/p4nic_abi.h
	fi
	msg=$top/kernel/commit-messages/$(tr / - <<<"$d").txt
	if [ -e "$msg" ]; then
		git_in "$work" commit -q -s -F "$msg"
	else
		git_in "$work" commit -q -s -m "$d: add $(cd "$top/kernel/linux/$d" && find . -maxdepth 1 -type f -printf '%f ' | sed 's/ $//')"
	fi
done

n=$(git_in "$work" rev-list --count pristine..HEAD)
if [ "$n" = 0 ]; then
	say "no kernel changes yet: nothing to write"
	exit 0
fi
mkdir -p "$out"
git_in "$work" format-patch -q --cover-letter -o "$out" pristine..HEAD
cover=$(ls "$out"/0000-*.patch)
if [ -e "$top/kernel/cover-letter.txt" ]; then
	subject=$(head -n1 "$top/kernel/cover-letter.txt")
	python3 - "$cover" "$subject" "$top/kernel/cover-letter.txt" <<'PY'
import sys
path, subject, body = sys.argv[1], sys.argv[2], open(sys.argv[3]).read().split("\n", 1)[1]
text = open(path).read().replace("*** SUBJECT HERE ***", subject).replace("*** BLURB HERE ***", body.strip())
open(path, "w").write(text)
PY
fi
say "$n patches and a cover letter in ${out#"$top"/}/"
