#!/usr/bin/env python3
"""Generate the P4TC template tdc files, tests/tdc/p4tc-*.json.

The cases are written here, with small helpers, and emitted in the tdc
JSON format that tests/tdc/tdc.py (and the kernel's tdc) run.  The JSON
files are committed; tests/check verifies they match this generator.

    tests/tdc/p4tc/gen.py          write the files
    tests/tdc/p4tc/gen.py --check  exit 1 when a file differs

A refusal is checked by its exit status, by the kernel's message (tc
prints "Error: MESSAGE" on stderr, which the case saves and shows again
in verifyCmd) and by the state left behind (nothing created or changed).
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)

P = "$TC p4template"
ERR = "/tmp/p4tc-tdc.err"


class Lines(str):
    """Several tc commands: as a command under test, one shell line that
    feeds them to one `tc -b -`; in a setup or teardown, File.case writes
    them as plain `$TC ...` commands, which the runner (tests/tdc/tdc.py)
    sends to one `tc -b -` itself, and the kernel's tdc runs one by one."""

    def __new__(cls, shell, plain):
        s = super().__new__(cls, shell)
        s.plain = list(plain)
        return s


def batch(cmd, n, force=False):
    """cmd for i in 1..n in one tc process (tc -batch): a tc start costs
    about 0.4 s in the debug guest."""
    shell = (f"sh -c 'for i in $(seq 1 {n}); do echo \"{cmd}\"; done | "
             f"$TC {'-force ' if force else ''}-b -'")
    if force:
        return shell
    return Lines(shell, [f"$TC {cmd.replace('$i', str(i))}"
                         for i in range(1, n + 1)])


def tcb(*lines):
    """Several tc commands in one tc process (tc -batch)."""
    body = " ".join(f'"{l}"' for l in lines)
    assert "'" not in body
    return Lines(f"sh -c 'printf \"%s\\n\" {body} | $TC -b -'",
                 [f"$TC {l}" for l in lines])


def flat(cmds):
    out = []
    for c in cmds:
        out.extend(c.plain if isinstance(c, Lines) else [c])
    return out


def pdel(name="ptest"):
    return [f"{P} del pipeline/{name}", 0, 1, 255]


class File:
    def __init__(self, name, prefix):
        self.name = name
        self.prefix = prefix
        self.cases = []

    def case(self, name, setup, cmd, verify, pattern=None, count=1,
             code=0, json_=None, teardown=None, cats=(), pipes=("ptest",)):
        cid = f"{self.prefix}{len(self.cases) + 1:02x}"
        c = {
            "id": cid,
            "name": name,
            "category": ["p4tc", *cats],
            "setup": flat(setup),
            "cmdUnderTest": cmd,
            "expExitCode": str(code),
            "verifyCmd": verify,
        }
        if json_ is not None:
            c["matchJSON"] = json_
        else:
            c["matchPattern"] = pattern
            c["matchCount"] = str(count)
        c["teardown"] = flat(teardown) if teardown is not None else \
            [pdel(p) for p in pipes]
        self.cases.append(c)

    def refuse(self, name, setup, cmd, message, state=None, state_pat="",
               count=1, prefix="Error: ", code=255, **kw):
        """cmd must fail with 'Error: message'; then, when state is given,
        state_pat must match count lines of its output (one multi-line
        pattern: once)."""
        verify = f"cat {ERR}"
        pat = prefix + re.escape(message)
        if state and ("\n" in state_pat or "\\n" in state_pat):
            assert count == 1
            verify += f"; {state}"
            pat += ".*" + state_pat
        elif state:
            grep = state_pat.replace("\\d", "[0-9]")
            assert "'" not in grep
            verify += f"; echo ==; {state} | grep -cE '{grep}'"
            pat += f".*==\n{count}\n"
        self.case(name, setup, f"{cmd} 2>{ERR}", verify, pat, code=code, **kw)


# ---------------------------------------------------------------- pipeline
pl = File("p4tc-pipeline.json", "7a")
GET = f"{P} get pipeline/ptest"
ACTS = "preactions action gact ok postactions action gact drop"

pl.case("pipeline: create with defaults",
        [], f"{P} create pipeline/ptest", GET,
        r"pipeline name ptest pipeid \d+\n\tmaxrules 1 numtables 0 state not ready")
pl.case("pipeline: create with id, numtables and maxrules (JSON)",
        [], f"{P} create pipeline/ptest pipeid 22 numtables 2 maxrules 10",
        f"$TC -j p4template get pipeline/ptest",
        json_=[{"pname": "ptest", "pipeid": 22, "obj": "pipeline"},
               {"templates": [{"pmaxrules": 10, "pnumtables": 2,
                               "pstate": "not ready"}]}])
pl.case("pipeline: get by id alone",
        [f"{P} create pipeline/ptest pipeid 7"], f"{P} get pipeline/ pipeid 7",
        f"{P} get pipeline/ pipeid 7", r"pipeline name ptest pipeid 7\n")
pl.case("pipeline: get by name and id together",
        [f"{P} create pipeline/ptest pipeid 7"],
        f"{P} get pipeline/ptest pipeid 7", f"{P} get pipeline/ptest pipeid 7",
        r"pipeline name ptest pipeid 7\n")
pl.refuse("pipeline: name and id of different pipelines are refused",
          [f"{P} create pipeline/ptest pipeid 7",
           f"{P} create pipeline/ptest2 pipeid 8"],
          f"{P} get pipeline/ptest pipeid 8",
          "Pipeline name and id name different pipelines",
          pipes=("ptest", "ptest2"))
pl.refuse("pipeline: a duplicate name is refused and the first stays",
          [f"{P} create pipeline/ptest numtables 3"],
          f"{P} create pipeline/ptest numtables 5",
          "Pipeline was already created", GET, "numtables 3")
pl.refuse("pipeline: a duplicate id is refused",
          [f"{P} create pipeline/ptest pipeid 9"],
          f"{P} create pipeline/ptest2 pipeid 9", "Pipeline id is taken",
          f"{P} get pipeline/", r"pipeline name ptest pipeid 9\n$",
          pipes=("ptest", "ptest2"))
pl.refuse("pipeline: the name kernel is reserved",
          [], f"{P} create pipeline/kernel", "Pipeline name kernel is reserved")
pl.refuse("pipeline: a name with a slash is refused",
          [], f"{P} create pipeline/a/b",
          "Pipeline name must not contain '/'", f"{P} get pipeline/",
          "name a/b", count=0, pipes=())
pl.refuse("pipeline: numtables 33 is beyond the limit",
          [], f"{P} create pipeline/ptest numtables 33",
          "integer out of range", f"{P} get pipeline/", "ptest", count=0)
pl.case("pipeline: numtables 32 is the limit",
        [], f"{P} create pipeline/ptest numtables 32", GET, "numtables 32")
pl.refuse("pipeline: maxrules 0 is refused",
          [], f"{P} create pipeline/ptest maxrules 0", "integer out of range")
pl.refuse("pipeline: maxrules 513 is refused",
          [], f"{P} create pipeline/ptest maxrules 513", "integer out of range")
pl.case("pipeline: maxrules 512 is the limit",
        [], f"{P} create pipeline/ptest maxrules 512", GET, "maxrules 512")
pl.case("pipeline: pipeid 0 is rejected by tc",
        [], f"{P} create pipeline/ptest pipeid 0", f"{P} get pipeline/",
        "ptest", count=0, code=255)
pl.refuse("pipeline: create with state ready is refused",
          [], f"{P} create pipeline/ptest {ACTS} state ready",
          "A pipeline is sealed by an update, once complete",
          f"{P} get pipeline/", "ptest", count=0)
pl.case("pipeline: update numtables and maxrules",
        [f"{P} create pipeline/ptest numtables 1"],
        f"{P} update pipeline/ptest numtables 10 maxrules 100", GET,
        "maxrules 100 numtables 10")
pl.case("pipeline: update by id alone",
        [f"{P} create pipeline/ptest pipeid 5"],
        f"{P} update pipeline/ pipeid 5 numtables 4", GET, "numtables 4")
pl.refuse("pipeline: update of a missing pipeline",
          [], f"{P} update pipeline/pnothere numtables 1",
          "Pipeline name not found", pipes=())
pl.refuse("pipeline: get of a missing id",
          [], f"{P} get pipeline/ pipeid 4000", "Unable to find pipeline by id",
          pipes=())
pl.case("pipeline: preactions and postactions are bound tc actions",
        [f"{P} create pipeline/ptest"], f"{P} update pipeline/ptest {ACTS}",
        GET, r"preactions:.*gact action pass.*ref 1 bind 1.*"
        r"postactions:.*gact action drop.*ref 1 bind 1")
pl.case("pipeline: preactions given at create",
        [], f"{P} create pipeline/ptest {ACTS}", GET,
        r"preactions:.*action pass.*postactions:.*action drop")
pl.case("pipeline: binding an existing action counts a bind",
        [["$TC actions flush action gact", 0, 1, 255],
         "$TC actions add action pass index 51",
         f"{P} create pipeline/ptest"],
        f"{P} update pipeline/ptest preactions action gact index 51",
        "$TC actions get action gact index 51", r"index 51 ref 2 bind 1",
        teardown=[pdel(), "$TC actions flush action gact"])
pl.case("pipeline: replacing preactions gives the old binding back",
        [["$TC actions flush action gact", 0, 1, 255],
         "$TC actions add action pass index 52",
         f"{P} create pipeline/ptest preactions action gact index 52"],
        f"{P} update pipeline/ptest preactions action gact drop",
        "$TC actions get action gact index 52", r"index 52 ref 1 bind 0",
        teardown=[pdel(), "$TC actions flush action gact"])
pl.case("pipeline: deleting the pipeline unbinds its actions",
        [["$TC actions flush action gact", 0, 1, 255],
         "$TC actions add action pass index 53",
         f"{P} create pipeline/ptest preactions action gact index 53"],
        f"{P} del pipeline/ptest",
        "$TC actions get action gact index 53", r"index 53 ref 1 bind 0",
        teardown=["$TC actions flush action gact"])
pl.case("pipeline: a bound action cannot be deleted by tc actions",
        [["$TC actions flush action gact", 0, 1, 255],
         "$TC actions add action pass index 54",
         f"{P} create pipeline/ptest preactions action gact index 54"],
        "$TC actions del action gact index 54",
        "$TC actions get action gact index 54", r"index 54 ref 2 bind 1",
        code=255, teardown=[pdel(), "$TC actions flush action gact"])
pl.case("pipeline: actions created by the pipeline go with it",
        [["$TC actions flush action gact", 0, 1, 255],
         f"{P} create pipeline/ptest preactions action gact ok index 55"],
        f"{P} del pipeline/ptest", "$TC actions list action gact",
        r"index 55", count=0,
        teardown=["$TC actions flush action gact"])
pl.refuse("pipeline: a bad action list binds nothing",
          [["$TC actions flush action gact", 0, 1, 255],
           f"{P} create pipeline/ptest"],
          f"{P} update pipeline/ptest preactions action gact ok index 56 "
          "postactions action nat ingress 10.0.0.1 10.0.0.2",
          "Failed to load TC action module",
          f"$TC actions list action gact; {GET}", "index 56|preactions",
          count=0,
          teardown=[pdel(), "$TC actions flush action gact"])
pl.refuse("pipeline: sealing needs every declared table",
          [f"{P} create pipeline/ptest numtables 1 {ACTS}"],
          f"{P} update pipeline/ptest state ready",
          "Must have all table defined to update state to ready", GET,
          "state not ready")
pl.refuse("pipeline: sealing needs preactions",
          [f"{P} create pipeline/ptest postactions action gact drop"],
          f"{P} update pipeline/ptest state ready",
          "Must specify pipeline preactions before sealing", GET,
          "state not ready")
pl.refuse("pipeline: sealing needs postactions",
          [f"{P} create pipeline/ptest preactions action gact ok"],
          f"{P} update pipeline/ptest state ready",
          "Must specify pipeline postactions before sealing", GET,
          "state not ready")
pl.case("pipeline: seal a complete pipeline",
        [f"{P} create pipeline/ptest {ACTS}"],
        f"{P} update pipeline/ptest state ready", GET, "state ready")
pl.case("pipeline: seal in the same update that completes it",
        [f"{P} create pipeline/ptest numtables 3"],
        f"{P} update pipeline/ptest numtables 0 {ACTS} state ready", GET,
        r"numtables 0 state ready.*preactions")
pl.refuse("pipeline: a sealed pipeline refuses updates",
          [f"{P} create pipeline/ptest {ACTS}",
           f"{P} update pipeline/ptest state ready"],
          f"{P} update pipeline/ptest maxrules 5", "Pipeline is sealed", GET,
          "maxrules 1 ")
pl.refuse("pipeline: state other than ready is refused",
          [f"{P} create pipeline/ptest"], "$P4NL state ptest 0",
          "Pipeline state can only be set to ready")
pl.case("pipeline: a sealed pipeline can be read and deleted",
        [f"{P} create pipeline/ptest {ACTS}",
         f"{P} update pipeline/ptest state ready"],
        f"{P} del pipeline/ptest", f"{P} get pipeline/",
        r"pipeline name ptest ", count=0)
pl.refuse("pipeline: pipelines cannot be flushed",
          [f"{P} create pipeline/ptest"], f"{P} del pipeline/",
          "Pipeline flush not supported", f"{P} get pipeline/",
          "pipeline name ptest")
pl.refuse("pipeline: delete of a missing pipeline",
          [], f"{P} del pipeline/pnothere", "Pipeline name not found",
          pipes=())
pl.refuse("pipeline: the kernel pipeline cannot be deleted",
          [], f"{P} del pipeline/kernel",
          "The kernel pipeline cannot be deleted", pipes=())
pl.refuse("pipeline: the kernel pipeline cannot change",
          [], f"{P} update pipeline/kernel numtables 1",
          "The kernel pipeline cannot change", pipes=())
pl.case("pipeline: the kernel pipeline is sealed and has id 0",
        [], f"{P} get pipeline/kernel", f"{P} get pipeline/kernel",
        r"pipeline name kernel pipeid 0\n\tmaxrules 0 numtables 0 state ready",
        pipes=())
pl.case("pipeline: dump lists names and ids",
        [f"{P} create pipeline/ptest pipeid 3",
         f"{P} create pipeline/ptest2 pipeid 4"],
        f"{P} get pipeline/", f"{P} get pipeline/",
        r"pipeline name ptest pipeid 3\npipeline name ptest2 pipeid 4\n",
        pipes=("ptest", "ptest2"))
pl.refuse("pipeline: at most 32 per namespace",
          [batch("p4template create pipeline/pmany$i", 32)],
          f"{P} create pipeline/pmany33",
          "Namespace already has the maximum of 32 pipelines",
          f"{P} get pipeline/", "pmany33", count=0, pipes=(),
          teardown=[[batch("p4template del pipeline/pmany$i", 33, True), 0, 1]])
pl.case("pipeline: a name of 255 bytes is accepted",
        [], "$P4NL long-pipeline 255", f"{P} get pipeline/",
        "p" * 255 + " pipeid", pipes=(),
        teardown=[[f"{P} del pipeline/" + "p" * 255, 0, 255]])
pl.refuse("pipeline: a name of 256 bytes is refused",
          [], "$P4NL long-pipeline 256", "Attribute failed policy validation",
          f"{P} get pipeline/", "p" * 200, count=0, pipes=())
pl.refuse("pipeline: tc refuses a name of 256 bytes itself",
          [], f"{P} create pipeline/" + "q" * 256, "", pipes=())

pl.refuse("pipeline: create without a name",
          [], "$P4NL raw create 1 - 1{ 2{ } }", "Must specify pipeline name",
          f"{P} get pipeline/", "pipeline name", count=0, pipes=())
pl.refuse("pipeline: get with neither name nor id",
          [MK0 := f"{P} create pipeline/ptest"], "$P4NL raw get 1 - 1{ 2{ } }",
          "Must specify pipeline name or id")


# ---------------------------------------------------------------- metadata
md = File("p4tc-metadata.json", "7b")
MK = f"{P} create pipeline/ptest"
MG = f"{P} get metadata/ptest/"

md.case("metadata: create bit8 with a chosen id (JSON)",
        [MK], f"{P} create metadata/ptest/cb/mname mid 42 type bit8",
        f"$TC -j p4template get metadata/ptest/cb/mname",
        json_=[{"pname": "ptest", "obj": "metadata"},
               {"templates": [{"mid": 42, "mname": "cb/mname", "mtype": "bit",
                               "msize": 8}]}])
md.case("metadata: ids are assigned from 1",
        [MK], f"{P} create metadata/ptest/m1 type bit8", MG,
        r"metadata mid 1 name m1 type bit8")
for ty, out in [("bit1", "bit1"), ("bit128", "bit128"), ("bit12", "bit12"),
                ("int8", "int8"), ("int5", "int5"), ("int128", "int128"),
                ("u32", "bit32"), ("be16", "be16"), ("ipv4", "ipv4"),
                ("mac", "macaddr"), ("bool", "bool"), ("dev", "dev"),
                ("bit32[16-31]", r"bit32\[16-31\]")]:
    md.case(f"metadata: type {ty}",
            [MK], f"{P} create metadata/ptest/mt type {ty}", MG,
            rf"name mt type {out}\n")
md.case("metadata: a signed type prints as int (JSON)",
        [MK], f"{P} create metadata/ptest/ms type int16",
        f"$TC -j p4template get metadata/ptest/ms",
        json_=[{"obj": "metadata"},
               {"templates": [{"mname": "ms", "mtype": "int", "msize": 16}]}])
md.case("metadata: bit129 is refused by tc",
        [MK], f"{P} create metadata/ptest/mt type bit129", MG, "mt", count=0,
        code=255)
md.case("metadata: bit0 is refused by tc",
        [MK], f"{P} create metadata/ptest/mt type bit0", MG, "mt", count=0,
        code=255)
md.refuse("metadata: a slice above its end bit is refused",
          [MK], f"{P} create metadata/ptest/mt type bit32[31-16]",
          "Endbit value smaller than startbit", MG, "mt", count=0)
md.refuse("metadata: a slice beyond the container is refused",
          [MK], f"{P} create metadata/ptest/mt type bit8[0-8]",
          "Endbit value too big", MG, "mt", count=0)
md.refuse("metadata: ipv4 does not take a slice",
          [MK], f"{P} create metadata/ptest/mt type ipv4[0-15]",
          "Type does not allow bit slices", MG, "mt", count=0)
md.refuse("metadata: a key type is refused",
          [MK], f"{P} create metadata/ptest/mt type key",
          "Invalid data type for user metdatum", MG, "mt", count=0)
md.refuse("metadata: type is required",
          [MK], f"{P} create metadata/ptest/mt", "Must specify metadatum size params",
          MG, "mt", count=0)
md.refuse("metadata: a duplicate name is refused",
          [MK, f"{P} create metadata/ptest/m1 type bit8"],
          f"{P} create metadata/ptest/m1 type bit16",
          "Metadatum already exists", MG, "m1 type bit8")
md.refuse("metadata: a duplicate id is refused",
          [MK, f"{P} create metadata/ptest/m1 mid 5 type bit8"],
          f"{P} create metadata/ptest/m2 mid 5 type bit8",
          "Metadatum already exists", MG, "m2", count=0)
md.refuse("metadata: a missing pipeline is refused",
          [], f"{P} create metadata/pnothere/m1 type bit8",
          "Pipeline name not found", pipes=())
md.refuse("metadata: get of a missing name",
          [MK], f"{P} get metadata/ptest/nothere", "Metadatum name not found")
md.refuse("metadata: get of a missing id",
          [MK], f"{P} get metadata/ptest/ mid 77",
          "Unable to find metadatum by id")
md.refuse("metadata: name and id of different metadata",
          [MK, f"{P} create metadata/ptest/m1 mid 1 type bit8",
           f"{P} create metadata/ptest/m2 mid 2 type bit8"],
          f"{P} get metadata/ptest/m1 mid 2",
          "Metadatum name and id name different metadata")
md.case("metadata: get by id alone",
        [MK, f"{P} create metadata/ptest/m1 mid 9 type bit8"],
        f"{P} get metadata/ptest/ mid 9", f"{P} get metadata/ptest/ mid 9",
        r"metadata mid 9 name m1 type bit8")
md.case("metadata: update the type",
        [MK, f"{P} create metadata/ptest/m1 type bit8"],
        f"{P} update metadata/ptest/m1 type int32", MG, "m1 type int32")
md.refuse("metadata: update of a missing name",
          [MK], f"{P} update metadata/ptest/m1 type int32",
          "Metadatum name not found")
md.case("metadata: delete one",
        [MK, f"{P} create metadata/ptest/m1 type bit8",
         f"{P} create metadata/ptest/m2 type bit8"],
        f"{P} del metadata/ptest/m1", MG, r"^metadata mid 2 name m2 type bit8\n$")
md.refuse("metadata: delete of a missing name",
          [MK], f"{P} del metadata/ptest/m1", "Metadatum name not found")
md.case("metadata: flush",
        [MK, f"{P} create metadata/ptest/m1 type bit8",
         f"{P} create metadata/ptest/m2 type bit8"],
        f"{P} del metadata/ptest/", MG, "metadata mid", count=0)
md.case("metadata: total size up to 1024 bits",
        [MK] + [f"{P} create metadata/ptest/m{i} type bit128"
                for i in range(1, 8)],
        f"{P} create metadata/ptest/m8 type bit128", MG, "type bit128",
        count=8)
md.refuse("metadata: more than 1024 bits in all is refused",
          [MK] + [f"{P} create metadata/ptest/m{i} type bit128"
                  for i in range(1, 9)],
          f"{P} create metadata/ptest/m9 type bit8",
          "Metadata max offset exceeded", MG, "m9",
          count=0)
md.case("metadata: deleting frees its bits",
        [MK] + [f"{P} create metadata/ptest/m{i} type bit128"
                for i in range(1, 9)] + [f"{P} del metadata/ptest/m1"],
        f"{P} create metadata/ptest/m9 type bit128", MG, "m9 type bit128")
md.refuse("metadata: a sealed pipeline refuses new metadata",
          [f"{MK} {ACTS}", f"{P} update pipeline/ptest state ready"],
          f"{P} create metadata/ptest/m1 type bit8", "Pipeline is sealed")
md.refuse("metadata: a sealed pipeline refuses deletes",
          [f"{MK} {ACTS}", f"{P} create metadata/ptest/m1 type bit8",
           f"{P} update pipeline/ptest state ready"],
          f"{P} del metadata/ptest/m1", "Pipeline is sealed", MG, "m1")
md.refuse("metadata: a sealed pipeline refuses flush",
          [f"{MK} {ACTS}", f"{P} create metadata/ptest/m1 type bit8",
           f"{P} update pipeline/ptest state ready"],
          f"{P} del metadata/ptest/", "Pipeline is sealed", MG, "m1")
