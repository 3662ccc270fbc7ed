/* -*- P4_16 -*- */
/* In the style of upstream P4TC's default_action_with_param: default actions with arguments, one const. */
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
    action set_dscp(bit<8> dscp, bit<8> ttl) {
        hdr.ipv4.diffserv = dscp;
        hdr.ipv4.ttl = ttl;
    }
    action next_hop(@tc_type("dev") PortId_t vport) {
        send_to_port(vport);
    }
    action set_src(@tc_type("ipv4") bit<32> src) {
        hdr.ipv4.srcAddr = src;
    }

    table dscp_tbl {
        key = {
            hdr.ipv4.dstAddr : exact @name("dstAddr");
        }
        actions = {
            set_dscp;
            next_hop;
        }
        default_action = set_dscp(0x2e, 32);
    }

    table nat_tbl {
        key = {
            hdr.ipv4.srcAddr : exact @name("srcAddr");
        }
        actions = {
            set_src;
        }
        const default_action = set_src(0xc0000201);
    }

    apply {
        if (hdr.ipv4.isValid()) {
            dscp_tbl.apply();
            nat_tbl.apply();
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
