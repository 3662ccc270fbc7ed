"""Port security (tests/programs/portsec) for the equivalence runner:
each port knows its tester's MAC and one other; the ports table sends
each port's frames to the other.  Frames from known and unknown source
MACs, broadcast and multicast sources, from both ports, with the
violations register counting what is dropped."""

from programs import wire
from programs.common import Corpus, fuzz_frame, mac, program

NAME = "portsec"
TC, INTROSPECTION = program(NAME)
TABLES = ["cb/stations", "cb/ports"]
OTHER = "02:60:00:00:00:99"


def station(port, smac):
    return ("cb/stations", ["port", port, "srcAddr", smac, "action", "portsec/cb/known"])


def way(port, out):
    return ("cb/ports", ["port", port, "action", "portsec/cb/forward", "param", "port", out])


def entries(topo):
    p0, p1 = topo.P
    return [station(p0, mac(topo.T[0])), station(p1, mac(topo.T[1])),
            station(p1, OTHER), way(p0, p1)]


def corpus(topo):
    c = Corpus(topo)
    for port in (0, 1):
        dst = mac(topo.P[port])
        for src in (mac(topo.T[port]), mac(topo.T[1 - port]), OTHER,
                    "ff:ff:ff:ff:ff:ff", "01:00:5e:00:00:01"):
            l3 = wire.ipv4("10.9.0.1", "10.9.0.2", 17,
                           wire.l4(17, "10.9.0.1", "10.9.0.2", 1000, 9, b"portsec"))
            c.add(port, wire.eth(dst, src, 0x0800, l3))
            c.add(port, wire.eth(dst, src, 0x0806, wire.arp("10.9.0.1", "10.9.0.2", src)))
    return c.frames


def fuzz(rnd, topo):
    """Random stations (the testers' MACs and others) and ways out;
    frames from those MACs and others, from both ports."""
    macs = [mac(topo.T[0]), mac(topo.T[1]), OTHER, "02:60:00:00:00:01"]
    ents, seen = [], set()
    for _ in range(rnd.randrange(0, 6)):
        port, smac = rnd.choice(topo.P), rnd.choice(macs)
        if (port, smac) not in seen:
            seen.add((port, smac))
            ents.append(station(port, smac))
    for port in topo.P:
        if rnd.random() < 0.7:
            ents.append(way(port, rnd.choice(topo.P)))
    frames = []
    for _ in range(rnd.randrange(6, 16)):
        port = rnd.randrange(2)
        l3 = wire.ipv4("10.9.0.1", "10.9.0.2", 17, wire.l4(17, "10.9.0.1", "10.9.0.2", 9, 9))
        f = fuzz_frame(rnd, topo, port, l3, size=rnd.choice([60, 64, 200]))
        if rnd.random() < 0.8:
            f = f[:6] + wire.mac_bytes(rnd.choice(macs)) + f[12:]
        frames.append((port, f))
    return ents, frames
