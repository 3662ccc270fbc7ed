/* VLAN push and pop by port: an exact table on (in port, VLAN id; 0 for
 * an untagged frame) tags a frame from an access port (the 802.1Q header
 * goes in, the EtherType moves into it) and sends it to the trunk, or
 * untags a frame from the trunk and sends it to its VLAN's access port.
 * A miss drops.
 */
#include <core.p4>
#include <tc/pna.p4>

header ethernet_t {
    @tc_type("macaddr") bit<48> dstAddr;
    @tc_type("macaddr") bit<48> srcAddr;
    bit<16> etherType;
}

header vlan_t {
    bit<3>  pcp;
    bit<1>  dei;
    bit<12> vid;
    bit<16> etherType;
}

struct headers_t {
    ethernet_t ethernet;
    vlan_t     vlan;
}

struct metadata_t { }

parser parser1(packet_in pkt, out headers_t hdr, inout metadata_t meta,
               in pna_main_parser_input_metadata_t istd)
{
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x8100: parse_vlan;
            default: accept;
        }
    }
    state parse_vlan {
        pkt.extract(hdr.vlan);
        transition accept;
    }
}

control cb(inout headers_t hdr, inout metadata_t meta,
           in pna_main_input_metadata_t istd,
           inout pna_main_output_metadata_t ostd)
{
    action push(bit<12> vid, @tc_type("dev") @name("out") PortId_t port) {
        hdr.vlan.setValid();
        hdr.vlan.vid = vid;
        hdr.vlan.etherType = hdr.ethernet.etherType;
        hdr.ethernet.etherType = 0x8100;
        send_to_port(port);
    }
    action pop(@tc_type("dev") @name("out") PortId_t port) {
        hdr.ethernet.etherType = hdr.vlan.etherType;
        hdr.vlan.setInvalid();
        send_to_port(port);
    }
    action drop() {
        drop_packet();
    }

    table port {
        key = {
            istd.input_port : exact @name("port");
            hdr.vlan.vid : exact @name("vid");
        }
        actions = { @tableonly push; @tableonly pop; drop; }
        default_action = drop;
        size = 4096;
    }

    apply {
        port.apply();
    }
}

control deparser(packet_out pkt, in headers_t hdr, in metadata_t meta,
                 in pna_main_output_metadata_t ostd)
{
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.vlan);
    }
}

PNA_NIC(parser1(), cb(), deparser()) main;
