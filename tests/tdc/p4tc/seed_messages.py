#!/usr/bin/env python3
"""How many of the seed's refusal messages (shared/spec/p4tc-messages.md)
our kernel's P4TC code gives verbatim, per section, and how many of those a
tdc case expects; with -v, the missing and the untested ones.  A measure for the seed-compatibility work, not a test: many of the
seed's refusals are of things we refuse differently or never meet.

A message the seed ends with a newline ("Operand A must be a table\\n")
counts without it: an extended ack is one line, and tc prints the text
followed by a period.  Command messages stand after our "Command N: " or
"Command N operand M: " prefix, which says where the program failed.

    tests/tdc/p4tc/seed_messages.py [-v] [SPEC]
"""

import glob
import os
import re
import sys
from collections import Counter

TOP = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def main(argv):
    verbose = "-v" in argv
    args = [a for a in argv if a != "-v"]
    spec = args[0] if args else os.path.join(TOP, "..", "shared", "spec",
                                            "p4tc-messages.md")
    msgs, sec = [], None
    for line in open(spec):
        if line.startswith("## "):
            sec = line[3:].split(" (")[0].strip()
        m = re.match(r"- `(.*)`$", line.rstrip("\n"))
        if m and sec:
            msgs.append((sec, m.group(1)))
    src = ""
    for f in glob.glob(os.path.join(TOP, "kernel/linux/net/sched/p4tc/*.c")) + \
            [os.path.join(TOP, "kernel/linux/net/sched/cls_p4.c")]:
        src += open(f).read()
    lits = {x.encode().decode("unicode_escape")
            for x in re.findall(r'"((?:[^"\\]|\\.)*)"', src)}
    # what the tdc cases match: their JSON, regex escapes undone
    tdc = ""
    for f in glob.glob(os.path.join(TOP, "tests/tdc/*.json")):
        tdc += re.sub(r"\\(.)", r"\1", open(f).read().replace("\\\\", "\\"))
    missing = [(s, m) for s, m in msgs
               if m not in lits and not (m.endswith("\\n") and m[:-2] in lits)]
    untested = [(s, m) for s, m in msgs if (s, m) not in missing and
                m.removesuffix("\\n") not in tdc]
    total, miss = Counter(s for s, _ in msgs), Counter(s for s, _ in missing)
    unt = Counter(s for s, _ in untested)
    print(f"{len(msgs) - len(missing)} of {len(msgs)} present, "
          f"{len(msgs) - len(missing) - len(untested)} of them in a tdc case")
    for s in total:
        print(f"  {s}: {total[s] - miss[s]}/{total[s]}, tested "
              f"{total[s] - miss[s] - unt[s]}")
    if verbose:
        for s, m in missing:
            print(f"missing [{s}] {m}")
        for s, m in untested:
            print(f"untested [{s}] {m}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