md.case("metadata: a sealed pipeline is still readable",
        [f"{MK} {ACTS}", f"{P} create metadata/ptest/m1 type bit8",
         f"{P} update pipeline/ptest state ready"],
        MG, MG, "m1 type bit8")
md.case("metadata: the kernel pipeline lists 20 skb fields",
        [], f"{P} get metadata/kernel/", f"{P} get metadata/kernel/",
        r"^metadata mid \d+ name \w+ type", count=20, pipes=())
md.case("metadata: kernel metadata names and types",
        [], f"{P} get metadata/kernel/", f"{P} get metadata/kernel/",
        r"mid 1 name pktlen type bit32.*mid 9 name skbproto type be16.*"
        r"mid 10 name skbptype type bit3.*mid 20 name direction type bit1",
        pipes=())
md.refuse("metadata: the kernel pipeline refuses new metadata",
          [], f"{P} create metadata/kernel/mine type bit8",
          "Pipeline is sealed", pipes=())
md.case("metadata: a dump continues across messages (20 objects)",
        [MK, batch("p4template create metadata/ptest/m$i type bit8", 20)],
        MG, MG, r"^metadata mid \d+ name m\d+ type bit8$", count=20)
md.case("metadata: a batch of 16 objects in one message",
        [MK], "$P4NL batch-meta ptest 16", MG, r"^metadata mid", count=16)
md.refuse("metadata: a batch of 17 objects is refused",
          [MK], "$P4NL batch-meta ptest 17",
          "At most 16 objects fit in one message", MG, "metadata mid",
          count=0)
md.refuse("metadata: a failed batch leaves nothing behind",
          [MK], "$P4NL batch-meta ptest 5 dup",
          "Metadatum already exists", MG, "metadata mid",
          count=0)
md.refuse("metadata: a name of 256 bytes is refused",
          [MK], "$P4NL long-meta ptest 256",
          "Attribute failed policy validation", MG, "metadata mid", count=0)
md.refuse("metadata: a start bit beyond the type",
          [MK], "$P4NL raw create 2 ptest 1{ 2{ 1=s:mt 2=ty:1,8,9 } }",
          "Startbit value too big", MG, "mt", count=0)
md.refuse("metadata: an unknown data type",
          [MK], "$P4NL raw create 2 ptest 1{ 2{ 1=s:mt 2=ty:99,0,7 } }",
          "Invalid data type", MG, "mt", count=0)
md.refuse("metadata: create without a name",
          [MK], "$P4NL raw create 2 ptest 1{ 2{ 2=ty:1,0,7 } }",
          "Must specify metadatum name", MG, "metadata mid", count=0)
md.refuse("metadata: get with neither name nor id",
          [MK, f"{P} create metadata/ptest/m1 type bit8"],
          "$P4NL raw get 2 ptest 1{ 2{ } }",
          "Must specify metadatum name or id")
md.refuse("metadata: flush of metadata an action uses",
          [MK, f"{P} create metadata/ptest/m1 type bit8",
           f"{P} create action/ptest/a1 cmd set metadata.ptest.m1 constant.bit8.1"],
          f"{P} del metadata/ptest/", "Unable to flush any metadata", MG,
          "m1 type bit8")
md.case("metadata: flush of none warns",
        [MK], f"{P} del metadata/ptest/ 2>&1", f"{P} del metadata/ptest/ 2>&1",
        "Warning: There is not metadata to flush")
md.case("metadata: a name of 255 bytes is accepted",
        [MK], "$P4NL long-meta ptest 255", MG, "name " + "m" * 255 + " type")
md.refuse("metadata: an empty name is refused",
          [MK], "$P4NL empty-name ptest", "Object name must not be empty",
          MG, "metadata mid", count=0)
md.refuse("metadata: an attribute of the wrong size is refused",
          [MK], "$P4NL short-size ptest", "binary attribute size out of range",
          MG, "metadata mid", count=0)
md.refuse("metadata: a name without its NUL is refused",
          [MK], "$P4NL unterminated ptest",
          "Attribute failed policy validation", MG, "metadata mid", count=0)


# The seed's addressing: ids alone, names alone, both; a mismatch refused.
MKI = f"{P} create pipeline/ptest pipeid 22"
MKM = f"{P} create metadata/ptest/mname mid 42 type bit8"
md.case("metadata: get by pipeline id and metadata id alone (seed, JSON)",
        [MKI, MKM], f"$TC -j p4template get metadata/ pipeid 22 mid 42",
        f"$TC -j p4template get metadata/ pipeid 22 mid 42",
        json_=[{"pname": "ptest", "pipeid": 22, "obj": "metadata"},
               {"templates": [{"mid": 42, "mname": "mname", "mtype": "bit",
                               "msize": 8}]}])
md.case("metadata: get by pipeline name and metadata id",
        [MKI, MKM], f"{P} get metadata/ptest/ mid 42",
        f"{P} get metadata/ptest/ mid 42", r"metadata mid 42 name mname type bit8")
md.case("metadata: get by pipeline id, metadata name and id",
        [MKI, MKM], f"{P} get metadata/ptest/mname pipeid 22 mid 42",
        f"{P} get metadata/ptest/mname pipeid 22 mid 42",
        r"metadata mid 42 name mname type bit8")
md.refuse("metadata: a name and an id of different metadata are refused",
          [MKI, MKM, f"{P} create metadata/ptest/other mid 43 type bit8"],
          f"{P} get metadata/ptest/mname mid 43",
          "Metadatum name and id name different metadata", MG,
          "metadata mid 4[23]", count=2)
md.refuse("metadata: a pipeline name and id that disagree are refused",
          [MKI, f"{P} create pipeline/pother pipeid 23", MKM],
          f"{P} get metadata/ptest/ pipeid 23 mid 42",
          "Pipeline name and id name different pipelines", MG,
          "metadata mid 42", teardown=[pdel(), pdel("pother")])
md.case("metadata: dump by pipeline id alone",
        [MKI, MKM, f"{P} create metadata/ptest/m2 mid 43 type bit16"],
        f"{P} get metadata/ pipeid 22", f"{P} get metadata/ pipeid 22",
        r"metadata mid 4[23] name m", count=2)
md.case("metadata: delete by ids alone",
        [MKI, MKM], f"{P} del metadata/ pipeid 22 mid 42",
        MG, r"metadata mid 42", count=0)
md.case("metadata: flush by pipeline id alone",
        [MKI, MKM, f"{P} create metadata/ptest/m2 mid 43 type bit16"],
        f"{P} del metadata/ pipeid 22", MG, r"metadata mid", count=0)
md.case("metadata: a dump across messages has a head and a list per message (seed, JSON)",
        [MK, batch("p4template create metadata/ptest/m$i type bit8", 20)],
        f"$TC -j p4template get metadata/ptest/",
        f"$TC -j p4template get metadata/ptest/",
        json_=[{"pname": "ptest", "obj": "metadata"},
               {"templates": [{"mtype": "bit"}] * 16},
               {"pname": "ptest", "obj": "metadata"},
               {"templates": [{"mtype": "bit"}] * 4}])
md.refuse("metadata: an unknown pipeline id is refused",
          [MKI], f"{P} get metadata/ pipeid 99 mid 42",
          "Unable to find pipeline by id")

# ---------------------------------------------------------------- requests
rq = File("p4tc-requests.json", "7c")
rq.refuse("request: a create without P4TC_ROOT",
          [], "$P4NL no-root", "Netlink P4TC template attributes missing",
          pipes=())
rq.refuse("request: an unknown object type",
          [], "$P4NL bad-obj", "Invalid object type", pipes=())
rq.refuse("request: an object that is not a nest",
          [], "$P4NL not-nested", "Objects must be nests numbered from 1",
          pipes=())
rq.refuse("request: objects numbered with a gap",
          [], "$P4NL gap", "Objects must be nests numbered from 1",
          f"{P} get pipeline/", "pgap", count=0, pipes=())
rq.refuse("request: a path of 3 bytes",
          [MK], "$P4NL bad-path ptest", "Path must be a list of 32-bit ids")
rq.refuse("request: a create without attributes",
          [MK], "$P4NL no-params ptest", "Must specify object attributes")
rq.refuse("request: an update of two objects",
          [MK, f"{P} create metadata/ptest/m1 type bit8",
           f"{P} create metadata/ptest/m2 type bit8"],
          "$P4NL multi-update ptest", "Updates take one object per message")
rq.refuse("request: a delete of two objects",
          [MK, f"{P} create metadata/ptest/m1 type bit8",
           f"{P} create metadata/ptest/m2 type bit8"],
          "$P4NL multi-delete ptest", "Deletes take one object per message",
          MG, "metadata mid", count=2)
rq.refuse("request: a message shorter than its header",
          [], "$P4NL short-header", "Message header is missing", pipes=())
rq.refuse("request: creating needs CAP_NET_ADMIN",
          [], f"setpriv --reuid=65534 --regid=65534 --clear-groups "
          f"--inh-caps=-all {P} create pipeline/ptest",
          "RTNETLINK answers: Operation not permitted", f"{P} get pipeline/",
          "ptest", count=0, prefix="")
rq.refuse("request: deleting needs CAP_NET_ADMIN",
          [MK], f"setpriv --reuid=65534 --regid=65534 --clear-groups "
          f"--inh-caps=-all {P} del pipeline/ptest",
          "RTNETLINK answers: Operation not permitted", f"{P} get pipeline/",
          "ptest", prefix="")
rq.case("request: reading needs no privilege",
        [MK], f"setpriv --reuid=65534 --regid=65534 --clear-groups "
        f"--inh-caps=-all {P} get pipeline/ptest",
        f"setpriv --reuid=65534 --regid=65534 --clear-groups "
        f"--inh-caps=-all {P} get pipeline/", "pipeline name ptest")
rq.case("request: tc refuses an unknown object path",
        [], f"{P} get widget/ptest", f"{P} get widget/ptest 2>&1; true",
        r'unknown object path "widget/ptest"', code=255, pipes=())
rq.case("request: tc refuses an unknown command",
        [], f"{P} frob pipeline/ptest", f"{P} frob pipeline/ptest 2>&1; true",
        r'unknown command "frob"', code=255, pipes=())
rq.case("request: tc refuses an unknown attribute",
        [], f"{P} create pipeline/ptest colour blue",
        f"{P} create pipeline/ptest colour blue 2>&1; {P} get pipeline/",
        r'unknown pipeline argument "colour"', code=255)
rq.case("request: creates are notified to RTNLGRP_TC",
        [], "$P4NL notify ptest", "$P4NL notify ptest2",
        r"^ok\nnotified type 124 obj 1 pipeid \d+ pname ptest2$",
        pipes=("ptest", "ptest2"))
rq.case("request: NLM_F_ECHO echoes the created object",
        [], "$P4NL echo ptest", "$P4NL echo ptest2",
        r"^echoed type 124 obj 1 pipeid \d+ pname ptest2$",
        pipes=("ptest", "ptest2"))
rq.case("namespace: pipelines are per network namespace",
        [["$IP netns del p4tcns", 0, 1, 255], "$IP netns add p4tcns",
         f"$IP netns exec p4tcns {P} create pipeline/pns"],
        f"{P} get pipeline/", f"{P} get pipeline/; $IP netns exec p4tcns "
        f"{P} get pipeline/", r"^pipeline name pns", count=1, pipes=(),
        teardown=[["$IP netns del p4tcns", 0, 1, 255]])
rq.case("namespace: teardown frees pipelines with all their objects",
        [["$IP netns del p4tcns", 0, 1, 255], "$IP netns add p4tcns",
         f"$IP netns exec p4tcns sh -c '{P} create pipeline/pns {ACTS} && "
         f"{P} create metadata/pns/m1 type bit8 && "
         f"{P} create register/pns/r1 type bit32 numelems 4 && "
         f"{P} create header/pns/parser1/eth len 14 start && "
         f"{P} create hdrfield/pns/parser1/eth/type type be16 offset 96 && "
         f"{P} update pipeline/pns state ready'"],
        "$IP netns del p4tcns",
        "sh -c 'sleep 1; $IP netns list'", "p4tcns", count=0, pipes=())
# Four writers of five commands each: enough to interleave requests on
# two vCPUs, small enough to stay far inside TIMEOUT on a loaded TCG host
# (eight writers of seven commands once took longer than 24 s there).
rq.case("concurrency: parallel creates and deletes from 4 tc processes",
        [MK],
        "sh -c 'for i in 1 2 3 4; do ( for j in 1 2; do "
        "$TC p4template create metadata/ptest/m$i.$j type bit8 && "
        "$TC p4template del metadata/ptest/m$i.$j || exit 1; done; "
        "$TC p4template create metadata/ptest/k$i type bit16 ) & done; wait'",
        MG, r"^metadata mid \d+ name k\d type bit16$", count=4)
# Four tc processes of nine creates each race for the 32 places: a
# process per create (40 of them) once took longer than TIMEOUT.
rq.case("concurrency: parallel pipeline creates respect the limit",
        [],
        "sh -c 'for k in 1 2 3 4; do (for i in $(seq $k 4 36); do echo "
        "\"p4template create pipeline/pc$i\"; done | $TC -force -b - "
        "2>/dev/null) & done; wait; true'",
        f"{P} get pipeline/", r"^pipeline name pc\d+ ", count=32, pipes=(),
        teardown=[[batch("p4template del pipeline/pc$i", 40, True), 0, 1]])


# ---------------------------------------------------------------- parser
pa = File("p4tc-parser.json", "7d")
HF = f"{P} create hdrfield/ptest/parser1"
HD = f"{P} create header/ptest/parser1"
HU = f"{P} update header/ptest/parser1"
HFG = f"{P} get hdrfield/ptest/parser1/"
HDG = f"{P} get header/ptest/parser1/"
ETH = [MK, f"{HD}/eth len 14 start",
       f"{HF}/eth/etherType type be16 offset 96",
       f"{HD}/ipv4 len 20 maxlen 60",
       f"{HF}/ipv4/version type bit4 offset 0",
       f"{HF}/ipv4/ihl type bit4 offset 4",
       f"{HF}/ipv4/protocol type bit8 offset 72",
       f"{HF}/ipv4/dstAddr type ipv4 offset 128"]

pa.case("hdrfield: seed syntax, no offset (JSON)",
        [MK], f"{HF}/ipv4/dstAddr hdrfieldid 4 type ipv4",
        f"$TC -j p4template get hdrfield/ptest/parser1/ipv4/dstAddr",
        json_=[{"pname": "ptest", "obj": "hdrfield"},
               {"templates": [{"hdrfieldname": "ipv4/dstAddr",
                               "hdrfieldid": 4, "parsername": "parser1",
                               "parserid": 1, "hdrfieldtype": "ipv4",
                               "hdrfieldsize": 32}]}])
pa.case("hdrfield: a chosen parser id",
        [MK], f"{HF}/ipv4/ttl parserid 7 type bit8", HFG,
        r"name ipv4/ttl hdrfieldid 1 parser parser1 parserid 7 type bit8\n")
pa.case("hdrfield: placed in its header",
        ETH, HFG, HFG,
        r"ipv4/dstAddr hdrfieldid \d+ parser parser1 parserid 1 type ipv4 "
        r"offset 128")
pa.case("hdrfield: a bit slice type",
        [MK], f"{HF}/ipv4/flags type bit16[13-15]", HFG,
        r"ipv4/flags .*type bit16\[13-15\]")
pa.refuse("hdrfield: a name without a header part",
          [MK], f"{HF}/dstAddr type ipv4",
          "Header field name must be HEADER/FIELD")
pa.refuse("hdrfield: isValid is reserved",
          [MK], f"{HF}/ipv4/isValid type bit1",
          "Field name isValid is reserved for header validity")
pa.refuse("hdrfield: a name with two slashes",
          [MK], "$P4NL hdrfield-raw ptest a/b/c",
          "Header field name must be HEADER/FIELD")
pa.refuse("hdrfield: a duplicate name",
          [MK, f"{HF}/ipv4/ttl type bit8"], f"{HF}/ipv4/ttl type bit16",
          "Header field with same id or name was already inserted", HFG,
          "ipv4/ttl .*type bit8")
pa.refuse("hdrfield: a duplicate id",
          [MK, f"{HF}/ipv4/ttl hdrfieldid 3 type bit8"],
          f"{HF}/ipv4/tos hdrfieldid 3 type bit8",
          "Header field with same id or name was already inserted", HFG, "tos", count=0)
pa.refuse("hdrfield: a second parser name",
          [MK, f"{HF}/ipv4/ttl type bit8"],
          f"{P} create hdrfield/ptest/parser2/ipv4/tos type bit8",
          "Can only have one parser instance per pipeline")
pa.refuse("hdrfield: type is required",
          [MK], f"{HF}/ipv4/ttl", "Must supply header field data")
pa.refuse("hdrfield: a key type is refused",
          [MK], f"{HF}/ipv4/ttl type key", "Invalid hdrfield data type")
pa.refuse("hdrfield: beyond the fixed part of its header",
          [MK, f"{HD}/ipv4 len 20"], f"{HF}/ipv4/opt type bit32 offset 160",
          "Field lies beyond the fixed part of its header", HFG, "opt",
          count=0)
pa.refuse("hdrfield: a header too short for fields made before it",
          [MK, f"{HF}/ipv4/dstAddr type ipv4 offset 128"],
          f"{HD}/ipv4 len 16",
          "A placed field would lie beyond the header's fixed length", HDG,
          "name ipv4", count=0)
pa.case("hdrfield: fields made before their header join it",
        [MK, f"{HF}/ipv4/dstAddr type ipv4 offset 128", f"{HD}/ipv4 len 20"],
        f"{P} del header/ptest/parser1/ipv4", HDG, "name ipv4", code=255)
pa.case("hdrfield: update type and offset",
        [MK, f"{HD}/ipv4 len 20", f"{HF}/ipv4/ttl type bit8 offset 64"],
        f"{P} update hdrfield/ptest/parser1/ipv4/ttl type bit16 offset 48",
        HFG, "ipv4/ttl .*type bit16 offset 48")
pa.refuse("hdrfield: get of a missing field",
          [MK, f"{HF}/ipv4/ttl type bit8"],
          f"{P} get hdrfield/ptest/parser1/ipv4/tos",
          "Header field name not found")
pa.refuse("hdrfield: get from a pipeline without parser",
          [MK], f"{P} get hdrfield/ptest/parser1/ipv4/tos",
          "Pipeline has no parser")
pa.refuse("hdrfield: get with the wrong parser name",
          [MK, f"{HF}/ipv4/ttl type bit8"],
          f"{P} get hdrfield/ptest/parserX/ipv4/ttl", "Parser name not found")
pa.case("hdrfield: get by id",
        [MK, f"{HF}/ipv4/ttl hdrfieldid 12 type bit8"],
        f"{P} get hdrfield/ptest/parser1/ hdrfieldid 12",
        f"{P} get hdrfield/ptest/parser1/ hdrfieldid 12",
        "name ipv4/ttl hdrfieldid 12")
pa.case("hdrfield: delete one",
        [MK, f"{HF}/ipv4/ttl type bit8", f"{HF}/ipv4/tos type bit8"],
        f"{P} del hdrfield/ptest/parser1/ipv4/ttl", HFG,
        r"^hdrfield name ipv4/tos")
pa.case("hdrfield: flush",
        [MK, f"{HF}/ipv4/ttl type bit8", f"{HF}/ipv4/tos type bit8"],
        f"{P} del hdrfield/ptest/parser1/", f"{P} get hdrfield/ptest/",
        "hdrfield name", count=0)
pa.refuse("hdrfield: a select field cannot be deleted",
          ETH + [f"{HU}/eth select etherType transition 0x800 ipv4"],
          f"{P} del hdrfield/ptest/parser1/eth/etherType",
          "Unable to delete referenced header field", HFG,
          "eth/etherType")
pa.refuse("hdrfield: flush refuses while a field is in use",
          ETH + [f"{HU}/eth select etherType transition 0x800 ipv4"],
          f"{P} del hdrfield/ptest/parser1/",
          "Unable to flush any table instance", HFG, "hdrfield name",
          count=5)
pa.refuse("hdrfield: get with the wrong parser id",
          [MK, f"{HF}/ipv4/ttl type bit8"],
          f"{P} get hdrfield/ptest/parser1/ipv4/ttl parserid 9",
          "Unable to find parser by id")
pa.refuse("hdrfield: get by a missing id",
          [MK, f"{HF}/ipv4/ttl type bit8"],
          f"{P} get hdrfield/ptest/parser1/ hdrfieldid 9",
          "Unable to find hdrfield by id")
pa.refuse("hdrfield: get with neither name nor id",
          [MK, f"{HF}/ipv4/ttl type bit8"],
          "$P4NL raw get 3 ptest 1{ 2{ 3=s:parser1 } }",
          "Must specify hdrfield name or id")
pa.refuse("hdrfield: create without a parser name",
          [MK], "$P4NL raw create 3 ptest 1{ 2{ 2=s:ipv4/ttl 1=ty:1,0,7 } }",
          "Must supply parser name", HFG, "ttl", count=0)
pa.refuse("hdrfield: startbit above endbit",
          [MK], "$P4NL raw create 3 ptest 1{ 2{ 2=s:ipv4/ttl 3=s:parser1 1=ty:2,9,3 } }",
          "Header field startbit > endbit", HFG, "ttl", count=0)
pa.case("hdrfield: flush of none warns",
        [MK], f"{P} del hdrfield/ptest/parser1/ 2>&1",
        f"{P} del hdrfield/ptest/parser1/ 2>&1",
        "Warning: There are no header fields to flush")
pa.case("header: flush of none warns",
        [MK, f"{HF}/ipv4/ttl type bit8"], f"{P} del header/ptest/parser1/ 2>&1",
        f"{P} del header/ptest/parser1/ 2>&1",
        "Warning: There are no headers to flush")
pa.refuse("hdrfield: a sealed pipeline refuses new fields",
          [f"{MK} {ACTS}", f"{P} update pipeline/ptest state ready"],
          f"{HF}/ipv4/ttl type bit8", "Pipeline is sealed")
pa.refuse("hdrfield: the kernel pipeline has none",
          [], f"{P} create hdrfield/kernel/parser1/ipv4/ttl type bit8",
          "Pipeline is sealed", pipes=())
pa.case("hdrfield: a dump continues across messages (20 fields)",
        [MK, batch("p4template create hdrfield/ptest/parser1/h/f$i type bit8",
                   20)],
        HFG, HFG, r"^hdrfield name h/f\d+ ", count=20)

pa.case("header: create a fixed header (JSON)",
        [MK], f"{HD}/eth hdrid 3 len 14 start",
        "$TC -j p4template get header/ptest/parser1/eth",
        json_=[{"pname": "ptest", "obj": "header"},
               {"templates": [{"hdrname": "eth", "hdrid": 3,
                               "parsername": "parser1", "parserid": 1,
                               "start": True, "len": 14,
                               "default": "accept"}]}])
