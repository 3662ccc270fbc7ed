"""From the syntax tree of a PNA program to P4TC templates.

What the program becomes (docs/p4-compiler.md has the whole table):

- the parser's headers, extracted in its states, become header templates
  of the parser (fields at their bit offsets), its selects transitions;
  a varbit header extracted right after a header, with a length of the
  form (F - A) * M of a field F of that header, makes it one header of
  variable length (lenfield F, lenmult M/8), as IPv4's options;
- the user metadata struct's fields become metadata templates;
- actions become action templates, tables table templates with a key
  action that builds their key from the key fields;
- the control's apply block becomes the pipeline's preaction, an action
  template named after the control ("CONTROL/apply").

send_to_port() and drop_packet() are PNA's: they say what happens to the
packet once the control ends, the last call winning, and the control goes
on.  They write two metadata the compiler adds (pna_drop, pna_port); the
end of the apply block drops the packet, sends it out of its port, or,
when neither was asked, hands it on to the host stack, as upstream P4TC
does.  A send nothing can follow (final_send_calls()) goes at once.
"""

import contextlib
import re

from .exprs import CMP_OPS, Expressions, to_signed
from .functions import Hoister, function_actions
from .parts import MAX_CMDS, Parts
from .source import CompileError
from .syntax import Node, anno

# @tc_type names and the tc type each means
TC_TYPES = {"macaddr": "macaddr", "ipv4": "ipv4", "ipv6": "ipv6",
            "dev": "dev", "be16": "be16", "be32": "be32", "be64": "be64"}




class ParamTypes(dict):
    """An action's parameters: name -> (width, tc type); cp: @name's."""

    def __init__(self):
        super().__init__()
        self.cp = {}


class Header:
    def __init__(self, name, decl):
        self.name = name            # the member of the headers struct
        self.decl = decl            # the header type's declaration
        self.fields = {}            # name -> (offset, width, tc type)
        self.len = 0                # bytes
        self.maxlen = None
        self.lenfield = None
        self.lenmult = None
        self.lenadd = None
        self.alias_of = None        # a varbit header merged into another


# their widths: a @tc_type on an object of another width is refused
TC_WIDTHS = {"macaddr": 48, "ipv4": 32, "ipv6": 128, "dev": 32, "be16": 16,
             "be32": 32, "be64": 64}


def tc_type(annos, width, default):
    """The tc type an object's @tc_type names (checked against the
    object's WIDTH), or DEFAULT when it has none."""
    t = anno(annos, "tc_type")
    if t is None:
        return default
    name = t.args[0].value if len(t.args) == 1 and t.args[0].kind == "string" else None
    if name not in TC_TYPES:
        err(t, f"unknown @tc_type {name!r}")
    tct = TC_TYPES[name]
    if TC_WIDTHS[tct] != width:
        err(t, f'@tc_type("{name}") is {TC_WIDTHS[tct]} bits, not {width}')
    return tct


def err(node, msg):
    raise CompileError(node.loc, msg)


def container_bits(w, tct):
    """What a metadatum takes of the pipeline's 1024 bits."""
    if tct in ("macaddr",):
        return 64           # 48 bits, aligned to 8 bytes
    c = 8
    while c < w:
        c *= 2
    return c


def kernel_type(tct, field=False):
    """The template type of a tc type: the kernel has no IPv6 type (tc
    writes and prints key fields of type ipv6 as addresses), and a
    header field holds a port as a number."""
    if tct == "ipv6":
        return "bit128"
    if tct == "dev" and field:
        return "bit32"
    return tct


