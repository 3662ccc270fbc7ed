"""A recursive-descent parser for the P4-16 the compiler takes.

P4's grammar needs to know which names are types ("T x;" declares, "f(x);"
calls; "(T) x" casts, "(a) + b" adds): p4c's lexer keeps the declared
type names for its parser.  Here the parser keeps them itself, as it meets
their declarations, which a recursive descent does naturally; every
refusal names the place and what was expected there.

Constructs outside the subset the compiler lowers still parse when their
syntax is simple (header unions, value sets, ranges in select): check.py
refuses them with a message that names them, not a syntax error.
"""

from .lexer import parse_number
from .source import CompileError
from .syntax import Node

BASE_TYPES = {"bit", "int", "varbit", "bool", "void", "error", "string",
              "match_kind"}

SOFT_KEYWORDS = {"apply", "key", "actions", "state", "entries", "type"}

# Binary operators by precedence, loosest first (P4-16 spec, 8.x)
# lowest first, as p4c's grammar has them: unlike C, & ^ | bind tighter
# than comparisons ("x & 2 != 0" is "(x & 2) != 0"), and ++ is at the
# level of + and -
BINARY = [
    ["||"], ["&&"], ["==", "!="], ["<", ">", "<=", ">="],
    ["|"], ["^"], ["&"], ["<<", ">>"],
    ["++", "+", "-", "|+|", "|-|"], ["*", "/", "%"],
]


