/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small assembler for pipeline images, for the tests, the fuzz corpus
 * and the benchmark: what the kernel's image builder does from templates,
 * done here by hand.  Objects are created in order and named by the index
 * each call returns; ib_finish() lays the sections out.  It checks
 * nothing: tests use it to build bad images too.
 */
#ifndef P4FW_IMGBUILD_H
#define P4FW_IMGBUILD_H

#include <stdint.h>

#include "p4nic_abi.h"

typedef unsigned __int128 ib_u128;

struct ib;

struct ib_span {
	uint32_t first;
	uint32_t count;
};

struct ib *ib_new(uint32_t pipeid);
void ib_free(struct ib *b);

uint32_t ib_header(struct ib *b, uint32_t id, uint16_t fixed_len);
/* Length from a field: field * mult + add, in [fixed_len, max_len]. */
void ib_header_len(struct ib *b, uint32_t hdr, uint32_t field, uint16_t mult,
		   uint16_t add, uint16_t max_len);
void ib_select(struct ib *b, uint32_t hdr, uint32_t field,
	       uint32_t default_next);
void ib_transition(struct ib *b, uint32_t hdr, ib_u128 value, ib_u128 mask,
		   uint32_t next);
uint32_t ib_field(struct ib *b, uint32_t id, uint32_t hdr, uint16_t offset,
		  uint16_t width);
uint32_t ib_metadata(struct ib *b, uint32_t id, uint16_t width, uint16_t flags);
uint32_t ib_register(struct ib *b, uint32_t id, uint16_t width,
		     uint32_t elems);
void ib_port(struct ib *b, uint32_t port, uint32_t ifindex);

/* Operands; each returns an operand index. */
uint32_t ib_opnd(struct ib *b, uint8_t kind, uint8_t flags, uint16_t cbits,
		 uint16_t start, uint16_t end, uint32_t index, uint32_t elem);
uint32_t ib_const(struct ib *b, uint16_t bits, ib_u128 v);
uint32_t ib_sconst(struct ib *b, uint16_t bits, ib_u128 v);	/* signed */
uint32_t ib_fieldop(struct ib *b, uint32_t field);	/* whole field */
uint32_t ib_metaop(struct ib *b, uint32_t meta);
uint32_t ib_paramop(struct ib *b, uint32_t idx, uint16_t bits);
uint32_t ib_regop(struct ib *b, uint32_t reg, uint32_t elem);
uint32_t ib_kmetaop(struct ib *b, uint32_t kmeta);
uint32_t ib_tableop(struct ib *b, uint32_t table);
uint32_t ib_actionop(struct ib *b, uint32_t action);
uint32_t ib_resultop(struct ib *b, uint32_t which);
uint32_t ib_headerop(struct ib *b, uint32_t hdr);	/* setvalid, setinvalid */
/* The same operand, sliced to bits [start, end]. */
uint32_t ib_slice(struct ib *b, uint32_t opnd, uint16_t start, uint16_t end);

/* The operand count and list ib_insn() takes: OPS(a, b, c) */
#define OPS(...) (sizeof((uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t)), \
		 (uint32_t[]){ __VA_ARGS__ }

/* Programs: begin, add instructions, end. */
void ib_prog_begin(struct ib *b);
void ib_insn(struct ib *b, uint8_t op, uint32_t n, const uint32_t *opnds);
void ib_branch(struct ib *b, uint8_t op, uint32_t a, uint32_t c,
	       uint8_t then_ctl, uint16_t then_arg, uint8_t else_ctl,
	       uint16_t else_arg);
void ib_ctl(struct ib *b, uint8_t op, uint8_t then_ctl, uint16_t then_arg);
struct ib_span ib_prog_end(struct ib *b);

uint32_t ib_action(struct ib *b, uint32_t id, uint32_t nparams,
		   const uint16_t *widths, struct ib_span prog);

struct ib_actref {
	uint32_t action;	/* P4NIC_NONE: none */
	uint32_t nargs;
	ib_u128 args[P4NIC_MAX_PARAMS];
};

struct ib_table {
	uint32_t id;
	uint32_t type;
	uint32_t key_bits;
	uint32_t max_entries;
	uint32_t max_masks;
	uint32_t miss_mode;
	uint32_t nkeys;
	uint32_t keys[16];	/* operand indices */
	uint32_t nacts;
	uint32_t acts[16];	/* action indices */
	struct ib_span pre, post;
	struct ib_actref hit, miss;
};

uint32_t ib_table(struct ib *b, const struct ib_table *t);
void ib_pipeline(struct ib *b, uint32_t start_header, struct ib_span prog);

/* The image; the caller frees it. */
uint8_t *ib_finish(struct ib *b, uint32_t *len);

/* An entry as ENTRY_ADD takes it. */
void ib_entry(struct p4nic_entry *e, uint32_t table, uint32_t handle,
	      uint32_t prio, uint32_t action_id, uint32_t key_bytes,
	      const uint8_t *key, const uint8_t *mask, uint32_t nparams,
	      const ib_u128 *params);

#endif /* P4FW_IMGBUILD_H */
