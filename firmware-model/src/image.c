// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pipeline image loader: turns the bytes a guest sent into a validated
 * struct fw_pipeline, or refuses them naming the record that is wrong.
 *
 * Nothing in the image is trusted: every length, offset, count and index
 * is checked against the buffer and against the capabilities before it is
 * used, all arithmetic on guest values is done in 64 bits, and the result
 * is either a complete pipeline or nothing at all.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "hash.h"
#include "pipeline.h"

struct sect {
	uint32_t offset;
	uint32_t count;
	uint32_t rec_size;
	bool present;
};

struct loader {
	const uint8_t *img;
	uint32_t len;
	uint32_t num_ports;
	uint64_t seed;		/* the tables' hash seeds derive from it */
	struct sect sect[P4NIC_SECT_MAX + 1];
	struct fw_pipeline *p;
	struct fw_error *err;
	uint8_t *visit;		/* cycle check: 0 new, 1 open, 2 done */
};

static const struct {
	uint32_t rec_size;
	uint32_t max_count;
	uint16_t field;
} sect_info[P4NIC_SECT_MAX + 1] = {
	[P4NIC_SECT_PIPELINE] = { sizeof(struct p4nic_img_pipeline), 1,
				  P4NIC_F_IMG_PIPELINE },
	[P4NIC_SECT_HEADERS] = { sizeof(struct p4nic_img_header),
				 FW_MAX_HEADERS, P4NIC_F_IMG_HEADER },
	[P4NIC_SECT_TRANSITIONS] = { sizeof(struct p4nic_img_transition),
				     FW_MAX_TRANSITIONS,
				     P4NIC_F_IMG_TRANSITION },
	[P4NIC_SECT_FIELDS] = { sizeof(struct p4nic_img_field), FW_MAX_FIELDS,
				P4NIC_F_IMG_FIELD },
	[P4NIC_SECT_METADATA] = { sizeof(struct p4nic_img_metadata),
				  FW_MAX_METADATA, P4NIC_F_IMG_METADATA },
	[P4NIC_SECT_ACTIONS] = { sizeof(struct p4nic_img_action),
				 FW_MAX_ACTIONS, P4NIC_F_IMG_ACTION },
	[P4NIC_SECT_PARAMS] = { sizeof(struct p4nic_img_param),
				FW_MAX_ACTIONS * P4NIC_MAX_PARAMS,
				P4NIC_F_IMG_PARAM },
	[P4NIC_SECT_TABLES] = { sizeof(struct p4nic_img_table), FW_MAX_TABLES,
				P4NIC_F_IMG_TABLE },
	[P4NIC_SECT_KEYCOMPS] = { 4, FW_MAX_OPERANDS, P4NIC_F_IMG_KEYCOMP },
	[P4NIC_SECT_TABLE_ACTS] = { 4, FW_MAX_TABLES * FW_MAX_ACTIONS,
				    P4NIC_F_IMG_TABLE_ACT },
	[P4NIC_SECT_REGISTERS] = { sizeof(struct p4nic_img_register),
				   FW_MAX_REGISTERS, P4NIC_F_IMG_REGISTER },
	[P4NIC_SECT_INSNS] = { sizeof(struct p4nic_img_insn),
			       FW_MAX_OPERANDS, P4NIC_F_IMG_INSN },
	[P4NIC_SECT_OPERANDS] = { sizeof(struct p4nic_img_operand),
				  FW_MAX_OPERANDS, P4NIC_F_IMG_OPERAND },
	[P4NIC_SECT_CONSTS] = { sizeof(struct p4nic_u128), FW_MAX_CONSTS,
				P4NIC_F_IMG_CONST },
	[P4NIC_SECT_PORTS] = { sizeof(struct p4nic_img_port), P4NIC_MAX_PORTS,
			       P4NIC_F_IMG_PORT },
};

static int refuse(struct loader *l, uint16_t status, uint16_t field,
		  uint32_t offset)
{
	l->err->status = status;
	l->err->field = field;
	l->err->offset = offset;
	return -EINVAL;
}

/* Byte offset of record I of section KIND, for error reports. */
static uint32_t rec_off(const struct loader *l, int kind, uint32_t i)
{
	const struct sect *s = &l->sect[kind];

	return s->offset + i * s->rec_size;
}

static const uint8_t *rec(const struct loader *l, int kind, uint32_t i)
{
	return l->img + rec_off(l, kind, i);
}

static int bad(struct loader *l, int kind, uint32_t i)
{
	return refuse(l, P4NIC_ST_INVALID, sect_info[kind].field,
		      rec_off(l, kind, i));
}

static uint32_t count(const struct loader *l, int kind)
{
	return l->sect[kind].count;
}

static bool span_ok(struct fw_span s, uint32_t n, uint32_t max)
{
	return s.count <= max && s.first <= n && s.count <= n - s.first;
}

static struct fw_span span_at(const uint8_t *p)
{
	return (struct fw_span){ fw_le32(p + AT(p4nic_img_span, first)),
				 fw_le32(p + AT(p4nic_img_span, count)) };
}

