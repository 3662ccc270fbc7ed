"""The counter (tests/programs/counter) for the equivalence runner: no
table, per-class packet and byte counts in registers; ICMP, TCP, UDP,
other IP protocols and non-IP frames of many sizes.  The registers'
cells (software's plus the device's) must match."""

from programs.common import Corpus, fuzz_frame, fuzz_l4, program

NAME = "counter"
TC, INTROSPECTION = program(NAME)
TABLES = []
REGISTERS = ["pkts", "bytes"]


def entries(topo):
    return []


def corpus(topo):
    from scapy.all import ARP, ICMP, IP, IPv6, UDP  # lazily: 17 s in the guest
    c = Corpus(topo)
    for size in [60, 61, 200, 1514]:
        c.add(0, c.eth(0) / IP(dst="10.1.0.2") / ICMP(), size)
        c.tcp(0, "10.1.0.1", "10.1.0.2", size=size)
        c.udp(1, "10.1.0.1", "10.1.0.2", size=size)
        c.add(1, c.eth(1) / IP(dst="10.1.0.2", proto=47), size)
    c.add(0, c.eth(0) / ARP(pdst="10.1.0.2"))
    c.add(0, c.eth(0) / IPv6(dst="fd00::1") / UDP())
    full = bytes(c.eth(0) / IP(dst="10.1.0.2") / UDP())
    c.raw(0, full[:14 + 12])
    return c.frames


def fuzz(rnd, topo):
    """No entries: frames of random protocols and sizes in on either
    port, sometimes mutated; the registers' cells must agree."""
    frames = []
    for _ in range(rnd.randrange(6, 20)):
        port = rnd.randrange(2)
        frames.append((port, fuzz_frame(rnd, topo, port,
                                        fuzz_l4(rnd, "10.1.0.1", "10.1.0.2"))))
    return [], frames
