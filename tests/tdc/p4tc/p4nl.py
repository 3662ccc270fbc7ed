#!/usr/bin/env python3
"""p4nl.py: send P4TC template messages that tc cannot produce.

The tdc cases use it for what tc refuses before the kernel sees it (names
over 255 bytes, malformed attributes, batches of many objects), so that the
kernel's own checks are exercised.  Prints "ok", or "Error: MESSAGE" (the
kernel's extended ack) on stderr, and exits 0 or 255, like tc.

    p4nl.py SCENARIO [ARGS...]

Scenarios:
    batch-meta PIPE N [DUP]   create metadata m1..mN of PIPE in one message;
                              DUP: object N repeats object 1's name
    long-pipeline LEN         create a pipeline whose name has LEN bytes
    long-meta PIPE LEN        create a metadatum whose name has LEN bytes
    no-root                   a create without P4TC_ROOT
    bad-obj                   an unknown object type
    not-nested                an object that is not a nest
    gap                       objects numbered 1, 3
    bad-path PIPE             a path of 3 bytes
    no-params PIPE            a create without P4TC_PARAMS
    short-size PIPE           P4TC_META_SIZE of the wrong length
    state PIPE V              update pipeline state to V
    multi-update PIPE         an update of two objects
    multi-delete PIPE         a delete of two objects
    short-header [TYPE]       a message shorter than struct p4tcmsg
    empty-name                create a pipeline named ""
    unterminated PIPE         create a metadatum whose name attribute
                              ("mabc", 4 bytes) has no NUL: the next
                              attribute's bytes follow it
    hdrfield-raw PIPE NAME    create a hdrfield named NAME (parser1, bit8)
    batch-header PIPE NAME    create header NAME (parser1, 20 bytes) and,
                              in the same message, a header of the same
                              name (which fails)
    notify PIPE               create pipeline PIPE while listening to
                              RTNLGRP_TC; print the notification
    echo PIPE                 create pipeline PIPE with NLM_F_ECHO; print
                              the echoed message
    act PIPE NAME HOW         create (update for "inactive") action
                              template NAME: HOW is param-noname,
                              param-notype, param-value, inactive, cmds (a
                              command without its operation)
    inst KIND HOW             add an instance of action kind KIND (one
                              bit8 parameter x): HOW is noopt (no
                              P4TC_ACT_OPT), noopts (no TCA_ACT_OPTIONS),
                              type (a parameter that carries another
                              type), noname, badname, len (a 2-byte
                              value), novalue, devzero (ifindex 0 for a
                              dev parameter x), noparams (no
                              P4TC_ACT_PARMS), or ok
    entries VERB PIPE TABLE N [DUP]
                              create (VERB create) or delete (del) entries
                              of TABLE (a 32-bit exact key) with keys
                              1..N in one runtime message; DUP: entry N
                              repeats entry 1's key
    entry-raw PIPE TABLE KEYHEX [MASKHEX]
                              create one entry with the key (and mask)
                              bytes given in hex
    raw VERB OBJ PIPE ATTR... any message: VERB is create, update, del,
                              flush, get (templates) or rcreate, rupdate,
                              rdel, rflush, rget (runtime); OBJ the
                              P4TC_OBJ_* number; PIPE a name, #ID (the
                              header's pipeline id) or - (none); the ATTRs
                              go in P4TC_ROOT: T{ opens a nest of type T,
                              } closes it, T=s:TEXT (NUL-terminated),
                              T=u8:N, T=u16:N, T=u32:N, T=x:HEX, T=ty:D,S,E
                              (struct p4tc_meta_size_params); T=- an empty
                              attribute; the single ATTR noroot: no
                              P4TC_ROOT at all
"""

import os
import socket
import struct
import sys

# the attribute builders are the netlink fuzzer's
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "fuzz", "netlink"))
from nl import attr, nest, strz  # noqa: E402

NETLINK_ROUTE = 0
SOL_NETLINK = 270
NETLINK_EXT_ACK = 11
NLM_F_REQUEST, NLM_F_ACK, NLM_F_EXCL, NLM_F_CREATE = 1, 4, 0x200, 0x400
NLM_F_REPLACE, NLM_F_ROOT = 0x100, 0x100
NLMSG_ERROR = 2
NLA_F_NESTED = 0x8000
RTM_CREATEP4TEMPLATE, RTM_DELP4TEMPLATE, RTM_GETP4TEMPLATE = 124, 125, 126

