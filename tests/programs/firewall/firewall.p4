/* An L3 firewall between ports: the ports table (exact on the port a
 * frame came in on) says where frames go; an IPv4 packet then meets the
 * ACL, ternary on its 5-tuple (the lowest priority number wins), whose
 * permit lets it go and whose deny, or a miss, drops it.  Registers count
 * the packets permitted (element 0) and denied (element 1); each ACL
 * entry counts its own.  Frames other than IPv4 (ARP) only take the
 * ports table.
 */
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

header ipv4_options_t { varbit<320> options; }

header tcp_t {
    bit<16> srcPort;
    bit<16> dstPort;
    bit<32> seqNo;
    bit<32> ackNo;
    bit<4>  doff;
    bit<4>  res;
    bit<8>  flags;
    bit<16> window;
    bit<16> checksum;
    bit<16> urgentPtr;
}

header tcp_options_t { varbit<320> options; }

header udp_t {
    bit<16> srcPort;
    bit<16> dstPort;
    bit<16> len;
    bit<16> checksum;
}

struct headers_t {
    ethernet_t     ethernet;
    ipv4_t         ipv4;
    ipv4_options_t ipv4_options;
    tcp_t          tcp;
    tcp_options_t  tcp_options;
    udp_t          udp;
}

struct metadata_t {
    bit<16> sport;
    bit<16> dport;
}

parser parser1(packet_in pkt, out headers_t hdr, inout metadata_t meta,
               in pna_main_parser_input_metadata_t istd)
{
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x0800: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        pkt.extract(hdr.ipv4_options, (bit<32>)(((bit<16>)hdr.ipv4.ihl - 5) * 32));
        transition select(hdr.ipv4.protocol) {
            6: parse_tcp;
            17: parse_udp;
            default: accept;
        }
    }
    state parse_tcp {
        pkt.extract(hdr.tcp);
        pkt.extract(hdr.tcp_options, (bit<32>)(((bit<16>)hdr.tcp.doff - 5) * 32));
        transition accept;
    }
    state parse_udp {
        pkt.extract(hdr.udp);
        transition accept;
    }
}

control cb(inout headers_t hdr, inout metadata_t meta,
           in pna_main_input_metadata_t istd,
           inout pna_main_output_metadata_t ostd)
{
    Register<bit<64>, bit<32>>(2) verdicts;

    action forward(@tc_type("dev") PortId_t port) {
        send_to_port(port);
    }
    action permit() {
    }
    action deny() {
        drop_packet();
    }

    table ports {
        key = { istd.input_port : exact @name("port"); }
        actions = { forward; }
        size = 256;
    }

    @nummask(32)
    table acl {
        key = {
            hdr.ipv4.srcAddr : ternary @name("srcAddr");
            hdr.ipv4.dstAddr : ternary @name("dstAddr");
            hdr.ipv4.protocol : ternary @name("protocol");
            meta.sport : ternary @name("srcPort");
            meta.dport : ternary @name("dstPort");
        }
        actions = { permit; deny; }
        default_action = deny;
        size = 4096;
    }

    apply {
        ports.apply();
        if (!hdr.ipv4.isValid()) {
            return;
        }
        /* P4TC reads a field of a header the packet lacks as 0 */
        meta.sport = hdr.tcp.srcPort | hdr.udp.srcPort;
        meta.dport = hdr.tcp.dstPort | hdr.udp.dstPort;
        switch (acl.apply().action_run) {
            permit: { verdicts.write(0, verdicts.read(0) + 1); }
            deny: { verdicts.write(1, verdicts.read(1) + 1); }
        }
    }
}

control deparser(packet_out pkt, in headers_t hdr, in metadata_t meta,
                 in pna_main_output_metadata_t ostd)
{
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.ipv4_options);
        pkt.emit(hdr.tcp);
        pkt.emit(hdr.tcp_options);
        pkt.emit(hdr.udp);
    }
}

PNA_NIC(parser1(), cb(), deparser()) main;