pa.case("header: a variable length from a field",
        ETH, f"{HU}/ipv4 lenfield ihl lenmult 4", HDG,
        r"name ipv4 .*\n\tlen 20 maxlen 60 lenfield ihl lenmult 4 lenadd 0")
pa.case("header: select and transitions (JSON)",
        ETH, f"{HU}/eth select etherType transition 0x800 ipv4 "
        "transition 0x86dd/0xffff reject default accept",
        "$TC -j p4template get header/ptest/parser1/eth",
        json_=[{"obj": "header"},
               {"templates": [{"hdrname": "eth", "select": "etherType",
                               "transitions": [
                                   {"value": 2048, "mask": 65535,
                                    "next": "ipv4"},
                                   {"value": 34525, "mask": 65535,
                                    "next": "reject"}],
                               "default": "accept"}]}])
pa.case("header: transitions print in hex",
        ETH, f"{HU}/eth select etherType transition 0x800 ipv4", HDG,
        r"select etherType transition 0x800/0xffff ipv4 default accept")
pa.case("header: transitions split by other arguments form one list",
        ETH, f"{HU}/eth transition 0x800 ipv4 select etherType "
        "transition 0x86dd reject", HDG,
        r"select etherType transition 0x800/0xffff ipv4 "
        r"transition 0x86dd/0xffff reject default accept")
pa.case("header: default next header",
        ETH, f"{HU}/eth default ipv4", HDG, r"name eth .*default ipv4\n")
pa.refuse("header: length is required",
          [MK], f"{HD}/eth", "Must specify header length")
pa.refuse("header: length 0 is refused",
          [MK], f"{HD}/eth len 0", "integer out of range")
pa.refuse("header: length 513 is refused",
          [MK], f"{HD}/eth len 513", "integer out of range")
pa.case("header: length 512 is the limit",
        [MK], f"{HD}/big len 512", HDG, r"name big .*\n\tlen 512 ")
pa.refuse("header: accept is not a header name",
          [MK], f"{HD}/accept len 4",
          "Header name must not contain '/' nor be accept or reject")
pa.refuse("header: a duplicate name",
          [MK, f"{HD}/eth len 14"], f"{HD}/eth len 18",
          "Header with the same name already exists", HDG, "len 14")
pa.refuse("header: a duplicate id",
          [MK, f"{HD}/eth hdrid 2 len 14"], f"{HD}/vlan hdrid 2 len 4",
          "Header with the same id already exists", HDG, "vlan", count=0)
pa.refuse("header: one start header per parser",
          [MK, f"{HD}/eth len 14 start"], f"{HD}/vlan len 4 start",
          "Parser already starts at another header", HDG, "vlan", count=0)
pa.case("header: the start moves after nostart",
        [MK, f"{HD}/eth len 14 start", f"{HD}/vlan len 4",
         f"{HU}/eth nostart"], f"{HU}/vlan start", HDG,
        r"name vlan hdrid \d+ parser parser1 parserid 1 start")
pa.refuse("header: a select field must exist in the header",
          ETH, f"{HU}/eth select protocol", "Field not found in this header")
pa.refuse("header: a select field needs an offset",
          ETH + [f"{HF}/eth/loose type bit8"], f"{HU}/eth select loose",
          "Field has no offset in its header")
pa.refuse("header: transitions need a select field",
          ETH, f"{HU}/eth transition 0x800 ipv4",
          "Transitions need a select field", HDG, "transition", count=0)
pa.refuse("header: a transition value wider than its field",
          ETH, f"{HU}/eth select etherType transition 0x10000 ipv4",
          "Transition value or mask wider than the select field", HDG,
          "transition", count=0)
pa.refuse("header: a transition value outside its mask",
          ETH, f"{HU}/eth select etherType transition 0x801/0xff00 ipv4",
          "Transition value has bits outside its mask")
pa.refuse("header: a missing next header",
          ETH, f"{HU}/eth select etherType transition 0x800 ipv6",
          "Next header not found")
pa.refuse("header: a header cannot follow itself",
          ETH, f"{HU}/eth default eth",
          "A header cannot be followed by itself")
pa.refuse("header: a loop in the parse graph is refused",
          ETH + [f"{HU}/eth default ipv4"],
          f"{HU}/ipv4 select version transition 4 eth",
          "Transitions would make the parse graph loop", HDG,
          r"name ipv4 .*\n\tlen 20 default accept")
pa.refuse("header: more than 16 transitions",
          ETH, f"{HU}/eth select etherType " +
          " ".join(f"transition {i} ipv4" for i in range(1, 18)),
          "A header has at most 16 transitions")
pa.case("header: 16 transitions are the limit",
        ETH, f"{HU}/eth select etherType " +
        " ".join(f"transition {i} ipv4" for i in range(1, 17)), HDG,
        r"transition 0x[0-9a-f]+/0xffff ipv4", count=16)
pa.refuse("header: a variable length needs a multiplier",
          ETH, f"{HU}/ipv4 lenfield ihl",
          "A variable length needs a multiplier (lenmult)")
pa.refuse("header: a variable length needs maxlen at least len",
          ETH, f"{HU}/ipv4 lenfield ihl lenmult 4 maxlen 10",
          "A variable length needs maxlen at least len")
pa.refuse("header: a length field wider than 64 bits",
          [MK, f"{HD}/h len 32", f"{HF}/h/wide type bit128 offset 0"],
          f"{HU}/h lenfield wide lenmult 1 maxlen 40",
          "Length and select fields are at most 64 bits")
pa.refuse("header: a header with fields cannot be deleted",
          ETH, f"{P} del header/ptest/parser1/ipv4",
          "Header has fields, is the next header of another or is named by a command", HDG,
          "name ipv4")
pa.refuse("header: a transition target cannot be deleted",
          [MK, f"{HD}/eth len 14 start", f"{HD}/vlan len 4",
           f"{HU}/eth default vlan"], f"{P} del header/ptest/parser1/vlan",
          "Header has fields, is the next header of another or is named by a command", HDG,
          "name vlan")
pa.case("header: delete a header nothing refers to",
        [MK, f"{HD}/eth len 14 start", f"{HD}/vlan len 4"],
        f"{P} del header/ptest/parser1/vlan", HDG, r"^header name eth ")
pa.refuse("header: flush refuses while headers have fields",
          ETH, f"{P} del header/ptest/parser1/",
          "Headers still have fields: nothing flushed", HDG, "header name",
          count=2)
pa.case("header: flush after the fields are gone, links and all",
        [MK, f"{HD}/eth len 14 start", f"{HD}/vlan len 4",
         f"{HU}/eth default vlan"],
        f"{P} del header/ptest/parser1/", f"{P} get header/ptest/",
        "header name", count=0)
pa.refuse("header: sealing needs a start header",
          [f"{MK} {ACTS}", f"{HD}/eth len 14"],
          f"{P} update pipeline/ptest state ready",
          "Parse graph has headers but no start header",
          f"{P} get pipeline/ptest", "state not ready")
pa.case("header: a complete parse graph seals",
        [f"{MK} {ACTS}"] + ETH[1:] +
        [f"{HU}/eth select etherType transition 0x800 ipv4",
         f"{HU}/ipv4 lenfield ihl lenmult 4"],
        f"{P} update pipeline/ptest state ready", f"{P} get pipeline/ptest",
        "state ready")
pa.refuse("header: a sealed pipeline refuses graph changes",
          [f"{MK} {ACTS}"] + ETH[1:] +
          [f"{P} update pipeline/ptest state ready"],
          f"{HU}/eth default ipv4", "Pipeline is sealed")
pa.refuse("header: at most 32 headers per parser",
          [MK, batch("p4template create header/ptest/parser1/h$i len 4", 32)],
          f"{HD}/h33 len 4", "A parser has at most 32 headers", HDG,
          r"^header name h\d+ ", count=32)
pa.case("parser: goes away with its last object",
        [MK, f"{HD}/eth len 14", f"{HF}/x/y type bit8"],
        f"sh -c '{P} del header/ptest/parser1/eth && "
        f"{P} del hdrfield/ptest/parser1/x/y'",
        f"{P} create hdrfield/ptest/parser2/x/y type bit8; {P} get hdrfield/ptest/",
        r"parser parser2 parserid 1")
pa.refuse("header: flush refuses while a command names a header",
          [MK, f"{HD}/eth len 14 start", f"{HD}/vl len 4",
           f"{HU}/eth default vl",
           f"{P} create action/ptest/a cmd setvalid header.ptest.parser1.vl"],
          f"{P} del header/ptest/parser1/",
          "Header vl is named by a command: nothing flushed", HDG,
          "header name", count=2)
pa.case("header: flush once the command naming a header is gone",
        [MK, f"{HD}/eth len 14 start", f"{HD}/vl len 4",
         f"{HU}/eth default vl",
         f"{P} create action/ptest/a cmd setvalid header.ptest.parser1.vl",
         f"{P} del action/ptest/a"],
        f"{P} del header/ptest/parser1/", f"{P} get header/ptest/",
        "header name", count=0)


pa.refuse("header: a failed batch gives the fields a header adopted back",
          [MK, f"{HF}/ipv4/ttl type bit8 offset 64"],
          "$P4NL batch-header ptest ipv4",
          "Header with the same name already exists", HDG,
          "header name ipv4", count=0)
pa.case("header: after a failed batch the header can be made again",
        [MK, f"{HF}/ipv4/ttl type bit8 offset 64",
         ["$P4NL batch-header ptest ipv4", 255]],
        f"{HD}/ipv4 len 20", f"{P} del header/ptest/parser1/ipv4 2>&1",
        "Header has fields", count=1)


def edges(nxt):
    """the 17 edges a header may have, all to @nxt: 16 transitions and the
    default"""
    return " ".join(f"transition {v} {nxt}" for v in range(1, 17)) + \
        f" default {nxt}"


# A chain of 20 headers with 17 edges from each to the next: the loop
# check of an update must not walk every path (17^19 of them).
CHAIN = [*(f"p4template create header/ptest/parser1/h{i} len 1"
           for i in range(1, 21)),
         *(f"p4template create hdrfield/ptest/parser1/h{i}/s type bit8 "
           "offset 0" for i in range(1, 20)),
         *(f"p4template update header/ptest/parser1/h{i} select s "
           f"{edges(f'h{i + 1}')}" for i in range(19, 1, -1))]
pa.case("header: a graph of many paths is checked for loops at once",
        [MK, tcb(*CHAIN)], f"{HU}/h1 select s {edges('h2')}",
        f"{P} get header/ptest/parser1/h1", r"default h2", count=1)
pa.refuse("header: a loop through a graph of many paths is refused",
          [MK, tcb(*CHAIN), f"{HU}/h1 select s {edges('h2')}"],
          f"{HU}/h20 default h1",
          "Transitions would make the parse graph loop",
          f"{P} get header/ptest/parser1/h20", "default h1", count=0)


# header fields by ids alone, as the seed's scripts name them
HFI = [f"{P} create pipeline/ptest pipeid 22",
       f"{HF}/ipv4/dstAddr hdrfieldid 4 type ipv4"]
pa.case("hdrfield: get by pipeline, parser and field ids alone (seed)",
        HFI, f"{P} get hdrfield/ pipeid 22 parserid 1 hdrfieldid 4",
        f"{P} get hdrfield/ pipeid 22 parserid 1 hdrfieldid 4",
        r"hdrfield name ipv4/dstAddr hdrfieldid 4 parser parser1 parserid 1 type ipv4")
pa.case("hdrfield: dump a parser's fields by ids alone",
        [*HFI, f"{HF}/ipv4/srcAddr hdrfieldid 3 type ipv4"],
        f"{P} get hdrfield/ pipeid 22 parserid 1",
        f"{P} get hdrfield/ pipeid 22 parserid 1", r"^hdrfield name ipv4/", count=2)
pa.case("hdrfield: delete by ids alone",
        HFI, f"{P} del hdrfield/ pipeid 22 parserid 1 hdrfieldid 4", HFG,
        "hdrfield name", count=0)


# ---------------------------------------------------------------- register
rg = File("p4tc-register.json", "7e")
RC = f"{P} create register/ptest"
RU = f"{P} update register/ptest"
RG = f"{P} get register/ptest/reg1"

rg.case("register: create (JSON)",
        [MK], f"{RC}/reg1 regid 3 type bit32 numelems 2",
        f"$TC -j p4template get register/ptest/reg1",
        json_=[{"pname": "ptest", "obj": "register"},
               {"templates": [{"regname": "reg1", "regid": 3,
                               "containertype": "bit32", "startbit": 0,
                               "endbit": 31, "numelems": 2,
                               "elements": [{"index": 0, "value": 0},
                                            {"index": 1, "value": 0}]}]}])
rg.case("register: seed syntax update with a constant",
        [MK, f"{RC}/reg1 type bit32 numelems 2"],
        f"{RU}/reg1 index 1 value constant.bit32.22", RG,
        r"index 0 value 0\n\tindex 1 value 22\n")
rg.case("register: get one element (JSON)",
        [MK, f"{RC}/reg1 type bit32 numelems 4",
         f"{RU}/reg1 index 2 value 0x1234"],
        f"{P} get register/ptest/reg1 index 2",
        "$TC -j p4template get register/ptest/reg1 index 2",
        json_=[{"obj": "register"},
               {"templates": [{"regname": "reg1",
                               "elements": [{"index": 2, "value": 4660}]}]}])
rg.case("register: 128 elements are the limit",
        [MK], f"{RC}/reg1 type bit8 numelems 128", RG, r"index \d+ value 0",
        count=128)
rg.refuse("register: 0 elements are refused",
          [MK], f"{RC}/reg1 type bit8 numelems 0",
          "Num elems can't be zero", f"{P} get register/ptest/",
          "reg1", count=0)
rg.refuse("register: 129 elements are refused",
          [MK], f"{RC}/reg1 type bit8 numelems 129",
          "Number of elements exceededs P4 register maximum")
rg.refuse("register: a key type is refused",
          [MK], f"{RC}/reg1 type key numelems 1", "Invalid data type for P4 register")
rg.case("register: type and numelems are both required (tc)",
        [MK], f"{RC}/reg1 type bit8", f"{P} get register/ptest/", "reg1",
        count=0, code=255)
rg.refuse("register: a value too wide for bit12",
          [MK, f"{RC}/reg1 type bit12 numelems 2"],
          f"{RU}/reg1 index 0 value 4096", "Value too wide for its type", RG,
          r"index 0 value 0\n")
rg.case("register: the widest bit12 value",
        [MK, f"{RC}/reg1 type bit12 numelems 2"],
        f"{RU}/reg1 index 0 value 4095", RG, r"index 0 value 4095\n")
rg.refuse("register: an index out of range",
          [MK, f"{RC}/reg1 type bit8 numelems 2"],
          f"{RU}/reg1 index 2 value 1", "Register index out of bounds")
rg.refuse("register: get of an index out of range",
          [MK, f"{RC}/reg1 type bit8 numelems 2"],
          f"{P} get register/ptest/reg1 index 9", "Register index out of bounds")
rg.case("register: signed values",
        [MK, f"{RC}/reg1 type int8 numelems 2"],
        f"{RU}/reg1 index 1 value -128", RG, r"index 1 value -128\n")
rg.refuse("register: a signed value beyond int5",
          [MK, f"{RC}/reg1 type int5 numelems 2"],
          f"{RU}/reg1 index 1 value 16",
          "Signed value out of range for its type")
rg.case("register: the lowest int5 value",
        [MK, f"{RC}/reg1 type int5 numelems 2"],
        f"{RU}/reg1 index 1 value -16", RG, r"index 1 value -16\n")
rg.case("register: ipv4 values",
        [MK, f"{RC}/reg1 type ipv4 numelems 2"],
        f"{RU}/reg1 index 0 value 10.0.0.1", RG, r"index 0 value 10\.0\.0\.1\n")
rg.case("register: mac values",
        [MK, f"{RC}/reg1 type mac numelems 1"],
        f"{RU}/reg1 index 0 value 00:11:22:33:44:55", RG,
        r"index 0 value 00:11:22:33:44:55\n")
rg.case("register: bool values",
        [MK, f"{RC}/reg1 type bool numelems 2"],
        f"{RU}/reg1 index 1 value true", RG,
        r"index 0 value false\n\tindex 1 value true\n")
rg.case("register: 128-bit values",
        [MK, f"{RC}/reg1 type bit128 numelems 1"],
        f"{RU}/reg1 index 0 value 0x112233445566778899aabbccddeeff00", RG,
        r"index 0 value 0x112233445566778899aabbccddeeff00\n")
rg.case("register: be16 values keep their meaning",
        [MK, f"{RC}/reg1 type be16 numelems 1"],
        f"{RU}/reg1 index 0 value 0x86dd",
        "$TC -j p4template get register/ptest/reg1",
        json_=[{"obj": "register"},
               {"templates": [{"elements": [{"index": 0, "value": 34525}]}]}])
rg.case("register: a constant too wide for the container is refused by tc",
        [MK, f"{RC}/reg1 type bit8 numelems 1"],
        f"{RU}/reg1 index 0 value constant.bit32.300", RG,
        r"index 0 value 0\n", code=255)
rg.refuse("register: update needs a value",
          [MK, f"{RC}/reg1 type bit8 numelems 1"], f"{RU}/reg1 index 0",
          "Missing register value")
rg.case("register: a new type starts from zero",
        [MK, f"{RC}/reg1 type bit8 numelems 2", f"{RU}/reg1 index 0 value 5"],
        f"{RU}/reg1 type bit16 numelems 3", RG,
        r"type bit16 numelems 3\n\tindex 0 value 0\n.*index 2 value 0\n")
rg.refuse("register: a duplicate name",
          [MK, f"{RC}/reg1 type bit8 numelems 1"],
          f"{RC}/reg1 type bit8 numelems 1",
          "Register already exists")
rg.refuse("register: a duplicate id",
          [MK, f"{RC}/reg1 regid 4 type bit8 numelems 1"],
          f"{RC}/reg2 regid 4 type bit8 numelems 1",
          "Register already exists")
rg.refuse("register: get of a missing register",
          [MK], f"{P} get register/ptest/nothere", "Register name not found")
rg.case("register: delete and flush",
        [MK, f"{RC}/reg1 type bit8 numelems 1",
         f"{RC}/reg2 type bit8 numelems 1", f"{RC}/reg3 type bit8 numelems 1",
         f"{P} del register/ptest/reg1"],
        f"{P} del register/ptest/", f"{P} get register/ptest/", "register name",
        count=0)
rg.case("register: dump",
        [MK, f"{RC}/reg1 type bit8 numelems 1",
         f"{RC}/reg2 type int16 numelems 2"],
        f"{P} get register/ptest/", f"{P} get register/ptest/",
        r"register name reg1 regid 1 type bit8 numelems 1\n.*"
        r"register name reg2 regid 2 type int16 numelems 2\n")
rg.refuse("register: a sealed pipeline refuses element writes",
          [f"{MK} {ACTS}", f"{RC}/reg1 type bit8 numelems 1",
           f"{P} update pipeline/ptest state ready"],
          f"{RU}/reg1 index 0 value 1", "Pipeline is sealed")
rg.case("register: a sealed pipeline's registers can be read",
        [f"{MK} {ACTS}", f"{RC}/reg1 type bit8 numelems 1",
         f"{RU}/reg1 index 0 value 7", f"{P} update pipeline/ptest state ready"],
        RG, RG, r"index 0 value 7\n")
rg.case("register: delete of an element sets it to zero (seed)",
        [MK, f"{RC}/reg1 type bit8 numelems 2", f"{RU}/reg1 index 0 value 3",
         f"{RU}/reg1 index 1 value 4"],
        f"{P} del register/ptest/reg1 index 1", RG,
        r"numelems 2\n\tindex 0 value 3\n\tindex 1 value 0\n")
rg.refuse("register: delete of an element takes only its index",
          [MK, f"{RC}/reg1 type bit8 numelems 1", f"{RU}/reg1 index 0 value 3"],
          f"{P} del register/ptest/reg1 index 0 value 1",
          "Must specify param index and only param index", RG,
          r"index 0 value 3\n")

RGI = [f"{P} create pipeline/ptest pipeid 22",
       f"{RC}/reg1 regid 3 type bit37 numelems 2"]
rg.case("register: get by pipeline id and register id alone (seed, JSON)",
        RGI, f"$TC -j p4template get register/ pipeid 22 regid 3",
        f"$TC -j p4template get register/ pipeid 22 regid 3",
        json_=[{"pname": "ptest", "pipeid": 22, "obj": "register"},
               {"templates": [{"regname": "reg1", "regid": 3,
                               "containertype": "bit64", "startbit": 0,
                               "endbit": 36, "numelems": 2}]}])
rg.case("register: update a value by ids alone",
        RGI, f"{P} update register/ pipeid 22 regid 3 index 1 value constant.bit37.5",
        f"$TC -j p4template get register/ptest/reg1",
        json_=[{"obj": "register"},
               {"templates": [{"elements": [{"index": 0, "value": 0},
                                            {"index": 1, "value": 5}]}]}])
rg.case("register: delete by ids alone",
        RGI, f"{P} del register/ pipeid 22 regid 3",
        f"{P} get register/ptest/", r"register name reg1", count=0)
rg.refuse("register: a name and an id of different registers are refused",
          [*RGI, f"{RC}/reg2 regid 4 type bit8 numelems 1"],
          f"{P} get register/ptest/reg1 regid 4",
          "Register name and id name different registers")

# The seed's refusals of registers, each with its message
RRAW = "$P4NL raw"
rg.refuse("register: create without its info",
          [MK], f"{RRAW} create 7 ptest 1{{ 2{{ 1=s:reg1 }} }}",
          "Missing register info", f"{P} get register/ptest/", "reg1",
          count=0)
rg.refuse("register: create without a name",
          [MK], f"{RRAW} create 7 ptest 1{{ 2{{ 2=x:{'00' * 16}0100000003000000 }} }}",
          "Must specify register name", f"{P} get register/ptest/", "regid",
          count=0)
rg.refuse("register: create without a datatype",
          [MK], f"{RRAW} create 7 ptest 1{{ 2{{ 1=s:reg1 2=x:{'00' * 8}0700000000000000{'01000000'}00000000 }} }}",
          "Must specify datatype", f"{P} get register/ptest/", "reg1",
          count=0)
rg.refuse("register: create with an index",
          [MK], f"{RC}/reg1 type bit8 numelems 2 index 1",
          "Index can't be passed in create", f"{P} get register/ptest/",
          "reg1", count=0)
rg.refuse("register: create with a value",
          [MK], f"{RC}/reg1 type bit8 numelems 2 value 1",
          "Value can't be passed in create", f"{P} get register/ptest/",
          "reg1", count=0)
rg.refuse("register: startbit above endbit",
          [MK], f"{RRAW} create 7 ptest 1{{ 2{{ 1=s:reg1 2=x:0500000000000000020000000000000001000000{'01000000'} }} }}",
          "startbit > endbit", f"{P} get register/ptest/", "reg1", count=0)
