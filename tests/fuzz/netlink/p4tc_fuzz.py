#!/usr/bin/env python3
"""P4TC netlink fuzzer: throws valid, boundary and malformed messages at
every P4TC object and verb and checks that the kernel stays sane.

    p4tc_fuzz.py [--seed S] [--batches N | --seconds T] [--batch K]
                 [--messages M] [-v]

Run it in the debug guest (tests/vm/run, or make check's guest stage):
never on the host.  Work goes in batches; a batch starts from no
pipeline, builds a small valid program (the corpus: a pipeline with
metadata, a parse graph, a register, action templates, a table, sealing,
entries, an action instance, a p4 filter on lo; or unsealed, sometimes
with a parse graph of many headers and transitions), and sends M
messages, each one of:

- a message made from the UAPI's attribute tables (uapi.py reads them
  from the header): a random object kind and verb, random attributes with
  valid, boundary and wrong values, lengths and nesting;
- a mutation of a corpus message: an attribute dropped, repeated,
  retyped, cut, lengthened, emptied, its string left without its NUL, its
  nest flag flipped; or the whole message cut short, or sent with another
  verb, object kind or pipeline id;
- a delete of one of the corpus's templates by its name alone (most are
  in use and must be refused; one accepted is followed by the state
  check at once);
- a corpus message again (so that mutations meet objects in every state).

After each message: the kernel answered, a refusal says why (an extended
ack message), the kernel is not tainted (a WARN, a BUG, a KASAN report
taint it; the guest runner also fails the run on any splat), and a
refused create left no object of its name behind.  After each batch,
every pipeline, template and table entry the kernel dumps parses, each
object a dump lists is found again by a get of its name, and every
action template a table or an entry names is one the template dump lists.

Batch K of seed S is the same messages on every run: a failure prints
the command that replays it.  Exit 0 when nothing was found, 1 otherwise.
"""

import argparse
import os
import random
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nl  # noqa: E402
import uapi  # noqa: E402

T, V = uapi.read_tables()
OBJ = {k[len("P4TC_OBJ_"):]: v for k, v in V.items()
       if k.startswith("P4TC_OBJ_") and not k.startswith("P4TC_OBJ_MAX")
       and not k.startswith("P4TC_OBJ_UNSPEC")}
A = V  # attribute numbers by name
PIPE = "pfz"
PIPEID = 7
TC_ACT_OK, TC_ACT_SHOT, TC_ACT_PIPE = 0, 2, 3
TCA_ACT_KIND, TCA_ACT_OPTIONS, TCA_ACT_TAB = 1, 2, 1
TCA_GACT_PARMS = 2

NAMES = ["m1", "m2", "x", "a1", "a2", "r1", "cb/t1", "cb/t2", "eth",
         "eth/type", "parser1", PIPE, "kernel", "", "a" * 255, "b" * 256,
         "cb/", "/", "a/b/c", "isValid", "eth/isValid", "accept", "reject",
         "\x01\xff", "pfz/a1", "pfz/cb/t1", "gact", "pfz.m1", "pfz.r1",
         "pfz.parser1.eth.type", "pfz.cb/t1", "kernel.skbmark", "hit"]
INTS = [0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 33, 63, 64, 127, 128, 129, 255,
        256, 511, 512, 513, 1023, 1024, 0x3ff, 0x400, 0x7fff, 0xffff,
        0x10000, 1 << 24, (1 << 24) + 1, 0x7fffffff, 0x80000000,
        0xffffffff]


def ty(dt, start, end):
    return struct.pack("=HHBB", start, end, dt, 0)


def gact(i, verdict):
    return nl.nest(i, nl.strz(TCA_ACT_KIND, "gact"),
                   nl.nest(TCA_ACT_OPTIONS,
                           nl.attr(TCA_GACT_PARMS,
                                   struct.pack("=IIiii", 0, 0, verdict, 0,
                                               0))))


def p4act(i, kind, params=(), index=None):
    opts = b""
    if params:
        opts += nl.nest(A["P4TC_ACT_PARMS"],
                        *(nl.nest(j + 1, nl.strz(A["P4TC_ACT_PARAMS_NAME"], n),
                                  nl.attr(A["P4TC_ACT_PARAMS_VALUE"], v))
                          for j, (n, v) in enumerate(params)))
    if index is not None:
        opts += nl.attr(A["P4TC_ACT_OPT"],
                        struct.pack("=IIiii", index, 0, TC_ACT_PIPE, 0, 0))
    return nl.nest(i, nl.strz(TCA_ACT_KIND, kind),
                   nl.nest(TCA_ACT_OPTIONS, opts))


