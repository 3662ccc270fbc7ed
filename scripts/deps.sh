#!/usr/bin/env bash
# Install every Debian package the project needs and fetch the qemu and
# iproute2 source packages into build/src/.  Idempotent: a second run checks
# and returns in seconds.  The only writes outside the repository are the
# package manager's (apt) and one deb-src entry under /etc/apt.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
stamp=$build/stamps
mkdir -p "$stamp" "$build/src" "$build/logs"
log=$build/logs/deps.log

PACKAGES=(
	linux-source-6.1 build-essential flex bison bc libelf-dev libssl-dev
	dwarves dpkg-dev meson ninja-build libglib2.0-dev libpixman-1-dev
	libfdt-dev libslirp-dev libcap-ng-dev libattr1-dev libbpf-dev libmnl-dev
	pkg-config clang llvm libclang-rt-14-dev python3-scapy tcpdump libcmocka-dev
	seabios ipxe-qemu qemu-system-data busybox-static kmod cpio xz-utils
	iputils-ping iproute2 ethtool jq python3 python3-venv git quilt
	libcap-dev libdb-dev libselinux1-dev libtirpc-dev
	bash-completion zlib1g-dev rsync libdpdk-dev bpftool ccache
)

say() { printf 'deps: %s\n' "$*"; }
die() { printf 'deps: error: %s (log: %s)\n' "$*" "$log" >&2; exit 1; }

SUDO=
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || die "not root and no sudo: cannot install packages"
	SUDO=sudo
fi

# 1. A deb-src entry, so that apt-get source works.
has_deb_src() {
	grep -rqsE '^(deb-src|Types:.*deb-src)' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null
}
if ! has_deb_src; then
	say "adding a deb-src entry for Debian's archive"
	$SUDO tee /etc/apt/sources.list.d/p4tc-deb-src.sources >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
	rm -f "$stamp/apt-updated"
fi

missing=()
for p in "${PACKAGES[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' ||
		missing+=("$p")
done

apt_update() {
	[ -e "$stamp/apt-updated" ] && return 0
	say "apt-get update"
	# An unreachable third-party repository only warns; we check the
	# result by what we can install, not by this exit status.
	$SUDO apt-get update >>"$log" 2>&1 || true
	touch "$stamp/apt-updated"
}

if [ ${#missing[@]} -gt 0 ]; then
	apt_update
	say "installing ${#missing[@]} packages: ${missing[*]}"
	if ! DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends \
		"${missing[@]}" >>"$log" 2>&1; then
		if ! getent hosts deb.debian.org >/dev/null 2>&1; then
			die "cannot reach Debian's archive (no network?); needed: ${missing[*]}"
		fi
		die "apt-get install failed for: ${missing[*]}"
	fi
fi

# 2. Debian's source packages, with Debian's patches applied (dpkg-source -x
# applies the quilt series of a 3.0 (quilt) package).
fetch_source() {
	local pkg=$1 dir=$1
	[ -e "$build/src/$dir/.p4tc-fetched" ] && return 0
	apt_update
	say "fetching source package $pkg"
	local tmp=$build/src/.fetch-$pkg
	rm -rf "$tmp" "$build/src/$dir"
	mkdir -p "$tmp"
	( cd "$tmp" && apt-get source --only-source "$pkg" ) >>"$log" 2>&1 ||
		die "apt-get source $pkg failed (deb-src entry or network?)"
	local d
	d=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d | head -n1)
	[ -n "$d" ] || die "no source tree unpacked for $pkg"
	mv "$d" "$build/src/$dir"
	rm -rf "$tmp"
	touch "$build/src/$dir/.p4tc-fetched"
}

fetch_source qemu
fetch_source iproute2

# The compiler cache (scripts/lib.sh): when it cannot be used, say so
# here, once, and build without it.
step=deps
. "$top/scripts/lib.sh"
[ -z "$P4TC_CCACHE_OFF" ] ||
	say "no compiler cache ($P4TC_CCACHE_OFF): building without it"
say "ok"
