"""What the programs' entry sets and corpora share."""

import ipaddress
import os
import random

from programs import wire

TOP = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def program(name):
    """The .tc file and the introspection directory of example program NAME:
    what p4tc-compile made of tests/programs/NAME/NAME.p4 (make compiled)"""
    d = os.path.join(TOP, "build", "compiler", name)
    return os.path.join(d, f"{name}.tc"), d


def bpf_object(name, prog):
    """The object make bpf builds of NAME's PROG.bpf.c (the router's parsers:
    p4tc-compile --bpf's)"""
    return os.path.join(TOP, "build", "bpf", name, f"{prog}.bpf.o")


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
        from scapy.all import Ether
        return Ether(dst=dst or mac(self.topo.P[port]),
                     src=mac(self.topo.T[port]))

    def udp(self, port, src, dst, sport=1000, dport=9, size=60, **kw):
        from scapy.all import IP, UDP
        self.add(port, self.eth(port) / IP(src=src, dst=dst, **kw) /
                 UDP(sport=sport, dport=dport), size)

    def tcp(self, port, src, dst, sport=1000, dport=80, size=60, **kw):
        from scapy.all import IP, TCP
        self.add(port, self.eth(port) / IP(src=src, dst=dst, **kw) /
                 TCP(sport=sport, dport=dport), size)

    def raw(self, port, frame):
        self.frames.append((port, bytes(frame)))


# --- differential fuzzing (fuzz.py): random entries and frames ----------

def rand_prefix(rnd, pool=("10.0.0.0", "10.1.0.0", "10.2.0.0", "192.168.0.0")):
    """A prefix near the others (so they nest and overlap), any length."""
    base = int(ipaddress.IPv4Address(rnd.choice(pool)))
    if rnd.random() < 0.2:
        base = rnd.getrandbits(32)
    plen = rnd.choice([0, 1, 8, 16, 23, 24, 25, 31, 32, rnd.randrange(33)])
    base ^= rnd.getrandbits(16) if rnd.random() < 0.7 else 0
    net = ipaddress.IPv4Network((base, plen), strict=False)
    return f"{net.network_address}/{plen}"


def edges(prefixes):
    """Addresses at the edges of @prefixes: first, last, one before,
    one after."""
    out = set()
    for p in prefixes:
        net = ipaddress.IPv4Network(p, strict=False)
        lo, hi = int(net.network_address), int(net.broadcast_address)
        out |= {a & 0xffffffff for a in (lo, hi, lo - 1, hi + 1, (lo + hi) // 2)}
    return [str(ipaddress.IPv4Address(a)) for a in sorted(out)]


def pick_addr(rnd, prefixes):
    """Mostly an edge of one of @prefixes, sometimes anything."""
    e = edges(prefixes)
    if e and rnd.random() < 0.85:
        return rnd.choice(e)
    return str(ipaddress.IPv4Address(rnd.getrandbits(32)))


MAX_FUZZ_FRAME = 1514 - 8      # the burst's tag (engine.tagged) goes after


def mutate(rnd, frame):
    """Now and then: a VLAN tag, another EtherType, a broadcast or
    multicast destination, IP options, a bad IHL, a fragment, a cut."""
    f = bytearray(frame)
    # an IPv4 header whole enough to change (a frame may be mutated twice)
    ip = 14 if f[12:14] == b"\x08\x00" and len(f) >= 34 else None
    r = rnd.random()
    if r < 0.08:
        f[0:6] = rnd.choice([b"\xff" * 6, b"\x01\x00\x5e\x00\x00\x01"])
    elif r < 0.16:
        # an 802.1Q tag (PCP and VID random) before the EtherType
        tci = rnd.getrandbits(16) & 0xefff
        f[12:12] = b"\x81\x00" + tci.to_bytes(2, "big")
    elif r < 0.22:
        f[12:14] = rnd.choice([b"\x86\xdd", b"\x08\x06", b"\x88\xb5",
                               rnd.getrandbits(16).to_bytes(2, "big")])
    elif r < 0.28 and ip is not None:
        f[ip] = 0x40 | rnd.choice([0, 1, 4, 6, 15])
    elif r < 0.32 and ip is not None:
        f[ip + 6] |= rnd.choice([0x20, 0x1f])     # MF, or an offset
    if rnd.random() < 0.1 and len(f) > 14:
        # no shorter than an Ethernet header: a packet socket sends no less
        f = f[:rnd.randrange(14, len(f))]
    return bytes(f[:MAX_FUZZ_FRAME])


def fuzz_frame(rnd, topo, port, l3, ethertype=0x0800, size=None):
    """@l3 (bytes) in an Ethernet frame from tester @port to its p4nic
    port, padded to a random size (random bytes), sometimes mutated."""
    f = wire.eth(mac(topo.P[port]), mac(topo.T[port]), ethertype, l3)
    size = size or rnd.choice([60, 60, 64, 128, rnd.randrange(60, MAX_FUZZ_FRAME + 1)])
    f += bytes(rnd.getrandbits(8) for _ in range(max(0, size - len(f))))
    return mutate(rnd, f)


def fuzz_l4(rnd, src, dst, ttl=None):
    """An IPv4 packet of a random protocol and ports, as bytes."""
    ttl = ttl if ttl is not None else rnd.choice([0, 1, 2, 64, 255])
    opts = b"\x01\x01\x01\x00" if rnd.random() < 0.1 else b""
    proto = rnd.choice([6, 17, 17, 1, rnd.choice([47, 132, 255])])

    def port():
        return rnd.choice([0, 22, 53, 80, 1000, 5000, 65535, rnd.getrandbits(16)])
    seg = wire.l4(proto, src, dst, port(), port())
    return wire.ipv4(src, dst, proto, seg, ttl=ttl, ident=rnd.getrandbits(16),
                     options=opts)


def fuzz_routes(rnd, topo, pipe, draw_prefix):
    """The routers' random entries: next hops 1-6 (some to a MAC nobody
    has), then up to 11 routes of prefixes DRAW_PREFIX(rnd) draws, some
    that drop, some to a next hop that does not exist.  (entries,
    prefixes); PIPE is router or router6."""
    p = topo.P
    ents = []
    for nh in rnd.sample(range(1, 7), rnd.randrange(1, 5)):
        port = rnd.randrange(2)
        dmac = rnd.choice([mac(topo.T[port]), f"02:00:00:00:00:{nh:02x}"])
        ents.append(("cb/nexthop", ["nh", str(nh), "action", f"{pipe}/cb/forward",
                                    "param", "dmac", dmac, "param", "smac",
                                    mac(p[port]), "param", "port", p[port]]))
    prefixes = []
    for _ in range(rnd.randrange(1, 12)):
        pf = draw_prefix(rnd)
        if pf in prefixes:
            continue
        prefixes.append(pf)
        if rnd.random() < 0.15:
            ents.append(("cb/fib", ["dstAddr", pf, "action", f"{pipe}/cb/drop"]))
        else:
            ents.append(("cb/fib", ["dstAddr", pf, "action", f"{pipe}/cb/set_nh",
                                    "param", "nh", str(rnd.randrange(1, 9))]))
    return ents, prefixes