static int read_directory(struct loader *l)
{
	uint32_t n, i, j, dir_end;

	if (l->len < sizeof(struct p4nic_image_hdr))
		return refuse(l, P4NIC_ST_INVALID, P4NIC_F_IMG_LEN, 0);
	if (fw_le32(l->img + AT(p4nic_image_hdr, magic)) !=
	    P4NIC_IMAGE_MAGIC)
		return refuse(l, P4NIC_ST_INVALID, P4NIC_F_IMG_MAGIC, 0);
	if (fw_le16(l->img + AT(p4nic_image_hdr, version_major)) !=
	    P4NIC_ABI_MAJOR ||
	    fw_le16(l->img + AT(p4nic_image_hdr, version_minor)) >
	    P4NIC_ABI_MINOR)
		return refuse(l, P4NIC_ST_INVALID, P4NIC_F_IMG_VERSION,
			      AT(p4nic_image_hdr, version_major));
	if (fw_le32(l->img + AT(p4nic_image_hdr, total_len)) != l->len)
		return refuse(l, P4NIC_ST_INVALID, P4NIC_F_IMG_LEN,
			      AT(p4nic_image_hdr, total_len));
	n = fw_le32(l->img + AT(p4nic_image_hdr, num_sections));
	if (n > P4NIC_SECT_MAX ||
	    sizeof(struct p4nic_image_hdr) +
	    (uint64_t)n * sizeof(struct p4nic_image_section) > l->len)
		return refuse(l, P4NIC_ST_INVALID, P4NIC_F_IMG_SECTION,
			      AT(p4nic_image_hdr, num_sections));
	dir_end = sizeof(struct p4nic_image_hdr) +
		  n * sizeof(struct p4nic_image_section);

	for (i = 0; i < n; i++) {
		uint32_t at = sizeof(struct p4nic_image_hdr) +
			      i * sizeof(struct p4nic_image_section);
		const uint8_t *d = l->img + at;
		uint32_t kind = fw_le32(d + AT(p4nic_image_section, kind));
		struct sect *s;
		uint64_t end;

		if (kind == 0 || kind > P4NIC_SECT_MAX ||
		    l->sect[kind].present)
			return refuse(l, P4NIC_ST_INVALID,
				      P4NIC_F_IMG_SECTION, at);
		s = &l->sect[kind];
		s->offset = fw_le32(d + AT(p4nic_image_section, offset));
		s->count = fw_le32(d + AT(p4nic_image_section, count));
		s->rec_size = fw_le32(d + AT(p4nic_image_section, rec_size));
		s->present = true;
		end = (uint64_t)s->offset + (uint64_t)s->count * s->rec_size;
		if (s->rec_size != sect_info[kind].rec_size ||
		    s->offset % 8 || s->offset < dir_end || end > l->len)
			return refuse(l, P4NIC_ST_INVALID,
				      P4NIC_F_IMG_SECTION, at);
		if (s->count > sect_info[kind].max_count)
			return refuse(l, P4NIC_ST_LIMIT,
				      P4NIC_F_IMG_SECTION,
				      at + AT(p4nic_image_section, count));
	}
	/* Sections must not overlap: each byte has one meaning. */
	for (i = 1; i <= P4NIC_SECT_MAX; i++) {
		const struct sect *a = &l->sect[i];

		for (j = i + 1; j <= P4NIC_SECT_MAX; j++) {
			const struct sect *b = &l->sect[j];
			uint64_t a_end = a->offset + (uint64_t)a->count *
					 a->rec_size;
			uint64_t b_end = b->offset + (uint64_t)b->count *
					 b->rec_size;

			if (!a->present || !b->present || !a->count ||
			    !b->count)
				continue;
			if (a->offset < b_end && b->offset < a_end)
				return refuse(l, P4NIC_ST_INVALID,
					      P4NIC_F_IMG_SECTION, b->offset);
		}
	}
	if (!l->sect[P4NIC_SECT_PIPELINE].present ||
	    l->sect[P4NIC_SECT_PIPELINE].count != 1)
		return refuse(l, P4NIC_ST_INVALID, P4NIC_F_IMG_PIPELINE, 12);
	return 0;
}

static bool width_ok(uint32_t bits)
{
	return bits >= 1 && bits <= 128;
}

static void *alloc_array(uint32_t n, size_t size)
{
	return calloc(n ? n : 1, size);
}

