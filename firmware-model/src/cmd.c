// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The admin command processor: decodes struct p4nic_cmd from raw bytes,
 * checks every field before it changes anything, acts on the firmware and
 * encodes the completion.  A refused command names the field it refused
 * (struct p4nic_cpl.field) and leaves the firmware exactly as it was.
 *
 * Guest memory is read and written as little-endian bytes (fw_le32(),
 * fw_put32()), never through a cast: the buffers need no alignment and
 * the host may be big-endian.  Where each field lies comes from the ABI's
 * structs (AT(): offsetof in offload-api/p4nic_abi.h), whose sizes the
 * header asserts, so that the layout has one source of truth.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "fw.h"
#include "hash.h"

/* Bytes of a 128-bit value: action parameters, register cells */
#define U128 sizeof(struct p4nic_u128)

struct cmd {
	uint16_t opcode;
	uint16_t flags;
	uint32_t cookie;
	uint64_t in_addr;
	uint32_t in_len;
	uint32_t out_len;
	uint64_t out_addr;
	uint32_t p[8];
};

struct res {
	uint16_t status;
	uint16_t field;
	uint32_t result;	/* bytes written, or where the fault is */
};

static void fail(struct res *r, uint16_t status, uint16_t field,
		 uint32_t where)
{
	r->status = status;
	r->field = field;
	r->result = where;
}

/* Parameters an opcode does not use must be zero. */
static bool params_unused(const struct cmd *c, unsigned int from,
			  struct res *r)
{
	unsigned int i;

	for (i = from; i < 8; i++) {
		if (c->p[i]) {
			fail(r, P4NIC_ST_INVALID, P4NIC_F_PARAM, i);
			return false;
		}
	}
	return true;
}

static bool no_input(const struct cmd *c, struct res *r)
{
	if (c->in_len) {
		fail(r, P4NIC_ST_INVALID, P4NIC_F_IN_LEN, 0);
		return false;
	}
	return true;
}

/* Read exactly LEN input bytes (the command must say LEN). */
static bool read_in(const struct cmd *c, const struct p4fw_dma *dma,
		    void *buf, uint32_t len, struct res *r)
{
	if (c->in_len != len) {
		fail(r, P4NIC_ST_INVALID, P4NIC_F_IN_LEN, 0);
		return false;
	}
	if (dma->read(dma->opaque, c->in_addr, buf, len)) {
		fail(r, P4NIC_ST_DMA, P4NIC_F_IN_ADDR, 0);
		return false;
	}
	return true;
}

static bool write_out(const struct cmd *c, const struct p4fw_dma *dma,
		      uint32_t at, const void *buf, uint32_t len,
		      struct res *r)
{
	if ((uint64_t)at + len > c->out_len) {
		fail(r, P4NIC_ST_INVALID, P4NIC_F_OUT_LEN, 0);
		return false;
	}
	if (dma->write(dma->opaque, c->out_addr + at, buf, len)) {
		fail(r, P4NIC_ST_DMA, P4NIC_F_OUT_ADDR, 0);
		return false;
	}
	r->result = at + len;
	return true;
}

static bool need_out(const struct cmd *c, uint64_t len, struct res *r)
{
	if (c->out_len < len) {
		fail(r, P4NIC_ST_INVALID, P4NIC_F_OUT_LEN, 0);
		return false;
	}
	return true;
}

static bool need_pipe(struct p4fw *fw, struct res *r)
{
	if (!fw->pipe) {
		fail(r, P4NIC_ST_NO_PIPELINE, P4NIC_F_NONE, 0);
		return false;
	}
	return true;
}

static struct fw_table *find_table(struct p4fw *fw, uint32_t id)
{
	uint32_t i;

	for (i = 0; i < fw->pipe->num_tables; i++)
		if (fw->pipe->tables[i].id == id)
			return &fw->pipe->tables[i];
	return NULL;
}

static uint32_t find_action(const struct fw_pipeline *p, uint32_t id)
{
	uint32_t i;

	for (i = 0; i < p->num_actions; i++)
		if (p->actions[i].id == id)
			return i;
	return P4NIC_NONE;
}

typedef void handler_fn(struct p4fw *fw, const struct cmd *c,
			const struct p4fw_dma *dma, struct res *r);

/* By opcode; IDENTIFY reports the opcodes that have one. */
static handler_fn *const handlers[P4NIC_CMD_MAX + 1];