class Msg:
    """A request: its netlink type and flags, for P4TC messages the
    p4tcmsg header (pipeline id, object kind) and root pipeline name, and
    its objects' P4TC_PARAMS; raw: a message given as bytes."""

    def __init__(self, mtype, flags, obj=0, params=(), pipeid=0,
                 pname=PIPE, raw=None, label="", hdr=4):
        self.mtype, self.flags, self.obj = mtype, flags, obj
        self.hdr = hdr          # bytes of a raw message's family header
        self.params, self.pipeid, self.pname = list(params), pipeid, pname
        self.raw, self.label = raw, label
        self.fixed = None       # the whole message, as bytes (a cut one)
        self.silent = False     # netlink drops it without an answer
        self.check_after = False  # accepted: check the state at once

    def bytes(self):
        if self.fixed is not None:
            return self.fixed
        if self.raw is not None:
            return nl.message(self.mtype, self.flags, self.raw)
        objs = b"".join(nl.nest(i + 1, nl.nest(A["P4TC_PARAMS"], p))
                        for i, p in enumerate(self.params))
        body = struct.pack("=II", self.pipeid, self.obj)
        if self.pname is not None:
            body += nl.strz(A["P4TC_ROOT_PNAME"], self.pname)
        body += nl.nest(A["P4TC_ROOT"], objs)
        return nl.message(self.mtype, self.flags, body)

    def name(self):
        """(name, NUL-terminated) of a one-object message's NAME
        attribute (1 in most kinds), or (None, True)."""
        if self.raw is not None or self.fixed is not None or \
                len(self.params) != 1:
            return None, True
        try:
            for t, p in nl.parse_attrs(self.params[0]):
                if t == 1 and p:
                    # NLA_NUL_STRING: a NUL within the first 256 bytes
                    if b"\0" in p[:256]:
                        return p.split(b"\0")[0].decode(
                            errors="replace"), True
                    return p.decode(errors="replace"), False
        except ValueError:
            pass
        return None, True


CREATE = nl.NLM_F_ACK | nl.NLM_F_CREATE | nl.NLM_F_EXCL
UPDATE = nl.NLM_F_ACK | nl.NLM_F_REPLACE
TMPL, RT = nl.RTM_CREATEP4TEMPLATE, nl.RTM_P4TC_CREATE


def graph(rnd):
    """A parse graph of many headers, each selecting on a field with up
    to 16 transitions to later headers (no loop): what the loop check
    and the graph's walks must take in bounded time.  The transitions of
    a header go to one of the next @span headers, often the same one
    several times: a chain of n headers with t parallel edges each has
    t^n paths, which a walk that does not remember where it has been
    follows one by one (random targets among all later headers give
    thousands of paths, not enough to show it)."""
    m, n = [], rnd.randrange(8, 25)
    span = rnd.choice([1, 1, 2, 3, n])

    def tm(obj, *params, flags=CREATE, label=""):
        m.append(Msg(TMPL, flags, OBJ[obj], [b"".join(params)],
                     pipeid=PIPEID, label=label))

    for k in range(n):
        tm("HEADER", nl.strz(A["P4TC_HEADER_NAME"], f"g{k}"),
           nl.strz(A["P4TC_HEADER_PARSER_NAME"], "parser1"),
           nl.u16(A["P4TC_HEADER_LEN"], 4), label=f"header g{k}")
        tm("HDR_FIELD", nl.strz(A["P4TC_HDRFIELD_NAME"], f"g{k}/sel"),
           nl.strz(A["P4TC_HDRFIELD_PARSER_NAME"], "parser1"),
           nl.attr(A["P4TC_HDRFIELD_DATA"], ty(1, 0, 7)),
           nl.u16(A["P4TC_HDRFIELD_OFFSET"], 0), label=f"hdrfield g{k}/sel")
    # from the last header back, so that every next header exists
    for k in reversed(range(n - 1)):
        last = min(n, k + 1 + span)
        trans = [nl.nest(i + 1,
                         nl.attr(A["P4TC_TRANS_VALUE"],
                                 struct.pack("=QQ", i, 0)),
                         nl.strz(A["P4TC_TRANS_NEXT"],
                                 f"g{rnd.randrange(k + 1, last)}"))
                 for i in range(rnd.randrange(1, 17))]
        tm("HEADER", nl.strz(A["P4TC_HEADER_NAME"], f"g{k}"),
           nl.strz(A["P4TC_HEADER_PARSER_NAME"], "parser1"),
           nl.strz(A["P4TC_HEADER_SELECT"], "sel"),
           nl.nest(A["P4TC_HEADER_TRANSITIONS"], *trans),
           flags=UPDATE, label=f"transitions of g{k}")
    return m


