"""The ACL (tests/programs/acl) for the equivalence runner: overlapping
ternary entries of equal and different priority, allow and deny, the
default deny; TCP, UDP, ICMP and non-IP frames, with ports at the
entries' edges, IP options, truncated headers."""

from programs.common import Corpus, fuzz_frame, fuzz_l4, pick_addr, program, rand_prefix

NAME = "acl"
TC, INTROSPECTION = program(NAME)
TABLES = ["cb/acl"]

ALLOW = ["action", "acl/cb/allow"]
DENY = ["action", "acl/cb/deny"]


def entries(topo):
    t = "cb/acl"
    return [
        (t, ["srcAddr", "10.11.0.1", "protocol", "6", "dstPort", "22", "prio", "5", *ALLOW]),
        (t, ["protocol", "17", "dstPort", "53", "prio", "10", *ALLOW]),
        (t, ["srcAddr", "10.11.0.0/24", "prio", "20", *ALLOW]),
        (t, ["srcAddr", "10.11.0.7", "prio", "15", *DENY]),
        (t, ["dstAddr", "10.12.0.0/16", "protocol", "6", "prio", "20", *DENY]),
        (t, ["protocol", "1", "prio", "30", *ALLOW]),
        (t, ["srcPort", "5000", "prio", "3", *DENY]),
    ]


def corpus(topo):
    from scapy.all import ARP, ICMP, IP, IPv6, UDP  # lazily: 17 s in the guest
    c = Corpus(topo)
    for src in ["10.11.0.1", "10.11.0.7", "10.11.0.200", "10.11.1.1", "10.99.0.1"]:
        c.tcp(0, src, "10.12.0.1", dport=22)
        c.tcp(0, src, "10.13.0.1", dport=22)
        c.udp(0, src, "10.12.0.1", dport=53)
        c.udp(0, src, "10.12.0.1", dport=54)
    c.udp(0, "10.99.0.1", "10.12.0.1", sport=5000, dport=53)
    c.tcp(0, "10.11.0.1", "10.12.0.1", sport=5000, dport=22)
    c.tcp(1, "10.11.0.1", "10.12.0.1", dport=22)
    c.add(0, c.eth(0) / IP(src="10.99.0.1", dst="10.12.0.1") / ICMP())
    c.add(0, c.eth(0) / IP(src="10.99.0.1", dst="10.12.0.1", options=b"\x01\x01\x01\x00") /
          UDP(dport=53))
    full = bytes(c.eth(0) / IP(src="10.11.0.1", dst="10.12.0.1") / UDP(dport=53))
    c.raw(0, full[:14 + 20 + 4])                          # UDP header cut
    c.add(0, c.eth(0) / ARP(pdst="10.11.0.254"))
    c.add(0, c.eth(0) / IPv6(dst="fd00::1") / UDP(dport=53))
    c.udp(0, "10.11.0.1", "10.12.0.1", dport=53, size=1514)
    return c.frames


def _ternary_addr(rnd, pool):
    pf = rand_prefix(rnd, pool)
    if rnd.random() < 0.2:          # a mask that is no prefix
        addr = pf.split("/")[0]
        mask = ".".join(str(rnd.choice([0, 255, rnd.getrandbits(8)])) for _ in range(4))
        return pf, f"{addr}/{mask}"
    return pf, pf


def _ternary_port(rnd):
    v = rnd.choice([22, 53, 80, 1000, 5000, rnd.getrandbits(16)])
    if rnd.random() < 0.3:
        m = rnd.choice([0xff00, 0xfff0, 0x00ff, rnd.getrandbits(16)])
        return f"{v & m}/0x{m:04x}"
    return str(v)


def fuzz(rnd, topo):
    """Random ternary entries: any subset of the five fields, prefixes
    and masks that are no prefix, priorities that repeat, allow and deny;
    frames from and to their edges on the ports they name."""
    pool = ("10.11.0.0", "10.12.0.0")
    ents, src, dst = [], [], []
    for _ in range(rnd.randrange(1, 10)):
        args = []
        if rnd.random() < 0.6:
            pf, arg = _ternary_addr(rnd, pool)
            src.append(pf)
            args += ["srcAddr", arg]
        if rnd.random() < 0.4:
            pf, arg = _ternary_addr(rnd, pool)
            dst.append(pf)
            args += ["dstAddr", arg]
        if rnd.random() < 0.5:
            args += ["protocol", str(rnd.choice([1, 6, 17, 47]))]
        if rnd.random() < 0.3:
            args += ["srcPort", _ternary_port(rnd)]
        if rnd.random() < 0.4:
            args += ["dstPort", _ternary_port(rnd)]
        args += ["prio", str(rnd.randrange(1, 20)), *rnd.choice([ALLOW, DENY])]
        ents.append(("cb/acl", args))
    frames = []
    for _ in range(rnd.randrange(6, 16)):
        port = rnd.randrange(2)
        l3 = fuzz_l4(rnd, pick_addr(rnd, src), pick_addr(rnd, dst), ttl=64)
        frames.append((port, fuzz_frame(rnd, topo, port, l3)))
    return ents, frames
