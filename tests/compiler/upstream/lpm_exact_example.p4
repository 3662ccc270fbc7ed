/* -*- P4_16 -*- */
/* An lpm key field with exact ones (in the style of upstream P4TC's
 * matchtype samples): routes per source address.  The compiler puts the
 * lpm field last in the key, so that an entry's mask (the exact fields
 * whole, then the prefix) is a prefix of the whole key and the table is
 * an lpm table: the longest prefix wins, as P4 says. */
#include <core.p4>
#include <tc/pna.p4>

header ethernet_t {
    @tc_type ("macaddr") bit<48> dstAddr;
    @tc_type ("macaddr") bit<48> srcAddr;
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
    @tc_type ("ipv4") bit<32> srcAddr;
    @tc_type ("ipv4") bit<32> dstAddr;
}

struct my_ingress_headers_t {
    ethernet_t   ethernet;
    ipv4_t       ipv4;
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
    inout pna_main_output_metadata_t ostd)
{
    action next_hop(PortId_t vport) {
        send_to_port(vport);
    }
    action set_tos(bit<8> tos) {
        hdr.ipv4.diffserv = tos;
    }
    action drop() {
        drop_packet();
    }

    table src_routes {
        key = {
            hdr.ipv4.dstAddr  : lpm @name("dstAddr");
            hdr.ipv4.srcAddr  : exact @name("srcAddr");
            hdr.ipv4.protocol : exact @name("protocol");
        }
        actions = {
            next_hop;
            set_tos;
            drop;
        }
        const entries = {
            (0x0a000000 &&& 0xff000000, 0xc0a80001, 17) : set_tos(8);
            (0x0a010000 &&& 0xffff0000, 0xc0a80001, 17) : set_tos(16);
            (_, 0xc0a80002, 6) : drop();
        }
        default_action = drop;
    }

    apply {
        if (hdr.ipv4.isValid()) {
            src_routes.apply();
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