class Program(Expressions, Parts):
    def __init__(self, decls, pname, pipeid):
        self.decls = decls
        self.pname = pname
        self.pipeid = pipeid
        self.types = {}
        self.consts = {}
        self.externs = {}
        self.actions_top = {}
        self.lines = []
        for d in decls:
            if d.kind in ("header", "struct", "header_union", "typedef",
                          "enum", "extern", "parser", "control",
                          "parser_type", "control_type", "package"):
                self.types[d.name] = d
            if d.kind in ("extern", "extern_fn"):
                self.externs[d.name] = d
            if d.kind == "const":
                self.consts[d.name] = d
            if d.kind == "action":
                self.actions_top[d.name] = d
        functions = {d.name: d for d in decls if d.kind == "function"}
        if functions:
            # calls taken out of expressions, then each function an
            # action the control inlines (functions.py)
            Hoister(functions).node(decls)
            for name, a in function_actions(decls).items():
                if name in self.actions_top:
                    err(a, f"{name} is both an action and a function")
                self.actions_top[name] = a

    # -- types ---------------------------------------------------------------
    def resolve(self, ty):
        """A type reference to ("bits", width, signed), ("bool",),
        ("varbit", max) or the declaration it names."""
        seen = 0
        while ty.kind == "named":
            if ty.name == "bool":
                return ("bool",)
            d = self.types.get(ty.name)
            if d is None:
                err(ty, f"unknown type {ty.name}")
            if d.kind != "typedef":
                return d
            ty = d.type
            seen += 1
            if seen > 32:
                err(ty, "a typedef loop")
        if ty.kind == "bits":
            w = self.const_value(ty.width) if ty.width is not None else None
            if w is None or w < 1:
                err(ty, "a bit width must be a positive constant")
            if ty.varbit:
                return ("varbit", w)
            return ("bits", w, ty.signed)
        err(ty, "header stacks are not supported")

    def width_of(self, ty, node):
        r = self.resolve(ty)
        if isinstance(r, tuple) and r[0] == "bits":
            if r[1] > 128:
                err(node, f"bit<{r[1]}> is wider than P4TC's 128 bits")
            return r[1]
        if isinstance(r, tuple) and r[0] == "bool":
            return 1
        if isinstance(r, Node) and r.kind == "enum":
            err(node, f"enum {r.name} values are not supported here")
        err(node, "a bit<N> type was expected")

    def signed_type(self, ty):
        """Whether TY is an int<N>."""
        r = self.resolve(ty)
        return isinstance(r, tuple) and r[0] == "bits" and r[2]

    def obj_tct(self, annos, ty, w, unsigned, port=True):
        """The tc type of an object of type TY (W bits): intW for an
        int<W> (signed in the kernel: its comparisons are), else its
        @tc_type, dev for a PortId_t when PORT (a parameter or metadata:
        upstream's compiler makes them ports, and its samples send to
        them without @tc_type), else UNSIGNED."""
        if self.signed_type(ty):
            a = anno(annos, "tc_type")
            if a is not None:
                err(a, "@tc_type names an unsigned type; this is an int<N>")
            return f"int{w}"
        if port and ty.kind == "named" and ty.name == "PortId_t" and w == 32:
            unsigned = "dev"
        return tc_type(annos, w, unsigned)

    def const_value(self, e):
        if e.kind == "int":
            return e.value
        if e.kind == "bool":
            return int(e.value)
        if e.kind == "member" and e.a.kind == "name" and \
                e.a.name == "PNA_Direction_t" and \
                e.name in ("NET_TO_HOST", "HOST_TO_NET"):
            return int(e.name == "HOST_TO_NET")     # as istd.direction is
        if e.kind == "member" and e.a.kind == "name":
            d = self.types.get(e.a.name)
            if isinstance(d, Node) and d.kind == "enum" and d.under is not None:
                for m in d.members:
                    if m.name == e.name and m.value is not None:
                        return self.const_value(m.value)
                err(e, f"{e.a.name} has no member {e.name} with a value")
        if e.kind == "name" and e.name in self.consts:
            v = self.const_value(self.consts[e.name].value)
            w = self.const_width(e)
            # a typed constant is its bits, as a typed literal is
            return v % (1 << w) if v is not None and w else v
        if e.kind == "binop" and e.op in CMP_OPS:
            a, b = self.const_value(e.a), self.const_value(e.b)
            if a is None or b is None:
                return None
            if self.const_signed(e.a) or self.const_signed(e.b):
                # typed ones are held as their bits: compare their values
                a, b = self.signed_const(e.a, a), self.signed_const(e.b, b)
            return int({"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b,
                        ">": a > b, ">=": a >= b}[e.op])
        if e.kind == "binop" and e.op in ("&&", "||"):
            a, b = self.const_value(e.a), self.const_value(e.b)
            if a is None or b is None:
                return None
            return int(bool(a and b) if e.op == "&&" else bool(a or b))
        if e.kind == "unop" and e.op == "!":
            a = self.const_value(e.a)
            return None if a is None else int(not a)
        w = self.const_width(e)
        if e.kind == "binop" and e.op in ("+", "-", "*", "<<", ">>", "&", "|", "^"):
            a, b = self.const_value(e.a), self.const_value(e.b)
            if a is None or b is None:
                return None
            if e.op == ">>" and w and self.const_signed(e.a):
                a = self.signed_const(e.a, a)       # an arithmetic shift
            v = {"+": a + b, "-": a - b, "*": a * b, "<<": a << b,
                 ">>": a >> b, "&": a & b, "|": a | b, "^": a ^ b}[e.op]
            # a typed constant wraps at its width, as P4 says
            return v % (1 << w) if w else v
        if e.kind == "unop" and e.op in ("~", "-") and (w or e.op == "-"):
            a = self.const_value(e.a)
            if a is None:
                return None
            v = ~a if e.op == "~" else -a
            return v % (1 << w) if w else v
        if e.kind == "cast":
            a = self.const_value(e.a)
            if a is not None and self.const_width(e.a):
                self.cast_rule(e, self.const_width(e.a), self.const_signed(e.a))
            if a is not None and self.const_signed(e.a) and \
                    self.signed_type(e.type):
                a = self.signed_const(e.a, a)       # int<A> to int<W> extends its sign
            return None if a is None else a % (1 << w)
        return None

    def const_signed(self, e):
        """Whether a constant expression's type is an int<N>."""
        if e.kind == "int":
            return bool(e.width and e.signed)
        if e.kind == "cast":
            return self.signed_type(e.type)
        if e.kind == "binop" and e.op in ("<<", ">>"):
            return self.const_signed(e.a)
        if e.kind == "binop" and e.op not in CMP_OPS and \
                e.op not in ("&&", "||", "++"):
            return self.const_signed(e.a) or self.const_signed(e.b)
        if e.kind == "unop" and e.op != "!":
            return self.const_signed(e.a)
        if e.kind == "name" and e.name in self.consts:
            c = self.consts[e.name]
            return c.f.get("type") is not None and self.signed_type(c.type)
        return False

    def signed_const(self, e, v):
        """The value of constant E (V, held as its bits when typed) as a
        signed number when its type is an int<N>."""
        w = self.const_width(e)
        return to_signed(v, w) if w and self.const_signed(e) else v

    def const_width(self, e):
        """The width of a constant expression's type, None for an int."""
        if e.kind == "int":
            return e.width
        if e.kind == "cast":
            r = self.resolve(e.type)
            return r[1] if isinstance(r, tuple) and r[0] == "bits" else 1
        if e.kind == "binop" and e.op in ("<<", ">>"):
            return self.const_width(e.a)
        if e.kind in ("binop", "unop"):
            return self.const_width(e.a) or (self.const_width(e.b)
                                             if e.kind == "binop" else None)
        if e.kind == "name" and e.name in self.consts:
            c = self.consts[e.name]
            r = self.resolve(c.type) if c.f.get("type") is not None else None
            return r[1] if isinstance(r, tuple) and r[0] == "bits" else None
        return None

    # -- the package -----------------------------------------------------------
    def main(self):
        mains = [d for d in self.decls if d.kind == "instance" and
                 d.name == "main"]
        if not mains:
            raise CompileError(None, "no package instance named main "
                               "(PNA_NIC(parser(), control(), deparser()) main;)")
        m = mains[0]
        if m.type.kind != "named" or m.type.name != "PNA_NIC":
            err(m, "main must be a PNA_NIC package: P4TC runs PNA programs")
        if len(m.args) != 3:
            err(m, "PNA_NIC takes the main parser, control and deparser")
        blocks = []
        for a, kind in zip(m.args, ("parser", "control", "control")):
            if a is None or a.kind != "call" or a.fn.kind != "name" or a.args:
                err(m, f"PNA_NIC's arguments are instances: NAME() of a {kind}")
            d = self.types.get(a.fn.name)
            if d is None or d.kind != kind:
                err(a, f"{a.fn.name} is not a {kind}")
            blocks.append(d)
        return blocks

    def compile(self):
        for d in self.decls:
            select_by_direction(d)
        parser, control, deparser = self.main()
        self.parser_name = parser.name
        self.control = control
        self.hdr_param = parser.params[1].name if len(parser.params) > 1 else None
        self.meta_param = parser.params[2].name if len(parser.params) > 2 else None
        self.pistd = parser.params[3].name if len(parser.params) > 3 else None
        if len(control.params) < 2:
            err(control, "the main control takes the headers and the metadata")
        self.chdr = control.params[0].name
        self.cmeta = control.params[1].name
        self.istd = control.params[2].name if len(control.params) > 2 else None
        hdr_struct = self.resolve(control.params[0].type)
        meta_struct = self.resolve(control.params[1].type)
        self.headers_struct(hdr_struct)
        self.parse_graph(parser)
        self.metadata(meta_struct)
        self.deparser(deparser)
        self.control_block(control)
        script, intro = self.script(), self.introspection()
        for d in (hdr_struct, meta_struct, parser, control, deparser):
            unhonoured(d)
        return script, intro

    def deparser(self, d):
        """P4TC changes headers in place: the deparser must emit every
        header the parser extracts, each after those that lead to it.
        Its other statements (checksum updates) run at the end of the
        control."""
        self.deparser_node = d
        self.dhdr = d.params[1].name if len(d.params) > 1 else None
        self.deparser_locals = []
        for l in d.locals:
            if l.kind != "instance" or l.type.kind != "named" or \
                    l.type.name != "InternetChecksum":
                err(l, "the deparser may hold InternetChecksum instances "
                    "only")
            self.deparser_locals.append(l)
        order, self.deparser_body = [], []
        for st in d.apply.body:
            c = st.call if st.kind == "callstmt" else None
            if c is None or c.fn.kind != "member" or c.fn.name != "emit":
                if find_calls(st, method("emit")):
                    err(st, "emit() at the top of the deparser's apply block "
                        "only")
                self.deparser_body.append(st)
                continue
            if len(c.args) != 1:
                err(st, "pkt.emit(hdr.h);")
            x = c.args[0]
            if x.kind == "member" and x.a.kind == "name" and x.a.name == self.dhdr \
                    and x.name in self.stacks:
                # a stack: its elements in order (those the parser never
                # fills are never valid: nothing to emit)
                for h in self.stacks[x.name]:
                    if h.name not in self.trans:
                        continue
                    if h in order:
                        err(st, f"{h.name} is emitted twice")
                    order.append(h)
                continue
            h = self.hdr_ref(c.args[0], {self.dhdr})
            if h is None:
                err(st, "emit() of a header of the headers struct")
            if h in order:
                err(st, f"{h.name} is emitted twice")
            order.append(h)
        wanted = [h for h in self.headers.values()
                  if h.name in self.trans or (h.alias_of is not None and
                                              h.alias_of.name in self.trans)]
        missing = [h.name for h in wanted if h not in order]
        if missing:
            err(d, f"the deparser does not emit {', '.join(missing)}: P4TC "
                "cannot take a parsed header out of the packet that way "
                "(setInvalid() does)")
        for h in order:
            if h not in wanted:
                err(d, f"the deparser emits {h.name}, which the parser never "
                    "extracts")
            if h.alias_of is not None and (order.index(h) == 0 or
                                           order[order.index(h) - 1] is not h.alias_of):
                err(d, f"{h.name} must be emitted right after {h.alias_of.name}, "
                    "as the parser extracts it")
        for p in self.graph_order:
            _, cases, default = self.trans[p.name]
            for nxt in [n for _, _, n in cases] + [default]:
                if isinstance(nxt, tuple) and order.index(nxt[0]) < order.index(p):
                    err(d, f"the deparser emits {nxt[0].name} before {p.name}, "
                        "which the parser extracts first")

    # -- headers and the parse graph -------------------------------------------
    def headers_struct(self, st):
        if not isinstance(st, Node) or st.kind != "struct":
            err(st, "the headers must be a struct of headers")
        self.headers = {}
        self.stacks = {}
        for f in st.fields:
            if f.type.kind == "stack":
                self.header_stack(f)
            else:
                self.headers[f.name] = self.make_header(f.name, f.type, f)

    def make_header(self, name, ty, f):
        d = self.resolve(ty)
        if not isinstance(d, Node) or d.kind != "header":
            if isinstance(d, Node) and d.kind == "header_union":
                err(f, "header unions are not supported")
            err(f, f"{f.name}: the headers struct holds headers only")
        h = Header(name, d)
        off = 0
        for hf in d.fields:
            r = self.resolve(hf.type)
            if isinstance(r, tuple) and r[0] == "varbit":
                if hf is not d.fields[-1] or off:
                    err(hf, "a varbit field must be its header's only field")
                h.varbit = r[1]
                continue
            w = self.width_of(hf.type, hf)
            tct = self.obj_tct(hf.annos, hf.type, w, f"bit{w}", port=False)
            h.fields[hf.name] = (off, w, tct)
            off += w
        if off % 8:
            err(d, f"header {d.name} is {off} bits long, not whole bytes")
        h.len = off // 8
        if h.len > 512:
            err(d, f"header {d.name} is {h.len} bytes; P4TC's headers hold 512")
        return h

    def header_stack(self, f):
        """A header stack H[N] of the headers struct: N headers NAME_0 ..
        NAME_{N-1}, placed by the parse graph as it extracts them."""
        d = self.resolve(f.type.elem)
        if not isinstance(d, Node) or d.kind != "header":
            err(f, f"{f.name}: a stack of headers only")
        n = self.const_value(f.type.size)
        if n is None or not 1 <= n <= 16:
            err(f, "a header stack's size is a constant of 1 to 16")
        self.stacks[f.name] = []
        for i in range(n):
            h = self.make_header(f"{f.name}_{i}", f.type.elem, f)
            if hasattr(h, "varbit"):
                err(f, "a stack of headers of variable length is not supported")
            h.stack = (f.name, i)
            if h.name in self.headers:
                err(f, f"{h.name} is both a header and an element of stack "
                    f"{f.name}")
            self.headers[h.name] = h
            self.stacks[f.name].append(h)

    def hdr_ref(self, e, names):
        """hdr.NAME or hdr.STACK[I] in a parser or control: the Header,
        or None."""
        if e.kind == "index" and e.a.kind == "member" and \
                e.a.a.kind == "name" and e.a.a.name in names:
            stack = self.stacks.get(e.a.name)
            if stack is None:
                err(e, f"{e.a.name} is not a header stack")
            i = self.const_value(e.index)
            if i is None or not 0 <= i < len(stack):
                err(e, f"a constant index of {e.a.name}, 0 to {len(stack) - 1}")
            return stack[i]
        if e.kind == "member" and e.a.kind == "member" and \
                e.a.a.kind == "name" and e.a.a.name in names and \
                e.a.name in self.stacks:
            err(e, f"{e.a.name}.{e.name} is not supported here: name the "
                f"element, {e.a.name}[I]")
        if e.kind == "member" and e.a.kind == "name" and e.a.name in names:
            if e.name in self.stacks:
                err(e, f"{e.name} is a header stack: name an element, {e.name}[I]")
            h = self.headers.get(e.name)
            if h is None:
                err(e, f"no header {e.name}")
            return h
        return None

    def parse_graph(self, parser):
        states = {s.name: s for s in parser.states}
        if "start" not in states:
            err(parser, "the parser has no start state")
        for l in parser.locals:
            if l.kind != "const":
                err(l, "declarations in a parser other than constants are "
                    "not supported")
            self.consts[l.name] = l
        # each state: the header it extracts (None: none), then its exit
        self.state_hdr = {}
        self.parser_assigns = []        # (state, [assignments])
        for s in parser.states:
            hdr = None
            assigns = []
            for st in s.body:
                if st.kind == "callstmt" and st.call.fn.kind == "name" and \
                        st.call.fn.name == "verify":
                    err(st, "verify() is not supported: P4TC's parse graph "
                        "rejects by its transitions only")
                if st.kind == "assign":
                    assigns.append(st)
                    continue
                if st.kind != "callstmt" or st.call.fn.kind != "member" or \
                        st.call.fn.name != "extract":
                    err(st, "a parser state may only extract headers (P4TC's "
                        "parse graph runs no statements)")
                a = st.call.args
                if len(a) == 1 and a[0].kind == "member" and \
                        a[0].name == "next" and a[0].a.kind == "member" and \
                        a[0].a.a.kind == "name" and a[0].a.a.name == self.hdr_param \
                        and a[0].a.name in self.stacks:
                    # the stack's next element: which one, the path says
                    if hdr is not None:
                        err(st, "one header per parser state (split the state)")
                    hdr = ("next", a[0].a.name)
                    continue
                h = self.hdr_ref(a[0], {self.hdr_param}) if a else None
                if h is None:
                    err(st, "extract() takes a header of the headers struct")
                if len(a) == 2:
                    if hdr is None or not hasattr(h, "varbit"):
                        err(st, "a variable-length extract must follow the "
                            "extract of the header whose field gives its length")
                    self.varbit_merge(hdr, h, a[1])
                    continue
                if hdr is not None:
                    err(st, "one header per parser state (split the state)")
                if hasattr(h, "varbit"):
                    err(st, f"{h.name} has a varbit field: extract it with its length")
                hdr = h
            self.state_hdr[s.name] = hdr
            if assigns:
                self.parser_assigns.append((s, assigns))
        self.trans = {}     # header name -> (select field, [(v, m, next)], default)
        self.hdr_state = {}     # header name -> (state, stack counts) placing it
        self.start = self.follow("start", states, parser, set(), ())
        if self.start is None:
            err(parser, "the parser extracts no header")
        self.graph_order = []
        self.walk(self.start, states, parser)
        if len(self.graph_order) > 32:
            err(parser, f"the parse graph places {len(self.graph_order)} "
                "headers; a P4TC parser holds 32")
        self.parser_stmts = self.parser_statements()

    def parser_statements(self):
        """Assignments in parser states: P4TC's parse graph runs no
        statements, so they run when the control starts, in parse order,
        each state's under the condition that the packet took it (the
        header it extracted is valid).  They may write the metadata and
        read what the path extracted."""
        order = {h.name: i for i, h in enumerate(self.graph_order)}
        out = []
        for s, assigns in self.parser_assigns:
            h = self.state_hdr[s.name]
            if h is None or isinstance(h, tuple) or hasattr(h, "stack"):
                err(assigns[0], "assignments in a parser state that extracts "
                    "one header (not a stack's element) only: they run when "
                    "the control starts, if the packet took the state")
            if h.name not in order:
                continue        # a state no path takes
            for a in assigns:
                lhs = a.lhs
                while lhs.kind == "slice":
                    lhs = lhs.a
                if not (lhs.kind == "member" and lhs.a.kind == "name" and
                        lhs.a.name == self.meta_param):
                    err(a, "an assignment in the parser writes the metadata "
                        f"({self.meta_param}.F): P4TC's parse graph changes "
                        "no header")
            loc = s.loc
            ref = Node("member", loc, a=Node("name", loc, name=self.hdr_param),
                       name=h.name)
            valid = Node("call", loc, fn=Node("member", loc, a=ref, name="isValid"),
                         targs=[], args=[])
            out.append((order[h.name],
                        Node("if", loc, cond=valid,
                             then=Node("block", loc, body=list(assigns)),
                             els=None)))
        return [x for _, x in sorted(out, key=lambda x: x[0])]

    def follow(self, name, states, parser, seen, ctx):
        """The header a transition to state NAME leads to, as (header,
        state, stack counts after it), or accept/reject.  CTX: how many
        elements of each stack the path extracted so far."""
        if name in ("accept", "reject"):
            return name
        s = states.get(name)
        if s is None:
            err(parser, f"no state {name}")
        if name in seen:
            err(s, "parser loops are not supported")
        h = self.state_hdr[name]
        if isinstance(h, tuple):
            # stack.next: the element after the path's last; past the
            # end P4 rejects (error.StackOutOfBounds)
            counts = dict(ctx)
            i = counts.get(h[1], 0)
            if i >= len(self.stacks[h[1]]):
                return "reject"
            counts[h[1]] = i + 1
            return (self.stacks[h[1]][i], s, tuple(sorted(counts.items())))
        if h is not None:
            return (h, s, ctx)
        if s.trans is None or s.trans.kind != "goto":
            err(s, "a state that extracts nothing may only go to another state")
        return self.follow(s.trans.state, states, parser, seen | {name}, ctx)

    def walk(self, node, states, parser, path=()):
        if not isinstance(node, tuple):
            return
        h, s, ctx = node
        if h.name in path:
            err(s, "parser loops are not supported (P4TC's parse graph is "
                "acyclic)")
        path = path + (h.name,)
        trans = self.transitions(h, s, ctx, states, parser)
        if h.name in self.trans:
            # a header reached again: by the same state, with the same
            # ways on (P4TC gives a header one set of transitions)
            if self.hdr_state[h.name] != s.name or \
                    self.trans_sig(self.trans[h.name]) != self.trans_sig(trans):
                err(s, f"{h.name} is extracted by states "
                    f"{self.hdr_state[h.name]} and {s.name}, or goes on "
                    "differently after different paths: P4TC gives a header "
                    "one set of transitions")
            return
        self.hdr_state[h.name] = s.name
        self.trans[h.name] = trans
        self.graph_order.append(h)
        sel, cases, default = trans
        for _, _, nxt in cases:
            self.walk(nxt, states, parser, path)
        self.walk(default, states, parser, path)

    def trans_sig(self, trans):
        sel, cases, default = trans
        return (sel, [(v, m, self.next_name(n)) for v, m, n in cases],
                self.next_name(default))

    def transitions(self, h, s, ctx, states, parser):
        """(select field, [(value, mask, next)], default) of header H
        extracted by state S after a path that extracted CTX of each
        stack."""
        t = s.trans
        if t is None:
            return (None, [], "reject")
        if t.kind == "goto":
            return (None, [], self.follow(t.state, states, parser, set(), ctx))
        fields = [self.select_field(fe, h) for fe in t.exprs]
        sel = fields[0][0]
        if len(fields) > 1:
            sel = self.select_span(t, h, fields)
        lo, span = h.fields[sel][0], h.fields[sel][1]
        cases, default = [], "reject"
        for c in t.cases:
            if len(c.keys) == 1 and c.keys[0].kind == "dontcare":
                default = self.follow(c.state, states, parser, set(), ctx)
                break       # default, or _: every value
            if len(c.keys) != len(fields):
                err(c, f"{len(c.keys)} values for a select on {len(fields)} "
                    "fields")
            nxt = self.follow(c.state, states, parser, set(), ctx)
            value = mask = 0
            for k, (_, off, w) in zip(c.keys, fields):
                if k.kind == "dontcare":
                    continue
                if k.kind == "range":
                    err(k, "ranges in select are not supported")
                if k.kind == "mask":
                    v, m = self.const_value(k.value), self.const_value(k.mask)
                else:
                    v, m = self.const_value(k), (1 << w) - 1
                if v is None or m is None:
                    err(k, "select cases must be constants")
                if v < 0 or v >> w or m < 0 or m >> w:
                    err(k, f"{v if v < 0 or v >> w else m} does not fit in "
                        f"{w} bits")
                # the field's bits in the select field, most significant
                # first as the header holds them
                shift = lo + span - off - w
                value |= (v & m) << shift
                mask |= m << shift
            if mask == 0:
                default = nxt       # every value: the default (P4's _)
                break
            cases.append((value, mask, nxt))
        if len(cases) > 16:
            err(t, f"{len(cases)} select cases; a P4TC header has 16 "
                "transitions")
        return (sel, cases, default)

    def select_field(self, fe, h):
        """A select expression: (name, offset, width) of a field of H,
        the header the state extracts."""
        last = fe.kind == "member" and fe.a.kind == "member" and \
            fe.a.name == "last" and getattr(h, "stack", (None,))[0] == \
            self.expr_stack(fe.a.a)
        if fe.kind != "member" or not (last or self.hdr_ref(fe.a, {self.hdr_param}) is h) \
                or fe.name not in h.fields:
            err(fe, f"select on a field of {h.name}, the header this state extracts")
        off, w, tct = h.fields[fe.name]
        if tct.startswith("int"):
            err(fe, "select on an int<N> field is not supported: declare "
                "it bit<N>")
        return fe.name, off, w

    def select_span(self, t, h, fields):
        """select(h.A, h.B, ...): P4TC selects on one field of at most 64
        bits, so a field of the compiler's spans them all (values and
        masks of each case placed in it; the bits between are masked
        out)."""
        lo = min(off for _, off, _ in fields)
        hi = max(off + w for _, off, w in fields)
        if hi - lo > 64:
            err(t, f"select on fields {hi - lo} bits apart: P4TC selects "
                "on 64 bits of one header at most")
        name = "pna_sel_" + "_".join(n for n, _, _ in fields)
        h.fields.setdefault(name, (lo, hi - lo, f"bit{hi - lo}"))
        return name

    def expr_stack(self, e):
        """The stack hdr.STACK names, or None."""
        if e.kind == "member" and e.a.kind == "name" and \
                e.a.name == self.hdr_param and e.name in self.stacks:
            return e.name
        return None

    def varbit_merge(self, h, opt, length):
        """extract(opt, (F - A) * M): opt's bytes join h as its tail."""
        e = length
        while e.kind == "cast":
            e = e.a
        if e.kind != "binop" or e.op not in ("*", "<<"):
            err(length, "a varbit length must read (FIELD - A) * M")
        m = self.const_value(e.b)
        if m is None:
            err(e.b, "a varbit length must read (FIELD - A) * M")
        if e.op == "<<":
            m = 1 << m
        f = e.a
        while f.kind == "cast":
            f = f.a
        a = 0
        if f.kind == "binop" and f.op == "-":
            a = self.const_value(f.b)
            f = f.a
            while f.kind == "cast":
                f = f.a
        if a is None or f.kind != "member" or \
                self.hdr_ref(f.a, {self.hdr_param}) is not h or \
                f.name not in h.fields or m % 8:
            err(length, f"a varbit length must read ({h.name}.FIELD - A) * M, "
                "M a multiple of 8")
        mult = m // 8
        h.lenfield, h.lenmult = f.name, mult
        h.lenadd = h.len - a * mult
        if h.lenadd < 0:
            err(length, "the header would be shorter than its fixed part")
        h.maxlen = h.len + opt.varbit // 8
        opt.alias_of = h

    # -- metadata --------------------------------------------------------------
    def metadata(self, st):
        self.meta = {}
        if not isinstance(st, Node) or st.kind != "struct":
            err(st, "the user metadata must be a struct")
        for f in st.fields:
            if f.name.startswith("pna_"):
                err(f, "metadata names starting with pna_ are the compiler's")
            w = self.width_of(f.type, f)
            self.meta[f.name] = (w, self.obj_tct(f.annos, f.type, w, None))
        # what send_to_port() and drop_packet() write, when a program
        # calls them (see the module's comment)
        self.pna = {"pna_drop": (8, None), "pna_port": (32, "dev"),
                    "pna_action_run": (32, None)}
        self.pna_used = set()

    # -- the control -----------------------------------------------------------
    def control_block(self, c):
        self.actions = {}
        self.tables = {}
        self.registers = {}
        self.signed_registers = set()
        self.checksums = {}
        self.counters = {}
        self.direct_counters = {}
        self.control_scope = {}
        self.scopes = [self.control_scope]
        self.where = "apply"
        self.inlining = []
        self.exits_taken = set()    # exit labels jumped to (labels are unique)
        init = []           # segments: each self-contained
        for l in c.locals:
            if l.kind == "action":
                self.actions[l.name] = l
            elif l.kind == "table":
                self.tables[l.name] = l
            elif l.kind == "const":
                self.consts[l.name] = l
            elif l.kind == "instance":
                self.instance(l)
            elif l.kind == "var":
                self.start_statement()
                init.append([])
                self.declare(l, c.name, init[-1], None)
            else:
                err(l, f"{l.kind} declarations are not supported in a control")
        whole = [c] + self.top_level_actions(c)
        self.changes_validity = bool(find_calls(whole, method("setValid")) or
                                     find_calls(whole, method("setInvalid")))
        if self.changes_validity:
            # validity the program changes is kept in a flag per header
            # asked about, first derived from the parse graph
            for x, names in ((c, {self.chdr}),
                             (self.deparser_body, {self.dhdr})):
                for v in find_calls(x, method("isValid")):
                    h = self.hdr_ref(v.fn.a, names)
                    if h is None or f"__valid_{h.name}" in self.control_scope:
                        continue
                    self.start_statement()
                    flag = self.compiler_meta(f"pna_valid_{h.name}", 8)
                    init.append([])
                    self.compute(self.path_cond(h, v, set()), flag, init[-1], None)
                    self.control_scope[f"__valid_{h.name}"] = flag
        self.final_sends = self.final_send_calls(c, whole)
        # the compiler's metadata, for what the control calls
        if find_calls(whole, function("drop_packet")):
            self.pna_used.add("pna_drop")
        if any(id(x) not in self.final_sends
               for x in find_calls(whole, function("send_to_port"))):
            self.pna_used.add("pna_port")
        self.table_info = []
        for t in c.locals:
            if t.kind == "table":
                self.table(t)
        if len(self.table_info) > 32:
            err(c, f"{len(self.table_info)} tables; a P4TC pipeline holds 32")
        for name, table in self.direct_counters.items():
            acts = [] if table is None else [a.name for a, _ in next(
                x for x in self.table_info if x["node"].name == table)["acts"]]
            for a in self.actions.values():
                for x in find_calls(a, method("count")):
                    if x.fn.a.kind == "name" and x.fn.a.name == name and \
                            a.name not in acts:
                        err(x, f"{name}.count() in action {a.name}, which is "
                            f"not an action of the table {name} counts for"
                            if table else f"{name} counts for no table "
                            "(pna_direct_counter = NAME in a table)")
        self.scope_name = "apply"
        self.init_segs = [x for x in init if x]
        self.apply_cmds = [x for seg in self.init_segs for x in seg]
        if self.parser_stmts:
            with self.parser_names():
                self.apply_cmds += self.stmts_to_cmds(
                    Node("block", c.loc, body=self.parser_stmts), None, "apply")
        self.apply_cmds += self.stmts_to_cmds(c.apply, None, "apply")
        if self.deparser_body:
            # the deparser's statements (checksums) run once the control
            # ends, before the packet goes; its names are its own
            with self.deparser_names():
                for l in self.deparser_locals:
                    self.instance(l)
                self.apply_cmds += self.stmts_to_cmds(
                    Node("block", self.deparser_node.loc, body=self.deparser_body),
                    None, "apply")

    @contextlib.contextmanager
    def parser_names(self):
        """The parser's names for the headers, the metadata and istd, while
        its statements are lowered in the control."""
        saved = self.chdr, self.cmeta, self.istd
        self.chdr, self.cmeta = self.hdr_param, self.meta_param
        self.istd = self.pistd
        self.scope_name = "parser"
        self.scopes = [self.control_scope]
        try:
            yield
        finally:
            self.chdr, self.cmeta, self.istd = saved
            self.scope_name = "apply"

    @contextlib.contextmanager
    def deparser_names(self):
        chdr, self.chdr = self.chdr, self.dhdr
        self.scope_name = "deparser"
        self.scopes = [self.control_scope]
        try:
            yield
        finally:
            self.chdr = chdr
            self.scope_name = "apply"

    def split_apply(self, epilogue):
        """The apply block's action when it is longer than 32 commands:
        the flags' and variables' initializers, the apply block, the
        deparser's statements, each in parts (parts.py)."""
        lines = []
        flag = self.compiler_meta("pna_ret_c", 8)
        base = "apply"
        self.where, self.exit_label = "apply", "__END__"
        self.scopes, self.scope_name = [self.control_scope, {}], "apply"
        out = self.part_calls([("cmds", seg) for seg in self.init_segs], base,
                              None, flag, lines)

        def parts_of(stmts):
            segs = [x for st in stmts for x in self.segments(st, None, "apply")]
            end = self.new_label()
            out.extend(x.replace("__END__", end)
                       for x in self.part_calls(segs, base, None, flag, lines))
            out.append(f"label {end}")

        if self.parser_stmts:
            with self.parser_names():
                parts_of(self.parser_stmts)
        parts_of(self.control.apply.body)
        if self.deparser_body:
            with self.deparser_names():
                parts_of(self.deparser_body)
        out = prune_labels(out + epilogue)
        if len(out) > MAX_CMDS:
            err(self.control, f"the apply block needs {len(out)} commands even "
                f"in parts: P4TC runs at most {MAX_CMDS} in one action")
        return out, lines

    def top_level_actions(self, c):
        """The actions declared outside the control that it uses (in its
        tables, or called), which become its own: in the order the
        tables name them, then the calls."""
        def add(r):
            r = r.ref if r.kind == "actref" else r
            r = r.fn if r.kind == "call" else r
            if r.kind == "name" and r.name in self.actions_top and \
                    r.name not in self.actions:
                self.actions[r.name] = self.actions_top[r.name]
                used.append(self.actions[r.name])
        used = []
        for t in c.locals:
            if t.kind != "table":
                continue
            for p in t.props:
                if p.name == "actions":
                    for r in p.value:
                        add(r)
                elif p.name == "default_action":
                    add(p.value)
                elif p.name == "entries":
                    for e in p.value:
                        add(e.action)
        done = 0
        nodes = [c]
        while done < len(nodes) + len(used):
            done = len(nodes) + len(used)
            for x in find_calls(nodes + used, lambda x: x.fn.kind == "name"):
                add(x.fn)
        return used

    def final_send_calls(self, c, whole):
        """The send_to_port() calls that may send at once: the last
        statement of an action that only tables applied last run (nothing
        of the apply block follows their apply on any path), so no later
        call can change the decision, and the packet is as it leaves.
        The others note the port for the end of the control (PNA)."""
        tail, other = set(), set()
        if self.deparser_body:
            return set()        # the deparser's statements come after

        def is_end(x):
            return x.kind in ("return", "exit", "empty")

        def walk(st, last):
            k = st.kind
            if k == "block":
                for i, x in enumerate(st.body):
                    walk(x, last and all(is_end(r) for r in st.body[i + 1:]))
            elif k == "if":
                other.update(applied(st.cond))
                walk(st.then, last)
                if st.els is not None:
                    walk(st.els, last)
            elif k == "switch":
                other.update(applied(st.expr))
                for case in st.cases:
                    if case.body is not None:
                        walk(case.body, last)
            elif k == "callstmt" and st.call.fn.kind == "member" and \
                    st.call.fn.name == "apply" and st.call.fn.a.kind == "name":
                (tail if last else other).add(st.call.fn.a.name)
            else:
                other.update(applied(st))

        def applied(node):
            return {x.fn.a.name for x in find_calls(node, method("apply"))
                    if x.fn.a.kind == "name"}

        walk(c.apply, True)
        # the tables that may run each action
        users = {}
        for t in c.locals:
            if t.kind != "table":
                continue
            for p in t.props:
                if p.name not in ("actions", "default_action"):
                    continue
                for r in p.value if p.name == "actions" else [p.value]:
                    r = r.ref if r.kind == "actref" else r
                    r = r.fn if r.kind == "call" else r
                    if r.kind == "name":
                        users.setdefault(r.name, set()).add(t.name)
        finals = set()
        called = {x.fn.name for x in find_calls(whole, lambda x: x.fn.kind == "name")}
        for name, tables in users.items():
            a = self.actions.get(name)
            if name in called:
                continue        # its body is also inlined where it is called
            # an action run by a table that is not applied last sends later
            if a is None or not tables <= tail - other:
                continue
            body = list(a.body.body)
            while body and is_end(body[-1]):
                body.pop()
            if body and body[-1].kind == "callstmt" and \
                    function("send_to_port")(body[-1].call):
                finals.add(id(body[-1].call))
        return finals

    def instance(self, l):
        """An extern instance: Register, Counter, DirectCounter,
        InternetChecksum."""
        ty = l.type
        name = ty.name if ty.kind == "named" else None
        if name == "Register":
            if len(ty.args) != 2 or len(l.args) not in (1, 2):
                err(l, "Register<T, S>(size) NAME")
            w = self.width_of(ty.args[0], l)
            self.registers[l.name] = (w, self.elements(l, "register"))
            if self.signed_type(ty.args[0]):
                self.signed_registers.add(l.name)
        elif name == "Counter":
            # P4TC has no counter object: a register of counts per type
            if len(ty.args) != 2 or len(l.args) != 2:
                err(l, "Counter<W, S>(size, PNA_CounterType_t.T) NAME")
            if self.signed_type(ty.args[0]):
                err(l, "a counter counts in bit<W>, not int<W>")
            w = self.width_of(ty.args[0], l)
            n = self.elements(l, "counter")
            kinds = self.counter_type(l.args[1], l)
            for k in kinds:
                reg = l.name if len(kinds) == 1 else f"{l.name}_{k}"
                self.registers[reg] = (w, n)
            self.counters[l.name] = (w, n, kinds)
        elif name == "DirectCounter":
            if len(ty.args) != 1 or len(l.args) != 1:
                err(l, "DirectCounter<W>(PNA_CounterType_t.T) NAME")
            self.counter_type(l.args[0], l)
            self.direct_counters[l.name] = None     # its table, once bound
        elif name == "InternetChecksum":
            if l.args:
                err(l, "InternetChecksum() takes no argument")
            # the running ones' complement sum, folded by get()
            self.checksums[l.name] = self.compiler_meta(f"pna_{l.name}", 32)
        elif name in self.externs:
            err(l, f"extern {name} is not supported by P4TC's datapath")
        else:
            err(l, f"{name} is not an extern")

    def elements(self, l, what):
        n = self.const_value(l.args[0]) if l.args[0] is not None else None
        if n is None or not 1 <= n <= 128:
            err(l, f"a {what}'s size is a constant of 1 to 128 elements "
                "(P4TC's registers)")
        return n

    def counter_type(self, e, l):
        if e is not None and e.kind == "member" and e.a.kind == "name" and \
                e.a.name == "PNA_CounterType_t":
            kinds = {"PACKETS": ["packets"], "BYTES": ["bytes"],
                     "PACKETS_AND_BYTES": ["packets", "bytes"]}.get(e.name)
            if kinds:
                return kinds
        err(e or l, "PNA_CounterType_t.PACKETS, .BYTES or "
            ".PACKETS_AND_BYTES")

    def register_elem(self, c, params):
        """r.read(I): the element's operand (I a constant)."""
        r = c.fn.a.name
        w, n = self.registers[r]
        if not c.args or c.args[0] is None:
            err(c, "a register element's index")
        i = self.const_value(c.args[0])
        if i is None:
            err(c.args[0], "register indexes must be constants in P4TC's "
                "commands")
        if not 0 <= i < n:
            err(c.args[0], f"index {i} is outside register {r} of {n} elements")
        return f"register.{self.pname}.{r}[{i}]", w

    def action_path(self, name):
        return f"{self.pname}/{self.control.name}/{self.tc_name(name)}"

    def tc_name(self, name, node=None):
        """An action's or a table's name in tc: its own, or its @name's
        last part (p4c writes "Control.name"; a leading dot says
        top-level)."""
        node = node or self.actions.get(name) or self.tables.get(name) or \
            self.actions_top.get(name)
        n = anno(node.annos, "name") if node is not None else None
        if n is None:
            return name
        v = n.args[0].value if len(n.args) == 1 and n.args[0].kind == "string" else None
        v = v.lstrip(".").rsplit(".", 1)[-1] if v else v
        if not v or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", v):
            err(n, '@name("NAME"): a name for tc (letters, digits, _)')
        return v

    def table_action(self, ref):
        r = ref.ref if ref.kind == "actref" else ref
        args = []
        if r.kind == "call":
            args = r.args
            r = r.fn
        if r.kind != "name":
            err(r, "an action name")
        a = self.actions.get(r.name) or self.actions_top.get(r.name)
        if a is None:
            err(r, f"no action {r.name}")
        if r.name not in self.actions:
            self.actions[r.name] = a
        return a, args

    def table(self, t):
        props = {p.name: p for p in t.props}
        for p in t.props:
            if p.name not in ("key", "actions", "default_action", "size",
                              "entries", "pna_direct_counter"):
                err(p, f"table property {p.name} is not supported")
        keys = props["key"].value if "key" in props else []
        # a keyless table always misses: its default action runs.  P4TC's
        # keys are 1 bit at least: a 1-bit key nothing writes, and no
        # entries (the control plane may only read it and, unless const,
        # change its default action)
        kinds = {k.match for k in keys}
        for k in keys:
            if k.match not in ("exact", "lpm", "ternary"):
                err(k, f"match kind {k.match} is not supported")
        if "lpm" in kinds and len([k for k in keys if k.match == "lpm"]) > 1:
            err(t, "one lpm key field at most")
        ttype = "ternary" if "ternary" in kinds else ("lpm" if "lpm" in kinds else "exact")
        # exact fields and an lpm one: the lpm field goes last in the key,
        # so that an entry's mask (the exact fields whole, then the
        # prefix) is a prefix of the whole key, as an lpm table's are
        layout = sorted(keys, key=lambda k: k.match == "lpm") \
            if ttype == "lpm" else keys
        kfields, off = {}, 0
        for k in layout:
            opnd, w, tct = self.operand(k.expr, "key")
            n = anno(k.annos, "name")
            name = n.args[0].value if n and n.args else self.expr_name(k.expr)
            tct = tc_type(k.annos, w, tct)
            kfields[id(k)] = (name, opnd, off, w, tct, k.match)
            off += w
        keysz = off or 1
        if keysz > 512:
            err(t, f"table {t.name}'s key is {keysz} bits; P4TC's keys hold 512")
        # in the key's order (the introspection's), and in P4's
        key_layout = [kfields[id(k)] for k in layout]
        kfields = [kfields[id(k)] for k in keys]
        acts, default_hit = [], None
        for a in props["actions"].value if "actions" in props else []:
            act, _ = self.table_action(a)
            flags = None
            if anno(a.annos, "tableonly"):
                flags = "tableonly"
            if anno(a.annos, "defaultonly"):
                if flags:
                    err(a, "@tableonly and @defaultonly together")
                flags = "defaultonly"
            acts.append((act, flags))
            if len(acts) > 32:
                err(a, f"table {t.name} lists more than 32 actions, P4TC's "
                    "most")
            for h in ("default_hit", "default_hit_const"):
                x = anno(a.annos, h)
                if x is None:
                    continue
                if default_hit is not None:
                    err(x, f"table {t.name} has two default hit actions")
                if act.params:
                    err(x, f"@{h} on {act.name}, which takes parameters: "
                        "P4 gives their values nowhere")
                if flags == "defaultonly":
                    err(x, f"@{h} on a @defaultonly action")
                default_hit = (act, h == "default_hit_const")
        default = None
        if "default_action" in props:
            p = props["default_action"]
            act, args = self.table_action(p.value)
            if act.name not in [a.name for a, _ in acts]:
                err(p, f"default action {act.name} is not in the table's actions")
            if len(args) != len(act.params):
                err(p, f"{act.name} takes {len(act.params)} arguments")
            if dict((a.name, f) for a, f in acts)[act.name] == "tableonly":
                err(p, f"default action {act.name} is @tableonly")
            override = [x for x in (anno(p.annos, "tc_may_override"),
                                    anno(act.annos, "tc_may_override")) if x]
            override += [x for q in act.params
                         for x in [anno(q.annos, "tc_may_override")] if x]
            # on a default action that is not const it asks for what the
            # control plane has anyway: accepted, as upstream's compiler
            # accepts it, with nothing to change
            override = override and p.const
            default = (act, args, p.const, bool(override))
            if override:
                # the control plane may give the action other parameters,
                # not make another action the default
                acts = [(a, "tableonly" if a is not act and f is None else f)
                        for a, f in acts]
        counter = None
        if "pna_direct_counter" in props:
            p = props["pna_direct_counter"]
            counter = p.value.name if p.value.kind == "name" else None
            if counter not in self.direct_counters:
                err(p, "pna_direct_counter names a DirectCounter of the control")
            if self.direct_counters[counter] is not None:
                err(p, f"{counter} already counts table "
                    f"{self.direct_counters[counter]}")
            self.direct_counters[counter] = t.name
            # P4TC counts every hit of an entry: every action an entry may
            # run must count, and only those of this table may
            for a, f in acts:
                if f != "defaultonly" and not any(
                        x.kind == "callstmt" and x.call.fn.kind == "member" and
                        x.call.fn.name == "count" and x.call.fn.a.kind == "name"
                        and x.call.fn.a.name == counter for x in a.body.body):
                    err(a, f"action {a.name} of table {t.name} does not call "
                        f"{counter}.count() in its body: P4TC counts every "
                        "hit of an entry")
        entries = []
        if "entries" in props:
            if not keys:
                err(props["entries"], f"const entries in table {t.name}, "
                    "which has no key")
            entries = self.const_entries(props["entries"], kfields, acts)
            if default and default[3]:
                err(props["entries"], "@tc_may_override with const entries: "
                    "their table is read-only, and P4TC allows its default "
                    "action no more than the table")
        nummask = None
        nm = anno(t.annos, "nummask")
        if nm:
            nummask = self.const_value(nm.args[0]) if len(nm.args) == 1 else None
            if nummask is None or not 1 <= nummask <= 128:
                err(nm, "@nummask(N): N of 1 to 128")
            if ttype == "exact":
                err(nm, "@nummask on an exact table (it has one mask)")
        elif ttype == "lpm":
            # every prefix length, up to the kernel's 128 masks
            lpm_w = next(f[3] for f in kfields if f[5] == "lpm")
            nummask = min(lpm_w + 1, 128)
        size = 1024
        if "size" in props:
            size = self.const_value(props["size"].value)
            if size is None or not 1 <= size <= 1 << 24:
                err(props["size"], "size must be a constant of 1 to 2^24 "
                    "(P4TC's largest table)")
        self.table_info.append(dict(node=t, name=self.tc_name(t.name, t),
                                    type=ttype, keys=key_layout,
                                    keysz=keysz, acts=acts, default=default,
                                    default_hit=default_hit, entries=entries,
                                    size=size, nummask=nummask,
                                    id=len(self.table_info) + 1))

    def const_entries(self, prop, kfields, acts):
        """const entries = { KEYS : ACTION(ARGS); ... } as the table's
        initial entries, the first listed winning where several match.
        The table is then read-only to the control plane (permissions
        0x109): P4's const entries are the table's only entries."""
        if not prop.const:
            err(prop, "entries without const: P4TC's initial entries are const")
        out = []
        names = {a.name: a for a, _ in acts}
        for i, e in enumerate(prop.value, 1):
            if len(e.keys) != len(kfields):
                err(e, f"{len(e.keys)} key values for {len(kfields)} key fields")
            words = []
            for k, (name, _, _, w, tct, match) in zip(e.keys, kfields):
                words += self.entry_key(k, name, w, tct, match)
            act, args = self.table_action(Node("actref", e.loc, ref=e.action,
                                               annos=[]))
            if act.name not in names:
                err(e.action, f"{act.name} is not an action of this table")
            if len(args) != len(act.params):
                err(e.action, f"{act.name} takes {len(act.params)} arguments")
            if any(m == "ternary" for *_, m in kfields):
                words.append(f"prio {i}")
            words.append(f"action {self.action_path(act.name)}")
            words += self.param_words(act, args)
            out.append(" ".join(words))
        return out

    def entry_key(self, k, name, w, tct, match):
        if k.kind == "dontcare":
            if match == "exact":
                err(k, "an exact key field takes a value")
            return []
        if k.kind == "range":
            err(k, "ranges are not a match kind of P4TC")
        if k.kind == "mask":
            v, m = self.const_value(k.value), self.const_value(k.mask)
            if v is None or m is None:
                err(k, "key values and masks must be constants")
            if match == "exact":
                err(k, "a mask on an exact key field")
            if match == "lpm":
                plen = bin(m).count("1")
                if m != ((1 << plen) - 1) << (w - plen):
                    err(k, "an lpm key's mask must be a prefix")
                return [name, f"{self.value_text(v, tct, k, w)}/{plen}"]
            return [name, f"{self.value_text(v, tct, k, w)}/"
                    f"{self.value_text(m, tct, k, w)}"]
        v = self.const_value(k)
        if v is None:
            err(k, "key values must be constants")
        return [name, self.value_text(v, tct, k, w)]

    @staticmethod
    def value_text(v, tct, at, w):
        """A constant as tc writes a value of type TCT."""
        if tct and tct.startswith("int"):
            # signed, in decimal; a value given by its bits (a typed
            # constant, or 0..2^W - 1) is the number they are
            if not -(1 << w - 1) <= v < 1 << w:
                err(at, f"{v} does not fit in int<{w}>")
            return str(to_signed(v, w))
        if v < 0 or v >> w:
            err(at, f"{v} does not fit in {w} bits")
        if tct == "ipv4":
            return ".".join(str(v >> s & 255) for s in (24, 16, 8, 0))
        if tct == "macaddr":
            return ":".join(f"{v >> s & 255:02x}" for s in range(40, -8, -8))
        return str(v)

    def param_words(self, act, args):
        ps = self.param_types(act)
        words = []
        for p, a in zip(act.params, args):
            v = self.const_value(a)
            if v is None:
                err(a, "action arguments here must be constants")
            w, tct = ps[p.name]
            words.append(f"param {self.param_name(ps, p.name)} "
                         f"{self.value_text(v, tct, a, w)}")
        return words

    def expr_name(self, e):
        if e.kind == "index":
            return f"{self.expr_name(e.a)}_{self.const_value(e.index)}"
        if e.kind == "member":
            base = self.expr_name(e.a)
            return e.name if base in (self.chdr, self.cmeta, self.hdr_param) else \
                f"{base}.{e.name}"
        if e.kind == "name":
            return e.name
        err(e, "a key field must be a header field or metadata")

    # -- operands ----------------------------------------------------------------
    def operand(self, e, ctx, params=None, width=None):
        """An expression as a command operand: (text, width, tc type)."""
        h = self.hdr_ref(e.a, {self.chdr}) if e.kind == "member" and \
            e.a.kind in ("member", "index") else None
        if h is not None:
            if h.alias_of is not None:
                err(e, f"the fields of {h.name} (a varbit) cannot be used")
            if e.name not in h.fields:
                err(e, f"header {h.name} has no field {e.name}")
            off, w, tct = h.fields[e.name]
            return (f"hdrfield.{self.pname}.{self.parser_name}.{h.name}.{e.name}",
                    w, tct)
        if e.kind == "member" and e.a.kind == "name" and e.a.name == self.cmeta:
            if e.name not in self.meta or e.name.startswith("pna_"):
                err(e, f"the metadata have no field {e.name}")
            w, tct = self.meta[e.name]
            return (f"metadata.{self.pname}.{e.name}", w, tct or f"bit{w}")
        if e.kind == "member" and e.a.kind == "name" and e.a.name == self.istd:
            if e.name == "input_port":
                return ("metadata.kernel.iif", 32, "dev")
            if e.name == "direction":
                # 0 at a port's ingress (from the network: NET_TO_HOST),
                # 1 at its egress (from the host: HOST_TO_NET)
                return ("metadata.kernel.direction", 8, "bit8")
            err(e, f"istd.{e.name} is not supported")
        if e.kind == "call" and e.fn.kind == "member" and e.fn.name == "read" \
                and e.fn.a.kind == "name" and e.fn.a.name in self.registers:
            opnd, w = self.register_elem(e, params)
            fam = "int" if e.fn.a.name in self.signed_registers else "bit"
            return opnd, w, f"{fam}{w}"
        if e.kind == "call" and e.fn.kind == "name" and e.fn.name in self.externs \
                and e.fn.name != "packet_length":
            err(e, f"extern {e.fn.name}() is not supported by P4TC's datapath")
        if e.kind == "call" and e.fn.kind == "name" and e.fn.name == "packet_length":
            if e.args:
                err(e, "packet_length() takes no argument")
            return "metadata.kernel.pktlen", 32, "bit32"
        if e.kind == "name" and self.lookup(e.name) is not None:
            return self.lookup(e.name)
        if e.kind == "name" and params is not None and e.name in params:
            w, tct = params[e.name]
            return (f"param.{self.param_name(params, e.name)}", w, tct)
        if e.kind == "cast" and self.const_value(e) is None:
            w = self.width_of(e.type, e)
            inner = self.operand(e.a, ctx, params, w)
            if inner[1] > w:
                err(e, "narrowing casts are not supported")
            return inner
        v = self.const_value(e)
        if v is not None:
            # a typed constant's own width (8w5, (bit<8>) 5, a const of
            # type bit<8>) first, then the context's
            w = self.const_width(e) or width or \
                (1 if e.kind == "bool" else None)
            if w is None:
                err(e, "a constant's width is not known here; cast it: (bit<N>)")
            if v < 0:
                v += 1 << w
            if v >> w:
                err(e, f"{v} does not fit in {w} bits")
            return (f"constant.bit{w}.{v:#x}", w, None)
        if e.kind == "member" and e.a.kind == "name" and e.a.name == self.chdr:
            err(e, "a whole header cannot be an operand")
        err(e, "this expression is not supported as an operand")

    # -- statements to commands --------------------------------------------------
    def new_label(self):
        self.nlabels = getattr(self, "nlabels", 0) + 1
        return f"l{self.nlabels}"

    def stmts_to_cmds(self, block, params, where):
        """The commands of BLOCK; RETURN jumps to the end label."""
        out = []
        end = self.new_label()
        self.where = where
        self.exit_label = end if where == "apply" else None
        self.stmt(block, out, params, end, where)
        out.append(f"label {end}")
        return prune_labels(out)

    def exit_target(self):
        """Where an exit jumps (noted: inline() copies out parameters out
        on the way only when its body took it)."""
        self.exits_taken.add(self.exit_label)
        return self.exit_label

    def stmt(self, s, out, params, end, where):
        k = s.kind
        self.start_statement()
        if k == "block":
            self.scopes.append({})
            for x in s.body:
                self.stmt(x, out, params, end, where)
            self.scopes.pop()
        elif k == "empty":
            pass
        elif k == "return":
            if s.value is not None:
                err(s, "return with a value")
            out.append(f"jump {end}")
        elif k == "exit":
            # the whole control ends, from an action called in its apply
            # block too; a table's action cannot end its caller
            if self.exit_label is None:
                err(s, "exit in an action a table runs is not supported "
                    "(P4TC runs it as its own program): return, then exit in "
                    "the apply block")
            out.append(f"jump {self.exit_target()}")
        elif k == "assign" and self.hdr_ref(s.lhs, {self.chdr}) is not None:
            self.header_copy(s, out)
        elif k == "assign":
            self.compute(s.rhs, self.lvalue(s.lhs, params), out, params)
        elif k == "if" and self.const_value(s.cond) is not None:
            # decided now: the side taken only
            taken = s.then if self.const_value(s.cond) else s.els
            if taken is not None:
                self.stmt(taken, out, params, end, where)
        elif k == "if" and s.els is None and self.is_return(s.then) and \
                (self.is_return(s.then) == "return" or self.exit_label):
            # if (c) return; / exit;: one branch to where it goes (an exit
            # in an action called from the apply block ends the control,
            # not the action)
            self.branch(s.cond, end if self.is_return(s.then) == "return"
                        else self.exit_target(), True, out, params)
        elif k == "if":
            els = self.new_label()
            self.branch(s.cond, els, False, out, params)
            self.stmt(s.then, out, params, end, where)
            if s.els is not None:
                done = self.new_label()
                out.append(f"jump {done}")
                out.append(f"label {els}")
                self.stmt(s.els, out, params, end, where)
                out.append(f"label {done}")
            else:
                out.append(f"label {els}")
        elif k == "callstmt":
            self.call(s.call, out, params, where)
        elif k == "switch":
            self.switch(s, out, params, end, where)
        elif k == "var":
            self.declare(s, self.scope_name, out, params)
        elif k == "const":
            if self.const_value(s.value) is None:
                err(s.value, "a constant's value must be known when compiling")
            self.consts[s.name] = s
        else:
            err(s, f"{k} statements are not supported")

    def switch(self, s, out, params, end, where):
        """switch (t.apply().action_run): every action of the program
        notes its number in the compiler's metadata pna_action_run, which
        is 0 before the apply; the cases compare it."""
        e = s.expr
        if not (e.kind == "member" and e.name == "action_run" and
                e.a.kind == "call" and e.a.fn.kind == "member" and
                e.a.fn.name == "apply" and e.a.fn.a.kind == "name" and
                e.a.fn.a.name in self.tables):
            self.switch_value(s, out, params, end, where)
            return
        table = self.tables[e.a.fn.a.name]
        names = [a.name for a, _ in next(
            t for t in self.table_info if t["node"] is table)["acts"]]
        var = f"metadata.{self.pname}.pna_action_run"
        out.append(f"set {var} constant.bit32.0x0")
        self.call(e.a, out, params, where)
        seen = set()

        def compare(c, lab):
            if c.label.kind != "name" or c.label.name not in names:
                err(c, f"a case of this switch names an action of "
                    f"{table.name}: {', '.join(names)}")
            if c.label.name in seen:
                err(c, f"{c.label.name} twice")
            seen.add(c.label.name)
            num = self.action_number(c.label.name)
            out.append(f"beq {var} constant.bit32.{num:#x} control jump {lab} / pipe")

        self.switch_cases(s, out, params, end, where, compare)

    def switch_value(self, s, out, params, end, where):
        """switch (x) on a bit<N> or int<N> value (P4-16 12.7): X once,
        then a beq on each case's constant."""
        e = s.expr
        w = self.ewidth(e, params)
        if w is None or self.is_bool(e):
            err(s, "switch on t.apply().action_run or on a bit<N> or "
                "int<N> value")
        signed = bool(self.esigned(e, params))
        v = self.with_sign(self.value(e, out, params), signed, out, params)
        seen = set()

        def compare(c, lab):
            n = self.const_value(c.label)
            if n is None:
                err(c.label, "a case label must be a constant")
            k = self.with_sign(self.operand(c.label, "read", params, w),
                               signed, out, params)
            if k[0] in seen:
                err(c, f"case {n} twice")
            seen.add(k[0])
            out.append(f"beq {v[0]} {k[0]} control jump {lab} / pipe")

        self.switch_cases(s, out, params, end, where, compare)

    def switch_cases(self, s, out, params, end, where, compare):
        """The cases of switch S: COMPARE(case, label) writes the jump to
        LABEL when the case's label matches; a case without a body falls
        through to the next one's, as P4 says."""
        done = self.new_label()
        labels, default = [], None
        for c in s.cases:
            lab = self.new_label()
            if c.label is None:
                default = lab
            else:
                compare(c, lab)
            labels.append((lab, c))
        out.append(f"jump {default or done}")
        for lab, c in labels:
            out.append(f"label {lab}")
            if c.body is not None:
                self.stmt(c.body, out, params, end, where)
                out.append(f"jump {done}")
        out.append(f"label {done}")

    def action_number(self, name):
        self.pna_used.add("pna_action_run")
        return list(self.actions).index(name) + 1

    @staticmethod
    def is_return(s):
        """"return" or "exit" when S is only that (without a value)."""
        while s.kind == "block" and len(s.body) == 1:
            s = s.body[0]
        if s.kind in ("return", "exit") and getattr(s, "value", None) is None:
            return s.kind
        return None

    def header_copy(self, s, out):
        """hdr.a = hdr.b (headers of one type): field by field.  P4 also
        copies validity: the destination must be valid already."""
        dst = self.hdr_ref(s.lhs, {self.chdr})
        src = self.hdr_ref(s.rhs, {self.chdr})
        if src is None:
            err(s.rhs, "a header is assigned a header of the headers struct")
        if src.decl is not dst.decl:
            err(s, f"{dst.name} and {src.name} are headers of different types")
        if dst.alias_of is not None or src.alias_of is not None or \
                dst.lenfield or src.lenfield:
            err(s, "copying headers of variable length is not supported")
        fld = f"hdrfield.{self.pname}.{self.parser_name}"
        for f in dst.fields:
            out.append(f"set {fld}.{dst.name}.{f} {fld}.{src.name}.{f}")

    def compare(self, c, out, params):
        """The operands of comparison C: a constant takes the other
        side's width, and both are signed for the kernel exactly when
        the comparison is of int<N>s."""
        if self.const_value(c.a) is None:
            a = self.value(c.a, out, params)
            b = self.value(c.b, out, params, self.ewidth(c.a, params) or a[1])
        else:
            b = self.value(c.b, out, params)
            a = self.value(c.a, out, params, self.ewidth(c.b, params) or b[1])
        signed = bool(self.esigned(c.a, params) or self.esigned(c.b, params))
        if signed:
            for x, v in ((c.a, a), (c.b, b)):
                n = self.const_value(x)
                if n is not None and self.esigned(x, params) is None and \
                        not -(1 << v[1] - 1) <= n < 1 << v[1] - 1:
                    err(x, f"{n} does not fit in int<{v[1]}>")
        return (self.with_sign(a, signed, out, params),
                self.with_sign(b, signed, out, params))

    def branch(self, c, label, when, out, params):
        """Jump to LABEL when C is WHEN, fall through otherwise."""
        if self.const_value(c) is not None and self.is_bool(c):
            # decided now: a jump, or nothing
            if bool(self.const_value(c)) == when:
                out.append(f"jump {label}")
        elif c.kind == "call" and c.fn.kind == "member" and c.fn.name == "isValid":
            if c.args:
                err(c, "isValid() takes no argument")
            self.branch(self.valid_cond(c), label, when, out, params)
        elif c.kind == "member" and c.name in ("hit", "miss") and \
                c.a.kind == "call" and c.a.fn.kind == "member" and \
                c.a.fn.name == "apply":
            self.call(c.a, out, params, self.where)
            ctl = f"jump {label} / pipe" if when else f"pipe / jump {label}"
            out.append(f"beq results.{c.name} constant.bit1.1 control {ctl}")
        elif c.kind == "unop" and c.op == "!":
            self.branch(c.a, label, not when, out, params)
        elif c.kind == "binop" and c.op in ("&&", "||"):
            if (c.op == "||") == when:
                # either side decides alone: (a || b) holds, (a && b) fails
                self.branch(c.a, label, when, out, params)
                self.branch(c.b, label, when, out, params)
            else:
                # the first side can only rule the jump out
                skip = self.new_label()
                self.branch(c.a, skip, not when, out, params)
                self.branch(c.b, label, when, out, params)
                out.append(f"label {skip}")
        elif c.kind == "binop" and c.op in CMP_OPS:
            a, b = self.compare(c, out, params)
            ctl = f"jump {label} / pipe" if when else f"pipe / jump {label}"
            out.append(f"{CMP_OPS[c.op]} {a[0]} {b[0]} control {ctl}")
        elif self.const_value(c) is None:
            # a value of type bool (a variable, a field): 1 holds
            v = self.value(c, out, params)
            ctl = f"jump {label} / pipe" if when else f"pipe / jump {label}"
            out.append(f"bne {v[0]} constant.bit{v[1]}.0x0 control {ctl}")
        elif bool(self.const_value(c)) == when:
            out.append(f"jump {label}")

    # -- header validity, from the parse graph ---------------------------------
    def valid_cond(self, c):
        """hdr.h.isValid() as a condition on the fields the parse graph
        selected on: P4TC's commands have no validity test, but when the
        control runs the graph accepted the packet, so h is valid exactly
        when the packet took one of the graph's ways to h."""
        h = self.hdr_ref(c.fn.a, {self.chdr})
        if h is None:
            err(c, "isValid() of a header of the headers struct")
        if self.changes_validity:
            return Node("binop", c.loc, op="!=",
                        a=Node("name", c.loc, name=f"__valid_{h.name}"),
                        b=Node("int", c.loc, value=0, width=None, signed=False))
        return self.path_cond(h, c, set())

    def path_cond(self, h, at, seen):
        loc = at.loc
        if h is self.start[0]:
            return Node("bool", loc, value=True)
        if h.name in seen:
            err(at, "a parse graph loop")
        alts = []
        for p in self.graph_order:
            sel, cases, default = self.trans[p.name]
            field = None
            if sel is not None:
                full = (1 << p.fields[sel][1]) - 1
                field = Node("member", loc, name=sel, a=Node(
                    "member", loc, name=p.name, a=Node("name", loc, name=self.chdr)))
            def match(v, m, neg=False):
                # (field & m) == v: the case's transition taken, or not
                f = field if m == full else Node(
                    "binop", loc, op="&", a=field,
                    b=Node("int", loc, value=m, width=None, signed=False))
                return Node("binop", loc, op="!=" if neg else "==", a=f,
                            b=Node("int", loc, value=v, width=None, signed=False))

            for i, (v, m, nxt) in enumerate(cases):
                if not (isinstance(nxt, tuple) and nxt[0] is h):
                    continue
                # the first case that matches wins: this one, and none
                # before it that a value of this one's can match too
                before = [(v2, m2) for v2, m2, _ in cases[:i]
                          if (v ^ v2) & m & m2 == 0]
                if any(m2 & m == m2 for _, m2 in before):
                    continue        # an earlier case takes all its values
                alts.append(self.all_of(loc, [
                    self.path_cond(p, at, seen | {h.name}), match(v, m)] +
                    [match(v2, m2, True) for v2, m2 in before]))
            if isinstance(default, tuple) and default[0] is h:
                alts.append(self.all_of(loc, [
                    self.path_cond(p, at, seen | {h.name})] +
                    [match(v, m, True) for v, m, _ in cases]))
        if not alts:
            return Node("bool", loc, value=False)
        c = alts[0]
        for a in alts[1:]:
            c = Node("binop", loc, op="||", a=c, b=a)
        return c

    @staticmethod
    def all_of(loc, conds):
        conds = [c for c in conds if not (c.kind == "bool" and c.value)]
        if any(c.kind == "bool" for c in conds):
            return Node("bool", loc, value=False)
        if not conds:
            return Node("bool", loc, value=True)
        c = conds[0]
        for a in conds[1:]:
            c = Node("binop", loc, op="&&", a=c, b=a)
        return c

    def port_operand(self, c, params, hint):
        """The port argument of send_to_port() or send_copy_to_port()."""
        name = c.fn.name
        if len(c.args) != 1:
            err(c, f"{name} takes a port")
        p = self.operand(c.args[0], "read", params, 32)
        if p[2] != "dev":
            err(c.args[0], f'{name}\'s port must be of @tc_type("dev"){hint}')
        return p

    def call(self, c, out, params, where):
        fn = c.fn
        if fn.kind == "name":
            if fn.name == "drop_packet":
                out.append(f"set metadata.{self.pname}.pna_drop constant.bit8.0x1")
                return
            if fn.name == "send_to_port":
                p = self.port_operand(c, params, " (a parameter or metadata "
                                      "holding an ifindex)")
                if id(c) in self.final_sends:
                    out.append(f"send_port_egress {p[0]}")
                    return
                out.append(f"set metadata.{self.pname}.pna_port {p[0]}")
                # the last call wins: a send after a drop sends
                if "pna_drop" in self.pna_used:
                    out.append(f"set metadata.{self.pname}.pna_drop constant.bit8.0x0")
                return
            if fn.name == "send_copy_to_port":
                p = self.port_operand(c, params, "")
                out.append(f"mirror_port_egress {p[0]}")
                return
            if fn.name in self.externs:
                err(c, f"extern {fn.name}() is not supported by P4TC's datapath")
            if fn.name in self.actions or fn.name in self.actions_top:
                self.inline(c, out, params, where)
                return
            err(c, f"unknown function {fn.name}")
        if fn.kind == "member" and fn.a.kind == "name" and \
                fn.a.name in self.checksums:
            self.checksum_call(c, out, params)
            return
        if fn.kind == "member" and fn.a.kind == "name" and fn.name == "count" \
                and fn.a.name in self.counters:
            self.count(c, out, params)
            return
        if fn.kind == "member" and fn.a.kind == "name" and fn.name == "count" \
                and fn.a.name in self.direct_counters:
            if c.args:
                err(c, "a direct counter's count() takes no argument")
            return      # the table's entries count their hits
        if fn.kind == "member" and fn.name == "apply" and fn.a.kind == "name" \
                and fn.a.name in self.tables:
            if where != "apply":
                err(c, "tables are applied in the control's apply block")
            out.append(f"tableapply table.{self.pname}.{self.control.name}/"
                       f"{self.tc_name(fn.a.name)}")
            return
        if fn.kind == "member" and fn.name == "write" and fn.a.kind == "name" \
                and fn.a.name in self.registers:
            if len(c.args) != 2:
                err(c, "write(index, value)")
            dst, w = self.register_elem(c, params)
            self.compute(c.args[1], (dst, w, f"bit{w}"), out, params)
            return
        if fn.kind == "member" and fn.name in ("setValid", "setInvalid"):
            h = self.hdr_ref(fn.a, {self.chdr})
            if h is None:
                err(c, f"{fn.name}() of a header of the headers struct")
            if c.args:
                err(c, f"{fn.name}() takes no argument")
            if h.name not in self.trans:
                err(c, f"{fn.name}() of {h.name}, which the parser never "
                    "extracts: P4TC puts a header where the parse graph has it")
            out.append(f"{fn.name.lower()} header.{self.pname}."
                       f"{self.parser_name}.{h.name}")
            flag = self.lookup(f"__valid_{h.name}")
            if flag is not None:
                out.append(f"set {flag[0]} constant.bit8."
                           f"{int(fn.name == 'setValid'):#x}")
            return
        if fn.kind == "member" and fn.name == "isValid":
            err(c, "isValid() is not supported yet")
        if fn.kind == "member" and fn.name in ("push_front", "pop_front"):
            err(c, f"{fn.name}() is not supported: P4TC moves no headers "
                "within a stack (setValid/setInvalid of an element do)")
        err(c, "this call is not supported")

    def inline(self, c, out, params, where):
        """An action called as a function: its body, here, with its
        parameters bound to copies of the arguments (P4 evaluates them
        before the call)."""
        name = c.fn.name
        a = self.actions.get(name) or self.actions_top[name]
        if name in self.inlining:
            err(c, f"{name} calls itself")
        if len(c.args) != len(a.params):
            err(c, f"{name} takes {len(a.params)} arguments")
        ps = self.param_types(a, called=True)
        bind, back = {}, []
        for p, arg in zip(a.params, c.args):
            w, tct = ps[p.name]
            v = self.compiler_meta(f"pna_{name}_{p.name}", w,
                                   None if tct == f"bit{w}" else tct)
            if p.dir in ("out", "inout"):
                # copied out when the body ends (P4's copy-in/copy-out)
                lv = self.lvalue(arg, params)
                if lv[1] != w:
                    err(arg, f"a {lv[1]}-bit argument for {w}-bit {p.dir} "
                        f"parameter {p.name}")
                back.append((lv, v))
            if p.dir != "out":
                self.compute(arg, v, out, params)
            bind[p.name] = v
        saved = self.scopes, self.scope_name
        self.scopes, self.scope_name = [self.control_scope, bind], name
        self.inlining.append(name)
        end = self.new_label()
        # an exit in the body copies the out parameters out too, as P4 does
        outer_exit = self.exit_label
        if back and outer_exit is not None:
            self.exit_label = self.new_label()
        self.stmt(a.body, out, None, end, where)
        inner_exit, self.exit_label = self.exit_label, outer_exit
        out.append(f"label {end}")
        copy = [f"set {lv[0]} {v[0]}" for lv, v in back]
        out += copy
        if inner_exit != outer_exit and inner_exit in self.exits_taken:
            skip = self.new_label()
            out += [f"jump {skip}", f"label {inner_exit}"] + copy + \
                [f"jump {self.exit_target()}", f"label {skip}"]
        self.inlining.pop()
        self.scopes, self.scope_name = saved

    # -- externs -----------------------------------------------------------------
    def checksum_words(self, data, out, params):
        """DATA (a list, or one value) as 16-bit words: (operand, pieces)."""
        items = data.items if data.kind == "list" else [data]
        bits = []       # (operand, width) of each item, most significant first
        for it in items:
            w = self.ewidth(it, params)
            if w is None:
                err(it, "a constant's width is not known here; cast it: (bit<N>)")
            bits.append((self.widen(self.value(it, out, params, w), w, out), w))
        total = sum(w for _, w in bits)
        if total % 8:
            err(data, f"checksum data of {total} bits: whole bytes only")
        if total % 16:
            bits.append((("constant.bit8.0x0", 8, None), 8))   # RFC 1071's pad
        words, word, filled = [], [], 0
        for v, w in bits:
            at = 0                          # bits of v already taken, from the top
            while at < w:
                n = min(w - at, 16 - filled)
                hi = w - 1 - at
                word.append(self.slice_of(v, hi - n + 1, hi, out, data))
                at += n
                filled += n
                if filled == 16:
                    words.append(word)
                    word, filled = [], 0
        result = []
        for pieces in words:
            if len(pieces) == 1:
                result.append(pieces[0])
            else:
                t = self.tmp(16)
                self.concat_ops(pieces, t, out)
                result.append(t)
        return result

    def checksum_call(self, c, out, params):
        """clear(), add(data), subtract(data), set_state(s) of an
        InternetChecksum: a ones' complement sum in 32 bits, the carries
        folded back by get()."""
        acc = self.checksums[c.fn.a.name][0]
        m = c.fn.name
        if m == "clear" and not c.args:
            out.append(f"set {acc} constant.bit32.0x0")
        elif m in ("add", "subtract") and len(c.args) == 1:
            for wd in self.checksum_words(c.args[0], out, params):
                if m == "subtract":
                    t = self.tmp(16)
                    out.append(f"bxor {t[0]} {wd[0]} constant.bit16.0xffff")
                    wd = t
                out.append(f"plus {acc} {acc} {wd[0]}")
        elif m == "set_state" and len(c.args) == 1:
            v = self.value(c.args[0], out, params, 16)
            out.append(f"set {acc} {v[0]}")
        elif m in ("get", "get_state"):
            err(c, f"{m}() returns a value: use it")
        else:
            err(c, f"InternetChecksum has no method {m} with "
                f"{len(c.args)} arguments")

    def value_call(self, e, out=None, params=None):
        """A call with a value the commands compute (InternetChecksum's
        get() and get_state()): None for other calls; the operand, or
        only its width when OUT is None."""
        fn = e.fn
        if not (fn.kind == "member" and fn.a.kind == "name" and
                fn.a.name in getattr(self, "checksums", {}) and
                fn.name in ("get", "get_state")):
            return None
        if e.args:
            err(e, f"{fn.name}() takes no argument")
        if out is None:
            return ("", 16, None)
        acc = self.checksums[fn.a.name][0]
        t = self.tmp(32)
        out.append(f"plus {t[0]} {acc}[0-15] {acc}[16-31]")
        out.append(f"plus {t[0]} {t[0]}[0-15] {t[0]}[16-31]")
        if fn.name == "get_state":
            return (f"{t[0]}[0-15]", 16, "bit16")
        r = self.tmp(16)
        out.append(f"bxor {r[0]} {t[0]}[0-15] constant.bit16.0xffff")
        return r

    def count(self, c, out, params):
        """Counter.count(index): one more packet, its bytes, or both."""
        name = c.fn.a.name
        w, n, kinds = self.counters[name]
        if len(c.args) != 1:
            err(c, "count(index)")
        i = self.const_value(c.args[0])
        if i is None:
            err(c.args[0], "counter indexes must be constants in P4TC's "
                "commands")
        if not 0 <= i < n:
            err(c.args[0], f"index {i} is outside counter {name} of {n} "
                "elements")
        for k in kinds:
            reg = name if len(kinds) == 1 else f"{name}_{k}"
            e = f"register.{self.pname}.{reg}[{i}]"
            by = f"constant.bit{w}.0x1" if k == "packets" else \
                "metadata.kernel.pktlen" + (f"[0-{w - 1}]" if w < 32 else "")
            out.append(f"plus {e} {e} {by}")

    # -- output ----------------------------------------------------------------
    @staticmethod
    def param_name(params, name):
        """A parameter's control-plane name: its @name, or its own."""
        return params.cp.get(name, name)

    def param_types(self, a, called=False):
        """An action's parameters' (width, tc type).  Parameters with a
        direction only when the action is CALLED (inlined): a table's
        actions take theirs from the entry."""
        ps = ParamTypes()
        if len(a.params) > 32:
            err(a, f"action {a.name} takes {len(a.params)} parameters; P4TC's "
                "actions take 32")
        for p in a.params:
            if p.dir is not None and not called:
                err(p, f"action {a.name} has parameters with a direction: "
                    "called from the control it may, a table's actions take "
                    "directionless ones (from the entry)")
            w = self.width_of(p.type, p)
            ps[p.name] = (w, self.obj_tct(p.annos, p.type, w, f"bit{w}"))
            n = anno(p.annos, "name")
            if n:
                if len(n.args) != 1 or n.args[0].kind != "string":
                    err(n, '@name("NAME")')
                ps.cp[p.name] = n.args[0].value
        return ps

    def script(self):
        P = self.pname
        L = []
        ntables = len(self.table_info)
        pid = f" pipeid {self.pipeid}" if self.pipeid else ""
        L.append(f"p4template create pipeline/{P}{pid} numtables {ntables}")
        par = self.parser_name
        # a header's length field exists before the header names it
        for h in self.graph_order:
            for fname, (off, w, tct) in h.fields.items():
                L.append(f"p4template create hdrfield/{P}/{par}/{h.name}/{fname} "
                         f"type {kernel_type(tct, True)} offset {off}")
            L.append(self.header_line(h, "create"))
        for h in self.graph_order:
            sel, cases, default = self.trans[h.name]
            if sel is None and default == "accept":
                continue
            line = f"p4template update header/{P}/{par}/{h.name}"
            if sel is not None:
                line += f" select {sel}"
                for v, m, nxt in cases:
                    w = h.fields[sel][1]
                    val = f"{v:#x}" if m == (1 << w) - 1 else f"{v:#x}/{m:#x}"
                    line += f" transition {val} {self.next_name(nxt)}"
            line += f" default {self.next_name(default)}"
            L.append(line)
        names = {}
        for x in list(self.actions) + [t["node"].name for t in self.table_info]:
            n = self.tc_name(x)
            kind = "table" if x in self.tables else "action"
            if (kind, n) in names and names[(kind, n)] != x:
                err(self.control, f"{kind}s {names[(kind, n)]} and {x} are both "
                    f"named {n} in tc (@name)")
            names[(kind, n)] = x
        # the actions first: what they call decides the compiler's metadata
        # an action with directional parameters is only ever inlined
        action_lines = [x for a in self.actions.values()
                        if not any(p.dir for p in a.params) and
                        not a.f.get("function")
                        for x in self.action_line(a)]
        apply, apply_parts = self.apply_cmds + self.epilogue(), []
        if len(apply) > MAX_CMDS:
            apply, apply_parts = self.split_apply(self.epilogue())
        meta = dict(self.meta)
        meta.update({k: v for k, v in self.pna.items() if k in self.pna_used})
        bits = sum(container_bits(w, tct) for w, tct in meta.values())
        if bits > 1024:
            own = sum(container_bits(w, tct) for w, tct in self.meta.values())
            err(self.control, f"the program needs {bits} bits of metadata "
                f"({own} its own, the rest the compiler's temporaries, "
                "variables and flags); P4TC holds 1024")
        for name, (w, tct) in meta.items():
            L.append(f"p4template create metadata/{P}/{name} type "
                     f"{kernel_type(tct or f'bit{w}')}")
        for name, (w, n) in self.registers.items():
            fam = "int" if name in self.signed_registers else "bit"
            L.append(f"p4template create register/{P}/{name} type {fam}{w} "
                     f"numelems {n}")
        L += action_lines
        for t in self.table_info:
            L.append(f"p4template create table/{P}/{self.control.name}/{t['name']} "
                     f"tblid {t['id']} type {t['type']} keysz {t['keysz']} "
                     f"tentries {t['size']}"
                     + (f" nummasks {t['nummask']}" if t['nummask'] else "")
                     + (" permissions 0x109" if t["entries"] else "")
                     + (" permissions 0x189" if not t["keys"] else ""))
        # a key action writes its table's key: the table exists first
        for t in self.table_info:
            if t["keys"]:
                L.append(self.key_action_line(t))
        for t in self.table_info:
            line = f"p4template update table/{P}/{self.control.name}/{t['name']}"
            if t["keys"]:
                line += f" key action {P}/{self.control.name}/{t['name']}_key"
            if t["default_hit"]:
                act, const = t["default_hit"]
                line += " default_hit_action"
                if const or t["entries"]:
                    line += " permissions 0x109"
                line += f" action {self.action_path(act.name)}"
            if t["default"]:
                act, args, const, override = t["default"]
                line += " default_miss_action"
                # a table of const entries is read-only, its default
                # action too: the kernel allows it no more than its table
                if const or t["entries"]:
                    # control: read (and update, @tc_may_override); datapath RX
                    line += " permissions 0x189" if override else " permissions 0x109"
                elif not t["keys"]:
                    line += " permissions 0x189"    # no more than its table
                line += f" action {self.action_path(act.name)}"
                for w in self.param_words(act, args):
                    line += " " + w
            line += " table_acts"
            for act, flags in t["acts"]:
                line += f" act name {self.action_path(act.name)}"
                if flags:
                    line += f" flags {flags}"
            for e in t["entries"]:
                line += " entry " + e
            L.append(line)
        L += apply_parts
        L.append(f"p4template create action/{P}/{self.control.name}/apply "
                 + " ".join(f"cmd {c}" for c in apply) + " state active")
        L.append(f"p4template update pipeline/{P} preactions action "
                 f"{P}/{self.control.name}/apply pipe postactions action gact pipe")
        L.append(f"p4template update pipeline/{P} state ready")
        return L

    def epilogue(self):
        """What PNA does once the control ends: drop, send, or the host."""
        P = self.pname
        out = []
        if "pna_drop" in self.pna_used:
            out.append(f"bne metadata.{P}.pna_drop constant.bit8.0x0 control drop / pipe")
        if "pna_port" in self.pna_used:
            host = self.new_label()
            out += [f"beq metadata.{P}.pna_port constant.bit32.0x0 control jump {host} / pipe",
                    f"send_port_egress metadata.{P}.pna_port",
                    f"label {host}"]
        return out

    def next_name(self, n):
        if isinstance(n, tuple):
            return n[0].name
        return n

    def header_line(self, h, verb):
        P, par = self.pname, self.parser_name
        line = f"p4template {verb} header/{P}/{par}/{h.name} len {h.len}"
        if h.lenfield:
            line = f"p4template {verb} header/{P}/{par}/{h.name} len {h.len} " \
                f"maxlen {h.maxlen} lenfield {h.lenfield} lenmult {h.lenmult}"
            if h.lenadd:
                line += f" lenadd {h.lenadd}"
        if h is self.start[0]:
            line += " start"
        return line

    def action_line(self, a):
        """An action's template (after its parts' when it is long)."""
        ps = self.param_types(a)
        self.scopes, self.scope_name = [self.control_scope, {}], a.name
        cmds = self.stmts_to_cmds(a.body, ps, "action")
        pre = []
        if "pna_action_run" in self.pna_used:
            pre.append(f"set metadata.{self.pname}.pna_action_run "
                       f"constant.bit32.{self.action_number(a.name):#x}")
        cmds = pre + cmds
        parts = []
        if len(cmds) > MAX_CMDS:
            self.scopes = [self.control_scope, {}]
            self.where, self.exit_label = "action", None
            flag = self.compiler_meta("pna_ret_t", 8)
            segs = [x for st in a.body.body for x in self.segments(st, ps, "action")]
            end = self.new_label()
            cmds = prune_labels(
                pre + [f"set {flag[0]} constant.bit8.0x0"] +
                [x.replace("__END__", end)
                 for x in self.part_calls(segs, a.name, ps, flag, parts)] +
                [f"label {end}"])
            if len(cmds) > MAX_CMDS:
                err(a, f"action {a.name} needs {len(cmds)} commands even in "
                    f"parts: P4TC runs at most {MAX_CMDS} in one action")
        line = f"p4template create action/{self.action_path(a.name)}"
        for p in a.params:
            w, tct = ps[p.name]
            line += f" param {self.param_name(ps, p.name)} type {kernel_type(tct)}"
        for c in cmds:
            line += f" cmd {c}"
        return parts + [line + " state active"]

    def key_action_line(self, t):
        line = (f"p4template create action/{self.pname}/{self.control.name}/"
                f"{t['name']}_key")
        for name, opnd, off, w, tct, match in t["keys"]:
            line += (f" cmd set key.{self.pname}.{self.control.name}/{t['name']}"
                     f"[{off}-{off + w - 1}] {opnd}")
        return line + " state active"

    def introspection(self):
        tables = []
        for t in self.table_info:
            acts = []
            for i, (act, flags) in enumerate(t["acts"], 1):
                ps = self.param_types(act)
                scope = {"tableonly": "TableOnly", "defaultonly": "DefaultOnly"}.get(
                    flags, "TableAndDefault")
                acts.append({"id": i, "name": self.action_path(act.name),
                             "action_scope": scope,
                             "params": [{"id": j, "name": self.param_name(ps, p.name),
                                         "type": ps[p.name][1],
                                         "bitwidth": ps[p.name][0]}
                                        for j, p in enumerate(act.params, 1)]})
            tables.append({
                "name": f"{self.control.name}/{t['name']}", "id": t["id"],
                "tentries": t["size"],
                "nummask": t["nummask"] or (8 if t["type"] == "ternary" else 1),
                "keysize": t["keysz"], "keyid": 1,
                "keyfields": [{"id": i, "name": name, "type": tct,
                               "match_type": match, "bitwidth": w}
                              for i, (name, _, _, w, tct, match) in
                              enumerate(t["keys"], 1)],
                "actions": acts})
        return {"schema_version": "1.0.0", "pipeline_name": self.pname,
                "id": self.pipeid or 1, "tables": tables}


