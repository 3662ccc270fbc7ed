"""Random small P4 programs written as P4-16 source (PNA), compiled by
p4tc-compile, for differential fuzzing: the compiler's output must run
the same in the kernel and in the p4nic.

The programs have randprog.py's shape (the Ethernet/IPv4/UDP parse
graph, one to three tables with random keys of the same fields, random
actions of header rewrites, arithmetic, branches, sends, copies and
drops, tables applied in turn, some only when the metadata holds a
value), so randprog's entries and frames (fuzz()) fit them; and what P4
adds: applies under isValid(), on .hit/.miss, in a switch on
action_run, a register counting, int<N> arithmetic, a table without a
key, a switch on a field.  They are P4: PNA's send_to_port() and drop_packet() decide at the end of the
control, "return" leaves an action, and the compiler does the rest.

RandomP4Program(rnd, k, out_dir) writes NAME.p4, compiles it into
out_dir (NAME.tc, NAME.json) and is a program module for the engine.
"""

import json
import os
import subprocess

from programs import randprog

TOP = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
COMPILE = os.path.join(TOP, "compiler", "p4tc-compile")

HEADERS = """\
#include <core.p4>
#include <tc/pna.p4>

header ethernet_t {
    @tc_type("macaddr") bit<48> dstAddr;
    @tc_type("macaddr") bit<48> srcAddr;
    bit<16> etherType;
}
header ipv4_t {
    bit<4> version; bit<4> ihl; bit<8> tos; bit<16> totalLen;
    bit<16> identification; bit<3> flags; bit<13> fragOffset;
    bit<8> ttl; bit<8> protocol; bit<16> hdrChecksum;
    @tc_type("ipv4") bit<32> srcAddr;
    @tc_type("ipv4") bit<32> dstAddr;
}
header ipv4_options_t { varbit<320> options; }
header udp_t { bit<16> srcPort; bit<16> dstPort; bit<16> len; bit<16> checksum; }
struct headers_t {
    ethernet_t ethernet; ipv4_t ipv4; ipv4_options_t ipv4_options; udp_t udp;
}
struct metadata_t { bit<32> m; }

parser parser1(packet_in pkt, out headers_t hdr, inout metadata_t meta,
               in pna_main_parser_input_metadata_t istd) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x0800: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        pkt.extract(hdr.ipv4_options, (bit<32>)(((bit<16>)hdr.ipv4.ihl - 5) * 32));
        transition select(hdr.ipv4.protocol) {
            17: parse_udp;
            default: accept;
        }
    }
    state parse_udp {
        pkt.extract(hdr.udp);
        transition accept;
    }
}
"""

TAIL = """
control deparser(packet_out pkt, in headers_t hdr, in metadata_t meta,
                 in pna_main_output_metadata_t ostd) {
    apply {
        pkt.emit(hdr.ethernet); pkt.emit(hdr.ipv4);
        pkt.emit(hdr.ipv4_options); pkt.emit(hdr.udp);
    }
}

PNA_NIC(parser1(), cb(), deparser()) main;
"""

# or with the IPv4 header checksum computed again (InternetChecksum)
TAIL_CHECKSUM = """
control deparser(packet_out pkt, inout headers_t hdr, in metadata_t meta,
                 in pna_main_output_metadata_t ostd) {
    InternetChecksum() ck;
    apply {
        if (hdr.ipv4.isValid()) {
            ck.clear();
            ck.add({hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.tos,
                    hdr.ipv4.totalLen, hdr.ipv4.identification,
                    hdr.ipv4.flags, hdr.ipv4.fragOffset, hdr.ipv4.ttl,
                    hdr.ipv4.protocol, hdr.ipv4.srcAddr, hdr.ipv4.dstAddr});
            hdr.ipv4.hdrChecksum = ck.get();
        }
        pkt.emit(hdr.ethernet); pkt.emit(hdr.ipv4);
        pkt.emit(hdr.ipv4_options); pkt.emit(hdr.udp);
    }
}

PNA_NIC(parser1(), cb(), deparser()) main;
"""

