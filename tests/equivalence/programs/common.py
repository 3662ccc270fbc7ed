"""What the programs' entry sets and corpora share."""

import os
import random

from scapy.all import Ether, IP, TCP, UDP

TOP = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def program(name):
    """The .tc file and the introspection directory of tests/programs/NAME"""
    d = os.path.join(TOP, "tests", "programs", name)
    return os.path.join(d, f"{name}.tc"), d


def mac(dev):
    with open(f"/sys/class/net/{dev}/address") as f:
        return f.read().strip()


class Corpus:
    """(port, frame) pairs, frames padded with seeded random bytes."""

    def __init__(self, topo, seed=7):
        self.topo = topo
        self.rnd = random.Random(seed)
        self.frames = []

    def add(self, port, frame, size=60):
        frame = bytes(frame)
        pad = max(0, size - len(frame))
        self.frames.append((port, frame + bytes(self.rnd.randrange(256)
                                                for _ in range(pad))))

    def eth(self, port, dst=None):
        return Ether(dst=dst or mac(self.topo.P[port]),
                     src=mac(self.topo.T[port]))

    def udp(self, port, src, dst, sport=1000, dport=9, size=60, **kw):
        self.add(port, self.eth(port) / IP(src=src, dst=dst, **kw) /
                 UDP(sport=sport, dport=dport), size)

    def tcp(self, port, src, dst, sport=1000, dport=80, size=60, **kw):
        self.add(port, self.eth(port) / IP(src=src, dst=dst, **kw) /
                 TCP(sport=sport, dport=dport), size)

    def raw(self, port, frame):
        self.frames.append((port, bytes(frame)))
