#!/usr/bin/env python3
"""Host checks of the equivalence fuzzer's generators (no guest, no
scapy): thousands of draws of every program's fuzz() and of random
programs must give frames a packet socket can send, entries tc can
parse the shape of, and templates whose introspection matches their
tables.  A generator's mistake shows here in seconds instead of as a
crash 10 minutes into the guest's suite.

Prints one line per check and "generators: N passed, N failed".
"""

import importlib
import json
import os
import random
import sys
import tempfile
import traceback

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

from programs import common, randprog           # noqa: E402

PROGRAMS = ["router", "acl", "mirror", "l2switch", "counter", "vlan", "tunnel", "router6",
            "firewall", "portsec"]
MACS = {"p0": "52:54:00:34:00:00", "p1": "52:54:00:34:00:01",
        "t0": "52:54:00:7e:00:00", "t1": "52:54:00:7e:00:01"}
DRAWS = 300


class FakeTopo:
    P = ["p0", "p1"]
    T = ["t0", "t1"]


def fake_mac(dev):
    return MACS[dev]


def check_case(entries, frames, tables):
    for port, f in frames:
        assert port in (0, 1), f"port {port}"
        assert 14 <= len(f) <= common.MAX_FUZZ_FRAME, f"a frame of {len(f)} bytes"
    for table, args in entries:
        assert table in tables, f"table {table} is not among {tables}"
        assert args and all(isinstance(a, str) and a and " " not in a
                            for a in args), f"arguments {args}"
        assert "action" in args, f"no action in {args}"


def gen_programs():
    for name in PROGRAMS:
        prog = importlib.import_module(f"programs.{name}")
        for s in range(DRAWS):
            entries, frames = prog.fuzz(random.Random(f"t:{s}"), FakeTopo())
            check_case(entries, frames, prog.TABLES)
            assert frames, "no frames"


def gen_random_programs():
    with tempfile.TemporaryDirectory() as d:
        for s in range(DRAWS):
            rnd = random.Random(f"r:{s}")
            prog = randprog.RandomProgram(rnd, s, os.path.join(d, str(s)))
            with open(prog.TC) as f:
                lines = f.read().splitlines()
            assert all(ln.startswith("p4template ") for ln in lines)
            assert lines[-1].endswith("state ready")
            with open(os.path.join(prog.INTROSPECTION, f"{prog.NAME}.json")) as f:
                intro = json.load(f)
            assert len(intro["tables"]) == len(prog.TABLES)
            assert f"numtables {len(prog.TABLES)} " in lines[0]
            for t in intro["tables"]:
                assert t["keysize"] == sum(k["bitwidth"] for k in t["keyfields"])
                assert f"keysz {t['keysize']} " in "\n".join(lines)
            entries, frames = prog.fuzz(rnd, FakeTopo())
            check_case(entries, frames, prog.TABLES)
            for table, args in entries:
                t = next(t for t in intro["tables"] if t["name"] == table)
                names = {k["name"] for k in t["keyfields"]}
                acts = {a["name"]: {p["name"] for p in a["params"]} for a in t["actions"]}
                act = args[args.index("action") + 1]
                assert act in acts, f"{act} is no action of {table}"
                params = {args[i + 1] for i, a in enumerate(args) if a == "param"}
                assert params == acts[act], f"{act}: params {params}, wants {acts[act]}"
                keys = {args[i] for i in range(0, args.index("action"), 2)} - {"prio"}
                assert keys == names, f"{table}: key fields {keys}, wants {names}"


def mutate_twice():
    rnd = random.Random(5)
    for _ in range(20000):
        n = rnd.randrange(14, 120)
        f = bytes(rnd.getrandbits(8) for _ in range(n))
        if rnd.random() < 0.5:
            f = f[:12] + b"\x08\x00" + f[14:]
        f = common.mutate(rnd, common.mutate(rnd, f))
        assert 14 <= len(f) <= common.MAX_FUZZ_FRAME, f"{len(f)} bytes"


def main():
    common.mac = fake_mac
    for name in ["router", "l2switch", "randprog"]:
        importlib.import_module(f"programs.{name}").mac = fake_mac
    passed = failed = 0
    for desc, fn in [
        (f"every program's fuzz(): {DRAWS} draws each, sendable frames, "
         "well-formed entries", gen_programs),
        (f"random programs: {DRAWS} templates match their introspection, "
         "entries their tables", gen_random_programs),
        ("mutate() twice on short and cut frames", mutate_twice),
    ]:
        try:
            fn()
            passed += 1
            print(f"ok   {desc}")
        except Exception:
            failed += 1
            print(f"FAIL {desc}")
            print("     " + traceback.format_exc().replace("\n", "\n     "))
    print(f"generators: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
