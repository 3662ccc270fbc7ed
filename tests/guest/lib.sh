# Helpers for guest tests (sourced).  A guest test is a script that exits 0
# when every check passed; each failed check prints "FAIL: ..." first.
# shellcheck shell=bash
set -u
failures=0

fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
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

# json_get JSON PYEXPR: evaluate a Python expression on the parsed JSON "j".
json_get() {
	/usr/bin/python3 -c 'import json,sys; j=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$1" "$2"
}

finish() {
	if [ "$failures" -ne 0 ]; then
		echo "$failures check(s) failed"
		exit 1
	fi
	exit 0
}