static int read_simple(struct loader *l)
{
	struct fw_pipeline *p = l->p;
	uint32_t i, j;

	p->num_consts = count(l, P4NIC_SECT_CONSTS);
	p->consts = alloc_array(p->num_consts, sizeof(*p->consts));
	p->num_fields = count(l, P4NIC_SECT_FIELDS);
	p->fields = alloc_array(p->num_fields, sizeof(*p->fields));
	p->num_meta = count(l, P4NIC_SECT_METADATA);
	p->meta = alloc_array(p->num_meta, sizeof(*p->meta));
	p->num_params = count(l, P4NIC_SECT_PARAMS);
	p->params = alloc_array(p->num_params, sizeof(*p->params));
	p->num_regs = count(l, P4NIC_SECT_REGISTERS);
	p->regs = alloc_array(p->num_regs, sizeof(*p->regs));
	p->num_keycomps = count(l, P4NIC_SECT_KEYCOMPS);
	p->keycomps = alloc_array(p->num_keycomps, sizeof(*p->keycomps));
	p->num_table_acts = count(l, P4NIC_SECT_TABLE_ACTS);
	p->table_acts = alloc_array(p->num_table_acts, sizeof(uint32_t));
	p->num_headers = count(l, P4NIC_SECT_HEADERS);
	p->headers = alloc_array(p->num_headers, sizeof(*p->headers));
	p->num_trans = count(l, P4NIC_SECT_TRANSITIONS);
	p->trans = alloc_array(p->num_trans, sizeof(*p->trans));
	p->num_actions = count(l, P4NIC_SECT_ACTIONS);
	p->actions = alloc_array(p->num_actions, sizeof(*p->actions));
	p->num_tables = count(l, P4NIC_SECT_TABLES);
	p->tables = alloc_array(p->num_tables, sizeof(*p->tables));
	p->num_insns = count(l, P4NIC_SECT_INSNS);
	p->insns = alloc_array(p->num_insns, sizeof(*p->insns));
	p->num_opnds = count(l, P4NIC_SECT_OPERANDS);
	p->opnds = alloc_array(p->num_opnds, sizeof(*p->opnds));
	if (!p->consts || !p->fields || !p->meta || !p->params || !p->regs ||
	    !p->keycomps || !p->table_acts || !p->headers || !p->trans ||
	    !p->actions || !p->tables || !p->insns || !p->opnds)
		return refuse(l, P4NIC_ST_NO_MEMORY, P4NIC_F_NONE, 0);

	for (i = 0; i < p->num_consts; i++)
		p->consts[i] = fw_le128(rec(l, P4NIC_SECT_CONSTS, i));
	for (i = 0; i < p->num_keycomps; i++)
		p->keycomps[i] = fw_le32(rec(l, P4NIC_SECT_KEYCOMPS, i));
	for (i = 0; i < p->num_table_acts; i++) {
		p->table_acts[i] = fw_le32(rec(l, P4NIC_SECT_TABLE_ACTS, i));
		if (p->table_acts[i] >= count(l, P4NIC_SECT_ACTIONS))
			return bad(l, P4NIC_SECT_TABLE_ACTS, i);
	}
	for (i = 0; i < p->num_params; i++) {
		const uint8_t *r = rec(l, P4NIC_SECT_PARAMS, i);

		p->params[i].bit_width =
			fw_le16(r + AT(p4nic_img_param, bit_width));
		p->params[i].flags = fw_le16(r + AT(p4nic_img_param, flags));
		if (!width_ok(p->params[i].bit_width) ||
		    p->params[i].flags & ~P4NIC_TYPE_SIGNED)
			return bad(l, P4NIC_SECT_PARAMS, i);
	}
	for (i = 0; i < p->num_meta; i++) {
		const uint8_t *r = rec(l, P4NIC_SECT_METADATA, i);
		struct fw_metadata *m = &p->meta[i];

		m->id = fw_le32(r + AT(p4nic_img_metadata, id));
		m->bit_width = fw_le16(r + AT(p4nic_img_metadata, bit_width));
		m->flags = fw_le16(r + AT(p4nic_img_metadata, flags));
		if (!width_ok(m->bit_width) || m->flags & ~P4NIC_TYPE_SIGNED)
			return bad(l, P4NIC_SECT_METADATA, i);
		for (j = 0; j < i; j++)
			if (p->meta[j].id == m->id)
				return bad(l, P4NIC_SECT_METADATA, i);
	}
	for (i = 0; i < p->num_regs; i++) {
		const uint8_t *r = rec(l, P4NIC_SECT_REGISTERS, i);
		struct fw_register *g = &p->regs[i];

		g->id = fw_le32(r + AT(p4nic_img_register, id));
		g->bit_width = fw_le16(r + AT(p4nic_img_register, bit_width));
		g->flags = fw_le16(r + AT(p4nic_img_register, flags));
		g->num_elems = fw_le32(r + AT(p4nic_img_register, num_elems));
		if (!width_ok(g->bit_width) || g->flags & ~P4NIC_TYPE_SIGNED ||
		    g->num_elems == 0)
			return bad(l, P4NIC_SECT_REGISTERS, i);
		if (g->num_elems > FW_MAX_REG_ELEMS)
			return refuse(l, P4NIC_ST_LIMIT, P4NIC_F_IMG_REGISTER,
				      rec_off(l, P4NIC_SECT_REGISTERS, i));
		for (j = 0; j < i; j++)
			if (p->regs[j].id == g->id)
				return bad(l, P4NIC_SECT_REGISTERS, i);
		g->cells = calloc(g->num_elems, sizeof(*g->cells));
		if (!g->cells)
			return refuse(l, P4NIC_ST_NO_MEMORY, P4NIC_F_NONE, 0);
	}
	for (i = 0; i < count(l, P4NIC_SECT_PORTS); i++) {
		const uint8_t *r = rec(l, P4NIC_SECT_PORTS, i);
		uint32_t port = fw_le32(r + AT(p4nic_img_port, port));

		if (port >= l->num_ports || p->ports[port].ifindex)
			return bad(l, P4NIC_SECT_PORTS, i);
		p->ports[port].ifindex =
			fw_le32(r + AT(p4nic_img_port, ifindex));
		if (!p->ports[port].ifindex)
			return bad(l, P4NIC_SECT_PORTS, i);
	}
	return 0;
}

static int read_parse_graph(struct loader *l)
{
	struct fw_pipeline *p = l->p;
	uint32_t i, j;

	for (i = 0; i < p->num_fields; i++) {
		const uint8_t *r = rec(l, P4NIC_SECT_FIELDS, i);
		struct fw_field *f = &p->fields[i];

		f->id = fw_le32(r + AT(p4nic_img_field, id));
		f->header = fw_le32(r + AT(p4nic_img_field, header));
		f->bit_offset = fw_le16(r + AT(p4nic_img_field, bit_offset));
		f->bit_width = fw_le16(r + AT(p4nic_img_field, bit_width));
		f->flags = fw_le32(r + AT(p4nic_img_field, flags));
		if (f->header >= p->num_headers || !width_ok(f->bit_width) ||
		    f->flags & ~P4NIC_TYPE_SIGNED)
			return bad(l, P4NIC_SECT_FIELDS, i);
		for (j = 0; j < i; j++)
			if (p->fields[j].id == f->id)
				return bad(l, P4NIC_SECT_FIELDS, i);
	}
	for (i = 0; i < p->num_trans; i++) {
		const uint8_t *r = rec(l, P4NIC_SECT_TRANSITIONS, i);

		p->trans[i].value =
			fw_le128(r + AT(p4nic_img_transition, value));
		p->trans[i].mask = fw_le128(r + AT(p4nic_img_transition, mask));
		p->trans[i].next = fw_le32(r + AT(p4nic_img_transition, next));
	}
	for (i = 0; i < p->num_headers; i++) {
		const uint8_t *r = rec(l, P4NIC_SECT_HEADERS, i);
		struct fw_header *h = &p->headers[i];

		h->id = fw_le32(r + AT(p4nic_img_header, id));
		h->fixed_len = fw_le16(r + AT(p4nic_img_header, fixed_len));
		h->max_len = fw_le16(r + AT(p4nic_img_header, max_len));
		h->len_field = fw_le32(r + AT(p4nic_img_header, len_field));
		h->len_mult = fw_le16(r + AT(p4nic_img_header, len_mult));
		h->len_add = fw_le16(r + AT(p4nic_img_header, len_add));
		h->sel_field = fw_le32(r + AT(p4nic_img_header, sel_field));
		h->trans = span_at(r + AT(p4nic_img_header, trans));
		h->default_next =
			fw_le32(r + AT(p4nic_img_header, default_next));
		for (j = 0; j < i; j++)
			if (p->headers[j].id == h->id)
				return bad(l, P4NIC_SECT_HEADERS, i);
		if (h->fixed_len == 0 || h->fixed_len > P4NIC_PKT_MAX)
			return bad(l, P4NIC_SECT_HEADERS, i);
		if (h->len_field == P4NIC_NONE) {
			if (h->max_len != h->fixed_len)
				return bad(l, P4NIC_SECT_HEADERS, i);
		} else {
			const struct fw_field *f;

			if (h->len_field >= p->num_fields ||
			    h->max_len < h->fixed_len ||
			    h->max_len > P4NIC_PKT_MAX || h->len_mult == 0)
				return bad(l, P4NIC_SECT_HEADERS, i);
			/* The length is read before the rest is known. */
			f = &p->fields[h->len_field];
			if (f->header != i || f->bit_width > 32)
				return bad(l, P4NIC_SECT_HEADERS, i);
		}
		if (h->sel_field != P4NIC_NONE &&
		    (h->sel_field >= p->num_fields ||
		     p->fields[h->sel_field].header > i))
			return bad(l, P4NIC_SECT_HEADERS, i);
		if (!span_ok(h->trans, p->num_trans, FW_MAX_TRANSITIONS) ||
		    (h->trans.count && h->sel_field == P4NIC_NONE))
			return bad(l, P4NIC_SECT_HEADERS, i);
		/* Only forward: a parse visits each header at most once. */
		if (h->default_next < P4NIC_PARSE_ACCEPT &&
		    (h->default_next <= i || h->default_next >= p->num_headers))
			return bad(l, P4NIC_SECT_HEADERS, i);
		for (j = 0; j < h->trans.count; j++) {
			uint32_t t = h->trans.first + j;
			const struct fw_transition *tr = &p->trans[t];
			u128 wmask = fw_mask(p->fields[h->sel_field].bit_width);

			if ((tr->next < P4NIC_PARSE_ACCEPT &&
			     (tr->next <= i || tr->next >= p->num_headers)) ||
			    tr->value & ~wmask || tr->mask & ~wmask)
				return bad(l, P4NIC_SECT_TRANSITIONS, t);
		}
	}
	/* Fields must lie in the part of their header that is always there. */
	for (i = 0; i < p->num_fields; i++) {
		const struct fw_field *f = &p->fields[i];

		if ((uint32_t)f->bit_offset + f->bit_width >
		    p->headers[f->header].fixed_len * 8u)
			return bad(l, P4NIC_SECT_FIELDS, i);
	}
	return 0;
}

