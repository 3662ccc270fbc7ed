/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * P4 NIC device ABI, version 1.0.
 *
 * The one definition of the device's interface, shared byte for byte by
 * the Linux driver (drivers/net/ethernet/p4nic/), the QEMU device
 * (hw/net/p4nic*) and the firmware model (firmware-model/).  The prose
 * that goes with it is offload-api/SPEC.md; read that first.
 *
 * Every multi-byte field is little endian, whatever the host.  Structures
 * have no implicit padding; their sizes are asserted at the end so that a
 * change that moves a field cannot build.  Values carried by the datapath
 * (constants, entry parameters, register cells) are 128-bit little-endian
 * integers (struct p4nic_u128); table keys are bit strings in network
 * order (the first key component starts at the most significant bit of
 * key byte 0).
 */
#ifndef P4NIC_ABI_H
#define P4NIC_ABI_H

#include <linux/types.h>

#define P4NIC_ABI_MAJOR 1
/*
 * 1.1: the firmware version in IDENTIFY.  1.2: setvalid and setinvalid
 * (P4NIC_OP_SETVALID, P4NIC_OP_SETINVALID, P4NIC_OPND_HEADER), in images
 * of version 1.2 only.
 */
#define P4NIC_ABI_MINOR 2

/* ------------------------------------------------------------------ */
/* PCI identity and BARs                                               */
/* ------------------------------------------------------------------ */

#define P4NIC_PCI_VENDOR_ID	0x1234	/* QEMU's test-device vendor */
#define P4NIC_PCI_DEVICE_ID	0x5034	/* "P4" */
#define P4NIC_PCI_REVISION	0x01
#define P4NIC_PCI_CLASS		0x0200	/* network, Ethernet */

#define P4NIC_BAR_REGS		0	/* 32-bit MMIO registers */
#define P4NIC_BAR_REGS_SIZE	0x4000
#define P4NIC_BAR_MSIX		2	/* MSI-X table and PBA, nothing else */

#define P4NIC_MAX_PORTS		8

/*
 * MSI-X vectors are fixed: one for admin completions, one for the event
 * queue, then a TX and an RX vector per port.
 */
#define P4NIC_VEC_ADMIN		0
#define P4NIC_VEC_EVENT		1
#define P4NIC_VEC_TX(port)	(2 + 2 * (port))
#define P4NIC_VEC_RX(port)	(3 + 2 * (port))
#define P4NIC_NUM_VECTORS	(2 + 2 * P4NIC_MAX_PORTS)

/* ------------------------------------------------------------------ */
/* Register block (BAR 0); every register is 32 bits, access 32 bits.  */
/* ------------------------------------------------------------------ */

#define P4NIC_REG_MAGIC		0x000	/* RO: P4NIC_MAGIC */
#define P4NIC_REG_VERSION	0x004	/* RO: major << 16 | minor */
#define P4NIC_REG_CAPS		0x008	/* RO: P4NIC_CAP_* */
#define P4NIC_REG_NUM_PORTS	0x00c	/* RO: 1..P4NIC_MAX_PORTS */
#define P4NIC_REG_CTRL		0x010	/* RW: P4NIC_CTRL_* */
#define P4NIC_REG_STATUS	0x014	/* RO: P4NIC_STATUS_* */
#define P4NIC_REG_INTR_MASK	0x018	/* RW: bit per vector, 1 = masked */
#define P4NIC_REG_ERR_COUNT	0x01c	/* RO: register writes refused */
#define P4NIC_REG_ERR_LAST	0x020	/* RO: the last one, P4NIC_ERR_* */
#define P4NIC_REG_FATAL_QUEUE	0x024	/* RO: see P4NIC_STATUS_FATAL */

#define P4NIC_MAGIC		0x434e3450	/* "P4NC" */

#define P4NIC_CAP_MSIX		(1u << 0)
#define P4NIC_CAP_OFFLOAD	(1u << 1)	/* runs pipeline images */

#define P4NIC_CTRL_ENABLE	(1u << 0)	/* DMA and queues run */
#define P4NIC_CTRL_RESET	(1u << 1)	/* WO, self-clearing */

#define P4NIC_STATUS_READY	(1u << 0)
#define P4NIC_STATUS_FATAL	(1u << 1)	/* see the event queue */

/*
 * A register write the device cannot accept changes nothing; it is
 * counted in ERR_COUNT and described by ERR_LAST: the register's offset
 * in bits 0..15, why in bits 16..23.
 */
