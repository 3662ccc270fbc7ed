"""The mirror (tests/programs/mirror) for the equivalence runner: LPM
entries that copy a source prefix's frames out of a port, nested
prefixes, a miss; frames at the prefixes' edges, not IPv4, VLAN-tagged."""

from programs.common import Corpus, fuzz_frame, fuzz_l4, pick_addr, program, rand_prefix

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
    from scapy.all import ARP, Dot1Q, IP, UDP  # lazily: 17 s in the guest
    c = Corpus(topo)
    for src in ["10.11.0.1", "10.11.0.127", "10.11.0.128", "10.11.0.255",
                "10.11.1.0", "10.20.255.255", "10.21.0.0", "0.0.0.0"]:
        c.udp(0, src, "10.12.0.1")
        c.udp(1, src, "10.12.0.1", size=300)
    c.add(0, c.eth(0) / ARP(psrc="10.11.0.1", pdst="10.11.0.254"))
    c.add(0, c.eth(0) / Dot1Q(vlan=7) / IP(src="10.11.0.1", dst="10.12.0.1") / UDP())
    return c.frames


def fuzz(rnd, topo):
    """Random nested source prefixes mirrored out of either port; frames
    from their edges in on either port."""
    ents, prefixes = [], []
    for _ in range(rnd.randrange(1, 8)):
        pf = rand_prefix(rnd, ("10.11.0.0", "10.20.0.0"))
        if pf in prefixes:
            continue
        prefixes.append(pf)
        ents.append(("cb/mirror", ["srcAddr", pf, "action", "mirror/cb/mirror_to",
                                   "param", "port", rnd.choice(topo.P)]))
    frames = []
    for _ in range(rnd.randrange(6, 16)):
        port = rnd.randrange(2)
        l3 = fuzz_l4(rnd, pick_addr(rnd, prefixes), "10.12.0.1", ttl=64)
        frames.append((port, fuzz_frame(rnd, topo, port, l3)))
    return ents, frames