static uint32_t kmeta_bits(uint32_t k)
{
	switch (k) {
	case P4NIC_KMETA_TCINDEX:
	case P4NIC_KMETA_SKBPROTO:
		return 16;
	case P4NIC_KMETA_DIRECTION:
		return 1;
	default:
		return 32;
	}
}

/*
 * Operands: kind, index and slice checked here; the container width must be
 * the object's own (a field's, a metadata's...) where the kind has one.
 * PARAM operands are checked against their action in check_prog().
 */
static int read_operands(struct loader *l)
{
	struct fw_pipeline *p = l->p;
	uint32_t i;

	for (i = 0; i < p->num_opnds; i++) {
		const uint8_t *r = rec(l, P4NIC_SECT_OPERANDS, i);
		struct fw_operand *o = &p->opnds[i];
		uint32_t want = 0, max_bits = 128;

		o->kind = r[AT(p4nic_img_operand, kind)];
		o->flags = r[AT(p4nic_img_operand, flags)];
		o->container_bits =
			fw_le16(r + AT(p4nic_img_operand, container_bits));
		o->bit_start = fw_le16(r + AT(p4nic_img_operand, bit_start));
		o->bit_end = fw_le16(r + AT(p4nic_img_operand, bit_end));
		o->index = fw_le32(r + AT(p4nic_img_operand, index));
		o->elem = fw_le32(r + AT(p4nic_img_operand, elem));
		if (o->flags & ~P4NIC_TYPE_SIGNED)
			return bad(l, P4NIC_SECT_OPERANDS, i);
		switch (o->kind) {
		case P4NIC_OPND_CONST:
			if (o->index >= p->num_consts)
				return bad(l, P4NIC_SECT_OPERANDS, i);
			break;
		case P4NIC_OPND_METADATA:
			if (o->index >= p->num_meta)
				return bad(l, P4NIC_SECT_OPERANDS, i);
			want = p->meta[o->index].bit_width;
			break;
		case P4NIC_OPND_KMETA:
			if (o->index == 0 || o->index > P4NIC_KMETA_MAX)
				return bad(l, P4NIC_SECT_OPERANDS, i);
			want = kmeta_bits(o->index);
			break;
		case P4NIC_OPND_FIELD:
			if (o->index >= p->num_fields)
				return bad(l, P4NIC_SECT_OPERANDS, i);
			want = p->fields[o->index].bit_width;
			break;
		case P4NIC_OPND_KEY:
			if (o->index >= count(l, P4NIC_SECT_TABLES))
				return bad(l, P4NIC_SECT_OPERANDS, i);
			max_bits = P4NIC_MAX_KEY_BYTES * 8;
			break;	/* width checked with the table */
		case P4NIC_OPND_PARAM:
			if (o->index >= P4NIC_MAX_PARAMS)
				return bad(l, P4NIC_SECT_OPERANDS, i);
			break;	/* checked in each action's program */
		case P4NIC_OPND_REGISTER:
			if (o->index >= p->num_regs ||
			    o->elem >= p->regs[o->index].num_elems)
				return bad(l, P4NIC_SECT_OPERANDS, i);
			want = p->regs[o->index].bit_width;
			break;
		case P4NIC_OPND_RESULT:
			if (o->index != P4NIC_RESULT_HIT &&
			    o->index != P4NIC_RESULT_MISS)
				return bad(l, P4NIC_SECT_OPERANDS, i);
			want = 1;
			break;
		case P4NIC_OPND_TABLE:
			if (o->index >= count(l, P4NIC_SECT_TABLES))
				return bad(l, P4NIC_SECT_OPERANDS, i);
			break;
		case P4NIC_OPND_ACTION:
			if (o->index >= p->num_actions)
				return bad(l, P4NIC_SECT_OPERANDS, i);
			break;
		case P4NIC_OPND_HEADER:
			if (o->index >= p->num_headers)
				return bad(l, P4NIC_SECT_OPERANDS, i);
			break;
		default:
			return bad(l, P4NIC_SECT_OPERANDS, i);
		}
		if (o->kind == P4NIC_OPND_TABLE || o->kind == P4NIC_OPND_ACTION ||
		    o->kind == P4NIC_OPND_HEADER)
			continue;	/* references, not values */
		if (o->container_bits == 0 || o->container_bits > max_bits ||
		    (want && o->container_bits != want) ||
		    o->bit_start > o->bit_end ||
		    o->bit_end >= o->container_bits ||
		    o->bit_end - o->bit_start >= 128)
			return bad(l, P4NIC_SECT_OPERANDS, i);
		if (o->kind == P4NIC_OPND_CONST &&
		    p->consts[o->index] & ~fw_mask(o->container_bits))
			return bad(l, P4NIC_SECT_OPERANDS, i);
		o->whole = o->bit_start == 0 &&
			   o->bit_end + 1u == o->container_bits;
		if (o->kind == P4NIC_OPND_FIELD) {
			o->header = (uint16_t)p->fields[o->index].header;
			o->hdr_bit = p->fields[o->index].bit_offset;
		}
	}
	return 0;
}