#define P4NIC_ERR_OFFSET(v)	((v) & 0xffff)
#define P4NIC_ERR_WHY(v)	(((v) >> 16) & 0xff)

enum p4nic_reg_error {
	P4NIC_ERR_NONE = 0,
	P4NIC_ERR_READ_ONLY = 1,	/* or no register at that offset */
	P4NIC_ERR_VALUE = 2,	/* size, alignment, index out of range */
	P4NIC_ERR_BUSY = 3,	/* a queue reprogrammed while it runs */
	P4NIC_ERR_NO_PORT = 4,	/* a port or vector the device lacks */
	P4NIC_ERR_ACCESS = 5,	/* not a 32-bit aligned access */
};

/*
 * When DMA to or from a queue fails (its base or a descriptor's ring
 * slot is not guest memory), the device stops all queues and DMA, sets
 * STATUS.FATAL, and FATAL_QUEUE holds the BASE_LO register offset of that
 * queue (0x100 admin, 0x120 completions, 0x140 events, port rings'
 * P4NIC_REG_PORT(p) + TX_BASE_LO / RX_BASE_LO).  Only RESET recovers.
 * A bad buffer address in a TX or RX descriptor is not fatal: that
 * descriptor completes with P4NIC_DESC_ERROR.
 */

/*
 * Admin queue (commands, 64 bytes each), its completion queue (16 bytes
 * each) and the event queue (16 bytes each), all in guest memory.  Sizes
 * are entry counts, powers of two from 2 to 4096; writing a size of 0
 * disables the queue.  The driver produces commands by writing the
 * index one past the last command to AQ_TAIL; completions and events are
 * produced by the device with a phase bit that flips each wrap (it starts
 * at 1), and the driver returns them by writing its consumer index to
 * ACQ_HEAD / EQ_HEAD.
 */
#define P4NIC_REG_AQ_BASE_LO	0x100
#define P4NIC_REG_AQ_BASE_HI	0x104
#define P4NIC_REG_AQ_SIZE	0x108
#define P4NIC_REG_AQ_TAIL	0x10c	/* doorbell */
#define P4NIC_REG_AQ_HEAD	0x110	/* RO: next command the device reads */
#define P4NIC_REG_ACQ_BASE_LO	0x120
#define P4NIC_REG_ACQ_BASE_HI	0x124
#define P4NIC_REG_ACQ_SIZE	0x128
#define P4NIC_REG_ACQ_HEAD	0x12c
#define P4NIC_REG_EQ_BASE_LO	0x140
#define P4NIC_REG_EQ_BASE_HI	0x144
#define P4NIC_REG_EQ_SIZE	0x148
#define P4NIC_REG_EQ_HEAD	0x14c

#define P4NIC_QUEUE_MAX_SIZE	4096

/*
 * Per-port registers at P4NIC_REG_PORT(p) + offset.  TX and RX rings of
 * P4NIC_*_DESC entries, sizes as above.  TX: the driver fills descriptors
 * and writes TX_TAIL; the device sends them in order, sets DONE in each and
 * advances TX_HEAD.  RX: the driver posts empty buffers and writes RX_TAIL
 * (one past the last posted); the device fills them in order.
 */
#define P4NIC_REG_PORT(p)	(0x1000 + 0x40 * (p))
#define P4NIC_PORT_TX_BASE_LO	0x00
#define P4NIC_PORT_TX_BASE_HI	0x04
#define P4NIC_PORT_TX_SIZE	0x08
#define P4NIC_PORT_TX_TAIL	0x0c	/* doorbell */
#define P4NIC_PORT_TX_HEAD	0x10	/* RO */
#define P4NIC_PORT_RX_BASE_LO	0x14
#define P4NIC_PORT_RX_BASE_HI	0x18
#define P4NIC_PORT_RX_SIZE	0x1c
#define P4NIC_PORT_RX_TAIL	0x20	/* doorbell */
#define P4NIC_PORT_RX_HEAD	0x24	/* RO */
#define P4NIC_PORT_STATUS	0x28	/* RO: P4NIC_PORT_LINK_UP, ENABLED */
#define P4NIC_PORT_MAC_LO	0x2c	/* RO: MAC bytes 0..3 */
#define P4NIC_PORT_MAC_HI	0x30	/* RO: MAC bytes 4..5 */

#define P4NIC_PORT_LINK_UP	(1u << 0)
#define P4NIC_PORT_ENABLED	(1u << 1)
/*
 * PORT_SET and PORT_QUERY only (ABI 1.1): frames from this port's wire run
 * the loaded pipeline.  Without it they reach the host as NO_PIPELINE, so
 * a driver offloads a pipeline port by port, as the kernel binds it.
 */
