"""Actions longer than P4TC's 32 commands (P4TC_CMDS_LIST_MAX): their
statements go into part actions ("C/NAME__1", ...) that the action calls
in turn with "act PIPE.C/NAME__I" (passing its parameters on).

- A statement's commands jump only inside themselves, or to the end of
  the block they are in ("return", "exit"): statements are compiled one
  by one with the end written as __END__, then grouped into parts of at
  most 28 commands.  An "if" too long for one part is cut at its
  condition: the branch stays in the caller, each side's statements
  become parts of their own.
- A part that returns sets the compiler's flag pna_ret_c (the apply
  block) or pna_ret_t (a table's action, which clears it first) and
  ends; its caller then jumps to its own end.
- A single statement other than an if or a block that does not fit in
  one part is refused: its commands cannot be cut apart.
"""

from .source import CompileError

MAX_CMDS = 32
PART_CMDS = 28          # a part's statements: room for its return's tail


def err(node, msg):
    raise CompileError(node.loc, msg)


class Parts:
    """The splitting half of Program (lower.py)."""

    def segments(self, st, params, where):
        """[("cmds", commands)] of one statement, or [("if", cond,
        else_label, then_segments, else_segments)] for an if too long
        for one part; a long block is its statements' segments."""
        from .lower import prune_labels
        out = []
        self.stmt(st, out, params, "__END__", where)
        out = prune_labels(out)
        # alone in a part, a statement that returns needs room for the
        # part's return (4 commands)
        room = MAX_CMDS - (4 if any("__END__" in c for c in out) else 0)
        if len(out) <= PART_CMDS or st.kind not in ("if", "block"):
            if len(out) > room:
                err(st, f"this statement compiles to {len(out)} commands, "
                    f"more than P4TC's {MAX_CMDS} in one action can hold "
                    "(split it over variables)")
            return [("cmds", out)]
        if st.kind == "block":
            self.scopes.append({})
            segs = [s for x in st.body for s in self.segments(x, params, where)]
            self.scopes.pop()
            return segs
        cond, els = [], self.new_label()
        self.start_statement()
        self.branch(st.cond, els, False, cond, params)
        then = self.segments(st.then, params, where)
        other = self.segments(st.els, params, where) if st.els is not None else []
        return [("if", cond, els, then, other)]

    def assemble(self, segs, base, params, flag, lines):
        """SEGS as the commands of an action: in place when they fit,
        else calls of parts (their templates appended to LINES), which
        jump to __END__ when one returned."""
        if all(s[0] == "cmds" for s in segs) and \
                sum(len(s[1]) for s in segs) <= MAX_CMDS:
            return [c for s in segs for c in s[1]]
        parent, group = [], []

        def flush():
            if group:
                parent.extend(self.part(group, base, params, flag, lines))
                group.clear()

        for s in segs:
            if s[0] == "cmds":
                if sum(len(g) for g in group) + len(s[1]) > PART_CMDS:
                    flush()
                group.append(s[1])
                continue
            flush()
            _, cond, els, then, other = s
            parent.extend(cond)
            parent.extend(self.part_calls(then, base, params, flag, lines))
            if other:
                done = self.new_label()
                parent.append(f"jump {done}")
                parent.append(f"label {els}")
                parent.extend(self.part_calls(other, base, params, flag, lines))
                parent.append(f"label {done}")
            else:
                parent.append(f"label {els}")
        flush()
        return parent

    def part_calls(self, segs, base, params, flag, lines):
        """SEGS always in parts: calls only (an if's side)."""
        out, group = [], []
        for s in segs:
            if s[0] != "cmds":
                if group:
                    out += self.part(group, base, params, flag, lines)
                    group = []
                out += self.assemble([s], base, params, flag, lines)
                continue
            if group and sum(len(g) for g in group) + len(s[1]) > PART_CMDS:
                out += self.part(group, base, params, flag, lines)
                group = []
            group.append(s[1])
        if group:
            out += self.part(group, base, params, flag, lines)
        return out

    def part(self, group, base, params, flag, lines):
        """A part action of the commands in GROUP; its call."""
        from .lower import prune_labels
        self.nparts = getattr(self, "nparts", 0) + 1
        name = f"{base}__{self.nparts}"
        body = [c for g in group for c in g]
        returns = any("__END__" in c for c in body)
        if returns:
            ret, done = self.new_label(), self.new_label()
            body = [c.replace("__END__", ret) for c in body]
            body += [f"jump {done}", f"label {ret}",
                     f"set {flag[0]} constant.bit8.0x1", f"label {done}"]
        body = prune_labels(body)
        line = f"p4template create action/{self.pname}/{self.control.name}/{name}"
        args = ""
        if params:
            if len(params) > 8:
                err(self.control, f"{base} is too long for one action and "
                    "has more than 8 parameters: its parts cannot be given "
                    "them (P4TC's act takes 8 arguments)")
            for p, (w, tct) in params.items():
                from .lower import kernel_type
                line += f" param {self.param_name(params, p)} type {kernel_type(tct)}"
            args = " " + " ".join(f"param.{self.param_name(params, p)}"
                                  for p in params)
        lines.append(line + "".join(f" cmd {c}" for c in body) + " state active")
        call = [f"act {self.pname}.{self.control.name}/{name}{args}"]
        if returns:
            call.append(f"bne {flag[0]} constant.bit8.0x0 control jump __END__ / pipe")
        return call