P4TC_ROOT, P4TC_ROOT_PNAME = 1, 2
P4TC_PATH, P4TC_PARAMS = 1, 2
OBJ_PIPELINE, OBJ_META, OBJ_HDR_FIELD = 1, 2, 3
PIPELINE_STATE = 3
META_NAME, META_SIZE = 1, 2
HDRFIELD_DATA, HDRFIELD_NAME, HDRFIELD_PARSER_NAME = 1, 2, 3
P4T_U8 = 1
P4T_U16 = 2
P4T_DEV = 26
OBJ_ACT = 4
ACT_NAME, ACT_PARMS, ACT_OPT, ACT_CMDS, ACT_ACTIVE = 1, 2, 3, 5, 6
PARAM_NAME, PARAM_TYPE, PARAM_VALUE = 1, 3, 4
RTM_NEWACTION = 48
RTM_P4TC_CREATE, RTM_P4TC_DEL = 128, 129
OBJ_TABLE_ENTRY = 6
OBJ_HEADER = 8
HEADER_NAME, HEADER_PARSER_NAME, HEADER_LEN = 1, 2, 4
ENTRY_TBLNAME, ENTRY_KEY, ENTRY_MASK = 1, 2, 3
TCA_ACT_TAB, TCA_ACT_KIND, TCA_ACT_OPTIONS = 1, 1, 2


def meta_size(dt=P4T_U8, start=0, end=7):
    return struct.pack("=HHBB", start, end, dt, 0)


def message(mtype, flags, obj, attrs, pipeid=0, raw_hdr=None):
    body = raw_hdr if raw_hdr is not None else struct.pack("=II", pipeid, obj)
    body += attrs
    return struct.pack("=IHHII", 16 + len(body), mtype,
                       flags | NLM_F_REQUEST | NLM_F_ACK, 1, 0) + body


RTNLGRP_TC = 4
NLM_F_ECHO = 8


def describe(data):
    """One line for a template message: type, object, pipeline name."""
    ln, typ, flags, seq, pid = struct.unpack_from("=IHHII", data, 0)
    pipeid, obj = struct.unpack_from("=II", data, 16)
    name = "?"
    off = 24
    while off + 4 <= ln:
        alen, atype = struct.unpack_from("=HH", data, off)
        if alen < 4:
            break
        if atype & 0x3fff == P4TC_ROOT_PNAME:
            name = data[off + 4:off + alen].split(b"\0")[0].decode()
        off += (alen + 3) & ~3
    return f"type {typ} obj {obj} pipeid {pipeid} pname {name}"


def notify_or_echo(pipe, echo):
    listen = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_ROUTE)
    listen.bind((0, 0 if echo else 1 << (RTNLGRP_TC - 1)))
    msg = message(RTM_CREATEP4TEMPLATE, NLM_F_CREATE | NLM_F_EXCL |
                  (NLM_F_ECHO if echo else 0), OBJ_PIPELINE,
                  strz(P4TC_ROOT_PNAME, pipe) +
                  nest(P4TC_ROOT, nest(1, nest(P4TC_PARAMS))))
    if echo:
        listen.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        listen.send(msg)
    elif talk(msg):
        return 255
    listen.settimeout(5)
    while True:
        data = listen.recv(65536)
        typ = struct.unpack_from("=H", data, 4)[0]
        if typ == RTM_CREATEP4TEMPLATE:
            print(("echoed " if echo else "notified ") + describe(data))
            return 0


def talk(msg):
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_ROUTE)
    s.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
    s.bind((0, 0))
    s.send(msg)
    while True:
        data = s.recv(65536)
        off = 0
        while off < len(data):
            ln, typ, flags, seq, pid = struct.unpack_from("=IHHII", data, off)
            if typ == NLMSG_ERROR:
                err, = struct.unpack_from("=i", data, off + 16)
                if err == 0:
                    print("ok")
                    return 0
                print("Error: " + extack(data[off:off + ln], flags) +
                      f" ({os.strerror(-err)})", file=sys.stderr)
                return 255
            off += (ln + 3) & ~3


