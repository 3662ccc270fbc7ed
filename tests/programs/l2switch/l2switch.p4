/* L2 switch: the MAC table (exact on the destination) gives the port; a
 * miss floods out of every flood port but the one the frame came in on
 * (the flood ports are the default action's parameters, set once the
 * pipeline is sealed).  No learning in the datapath.
 */
#include <core.p4>
#include <tc/pna.p4>

header ethernet_t {
    @tc_type("macaddr") bit<48> dstAddr;
    @tc_type("macaddr") bit<48> srcAddr;
    bit<16> etherType;
}

struct headers_t { ethernet_t ethernet; }

struct metadata_t { }

parser parser1(packet_in pkt, out headers_t hdr, inout metadata_t meta,
               in pna_main_parser_input_metadata_t istd)
{
    state start {
        pkt.extract(hdr.ethernet);
        transition accept;
    }
}

control cb(inout headers_t hdr, inout metadata_t meta,
           in pna_main_input_metadata_t istd,
           inout pna_main_output_metadata_t ostd)
{
    action fwd(@tc_type("dev") PortId_t port) {
        send_to_port(port);
    }
    action flood(@tc_type("dev") PortId_t p1, @tc_type("dev") PortId_t p2,
                 @tc_type("dev") PortId_t p3) {
        if (istd.input_port != p1) {
            send_copy_to_port(p1);
        }
        if (istd.input_port != p2) {
            send_copy_to_port(p2);
        }
        if (istd.input_port != p3) {
            send_copy_to_port(p3);
        }
        drop_packet();
    }
    action drop() {
        drop_packet();
    }

    table mac {
        key = { hdr.ethernet.dstAddr : exact @name("dstAddr"); }
        actions = { @tableonly fwd; @defaultonly flood; drop; }
        default_action = drop;
        size = 65536;
    }

    apply {
        mac.apply();
    }
}

control deparser(packet_out pkt, in headers_t hdr, in metadata_t meta,
                 in pna_main_output_metadata_t ostd)
{
    apply {
        pkt.emit(hdr.ethernet);
    }
}

PNA_NIC(parser1(), cb(), deparser()) main;