def corpus(sealed=True, rnd=None):
    """The valid program a batch builds, in order: sealed, with entries
    and an action instance, or (for the template code's sake) not, and
    then maybe with a parse graph of many headers."""
    m = []

    def tm(obj, *params, flags=CREATE, label=""):
        m.append(Msg(TMPL, flags, OBJ[obj], [b"".join(params)],
                     pipeid=PIPEID, label=label))

    tm("PIPELINE", nl.u16(A["P4TC_PIPELINE_NUMTABLES"], 1 if sealed else 8),
       nl.u32(A["P4TC_PIPELINE_MAXRULES"], 4), label="pipeline")
    tm("META", nl.strz(A["P4TC_META_NAME"], "m1"),
       nl.attr(A["P4TC_META_SIZE"], ty(3, 0, 31)), label="meta m1")
    tm("META", nl.strz(A["P4TC_META_NAME"], "m2"),
       nl.attr(A["P4TC_META_SIZE"], ty(1, 0, 7)), label="meta m2")
    tm("HEADER", nl.strz(A["P4TC_HEADER_NAME"], "eth"),
       nl.strz(A["P4TC_HEADER_PARSER_NAME"], "parser1"),
       nl.u16(A["P4TC_HEADER_LEN"], 14), nl.u8(A["P4TC_HEADER_START"], 1),
       label="header eth")
    tm("HDR_FIELD", nl.strz(A["P4TC_HDRFIELD_NAME"], "eth/type"),
       nl.strz(A["P4TC_HDRFIELD_PARSER_NAME"], "parser1"),
       nl.attr(A["P4TC_HDRFIELD_DATA"], ty(19, 0, 15)),
       nl.u16(A["P4TC_HDRFIELD_OFFSET"], 96), label="hdrfield eth/type")
    tm("REGISTER", nl.strz(A["P4TC_REGISTER_NAME"], "r1"),
       nl.attr(A["P4TC_REGISTER_INFO"],
               struct.pack("=QQII", 0, 31, 4, 3)), label="register r1")
    opnd = A["P4TC_OPND_KIND"], A["P4TC_OPND_PATH"]
    tm("ACT", nl.strz(A["P4TC_ACT_NAME"], "a1"),
       nl.nest(A["P4TC_ACT_PARMS"],
               nl.nest(1, nl.strz(A["P4TC_ACT_PARAMS_NAME"], "x"),
                       nl.attr(A["P4TC_ACT_PARAMS_TYPE"], ty(3, 0, 31)))),
       nl.nest(A["P4TC_ACT_CMDS_LIST"],
               nl.nest(1, nl.u8(A["P4TC_CMD_OP"], A["P4TC_CMD_OP_SET"]),
                       nl.nest(A["P4TC_CMD_OPNDS"],
                               nl.nest(1, nl.u8(opnd[0], A["P4TC_OPER_META"]),
                                       nl.strz(opnd[1], f"{PIPE}.m1")),
                               nl.nest(2, nl.u8(opnd[0], A["P4TC_OPER_PARAM"]),
                                       nl.strz(opnd[1], "x")))),
               nl.nest(2, nl.u8(A["P4TC_CMD_OP"], A["P4TC_CMD_OP_PLUS"]),
                       nl.nest(A["P4TC_CMD_OPNDS"],
                               nl.nest(1, nl.u8(opnd[0], A["P4TC_OPER_REG"]),
                                       nl.strz(opnd[1], f"{PIPE}.r1"),
                                       nl.u32(A["P4TC_OPND_INDEX"], 1)),
                               nl.nest(2, nl.u8(opnd[0], A["P4TC_OPER_REG"]),
                                       nl.strz(opnd[1], f"{PIPE}.r1"),
                                       nl.u32(A["P4TC_OPND_INDEX"], 1)),
                               nl.nest(3, nl.u8(opnd[0], A["P4TC_OPER_CONST"]),
                                       nl.attr(A["P4TC_OPND_TYPE"],
                                               ty(3, 0, 31)),
                                       nl.attr(A["P4TC_OPND_VALUE"],
                                               struct.pack("=I", 1)))))),
       nl.u8(A["P4TC_ACT_ACTIVE"], 1), label="action a1")
    tm("ACT", nl.strz(A["P4TC_ACT_NAME"], "a2"),
       nl.nest(A["P4TC_ACT_CMDS_LIST"],
               nl.nest(1, nl.u8(A["P4TC_CMD_OP"], A["P4TC_CMD_OP_RET"]),
                       nl.nest(A["P4TC_CMD_THEN"],
                               nl.u32(A["P4TC_CTL_VERDICT"], TC_ACT_SHOT)))),
       nl.u8(A["P4TC_ACT_ACTIVE"], 1), label="action a2")
    tm("TABLE", nl.strz(A["P4TC_TABLE_NAME"], "cb/t1"),
       nl.u8(A["P4TC_TABLE_TYPE"], 1), nl.u32(A["P4TC_TABLE_KEYSZ"], 32),
       nl.u32(A["P4TC_TABLE_MAX_ENTRIES"], 16),
       nl.nest(A["P4TC_TABLE_ACTS_LIST"],
               nl.nest(1, nl.strz(A["P4TC_TABLE_ACT_NAME"], f"{PIPE}/a1")),
               nl.nest(2, nl.strz(A["P4TC_TABLE_ACT_NAME"], f"{PIPE}/a2"))),
       nl.nest(A["P4TC_TABLE_DEFAULT_MISS"],
               nl.nest(A["P4TC_TABLE_DEFAULT_ACTION"],
                       p4act(1, f"{PIPE}/a2"))), label="table cb/t1")
    if not sealed:
        if rnd and rnd.random() < 0.5:
            m += graph(rnd)
        return m
    tm("PIPELINE", nl.u8(A["P4TC_PIPELINE_STATE"], 1),
       nl.nest(A["P4TC_PIPELINE_PREACTIONS"], gact(1, TC_ACT_PIPE)),
       nl.nest(A["P4TC_PIPELINE_POSTACTIONS"], gact(1, TC_ACT_OK)),
       flags=UPDATE, label="seal")
    for k in (1, 2, 3):
        m.append(Msg(RT, CREATE, OBJ["TABLE_ENTRY"], [b"".join([
            nl.strz(A["P4TC_ENTRY_TBLNAME"], "cb/t1"),
            nl.attr(A["P4TC_ENTRY_KEY_BLOB"], struct.pack(">I", k)),
            nl.nest(A["P4TC_ENTRY_ACT"],
                    p4act(1, f"{PIPE}/a1", [("x", struct.pack("=I", k))]))])],
            pipeid=PIPEID, label=f"entry {k}"))
    tab = nl.nest(TCA_ACT_TAB, p4act(1, f"{PIPE}/a1",
                                     [("x", struct.pack("=I", 9))], index=5))
    m.append(Msg(nl.RTM_NEWACTION, CREATE, raw=b"\0" * 4 + tab,
                 label="instance 5"))
    if FILTER:
        opts = nl.strz(FILTER["TCA_P4_PNAME"], PIPE) + nl.nest(
            FILTER["TCA_P4_ACT"], gact(1, TC_ACT_OK))
        m.append(Msg(RTM_NEWTFILTER, CREATE, raw=tcmsg(1) + nl.strz(
            TCA_KIND, "p4") + nl.nest(TCA_OPTIONS, opts),
            label="p4 filter", hdr=20))
    return m


