"""The IPv6 router (tests/programs/router6) for the equivalence runner:
128-bit LPM routes that nest and overlap (written as IPv6 addresses: tc's
ipv6 key type), a route to a missing next hop, a route that drops; frames
at the prefixes' edges, every hop-limit branch, to link-local and
multicast destinations (the host's), not IPv6, cut short, from both
ports."""

import ipaddress
import struct

from programs import wire
from programs.common import fuzz_frame, fuzz_routes, mac, program

NAME = "router6"
TC, INTROSPECTION = program(NAME)
TABLES = ["cb/fib", "cb/nexthop"]


def ipv6(src, dst, nxt, payload, hlim=64):
    """An IPv6 header before @payload."""
    return struct.pack("!IHBB16s16s", 6 << 28, len(payload), nxt, hlim,
                       ipaddress.IPv6Address(src).packed,
                       ipaddress.IPv6Address(dst).packed) + payload


def udp(data=b"r6"):
    return struct.pack("!HHHH", 1000, 9, 8 + len(data), 0) + data


def frame(topo, port, l3, ethertype=0x86dd):
    return wire.eth(mac(topo.P[port]), mac(topo.T[port]), ethertype, l3)


def entries(topo):
    """(table, tc arguments) of every entry, in creation order."""
    t0, t1 = mac(topo.T[0]), mac(topo.T[1])
    p0, p1 = topo.P

    def nh(n, dmac, smac, port):
        return ("cb/nexthop", ["nh", str(n), "action", "router6/cb/forward",
                               "param", "dmac", dmac, "param", "smac", smac,
                               "param", "port", port])

    def route(prefix, n):
        return ("cb/fib", ["dstAddr", prefix, "action", "router6/cb/set_nh",
                           "param", "nh", str(n)])
    return [
        nh(1, t1, mac(p1), p1), nh(2, t0, mac(p0), p0),
        nh(3, "02:00:00:00:00:03", mac(p1), p1),
        route("2001:db8:2::/48", 1),
        route("2001:db8:2::/64", 2),
        route("2001:db8:2:0:8000::/65", 3),
        route("2001:db8:1::/64", 2),
        route("2001:db8:4::/64", 9),        # no next hop 9: its miss drops
        ("cb/fib", ["dstAddr", "2001:db8:3::/64", "action", "router6/cb/drop"]),
        route("::/1", 1),                   # the low half of the space
    ]


def corpus(topo):
    """(port, frame) pairs: the frames tester port sends to p4nic port."""
    out = []
    for dst in ["2001:db8:2::1", "2001:db8:2::7fff:ffff:ffff:ffff",
                "2001:db8:2:0:8000::", "2001:db8:2:0:ffff:ffff:ffff:ffff",
                "2001:db8:2:1::1", "2001:db8:2:ffff::1", "2001:db8:1::5",
                "2001:db8:3::1", "2001:db8:4::1", "2001:db8:9::9",
                "7fff:ffff::1", "8000::", "fe80::1", "ff02::1", "::",
                "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"]:
        out.append((0, frame(topo, 0, ipv6("2001:db8:1::1", dst, 17, udp()))))
    for hlim in [0, 1, 2, 255]:
        out.append((0, frame(topo, 0, ipv6("2001:db8:1::1", "2001:db8:2::1", 17,
                                           udp(), hlim=hlim))))
    for size in [128, 512, 1514]:
        f = frame(topo, 0, ipv6("2001:db8:1::1", "2001:db8:2::3", 17, udp()))
        out.append((0, f + bytes(i & 255 for i in range(size - len(f)))))
    out.append((1, frame(topo, 1, ipv6("2001:db8:2::1", "2001:db8:1::9", 58,
                                       b"\x80\0\0\0\0\1\0\1"))))
    full = frame(topo, 0, ipv6("2001:db8:1::1", "2001:db8:2::1", 17, udp()))
    out.append((0, full[:14 + 30]))                   # an IPv6 header cut short
    out.append((0, frame(topo, 0, wire.ipv4("10.1.0.1", "10.2.0.1", 17,
                                            wire.l4(17, "10.1.0.1", "10.2.0.1", 1, 9)),
                         0x0800)))
    out.append((0, frame(topo, 0, b"\x00\x05" + full[12:], 0x8100)))  # VLAN 5
    return out


def rand_prefix6(rnd):
    """A prefix of any length, under 2001:db8::/32 or anywhere."""
    plen = rnd.choice([0, 1, 16, 32, 48, 63, 64, 65, 127, 128,
                       rnd.randrange(129)])
    base = rnd.choice([0x20010db8 << 96, rnd.getrandbits(128)])
    base += rnd.getrandbits(96) if plen > 32 else 0
    return str(ipaddress.IPv6Network((base >> (128 - plen) << (128 - plen)
                                      if plen else 0, plen)))


def rand_addr(rnd, prefixes):
    """An address inside one of @prefixes, at its edge, or anywhere."""
    if prefixes and rnd.random() < 0.8:
        net = ipaddress.IPv6Network(rnd.choice(prefixes))
        off = rnd.choice([0, 1, net.num_addresses - 1,
                          rnd.randrange(net.num_addresses)])
        return str(net.network_address + off)
    return str(ipaddress.IPv6Address(rnd.getrandbits(128)))


def fuzz(rnd, topo):
    """Random next hops (some routes name a missing one), random nested
    prefixes under 2001:db8::/32 and anywhere, some that drop; frames to
    their edges with every hop-limit branch, sometimes mutated."""
    ents, prefixes = fuzz_routes(rnd, topo, NAME, rand_prefix6)
    frames = []
    for _ in range(rnd.randrange(6, 16)):
        port = rnd.randrange(2)
        l3 = ipv6("2001:db8:1::1", rand_addr(rnd, prefixes),
                  rnd.choice([17, 6, 58]), udp(bytes(rnd.randrange(40))),
                  hlim=rnd.choice([0, 1, 2, 64, 255]))
        frames.append((port, fuzz_frame(rnd, topo, port, l3, ethertype=0x86dd)))
    return ents, frames
