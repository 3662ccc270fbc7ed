"""Functions (P4-16 9): "T f(in bit<8> x) { ... return e; }" at top level.

P4TC has no calls with a result, so a function becomes what the compiler
already inlines, an action called from the control (lower.py, inline()):
its parameters keep their directions and its result is one more, an out
parameter "__ret" that every "return e;" assigns before it returns.  A
call inside an expression is taken out of it, before its statement:

    x = f(a) + 1;   becomes   { T __f1_f; f(a, __f1_f); x = __f1_f + 1; }

in the order P4 evaluates them (left to right, inner calls first), so a
statement's commands see the results as variables.  A call that P4 may
not evaluate (the right side of && or ||, a side of ?:) is refused: taken
out, it would always run.
"""

from .source import CompileError
from .syntax import Node


def err(node, msg):
    raise CompileError(node.loc, msg)


def is_void(f):
    return f.ret.kind == "named" and f.ret.name == "void"


def function_actions(decls):
    """The actions the program's functions become, by name."""
    out = {}
    for d in decls:
        if d.kind != "function":
            continue
        params = list(d.params)
        void = is_void(d)
        body = returns(d.body, void, d.name)
        if not void:
            params.append(Node("param", d.loc, name="__ret", type=d.ret,
                               dir="out", annos=[]))
        out[d.name] = Node("action", d.loc, name=d.name, params=params,
                           body=body, annos=d.annos, function=True)
    return out


def returns(st, void, name):
    """ST with "return e;" as "{ __ret = e; return; }"."""
    if isinstance(st, list):
        return [returns(x, void, name) for x in st]
    if not isinstance(st, Node):
        return st
    if st.kind == "return":
        if void and st.value is not None:
            err(st, f"void function {name} returns a value")
        if void:
            return st
        if st.value is None:
            err(st, f"function {name} returns no value")
        return Node("block", st.loc, body=[
            Node("assign", st.loc, lhs=Node("name", st.loc, name="__ret"),
                 rhs=st.value),
            Node("return", st.loc, value=None)])
    if st.kind in ("block", "if", "switch", "case"):
        return Node(st.kind, st.loc, **{k: returns(v, void, name)
                                        for k, v in st.f.items()})
    return st


class Hoister:
    """Takes the calls of functions with a result out of expressions, in
    every statement list below a node."""

    def __init__(self, functions):
        self.functions = functions      # name -> the function's declaration
        self.n = 0

    def node(self, node):
        if isinstance(node, list):
            for x in node:
                self.node(x)
            return
        if not isinstance(node, Node):
            return
        if node.kind == "if":
            # a branch that is one statement: a block, to take calls out
            for k in ("then", "els"):
                b = node.f.get(k)
                if b is not None and b.kind != "block":
                    node.f[k] = Node("block", b.loc, body=[b])
        if node.kind == "block":
            node.f["body"] = [y for x in node.body for y in self.statement(x)]
        for v in list(node.f.values()):
            self.node(v)

    def statement(self, st):
        """ST, preceded by the declarations and calls its expressions'
        function calls need."""
        if not isinstance(st, Node):
            return [st]
        before = []
        for key in {"assign": ("lhs", "rhs"), "if": ("cond",),
                    "switch": ("expr",), "var": ("init",),
                    "return": ("value",)}.get(st.kind, ()):
            if st.f.get(key) is not None:
                st.f[key] = self.expr(st.f[key], before, guarded=False)
        if st.kind == "callstmt":
            c = st.call
            c.f["args"] = self.expr(c.args, before, guarded=False)
            if c.fn.kind == "name" and c.fn.name in self.functions and \
                    not is_void(self.functions[c.fn.name]) and \
                    len(c.args) == len(self.functions[c.fn.name].params):
                # its result unused: into a variable all the same
                self.expr(c, before, guarded=False)
                return [Node("block", st.loc, body=before)]
        if not before:
            return [st]
        return [Node("block", st.loc, body=before + [st])]

    def expr(self, e, before, guarded):
        if isinstance(e, list):
            return [self.expr(x, before, guarded) for x in e]
        if not isinstance(e, Node):
            return e
        if e.kind == "binop" and e.op in ("&&", "||"):
            e.f["a"] = self.expr(e.a, before, guarded)
            e.f["b"] = self.expr(e.b, before, True)
            return e
        if e.kind == "cond":
            e.f["cond"] = self.expr(e.cond, before, guarded)
            e.f["a"] = self.expr(e.a, before, True)
            e.f["b"] = self.expr(e.b, before, True)
            return e
        for k, v in list(e.f.items()):
            e.f[k] = self.expr(v, before, guarded)
        if e.kind != "call" or e.fn.kind != "name" or \
                e.fn.name not in self.functions:
            return e
        f = self.functions[e.fn.name]
        if is_void(f):
            return e        # a statement of its own: inlined as an action
        if guarded:
            err(e, f"a call of function {f.name} that P4 may not evaluate "
                "(after && or ||, in ?:): call it in a statement of its own")
        self.n += 1
        var = f"__f{self.n}_{f.name}"
        loc = e.loc
        before.append(Node("var", loc, name=var, type=f.ret, init=None,
                           annos=[], start=loc))
        before.append(Node("callstmt", loc, call=Node(
            "call", loc, fn=e.fn, targs=[],
            args=list(e.args) + [Node("name", loc, name=var)])))
        return Node("name", loc, name=var)
