// SPDX-License-Identifier: GPL-2.0
/*
 * p4nic: P4TC's description of a pipeline, translated into the device's
 * pipeline image (offload-api/SPEC.md, "Pipeline image").
 *
 * The description and the image hold the same records; the translation
 * changes byte order, turns a table key's operand list into KEYCOMPS,
 * absolute jump targets into forward distances, and adds the PORTS map.
 * Before writing anything it checks the description against what the
 * device said it can do (IDENTIFY), so that a pipeline the device would
 * refuse is refused here, with a message that names what is over.
 */

#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <net/p4tc_offload.h>
#include <uapi/linux/p4tc.h>

#include "p4nic.h"

#define P4NIC_IMG_SECTIONS	P4NIC_SECT_MAX

struct img_writer {
	u8 *buf;
	u32 len;
	u32 at[P4NIC_IMG_SECTIONS + 1];	/* section offsets */
	u16 minor;			/* the image's ABI minor version */
	struct netlink_ext_ack *extack;
};

static void *rec(struct img_writer *w, u32 kind, u32 i, size_t size)
{
	return w->buf + w->at[kind] + i * size;
}

static struct p4nic_img_span span(struct p4tc_off_span s)
{
	return (struct p4nic_img_span){ cpu_to_le32(s.first),
					cpu_to_le32(s.count) };
}

static __le32 idx(u32 i)
{
	return cpu_to_le32(i);	/* P4TC_OFF_NONE is P4NIC_NONE */
}

/* ------------------------------------------------------------------ */
/* What the device can do                                              */
/* ------------------------------------------------------------------ */

/* Whether @have is over the device's @max of @what (and say so). */
static bool over(struct img_writer *w, const char *what, u64 have, u32 max)
{
	if (have <= max)
		return false;
	NL_SET_ERR_MSG_FMT(w->extack,
			   "p4nic: %s: %llu, the device takes at most %u",
			   what, have, max);
	return true;
}

static int check_caps(struct p4nic *nic, const struct p4tc_off_pipeline *d,
		      struct img_writer *w)
{
	const struct p4nic_identity *id = &nic->identity;
	u64 entries = 0;
	u32 i;

