"""The L2 switch (tests/programs/l2switch) for the equivalence runner:
exact entries on destination MACs that forward out of a port, the
default drop; unicast to known and unknown MACs, broadcast, multicast."""

from programs import wire
from programs.common import Corpus, fuzz_frame, mac, program

NAME = "l2switch"
TC, INTROSPECTION = program(NAME)
TABLES = ["cb/mac"]


def entries(topo):
    def fwd(dmac, port):
        return ("cb/mac", ["dstAddr", dmac, "action", "l2switch/cb/fwd",
                           "param", "port", port])
    p0, p1 = topo.P
    return [fwd(mac(topo.T[1]), p1), fwd(mac(topo.T[0]), p0),
            fwd("02:00:00:00:00:99", p1), fwd("ff:ff:ff:ff:ff:ff", p1)]


def corpus(topo):
    from scapy.all import ARP, Ether, IP, UDP  # lazily: 17 s in the guest
    c = Corpus(topo)
    for port in (0, 1):
        for dst in [mac(topo.T[0]), mac(topo.T[1]), "02:00:00:00:00:99",
                    "02:00:00:00:00:98", "ff:ff:ff:ff:ff:ff", "01:00:5e:00:00:01"]:
            src = mac(topo.T[port])
            c.add(port, Ether(dst=dst, src=src) / IP(dst="10.3.0.2") / UDP())
            c.add(port, Ether(dst=dst, src=src) / ARP(pdst="10.3.0.2"), 100)
    return c.frames


def fuzz(rnd, topo):
    """Random MACs (the testers', locally administered, broadcast,
    multicast) forwarded out of either port or dropped; frames to them
    and to MACs no entry has."""
    pool = [mac(topo.T[0]), mac(topo.T[1]), "ff:ff:ff:ff:ff:ff",
            "01:00:5e:00:00:01"] + [f"02:00:00:00:00:{i:02x}" for i in range(6)]
    ents = []
    for m in rnd.sample(pool, rnd.randrange(1, 7)):
        if rnd.random() < 0.2:
            ents.append(("cb/mac", ["dstAddr", m, "action", "l2switch/cb/drop"]))
        else:
            ents.append(("cb/mac", ["dstAddr", m, "action", "l2switch/cb/fwd",
                                    "param", "port", rnd.choice(topo.P)]))
    frames = []
    for _ in range(rnd.randrange(6, 16)):
        port = rnd.randrange(2)
        dst = rnd.choice(pool + ["02:00:00:00:00:77"])
        if rnd.random() < 0.5:
            f = fuzz_frame(rnd, topo, port, wire.ipv4("10.3.0.1", "10.3.0.2", 17,
                                                      wire.l4(17, "10.3.0.1", "10.3.0.2", 9, 9)))
        else:
            f = fuzz_frame(rnd, topo, port, wire.arp("10.3.0.1", "10.3.0.2",
                                                     mac(topo.T[port])), 0x0806)
        frames.append((port, bytes.fromhex(dst.replace(":", "")) + f[6:]))
    return ents, frames