static bool is_value(const struct fw_operand *o)
{
	return o->kind != P4NIC_OPND_TABLE && o->kind != P4NIC_OPND_ACTION &&
	       o->kind != P4NIC_OPND_HEADER;
}

static bool is_writable(const struct fw_operand *o)
{
	switch (o->kind) {
	case P4NIC_OPND_METADATA:
	case P4NIC_OPND_FIELD:
	case P4NIC_OPND_KEY:
	case P4NIC_OPND_REGISTER:
		return true;
	case P4NIC_OPND_KMETA:
		return o->index == P4NIC_KMETA_SKBMARK ||
		       o->index == P4NIC_KMETA_TCINDEX ||
		       o->index == P4NIC_KMETA_SKBPRIO;
	default:
		return false;
	}
}

static int read_actions(struct loader *l)
{
	struct fw_pipeline *p = l->p;
	uint32_t i, j;

	for (i = 0; i < p->num_actions; i++) {
		const uint8_t *r = rec(l, P4NIC_SECT_ACTIONS, i);
		struct fw_action *a = &p->actions[i];

		a->id = fw_le32(r + AT(p4nic_img_action, id));
		a->params = span_at(r + AT(p4nic_img_action, params));
		a->prog = span_at(r + AT(p4nic_img_action, prog));
		if (a->id == 0 ||
		    !span_ok(a->params, p->num_params, P4NIC_MAX_PARAMS) ||
		    !span_ok(a->prog, p->num_insns, FW_MAX_INSNS))
			return bad(l, P4NIC_SECT_ACTIONS, i);
		for (j = 0; j < i; j++)
			if (p->actions[j].id == a->id)
				return bad(l, P4NIC_SECT_ACTIONS, i);
	}
	return 0;
}

static int read_actref(struct loader *l, const uint8_t *r,
		       struct fw_actref *ref, uint32_t tidx)
{
	struct fw_pipeline *p = l->p;
	struct fw_span args = span_at(r + AT(p4nic_img_actref, args));
	const struct fw_action *a;
	uint32_t i;

	ref->action = fw_le32(r + AT(p4nic_img_actref, action));
	if (ref->action == P4NIC_NONE) {
		if (args.count)
			return bad(l, P4NIC_SECT_TABLES, tidx);
		return 0;
	}
	if (ref->action >= p->num_actions ||
	    !span_ok(args, p->num_opnds, P4NIC_MAX_PARAMS))
		return bad(l, P4NIC_SECT_TABLES, tidx);
	a = &p->actions[ref->action];
	if (args.count != a->params.count)
		return bad(l, P4NIC_SECT_TABLES, tidx);
	ref->nargs = args.count;
	for (i = 0; i < args.count; i++) {
		const struct fw_operand *o = &p->opnds[args.first + i];
		const struct fw_metadata *prm = &p->params[a->params.first + i];
		u128 v;

		if (o->kind != P4NIC_OPND_CONST)
			return bad(l, P4NIC_SECT_OPERANDS, args.first + i);
		v = p->consts[o->index] >> o->bit_start &
		    fw_mask(opnd_width(o));
		if (v & ~fw_mask(prm->bit_width))
			return bad(l, P4NIC_SECT_OPERANDS, args.first + i);
		ref->args[i] = v;
	}
	return 0;
}

