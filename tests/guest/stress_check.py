#!/usr/bin/env python3
"""The checks of tests/guest/stress-churn.sh (one Python each: a Python
start costs more than a second in the debug guest).

    stress_check.py watch SECONDS OUT
        Sample, for SECONDS, the counters users read while the churn runs:
        the hits of route 10.2.0.0/24 (software's and the device's, as
        tc -s p4 get sums them) and the runs of the software filter on b0.
        Every sample must parse and no counter may go backwards, through
        resets, unbinds and replaced filters.  Writes what it saw to OUT;
        exit 1 on a counter that went back or a dump that did not parse.

    stress_check.py final WANT
        WANT lists the routes the writers left ("PREFIX FLAG", FLAG both,
        skip_sw or skip_hw).  The FIB must hold exactly those of the
        writers' prefixes (10.101-103/16), each with its flags, in the
        device (in_hw, in_hw_count 2: one per port's block) unless
        skip_hw; the device's own FIB (QMP x-query-p4nic) holds those not
        skip_hw and the two base routes.  Exit 1 with the differences.
"""

import ipaddress
import json
import os
import re
import subprocess
import sys
import time

TOP = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIB = "router/table/cb/fib"


def tc_json(*args):
    out = subprocess.run(["tc", "-j", *args], capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(f"tc {' '.join(args)}: {out.stderr.strip()}")
    return json.loads(out.stdout)


def route_hits(prefix):
    j = tc_json("-s", "p4", "get", FIB, "dstAddr", prefix)
    return j[1]["entries"][0]["stats"]["packets"]


def filter_runs(dev):
    j = tc_json("-s", "filter", "show", "dev", dev, "ingress", "prio", "1")
    return [f for f in j if "options" in f][0]["options"]["pkts"]


def watch(seconds, out):
    end = time.monotonic() + seconds
    last = {}
    seen = {}
    bad = []
    samples = 0
    while time.monotonic() < end:
        for name, read in (("route 10.2.0.0/24 hits", lambda: route_hits("10.2.0.0/24")),
                           ("b0 filter runs", lambda: filter_runs("b0"))):
            try:
                v = read()
            except (RuntimeError, ValueError, KeyError, IndexError) as e:
                bad.append(f"{name}: {e}")
                continue
            if name in last and v < last[name]:
                bad.append(f"{name} went back from {last[name]} to {v}")
            seen.setdefault(name, v)
            last[name] = v
        samples += 1
        time.sleep(0.5)
    with open(out, "w") as f:
        f.write(f"{samples} samples; " + "; ".join(
            f"{n} {seen[n]} -> {last[n]}" for n in last) + "\n")
        for b in bad[:20]:
            f.write(b + "\n")
    print(open(out).read(), end="")
    return 1 if bad else 0


def entry_prefix(e):
    """The entry's dstAddr as a network ("10.101.3.0/24")."""
    for k in e.get("key", []):
        if k.get("keyfield") == "dstAddr":
            return str(ipaddress.ip_network(f"{k['fieldval']}/{k.get('prefix_len', 32)}"))
    return None


def final(want_file):
    want = {}
    with open(want_file) as f:
        for line in f:
            p, flag = line.split()
            want[str(ipaddress.ip_network(p))] = flag
    j = tc_json("p4", "get", FIB)
    entries = [e for part in j[1:] for e in part.get("entries", [])]
    got = {}
    bad = []
    for e in entries:
        p = entry_prefix(e)
        if p is None:
            bad.append(f"an entry without dstAddr: {e}")
            continue
        if not re.match(r"10\.10[1-3]\.", p):
            continue
        if e.get("skip_hw"):
            flag = "skip_hw"
        elif e.get("skip_sw"):
            flag = "skip_sw"
        else:
            flag = "both"
        got[p] = flag
        want_flag = want.get(p)
        if want_flag is None:
            bad.append(f"{p} ({flag}) is in the FIB; no writer left it")
        elif want_flag != flag:
            bad.append(f"{p} is {flag}, the writer left it {want_flag}")
        hw = e.get("in_hw_count", 0) if e.get("in_hw") else 0
        if flag == "skip_hw" and (e.get("in_hw") or not e.get("not_in_hw")):
            bad.append(f"{p} skip_hw is in hardware: {e}")
        if flag != "skip_hw" and hw != 2:
            bad.append(f"{p} {flag} is in {hw} device blocks, not 2")
    for p, flag in want.items():
        if p not in got:
            bad.append(f"{p} ({flag}) was added and not deleted, and is gone")
    in_dev = sum(1 for f in want.values() if f != "skip_hw") + 2
    view = subprocess.run([os.path.join(TOP, "tests", "vm", "qmp"), "x-query-p4nic"],
                          capture_output=True, text=True).stdout
    m = re.search(r"^  table 1: lpm, key 32 bits, (\d+)/\d+ entries", view, re.M)
    if not m:
        bad.append(f"QMP: no FIB in the device: {view}")
    elif int(m.group(1)) != in_dev:
        bad.append(f"QMP: the device's FIB holds {m.group(1)} entries, expected {in_dev}")
    print(f"final: {len(want)} routes left by the writers "
          f"({sum(1 for f in want.values() if f == 'skip_hw')} software only, "
          f"{sum(1 for f in want.values() if f == 'skip_sw')} device only); "
          f"{in_dev} in the device's FIB with the base routes")
    for b in bad[:30]:
        print(b)
    return 1 if bad else 0


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "watch":
        return watch(float(sys.argv[2]), sys.argv[3])
    if len(sys.argv) == 3 and sys.argv[1] == "final":
        return final(sys.argv[2])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
