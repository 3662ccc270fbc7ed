/* -*- P4_16 -*- */
/* int<N> as P4-16 means it: an Ethernet frame of type 0x5001 carries two
 * signed bytes a and b and a signed 16-bit w; the control writes what
 * P4 says of them into the frame and returns it where it came from.
 * Signed comparisons (with negative constants too), the arithmetic
 * shift right, sign-extending casts, the unsigned view of a signed
 * value (a cast of the same width), signed locals, an action called
 * with an inout parameter, a switch on an int<8>, an assignment in a
 * parser state (run when the control starts), a function, a select on
 * two fields and isValid() past its masked cases, a table keyed on
 * an int<8> whose action takes an int<8> parameter, and a keyless table
 * whose default action (the control plane may change it) stamps the
 * frame. */
#include <core.p4>
#include <tc/pna.p4>

header ethernet_t {
    @tc_type("macaddr") bit<48> dstAddr;
    @tc_type("macaddr") bit<48> srcAddr;
    bit<16> etherType;
}

header sig_t {
    int<8>  a;
    int<8>  b;
    int<16> w;
    bit<8>  flags;      /* comparisons, a bit each */
    int<8>  shr;        /* a >> 2 */
    int<16> ext;        /* (int<16>) a */
    int<8>  minv;       /* a < b ? a : b, at least -50 */
    int<8>  half;       /* (a - b) >> 1 */
    int<16> avg;        /* ((int<16>) a + (int<16>) b) >> 1 */
    int<8>  neg;        /* -a */
    int<8>  adj;        /* b + the table's delta for a */
    int<16> wshr;       /* w >> 9 */
    int<8>  stamp;      /* the keyless table's default action's */
    bit<8>  sw;         /* a switch on b */
    int<8>  pcopy;      /* what the parser noted of a, minus one */
    bit<8>  absb;       /* |b|, by a function */
}

struct headers_t {
    ethernet_t ethernet;
    sig_t      sig;
}

struct metadata_t {
    int<8> delta;
    int<8> pa;
}

const int<8> LOW = -100;

/* a function (P4-16 9): inlined where it is called */
int<8> absval(in int<8> v) {
    if (v < 0) {
        return -v;
    }
    return v;
}

parser MainParserImpl(
        packet_in pkt,
        out   headers_t  hdr,
        inout metadata_t meta,
        in    pna_main_parser_input_metadata_t istd)
{
    state start {
        pkt.extract(hdr.ethernet);
        /* a tuple select: one source is turned away */
        transition select(hdr.ethernet.srcAddr, hdr.ethernet.etherType) {
            (0x020000000066, _) : reject;
            (_, 0x5001)         : parse_sig;
            default             : reject;
        }
    }
    state parse_sig {
        pkt.extract(hdr.sig);
        meta.pa = hdr.sig.a - 1;
        transition accept;
    }
}

control MainControlImpl(
    inout headers_t  hdr,
    inout metadata_t meta,
    in    pna_main_input_metadata_t  istd,
    inout pna_main_output_metadata_t ostd)
{
    action set_delta(int<8> d) {
        meta.delta = d;
    }
    table adjust {
        key = { hdr.sig.a : exact; }
        actions = { set_delta; NoAction; }
        const entries = {
            -1  : set_delta(-5);
            100 : set_delta(27);
        }
        default_action = NoAction;
    }

    /* called, not a table's: its parameters may have directions */
    action clamp(inout int<8> x, in int<8> lo) {
        if (x < lo) {
            x = lo;
        }
    }
    action set_stamp(int<8> v) {
        hdr.sig.stamp = v;
    }
    table stamp {
        actions = { set_stamp; }
        default_action = set_stamp(7);
    }

    apply {
        bit<8> f = 0;
        int<16> sum;
        if (hdr.sig.a < 0)               { f = f | 0x01; }
        if (hdr.sig.a >= hdr.sig.b)      { f = f | 0x02; }
        if (hdr.sig.a <= LOW)            { f = f | 0x04; }
        if ((bit<8>) hdr.sig.a > 127)    { f = f | 0x08; }
        if (hdr.sig.w > -1000)           { f = f | 0x10; }
        if (hdr.sig.a - hdr.sig.b < -3)  { f = f | 0x20; }
        if (hdr.sig.a == -128)           { f = f | 0x40; }
        if ((int<16>) hdr.sig.b < hdr.sig.w) { f = f | 0x80; }
        hdr.sig.flags = f;
        hdr.sig.shr = hdr.sig.a >> 2;
        hdr.sig.ext = (int<16>) hdr.sig.a;
        hdr.sig.minv = hdr.sig.a < hdr.sig.b ? hdr.sig.a : hdr.sig.b;
        clamp(hdr.sig.minv, -50);
        hdr.sig.half = (hdr.sig.a - hdr.sig.b) >> 1;
        sum = (int<16>) hdr.sig.a + (int<16>) hdr.sig.b;
        hdr.sig.avg = sum >> 1;
        hdr.sig.neg = -hdr.sig.a;
        hdr.sig.wshr = hdr.sig.w >> 9;
        adjust.apply();
        stamp.apply();
        hdr.sig.pcopy = meta.pa;
        if (hdr.sig.isValid()) {
            hdr.sig.absb = (bit<8>) absval(hdr.sig.b);
        }
        switch (hdr.sig.b) {
            -128:    { hdr.sig.sw = 1; }
            0:
            1:       { hdr.sig.sw = 2; }
            default: { hdr.sig.sw = 3; }
        }
        hdr.sig.adj = hdr.sig.b + meta.delta;

        bit<48> tmp = hdr.ethernet.dstAddr;
        hdr.ethernet.dstAddr = hdr.ethernet.srcAddr;
        hdr.ethernet.srcAddr = tmp;
        send_to_port(istd.input_port);
    }
}

control MainDeparserImpl(
    packet_out pkt,
    in    headers_t hdr,
    in    metadata_t meta,
    in    pna_main_output_metadata_t ostd)
{
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.sig);
    }
}

PNA_NIC(
    MainParserImpl(),
    MainControlImpl(),
    MainDeparserImpl()) main;