static void cmd_identify(struct p4fw *fw, const struct cmd *c,
			 const struct p4fw_dma *dma, struct res *r)
{
	uint8_t b[sizeof(struct p4nic_identity)] = { 0 };
	uint32_t cmds = 0, op;
	static const struct {
		size_t at;
		uint32_t value;
	} limits[] = {
		{ AT(p4nic_identity, max_image_bytes), P4NIC_IMAGE_MAX_BYTES },
		{ AT(p4nic_identity, max_tables), FW_MAX_TABLES },
		{ AT(p4nic_identity, max_entries_per_table),
		  FW_MAX_ENTRIES_TABLE },
		{ AT(p4nic_identity, max_entries_total), FW_MAX_ENTRIES_TOTAL },
		{ AT(p4nic_identity, max_key_bits), P4NIC_MAX_KEY_BYTES * 8 },
		{ AT(p4nic_identity, max_masks), P4FW_TERNARY_MAX_MASKS },
		{ AT(p4nic_identity, max_actions), FW_MAX_ACTIONS },
		{ AT(p4nic_identity, max_insns_per_action), FW_MAX_INSNS },
		{ AT(p4nic_identity, max_operands_per_insn),
		  P4NIC_MAX_OPERANDS },
		{ AT(p4nic_identity, max_params), P4NIC_MAX_PARAMS },
		{ AT(p4nic_identity, max_headers), FW_MAX_HEADERS },
		{ AT(p4nic_identity, max_fields), FW_MAX_FIELDS },
		{ AT(p4nic_identity, max_metadata), FW_MAX_METADATA },
		{ AT(p4nic_identity, max_registers), FW_MAX_REGISTERS },
		{ AT(p4nic_identity, max_register_elems), FW_MAX_REG_ELEMS },
		{ AT(p4nic_identity, max_queue_size), P4NIC_QUEUE_MAX_SIZE },
	};
	unsigned int i;

	if (!no_input(c, r) || !params_unused(c, 0, r))
		return;
	for (op = 1; op <= P4NIC_CMD_MAX; op++)
		if (handlers[op])
			cmds |= P4NIC_CMD_BIT(op);
	fw_put16(b + AT(p4nic_identity, abi_major), P4NIC_ABI_MAJOR);
	fw_put16(b + AT(p4nic_identity, abi_minor), P4NIC_ABI_MINOR);
	fw_put32(b + AT(p4nic_identity, num_ports), fw->num_ports);
	fw_put32(b + AT(p4nic_identity, commands), cmds);
	fw_put32(b + AT(p4nic_identity, table_types),
		 1u << P4NIC_TABLE_EXACT | 1u << P4NIC_TABLE_LPM |
		 1u << P4NIC_TABLE_TERNARY);
	for (i = 0; i < sizeof(limits) / sizeof(limits[0]); i++)
		fw_put32(b + limits[i].at, limits[i].value);
	fw_put32(b + AT(p4nic_identity, fw_version), P4FW_VERSION);
	write_out(c, dma, 0, b, sizeof(b), r);
}

static void cmd_port_set(struct p4fw *fw, const struct cmd *c,
			 const struct p4fw_dma *dma, struct res *r)
{
	(void)dma;	/* no buffers */
	if (!no_input(c, r) || !params_unused(c, 2, r))
		return;
	if (c->p[0] >= fw->num_ports)
		return fail(r, P4NIC_ST_INVALID, P4NIC_F_PORT, 0);
	if (c->p[1] & ~(P4NIC_PORT_ENABLED | P4NIC_PORT_PIPELINE))
		return fail(r, P4NIC_ST_INVALID, P4NIC_F_PARAM, 1);
	fw->ports[c->p[0]].enabled = c->p[1] & P4NIC_PORT_ENABLED;
	fw->ports[c->p[0]].pipeline = c->p[1] & P4NIC_PORT_PIPELINE;
}

static void cmd_port_query(struct p4fw *fw, const struct cmd *c,
			   const struct p4fw_dma *dma, struct res *r)
{
	uint8_t b[sizeof(struct p4nic_port_info)] = { 0 };
	const struct fw_port *pt;

	if (!no_input(c, r) || !params_unused(c, 1, r))
		return;
	if (c->p[0] >= fw->num_ports)
		return fail(r, P4NIC_ST_INVALID, P4NIC_F_PORT, 0);
	pt = &fw->ports[c->p[0]];
	memcpy(b + AT(p4nic_port_info, mac), pt->mac, sizeof(pt->mac));
	fw_put16(b + AT(p4nic_port_info, status),
		 (pt->link ? P4NIC_PORT_LINK_UP : 0) |
		 (pt->enabled ? P4NIC_PORT_ENABLED : 0) |
		 (pt->pipeline ? P4NIC_PORT_PIPELINE : 0));
	fw_put64(b + AT(p4nic_port_info, rx_packets), pt->rx_packets);
	fw_put64(b + AT(p4nic_port_info, rx_bytes), pt->rx_bytes);
	fw_put64(b + AT(p4nic_port_info, tx_packets), pt->tx_packets);
	fw_put64(b + AT(p4nic_port_info, tx_bytes), pt->tx_bytes);
	fw_put64(b + AT(p4nic_port_info, to_host), pt->to_host);
	fw_put64(b + AT(p4nic_port_info, dropped), pt->dropped);
	fw_put64(b + AT(p4nic_port_info, no_buffer), pt->no_buffer);
	write_out(c, dma, 0, b, sizeof(b), r);
}

/*
 * Host memory the pipeline's tables hold: their arrays, as allocated (big
 * ones are mapped: a table pays for the pages it touches, but a guest
 * decides which), and what their structures grew to.
 */
