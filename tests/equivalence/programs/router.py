"""The IPv4 router (tests/programs/router) for the equivalence runner:
routes with overlapping prefixes, a route to a missing next hop, a route
that drops; frames at every prefix edge, every TTL branch, both checksum
branches, with IP options, truncated, not IPv4, VLAN-tagged, sizes from
60 to 1514 bytes, from both ports."""

import random

from programs.common import (bpf_object, fuzz_frame, fuzz_l4, fuzz_routes, mac,
                             pick_addr, program, rand_prefix)

NAME = "router"
TC, INTROSPECTION = program(NAME)
TABLES = ["cb/fib", "cb/nexthop"]
# its eBPF parsers (p4tc-compile --bpf's, built by make bpf),
# for the bpf-tc and bpf-xdp modes
BPF_PARSER = (bpf_object(NAME, "parser"), "p4tc/parser")
BPF_XDP_PARSER = (bpf_object(NAME, "parser-xdp"), 22)
# its eBPF datapath (datapath.bpf.c), for the bpf-dp mode
BPF_DATAPATH = (bpf_object(NAME, "datapath"), "p4tc/datapath")
BPF_XDP_DATAPATH = bpf_object(NAME, "datapath-xdp")


def entries(topo):
    """(table, tc arguments) of every entry, in creation order."""
    t0, t1 = mac(topo.T[0]), mac(topo.T[1])
    p0, p1 = topo.P

    def fwd(dmac, smac, port):
        return ["action", "router/cb/forward", "param", "dmac", dmac,
                "param", "smac", smac, "param", "port", port]

    def route(prefix, nh):
        return ("cb/fib", ["dstAddr", prefix, "action", "router/cb/set_nh",
                           "param", "nh", str(nh)])
    return [
        ("cb/nexthop", ["nh", "1", *fwd(t1, mac(p1), p1)]),
        ("cb/nexthop", ["nh", "2", *fwd(t0, mac(p0), p0)]),
        ("cb/nexthop", ["nh", "3", *fwd("02:00:00:00:00:03", mac(p1), p1)]),
        route("10.2.0.0/16", 1),
        route("10.2.1.0/24", 2),
        route("10.2.1.128/25", 3),
        route("10.1.0.0/24", 2),
        route("10.4.0.0/24", 9),        # no next hop 9: its miss drops
        ("cb/fib", ["dstAddr", "10.3.0.0/24", "action", "router/cb/drop"]),
        route("0.0.0.0/1", 1),          # the low half of the space
    ]


def corpus(topo):
    """(port, frame) pairs: the frames tester port sends to p4nic port."""
    from scapy.all import ARP, Dot1Q, Ether, IP, IPv6, Raw, UDP  # lazily: 17 s in the guest
    rnd = random.Random(7)
    out = []

    def ip(port, dst, size=60, **kw):
        pmac = mac(topo.P[port])
        f = Ether(dst=pmac, src=mac(topo.T[port])) / \
            IP(src=f"10.{port + 1}.0.1", dst=dst, **kw) / UDP(sport=1000, dport=9)
        pad = max(0, size - len(f))
        out.append((port, bytes(f / Raw(bytes(rnd.randrange(256) for _ in range(pad))))))

    for dst in ["10.2.0.1", "10.2.0.255", "10.2.1.0", "10.2.1.127",
                "10.2.1.128", "10.2.1.255", "10.2.255.255", "10.1.0.5",
                "10.3.0.1", "10.4.0.1", "10.9.9.9", "127.255.255.255",
                "128.0.0.0", "192.168.1.1", "0.0.0.0", "255.255.255.255"]:
        ip(0, dst)
    for ttl in [0, 1, 2, 255]:
        ip(0, "10.2.0.1", ttl=ttl)
    for ident in range(0, 65536, 4099):     # checksums with and without carry
        ip(0, "10.2.0.1", id=ident, ttl=64)
    for size in [61, 128, 512, 1000, 1514]:
        ip(0, "10.2.0.7", size=size)
    ip(0, "10.2.0.1", options=b"\x01\x01\x01\x00")        # IHL 6
    ip(1, "10.1.0.9")
    ip(1, "10.2.1.200")
    ip(1, "10.3.0.3")
    p0 = mac(topo.P[0])
    t0 = mac(topo.T[0])
    full = bytes(Ether(dst=p0, src=t0) / IP(dst="10.2.0.1") / UDP() / Raw(b"x" * 20))
    out.append((0, full[:14 + 10]))                      # truncated IPv4
    bad_ihl = bytearray(full)
    bad_ihl[14] = 0x4f                                   # IHL 15, 20 bytes there
    out.append((0, bytes(bad_ihl[:14 + 24])))
    out.append((0, bytes(Ether(dst=p0, src=t0) / ARP(pdst="10.1.0.254"))))
    out.append((0, bytes(Ether(dst=p0, src=t0) / IPv6(dst="fd00::1") / UDP())))
    out.append((0, bytes(Ether(dst=p0, src=t0, type=0x88b5) / Raw(b"p4tc" * 12))))
    out.append((0, bytes(Ether(dst=p0, src=t0) / Dot1Q(vlan=5) /
                         IP(dst="10.2.0.1") / UDP() / Raw(b"v" * 20))))
    out.append((0, bytes(Ether(dst="ff:ff:ff:ff:ff:ff", src=t0) /
                         IP(dst="10.2.0.1") / UDP() / Raw(b"b" * 20))))
    return out


def fuzz(rnd, topo):
    """Random next hops (some routes name a missing one), random nested
    and overlapping routes, some that drop; frames to their edges with
    every TTL branch, sometimes mutated (common.mutate)."""
    ents, prefixes = fuzz_routes(rnd, topo, NAME, rand_prefix)
    frames = []
    for _ in range(rnd.randrange(6, 16)):
        port = rnd.randrange(2)
        l3 = fuzz_l4(rnd, f"10.{port + 1}.0.1", pick_addr(rnd, prefixes))
        frames.append((port, fuzz_frame(rnd, topo, port, l3)))
    return ents, frames
