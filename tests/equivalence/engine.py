"""The equivalence runners' engine: the guest's topology, one run of a
program (its entries placed as a placement says, frames in, records
out), the comparison of two runs and the pcap of a difference.

A run costs little in the kernel and much in processes (starting tc takes
about 0.4 s in the debug guest), so a run is two tc processes: one batch
that loads the template, binds the filters and adds the entries, one that
reads the counters and takes it all down again.
"""

import itertools
import json
import os
import select
import socket
import struct
import subprocess
import time

TOP = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
TC = os.path.join(TOP, "build", "iproute2", "bin", "tc")
ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4

# A frame's trip through the NIC or the kernel takes a few milliseconds
# in the guest (measured: all under 8 ms, the guest clock's resolution is
# 4 ms).  FAST is the silence after which a frame's trip is taken as
# over; a run that differs is run again with SLOW before it counts, so a
# late frame on a busy machine costs time, never a false mismatch.
FAST = 0.05
SLOW = 0.5

# where each placement puts the filters
FILTER_FLAGS = {"sw": ["skip_hw"], "hw": ["skip_sw"], "both": [],
                "mixed": [], "mixed-skip_sw": ["skip_sw"], "bpf-tc": ["skip_hw"],
                "bpf-xdp": ["skip_hw"]}
# where the bpf-xdp mode pins the program's XDP parser
XDP_PIN = "/sys/fs/bpf/p4tc-equivalence-xdp"


def filter_args(prog, mode):
    """What the p4 filter of @prog says after its pipeline name, in @mode."""
    args = list(FILTER_FLAGS[mode])
    if mode == "bpf-tc":
        obj, section = prog.BPF_PARSER
        args += ["prog", "tc", "obj", obj, "section", section]
    elif mode == "bpf-xdp":
        args += ["prog", "xdp", "pinned", XDP_PIN,
                 "prog_cookie", str(prog.BPF_XDP_PARSER[1])]
    return args


def xdp_attach(topo, obj):
    """The XDP program of @obj, pinned and run (generic XDP) on every
    port, for the bpf-xdp and bpf-xdp-dp modes."""
    if not os.path.ismount("/sys/fs/bpf"):
        sh("mount", "-t", "bpf", "bpf", "/sys/fs/bpf")
    xdp_detach(topo)
    sh("bpftool", "prog", "load", obj, XDP_PIN, "type", "xdp")
    for p in topo.P:
        sh("ip", "link", "set", "dev", p, "xdpgeneric", "pinned", XDP_PIN)


def xdp_detach(topo):
    for p in topo.P:
        sh("ip", "link", "set", "dev", p, "xdpgeneric", "off", check=False)
    if os.path.exists(XDP_PIN):
        os.unlink(XDP_PIN)


ENTRY_FLAGS = {"none": [], "skip_sw": ["skip_sw"], "skip_hw": ["skip_hw"]}


# where the runs' time went, in s (the runners print it)
PHASES = {"setup": 0.0, "frames": 0.0, "counters": 0.0}


class SetupError(Exception):
    pass


def sh(*args, check=True):
    r = subprocess.run(args, capture_output=True, text=True)
    if check and r.returncode:
        raise SetupError(f"{' '.join(args)}: {r.stderr.strip() or r.stdout.strip()}")
    return r


def netdev_by_mac(mac):
    for d in os.listdir("/sys/class/net"):
        try:
            with open(f"/sys/class/net/{d}/address") as f:
                if f.read().strip() == mac:
                    return d
        except OSError:
            pass
    raise SetupError(f"no netdev with MAC {mac}")


def script_lines(path):
    """A .tc file as tc -b reads it, one command per line: continuations
    joined, comments and blank lines gone (so a batch's line numbers are
    ours to map back)."""
    with open(path) as f:
        text = f.read().replace("\\\n", " ")
    return [ln.strip() for ln in text.splitlines()
            if ln.strip() and not ln.lstrip().startswith("#")]