static uint64_t mem_used(const struct fw_pipeline *p)
{
	uint64_t n = 0;
	uint32_t i;

	for (i = 0; p && i < p->num_tables; i++) {
		const struct fw_table *t = &p->tables[i];

		n += (uint64_t)t->max_entries *
		     (sizeof(*t->entries) + 2 * t->key_bytes);
		if (t->type == P4NIC_TABLE_EXACT)
			n += p4fw_exact_footprint(t->exact);
		else if (t->type == P4NIC_TABLE_LPM)
			n += p4fw_lpm_footprint(t->lpm);
		else
			n += p4fw_ternary_footprint(t->ternary);
	}
	return n;
}

static void cmd_load(struct p4fw *fw, const struct cmd *c,
		     const struct p4fw_dma *dma, struct res *r)
{
	struct fw_error err;
	uint8_t *img;

	if (!params_unused(c, 0, r))
		return;
	if (fw->pipe)
		return fail(r, P4NIC_ST_BUSY, P4NIC_F_NONE, 0);
	if (c->in_len > P4NIC_IMAGE_MAX_BYTES)
		return fail(r, P4NIC_ST_LIMIT, P4NIC_F_IN_LEN, 0);
	if (c->in_len < sizeof(struct p4nic_image_hdr))
		return fail(r, P4NIC_ST_INVALID, P4NIC_F_IN_LEN, 0);
	img = malloc(c->in_len);
	if (!img)
		return fail(r, P4NIC_ST_NO_MEMORY, P4NIC_F_NONE, 0);
	if (read_in(c, dma, img, c->in_len, r) &&
	    fw_pipeline_load(img, c->in_len, fw->num_ports,
			     p4fw_hash64(fw->secret, ++fw->loads), &fw->pipe,
			     &err))
		fail(r, err.status, err.field, err.offset);
	free(img);
	/* its tables' arrays are mapped, not touched yet: refuse in time */
	if (fw->pipe && fw->mem_limit && mem_used(fw->pipe) > fw->mem_limit) {
		fw_pipeline_free(fw->pipe);
		fw->pipe = NULL;
		fail(r, P4NIC_ST_NO_MEMORY, P4NIC_F_NONE, 0);
	}
}

static void cmd_unload(struct p4fw *fw, const struct cmd *c,
		       const struct p4fw_dma *dma, struct res *r)
{
	uint32_t i;

	(void)dma;	/* no buffers */
	if (!no_input(c, r) || !params_unused(c, 1, r) || !need_pipe(fw, r))
		return;
	if (c->p[0] != fw->pipe->pipeid)
		return fail(r, P4NIC_ST_INVALID, P4NIC_F_PIPEID, 0);
	fw_pipeline_free(fw->pipe);
	fw->pipe = NULL;
	/* the next pipeline runs on the ports its driver names anew */
	for (i = 0; i < fw->num_ports; i++)
		fw->ports[i].pipeline = false;
}

/* Fields of struct p4nic_entry: where to read them, what errors name. */
#define E_TABLE AT(p4nic_entry, table_id)
#define E_HANDLE AT(p4nic_entry, handle)
#define E_PRIO AT(p4nic_entry, prio)
#define E_ACTION AT(p4nic_entry, action_id)
#define E_KEY_LEN AT(p4nic_entry, key_len)
#define E_NPARAMS AT(p4nic_entry, num_params)
#define E_RSVD AT(p4nic_entry, rsvd)
#define E_KEY AT(p4nic_entry, key)
#define E_MASK AT(p4nic_entry, mask)
#define E_PARAMS AT(p4nic_entry, params)

/*
 * Check an action and its parameters (NPARAMS values of 16 bytes at B)
 * against the pipeline; *ACTION gets its index (P4NIC_NONE for id 0).
 */
static bool check_action(const struct fw_pipeline *p, uint32_t id,
			 uint32_t nparams, const uint8_t *b, uint32_t at,
			 uint32_t *action, u128 *params, struct res *r)
{
	const struct fw_action *a;
	uint32_t i;

	if (id == 0) {
		*action = P4NIC_NONE;
		if (nparams) {
			fail(r, P4NIC_ST_INVALID, P4NIC_F_ACTION_PARAM, at);
			return false;
		}
		return true;
	}
	*action = find_action(p, id);
	if (*action == P4NIC_NONE) {
		fail(r, P4NIC_ST_NOT_FOUND, P4NIC_F_ACTION_ID, at);
		return false;
	}
	a = &p->actions[*action];
	if (nparams != a->params.count) {
		fail(r, P4NIC_ST_INVALID, P4NIC_F_ACTION_PARAM, at);
		return false;
	}
	for (i = 0; i < nparams; i++) {
		params[i] = fw_le128(b + i * U128);
		if (params[i] &
		    ~fw_mask(p->params[a->params.first + i].bit_width)) {
			fail(r, P4NIC_ST_INVALID, P4NIC_F_ACTION_PARAM,
			     at + i * U128);
			return false;
		}
	}
	return true;
}

static bool table_allows(const struct fw_pipeline *p,
			 const struct fw_table *t, uint32_t action)
{
	uint32_t i;

	if (action == P4NIC_NONE || !t->acts.count)
		return true;
	for (i = 0; i < t->acts.count; i++)
		if (p->table_acts[t->acts.first + i] == action)
			return true;
	return false;
}

