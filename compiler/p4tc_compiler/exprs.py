"""Expressions to commands: P4TC's commands take a destination and one
or two operands, so an expression with more than one operation is
computed step by step into temporaries (metadata the compiler adds).

- Temporaries are the low bits of metadata named pna_tC_I (in actions)
  and pna_cC_I (in the apply block and the deparser), C their container
  (8 to 128 bits): a statement's temporaries are dead at its end, so
  every statement starts again at I = 0.  The two pools differ because
  actions run inside the apply block's tableapply.
- Slices x[h:l] are operand slices (OPERAND[l-h]); a cast that narrows
  is a slice, one that widens is the operand itself (commands
  zero-extend) where only its value counts, and a copy into a temporary
  of the new width where its width counts (concatenation, shifts).
- Shifts by a constant are slices and concatenations; multiplication by
  a power of 2 a shift.  Shifts by a variable, other multiplications,
  division and modulo have no command: refused.
- A value of type bool (a comparison, &&, ||, !, isValid(), .hit) held
  in a variable is 1 or 0, set by branches.
- int<N>: its bits are computed as bit<N>'s (two's complement), and the
  kernel compares signed when an operand's object is of a signed type
  (intN metadata, fields, parameters, constants; a slice of one too).
  So a comparison's operands are made signed exactly when the P4 type
  is (with_sign()), a signed temporary is a slice of pna_tsC_I or
  pna_csC_I, and the two operations whose bits differ from bit<N>'s
  test the sign: a widening cast copies it up, >> shifts it in.
"""

import re

from .source import CompileError
from .syntax import Node

CMP_OPS = {"==": "beq", "!=": "bne", "<": "blt", "<=": "ble", ">": "bgt",
           ">=": "bge"}
ARITH_OPS = {"+": "plus", "-": "sub", "&": "band", "|": "bor", "^": "bxor"}
BOOL_OPS = set(CMP_OPS) | {"&&", "||"}
MAX_CONCAT = 8          # the operands one concat command takes

SLICE = re.compile(r"\[(\d+)-(\d+)\]$")


def err(node, msg):
    raise CompileError(node.loc, msg)


def to_signed(v, w):
    """The W bits of V as a two's complement number."""
    v %= 1 << w
    return v - (1 << w) if v >> (w - 1) & 1 else v


