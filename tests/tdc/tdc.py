#!/usr/bin/env python3
"""Run tc-testing (tdc) JSON test files: the kernel's format, unchanged.

Runs where it is started; tests/tdc/run starts it inside the test guest.

A test case is a JSON object with "id", "name", "setup" and "teardown"
command lists (a command is a string, or [command, allowed exit codes...]),
"cmdUnderTest" with "expExitCode", and "verifyCmd" checked by
"matchPattern" + "matchCount" (regex findall count, DOTALL | MULTILINE) or
by "matchJSON": either the kernel's older list of {"path": [...], "value":
v} or the newer expected-subset form (every expected key present and equal,
lists compared element by element).  Commands run through the shell with
$TC, $IP, $DEV0, $DEV1, $DEV2, $DUMMY, $NS, $ETH, $TESTID, $INTROSPECTION
$P4NL (tests/tdc/p4tc/p4nl.py: raw P4TC netlink messages) and the other
tdc names substituted.  Tests that require nsPlugin run every
command inside the namespace $NS, which holds $DEV1 (its veth peer $DEV0
stays outside), as tdc's nsPlugin does.  scapyPlugin's "scapy" blocks are
sent after cmdUnderTest.  Plugins we do not have (buildebpfPlugin) make
the case skip, with the reason.  Consecutive setup or teardown commands
that are plain `$TC ...` and must succeed run in one `tc -b -` (the same
result: tc stops at the first that fails; each exec costs ~0.4 s in the
debug guest).

Prints one line per case ("ok", "FAIL" or "skip" with the reason) and a
last line "N passed, N failed[, N skipped]"; exits 1 when a case failed.
"""

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from string import Template

TOP = os.environ.get("P4TC_TOP") or os.path.realpath(
    os.path.join(os.path.dirname(__file__), "..", ".."))


def default_names():
    tc = shutil.which("tc") or "/sbin/tc"
    ip = shutil.which("ip") or "/sbin/ip"
    names = {
        "TC": tc,
        "IP": ip,
        "DEV0": "v0p0",
        "DEV1": "v0p1",
        "DEV2": "",
        "DUMMY": "dummy1",
        "ETH": "eth0",
        "BATCH_FILE": "./batch.txt",
        "BATCH_DIR": "tmp",
        # upstream's 24 s is for real machines; a loaded TCG guest needs more
        "TIMEOUT": 90,
        "NS": "tcut",
        # the example eBPF programs (make bpf)
        "EBPFDIR": os.path.join(TOP, "build", "bpf"),
        "P4NL": "/usr/bin/python3 " + os.path.join(TOP, "tests", "tdc", "p4tc", "p4nl.py"),
        "INTROSPECTION": os.environ.get(
            "INTROSPECTION", os.path.join(TOP, "tests", "introspection")),
    }
    # tc p4runtime finds the key fields of pipelines there
    os.environ["INTROSPECTION"] = names["INTROSPECTION"]
    return names


KNOWN_PLUGINS = {"nsPlugin", "scapyPlugin"}
SHELL_SYNTAX = re.compile(r"""[|&;<>()$`\\"'*?\[\]#~=%{}\n]""")


class CaseError(Exception):
    pass


