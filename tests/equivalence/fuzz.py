#!/usr/bin/python3
"""Differential fuzzing of the two engines: random entry sets and random
frames for each example program, each run in all software and in a
random other placement; a difference is confirmed, minimised and saved
as a regression.

    tests/equivalence/fuzz.py [--seed S] [--iter N] [--programs P,...]
                              [--save DIR] [--report FILE] [--pcap DIR]
    tests/equivalence/fuzz.py --replay FILE...
    tests/equivalence/fuzz.py --self-test

Iteration i of seed S draws (random.Random("S:i")) a program (in turn:
the example programs, "random", a new random template program, and
"randp4", a new random P4 program compiled by p4tc-compile, whose compile
must succeed and whose output must load),
its entries and 6 to 20 frames (programs/NAME.py: fuzz()), and a
placement: hw, both, mixed or mixed-skip_sw (entries' flags drawn per
entry).  The frames go in as one burst, each tagged (engine.tagged).
When the placement's records differ from software's, both are run again
slowly; a confirmed difference is minimised (fewest frames, then fewest
entries that still differ) and written to DIR (default: the run
directory) as a regression file, with a pcap of each differing frame.
A regression that has been fixed goes to tests/equivalence/regressions/,
which --replay runs (make check does).

--self-test proves the runner can fail: a placement that lacks one route
of the router must differ, the minimiser must bring the case down to
that route, its next hop and one frame, and the regression file saved
of it (with its pcap, under DIR/self-test) must replay as a difference.

Exit 0 when nothing differs, 1 on a difference, 2 on a setup error.
"""

import argparse
import importlib
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

import engine                                                   # noqa: E402
from engine import Case, SetupError, Topology                   # noqa: E402
from programs import randp4, randprog                           # noqa: E402

PROGRAMS = ["router", "acl", "mirror", "l2switch", "counter", "vlan", "tunnel", "router6",
            "firewall", "portsec", "random", "randp4"]
PLACEMENTS = ["hw", "both", "mixed", "mixed", "mixed-skip_sw"]
BURST_QUIET = 0.15      # after a burst, this long without a frame: done
CONFIRM_QUIET = 1.0
MINIMISE_RUNS = 40      # pairs of runs the minimiser may spend


def draw(seed, i, programs, topo, work):
    """Iteration @i of @seed: its program, entries, frames and placement.
    A program "random" is a new random program (programs/randprog.py),
    written to @work."""
    rnd = random.Random(f"{seed}:{i}")
    name = programs[i % len(programs)]
    if name == "random":
        prog = randprog.RandomProgram(rnd, i, os.path.join(work, f"randprog-s{seed}-i{i}"))
    elif name == "randp4":
        # raises randp4.CompileFailed: the compiler refused its own kind
        prog = randp4.RandomP4Program(rnd, i, os.path.join(work, f"randp4-s{seed}-i{i}"))
    else:
        prog = importlib.import_module(f"programs.{name}")
    entries, frames = prog.fuzz(rnd, topo)
    mode = rnd.choice(PLACEMENTS)
    if mode == "hw":
        flags = ["skip_sw"] * len(entries)
    elif mode == "both":
        flags = ["none"] * len(entries)
    else:
        flags = [rnd.choice(list(engine.ENTRY_FLAGS)) for _ in entries]
    return Case(prog, mode, entries, flags, frames)


def reference(case):
    return case.with_mode("sw", ["skip_hw"] * len(case.entries))


def compare(topo, case, quiet=BURST_QUIET):
    """Run @case and software with the same entries and frames; the
    differences (engine.differences) and both results."""
    case = Case(case.prog, case.mode, case.entries, case.flags,
                engine.tagged(case.frames))
    ref = engine.run(topo, reference(case), burst=True, quiet=quiet)
    res = engine.run(topo, case, burst=True, quiet=quiet)
    # a skip_sw entry is refused when no device can hold it: a device's
    # limit, not a difference between the engines (counted, reported)
    device_refused = [i for i, m in res.refused.items()
                      if i not in ref.refused and case.flags[i] == "skip_sw"]
    return engine.differences(ref, res, case), ref, res, device_refused


def differs(topo, case):
    """A confirmed difference: one at burst pace and again slowly."""
    diffs = compare(topo, case)[0]
    return bool(diffs) and bool(compare(topo, case, CONFIRM_QUIET)[0])


