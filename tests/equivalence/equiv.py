#!/usr/bin/python3
"""Software/hardware equivalence: one P4 program, one entry set, one packet
corpus, run in every placement; every placement must give what all
software gives.

    tests/equivalence/equiv.py [--program P] [--modes M,...] [--seed S]
                               [--mixed N] [--report FILE]

Runs in the test guest booted with --ports 2 (tests/equivalence/run boots
it): the p4nic's ports P0 and P1 carry the program (a p4 filter on each
ingress), the virtio tester wired to each port sends the corpus' frames
one at a time and captures what leaves the port.  Per frame the record
holds what left each port (bytes), what reached the host's stack (the
frame as a protocol handler after tc ingress sees it) or that it was
dropped; after the corpus, every entry's hit count.

Placements (modes):
  sw     the filters and every entry skip_hw: the kernel alone
  hw     the filters and every entry skip_sw: the NIC alone
  both   no flags: entries in both, the NIC first
  mixed  no flags on the filters; each entry none, skip_sw or skip_hw,
         drawn from the seed (--mixed N placements, seeds S, S+1, ...)
  mixed-skip_sw  the same with skip_sw filters: what the NIC hands over
         still runs the pipeline in the kernel

Exit 0 when every placement's records equal sw's, 1 on a mismatch (each
is printed: program, frame in hex and decoded, the placement of every
entry, both records, the seed), 2 on a setup error.  This is the first
runner of issue 10: fixed corpora, no differential fuzzing yet.
"""

import argparse
import importlib
import json
import os
import random
import select
import socket
import subprocess
import sys
import time

TOP = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
TC = os.path.join(TOP, "build", "iproute2", "bin", "tc")
ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4
QUIET = 0.4     # s without a frame: the frame's trip is over

sys.path.insert(0, os.path.join(TOP, "tests", "equivalence"))


class SetupError(Exception):
    pass


def sh(*args, check=True):
    r = subprocess.run(args, capture_output=True, text=True)
    if check and r.returncode:
        raise SetupError(f"{' '.join(args)}: {r.stderr.strip() or r.stdout.strip()}")
    return r.stdout


def tc(*args, check=True):
    return sh(TC, *args, check=check)


def netdev_by_mac(mac):
    for d in os.listdir("/sys/class/net"):
        try:
            with open(f"/sys/class/net/{d}/address") as f:
                if f.read().strip() == mac:
                    return d
        except OSError:
            pass
    raise SetupError(f"no netdev with MAC {mac}")


class Topology:
    """p4nic ports P[i] and the testers T[i] wired to them, all in the
    root namespace, quiet: no addresses, no IPv6."""

    SYSCTLS = ("net.ipv6.conf.all.disable_ipv6",
               "net.ipv6.conf.default.disable_ipv6")

    def __init__(self, ports=2):
        self.loaded = "p4nic" in open("/proc/modules").read()
        sh("modprobe", "p4nic")
        self.sysctls = {k: sh("sysctl", "-n", k).strip() for k in self.SYSCTLS}
        for k in self.SYSCTLS:
            sh("sysctl", "-qw", f"{k}=1")
        self.P = [netdev_by_mac(f"52:54:00:34:00:{i:02x}") for i in range(ports)]
        self.T = [netdev_by_mac(f"52:54:00:7e:00:{i:02x}") for i in range(ports)]
        for d in self.P + self.T:
            sh("ip", "link", "set", d, "up")
        for d in self.P:
            sh("tc", "qdisc", "add", "dev", d, "clsact", check=False)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if all(open(f"/sys/class/net/{d}/carrier").read().strip() == "1"
                   for d in self.P + self.T):
                break
            time.sleep(0.1)
        # what leaves a port: the tester wired to it sees it
        self.wire = []
        for t in self.T:
            s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                              socket.htons(ETH_P_ALL))
            s.bind((t, ETH_P_ALL))
            s.setblocking(False)
            self.wire.append(s)
        self.host = []

    def close(self):
        """Leave the guest as it was: later tests share it."""
        for s in self.wire + [s for _, s in self.host]:
            s.close()
        for d in self.P:
            sh("tc", "qdisc", "del", "dev", d, "clsact", check=False)
        for k, v in self.sysctls.items():
            sh("sysctl", "-qw", f"{k}={v}", check=False)
        if not self.loaded:
            sh("rmmod", "p4nic", check=False)

    def watch_host(self, ethertypes):
        """Sockets of a protocol (not ETH_P_ALL) get frames after tc
        ingress, as the stack's handlers do: what reached the host."""
        for s in self.host:
            s.close()
        self.host = []
        for i, p in enumerate(self.P):
            for et in sorted(ethertypes):
                s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                                  socket.htons(et))
                s.bind((p, et))
                s.setblocking(False)
                self.host.append((i, s))

    def drain(self):
        got = {"wire": [[] for _ in self.T], "host": [[] for _ in self.P]}
        socks = [(("wire", i), s) for i, s in enumerate(self.wire)] + \
            [(("host", i), s) for i, s in self.host]
        quiet_since = time.monotonic()
        while time.monotonic() - quiet_since < QUIET:
            r, _, _ = select.select([s for _, s in socks], [], [], 0.05)
            for (kind, i), s in socks:
                if s not in r:
                    continue
                while True:
                    try:
                        data, addr = s.recvfrom(65535)
                    except BlockingIOError:
                        break
                    if addr[2] == PACKET_OUTGOING:
                        continue
                    got[kind][i].append(data.hex())
                    quiet_since = time.monotonic()
        return got

    def send(self, port, frame):
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
        s.bind((self.T[port], 0))
        s.send(frame)
        s.close()