class Runner:
    def __init__(self, names, verbose):
        self.names = names
        self.verbose = verbose
        self.ns_ready = False

    def subst(self, cmd, testid=None):
        names = dict(self.names)
        if testid:
            names["TESTID"] = testid
        return Template(cmd).safe_substitute({k: str(v) for k, v in names.items()})

    def sh(self, cmd, in_ns, testid=None):
        """Run one command as tdc does; return (exit code, output).

        The output is stderr when the command failed and wrote to stderr,
        stdout otherwise (tdc's rule, which upstream patterns rely on)."""
        if not cmd.strip():
            return None, ""
        cmd = self.subst(cmd, testid)
        if in_ns:
            cmd = f"{self.names['IP']} netns exec {self.names['NS']} {cmd}"
        if self.verbose:
            print(f"    $ {cmd}")
        # A command without shell syntax runs without a shell: the result
        # is the same and, in the guest, every exec costs about 0.3 s.
        argv = cmd if SHELL_SYNTAX.search(cmd) else shlex.split(cmd)
        try:
            p = subprocess.run(argv, shell=isinstance(argv, str),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=float(self.names["TIMEOUT"]))
        except FileNotFoundError as e:
            return 127, f"{e.filename}: command not found\n"
        except subprocess.TimeoutExpired:
            return 255, f'Command "{cmd}" timed out\n'
        out = p.stderr if p.returncode != 0 and p.stderr else p.stdout
        out = out.decode("utf-8", errors="replace")
        if self.verbose and out:
            print("    " + out.rstrip().replace("\n", "\n    "))
        return p.returncode, out

    def ns_create(self):
        if self.ns_ready:
            return
        n = self.names
        for cmd in ("$IP link add $DEV0 type veth peer name $DEV1",
                    "$IP link set $DEV0 up",
                    "$IP netns add $NS",
                    "$IP link set $DEV1 netns $NS",
                    "$IP -n $NS link set $DEV1 up",
                    "$IP -n $NS link set lo up"):
            rc, out = self.sh(cmd, False)
            if rc != 0:
                raise CaseError(f"nsPlugin setup '{self.subst(cmd)}' failed: {out.strip()}")
        if n.get("DEV2"):
            for cmd in ("$IP link set $DEV2 netns $NS", "$IP -n $NS link set $DEV2 up"):
                self.sh(cmd, False)
        self.ns_ready = True

    def ns_destroy(self):
        if self.ns_ready:
            self.sh("$IP link del $DEV0", False)
            self.sh("$IP netns delete $NS", False)
            self.ns_ready = False

    def batchable(self, cmd, codes):
        """A setup or teardown command that can share one `tc -b` with its
        neighbours: plain `$TC SUBCOMMAND ...` (no global option, no shell
        syntax) that must succeed."""
        return (codes == [0] and cmd.startswith("$TC ") and
                not cmd[4:].lstrip().startswith("-") and
                not SHELL_SYNTAX.search(cmd[4:]))

    def batch(self, name, cmds, testid):
        """Run CMDS (batchable ones) in one `tc -b -`: every exec costs
        about 0.4 s in the debug guest, and tdc cases set up with several
        tc commands in a row.  tc stops at the first failure, as the
        commands one by one would; its line number names the command."""
        lines = [self.subst(c, testid)[len(self.names["TC"]) + 1:].strip() for c in cmds]
        if self.verbose:
            for ln in lines:
                print(f"    $ {self.names['TC']} -b: {ln}")
        try:
            p = subprocess.run([self.names["TC"], "-b", "-"],
                               input=("\n".join(lines) + "\n").encode(),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=float(self.names["TIMEOUT"]) * len(lines))
        except subprocess.TimeoutExpired:
            raise CaseError(f"{name} commands {lines} timed out")
        if p.returncode == 0:
            return
        err = p.stderr.decode("utf-8", errors="replace")
        m = re.search(r"^Command failed -:(\d+)$", err, re.MULTILINE)
        n = int(m.group(1)) - 1 if m and 0 < int(m.group(1)) <= len(lines) else None
        which = self.subst(cmds[n], testid) if n is not None else f"one of {lines}"
        msg = re.sub(r"^Command failed -:\d+\n?", "", err, flags=re.MULTILINE)
        raise CaseError(f"{name} command '{which}' failed (in a tc -b of "
                        f"{len(lines)}): {msg.strip()[:500]}")

    def stage(self, name, cmds, in_ns, testid):
        run = []        # batchable commands waiting for a non-batchable one

        def flush():
            if len(run) == 1:
                self.one(name, run[0], [0], in_ns, testid)
            elif run:
                self.batch(name, run, testid)
            run.clear()

        for c in cmds or []:
            if isinstance(c, list):
                cmd, codes = c[0], [int(x) for x in c[1:]]
            else:
                cmd, codes = c, [0]
            if not cmd:
                continue
            if not in_ns and self.batchable(cmd, codes):
                run.append(cmd)
                continue
            flush()
            self.one(name, cmd, codes, in_ns, testid)
        flush()

    def one(self, name, cmd, codes, in_ns, testid):
        rc, out = self.sh(cmd, in_ns, testid)
        if rc is not None and rc not in codes:
            raise CaseError(f"{name} command '{self.subst(cmd, testid)}' exited "
                            f"{rc}, allowed {codes}: {out.strip()[:500]}")

    def send_scapy(self, case):
        blocks = case.get("scapy")
        if not blocks:
            return
        if not isinstance(blocks, list):
            blocks = [blocks]
        for b in blocks:
            missing = [k for k in ("iface", "count", "packet") if k not in b]
            if missing:
                raise CaseError(f"scapy block lacks {missing}")
            iface = self.subst(b["iface"])
            # Packets leave from $DEV0, which stays in the root namespace.
            # scapy is imported once, here: the import alone takes ~20 s
            # in the debug guest.
            scapy = import_scapy()
            try:
                pkt = eval(b["packet"], vars(scapy))
                scapy.sendp(pkt, iface=iface, count=int(b["count"]), verbose=False)
            except Exception as e:  # the case's own expression failed
                raise CaseError(f"scapy send failed: {e!r}")

    def run_case(self, case):
        """Return (result, reason): result is 'ok', 'FAIL' or 'skip'."""
        tid = case.get("id", "????")
        if case.get("skip") == "yes":
            return "skip", "designated as skipped"
        reqs = case.get("plugins", {}).get("requires", [])
        if isinstance(reqs, str):
            reqs = [reqs]
        unknown = [r for r in reqs if r not in KNOWN_PLUGINS]
        if unknown:
            return "skip", f"needs plugin {', '.join(unknown)}"
        in_ns = "nsPlugin" in reqs
        for k in ("cmdUnderTest", "expExitCode", "verifyCmd"):
            if k not in case:
                return "FAIL", f"malformed case: no {k}"
        if "matchJSON" not in case and ("matchPattern" not in case or "matchCount" not in case):
            return "FAIL", "malformed case: neither matchPattern+matchCount nor matchJSON"
        result, reason = "ok", ""
        try:
            if in_ns:
                self.ns_create()
            self.stage("setup", case.get("setup"), in_ns, tid)
            rc, out = self.sh(case["cmdUnderTest"], in_ns, tid)
            if rc != int(case["expExitCode"]):
                raise CaseError(f"cmdUnderTest exited {rc}, expected "
                                f"{case['expExitCode']}: {out.strip()[:800]}")
            self.send_scapy(case)
            rc, out = self.sh(case["verifyCmd"], in_ns, tid)
            if "matchJSON" in case:
                check_json(case["matchJSON"], out)
            else:
                found = re.findall(re.compile(str(case["matchPattern"]),
                                              re.DOTALL | re.MULTILINE), out)
                want = int(case["matchCount"])
                if len(found) != want:
                    raise CaseError(f"matchPattern found {len(found)} times, expected "
                                    f"{want}; verifyCmd output:\n{out.rstrip()[:1500]}")
        except CaseError as e:
            result, reason = "FAIL", str(e)
        try:
            self.stage("teardown", case.get("teardown"), in_ns, tid)
        except CaseError as e:
            if result == "ok":
                result, reason = "FAIL", str(e)
        return result, reason