#define P4NIC_PORT_PIPELINE	(1u << 2)

#define P4NIC_PKT_MAX		9216	/* bytes in one packet */

struct p4nic_tx_desc {
	__le64 addr;
	__le16 len;		/* 14..P4NIC_PKT_MAX */
	__le16 flags;		/* driver: 0 */
	__le16 status;		/* device: P4NIC_DESC_* */
	__le16 rsvd;
};

struct p4nic_rx_desc {
	__le64 addr;
	__le16 buf_len;		/* driver: bytes the buffer holds */
	__le16 pkt_len;		/* device */
	__le16 status;		/* device: P4NIC_DESC_* */
	__le16 reason;		/* device: P4NIC_RX_* */
	/* device: PASS: the TC_ACT_* verdict (ok, pipe); TABLE_MISS: table id */
	__le32 info;
	__le32 rsvd;
};

#define P4NIC_DESC_DONE		(1u << 0)
#define P4NIC_DESC_ERROR	(1u << 1)	/* bad address or length */

/*
 * Why a packet reached the host.  PASS and PARSER packets were decided by
 * the device (the program's verdict was ok, or the parse graph rejected
 * the packet): the host must not run the pipeline on them again.  A PASS
 * packet's bytes are as the program left them and the host delivers it; a
 * PARSER packet is the original and the host drops it, as P4TC's software
 * classifier drops what its parse graph rejects (the device hands it over
 * so that the host can count it).  For every other reason the bytes are
 * the original's, nothing the program did took effect, and the host runs
 * its software pipeline from the start.
 */
enum p4nic_rx_reason {
	P4NIC_RX_NO_PIPELINE = 0,	/* no image loaded */
	P4NIC_RX_PASS = 1,		/* decided: verdict ok (or pipe) */
	P4NIC_RX_PARSER = 2,		/* decided: the parse graph rejected */
	P4NIC_RX_TABLE_MISS = 3,	/* miss in a miss-to-host table */
	P4NIC_RX_UNSUPPORTED = 4,	/* needs what hardware was not given */
};

/* ------------------------------------------------------------------ */
/* Admin commands                                                      */
/* ------------------------------------------------------------------ */

enum p4nic_opcode {
	P4NIC_CMD_IDENTIFY = 1,		/* out: struct p4nic_identity */
	P4NIC_CMD_RESET = 2,		/* unload, flush, ports down */
	P4NIC_CMD_PORT_SET = 3,		/* p[0] port, p[1] PORT_ENABLED | PIPELINE */
	P4NIC_CMD_PORT_QUERY = 4,	/* p[0] port; out: p4nic_port_info */
	P4NIC_CMD_PIPELINE_LOAD = 5,	/* in: image */
	P4NIC_CMD_PIPELINE_UNLOAD = 6,	/* p[0] pipeid */
	P4NIC_CMD_ENTRY_ADD = 7,	/* in: struct p4nic_entry */
	P4NIC_CMD_ENTRY_REPLACE = 8,	/* in: struct p4nic_entry */
	P4NIC_CMD_ENTRY_DEL = 9,	/* p[0] table, p[1] handle */
	P4NIC_CMD_TABLE_FLUSH = 10,	/* p[0] table */
	/* p[0] table, p[1] first handle, p[2] count; out: p4nic_counter[] */
	P4NIC_CMD_COUNTERS_READ = 11,
	P4NIC_CMD_DEFAULT_SET = 12,	/* in: struct p4nic_default_action */
	/* p[0] reg, p[1] index, p[2] count; out: p4nic_u128[] */
	P4NIC_CMD_REG_READ = 13,
	P4NIC_CMD_REG_WRITE = 14,	/* same; in: p4nic_u128[] */
	P4NIC_CMD_TABLE_MISS_MODE = 15,	/* p[0] table, p[1] P4NIC_MISS_*, LOOKUP */
	/* p[0] P4NIC_QUERY_*, p[1] id; out: the matching structure */
	P4NIC_CMD_QUERY = 16,
	P4NIC_CMD_MAX = P4NIC_CMD_QUERY,
};

struct p4nic_cmd {
	__le16 opcode;
	__le16 flags;		/* 0 */
	__le32 cookie;		/* echoed in the completion */
	__le64 in_addr;		/* DMA: what the device reads */
	__le32 in_len;
	__le32 out_len;		/* room at out_addr */
	__le64 out_addr;	/* DMA: what the device writes */
	__le32 p[8];		/* inline parameters, per opcode */
};

