/* Port security: a frame goes on only when the pair of the port it came
 * in on and its source MAC address is known (an exact table the control
 * plane fills); then the ports table says where it goes.  A frame from an
 * unknown pair is dropped and counted in the violations register
 * (element 0), and so is one whose port has no way out (element 1).
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
    Register<bit<64>, bit<32>>(2) violations;

    action known() {
    }
    action forward(@tc_type("dev") PortId_t port) {
        send_to_port(port);
    }

    table stations {
        key = {
            istd.input_port : exact @name("port");
            hdr.ethernet.srcAddr : exact @name("srcAddr");
        }
        actions = { known; }
        size = 1024;
    }
    table ports {
        key = { istd.input_port : exact @name("port"); }
        actions = { forward; }
        size = 256;
    }

    apply {
        if (stations.apply().miss) {
            violations.write(0, violations.read(0) + 1);
            drop_packet();
            return;
        }
        if (!ports.apply().hit) {
            violations.write(1, violations.read(1) + 1);
            drop_packet();
        }
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
