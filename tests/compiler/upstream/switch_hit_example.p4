/* switch on action_run, .hit/.miss and isValid(), in the style of upstream
 * P4TC samples. */
#include <core.p4>
#include <tc/pna.p4>
header ethernet_t { @tc_type("macaddr") bit<48> dstAddr; @tc_type("macaddr") bit<48> srcAddr; bit<16> etherType; }
header ipv4_t { bit<4> version; bit<4> ihl; bit<8> diffserv; bit<16> totalLen; bit<16> identification; bit<3> flags; bit<13> fragOffset; bit<8> ttl; bit<8> protocol; bit<16> hdrChecksum; @tc_type("ipv4") bit<32> srcAddr; @tc_type("ipv4") bit<32> dstAddr; }
header udp_t { bit<16> sport; bit<16> dport; bit<16> len; bit<16> csum; }
struct headers_t { ethernet_t ethernet; ipv4_t ipv4; udp_t udp; }
struct meta_t { bit<32> cls; }
parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, in pna_main_parser_input_metadata_t istd) {
    state start { pkt.extract(hdr.ethernet); transition select(hdr.ethernet.etherType) { 0x0800: ip; 0x86dd: accept; default: accept; } }
    state ip { pkt.extract(hdr.ipv4); transition select(hdr.ipv4.protocol) { 17: udp; default: accept; } }
    state udp { pkt.extract(hdr.udp); transition accept; }
}
control C(inout headers_t hdr, inout meta_t meta, in pna_main_input_metadata_t istd, inout pna_main_output_metadata_t ostd) {
    action a1(bit<32> v) { meta.cls = v; }
    action a2() { meta.cls = 2; }
    action drop() { drop_packet(); }
    table t { key = { hdr.udp.dport : exact; } actions = { a1; a2; drop; } default_action = drop; }
    table u { key = { meta.cls : exact; } actions = { a2; } }
    apply {
        if (!hdr.udp.isValid()) { return; }
        switch (t.apply().action_run) {
            a1: { if (u.apply().miss) { drop_packet(); } }
            a2:
            drop: { meta.cls = 7; }
        }
    }
}
control D(packet_out pkt, in headers_t hdr, in meta_t meta, in pna_main_output_metadata_t ostd) {
    apply { pkt.emit(hdr.ethernet); pkt.emit(hdr.ipv4); pkt.emit(hdr.udp); }
}
PNA_NIC(P(), C(), D()) main;