struct p4nic_cpl {
	__le32 cookie;
	/*
	 * OK: bytes written to out_addr; error: byte offset of the bad field
	 * in the input (or the parameter index)
	 */
	__le32 result;
	__le16 status;		/* P4NIC_ST_* */
	__le16 field;		/* error: P4NIC_F_*, which field is bad */
	__le16 aq_head;		/* the device's AQ_HEAD after this one */
	__le16 flags;		/* P4NIC_CPL_PHASE */
};

#define P4NIC_CPL_PHASE		(1u << 0)

enum p4nic_status {
	P4NIC_ST_OK = 0,
	P4NIC_ST_BAD_OPCODE = 1,	/* unknown or unsupported command */
	P4NIC_ST_INVALID = 2,		/* a field has a bad value */
	P4NIC_ST_LIMIT = 3,		/* over a capability */
	P4NIC_ST_NO_PIPELINE = 4,
	P4NIC_ST_BUSY = 5,		/* a pipeline is already loaded */
	P4NIC_ST_NOT_FOUND = 6,
	P4NIC_ST_EXISTS = 7,
	P4NIC_ST_NO_SPACE = 8,		/* table or mask set full */
	P4NIC_ST_DMA = 9,		/* an address or length is unusable */
	P4NIC_ST_NO_MEMORY = 10,
};

/* Which field a refusal is about (struct p4nic_cpl.field). */
enum p4nic_field {
	P4NIC_F_NONE = 0,
	P4NIC_F_OPCODE, P4NIC_F_FLAGS, P4NIC_F_IN_LEN, P4NIC_F_OUT_LEN,
	P4NIC_F_IN_ADDR, P4NIC_F_OUT_ADDR, P4NIC_F_PARAM,
	P4NIC_F_PORT, P4NIC_F_PIPEID, P4NIC_F_TABLE_ID, P4NIC_F_HANDLE,
	P4NIC_F_PRIO, P4NIC_F_ACTION_ID, P4NIC_F_ACTION_PARAM, P4NIC_F_KEY,
	P4NIC_F_MASK, P4NIC_F_KEY_LEN, P4NIC_F_WHICH, P4NIC_F_MODE,
	P4NIC_F_REG_ID, P4NIC_F_REG_INDEX, P4NIC_F_COUNT, P4NIC_F_QUERY,
	P4NIC_F_VALUE,
	/* pipeline image */
	P4NIC_F_IMG_MAGIC = 64, P4NIC_F_IMG_VERSION, P4NIC_F_IMG_LEN,
	P4NIC_F_IMG_SECTION, P4NIC_F_IMG_PIPELINE, P4NIC_F_IMG_HEADER,
	P4NIC_F_IMG_TRANSITION, P4NIC_F_IMG_FIELD, P4NIC_F_IMG_METADATA,
	P4NIC_F_IMG_ACTION, P4NIC_F_IMG_PARAM, P4NIC_F_IMG_TABLE,
	P4NIC_F_IMG_KEYCOMP, P4NIC_F_IMG_TABLE_ACT, P4NIC_F_IMG_REGISTER,
	P4NIC_F_IMG_INSN, P4NIC_F_IMG_OPERAND, P4NIC_F_IMG_CONST,
	P4NIC_F_IMG_PORT,
};

/* Bits of p4nic_identity.commands: 1 << opcode for each one supported. */
#define P4NIC_CMD_BIT(op)	(1u << (op))

struct p4nic_identity {
	__le16 abi_major;
	__le16 abi_minor;
	__le32 num_ports;
	__le32 commands;	/* P4NIC_CMD_BIT() of each opcode */
	__le32 table_types;	/* 1 << P4NIC_TABLE_* */
	__le32 max_image_bytes;
	__le32 max_tables;
	__le32 max_entries_per_table;
	__le32 max_entries_total;
	__le32 max_key_bits;
	__le32 max_masks;
	__le32 max_actions;
	__le32 max_insns_per_action;
	__le32 max_operands_per_insn;
	__le32 max_params;
	__le32 max_headers;
	__le32 max_fields;
	__le32 max_metadata;
	__le32 max_registers;
	__le32 max_register_elems;
	__le32 max_queue_size;
	/* 1.1: the firmware's own version, P4NIC_FW_VERSION(); 0: unknown */
	__le32 fw_version;
	__le32 rsvd[11];
};

#define P4NIC_FW_VERSION(maj, min, patch) \
	((__u32)(maj) << 16 | (__u32)(min) << 8 | (__u32)(patch))