/* Prefix length of MASK over BITS, or -1 if it is not a prefix. */
static int prefix_len(const uint8_t *mask, uint32_t bits)
{
	uint32_t i, len = 0;

	while (len < bits && mask[len / 8] & (0x80 >> len % 8))
		len++;
	for (i = len; i < bits; i++)
		if (mask[i / 8] & (0x80 >> i % 8))
			return -1;
	return (int)len;
}

static uint8_t *key_of(const struct fw_table *t, uint32_t handle)
{
	return t->keys + (size_t)handle * 2 * t->key_bytes;
}

static int table_insert(struct p4fw *fw, struct fw_table *t, uint32_t handle,
			uint32_t prio)
{
	const uint8_t *key = key_of(t, handle), *mask = key + t->key_bytes;
	uint32_t len;

	switch (t->type) {
	case P4NIC_TABLE_EXACT:
		return p4fw_exact_add(t->exact, key, handle);
	case P4NIC_TABLE_LPM:
		/* a long prefix may grow the trie: within the memory limit */
		len = (uint32_t)prefix_len(mask, t->key_bits);
		if (fw->mem_limit &&
		    mem_used(fw->pipe) + p4fw_lpm_add_bytes(t->lpm, len) >
		    fw->mem_limit)
			return -ENOMEM;
		return p4fw_lpm_add(t->lpm, key, len, handle);
	default:
		return p4fw_ternary_add(t->ternary, key, mask, prio, handle);
	}
}

static void table_remove(struct fw_table *t, uint32_t handle)
{
	const uint8_t *key = key_of(t, handle), *mask = key + t->key_bytes;

	switch (t->type) {
	case P4NIC_TABLE_EXACT:
		p4fw_exact_del(t->exact, key, NULL);
		break;
	case P4NIC_TABLE_LPM:
		p4fw_lpm_del(t->lpm, key,
			     (uint32_t)prefix_len(mask, t->key_bits), NULL);
		break;
	default:
		p4fw_ternary_del(t->ternary, key, mask,
				 t->entries[handle].prio, NULL);
		break;
	}
}

/* Forget an entry: nothing of it stays, counters included. */
static void entry_clear(struct fw_table *t, uint32_t handle)
{
	memset(&t->entries[handle], 0, sizeof(t->entries[handle]));
	memset(key_of(t, handle), 0, 2 * t->key_bytes);
}

static bool check_key(const struct fw_table *t, const uint8_t *b,
		      struct res *r)
{
	const uint8_t *key = b + E_KEY, *mask = b + E_MASK;
	uint32_t i;

	if (fw_le16(b + E_KEY_LEN) != t->key_bytes) {
		fail(r, P4NIC_ST_INVALID, P4NIC_F_KEY_LEN, E_KEY_LEN);
		return false;
	}
	/* Nothing beyond key_bits, no key bit outside the mask. */
	for (i = 0; i < P4NIC_MAX_KEY_BYTES; i++) {
		uint8_t room = i < t->key_bits / 8 ? 0xff :
			       i == t->key_bits / 8 ?
			       (uint8_t)(0xff00 >> t->key_bits % 8) : 0;

		if (mask[i] & ~room) {
			fail(r, P4NIC_ST_INVALID, P4NIC_F_MASK, E_MASK + i);
			return false;
		}
		if (key[i] & ~mask[i]) {
			fail(r, P4NIC_ST_INVALID, P4NIC_F_KEY, E_KEY + i);
			return false;
		}
		if (t->type == P4NIC_TABLE_EXACT && mask[i] != room) {
			fail(r, P4NIC_ST_INVALID, P4NIC_F_MASK, E_MASK + i);
			return false;
		}
	}
	if (t->type == P4NIC_TABLE_LPM && prefix_len(mask, t->key_bits) < 0) {
		fail(r, P4NIC_ST_INVALID, P4NIC_F_MASK, E_MASK);
		return false;
	}
	return true;
}

/*
 * The prologue of the commands whose input buffer (LEN bytes into B) names
 * a table in its first 4 bytes (struct p4nic_entry, p4nic_default_action).
 */
static struct fw_table *buffer_table(struct p4fw *fw, const struct cmd *c,
				     const struct p4fw_dma *dma, uint8_t *b,
				     uint32_t len, struct res *r)
{
	struct fw_table *t;

	if (!params_unused(c, 0, r) || !need_pipe(fw, r) ||
	    !read_in(c, dma, b, len, r))
		return NULL;
	_Static_assert(AT(p4nic_entry, table_id) ==
		       AT(p4nic_default_action, table_id),
		       "entries and default actions name their table alike");
	t = find_table(fw, fw_le32(b + AT(p4nic_entry, table_id)));
	if (!t)
		fail(r, P4NIC_ST_NOT_FOUND, P4NIC_F_TABLE_ID, 0);
	return t;
}