static int read_tables(struct loader *l)
{
	struct fw_pipeline *p = l->p;
	uint64_t total = 0;
	uint32_t i, j;

	for (i = 0; i < p->num_tables; i++) {
		const uint8_t *r = rec(l, P4NIC_SECT_TABLES, i);
		struct fw_table *t = &p->tables[i];
		uint32_t bits = 0;
		uint64_t seed;
		int err;

		t->id = fw_le32(r + AT(p4nic_img_table, id));
		t->type = fw_le32(r + AT(p4nic_img_table, type));
		t->key_bits = fw_le32(r + AT(p4nic_img_table, key_bits));
		t->max_entries = fw_le32(r + AT(p4nic_img_table, max_entries));
		t->max_masks = fw_le32(r + AT(p4nic_img_table, max_masks));
		t->miss_mode = fw_le32(r + AT(p4nic_img_table, miss_mode));
		t->key = span_at(r + AT(p4nic_img_table, key));
		t->acts = span_at(r + AT(p4nic_img_table, acts));
		t->pre = span_at(r + AT(p4nic_img_table, pre));
		t->post = span_at(r + AT(p4nic_img_table, post));
		for (j = 0; j < i; j++)
			if (p->tables[j].id == t->id)
				return bad(l, P4NIC_SECT_TABLES, i);
		if (t->type < P4NIC_TABLE_EXACT ||
		    t->type > P4NIC_TABLE_TERNARY || t->key_bits == 0 ||
		    t->key_bits > P4NIC_MAX_KEY_BYTES * 8 ||
		    t->max_entries == 0 || t->miss_mode > P4NIC_LOOKUP_TO_HOST ||
		    (t->type == P4NIC_TABLE_TERNARY && t->max_masks == 0) ||
		    !span_ok(t->key, p->num_keycomps, P4NIC_MAX_KEY_BYTES * 8) ||
		    t->key.count == 0 ||
		    !span_ok(t->acts, p->num_table_acts, FW_MAX_ACTIONS) ||
		    !span_ok(t->pre, p->num_insns, FW_MAX_INSNS) ||
		    !span_ok(t->post, p->num_insns, FW_MAX_INSNS))
			return bad(l, P4NIC_SECT_TABLES, i);
		total += t->max_entries;
		if (t->max_entries > FW_MAX_ENTRIES_TABLE ||
		    total > FW_MAX_ENTRIES_TOTAL ||
		    (t->type == P4NIC_TABLE_TERNARY &&
		     t->max_masks > P4FW_TERNARY_MAX_MASKS))
			return refuse(l, P4NIC_ST_LIMIT, P4NIC_F_IMG_TABLE,
				      rec_off(l, P4NIC_SECT_TABLES, i));
		t->key_bytes = (t->key_bits + 7) / 8;
		for (j = 0; j < t->key.count; j++) {
			uint32_t k = t->key.first + j;
			const struct fw_operand *o;

			if (p->keycomps[k] >= p->num_opnds)
				return bad(l, P4NIC_SECT_KEYCOMPS, k);
			o = &p->opnds[p->keycomps[k]];
			if (!is_value(o) || o->kind == P4NIC_OPND_PARAM ||
			    o->kind == P4NIC_OPND_KEY)
				return bad(l, P4NIC_SECT_KEYCOMPS, k);
			bits += opnd_width(o);
		}
		if (bits != t->key_bits)
			return bad(l, P4NIC_SECT_TABLES, i);
		if (read_actref(l, r + AT(p4nic_img_table, default_hit),
				&t->dflt[P4NIC_DEFAULT_HIT], i) ||
		    read_actref(l, r + AT(p4nic_img_table, default_miss),
				&t->dflt[P4NIC_DEFAULT_MISS], i))
			return -EINVAL;

		t->entries = fw_big_zalloc((size_t)t->max_entries *
					   sizeof(*t->entries));
		t->keys = fw_big_zalloc((size_t)t->max_entries * 2 *
					t->key_bytes);
		/*
		 * One seed per table, none a guest can predict.  (Not
		 * hash64(seed ^ x, seed): the seed cancels out of that.)
		 */
		seed = p4fw_hash64((i + 1) * 0x9e3779b97f4a7c15ull, l->seed);
		switch (t->type) {
		case P4NIC_TABLE_EXACT:
			t->exact = p4fw_exact_create(t->key_bytes,
						     t->max_entries, seed, &err);
			break;
		case P4NIC_TABLE_LPM:
			t->lpm = p4fw_lpm_create(t->key_bits, t->max_entries,
						 seed, &err);
			break;
		default:
			t->ternary = p4fw_ternary_create(t->key_bytes,
							 t->max_entries,
							 t->max_masks, seed,
							 &err);
			break;
		}
		if (!t->entries || !t->keys || !t->exact)
			return refuse(l, P4NIC_ST_NO_MEMORY, P4NIC_F_IMG_TABLE,
				      rec_off(l, P4NIC_SECT_TABLES, i));
	}
	/* KEY operands name a table: their container is its key. */
	for (i = 0; i < p->num_opnds; i++) {
		const struct fw_operand *o = &p->opnds[i];

		if (o->kind == P4NIC_OPND_KEY &&
		    o->container_bits != p->tables[o->index].key_bits)
			return bad(l, P4NIC_SECT_OPERANDS, i);
	}
	return 0;
}

static bool ctl_ok(uint8_t ctl, uint16_t arg, uint32_t pos, uint32_t len)
{
	switch (ctl) {
	case P4NIC_CTL_PIPE:
		return arg == 0;
	case P4NIC_CTL_JUMP:
		return arg >= 1 && pos + arg <= len;
	case P4NIC_CTL_VERDICT:
		return true;
	default:
		return false;
	}
}

/*
 * Check one program in its context: NPARAMS/PARAMS describe the action it
 * belongs to (none for table and pipeline programs).
 */