struct p4nic_port_info {
	__u8 mac[6];
	__le16 status;		/* P4NIC_PORT_LINK_UP | ENABLED */
	__le64 rx_packets;	/* from the wire */
	__le64 rx_bytes;
	__le64 tx_packets;	/* to the wire, from the host or the program */
	__le64 tx_bytes;
	__le64 to_host;		/* delivered to the host rings */
	__le64 dropped;		/* dropped by the program */
	__le64 no_buffer;	/* dropped: no RX buffer posted */
};

enum p4nic_query {
	P4NIC_QUERY_PIPELINE = 1,	/* out: struct p4nic_pipeline_info */
	P4NIC_QUERY_TABLE = 2,		/* p[1] table; out: p4nic_table_info */
};

struct p4nic_pipeline_info {
	__le32 loaded;		/* 0 or 1 */
	__le32 pipeid;
	__le32 num_tables;
	__le32 num_actions;
	__le32 num_entries;	/* over all tables */
	__le32 rsvd[3];
};

struct p4nic_table_info {
	__le32 table_id;
	__le32 type;
	__le32 max_entries;
	__le32 num_entries;
	__le32 num_masks;	/* distinct masks in use (ternary) */
	__le32 miss_mode;
	__le64 hits;		/* packets whose verdict hardware owned */
	__le64 misses;
};

struct p4nic_counter {
	__le64 packets;
	__le64 bytes;
};

struct p4nic_u128 {
	__le64 lo;
	__le64 hi;
};

#define P4NIC_MAX_KEY_BYTES	64	/* 512 bits */
#define P4NIC_MAX_PARAMS	8

/*
 * A table entry.  The key and mask are key_len bytes of network-order bit
 * string (the table's key_bits rounded up), zero beyond.  Exact tables
 * need an all-ones mask over key_bits, LPM tables a prefix mask, ternary
 * tables any mask.  action_id 0 means "no action of its own": a hit runs
 * the table's default hit action.  The driver chooses the handle (below
 * the table's max_entries); deletes and counters name entries by it.
 */
struct p4nic_entry {
	__le32 table_id;
	__le32 handle;
	__le32 prio;		/* lower wins (ternary); 0 otherwise */
	__le32 action_id;
	__le16 key_len;		/* bytes */
	__le16 num_params;	/* must equal the action's */
	__le32 rsvd[3];
	__u8 key[P4NIC_MAX_KEY_BYTES];
	__u8 mask[P4NIC_MAX_KEY_BYTES];
	struct p4nic_u128 params[P4NIC_MAX_PARAMS];
};

enum p4nic_default_which {
	P4NIC_DEFAULT_HIT = 0,
	P4NIC_DEFAULT_MISS = 1,
};

struct p4nic_default_action {
	__le32 table_id;
	__le32 which;		/* P4NIC_DEFAULT_* */
	__le32 action_id;	/* 0: none */
	__le32 num_params;
	struct p4nic_u128 params[P4NIC_MAX_PARAMS];
};

enum p4nic_miss_mode {
	P4NIC_MISS_DEFAULT = 0,	/* a miss runs the default miss action */
	P4NIC_MISS_TO_HOST = 1,	/* a miss sends the original to the host */
	/*
	 * ABI 1.1: every lookup sends the original to the host, hit or
	 * miss: the host has entries that may match better than the
	 * device's (the cooperative model's software-only entries)
	 */
	P4NIC_LOOKUP_TO_HOST = 2,
};

/* Event queue entries. */
struct p4nic_event {
	__le16 type;		/* P4NIC_EV_* */
	__le16 port;
	__le32 data;		/* LINK: P4NIC_PORT_* status bits */
	__le32 rsvd;
	__le16 rsvd2;
	__le16 flags;		/* P4NIC_CPL_PHASE */
};

enum p4nic_event_type {
	P4NIC_EV_LINK = 1,
	P4NIC_EV_FATAL = 2,	/* data: as P4NIC_REG_FATAL_QUEUE */
};

/* ------------------------------------------------------------------ */
/* Pipeline image                                                      */
/* ------------------------------------------------------------------ */

/*
 * An image is a header, a section directory and the sections, each an
 * array of fixed-size records.  Records refer to each other by index into
 * their section (never by pointer or byte offset), objects by the ids the
 * kernel gave them.  Every section kind appears at most once; PIPELINE is
 * required.  The directory states each section's record size: version 1.0
 * requires the sizes below exactly.
 */
#define P4NIC_IMAGE_MAGIC	0x4d493450	/* "P4IM" */
#define P4NIC_IMAGE_MAX_BYTES	(1u << 20)

