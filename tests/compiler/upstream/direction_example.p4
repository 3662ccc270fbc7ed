/* -*- P4_16 -*- */
/* In the style of upstream P4TC's samples that read istd.direction: from the network, packets are classified; from the host, counted in a register and let go. */
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
    Register<bit<32>, bit<32>>(2) seen;

    action set_class(bit<8> cls) {
        hdr.ipv4.diffserv = cls;
    }

    table class_tbl {
        key = {
            hdr.ipv4.protocol : exact @name("protocol");
        }
        actions = {
            set_class;
            NoAction;
        }
        default_action = NoAction;
    }

    apply {
        if (istd.direction == PNA_Direction_t.NET_TO_HOST) {
            seen.write(0, seen.read(0) + 1);
            if (hdr.ipv4.isValid()) {
                class_tbl.apply();
            }
        } else {
            seen.write(1, seen.read(1) + 1);
        }
        /* PNA's SelectByDirection: the TTL a packet leaves with */
        if (hdr.ipv4.isValid()) {
            hdr.ipv4.ttl = SelectByDirection(istd.direction, 8w63, 8w64);
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