def entry_counts(prog):
    """Every entry's hits, by table and key: software's and the devices'."""
    counts = {}
    for table in prog.TABLES:
        out = tc("-s", "-j", "p4", "get", f"{prog.NAME}/table/{table}")
        try:
            j = json.loads(out)
        except ValueError:
            continue
        for part in j:
            for e in part.get("entries", []):
                key = json.dumps(e.get("key", []), sort_keys=True)
                counts[f"{table} {key} prio {e.get('prio')}"] = \
                    e.get("stats", {}).get("packets", 0)
    # a register's cells: software's plus each device's (both start at 0)
    for reg in getattr(prog, "REGISTERS", []):
        j = json.loads(tc("-j", "p4template", "get",
                          f"register/{prog.NAME}/{reg}"))
        t = j[1]["templates"][0]
        cells = [int(e["value"]) for e in t["elements"]]
        for h in t.get("hw", []):
            for i, e in enumerate(h["elements"]):
                cells[i] += int(e["value"])
        counts[f"register {reg}"] = cells
    return counts


FLAGS = {"none": [], "skip_sw": ["skip_sw"], "skip_hw": ["skip_hw"]}


def run_mode(topo, prog, mode, placement, corpus):
    """Load, bind, add the entries as @placement says, run the corpus."""
    tc("-b", prog.TC)
    filter_flags = {"sw": ["skip_hw"], "hw": ["skip_sw"],
                    "mixed-skip_sw": ["skip_sw"]}.get(mode, [])
    for p in topo.P:
        tc("filter", "add", "dev", p, "ingress", "prio", "1", "p4", "pname",
           prog.NAME, *filter_flags)
    try:
        for (table, args), where in zip(prog.entries(topo), placement):
            tc("p4", "create", f"{prog.NAME}/table/{table}", *args,
               *FLAGS[where])
        topo.drain()
        records = []
        for port, frame in corpus:
            topo.send(port, frame)
            records.append(topo.drain())
        counts = entry_counts(prog)
    finally:
        for p in topo.P:
            tc("filter", "del", "dev", p, "ingress", "prio", "1", check=False)
        tc("p4template", "del", f"pipeline/{prog.NAME}", check=False)
    return records, counts


def decode(frame):
    try:
        from scapy.all import Ether
        return Ether(frame).summary()
    except Exception as e:      # a frame scapy cannot read is one too
        return f"(undecoded: {e})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--program", default="router")
    ap.add_argument("--modes", default="sw,hw,both,mixed")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mixed", type=int, default=2)
    ap.add_argument("--report")
    a = ap.parse_args()

    prog = importlib.import_module(f"programs.{a.program}")
    os.environ["INTROSPECTION"] = prog.INTROSPECTION
    topo = None
    try:
        topo = Topology()
        corpus = prog.corpus(topo)
        topo.watch_host({int.from_bytes(f[12:14], "big") for _, f in corpus
                         if len(f) >= 14} | {0x0800})
        n = len(prog.entries(topo))
        runs = [("sw", ["skip_hw"] * n, None)]
        modes = a.modes.split(",")
        if "hw" in modes:
            runs.append(("hw", ["skip_sw"] * n, None))
        if "both" in modes:
            runs.append(("both", ["none"] * n, None))
        if "mixed" in modes and n:
            for k in range(a.mixed):
                rnd = random.Random(a.seed + k)
                runs.append(("mixed", [rnd.choice(list(FLAGS)) for _ in range(n)],
                             a.seed + k))
            rnd = random.Random(a.seed)
            runs.append(("mixed-skip_sw",
                         [rnd.choice(list(FLAGS)) for _ in range(n)], a.seed))
        results = []
        for mode, placement, seed in runs:
            t0 = time.monotonic()
            rec, counts = run_mode(topo, prog, mode, placement, corpus)
            results.append((mode, placement, seed, rec, counts,
                            time.monotonic() - t0))
    except SetupError as e:
        print(f"equivalence: setup: {e}", file=sys.stderr)
        return 2
    finally:
        if topo:
            topo.close()

    ref = results[0]
    rows, bad = [], 0
    for mode, placement, seed, rec, counts, secs in results:
        mism = 0
        for i, (port, frame) in enumerate(corpus):
            if rec[i] == ref[3][i]:
                continue
            mism += 1
            print(f"MISMATCH {prog.NAME} mode {mode} seed {seed} frame {i} "
                  f"(in on port {port}): {frame.hex()}\n  {decode(frame)}\n"
                  f"  entries: {list(zip([e[1] for e in prog.entries(topo)], placement))}\n"
                  f"  sw:   {json.dumps(ref[3][i])}\n  {mode}: {json.dumps(rec[i])}")
        if counts != ref[4]:
            mism += 1
            print(f"MISMATCH {prog.NAME} mode {mode} seed {seed}: entry hits\n"
                  f"  sw:   {ref[4]}\n  {mode}: {counts}")
        bad += mism
        rows.append(f"| {prog.NAME} | {mode}{'' if seed is None else f' (seed {seed})'} "
                    f"| {len(corpus)} | {mism} | {secs:.0f} s |")
    table = ["| program | placement | frames | mismatches | time |",
             "| --- | --- | --- | --- | --- |"] + rows
    print("\n".join(table))
    if a.report:
        with open(a.report, "a") as f:
            f.write("\n".join(table) + "\n\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
