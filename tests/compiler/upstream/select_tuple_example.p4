/* -*- P4_16 -*- */
/* A select on several fields of one header (P4's tuple select): IPv4 by
 * its IHL, version and DSCP byte, with a masked case and don't-cares; the
 * compiler selects on a field of its own spanning them (P4TC selects on one
 * field of up to 64 bits), and isValid() of the headers after it follows
 * the masked transitions. */
#include <core.p4>
#include <tc/pna.p4>

#define PORT_TABLE_SIZE 262144

typedef bit<48>  EthernetAddress;
typedef bit<32>  IPv4Address;

header ethernet_t {
    @tc_type ("macaddr") EthernetAddress dstAddr;
    @tc_type ("macaddr") EthernetAddress srcAddr;
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
    @tc_type ("ipv4") IPv4Address srcAddr;
    @tc_type ("ipv4") IPv4Address dstAddr;
}

header tcp_t {
    bit<16> srcPort;
    bit<16> dstPort;
    bit<32> seqNo;
    bit<32> ackNo;
    bit<4>  dataOffset;
    bit<4>  res;
    bit<8>  flags;
    bit<16> window;
    bit<16> checksum;
    bit<16> urgentPtr;
}

header udp_t {
    bit<16> srcPort;
    bit<16> dstPort;
    bit<16> len;
    bit<16> checksum;
}

struct my_ingress_headers_t {
    ethernet_t   ethernet;
    ipv4_t       ipv4;
    tcp_t        tcp;
    udp_t        udp;
}

struct my_ingress_metadata_t {
    @tc_type("ipv4") bit<32> src;
    PortId_t port;
    bit<1> acl_hit;
    bool   syn;
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
        transition select(hdr.ipv4.ihl, hdr.ipv4.version, hdr.ipv4.diffserv) {
            (5, 4, _): parse_tcp;
            (_, 4, 0x2e): parse_udp;
            (0x8 &&& 0x8, _, _): reject;
            default: accept;
        }
    }
    state parse_tcp {
        pkt.extract(hdr.tcp);
        transition accept;
    }
    state parse_udp {
        pkt.extract(hdr.udp);
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
    action send_nh(@tc_type("dev") PortId_t port_id, @tc_type("macaddr") bit<48> dmac, @tc_type("macaddr") bit<48> smac) {
        hdr.ethernet.srcAddr = smac;
        hdr.ethernet.dstAddr = dmac;
        send_to_port(port_id);
    }
    action drop() {
        drop_packet();
    }
    action set_port(PortId_t p) {
        meta.port = p;
    }
    action acl_allow() { meta.acl_hit = 1; }
    action acl_deny() { meta.acl_hit = 1; drop_packet(); }

    table nh_table {
        key = {
            hdr.ipv4.dstAddr : lpm @name("dstAddr");
            istd.input_port : exact @name("port");
        }
        actions = {
            send_nh;
            drop;
        }
        size = PORT_TABLE_SIZE;
        const default_action = drop;
    }

    @nummask(8)
    table acl {
        key = {
            hdr.ipv4.srcAddr : ternary @name("src");
            hdr.ipv4.protocol : ternary @name("proto");
            hdr.tcp.dstPort : ternary @name("dport");
        }
        actions = { acl_allow; acl_deny; @defaultonly NoAction; }
        default_action = NoAction;
    }

    table port_map {
        key = { meta.port : exact; }
        actions = { set_port; NoAction; }
        default_action = NoAction();
    }

    apply {
        meta.src = hdr.ipv4.srcAddr;
        meta.syn = hdr.tcp.isValid() && (hdr.tcp.flags & 0x02) != 0;
        if (hdr.ipv4.isValid()) {
            if (hdr.ipv4.ttl <= 1) {
                drop_packet();
                return;
            }
            hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
            if (meta.syn) {
                acl.apply();
            }
            if (meta.acl_hit == 0) {
                switch (nh_table.apply().action_run) {
                    send_nh: { port_map.apply(); }
                    default: { }
                }
            }
        }
    }
}

control Ingress_Deparser(
    packet_out pkt,
    inout    my_ingress_headers_t hdr,
    in    my_ingress_metadata_t meta,
    in    pna_main_output_metadata_t ostd)
{
    InternetChecksum() chk;
    apply {
        chk.clear();
        chk.add({
            hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv,
            hdr.ipv4.totalLen, hdr.ipv4.identification,
            hdr.ipv4.flags, hdr.ipv4.fragOffset,
            hdr.ipv4.ttl, hdr.ipv4.protocol,
            hdr.ipv4.srcAddr, hdr.ipv4.dstAddr
        });
        hdr.ipv4.hdrChecksum = chk.get();
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.tcp);
        pkt.emit(hdr.udp);
    }
}

PNA_NIC(
    Ingress_Parser(),
    ingress(),
    Ingress_Deparser()
) main;
