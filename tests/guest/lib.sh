# Helpers for guest tests (sourced).  A guest test is a script that exits 0
# when every check passed; each failed check prints "FAIL: ..." first.
# shellcheck shell=bash
set -u
failures=0
# a test killed at its timeout still runs its EXIT trap (its cleanup), so
# that the tests after it start clean
trap 'exit 143' TERM

fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# two_hosts NET: hosts h1 and h2 (namespaces, IPv6 off), each on a veth
# (x1, x2) whose peer is port p1 or p2 here, both up; h1 is NET.1/24 and
# h2 NET.2/24 (NET: three bytes, "10.50.0").  The caller's cleanup
# deletes them.
two_hosts() {
	local i
	for i in 1 2; do
		ip netns add h$i
		ip link add x$i netns h$i type veth peer name p$i
		ip -n h$i addr add "$1.$i/24" dev x$i
		ip -n h$i link set x$i up
		ip netns exec h$i sysctl -qw net.ipv6.conf.all.disable_ipv6=1
		ip link set p$i up
	done
}

# expect_ok DESC CMD...: CMD must exit 0.
expect_ok() {
	local desc=$1 out
	shift
	if ! out=$("$@" 2>&1); then
		fail "$desc: '$*' failed: $out"
		return 1
	fi
}

# expect_err DESC CODE PATTERN CMD...: CMD must exit CODE and its output
# must match the extended regex PATTERN.
expect_err() {
	local desc=$1 code=$2 pat=$3 out rc
	shift 3
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" != "$code" ]; then
		fail "$desc: '$*' exited $rc, expected $code: $out"
		return 1
	fi
	if ! grep -qE -- "$pat" <<<"$out"; then
		fail "$desc: '$*' said '$out', expected /$pat/"
		return 1
	fi
}