# what expressions read: (P4 expression, bits)
READABLE = [("hdr.ipv4.ttl", 8), ("hdr.ipv4.tos", 8), ("hdr.ipv4.totalLen", 16),
            ("hdr.ipv4.identification", 16), ("hdr.ipv4.srcAddr", 32),
            ("hdr.ipv4.dstAddr", 32), ("meta.m", 32)]

# randprog's key fields, as P4 expressions
KEY_EXPR = {"ip_dst": "hdr.ipv4.dstAddr", "ip_src": "hdr.ipv4.srcAddr",
            "ip_proto": "hdr.ipv4.protocol", "ip_ttl": "hdr.ipv4.ttl",
            "eth_dst": "hdr.ethernet.dstAddr", "eth_type": "hdr.ethernet.etherType",
            "udp_dport": "hdr.udp.dstPort", "meta": "meta.m"}
# what an action may write: (P4 l-value, type, bits)
WRITABLE = [("hdr.ipv4.ttl", "bit8", 8), ("hdr.ipv4.tos", "bit8", 8),
            ("hdr.ethernet.dstAddr", "macaddr", 48),
            ("hdr.ethernet.srcAddr", "macaddr", 48), ("meta.m", "bit32", 32)]


class CompileFailed(Exception):
    pass


class RandomP4Program(randprog.RandomProgram):
    def __init__(self, rnd, k, out_dir):
        self.rnd = rnd
        self.NAME = p = f"rq{k % 1000}"
        self.pipeid = 1100 + k % 1000
        self.tables = []
        self.actions = {}
        tail = TAIL if rnd.random() < 0.6 else TAIL_CHECKSUM
        src = HEADERS + self._control(rnd.randrange(1, 4)) + tail
        os.makedirs(out_dir, exist_ok=True)
        self.P4 = os.path.join(out_dir, f"{p}.p4")
        with open(self.P4, "w") as f:
            f.write(src)
        r = subprocess.run([COMPILE, self.P4, "-o", out_dir, "--pipeid",
                            str(self.pipeid)], capture_output=True, text=True)
        if r.returncode != 0:
            raise CompileFailed(f"{self.P4}: p4tc-compile exit {r.returncode}: "
                                f"{r.stderr.strip()}")
        self.TC = os.path.join(out_dir, f"{p}.tc")
        self.INTROSPECTION = out_dir
        with open(self.TC) as f:
            self.template = [l for l in f.read().splitlines()
                             if l and not l.startswith("#")]
        self.TABLES = [f"cb/{t[0]}" for t in self.tables]
        with open(os.path.join(out_dir, f"{p}.json")) as f:
            self.introspection = json.load(f)

    def _const(self, bits):
        r = self.rnd
        return r.choice([0, 1, 2, 64, 255, r.getrandbits(bits)]) % (1 << bits)

    def _expr(self, bits, depth=0):
        """A random expression of BITS bits: nested operations, shifts,
        slices, casts, conditionals (temporaries in the compiler)."""
        r = self.rnd
        k = r.random() if depth < 2 else 0
        if k < 0.3:
            srcs = [s for s, b in READABLE if b == bits] + ["const"]
            s = r.choice(srcs)
            return f"{bits}w{self._const(bits)}" if s == "const" else s
        if k < 0.55:
            op = r.choice(["+", "-", "&", "|", "^"])
            return f"({self._expr(bits, depth + 1)} {op} {self._expr(bits, depth + 1)})"
        if k < 0.65:
            return f"({self._expr(bits, depth + 1)} {r.choice(['<<', '>>'])} " \
                   f"{r.randrange(0, bits)})"
        if k < 0.7:
            return f"(~{self._expr(bits, depth + 1)})"
        if k < 0.85:
            # a slice of a wider field, widened or narrowed back
            src, sb = r.choice([x for x in READABLE if x[1] >= 8])
            lo = r.randrange(0, sb)
            hi = r.randrange(lo, min(sb, lo + bits))
            return f"((bit<{bits}>){src}[{hi}:{lo}])"
        cmp = r.choice(["==", "!=", ">", "<"])
        return (f"({self._expr(8, depth + 1)} {cmp} {self._expr(8, depth + 1)} ? "
                f"{self._expr(bits, depth + 1)} : {self._expr(bits, depth + 1)})")

    def _signed(self, c, dst, bits):
        """int<W> at work: a signed local from a random expression, an
        arithmetic shift, a signed comparison with a constant that may
        be negative, and the value sign-extended (or cut) into DST."""
        r = self.rnd
        w = r.choice([8, 16])
        lim = 1 << (w - 1)
        v = r.choice([-1, 0, -lim, lim - 1, r.randrange(-lim, lim)])
        cmp = r.choice(["==", "!=", ">", "<", ">=", "<="])
        return [f"int<{w}> s{c} = (int<{w}>){self._expr(w)};",
                f"s{c} = s{c} >> {r.randrange(0, w)};",
                f"if (s{c} {cmp} {v}) {{ s{c} = -s{c}; }}",
                f"{dst} = (bit<{bits}>)((int<{bits}>)s{c});"]

    def _action(self, name):
        r = self.rnd
        params, body = [], []
        for c in range(r.randrange(1, 4)):
            dst, typ, bits = r.choice(WRITABLE)
            kind = r.random()
            if kind < 0.35 or typ == "macaddr":
                pn = f"v{c}"
                params.append((pn, typ, bits))
                body.append(f"{dst} = {pn};")
            elif kind < 0.55:
                op = r.choice(["+", "-", "&", "|", "^"])
                body.append(f"{dst} = {dst} {op} {self._const(bits)};")
            elif kind < 0.68:
                body.append(f"{dst} = {self._expr(bits)};")
            elif kind < 0.74:
                body.append(f"bit<16> l{c} = {self._expr(16)};")
                body.append(f"{dst} = (bit<{bits}>)(l{c} ^ {self._expr(16)});"
                            if bits <= 16 else f"{dst} = (bit<32>)l{c} + {dst};")
            elif kind < 0.8 and typ != "macaddr":
                body += self._signed(c, dst, bits)
            elif kind < 0.82:
                body.append(f"helper({self._expr(8)});")
            elif kind < 0.87:
                cmp = r.choice(["==", "!=", ">", "<", ">=", "<="])
                then = r.choice(["drop_packet(); return;", "return;",
                                 f"{dst} = {self._const(bits)};"])
                body.append(f"if ({dst} {cmp} {self._const(bits)}) {{ {then} }}")
            else:
                body.append(f"{dst} = {self._const(bits)};")
        end = r.random()
        if end < 0.4:
            params.append(("port", "dev", 32))
            body.append("send_to_port(port);")
        elif end < 0.55:
            params.append(("port", "dev", 32))
            body.append("send_copy_to_port(port);")
        elif end < 0.7:
            body.append("drop_packet();")
        ps = ", ".join(
            (f'@tc_type("{"macaddr" if t == "macaddr" else "dev"}") '
             if t in ("macaddr", "dev") else "") +
            (f"bit<{b}>" if t != "dev" else "PortId_t") + f" {n}"
            for n, t, b in params)
        self.actions[name] = [(n, t) for n, t, _ in params]
        return f"    action {name}({ps}) {{\n        " + "\n        ".join(body) + "\n    }\n"

    def _table(self, tid):
        r = self.rnd
        kind = r.choice(["exact", "lpm", "ternary"])
        if kind == "lpm":
            fields = [r.choice([f for f in randprog.FIELDS if f[3] == "ipv4"])]
        else:
            fields = r.sample(randprog.FIELDS, r.randrange(1, 4))
        name = f"t{tid}"
        acts = r.sample(sorted(a for a in self.actions if a.startswith("a")) +
                        ["drop", "host", "nop"], r.randrange(1, len(self.actions) + 1))
        default = r.choice(["drop", "host", "nop"])
        if default not in acts:
            acts.append(default)
        self.tables.append((name, kind, fields, acts, default))
        keys = "\n".join(f"            {KEY_EXPR[f[0]]} : {kind} @name(\"{f[0]}\");"
                         for f in fields)
        anno = "    @nummask(16)\n" if kind == "ternary" else ""
        return (f"{anno}    table {name} {{\n        key = {{\n{keys}\n        }}\n"
                f"        actions = {{ {' '.join(a + ';' for a in acts)} }}\n"
                f"        default_action = {default};\n        size = 256;\n    }}\n")

    def _control(self, ntables):
        r = self.rnd
        out = ["control cb(inout headers_t hdr, inout metadata_t meta,\n"
               "           in pna_main_input_metadata_t istd,\n"
               "           inout pna_main_output_metadata_t ostd) {\n",
               "    Register<bit<32>, bit<32>>(2) counts;\n",
               "    action drop() { drop_packet(); }\n",
               "    action helper(bit<8> x) { hdr.ipv4.tos = x ^ 8w0x5a; }\n",
               "    action host() { }\n", "    action nop() { }\n"]
        self.actions = {"drop": [], "host": [], "nop": []}
        for a in range(r.randrange(1, 4)):
            out.append(self._action(f"a{a + 1}"))
        for t in range(ntables):
            out.append(self._table(t + 1))
        # a table without a key (its default action runs; no entries, so
        # not one of self.tables, which the engine fills)
        keyless = r.random() < 0.25
        if keyless:
            out.append("    action stamp(bit<8> v) { hdr.ipv4.tos = hdr.ipv4.tos ^ v; "
                       "meta.m = meta.m + 1; }\n")
            default = r.choice([f"stamp({r.getrandbits(8)})", "nop", "drop"])
            out.append(f"    table tk {{ actions = {{ stamp; nop; drop; }} "
                       f"default_action = {default}; }}\n")
        apply = []
        if r.random() < 0.6:
            apply.append(r.choice(["if (hdr.ethernet.etherType != 0x0800) { return; }",
                                   "if (!hdr.ipv4.isValid()) { return; }"]))
        for i, (name, kind, fields, acts, default) in enumerate(self.tables):
            v = r.choice([0, 1, 2, r.getrandbits(32)])
            how = r.random()
            if i and how < 0.3:
                apply.append(f"if (meta.m == {v}) {{ {name}.apply(); }}")
            elif how < 0.4:
                apply.append(f"if (hdr.udp.isValid()) {{ {name}.apply(); }}")
            elif how < 0.55:
                apply.append(f"if ({name}.apply().{r.choice(['hit', 'miss'])}) "
                             f"{{ meta.m = {v}; counts.write(0, counts.read(0) + 1); }}")
            elif how < 0.7:
                case = r.choice(acts)
                apply.append(f"switch ({name}.apply().action_run) {{ {case}: "
                             f"{{ meta.m = {v}; }} default: {{ counts.write(1, "
                             f"counts.read(1) + 1); }} }}")
            else:
                apply.append(f"{name}.apply();")
        if keyless:
            apply.insert(r.randrange(len(apply) + 1), "tk.apply();")
        if r.random() < 0.2:
            # a switch on a value (P4-16 12.7), cases falling through
            v = r.choice([0, 1, 2, r.getrandbits(32)])
            apply.insert(r.randrange(len(apply) + 1),
                         f"switch (hdr.ipv4.protocol) {{ 17: {{ meta.m = {v}; }} "
                         f"6: 1: {{ counts.write(0, counts.read(0) + 1); }} "
                         f"default: {{ }} }}")
        out.append("    apply {\n        " + "\n        ".join(apply) + "\n    }\n}\n")
        return "".join(out)