_scapy = None


def import_scapy():
    global _scapy
    if _scapy is None:
        import logging
        # scapy's import-time chatter ("WARNING: No route found") is not a
        # test result.
        logging.getLogger("scapy.runtime").setLevel(logging.ERROR)
        import scapy.all
        _scapy = scapy.all
    return _scapy


def check_json(expected, out):
    try:
        got = json.loads(out) if out.strip() else None
    except json.JSONDecodeError as e:
        raise CaseError(f"verifyCmd output is not JSON ({e}): {out.strip()[:500]}")
    path_form = isinstance(expected, list) and expected and all(
        isinstance(e, dict) and set(e) == {"path", "value"} for e in expected)
    if path_form:
        for e in expected:
            node = got
            for step in e["path"]:
                try:
                    node = node[step]
                except (KeyError, IndexError, TypeError):
                    raise CaseError(f"matchJSON: path {e['path']} not in output")
            if node != e["value"]:
                raise CaseError(f"matchJSON: {e['path']} is {node!r}, expected {e['value']!r}")
        return
    subset(expected, got, "$")


def subset(exp, got, where):
    if isinstance(exp, dict):
        if not isinstance(got, dict):
            raise CaseError(f"matchJSON: {where} is {type(got).__name__}, expected an object")
        for k, v in exp.items():
            if k not in got:
                raise CaseError(f"matchJSON: {where}.{k} missing")
            subset(v, got[k], f"{where}.{k}")
    elif isinstance(exp, list):
        if not isinstance(got, list):
            raise CaseError(f"matchJSON: {where} is {type(got).__name__}, expected a list")
        if len(got) < len(exp):
            raise CaseError(f"matchJSON: {where} has {len(got)} elements, expected {len(exp)}")
        for i, v in enumerate(exp):
            subset(v, got[i], f"{where}[{i}]")
    elif exp != got:
        raise CaseError(f"matchJSON: {where} is {got!r}, expected {exp!r}")