# P4TC's annotations (upstream P4TC's compiler knows them): each one is
# honoured where the compiler reads it, and refused anywhere else
P4TC_ANNOS = {"tc_type", "nummask", "tc_may_override", "default_hit",
              "default_hit_const", "tableonly", "defaultonly", "name"}


def select_by_direction(node):
    """PNA's SelectByDirection(d, n2h, h2n), everywhere below NODE, as
    the expression it means: d == NET_TO_HOST ? n2h : h2n."""
    if isinstance(node, list):
        for i, x in enumerate(node):
            node[i] = select_by_direction(x)
        return node
    if not isinstance(node, Node):
        return node
    for k, v in node.f.items():
        node.f[k] = select_by_direction(v)
    if node.kind == "call" and node.fn.kind == "name" and \
            node.fn.name == "SelectByDirection":
        if len(node.args) != 3 or None in node.args:
            err(node, "SelectByDirection(direction, n2h_value, h2n_value)")
        d, a, b = node.args
        loc = node.loc
        n2h = Node("member", loc, a=Node("name", loc, name="PNA_Direction_t"),
                   name="NET_TO_HOST")
        return Node("cond", loc, cond=Node("binop", loc, op="==", a=d, b=n2h),
                    a=a, b=b)
    return node


def unhonoured(node):
    """Refuse a P4TC annotation in NODE's tree the compiler did not read."""
    if isinstance(node, Node):
        if node.kind == "anno" and node.name in P4TC_ANNOS and \
                not node.f.get("honoured"):
            err(node, f"@{node.name} is not supported here")
        for k, v in node.f.items():
            if k != "honoured":
                unhonoured(v)
    elif isinstance(node, list):
        for v in node:
            unhonoured(v)