rg.refuse("register: endbit beyond the container type",
          [MK], f"{RRAW} create 7 ptest 1{{ 2{{ 1=s:reg1 2=x:00000000000000000800000000000000{'01000000'}{'01000000'} }} }}",
          "Endbit doesn't fix in container datatype",
          f"{P} get register/ptest/", "reg1", count=0)
rg.refuse("register: an element update may not change numelems",
          [MK, f"{RC}/reg1 type bit8 numelems 2"],
          f"{RU}/reg1 type bit8 numelems 3 index 0 value 1",
          "Can't update register num elems", RG, r"index 0 value 0\n")
rg.refuse("register: an element update may not change the type",
          [MK, f"{RC}/reg1 type bit8 numelems 2"],
          f"{RU}/reg1 type bit16 numelems 2 index 0 value 1",
          "Start and endbit don't match with register values", RG,
          r"index 0 value 0\n")
rg.case("register: an element update may restate the register (seed)",
        [MK, f"{RC}/reg1 type bit8 numelems 2"],
        f"{RU}/reg1 type bit8 numelems 2 index 1 value 9", RG,
        r"index 1 value 9\n")
rg.refuse("register: an element update needs its index",
          [MK, f"{RC}/reg1 type bit8 numelems 2"],
          f"{RRAW} update 7 ptest 1{{ 2{{ 1=s:reg1 4=x:05 }} }}",
          "Must specify index", RG, r"index 0 value 0\n")
rg.refuse("register: delete with info",
          [MK, f"{RC}/reg1 type bit8 numelems 2"],
          f"{P} del register/ptest/reg1 type bit8 numelems 2",
          "Can't pass info attribute in delete", f"{P} get register/ptest/",
          "reg1")
rg.refuse("register: a value of the wrong size",
          [MK, f"{RC}/reg1 type bit8 numelems 2"],
          f"{RRAW} update 7 ptest 1{{ 2{{ 1=s:reg1 3=u32:0 4=x:0102 }} }}",
          "Value size differs from register type's container size", RG,
          r"index 0 value 0\n")
rg.refuse("register: get by a missing id",
          [MK], f"{P} get register/ptest/ regid 9",
          "Unable to find register by id")
rg.refuse("register: get with neither name nor id",
          [MK], f"{RRAW} get 7 ptest 1{{ 2{{ }} }}",
          "Must specify register name or id")
rg.refuse("register: flush of registers an action uses",
          [MK, f"{RC}/reg1 type bit8 numelems 2",
           f"{P} create action/ptest/a1 cmd set register.ptest.reg1[0] constant.bit8.1"],
          f"{P} del register/ptest/", "Unable to flush any register",
          f"{P} get register/ptest/", "reg1")
rg.case("register: flush of none warns",
        [MK], f"{P} del register/ptest/ 2>&1",
        f"{P} del register/ptest/ 2>&1",
        "Warning: There are no registers to flush")

# ---------------------------------------------------------------- actions
ac = File("p4tc-action.json", "7f")
AC = f"{P} create action/ptest"
AU = f"{P} update action/ptest"
AG = f"{P} get action/ptest/"
A1 = f"{AC}/act1 param port type dev param dmac type macaddr id 5 " \
     "param ttl type bit8"
A1ON = f"{AC}/act1 param port type dev param dmac type macaddr " \
       "param ttl type bit8 state active"
LO = "param port lo param dmac 00:11:22:33:44:55 param ttl 7"
AA = "$TC actions add action ptest/act1"
ALS = "$TC actions ls action ptest/act1"
# instances of every kind are deleted with their template; flushing them
# first keeps a failed case from leaking one into the next
ATD = [["$TC actions flush action ptest/act1", 0, 1, 255], pdel()]

ac.case("action template: create with typed parameters (JSON)",
        [MK], A1, f"$TC -j p4template get action/ptest/act1",
        json_=[{"pname": "ptest", "obj": "action template"},
               {"templates": [{"aname": "ptest/act1", "actid": 1,
                               "state": "inactive",
                               "params": [
                                   {"name": "port", "type": "dev", "id": 1},
                                   {"name": "dmac", "type": "macaddr", "id": 5},
                                   {"name": "ttl", "type": "bit8",
                                    "id": 2}]}]}])
ac.case("action template: actid chosen, a control-block name",
        [MK], f"{AC}/cb/act1 actid 42", f"{P} get action/ptest/cb/act1",
        r"action template name ptest/cb/act1 actid 42 state inactive")
ac.case("action template: a template without parameters",
        [MK], f"{AC}/noparams", AG,
        r"action template name ptest/noparams actid 1 state inactive\n$")
ac.case("action template: every parameter type",
        [MK], f"{AC}/act1 param a type bit1 param b type int8 param c "
        "type be16 param d type ipv4 param e type bool param f type "
        "bit128 param g type bit32[8-15]", AG,
        r"param a type bit1 id 1\n.*param b type int8 id 2\n.*param c "
        r"type be16 id 3\n.*param d type ipv4 id 4\n.*param e type bool "
        r"id 5\n.*param f type bit128 id 6\n.*param g type bit32\[8-15\]")
ac.refuse("action template: a duplicate name is refused",
          [MK, A1], f"{AC}/act1 param x type bit8",
          "Action already exists with same name", AG,
          r"param x", count=0)
ac.refuse("action template: a duplicate actid is refused",
          [MK, f"{AC}/act1 actid 3"], f"{AC}/act2 actid 3",
          "Action already exists with same id", AG,
          r"^action template", count=1)
ac.refuse("action template: a parameter name given twice is refused",
          [MK], f"{AC}/act1 param x type bit8 param x type bit16",
          "Param already exists", AG, "act1", count=0)
ac.refuse("action template: a parameter id given twice is refused",
          [MK], f"{AC}/act1 param x type bit8 id 2 param y type bit8 id 2",
          "Param already exists", AG, "act1", count=0)
ac.refuse("action template: a key parameter is refused",
          [MK], f"{AC}/act1 param x type key", "Param type is invalid",
          AG, "act1", count=0)
ac.refuse("action template: 33 parameters are refused",
          [MK], f"{AC}/act1 " + " ".join(f"param p{i} type bit8"
                                          for i in range(33)),
          "An action has at most 32 parameters", AG, "act1", count=0)
ac.case("action template: 32 parameters are the limit",
        [MK], f"{AC}/act1 " + " ".join(f"param p{i} type bit8"
                                        for i in range(32)),
        f"{P} get action/ptest/act1", r"param p\d+ type bit8 id \d+", count=32)
ac.refuse("action template: the kind PIPELINE/NAME must fit 63 bytes",
          [MK], f"{AC}/" + "a" * 58,
          "Pipeline and action name together must fit in 63 bytes", AG,
          "aaaa", count=0)
ac.case("action template: the kind may take exactly 63 bytes",
        [MK], f"{AC}/" + "a" * 57 + " state active && "
        f"$TC actions add action ptest/{'a' * 57} index 1",
        f"$TC actions ls action ptest/{'a' * 57}", r"index 1 ref 1 bind 0")
ac.refuse("action template: a parameter needs a type (tc)",
          [MK], f"{AC}/act1 param x",
          'Command line is not complete. Try option "help"', prefix="")
ac.refuse("action template: an unknown template is not found",
          [MK], f"{P} get action/ptest/nope", "Action name not found")
ac.refuse("action template: an unknown id is not found",
          [MK], f"{P} get action/ptest/ actid 9",
          "Unable to find action by id")
ac.case("action template: state active makes the tc action kind",
        [MK, A1], f"{AU}/act1 state active && {AA} {LO} index 1",
        f"{P} get action/ptest/act1; {ALS}",
        r"state active kind_id \d+\n.*action order 0: ptest/act1 pipe")
ac.refuse("action template: an inactive template makes no kind",
          [MK, A1], f"{AA} {LO}", "Failed to load TC action module",
          ALS, "ptest/act1", count=0)
ac.refuse("action template: an active template cannot change its parameters",
          [MK, A1ON], f"{AU}/act1 param x type bit8",
          "Unable to update active action",
          f"{P} get action/ptest/act1", r"param x", count=0)
ac.case("action template: update replaces the parameters of an inactive one",
        [MK, A1], f"{AU}/act1 param x type bit16",
        f"{P} get action/ptest/act1",
        r"state inactive\n\t param x type bit16 id 1\n$")
ac.case("action template: dump lists every template",
        [MK, f"{AC}/a1", f"{AC}/a2", f"{AC}/a3 state active"], AG,
        AG, r"^action template name ptest/a\d actid \d+ state", count=3)
ac.case("action template: 40 templates dump across messages",
        [MK, batch(f"p4template create action/ptest/a$i", 40)], AG, AG,
        r"^action template name ptest/a\d+ actid \d+ state inactive", count=40)
ac.case("action template: delete one",
        [MK, f"{AC}/a1", f"{AC}/a2"], f"{P} del action/ptest/a1", AG,
        r"^action template name ptest/a2 ")
ac.case("action template: flush deletes every template and its instances",
        [MK, f"{AC}/a1", A1ON, f"{AA} {LO} index 4"],
        f"{P} del action/ptest/", f"{AG}; {ALS}",
        r"action template|ptest/act1", count=0)
ac.refuse("action template: creating in a sealed pipeline is refused",
          [f"{MK} numtables 0 preactions action gact ok postactions action gact ok",
           f"{P} update pipeline/ptest state ready"],
          f"{AC}/act1", "Pipeline is sealed", AG, "act1", count=0)
ac.refuse("action template: sealing needs every template active",
          [f"{MK} preactions action gact ok postactions action gact ok",
           f"{AC}/act1"], f"{P} update pipeline/ptest state ready",
          "Every action template must be active before sealing",
          f"{P} get pipeline/ptest", "state not ready")
ac.case("action template: a pipeline with active templates seals",
        [f"{MK} preactions action gact ok postactions action gact ok",
         A1ON], f"{P} update pipeline/ptest state ready",
        f"{P} get pipeline/ptest", "state ready")

# instances
ac.case("action: instance with every parameter (JSON)",
        [MK, A1ON, "$IP link add p4d0 type dummy"],
        f"{AA} param port p4d0 param dmac 00:11:22:33:44:55 param ttl 64 "
        "index 7", f"$TC -j actions get action ptest/act1 index 7",
        json_=[{"total acts": 0},
               {"actions": [{"order": 1, "kind": "ptest/act1",
                             "control_action": {"type": "pipe"},
                             "params": [
                                 {"name": "port", "type": "dev",
                                  "value": "p4d0", "id": 1},
                                 {"name": "dmac", "type": "macaddr",
                                  "value": "00:11:22:33:44:55", "id": 2},
                                 {"name": "ttl", "type": "bit8",
                                  "value": 64, "id": 3}],
                             "index": 7, "ref": 1, "bind": 0}]}],
        teardown=[["$IP link del p4d0", 0, 1, 255], *ATD])
ac.case("action: values of every printable type",
        [MK, f"{AC}/act1 param a type int8 param b type be16 param c type "
         "ipv4 param d type bool param e type bit128 state active"],
        "$TC actions add action ptest/act1 param a -5 param b 0x86dd "
        "param c 10.1.2.3 param d true param e "
        "0x10000000000000000000000000000001 index 1",
        "$TC actions get action ptest/act1 index 1",
        r"param a type int8 value -5 id 1\n.*param b type be16 value 34525 "
        r"id 2\n.*param c type ipv4 value 10.1.2.3 id 3\n.*param d type "
        r"bool value true id 4\n.*param e type bit128 value "
        r"0x10000000000000000000000000000001 id 5",
        teardown=ATD)
ac.case("action: indexes are allocated when none is given",
        [MK, A1ON], f"{AA} {LO} && {AA} {LO}", ALS,
        r"index [12] ref 1 bind 0", count=2, teardown=ATD)
ac.refuse("action: every parameter needs a value",
          [MK, A1ON], f"{AA} param port lo param ttl 3 index 1",
          "Every parameter of the action needs a value", ALS, "ptest/act1",
          count=0, teardown=ATD)
ac.refuse("action: a value wider than its type is refused by the kernel",
          [MK, f"{AC}/act1 param x type bit5 state active"],
          "$TC actions add action ptest/act1 param x 40 index 1",
          "Value too wide for its type", ALS, "ptest/act1", count=0,
          teardown=ATD)
ac.refuse("action: a value wider than its container is refused by tc",
          [MK, A1ON], f"{AA} param port lo param dmac 00:11:22:33:44:55 "
          "param ttl 300", 'value "300" of parameter ttl is not a bit8',
          ALS, "ptest/act1", count=0, teardown=ATD)
ac.refuse("action: an unknown parameter is refused by tc",
          [MK, A1ON], f"{AA} param nope 1",
          'action act1 has no parameter "nope"', teardown=ATD)
ac.refuse("action: an unknown device is refused by tc",
          [MK, A1ON], f"{AA} param port nodev0 param dmac 00:11:22:33:44:55 "
          "param ttl 1", 'value "nodev0" of parameter port is not a dev',
          teardown=ATD)
ac.refuse("action: a duplicate index is refused",
          [MK, A1ON, f"{AA} {LO} index 3"], f"{AA} {LO} index 3",
          "Action instance with this index exists", ALS, "index 3 ref 1",
          teardown=ATD)
ac.case("action: replace changes the parameters and the control",
        [MK, A1ON, f"{AA} {LO} index 3"],
        "$TC actions replace action ptest/act1 param port lo param dmac "
        "00:00:00:00:00:01 param ttl 9 drop index 3",
        "$TC actions get action ptest/act1 index 3",
        r"ptest/act1 drop\n.*value 00:00:00:00:00:01 id 2\n.*value 9 id 3",
        teardown=ATD)
ac.case("action: a cookie is kept",
        [MK, A1ON], f"{AA} {LO} index 3 cookie a1b2c3",
        "$TC actions get action ptest/act1 index 3", "cookie a1b2c3",
        teardown=ATD)
ac.case("action: delete one instance",
        [MK, A1ON, f"{AA} {LO} index 3", f"{AA} {LO} index 4"],
        "$TC actions del action ptest/act1 index 3", ALS,
        r"index (3|4) ref", count=1, teardown=ATD)
ac.case("action: flush the kind's instances",
        [MK, A1ON, f"{AA} {LO} index 3", f"{AA} {LO} index 4"],
        "$TC actions flush action ptest/act1", ALS, r"index \d ref",
        count=0, teardown=ATD)
ac.case("action: bound to a matchall filter, ref and bind count",
        [MK, A1ON, f"{AA} {LO} index 3", "$TC qdisc add dev lo clsact"],
        "$TC filter add dev lo ingress matchall action ptest/act1 index 3",
        ALS, r"index 3 ref 2 bind 1",
        teardown=[["$TC qdisc del dev lo clsact", 0, 1, 2], *ATD])
ac.case("action: made by a filter with its parameters",
        [MK, A1ON, "$TC qdisc add dev lo clsact"],
        f"$TC filter add dev lo ingress matchall action ptest/act1 {LO}",
        "$TC filter show dev lo ingress",
        r"action order 1: ptest/act1 pipe\n.*value lo id 1\n.*ref 1 bind 1",
        teardown=[["$TC qdisc del dev lo clsact", 0, 1, 2], *ATD])
ac.refuse("action: a template is not deleted while an instance is bound",
          [MK, A1ON, f"{AA} {LO} index 3", "$TC qdisc add dev lo clsact",
           "$TC filter add dev lo ingress matchall action ptest/act1 index 3"],
          f"{P} del action/ptest/act1",
          "Action template has instances in use (bound to a filter or pipeline)",
          ALS, "index 3 ref 2 bind 1",
          teardown=[["$TC qdisc del dev lo clsact", 0, 1, 2], *ATD])
ac.refuse("action: a pipeline is not deleted while an instance is bound",
          [MK, A1ON, "$TC qdisc add dev lo clsact",
           f"$TC filter add dev lo ingress matchall action ptest/act1 {LO}"],
          f"{P} del pipeline/ptest",
          "Action template has instances in use (bound to a filter or pipeline)",
          f"{P} get pipeline/", "name ptest",
          teardown=[["$TC qdisc del dev lo clsact", 0, 1, 2], *ATD])
ac.case("action: deleting the template deletes its unbound instances",
        [MK, A1ON, f"{AA} {LO} index 3", f"{AA} {LO} index 4"],
        f"{P} del action/ptest/act1", f"{AG}; {ALS}",
        r"ptest/act1|action template", count=0)
ac.case("action: pipeline preactions bind an instance of its own kind",
        [MK, A1ON, f"{AA} {LO} index 3"],
        f"{P} update pipeline/ptest preactions action ptest/act1 index 3 "
        "postactions action gact ok", f"{P} get pipeline/ptest",
        r"preactions:\n\taction order 1: ptest/act1 pipe\n.*index 3 ref 2 "
        r"bind 1", teardown=ATD)
ac.case("action: a pipeline bound only by its own preactions is deleted",
        [MK, A1ON, f"{AA} {LO} index 3",
         f"{P} update pipeline/ptest preactions action ptest/act1 index 3 "
         "postactions action gact ok"],
        f"{P} del pipeline/ptest", f"{P} get pipeline/; {ALS}",
        r"ptest", count=0, teardown=[])
ac.case("action: kinds belong to their namespace",
        ["$IP netns add p4tcns",
         f"$TC -n p4tcns p4template create pipeline/ptest",
         f"$TC -n p4tcns p4template create action/ptest/act1 state active",
         "$TC -n p4tcns actions add action ptest/act1 index 1"],
        "$TC actions ls action ptest/act1; "
        "$TC -n p4tcns actions ls action ptest/act1",
        "sh -c '$TC -n p4tcns actions ls action ptest/act1; "
        "$TC actions ls action ptest/act1'", r"ptest/act1 pipe", count=1,
        teardown=[["$IP netns del p4tcns", 0, 1]], pipes=())
ac.case("action: a namespace with bound instances is torn down",
        ["$IP netns add p4tcns",
         f"$TC -n p4tcns p4template create pipeline/ptest",
         f"$TC -n p4tcns p4template create action/ptest/act1 state active",
         "$IP -n p4tcns link add p4d0 type dummy",
         "$TC -n p4tcns qdisc add dev p4d0 clsact",
         "$TC -n p4tcns filter add dev p4d0 egress matchall action "
         "ptest/act1"],
        "$IP netns del p4tcns", "sh -c 'sleep 1; $IP netns list'", "p4tcns",
        count=0, teardown=[], pipes=())
ac.case("action: packets through a matchall filter run the action",
        [MK, f"{AC}/act1 param x type bit8 state active",
         "$TC actions add action ptest/act1 param x 1 drop index 1",
         "$TC qdisc add dev lo clsact",
         "$TC filter add dev lo egress matchall action ptest/act1 index 1"],
        "ping -c 2 -W 1 127.0.0.1", "$TC -s actions get action ptest/act1 index 1",
        r"Sent \d+ bytes ([1-9]\d*) pkt \(dropped \1,", code=1,
        teardown=[["$TC qdisc del dev lo clsact", 0, 1, 2],
                  ["$TC actions flush action ptest/act1", 0, 1, 255], pdel()])

# what tc cannot send
ac.refuse("action template: a parameter without a name (netlink)",
          [MK], "$P4NL act ptest act1 param-noname",
          "Must specify param name", AG, "act1", count=0)
ac.refuse("action template: a parameter without a type (netlink)",
          [MK], "$P4NL act ptest act1 param-notype",
          "Must specify param type", AG, "act1", count=0)
ac.refuse("action template: a template gives no values (netlink)",
          [MK], "$P4NL act ptest act1 param-value",
          "A template gives types, not values", AG, "act1", count=0)
ac.refuse("action template: a command without its operation (netlink)",
          [MK], "$P4NL act ptest act1 cmds", "Command 1: operation missing",
          AG, "act1", count=0)
ac.refuse("action template: an active template stays active (netlink)",
          [MK, A1ON], "$P4NL act ptest act1 inactive",
          "An active action template stays active until deleted",
          f"{P} get action/ptest/act1", "state active")
ac.refuse("action: an instance without its options block (netlink)",
          [MK, f"{AC}/act1 param x type bit8 state active"],
          "$P4NL inst ptest/act1 noopt",
          "Must specify option netlink attributes", ALS, "ptest/act1", count=0,
          teardown=ATD)
for how, msg in [("noopts", "Must specify action netlink attributes"),
                 ("noname", "Must specify param name or id"),
                 ("badname", "Param name not found"),
                 ("len", "Value length differs from template's"),
                 ("novalue", "Must specify param value")]:
    ac.refuse(f"action: an instance refused: {msg} (netlink)",
              [MK, f"{AC}/act1 param x type bit8 state active"],
              f"$P4NL inst ptest/act1 {how}", msg, ALS, "ptest/act1",
              count=0, teardown=ATD)
ac.refuse("action: an instance's dev parameter of ifindex 0 (netlink)",
          [MK, f"{AC}/act1 param x type dev state active"],
          "$P4NL inst ptest/act1 devzero", "Invalid ifindex", ALS,
          "ptest/act1", count=0, teardown=ATD)
ac.case("action: an instance from raw netlink (the cases above differ in one thing)",
        [MK, f"{AC}/act1 param x type bit8 state active"],
        "$P4NL inst ptest/act1 ok", ALS, r"ptest/act1.*\n.*param x type bit8 value 1",
        teardown=ATD)
ac.refuse("action: an instance without parameters of a template that has some",
          [MK, f"{AC}/act1 param x type bit8 state active"],
          "$P4NL inst ptest/act1 noparams", "Must specify action parameters",
          ALS, "ptest/act1", count=0, teardown=ATD)
ac.refuse("action template: create without a name",
          [MK], "$P4NL raw create 4 ptest 1{ 2{ } }", "Must supply action name",
          AG, "action template", count=0)
ac.refuse("action template: get with neither name nor id",
          [MK, A1], "$P4NL raw get 4 ptest 1{ 2{ } }",
          "Must specify action name or id")
ac.refuse("action template: flush of templates in use",
          [f"{MK} numtables 1", A1ON, f"{P} create table/ptest/cb/t1 keysz 8 "
           "table_acts act name ptest/act1"], f"{P} del action/ptest/",
          "Unable to flush any action template", AG, "act1")
ac.case("action template: flush of none warns",
        [MK], f"{P} del action/ptest/ 2>&1", f"{P} del action/ptest/ 2>&1",
        "Warning: There are not action templates to flush")
ac.refuse("action: an instance's parameter type must be its template's (netlink)",
          [MK, f"{AC}/act1 param x type bit8 state active"],
          "$P4NL inst ptest/act1 type", "Param type differs from template",
          ALS, "ptest/act1", count=0, teardown=ATD)


# The seed's addressing and instances
ACI = [f"{P} create pipeline/ptest pipeid 22",
       f"{AC}/test actid 1 param param1 type bit32 id 1"]