	if (over(w, "tables", d->num_tables, le32_to_cpu(id->max_tables)) ||
	    over(w, "actions", d->num_actions, le32_to_cpu(id->max_actions)) ||
	    over(w, "headers", d->num_headers, le32_to_cpu(id->max_headers)) ||
	    over(w, "header fields", d->num_fields,
		 le32_to_cpu(id->max_fields)) ||
	    over(w, "metadata", d->num_meta, le32_to_cpu(id->max_metadata)) ||
	    over(w, "registers", d->num_registers,
		 le32_to_cpu(id->max_registers)))
		return -EOPNOTSUPP;
	for (i = 0; i < d->num_registers; i++)
		if (over(w, "register cells", d->registers[i].num_elems,
			 le32_to_cpu(id->max_register_elems)))
			return -EOPNOTSUPP;
	for (i = 0; i < d->num_actions; i++) {
		const struct p4tc_off_action *a = &d->actions[i];

		if (over(w, "action parameters", a->params.count,
			 le32_to_cpu(id->max_params)) ||
		    over(w, "commands in an action", a->prog.count,
			 le32_to_cpu(id->max_insns_per_action)))
			return -EOPNOTSUPP;
	}
	for (i = 0; i < d->num_insns; i++) {
		u8 op = d->insns[i].op;

		if (over(w, "operands of a command",
			 d->insns[i].operands.count,
			 le32_to_cpu(id->max_operands_per_insn)))
			return -EOPNOTSUPP;
		/* images are 1.0 unless they use what 1.2 added */
		if (op != P4NIC_OP_SETVALID && op != P4NIC_OP_SETINVALID)
			continue;
		if (le16_to_cpu(id->abi_minor) < 2) {
			NL_SET_ERR_MSG_FMT(w->extack,
					   "p4nic: setvalid and setinvalid need device ABI 1.2, the device has 1.%u",
					   le16_to_cpu(id->abi_minor));
			return -EOPNOTSUPP;
		}
		w->minor = 2;
	}
	for (i = 0; i < d->num_tables; i++) {
		const struct p4tc_off_table *t = &d->tables[i];

		if (!(le32_to_cpu(id->table_types) & BIT(t->type))) {
			NL_SET_ERR_MSG_FMT(w->extack,
					   "p4nic: table %s: the device has no tables of type %u",
					       t->name, t->type);
			return -EOPNOTSUPP;
		}
		if (over(w, "bits of a table key", t->key_bits,
			 le32_to_cpu(id->max_key_bits)) ||
		    over(w, "entries of a table", t->max_entries,
			 le32_to_cpu(id->max_entries_per_table)) ||
		    (t->type == P4TC_OFF_TABLE_TERNARY &&
		     over(w, "masks of a ternary table", t->max_masks,
			  le32_to_cpu(id->max_masks))))
			return -EOPNOTSUPP;
		entries += t->max_entries;
	}
	if (over(w, "table entries in all", entries,
		 le32_to_cpu(id->max_entries_total)))
		return -EOPNOTSUPP;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Records                                                             */
/* ------------------------------------------------------------------ */

static const u8 kmeta_map[P4TC_KERNEL_META_MAX + 1] = {
	[P4TC_KERNEL_META_PKTLEN] = P4NIC_KMETA_PKTLEN,
	[P4TC_KERNEL_META_DATALEN] = P4NIC_KMETA_DATALEN,
	[P4TC_KERNEL_META_SKBMARK] = P4NIC_KMETA_SKBMARK,
	[P4TC_KERNEL_META_TCINDEX] = P4NIC_KMETA_TCINDEX,
	[P4TC_KERNEL_META_SKBPRIO] = P4NIC_KMETA_SKBPRIO,
	[P4TC_KERNEL_META_IFINDEX] = P4NIC_KMETA_IFINDEX,
	[P4TC_KERNEL_META_SKBIIF] = P4NIC_KMETA_IIF,
	[P4TC_KERNEL_META_PROTOCOL] = P4NIC_KMETA_SKBPROTO,
	[P4TC_KERNEL_META_DIRECTION] = P4NIC_KMETA_DIRECTION,
};

static const u8 opnd_map[] = {
	[P4TC_OFF_OPND_CONST] = P4NIC_OPND_CONST,
	[P4TC_OFF_OPND_META] = P4NIC_OPND_METADATA,
	[P4TC_OFF_OPND_KMETA] = P4NIC_OPND_KMETA,
	[P4TC_OFF_OPND_FIELD] = P4NIC_OPND_FIELD,
	[P4TC_OFF_OPND_KEY] = P4NIC_OPND_KEY,
	[P4TC_OFF_OPND_PARAM] = P4NIC_OPND_PARAM,
	[P4TC_OFF_OPND_REGISTER] = P4NIC_OPND_REGISTER,
	[P4TC_OFF_OPND_RESULT] = P4NIC_OPND_RESULT,
	[P4TC_OFF_OPND_TABLE] = P4NIC_OPND_TABLE,
	[P4TC_OFF_OPND_ACTION] = P4NIC_OPND_ACTION,
	[P4TC_OFF_OPND_HEADER] = P4NIC_OPND_HEADER,
};

static int write_operand(struct img_writer *w,
			 const struct p4tc_off_operand *o, u32 i)
{
	struct p4nic_img_operand *r = rec(w, P4NIC_SECT_OPERANDS, i,
					  sizeof(*r));
	u32 index = o->index;

	if (o->kind >= ARRAY_SIZE(opnd_map) || !opnd_map[o->kind])
		goto unsupported;
	if (o->kind == P4TC_OFF_OPND_KMETA) {
		if (index > P4TC_KERNEL_META_MAX || !kmeta_map[index]) {
			NL_SET_ERR_MSG_FMT(w->extack,
					   "p4nic: kernel metadata %u is not known to the device",
					       index);
			return -EOPNOTSUPP;
		}
		index = kmeta_map[index];
	} else if (o->kind == P4TC_OFF_OPND_RESULT) {
		index = index ? P4NIC_RESULT_HIT : P4NIC_RESULT_MISS;
	}
	r->kind = opnd_map[o->kind];
	r->flags = o->is_signed ? P4NIC_TYPE_SIGNED : 0;
	r->container_bits = cpu_to_le16(o->container_bits);
	r->bit_start = cpu_to_le16(o->bit_start);
	r->bit_end = cpu_to_le16(o->bit_end);
	r->index = cpu_to_le32(index);
	r->elem = cpu_to_le32(o->elem);
	return 0;

unsupported:
	NL_SET_ERR_MSG_FMT(w->extack,
			   "p4nic: operand kind %u is not known to the device",
			       o->kind);
	return -EOPNOTSUPP;
}

/* A control: jumps become forward distances from command @pc. */
static int write_ctl(struct img_writer *w, u8 ctl, u32 arg, u32 pc,
		     u8 *rctl, __le16 *rarg)
{
	switch (ctl) {
	case P4TC_OFF_CTL_PIPE:
		*rctl = P4NIC_CTL_PIPE;
		*rarg = 0;
		return 0;
	case P4TC_OFF_CTL_JUMP:
		if (arg <= pc || arg - pc > U16_MAX)
			break;
		*rctl = P4NIC_CTL_JUMP;
		*rarg = cpu_to_le16(arg - pc);
		return 0;
	case P4TC_OFF_CTL_VERDICT:
		if (arg > U16_MAX)
			break;
		*rctl = P4NIC_CTL_VERDICT;
		*rarg = cpu_to_le16(arg);
		return 0;
	}
	NL_SET_ERR_MSG(w->extack, "p4nic: a command's control has no device form");
	return -EOPNOTSUPP;
}

/* The commands of one program (@s): their index inside it counts jumps. */
static int write_prog(struct img_writer *w, const struct p4tc_off_pipeline *d,
		      struct p4tc_off_span s)
{
	u32 i;
	int err;

