/* -*- P4_16 -*- */
/* In the style of upstream P4TC's ipip sample: IPv4-in-IPv4.  Packets
 * from the inside get an outer IPv4 header (protocol 4), packets from
 * the outside with one lose it; the outer header's checksum is computed
 * in the deparser. */
#include <core.p4>
#include <tc/pna.p4>

typedef bit<48> EthernetAddress;

header ethernet_t {
    @tc_type("macaddr") EthernetAddress dstAddr;
    @tc_type("macaddr") EthernetAddress srcAddr;
    bit<16> etherType;
}

header ipv4_t {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  diffserv;
    bit<16> totalLen;
    bit<16> identification;
    bit<3>  flags;
    bit<13> fragOffset;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> hdrChecksum;
    @tc_type("ipv4") bit<32> srcAddr;
    @tc_type("ipv4") bit<32> dstAddr;
}

struct headers_t {
    ethernet_t ethernet;
    ipv4_t     outer;
    ipv4_t     inner;
}

struct metadata_t {
    @tc_type("ipv4") bit<32> src;
    @tc_type("ipv4") bit<32> dst;
    bool push;
}

parser Parser(
        packet_in pkt,
        out   headers_t  hdr,
        inout metadata_t meta,
        in    pna_main_parser_input_metadata_t istd)
{
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x0800  : parse_ipv4_outer;
            default : reject;
        }
    }
    state parse_ipv4_outer {
        pkt.extract(hdr.outer);
        transition select(hdr.outer.protocol) {
            4       : parse_ipv4_inner;
            default : accept;
        }
    }
    state parse_ipv4_inner {
        pkt.extract(hdr.inner);
        transition accept;
    }
}

control Main(
    inout headers_t  hdr,
    inout metadata_t meta,
    in    pna_main_input_metadata_t  istd,
    inout pna_main_output_metadata_t ostd)
{
    action set_ipip(@tc_type("ipv4") bit<32> src, @tc_type("ipv4") bit<32> dst,
                    @tc_type("dev") PortId_t port) {
        meta.src = src;
        meta.dst = dst;
        meta.push = true;
        send_to_port(port);
    }
    action set_nh(@tc_type("macaddr") bit<48> dmac, @tc_type("dev") PortId_t port) {
        hdr.ethernet.dstAddr = dmac;
        send_to_port(port);
    }
    action drop() {
        drop_packet();
    }

    table fwd_table {
        key = {
            istd.input_port : exact @tc_type("dev") @name("port");
        }
        actions = {
            set_ipip;
            set_nh;
            drop;
        }
        default_action = drop;
    }

    apply {
        if (hdr.outer.isValid()) {
            if (hdr.inner.isValid()) {
                /* from the outside: the inner packet goes on */
                hdr.outer.setInvalid();
            }
            fwd_table.apply();
            if (meta.push) {
                hdr.inner.setValid();
                hdr.inner = hdr.outer;
                hdr.outer.srcAddr = meta.src;
                hdr.outer.dstAddr = meta.dst;
                hdr.outer.ttl = 64;
                hdr.outer.protocol = 4;
                hdr.outer.totalLen = hdr.inner.totalLen + 20;
                hdr.outer.ihl = 5;
            }
        }
    }
}

control Deparser(
    packet_out pkt,
    inout    headers_t hdr,
    in    metadata_t meta,
    in    pna_main_output_metadata_t ostd)
{
    InternetChecksum() chk;
    apply {
        if (hdr.outer.isValid()) {
            chk.clear();
            chk.add({
                hdr.outer.version, hdr.outer.ihl, hdr.outer.diffserv,
                hdr.outer.totalLen, hdr.outer.identification,
                hdr.outer.flags, hdr.outer.fragOffset, hdr.outer.ttl,
                hdr.outer.protocol, hdr.outer.srcAddr, hdr.outer.dstAddr
            });
            hdr.outer.hdrChecksum = chk.get();
        }
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.outer);
        pkt.emit(hdr.inner);
    }
}

PNA_NIC(Parser(), Main(), Deparser()) main;
