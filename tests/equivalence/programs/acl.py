"""The ACL (tests/programs/acl) for the equivalence runner: overlapping
ternary entries of equal and different priority, allow and deny, the
default deny; TCP, UDP, ICMP and non-IP frames, with ports at the
entries' edges, IP options, truncated headers."""

from scapy.all import ARP, ICMP, IP, IPv6, UDP

from programs.common import Corpus, program

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