ac.case("action template: get by pipeline id and action id alone (seed, JSON)",
        ACI, f"$TC -j p4template get action/ pipeid 22 actid 1",
        f"$TC -j p4template get action/ pipeid 22 actid 1",
        json_=[{"pname": "ptest", "pipeid": 22, "obj": "action template"},
               {"templates": [{"aname": "ptest/test", "actid": 1,
                               "params": [{"name": "param1", "type": "bit32",
                                           "id": 1}]}]}])
ac.case("action template: activate by ids alone",
        ACI, f"{P} update action/ pipeid 22 actid 1 state active",
        f"{P} get action/ptest/test", r"state active")
ac.case("action template: delete by ids alone",
        ACI, f"{P} del action/ pipeid 22 actid 1", AG, r"name ptest/test", count=0)
ac.refuse("action template: a name and an id of different templates are refused",
          [*ACI, f"{AC}/other actid 2"], f"{P} get action/ptest/test actid 2",
          "Action template name and id name different templates")
ac.case("action: an instance in the seed's form: param NAME type T id N VALUE (JSON)",
        [*ACI, f"{P} update action/ptest/test state active"],
        "$TC actions add action ptest/test param param1 type bit32 id 1 4294967295 index 7",
        "$TC -j actions get action ptest/test index 7",
        json_=[{}, {"actions": [{"kind": "ptest/test", "index": 7,
                                 "params": [{"name": "param1", "type": "bit32",
                                             "value": 4294967295,
                                             "id": 1}]}]}],
        teardown=["$TC actions flush action ptest/test", pdel()])
ac.case("action: an instance in the seed's form without the id",
        [*ACI, f"{P} update action/ptest/test state active"],
        "$TC actions add action ptest/test param param1 type bit32 5 index 7",
        "$TC actions get action ptest/test index 7",
        r"param param1 type bit32 value 5 id 1",
        teardown=["$TC actions flush action ptest/test", pdel()])
ac.refuse("action: an instance whose parameter type differs from the template's",
          [*ACI, f"{P} update action/ptest/test state active"],
          "$TC actions add action ptest/test param param1 type bit16 id 1 5 index 7",
          "Param type differs from template", "$TC actions ls action ptest/test",
          "ptest/test", count=0,
          teardown=[["$TC actions flush action ptest/test", 0, 1, 255], pdel()])
ac.refuse("action: an instance whose parameter id differs from the template's",
          [*ACI, f"{P} update action/ptest/test state active"],
          "$TC actions add action ptest/test param param1 type bit32 id 9 5 index 7",
          "Unable to find param by id", "$TC actions ls action ptest/test",
          "ptest/test", count=0,
          teardown=[["$TC actions flush action ptest/test", 0, 1, 255], pdel()])

# ---------------------------------------------------------------- commands
cm = File("p4tc-cmds.json", "70")


HF = "hdrfield.ptest.parser1"
# a pipeline with metadata, a register, a parse graph and devices
CSET = [MK, tcb("p4template create metadata/ptest/m8 type bit8",
                "p4template create metadata/ptest/m16 type bit16",
                "p4template create metadata/ptest/m32 type bit32",
                "p4template create metadata/ptest/s8 type int8",
                "p4template create metadata/ptest/mac type mac",
                "p4template create metadata/ptest/port type dev",
                "p4template create register/ptest/reg1 type bit32 numelems 4",
                "p4template create header/ptest/parser1/eth len 14 start",
                "p4template create hdrfield/ptest/parser1/eth/dst type mac offset 0",
                "p4template create hdrfield/ptest/parser1/eth/type type be16 offset 96",
                "p4template create hdrfield/ptest/parser1/eth/loose type bit8")]
CA = f"{P} create action/ptest/a"
CG = f"{P} get action/ptest/a"


def cmd_ok(name, cmds, pattern, setup=(), count=1, json_=None):
    """An action whose commands are accepted; the dump shows them."""
    if json_ is not None:
        cm.case(name, [*CSET, *setup], f"{CA} {cmds}",
                "$TC -j p4template get action/ptest/a", json_=json_)
    else:
        cm.case(name, [*CSET, *setup], f"{CA} {cmds}", CG, pattern,
                count=count)


def cmd_refused(name, cmds, message, setup=(), raw=None, **kw):
    """An action whose commands are refused with MESSAGE; nothing is made.
    raw: instead of tc, the command that sends the action's message."""
    cm.refuse(name, [*CSET, *setup], raw or f"{CA} {cmds}", message,
              f"{P} get action/ptest/", "name ptest/a ", count=0, **kw)


cmd_ok("cmd: set from a constant (JSON)",
       "param x type bit8 cmd set metadata.ptest.m8 constant.bit8.5", None,
       json_=[{"obj": "action template"},
              {"templates": [{"aname": "ptest/a", "params": [
                  {"name": "x", "type": "bit8", "id": 1}],
                  "cmds": ["set metadata.ptest.m8 constant.bit8.5"]}]}])
cmd_ok("cmd: set with slices on both sides",
       "cmd set metadata.ptest.m32[8-15] metadata.ptest.m16[4-11]",
       r"cmd set metadata.ptest.m32\[8-15\] metadata.ptest.m16\[4-11\]")
cmd_ok("cmd: set kernel metadata from a parameter",
       "param x type bit32 cmd set metadata.kernel.skbmark param.x",
       r"cmd set metadata.kernel.skbmark param.x")
cmd_ok("cmd: set a header field from metadata",
       f"cmd set {HF}.eth.dst metadata.ptest.mac",
       r"cmd set hdrfield.ptest.parser1.eth.dst metadata.ptest.mac")
cmd_ok("cmd: a wider constant type whose value fits",
       "cmd set metadata.ptest.m8 constant.bit32.255",
       r"cmd set metadata.ptest.m8 constant.bit32.255")
cmd_ok("cmd: a register element, whole and sliced",
       "cmd set register.ptest.reg1[3] metadata.ptest.m32 "
       "cmd set metadata.ptest.m8 register.ptest.reg1[1][0-7]",
       r"cmd set register.ptest.reg1\[3\] metadata.ptest.m32\n.*cmd set "
       r"metadata.ptest.m8 register.ptest.reg1\[1\]\[0-7\]")
cmd_ok("cmd: plus, sub, band, bor, bxor",
       "cmd plus metadata.ptest.m32 metadata.ptest.m16 constant.bit8.1 "
       "cmd sub metadata.ptest.m32 metadata.ptest.m32 metadata.ptest.m8 "
       "cmd band metadata.ptest.m16 metadata.ptest.m16 constant.bit16.0xff "
       "cmd bor metadata.ptest.m16 metadata.ptest.m16 constant.bit16.0x100 "
       "cmd bxor metadata.ptest.m8 metadata.ptest.m8 constant.bit8.0xf",
       r"cmd (plus|sub|band|bor|bxor) ", count=5)
cmd_ok("cmd: concat of 8 sources",
       "cmd concat metadata.ptest.m32 " + " ".join(
           ["metadata.ptest.m8[0-3]"] * 8),
       r"cmd concat metadata.ptest.m32( metadata.ptest.m8\[0-3\]){8}$")
cmd_ok("cmd: every branch with a verdict, a distance and a label",
       "cmd beq metadata.ptest.m8 constant.bit8.1 control drop / pipe "
       "cmd bne metadata.ptest.m8 constant.bit8.1 control jump 1 / pass "
       "cmd blt metadata.ptest.s8 constant.int8.-1 control jump end "
       "cmd ble metadata.ptest.m8 metadata.ptest.m16 control reclassify / jump end "
       "cmd bgt metadata.ptest.m8 constant.bit8.1 control continue "
       "cmd bge metadata.ptest.m8 constant.bit8.1 control pipe / drop "
       "cmd label end",
       r"cmd beq .* control drop / pipe\n.*cmd bne .* control jump 1 / pass\n"
       r".*cmd blt metadata.ptest.s8 constant.int8.-1 control jump end\n"
       r".*cmd ble .* control reclassify / jump end\n.*cmd bgt .* control "
       r"continue\n.*cmd bge .* control pipe / drop\n.*cmd label end")
cmd_ok("cmd: label, jump to it, ret with and without a verdict",
       "cmd jump l1 cmd ret cmd label l1 cmd jump 2 cmd ret drop cmd ret",
       r"cmd jump l1\n.*cmd ret\n.*cmd label l1\n.*cmd jump 2\n.*cmd ret "
       r"drop\n.*cmd ret$")
cmd_ok("cmd: print with and without a prefix",
       "cmd print prefix MARK metadata.kernel.skbmark "
       "cmd print metadata.ptest.m8",
       r"cmd print prefix MARK metadata.kernel.skbmark\n.*cmd print "
       r"metadata.ptest.m8")
cmd_ok("cmd: act by instance index",
       "cmd act ptest.b.3", r"cmd act ptest.b.3",
       setup=[f"{P} create action/ptest/b state active",
              "$TC actions add action ptest/b index 3"])
cmd_ok("cmd: act with arguments",
       "cmd act ptest.b metadata.ptest.m8 constant.bit16.7",
       r"cmd act ptest.b metadata.ptest.m8 constant.bit16.7",
       setup=[f"{P} create action/ptest/b param x type bit8 param y "
              "type bit16 state active"])
cmd_ok("cmd: act on a kernel action",
       "cmd act kernel.gact.9", r"cmd act kernel.gact.9",
       setup=["$TC actions add action gact ok index 9"])
cmd_ok("cmd: send_port_egress to a dev parameter, mirror to a device",
       "param port type dev cmd mirror_port_egress dev.lo "
       "cmd mirror_port_egress metadata.kernel.iif "
       "cmd send_port_egress param.port",
       r"cmd mirror_port_egress dev.lo\n.*cmd mirror_port_egress "
       r"metadata.kernel.iif\n.*cmd send_port_egress param.port")
cmd_ok("cmd: results read as bits",
       "cmd set metadata.ptest.m8 results.hit cmd set metadata.ptest.m8 "
       "results.miss", r"cmd set metadata.ptest.m8 results.(hit|miss)",
       count=2)
cmd_ok("cmd: 32 commands are the limit",
       " ".join(["cmd set metadata.ptest.m8 constant.bit8.1"] * 32),
       r"cmd set metadata.ptest.m8 constant.bit8.1", count=32)
cmd_ok("cmd: update replaces the program of an inactive template",
       "", r"^\t cmd ", count=1,
       setup=[])
cm.cases[-1]["setup"] = [*CSET, f"{CA} cmd ret cmd ret"]
cm.cases[-1]["cmdUnderTest"] = f"{P} update action/ptest/a cmd ret drop"
cm.cases[-1]["matchPattern"] = r"cmd ret drop$"

cmd_refused("cmd: 33 commands are refused",
            " ".join(["cmd ret"] * 33), "an action has at most 32 commands",
            prefix="Error: ")
cmd_refused("cmd: a constant cannot be written",
            "cmd set constant.bit8.1 metadata.ptest.m8",
            "Command 1: Unable to set read-only operand")
cmd_refused("cmd: read-only kernel metadata cannot be written",
            "cmd set metadata.kernel.skbfclone constant.bit2.1",
            "Command 1: Unable to set read-only operand")
cmd_refused("cmd: a parameter cannot be written",
            "param x type bit8 cmd set param.x constant.bit8.1",
            "Command 1: Unable to set read-only operand")
cmd_refused("cmd: a wider source does not fit",
            "cmd set metadata.ptest.m8 metadata.ptest.m32",
            "Command 1: set: B.bitsize has to be <= A.bitsize")
cmd_refused("cmd: a constant value that does not fit",
            "cmd set metadata.ptest.m8 constant.bit32.256",
            "Command 1: set: B.bitsize has to be <= A.bitsize")
cmd_refused("cmd: a source wider than the destination's slice",
            "cmd plus metadata.ptest.m32[0-3] metadata.ptest.m8 constant.bit8.1",
            "Command 1 operand 2: 8 bits do not fit the 4-bit destination")
cmd_refused("cmd: a slice outside its operand",
            "cmd set metadata.ptest.m8[4-8] constant.bit8.1",
            "Command 1 operand 1: Start and end bit dont fit in space")
cmd_refused("cmd: a concat too wide",
            "cmd concat metadata.ptest.m32 metadata.ptest.m32 metadata.ptest.m8",
            "Command 1: Rvalue operands concatenated must fit inside operand A")
cmd_refused("cmd: concat needs two sources",
            "cmd concat metadata.ptest.m32 metadata.ptest.m8",
            "Command 1: takes 3 to 9 operands, not 2")
cmd_refused("cmd: set takes two operands",
            "cmd set metadata.ptest.m8", "Command 1: SET must have only 2 operands")
cmd_refused("cmd: print takes one operand",
            "cmd print metadata.ptest.m8 metadata.ptest.m8",
            "Command 1: print must have only 1 operands")
cmd_refused("cmd: unknown metadata, named in the second command",
            "cmd ret cmd set metadata.ptest.m8 metadata.ptest.nope",
            "Command 2 operand 2: unknown metadata nope")
cmd_refused("cmd: metadata of another pipeline",
            "cmd set metadata.other.m8 constant.bit8.1",
            "Command 1 operand 1: metadata are PIPELINE.NAME of this pipeline or kernel")
cmd_refused("cmd: an unknown header field",
            f"cmd set {HF}.eth.nope constant.bit8.1",
            "Command 1 operand 1: unknown header field eth/nope")
cmd_refused("cmd: an unknown parser",
            "cmd set hdrfield.ptest.parser9.eth.dst metadata.ptest.mac",
            "Command 1 operand 1: unknown parser parser9")
cmd_refused("cmd: a header field without an offset",
            f"cmd set {HF}.eth.loose constant.bit8.1",
            "Command 1 operand 1: header field eth/loose has no place in a header")
cmd_refused("cmd: a field over 120 bits off a byte boundary",
            "cmd set hdrfield.ptest.parser1.wide.f constant.bit8.1",
            "Command 1 operand 1: fields over 120 bits must start on a byte",
            setup=[f"{P} create header/ptest/parser1/wide len 20",
                   f"{P} create hdrfield/ptest/parser1/wide/f type bit124 "
                   "offset 4"])
cmd_ok("cmd: a 128-bit field on a byte boundary",
       "cmd set hdrfield.ptest.parser1.wide.f constant.bit8.1",
       r"cmd set hdrfield.ptest.parser1.wide.f constant.bit8.1",
       setup=[f"{P} create header/ptest/parser1/wide len 20",
              f"{P} create hdrfield/ptest/parser1/wide/f type bit128 "
              "offset 8"])
cmd_refused("cmd: an unknown parameter",
            "cmd set metadata.ptest.m8 param.nope",
            "Command 1 operand 2: the action has no parameter nope")
cmd_refused("cmd: an unknown device",
            "cmd send_port_egress dev.nodev0",
            "Command 1 operand 1: unknown device nodev0")
cmd_refused("cmd: an unknown register",
            "cmd set register.ptest.nope[0] constant.bit8.1",
            "Command 1 operand 1: unknown register nope")
cmd_refused("cmd: a register index out of range",
            "cmd set register.ptest.reg1[4] constant.bit8.1",
            "Command 1 operand 1: Register index out of bounds")
cmd_refused("cmd: results are hit or miss",
            "cmd set metadata.ptest.m8 results.maybe",
            "Command 1 operand 2: Invalid result field")
cmd_refused("cmd: tableapply of an unknown table",
            "cmd tableapply table.ptest.cb/t1",
            "Command 1 operand 1: unknown table cb/t1")
cmd_refused("cmd: a key of an unknown table",
            "cmd set key.ptest.cb/t1 constant.bit8.1",
            "Command 1 operand 1: unknown table cb/t1")
cmd_refused("cmd: a branch needs a control",
            "cmd beq metadata.ptest.m8 constant.bit8.1",
            "Command 1: needs a control")
cmd_refused("cmd: jumps go forward only",
            "cmd label l1 cmd jump l1", "Command 2: Backward jumps are not allowed")
cmd_refused("cmd: a jump past the end",
            "cmd jump 3 cmd ret", "Command 1: jump excessive branch")
cmd_refused("cmd: an unknown label",
            "cmd jump nowhere", "Command 1: Unable to find label")
cmd_refused("cmd: a label given twice",
            "cmd label l1 cmd label l1", "Command 2: Unable to insert in labels hashtable")
# the seed's messages for what tc does not send
CRAW = "$P4NL raw create 4 ptest 1{ 2{ 1=s:a 5{ "
cmd_refused("cmd: an unknown operation",
            None, "Command 1: Unknown operation ID",
            raw=CRAW + "1{ 1=u8:99 } } } }")
cmd_refused("cmd: an operand without its kind",
            None, "Command 1 operand 1: operand information is mandatory",
            raw=CRAW + "1{ 1=u8:1 2{ 1{ 2=s:ptest.m8 } } } } } }")
cmd_refused("cmd: an unknown operand kind",
            None, "Command 1 operand 1: Unknown operand type",
            raw=CRAW + "1{ 1=u8:1 2{ 1{ 1=u8:99 2=s:ptest.m8 } } } } } }")
# the program is parsed from a copy the template keeps: an error must
# name the request's attribute (netlink's ack warned of one outside it)
cmd_refused("cmd: a malformed operand attribute names the request's bytes",
            None, "binary attribute size out of range",
            raw=CRAW + "1{ 1=u8:1 2{ 1{ 1=u8:2 3=x:0102 2=s:ptest.m8 } } } } } }")
cmd_refused("cmd: act of something that is not an action",
            None, "Command 1: ACT: Operand type MUST be P4TC_OPER_ACTID",
            raw=CRAW + "1{ 1=u8:2 2{ 1{ 1=u8:2 2=s:ptest.m8 } } } } } }")
cmd_refused("cmd: a jump to a verdict",
            None, "Command 1: Operand A must be a label",
            raw=CRAW + "1{ 1=u8:20 3{ 1=u32:2 } } 2{ 1=u8:21 } } } }")
cmd_refused("cmd: ret of a jump",
            None, "Command 1: Operand A must be a return code",
            raw=CRAW + "1{ 1=u8:21 3{ 2=u32:1 } } 2{ 1=u8:21 } } } }")
cmd_refused("cmd: a branch with one operand",
            None, "Command 1: Branch: branch must have only 2 operands",
            raw=CRAW + "1{ 1=u8:3 2{ 1{ 1=u8:2 2=s:ptest.m8 } } 3{ 1=u32:2 } } } } }")
cmd_refused("cmd: ten operands",
            " ".join(["cmd concat metadata.ptest.m32"] + ["metadata.ptest.m8"] * 9),
            "Command 1: Operands list exceeds maximum allowed value")
cmd_refused("cmd: plus into a constant",
            "cmd plus constant.bit8.1 metadata.ptest.m8 metadata.ptest.m8",
            "Command 1: Unable to store op result in read-only operand")
cmd_refused("cmd: tableapply takes one table",
            "cmd tableapply metadata.ptest.m8 metadata.ptest.m8",
            "Command 1: tableapply must have only 1 operands")
cmd_refused("cmd: send_port_egress takes one device",
            "cmd send_port_egress dev.lo dev.lo",
            "Command 1: send_port_egress must have only 1 operands")
cmd_refused("cmd: a branch's jump past the end",
            "cmd beq metadata.ptest.m8 constant.bit8.1 control jump 3 / pipe",
            "Command 1: ctl1 excessive branch")
cmd_refused("cmd: a branch's second jump past the end",
            "cmd beq metadata.ptest.m8 constant.bit8.1 control pipe / jump 3",
            "Command 1: ctl2 excessive branch")
cmd_refused("cmd: print of a constant",
            "cmd print constant.bit8.1", "Command 1: Operand A cannot be constant")
cmd_refused("cmd: a branch on two constants",
            "cmd beq constant.bit8.1 constant.bit8.1 control drop / pipe",
            "Command 1: Branch: A and B can't both be constant")
cmd_refused("cmd: a label with operands",
            None, "Command 1: label command mustn't have operands",
            raw=CRAW + "1{ 1=u8:19 5=s:l1 2{ 1{ 1=u8:2 2=s:ptest.m8 } } } } } }")
cmd_refused("cmd: a constant of an unknown type",
            None, "Command 1 operand 2: Invalid operand type",
            raw=CRAW + "1{ 1=u8:1 2{ 1{ 1=u8:2 2=s:ptest.m8 } 2{ 1=u8:1 4=ty:99,0,7 5=x:01 } } } } } }")
cmd_refused("cmd: act with more arguments than parameters",
            "cmd act ptest.b metadata.ptest.m8 metadata.ptest.m8",
            "Command 1: Act has less runtime parameters than passed in call",
            setup=[f"{P} create action/ptest/b param x type bit8 state active"])
cmd_refused("cmd: send_port_egress needs a device",
            "cmd send_port_egress metadata.ptest.m32",
            "Command 1 operand 1: dev parameter must be dev")
cmd_refused("cmd: act of an unknown action",
            "cmd act ptest.nope", "Command 1 operand 1: unknown action nope")
cmd_refused("cmd: act of an inactive action",
            "cmd act ptest.b", "Command 1 operand 1: action b is not active",
            setup=[f"{P} create action/ptest/b"])
cmd_refused("cmd: act of a missing instance",
            "cmd act ptest.b.9",
            "Command 1 operand 1: ACT: unknown Action index",
            setup=[f"{P} create action/ptest/b state active"])
cmd_refused("cmd: act with the wrong number of arguments",
            "cmd act ptest.b", "Command 1: Act has more runtime params than passed in call",
            setup=[f"{P} create action/ptest/b param x type bit8 state active"])
cmd_refused("cmd: act with an argument too wide",
            "cmd act ptest.b metadata.ptest.m16",
            "Command 1 operand 2: 16 bits do not fit parameter x",
            setup=[f"{P} create action/ptest/b param x type bit8 state active"])
cmd_refused("cmd: an instance takes no arguments",
            "cmd act ptest.b.3 metadata.ptest.m8",
            "Command 1: Can't specify runtime params together with instance id",
            setup=[f"{P} create action/ptest/b param x type bit8 state active",
                   "$TC actions add action ptest/b param x 1 index 3"])
cmd_refused("cmd: a kernel action is named by its index",
            "cmd act kernel.gact",
            "Command 1 operand 1: Must specify instance id for kernel act calls")
cmd_refused("cmd: an unknown kernel action kind",
            "cmd act kernel.nokind.1",
            "Command 1 operand 1: ACT: unknown Action Kind")
cmd_refused("cmd: a missing kernel action instance",
            "cmd act kernel.gact.77",
            "Command 1 operand 1: ACT: unknown Action index")
cm.refuse("cmd: new parameters recheck the program",
          [*CSET, f"{CA} param x type bit8 cmd set metadata.ptest.m8 param.x"],
          f"{P} update action/ptest/a param y type bit8",
          "Command 1 operand 2: the action has no parameter x",
          CG, r"param x type bit8 id 1\n.*cmd set metadata.ptest.m8 param.x")
cm.refuse("cmd: an active template's program cannot change",
          [*CSET, f"{CA} cmd ret state active"],
          f"{P} update action/ptest/a cmd ret drop",
          "Unable to update active action",
          CG, r"cmd ret$")

