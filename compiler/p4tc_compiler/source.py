"""Source text: the C preprocessor, and where each line came from.

P4 programs use #include and #define as C does, so the compiler runs the
system's C preprocessor (cpp, from GCC) with the project's own include
directory, as p4c does.  cpp's line markers ('# LINE "FILE"') map every
line of its output back to the file and line a user wrote, which every
message names.
"""

import os
import re
import subprocess


class CompileError(Exception):
    """A refusal: FILE:LINE:COL: error: MESSAGE."""

    def __init__(self, loc, msg):
        super().__init__(msg)
        self.loc = loc
        self.msg = msg

    def __str__(self):
        if self.loc is None:
            return f"error: {self.msg}"
        return f"{self.loc}: error: {self.msg}"


class Loc:
    """A place in a source file (line and column count from 1)."""

    __slots__ = ("file", "line", "col")

    def __init__(self, file, line, col):
        self.file = file
        self.line = line
        self.col = col

    def __str__(self):
        return f"{self.file}:{self.line}:{self.col}"


INCLUDE_DIR = os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "include")

MARKER = re.compile(r'^#\s*(?:line\s+)?(\d+)\s+"((?:[^"\\]|\\.)*)"')


def preprocess(path, defines=()):
    """Run cpp on PATH; return (text, linemap) where linemap[i] is the
    (file, line) of output line i (0-based)."""
    cmd = ["cpp", "-undef", "-nostdinc", "-x", "c", "-std=c11",
           "-I", INCLUDE_DIR]
    cmd += [f"-D{d}" for d in defines]
    cmd.append(path)
    try:
        res = subprocess.run(cmd, capture_output=True, text=True)
    except FileNotFoundError:
        raise CompileError(None, "cpp (the C preprocessor) is not installed")
    if res.returncode != 0:
        # cpp's own messages already read FILE:LINE:COL: error: ...
        for line in res.stderr.splitlines():
            if ": error: " in line or ": fatal error: " in line:
                raise _CppError(line.replace("fatal error: ", "error: "))
        raise CompileError(None, "the C preprocessor failed: " +
                           res.stderr.strip())
    out, linemap = [], []
    file, line = path, 1
    for text in res.stdout.split("\n"):
        m = MARKER.match(text)
        if m:
            line, file = int(m.group(1)), m.group(2)
            out.append("")
            linemap.append((file, 0))
            continue
        out.append(text)
        linemap.append((file, line))
        line += 1
    return "\n".join(out), linemap


class _CppError(CompileError):
    """cpp's message, already in FILE:LINE:COL: error: form."""

    def __init__(self, line):
        super().__init__(None, line)
        self.line = line

    def __str__(self):
        return self.line
