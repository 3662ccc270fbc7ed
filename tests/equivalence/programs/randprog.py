"""Random small P4 programs for differential fuzzing, built from the
template language as a user would write them: the Ethernet/IPv4/UDP
parse graph, one to three tables with random key layouts (fields of
the headers and metadata, each table exact, LPM or ternary) and random
actions (header rewrites with arithmetic, metadata, branches, redirects,
mirrors, verdicts), applied in order, some only when an earlier table
set a metadata value.

RandomProgram(rnd, k, out_dir) writes NAME.tc and the introspection file
NAME.json into out_dir and is a program module for the engine (NAME, TC,
INTROSPECTION, TABLES, fuzz())."""

import json
import os

from programs.common import fuzz_frame, mac, mutate, pick_addr, rand_prefix
from programs import wire

# key field candidates: (name, header or metadata, tc operand, type, bits)
FIELDS = [
    ("ip_dst", "ipv4", "hdrfield.{p}.parser1.ipv4.dstAddr", "ipv4", 32),
    ("ip_src", "ipv4", "hdrfield.{p}.parser1.ipv4.srcAddr", "ipv4", 32),
    ("ip_proto", "ipv4", "hdrfield.{p}.parser1.ipv4.protocol", "bit8", 8),
    ("ip_ttl", "ipv4", "hdrfield.{p}.parser1.ipv4.ttl", "bit8", 8),
    ("eth_dst", "eth", "hdrfield.{p}.parser1.ethernet.dstAddr", "macaddr", 48),
    ("eth_type", "eth", "hdrfield.{p}.parser1.ethernet.etherType", "bit16", 16),
    ("udp_dport", "udp", "hdrfield.{p}.parser1.udp.dstPort", "bit16", 16),
    ("meta", "meta", "metadata.{p}.m", "bit32", 32),
]

PARSER = """\
p4template create header/{p}/parser1/ethernet len 14 start
p4template create hdrfield/{p}/parser1/ethernet/dstAddr type mac offset 0
p4template create hdrfield/{p}/parser1/ethernet/srcAddr type mac offset 48
p4template create hdrfield/{p}/parser1/ethernet/etherType type be16 offset 96
p4template create hdrfield/{p}/parser1/ipv4/ihl type bit4 offset 4
p4template create hdrfield/{p}/parser1/ipv4/tos type bit8 offset 8
p4template create hdrfield/{p}/parser1/ipv4/ttl type bit8 offset 64
p4template create hdrfield/{p}/parser1/ipv4/protocol type bit8 offset 72
p4template create hdrfield/{p}/parser1/ipv4/srcAddr type ipv4 offset 96
p4template create hdrfield/{p}/parser1/ipv4/dstAddr type ipv4 offset 128
p4template create header/{p}/parser1/ipv4 len 20 maxlen 60 lenfield ihl lenmult 4
p4template create hdrfield/{p}/parser1/udp/srcPort type bit16 offset 0
p4template create hdrfield/{p}/parser1/udp/dstPort type bit16 offset 16
p4template create header/{p}/parser1/udp len 8
p4template update header/{p}/parser1/ethernet select etherType transition 0x800 ipv4 default accept
p4template update header/{p}/parser1/ipv4 select protocol transition 17 udp default accept
p4template create metadata/{p}/m type bit32
"""

# what an action may write: (operand, type, bits)
WRITABLE = [
    ("hdrfield.{p}.parser1.ipv4.ttl", "bit8", 8),
    ("hdrfield.{p}.parser1.ipv4.tos", "bit8", 8),
    ("hdrfield.{p}.parser1.ethernet.dstAddr", "macaddr", 48),
    ("hdrfield.{p}.parser1.ethernet.srcAddr", "macaddr", 48),
    ("metadata.{p}.m", "bit32", 32),
]
TC_TYPE = {"bit8": "bit8", "bit16": "bit16", "bit32": "bit32", "macaddr": "mac",
           "ipv4": "ipv4", "dev": "dev"}


