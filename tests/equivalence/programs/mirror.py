"""The mirror (tests/programs/mirror) for the equivalence runner: LPM
entries that copy a source prefix's frames out of a port, nested
prefixes, a miss; frames at the prefixes' edges, not IPv4, VLAN-tagged."""

from scapy.all import ARP, Dot1Q, IP, UDP

from programs.common import Corpus, program

NAME = "mirror"
TC, INTROSPECTION = program(NAME)
TABLES = ["cb/mirror"]


def entries(topo):
    def to(prefix, port):
        return ("cb/mirror", ["srcAddr", prefix, "action", "mirror/cb/mirror_to",
                              "param", "port", port])
    p0, p1 = topo.P
    return [to("10.11.0.0/24", p1), to("10.11.0.128/25", p0), to("10.20.0.0/16", p1)]


def corpus(topo):
    c = Corpus(topo)
    for src in ["10.11.0.1", "10.11.0.127", "10.11.0.128", "10.11.0.255",
                "10.11.1.0", "10.20.255.255", "10.21.0.0", "0.0.0.0"]:
        c.udp(0, src, "10.12.0.1")
        c.udp(1, src, "10.12.0.1", size=300)
    c.add(0, c.eth(0) / ARP(psrc="10.11.0.1", pdst="10.11.0.254"))
    c.add(0, c.eth(0) / Dot1Q(vlan=7) / IP(src="10.11.0.1", dst="10.12.0.1") / UDP())
    return c.frames
