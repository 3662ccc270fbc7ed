/* IPv4 router: the FIB (LPM on the IPv4 destination) picks a next hop,
 * the next-hop table (exact) gives the MACs and the port.  The TTL goes
 * down by one with the RFC 1624 update of the header checksum; a packet
 * whose TTL would expire, or without a route or next hop, is dropped;
 * packets other than IPv4 go to the host.
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

header ipv4_options_t {
    varbit<320> options;
}

struct headers_t {
    ethernet_t     ethernet;
    ipv4_t         ipv4;
    ipv4_options_t ipv4_options;
}

struct metadata_t {
    bit<32> nh;
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
        transition accept;
    }
}

control cb(inout headers_t hdr, inout metadata_t meta,
           in pna_main_input_metadata_t istd,
           inout pna_main_output_metadata_t ostd)
{
    action set_nh(bit<32> nh) {
        meta.nh = nh;
    }
    action drop() {
        drop_packet();
    }
    action forward(@tc_type("macaddr") bit<48> dmac,
                   @tc_type("macaddr") bit<48> smac,
                   @tc_type("dev") PortId_t port) {
        hdr.ethernet.dstAddr = dmac;
        hdr.ethernet.srcAddr = smac;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
        /* RFC 1624: the TTL is the high byte of its 16-bit word */
        if (hdr.ipv4.hdrChecksum >= 0xff00) {
            hdr.ipv4.hdrChecksum = hdr.ipv4.hdrChecksum + 0x101;
        } else {
            hdr.ipv4.hdrChecksum = hdr.ipv4.hdrChecksum + 0x100;
        }
        send_to_port(port);
    }

    table fib {
        key = { hdr.ipv4.dstAddr : lpm @name("dstAddr"); }
        actions = { set_nh; drop; }
        default_action = drop;
        size = 262144;
    }
    table nexthop {
        key = { meta.nh : exact @name("nh"); }
        actions = { forward; drop; }
        default_action = drop;
        size = 4096;
    }

    apply {
        if (hdr.ethernet.etherType != 0x0800) {
            return;
        }
        if (hdr.ipv4.ttl <= 1) {
            drop_packet();
            return;
        }
        fib.apply();
        nexthop.apply();
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