# The p4 filter: on lo's clsact ingress (made by each batch)
RTM_NEWQDISC, RTM_DELQDISC = 36, 37
RTM_NEWTFILTER, RTM_DELTFILTER, RTM_GETTFILTER = 44, 45, 46
TCA_KIND, TCA_OPTIONS = 1, 2
TC_H_CLSACT, TC_H_INGRESS_PARENT = 0xfffffff1, 0xfffffff2
FILTER = {a.name: a.num for a in uapi.filter_table()}
FILTER_TABLE = uapi.filter_table()


def tcmsg(prio, parent=TC_H_INGRESS_PARENT, ifindex=1, handle=0):
    # protocol all (htons(ETH_P_ALL)) in the low half of tcm_info
    return struct.pack("=BxxxiIII", 0, ifindex, handle, parent,
                       (prio << 16) | 0x0300)


def clsact_lo(sock, add):
    """lo's clsact qdisc, made or deleted (with every filter on it)."""
    body = struct.pack("=BxxxiIII", 0, 1, 0xffff0000, TC_H_CLSACT, 0)
    body += nl.strz(TCA_KIND, "clsact")
    sock.talk(nl.message(RTM_NEWQDISC if add else RTM_DELQDISC,
                         (CREATE if add else nl.NLM_F_ACK), body))


# ------------------------------------------------------------ generation