struct p4nic_image_hdr {
	__le32 magic;
	__le16 version_major;
	__le16 version_minor;
	__le32 total_len;	/* bytes, header included */
	__le32 num_sections;	/* directory entries after this header */
};

struct p4nic_image_section {
	__le32 kind;		/* P4NIC_SECT_* */
	__le32 offset;		/* from the image start, 8-byte aligned */
	__le32 count;		/* records */
	__le32 rec_size;	/* bytes per record */
};

enum p4nic_section_kind {
	P4NIC_SECT_PIPELINE = 1,	/* one p4nic_img_pipeline */
	P4NIC_SECT_HEADERS = 2,		/* p4nic_img_header[] */
	P4NIC_SECT_TRANSITIONS = 3,	/* p4nic_img_transition[] */
	P4NIC_SECT_FIELDS = 4,		/* p4nic_img_field[] */
	P4NIC_SECT_METADATA = 5,	/* p4nic_img_metadata[] */
	P4NIC_SECT_ACTIONS = 6,		/* p4nic_img_action[] */
	P4NIC_SECT_PARAMS = 7,		/* p4nic_img_param[] */
	P4NIC_SECT_TABLES = 8,		/* p4nic_img_table[] */
	P4NIC_SECT_KEYCOMPS = 9,	/* __le32 operand index[] */
	P4NIC_SECT_TABLE_ACTS = 10,	/* __le32 action index[] */
	P4NIC_SECT_REGISTERS = 11,	/* p4nic_img_register[] */
	P4NIC_SECT_INSNS = 12,		/* p4nic_img_insn[] */
	P4NIC_SECT_OPERANDS = 13,	/* p4nic_img_operand[] */
	P4NIC_SECT_CONSTS = 14,		/* p4nic_u128[] */
	P4NIC_SECT_PORTS = 15,		/* p4nic_img_port[] */
	P4NIC_SECT_MAX = P4NIC_SECT_PORTS,
};

/* A run of records in another section: [first, first + count). */
struct p4nic_img_span {
	__le32 first;
	__le32 count;
};

#define P4NIC_NONE		0xffffffffu	/* "no index" */

struct p4nic_img_pipeline {
	__le32 pipeid;
	__le32 start_header;	/* header index, or NONE: no parser */
	struct p4nic_img_span prog;	/* INSNS: preactions, postactions */
	__le32 rsvd[4];
};

/*
 * A header of the parse graph.  Its length in bytes is fixed_len, or, when
 * len_field is a field index, field * len_mult + len_add, which must lie
 * in [fixed_len, max_len] (IPv4: IHL * 4 + 0 in [20, 60]).  Then the
 * transition: with sel_field NONE go to default_next; otherwise the first
 * transition whose (value, mask) matches the field's value, else
 * default_next.  Next is a header index, P4NIC_PARSE_ACCEPT or
 * P4NIC_PARSE_REJECT.  Headers may only move forward (next > this), so a
 * parse is bounded by the header count.
 */
#define P4NIC_PARSE_ACCEPT	0xfffffffeu
#define P4NIC_PARSE_REJECT	0xffffffffu

struct p4nic_img_header {
	__le32 id;
	__le16 fixed_len;
	__le16 max_len;
	__le32 len_field;
	__le16 len_mult;
	__le16 len_add;
	__le32 sel_field;
	struct p4nic_img_span trans;	/* TRANSITIONS */
	__le32 default_next;
};

struct p4nic_img_transition {
	struct p4nic_u128 value;
	struct p4nic_u128 mask;
	__le32 next;
	__le32 rsvd[3];
};

#define P4NIC_TYPE_SIGNED	(1u << 0)	/* intN: compare signed */

/* A field: bits [bit_offset, bit_offset + bit_width) of its header. */
struct p4nic_img_field {
	__le32 id;
	__le32 header;		/* header index */
	__le16 bit_offset;
	__le16 bit_width;	/* 1..128 */
	__le32 flags;		/* P4NIC_TYPE_* */
};

struct p4nic_img_metadata {
	__le32 id;
	__le16 bit_width;	/* 1..128 */
	__le16 flags;		/* P4NIC_TYPE_* */
};

struct p4nic_img_action {
	__le32 id;		/* nonzero */
	struct p4nic_img_span params;	/* PARAMS */
	struct p4nic_img_span prog;	/* INSNS */
};

struct p4nic_img_param {
	__le16 bit_width;	/* 1..128 */
	__le16 flags;
};

