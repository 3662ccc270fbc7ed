"""The tunnel push and pop by port (tests/programs/tunnel) for the
equivalence runner: port 0 pushes tunnel 7 towards port 1, port 1 pops
tunnel 7 (drops any other) towards port 0.  Frames: plain, tunneled with
the right id and a wrong one, tunneled twice, a tunnel header cut short,
from both ports."""

import struct

from programs import wire
from programs.common import Corpus, fuzz_frame, mac, program

NAME = "tunnel"
TC, INTROSPECTION = program(NAME)
TABLES = ["cb/ports"]
IDS = [0, 1, 7, 0xffffffff]
ETHERTYPE = 0x88b5


def push(port, tid, out):
    return ("cb/ports", ["port", port, "action", "tunnel/cb/push",
                         "param", "id", str(tid), "param", "port", out])


def pop(port, tid, out):
    return ("cb/ports", ["port", port, "action", "tunnel/cb/pop",
                         "param", "id", str(tid), "param", "port", out])


def drop(port):
    return ("cb/ports", ["port", port, "action", "tunnel/cb/drop"])


def entries(topo):
    p0, p1 = topo.P
    return [push(p0, 7, p1), pop(p1, 7, p0)]


def encap(frame, tid):
    """@frame inside a tunnel header of id @tid."""
    return frame[:12] + struct.pack("!HIH", ETHERTYPE, tid,
                                    struct.unpack("!H", frame[12:14])[0]) + frame[14:]


def corpus(topo):
    c = Corpus(topo)
    for port in (0, 1):
        src, dst = mac(topo.T[port]), mac(topo.P[port])
        udp = wire.eth(dst, src, 0x0800, wire.ipv4(
            "10.9.0.1", "10.9.0.2", 17,
            wire.l4(17, "10.9.0.1", "10.9.0.2", 1000, 9, b"tunnel")))
        arp = wire.eth(dst, src, 0x0806, wire.arp("10.9.0.1", "10.9.0.2", src))
        for f in (udp, arp):
            c.add(port, f)
            for tid in IDS:
                c.add(port, encap(f, tid))
            c.add(port, encap(encap(f, 7), 7), 64)
        c.add(port, udp, 200)
        c.add(port, encap(udp, 7), 1400)
        # a tunnel header the frame ends inside: the parse graph rejects it
        c.raw(port, udp[:12] + struct.pack("!HH", ETHERTYPE, 7))
    return c.frames


def fuzz(rnd, topo):
    """Random push, pop and drop entries per port; frames plain or
    tunneled once or twice with ids of a small pool."""
    ents = []
    for port in topo.P:
        r = rnd.random()
        if r < 0.4:
            ents.append(push(port, rnd.choice(IDS), rnd.choice(topo.P)))
        elif r < 0.8:
            ents.append(pop(port, rnd.choice(IDS), rnd.choice(topo.P)))
        elif r < 0.9:
            ents.append(drop(port))
    frames = []
    for _ in range(rnd.randrange(6, 16)):
        port = rnd.randrange(2)
        l3 = wire.ipv4("10.9.0.1", "10.9.0.2", 17,
                       wire.l4(17, "10.9.0.1", "10.9.0.2", 9, 9))
        f = fuzz_frame(rnd, topo, port, l3, size=rnd.choice([60, 64, 200, 1400]))
        for _ in range(rnd.choice([0, 1, 1, 2])):
            f = encap(f, rnd.choice(IDS))
        frames.append((port, f))
    return ents, frames