static void cmd_entry(struct p4fw *fw, const struct cmd *c,
		      const struct p4fw_dma *dma, struct res *r)
{
	uint8_t b[sizeof(struct p4nic_entry)];
	bool replace = c->opcode == P4NIC_CMD_ENTRY_REPLACE;
	u128 params[P4NIC_MAX_PARAMS];
	struct fw_table *t;
	struct fw_entry *e;
	uint32_t handle, action, i;
	int err;

	t = buffer_table(fw, c, dma, b, sizeof(b), r);
	if (!t)
		return;
	handle = fw_le32(b + E_HANDLE);
	if (handle >= t->max_entries)
		return fail(r, P4NIC_ST_INVALID, P4NIC_F_HANDLE, E_HANDLE);
	e = &t->entries[handle];
	if (!replace && e->used)
		return fail(r, P4NIC_ST_EXISTS, P4NIC_F_HANDLE, E_HANDLE);
	if (replace && !e->used)
		return fail(r, P4NIC_ST_NOT_FOUND, P4NIC_F_HANDLE, E_HANDLE);
	for (i = 0; i < sizeof(((struct p4nic_entry *)0)->rsvd); i++)
		if (b[E_RSVD + i])
			return fail(r, P4NIC_ST_INVALID, P4NIC_F_FLAGS,
				    E_RSVD + i);
	if (t->type != P4NIC_TABLE_TERNARY && fw_le32(b + E_PRIO))
		return fail(r, P4NIC_ST_INVALID, P4NIC_F_PRIO, E_PRIO);
	if (!check_key(t, b, r))
		return;
	if (fw_le16(b + E_NPARAMS) > P4NIC_MAX_PARAMS)
		return fail(r, P4NIC_ST_INVALID, P4NIC_F_ACTION_PARAM,
			    E_NPARAMS);
	if (!check_action(fw->pipe, fw_le32(b + E_ACTION),
			  fw_le16(b + E_NPARAMS), b + E_PARAMS, E_PARAMS,
			  &action, params, r))
		return;
	if (!table_allows(fw->pipe, t, action))
		return fail(r, P4NIC_ST_INVALID, P4NIC_F_ACTION_ID, E_ACTION);

	if (replace) {
		/* Replace changes what an entry does, never what it matches. */
		if (e->prio != fw_le32(b + E_PRIO) ||
		    memcmp(key_of(t, handle), b + E_KEY, t->key_bytes) ||
		    memcmp(key_of(t, handle) + t->key_bytes, b + E_MASK,
			   t->key_bytes))
			return fail(r, P4NIC_ST_INVALID, P4NIC_F_KEY, E_KEY);
		e->action = action;
		e->nparams = fw_le16(b + E_NPARAMS);
		memcpy(e->params, params, sizeof(params));
		return;
	}
	memcpy(key_of(t, handle), b + E_KEY, t->key_bytes);
	memcpy(key_of(t, handle) + t->key_bytes, b + E_MASK, t->key_bytes);
	err = table_insert(fw, t, handle, fw_le32(b + E_PRIO));
	if (err) {
		entry_clear(t, handle);
		if (err == -EEXIST)
			return fail(r, P4NIC_ST_EXISTS, P4NIC_F_KEY, E_KEY);
		if (err == -EMLINK)
			return fail(r, P4NIC_ST_LIMIT, P4NIC_F_KEY, E_KEY);
		if (err == -E2BIG)
			return fail(r, P4NIC_ST_NO_SPACE, P4NIC_F_MASK, E_MASK);
		if (err == -ENOSPC)
			return fail(r, P4NIC_ST_NO_SPACE, P4NIC_F_TABLE_ID,
				    E_TABLE);
		return fail(r, P4NIC_ST_NO_MEMORY, P4NIC_F_NONE, 0);
	}
	e->used = 1;
	e->prio = fw_le32(b + E_PRIO);
	e->action = action;
	e->nparams = fw_le16(b + E_NPARAMS);
	memcpy(e->params, params, sizeof(params));
	t->num_entries++;
	fw->pipe->num_entries++;
}

/*
 * The prologue of the commands that name a table in p[0] and take no
 * input buffer: parameters from USED on must be zero.
 */
static struct fw_table *param_table(struct p4fw *fw, const struct cmd *c,
				    unsigned int used, struct res *r)
{
	struct fw_table *t;

	if (!no_input(c, r) || !params_unused(c, used, r) || !need_pipe(fw, r))
		return NULL;
	t = find_table(fw, c->p[0]);
	if (!t)
		fail(r, P4NIC_ST_NOT_FOUND, P4NIC_F_TABLE_ID, 0);
	return t;
}

static void cmd_entry_del(struct p4fw *fw, const struct cmd *c,
			  const struct p4fw_dma *dma, struct res *r)
{
	struct fw_table *t;

	(void)dma;	/* no buffers */
	t = param_table(fw, c, 2, r);
	if (!t)
		return;
	if (c->p[1] >= t->max_entries)
		return fail(r, P4NIC_ST_INVALID, P4NIC_F_HANDLE, 1);
	if (!t->entries[c->p[1]].used)
		return fail(r, P4NIC_ST_NOT_FOUND, P4NIC_F_HANDLE, 1);
	table_remove(t, c->p[1]);
	entry_clear(t, c->p[1]);
	t->num_entries--;
	fw->pipe->num_entries--;
}