class Gen:
    def __init__(self, rnd):
        self.r = rnd

    def string(self):
        r = self.r
        s = r.choice(NAMES)
        if r.random() < 0.1:
            s = "".join(chr(r.randrange(1, 128)) for _ in
                        range(r.choice([1, 8, 64, 254, 255, 256, 300])))
        return s

    def value(self, a, depth):
        """The payload of attribute @a: mostly of its kind, sometimes not."""
        r = self.r
        k = a.kind
        if r.random() < 0.08:               # the wrong kind
            k = r.choice(["str", "u8", "u16", "u32", "u64", "bin", "nest"])
        if k == "str":
            s = self.string().encode()
            return s if r.random() < 0.05 else s + b"\0"
        if k in ("u8", "u16", "u32", "u64"):
            v = r.choice(INTS) if r.random() < 0.8 else r.getrandbits(64)
            fmt = {"u8": "=B", "u16": "=H", "u32": "=I", "u64": "=Q"}[k]
            p = struct.pack(fmt, v & ((1 << (8 * struct.calcsize(fmt))) - 1))
            if r.random() < 0.05:
                p = p[:-1] if len(p) > 1 else p + b"\0"
            return p
        if k == "bin":
            n = a.size if a.size is not None and r.random() < 0.8 else \
                r.choice([0, 1, 2, 4, 6, 8, 16, 20, 24, 64, 65, 300])
            if a.size == 6 and r.random() < 0.7:     # a type: mostly real
                return ty(r.randrange(0, 30), r.choice(INTS[:12]),
                          r.choice(INTS[:16]))
            return bytes(r.getrandbits(8) for _ in range(n))
        if k == "actions":
            return b"".join(self.action(i + 1) for i in range(
                r.choice([0, 1, 1, 2, 33] if depth < 2 else [0, 1])))
        if k in ("nest", "list") and depth < 5:
            child = a.child
            if child is None or child not in T or r.random() < 0.1:
                child = r.choice(list(T))
            if k == "list":
                n = r.choice([0, 1, 1, 2, 3, 17, 33] if depth < 2 else
                             [0, 1, 1, 2])
                nums = list(range(1, n + 1))
                if r.random() < 0.1:
                    r.shuffle(nums)
                return b"".join(nl.nest(i, self.attrs(child, depth + 1))
                                for i in nums)
            return self.attrs(child, depth + 1)
        return b""

    def action(self, i):
        r = self.r
        c = r.random()
        if c < 0.3:
            return gact(i, r.choice([TC_ACT_OK, TC_ACT_SHOT, TC_ACT_PIPE,
                                     -1, 99, 0x10000000]))
        kind = r.choice([f"{PIPE}/a1", f"{PIPE}/a2", f"{PIPE}/nope", "gact",
                         "mirred", "", "x" * 80])
        params = []
        if r.random() < 0.7:
            params = [(r.choice(["x", "y", ""]),
                       bytes(r.getrandbits(8) for _ in
                             range(r.choice([0, 1, 4, 8]))))]
        return p4act(i, kind, params,
                     index=r.choice([None, None, 0, 1, 5, 0xffffffff]))

    def attrs(self, prefix, depth=0):
        r = self.r
        table = T[prefix]
        out = b""
        for a in table:
            if r.random() < 0.45:
                out += nl.attr(a.num | (nl.NLA_F_NESTED
                                        if a.kind in ("nest", "list",
                                                      "actions")
                                        else 0), self.value(a, depth))
                if r.random() < 0.04:                    # twice
                    out += nl.attr(a.num, self.value(a, depth))
        if r.random() < 0.05:                            # unknown type
            out += nl.attr(r.randrange(len(table) + 1, 0x3fff),
                           bytes(r.getrandbits(8) for _ in range(8)))
        return out

    def filter_message(self):
        """A p4 filter message from the TCA_P4_* table."""
        r = self.r
        mtype, flags = r.choice([(RTM_NEWTFILTER, CREATE),
                                 (RTM_NEWTFILTER, UPDATE),
                                 (RTM_DELTFILTER, nl.NLM_F_ACK),
                                 (RTM_GETTFILTER, nl.NLM_F_ACK)])
        opts = b""
        for a in FILTER_TABLE:
            if a.name == "TCA_P4_PNAME" and r.random() < 0.7:
                opts += nl.strz(a.num, r.choice([PIPE, PIPE, "kernel", "",
                                                 "nope", "p" * 256]))
            elif r.random() < 0.3:
                opts += nl.attr(a.num | (nl.NLA_F_NESTED
                                         if a.kind == "actions" else 0),
                                self.value(a, 0))
        body = tcmsg(r.choice([1, 1, 2, 0, 0xffff]),
                     parent=r.choice([TC_H_INGRESS_PARENT, TC_H_INGRESS_PARENT,
                                      0xfffffff3, 0, 0xffffffff]),
                     # lo: a missing device is tc's core's (ENODEV,
                     # without a message), not the classifier's
                     ifindex=1,
                     handle=r.choice([0, 0, 1, 0xffffffff]))
        body += nl.strz(TCA_KIND, "p4") + nl.nest(TCA_OPTIONS, opts)
        return Msg(mtype, flags, raw=body, label="spec p4 filter", hdr=20)

    def spec_message(self):
        """A message of a random kind and verb, from the attribute tables."""
        r = self.r
        if FILTER_TABLE and r.random() < 0.1:
            return self.filter_message()
        obj = r.choice(list(OBJ))
        mtype, flags = r.choice([
            (TMPL, CREATE), (TMPL, UPDATE), (TMPL, CREATE),
            (nl.RTM_DELP4TEMPLATE, nl.NLM_F_ACK),
            (nl.RTM_DELP4TEMPLATE, nl.NLM_F_ACK | nl.NLM_F_ROOT),
            (nl.RTM_GETP4TEMPLATE, nl.NLM_F_ACK),
            (RT, CREATE), (RT, UPDATE), (nl.RTM_P4TC_DEL, nl.NLM_F_ACK),
            (nl.RTM_P4TC_DEL, nl.NLM_F_ACK | nl.NLM_F_ROOT),
            (nl.RTM_P4TC_GET, nl.NLM_F_ACK)])
        if mtype in (RT, nl.RTM_P4TC_DEL, nl.RTM_P4TC_GET) and r.random() < 0.8:
            obj = "TABLE_ENTRY"
        n = r.choice([1, 1, 1, 2, 3, 16, 17])
        params = [self.attrs(uapi.OBJ_PARAMS[obj]) for _ in range(n)]
        pipeid = r.choice([0, 0, PIPEID, 1, 0xffffffff])
        pname = r.choice([PIPE, PIPE, None, "kernel", "nope", "", "p" * 256])
        return Msg(mtype, flags, OBJ[obj], params, pipeid, pname,
                   label=f"spec {obj}")

    def delete(self, base):
        """A delete of one corpus template by its name alone.  Most are in
        use (the template a table's default action runs, the metadatum a
        program writes, the field a header selects on) and must be
        refused; one accepted is followed at once by a check that nothing
        still names it."""
        cands = [m for m in base if m.mtype == TMPL and
                 m.flags & nl.NLM_F_CREATE and m.name()[0]]
        m0 = self.r.choice(cands)
        m = Msg(nl.RTM_DELP4TEMPLATE, nl.NLM_F_ACK, m0.obj,
                [nl.strz(1, m0.name()[0])], PIPEID,
                label="delete " + m0.label.split(" ")[-1])
        m.check_after = True
        return m

    def mutate(self, msg):
        """A corpus message changed in one place."""
        r = self.r
        m = Msg(msg.mtype, msg.flags, msg.obj, msg.params, msg.pipeid,
                msg.pname, msg.raw, "mutated " + msg.label, msg.hdr)
        c = r.random()
        if c < 0.1:
            m.flags = r.choice([CREATE, UPDATE, nl.NLM_F_ACK,
                                nl.NLM_F_ACK | nl.NLM_F_ROOT])
            m.mtype = r.choice([m.mtype, nl.RTM_DELP4TEMPLATE,
                                nl.RTM_GETP4TEMPLATE, nl.RTM_P4TC_DEL])
            return m
        if c < 0.15 and m.raw is None:
            m.obj = r.choice(list(OBJ.values()) + [0, 9, 0xffffffff])
            m.pipeid = r.choice([0, PIPEID, 2, 0xffffffff])
            return m
        if c < 0.25:                           # cut the whole message
            data = m.bytes()
            cut = r.randrange(16, len(data))
            data = data[:cut]
            m.label += " cut"
            if r.random() < 0.5:
                data = struct.pack("=I", cut) + data[4:]
            else:
                # longer than what came: netlink itself drops it unread
                m.silent = True
            m.fixed = data
            return m
        if m.raw is not None:
            h = m.hdr
            if r.random() < 0.9:
                m.raw = msg.raw[:h] + mutate_attrs(r, msg.raw[h:], 0)
            else:
                m.raw = msg.raw[:r.randrange(len(msg.raw))]
            return m
        i = r.randrange(len(m.params))
        if m.mtype == TMPL and m.flags & nl.NLM_F_CREATE and \
                r.random() < 0.7:
            m.params[i] = rename(m.params[i], f"z{r.randrange(1000)}")
        m.params[i] = mutate_attrs(r, m.params[i], 0)
        return m


