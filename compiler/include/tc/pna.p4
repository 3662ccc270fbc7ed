/* tc/pna.p4: the Portable NIC Architecture (PNA specification v0.7) as
 * P4TC runs it, for p4tc-compile.  Written for this project from the
 * specification; the names, types and the PNA_NIC package are those
 * programs for upstream P4TC's compiler include.
 *
 * p4tc-compile executes send_to_port, drop_packet, Register, Counter,
 * DirectCounter, InternetChecksum, the two P4TC extensions below
 * (send_copy_to_port, packet_length) and istd.input_port; a program
 * calling any other extern declared here is refused with a message
 * naming it (see docs/p4-compiler.md).
 */
#ifndef _TC_PNA_P4_
#define _TC_PNA_P4_

#include <core.p4>

typedef bit<32> PortId_t;
typedef bit<64> Timestamp_t;
typedef bit<8>  ClassOfService_t;
typedef bit<16> CloneSessionId_t;
typedef bit<32> MirrorSlotId_t;
typedef bit<8>  MirrorSessionId_t;
typedef bit<32> PNA_CounterIndex_t;
typedef bit<32> PNA_MeterIndex_t;

match_kind {
    range,
    selector,
    optional
}

enum PNA_Direction_t {
    NET_TO_HOST,
    HOST_TO_NET
}

enum PNA_PacketPath_t {
    FROM_NET_PORT,
    FROM_NET_LOOPEDBACK,
    FROM_NET_RECIRCULATED,
    FROM_HOST,
    FROM_HOST_LOOPEDBACK,
    FROM_HOST_RECIRCULATED
}

enum PNA_HashAlgorithm_t {
    TARGET_DEFAULT,
    IDENTITY,
    CRC32,
    CRC32_CUSTOM,
    CRC16,
    CRC16_CUSTOM,
    ONES_COMPLEMENT16,
    TOEPLITZ
}

enum PNA_CounterType_t {
    PACKETS,
    BYTES,
    PACKETS_AND_BYTES
}

enum PNA_MeterType_t {
    PACKETS,
    BYTES
}

enum PNA_MeterColor_t {
    RED,
    GREEN,
    YELLOW
}

struct pna_main_parser_input_metadata_t {
    PNA_Direction_t direction;
    bool            pass;
    bool            loopedback;
    PortId_t        input_port;
}

struct pna_main_input_metadata_t {
    PNA_Direction_t  direction;
    bool             pass;
    bool             loopedback;
    Timestamp_t      timestamp;
    error            parser_error;
    ClassOfService_t class_of_service;
    PortId_t         input_port;
}

struct pna_main_output_metadata_t {
    ClassOfService_t class_of_service;
}

/* What a program asks of the packet (PNA 0.7, section 6) */
extern void send_to_port(in PortId_t dest_port);
extern void drop_packet();
extern void mirror_packet(in MirrorSlotId_t mirror_slot_id,
                          in MirrorSessionId_t mirror_session_id);
extern void recirculate();

/* P4TC's own, not in PNA 0.7: a copy of the packet, as it is now, goes
 * out of PORT at once (P4TC's mirror_port_egress); the packet goes on.
 * And the packet's length in bytes (the skb's, from the MAC header). */
extern void send_copy_to_port(in PortId_t port);
extern bit<32> packet_length();
extern bool add_entry<T>(string action_name, in T action_params);

/* Upstream P4TC's extensions of PNA, declared so that a program calling
 * one gets p4tc-compile's refusal naming it, not a parse error. */
typedef bit<8> ExpireTimeProfileId_t;
extern bool is_net_port(in PortId_t p);
extern bool is_host_port(in PortId_t p);
extern void set_entry_expire_time(in ExpireTimeProfileId_t expire_time_profile_id);
extern void restart_expire_timer();

extern Digest<T> {
    Digest();
    void pack(in T data);
}

extern DirectMeter {
    DirectMeter(PNA_MeterType_t type);
    PNA_MeterColor_t execute(in PNA_MeterColor_t color);
    PNA_MeterColor_t execute();
}
extern T SelectByDirection<T>(in PNA_Direction_t direction,
                              in T n2h_value, in T h2n_value);

extern Hash<O> {
    Hash(PNA_HashAlgorithm_t algo);
    O get_hash<D>(in D data);
}

extern InternetChecksum {
    InternetChecksum();
    void clear();
    void add<T>(in T data);
    void subtract<T>(in T data);
    bit<16> get();
    bit<16> get_state();
    void set_state(in bit<16> checksum_state);
}

extern Register<T, S> {
    Register(bit<32> size);
    T read(in S index);
    void write(in S index, in T value);
}

extern Counter<W, S> {
    Counter(bit<32> n_counters, PNA_CounterType_t type);
    void count(in S index);
}

extern DirectCounter<W> {
    DirectCounter(PNA_CounterType_t type);
    void count();
}

extern Meter<S> {
    Meter(bit<32> n_meters, PNA_MeterType_t type);
    PNA_MeterColor_t execute(in S index, in PNA_MeterColor_t color);
    PNA_MeterColor_t execute(in S index);
}

extern Random<T> {
    Random(T min, T max);
    T read();
}

parser MainParserT<MH, MM>(
    packet_in pkt,
    out   MH main_hdr,
    inout MM main_user_meta,
    in    pna_main_parser_input_metadata_t istd);

control MainControlT<MH, MM>(
    inout MH main_hdr,
    inout MM main_user_meta,
    in    pna_main_input_metadata_t istd,
    inout pna_main_output_metadata_t ostd);

control MainDeparserT<MH, MM>(
    packet_out pkt,
    in    MH main_hdr,
    in    MM main_user_meta,
    in    pna_main_output_metadata_t ostd);

package PNA_NIC<MH, MM>(
    MainParserT<MH, MM> main_parser,
    MainControlT<MH, MM> main_control,
    MainDeparserT<MH, MM> main_deparser);

#endif