static int check_prog(struct loader *l, struct fw_span prog,
		      const struct fw_action *owner)
{
	struct fw_pipeline *p = l->p;
	uint32_t pc;

	for (pc = 0; pc < prog.count; pc++) {
		uint32_t n = prog.first + pc;
		const struct fw_insn *in = &p->insns[n];
		const struct fw_operand *o = &p->opnds[in->opnds.first];
		uint32_t k, nops = in->opnds.count, sum = 0;
		bool branch = in->op >= P4NIC_OP_BEQ && in->op <= P4NIC_OP_BGE;

		if (branch) {
			if (!ctl_ok(in->then_ctl, in->then_arg, pc, prog.count) ||
			    !ctl_ok(in->else_ctl, in->else_arg, pc, prog.count))
				return bad(l, P4NIC_SECT_INSNS, n);
		} else if (in->op == P4NIC_OP_RET) {
			/* ret ends the action, with a verdict if it names one */
			if ((in->then_ctl != P4NIC_CTL_PIPE &&
			     in->then_ctl != P4NIC_CTL_VERDICT) ||
			    !ctl_ok(in->then_ctl, in->then_arg, pc, prog.count) ||
			    in->else_ctl || in->else_arg)
				return bad(l, P4NIC_SECT_INSNS, n);
		} else if (in->op == P4NIC_OP_JUMP) {
			if (in->then_ctl != P4NIC_CTL_JUMP ||
			    !ctl_ok(in->then_ctl, in->then_arg, pc, prog.count) ||
			    in->else_ctl || in->else_arg)
				return bad(l, P4NIC_SECT_INSNS, n);
		} else if (in->then_ctl || in->then_arg || in->else_ctl ||
			   in->else_arg) {
			return bad(l, P4NIC_SECT_INSNS, n);
		}
		/* Parameters only exist inside the action that owns them. */
		for (k = 0; k < nops; k++) {
			const struct fw_operand *x = &o[k];

			if (x->kind != P4NIC_OPND_PARAM)
				continue;
			if (!owner || x->index >= owner->params.count ||
			    x->container_bits !=
			    p->params[owner->params.first + x->index].bit_width)
				return bad(l, P4NIC_SECT_OPERANDS,
					   in->opnds.first + k);
		}
		switch (in->op) {
		case P4NIC_OP_SET:
			if (nops != 2 || !is_writable(&o[0]) ||
			    !is_value(&o[1]) ||
			    opnd_width(&o[1]) > opnd_width(&o[0]))
				return bad(l, P4NIC_SECT_INSNS, n);
			break;
		case P4NIC_OP_ACT: {
			const struct fw_action *a;

			if (nops < 1 || o[0].kind != P4NIC_OPND_ACTION)
				return bad(l, P4NIC_SECT_INSNS, n);
			a = &p->actions[o[0].index];
			if (nops - 1 != a->params.count)
				return bad(l, P4NIC_SECT_INSNS, n);
			for (k = 1; k < nops; k++)
				if (!is_value(&o[k]) || opnd_width(&o[k]) >
				    p->params[a->params.first + k - 1].bit_width)
					return bad(l, P4NIC_SECT_INSNS, n);
			break;
		}
		case P4NIC_OP_BEQ: case P4NIC_OP_BNE: case P4NIC_OP_BLT:
		case P4NIC_OP_BLE: case P4NIC_OP_BGT: case P4NIC_OP_BGE:
			if (nops != 2 || !is_value(&o[0]) || !is_value(&o[1]))
				return bad(l, P4NIC_SECT_INSNS, n);
			break;
		case P4NIC_OP_PLUS: case P4NIC_OP_SUB: case P4NIC_OP_BAND:
		case P4NIC_OP_BOR: case P4NIC_OP_BXOR:
			if (nops != 3 || !is_writable(&o[0]) ||
			    !is_value(&o[1]) || !is_value(&o[2]) ||
			    opnd_width(&o[1]) > opnd_width(&o[0]) ||
			    opnd_width(&o[2]) > opnd_width(&o[0]))
				return bad(l, P4NIC_SECT_INSNS, n);
			break;
		case P4NIC_OP_PRINT:
			if (nops < 1)
				return bad(l, P4NIC_SECT_INSNS, n);
			for (k = 0; k < nops; k++)
				if (!is_value(&o[k]))
					return bad(l, P4NIC_SECT_INSNS, n);
			break;
		case P4NIC_OP_TABLEAPPLY:
			if (nops != 1 || o[0].kind != P4NIC_OPND_TABLE)
				return bad(l, P4NIC_SECT_INSNS, n);
			break;
		case P4NIC_OP_SEND_PORT_EGRESS:
		case P4NIC_OP_MIRROR_PORT_EGRESS:
			if (nops != 1 || !is_value(&o[0]) ||
			    opnd_width(&o[0]) > 32)
				return bad(l, P4NIC_SECT_INSNS, n);
			break;
		case P4NIC_OP_CONCAT:
			if (nops < 3 || nops > P4NIC_MAX_OPERANDS ||
			    !is_writable(&o[0]))
				return bad(l, P4NIC_SECT_INSNS, n);
			for (k = 1; k < nops; k++) {
				if (!is_value(&o[k]))
					return bad(l, P4NIC_SECT_INSNS, n);
				sum += opnd_width(&o[k]);
			}
			if (sum > opnd_width(&o[0]))
				return bad(l, P4NIC_SECT_INSNS, n);
			break;
		case P4NIC_OP_LABEL:
		case P4NIC_OP_JUMP:
		case P4NIC_OP_RET:
			if (nops)
				return bad(l, P4NIC_SECT_INSNS, n);
			break;
		case P4NIC_OP_SETVALID:
		case P4NIC_OP_SETINVALID:
			/*
			 * 1.2 images only; the start header is always there,
			 * not a target.
			 */
			if (fw_le16(l->img +
				    AT(p4nic_image_hdr, version_minor)) < 2 ||
			    nops != 1 ||
			    o[0].kind != P4NIC_OPND_HEADER ||
			    o[0].index == p->start_header)
				return bad(l, P4NIC_SECT_INSNS, n);
			break;
		default:
			return bad(l, P4NIC_SECT_INSNS, n);
		}
	}
	return 0;
}

static int read_insns(struct loader *l)
{
	struct fw_pipeline *p = l->p;
	uint32_t i;

	for (i = 0; i < p->num_insns; i++) {
		const uint8_t *r = rec(l, P4NIC_SECT_INSNS, i);
		struct fw_insn *in = &p->insns[i];

		in->op = r[AT(p4nic_img_insn, op)];
		in->then_ctl = r[AT(p4nic_img_insn, then_ctl)];
		in->else_ctl = r[AT(p4nic_img_insn, else_ctl)];
		in->then_arg = fw_le16(r + AT(p4nic_img_insn, then_arg));
		in->else_arg = fw_le16(r + AT(p4nic_img_insn, else_arg));
		in->opnds = span_at(r + AT(p4nic_img_insn, operands));
		if (in->op == 0 || in->op > P4NIC_OP_MAX ||
		    r[AT(p4nic_img_insn, rsvd)] ||
		    !span_ok(in->opnds, p->num_opnds, P4NIC_MAX_OPERANDS))
			return bad(l, P4NIC_SECT_INSNS, i);
	}
	return 0;
}

/*
 * Nodes of the call graph: actions 0..A-1, tables A..A+T-1.  An image
 * whose programs can reach themselves is refused: hardware runs each
 * packet in bounded time.
 */
static int visit_prog(struct loader *l, struct fw_span prog);