def minimise(topo, case, budget=MINIMISE_RUNS):
    """The smallest case that still differs, within @budget comparisons:
    the differing frames alone if they suffice, then each frame, then
    each entry, taken away while the difference stays.  Each step is one
    comparison at the slow pace; save() compares the result once more."""
    spent = 0

    def still(c):
        nonlocal spent
        spent += 1
        return bool(compare(topo, c, CONFIRM_QUIET)[0])

    diffs = compare(topo, case, CONFIRM_QUIET)[0]
    only = sorted({i for i, _ in diffs if i is not None and i < len(case.frames)})
    if only and len(only) < len(case.frames):
        c = Case(case.prog, case.mode, case.entries, case.flags,
                 [case.frames[i] for i in only])
        if still(c):
            case = c
    for what in ("frames", "entries"):
        i = len(case.frames if what == "frames" else case.entries) - 1
        while i >= 0 and spent < budget:
            if what == "frames":
                if len(case.frames) == 1:
                    break
                c = Case(case.prog, case.mode, case.entries, case.flags,
                         case.frames[:i] + case.frames[i + 1:])
            else:
                c = Case(case.prog, case.mode,
                         case.entries[:i] + case.entries[i + 1:],
                         case.flags[:i] + case.flags[i + 1:], case.frames)
            if still(c):
                case = c
            i -= 1
    return case


def to_json(topo, case, found_by, diffs):
    j = {}
    if hasattr(case.prog, "template"):      # a random program: all of it
        j = {"template": case.prog.template,
             "introspection": case.prog.introspection,
             "tables": case.prog.TABLES}
    return j | {
        "program": case.prog.NAME,
        "found_by": found_by,
        "mode": case.mode,
        "entries": [{"table": t, "args": [topo.symbolic(a) for a in args],
                     "flag": f} for (t, args), f in zip(case.entries, case.flags)],
        "frames": [{"port": p, "hex": f.hex()} for p, f in case.frames],
        "difference": [text for _, text in diffs],
    }


def from_json(j, work):
    if "template" in j:
        prog = randprog.SavedProgram(j, os.path.join(work, f"replay-{j['program']}"))
    else:
        prog = importlib.import_module(f"programs.{j['program']}")
    return Case(prog, j["mode"], [(e["table"], e["args"]) for e in j["entries"]],
                [e["flag"] for e in j["entries"]],
                [(f["port"], bytes.fromhex(f["hex"])) for f in j["frames"]])


def save(topo, case, name, found_by, out_dir, pcap_dir, decoded=True):
    """The regression file and a pcap of each differing frame."""
    diffs, ref, res, _ = compare(topo, case, CONFIRM_QUIET)
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, f"{name}.json")
    with open(path, "w") as f:
        json.dump(to_json(topo, case, found_by, diffs), f, indent=1)
        f.write("\n")
    print(f"  minimised: {len(case.entries)} entries, {len(case.frames)} frames: {path}")
    for (t, args), flag in zip(case.entries, case.flags):
        print(f"    {flag:8} {t} {' '.join(args)}")
    engine.print_differences(case, ref, res, diffs, pcap_dir, name, "    ", decoded)


def program_row(prog):
    if isinstance(prog, randp4.RandomP4Program):
        return "randp4"
    if isinstance(prog, randprog.RandomProgram):
        return "random"
    return prog.NAME


def fuzz(topo, a):
    programs = a.programs.split(",")
    # iterations, frames, entries refused, differences, programs refused
    rows = {p: [0, 0, 0, 0, 0] for p in programs}
    found = 0
    t0 = time.monotonic()
    for i in range(a.iter):
        try:
            case = draw(a.seed, i, programs, topo, a.save)
        except randp4.CompileFailed as e:
            # every generated program is inside the compiler's subset
            found += 1
            rows["randp4"][4] += 1
            print(f"COMPILE FAILED iteration {i}: {e}")
            continue
        topo.watch_host(case.frames)
        try:
            diffs, _, _, refused = compare(topo, case)
        except SetupError as e:
            if isinstance(case.prog, randp4.RandomP4Program):
                # what p4tc-compile writes must load
                found += 1
                rows["randp4"][4] += 1
                print(f"iteration {i}: compiled {case.prog.NAME} not loaded: {e}")
                continue
            if not isinstance(case.prog, randprog.RandomProgram):
                raise
            # a random program the kernel or the device will not take
            # (the reason is printed: a generator's mistake shows)
            rows["random"][4] += 1
            print(f"iteration {i}: {case.prog.NAME} in {case.mode} not loaded: {e}")
            continue
        if refused:
            # the device may refuse what it cannot do: that entry is in
            # no datapath in that placement, so software goes without it
            keep = [k for k in range(len(case.entries)) if k not in refused]
            case = Case(case.prog, case.mode, [case.entries[k] for k in keep],
                        [case.flags[k] for k in keep], case.frames)
            diffs = compare(topo, case)[0]
        row = rows[program_row(case.prog)]
        row[0] += 1
        row[1] += len(case.frames)
        row[2] += len(refused)
        if diffs and compare(topo, case, CONFIRM_QUIET)[0]:
            found += 1
            row[3] += 1
            name = f"{case.prog.NAME}-s{a.seed}-i{i}"
            print(f"DIFFERENCE {name}: {case.prog.NAME} in {case.mode}, "
                  f"{len(case.entries)} entries, {len(case.frames)} frames; "
                  f"replay: fuzz.py --seed {a.seed} --iter {i + 1}")
            small = minimise(topo, case)
            save(topo, small, name, f"fuzz.py --seed {a.seed}, iteration {i}",
                 a.save, a.pcap)
        elif diffs:
            print(f"iteration {i}: a late frame, equal at slow pace")
    table = ["| program | iterations | frames | skip_sw entries refused | differences "
             "| programs not loaded |", "| --- | --- | --- | --- | --- | --- |"]
    table += [f"| {p} | {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} |"
              for p, r in rows.items()]
    print("\n".join(table))
    print(f"fuzz: seed {a.seed}, {a.iter} iterations, {found} differences, "
          f"{time.monotonic() - t0:.0f} s (" +
          ", ".join(f"{k} {v:.0f} s" for k, v in engine.PHASES.items()) + ")")
    if a.report:
        with open(a.report, "a") as f:
            f.write(f"Differential fuzzing, seed {a.seed}, {a.iter} iterations:\n\n"
                    + "\n".join(table) + "\n\n")
    return 1 if found else 0


