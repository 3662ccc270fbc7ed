/* Per-class packet and byte counters in registers: ICMP, TCP, UDP and
 * anything else (index 0 to 3).  No tables; every packet goes on.
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
    Register<bit<64>, bit<32>>(4) pkts;
    Register<bit<64>, bit<32>>(4) bytes;

    apply {
        if (hdr.ethernet.etherType != 0x0800) {
            pkts.write(3, pkts.read(3) + 1);
            bytes.write(3, bytes.read(3) + packet_length());
        } else if (hdr.ipv4.protocol == 1) {
            pkts.write(0, pkts.read(0) + 1);
            bytes.write(0, bytes.read(0) + packet_length());
        } else if (hdr.ipv4.protocol == 6) {
            pkts.write(1, pkts.read(1) + 1);
            bytes.write(1, bytes.read(1) + packet_length());
        } else if (hdr.ipv4.protocol == 17) {
            pkts.write(2, pkts.read(2) + 1);
            bytes.write(2, bytes.read(2) + packet_length());
        } else {
            pkts.write(3, pkts.read(3) + 1);
            bytes.write(3, bytes.read(3) + packet_length());
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
