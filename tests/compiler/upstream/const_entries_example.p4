/* -*- P4_16 -*- */
/* In the style of upstream P4TC's const entries samples: a ternary and an exact table with const entries, the first listed winning. */
#include <core.p4>
#include <tc/pna.p4>

header ethernet_t {
    @tc_type("macaddr") bit<48> dstAddr;
    @tc_type("macaddr") bit<48> srcAddr;
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

struct my_ingress_headers_t {
    ethernet_t ethernet;
    ipv4_t     ipv4;
}

struct my_ingress_metadata_t {
}

parser Ingress_Parser(
        packet_in pkt,
        out   my_ingress_headers_t  hdr,
        inout my_ingress_metadata_t meta,
        in    pna_main_parser_input_metadata_t istd)
{
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x0800  : parse_ipv4;
            default : reject;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control ingress(
    inout my_ingress_headers_t  hdr,
    inout my_ingress_metadata_t meta,
    in    pna_main_input_metadata_t  istd,
    inout pna_main_output_metadata_t ostd
)
{
    action set_dscp(bit<8> dscp) {
        hdr.ipv4.diffserv = dscp;
    }
    action next_hop(@tc_type("dev") PortId_t vport) {
        send_to_port(vport);
    }
    action drop() {
        drop_packet();
    }

    table class_tbl {
        key = {
            hdr.ipv4.srcAddr  : ternary @name("srcAddr");
            hdr.ipv4.protocol : ternary @name("protocol");
        }
        actions = {
            set_dscp;
            NoAction;
        }
        const entries = {
            (0x0a000000 &&& 0xff000000, 6)  : set_dscp(0x2e);
            (0x0a000000 &&& 0xff000000, _)  : set_dscp(0x0a);
            (_, 17)                         : set_dscp(0x08);
        }
        default_action = NoAction;
    }

    table block_tbl {
        key = {
            hdr.ipv4.dstAddr : exact @name("dstAddr");
        }
        actions = {
            drop;
            NoAction;
        }
        const entries = {
            0xc0a80001 : drop();
            0xc0a80002 : drop();
        }
        default_action = NoAction;
    }

    apply {
        if (hdr.ipv4.isValid()) {
            class_tbl.apply();
            block_tbl.apply();
        }
    }
}

control Ingress_Deparser(
    packet_out pkt,
    inout    my_ingress_headers_t hdr,
    in    my_ingress_metadata_t meta,
    in    pna_main_output_metadata_t ostd)
{
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.ipv4);
    }
}

PNA_NIC(
    Ingress_Parser(),
    ingress(),
    Ingress_Deparser()
) main;