def processes():
    """Processes the kernel created so far (the guest's cost driver: each
    costs about 0.3 s in the debug guest); None where unreadable."""
    try:
        with open("/proc/stat") as f:
            for line in f:
                if line.startswith("processes "):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def shown(path):
    """PATH from the project's top where it is under it (make check's
    figures name tdc files so: ours and upstream's share names)."""
    rel = os.path.relpath(os.path.realpath(path), TOP)
    return path if rel.startswith("..") else rel


def load(path):
    try:
        with open(path) as f:
            cases = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        raise SystemExit(f"tdc: {path}: {e}")
    if not isinstance(cases, list):
        raise SystemExit(f"tdc: {path}: expected a list of test cases")
    return cases


def main():
    ap = argparse.ArgumentParser(description="Run tdc JSON test files.")
    ap.add_argument("files", nargs="+")
    ap.add_argument("-e", "--execute", action="append", default=[],
                    help="run only the case with this id (repeatable)")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    names = default_names()
    runner = Runner(names, a.verbose or bool(os.environ.get("TDC_VERBOSE")))
    passed = failed = skipped = 0
    seen = {}
    for path in a.files:
        file_start = time.monotonic()
        file_procs = processes()
        file_cases = 0
        for case in load(path):
            tid = case.get("id", "????")
            if a.execute and tid not in a.execute:
                continue
            label = f"{os.path.basename(path)} {tid}: {case.get('name', '')}"
            if tid in seen:
                print(f"FAIL {label}: duplicate id (also in {seen[tid]})")
                failed += 1
                continue
            seen[tid] = path
            file_cases += 1
            result, reason = runner.run_case(case)
            if result == "ok":
                passed += 1
                print(f"ok   {label}")
            elif result == "skip":
                skipped += 1
                print(f"skip {label}: {reason}")
            else:
                failed += 1
                print(f"FAIL {label}\n     " + reason.replace("\n", "\n     "))
            sys.stdout.flush()
        # make check's budget report lists the slowest files
        procs = processes()
        procs = f", {procs - file_procs} processes" if procs is not None and file_procs is not None else ""
        print(f"time {shown(path)}: {file_cases} cases in "
              f"{time.monotonic() - file_start:.1f} s{procs}")
    runner.ns_destroy()
    tail = f", {skipped} skipped" if skipped else ""
    print(f"tdc: {passed} passed, {failed} failed{tail}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