class Parser:
    def __init__(self, toks):
        self.toks = toks
        self.i = 0
        self.types = set()

    # -- tokens ------------------------------------------------------------
    @property
    def tok(self):
        return self.toks[self.i]

    def peek(self, k=1):
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def at(self, text, k=0):
        t = self.peek(k) if k else self.tok
        return t.kind in ("kw", "punct") and t.text == text

    def next(self):
        t = self.tok
        if t.kind != "eof":
            self.i += 1
        return t

    def accept(self, text):
        if self.at(text):
            return self.next()
        return None

    def error(self, what, tok=None):
        tok = tok or self.tok
        found = "end of file" if tok.kind == "eof" else f"'{tok.text}'"
        raise CompileError(tok.loc, f"expected {what}, found {found}")

    def expect(self, text):
        if not self.at(text):
            self.error(f"'{text}'")
        return self.next()

    def name(self, what="a name"):
        t = self.tok
        # the spec's nonTypeName: these keywords are names elsewhere
        if t.kind != "name" and not (t.kind == "kw" and t.text in SOFT_KEYWORDS):
            self.error(what)
        return self.next()

    def at_shift_right(self):
        """Two adjacent '>' (the lexer has no '>>', see lexer.py)."""
        a, b = self.tok, self.peek()
        return (a.kind == "punct" and a.text == ">" and b.kind == "punct" and
                b.text == ">" and a.loc.line == b.loc.line and
                b.loc.col == a.loc.col + 1)

    # -- annotations -------------------------------------------------------
    def annotations(self):
        annos = []
        while self.at("@"):
            at = self.next()
            name = self.tok
            if name.kind not in ("name", "kw"):
                self.error("an annotation name")
            self.next()
            args = []
            if self.accept("("):
                while not self.at(")"):
                    if self.tok.kind == "string":
                        t = self.next()
                        args.append(Node("string", t.loc, value=t.text[1:-1]))
                    else:
                        args.append(self.expression())
                    if not self.accept(","):
                        break
                self.expect(")")
            elif self.at("["):
                self.error("an annotation P4TC knows (structured annotations are not supported)")
            annos.append(Node("anno", at.loc, name=name.text, args=args))
        return annos

    # -- types -------------------------------------------------------------
    def is_type_start(self, k=0):
        t = self.peek(k) if k else self.tok
        return ((t.kind == "kw" and t.text in BASE_TYPES | {"tuple"}) or
                (t.kind == "name" and t.text in self.types))

    def type_args(self):
        self.expect("<")
        args = []
        while True:
            args.append(self.type_ref())
            if not self.accept(","):
                break
        # the closing '>' may be the first of a '>>' pair: either is one
        self.expect(">")
        return args

    def type_ref(self):
        t = self.tok
        if t.kind == "kw" and t.text in ("bit", "int", "varbit"):
            self.next()
            width = None
            if self.accept("<"):
                if self.tok.kind == "number":
                    n = self.next()
                    width = Node("int", n.loc, value=parse_number(n.text, n.loc)[0],
                                 width=None, signed=False)
                else:
                    self.expect("(")
                    width = self.expression()
                    self.expect(")")
                self.expect(">")
            elif t.text == "varbit":
                self.error("'<'")
            ty = Node("bits", t.loc, signed=t.text == "int",
                      varbit=t.text == "varbit", width=width)
        elif t.kind == "kw" and t.text in BASE_TYPES:
            self.next()
            ty = Node("named", t.loc, name=t.text, args=[])
        elif t.kind == "kw" and t.text == "tuple":
            self.next()
            ty = Node("named", t.loc, name="tuple", args=self.type_args())
        elif t.kind == "name":
            self.next()
            args = self.type_args() if self.at("<") else []
            ty = Node("named", t.loc, name=t.text, args=args)
        else:
            self.error("a type")
        if self.at("[") and not self.at("]", 1):
            lb = self.next()
            size = self.expression()
            self.expect("]")
            ty = Node("stack", lb.loc, elem=ty, size=size)
        return ty

    def type_params(self):
        params = []
        if self.accept("<"):
            while True:
                n = self.name("a type parameter")
                params.append(n.text)
                self.types.add(n.text)
                if not self.accept(","):
                    break
            self.expect(">")
        return params

    def params(self):
        self.expect("(")
        out = []
        while not self.at(")"):
            annos = self.annotations()
            d = None
            if self.tok.kind == "kw" and self.tok.text in ("in", "out", "inout"):
                d = self.next().text
            ty = self.type_ref()
            n = self.name("a parameter name")
            default = self.expression() if self.accept("=") else None
            out.append(Node("param", n.loc, name=n.text, type=ty, dir=d,
                            annos=annos, default=default))
            if not self.accept(","):
                break
        self.expect(")")
        return out

    # -- expressions -------------------------------------------------------
    def expression(self):
        e = self.binary(0)
        if self.at("?"):
            q = self.next()
            a = self.expression()
            self.expect(":")
            b = self.expression()
            e = Node("cond", q.loc, cond=e, a=a, b=b)
        return e

    def binary(self, level):
        if level == len(BINARY):
            return self.unary()
        e = self.binary(level + 1)
        ops = BINARY[level]
        while True:
            if ">>" in ops and self.at_shift_right():
                t = self.next()
                self.next()
                op = ">>"
            elif (self.tok.kind == "punct" and self.tok.text in ops and
                  not (self.tok.text == ">" and self.at_shift_right())):
                t = self.next()
                op = t.text
            else:
                return e
            r = self.binary(level + 1)
            e = Node("binop", t.loc, op=op, a=e, b=r)

    def unary(self):
        t = self.tok
        if t.kind == "punct" and t.text in ("!", "~", "-", "+"):
            self.next()
            return Node("unop", t.loc, op=t.text, a=self.unary())
        if self.at("(") and self.is_type_start(1) and not self.at("(", 2):
            # a cast: "(bit<8>) x", "(PortId_t) x"
            save = self.i
            self.next()
            ty = self.type_ref()
            if self.accept(")"):
                return Node("cast", t.loc, type=ty, a=self.unary())
            self.i = save
        return self.postfix()

    def args(self):
        self.expect("(")
        out = []
        while not self.at(")"):
            if self.tok.kind == "name" and self.tok.text == "_":
                self.next()
                out.append(None)
            else:
                out.append(self.expression())
            if not self.accept(","):
                break
        self.expect(")")
        return out

    def postfix(self):
        e = self.primary()
        while True:
            t = self.tok
            if self.accept("."):
                n = self.tok
                if n.kind not in ("name", "kw"):
                    self.error("a member name")
                self.next()
                e = Node("member", n.loc, a=e, name=n.text)
            elif self.at("<") and e.kind in ("name", "member") and self.is_type_start(1) \
                    and self._generic_call_ahead():
                targs = self.type_args()
                e = Node("call", e.loc, fn=e, targs=targs, args=self.args())
            elif self.at("("):
                e = Node("call", e.loc, fn=e, targs=[], args=self.args())
            elif self.accept("["):
                hi = self.expression()
                if self.accept(":"):
                    lo = self.expression()
                    self.expect("]")
                    e = Node("slice", t.loc, a=e, hi=hi, lo=lo)
                else:
                    self.expect("]")
                    e = Node("index", t.loc, a=e, index=hi)
            else:
                return e

    def _generic_call_ahead(self):
        """'f<T>(' rather than 'a < b': a '>' then '(' closes the list."""
        depth = 0
        for k in range(self.i, min(self.i + 40, len(self.toks))):
            t = self.toks[k]
            if t.kind == "punct" and t.text == "<":
                depth += 1
            elif t.kind == "punct" and t.text == ">":
                depth -= 1
                if depth == 0:
                    n = self.toks[k + 1]
                    return n.kind == "punct" and n.text == "("
            elif t.kind == "punct" and t.text in (";", "{", "}", ")"):
                return False
        return False

    def primary(self):
        t = self.tok
        if t.kind == "number":
            self.next()
            value, width, signed = parse_number(t.text, t.loc)
            return Node("int", t.loc, value=value, width=width, signed=signed)
        if t.kind == "kw" and t.text in ("true", "false"):
            self.next()
            return Node("bool", t.loc, value=t.text == "true")
        if t.kind == "string":
            self.next()
            return Node("string", t.loc, value=t.text[1:-1])
        if t.kind == "name" or (t.kind == "kw" and t.text in ("error", "this")):
            self.next()
            return Node("name", t.loc, name=t.text)
        if t.kind == "kw" and t.text in ("bit", "int", "bool", "varbit"):
            # a type in expression position: "bit<8>" is not a value
            self.error("an expression")
        if self.accept("("):
            e = self.expression()
            self.expect(")")
            return e
        if self.at("{"):
            lb = self.next()
            items = []
            while not self.at("}"):
                items.append(self.expression())
                if not self.accept(","):
                    break
            self.expect("}")
            return Node("list", lb.loc, items=items)
        self.error("an expression")

    # -- statements --------------------------------------------------------
    def block(self):
        lb = self.expect("{")
        body = []
        while not self.at("}"):
            if self.tok.kind == "eof":
                self.error("'}'")
            body.append(self.statement())
        self.expect("}")
        return Node("block", lb.loc, body=body)

    def at_declaration(self):
        """A type, then a name: "bit<8> x;", "T x = ...;", "Reg<T>(..) r;"."""
        if self.at("const"):
            return True
        if not self.is_type_start():
            return False
        save = self.i
        try:
            self.type_ref()
            return self.tok.kind == "name" or self.at("(")
        except CompileError:
            return False
        finally:
            self.i = save

    def declaration(self, annos):
        t = self.tok
        if self.accept("const"):
            ty = self.type_ref()
            n = self.name()
            self.expect("=")
            v = self.expression()
            self.expect(";")
            return Node("const", n.loc, name=n.text, type=ty, value=v,
                        annos=annos)
        ty = self.type_ref()
        if self.at("("):
            args = self.args()
            n = self.name("the instance's name")
            self.expect(";")
            return Node("instance", n.loc, type=ty, args=args, name=n.text,
                        annos=annos)
        n = self.name()
        if self.at("("):
            # a function (P4-16 9): "T name(params) { ... }"
            ps = self.params()
            body = self.block()
            return Node("function", n.loc, name=n.text, ret=ty, params=ps,
                        body=body, annos=annos)
        init = self.expression() if self.accept("=") else None
        self.expect(";")
        return Node("var", n.loc, name=n.text, type=ty, init=init, annos=annos,
                    start=t.loc)

    def statement(self):
        annos = self.annotations()
        t = self.tok
        if self.at("{"):
            return self.block()
        if self.accept(";"):
            return Node("empty", t.loc)
        if self.accept("if"):
            self.expect("(")
            c = self.expression()
            self.expect(")")
            a = self.statement()
            b = self.statement() if self.accept("else") else None
            return Node("if", t.loc, cond=c, then=a, els=b)
        if self.accept("switch"):
            self.expect("(")
            e = self.expression()
            self.expect(")")
            self.expect("{")
            cases = []
            while not self.at("}"):
                ct = self.tok
                if self.accept("default"):
                    label = None
                else:
                    if self.at("{") or self.at("}"):
                        self.error("a switch label")
                    label = self.expression()
                self.expect(":")
                body = self.block() if self.at("{") else None
                cases.append(Node("case", ct.loc, label=label, body=body))
            self.expect("}")
            return Node("switch", t.loc, expr=e, cases=cases)
        if self.accept("return"):
            v = None if self.at(";") else self.expression()
            self.expect(";")
            return Node("return", t.loc, value=v)
        if self.accept("exit"):
            self.expect(";")
            return Node("exit", t.loc)
        if self.at("transition"):
            self.error("a statement ('transition' ends a parser state)")
        if self.at_declaration():
            return self.declaration(annos)
        e = self.postfix()
        if self.at("="):
            eq = self.next()
            v = self.expression()
            self.expect(";")
            return Node("assign", eq.loc, lhs=e, rhs=v)
        if e.kind != "call":
            self.error("'=' or a call", self.tok)
        self.expect(";")
        return Node("callstmt", e.loc, call=e)

    # -- declarations ------------------------------------------------------
    def fields(self):
        self.expect("{")
        out = []
        while not self.at("}"):
            annos = self.annotations()
            ty = self.type_ref()
            n = self.name("a field name")
            self.expect(";")
            out.append(Node("field", n.loc, name=n.text, type=ty, annos=annos))
        self.expect("}")
        return out

    def id_list(self):
        self.expect("{")
        out = []
        while not self.at("}"):
            n = self.name()
            val = self.expression() if self.accept("=") else None
            out.append(Node("member", n.loc, name=n.text, value=val))
            if not self.accept(","):
                break
        self.expect("}")
        return out

    def state(self, annos):
        st = self.expect("state")
        n = self.name("a state name")
        self.expect("{")
        body = []
        while not self.at("transition") and not self.at("}"):
            body.append(self.statement())
        trans = None
        if self.at("transition"):
            tt = self.next()
            if self.accept("select"):
                self.expect("(")
                exprs = [self.expression()]
                while self.accept(","):
                    exprs.append(self.expression())
                self.expect(")")
                self.expect("{")
                cases = []
                while not self.at("}"):
                    cases.append(self.select_case())
                self.expect("}")
                trans = Node("select", tt.loc, exprs=exprs, cases=cases)
            else:
                nxt = self.name("a state name")
                self.expect(";")
                trans = Node("goto", nxt.loc, state=nxt.text)
        self.expect("}")
        return Node("state", n.loc, name=n.text, body=body, trans=trans,
                    annos=annos, start=st.loc)

    def keyset_elem(self):
        t = self.tok
        if self.accept("default"):
            return Node("dontcare", t.loc)
        if self.tok.kind == "name" and self.tok.text == "_":
            self.next()
            return Node("dontcare", t.loc)
        v = self.expression()
        if self.accept("&&&"):
            return Node("mask", t.loc, value=v, mask=self.expression())
        if self.accept(".."):
            return Node("range", t.loc, lo=v, hi=self.expression())
        return v

    def select_case(self):
        t = self.tok
        if self.at("(") and not self.at(")", 1):
            save = self.i
            self.next()
            elems = [self.keyset_elem()]
            if self.at(","):
                while self.accept(","):
                    elems.append(self.keyset_elem())
                self.expect(")")
            else:
                self.i = save
                elems = [self.keyset_elem()]
        else:
            elems = [self.keyset_elem()]
        self.expect(":")
        n = self.name("a state name")
        self.expect(";")
        return Node("selcase", t.loc, keys=elems, state=n.text)

    def table(self, annos):
        t = self.expect("table")
        n = self.name("a table name")
        self.expect("{")
        props = []
        while not self.at("}"):
            pannos = self.annotations()
            const = bool(self.accept("const"))
            pt = self.tok
            if pt.kind not in ("name", "kw"):
                self.error("a table property")
            self.next()
            name = pt.text
            self.expect("=")
            if name == "key":
                self.expect("{")
                keys = []
                while not self.at("}"):
                    e = self.expression()
                    self.expect(":")
                    mk = self.name("a match kind")
                    kannos = self.annotations()
                    self.expect(";")
                    keys.append(Node("keyelem", e.loc, expr=e, match=mk.text,
                                     annos=kannos))
                self.expect("}")
                value = keys
            elif name == "actions":
                self.expect("{")
                acts = []
                while not self.at("}"):
                    aannos = self.annotations()
                    an = self.postfix()
                    self.expect(";")
                    acts.append(Node("actref", an.loc, ref=an, annos=aannos))
                self.expect("}")
                value = acts
            elif name == "entries":
                self.expect("{")
                ents = []
                while not self.at("}"):
                    et = self.tok
                    eannos = self.annotations()
                    if self.at("("):
                        self.next()
                        keys = [self.keyset_elem()]
                        while self.accept(","):
                            keys.append(self.keyset_elem())
                        self.expect(")")
                    else:
                        keys = [self.keyset_elem()]
                    self.expect(":")
                    act = self.postfix()
                    self.expect(";")
                    ents.append(Node("entry", et.loc, keys=keys, action=act,
                                     annos=eannos))
                self.expect("}")
                value = ents
            else:
                value = self.expression()
                self.expect(";")
            props.append(Node("prop", pt.loc, name=name, const=const,
                              value=value, annos=pannos))
        self.expect("}")
        return Node("table", n.loc, name=n.text, props=props, annos=annos,
                    start=t.loc)

    def action(self, annos):
        self.expect("action")
        n = self.name("an action name")
        ps = self.params()
        body = self.block()
        return Node("action", n.loc, name=n.text, params=ps, body=body,
                    annos=annos)

    def parser_or_control(self, annos):
        kw = self.next()
        n = self.name(f"a {kw.text} name")
        self.types.add(n.text)
        tparams = self.type_params()
        ps = self.params()
        if self.accept(";"):
            return Node(kw.text + "_type", n.loc, name=n.text, params=ps,
                        tparams=tparams, annos=annos)
        ctor = self.params() if self.at("(") else []
        self.expect("{")
        locals_, states, apply = [], [], None
        while not self.at("}"):
            lannos = self.annotations()
            if kw.text == "parser" and self.at("state"):
                states.append(self.state(lannos))
            elif kw.text == "control" and self.at("action"):
                locals_.append(self.action(lannos))
            elif kw.text == "control" and self.at("table"):
                locals_.append(self.table(lannos))
            elif kw.text == "control" and self.at("apply"):
                self.next()
                apply = self.block()
            elif self.at_declaration():
                locals_.append(self.declaration(lannos))
            elif self.tok.kind == "eof":
                self.error("'}'")
            else:
                self.error("a declaration" + (", a state" if kw.text == "parser"
                                              else ", an action, a table or apply"))
        self.expect("}")
        if kw.text == "control" and apply is None:
            raise CompileError(n.loc, f"control {n.text} has no apply block")
        return Node(kw.text, n.loc, name=n.text, params=ps, ctor=ctor,
                    locals=locals_, states=states, apply=apply, annos=annos)

    def extern(self, annos):
        self.expect("extern")
        if self.tok.kind == "name" and (self.at("{", 1) or self.at("<", 1)) \
                and not self.at("(", 1):
            n = self.next()
            self.types.add(n.text)
            tparams = self.type_params()
            self.expect("{")
            methods = []
            while not self.at("}"):
                mannos = self.annotations()
                abstract = bool(self.tok.kind == "name" and self.tok.text == "abstract" and self.next())
                if self.tok.kind == "name" and self.tok.text == n.text and self.at("(", 1):
                    mn = self.next()
                    ret = None
                else:
                    ret = self.type_ref()
                    mn = self.name("a method name")
                mt = self.type_params()
                ps = self.params()
                self.expect(";")
                methods.append(Node("method", mn.loc, name=mn.text, ret=ret,
                                    params=ps, tparams=mt, annos=mannos,
                                    abstract=abstract))
            self.expect("}")
            return Node("extern", n.loc, name=n.text, tparams=tparams,
                        methods=methods, annos=annos)
        ret = self.type_ref()
        n = self.name("a function name")
        tparams = self.type_params()
        ps = self.params()
        self.expect(";")
        return Node("extern_fn", n.loc, name=n.text, ret=ret, params=ps,
                    tparams=tparams, annos=annos)

    def top(self):
        annos = self.annotations()
        t = self.tok
        if self.at("header") or self.at("struct") or self.at("header_union"):
            self.next()
            n = self.name(f"a {t.text} name")
            self.types.add(n.text)
            return Node(t.text, n.loc, name=n.text, fields=self.fields(),
                        annos=annos)
        if self.accept("typedef") or self.accept("type"):
            ty = self.type_ref()
            n = self.name("the new type's name")
            self.types.add(n.text)
            self.expect(";")
            return Node("typedef", n.loc, name=n.text, type=ty, annos=annos)
        if self.accept("enum"):
            under = self.type_ref() if self.at("bit") or self.at("int") else None
            n = self.name("an enum name")
            self.types.add(n.text)
            return Node("enum", n.loc, name=n.text, under=under,
                        members=self.id_list(), annos=annos)
        if self.accept("error") or self.accept("match_kind"):
            return Node(t.text, t.loc, members=self.id_list())
        if self.at("extern"):
            return self.extern(annos)
        if self.at("parser") or self.at("control"):
            return self.parser_or_control(annos)
        if self.accept("package"):
            n = self.name("a package name")
            self.types.add(n.text)
            tparams = self.type_params()
            ps = self.params()
            self.expect(";")
            return Node("package", n.loc, name=n.text, params=ps,
                        tparams=tparams, annos=annos)
        if self.at("action"):
            return self.action(annos)
        if self.at("table"):
            raise CompileError(t.loc, "a table outside a control")
        if self.accept(";"):
            return None
        if self.at("value_set"):
            raise CompileError(t.loc, "value_set is not supported")
        if self.at_declaration():
            return self.declaration(annos)
        self.error("a declaration")

    def program(self):
        decls = []
        while self.tok.kind != "eof":
            d = self.top()
            if d is not None:
                decls.append(d)
        return decls


def parse(toks):
    return Parser(toks).program()
