"""The L3 firewall (tests/programs/firewall) for the equivalence runner:
the ports table sends each port's frames to the other; the ACL's
overlapping ternary entries (permit and deny, priorities that decide),
its default deny, and the verdict registers; TCP, UDP, ICMP and non-IP
frames from both ports, IP options, truncated headers.  Its entries and
frames are the ACL's (programs/acl.py), under the firewall's names."""

from programs import acl
from programs.common import program

NAME = "firewall"
TC, INTROSPECTION = program(NAME)
TABLES = ["cb/ports", "cb/acl"]

RENAME = {"acl/cb/allow": "firewall/cb/permit", "acl/cb/deny": "firewall/cb/deny"}


def _ports(topo):
    p0, p1 = topo.P
    return [("cb/ports", ["port", p0, "action", "firewall/cb/forward", "param", "port", p1]),
            ("cb/ports", ["port", p1, "action", "firewall/cb/forward", "param", "port", p0])]


def _acl(ents):
    return [("cb/acl", [RENAME.get(a, a) for a in args]) for _, args in ents]


def entries(topo):
    return _ports(topo) + _acl(acl.entries(topo))


def corpus(topo):
    frames = acl.corpus(topo)
    # the same from the other port
    return frames + [(1 - port, f) for port, f in frames]


def fuzz(rnd, topo):
    """The ACL's random entries and frames; the ports table's two
    entries, or one of them."""
    ents, frames = acl.fuzz(rnd, topo)
    ports = _ports(topo)
    if rnd.random() < 0.2:
        ports = [rnd.choice(ports)]
    return ports + _acl(ents), frames