enum p4nic_table_type {
	P4NIC_TABLE_EXACT = 1,
	P4NIC_TABLE_LPM = 2,
	P4NIC_TABLE_TERNARY = 3,
};

/* An action reference with constant arguments (a default action). */
struct p4nic_img_actref {
	__le32 action;		/* action index, or NONE */
	struct p4nic_img_span args;	/* OPERANDS, all constants */
};

struct p4nic_img_table {
	__le32 id;
	__le32 type;		/* P4NIC_TABLE_* */
	__le32 key_bits;	/* 1..512, the sum of the key components */
	__le32 max_entries;
	__le32 max_masks;	/* ternary */
	__le32 miss_mode;	/* initial P4NIC_MISS_* */
	struct p4nic_img_span key;	/* KEYCOMPS, in key order */
	struct p4nic_img_span acts;	/* TABLE_ACTS: allowed entry actions */
	struct p4nic_img_span pre;	/* INSNS */
	struct p4nic_img_span post;	/* INSNS */
	struct p4nic_img_actref default_hit;
	struct p4nic_img_actref default_miss;
};

struct p4nic_img_register {
	__le32 id;
	__le16 bit_width;	/* 1..128 */
	__le16 flags;
	__le32 num_elems;	/* 1..max_register_elems */
};

/*
 * Maps a NIC port to the ifindex the kernel knows it by.  Ports are named
 * in programs as the kernel names devices, by ifindex (send_port_egress,
 * mirror_port_egress, metadata.kernel.iif); an ifindex that is not in this
 * map is a device the NIC cannot reach, and such a packet goes to the host.
 */
struct p4nic_img_port {
	__le32 port;
	__le32 ifindex;
};

/*
 * Commands: P4TC's command set, numbered as in the P4TC UAPI.  Operands
 * are a span of the OPERANDS section; branch targets are P4NIC_CTL_*
 * with an argument (jump: forward distance in instructions, >= 1;
 * verdict: a TC_ACT_* value).
 */
enum p4nic_op {
	P4NIC_OP_SET = 1,	/* dst src */
	P4NIC_OP_ACT,		/* ACTION arg... */
	P4NIC_OP_BEQ,		/* a b */
	P4NIC_OP_BNE,
	P4NIC_OP_BLT,
	P4NIC_OP_BLE,
	P4NIC_OP_BGT,
	P4NIC_OP_BGE,
	P4NIC_OP_PLUS,		/* dst a b */
	P4NIC_OP_PRINT,		/* any (no effect in hardware) */
	P4NIC_OP_TABLEAPPLY,	/* TABLE */
	P4NIC_OP_SEND_PORT_EGRESS,	/* ifindex */
	P4NIC_OP_MIRROR_PORT_EGRESS,	/* ifindex */
	P4NIC_OP_SUB,		/* dst a b */
	P4NIC_OP_CONCAT,	/* dst src... (2..8 sources) */
	P4NIC_OP_BAND,		/* dst a b */
	P4NIC_OP_BOR,
	P4NIC_OP_BXOR,
	P4NIC_OP_LABEL,		/* no effect */
	P4NIC_OP_JUMP,		/* then_ctl */
	P4NIC_OP_RET,		/* end the action: pipe, or a VERDICT */
	P4NIC_OP_SETVALID,	/* HEADER: insert it if absent */
	P4NIC_OP_SETINVALID,	/* HEADER: remove it if present */
	P4NIC_OP_MAX = P4NIC_OP_SETINVALID,
};

#define P4NIC_MAX_OPERANDS	9

enum p4nic_ctl {
	P4NIC_CTL_PIPE = 0,	/* go on with the next instruction */
	P4NIC_CTL_JUMP = 1,	/* arg: forward distance */
	P4NIC_CTL_VERDICT = 2,	/* arg: TC_ACT_*; ends the action */
};

struct p4nic_img_insn {
	__u8 op;		/* P4NIC_OP_* */
	__u8 then_ctl;		/* branches, JUMP */
	__u8 else_ctl;		/* branches */
	__u8 rsvd;
	__le16 then_arg;
	__le16 else_arg;
	struct p4nic_img_span operands;
};