def extack(msg, flags):
    # the original request follows the error unless NLM_F_CAPPED (0x100)
    ln = struct.unpack_from("=I", msg, 20)[0]
    off = 16 + 4 + (16 if flags & 0x100 else ln)
    off = (off + 3) & ~3
    while off + 4 <= len(msg):
        alen, atype = struct.unpack_from("=HH", msg, off)
        if alen < 4:
            break
        if atype == 1:  # NLMSGERR_ATTR_MSG
            return msg[off + 4:off + alen].split(b"\0")[0].decode()
        off += (alen + 3) & ~3
    return "(no message)"


RAW_VERBS = {
    "create": (RTM_CREATEP4TEMPLATE, NLM_F_CREATE | NLM_F_EXCL),
    "update": (RTM_CREATEP4TEMPLATE, NLM_F_REPLACE),
    "del": (RTM_DELP4TEMPLATE, 0),
    "flush": (RTM_DELP4TEMPLATE, NLM_F_ROOT),
    "get": (RTM_GETP4TEMPLATE, 0),
    "rcreate": (RTM_P4TC_CREATE, NLM_F_CREATE | NLM_F_EXCL),
    "rupdate": (RTM_P4TC_CREATE, NLM_F_REPLACE),
    "rdel": (RTM_P4TC_DEL, 0),
    "rflush": (RTM_P4TC_DEL, NLM_F_ROOT),
    "rget": (RTM_P4TC_DEL + 1, 0),
}


def raw_attrs(tokens):
    """The attribute tree the raw scenario's tokens describe."""
    stack = [[None, b""]]
    for tok in tokens:
        if tok == "}":
            t, body = stack.pop()
            stack[-1][1] += nest(t, body)
        elif tok.endswith("{"):
            stack.append([int(tok[:-1]), b""])
        else:
            t, val = tok.split("=", 1)
            kind, _, v = val.partition(":")
            if kind == "s":
                payload = v.encode() + b"\0"
            elif kind in ("u8", "u16", "u32"):
                payload = struct.pack({"u8": "=B", "u16": "=H",
                                       "u32": "=I"}[kind], int(v, 0))
            elif kind == "x":
                payload = bytes.fromhex(v)
            elif kind == "ty":
                d, st, e = (int(x, 0) for x in v.split(","))
                payload = meta_size(d, st, e)
            elif kind == "-":
                payload = b""
            else:
                raise SystemExit(f"p4nl.py: bad attribute {tok}")
            stack[-1][1] += attr(int(t), payload)
    assert len(stack) == 1, "unbalanced { }"
    return stack[0][1]


def raw_message(a):
    mtype, flags = RAW_VERBS[a[0]]
    obj, pipe = int(a[1]), a[2]
    pipeid, head = 0, b""
    if pipe.startswith("#"):
        pipeid = int(pipe[1:])
    elif pipe != "-":
        head = strz(P4TC_ROOT_PNAME, pipe)
    if a[3:] == ["noroot"]:
        return message(mtype, flags, obj, head, pipeid)
    return message(mtype, flags, obj,
                   head + nest(P4TC_ROOT, raw_attrs(a[3:])), pipeid)


def meta_obj(i, name, size=None):
    return nest(i, nest(P4TC_PARAMS, strz(META_NAME, name),
                        attr(META_SIZE, size or meta_size())))


