"""The command line: p4tc-compile PROG.p4 -o DIR [--pipeid N] [-D NAME[=V]]."""

import argparse
import json
import os
import re
import sys

from . import bpf, lexer, lower, parser, source
from .source import CompileError


class _Args(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        sys.stderr.write(f"p4tc-compile: error: {message}\n")
        sys.exit(2)


def main(argv):
    ap = _Args(prog="p4tc-compile",
               description="Compile a P4-16 PNA program for P4TC.")
    ap.add_argument("program", help="the P4 source (PROG.p4)")
    ap.add_argument("-o", dest="outdir", required=True,
                    help="where PROG.tc and PROG.json go")
    ap.add_argument("--pipeid", type=int, default=None,
                    help="the pipeline's id (default: the kernel picks; "
                    "the introspection file then says 1)")
    ap.add_argument("-D", dest="defines", action="append", default=[],
                    help="a preprocessor definition")
    ap.add_argument("--bpf", action="store_true",
                    help="also write the parse graph as eBPF parsers: "
                    "PROG.parser.bpf.c (prog tc), PROG.parser-xdp.bpf.c "
                    "(prog xdp)")
    args = ap.parse_args(argv)
    pname = os.path.splitext(os.path.basename(args.program))[0]
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", pname):
        sys.stderr.write(f"{args.program}: error: the pipeline is named after "
                         f"the file, and {pname!r} is not a name\n")
        return 1
    if args.pipeid is not None and not 1 <= args.pipeid <= 0xffffffff:
        sys.stderr.write("p4tc-compile: error: --pipeid is 1..4294967295\n")
        return 2
    if not os.path.isfile(args.program):
        sys.stderr.write(f"{args.program}: error: no such file\n")
        return 1
    try:
        text, linemap = source.preprocess(args.program, args.defines)
        decls = parser.parse(lexer.tokenize(text, linemap))
        prog = lower.Program(decls, pname, args.pipeid)
        script, intro = prog.compile()
        parsers = bpf.bpf_parsers(prog, os.path.basename(args.program)) \
            if args.bpf else None
    except CompileError as e:
        sys.stderr.write(f"{e}\n")
        return 1
    except RecursionError:
        sys.stderr.write(f"{args.program}: error: the program nests too deep\n")
        return 1
    except (AttributeError, KeyError, TypeError, ValueError, IndexError) as e:
        # a bug of the compiler's: the program is refused, never
        # miscompiled; P4TC_COMPILE_DEBUG=1 shows the traceback
        if os.environ.get("P4TC_COMPILE_DEBUG"):
            raise
        sys.stderr.write(f"{args.program}: error: internal compiler error "
                         f"({type(e).__name__}: {e}); nothing was written\n")
        return 1
    try:
        os.makedirs(args.outdir, exist_ok=True)
        head = (f"# {pname}: compiled by p4tc-compile from "
                f"{os.path.basename(args.program)}; load with tc -b\n")
        with open(os.path.join(args.outdir, pname + ".tc"), "w") as f:
            f.write(head + "\n".join(script) + "\n")
        with open(os.path.join(args.outdir, pname + ".json"), "w") as f:
            json.dump(intro, f, indent=2)
            f.write("\n")
        if parsers:
            for suffix, text in zip((".parser.bpf.c", ".parser-xdp.bpf.c"), parsers):
                with open(os.path.join(args.outdir, pname + suffix), "w") as f:
                    f.write(text)
    except OSError as e:
        sys.stderr.write(f"p4tc-compile: error: {args.outdir}: {e.strerror}\n")
        return 1
    return 0