static int visit_node(struct loader *l, uint32_t node)
{
	struct fw_pipeline *p = l->p;
	int err = 0;
	uint32_t i;

	if (l->visit[node] == 2)
		return 0;
	if (l->visit[node] == 1)
		return node < p->num_actions ?
		       bad(l, P4NIC_SECT_ACTIONS, node) :
		       bad(l, P4NIC_SECT_TABLES, node - p->num_actions);
	l->visit[node] = 1;
	if (node < p->num_actions) {
		err = visit_prog(l, p->actions[node].prog);
	} else {
		const struct fw_table *t = &p->tables[node - p->num_actions];

		err = visit_prog(l, t->pre);
		if (!err)
			err = visit_prog(l, t->post);
		for (i = 0; !err && i < 2; i++)
			if (t->dflt[i].action != P4NIC_NONE)
				err = visit_node(l, t->dflt[i].action);
		/* No list of allowed actions: any action may be installed. */
		for (i = 0; !err && i < (t->acts.count ? t->acts.count :
					 p->num_actions); i++)
			err = visit_node(l, t->acts.count ?
					 p->table_acts[t->acts.first + i] : i);
	}
	l->visit[node] = 2;
	return err;
}

static int visit_prog(struct loader *l, struct fw_span prog)
{
	struct fw_pipeline *p = l->p;
	uint32_t i;
	int err;

	for (i = 0; i < prog.count; i++) {
		const struct fw_insn *in = &p->insns[prog.first + i];
		const struct fw_operand *o = &p->opnds[in->opnds.first];

		if (in->op == P4NIC_OP_ACT)
			err = visit_node(l, o->index);
		else if (in->op == P4NIC_OP_TABLEAPPLY)
			err = visit_node(l, p->num_actions + o->index);
		else
			err = 0;
		if (err)
			return err;
	}
	return 0;
}

static int check_programs(struct loader *l)
{
	struct fw_pipeline *p = l->p;
	const uint8_t *r = rec(l, P4NIC_SECT_PIPELINE, 0);
	uint32_t i;
	int err;

	p->pipeid = fw_le32(r + AT(p4nic_img_pipeline, pipeid));
	p->start_header = fw_le32(r + AT(p4nic_img_pipeline, start_header));
	p->prog = span_at(r + AT(p4nic_img_pipeline, prog));
	if (p->pipeid == 0 ||
	    (p->start_header != P4NIC_NONE &&
	     p->start_header >= p->num_headers) ||
	    !span_ok(p->prog, p->num_insns, 2 * FW_MAX_INSNS))
		return bad(l, P4NIC_SECT_PIPELINE, 0);
	for (i = 0; i < 4; i++)
		if (fw_le32(r + AT_I(p4nic_img_pipeline, rsvd, i)))
			return bad(l, P4NIC_SECT_PIPELINE, 0);
	err = check_prog(l, p->prog, NULL);
	for (i = 0; !err && i < p->num_actions; i++)
		err = check_prog(l, p->actions[i].prog, &p->actions[i]);
	for (i = 0; !err && i < p->num_tables; i++) {
		err = check_prog(l, p->tables[i].pre, NULL);
		if (!err)
			err = check_prog(l, p->tables[i].post, NULL);
	}
	if (err)
		return err;
	l->visit = calloc(p->num_actions + p->num_tables + 1, 1);
	if (!l->visit)
		return refuse(l, P4NIC_ST_NO_MEMORY, P4NIC_F_NONE, 0);
	return visit_prog(l, p->prog);
}

void fw_pipeline_free(struct fw_pipeline *p)
{
	uint32_t i;

	if (!p)
		return;
	for (i = 0; p->tables && i < p->num_tables; i++) {
		struct fw_table *t = &p->tables[i];

		fw_big_free(t->entries, (size_t)t->max_entries *
			    sizeof(*t->entries));
		fw_big_free(t->keys, (size_t)t->max_entries * 2 * t->key_bytes);
		if (t->type == P4NIC_TABLE_EXACT)
			p4fw_exact_destroy(t->exact);
		else if (t->type == P4NIC_TABLE_LPM)
			p4fw_lpm_destroy(t->lpm);
		else if (t->type == P4NIC_TABLE_TERNARY)
			p4fw_ternary_destroy(t->ternary);
	}
	for (i = 0; p->regs && i < p->num_regs; i++)
		free(p->regs[i].cells);
	free(p->headers);
	free(p->trans);
	free(p->fields);
	free(p->meta);
	free(p->actions);
	free(p->params);
	free(p->tables);
	free(p->keycomps);
	free(p->table_acts);
	free(p->regs);
	free(p->insns);
	free(p->opnds);
	free(p->consts);
	free(p);
}

/**
 * fw_pipeline_load() - validate an image and build its pipeline
 * @img: the image bytes, untrusted
 * @len: their count
 * @num_ports: ports of the device, for PORT operands and the port map
 * @seed: a secret random value; the tables' hash seeds derive from it
 * @out: the pipeline, on success
 * @err: on failure, the status, the field and the byte offset refused
 *
 * Return: 0, or -EINVAL with @err filled (nothing is left allocated).
 */
int fw_pipeline_load(const uint8_t *img, uint32_t len, uint32_t num_ports,
		     uint64_t seed, struct fw_pipeline **out,
		     struct fw_error *err)
{
	struct loader l = { .img = img, .len = len, .num_ports = num_ports,
			    .seed = seed, .err = err };
	int ret;

	*out = NULL;
	*err = (struct fw_error){ 0 };
	if (len > P4NIC_IMAGE_MAX_BYTES)
		return refuse(&l, P4NIC_ST_LIMIT, P4NIC_F_IMG_LEN, 8);
	ret = read_directory(&l);
	if (ret)
		return ret;
	l.p = calloc(1, sizeof(*l.p));
	if (!l.p)
		return refuse(&l, P4NIC_ST_NO_MEMORY, P4NIC_F_NONE, 0);
	ret = read_simple(&l);
	if (!ret)
		ret = read_parse_graph(&l);
	if (!ret)
		ret = read_actions(&l);
	if (!ret)
		ret = read_operands(&l);
	if (!ret)
		ret = read_insns(&l);
	if (!ret)
		ret = read_tables(&l);
	if (!ret)
		ret = check_programs(&l);
	free(l.visit);
	if (ret) {
		fw_pipeline_free(l.p);
		return ret;
	}
	*out = l.p;
	return 0;
}