def main(argv):
    if not argv:
        print(__doc__)
        return 2
    sc, a = argv[0], argv[1:]
    create = NLM_F_CREATE | NLM_F_EXCL
    if sc in ("notify", "echo"):
        return notify_or_echo(a[0], sc == "echo")
    if sc == "batch-meta":
        pipe, n = a[0], int(a[1])
        dup = len(a) > 2
        objs = [meta_obj(i, "m1" if dup and i == n else f"m{i}")
                for i in range(1, n + 1)]
        msg = message(RTM_CREATEP4TEMPLATE, create, OBJ_META,
                      strz(P4TC_ROOT_PNAME, pipe) + nest(P4TC_ROOT, *objs))
    elif sc == "long-pipeline":
        msg = message(RTM_CREATEP4TEMPLATE, create, OBJ_PIPELINE,
                      strz(P4TC_ROOT_PNAME, "p" * int(a[0])) +
                      nest(P4TC_ROOT, nest(1, nest(P4TC_PARAMS))))
    elif sc == "long-meta":
        msg = message(RTM_CREATEP4TEMPLATE, create, OBJ_META,
                      strz(P4TC_ROOT_PNAME, a[0]) +
                      nest(P4TC_ROOT, meta_obj(1, "m" * int(a[1]))))
    elif sc == "no-root":
        msg = message(RTM_CREATEP4TEMPLATE, create, OBJ_PIPELINE,
                      strz(P4TC_ROOT_PNAME, "pnoroot"))
    elif sc == "bad-obj":
        msg = message(RTM_CREATEP4TEMPLATE, create, 99,
                      nest(P4TC_ROOT, nest(1, nest(P4TC_PARAMS))))
    elif sc == "not-nested":
        msg = message(RTM_CREATEP4TEMPLATE, create, OBJ_PIPELINE,
                      strz(P4TC_ROOT_PNAME, "pnn") +
                      nest(P4TC_ROOT, attr(1, b"abcd")))
    elif sc == "gap":
        msg = message(RTM_CREATEP4TEMPLATE, create, OBJ_PIPELINE,
                      strz(P4TC_ROOT_PNAME, "pgap") +
                      nest(P4TC_ROOT, nest(1, nest(P4TC_PARAMS)),
                           nest(3, nest(P4TC_PARAMS))))
    elif sc == "bad-path":
        msg = message(RTM_CREATEP4TEMPLATE, create, OBJ_META,
                      strz(P4TC_ROOT_PNAME, a[0]) +
                      nest(P4TC_ROOT, nest(1, attr(P4TC_PATH, b"abc"),
                                           nest(P4TC_PARAMS))))
    elif sc == "no-params":
        msg = message(RTM_CREATEP4TEMPLATE, create, OBJ_META,
                      strz(P4TC_ROOT_PNAME, a[0]) + nest(P4TC_ROOT, nest(1)))
    elif sc == "short-size":
        msg = message(RTM_CREATEP4TEMPLATE, create, OBJ_META,
                      strz(P4TC_ROOT_PNAME, a[0]) +
                      nest(P4TC_ROOT, meta_obj(1, "mshort", b"\1\2\3\4")))
    elif sc == "state":
        msg = message(RTM_CREATEP4TEMPLATE, NLM_F_REPLACE, OBJ_PIPELINE,
                      strz(P4TC_ROOT_PNAME, a[0]) +
                      nest(P4TC_ROOT, nest(1, nest(P4TC_PARAMS,
                           attr(PIPELINE_STATE, struct.pack("=B", int(a[1])))))))
    elif sc == "multi-update":
        msg = message(RTM_CREATEP4TEMPLATE, NLM_F_REPLACE, OBJ_META,
                      strz(P4TC_ROOT_PNAME, a[0]) +
                      nest(P4TC_ROOT, meta_obj(1, "m1"), meta_obj(2, "m2")))
    elif sc == "multi-delete":
        msg = message(RTM_DELP4TEMPLATE, 0, OBJ_META,
                      strz(P4TC_ROOT_PNAME, a[0]) +
                      nest(P4TC_ROOT, meta_obj(1, "m1"), meta_obj(2, "m2")))
    elif sc == "short-header":
        # a[0]: the message type, RTM_CREATEP4TEMPLATE by default
        msg = message(int(a[0]) if a else RTM_CREATEP4TEMPLATE, create,
                      OBJ_PIPELINE, b"", raw_hdr=b"\0\0\0\0")
    elif sc == "empty-name":
        msg = message(RTM_CREATEP4TEMPLATE, create, OBJ_META,
                      strz(P4TC_ROOT_PNAME, a[0]) +
                      nest(P4TC_ROOT, meta_obj(1, "")))
    elif sc == "unterminated":
        msg = message(RTM_CREATEP4TEMPLATE, create, OBJ_META,
                      strz(P4TC_ROOT_PNAME, a[0]) +
                      nest(P4TC_ROOT, nest(1, nest(P4TC_PARAMS,
                           attr(META_NAME, b"mabc"),
                           attr(META_SIZE, meta_size())))))
    elif sc == "batch-header":
        hdr = nest(P4TC_PARAMS, strz(HEADER_NAME, a[1]),
                   strz(HEADER_PARSER_NAME, "parser1"),
                   attr(HEADER_LEN, struct.pack("=H", 20)))
        msg = message(RTM_CREATEP4TEMPLATE, create, OBJ_HEADER,
                      strz(P4TC_ROOT_PNAME, a[0]) +
                      nest(P4TC_ROOT, nest(1, hdr), nest(2, hdr)))
    elif sc == "hdrfield-raw":
        msg = message(RTM_CREATEP4TEMPLATE, create, OBJ_HDR_FIELD,
                      strz(P4TC_ROOT_PNAME, a[0]) +
                      nest(P4TC_ROOT, nest(1, nest(P4TC_PARAMS,
                           strz(HDRFIELD_NAME, a[1]),
                           strz(HDRFIELD_PARSER_NAME, "parser1"),
                           attr(HDRFIELD_DATA, meta_size())))))
    elif sc == "act":
        param = {
            "param-noname": attr(PARAM_TYPE, meta_size()),
            "param-notype": strz(PARAM_NAME, "x"),
            "param-value": strz(PARAM_NAME, "x") +
                           attr(PARAM_TYPE, meta_size()) +
                           attr(PARAM_VALUE, b"\1"),
        }
        how = a[2]
        extra = b""
        if how in param:
            extra = nest(ACT_PARMS, nest(1, param[how]))
        elif how == "inactive":
            extra = attr(ACT_ACTIVE, b"\0")
        elif how == "cmds":
            extra = nest(ACT_CMDS, nest(1))
        msg = message(RTM_CREATEP4TEMPLATE,
                      NLM_F_REPLACE if how == "inactive" else create,
                      OBJ_ACT, strz(P4TC_ROOT_PNAME, a[0]) +
                      nest(P4TC_ROOT, nest(1, nest(P4TC_PARAMS,
                           strz(ACT_NAME, a[1]), extra))))
    elif sc == "inst":
        # "type": the instance restates the type, wrongly (bit16 for bit8);
        # the others give parameter x of a bit8 template without its name
        # (noname), by a name it does not have (badname), with a value of
        # two bytes (len) or without a value (novalue); noopts sends no
        # TCA_ACT_OPTIONS at all
        how = a[1]
        ty = meta_size(P4T_U16, 0, 15) if how == "type" else \
            meta_size(P4T_DEV, 0, 31) if how == "devzero" else meta_size()
        name = b"" if how == "noname" else \
            strz(PARAM_NAME, "nothere" if how == "badname" else "x")
        value = {"len": attr(PARAM_VALUE, b"\1\0"),
                 "devzero": attr(PARAM_VALUE, b"\0" * 4),
                 "novalue": b""}.get(how, attr(PARAM_VALUE, b"\1"))
        opts = b"" if how == "noparams" else \
            nest(ACT_PARMS, nest(1, name, attr(PARAM_TYPE, ty), value))
        if how != "noopt":
            opts += attr(ACT_OPT, b"\0" * 20)
        body = strz(TCA_ACT_KIND, a[0])
        if how != "noopts":
            body += nest(TCA_ACT_OPTIONS, opts)
        tab = nest(TCA_ACT_TAB, nest(1, body))
        msg = message(RTM_NEWACTION, create, 0, tab, raw_hdr=b"\0" * 4)
    elif sc == "entries":
        verb, pipe, table, n = a[0], a[1], a[2], int(a[3])
        dup = len(a) > 4
        objs = [nest(i, nest(P4TC_PARAMS, strz(ENTRY_TBLNAME, table),
                             attr(ENTRY_KEY, struct.pack(
                                 ">I", 1 if dup and i == n else i))))
                for i in range(1, n + 1)]
        msg = message(RTM_P4TC_CREATE if verb == "create" else RTM_P4TC_DEL,
                      create if verb == "create" else 0, OBJ_TABLE_ENTRY,
                      strz(P4TC_ROOT_PNAME, pipe) + nest(P4TC_ROOT, *objs))
    elif sc == "raw":
        msg = raw_message(a)
    elif sc == "entry-raw":
        extra = attr(ENTRY_MASK, bytes.fromhex(a[3])) if len(a) > 3 else b""
        msg = message(RTM_P4TC_CREATE, create, OBJ_TABLE_ENTRY,
                      strz(P4TC_ROOT_PNAME, a[0]) +
                      nest(P4TC_ROOT, nest(1, nest(
                          P4TC_PARAMS, strz(ENTRY_TBLNAME, a[1]),
                          attr(ENTRY_KEY, bytes.fromhex(a[2])), extra))))
    else:
        print(f"p4nl.py: unknown scenario {sc}", file=sys.stderr)
        return 2
    return talk(msg)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