# setvalid and setinvalid: a header of the graph other than the start
VL = ["p4template create header/ptest/parser1/vl len 4",
      "p4template update header/ptest/parser1/eth select type transition "
      "0x8100 vl default accept"]
VLS = [f"$TC {c}" for c in VL]
cmd_ok("cmd: setvalid and setinvalid name a header",
       "cmd setvalid header.ptest.parser1.vl "
       "cmd setinvalid header.ptest.parser1.vl",
       r"cmd setvalid header.ptest.parser1.vl\n.*cmd setinvalid "
       r"header.ptest.parser1.vl", setup=VLS)
cmd_refused("cmd: setvalid of a header field is refused",
            f"cmd setvalid {HF}.eth.dst",
            "Command 1 operand 1: must be a header "
            "(header.PIPELINE.PARSER.HEADER)", setup=VLS)
cmd_refused("cmd: setinvalid of the start header is refused",
            "cmd setinvalid header.ptest.parser1.eth",
            "Command 1 operand 1: the parse graph's start header eth is "
            "always there", setup=VLS)
cmd_refused("cmd: setvalid of an unknown header is refused",
            "cmd setvalid header.ptest.parser1.nope",
            "Command 1 operand 1: unknown header nope", setup=VLS)
cmd_refused("cmd: a header takes no slice",
            "cmd setvalid header.ptest.parser1.vl[0-7]",
            "Command 1 operand 1: a header takes no slice", setup=VLS)
cmd_refused("cmd: a header is not a value",
            "cmd set metadata.ptest.m8 header.ptest.parser1.vl",
            "Command 1 operand 2: cannot be read", setup=VLS)
cmd_refused("cmd: setvalid takes one header",
            "cmd setvalid header.ptest.parser1.vl header.ptest.parser1.vl",
            "Command 1: takes 1 operands, not 2", setup=VLS)
# vl2: no field and no transition names it, only the command holds it
VL2 = f"$TC p4template create header/ptest/parser1/vl2 len 4"
cm.refuse("cmd: a header a program names cannot be deleted",
          [*CSET, VL2, f"{CA} cmd setvalid header.ptest.parser1.vl2"],
          f"{P} del header/ptest/parser1/vl2",
          "Header has fields, is the next header of another or is named by "
          "a command", f"{P} get header/ptest/parser1/", "name vl2")
cm.case("cmd: deleting the template lets the header go",
        [*CSET, VL2, f"{CA} cmd setvalid header.ptest.parser1.vl2"],
        f"{P} del action/ptest/a && {P} del header/ptest/parser1/vl2",
        f"{P} get header/ptest/parser1/", "name vl2", count=0)

# what programs hold
cm.refuse("cmd: metadata a program names cannot be deleted",
          [*CSET, f"{CA} cmd set metadata.ptest.m8 constant.bit8.1"],
          f"{P} del metadata/ptest/m8", "Unable to delete referenced metadatum",
          f"{P} get metadata/ptest/m8", "name m8")
cm.refuse("cmd: a register a program names cannot be deleted",
          [*CSET, f"{CA} cmd set register.ptest.reg1[0] constant.bit8.1"],
          f"{P} del register/ptest/reg1", "Unable to delete referenced register",
          f"{P} get register/ptest/", "name reg1")
cm.case("cmd: deleting the template gives its objects back",
        [*CSET, f"{CA} cmd set metadata.ptest.m8 constant.bit8.1"],
        f"{P} del action/ptest/a && {P} del metadata/ptest/m8",
        f"{P} get metadata/ptest/", "name m8 ", count=0)
cm.refuse("cmd: an instance a program runs cannot be deleted",
          [*CSET, f"{P} create action/ptest/b state active",
           "$TC actions add action ptest/b index 3", f"{CA} cmd act ptest.b.3"],
          "$TC actions del action ptest/b index 3", "", prefix="",
          state="$TC actions get action ptest/b index 3",
          state_pat="index 3 ref 2 bind 1",
          teardown=[["$TC actions flush action ptest/b", 0, 1, 255], pdel()])
cm.refuse("cmd: a template another program calls cannot be deleted",
          [*CSET, f"{P} create action/ptest/b param x type bit8 state active",
           f"{CA} cmd act ptest.b constant.bit8.1"],
          f"{P} del action/ptest/b",
          "Unable to delete referenced action template",
          f"{P} get action/ptest/b", "name ptest/b ")
cm.case("cmd: a pipeline whose programs bind its own instances is deleted",
        [*CSET, f"{P} create action/ptest/b state active",
         "$TC actions add action ptest/b index 3",
         f"{CA} cmd act ptest.b.3 state active"],
        f"{P} del pipeline/ptest", "$TC actions ls action ptest/b",
        "ptest/b", count=0, teardown=[])

# packets: lo egress, ping
PING = "ping -c 2 -W 1 127.0.0.1"
LOTD = [["$TC qdisc del dev lo clsact", 0, 1, 2],
        ["$TC actions flush action ptest/a", 0, 1, 255], pdel()]


def cmd_pkt(name, cmds, verify, pattern, code=1, instance="", setup=()):
    cm.case(name, [*CSET, *setup, f"{CA} {cmds} state active",
                   f"$TC actions add action ptest/a {instance} index 1",
                   "$TC qdisc add dev lo clsact",
                   "$TC filter add dev lo egress matchall action ptest/a index 1"],
            PING, verify, pattern, code=code, teardown=LOTD)


cmd_pkt("cmd: packets: ret drop drops",
        "cmd ret drop", "$TC -s actions get action ptest/a index 1",
        r"Sent \d+ bytes ([1-9]\d*) pkt \(dropped \1,")
cmd_pkt("cmd: packets: a jump skips a drop",
        "cmd jump 2 cmd ret drop cmd ret pass",
        "$TC -s actions get action ptest/a index 1",
        r"Sent \d+ bytes 4 pkt \(dropped 0,", code=0)
# the register counts what the action saw (ping retries a dropped send)
REGCNT = ("sh -c '$TC -s actions get action ptest/a index 1; "
          f"{P} get register/ptest/reg1'")
cmd_pkt("cmd: packets: a register counts them",
        "cmd plus register.ptest.reg1[2] register.ptest.reg1[2] "
        "constant.bit8.1 cmd ret drop", REGCNT,
        r"Sent \d+ bytes ([1-9]\d*) pkt \(dropped \1,[\s\S]*index 2 value \1\n")
cmd_pkt("cmd: packets: a branch on kernel metadata",
        "cmd beq metadata.kernel.direction constant.bit1.1 control drop",
        "$TC -s actions get action ptest/a index 1",
        r"Sent \d+ bytes ([1-9]\d*) pkt \(dropped \1,")
cmd_pkt("cmd: packets: act runs an instance's verdict",
        "cmd act ptest.b.5", "$TC -s actions get action ptest/b index 5",
        r"ptest/b drop\n[\s\S]*Sent \d+ bytes ([1-9]\d*) pkt "
        r"\(dropped \1,",
        setup=[f"{P} create action/ptest/b state active",
               "$TC actions add action ptest/b drop index 5"])
# 3 per packet
cmd_pkt("cmd: packets: act with arguments runs the callee's program",
        "cmd act ptest.b constant.bit8.3 cmd ret pass", REGCNT,
        r"Sent \d+ bytes (1 pkt[\s\S]*value 3|2 pkt[\s\S]*value 6|"
        r"3 pkt[\s\S]*value 9)\n",
        setup=[f"{P} create action/ptest/b param x type bit8 cmd plus "
               "register.ptest.reg1[1] register.ptest.reg1[1] param.x "
               "cmd ret drop state active"])


# The seed's "control VERDICT" after any command; the kernel metadata
# the seed's commands write
cmd_ok("cmd: control after a command that is no branch (seed)",
       "cmd set metadata.kernel.skbmark constant.bit32.123 control drop",
       r"cmd set metadata.kernel.skbmark constant.bit32.123 control drop")
cm.refuse("cmd: only branches take a second control",
          CSET, f"{CA} cmd set metadata.kernel.skbmark constant.bit32.1 control drop / pipe",
          "only branches take a second control", f"{P} get action/ptest/", "name ptest/a ",
          count=0)
for km, val in [("tcindex", "constant.bit16.1"), ("skbidf", "constant.bit1.1"),
                ("skbpeek", "constant.bit1.1"), ("skboook", "constant.bit1.1"),
                ("skbptype", "constant.bit3.1"), ("skbqmap", "constant.bit16.1"),
                ("skbproto", "constant.be16.0x800"), ("skbhash", "constant.bit32.7"),
                ("pktlen", "constant.bit32.60"), ("datalen", "constant.bit32.0"),
                ("ptypeoff", "constant.bit8.1"), ("iif", "dev.lo")]:
    cmd_ok(f"cmd: the seed's write of kernel metadata {km} is accepted",
           f"cmd set metadata.kernel.{km} {val}",
           rf"cmd set metadata.kernel.{km} ")
cmd_pkt("cmd: packets: control after a command that is no branch sets the verdict",
        "cmd set metadata.kernel.skbmark constant.bit32.7 control drop",
        "$TC -s actions get action ptest/a index 1",
        r"Sent \d+ bytes ([1-9]\d*) pkt \(dropped \1,")
cmd_pkt("cmd: packets: a later control wins",
        "cmd set metadata.kernel.skbmark constant.bit32.7 control drop "
        "cmd set metadata.kernel.skbmark constant.bit32.8 control pass",
        "$TC -s actions get action ptest/a index 1",
        r"Sent \d+ bytes 4 pkt \(dropped 0,", code=0)
cmd_pkt("cmd: packets: a write that would change pktlen drops the packet",
        "cmd set metadata.kernel.pktlen constant.bit32.5",
        "$TC -s actions get action ptest/a index 1",
        r"Sent \d+ bytes ([1-9]\d*) pkt \(dropped \1,")
cmd_pkt("cmd: packets: writing pktlen its own value changes nothing",
        "cmd set metadata.kernel.pktlen metadata.kernel.pktlen",
        "$TC -s actions get action ptest/a index 1",
        r"Sent \d+ bytes 4 pkt \(dropped 0,", code=0)
cm.refuse("cmd: kernel metadata the seed never writes stays read only",
          CSET, f"{CA} cmd set metadata.kernel.direction constant.bit1.1",
          "Command 1: Unable to set read-only operand", f"{P} get action/ptest/",
          "name ptest/a ", count=0)

# ---------------------------------------------------------------- tables
tb = File("p4tc-table.json", "6a")
TMK = f"{P} create pipeline/ptest pipeid 22 numtables 4"
# actions tables list: setmark (any use), onlydef (defaultonly),
# onlytbl (tableonly)
TACT_LINES = (
    "p4template create action/ptest/setmark param m type bit32 "
    "cmd set metadata.kernel.skbmark param.m state active",
    "p4template create action/ptest/onlydef cmd ret drop state active",
    "p4template create action/ptest/onlytbl cmd ret ok state active")
TACTS = tcb(*TACT_LINES)
# one tc process: the pipeline and its actions
TSET = [tcb("p4template create pipeline/ptest pipeid 22 numtables 4",
            *TACT_LINES)]
TC_ = f"{P} create table/ptest/cb/t1"
TU = f"{P} update table/ptest/cb/t1"
TG = f"{P} get table/ptest/cb/t1"
TLIST = ("table_acts act name ptest/setmark act name ptest/onlydef flags "
         "defaultonly act name ptest/onlytbl flags tableonly")
SEAL = f"{P} update pipeline/ptest preactions action gact ok postactions " \
       "action gact ok state ready"


def tbl_ok(name, args, pattern, setup=(), count=1, json_=None):
    if json_ is not None:
        tb.case(name, [*TSET, *setup], f"{TC_} {args}",
                "$TC -j p4template get table/ptest/cb/t1", json_=json_)
    else:
        tb.case(name, [*TSET, *setup], f"{TC_} {args}", TG, pattern,
                count=count)


def tbl_refused(name, args, message, setup=(), **kw):
    """The table is refused with MESSAGE: none named cb/t1 is left (or
    what kw's state says)."""
    kw.setdefault("state", f"{P} get table/ptest/")
    kw.setdefault("state_pat", "name cb/t1 ")
    kw.setdefault("count", 0 if kw["state_pat"] == "name cb/t1 " else 1)
    tb.refuse(name, [*TSET, *setup], f"{TC_} {args}", message, **kw)


tbl_ok("table: create with defaults: no type is the seed's table (ternary, 8 masks)",
       "keysz 32",
       r"table name cb/t1 tblid 1 type ternary keysz 32 tentries 256 "
       r"nummasks 8 permissions CRUD--R--X entries 0 masks_used 0")
tbl_ok("table: create with every limit (JSON)",
       "tblid 7 keysz 40 type ternary tentries 1000 nummasks 16 "
       "permissions CRUD-CRUDX", None,
       json_=[{"pname": "ptest", "pipeid": 22, "obj": "table"},
              {"templates": [{"tname": "cb/t1", "tblid": 7,
                              "type": "ternary", "keysz": 40,
                              "max_entries": 1000, "masks": 16,
                              "permissions": "CRUD-CRUDX",
                              "entries": 0}]}])
tbl_ok("table: an LPM table", "keysz 32 type lpm nummasks 33",
       r"type lpm keysz 32 tentries 256 nummasks 33")
tbl_ok("table: permissions as a number", "keysz 8 permissions 0x3c9",
       r"permissions CRUD--R--X")
tbl_ok("table: the largest key and table", "keysz 512 tentries 16777216 "
       "type ternary nummasks 128",
       r"keysz 512 tentries 16777216 nummasks 128")
tbl_ok("table: key action, pre- and postactions are bound tc actions",
       "keysz 8 key action gact ok preactions action gact pipe "
       "postactions action gact ok",
       r"\tkey action:.*gact action pass[\s\S]*\tpreactions:.*gact action "
       r"pipe[\s\S]*\tpostactions:.*gact action pass")
tbl_ok("table: default hit and miss actions with their permissions",
       "keysz 8 default_hit_action permissions -RU---R--X action "
       "ptest/setmark param m 5 default_miss_action action ptest/onlydef",
       r"default_hit_action permissions -RU---R--X:.*ptest/setmark pipe"
       r"[\s\S]*param m type bit32 value 5[\s\S]*default_miss_action "
       r"permissions -RU---R--X:.*ptest/onlydef")
tbl_ok("table: the action list with flags", f"keysz 8 {TLIST}",
       r"table_acts: act ptest/setmark act ptest/onlydef flags defaultonly "
       r"act ptest/onlytbl flags tableonly")
tbl_ok("table: a defaultonly action as default", f"keysz 8 {TLIST} "
       "default_miss_action action ptest/onlydef",
       r"default_miss_action.*ptest/onlydef")
tb.case("table: a dump lists every table",
        [*TSET, f"{P} create table/ptest/cb/t2 keysz 16"], f"{TC_} keysz 8",
        f"{P} get table/ptest/", r"table name cb/t[12] tblid [12] ",
        count=2)
tb.case("table: get by id alone",
        [*TSET, f"{TC_} tblid 5 keysz 8"], f"{P} get table/ptest/ tblid 5",
        f"{P} get table/ptest/ tblid 5", r"table name cb/t1 tblid 5 ")
tbl_refused("table: keysz is required", "type lpm",
            "Must specify table key size")
tbl_refused("table: keysz 0 is refused", "keysz 0",
            "Table keysz cannot be zero")
tbl_refused("table: keysz 513 is refused", "keysz 513",
            "Table keysz exceeds maximum keysz")
tbl_refused("table: tentries 0 is refused", "keysz 8 tentries 0",
            "Table max_entries cannot be zero")
tbl_refused("table: tentries over 16777216 is refused",
            "keysz 8 tentries 16777217",
            "Table max_entries exceeds maximum value")
tbl_refused("table: nummasks over 128 is refused",
            "keysz 8 type ternary nummasks 129",
            "Table max_masks exceeds maximum value")
tbl_refused("table: nummasks 0 is refused",
            "keysz 8 type ternary nummasks 0", "Table max_masks cannot be zero")
tbl_refused("table: an exact table has one mask", "keysz 8 type exact nummasks 2",
            "An exact table has one mask")
tbl_refused("table: permissions must grant datapath execute",
            "keysz 8 permissions CRUD--R---",
            "Table must have execute permissions")
tb.refuse("table: permissions over 10 bits are refused by tc",
          TSET, f"{TC_} keysz 8 permissions 0x400",
          "permissions are CRUDXCRUDX letters or dashes, or 0x0..0x3ff",
          f"{P} get table/ptest/", "name cb/t1 ", count=0,
          prefix="Error: argument \"0x400\" is wrong: ")
tbl_refused("table: more tables than numtables are refused", "keysz 8",
            "Table range exceeded max allowed value",
            setup=[f"{P} update pipeline/ptest numtables 1",
                   f"{P} create table/ptest/cb/t0 keysz 8"])
tbl_refused("table: a pipeline without numtables has no table", "keysz 8",
            "Table range exceeded max allowed value",
            setup=[f"{P} update pipeline/ptest numtables 0"])
tb.refuse("table: a name without its control block is refused",
          TSET, f"{P} create table/ptest/t1 keysz 8",
          "Table name must contain control block", f"{P} get table/ptest/",
          "name t1 ", count=0)
tbl_refused("table: a duplicate name is refused", "keysz 16",
            "Table already exists",
            setup=[f"{TC_} keysz 8"], state=TG, state_pat="keysz 8 ")
tbl_refused("table: a duplicate id is refused", "tblid 3 keysz 16",
            "Table already exists",
            setup=[f"{P} create table/ptest/cb/t0 tblid 3 keysz 8"])
tbl_refused("table: a default action not in the action list",
            "keysz 8 table_acts act name ptest/onlydef "
            "default_miss_action action ptest/setmark param m 1",
            "Action setmark is not in the table's action list")
tbl_refused("table: a tableonly action is no default",
            f"keysz 8 {TLIST} default_hit_action action ptest/onlytbl",
            "Action is not allowed as default hit action")
tbl_refused("table: a default action needs datapath execute permission",
            "keysz 8 default_miss_action permissions -RU---R--- "
            "action ptest/onlydef",
            "Default action must have data path execute permissions")
tbl_refused("table: a default hit action is one action",
            "keysz 8 default_hit_action action ptest/onlydef "
            "action ptest/onlydef", "Can only have one hit action")
tbl_refused("table: a tableonly action is no default miss action",
            f"keysz 8 {TLIST} default_miss_action action ptest/onlytbl",
            "Action is not allowed as default miss action")
tbl_refused("table: datapath read permission is required",
            "keysz 8 permissions CRUD-----X",
            "Data path read permissions must be set")
tb.refuse("table: permissions have 10 bits",
          TSET, "$P4NL raw create 5 ptest 1{ 2{ 1=s:cb/t1 3=u32:8 6=u16:0xffff } }",
          "Permission may only have 10 bits turned on",
          f"{P} get table/ptest/", "name cb/t1 ", count=0)
tb.refuse("table: an action list entry without a name",
          TSET, "$P4NL raw create 5 ptest 1{ 2{ 1=s:cb/t1 3=u32:8 12{ 1{ 2=u8:0 } } } }",
          "Must specify allowed table action name",
          f"{P} get table/ptest/", "name cb/t1 ", count=0)
tb.refuse("table: create without a name",
          TSET, "$P4NL raw create 5 ptest 1{ 2{ 3=u32:8 } }",
          "Must specify table name", f"{P} get table/ptest/", "name cb/",
          count=0)
tb.refuse("table: get with neither name nor id",
          TSET, "$P4NL raw get 5 ptest 1{ 2{ } }",
          "Must specify table name or id")
tb.case("table: flush of none warns",
        TSET, f"{P} del table/ptest/ 2>&1", f"{P} del table/ptest/ 2>&1",
        "Warning: There are not tables to flush")

tbl_refused("table: an unknown action in the list",
            "keysz 8 table_acts act name ptest/nope",
            "Unknown action ptest/nope")
tbl_refused("table: an action of another pipeline in the list",
            "keysz 8 table_acts act name other/setmark",
            "Action other/setmark is not one of pipeline ptest")
tbl_refused("table: an action listed twice",
            "keysz 8 table_acts act name ptest/setmark act name ptest/setmark",
            "Action setmark is listed twice")
tbl_refused("table: a kernel action is no default action",
            "keysz 8 default_miss_action action gact drop",
            "Action gact is not one of pipeline ptest")
tbl_refused("table: an inactive action is no default action",
            "keysz 8 default_miss_action action ptest/idle",
            "Action ptest/idle is not active",
            setup=[f"{P} create action/ptest/idle"])
tbl_refused("table: a default action gives its parameters",
            "keysz 8 default_miss_action action ptest/setmark",
            "Must specify action parameters")
tbl_refused("table: default permissions may not exceed the table's",
            "keysz 8 permissions -R----R--X default_miss_action "
            "permissions -RU---R--X action ptest/onlydef",
            "Default action permissions exceed the table's")
tbl_refused("table: a key action that fails to bind leaves no table",
            "keysz 8 key action ptest/nope",
            "Failed to load TC action module")
tb.case("table: update limits and type while empty",
        [*TSET, f"{TC_} keysz 32 type lpm"],
        f"{TU} type ternary tentries 10 nummasks 3", TG,
        r"type ternary keysz 32 tentries 10 nummasks 3")
tb.case("table: update sets default actions and the action list",
        [*TSET, f"{TC_} keysz 8"],
        f"{TU} {TLIST} default_miss_action action ptest/onlydef", TG,
        r"default_miss_action.*ptest/onlydef[\s\S]*table_acts: act "
        r"ptest/setmark")
tb.case("table: the key size changes while nothing uses it (seed)",
        [*TSET, f"{TC_} keysz 8"], f"{TU} keysz 16", TG, "keysz 16 ")
tb.refuse("table: a new action list must keep the defaults in it",
          [*TSET, f"{TC_} keysz 8 default_miss_action action ptest/onlydef"],
          f"{TU} table_acts act name ptest/setmark",
          "Action onlydef is not in the table's action list", TG,
          "table_acts", count=0)
tb.refuse("table: permissions for a default action that is not there",
          [*TSET, f"{TC_} keysz 8"],
          f"{TU} default_hit_action permissions -R----R--X",
          "No default action to set the permissions of")
tb.case("table: delete",
        [*TSET, f"{TC_} keysz 8"], f"{P} del table/ptest/cb/t1",
        f"{P} get table/ptest/", "name cb/t1", count=0)
tb.case("table: delete by id",
        [*TSET, f"{TC_} tblid 9 keysz 8"], f"{P} del table/ptest/ tblid 9",
        f"{P} get table/ptest/", "name cb/t1", count=0)
tb.case("table: flush",
        [*TSET, f"{TC_} keysz 8", f"{P} create table/ptest/cb/t2 keysz 8"],
        f"{P} del table/ptest/", f"{P} get table/ptest/", "^table",
        count=0)
