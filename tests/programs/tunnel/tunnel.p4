/* A tunnel header pushed and popped by port: an exact table on the port
 * a frame came in on either pushes a tunnel header (EtherType 0x88b5, the
 * IEEE's local experimental one, then a 32-bit tunnel id and the inner
 * EtherType) and sends the frame into the tunnel, or pops it off a frame
 * that carries one and sends the inner frame on.  A frame of another
 * tunnel than the port's, and a miss, are dropped.
 */
#include <core.p4>
#include <tc/pna.p4>

const bit<16> ETHERTYPE_TUNNEL = 0x88b5;

header ethernet_t {
    @tc_type("macaddr") bit<48> dstAddr;
    @tc_type("macaddr") bit<48> srcAddr;
    bit<16> etherType;
}

header tunnel_t {
    bit<32> id;
    bit<16> etherType;
}

struct headers_t {
    ethernet_t ethernet;
    tunnel_t   tunnel;
}

struct metadata_t { }

parser parser1(packet_in pkt, out headers_t hdr, inout metadata_t meta,
               in pna_main_parser_input_metadata_t istd)
{
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            ETHERTYPE_TUNNEL: parse_tunnel;
            default: accept;
        }
    }
    state parse_tunnel {
        pkt.extract(hdr.tunnel);
        transition accept;
    }
}

control cb(inout headers_t hdr, inout metadata_t meta,
           in pna_main_input_metadata_t istd,
           inout pna_main_output_metadata_t ostd)
{
    action push(bit<32> id, @tc_type("dev") PortId_t port) {
        hdr.tunnel.setValid();
        hdr.tunnel.id = id;
        hdr.tunnel.etherType = hdr.ethernet.etherType;
        hdr.ethernet.etherType = ETHERTYPE_TUNNEL;
        send_to_port(port);
    }
    action pop(bit<32> id, @tc_type("dev") PortId_t port) {
        if (hdr.tunnel.id != id) {
            drop_packet();
            return;
        }
        hdr.ethernet.etherType = hdr.tunnel.etherType;
        hdr.tunnel.setInvalid();
        send_to_port(port);
    }
    action drop() {
        drop_packet();
    }

    table ports {
        key = { istd.input_port : exact @name("port"); }
        actions = { push; pop; drop; }
        default_action = drop;
        size = 256;
    }

    apply {
        ports.apply();
    }
}

control deparser(packet_out pkt, in headers_t hdr, in metadata_t meta,
                 in pna_main_output_metadata_t ostd)
{
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.tunnel);
    }
}

PNA_NIC(parser1(), cb(), deparser()) main;
