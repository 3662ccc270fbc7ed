/* Port mirroring: an LPM table on the IPv4 source names the port that
 * gets a copy of the packet; the packet itself goes on.
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

struct headers_t {
    ethernet_t     ethernet;
    ipv4_t         ipv4;
    ipv4_options_t ipv4_options;
}

struct metadata_t { }

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
        transition accept;
    }
}

control cb(inout headers_t hdr, inout metadata_t meta,
           in pna_main_input_metadata_t istd,
           inout pna_main_output_metadata_t ostd)
{
    action mirror_to(@tc_type("dev") PortId_t port) {
        send_copy_to_port(port);
    }

    table mirror {
        key = { hdr.ipv4.srcAddr : lpm @name("srcAddr"); }
        actions = { mirror_to; }
        size = 1024;
    }

    apply {
        if (hdr.ethernet.etherType == 0x0800) {
            mirror.apply();
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
    }
}

PNA_NIC(parser1(), cb(), deparser()) main;