	for (i = 0; i < s.count; i++) {
		const struct p4tc_off_insn *in = &d->insns[s.first + i];
		struct p4nic_img_insn *r = rec(w, P4NIC_SECT_INSNS,
					       s.first + i, sizeof(*r));

		/* P4TC_CMD_OP_* and P4NIC_OP_* are numbered alike */
		if (in->op < P4NIC_OP_SET || in->op > P4NIC_OP_MAX) {
			NL_SET_ERR_MSG_FMT(w->extack,
					   "p4nic: command %u is not known to the device",
					       in->op);
			return -EOPNOTSUPP;
		}
		r->op = in->op;
		err = write_ctl(w, in->then_ctl, in->then_arg, i,
				&r->then_ctl, &r->then_arg);
		if (!err)
			err = write_ctl(w, in->else_ctl, in->else_arg, i,
					&r->else_ctl, &r->else_arg);
		if (err)
			return err;
		r->operands = span(in->operands);
	}
	return 0;
}

static void write_actref(struct p4nic_img_actref *r,
			 const struct p4tc_off_actref *ref)
{
	r->action = idx(ref->action);
	r->args = span(ref->args);
}

static int write_tables(struct img_writer *w,
			const struct p4tc_off_pipeline *d)
{
	u32 i, k;
	int err;

	for (i = 0; i < d->num_tables; i++) {
		const struct p4tc_off_table *t = &d->tables[i];
		struct p4nic_img_table *r = rec(w, P4NIC_SECT_TABLES, i,
						sizeof(*r));

		if (t->default_hit.verdict != TC_ACT_PIPE ||
		    t->default_miss.verdict != TC_ACT_PIPE) {
			NL_SET_ERR_MSG_FMT(w->extack,
					   "p4nic: table %s: a default action with a verdict of its own is not supported",
					       t->name);
			return -EOPNOTSUPP;
		}
		r->id = cpu_to_le32(t->id);
		r->type = cpu_to_le32(t->type);
		r->key_bits = cpu_to_le32(t->key_bits);
		r->max_entries = cpu_to_le32(t->max_entries);
		r->max_masks = cpu_to_le32(t->type == P4TC_OFF_TABLE_TERNARY ?
					   t->max_masks : 0);
		/* the entries are not here yet: the host decides lookups
		 * until P4TC has sent them and the table's mode
		 */
		r->miss_mode = cpu_to_le32(P4NIC_LOOKUP_TO_HOST);
		r->key = span(t->key);
		for (k = 0; k < t->key.count; k++) {
			__le32 *kc = rec(w, P4NIC_SECT_KEYCOMPS,
					 t->key.first + k, sizeof(*kc));

			/* the key's operands are KEYCOMPS in the same order */
			*kc = cpu_to_le32(t->key.first + k);
		}
		r->acts = span(t->acts);
		r->pre = span(t->pre);
		r->post = span(t->post);
		write_actref(&r->default_hit, &t->default_hit);
		write_actref(&r->default_miss, &t->default_miss);
		err = write_prog(w, d, t->pre);
		if (!err)
			err = write_prog(w, d, t->post);
		if (err)
			return err;
	}
	for (i = 0; i < d->num_table_acts; i++)
		*(__le32 *)rec(w, P4NIC_SECT_TABLE_ACTS, i, 4) =
			idx(d->table_acts[i]);
	return 0;
}

static void write_parser(struct img_writer *w,
			 const struct p4tc_off_pipeline *d)
{
	u32 i;

	for (i = 0; i < d->num_headers; i++) {
		const struct p4tc_off_header *h = &d->headers[i];
		struct p4nic_img_header *r = rec(w, P4NIC_SECT_HEADERS, i,
						 sizeof(*r));

		r->id = cpu_to_le32(h->id);
		r->fixed_len = cpu_to_le16(h->min_len);
		r->max_len = cpu_to_le16(h->max_len);
		r->len_field = idx(h->len_field);
		r->len_mult = cpu_to_le16(h->len_mult);
		r->len_add = cpu_to_le16(h->len_add);
		r->sel_field = idx(h->select);
		r->trans = span(h->trans);
		r->default_next = idx(h->default_next);
	}
	for (i = 0; i < d->num_trans; i++) {
		const struct p4tc_off_trans *t = &d->trans[i];
		struct p4nic_img_transition *r =
			rec(w, P4NIC_SECT_TRANSITIONS, i, sizeof(*r));

		r->value.lo = cpu_to_le64(t->value.w[0]);
		r->value.hi = cpu_to_le64(t->value.w[1]);
		r->mask.lo = cpu_to_le64(t->mask.w[0]);
		r->mask.hi = cpu_to_le64(t->mask.w[1]);
		r->next = idx(t->next);
	}
	for (i = 0; i < d->num_fields; i++) {
		const struct p4tc_off_field *f = &d->fields[i];
		struct p4nic_img_field *r = rec(w, P4NIC_SECT_FIELDS, i,
						sizeof(*r));

		r->id = cpu_to_le32(f->id);
		r->header = idx(f->header);
		r->bit_offset = cpu_to_le16(f->bit_offset);
		r->bit_width = cpu_to_le16(f->bit_width);
		r->flags = cpu_to_le32(f->is_signed ? P4NIC_TYPE_SIGNED : 0);
	}
}

static void write_objects(struct img_writer *w,
			  const struct p4tc_off_pipeline *d)
{
	u32 i;

	for (i = 0; i < d->num_meta; i++) {
		struct p4nic_img_metadata *r = rec(w, P4NIC_SECT_METADATA, i,
						   sizeof(*r));

		r->id = cpu_to_le32(d->meta[i].id);
		r->bit_width = cpu_to_le16(d->meta[i].bit_width);
		r->flags = cpu_to_le16(d->meta[i].is_signed ?
				       P4NIC_TYPE_SIGNED : 0);
	}
	for (i = 0; i < d->num_registers; i++) {
		struct p4nic_img_register *r = rec(w, P4NIC_SECT_REGISTERS, i,
						   sizeof(*r));

		r->id = cpu_to_le32(d->registers[i].id);
		r->bit_width = cpu_to_le16(d->registers[i].bit_width);
		r->flags = cpu_to_le16(d->registers[i].is_signed ?
				       P4NIC_TYPE_SIGNED : 0);
		r->num_elems = cpu_to_le32(d->registers[i].num_elems);
	}
	for (i = 0; i < d->num_params; i++) {
		struct p4nic_img_param *r = rec(w, P4NIC_SECT_PARAMS, i,
						sizeof(*r));

		r->bit_width = cpu_to_le16(d->params[i].bit_width);
		r->flags = cpu_to_le16(d->params[i].is_signed ?
				       P4NIC_TYPE_SIGNED : 0);
	}
	for (i = 0; i < d->num_consts; i++) {
		struct p4nic_u128 *r = rec(w, P4NIC_SECT_CONSTS, i,
					   sizeof(*r));

		r->lo = cpu_to_le64(d->consts[i].w[0]);
		r->hi = cpu_to_le64(d->consts[i].w[1]);
	}
}

/* ------------------------------------------------------------------ */
/* The image                                                           */
/* ------------------------------------------------------------------ */

static const u32 rec_size[P4NIC_IMG_SECTIONS + 1] = {
	[P4NIC_SECT_PIPELINE] = sizeof(struct p4nic_img_pipeline),
	[P4NIC_SECT_HEADERS] = sizeof(struct p4nic_img_header),
	[P4NIC_SECT_TRANSITIONS] = sizeof(struct p4nic_img_transition),
	[P4NIC_SECT_FIELDS] = sizeof(struct p4nic_img_field),
	[P4NIC_SECT_METADATA] = sizeof(struct p4nic_img_metadata),
	[P4NIC_SECT_ACTIONS] = sizeof(struct p4nic_img_action),
	[P4NIC_SECT_PARAMS] = sizeof(struct p4nic_img_param),
	[P4NIC_SECT_TABLES] = sizeof(struct p4nic_img_table),
	[P4NIC_SECT_KEYCOMPS] = sizeof(__le32),
	[P4NIC_SECT_TABLE_ACTS] = sizeof(__le32),
	[P4NIC_SECT_REGISTERS] = sizeof(struct p4nic_img_register),
	[P4NIC_SECT_INSNS] = sizeof(struct p4nic_img_insn),
	[P4NIC_SECT_OPERANDS] = sizeof(struct p4nic_img_operand),
	[P4NIC_SECT_CONSTS] = sizeof(struct p4nic_u128),
	[P4NIC_SECT_PORTS] = sizeof(struct p4nic_img_port),
};

static u32 sect_count(const struct p4tc_off_pipeline *d, u32 nports, u32 k)
{
	switch (k) {
	case P4NIC_SECT_PIPELINE: return 1;
	case P4NIC_SECT_HEADERS: return d->num_headers;
	case P4NIC_SECT_TRANSITIONS: return d->num_trans;
	case P4NIC_SECT_FIELDS: return d->num_fields;
	case P4NIC_SECT_METADATA: return d->num_meta;
	case P4NIC_SECT_ACTIONS: return d->num_actions;
	case P4NIC_SECT_PARAMS: return d->num_params;
	case P4NIC_SECT_TABLES: return d->num_tables;
	case P4NIC_SECT_KEYCOMPS: return d->num_operands;
	case P4NIC_SECT_TABLE_ACTS: return d->num_table_acts;
	case P4NIC_SECT_REGISTERS: return d->num_registers;
	case P4NIC_SECT_INSNS: return d->num_insns;
	case P4NIC_SECT_OPERANDS: return d->num_operands;
	case P4NIC_SECT_CONSTS: return d->num_consts;
	default: return nports;
	}
}

/**
 * p4nic_image_build - the device image of a pipeline description
 * @nic: the device (its capabilities and ports)
 * @d: P4TC's description
 * @extack: what the device cannot do, "p4nic: ..."
 * @len: set to the image's length
 *
 * Under RTNL (the ports' ifindexes).  KEYCOMPS has a record per operand
 * (only those of keys are used) so that a key's span is its operands'.
 *
 * Return: the image (kvfree() it) or an ERR_PTR.
 */
void *p4nic_image_build(struct p4nic *nic, const struct p4tc_off_pipeline *d,
			struct netlink_ext_ack *extack, u32 *len)
{
	struct img_writer w = { .extack = extack };
	struct p4nic_image_section *dir;
	struct p4nic_image_hdr *hdr;
	struct p4nic_img_pipeline *pl;
	u32 k, i, n, off;
	u64 size;
	int err;

