"""Tokens of P4-16 (the spec's section 6.4), with their locations."""

import re

from .source import CompileError, Loc

KEYWORDS = {
    "action", "actions", "apply", "bit", "bool", "const", "control",
    "default", "else", "entries", "enum", "error", "exit", "extern",
    "false", "header", "header_union", "if", "in", "inout", "int", "key",
    "match_kind", "out", "package", "parser", "return", "select", "state",
    "string", "struct", "switch", "table", "transition", "true", "tuple",
    "typedef", "type", "value_set", "varbit", "void", "this",
}

# Longest first: the alternation takes the first that matches.  ">>" is
# no token: a type list closes with two ">" ("Register<bit<32>, bit<32>>"),
# so the parser joins two adjacent ">" into a shift.
PUNCT = [
    "&&&", "...", "..", "|+|", "|-|", "++", "<<", "<=", ">=", "==", "!=", "&&",
    "||", "{", "}", "(", ")", "[", "]", ";", ":", ",", ".", "?", "=", "<",
    ">", "+", "-", "*", "/", "%", "&", "|", "^", "~", "!", "@",
]

TOKEN = re.compile(r"""
    (?P<ws>[ \t\r\f\v]+)
  | (?P<nl>\n)
  | (?P<comment>//[^\n]*|/\*(?:.|\n)*?\*/)
  | (?P<number>(?:\d+[ws])?0[xX][0-9a-fA-F_]+|(?:\d+[ws])?0[bB][01_]+
              |(?:\d+[ws])?0[oOdD][0-9_]+|(?:\d+[ws])?\d[\d_]*)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>""" + "|".join(re.escape(p) for p in PUNCT) + r""")
""", re.VERBOSE)


class Token:
    __slots__ = ("kind", "text", "loc", "end")

    def __init__(self, kind, text, loc):
        self.kind = kind        # "name", "number", "string", "kw", "punct", "eof"
        self.text = text
        self.loc = loc
        self.end = None         # for ">": the column right after it

    def __repr__(self):
        return f"{self.kind}:{self.text}@{self.loc}"


def parse_number(text, loc):
    """A P4 integer literal: (value, width or None, signed)."""
    width, signed = None, False
    m = re.fullmatch(r"(?:(\d+)([ws]))?(.+)", text)
    if m.group(1):
        width, signed, text = int(m.group(1)), m.group(2) == "s", m.group(3)
    t = text.replace("_", "")
    base = 10
    if len(t) > 1 and t[0] == "0" and t[1] in "xXbBoOdD":
        base = {"x": 16, "b": 2, "o": 8, "d": 10}[t[1].lower()]
        t = t[2:]
    try:
        value = int(t, base)
    except ValueError:
        raise CompileError(loc, f"malformed number '{text}'")
    if width is not None and width == 0:
        raise CompileError(loc, "a number of width 0")
    return value, width, signed


def tokenize(text, linemap):
    """The tokens of TEXT (cpp's output), located by LINEMAP."""
    toks = []
    pos, line = 0, 0
    line_start = 0
    n = len(text)
    while pos < n:
        m = TOKEN.match(text, pos)
        if not m:
            f, l = linemap[line]
            raise CompileError(Loc(f, l, pos - line_start + 1),
                               f"unexpected character '{text[pos]}'")
        kind = m.lastgroup
        tok_text = m.group()
        if kind in ("nl", "comment"):
            nls = tok_text.count("\n")
            if nls:
                line += nls
                line_start = m.start() + tok_text.rindex("\n") + 1
        elif kind != "ws":
            f, l = linemap[line]
            loc = Loc(f, l, pos - line_start + 1)
            if kind == "name" and tok_text in KEYWORDS:
                kind = "kw"
            tok = Token(kind, tok_text, loc)
            tok.end = m.end()
            toks.append(tok)
        pos = m.end()
    f, l = linemap[min(line, len(linemap) - 1)]
    toks.append(Token("eof", "end of file", Loc(f, l, pos - line_start + 1)))
    return toks