class Expressions:
    """The expression half of Program (lower.py)."""

    # -- temporaries and variables ---------------------------------------------
    def start_statement(self):
        self.tmp_next = {}

    def tmp(self, w, signed=False):
        """A W-bit temporary: the low W bits of a container of 8 to 128
        (P4TC's metadata space is 1024 bits: temporaries share); a
        SIGNED one for an int<W>."""
        pool = ("c" if self.where == "apply" else "t") + ("s" if signed else "")
        fam = "int" if signed else "bit"
        c = 8
        while c < w:
            c *= 2
        i = self.tmp_next.get((pool, c), 0)
        self.tmp_next[(pool, c)] = i + 1
        t = self.compiler_meta(f"pna_{pool}{c}_{i}", c, f"{fam}{c}")
        if w == c:
            return t
        return (f"{t[0]}[0-{w - 1}]", w, f"{fam}{w}")

    def compiler_meta(self, name, w, tct=None):
        """A metadatum of the compiler's, as an operand."""
        if name not in self.pna:
            self.pna[name] = (w, tct)
        self.pna_used.add(name)
        return (f"metadata.{self.pname}.{name}", w, tct or f"bit{w}")

    def declare(self, d, scope, out, params):
        """A variable declared in a block or a control: a metadatum of
        the compiler's, pna_SCOPE_NAME (zero when a packet comes in)."""
        r = self.resolve(d.type)
        if isinstance(r, Node):
            err(d, f"a variable of type {r.name} is not supported "
                "(bit<N>, int<N> and bool are)")
        w = self.width_of(d.type, d)
        name = f"pna_{scope}_{d.name}"
        n = 2
        while name in self.pna and self.pna[name][0] != w:
            name = f"pna_{scope}_{d.name}_{n}"
            n += 1
        v = self.compiler_meta(name, w, self.obj_tct(d.annos, d.type, w, None))
        self.scopes[-1][d.name] = v
        if d.init is not None:
            self.compute(d.init, v, out, params)
        # else P4 leaves it undefined: it holds what it held, 0 at first
        return v

    def lookup(self, name):
        for s in reversed(self.scopes):
            if name in s:
                return s[name]
        return None

    # -- widths ------------------------------------------------------------------
    def slice_bounds(self, e):
        hi, lo = self.const_value(e.hi), self.const_value(e.lo)
        if hi is None or lo is None:
            err(e, "slice bounds must be constants")
        if not 0 <= lo <= hi:
            err(e, f"slice [{hi}:{lo}]: the high bit first, both from 0")
        return hi, lo

    def is_bool(self, e):
        k = e.kind
        return (k == "bool" or (k == "binop" and e.op in BOOL_OPS) or
                (k == "unop" and e.op == "!") or
                (k == "call" and e.fn.kind == "member" and
                 e.fn.name == "isValid") or
                (k == "member" and e.name in ("hit", "miss") and
                 e.a.kind == "call"))

    def ewidth(self, e, params):
        """The width of E's type, None for a constant of no width."""
        k = e.kind
        if self.is_bool(e):
            return 1
        if k == "cast":
            return self.width_of(e.type, e)
        if self.const_value(e) is not None:
            return e.width if k == "int" and e.width else None
        if k == "slice":
            hi, lo = self.slice_bounds(e)
            return hi - lo + 1
        if k == "binop" and e.op == "++":
            a, b = self.ewidth(e.a, params), self.ewidth(e.b, params)
            if a is None or b is None:
                err(e, "a constant's width is not known here; cast it: "
                    "(bit<N>)")
            return a + b
        if k == "binop" and e.op in ("<<", ">>"):
            return self.ewidth(e.a, params)
        if k == "binop":
            return self.ewidth(e.a, params) or self.ewidth(e.b, params)
        if k == "unop":
            return self.ewidth(e.a, params)
        if k == "cond":
            return self.ewidth(e.a, params) or self.ewidth(e.b, params)
        if k == "call" and self.value_call(e) is not None:
            return self.value_call(e)[1]
        return self.operand(e, "read", params)[1]

    def esigned(self, e, params):
        """Whether E's type is an int<N>; None for a constant of no type
        (an int literal: it takes the other operand's)."""
        k = e.kind
        if self.is_bool(e):
            return False
        if k == "cast":
            return self.signed_type(e.type)
        if self.const_value(e) is not None:
            return self.const_signed(e) if self.const_width(e) else None
        if k == "slice":
            return False
        if k == "binop" and e.op in ("++", "<<", ">>"):
            return self.esigned(e.a, params)    # P4: the left operand's
        if k == "binop" or k == "cond":
            a = self.esigned(e.a, params)
            return a if a is not None else self.esigned(e.b, params)
        if k == "unop":
            return self.esigned(e.a, params)
        if k == "call" and self.value_call(e) is not None:
            return False
        return self.operand(e, "read", params)[2].startswith("int")

    def kernel_signed(self, v, params):
        """Whether the kernel takes operand V as signed: its object's
        type is (a slice of a signed object is signed too)."""
        text = SLICE.sub("", v[0])
        if text.startswith("constant."):
            return text.startswith("constant.int")
        parts = text.split(".")
        tct = None
        if parts[0] == "metadata" and parts[1] == self.pname:
            tct = (self.meta.get(parts[2]) or self.pna.get(parts[2]) or
                   (0, None))[1]
        elif parts[0] == "hdrfield" and len(parts) == 5 and \
                parts[3] in self.headers:
            tct = self.headers[parts[3]].fields.get(parts[4], (0, 0, None))[2]
        elif parts[0] == "param" and params is not None:
            tct = next((t for n, (w, t) in params.items()
                        if self.param_name(params, n) == parts[1]), None)
        elif parts[0] == "register":
            return parts[2].split("[")[0] in self.signed_registers
        return bool(tct) and tct.startswith("int")

    def with_sign(self, v, signed, out, params):
        """V as an operand the kernel compares as SIGNED says: a constant
        written in that type, another operand copied into a temporary
        when its object's type says otherwise."""
        if v[0].startswith("constant."):
            if not signed or v[0].startswith("constant.int"):
                return v
            w = v[1]
            n = to_signed(int(v[0].rsplit(".", 1)[1], 16), w)
            return (f"constant.int{w}.{n}", w, f"int{w}")
        if self.kernel_signed(v, params) == signed:
            return v
        t = self.tmp(v[1], signed)
        out.append(f"set {t[0]} {v[0]}")
        return t

    def sign_extend(self, v, w, out, params):
        """V, an int<N> (N < W), as an int<W>: its sign bit copied up."""
        n = v[1]
        t = self.tmp(w, True)
        s = self.with_sign(v, True, out, params)
        done = self.new_label()
        out.append(f"set {t[0]} {v[0]}")
        out.append(f"blt {s[0]} constant.int{n}.0 control pipe / jump {done}")
        mask = ((1 << w) - 1) ^ ((1 << n) - 1)
        out.append(f"bor {t[0]} {t[0]} constant.bit{w}.{mask:#x}")
        out.append(f"label {done}")
        return t

    def cast_rule(self, e, iw, isg):
        """P4 casts change a number's width or its signedness, not both
        (int<8> to bit<16> goes by int<16> or bit<8>: which says
        whether the sign is copied).  Returns the cast's width and
        signedness."""
        w, sg = self.width_of(e.type, e), self.signed_type(e.type)
        if iw is not None and isg is not None and iw != w and isg != sg:
            fr = f"{'int' if isg else 'bit'}<{iw}>"
            to = f"{'int' if sg else 'bit'}<{w}>"
            err(e, f"a cast from {fr} to {to} changes both the width and "
                "the signedness: cast in two steps")
        return w, sg

    # -- operands ----------------------------------------------------------------
    def is_leaf(self, e):
        if e.kind in ("name", "member") and not self.is_bool(e):
            return True
        return e.kind == "call" and self.value_call(e) is None and \
            not self.is_bool(e)

    def slice_of(self, v, lo, hi, out, at):
        """Bits LO..HI of operand V."""
        text, w, tct = v
        if hi >= w:
            err(at, f"bit {hi} of a {w}-bit value")
        if lo == 0 and hi == w - 1:
            return v
        if text.startswith("constant."):
            val = int(text.rsplit(".", 1)[1], 16) >> lo & ((1 << hi - lo + 1) - 1)
            return (f"constant.bit{hi - lo + 1}.{val:#x}", hi - lo + 1, None)
        if text.startswith(("dev.", "results.")):
            t = self.tmp(w)
            out.append(f"set {t[0]} {text}")
            text = t[0]
        m = SLICE.search(text)
        if m:
            base = int(m.group(1))
            text = text[:m.start()]
            lo, hi = base + lo, base + hi
        return (f"{text}[{lo}-{hi}]", hi - lo + 1, f"bit{hi - lo + 1}")

    def widen(self, v, w, out):
        """V as a W-bit operand (its width counts: concat, shifts)."""
        if v[1] >= w:
            return v
        if v[0].startswith("constant."):
            return (f"constant.bit{w}.{v[0].rsplit('.', 1)[1]}", w, None)
        t = self.tmp(w)
        out.append(f"set {t[0]} {v[0]}")
        return t

    def value(self, e, out, params, hint=None):
        """E as an operand, computing it first into a temporary when it
        is more than a name."""
        if self.const_value(e) is not None:
            return self.operand(e, "read", params, hint)
        k = e.kind
        if k == "slice":
            hi, lo = self.slice_bounds(e)
            return self.slice_of(self.value(e.a, out, params), lo, hi, out, e)
        if k == "cast":
            iw, isg = self.ewidth(e.a, params), self.esigned(e.a, params)
            w, _ = self.cast_rule(e, iw, isg)
            inner = self.value(e.a, out, params, w)
            if iw is not None and iw > w:
                return self.slice_of(inner, 0, w - 1, out, e)
            if iw is not None and iw < w and isg:
                return self.sign_extend(inner, w, out, params)
            return inner
        if k == "call" and self.value_call(e) is not None:
            return self.value_call(e, out, params)
        if self.is_leaf(e):
            return self.operand(e, "read", params, hint)
        w = self.ewidth(e, params) or hint
        if w is None:
            err(e, "a constant's width is not known here; cast it: (bit<N>)")
        t = self.tmp(w, bool(self.esigned(e, params)))
        self.compute(e, t, out, params)
        return t

    # -- computing a value into a destination --------------------------------
    def compute(self, e, dst, out, params):
        """The commands that write E's value into the operand DST."""
        dw = dst[1]
        k = e.kind
        if self.const_value(e) is not None:
            src = self.operand(e, "read", params, dw)
            out.append(f"set {dst[0]} {src[0]}")
            return
        if self.is_bool(e) or k == "cond":
            self.compute_branches(e, dst, out, params)
            return
        we = self.ewidth(e, params)
        if not self.is_leaf(e) and k not in ("cast", "slice") and \
                we is not None and we < dw:
            # wraps at its own width: computed there, then zero-extended
            t = self.tmp(we, bool(self.esigned(e, params)))
            self.compute(e, t, out, params)
            out.append(f"set {dst[0]} {t[0]}")
            return
        if k == "binop" and e.op in ARITH_OPS:
            a = self.value(e.a, out, params, dw)
            b = self.value(e.b, out, params, dw)
            out.append(f"{ARITH_OPS[e.op]} {dst[0]} {a[0]} {b[0]}")
            return
        if k == "binop" and e.op == "*":
            for x, y in ((e.a, e.b), (e.b, e.a)):
                v = self.const_value(y)
                if v is not None and v > 0 and v & (v - 1) == 0:
                    self.shift(x, "<<", v.bit_length() - 1, dst, out, params, e)
                    return
            err(e, "multiplication by a variable, or by a constant other "
                "than a power of 2, has no P4TC command")
        if k == "binop" and e.op in ("<<", ">>"):
            n = self.const_value(e.b)
            if n is None or n < 0:
                err(e, "shifts by a variable have no P4TC command; shift "
                    "by a constant")
            self.shift(e.a, e.op, n, dst, out, params, e)
            return
        if k == "binop" and e.op == "++":
            self.concat(e, dst, out, params)
            return
        if k == "binop":
            err(e, f"operator {e.op} has no P4TC command")
        if k == "unop" and e.op == "~":
            w = we or dw
            a = self.value(e.a, out, params, w)
            out.append(f"bxor {dst[0]} {a[0]} constant.bit{w}.{(1 << w) - 1:#x}")
            return
        if k == "unop" and e.op == "-":
            w = we or dw
            a = self.value(e.a, out, params, w)
            out.append(f"sub {dst[0]} constant.bit{w}.0x0 {a[0]}")
            return
        if k == "unop" and e.op == "+":
            self.compute(e.a, dst, out, params)
            return
        if k == "cast" and self.ewidth(e.a, params) is not None and \
                self.ewidth(e.a, params) < self.width_of(e.type, e) and \
                not self.is_leaf(e.a) and not self.esigned(e.a, params):
            # widening a computed value: it wraps at its own width first
            src = self.value(e.a, out, params)
        else:
            src = self.value(e, out, params, dw)
        if src[1] > dw and not src[0].startswith("constant."):
            err(e, f"a {src[1]}-bit value into {dw} bits: cast it")
        out.append(f"set {dst[0]} {src[0]}")

    def reads(self, e, dst, params):
        """Whether E reads the object DST writes."""
        base = SLICE.sub("", dst[0])
        if isinstance(e, list):
            return any(self.reads(x, dst, params) for x in e)
        if not isinstance(e, Node):
            return False
        try:
            if e.kind == "member" and self.hdr_ref(e, {self.chdr}) is not None:
                return False
        except CompileError:
            return True
        if self.is_leaf(e) and self.const_value(e) is None:
            try:
                return SLICE.sub("", self.operand(e, "read", params)[0]) == base
            except CompileError:
                return True
        return any(self.reads(v, dst, params) for v in e.f.values())

    def compute_branches(self, e, dst, out, params):
        """A bool or c ? a : b: straight into DST unless E reads it."""
        if e.kind == "cond" and self.const_value(e.cond) is not None:
            self.compute(e.a if self.const_value(e.cond) else e.b, dst, out, params)
            return
        w = self.ewidth(e, params) or dst[1]
        if self.reads(e, dst, params):
            t = self.tmp(w, bool(self.esigned(e, params)))
        else:
            t = dst
        other, done = self.new_label(), self.new_label()
        if e.kind == "cond":
            self.branch(e.cond, other, False, out, params)
            self.compute(e.a, t, out, params)
            out.append(f"jump {done}")
            out.append(f"label {other}")
            self.compute(e.b, t, out, params)
        else:
            self.branch(e, other, False, out, params)
            out.append(f"set {t[0]} constant.bit1.0x1")
            out.append(f"jump {done}")
            out.append(f"label {other}")
            out.append(f"set {t[0]} constant.bit1.0x0")
        out.append(f"label {done}")
        if t is not dst:
            out.append(f"set {dst[0]} {t[0]}")

    def shift(self, x, op, n, dst, out, params, at):
        w = self.ewidth(x, params) or dst[1]
        a = self.widen(self.value(x, out, params, w), w, out)
        if op == ">>" and n and self.esigned(x, params):
            self.shift_signed(a, n, dst, out, params, at)
        elif n >= w:
            out.append(f"set {dst[0]} constant.bit{w}.0x0")
        elif n == 0:
            out.append(f"set {dst[0]} {a[0]}")
        elif op == "<<":
            out.append(f"concat {dst[0]} {self.slice_of(a, 0, w - n - 1, out, at)[0]} "
                       f"constant.bit{n}.0x0")
        else:
            out.append(f"set {dst[0]} {self.slice_of(a, n, w - 1, out, at)[0]}")

    def shift_signed(self, a, n, dst, out, params, at):
        """DST = A >> N for an int<W> A: the sign bit shifted in.  Both
        ways read A before DST is written (DST may be A)."""
        w = a[1]
        s = self.with_sign(a, True, out, params)
        pos, done = self.new_label(), self.new_label()
        out.append(f"blt {s[0]} constant.int{w}.0 control pipe / jump {pos}")
        if n >= w:
            out.append(f"set {dst[0]} constant.bit{w}.{(1 << w) - 1:#x}")
        else:
            out.append(f"concat {dst[0]} constant.bit{n}.{(1 << n) - 1:#x} "
                       f"{self.slice_of(a, n, w - 1, out, at)[0]}")
        out.append(f"jump {done}")
        out.append(f"label {pos}")
        if n >= w:
            out.append(f"set {dst[0]} constant.bit{w}.0x0")
        else:
            out.append(f"set {dst[0]} {self.slice_of(a, n, w - 1, out, at)[0]}")
        out.append(f"label {done}")

    def concat_parts(self, e):
        if e.kind == "binop" and e.op == "++":
            return self.concat_parts(e.a) + self.concat_parts(e.b)
        return [e]

    def concat(self, e, dst, out, params):
        ops = []
        for p in self.concat_parts(e):
            w = self.ewidth(p, params)
            if w is None:
                err(p, "a constant's width is not known here; cast it: "
                    "(bit<N>)")
            ops.append(self.widen(self.value(p, out, params, w), w, out))
        if sum(o[1] for o in ops) > dst[1]:
            err(e, f"{sum(o[1] for o in ops)} bits into {dst[1]}")
        self.concat_ops(ops, dst, out)

    def concat_ops(self, ops, dst, out):
        """concat DST OPS..., over temporaries past 8 operands."""
        while len(ops) > MAX_CONCAT:
            head = ops[:MAX_CONCAT]
            t = self.tmp(sum(o[1] for o in head))
            out.append(f"concat {t[0]} " + " ".join(o[0] for o in head))
            ops = [t] + ops[MAX_CONCAT:]
        if len(ops) == 1:
            out.append(f"set {dst[0]} {ops[0][0]}")
        else:
            out.append(f"concat {dst[0]} " + " ".join(o[0] for o in ops))

    def lvalue(self, e, params):
        """What an assignment writes: a name, a field, or a slice of one."""
        if e.kind == "slice":
            hi, lo = self.slice_bounds(e)
            return self.slice_of(self.lvalue(e.a, params), lo, hi, [], e)
        if not self.is_leaf(e) or e.kind == "call":
            err(e, "an assignment writes a field, a variable or a slice")
        v = self.operand(e, "write", params)
        if v[0].startswith(("param.", "constant.")):
            err(e, "assignment to a parameter or constant")
        return v