def rename(params, suffix):
    """@params with its NAME (attribute 1) given @suffix: a create that
    does not stop at "already exists"."""
    out = b""
    for t, p in nl.parse_attrs(params, flags=True):
        if t == 1 and p.endswith(b"\0"):
            p = p[:-1] + suffix.encode() + b"\0"
        out += nl.attr(t, p)
    return out


def mutate_attrs(r, data, depth):
    """@data's attributes with one changed, here or in a nest below."""
    try:
        attrs = nl.parse_attrs(data, flags=True)
    except ValueError:
        attrs = []
    if not attrs:
        return data + nl.attr(r.randrange(1, 20), b"\0\0\0\0")
    i = r.randrange(len(attrs))
    t, p = attrs[i]
    nested = t & nl.NLA_F_NESTED or (len(p) >= 4 and _looks_nested(p))
    if nested and depth < 6 and r.random() < 0.6:
        attrs[i] = (t | nl.NLA_F_NESTED, mutate_attrs(r, p, depth + 1))
    else:
        c = r.random()
        if c < 0.15:
            del attrs[i]
        elif c < 0.25:
            attrs.insert(i, (t, p))
        elif c < 0.35:
            attrs[i] = ((r.choice([0, t + 1, t - 1, 0x3fff, r.randrange(64)])
                         & 0x3fff) | (t & nl.NLA_F_NESTED), p)
        elif c < 0.5:
            attrs[i] = (t, p[:r.randrange(len(p) + 1)])
        elif c < 0.6:
            attrs[i] = (t, p + bytes(r.getrandbits(8)
                                     for _ in range(r.choice([1, 3, 4, 64]))))
        elif c < 0.68:
            attrs[i] = (t, b"")
        elif c < 0.76 and p.endswith(b"\0"):
            attrs[i] = (t, p[:-1] + b"A")        # no NUL
        elif c < 0.84:
            attrs[i] = (t ^ nl.NLA_F_NESTED, p)
        elif c < 0.92 and p:
            b = bytearray(p)
            b[r.randrange(len(b))] ^= 1 << r.randrange(8)
            attrs[i] = (t, bytes(b))
        else:
            v = r.choice(INTS)
            attrs[i] = (t, struct.pack("=I", v)[:len(p)] if p else
                        struct.pack("=I", v))
    out = b""
    for t, p in attrs:
        out += nl.attr(t, p)
    return out


def _looks_nested(p):
    try:
        a = nl.parse_attrs(p)
    except ValueError:
        return False
    return bool(a) and all(4 <= len(x[1]) + 4 < 1 << 16 for x in a)


# ------------------------------------------------------------ checking

class Finding(Exception):
    pass


def tainted():
    try:
        return int(open("/proc/sys/kernel/tainted").read())
    except OSError:
        return 0


def dump(sock, obj, pipeid=0, pname=None, runtime=False, params=None):
    """Every object a dump of @obj lists: [(pipeid, params attrs)]."""
    body = struct.pack("=II", pipeid, obj)
    if pname:
        body += nl.strz(A["P4TC_ROOT_PNAME"], pname)
    body += nl.nest(A["P4TC_ROOT"],
                    nl.nest(1, nl.nest(A["P4TC_PARAMS"], params or b"")))
    mtype = nl.RTM_P4TC_GET if runtime else nl.RTM_GETP4TEMPLATE
    ans = sock.talk(nl.message(mtype, nl.NLM_F_DUMP | nl.NLM_F_ACK, body))
    out = []
    for typ, b in ans.parts:
        pid, o = struct.unpack_from("=II", b, 0)
        for t, p in nl.parse_attrs(b[8:]):          # strict: must parse
            if t != A["P4TC_ROOT"]:
                continue
            for _, one in nl.parse_attrs(p):
                for t2, p2 in nl.parse_attrs(one):
                    if t2 == A["P4TC_PARAMS"]:
                        nl.parse_attrs(p2)
                        out.append((pid, p2))
    return ans.err, out


def check_filters(sock):
    """lo's ingress filters dump, and every message of it parses."""
    body = struct.pack("=BxxxiIII", 0, 1, 0, TC_H_INGRESS_PARENT, 0)
    ans = sock.talk(nl.message(RTM_GETTFILTER, nl.NLM_F_DUMP | nl.NLM_F_ACK,
                               body))
    if ans.err:
        raise Finding(f"the filter dump failed: errno {ans.err}")
    for _, b in ans.parts:
        for t, p in nl.parse_attrs(b[20:]):
            if t == TCA_OPTIONS:
                nl.parse_attrs(p)


def action_kinds(actions):
    """The kind (TCA_ACT_KIND) of each tc action in a nest of actions."""
    out = []
    for _, one in nl.parse_attrs(actions):
        kind = dict(nl.parse_attrs(one)).get(TCA_ACT_KIND)
        if kind:
            out.append(kind.rstrip(b"\0").decode(errors="replace"))
    return out