def replay(topo, files, work):
    bad = 0
    for path in files:
        with open(path) as f:
            case = from_json(json.load(f), work)
        case = Case(case.prog, case.mode,
                    [(t, [topo.concrete(x) for x in args]) for t, args in case.entries],
                    case.flags, case.frames)
        topo.watch_host(case.frames)
        diffs = compare(topo, case)[0]
        if diffs and compare(topo, case, CONFIRM_QUIET)[0]:
            bad += 1
            print(f"FAIL {os.path.basename(path)}")
            for _, text in diffs:
                print("     " + text.replace("\n", "\n     "))
        else:
            print(f"ok   {os.path.basename(path)}")
    print(f"replay: {len(files) - bad} equal, {bad} differ")
    return 1 if bad else 0


def self_test(topo, out_dir):
    """A placement without one route must differ, minimise to it, and
    its regression file (written to @out_dir/self-test) must replay as a
    difference."""
    from programs import wire
    from programs.common import mac
    prog = importlib.import_module("programs.router")
    entries = prog.entries(topo)[:6]    # next hops 1-3, 10.2.0.0/16, /24, /25
    frames = []
    for dst in ["10.2.0.1", "10.2.1.0", "10.2.1.127", "10.2.1.128", "10.9.0.1"]:
        l3 = wire.ipv4("10.1.0.1", dst, 17, wire.l4(17, "10.1.0.1", dst, 1000, 9))
        frames.append((0, wire.eth(mac(topo.P[0]), mac(topo.T[0]), 0x0800, l3)))
    victim = next(k for k, (t, a) in enumerate(entries) if "10.2.1.0/24" in a)
    flags = ["skip_hw"] * len(entries)
    flags[victim] = "absent"
    case = Case(prog, "sw", entries, flags, frames)
    topo.watch_host(frames)
    ok = True
    if not differs(topo, case):
        print("FAIL: a placement without route 10.2.1.0/24 gave what software gives")
        return 1
    small = minimise(topo, case)
    got = [(" ".join(a), f) for (t, a), f in zip(small.entries, small.flags)]
    print(f"minimised to {len(small.frames)} frame(s) and entries {got}")
    if len(small.frames) != 1 or "absent" not in small.flags or len(small.entries) > 3:
        print("FAIL: the minimiser did not bring the case down to the missing "
              "route, its next hop and one frame")
        ok = False
    d = os.path.join(out_dir, "self-test")
    save(topo, small, "lost-route", "fuzz.py --self-test", d, d, decoded=False)
    if replay(topo, [os.path.join(d, "lost-route.json")], d) != 1:
        print("FAIL: the saved case replays as equal")
        ok = False
    print("self-test: " + ("ok" if ok else "FAIL"))
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--iter", type=int, default=200)
    ap.add_argument("--programs", default=",".join(PROGRAMS))
    ap.add_argument("--save", default=os.environ.get("P4TC_OUT", "."),
                    help="directory for the regression files of differences")
    ap.add_argument("--pcap", default=os.environ.get("P4TC_OUT"),
                    help="directory for the pcaps of differences")
    ap.add_argument("--report")
    ap.add_argument("--replay", nargs="+", metavar="FILE")
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    topo = None
    try:
        topo = Topology()
        if a.self_test:
            return self_test(topo, a.save)
        if a.replay:
            return replay(topo, a.replay, a.save)
        return fuzz(topo, a)
    except SetupError as e:
        print(f"fuzz: setup: {e}", file=sys.stderr)
        return 2
    finally:
        if topo:
            topo.close()


if __name__ == "__main__":
    sys.exit(main())