static void cmd_flush(struct p4fw *fw, const struct cmd *c,
		      const struct p4fw_dma *dma, struct res *r)
{
	struct fw_table *t;

	(void)dma;	/* no buffers */
	t = param_table(fw, c, 1, r);
	if (!t)
		return;
	/* the pages its entries touched, not all 2^20 slots */
	fw_big_zero(t->entries, (size_t)t->max_entries * sizeof(*t->entries));
	fw_big_zero(t->keys, (size_t)t->max_entries * 2 * t->key_bytes);
	if (t->type == P4NIC_TABLE_EXACT)
		p4fw_exact_flush(t->exact);
	else if (t->type == P4NIC_TABLE_LPM)
		p4fw_lpm_flush(t->lpm);
	else
		p4fw_ternary_flush(t->ternary);
	fw->pipe->num_entries -= t->num_entries;
	t->num_entries = 0;
}

#define COUNTERS_MAX 65536u	/* per command */

static void cmd_counters(struct p4fw *fw, const struct cmd *c,
			 const struct p4fw_dma *dma, struct res *r)
{
	uint8_t b[64 * sizeof(struct p4nic_counter)];
	struct fw_table *t;
	uint32_t i, n = 0;

	t = param_table(fw, c, 3, r);
	if (!t)
		return;
	if (c->p[1] >= t->max_entries)
		return fail(r, P4NIC_ST_INVALID, P4NIC_F_HANDLE, 1);
	if (c->p[2] == 0 || c->p[2] > COUNTERS_MAX ||
	    c->p[2] > t->max_entries - c->p[1])
		return fail(r, P4NIC_ST_INVALID, P4NIC_F_COUNT, 2);
	if (!need_out(c, (uint64_t)c->p[2] * sizeof(struct p4nic_counter), r))
		return;
	for (i = 0; i < c->p[2]; i++) {
		const struct fw_entry *e = &t->entries[c->p[1] + i];

		const size_t k_size = sizeof(struct p4nic_counter);
		uint8_t *k = b + n * k_size;

		fw_put64(k + AT(p4nic_counter, packets),
			 e->used ? e->packets : 0);
		fw_put64(k + AT(p4nic_counter, bytes), e->used ? e->bytes : 0);
		if (++n == 64 || i + 1 == c->p[2]) {
			if (!write_out(c, dma, (i + 1 - n) * k_size, b,
				       n * k_size, r))
				return;
			n = 0;
		}
	}
}

/* Fields of struct p4nic_default_action */
#define D_WHICH AT(p4nic_default_action, which)
#define D_ACTION AT(p4nic_default_action, action_id)
#define D_NPARAMS AT(p4nic_default_action, num_params)
#define D_PARAMS AT(p4nic_default_action, params)

static void cmd_default(struct p4fw *fw, const struct cmd *c,
			const struct p4fw_dma *dma, struct res *r)
{
	uint8_t b[sizeof(struct p4nic_default_action)];
	struct fw_actref ref = { 0 };
	struct fw_table *t;
	uint32_t which;

	t = buffer_table(fw, c, dma, b, sizeof(b), r);
	if (!t)
		return;
	which = fw_le32(b + D_WHICH);
	if (which > P4NIC_DEFAULT_MISS)
		return fail(r, P4NIC_ST_INVALID, P4NIC_F_WHICH, D_WHICH);
	ref.nargs = fw_le32(b + D_NPARAMS);
	if (ref.nargs > P4NIC_MAX_PARAMS)
		return fail(r, P4NIC_ST_INVALID, P4NIC_F_ACTION_PARAM,
			    D_NPARAMS);
	if (!check_action(fw->pipe, fw_le32(b + D_ACTION), ref.nargs,
			  b + D_PARAMS, D_PARAMS, &ref.action, ref.args, r))
		return;
	t->dflt[which] = ref;
}

static struct fw_register *param_reg(struct p4fw *fw, const struct cmd *c,
				     struct res *r)
{
	struct fw_register *g = NULL;
	uint32_t i;

	if (!params_unused(c, 3, r) || !need_pipe(fw, r))
		return NULL;
	for (i = 0; i < fw->pipe->num_regs; i++)
		if (fw->pipe->regs[i].id == c->p[0])
			g = &fw->pipe->regs[i];
	if (!g) {
		fail(r, P4NIC_ST_NOT_FOUND, P4NIC_F_REG_ID, 0);
		return NULL;
	}
	if (c->p[1] >= g->num_elems) {
		fail(r, P4NIC_ST_INVALID, P4NIC_F_REG_INDEX, 1);
		return NULL;
	}
	if (c->p[2] == 0 || c->p[2] > g->num_elems - c->p[1]) {
		fail(r, P4NIC_ST_INVALID, P4NIC_F_COUNT, 2);
		return NULL;
	}
	return g;
}

static void cmd_reg_read(struct p4fw *fw, const struct cmd *c,
			 const struct p4fw_dma *dma, struct res *r)
{
	uint8_t b[FW_MAX_REG_ELEMS * U128];
	struct fw_register *g;
	uint32_t i;

	if (!no_input(c, r))
		return;
	g = param_reg(fw, c, r);
	if (!g || !need_out(c, (uint64_t)c->p[2] * U128, r))
		return;
	for (i = 0; i < c->p[2]; i++)
		fw_put128(b + i * U128, g->cells[c->p[1] + i]);
	write_out(c, dma, 0, b, c->p[2] * U128, r);
}

