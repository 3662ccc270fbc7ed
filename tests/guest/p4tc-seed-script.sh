#!/bin/bash
# A template script written for the seed series (its syntax, as the seed's
# commit messages and tdc files use it) must run unchanged: a pipeline by
# name and by id, metadata, header fields without offsets, a register set
# with a typed constant, pre- and postactions, sealing, reads, deletes.
# A second script names every object by id alone, as the seed's tests do
# (OBJ/ pipeid N IDATTR M), and writes instances in the seed's form.
. "$(dirname "$0")/lib.sh"

script=$(mktemp)
cleanup() {
	tc p4template del pipeline/aP4proggie 2>/dev/null
	tc p4template del pipeline/ptables 2>/dev/null
	tc p4template del pipeline/ptables2 2>/dev/null
	rm -f "$script"
}
trap cleanup EXIT

cat >"$script" <<'EOF'
set -e
tc p4template create pipeline/aP4proggie numtables 1
tc p4template create pipeline/ptables pipeid 22 numtables 0 maxrules 1
tc p4template update pipeline/aP4proggie numtables 10
tc p4template get pipeline/aP4proggie
tc p4template create metadata/ptables/cb/mname mid 42 type bit8
tc p4template create metadata/ptables/global/drop type bit1
tc p4template create metadata/ptables/output_port type dev
tc p4template create hdrfield/ptables/parser1/ethernet/dstAddr hdrfieldid 1 type mac
tc p4template create hdrfield/ptables/parser1/ipv4/version hdrfieldid 2 type bit4
tc p4template create hdrfield/ptables/parser1/ipv4/dstAddr hdrfieldid 4 type ipv4
tc p4template create register/ptables/reg1 type bit32 numelems 2
tc p4template update register/ptables/reg1 index 1 value constant.bit32.22
tc p4template update pipeline/ptables preactions action gact ok postactions action gact ok
tc p4template update pipeline/ptables state ready
tc p4template get pipeline/ptables
tc p4template get metadata/ptables/cb/mname
tc p4template get hdrfield/ptables/parser1/ipv4/dstAddr
tc p4template get register/ptables/reg1
tc p4template del pipeline/aP4proggie
tc p4template get pipeline/
EOF

expect_ok "the seed script runs" sh "$script"

out=$(tc -j p4template get pipeline/ptables)
[ "$(json_get "$out" 'j[0]["pipeid"]')" = 22 ] || fail "pipeid: $out"
[ "$(json_get "$out" 'j[1]["templates"][0]["pstate"]')" = ready ] ||
	fail "state: $out"
out=$(tc -j p4template get metadata/ptables/cb/mname)
[ "$(json_get "$out" 'j[1]["templates"][0]["msize"]')" = 8 ] ||
	fail "metadata: $out"
out=$(tc -j p4template get register/ptables/reg1 index 1)
[ "$(json_get "$out" 'j[1]["templates"][0]["elements"][0]["value"]')" = 22 ] ||
	fail "register: $out"
out=$(tc p4template get hdrfield/ptables/parser1/)
[ "$(grep -c '^hdrfield name' <<<"$out")" = 3 ] || fail "hdrfields: $out"
out=$(tc p4template get pipeline/)
grep -q aP4proggie <<<"$out" && fail "aP4proggie still listed: $out"

# ids alone, for every object kind and verb
cat >"$script" <<'EOF'
set -e
tc p4template create pipeline/ptables2 pipeid 23 numtables 1
tc p4template update pipeline/ pipeid 23 maxrules 2
tc p4template create metadata/ptables2/mname mid 42 type bit8
tc p4template get metadata/ pipeid 23 mid 42
tc p4template create register/ptables2/reg1 regid 1 type bit32 numelems 2
tc p4template update register/ pipeid 23 regid 1 index 1 value constant.bit32.7
tc p4template get register/ pipeid 23 regid 1
tc p4template create action/ptables2/test actid 1 param param1 type bit32 id 1
tc p4template update action/ pipeid 23 actid 1 state active
tc p4template get action/ pipeid 23 actid 1
tc actions add action ptables2/test param param1 type bit32 id 1 4294967295 index 1
tc p4template create table/ptables2/cb/tname tblid 1 keysz 32 nummasks 8 tentries 4096
tc p4template update table/ pipeid 23 tblid 1 keysz 64 tentries 2048
tc p4template get table/ pipeid 23 tblid 1
tc p4template del metadata/ pipeid 23 mid 42
tc p4template get metadata/ pipeid 23
tc actions del action ptables2/test index 1
tc p4template del action/ pipeid 23 actid 1
tc p4template del register/ pipeid 23 regid 1
tc p4template del table/ pipeid 23 tblid 1
tc p4template del pipeline/ pipeid 23
EOF
expect_ok "the seed's script by ids alone runs" sh "$script"
out=$(tc p4template get pipeline/ 2>&1)
grep -q ptables2 <<<"$out" && fail "ptables2 still listed: $out"

exit $((failures > 0))
