// SPDX-License-Identifier: GPL-2.0-or-later
/* Pipeline image assembler for tests: see imgbuild.h. */
#include <stdlib.h>
#include <string.h>

#include "imgbuild.h"

#define MAX_REC 4096

struct hdr {
	struct p4nic_img_header h;
	uint32_t ntrans;
	struct p4nic_img_transition trans[64];
};

struct ib {
	struct p4nic_img_pipeline pipe;
	struct hdr hdrs[P4NIC_MAX_PORTS * 4];
	uint32_t nhdrs;
	struct p4nic_img_field fields[256];
	uint32_t nfields;
	struct p4nic_img_metadata meta[128];
	uint32_t nmeta;
	struct p4nic_img_register regs[32];
	uint32_t nregs;
	struct p4nic_img_port ports[P4NIC_MAX_PORTS];
	uint32_t nports;
	struct p4nic_img_operand opnds[MAX_REC];
	uint32_t nopnds;
	struct p4nic_u128 consts[MAX_REC];
	uint32_t nconsts;
	struct p4nic_img_insn insns[MAX_REC];
	uint32_t ninsns;
	uint32_t prog_start;
	struct p4nic_img_action actions[128];
	uint32_t nactions;
	struct p4nic_img_param params[1024];
	uint32_t nparams;
	struct p4nic_img_table tables[32];
	uint32_t ntables;
	uint32_t keycomps[MAX_REC];
	uint32_t nkeycomps;
	uint32_t tacts[MAX_REC];
	uint32_t ntacts;
};

static void put128(struct p4nic_u128 *d, ib_u128 v)
{
	d->lo = (uint64_t)v;
	d->hi = (uint64_t)(v >> 64);
}

struct ib *ib_new(uint32_t pipeid)
{
	struct ib *b = calloc(1, sizeof(*b));

	b->pipe.pipeid = pipeid;
	b->pipe.start_header = P4NIC_NONE;
	return b;
}

void ib_free(struct ib *b)
{
	free(b);
}

uint32_t ib_header(struct ib *b, uint32_t id, uint16_t fixed_len)
{
	struct hdr *h = &b->hdrs[b->nhdrs];

	h->h.id = id;
	h->h.fixed_len = fixed_len;
	h->h.max_len = fixed_len;
	h->h.len_field = P4NIC_NONE;
	h->h.sel_field = P4NIC_NONE;
	h->h.default_next = P4NIC_PARSE_ACCEPT;
	return b->nhdrs++;
}

void ib_header_len(struct ib *b, uint32_t hdr, uint32_t field, uint16_t mult,
		   uint16_t add, uint16_t max_len)
{
	b->hdrs[hdr].h.len_field = field;
	b->hdrs[hdr].h.len_mult = mult;
	b->hdrs[hdr].h.len_add = add;
	b->hdrs[hdr].h.max_len = max_len;
}

void ib_select(struct ib *b, uint32_t hdr, uint32_t field,
	       uint32_t default_next)
{
	b->hdrs[hdr].h.sel_field = field;
	b->hdrs[hdr].h.default_next = default_next;
}

void ib_transition(struct ib *b, uint32_t hdr, ib_u128 value, ib_u128 mask,
		   uint32_t next)
{
	struct hdr *h = &b->hdrs[hdr];
	struct p4nic_img_transition *t = &h->trans[h->ntrans++];

	put128(&t->value, value);
	put128(&t->mask, mask);
	t->next = next;
}

uint32_t ib_field(struct ib *b, uint32_t id, uint32_t hdr, uint16_t offset,
		  uint16_t width)
{
	struct p4nic_img_field *f = &b->fields[b->nfields];

	f->id = id;
	f->header = hdr;
	f->bit_offset = offset;
	f->bit_width = width;
	return b->nfields++;
}

uint32_t ib_metadata(struct ib *b, uint32_t id, uint16_t width, uint16_t flags)
{
	b->meta[b->nmeta] = (struct p4nic_img_metadata){ id, width, flags };
	return b->nmeta++;
}

uint32_t ib_register(struct ib *b, uint32_t id, uint16_t width, uint32_t elems)
{
	b->regs[b->nregs] = (struct p4nic_img_register){ id, width, 0, elems };
	return b->nregs++;
}