static void cmd_reg_write(struct p4fw *fw, const struct cmd *c,
			  const struct p4fw_dma *dma, struct res *r)
{
	uint8_t b[FW_MAX_REG_ELEMS * U128];
	struct fw_register *g;
	uint32_t i;

	g = param_reg(fw, c, r);
	if (!g || !read_in(c, dma, b, c->p[2] * U128, r))
		return;
	for (i = 0; i < c->p[2]; i++)
		if (fw_le128(b + i * U128) & ~fw_mask(g->bit_width))
			return fail(r, P4NIC_ST_INVALID, P4NIC_F_VALUE,
				    i * U128);
	for (i = 0; i < c->p[2]; i++)
		g->cells[c->p[1] + i] = fw_le128(b + i * U128);
}

static void cmd_miss_mode(struct p4fw *fw, const struct cmd *c,
			  const struct p4fw_dma *dma, struct res *r)
{
	struct fw_table *t;

	(void)dma;	/* no buffers */
	t = param_table(fw, c, 2, r);
	if (!t)
		return;
	if (c->p[1] > P4NIC_LOOKUP_TO_HOST)
		return fail(r, P4NIC_ST_INVALID, P4NIC_F_MODE, 1);
	t->miss_mode = c->p[1];
}

static void cmd_query(struct p4fw *fw, const struct cmd *c,
		      const struct p4fw_dma *dma, struct res *r)
{
	uint8_t b[sizeof(struct p4nic_table_info)] = { 0 };
	const struct fw_pipeline *p = fw->pipe;
	struct fw_table *t;

	if (!no_input(c, r) || !params_unused(c, 2, r))
		return;
	switch (c->p[0]) {
	case P4NIC_QUERY_PIPELINE:
		if (c->p[1])
			return fail(r, P4NIC_ST_INVALID, P4NIC_F_PARAM, 1);
		fw_put32(b + AT(p4nic_pipeline_info, loaded), p != NULL);
		fw_put32(b + AT(p4nic_pipeline_info, pipeid),
			 p ? p->pipeid : 0);
		fw_put32(b + AT(p4nic_pipeline_info, num_tables),
			 p ? p->num_tables : 0);
		fw_put32(b + AT(p4nic_pipeline_info, num_actions),
			 p ? p->num_actions : 0);
		fw_put32(b + AT(p4nic_pipeline_info, num_entries),
			 p ? p->num_entries : 0);
		write_out(c, dma, 0, b, sizeof(struct p4nic_pipeline_info), r);
		return;
	case P4NIC_QUERY_TABLE:
		if (!need_pipe(fw, r))
			return;
		t = find_table(fw, c->p[1]);
		if (!t)
			return fail(r, P4NIC_ST_NOT_FOUND, P4NIC_F_TABLE_ID, 1);
		fw_put32(b + AT(p4nic_table_info, table_id), t->id);
		fw_put32(b + AT(p4nic_table_info, type), t->type);
		fw_put32(b + AT(p4nic_table_info, max_entries),
			 t->max_entries);
		fw_put32(b + AT(p4nic_table_info, num_entries),
			 t->num_entries);
		fw_put32(b + AT(p4nic_table_info, num_masks),
			 t->type == P4NIC_TABLE_TERNARY ?
			 p4fw_ternary_masks(t->ternary) : 0);
		fw_put32(b + AT(p4nic_table_info, miss_mode), t->miss_mode);
		fw_put64(b + AT(p4nic_table_info, hits), t->hits);
		fw_put64(b + AT(p4nic_table_info, misses), t->misses);
		write_out(c, dma, 0, b, sizeof(b), r);
		return;
	default:
		return fail(r, P4NIC_ST_INVALID, P4NIC_F_QUERY, 0);
	}
}

static void cmd_reset(struct p4fw *fw, const struct cmd *c,
		      const struct p4fw_dma *dma, struct res *r)
{
	(void)dma;	/* no buffers */
	if (no_input(c, r) && params_unused(c, 0, r))
		p4fw_reset(fw);
}

static handler_fn *const handlers[P4NIC_CMD_MAX + 1] = {
	[P4NIC_CMD_IDENTIFY] = cmd_identify,
	[P4NIC_CMD_RESET] = cmd_reset,
	[P4NIC_CMD_PORT_SET] = cmd_port_set,
	[P4NIC_CMD_PORT_QUERY] = cmd_port_query,
	[P4NIC_CMD_PIPELINE_LOAD] = cmd_load,
	[P4NIC_CMD_PIPELINE_UNLOAD] = cmd_unload,
	[P4NIC_CMD_ENTRY_ADD] = cmd_entry,
	[P4NIC_CMD_ENTRY_REPLACE] = cmd_entry,
	[P4NIC_CMD_ENTRY_DEL] = cmd_entry_del,
	[P4NIC_CMD_TABLE_FLUSH] = cmd_flush,
	[P4NIC_CMD_COUNTERS_READ] = cmd_counters,
	[P4NIC_CMD_DEFAULT_SET] = cmd_default,
	[P4NIC_CMD_REG_READ] = cmd_reg_read,
	[P4NIC_CMD_REG_WRITE] = cmd_reg_write,
	[P4NIC_CMD_TABLE_MISS_MODE] = cmd_miss_mode,
	[P4NIC_CMD_QUERY] = cmd_query,
};