tb.refuse("table: a table a command names cannot go",
          [*TSET, f"{TC_} keysz 8",
           f"{P} create action/ptest/ap cmd tableapply table.ptest.cb/t1"],
          f"{P} del table/ptest/cb/t1",
          "Unable to delete referenced table", TG, "name cb/t1 ")
tb.refuse("table: nothing is flushed when a table is named",
          [*TSET, f"{TC_} keysz 8", f"{P} create table/ptest/cb/t2 keysz 8",
           f"{P} create action/ptest/ap cmd tableapply table.ptest.cb/t1"],
          f"{P} del table/ptest/",
          "Unable to flush any table",
          f"{P} get table/ptest/", "^table", count=2)
tb.refuse("table: get of an unknown table", TSET,
          f"{P} get table/ptest/cb/nope", "Table name not found")
tb.refuse("table: get by an unknown id", TSET,
          f"{P} get table/ptest/ tblid 42", "Unable to find table by id")
tb.refuse("table: name and id of different tables",
          [*TSET, f"{TC_} tblid 1 keysz 8",
           f"{P} create table/ptest/cb/t2 tblid 2 keysz 8"],
          f"{P} get table/ptest/cb/t1 tblid 2",
          "Table name and id name different tables")
tb.refuse("table: sealing needs every declared table",
          [*TSET, f"{TC_} keysz 8"], SEAL,
          "Must have all table defined to update state to ready",
          f"{P} get pipeline/ptest", "state not ready")
SEALED = [*TSET, f"{P} update pipeline/ptest numtables 1",
          f"{TC_} keysz 8 {TLIST} default_hit_action permissions "
          "-R----R--X action ptest/setmark param m 1 default_miss_action "
          "action ptest/onlydef", SEAL]
tb.refuse("table: no table is created in a sealed pipeline", SEALED,
          f"{P} create table/ptest/cb/t2 keysz 8", "Pipeline is sealed",
          f"{P} get table/ptest/", "name cb/t2", count=0)
tb.refuse("table: limits do not change once sealed", SEALED,
          f"{TU} tentries 10",
          "Only default action updates are allowed in sealed pipeline",
          TG, "tentries 256")
tb.case("table: the default miss action changes once sealed", SEALED,
        f"{TU} default_miss_action action ptest/setmark param m 9", TG,
        r"default_miss_action permissions -RU---R--X:.*ptest/setmark"
        r"[\s\S]*param m type bit32 value 9")
tb.refuse("table: a default action without update permission stays",
          SEALED, f"{TU} default_hit_action action ptest/setmark param m 2",
          "Permission denied: Unable to update default hit action", TG,
          r"param m type bit32 value 1")
tb.refuse("table: a default miss action without update permission stays",
          [*TSET, f"{P} update pipeline/ptest numtables 1",
           f"{TC_} keysz 8 {TLIST} default_miss_action permissions "
           "-R----R--X action ptest/setmark param m 1", SEAL],
          f"{TU} default_miss_action action ptest/setmark param m 2",
          "Permission denied: Unable to update default miss action", TG,
          r"param m type bit32 value 1")
tb.refuse("table: no table is deleted in a sealed pipeline", SEALED,
          f"{P} del table/ptest/cb/t1", "Pipeline is sealed", TG,
          "name cb/t1 ")
# commands naming tables and keys
tb.case("table: a key action program writes the key in slices",
        [*TSET, f"{TC_} keysz 200"],
        f"{P} create action/ptest/k cmd set key.ptest.cb/t1[0-31] "
        "constant.bit32.1 cmd set key.ptest.cb/t1[72-199] "
        "constant.bit128.2 cmd tableapply table.ptest.cb/t1",
        f"{P} get action/ptest/k",
        r"cmd set key.ptest.cb/t1\[0-31\] constant.bit32.1[\s\S]*"
        r"tableapply table.ptest.cb/t1")
tb.refuse("table: a key slice over 128 bits is refused",
          [*TSET, f"{TC_} keysz 200"],
          f"{P} create action/ptest/k cmd set key.ptest.cb/t1[0-199] "
          "constant.bit32.1",
          "Command 1 operand 1: key slices: at most 128 bits, from a byte "
          "if over 120")
tb.refuse("table: a key slice over 120 bits starts on a byte",
          [*TSET, f"{TC_} keysz 200"],
          f"{P} create action/ptest/k cmd set key.ptest.cb/t1[4-127] "
          "constant.bit32.1",
          "Command 1 operand 1: key slices: at most 128 bits, from a byte "
          "if over 120")
tb.refuse("table: a key slice beyond the key is refused",
          [*TSET, f"{TC_} keysz 16"],
          f"{P} create action/ptest/k cmd set key.ptest.cb/t1[8-23] "
          "constant.bit16.1",
          "Command 1 operand 1: Start and end bit dont fit in space")
tb.refuse("table: the key of another pipeline's table is refused",
          [*TSET, f"{TC_} keysz 16"],
          f"{P} create action/ptest/k cmd set key.other.cb/t1[0-7] "
          "constant.bit8.1",
          "Command 1 operand 1: keys are PIPELINE.CB/TABLE")
tb.refuse("table: tableapply takes a table",
          [*TSET, f"{TC_} keysz 16"],
          f"{P} create action/ptest/k cmd tableapply metadata.kernel.skbmark",
          "Command 1: Operand A must be a table")
# A default action holds its template: no delete while it is there.
TDFL = f"{TC_} keysz 8 default_miss_action action ptest/onlytbl"
tb.refuse("table: the template of a default action cannot be deleted",
          [*TSET, TDFL], f"{P} del action/ptest/onlytbl",
          "Unable to delete referenced action template",
          f"{TG}", r"\n\s*default_miss_action[\s\S]*ptest/onlytbl")
tb.case("table: a replaced default action gives its template back",
        [*TSET, TDFL],
        f"{TU} default_miss_action action ptest/onlydef && "
        f"{P} del action/ptest/onlytbl",
        f"{P} get action/ptest/", "name ptest/onlytbl ", count=0)
tb.case("table: a deleted table gives its defaults' templates back",
        [*TSET, TDFL],
        f"{P} del table/ptest/cb/t1 && {P} del action/ptest/onlytbl",
        f"{P} get action/ptest/", "name ptest/onlytbl ", count=0)
# A template's initial entries hold their actions' templates.
TENT = f"{TC_} keysz 32 entry srcPort 9 dstPort 10 action ptest/onlytbl"
tb.refuse("table: the template of an initial entry's action cannot be "
          "deleted", [*TSET, TENT], f"{P} del action/ptest/onlytbl",
          "Unable to delete referenced action template",
          f"{TG} >/dev/null && {P} get action/ptest/onlytbl", "name ptest/onlytbl ")
tb.case("table: a deleted table gives its entries' templates back",
        [*TSET, TENT],
        f"{P} del table/ptest/cb/t1 && {P} del action/ptest/onlytbl",
        f"{P} get action/ptest/", "name ptest/onlytbl ", count=0)
# An update's entries go in under the limits and type it sets.
tb.refuse("table: an update's entries count against its new tentries",
          [*TSET, f"{TC_} keysz 32 tentries 4"],
          f"{TU} tentries 1 entry srcPort 1 dstPort 1 entry srcPort 1 "
          "dstPort 2", "Table instance max entries reached", TG,
          "tentries 4 nummasks 8 .* entries 0 ")
tb.refuse("table: an update's entries have the one mask of its new type",
          [*TSET, f"{P} create table/ptest/cb/tern keysz 40 type ternary "
           "nummasks 4"],
          f"{P} update table/ptest/cb/tern type exact nummasks 1 entry "
          "srcAddr 10.0.0.1/255.0.0.0 proto 6 entry srcAddr 10.0.0.2 proto 6",
          "Entries of an exact table match every key bit: no mask",
          f"{P} get table/ptest/cb/tern", "type ternary .* entries 0 ")


# ---------------------------------------------------------------- entries
en = File("p4tc-entries.json", "6b")
RT = "$TC p4 create ptest/table/cb"
RG = "$TC p4 get ptest/table/cb"
RU = "$TC p4 update ptest/table/cb"
RD = "$TC p4 del ptest/table/cb"
# a sealed pipeline with the tables of tests/introspection/ptest.json
ETABLES = [
    "p4template create table/ptest/cb/t1 tblid 1 type exact keysz 32 tentries 4 "
    "table_acts act name ptest/setmark act name ptest/onlydef flags "
    "defaultonly",
    "p4template create table/ptest/cb/lpm tblid 2 keysz 32 type lpm "
    "nummasks 2",
    "p4template create table/ptest/cb/tern tblid 3 keysz 40 type ternary",
    "p4template create table/ptest/cb/narrow tblid 4 type exact keysz 16",
    "p4template create table/ptest/cb/batch tblid 5 type exact keysz 32 tentries 64",
    "p4template create table/ptest/cb/odd tblid 6 keysz 12 type ternary",
]
ESEAL = "p4template update pipeline/ptest preactions action gact ok " \
        "postactions action gact ok state ready"
ESET = [tcb("p4template create pipeline/ptest pipeid 22 numtables 6",
            *TACT_LINES, *ETABLES, ESEAL)]
SM = "action ptest/setmark param m"


def ent_ok(name, cmd, verify, pattern, setup=(), count=1, json_=None):
    en.case(name, [*ESET, *setup], cmd, verify, pattern, count=count,
            json_=json_)


def ent_refused(name, cmd, message, setup=(), state=None, state_pat="",
                count=1, **kw):
    en.refuse(name, [*ESET, *setup], cmd, message, state, state_pat,
              count=count, **kw)


ent_ok("entry: create in an exact table",
       f"{RT}/t1 srcPort 80 dstPort 443 {SM} 7", f"{RG}/t1",
       r"table cb/t1 tblid 1 prio 1 permissions -RUD--R--X "
       r"create_whodunnit tc not_in_hw\n\tkey srcPort 80 dstPort 443\n\taction:.*"
       r"ptest/setmark pipe[\s\S]*param m type bit32 value 7")
ent_ok("entry: get by key prints the spec's JSON",
       f"{RT}/t1 srcPort 80 dstPort 443 prio 16 {SM} 7",
       f"$TC -j p4 get ptest/table/cb/t1 srcPort 80 dstPort 443 prio 16",
       None,
       json_=[{"pname": "ptest", "pipeid": 22},
              {"entries": [{"tblid": 1, "prio": 16, "key": [
                  {"keyfield": "srcPort", "id": 1, "width": 16,
                   "type": "bit16", "match_type": "exact", "fieldval": 80},
                  {"keyfield": "dstPort", "id": 2, "width": 16,
                   "type": "bit16", "match_type": "exact",
                   "fieldval": 443}],
                  "create_whodunnit": "tc",
                  "permissions": "-RUD--R--X"}]}])
ent_ok("entry: an entry without action",
       f"{RT}/t1 srcPort 1 dstPort 2", f"{RG}/t1", r"\taction:", count=0)
ent_ok("entry: -s shows the hit counters",
       f"{RT}/t1 srcPort 1 dstPort 2", f"$TC -s p4 get ptest/table/cb/t1",
       r"\thit 0 packets 0 bytes, created \d+ sec used \d+ sec")
ent_ok("entry: LPM priority comes from the prefix",
       f"{RT}/lpm dstAddr 10.0.0.0/8 {SM} 8", f"{RG}/lpm",
       r"prio 25 .*\n\tkey dstAddr 10.0.0.0/8")
ent_ok("entry: LPM priority given that agrees",
       f"{RT}/lpm dstAddr 10.1.0.0/16 prio 17", f"{RG}/lpm",
       r"prio 17 .*\n\tkey dstAddr 10.1.0.0/16")
ent_ok("entry: a key is masked to its prefix",
       f"{RT}/lpm dstAddr 10.1.2.3/16", f"{RG}/lpm",
       r"key dstAddr 10.1.0.0/16")
ent_ok("entry: ternary priorities are assigned in order",
       tcb("p4 create ptest/table/cb/tern srcAddr 10.0.0.1",
           "p4 create ptest/table/cb/tern proto 6"), f"{RG}/tern",
       r"prio 1 .*\n\tkey srcAddr 10.0.0.1\n[\s\S]*prio 2 .*\n\tkey proto 6")
ent_ok("entry: ternary masks of any shape",
       f"{RT}/tern srcAddr 10.0.0.1/255.0.255.0 proto 6/0xf0 prio 3",
       f"{RG}/tern", r"key srcAddr 10.0.0.0/255.0.255.0 proto 0/4\n")
ent_ok("entry: the same key with two priorities",
       f"{RT}/t1 srcPort 1 dstPort 2 prio 5",
       f"{RG}/t1 srcPort 1 dstPort 2 prio 5", r"prio 5 ",
       setup=[f"{RT}/t1 srcPort 1 dstPort 2 prio 3"])
ent_ok("entry: permissions below the table's",
       f"{RT}/t1 srcPort 1 dstPort 2 permissions -R----R--X", f"{RG}/t1",
       r"permissions -R----R--X")
en.case("entry: a template's initial entries are the kernel's",
        [TMK, TACTS], f"{P} create table/ptest/cb/t1 type exact keysz 32 entry "
        f"srcPort 9 dstPort 10 {SM} 3 entry srcPort 9 dstPort 11",
        f"{TG}; {ESEAL.replace('p4template', P)} numtables 1 && "
        f"{RG}/t1", r"entries 2 [\s\S]*create_whodunnit kernel not_in_hw\n\tkey "
        r"srcPort 9 dstPort 10[\s\S]*srcPort 9 dstPort 11")
en.refuse("entry: a bad initial entry leaves no table", [TMK, TACTS],
          f"{P} create table/ptest/cb/t1 type exact keysz 32 entry srcPort 9 "
          "dstPort 10 entry srcPort 9 dstPort 10",
          "An entry with this key and mask exists: give a priority to add "
          "another", f"{P} get table/ptest/", "name cb/t1", count=0)
ent_ok("entry: update the action",
       f"{RU}/t1 srcPort 1 dstPort 2 {SM} 9", f"{RG}/t1",
       r"update_whodunnit tc not_in_hw\n[\s\S]*param m type bit32 value 9",
       setup=[f"{RT}/t1 srcPort 1 dstPort 2 {SM} 1"])
ent_ok("entry: update the permissions",
       f"{RU}/t1 srcPort 1 dstPort 2 permissions -R-D--R--X", f"{RG}/t1",
       r"permissions -R-D--R--X",
       setup=[f"{RT}/t1 srcPort 1 dstPort 2 {SM} 1"])
ent_ok("entry: delete",
       f"{RD}/t1 srcPort 1 dstPort 2", f"{RG}/t1", r"^table", count=0,
       setup=[f"{RT}/t1 srcPort 1 dstPort 2"])
ent_ok("entry: delete by priority",
       f"{RD}/t1 srcPort 1 dstPort 2 prio 3", f"{RG}/t1", r"prio \d+",
       setup=[f"{RT}/t1 srcPort 1 dstPort 2 prio 3",
              f"{RT}/t1 srcPort 1 dstPort 2 prio 4"])
ent_ok("entry: flush",
       f"{RD}/tern", f"{RG}/tern", r"^table", count=0,
       setup=[tcb(*[f"p4 create ptest/table/cb/tern proto {i}"
                    for i in range(1, 6)])])
ent_ok("entry: a dump continues across messages",
       tcb(*[f"p4 create ptest/table/cb/tern proto {i}"
             for i in range(1, 41)]), f"{RG}/tern", r"^table cb/tern",
       count=40)
ent_ok("entry: a full table takes more after a delete",
       tcb(f"p4 del ptest/table/cb/t1 srcPort 1 dstPort 1",
           f"p4 create ptest/table/cb/t1 srcPort 1 dstPort 5"),
       f"{RG}/t1", r"^table cb/t1", count=4,
       setup=[tcb(*[f"p4 create ptest/table/cb/t1 srcPort 1 dstPort {i}"
                    for i in range(1, 5)])])
ent_ok("entry: a pipeline goes with its entries",
       f"{P} del pipeline/ptest", f"{P} get pipeline/", "ptest", count=0,
       setup=[tcb(*[f"p4 create ptest/table/cb/tern proto {i}"
                    for i in range(1, 11)])])
# refusals
ent_ok("entry: skip_hw stays in software and says so",
       f"{RT}/t1 srcPort 3 dstPort 4 skip_hw {SM} 7", f"{RG}/t1",
       r"create_whodunnit tc skip_hw not_in_hw\n\tkey srcPort 3 dstPort 4")
ent_refused("entry: skip_sw with no device running the pipeline",
            f"{RT}/t1 srcPort 3 dstPort 4 {SM} 7 skip_sw",
            "skip_sw: no device runs pipeline ptest",
            state=f"{RG}/t1", state_pat="key srcPort 3", count=0)
ent_refused("entry: skip_sw and skip_hw",
            f"{RT}/t1 srcPort 3 dstPort 4 skip_sw skip_hw {SM} 7",
            "skip_sw and skip_hw exclude each other",
            state=f"{RG}/t1", state_pat="key srcPort 3", count=0)
ent_refused("entry: none before sealing", f"{RT}/t1 srcPort 1 dstPort 2",
            "Need to seal pipeline before issuing runtime command",
            setup=[f"{P} del pipeline/ptest",
                   tcb("p4template create pipeline/ptest pipeid 22 "
                       "numtables 6", *TACT_LINES, *ETABLES)])
ent_refused("entry: an exact key given twice is refused",
            f"{RT}/t1 srcPort 1 dstPort 2 {SM} 2",
            "An entry with this key and mask exists: give a priority to "
            "add another", setup=[f"{RT}/t1 srcPort 1 dstPort 2 {SM} 1"],
            state=f"{RG}/t1", state_pat="param m type bit32 value 1")
ent_refused("entry: key, mask and priority identical are refused",
            f"{RT}/t1 srcPort 1 dstPort 2 prio 4",
            "An entry with this key, mask and priority exists",
            setup=[f"{RT}/t1 srcPort 1 dstPort 2 prio 4"],
            state=f"{RG}/t1", state_pat="^table", count=1)
ent_refused("entry: an exact table matches every key bit",
            f"{RT}/t1 srcPort 1",
            "Entries of an exact table match every key bit: no mask",
            state=f"{RG}/t1", state_pat="^table", count=0)
ent_refused("entry: a mask on a field of an exact table is refused",
            f"{RT}/t1 srcPort 1/8 dstPort 2",
            "Entries of an exact table match every key bit: no mask",
            state=f"{RG}/t1", state_pat="^table", count=0)
ent_refused("entry: an LPM priority may not contradict the prefix",
            f"{RT}/lpm dstAddr 10.0.0.0/8 prio 3",
            "Priority 3 contradicts the /8 prefix (priority 25)",
            state=f"{RG}/lpm", state_pat="^table", count=0)
ent_refused("entry: an LPM mask must be a prefix",
            f"{RT}/lpm dstAddr 10.0.0.0/255.0.255.0",
            "The mask of an LPM entry must be a prefix",
            state=f"{RG}/lpm", state_pat="^table", count=0)
ent_refused("entry: a full table refuses more",
            f"{RT}/t1 srcPort 9 dstPort 9",
            "Table instance max entries reached",
            setup=[tcb(*[f"p4 create ptest/table/cb/t1 srcPort 1 dstPort {i}"
                         for i in range(1, 5)])],
            state=f"{RG}/t1", state_pat="^table", count=4)
ent_refused("entry: more masks than nummasks are refused",
            f"{RT}/lpm dstAddr 10.0.0.0/24",
            "Table has its 2 masks (nummasks): no room for another",
            setup=[f"{RT}/lpm dstAddr 10.0.0.0/8",
                   f"{RT}/lpm dstAddr 10.0.0.0/16"],
            state=f"{RG}/lpm", state_pat="^table", count=2)
ent_refused("entry: a key the size of another table is refused",
            f"$TC p4 create ptest/table/cb/narrow f 5",
            "Key blob size and table key size differ")
ent_refused("entry: an action not in the table's list",
            f"{RT}/t1 srcPort 1 dstPort 2 action ptest/onlytbl",
            "Action onlytbl is not in the table's action list",
            state=f"{RG}/t1", state_pat="^table", count=0)
ent_refused("entry: a defaultonly action is not for entries",
            f"{RT}/t1 srcPort 1 dstPort 2 action ptest/onlydef",
            "Action is not allowed as entry action")
ent_refused("entry: a kernel action is refused",
            f"{RT}/tern proto 1 action gact drop",
            "Action gact is not one of pipeline ptest")
ent_refused("entry: an unknown action is refused",
            f"{RT}/tern proto 1 action ptest/nope",
            "Unknown action ptest/nope")
ent_refused("entry: parameters and an instance index together are refused",
            f"{RT}/tern proto 1 {SM} 1 index 3",
            "Can't specify runtime params together with instance id")
ent_refused("entry: an action without its parameters",
            f"{RT}/tern proto 1 action ptest/setmark",
            "Must specify action parameters")
ent_refused("entry: two actions are refused",
            f"{RT}/tern proto 1 action ptest/onlytbl action ptest/onlytbl",
            "An entry or default has one action")
ent_refused("entry: permissions beyond the table's",
            f"$TC p4 create ptest/table/cb/tern proto 1 permissions CRUD-CRUDX",
            "Trying to set permission bits which aren't allowed by table")
ent_refused("entry: a table without create permission refuses entries",
            "$TC p4 create ptest/table/cb/ro srcPort 1 dstPort 2",
            "Table permissions forbid creating entries",
            setup=[f"{P} del pipeline/ptest", TMK, TACTS,
                   tcb(f"p4template update pipeline/ptest numtables 1",
                       "p4template create table/ptest/cb/ro keysz 32 "
                       "permissions -RUD--R--X", ESEAL)])
ent_refused("entry: update without the entry's update permission",
            f"{RU}/t1 srcPort 1 dstPort 2 {SM} 2",
            "Entry permissions forbid update",
            setup=[f"{RT}/t1 srcPort 1 dstPort 2 permissions -R-D--R--X "
                   f"{SM} 1"],
            state=f"{RG}/t1", state_pat="param m type bit32 value 1")
ent_refused("entry: delete without the entry's delete permission",
            f"{RD}/t1 srcPort 1 dstPort 2", "Entry permissions forbid delete",
            setup=[f"{RT}/t1 srcPort 1 dstPort 2 permissions -RU---R--X"],
            state=f"{RG}/t1", state_pat="^table", count=1)
ent_refused("entry: get without the entry's read permission",
            f"{RG}/t1 srcPort 1 dstPort 2",
            "Permission denied: Unable to read table entry",
            setup=[f"{RT}/t1 srcPort 1 dstPort 2 permissions --UD--R--X"])
ent_ok("entry: a dump skips entries that may not be read",
       f"{RT}/t1 srcPort 1 dstPort 3", f"{RG}/t1", r"^table cb/t1",
       setup=[f"{RT}/t1 srcPort 1 dstPort 2 permissions --UD--R--X"])