# json_get JSON PYEXPR: evaluate a Python expression on the parsed JSON "j";
# print the result, or fail.  One Python per script answers them all
# (tests/guest/jsonq.py, a coprocess started here, in the background
# while the script sets up): a Python start costs about 1.3 s in the
# debug guest.  Should it be gone, a Python of its own answers.
coproc JSONQ { exec /usr/bin/python3 -S "$(dirname "${BASH_SOURCE[0]}")/jsonq.py"; }
json_seq=0
json_get() {
	local LC_ALL=C id answer	# ${#...} counts bytes
	json_seq=$((json_seq + 1))
	id=$BASHPID.$json_seq
	# In a pipeline's subshell the coprocess's descriptors are closed (or
	# their numbers taken by others): there a Python of its own answers.
	if [ -n "${JSONQ_PID:-}" ] &&
		[ "/proc/$BASHPID/fd/${JSONQ[1]}" -ef "/proc/$JSONQ_PID/fd/0" ] &&
		[ "/proc/$BASHPID/fd/${JSONQ[0]}" -ef "/proc/$JSONQ_PID/fd/1" ] &&
		printf '%d\n%s%d\n%s%d\n%s' "${#id}" "$id" "${#1}" "$1" "${#2}" "$2" \
			2>/dev/null >&"${JSONQ[1]}"; then
		# an answer to an older request (its asker gave up) is skipped
		while IFS= read -r -d '' -t 300 answer <&"${JSONQ[0]}"; do
			[ "${answer%%$'\n'*}" = "$id" ] || continue
			answer=${answer#*$'\n'}
			[ "${answer:0:1}" = 0 ] || return 1
			printf '%s\n' "${answer:1}"
			return
		done
	fi
	/usr/bin/python3 -c 'import json,sys; j=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$1" "$2"
}

finish() {
	if [ "$failures" -ne 0 ]; then
		echo "$failures check(s) failed"
		exit 1
	fi
	exit 0
}

# mark_guard DEV CMD...: the tests read what P4 programs did from the skb
# mark with "u32 match mark".  Without CONFIG_CLS_U32_MARK u32 ignores the
# mark and counts every packet, and every such check would pass: prove
# that a mark nobody sets counts nothing while CMD sends packets.
mark_guard() {
	local dev=$1 n
	shift
	tc filter add dev "$dev" ingress prio 2 u32 match mark 0x5a5a5a5a \
		0xffffffff action gact drop || { fail "mark guard: u32 mark filter"; return 1; }
	"$@" >/dev/null 2>&1
	n=$(action_packets "$dev" 2)
	tc filter del dev "$dev" ingress prio 2
	[ "$n" = 0 ] || fail "mark guard: u32 counted '$n' packets with a mark nobody sets (CONFIG_CLS_U32_MARK?)"
}

# capture NS DEV TCPDUMP_ARGS...: capture one packet on DEV in namespace NS
# into the file $cap (tcpdump's stderr in $caperr: both the caller's);
# returns once tcpdump listens, which takes a while in the debug guest.
capture() {
	local ns=$1 dev=$2 l
	shift 2
	: >"$caperr"
	ip netns exec "$ns" tcpdump -l -n -c 1 -i "$dev" "$@" >"$cap" 2>"$caperr" &
	tpid=$!
	for _ in {1..40}; do
		# read with builtins: a grep per look costs ~0.3 s here
		while IFS= read -r l; do
			[[ $l = *"listening on"* ]] && return
		done <"$caperr"
		sleep 0.25
	done
}

# capture_wait: until capture's packet came (or 5 s); a sleeper in the
# background ends the wait, so that a packet that came ends it at once
capture_wait() {
	local sleeper
	{ sleep 5; kill "$tpid"; } >/dev/null 2>&1 &
	sleeper=$!
	wait "$tpid" 2>/dev/null
	kill "$sleeper" 2>/dev/null
	wait "$sleeper" 2>/dev/null
}

# p4_filter_stat DEV PRIO KEY: the ingress p4 filter's counter KEY (pkts,
# parser_rejects) on DEV at PRIO
p4_filter_stat() {
	json_get "$(tc -s -j filter show dev "$1" ingress prio "$2")" \
		"[f for f in j if 'options' in f][0]['options']['$3']"
}

# replace_under_pings PIPE ROUNDS NS DST COUNT DEV...: ping DST from
# namespace NS (COUNT pings, 50 ms apart) while the p4 filter of pipeline
# PIPE at ingress prio 1 of each DEV is replaced ROUNDS times.  Every
# packet meets the old filter or the new one, never a half-built one, so
# a lost ping fails.  The new filters say P4_PARSER_ARGS (if set) after
# their pipeline's name.
replace_under_pings() {
	local pipe=$1 rounds=$2 ns=$3 dst=$4 count=$5 d r pinger out
	local -A handle
	shift 5
	for d in "$@"; do
		handle[$d]=$(json_get "$(tc -j filter show dev "$d" ingress prio 1)" \
			"[f for f in j if 'options' in f][0]['options']['handle']")
	done
	out=$(mktemp)
	ip netns exec "$ns" ping -i 0.05 -c "$count" -W 2 -q "$dst" >"$out" 2>&1 &
	pinger=$!
	for r in $(seq 1 "$rounds"); do
		for d in "$@"; do
			tc filter replace dev "$d" ingress prio 1 \
				handle "${handle[$d]}" p4 pname "$pipe" \
				${P4_PARSER_ARGS[@]+"${P4_PARSER_ARGS[@]}"} ||
				fail "replace $r on $d"
		done
	done
	wait $pinger || fail "pings lost while the filters were replaced: $(tail -2 "$out")"
	rm -f "$out"
}

# action_packets DEV PRIO: packets the first action of DEV's ingress
# filter at PRIO counted
action_packets() {
	json_get "$(tc -s -j filter show dev "$1" ingress prio "$2")" \
		'[f for f in j if "actions" in f.get("options", {})][0]["options"]["actions"][0]["stats"]["packets"]'
}

# p4nic_dev P: the netdev of p4nic port P (read with builtins only: the
# tests call it often, and a process costs ~0.3 s in the debug guest)
p4nic_dev() {
	local i l drv port
	for i in /sys/class/net/*; do
		drv=
		[ -r "$i/device/uevent" ] || continue
		while IFS= read -r l; do
			[[ $l = DRIVER=* ]] && drv=${l#DRIVER=}
		done <"$i/device/uevent"
		[ "$drv" = p4nic ] && read -r port <"$i/dev_port" &&
			[ "$port" = "$1" ] && { echo "${i##*/}"; return; }
	done
}

# tester_dev P: the virtio-net tester wired to port P
tester_dev() {
	local i mac
	for i in /sys/class/net/*; do
		read -r mac <"$i/address" && [ "$mac" = "52:54:00:7e:00:0$1" ] &&
			{ echo "${i##*/}"; return; }
	done
}