/**
 * p4fw_command() - execute one admin command
 * @fw: the firmware
 * @raw: the command's 64 bytes, as the guest wrote them
 * @dma: access to the guest memory its buffers are in
 * @cpl: the 16-byte completion; aq_head and flags are left zero
 */
void p4fw_command(struct p4fw *fw, const uint8_t *raw,
		  const struct p4fw_dma *dma, uint8_t *cpl)
{
	struct cmd c;
	struct res r = { 0 };
	unsigned int i;

	c.opcode = fw_le16(raw + AT(p4nic_cmd, opcode));
	c.flags = fw_le16(raw + AT(p4nic_cmd, flags));
	c.cookie = fw_le32(raw + AT(p4nic_cmd, cookie));
	c.in_addr = fw_le64(raw + AT(p4nic_cmd, in_addr));
	c.in_len = fw_le32(raw + AT(p4nic_cmd, in_len));
	c.out_len = fw_le32(raw + AT(p4nic_cmd, out_len));
	c.out_addr = fw_le64(raw + AT(p4nic_cmd, out_addr));
	_Static_assert(sizeof(c.p) / sizeof(c.p[0]) ==
		       sizeof(((struct p4nic_cmd *)0)->p) / sizeof(__le32),
		       "the ABI's inline parameters");
	for (i = 0; i < sizeof(c.p) / sizeof(c.p[0]); i++)
		c.p[i] = fw_le32(raw + AT_I(p4nic_cmd, p, i));

	if (c.flags) {
		fail(&r, P4NIC_ST_INVALID, P4NIC_F_FLAGS,
		     AT(p4nic_cmd, flags));
		goto done;
	}
	if (c.opcode > P4NIC_CMD_MAX || !handlers[c.opcode]) {
		fail(&r, P4NIC_ST_BAD_OPCODE, P4NIC_F_OPCODE, 0);
		goto done;
	}
	handlers[c.opcode](fw, &c, dma, &r);
done:
	memset(cpl, 0, sizeof(struct p4nic_cpl));
	fw_put32(cpl + AT(p4nic_cpl, cookie), c.cookie);
	fw_put32(cpl + AT(p4nic_cpl, result), r.result);
	fw_put16(cpl + AT(p4nic_cpl, status), r.status);
	fw_put16(cpl + AT(p4nic_cpl, field), r.field);
}

struct p4fw *p4fw_create(uint32_t num_ports, const uint8_t (*macs)[6],
			 int *err)
{
	struct p4fw *fw;
	uint32_t i;

	if (num_ports == 0 || num_ports > P4NIC_MAX_PORTS) {
		*err = -EINVAL;
		return NULL;
	}
	fw = calloc(1, sizeof(*fw));
	if (!fw) {
		*err = -ENOMEM;
		return NULL;
	}
	fw->num_ports = num_ports;
	for (i = 0; i < num_ports; i++)
		if (macs)
			memcpy(fw->ports[i].mac, macs[i], 6);
	*err = 0;
	return fw;
}

void p4fw_set_secret(struct p4fw *fw, uint64_t secret)
{
	fw->secret = secret;
}

void p4fw_set_mem_limit(struct p4fw *fw, uint64_t bytes)
{
	fw->mem_limit = bytes;
}

uint64_t p4fw_mem_used(const struct p4fw *fw)
{
	return mem_used(fw->pipe);
}

void p4fw_destroy(struct p4fw *fw)
{
	if (!fw)
		return;
	fw_pipeline_free(fw->pipe);
	free(fw);
}

void p4fw_reset(struct p4fw *fw)
{
	uint32_t i;

	fw_pipeline_free(fw->pipe);
	fw->pipe = NULL;
	for (i = 0; i < fw->num_ports; i++) {
		struct fw_port *pt = &fw->ports[i];
		uint8_t mac[6];
		bool link = pt->link;

		memcpy(mac, pt->mac, 6);
		memset(pt, 0, sizeof(*pt));
		memcpy(pt->mac, mac, 6);
		pt->link = link;
	}
}

void p4fw_set_link(struct p4fw *fw, uint32_t port, bool up)
{
	if (port < fw->num_ports)
		fw->ports[port].link = up;
}

bool p4fw_port_enabled(const struct p4fw *fw, uint32_t port)
{
	return port < fw->num_ports && fw->ports[port].enabled;
}

void p4fw_count_host_tx(struct p4fw *fw, uint32_t port, uint32_t len)
{
	if (port < fw->num_ports) {
		fw->ports[port].tx_packets++;
		fw->ports[port].tx_bytes += len;
	}
}

void p4fw_count_no_buffer(struct p4fw *fw, uint32_t port)
{
	if (port < fw->num_ports)
		fw->ports[port].no_buffer++;
}