void ib_port(struct ib *b, uint32_t port, uint32_t ifindex)
{
	b->ports[b->nports++] = (struct p4nic_img_port){ port, ifindex };
}

uint32_t ib_opnd(struct ib *b, uint8_t kind, uint8_t flags, uint16_t cbits,
		 uint16_t start, uint16_t end, uint32_t index, uint32_t elem)
{
	b->opnds[b->nopnds] = (struct p4nic_img_operand){
		kind, flags, cbits, start, end, index, elem };
	return b->nopnds++;
}

uint32_t ib_const(struct ib *b, uint16_t bits, ib_u128 v)
{
	put128(&b->consts[b->nconsts], v);
	return ib_opnd(b, P4NIC_OPND_CONST, 0, bits, 0, bits - 1,
		       b->nconsts++, 0);
}

uint32_t ib_sconst(struct ib *b, uint16_t bits, ib_u128 v)
{
	uint32_t o = ib_const(b, bits, v);

	b->opnds[o].flags = P4NIC_TYPE_SIGNED;
	return o;
}

uint32_t ib_fieldop(struct ib *b, uint32_t field)
{
	uint16_t w = b->fields[field].bit_width;

	return ib_opnd(b, P4NIC_OPND_FIELD, 0, w, 0, w - 1, field, 0);
}

uint32_t ib_metaop(struct ib *b, uint32_t meta)
{
	uint16_t w = b->meta[meta].bit_width;

	return ib_opnd(b, P4NIC_OPND_METADATA, (uint8_t)b->meta[meta].flags,
		       w, 0, w - 1, meta, 0);
}

uint32_t ib_paramop(struct ib *b, uint32_t idx, uint16_t bits)
{
	return ib_opnd(b, P4NIC_OPND_PARAM, 0, bits, 0, bits - 1, idx, 0);
}

uint32_t ib_regop(struct ib *b, uint32_t reg, uint32_t elem)
{
	uint16_t w = b->regs[reg].bit_width;

	return ib_opnd(b, P4NIC_OPND_REGISTER, 0, w, 0, w - 1, reg, elem);
}

uint32_t ib_kmetaop(struct ib *b, uint32_t kmeta)
{
	uint16_t w = kmeta == P4NIC_KMETA_TCINDEX ||
		     kmeta == P4NIC_KMETA_SKBPROTO ? 16 :
		     kmeta == P4NIC_KMETA_DIRECTION ? 1 : 32;

	return ib_opnd(b, P4NIC_OPND_KMETA, 0, w, 0, w - 1, kmeta, 0);
}

uint32_t ib_tableop(struct ib *b, uint32_t table)
{
	return ib_opnd(b, P4NIC_OPND_TABLE, 0, 0, 0, 0, table, 0);
}

uint32_t ib_headerop(struct ib *b, uint32_t hdr)
{
	return ib_opnd(b, P4NIC_OPND_HEADER, 0, 0, 0, 0, hdr, 0);
}

uint32_t ib_actionop(struct ib *b, uint32_t action)
{
	return ib_opnd(b, P4NIC_OPND_ACTION, 0, 0, 0, 0, action, 0);
}

uint32_t ib_resultop(struct ib *b, uint32_t which)
{
	return ib_opnd(b, P4NIC_OPND_RESULT, 0, 1, 0, 0, which, 0);
}

uint32_t ib_slice(struct ib *b, uint32_t opnd, uint16_t start, uint16_t end)
{
	struct p4nic_img_operand o = b->opnds[opnd];

	o.bit_start = start;
	o.bit_end = end;
	b->opnds[b->nopnds] = o;
	return b->nopnds++;
}

void ib_prog_begin(struct ib *b)
{
	b->prog_start = b->ninsns;
}

static struct p4nic_img_insn *add_insn(struct ib *b, uint8_t op, uint32_t n,
				       const uint32_t *opnds)
{
	struct p4nic_img_insn *in = &b->insns[b->ninsns++];
	uint32_t i;

	memset(in, 0, sizeof(*in));
	in->op = op;
	in->operands.first = b->nopnds;
	in->operands.count = n;
	/* An instruction's operands are one run: copy them to the end. */
	for (i = 0; i < n; i++)
		b->opnds[b->nopnds++] = b->opnds[opnds[i]];
	return in;
}

