"""The P4TC netlink interface as the fuzzer sees it, read from the UAPI
header itself (kernel/linux/include/uapi/linux/p4tc.h), so that a new
attribute is fuzzed the day it is added.

Every `enum { PREFIX_UNSPEC, PREFIX_A, ... }` block becomes an attribute
table named PREFIX; each member's type comes from its comment, which the
header writes for exactly this reader ("string", "u8", "u16", "u32",
"nested: ...", "struct NAME", "binary", "__u64[2]", "read only").
Where a nest holds another table, NESTS says which (the header names it
in prose); LISTS are nests of numbered nests (1..N) of one table.
"""

import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
HEADER = os.path.join(TOP, "kernel/linux/include/uapi/linux/p4tc.h")

# sizes of the structs attributes carry (the header's definitions)
STRUCT_SIZES = {
    "p4tc_meta_size_params": 6,
    "p4tc_hdrfield_ty": 6,
    "p4tc_u_register": 24,
    "p4tc_opnd_slice": 4,
    "tc_act_dyna": 20,
    "p4tc_table_entry_tm": 24,
    "p4tc_table_entry_stats": 16,
}

# nest attribute -> the table its payload holds
NESTS = {
    "P4TC_PARAMS": None,                      # per object kind, see OBJ_PARAMS
    "P4TC_TABLE_DEFAULT_HIT": "P4TC_TABLE_DEFAULT_",
    "P4TC_TABLE_DEFAULT_MISS": "P4TC_TABLE_DEFAULT_",
    "P4TC_CMD_THEN": "P4TC_CTL_",
    "P4TC_CMD_ELSE": "P4TC_CTL_",
}
# nest attribute -> numbered nests (1..N) of this table
LISTS = {
    "P4TC_ROOT": "P4TC_",                     # objects: PATH, PARAMS
    "P4TC_TABLE_ACTS_LIST": "P4TC_TABLE_ACT_",
    "P4TC_ACT_PARMS": "P4TC_ACT_PARAMS_",
    "P4TC_ACT_CMDS_LIST": "P4TC_CMD_",
    "P4TC_CMD_OPNDS": "P4TC_OPND_",
    "P4TC_HEADER_TRANSITIONS": "P4TC_TRANS_",
    "P4TC_TABLE_ENTRIES": "P4TC_ENTRY_",
}
# nest attributes that hold tc action lists (TCA_ACT_* nests 1..N)
ACTION_LISTS = {"P4TC_PIPELINE_PREACTIONS", "P4TC_PIPELINE_POSTACTIONS",
                "P4TC_TABLE_KEY_ACTION", "P4TC_TABLE_PREACTIONS",
                "P4TC_TABLE_POSTACTIONS", "P4TC_TABLE_DEFAULT_ACTION",
                "P4TC_ENTRY_ACT"}

# The p4 classifier's attributes (TCA_P4_*) are in pkt_cls.h, which
# kernel patch 0005 extends; the build installs it here.  Its members
# carry no comments: their kinds are cls_p4.c's policy.
PKT_CLS = os.path.join(TOP, "build/linux/headers/include/linux/pkt_cls.h")
P4_FILTER_KINDS = {
    "TCA_P4_CLASSID": "u32", "TCA_P4_ACT": "actions", "TCA_P4_PNAME": "str",
    "TCA_P4_PROG_FD": "u32", "TCA_P4_PROG_NAME": "str",
    "TCA_P4_PROG_TYPE": "u32", "TCA_P4_PROG_COOKIE": "u32",
    "TCA_P4_PROG_ID": "u32", "TCA_P4_FLAGS": "u32", "TCA_P4_PCNT": "bin",
    "TCA_P4_IN_HW_COUNT": "u32",
}

OBJ_PARAMS = {
    "PIPELINE": "P4TC_PIPELINE_", "META": "P4TC_META_",
    "HDR_FIELD": "P4TC_HDRFIELD_", "ACT": "P4TC_ACT_",
    "TABLE": "P4TC_TABLE_", "TABLE_ENTRY": "P4TC_ENTRY_",
    "REGISTER": "P4TC_REGISTER_", "HEADER": "P4TC_HEADER_",
}


class Attr:
    """One attribute of a table: its number, name and kind (str, u8, u16,
    u32, u64, bin with a size or None, nest, list, actions), and whether
    the kernel only writes it (read only)."""

    def __init__(self, name, num, kind, size=None, ro=False, child=None):
        self.name, self.num, self.kind = name, num, kind
        self.size, self.ro, self.child = size, ro, child

    def __repr__(self):
        return f"{self.name}={self.num}:{self.kind}"


def _kind(name, comment):
    c = comment.lower()
    ro = "read only" in c or "r/o" in c
    if name in ACTION_LISTS:
        return "actions", None, ro
    if name in LISTS:
        return "list", None, ro
    if name in NESTS or c.startswith("nested"):
        return "nest", None, ro
    m = re.search(r"struct (\w+)", comment)
    if m and m.group(1) in STRUCT_SIZES:
        return "bin", STRUCT_SIZES[m.group(1)], ro
    if "__u64[2]" in comment:
        return "bin", 16, ro
    for k in ("u8", "u16", "u32", "u64"):
        if re.match(rf"\W*{k}\b", c):
            return k, None, ro
    if "string" in c:
        return "str", None, ro
    if "binary" in c:
        return "bin", None, ro
    return "bin", None, ro


def filter_table():
    """The TCA_P4_* attributes as a table (empty without a build)."""
    if not os.path.exists(PKT_CLS):
        return []
    tables, _ = read_tables(PKT_CLS)
    return [Attr(a.name, a.num, P4_FILTER_KINDS.get(a.name, "bin"))
            for a in tables.get("TCA_P4_", [])]


def read_tables(path=HEADER):
    """{PREFIX: [Attr...]} and {NAME: value} of every enum of the header."""
    text = open(path).read()
    tables, values = {}, {}
    for body in re.findall(r"enum\s*\{(.*?)\};", text, re.S):
        members, val = [], -1
        for line in body.splitlines():
            m = re.match(r"\s*(\w+)\s*(?:=\s*([^,/]+))?,?\s*(?:/\*(.*?)\*/)?",
                         line)
            if not m or not m.group(1) or m.group(1).startswith("__"):
                continue
            name, expl, comment = m.group(1), m.group(2), m.group(3) or ""
            if expl is not None:
                expl = expl.strip()
                try:
                    val = values[expl] if expl in values else int(expl, 0)
                except ValueError:      # an expression: 1 << 0, A + 1
                    try:
                        val = eval(expl, {}, dict(values))  # noqa: S307
                    except Exception:
                        continue
            else:
                val += 1
            values[name] = val
            members.append((name, val, comment.strip()))
        if not members or not members[0][0].endswith("UNSPEC"):
            continue
        prefix = members[0][0][:-len("UNSPEC")]
        attrs = []
        for name, num, comment in members[1:]:
            if name.endswith(("_MAX", "_PAD")) or name.startswith("__"):
                continue
            kind, size, ro = _kind(name, comment)
            attrs.append(Attr(name, num, kind, size, ro,
                              NESTS.get(name) or LISTS.get(name)))
        tables[prefix] = attrs
    return tables, values