def table_uses(p):
    """What a table's dump says it uses: [(what, action kind)]."""
    d = dict(nl.parse_attrs(p))
    uses = []
    for key, what in (("P4TC_TABLE_DEFAULT_HIT", "default hit action"),
                      ("P4TC_TABLE_DEFAULT_MISS", "default miss action")):
        if A[key] in d:
            dd = dict(nl.parse_attrs(d[A[key]]))
            if A["P4TC_TABLE_DEFAULT_ACTION"] in dd:
                uses += [(what, k) for k in
                         action_kinds(dd[A["P4TC_TABLE_DEFAULT_ACTION"]])]
    if A["P4TC_TABLE_ACTS_LIST"] in d:
        for _, one in nl.parse_attrs(d[A["P4TC_TABLE_ACTS_LIST"]]):
            name = dict(nl.parse_attrs(one)).get(A["P4TC_TABLE_ACT_NAME"])
            if name:
                uses.append(("action list",
                             name.rstrip(b"\0").decode(errors="replace")))
    return uses


def entry_uses(p):
    """The action kind a table entry's dump names, as [(what, kind)]."""
    d = dict(nl.parse_attrs(p))
    if A["P4TC_ENTRY_ACT"] not in d:
        return []
    return [("entry action", k) for k in action_kinds(d[A["P4TC_ENTRY_ACT"]])]


def check_uses(pname, owner, uses, acts):
    """Every P4 action kind that @owner uses is a template of @pname that
    its dump lists: a template deleted under a user (issue 27) shows here
    even before a use after free does."""
    for what, kind in uses:
        if "/" not in kind:
            continue                    # a kernel action (gact, mirred)
        if kind not in acts:
            raise Finding(f"{owner} of {pname}: its {what} names action "
                          f"template {kind!r}, which the template dump "
                          f"does not list")


def check_state(sock):
    """Dumps parse; what they list is found again by name; what uses an
    action template names one that exists."""
    check_filters(sock)
    err, pipes = dump(sock, OBJ["PIPELINE"])
    if err:
        raise Finding(f"pipeline dump failed: errno {err}")
    names = []
    for pid, p in pipes:
        for t, v in nl.parse_attrs(p):
            if t == A["P4TC_PIPELINE_NAME"]:
                names.append((pid, v.rstrip(b"\0").decode()))
    for pid, pname in names:
        if pname == "kernel":
            continue
        acts = set()
        for obj in ("META", "ACT", "TABLE", "REGISTER", "HDR_FIELD",
                    "HEADER"):
            err, objs = dump(sock, OBJ[obj], pid, pname)
            if err and obj not in ("HDR_FIELD", "HEADER"):
                raise Finding(f"{obj} dump of {pname} failed: errno {err}")
            for _, p in objs:
                name = dict(nl.parse_attrs(p)).get(1)
                if not name or obj in ("HDR_FIELD", "HEADER"):
                    continue
                if obj == "ACT":
                    # dumped as named in its pipeline; used as PIPE/NAME
                    acts.add(f"{pname}/" +
                             name.rstrip(b"\0").decode(errors="replace"))
                if obj == "TABLE":
                    tname = name.rstrip(b"\0").decode(errors="replace")
                    check_uses(pname, f"table {tname!r}", table_uses(p),
                               acts)
                body = struct.pack("=II", pid, OBJ[obj]) + nl.strz(
                    A["P4TC_ROOT_PNAME"], pname) + nl.nest(
                    A["P4TC_ROOT"], nl.nest(1, nl.nest(
                        A["P4TC_PARAMS"], nl.attr(1, name))))
                ans = sock.talk(nl.message(nl.RTM_GETP4TEMPLATE, nl.NLM_F_ACK,
                                           body))
                if ans.err:
                    raise Finding(f"{obj} {name!r} of {pname} is dumped but "
                                  f"a get says errno {ans.err} "
                                  f"({ans.msg})")
                if obj == "TABLE":
                    err, ents = dump(sock, OBJ["TABLE_ENTRY"], pid, pname,
                                     True,
                                     nl.attr(A["P4TC_ENTRY_TBLNAME"], name))
                    if err not in (0, 22, 1, 13):
                        raise Finding(f"entry dump of {name!r} failed: "
                                      f"errno {err}")
                    for _, e in ents:
                        check_uses(pname, f"an entry of {tname!r}",
                                   entry_uses(e), acts)


def exists(sock, msg, name):
    body = struct.pack("=II", msg.pipeid, msg.obj)
    if msg.pname is not None:
        body += nl.strz(A["P4TC_ROOT_PNAME"], msg.pname)
    body += nl.nest(A["P4TC_ROOT"], nl.nest(1, nl.nest(
        A["P4TC_PARAMS"], nl.strz(1, name))))
    return sock.talk(nl.message(nl.RTM_GETP4TEMPLATE, nl.NLM_F_ACK,
                                body)).err == 0