class Topology:
    """p4nic ports P[i] and the testers T[i] wired to them, all in the
    root namespace, quiet: no addresses, no IPv6."""

    SYSCTLS = ("net.ipv6.conf.all.disable_ipv6",
               "net.ipv6.conf.default.disable_ipv6")

    def __init__(self, ports=2):
        self.loaded = "p4nic" in open("/proc/modules").read()
        sh("modprobe", "p4nic")
        self.sysctls = {k: sh("sysctl", "-n", k).stdout.strip()
                        for k in self.SYSCTLS}
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
        self.watched = set()
        self.trips = []

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

    def symbolic(self, arg):
        """A port's name as a regression file keeps it: {P0}, {P1}."""
        return {p: f"{{P{i}}}" for i, p in enumerate(self.P)}.get(arg, arg)

    def concrete(self, arg):
        return {f"{{P{i}}}": p for i, p in enumerate(self.P)}.get(arg, arg)

    def watch_host(self, frames):
        """Sockets of a protocol (not ETH_P_ALL) get frames after tc
        ingress, as the stack's handlers do: what reached the host.  One
        socket per EtherType the frames carry, IPv4's always."""
        want = {int.from_bytes(f[12:14], "big") for _, f in frames
                if len(f) >= 14} | {0x0800}
        for i, p in enumerate(self.P):
            for et in sorted(want - self.watched):
                s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                                  socket.htons(et))
                s.bind((p, et))
                s.setblocking(False)
                self.host.append((i, s))
        self.watched |= want

    def drain(self, quiet):
        """What arrives until @quiet s pass without a frame, as
        {"wire": [frames per port], "host": [frames per port]} of hex
        strings; the time of the last arrival goes to self.trips."""
        got = {"wire": [[] for _ in self.T], "host": [[] for _ in self.P]}
        socks = [(("wire", i), s) for i, s in enumerate(self.wire)] + \
            [(("host", i), s) for i, s in self.host]
        start = quiet_since = time.monotonic()
        while time.monotonic() - quiet_since < quiet:
            r, _, _ = select.select([s for _, s in socks], [], [], quiet / 4)
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
        if quiet_since > start:
            self.trips.append(quiet_since - start)
        return got

    def send(self, port, frame):
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
        s.bind((self.T[port], 0))
        s.send(frame)
        s.close()


class Case:
    """What a run needs: a program (a module of programs/), its entries
    as (table, tc arguments) with one placement flag each ("none",
    "skip_sw", "skip_hw"), the filters' placement mode and the frames
    as (port, bytes)."""

    def __init__(self, prog, mode, entries, flags, frames):
        assert len(entries) == len(flags)
        self.prog, self.mode = prog, mode
        self.entries, self.flags, self.frames = entries, flags, frames

    def with_mode(self, mode, flags):
        return Case(self.prog, mode, self.entries, flags, self.frames)


class Result:
    """A run's records: per frame what left each port and what reached
    the host; the entries tc refused (index: message); after the frames,
    every entry's hits and every register's cells."""

    def __init__(self, records, refused, counts, secs):
        self.records, self.refused, self.counts = records, refused, counts
        self.secs = secs


def _json_docs(text):
    dec, docs, i = json.JSONDecoder(), [], 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        doc, i = dec.raw_decode(text, i)
        docs.append(doc)
    return docs


def _counts(prog, text):
    """Entry hits by table and key, register cells (software's plus each
    device's), from the counts batch's JSON documents in order."""
    docs = _json_docs(text)
    want = len(prog.TABLES) + len(getattr(prog, "REGISTERS", []))
    if len(docs) != want:
        # never compare counters that were not read
        raise SetupError(f"{prog.NAME}: counters: {len(docs)} JSON documents, "
                         f"{want} expected")
    counts = {}
    for table, j in zip(prog.TABLES, docs):
        for part in j:
            for e in part.get("entries", []):
                key = json.dumps(e.get("key", []), sort_keys=True)
                counts[f"{table} {key} prio {e.get('prio')}"] = \
                    e.get("stats", {}).get("packets", 0)
    for reg, j in zip(getattr(prog, "REGISTERS", []), docs[len(prog.TABLES):]):
        t = j[1]["templates"][0]
        cells = [int(e["value"]) for e in t["elements"]]
        for h in t.get("hw", []):
            for i, e in enumerate(h["elements"]):
                cells[i] += int(e["value"])
        counts[f"register {reg}"] = cells
    return counts


