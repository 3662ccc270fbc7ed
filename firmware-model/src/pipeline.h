/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A loaded pipeline: the image's records after validation, in host byte
 * order, with every cross reference checked, plus the run-time state the
 * image implies (tables, entries, registers).  Built by image.c, run by
 * exec.c, changed by cmd.c.  Nothing here trusts the guest any more: the
 * loader has checked every index and width, so the interpreter does not.
 */
#ifndef P4FW_PIPELINE_H
#define P4FW_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "p4nic_abi.h"
#include "p4fw/exact.h"
#include "p4fw/lpm.h"
#include "p4fw/ternary.h"

typedef unsigned __int128 u128;

/* Limits the firmware reports in IDENTIFY and the loader enforces. */
#define FW_MAX_TABLES		32
#define FW_MAX_ENTRIES_TABLE	(1u << 20)
#define FW_MAX_ENTRIES_TOTAL	(1u << 20)
#define FW_MAX_ACTIONS		128
#define FW_MAX_INSNS		32	/* per program, P4TC's limit */
#define FW_MAX_HEADERS		32
#define FW_MAX_FIELDS		256
#define FW_MAX_METADATA		128
#define FW_MAX_REGISTERS	32
#define FW_MAX_REG_ELEMS	128
#define FW_MAX_TRANSITIONS	1024
#define FW_MAX_OPERANDS		4096
#define FW_MAX_CONSTS		4096
#define FW_MAX_DEPTH		8	/* nested act / tableapply */
#define FW_MAX_STEPS		4096	/* instructions per packet */
#define FW_MAX_MIRRORS		4
#define FW_MAX_HITS		32	/* table hits per packet */
#define FW_MAX_UNDO		64	/* register writes per packet */

struct fw_span {
	uint32_t first;
	uint32_t count;
};

struct fw_operand {
	uint8_t kind;
	uint8_t flags;
	uint16_t container_bits;
	uint16_t bit_start;
	uint16_t bit_end;
	uint32_t index;
	uint32_t elem;
	/* FIELD: copied from the field, so a read is one lookup less */
	uint16_t header;
	uint16_t hdr_bit;
	bool whole;		/* the slice is the whole container */
};

struct fw_insn {
	uint8_t op;
	uint8_t then_ctl;
	uint8_t else_ctl;
	uint16_t then_arg;
	uint16_t else_arg;
	struct fw_span opnds;
};

struct fw_header {
	uint32_t id;
	uint16_t fixed_len;
	uint16_t max_len;
	uint32_t len_field;
	uint16_t len_mult;
	uint16_t len_add;
	uint32_t sel_field;
	struct fw_span trans;
	uint32_t default_next;
};

struct fw_transition {
	u128 value;
	u128 mask;
	uint32_t next;
};

struct fw_field {
	uint32_t id;
	uint32_t header;
	uint16_t bit_offset;
	uint16_t bit_width;
	uint32_t flags;
};

struct fw_metadata {
	uint32_t id;
	uint16_t bit_width;
	uint16_t flags;
};

struct fw_action {
	uint32_t id;
	struct fw_span params;	/* into pipeline.params */
	struct fw_span prog;
};

struct fw_actref {
	uint32_t action;	/* index, or P4NIC_NONE */
	uint32_t nargs;
	u128 args[P4NIC_MAX_PARAMS];
};

/*
 * An entry, in an array indexed by handle, so that a hit costs one memory
 * access; its key and mask, which only updates need, live apart.
 */
struct fw_entry {
	uint32_t used;
	uint32_t prio;
	uint32_t action;	/* index, or P4NIC_NONE */
	uint32_t nparams;
	uint64_t packets;
	uint64_t bytes;
	u128 params[P4NIC_MAX_PARAMS];
};