class RandomProgram:
    def __init__(self, rnd, k, out_dir):
        self.rnd = rnd
        self.NAME = p = f"rp{k % 1000}"
        self.pipeid = 100 + k % 1000
        self.tables = []        # (name, type, [field], [action], default)
        self.actions = {}       # name: [(param, type)]
        ntables = rnd.randrange(1, 4)
        lines = [f"p4template create pipeline/{p} pipeid {self.pipeid} "
                 f"numtables {ntables} "
                 "preactions action gact pipe postactions action gact pipe"]
        lines += PARSER.format(p=p).splitlines()
        lines += self._actions()
        for t in range(ntables):
            lines += self._table(t + 1)
        lines += self._main()
        lines.append(f"p4template update pipeline/{p} state ready")
        os.makedirs(out_dir, exist_ok=True)
        self.TC = os.path.join(out_dir, f"{p}.tc")
        self.INTROSPECTION = out_dir
        with open(self.TC, "w") as f:
            f.write("\n".join(lines) + "\n")
        self.introspection = self._introspection()
        with open(os.path.join(out_dir, f"{p}.json"), "w") as f:
            json.dump(self.introspection, f, indent=1)
        self.TABLES = [f"cb/{t[0]}" for t in self.tables]
        self.template = lines

    # --- the template --------------------------------------------------

    def _op(self, s):
        return s.format(p=self.NAME)

    def _const(self, typ, bits):
        r = self.rnd
        return f"constant.bit{bits}.{r.choice([0, 1, 2, 64, 255, r.getrandbits(bits)]) % (1 << bits)}"

    def _actions(self):
        """Actions tables may name: each a few random commands, then
        maybe a redirect, a mirror or a verdict."""
        r, p = self.rnd, self.NAME
        out = [f"p4template create action/{p}/cb/drop cmd ret drop state active",
               f"p4template create action/{p}/cb/host cmd ret ok state active",
               f"p4template create action/{p}/cb/nop cmd ret pipe state active"]
        self.actions = {"drop": [], "host": [], "nop": []}
        for a in range(r.randrange(1, 4)):
            name, params, cmds = f"a{a + 1}", [], []
            for c in range(r.randrange(1, 4)):
                dst, typ, bits = r.choice(WRITABLE)
                dst = self._op(dst)
                kind = r.random()
                if kind < 0.35 or typ == "macaddr":     # a MAC from a param only
                    pn = f"v{c}"
                    params.append((pn, typ, bits))
                    cmds.append(f"cmd set {dst} param.{pn}")
                elif kind < 0.6:
                    op = r.choice(["plus", "sub", "band", "bor", "bxor"])
                    cmds.append(f"cmd {op} {dst} {dst} {self._const(typ, bits)}")
                elif kind < 0.8:
                    # a branch on what the packet holds
                    cmp = r.choice(["beq", "bne", "bgt", "blt", "bge", "ble"])
                    verdict = r.choice(["drop", "ok", "pipe"])
                    cmds.append(f"cmd {cmp} {dst} {self._const(typ, bits)} "
                                f"control {verdict} / pipe")
                else:
                    cmds.append(f"cmd set {dst} {self._const(typ, bits)}")
            end = r.random()
            if end < 0.4:
                params.append(("port", "dev", 32))
                cmds.append("cmd send_port_egress param.port")
            elif end < 0.55:
                params.append(("port", "dev", 32))
                cmds.append("cmd mirror_port_egress param.port")
            elif end < 0.7:
                cmds.append(f"cmd ret {r.choice(['drop', 'ok'])}")
            ps = " ".join(f"param {n} type {TC_TYPE[t]}" for n, t, _ in params)
            out.append(f"p4template create action/{p}/cb/{name} {ps} "
                       f"{' '.join(cmds)} state active".replace("  ", " "))
            self.actions[name] = [(n, t) for n, t, _ in params]
        return out

    def _table(self, tid):
        r, p = self.rnd, self.NAME
        kind = r.choice(["exact", "lpm", "ternary"])
        if kind == "lpm":
            fields = [r.choice([f for f in FIELDS if f[3] == "ipv4"])]
        else:
            fields = r.sample(FIELDS, r.randrange(1, 4))
        name = f"t{tid}"
        keysz = sum(f[4] for f in fields)
        masks = {"exact": 1, "lpm": 33, "ternary": 16}[kind]
        out = [f"p4template create table/{p}/cb/{name} tblid {tid} keysz {keysz} "
               f"type {kind} nummasks {masks} tentries 256"]
        cmds, off = [], 0
        for f in fields:
            cmds.append(f"cmd set key.{p}.cb/{name}[{off}-{off + f[4] - 1}] "
                        f"{self._op(f[2])}")
            off += f[4]
        out.append(f"p4template create action/{p}/cb/{name}_key {' '.join(cmds)} "
                   "state active")
        acts = r.sample(sorted(self.actions), r.randrange(1, len(self.actions) + 1))
        default = r.choice(["drop", "host", "nop"])
        if default not in acts:
            acts.append(default)
        out.append(f"p4template update table/{p}/cb/{name} key action {p}/cb/{name}_key "
                   f"default_miss_action action {p}/cb/{default} table_acts "
                   + " ".join(f"act name {p}/cb/{a}" for a in acts))
        self.tables.append((name, kind, fields, acts, default))
        return out

    def _main(self):
        """The pipeline's preaction: non-IPv4 to the host (sometimes),
        then each table, a later one sometimes only when the metadata
        holds a value an earlier action may have set."""
        r, p = self.rnd, self.NAME
        cmds = []
        if r.random() < 0.6:
            cmds.append(f"cmd bne hdrfield.{p}.parser1.ethernet.etherType "
                        "constant.bit16.0x800 control ok / pipe")
        for i, (name, *_rest) in enumerate(self.tables):
            if i and r.random() < 0.4:
                v = r.choice([0, 1, 2, r.getrandbits(32)])
                cmds.append(f"cmd bne metadata.{p}.m constant.bit32.{v} "
                            f"control jump skip{i} / pipe")
                cmds.append(f"cmd tableapply table.{p}.cb/{name}")
                cmds.append(f"cmd label skip{i}")
            else:
                cmds.append(f"cmd tableapply table.{p}.cb/{name}")
        return [f"p4template create action/{p}/cb/main {' '.join(cmds)} state active",
                f"p4template update pipeline/{p} preactions action {p}/cb/main pipe"]

    def _introspection(self):
        tables = []
        for tid, (name, kind, fields, acts, _) in enumerate(self.tables, 1):
            tables.append({
                "name": f"cb/{name}", "id": tid, "tentries": 256,
                "nummask": {"exact": 1, "lpm": 33, "ternary": 16}[kind],
                "keysize": sum(f[4] for f in fields), "keyid": 1,
                "keyfields": [{"id": i, "name": f[0], "type": f[3],
                               "match_type": kind, "bitwidth": f[4]}
                              for i, f in enumerate(fields, 1)],
                "actions": [{"id": i, "name": f"{self.NAME}/cb/{a}",
                             "action_scope": "TableAndDefault",
                             "params": [{"id": j, "name": n, "type": t,
                                         "bitwidth": {"bit8": 8, "bit16": 16, "bit32": 32,
                                                      "macaddr": 48, "dev": 32}[t]}
                                        for j, (n, t) in enumerate(self.actions[a], 1)]}
                            for i, a in enumerate(acts, 1)],
            })
        return {"schema_version": "1.0.0", "pipeline_name": self.NAME,
                "id": self.pipeid, "tables": tables}

    # --- entries and frames --------------------------------------------

    def _value(self, rnd, f, kind, pools):
        name, _, _, typ, bits = f
        if typ == "ipv4":
            pf = rand_prefix(rnd, ("10.1.0.0", "10.2.0.0"))
            pools["ip"].append(pf)
            if kind == "lpm":
                return pf
            if kind == "ternary" and rnd.random() < 0.6:
                return pf
            return pick_addr(rnd, [pf])
        if typ == "macaddr":
            v = rnd.choice(pools["mac"])
        else:
            v = str(rnd.choice([0, 1, 6, 17, 64, 255, 0x800, 0x806, 53,
                                rnd.getrandbits(bits)]) % (1 << bits))
            pools["num"].append(int(v))
        if kind == "ternary" and rnd.random() < 0.4 and typ != "macaddr":
            m = rnd.getrandbits(bits)
            return f"{int(v) & m}/0x{m:x}"
        return v

    def fuzz(self, rnd, topo):
        pools = {"ip": [], "num": [],
                 "mac": [mac(topo.P[0]), mac(topo.P[1]), "ff:ff:ff:ff:ff:ff",
                         "02:00:00:00:00:01"]}
        ents = []
        for name, kind, fields, acts, _ in self.tables:
            for _ in range(rnd.randrange(0, 6)):
                args = []
                for f in fields:
                    args += [f[0], self._value(rnd, f, kind, pools)]
                if kind == "ternary":
                    args += ["prio", str(rnd.randrange(1, 10))]
                a = rnd.choice(acts)
                args += ["action", f"{self.NAME}/cb/{a}"]
                for pn, t in self.actions[a]:
                    args += ["param", pn, self._param(rnd, t, topo)]
                ents.append((f"cb/{name}", args))
        frames = []
        for _ in range(rnd.randrange(6, 16)):
            port = rnd.randrange(2)
            src = pick_addr(rnd, pools["ip"])
            dst = pick_addr(rnd, pools["ip"])
            proto = rnd.choice([17, 17, 6, 1] + pools["num"][:3])
            proto %= 256
            dport = rnd.choice(pools["num"] + [53, 9]) % 65536
            seg = wire.l4(proto, src, dst, 1000, dport) if proto in (1, 6, 17) else b""
            l3 = wire.ipv4(src, dst, proto, seg,
                           ttl=rnd.choice([0, 1, 2, 64, 255] + pools["num"][:2]) % 256)
            f = fuzz_frame(rnd, topo, port, l3)
            if rnd.random() < 0.3:      # a destination MAC an entry names
                f = wire.mac_bytes(rnd.choice(pools["mac"])) + f[6:]
            frames.append((port, mutate(rnd, f) if rnd.random() < 0.1 else f))
        return ents, frames

    @staticmethod
    def _param(rnd, t, topo):
        if t == "dev":
            return rnd.choice(topo.P)
        if t == "macaddr":
            return rnd.choice([mac(topo.T[0]), mac(topo.T[1]), "02:00:00:00:00:02"])
        bits = {"bit8": 8, "bit16": 16, "bit32": 32}[t]
        return str(rnd.choice([0, 1, 2, 64, rnd.getrandbits(bits)]))


class SavedProgram:
    """A random program as a regression file keeps it (its template lines,
    introspection and tables), written out again to @out_dir."""

    def __init__(self, j, out_dir):
        self.NAME = j["program"]
        self.TABLES = j["tables"]
        os.makedirs(out_dir, exist_ok=True)
        self.TC = os.path.join(out_dir, f"{self.NAME}.tc")
        self.INTROSPECTION = out_dir
        with open(self.TC, "w") as f:
            f.write("\n".join(j["template"]) + "\n")
        with open(os.path.join(out_dir, f"{self.NAME}.json"), "w") as f:
            json.dump(j["introspection"], f, indent=1)
