#!/usr/bin/python3
"""Software/hardware equivalence: one P4 program, its fixed entry set and
frame corpus, run in every placement; every placement must give what all
software gives.

    tests/equivalence/equiv.py [--program P] [--modes M,...] [--seed S]
                               [--mixed N] [--report FILE] [--pcap DIR]

Runs in the test guest booted with --ports 2 (tests/equivalence/run boots
it): the p4nic's ports P0 and P1 carry the program (a p4 filter on each
ingress), the virtio tester wired to each port sends the corpus' frames
one at a time and captures what leaves the port.  Per frame the record
holds what left each port (bytes), what reached the host's stack (the
frame as a protocol handler after tc ingress sees it) or that it was
dropped; after the corpus, every entry's hit count and every register's
cells (engine.py).

Placements (modes):
  sw     the filters and every entry skip_hw: the kernel alone
  hw     the filters and every entry skip_sw: the NIC alone
  both   no flags: entries in both, the NIC first
  mixed  no flags on the filters; each entry none, skip_sw or skip_hw,
         drawn from the seed (--mixed N placements, seeds S, S+1, ...)
  mixed-skip_sw  the same with skip_sw filters: what the NIC hands over
         still runs the pipeline in the kernel
  bpf-tc as sw, with the program's eBPF parser (its module's BPF_PARSER:
         object, section) in the parse graph's place ("prog tc"); only
         programs that have one
  bpf-xdp as sw, with the program's eBPF parser at XDP (BPF_XDP_PARSER:
         object, cookie; generic XDP on both ports, "prog xdp")
  bpf-dp  no p4 filters: the program's eBPF datapath (BPF_DATAPATH:
         object, section; act_bpf under matchall) parses, acts, and
         reads the program's tables with bpf_p4tc_tbl_read()
  bpf-xdp-dp  no p4 filters: the program's XDP datapath (BPF_XDP_DATAPATH,
         generic XDP on both ports) with bpf_xdp_p4tc_tbl_read()

Exit 0 when every placement's records equal sw's, 1 on a mismatch (each
is printed: program, frame in hex and decoded, the placement of every
entry, both records, the seed; and a pcap of it is written), 2 on a
setup error.  Random entry sets and frames are fuzz.py's.
"""

import argparse
import importlib
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

import engine                                                   # noqa: E402
from engine import Case, SetupError, Topology                   # noqa: E402


def placements(prog, n, modes, seed, mixed):
    """(mode, per-entry flags, seed) of every placement asked for, the
    reference (sw) first."""
    runs = [("sw", ["skip_hw"] * n, None)]
    if "bpf-tc" in modes and getattr(prog, "BPF_PARSER", None):
        runs.append(("bpf-tc", ["skip_hw"] * n, None))
    if "bpf-xdp" in modes and getattr(prog, "BPF_XDP_PARSER", None):
        runs.append(("bpf-xdp", ["skip_hw"] * n, None))
    if "bpf-dp" in modes and getattr(prog, "BPF_DATAPATH", None):
        runs.append(("bpf-dp", ["skip_hw"] * n, None))
    if "bpf-xdp-dp" in modes and getattr(prog, "BPF_XDP_DATAPATH", None):
        runs.append(("bpf-xdp-dp", ["skip_hw"] * n, None))
    if "hw" in modes:
        runs.append(("hw", ["skip_sw"] * n, None))
    if "both" in modes:
        runs.append(("both", ["none"] * n, None))
    if "mixed" in modes and n:
        for k in range(mixed):
            rnd = random.Random(seed + k)
            runs.append(("mixed", [rnd.choice(list(engine.ENTRY_FLAGS))
                                   for _ in range(n)], seed + k))
        rnd = random.Random(seed)
        runs.append(("mixed-skip_sw", [rnd.choice(list(engine.ENTRY_FLAGS))
                                       for _ in range(n)], seed))
    return runs


def report(case, ref, res, diffs, seed, pcap_dir, tag):
    """Print a confirmed mismatch; write a pcap of each differing frame."""
    prog = case.prog
    print(f"MISMATCH {prog.NAME} mode {case.mode} seed {seed}:")
    print(f"  entries: {[(t, ' '.join(a), f) for (t, a), f in zip(case.entries, case.flags)]}")
    engine.print_differences(case, ref, res, diffs, pcap_dir, tag)


def run_program(topo, prog, a):
    """Every placement of @prog's corpus against sw's: the report's rows
    and the number of mismatches."""
    rows, bad = [], 0
    corpus = prog.corpus(topo)
    entries = prog.entries(topo)
    topo.watch_host(corpus)
    runs = placements(prog, len(entries), a.modes.split(","), a.seed, a.mixed)
    cases = [Case(prog, mode, entries, flags, corpus) for mode, flags, _ in runs]
    results = [engine.run(topo, c) for c in cases]
    ref = results[0]
    if ref.refused:
        raise SetupError(f"{prog.NAME}: entries refused in software: {ref.refused}")
    for (mode, flags, seed), case, res in zip(runs, cases, results):
        diffs = engine.differences(ref, res, case)
        note = ""
        if diffs:
            # a late frame on a busy machine, or a real difference: run
            # both again, slowly, before it counts
            ref2 = engine.run(topo, cases[0], quiet=engine.SLOW)
            res = engine.run(topo, case, quiet=engine.SLOW)
            diffs = engine.differences(ref2, res, case)
            note = " (confirmed at slow pace)" if diffs else \
                " (a late frame: equal at slow pace)"
            if diffs:
                report(case, ref2, res, diffs, seed, a.pcap,
                       f"{prog.NAME}-{mode}-{seed}")
        bad += len(diffs)
        rows.append(f"| {prog.NAME} | {mode}{'' if seed is None else f' (seed {seed})'} "
                    f"| {len(corpus)} | {len(diffs)}{note} | {res.secs:.1f} s |")
    return rows, bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--program", default="router",
                    help="a program of programs/, or several: P,P,...")
    ap.add_argument("--modes", default="sw,hw,both,mixed,bpf-tc,bpf-xdp,bpf-dp,bpf-xdp-dp")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mixed", type=int, default=2)
    ap.add_argument("--report")
    ap.add_argument("--pcap", default=os.environ.get("P4TC_OUT"),
                    help="directory for the pcaps of mismatches")
    a = ap.parse_args()

    topo = None
    rows, bad = [], 0
    try:
        topo = Topology()
        for name in a.program.split(","):
            prog = importlib.import_module(f"programs.{name}")
            r, b = run_program(topo, prog, a)
            rows += r
            bad += b
    except SetupError as e:
        print(f"equivalence: setup: {e}", file=sys.stderr)
        return 2
    finally:
        if topo:
            topo.close()

    table = ["| program | placement | frames | mismatches | time |",
             "| --- | --- | --- | --- | --- |"] + rows
    print("\n".join(table))
    if topo.trips:
        t = sorted(topo.trips)
        print(f"trips: {len(t)} timed, median {t[len(t) // 2] * 1000:.0f} ms, "
              f"max {t[-1] * 1000:.0f} ms")
    if a.report:
        with open(a.report, "a") as f:
            f.write("\n".join(table) + "\n\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
