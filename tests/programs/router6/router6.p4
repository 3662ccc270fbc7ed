/* IPv6 router: the FIB (LPM on the IPv6 destination, a 128-bit key that
 * tc writes as an address) picks a next hop, the next-hop table (exact)
 * gives the MACs and the port.  The hop limit goes down by one (IPv6 has
 * no header checksum); a packet whose hop limit would expire, or without
 * a route or next hop, is dropped; packets other than IPv6 go to the
 * host.  Neighbour discovery is not routed either: the hosts know the
 * router's MACs.
 */
#include <core.p4>
#include <tc/pna.p4>

header ethernet_t {
    @tc_type("macaddr") bit<48> dstAddr;
    @tc_type("macaddr") bit<48> srcAddr;
    bit<16> etherType;
}

header ipv6_t {
    bit<4>   version;
    bit<8>   trafficClass;
    bit<20>  flowLabel;
    bit<16>  payloadLen;
    bit<8>   nextHdr;
    bit<8>   hopLimit;
    @tc_type("ipv6") bit<128> srcAddr;
    @tc_type("ipv6") bit<128> dstAddr;
}

struct headers_t {
    ethernet_t ethernet;
    ipv6_t     ipv6;
}

struct metadata_t {
    bit<32> nh;
}

const bit<16> ETHERTYPE_IPV6 = 0x86dd;
const bit<8>  ICMPV6 = 58;

parser parser6(packet_in pkt, out headers_t hdr, inout metadata_t meta,
               in pna_main_parser_input_metadata_t istd)
{
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            ETHERTYPE_IPV6 : parse_ipv6;
            default        : accept;
        }
    }
    state parse_ipv6 {
        pkt.extract(hdr.ipv6);
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
        hdr.ipv6.hopLimit = hdr.ipv6.hopLimit - 1;
        send_to_port(port);
    }

    table fib {
        key = { hdr.ipv6.dstAddr : lpm @name("dstAddr"); }
        actions = { set_nh; drop; }
        default_action = drop;
        size = 65536;
    }
    table nexthop {
        key = { meta.nh : exact @name("nh"); }
        actions = { forward; drop; }
        default_action = drop;
        size = 4096;
    }

    apply {
        if (!hdr.ipv6.isValid()) {
            return;
        }
        /* link-local destinations (neighbour discovery) are the host's */
        if (hdr.ipv6.dstAddr[127:112] == 0xfe80 ||
            hdr.ipv6.dstAddr[127:120] == 0xff) {
            return;
        }
        if (hdr.ipv6.hopLimit <= 1) {
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
        pkt.emit(hdr.ipv6);
    }
}

PNA_NIC(parser6(), cb(), deparser()) main;
