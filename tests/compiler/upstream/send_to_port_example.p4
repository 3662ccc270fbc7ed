/* -*- P4_16 -*- */
/* In the style of upstream P4TC's simplest samples: an action parameter of
 * type PortId_t, without @tc_type, is a port (tc type dev), as upstream's
 * compiler makes it; the table's size from a #define. */
#include <core.p4>
#include <tc/pna.p4>

#define PORT_TABLE_SIZE 262144

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

struct empty_metadata_t {
}

parser Ingress_Parser(
        packet_in pkt,
        out   my_ingress_headers_t  hdr,
        inout my_ingress_metadata_t meta,
        in    pna_main_parser_input_metadata_t istd)
{
    const bit<16> ETHERTYPE_IPV4 = 0x0800;

    state start {
        transition parse_ethernet;
    }
    state parse_ethernet {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            ETHERTYPE_IPV4: parse_ipv4;
            default: reject;
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
   action next_hop(PortId_t vport) {
        send_to_port(vport);
   }
   action default_route_drop() {
        drop_packet();
   }

    table ipv4_tbl {
        key = {
            hdr.ipv4.dstAddr : exact;
        }
        actions = {
            next_hop;
            default_route_drop;
        }
        size = PORT_TABLE_SIZE;
        default_action = default_route_drop;
    }

    apply {
        if (hdr.ipv4.isValid()) {
            ipv4_tbl.apply();
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