en.case("entry: a flush keeps entries that may not be deleted",
        [*ESET, f"{RT}/t1 srcPort 1 dstPort 2 permissions -RU---R--X",
         f"{RT}/t1 srcPort 1 dstPort 3"],
        f"{RD}/t1 2>{ERR}", f"cat {ERR}; {RG}/t1",
        r"Warning: Unable to flush all entries.*\n"
        r"[\s\S]*dstPort 2\n")
en.refuse("entry: a flush that can delete none is refused",
          [*ESET, f"{RT}/t1 srcPort 1 dstPort 2 permissions -RU---R--X"],
          f"{RD}/t1", "Unable to flush any entries", f"{RG}/t1",
          "dstPort 2")
en.refuse("entry: a runtime message without its root",
          ESET, "$P4NL raw rcreate 6 ptest noroot",
          "Netlink P4TC table attributes missing")
en.refuse("entry: a runtime message with an empty root",
          ESET, "$P4NL raw rcreate 6 ptest", "No elements in root table array")
en.refuse("entry: a runtime message shorter than its header",
          ESET, "$P4NL short-header 128", "Message header is missing")
ent_refused("entry: create without a key",
            "$P4NL raw rcreate 6 ptest 1{ 2{ 1=s:cb/t1 } }",
            "Must specify key blobs")
en.case("entry: a table with datapath create gives its entries no create",
        [tcb("p4template create pipeline/ptest pipeid 22 numtables 6",
             *TACT_LINES, ETABLES[0].replace(
                 "tentries 4 ", "tentries 4 permissions CRUD-CRUDX "),
             *ETABLES[1:], ESEAL)],
        f"{RT}/t1 srcPort 1 dstPort 2", f"{RG}/t1",
        r"prio 1 permissions -RUD--RUDX ")
ent_refused("entry: create permission on an entry is refused",
            f"$TC p4 create ptest/table/cb/tern proto 1 permissions CRUD--R--X",
            "Create permission for table entry doesn't make sense")
ent_ok("entry: an update states the flags, none included (flower's replace)",
       f"{RU}/t1 srcPort 1 dstPort 2", f"{RG}/t1",
       r"create_whodunnit tc update_whodunnit tc not_in_hw\n"
       r"\tkey srcPort 1 dstPort 2\n\taction:[\s\S]*value 7",
       setup=[f"{RT}/t1 srcPort 1 dstPort 2 skip_hw {SM} 7"])
ent_ok("entry: an update to skip_hw keeps the action",
       f"{RU}/t1 srcPort 1 dstPort 2 skip_hw", f"{RG}/t1",
       r"skip_hw not_in_hw\n\tkey srcPort 1 dstPort 2\n\taction:[\s\S]*"
       r"value 7", setup=[f"{RT}/t1 srcPort 1 dstPort 2 {SM} 7"])
ent_refused("entry: an update to skip_sw with no device running the pipeline",
            f"{RU}/t1 srcPort 1 dstPort 2 skip_sw {SM} 8",
            "skip_sw: no device runs pipeline ptest",
            setup=[f"{RT}/t1 srcPort 1 dstPort 2 {SM} 7"],
            state=f"{RG}/t1", state_pat=r"not_in_hw\n\tkey srcPort 1 "
            r"dstPort 2\n\taction:[\s\S]*value 7")
ent_refused("entry: an update with skip_sw and skip_hw",
            f"{RU}/t1 srcPort 1 dstPort 2 skip_sw skip_hw",
            "skip_sw and skip_hw exclude each other",
            setup=[f"{RT}/t1 srcPort 1 dstPort 2 {SM} 7"])
ent_refused("entry: update of a missing entry", f"{RU}/t1 srcPort 1 dstPort 2 "
            f"{SM} 1", "Unable to find entry")
ent_refused("entry: delete of a missing entry", f"{RD}/t1 srcPort 1 dstPort 2",
            "Unable to find entry")
ent_refused("entry: get without priority when two share the key",
            f"{RG}/t1 srcPort 1 dstPort 2",
            "Several entries have this key and mask: give the priority",
            setup=[f"{RT}/t1 srcPort 1 dstPort 2 prio 3",
                   f"{RT}/t1 srcPort 1 dstPort 2 prio 4"])
# what tc does not send: batches, raw keys and masks
BG = "$TC -j p4template get table/ptest/cb/batch"
ent_ok("entry: 16 entries in one message",
       "$P4NL entries create ptest cb/batch 16", BG, None,
       json_=[{"obj": "table"}, {"templates": [{"entries": 16}]}])
ent_refused("entry: 17 entries in one message are refused",
            "$P4NL entries create ptest cb/batch 17",
            "At most 16 objects fit in one message",
            state=BG, state_pat='"entries":0', count=1)
ent_refused("entry: a batch with a duplicate leaves nothing",
            "$P4NL entries create ptest cb/batch 16 dup",
            "An entry with this key and mask exists: give a priority to "
            "add another", state=BG, state_pat='"entries":0', count=1)
ent_ok("entry: 16 deletes in one message",
       "$P4NL entries del ptest cb/batch 16", BG, None,
       setup=["$P4NL entries create ptest cb/batch 16"],
       json_=[{"obj": "table"}, {"templates": [{"entries": 0}]}])
ent_refused("entry: a delete batch naming a missing entry deletes nothing",
            "$P4NL entries del ptest cb/batch 16",
            "Unable to find entry", setup=["$P4NL entries create ptest cb/batch 15"],
            state=BG, state_pat='"entries":15', count=1)
# tc -b groups creates and deletes 16 to a message; a refused message is
# replayed line by line, so a batch behaves as without grouping
TB = "cb/batch"


def tcb_entries(lines, force=False):
    """sh -c printing lines into tc [-force] -b -"""
    body = " ".join(f'"{l}"' for l in lines)
    return (f"sh -c 'printf \"%s\\n\" {body} | "
            f"$TC {'-force ' if force else ''}-b -'")


BCR = [f"p4 create ptest/table/{TB} k {i}" for i in range(1, 41)]
ent_ok("entry: tc -b, 40 creates (grouped 16 to a message)",
       tcb_entries(BCR), BG, None,
       json_=[{"obj": "table"}, {"templates": [{"entries": 40}]}])
BDUP = BCR[:17] + [f"p4 create ptest/table/{TB} k 3"] + BCR[17:20]
ent_refused("entry: tc -b stops at the faulty line, the lines before it applied",
            tcb_entries(BDUP), "Command failed -:18",
            prefix="An entry with this key and mask exists.*", code=1,
            state=BG, state_pat='"entries":17', count=1)
ent_refused("entry: tc -force -b reports the faulty line and goes on",
            tcb_entries(BDUP, force=True), "Command failed -:18",
            prefix="", code=1, state=BG, state_pat='"entries":20', count=1)
ent_ok("entry: tc -b, a get after creates sees them",
       tcb_entries(BCR[:5] + [f"p4 get ptest/table/{TB} k 5"]) +
       " >/tmp/p4tc-tdc.out", "cat /tmp/p4tc-tdc.out",
       r"table cb/batch tblid 5 prio 5 .*\n\tkey k 5\n")
ent_ok("entry: tc -b, 40 deletes by key",
       tcb_entries([f"p4 del ptest/table/{TB} k {i}" for i in range(1, 41)]),
       BG, None, setup=[tcb_entries(BCR)],
       json_=[{"obj": "table"}, {"templates": [{"entries": 0}]}])
ent_refused("entry: a key longer than the table's",
            "$P4NL entry-raw ptest cb/batch 0102030405",
            "Key blob size and table key size differ")
ent_refused("entry: a mask of another length",
            "$P4NL entry-raw ptest cb/lpm 0a000000 ffff",
            "Key and mask blob must have the same length")
ent_refused("entry: a mask with bits beyond the key size",
            "$P4NL entry-raw ptest cb/odd 0100 ffff",
            "Mask has bits beyond the key size")
en.case("entry: a table the introspection file does not know",
        ESET, f"$TC p4 create ptest/table/cb/nope srcPort 1 2>{ERR}",
        f"cat {ERR}", r"Error: introspection .*/ptest.json has no table "
        r"\"cb/nope\"", code=255)
en.case("entry: an unknown key field",
        ESET, f"{RT}/t1 port 1 2>{ERR}", f"cat {ERR}",
        r"Error: table cb/t1 has no key field \"port\"", code=255)
en.case("entry: a value too wide for its field",
        ESET, f"{RT}/t1 srcPort 70000 dstPort 1 2>{ERR}", f"cat {ERR}",
        r"Error: \"70000\" is not a 16-bit bit16 value of key field srcPort",
        code=255)
en.case("entry: a prefix longer than its field",
        ESET, f"{RT}/lpm dstAddr 10.0.0.0/33 2>{ERR}", f"cat {ERR}",
        r"Error: prefix /33 is longer than key field dstAddr \(32 bits\)",
        code=255)
en.case("entry: a pipeline without introspection file",
        [*ESET, f"{P} create pipeline/pnoint"],
        f"$TC p4 create pnoint/table/cb/t1 a 1 2>{ERR}", f"cat {ERR}",
        r"Error: introspection .*/pnoint.json: No such file or directory",
        code=255, pipes=("ptest", "pnoint"))
# An entry holds its action's template (onlytbl is in no table's list
# here); templates of a sealed pipeline are not deleted, but the pipeline
# is, entries and all.
EUSE = f"{RT}/batch k 5 action ptest/onlytbl"
en.case("entry: a pipeline whose entries use its templates is deleted",
        [*ESET, EUSE], f"{P} del pipeline/ptest", f"{P} get pipeline/",
        "name ptest ", count=0)



# The seed's runtime: tables by ids, instances by index, untyped tables
ent_ok("entry: a table named by pipeline id and table id alone (seed)",
       "$TC p4 create pipeid 22 tblid 1 srcPort 5 dstPort 6",
       "$TC p4 get pipeid 22 tblid 1", r"table cb/t1 tblid 1 .*\n\tkey srcPort 5 dstPort 6")
ent_ok("entry: a table named by pipeline name and table id",
       "$TC p4 create ptest/table/ tblid 1 srcPort 5 dstPort 6",
       f"{RG}/t1", r"key srcPort 5 dstPort 6")
ent_refused("entry: a table id that is not the named table's is refused",
            f"{RT}/t1 tblid 2 srcPort 5 dstPort 6", "table cb/t1 is not of id 2",
            state=f"{RG}/t1", state_pat="^table", count=0)
ent_refused("entry: a pipeline id no introspection file has is refused",
            "$TC p4 create pipeid 99 tblid 1 srcPort 5 dstPort 6",
            "no introspection file in", state=f"{RG}/t1", state_pat="^table",
            count=0)
ent_ok("entry: an entry binds an existing instance by index (seed)",
       f"{RT}/t1 srcPort 5 dstPort 6 action ptest/setmark index 5", f"{RG}/t1",
       r"ptest/setmark drop[\s\S]*param m type bit32 value 9",
       setup=["$TC actions add action ptest/setmark param m 9 drop index 5"])
ent_refused("entry: an instance index that does not exist is refused",
            f"{RT}/t1 srcPort 5 dstPort 6 action ptest/setmark index 6",
            "ACT: unknown Action index", state=f"{RG}/t1",
            state_pat="^table", count=0)
ent_ok("entry: a dump across messages has a head and a list per message (seed, JSON)",
       tcb(*[f"p4 create ptest/table/cb/tern proto {i}" for i in range(1, 41)]),
       f"$TC -j p4 get ptest/table/cb/tern", None,
       json_=[{"pname": "ptest", "pipeid": 22}, {"entries": [{"tblid": 3}]},
              {"pname": "ptest", "pipeid": 22}, {"entries": [{"tblid": 3}]}])
en.case("entry: the seed's untyped table takes masks on every field",
        [TMK, TACTS, tcb("p4template update pipeline/ptest numtables 1",
                         "p4template create table/ptest/cb/t1 tblid 1 keysz 32 "
                         "table_acts act name ptest/setmark", ESEAL)],
        f"{RT}/t1 srcPort 80/0xff00 dstPort 443/16 prio 16",
        f"$TC -j p4 get ptest/table/cb/t1",
        json_=[{"pname": "ptest", "pipeid": 22},
               {"entries": [{"tblid": 1, "prio": 16}]}])


# ---------------------------------------------------------------- p4 filter
fl = File("p4tc-filter.json", "6c")
# a sealed pipeline with one action kind, and lo with clsact
FPIPE = tcb("p4template create pipeline/ptest pipeid 22 numtables 0 "
            "preactions action gact pipe postactions action gact pipe",
            "p4template create action/ptest/setmark param m type bit32 "
            "cmd set metadata.kernel.skbmark param.m state active",
            "p4template update pipeline/ptest state ready")
FSET = [FPIPE, "$TC qdisc add dev lo clsact"]
FTD = [["$TC qdisc del dev lo clsact", 0, 1, 2], pdel()]
FADD = "$TC filter add dev lo ingress prio 1"
FSHOW = "$TC filter show dev lo ingress"


def fl_ok(name, cmd, verify, pattern, setup=(), count=1, json_=None,
          teardown=None):
    fl.case(name, [*FSET, *setup], cmd, verify, pattern, count=count,
            json_=json_, teardown=FTD if teardown is None else teardown)


def fl_refused(name, cmd, message, setup=(), state=FSHOW,
               state_pat="pname ptest", count=0, code=2, base=FSET,
               teardown=None, prefix="Error: "):
    """cmd fails with MESSAGE; by default no p4 filter is left."""
    verify = f"cat {ERR}; echo ==; {state} | grep -cE '{state_pat}'"
    pat = prefix + re.escape(message) + f".*==\n{count}\n"
    fl.case(name, [*base, *setup], f"{cmd} 2>{ERR}", verify, pat,
            code=code, teardown=FTD if teardown is None else teardown)


fl_ok("filter: bind a sealed pipeline", f"{FADD} p4 pname ptest", FSHOW,
      r"filter protocol all pref 1 p4 chain 0 handle 0x1 pname ptest \n"
      r"  not_in_hw")
fl_ok("filter: classid, handle and protocol",
      "$TC filter add dev lo ingress protocol ip prio 3 handle 7 p4 "
      "pname ptest classid 1:10", FSHOW,
      r"filter protocol ip pref 3 p4 chain 0 handle 0x7 pname ptest "
      r"flowid 1:10 ")
fl_ok("filter: its own actions, a P4 action kind among them",
      f"{FADD} p4 pname ptest action ptest/setmark param m 5 pipe "
      "action gact ok", FSHOW,
      r"action order 1: ptest/setmark pipe[\s\S]*value 5[\s\S]*"
      r"action order 2: gact action pass")
fl_ok("filter: skip_hw", f"{FADD} p4 pname ptest skip_hw", FSHOW,
      r"pname ptest \n  skip_hw\n  not_in_hw")
fl_ok("filter: JSON output", f"{FADD} p4 pname ptest classid 1:1",
      "$TC -j filter show dev lo ingress", None,
      json_=[{"protocol": "all", "kind": "p4", "chain": 0},
             {"protocol": "all", "kind": "p4", "chain": 0, "options": {
                 "handle": 1, "pname": "ptest", "flowid": "1:1",
                 "not_in_hw": True}}])
fl_ok("filter: tc -s counts pipeline runs and parser rejects",
      f"{FADD} p4 pname ptest action gact ok",
      "$TC -s -j filter show dev lo ingress", None,
      json_=[{"kind": "p4"},
             {"kind": "p4", "options": {"pname": "ptest", "pkts": 0,
                                        "parser_rejects": 0}}])
fl_ok("filter: on a shared block",
      "$TC filter add block 21 ingress prio 1 p4 pname ptest",
      "$TC filter show block 21", r"pref 1 p4 chain 0 handle 0x1 pname ptest",
      setup=["$IP link add dev $DUMMY type dummy",
             "$TC qdisc add dev $DUMMY ingress_block 21 clsact"],
      teardown=["$IP link del dev $DUMMY", *FTD])
fl_ok("filter: replace keeps the handle and takes the new attributes",
      "$TC filter replace dev lo ingress prio 1 handle 1 p4 pname ptest "
      "classid 1:2 action gact drop", FSHOW,
      r"handle 0x1 pname ptest flowid 1:2 [\s\S]*gact action drop",
      setup=[f"{FADD} handle 1 p4 pname ptest classid 1:1 action gact ok"])
fl_ok("filter: a bound pipeline can be deleted once its filter is",
      f"sh -c '$TC filter del dev lo ingress prio 1 && "
      f"$TC p4template del pipeline/ptest'",
      "$TC p4template get pipeline/ptest", r"Pipeline name not found",
      setup=[f"{FADD} p4 pname ptest action ptest/setmark param m 1"])
fl_ok("filter: deleting the qdisc unbinds the pipeline",
      "sh -c '$TC qdisc del dev lo clsact && "
      "$TC p4template del pipeline/ptest && echo gone'",
      "$TC p4template get pipeline/ptest", r"Pipeline name not found",
      setup=[f"{FADD} p4 pname ptest"])

fl_refused("filter: a pipeline that does not exist",
           f"{FADD} p4 pname nosuch", "Pipeline name not found")
fl_refused("filter: an unsealed pipeline",
           f"{FADD} p4 pname punsealed", "Pipeline must be sealed before use",
           setup=[f"{P} create pipeline/punsealed pipeid 23 numtables 0"],
           teardown=[*FTD, pdel("punsealed")])
fl_refused("filter: the kernel pipeline", f"{FADD} p4 pname kernel",
           "The kernel pipeline cannot be used")
fl_refused("filter: skip_sw on a device that cannot offload",
           f"{FADD} p4 pname ptest skip_sw",
           "skip_sw: a device on this block cannot offload P4 pipelines")
fl_refused("filter: a second p4 filter at one priority",
           f"{FADD} handle 2 p4 pname ptest",
           "A p4 filter is already at this priority and protocol",
           setup=[f"{FADD} handle 1 p4 pname ptest"], state_pat="handle 0x",
           count=1)
fl_refused("filter: a refused action leaves no filter and no pin",
           f"sh -c '{FADD} p4 pname ptest action ptest/setmark index 99; "
           f"$TC p4template del pipeline/ptest && echo deleted >&2'",
           "deleted", code=0, prefix="",
           state="$TC p4template get pipeline/", state_pat="ptest")
fl_refused("filter: no pipeline name", f"{FADD} p4 classid 1:1",
           "p4: pname PIPELINE is required", code=1, prefix="")
fl_refused("filter: skip_sw and skip_hw", f"{FADD} p4 pname ptest skip_sw "
           "skip_hw", "p4: skip_hw and skip_sw exclude each other", code=1,
           prefix="")
fl_refused("filter: a pipeline name too long",
           f"{FADD} p4 pname {'p' * 300}", "is longer than 255 bytes",
           code=1, prefix="")
fl_refused("filter: an unknown word", f"{FADD} p4 pname ptest bogus",
           'p4: what is "bogus"?', code=1, prefix="")
fl.refuse("filter: a bound pipeline cannot be deleted",
          [*FSET, f"{FADD} p4 pname ptest"], f"{P} del pipeline/ptest",
          "Can't delete referenced pipeline",
          state="$TC p4template get pipeline/ptest", state_pat="ptest",
          teardown=FTD)

# eBPF parsers (make bpf builds the router's into $EBPFDIR)
FPARSER = "prog tc obj $EBPFDIR/router/parser.bpf.o section p4tc/parser"
XPIN = "/sys/fs/bpf/p4tc-tdc-xdp"
XLOAD = ["sh -c 'mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf'",
         [f"rm -f {XPIN}", 0],
         f"bpftool prog load $EBPFDIR/router/parser-xdp.bpf.o {XPIN} type xdp"]
XTD = [[f"rm -f {XPIN}", 0], *FTD]
fl_ok("filter: an eBPF parser at tc, in the dump", f"{FADD} p4 pname ptest {FPARSER}",
      FSHOW, r"pname ptest \n  prog tc id [0-9]+ name parser.bpf.o:\[p4tc/parser\]")
fl_ok("filter: an eBPF parser at tc, in JSON", f"{FADD} p4 pname ptest {FPARSER}",
      "$TC -j filter show dev lo ingress", None,
      json_=[{"kind": "p4"},
             {"kind": "p4", "options": {"pname": "ptest", "prog_type": "tc",
                                        "prog_name": "parser.bpf.o:[p4tc/parser]"}}])
fl_ok("filter: an eBPF parser at XDP, its cookie and mismatches",
      f"{FADD} p4 pname ptest prog xdp pinned {XPIN} prog_cookie 7",
      "$TC -s filter show dev lo ingress",
      r"prog xdp id [0-9]+ name p4tc-tdc-xdp:\[\*fsobj\] prog_cookie 7[\s\S]*"
      r"prog_cookie mismatches 0", setup=XLOAD, teardown=XTD)
fl_refused("filter: an eBPF parser with skip_sw", f"{FADD} p4 pname ptest {FPARSER} skip_sw",
           "skip_sw: an eBPF parser runs in software only")
fl_refused("filter: prog_cookie for a parser at tc",
           f"{FADD} p4 pname ptest {FPARSER} prog_cookie 7",
           "prog_cookie is for a parser that ran at XDP")
fl_refused("filter: a parser at XDP without a cookie",
           f"{FADD} p4 pname ptest prog xdp pinned {XPIN}",
           "A parser at XDP needs a prog_cookie other than 0", setup=XLOAD,
           teardown=XTD)
fl_refused("filter: a parser at XDP with cookie 0",
           f"{FADD} p4 pname ptest prog xdp pinned {XPIN} prog_cookie 0",
           "A parser at XDP needs a prog_cookie other than 0", setup=XLOAD,
           teardown=XTD)
fl_refused("filter: an XDP program as the parser at tc",
           f"{FADD} p4 pname ptest prog tc pinned {XPIN}",
           "The eBPF parser's fd is not a program of type BPF_PROG_TYPE_SCHED_ACT",
           setup=XLOAD, teardown=XTD)
fl_refused("filter: prog neither tc nor xdp", f"{FADD} p4 pname ptest prog lwt obj x.o",
           'p4: prog is "tc" or "xdp", not "lwt"', code=1, prefix="")
fl_refused("filter: a cookie over 32 bits",
           f"{FADD} p4 pname ptest prog_cookie 4294967296",
           'p4: prog_cookie "4294967296" is not a 32-bit number', code=1, prefix="")

FILES = [pl, md, rq, pa, rg, ac, cm, tb, en, fl]


def render(f):
    return json.dumps(f.cases, indent=4) + "\n"


def main():
    check = "--check" in sys.argv[1:]
    bad = 0
    for f in FILES:
        path = os.path.join(OUT, f.name)
        text = render(f)
        if check:
            try:
                with open(path) as fh:
                    same = fh.read() == text
            except OSError:
                same = False
            if not same:
                print(f"gen.py: {path} differs from the generator")
                bad = 1
        else:
            with open(path, "w") as fh:
                fh.write(text)
    total = sum(len(f.cases) for f in FILES)
    if not check:
        print(f"gen.py: {total} cases in {len(FILES)} files")
    return bad


if __name__ == "__main__":
    sys.exit(main())