void ib_insn(struct ib *b, uint8_t op, uint32_t n, const uint32_t *opnds)
{
	add_insn(b, op, n, opnds);
}

void ib_branch(struct ib *b, uint8_t op, uint32_t a, uint32_t c,
	       uint8_t then_ctl, uint16_t then_arg, uint8_t else_ctl,
	       uint16_t else_arg)
{
	uint32_t ops[2] = { a, c };
	struct p4nic_img_insn *in = add_insn(b, op, 2, ops);

	in->then_ctl = then_ctl;
	in->then_arg = then_arg;
	in->else_ctl = else_ctl;
	in->else_arg = else_arg;
}

void ib_ctl(struct ib *b, uint8_t op, uint8_t then_ctl, uint16_t then_arg)
{
	struct p4nic_img_insn *in = add_insn(b, op, 0, NULL);

	in->then_ctl = then_ctl;
	in->then_arg = then_arg;
}

struct ib_span ib_prog_end(struct ib *b)
{
	return (struct ib_span){ b->prog_start, b->ninsns - b->prog_start };
}

uint32_t ib_action(struct ib *b, uint32_t id, uint32_t nparams,
		   const uint16_t *widths, struct ib_span prog)
{
	struct p4nic_img_action *a = &b->actions[b->nactions];
	uint32_t i;

	a->id = id;
	a->params.first = b->nparams;
	a->params.count = nparams;
	for (i = 0; i < nparams; i++)
		b->params[b->nparams++].bit_width = widths[i];
	a->prog.first = prog.first;
	a->prog.count = prog.count;
	return b->nactions++;
}

static void actref(struct ib *b, struct p4nic_img_actref *d,
		   const struct ib_actref *s)
{
	uint32_t i, first = b->nopnds;

	d->action = s->action;
	if (s->action == P4NIC_NONE || s->action == 0)
		d->action = P4NIC_NONE;
	for (i = 0; i < s->nargs; i++) {
		uint16_t w = b->params[b->actions[s->action].params.first +
				       i].bit_width;
		uint32_t o = ib_const(b, w, s->args[i]);

		b->opnds[first + i] = b->opnds[o];
		b->nopnds = first + i + 1;
	}
	d->args.first = first;
	d->args.count = s->nargs;
}

uint32_t ib_table(struct ib *b, const struct ib_table *t)
{
	struct p4nic_img_table *d = &b->tables[b->ntables];
	uint32_t i;

	d->id = t->id;
	d->type = t->type;
	d->key_bits = t->key_bits;
	d->max_entries = t->max_entries;
	d->max_masks = t->max_masks;
	d->miss_mode = t->miss_mode;
	d->key.first = b->nkeycomps;
	d->key.count = t->nkeys;
	for (i = 0; i < t->nkeys; i++)
		b->keycomps[b->nkeycomps++] = t->keys[i];
	d->acts.first = b->ntacts;
	d->acts.count = t->nacts;
	for (i = 0; i < t->nacts; i++)
		b->tacts[b->ntacts++] = t->acts[i];
	d->pre.first = t->pre.first;
	d->pre.count = t->pre.count;
	d->post.first = t->post.first;
	d->post.count = t->post.count;
	actref(b, &d->default_hit, &t->hit);
	actref(b, &d->default_miss, &t->miss);
	return b->ntables++;
}

void ib_pipeline(struct ib *b, uint32_t start_header, struct ib_span prog)
{
	b->pipe.start_header = start_header;
	b->pipe.prog.first = prog.first;
	b->pipe.prog.count = prog.count;
}

struct out {
	uint8_t *buf;
	uint32_t len;
	uint32_t nsect;
};