enum p4nic_operand_kind {
	P4NIC_OPND_CONST = 1,	/* index: CONSTS record */
	P4NIC_OPND_METADATA,	/* index: METADATA record */
	P4NIC_OPND_KMETA,	/* index: P4NIC_KMETA_* */
	P4NIC_OPND_FIELD,	/* index: FIELDS record */
	P4NIC_OPND_KEY,		/* index: TABLES record (its key blob) */
	P4NIC_OPND_PARAM,	/* index: parameter of the running action */
	P4NIC_OPND_REGISTER,	/* index: REGISTERS record; elem: cell */
	P4NIC_OPND_RESULT,	/* index: P4NIC_RESULT_* */
	P4NIC_OPND_TABLE,	/* index: TABLES record */
	P4NIC_OPND_ACTION,	/* index: ACTIONS record */
	P4NIC_OPND_HEADER,	/* index: HEADERS record, not the start */
	P4NIC_OPND_MAX = P4NIC_OPND_HEADER,
};

/* Kernel (skb) metadata the device can produce. */
enum p4nic_kmeta {
	P4NIC_KMETA_PKTLEN = 1,		/* bytes of the frame */
	P4NIC_KMETA_DATALEN = 2,	/* 0: no paged data in hardware */
	P4NIC_KMETA_SKBMARK = 3,	/* starts at 0 */
	P4NIC_KMETA_TCINDEX = 4,	/* starts at 0 */
	P4NIC_KMETA_SKBPRIO = 5,	/* starts at 0 */
	P4NIC_KMETA_IFINDEX = 6,	/* the in port's ifindex */
	P4NIC_KMETA_IIF = 7,		/* the in port's ifindex */
	P4NIC_KMETA_SKBPROTO = 8,	/* the EtherType, as skb->protocol */
	P4NIC_KMETA_DIRECTION = 9,	/* 0: ingress */
	P4NIC_KMETA_MAX = P4NIC_KMETA_DIRECTION,
};

enum p4nic_result {
	P4NIC_RESULT_HIT = 1,
	P4NIC_RESULT_MISS = 2,
};

/*
 * An operand: bits [bit_start, bit_end] (inclusive, bit 0 the least
 * significant) of a container of container_bits; signed when flags says
 * so.  elem is the register cell for REGISTER operands.
 */
struct p4nic_img_operand {
	__u8 kind;		/* P4NIC_OPND_* */
	__u8 flags;		/* P4NIC_TYPE_* */
	__le16 container_bits;	/* 1..128; 1..512 for KEY */
	__le16 bit_start;
	__le16 bit_end;
	__le32 index;
	__le32 elem;
};

/* ------------------------------------------------------------------ */
/* Size checks: a mismatch here is an ABI break.                       */
/* ------------------------------------------------------------------ */

#define P4NIC_ABI_SIZE(type, size) \
	_Static_assert(sizeof(struct type) == (size), #type " size")

P4NIC_ABI_SIZE(p4nic_tx_desc, 16);
P4NIC_ABI_SIZE(p4nic_rx_desc, 24);
P4NIC_ABI_SIZE(p4nic_cmd, 64);
P4NIC_ABI_SIZE(p4nic_cpl, 16);
P4NIC_ABI_SIZE(p4nic_identity, 128);
P4NIC_ABI_SIZE(p4nic_port_info, 64);
P4NIC_ABI_SIZE(p4nic_pipeline_info, 32);
P4NIC_ABI_SIZE(p4nic_table_info, 40);
P4NIC_ABI_SIZE(p4nic_counter, 16);
P4NIC_ABI_SIZE(p4nic_u128, 16);
P4NIC_ABI_SIZE(p4nic_entry, 288);
P4NIC_ABI_SIZE(p4nic_default_action, 144);
P4NIC_ABI_SIZE(p4nic_event, 16);
P4NIC_ABI_SIZE(p4nic_image_hdr, 16);
P4NIC_ABI_SIZE(p4nic_image_section, 16);
P4NIC_ABI_SIZE(p4nic_img_span, 8);
P4NIC_ABI_SIZE(p4nic_img_pipeline, 32);
P4NIC_ABI_SIZE(p4nic_img_header, 32);
P4NIC_ABI_SIZE(p4nic_img_transition, 48);
P4NIC_ABI_SIZE(p4nic_img_field, 16);
P4NIC_ABI_SIZE(p4nic_img_metadata, 8);
P4NIC_ABI_SIZE(p4nic_img_action, 20);
P4NIC_ABI_SIZE(p4nic_img_param, 4);
P4NIC_ABI_SIZE(p4nic_img_actref, 12);
P4NIC_ABI_SIZE(p4nic_img_table, 80);
P4NIC_ABI_SIZE(p4nic_img_register, 12);
P4NIC_ABI_SIZE(p4nic_img_port, 8);
P4NIC_ABI_SIZE(p4nic_img_insn, 16);
P4NIC_ABI_SIZE(p4nic_img_operand, 16);

#endif /* P4NIC_ABI_H */
