"""VLAN push and pop by port (tests/programs/vlan) for the equivalence
runner: port 0 is an access port of VLAN 10 (and pops VLAN 5), port 1 a
trunk (pops 10, re-tags 20 as 30 in place, drops 30).  Frames: untagged,
tagged with each VLAN, priority-tagged, double-tagged, 802.1ad, and a
tag cut short, from both ports."""

import struct

from programs import wire
from programs.common import Corpus, fuzz_frame, mac, program

NAME = "vlan"
TC, INTROSPECTION = program(NAME)
TABLES = ["cb/port"]
VIDS = [0, 5, 10, 20, 30, 4095]


def push(port, vid, to, out):
    return ("cb/port", ["port", port, "vid", str(vid), "action", "vlan/cb/push",
                        "param", "vid", str(to), "param", "out", out])


def pop(port, vid, out):
    return ("cb/port", ["port", port, "vid", str(vid), "action", "vlan/cb/pop",
                        "param", "out", out])


def drop(port, vid):
    return ("cb/port", ["port", port, "vid", str(vid), "action", "vlan/cb/drop"])


def entries(topo):
    p0, p1 = topo.P
    return [push(p0, 0, 10, p1), pop(p0, 5, p1), pop(p1, 10, p0),
            push(p1, 20, 30, p0), drop(p1, 30)]


def tag(frame, vid, pcp=0, tpid=0x8100):
    """An 802.1Q (or @tpid) tag before @frame's EtherType."""
    return frame[:12] + struct.pack("!HH", tpid, pcp << 13 | vid) + frame[12:]


def corpus(topo):
    c = Corpus(topo)
    for port in (0, 1):
        src, dst = mac(topo.T[port]), mac(topo.P[port])
        udp = wire.eth(dst, src, 0x0800, wire.ipv4(
            "10.9.0.1", "10.9.0.2", 17,
            wire.l4(17, "10.9.0.1", "10.9.0.2", 1000, 9, b"vlan")))
        arp = wire.eth(dst, src, 0x0806, wire.arp("10.9.0.1", "10.9.0.2", src))
        for f in (udp, arp):
            c.add(port, f)
            for vid in VIDS:
                c.add(port, tag(f, vid))
            c.add(port, tag(f, 0, pcp=5), 64)            # priority tag
            c.add(port, tag(tag(f, 20), 10), 64)         # double tag
            c.add(port, tag(f, 10, tpid=0x88a8), 64)     # 802.1ad
        c.add(port, udp, 200)
        c.add(port, tag(udp, 10), 1400)
        # a tag the frame ends inside: the parse graph rejects it
        c.raw(port, udp[:12] + b"\x81\x00\x00")
    return c.frames


def fuzz(rnd, topo):
    """Random push, pop and drop entries on (port, VLAN) of a small VLAN
    pool; frames untagged or tagged once or twice from that pool."""
    ents, seen = [], set()
    for _ in range(rnd.randrange(1, 7)):
        port, vid = rnd.choice(topo.P), rnd.choice(VIDS)
        if (port, vid) in seen:
            continue
        seen.add((port, vid))
        r = rnd.random()
        if r < 0.45:
            ents.append(push(port, vid, rnd.choice(VIDS), rnd.choice(topo.P)))
        elif r < 0.9:
            ents.append(pop(port, vid, rnd.choice(topo.P)))
        else:
            ents.append(drop(port, vid))
    frames = []
    for _ in range(rnd.randrange(6, 16)):
        port = rnd.randrange(2)
        l3 = wire.ipv4("10.9.0.1", "10.9.0.2", 17,
                       wire.l4(17, "10.9.0.1", "10.9.0.2", 9, 9))
        f = fuzz_frame(rnd, topo, port, l3, size=rnd.choice([60, 64, 200, 1400]))
        for _ in range(rnd.choice([0, 1, 1, 2])):
            f = tag(f, rnd.choice(VIDS), pcp=rnd.randrange(8))
        frames.append((port, f))
    return ents, frames