	err = check_caps(nic, d, &w);
	if (err)
		return ERR_PTR(err);
	off = sizeof(*hdr) + P4NIC_IMG_SECTIONS * sizeof(*dir);
	size = off;
	for (k = 1; k <= P4NIC_IMG_SECTIONS; k++) {
		w.at[k] = size;
		size = ALIGN(size + (u64)sect_count(d, nic->num_ports, k) *
			     rec_size[k], 8);
	}
	if (size > le32_to_cpu(nic->identity.max_image_bytes)) {
		NL_SET_ERR_MSG_FMT(extack,
				   "p4nic: the pipeline's image takes %llu bytes, the device loads at most %u",
				       size, le32_to_cpu(nic->identity.max_image_bytes));
		return ERR_PTR(-EOPNOTSUPP);
	}
	w.buf = kvzalloc(size, GFP_KERNEL);
	if (!w.buf)
		return ERR_PTR(-ENOMEM);
	w.len = size;

	hdr = (void *)w.buf;
	hdr->magic = cpu_to_le32(P4NIC_IMAGE_MAGIC);
	hdr->version_major = cpu_to_le16(P4NIC_ABI_MAJOR);
	hdr->version_minor = cpu_to_le16(w.minor);
	hdr->total_len = cpu_to_le32(w.len);
	hdr->num_sections = cpu_to_le32(P4NIC_IMG_SECTIONS);
	dir = (void *)(hdr + 1);
	for (k = 1; k <= P4NIC_IMG_SECTIONS; k++) {
		dir[k - 1].kind = cpu_to_le32(k);
		dir[k - 1].offset = cpu_to_le32(w.at[k]);
		dir[k - 1].count = cpu_to_le32(sect_count(d, nic->num_ports,
							  k));
		dir[k - 1].rec_size = cpu_to_le32(rec_size[k]);
	}

