"""The L2 switch (tests/programs/l2switch) for the equivalence runner:
exact entries on destination MACs that forward out of a port, the
default drop; unicast to known and unknown MACs, broadcast, multicast."""

from scapy.all import ARP, Ether, IP, UDP

from programs.common import Corpus, mac, program

NAME = "l2switch"
TC, INTROSPECTION = program(NAME)
TABLES = ["cb/mac"]


def entries(topo):
    def fwd(dmac, port):
        return ("cb/mac", ["dstAddr", dmac, "action", "l2switch/cb/fwd",
                           "param", "port", port])
    p0, p1 = topo.P
    return [fwd(mac(topo.T[1]), p1), fwd(mac(topo.T[0]), p0),
            fwd("02:00:00:00:00:99", p1), fwd("ff:ff:ff:ff:ff:ff", p1)]


def corpus(topo):
    c = Corpus(topo)
    for port in (0, 1):
        for dst in [mac(topo.T[0]), mac(topo.T[1]), "02:00:00:00:00:99",
                    "02:00:00:00:00:98", "ff:ff:ff:ff:ff:ff", "01:00:5e:00:00:01"]:
            src = mac(topo.T[port])
            c.add(port, Ether(dst=dst, src=src) / IP(dst="10.3.0.2") / UDP())
            c.add(port, Ether(dst=dst, src=src) / ARP(pdst="10.3.0.2"), 100)
    return c.frames
