/* -*- P4_16 -*- */
/* A header stack: up to two 802.1Q tags (QinQ) in a stack the parser
 * fills with extract(hdr.vlans.next), selecting on hdr.vlans.last; the
 * control reads the elements by index.  Frames with a third tag are
 * rejected (the stack is full: P4's StackOutOfBounds). */
#include <core.p4>
#include <tc/pna.p4>

header ethernet_t {
    @tc_type("macaddr") bit<48> dstAddr;
    @tc_type("macaddr") bit<48> srcAddr;
    bit<16> etherType;
}

header vlan_t {
    bit<3>  pcp;
    bit<1>  dei;
    bit<12> vid;
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
    vlan_t[2]  vlans;
    ipv4_t     ipv4;
}

struct metadata_t {
}

parser MainParserImpl(
        packet_in pkt,
        out   headers_t  hdr,
        inout metadata_t meta,
        in    pna_main_parser_input_metadata_t istd)
{
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x8100  : parse_vlan;
            0x0800  : parse_ipv4;
            default : accept;
        }
    }
    state parse_vlan {
        pkt.extract(hdr.vlans.next);
        transition select(hdr.vlans.last.etherType) {
            0x8100  : parse_vlan;
            0x0800  : parse_ipv4;
            default : accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control MainControlImpl(
    inout headers_t  hdr,
    inout metadata_t meta,
    in    pna_main_input_metadata_t  istd,
    inout pna_main_output_metadata_t ostd)
{
    action send_to(@tc_type("dev") PortId_t port) {
        send_to_port(port);
    }
    action set_inner(bit<12> vid) {
        hdr.vlans[1].vid = vid;
    }
    action drop() {
        drop_packet();
    }

    table qinq_tbl {
        key = {
            hdr.vlans[0].vid : exact @name("outer");
            hdr.vlans[1].vid : exact @name("inner");
        }
        actions = {
            send_to;
            set_inner;
            drop;
        }
        default_action = drop;
    }

    table vlan_tbl {
        key = {
            hdr.vlans[0].vid : exact @name("vid");
        }
        actions = {
            send_to;
            drop;
        }
        default_action = drop;
    }

    apply {
        if (hdr.vlans[1].isValid()) {
            qinq_tbl.apply();
        } else if (hdr.vlans[0].isValid()) {
            vlan_tbl.apply();
        }
    }
}

control MainDeparserImpl(
    packet_out pkt,
    inout    headers_t hdr,
    in    metadata_t meta,
    in    pna_main_output_metadata_t ostd)
{
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.vlans);
        pkt.emit(hdr.ipv4);
    }
}

PNA_NIC(
    MainParserImpl(),
    MainControlImpl(),
    MainDeparserImpl()
) main;