static void section(struct out *o, uint32_t kind, const void *recs,
		    uint32_t count, uint32_t rec_size)
{
	struct p4nic_image_section *s;

	if (!count && kind != P4NIC_SECT_PIPELINE)
		return;
	o->len = (o->len + 7) & ~7u;
	s = (struct p4nic_image_section *)(o->buf +
		sizeof(struct p4nic_image_hdr)) + o->nsect++;
	s->kind = kind;
	s->offset = o->len;
	s->count = count;
	s->rec_size = rec_size;
	memcpy(o->buf + o->len, recs, (size_t)count * rec_size);
	o->len += count * rec_size;
}

uint8_t *ib_finish(struct ib *b, uint32_t *len)
{
	struct p4nic_img_header hdrs[64];
	struct p4nic_img_transition trans[1024];
	struct p4nic_image_hdr *h;
	struct out o = { .buf = calloc(1, 1u << 20) };
	uint32_t i, j, ntrans = 0;

	for (i = 0; i < b->nhdrs; i++) {
		hdrs[i] = b->hdrs[i].h;
		hdrs[i].trans.first = ntrans;
		hdrs[i].trans.count = b->hdrs[i].ntrans;
		for (j = 0; j < b->hdrs[i].ntrans; j++)
			trans[ntrans++] = b->hdrs[i].trans[j];
	}
	/* Directory room for every kind; unused entries are cut below. */
	o.len = sizeof(*h) + P4NIC_SECT_MAX *
		sizeof(struct p4nic_image_section);
	section(&o, P4NIC_SECT_PIPELINE, &b->pipe, 1, sizeof(b->pipe));
	section(&o, P4NIC_SECT_HEADERS, hdrs, b->nhdrs, sizeof(hdrs[0]));
	section(&o, P4NIC_SECT_TRANSITIONS, trans, ntrans, sizeof(trans[0]));
	section(&o, P4NIC_SECT_FIELDS, b->fields, b->nfields,
		sizeof(b->fields[0]));
	section(&o, P4NIC_SECT_METADATA, b->meta, b->nmeta, sizeof(b->meta[0]));
	section(&o, P4NIC_SECT_ACTIONS, b->actions, b->nactions,
		sizeof(b->actions[0]));
	section(&o, P4NIC_SECT_PARAMS, b->params, b->nparams,
		sizeof(b->params[0]));
	section(&o, P4NIC_SECT_TABLES, b->tables, b->ntables,
		sizeof(b->tables[0]));
	section(&o, P4NIC_SECT_KEYCOMPS, b->keycomps, b->nkeycomps, 4);
	section(&o, P4NIC_SECT_TABLE_ACTS, b->tacts, b->ntacts, 4);
	section(&o, P4NIC_SECT_REGISTERS, b->regs, b->nregs,
		sizeof(b->regs[0]));
	section(&o, P4NIC_SECT_INSNS, b->insns, b->ninsns,
		sizeof(b->insns[0]));
	section(&o, P4NIC_SECT_OPERANDS, b->opnds, b->nopnds,
		sizeof(b->opnds[0]));
	section(&o, P4NIC_SECT_CONSTS, b->consts, b->nconsts,
		sizeof(b->consts[0]));
	section(&o, P4NIC_SECT_PORTS, b->ports, b->nports,
		sizeof(b->ports[0]));
	h = (struct p4nic_image_hdr *)o.buf;
	h->magic = P4NIC_IMAGE_MAGIC;
	h->version_major = P4NIC_ABI_MAJOR;
	h->version_minor = P4NIC_ABI_MINOR;
	h->total_len = o.len;
	h->num_sections = o.nsect;
	*len = o.len;
	return o.buf;
}

void ib_entry(struct p4nic_entry *e, uint32_t table, uint32_t handle,
	      uint32_t prio, uint32_t action_id, uint32_t key_bytes,
	      const uint8_t *key, const uint8_t *mask, uint32_t nparams,
	      const ib_u128 *params)
{
	uint32_t i;

	memset(e, 0, sizeof(*e));
	e->table_id = table;
	e->handle = handle;
	e->prio = prio;
	e->action_id = action_id;
	e->key_len = (uint16_t)key_bytes;
	e->num_params = (uint16_t)nparams;
	memcpy(e->key, key, key_bytes);
	memcpy(e->mask, mask, key_bytes);
	for (i = 0; i < nparams; i++)
		put128(&e->params[i], params[i]);
}