def flush_all(sock):
    """Delete every pipeline (by name: a dump's header has no pipeline id);
    one that stays is a finding."""
    err, pipes = dump(sock, OBJ["PIPELINE"])
    for _, p in pipes:
        name = dict(nl.parse_attrs(p)).get(A["P4TC_PIPELINE_NAME"], b"")
        name = name.rstrip(b"\0").decode()
        if name == "kernel":
            continue
        body = struct.pack("=II", 0, OBJ["PIPELINE"]) + nl.strz(
            A["P4TC_ROOT_PNAME"], name) + nl.nest(
            A["P4TC_ROOT"], nl.nest(1, nl.nest(A["P4TC_PARAMS"])))
        ans = sock.talk(nl.message(nl.RTM_DELP4TEMPLATE, nl.NLM_F_ACK, body))
        if ans.err:
            raise Finding(f"pipeline {name!r} cannot be deleted: errno "
                          f"{ans.err} ({ans.msg})")


class Stats:
    def __init__(self):
        self.sent = self.ok = self.refused = 0
        self.no_msg = {}


def run_batch(sock, seed, k, per_batch, stats, verbose):
    rnd = random.Random(f"{seed}:{k}")
    gen = Gen(rnd)
    clsact_lo(sock, False)
    flush_all(sock)
    clsact_lo(sock, True)
    base = corpus(sealed=rnd.random() < 0.5, rnd=rnd)
    for j, m in enumerate(base):
        try:
            send(sock, m, stats, verbose, check_create=False)
        except Finding as e:
            raise Finding(f"program message {j} ({m.label}): {e}")
    taint0 = tainted()
    for i in range(per_batch):
        c = rnd.random()
        if c < 0.42:
            m = gen.spec_message()
        elif c < 0.84:
            m = gen.mutate(rnd.choice(base))
        elif c < 0.9:
            m = gen.delete(base)
        else:
            m = rnd.choice(base)
        try:
            if send(sock, m, stats, verbose, check_create=True) and \
                    m.check_after:
                check_state(sock)
        except Finding as e:
            raise Finding(f"message {i} ({m.label}): {e}")
        if tainted() != taint0:
            raise Finding(f"message {i} ({m.label}): the kernel is tainted "
                          f"({tainted():#x}): see the guest log")
    check_state(sock)
    if tainted() != taint0:
        raise Finding(f"the dumps after the batch tainted the kernel "
                      f"({tainted():#x}): see the guest log")


SLOW = 5.0     # seconds: no message may hold RTNL this long


def send(sock, m, stats, verbose, check_create):
    name, terminated = (None, True)
    if check_create and m.mtype == TMPL and m.flags & nl.NLM_F_CREATE:
        name, terminated = m.name()
    before = exists(sock, m, name) if name and terminated else None
    stats.sent += 1
    if verbose:
        print(f"> {m.label}: {m.bytes().hex()}", flush=True)
    t0 = time.monotonic()
    try:
        ans = sock.talk(m.bytes(), timeout=1 if m.silent else 30)
    except TimeoutError:
        if m.silent:
            return
        raise Finding("no answer in 30 s")
    took = time.monotonic() - t0
    if m.silent:
        raise Finding("an answer to a message longer than what was sent")
    if ans.err is None:
        raise Finding("no answer")
    if took > SLOW:
        raise Finding(f"the kernel took {took:.1f} s to answer")
    if not ans.err and name and not terminated:
        raise Finding(f"a name without its NUL ({name!r}) was accepted")
    if ans.err:
        stats.refused += 1
        if not ans.msg:
            key = (m.label.replace("mutated ", ""), m.mtype, ans.err)
            stats.no_msg[key] = stats.no_msg.get(key, 0) + 1
        if name and terminated and not before and exists(sock, m, name):
            raise Finding(f"a refused create (errno {ans.err}, "
                          f"{ans.msg}) left {name!r} behind")
    else:
        stats.ok += 1
    if verbose:
        print(f"  {m.label}: {ans.err} {ans.msg or ''}")
    return not ans.err


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batches", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=0,
                    help="run batches until this much time has gone")
    ap.add_argument("--batch", type=int, default=None,
                    help="only this batch (a replay)")
    ap.add_argument("--messages", type=int, default=200,
                    help="fuzzed messages per batch")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)

    sock = nl.Sock()
    stats = Stats()
    start = time.monotonic()
    me = os.path.relpath(os.path.abspath(__file__), uapi.TOP)
    ks = [args.batch] if args.batch is not None else range(1 << 30)
    done = 0
    rc = 0
    for k in ks:
        if args.batch is None:
            if args.seconds and time.monotonic() - start >= args.seconds:
                break
            if not args.seconds and done >= args.batches:
                break
        try:
            run_batch(sock, args.seed, k, args.messages, stats, args.verbose)
        except (Finding, ValueError, OSError) as e:
            print(f"FINDING seed {args.seed} batch {k}: {e}")
            print(f"replay: {me} --seed {args.seed} --batch {k} "
                  f"--messages {args.messages} -v")
            rc = 1
            break
        done += 1
    try:
        clsact_lo(sock, False)
        flush_all(sock)
    except Finding as e:
        print(f"FINDING seed {args.seed} at the end: {e}")
        rc = 1
    secs = time.monotonic() - start
    print(f"p4tc_fuzz: seed {args.seed}, {done} batches, {stats.sent} "
          f"messages in {secs:.0f} s ({stats.sent / max(secs, 1e-9):.0f}/s): "
          f"{stats.ok} accepted, {stats.refused} refused")
    for (label, mtype, err), n in sorted(stats.no_msg.items()):
        print(f"  refused without a message: {label} (type {mtype}, "
              f"errno {err}) x{n}")
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