struct fw_table {
	uint32_t id;
	uint32_t type;
	uint32_t key_bits;
	uint32_t key_bytes;
	uint32_t max_entries;
	uint32_t max_masks;
	uint32_t miss_mode;
	struct fw_span key;	/* into pipeline.keycomps */
	struct fw_span acts;	/* into pipeline.table_acts */
	struct fw_span pre;
	struct fw_span post;
	struct fw_actref dflt[2];	/* P4NIC_DEFAULT_HIT, _MISS */
	union {
		struct p4fw_exact *exact;
		struct p4fw_lpm *lpm;
		struct p4fw_ternary *ternary;
	};
	struct fw_entry *entries;	/* by handle, max_entries */
	uint8_t *keys;			/* by handle: key, then mask */
	uint32_t num_entries;
	uint64_t hits;
	uint64_t misses;
};

struct fw_register {
	uint32_t id;
	uint16_t bit_width;
	uint16_t flags;
	uint32_t num_elems;
	u128 *cells;
};

struct fw_port_map {
	uint32_t ifindex;	/* 0: not given */
};

struct fw_pipeline {
	uint32_t pipeid;
	uint32_t start_header;
	struct fw_span prog;

	struct fw_header *headers;
	uint32_t num_headers;
	struct fw_transition *trans;
	uint32_t num_trans;
	struct fw_field *fields;
	uint32_t num_fields;
	struct fw_metadata *meta;
	uint32_t num_meta;
	struct fw_action *actions;
	uint32_t num_actions;
	struct fw_metadata *params;	/* bit_width and flags only */
	uint32_t num_params;
	struct fw_table *tables;
	uint32_t num_tables;
	uint32_t *keycomps;		/* operand indices */
	uint32_t num_keycomps;
	uint32_t *table_acts;		/* action indices */
	uint32_t num_table_acts;
	struct fw_register *regs;
	uint32_t num_regs;
	struct fw_insn *insns;
	uint32_t num_insns;
	struct fw_operand *opnds;
	uint32_t num_opnds;
	u128 *consts;
	uint32_t num_consts;
	struct fw_port_map ports[P4NIC_MAX_PORTS];

	uint32_t num_entries;		/* over all tables */
};

/* Bits an operand's slice holds. */
static inline uint32_t opnd_width(const struct fw_operand *o)
{
	return (uint32_t)o->bit_end - o->bit_start + 1;
}

/* Load result: status and the field and byte offset it is about. */
struct fw_error {
	uint16_t status;
	uint16_t field;
	uint32_t offset;
};

int fw_pipeline_load(const uint8_t *img, uint32_t len, uint32_t num_ports,
		     uint64_t seed, struct fw_pipeline **out,
		     struct fw_error *err);
void fw_pipeline_free(struct fw_pipeline *p);

/* Little-endian reads from untrusted byte buffers. */
/*
 * Where a field lies in guest memory (commands, images): its offset in the
 * ABI's struct (offload-api/p4nic_abi.h, whose sizes are asserted there),
 * read and written as little-endian bytes by the helpers below.
 */
#define AT(type, member) offsetof(struct type, member)
/* Offset of element I of array MEMBER of struct TYPE */
#define AT_I(type, member, i) \
	(AT(type, member) + (i) * sizeof(((struct type *)0)->member[0]))

static inline uint16_t fw_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t fw_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t fw_le64(const uint8_t *p)
{
	return (uint64_t)fw_le32(p) | (uint64_t)fw_le32(p + 4) << 32;
}

static inline u128 fw_le128(const uint8_t *p)
{
	return (u128)fw_le64(p) | (u128)fw_le64(p + 8) << 64;
}

static inline void fw_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void fw_put32(uint8_t *p, uint32_t v)
{
	fw_put16(p, (uint16_t)v);
	fw_put16(p + 2, (uint16_t)(v >> 16));
}

static inline void fw_put64(uint8_t *p, uint64_t v)
{
	fw_put32(p, (uint32_t)v);
	fw_put32(p + 4, (uint32_t)(v >> 32));
}

static inline void fw_put128(uint8_t *p, u128 v)
{
	fw_put64(p, (uint64_t)v);
	fw_put64(p + 8, (uint64_t)(v >> 64));
}

/* All ones in the low BITS bits (1..128). */
static inline u128 fw_mask(unsigned int bits)
{
	return bits >= 128 ? ~(u128)0 : ((u128)1 << bits) - 1;
}

#endif /* P4FW_PIPELINE_H */