def run(topo, case, burst=False, quiet=FAST):
    """Load the program, bind a filter on each port's ingress, add the
    entries, send the frames, read the counters, take it all down.

    One frame at a time, each drained until @quiet s of silence; or, with
    @burst, all frames at once and one drain (give it a longer @quiet):
    the frames then carry a tag (tagged()) that says which input an
    output comes from."""
    prog = case.prog
    t0 = time.monotonic()
    if case.mode == "bpf-xdp":
        xdp_attach(topo, prog.BPF_XDP_PARSER[0])
    elif case.mode == "bpf-xdp-dp":
        xdp_attach(topo, prog.BPF_XDP_DATAPATH)
    lines = script_lines(prog.TC)
    for p in topo.P:
        if case.mode == "bpf-xdp-dp":
            continue    # no filter: the XDP program does it all
        if case.mode == "bpf-dp":
            # no p4 filter: the program's eBPF datapath reads its tables
            obj, section = prog.BPF_DATAPATH
            lines.append(f"filter add dev {p} ingress prio 1 matchall skip_hw "
                         f"action bpf obj {obj} sec {section}")
            continue
        lines.append(f"filter add dev {p} ingress prio 1 p4 pname {prog.NAME} "
                     + " ".join(filter_args(prog, case.mode)))
    entry_at = {}           # batch line number: entry index
    for k, ((table, args), flag) in enumerate(zip(case.entries, case.flags)):
        if flag == "absent":    # fuzz.py --self-test: an entry lost
            continue
        lines.append(" ".join(["p4", "create", f"{prog.NAME}/table/{table}",
                               *[topo.concrete(a) for a in args],
                               *ENTRY_FLAGS[flag]]))
        entry_at[len(lines)] = k
    env = dict(os.environ, INTROSPECTION=prog.INTROSPECTION)
    r = subprocess.run([TC, "-force", "-b", "-"], input="\n".join(lines) + "\n",
                       capture_output=True, text=True, env=env)
    t1 = time.monotonic()
    PHASES["setup"] += t1 - t0
    refused = {}
    msg = []
    for ln in r.stderr.splitlines():
        if ln.startswith("Command failed -:"):
            n = int(ln.split(":")[-1])
            if n not in entry_at:
                teardown(topo, prog)
                raise SetupError(f"{prog.NAME}: line {n} ({lines[n - 1]}): "
                                 + " / ".join(msg))
            refused[entry_at[n]] = " / ".join(msg)
            msg = []
        elif ln.strip():
            msg.append(ln.strip())
    try:
        topo.drain(FAST)        # whatever binding the filters set off
        if burst:
            for port, frame in case.frames:
                topo.send(port, frame)
            records = untag(topo.drain(quiet), case.frames)
        else:
            records = []
            for port, frame in case.frames:
                topo.send(port, frame)
                records.append(topo.drain(quiet))
    except BaseException:
        teardown(topo, prog)
        raise
    t2 = time.monotonic()
    PHASES["frames"] += t2 - t1
    # the counters, then down: one more process
    gets = [f"p4 get {prog.NAME}/table/{t}" for t in prog.TABLES]
    gets += [f"p4template get register/{prog.NAME}/{reg}"
             for reg in getattr(prog, "REGISTERS", [])]
    out = subprocess.run([TC, "-s", "-j", "-force", "-b", "-"],
                         input="\n".join(gets + _teardown(topo, prog)) + "\n",
                         capture_output=True, text=True, env=env).stdout
    if case.mode in ("bpf-xdp", "bpf-xdp-dp"):
        xdp_detach(topo)
    counts = _counts(prog, out)
    PHASES["counters"] += time.monotonic() - t2
    return Result(records, refused, counts, time.monotonic() - t0)


def _teardown(topo, prog):
    return [f"filter del dev {p} ingress prio 1" for p in topo.P] + \
        [f"p4template del pipeline/{prog.NAME}"]


def teardown(topo, prog):
    subprocess.run([TC, "-force", "-b", "-"],
                   input="\n".join(_teardown(topo, prog)) + "\n",
                   capture_output=True, text=True)
    xdp_detach(topo)


TAG_LEN = 8


_bursts = itertools.count(1)


