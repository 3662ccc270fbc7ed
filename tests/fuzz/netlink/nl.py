"""Netlink for the fuzzer: build attributes and messages, send one and
read its answer, parse attributes back (strictly: a dump the kernel sends
must be well formed)."""

import socket
import struct

NETLINK_ROUTE = 0
SOL_NETLINK = 270
NETLINK_EXT_ACK = 11
NETLINK_CAP_ACK = 10
NLM_F_REQUEST, NLM_F_MULTI, NLM_F_ACK = 1, 2, 4
NLM_F_ROOT, NLM_F_MATCH = 0x100, 0x200
NLM_F_DUMP = NLM_F_ROOT | NLM_F_MATCH
NLM_F_REPLACE, NLM_F_EXCL, NLM_F_CREATE = 0x100, 0x200, 0x400
NLMSG_ERROR, NLMSG_DONE = 2, 3
NLA_F_NESTED = 0x8000
NLMSGERR_ATTR_MSG = 1

RTM_NEWACTION, RTM_DELACTION, RTM_GETACTION = 48, 49, 50
RTM_CREATEP4TEMPLATE, RTM_DELP4TEMPLATE, RTM_GETP4TEMPLATE = 124, 125, 126
RTM_P4TC_CREATE, RTM_P4TC_DEL, RTM_P4TC_GET = 128, 129, 130


def attr(t, payload):
    payload = payload[:0xffff - 4]      # what an attribute can carry
    ln = 4 + len(payload)
    return struct.pack("=HH", ln, t) + payload + b"\0" * ((4 - ln % 4) % 4)


def nest(t, *parts):
    return attr(t | NLA_F_NESTED, b"".join(parts))


def strz(t, s):
    return attr(t, s.encode() + b"\0")


def u8(t, v):
    return attr(t, struct.pack("=B", v & 0xff))


def u16(t, v):
    return attr(t, struct.pack("=H", v & 0xffff))


def u32(t, v):
    return attr(t, struct.pack("=I", v & 0xffffffff))


def message(mtype, flags, body, seq=1):
    return struct.pack("=IHHII", 16 + len(body), mtype,
                       flags | NLM_F_REQUEST, seq, 0) + body


def parse_attrs(data, strict=True, flags=False):
    """[(type, payload)]; strict: raise ValueError on a malformed one;
    flags: the type keeps its NLA_F_NESTED and NLA_F_NET_BYTEORDER bits."""
    out, off = [], 0
    while off + 4 <= len(data):
        ln, t = struct.unpack_from("=HH", data, off)
        if ln < 4 or off + ln > len(data):
            if strict:
                raise ValueError(f"attribute at {off}: length {ln} of "
                                 f"{len(data) - off}")
            break
        out.append((t if flags else t & 0x3fff, data[off + 4:off + ln]))
        off += (ln + 3) & ~3
    if strict and off < len(data) and len(data) - off >= 4:
        raise ValueError(f"{len(data) - off} bytes after the attributes")
    return out


class Answer:
    """What the kernel said to one request: errno (0 ok, None: nothing),
    its extended ack message, and the data messages (type, body)."""

    def __init__(self):
        self.err, self.msg, self.parts = None, None, []


class Sock:
    def __init__(self):
        self.s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                               NETLINK_ROUTE)
        self.s.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
        self.s.bind((0, 0))
        self.s.settimeout(30)
        self.seq = 1

    def talk(self, msg, timeout=30):
        """Send @msg (its seq is set here) and collect the answer; raises
        TimeoutError when none comes in @timeout seconds."""
        self.s.settimeout(timeout)
        self.seq += 1
        msg = msg[:8] + struct.pack("=I", self.seq) + msg[12:]
        self.s.send(msg)
        ans = Answer()
        while True:
            data = self.s.recv(1 << 20)
            off = 0
            while off + 16 <= len(data):
                ln, typ, flags, seq, _ = struct.unpack_from("=IHHII", data,
                                                            off)
                if ln < 16:
                    raise ValueError(f"netlink message of length {ln}")
                if seq != self.seq:
                    off += (ln + 3) & ~3
                    continue
                body = data[off + 16:off + ln]
                if typ == NLMSG_ERROR:
                    ans.err = -struct.unpack_from("=i", body, 0)[0]
                    ans.msg = _extack(body, flags)
                    return ans
                if typ == NLMSG_DONE:
                    ans.err = 0
                    if len(body) >= 4:
                        ans.err = -struct.unpack_from("=i", body, 0)[0]
                    ans.msg = _extack(body, flags, done=True)
                    return ans
                ans.parts.append((typ, body))
                off += (ln + 3) & ~3


def _extack(body, flags, done=False):
    # NLMSG_ERROR: errno, the request's header (and, without
    # NLM_F_CAPPED, its body), then the TLVs; NLMSG_DONE: errno, TLVs
    if done:
        off = 4
    else:
        rlen = struct.unpack_from("=I", body, 4)[0] if len(body) >= 8 else 16
        off = 4 + (16 if flags & 0x100 else rlen)
    off = (off + 3) & ~3
    for t, p in parse_attrs(body[off:], strict=False):
        if t == NLMSGERR_ATTR_MSG:
            return p.split(b"\0")[0].decode(errors="replace")
    return None
