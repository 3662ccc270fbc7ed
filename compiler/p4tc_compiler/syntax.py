"""The syntax tree: one node class, its kind and fields by name.

A node is what the parser saw, with its location: names are resolved and
types checked later (check.py), so a node holds text, not meaning.
"""


class Node:
    __slots__ = ("kind", "loc", "f")

    def __init__(self, kind, loc, **fields):
        self.kind = kind
        self.loc = loc
        self.f = fields

    def __getattr__(self, name):
        try:
            return self.f[name]
        except KeyError:
            raise AttributeError(name) from None

    def __repr__(self):
        inner = ", ".join(f"{k}={v!r}" for k, v in self.f.items())
        return f"{self.kind}({inner})"


def anno(annos, name):
    """The annotation NAME among ANNOS, or None.  The one found is marked
    as honoured: the compiler refuses the P4TC annotations it was never
    asked for (lower.py, unhonoured())."""
    for a in annos:
        if a.name == name:
            a.f["honoured"] = True
            return a
    return None