def find_calls(node, match):
    """The call nodes in NODE's tree that MATCH (a predicate) holds for."""
    if isinstance(node, Node):
        here = [node] if node.kind == "call" and match(node) else []
        return here + [x for v in node.f.values() for x in find_calls(v, match)]
    if isinstance(node, list):
        return [x for v in node for x in find_calls(v, match)]
    return []


def function(name):
    """A predicate of find_calls(): a call of the function NAME."""
    return lambda c: c.fn.kind == "name" and c.fn.name == name


def method(name):
    """A predicate of find_calls(): a call of a method NAME (x.NAME())."""
    return lambda c: c.fn.kind == "member" and c.fn.name == name


def prune_labels(cmds):
    """Labels no command jumps to, and jumps to the very next command, go."""
    out = list(cmds)
    changed = True
    while changed:
        changed = False
        for i, c in enumerate(out):
            if c.startswith("jump ") and i + 1 < len(out) and \
                    out[i + 1] == f"label {c[5:]}":
                del out[i]
                changed = True
                break
        used = set()
        for c in out:
            for word in ("jump ",):
                at = c.find(word)
                while at >= 0:
                    used.add(c[at + 5:].split()[0])
                    at = c.find(word, at + 1)
        keep = [c for c in out if not (c.startswith("label ") and
                                       c[6:] not in used)]
        if len(keep) != len(out):
            out = keep
            changed = True
    return out


def compile_program(decls, pname, pipeid=None):
    return Program(decls, pname, pipeid).compile()