def tagged(frames):
    """Frames of a burst: each ends with 8 bytes of its own (the burst's
    number and the frame's index), which every program keeps (they lie
    past the headers a program reads or writes, or make a short frame's
    tail).  Software's and the other placement's runs of a case get the
    same tags: their records must be equal byte for byte."""
    n = next(_bursts)
    out = []
    for i, (port, frame) in enumerate(frames):
        tag = b"\xe9" + (n & 0xffffff).to_bytes(3, "big") + i.to_bytes(4, "big")
        out.append((port, frame + tag))
    return out


def untag(got, frames):
    """A burst's arrivals as per-frame records, by the tag each carries;
    what carries none (or another run's) is kept under "untagged"."""
    tags = {f[-TAG_LEN:]: i for i, (_, f) in enumerate(frames)}
    recs = [{"wire": [[] for _ in got["wire"]], "host": [[] for _ in got["host"]]}
            for _ in frames]
    stray = {"wire": [[] for _ in got["wire"]], "host": [[] for _ in got["host"]]}
    for kind in ("wire", "host"):
        for port, datas in enumerate(got[kind]):
            for d in datas:
                raw = bytes.fromhex(d)
                i = next((tags[t] for t in tags if t in raw), None)
                (stray if i is None else recs[i])[kind][port].append(d)
    if any(any(v) for v in stray["wire"] + stray["host"]):
        recs.append(stray)
    return recs


def differences(ref, res, case):
    """Human-readable differences of @res from the reference @ref: one
    per frame whose record differs, one for refused entries, one for
    the counters; with the indices of the frames involved."""
    out, frames = [], set()
    n = max(len(ref.records), len(res.records))
    for i in range(n):
        a = ref.records[i] if i < len(ref.records) else None
        b = res.records[i] if i < len(res.records) else None
        if a != b:
            frames.add(i)
            out.append((i, f"frame {i}: sw {json.dumps(a)}\n"
                           f"      {case.mode} {json.dumps(b)}"))
    if ref.refused.keys() != res.refused.keys():
        out.append((None, f"refused entries: sw {ref.refused} {case.mode} "
                          f"{res.refused}"))
    if ref.counts != res.counts:
        diff = {k: (ref.counts.get(k), res.counts.get(k))
                for k in ref.counts.keys() | res.counts.keys()
                if ref.counts.get(k) != res.counts.get(k)}
        out.append((None, f"counters (sw, {case.mode}): {diff}"))
    return out


def decode(frame):
    try:
        from scapy.all import Ether
        return Ether(frame).summary()
    except Exception as e:      # a frame scapy cannot read is one too
        return f"(undecoded: {e})"


def print_differences(case, ref, res, diffs, pcap_dir, tag, indent="  ",
                      decoded=True):
    """Each difference of @res from @ref, with the differing frames in
    hex and (@decoded: scapy, 17 s to import in the guest) decoded and,
    when @pcap_dir is set, a pcap of each."""
    for i, text in diffs:
        if i is not None and i < len(case.frames):
            port, frame = case.frames[i]
            print(f"{indent}frame {i} in on port {port}: {frame.hex()}")
            if decoded:
                print(f"{indent}  {decode(frame)}")
            if pcap_dir:
                os.makedirs(pcap_dir, exist_ok=True)
                print(f"{indent}  pcap " + write_pcap(
                    os.path.join(pcap_dir, f"{tag}-frame{i}.pcap"), frame,
                    ref.records[i], res.records[i] if i < len(res.records) else None))
        print(indent + text.replace("\n", "\n" + indent))


def write_pcap(path, frame, ref_rec, rec):
    """The input frame, then what software gave, then what the other
    placement gave, in that order: one pcap (Ethernet) for Wireshark."""
    def frames(r):
        if not r:
            return []
        return [bytes.fromhex(h) for kind in ("wire", "host")
                for port in r[kind] for h in port]
    pkts = [frame] + frames(ref_rec) + frames(rec)
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for i, p in enumerate(pkts):
            f.write(struct.pack("<IIII", i, 0, len(p), len(p)) + p)
    return (f"{path}: 1 input, then {len(frames(ref_rec))} from sw, "
            f"{len(frames(rec))} from the other placement")
