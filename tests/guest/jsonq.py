#!/usr/bin/python3 -S
"""json_get's server (tests/guest/lib.sh): one Python for a whole test
script instead of one per question.  A Python start costs about 1.3 s in
the debug guest, and a script asks dozens of questions of tc's JSON.

The script's shell writes requests to our stdin: three items, each a
decimal byte count, a newline and that many bytes: the request's id, the
JSON and a Python expression.  We answer on stdout with the id, a
newline, "0" and str(eval(expression)) (the JSON bound to "j" as
json_get's one-shot Python did), then a NUL; a failed parse or
expression answers the id, a newline and "1", then a NUL, and prints the
error on stderr, which is the script's.  The id lets a shell that gave
up waiting skip a late answer instead of taking it for the next one.

The shell's background children inherit our stdin pipe, so its end of
file may come late: we also leave as soon as the shell that started us
is gone.
"""

import json
import os
import select
import sys


class Requests:
    """Our stdin, read with os.read: nothing hides in a buffer that
    select() cannot see."""

    def __init__(self, fd):
        self.fd = fd
        self.buf = b""

    def ready(self, timeout):
        return bool(self.buf) or bool(select.select([self.fd], [], [], timeout)[0])

    def _more(self):
        part = os.read(self.fd, 1 << 16)
        if not part:
            raise EOFError
        self.buf += part

    def item(self):
        while b"\n" not in self.buf:
            self._more()
        size, self.buf = self.buf.split(b"\n", 1)
        n = int(size)
        while len(self.buf) < n:
            self._more()
        data, self.buf = self.buf[:n], self.buf[n:]
        return data.decode("utf-8", errors="replace")


def main():
    parent = os.getppid()
    requests = Requests(sys.stdin.fileno())
    out = sys.stdout.buffer
    while True:
        if not requests.ready(1.0):
            if os.getppid() != parent:
                return 0
            continue
        try:
            rid = requests.item()
            text = requests.item()
            expr = requests.item()
        except (EOFError, ValueError):
            return 0
        try:
            # "j" a global, as in json_get's one-shot Python: a
            # comprehension's inner clauses see it too
            answer = "0" + str(eval(expr, {"json": json, "j": json.loads(text)}))
        except Exception as e:  # the caller's expression or JSON is wrong
            sys.stderr.write(f"json_get: {expr}: {e!r}\n")
            answer = "1"
        out.write(f"{rid}\n{answer}".encode() + b"\0")
        out.flush()


if __name__ == "__main__":
    sys.exit(main())