	pl = rec(&w, P4NIC_SECT_PIPELINE, 0, sizeof(*pl));
	pl->pipeid = cpu_to_le32(d->pipeid);
	pl->start_header = idx(d->start_header);
	pl->prog = span(d->prog);
	write_parser(&w, d);
	write_objects(&w, d);
	for (i = 0; i < d->num_actions; i++) {
		struct p4nic_img_action *r = rec(&w, P4NIC_SECT_ACTIONS, i,
						 sizeof(*r));

		r->id = cpu_to_le32(d->actions[i].id);
		r->params = span(d->actions[i].params);
		r->prog = span(d->actions[i].prog);
		err = write_prog(&w, d, d->actions[i].prog);
		if (err)
			goto fail;
	}
	err = write_prog(&w, d, d->prog);
	if (!err)
		err = write_tables(&w, d);
	for (i = 0; !err && i < d->num_operands; i++)
		err = write_operand(&w, &d->operands[i], i);
	if (err)
		goto fail;
	for (n = 0; n < nic->num_ports; n++) {
		struct p4nic_img_port *r = rec(&w, P4NIC_SECT_PORTS, n,
					       sizeof(*r));

		r->port = cpu_to_le32(n);
		r->ifindex = cpu_to_le32(nic->ports[n] ?
					 nic->ports[n]->netdev->ifindex : 0);
	}
	*len = w.len;
	return w.buf;

fail:
	kvfree(w.buf);
	return ERR_PTR(err);
}
