// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * P4TC offload, first half: the description of a sealed pipeline that
 * drivers get (include/net/p4tc_offload.h): parser, objects, actions,
 * keys and tables, device-neutral.  Where the pipeline's entries,
 * defaults and registers go once a device runs it is p4tc_offload.c.
 *
 * The description is built from the templates under RTNL for one BIND
 * request and freed after it: a flat copy in which records refer to each
 * other by index.  What it cannot express exactly (a bound tc action of a
 * kind other than P4's own and gact's plain verdicts, a table key not
 * made of slices set by its key action) makes the pipeline one that no
 * device can run: building fails with an extack message, and the filter
 * stays in software (or fails, with skip_sw).
 */

#include <linux/kernel.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <net/act_api.h>
#include <net/p4tc.h>
#include <net/p4tc_offload.h>
#include <net/pkt_cls.h>
#include <net/tc_act/tc_gact.h>

struct desc_builder {
	struct p4tc_off_pipeline d;
	struct p4tc_pipeline *pipeline;
	struct netlink_ext_ack *extack;
	u32 cap_headers, cap_trans, cap_fields, cap_meta, cap_registers;
	u32 cap_actions, cap_params, cap_tables, cap_table_acts, cap_insns;
	u32 cap_operands, cap_consts;
};

/* A new zeroed record at the end of an array, growing it; NULL: no memory */
static void *desc_push(void **arr, u32 *num, u32 *cap, size_t size)
{
	void *rec;

	if (*num == *cap) {
		u32 ncap = *cap ? *cap * 2 : 8;
		void *n = krealloc_array(*arr, ncap, size, GFP_KERNEL);

		if (!n)
			return NULL;
		*arr = n;
		*cap = ncap;
	}
	rec = (char *)*arr + (size_t)(*num)++ * size;
	memset(rec, 0, size);
	return rec;
}

/* push_ARR(b): a new record at the end of the description's ARR */
#define DEFINE_PUSH(arr, type)						\
static void *push_##arr(struct desc_builder *b)				\
{									\
	return desc_push((void **)&b->d.arr, &b->d.num_##arr,		\
			 &b->cap_##arr, sizeof(type));			\
}

DEFINE_PUSH(headers, struct p4tc_off_header)
DEFINE_PUSH(trans, struct p4tc_off_trans)
DEFINE_PUSH(fields, struct p4tc_off_field)
DEFINE_PUSH(meta, struct p4tc_off_meta)
DEFINE_PUSH(registers, struct p4tc_off_register)
DEFINE_PUSH(actions, struct p4tc_off_action)
DEFINE_PUSH(params, struct p4tc_off_param)
DEFINE_PUSH(tables, struct p4tc_off_table)
DEFINE_PUSH(table_acts, u32)
DEFINE_PUSH(insns, struct p4tc_off_insn)
DEFINE_PUSH(operands, struct p4tc_off_operand)
DEFINE_PUSH(consts, struct p4tc_off_val)

static void desc_free(struct p4tc_off_pipeline *d)
{
	kfree(d->headers);
	kfree(d->trans);
	kfree(d->fields);
	kfree(d->meta);
	kfree(d->registers);
	kfree(d->actions);
	kfree(d->params);
	kfree(d->tables);
	kfree(d->table_acts);
	kfree(d->insns);
	kfree(d->operands);
	kfree(d->consts);
}

/* ------------------------------------------------------------------ */
/* Lookups by P4TC id (descriptions are small: a scan will do)         */
/* ------------------------------------------------------------------ */

static u32 field_index(const struct desc_builder *b,
		       const struct p4tc_hdrfield *f)
{
	u32 i;

	for (i = 0; f && i < b->d.num_fields; i++)
		if (b->d.fields[i].id == f->hdrfield_id)
			return i;
	return P4TC_OFF_NONE;
}

static u32 header_index(const struct desc_builder *b,
			const struct p4tc_header *h)
{
	u32 i;

	for (i = 0; h && i < b->d.num_headers; i++)
		if (b->d.headers[i].id == h->hdr_id)
			return i;
	return P4TC_OFF_NONE;
}

#define ID_INDEX(name, arr)						\
static u32 name(const struct desc_builder *b, u32 id)			\
{									\
	u32 i;								\
									\
	for (i = 0; i < b->d.num_##arr; i++)				\
		if (b->d.arr[i].id == id)				\
			return i;					\
	return P4TC_OFF_NONE;						\
}

ID_INDEX(meta_index, meta)
ID_INDEX(register_index, registers)
ID_INDEX(action_index, actions)
ID_INDEX(table_index, tables)

static bool type_signed(u8 typeid)
{
	return !p4tc_type_unsigned(typeid);
}

/* ------------------------------------------------------------------ */
/* The parse graph                                                     */
/* ------------------------------------------------------------------ */

static u32 next_index(const struct desc_builder *b,
		      const struct p4tc_header *next, u8 kind)
{
	if (kind == P4TC_NEXT_ACCEPT)
		return P4TC_OFF_ACCEPT;
	if (kind == P4TC_NEXT_REJECT)
		return P4TC_OFF_REJECT;
	return header_index(b, next);
}

/* Headers in an order where every edge goes forward (the graph is acyclic:
 * p4tc_parser.c refuses loops): Kahn's algorithm over at most
 * P4TC_MAX_PARSE_HEADERS nodes.
 */
static int order_headers(struct p4tc_parser *parser,
			 struct p4tc_header **order, u32 *n)
{
	u32 indeg[P4TC_MAX_PARSE_HEADERS] = {};
	struct p4tc_header *all[P4TC_MAX_PARSE_HEADERS];
	struct p4tc_header *hdr;
	unsigned long tmp, id;
	u32 num = 0, done = 0, i, j, k;

	idr_for_each_entry_ul(&parser->header_idr, hdr, tmp, id) {
		if (num == P4TC_MAX_PARSE_HEADERS)
			return -E2BIG;
		all[num++] = hdr;
	}
	for (i = 0; i < num; i++) {
		for (k = 0; k < all[i]->num_trans; k++)
			for (j = 0; j < num; j++)
				indeg[j] += all[i]->trans[k].next == all[j];
		for (j = 0; j < num; j++)
			indeg[j] += all[i]->default_kind == P4TC_NEXT_HEADER &&
				    all[i]->default_next == all[j];
	}
	while (done < num) {
		for (i = 0; i < num && (!all[i] || indeg[i]); i++)
			;
		if (i == num)
			return -ELOOP;
		hdr = all[i];
		all[i] = NULL;
		order[done++] = hdr;
		for (j = 0; j < num; j++) {
			if (!all[j])
				continue;
			for (k = 0; k < hdr->num_trans; k++)
				indeg[j] -= hdr->trans[k].next == all[j];
			indeg[j] -= hdr->default_kind == P4TC_NEXT_HEADER &&
				    hdr->default_next == all[j];
		}
	}
	*n = num;
	return 0;
}

static int build_parser(struct desc_builder *b)
{
	struct p4tc_header *order[P4TC_MAX_PARSE_HEADERS];
	struct p4tc_parser *parser = b->pipeline->parser;
	struct p4tc_hdrfield *field;
	unsigned long tmp, id;
	u32 n, i, k;
	int err;

	b->d.start_header = P4TC_OFF_NONE;
	if (!parser)
		return 0;
	err = order_headers(parser, order, &n);
	if (err) {
		NL_SET_ERR_MSG(b->extack, "P4TC: the parse graph cannot be ordered for offload");
		return err;
	}
	for (i = 0; i < n; i++) {
		struct p4tc_off_header *h = push_headers(b);

		if (!h)
			return -ENOMEM;
		h->name = order[i]->common.name;
		h->id = order[i]->hdr_id;
	}
	idr_for_each_entry_ul(&parser->hdrfield_idr, field, tmp, id) {
		struct p4tc_off_field *f = push_fields(b);

		if (!f)
			return -ENOMEM;
		f->name = field->common.name;
		f->id = field->hdrfield_id;
		f->header = header_index(b, field->header);
		f->bit_offset = field->offset;
		f->bit_width = field->endbit - field->startbit + 1;
		f->is_signed = type_signed(field->datatype);
	}
	for (i = 0; i < n; i++) {
		const struct p4tc_header *src = order[i];
		struct p4tc_off_header *h = &b->d.headers[i];

		h->min_len = src->min_len;
		h->max_len = src->max_len;
		h->len_field = field_index(b, src->len_field);
		h->len_mult = src->len_mult;
		h->len_add = src->len_add;
		h->select = field_index(b, src->select);
		h->default_next = next_index(b, src->default_next,
					     src->default_kind);
		h->trans.first = b->d.num_trans;
		for (k = 0; src->select && k < src->num_trans; k++) {
			struct p4tc_off_trans *t = push_trans(b);

			if (!t)
				return -ENOMEM;
			memcpy(t->value.w, src->trans[k].value.w,
			       sizeof(t->value.w));
			memcpy(t->mask.w, src->trans[k].mask.w,
			       sizeof(t->mask.w));
			t->next = next_index(b, src->trans[k].next,
					     src->trans[k].next_kind);
		}
		h->trans.count = b->d.num_trans - h->trans.first;
	}
	b->d.start_header = header_index(b, parser->start);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Metadata, registers, action and table records                       */
/* ------------------------------------------------------------------ */

static int build_objects(struct desc_builder *b)
{
	struct p4tc_pipeline *pipeline = b->pipeline;
	struct p4tc_register *reg;
	struct p4tc_metadata *meta;
	struct p4tc_table *table;
	struct p4tc_act *act;
	unsigned long tmp, id;
	u32 i;

	idr_for_each_entry_ul(&pipeline->p_meta_idr, meta, tmp, id) {
		struct p4tc_off_meta *m = push_meta(b);

		if (!m)
			return -ENOMEM;
		m->name = meta->common.name;
		m->id = meta->m_id;
		m->bit_width = meta->m_endbit - meta->m_startbit + 1;
		m->is_signed = type_signed(meta->m_datatype);
	}
	idr_for_each_entry_ul(&pipeline->p_reg_idr, reg, tmp, id) {
		struct p4tc_off_register *r = push_registers(b);

		if (!r)
			return -ENOMEM;
		r->name = reg->common.name;
		r->id = reg->reg_id;
		r->bit_width = reg->reg_endbit - reg->reg_startbit + 1;
		r->is_signed = type_signed(reg->reg_type);
		r->num_elems = reg->reg_num_elems;
		r->init.first = b->d.num_consts;
		r->init.count = reg->reg_num_elems;
		for (i = 0; i < reg->reg_num_elems; i++) {
			struct p4tc_off_val *c = push_consts(b);
			struct p4t_val v;

			if (!c)
				return -ENOMEM;
			p4tc_register_cell(reg, i, &v);
			memcpy(c->w, v.w, sizeof(c->w));
		}
	}
	idr_for_each_entry_ul(&pipeline->p_act_idr, act, tmp, id) {
		struct p4tc_off_action *a = push_actions(b);

		if (!a)
			return -ENOMEM;
		a->name = act->common.name;
		a->id = act->a_id;
		a->params.first = b->d.num_params;
		a->params.count = act->num_params;
		for (i = 0; i < act->num_params; i++) {
			const struct p4tc_act_param *src = &act->params[i];
			struct p4tc_off_param *p = push_params(b);

			if (!p)
				return -ENOMEM;
			p->name = src->name;
			p->bit_width = src->endbit - src->startbit + 1;
			p->is_signed = type_signed(src->datatype);
		}
	}
	idr_for_each_entry_ul(&pipeline->p_tbl_idr, table, tmp, id) {
		struct p4tc_off_table *t = push_tables(b);

		if (!t)
			return -ENOMEM;
		t->name = table->common.name;
		t->id = table->tbl_id;
		t->type = table->type;
		t->key_bits = table->keysz;
		t->max_entries = table->max_entries;
		t->max_masks = table->max_masks;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Programs                                                            */
/* ------------------------------------------------------------------ */

static int push_const(struct desc_builder *b, const struct p4t_val *v,
		      u16 width, bool is_signed)
{
	struct p4tc_off_operand *o = push_operands(b);
	struct p4tc_off_val *c;

	if (!o)
		return -ENOMEM;
	c = push_consts(b);
	if (!c)
		return -ENOMEM;
	memcpy(c->w, v->w, sizeof(c->w));
	o->kind = P4TC_OFF_OPND_CONST;
	o->is_signed = is_signed;
	o->container_bits = width;
	o->bit_end = width - 1;
	o->index = b->d.num_consts - 1;
	return 0;
}

static int push_operand(struct desc_builder *b, const struct p4tc_cmd_opnd *src)
{
	struct p4tc_off_operand *o;
	struct p4t_val v;

	if (src->kind == P4TC_OPER_CONST || src->kind == P4TC_OPER_DEV) {
		/* a constant is its own object: keep only its slice */
		v = src->value;
		p4t_val_shr(&v, src->shift);
		p4t_val_trunc(&v, src->width);
		return push_const(b, &v, src->width, src->is_signed);
	}
	o = push_operands(b);
	if (!o)
		return -ENOMEM;
	o->is_signed = src->is_signed;
	o->container_bits = src->obj_width;
	o->bit_start = src->shift;
	o->bit_end = src->shift + src->width - 1;
	switch (src->kind) {
	case P4TC_OPER_META:
		if (src->meta->common.p_id == P4TC_KERNEL_PIPEID) {
			o->kind = P4TC_OFF_OPND_KMETA;
			o->index = src->index;
		} else {
			o->kind = P4TC_OFF_OPND_META;
			o->index = meta_index(b, src->meta->m_id);
		}
		break;
	case P4TC_OPER_HDRFIELD:
		o->kind = P4TC_OFF_OPND_FIELD;
		o->index = field_index(b, src->field);
		break;
	case P4TC_OPER_KEY:
		o->kind = P4TC_OFF_OPND_KEY;
		o->index = table_index(b, src->table->tbl_id);
		o->container_bits = src->table->keysz;
		break;
	case P4TC_OPER_PARAM:
		o->kind = P4TC_OFF_OPND_PARAM;
		o->index = src->index;
		break;
	case P4TC_OPER_REG:
		o->kind = P4TC_OFF_OPND_REGISTER;
		o->index = register_index(b, src->reg->reg_id);
		o->elem = src->index;
		break;
	case P4TC_OPER_RES:
		o->kind = P4TC_OFF_OPND_RESULT;
		o->index = src->index;
		break;
	case P4TC_OPER_TBL:
		o->kind = P4TC_OFF_OPND_TABLE;
		o->index = table_index(b, src->table->tbl_id);
		break;
	case P4TC_OPER_ACT:
		o->kind = P4TC_OFF_OPND_ACTION;
		o->index = action_index(b, src->act->a_id);
		break;
	case P4TC_OPER_HDR:
		o->kind = P4TC_OFF_OPND_HEADER;
		o->index = header_index(b, src->hdr);
		o->container_bits = 0;
		o->bit_end = 0;
		break;
	default:
		NL_SET_ERR_MSG(b->extack, "P4TC: a command operand has no offload description");
		return -EOPNOTSUPP;
	}
	if (o->index == P4TC_OFF_NONE) {
		NL_SET_ERR_MSG(b->extack, "P4TC: a command names an object outside its pipeline");
		return -EOPNOTSUPP;
	}
	return 0;
}

static struct p4tc_off_insn *push_insn(struct desc_builder *b, u8 op)
{
	struct p4tc_off_insn *in = push_insns(b);

	if (in) {
		in->op = op;
		in->operands.first = b->d.num_operands;
	}
	return in;
}

/* "ret VERDICT": what an instance's own verdict does after its program */
static int push_ret(struct desc_builder *b, int verdict)
{
	struct p4tc_off_insn *in;

	if (verdict == TC_ACT_PIPE)
		return 0;
	in = push_insn(b, P4TC_CMD_OP_RET);
	if (!in)
		return -ENOMEM;
	in->then_ctl = P4TC_OFF_CTL_VERDICT;
	in->then_arg = verdict;
	return 0;
}

/* The parameter values of a P4 action instance, as constant operands. */
static int push_args(struct desc_builder *b, const struct p4tc_act *act,
		     const u8 *values)
{
	u32 i;
	int err;

	for (i = 0; i < act->num_params; i++) {
		const struct p4tc_act_param *p = &act->params[i];
		struct p4t_val v;

		p4t_host_read(p->type, &p->ms, values + p->offset, &v);
		err = push_const(b, &v, p->endbit - p->startbit + 1,
				 type_signed(p->datatype));
		if (err)
			return err;
	}
	return 0;
}

/* An instance of a tc action, run in a program: "act" (and "ret"). */
static int push_instance(struct desc_builder *b, const struct tc_action *a)
{
	const struct p4tc_act *act;
	struct p4tc_off_insn *in;
	struct p4tc_off_operand *o;
	const u8 *values;
	int err;

	act = p4tc_action_template(a, b->pipeline, &values);
	if (!act) {
		if (__is_tcf_gact_act(a, TC_ACT_PIPE, false))
			return 0;
		if (__is_tcf_gact_act(a, TC_ACT_OK, false))
			return push_ret(b, TC_ACT_OK);
		if (__is_tcf_gact_act(a, TC_ACT_SHOT, false))
			return push_ret(b, TC_ACT_SHOT);
		NL_SET_ERR_MSG_FMT(b->extack,
				   "P4TC: bound action of kind \"%s\" has no offload description",
				   a->ops->kind);
		return -EOPNOTSUPP;
	}
	in = push_insn(b, P4TC_CMD_OP_ACT);
	if (!in)
		return -ENOMEM;
	o = push_operands(b);
	if (!o)
		return -ENOMEM;
	o->kind = P4TC_OFF_OPND_ACTION;
	o->index = action_index(b, act->a_id);
	err = push_args(b, act, values);
	if (err)
		return err;
	/* the pushes may have moved the array */
	in = &b->d.insns[b->d.num_insns - 1];
	in->operands.count = b->d.num_operands - in->operands.first;
	return push_ret(b, READ_ONCE(a->tcfa_action));
}

/* A list of bound tc actions (NULL-ended, or @n of them) as a program. */
static int push_instances(struct desc_builder *b, struct tc_action **acts,
			  int n)
{
	int i, err;

	for (i = 0; acts && i < n && acts[i]; i++) {
		err = push_instance(b, acts[i]);
		if (err)
			return err;
	}
	return 0;
}

static u8 ctl_of(u8 ctl)
{
	if (ctl == P4TC_CTL_JUMP)
		return P4TC_OFF_CTL_JUMP;
	return ctl == P4TC_CTL_VERDICT ? P4TC_OFF_CTL_VERDICT :
					 P4TC_OFF_CTL_PIPE;
}

/* An action template's program, command by command. */
static int push_prog(struct desc_builder *b, const struct p4tc_prog *prog)
{
	u32 i, k;
	int err;

	for (i = 0; prog && i < prog->num_cmds; i++) {
		const struct p4tc_cmd *cmd = &prog->cmds[i];
		struct p4tc_off_insn *in = push_insn(b, cmd->op);

		if (!in)
			return -ENOMEM;
		if (p4tc_cmd_sets_verdict(cmd)) {
			NL_SET_ERR_MSG(b->extack,
				       "P4TC: a control after a command that is no branch has no offload description");
			return -EOPNOTSUPP;
		}
		in->then_ctl = ctl_of(cmd->then_ctl);
		in->then_arg = cmd->then_arg;
		in->else_ctl = ctl_of(cmd->else_ctl);
		in->else_arg = cmd->else_arg;
		if (cmd->op == P4TC_CMD_OP_ACT && cmd->opnds[0].inst) {
			/* an instance by index: its values are the arguments */
			const struct p4tc_act *act;
			const u8 *values;

			act = p4tc_action_template(cmd->opnds[0].inst,
						   b->pipeline, &values);
			if (!act) {
				NL_SET_ERR_MSG(b->extack,
					       "P4TC: act by index of a kind other than P4 has no offload description");
				return -EOPNOTSUPP;
			}
			err = push_operand(b, &cmd->opnds[0]);
			if (!err)
				err = push_args(b, act, values);
		} else {
			for (err = 0, k = 0; !err && k < cmd->num_opnds; k++)
				err = push_operand(b, &cmd->opnds[k]);
		}
		if (err)
			return err;
		in = &b->d.insns[b->d.num_insns - 1];
		in->operands.count = b->d.num_operands - in->operands.first;
	}
	return 0;
}

static int build_actions(struct desc_builder *b)
{
	struct p4tc_act *act;
	unsigned long tmp, id;
	u32 i = 0;
	int err;

	idr_for_each_entry_ul(&b->pipeline->p_act_idr, act, tmp, id) {
		struct p4tc_off_action *a = &b->d.actions[i++];
		u32 first = b->d.num_insns;

		err = push_prog(b, rtnl_dereference(act->prog));
		if (err)
			return err;
		a = &b->d.actions[i - 1];
		a->prog.first = first;
		a->prog.count = b->d.num_insns - first;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Table keys and defaults                                             */
/* ------------------------------------------------------------------ */

#define P4TC_OFF_MAX_SLICES 64	/* commands of a key action, at most */

struct key_slice {
	const struct p4tc_cmd_opnd *src;
	const struct p4tc_act *act;	/* of a PARAM source */
	const u8 *values;
	u16 shift;
	u16 width;
};

static int key_slice_cmp(const void *a, const void *b)
{
	const struct key_slice *x = a, *y = b;

	return x->shift - y->shift;
}

/* An operand of a bound instance's program: its parameters are constants. */
static int push_bound_operand(struct desc_builder *b,
			      const struct p4tc_cmd_opnd *o,
			      const struct p4tc_act *act, const u8 *values)
{
	const struct p4tc_act_param *p;
	struct p4t_val v;

	if (o->kind != P4TC_OPER_PARAM)
		return push_operand(b, o);
	p = &act->params[o->index];
	p4t_host_read(p->type, &p->ms, values + p->offset, &v);
	p4t_val_shr(&v, o->shift);
	p4t_val_trunc(&v, o->width);
	return push_const(b, &v, o->width, o->is_signed);
}

/* A key action's command that computes rather than sets the key. */
static bool key_cmd_straight(const struct p4tc_cmd *cmd)
{
	switch (cmd->op) {
	case P4TC_CMD_OP_SET:
	case P4TC_CMD_OP_PLUS:
	case P4TC_CMD_OP_SUB:
	case P4TC_CMD_OP_BAND:
	case P4TC_CMD_OP_BOR:
	case P4TC_CMD_OP_BXOR:
	case P4TC_CMD_OP_CONCAT:
		return cmd->opnds[0].kind != P4TC_OPER_KEY;
	default:
		return false;
	}
}

static int push_key_prep(struct desc_builder *b, const struct p4tc_cmd *cmd,
			 const struct p4tc_act *act, const u8 *values)
{
	struct p4tc_off_insn *in = push_insn(b, cmd->op);
	u32 k;
	int err = 0;

	if (!in)
		return -ENOMEM;
	for (k = 0; !err && k < cmd->num_opnds; k++)
		err = push_bound_operand(b, &cmd->opnds[k], act, values);
	if (err)
		return err;
	in = &b->d.insns[b->d.num_insns - 1];
	in->operands.count = b->d.num_operands - in->operands.first;
	return 0;
}

/* The key action of a table computes (its commands that write no key,
 * straight-line, before the first that does: they join the table's pre
 * program, after its preactions) and sets slices of the key ("set
 * key.T[a-b] X").  The description gives the key as its components in
 * order, gaps (bits no command sets, zero in software) as zero constants.
 * Call it after the table's preactions, to continue its pre program.
 */
static int build_key(struct desc_builder *b, const struct p4tc_table *table,
		     u32 t)
{
	u32 first, n = 0, i, k, at = 0;
	struct p4t_val zero = {};
	struct key_slice *slices;
	int err;

	slices = kcalloc(P4TC_OFF_MAX_SLICES, sizeof(*slices), GFP_KERNEL);
	if (!slices)
		return -ENOMEM;
	for (i = 0; table->key_acts && i < TCA_ACT_MAX_PRIO &&
	     table->key_acts[i]; i++) {
		const struct p4tc_prog *prog;
		const struct p4tc_act *act;
		const u8 *values;

		act = p4tc_action_template(table->key_acts[i], b->pipeline,
					   &values);
		if (!act || READ_ONCE(table->key_acts[i]->tcfa_action) !=
			    TC_ACT_PIPE)
			goto not_slices;
		prog = rtnl_dereference(act->prog);
		for (k = 0; prog && k < prog->num_cmds; k++) {
			const struct p4tc_cmd *cmd = &prog->cmds[k];

			if (!n && key_cmd_straight(cmd)) {
				err = push_key_prep(b, cmd, act, values);
				if (err)
					goto out;
				continue;
			}
			if (cmd->op != P4TC_CMD_OP_SET ||
			    cmd->opnds[0].kind != P4TC_OPER_KEY ||
			    cmd->opnds[0].table != table ||
			    cmd->opnds[1].width != cmd->opnds[0].width ||
			    n == P4TC_OFF_MAX_SLICES)
				goto not_slices;
			slices[n].src = &cmd->opnds[1];
			slices[n].act = act;
			slices[n].values = values;
			slices[n].shift = cmd->opnds[0].shift;
			slices[n].width = cmd->opnds[0].width;
			n++;
		}
	}
	sort(slices, n, sizeof(slices[0]), key_slice_cmp, NULL);
	/* the key's components, contiguous in OPERANDS */
	first = b->d.num_operands;
	for (i = 0; i < n; i++) {
		if (slices[i].shift < at)
			goto not_slices;	/* overlapping slices */
		if (slices[i].shift > at) {
			err = push_const(b, &zero, slices[i].shift - at, false);
			if (err)
				goto out;
		}
		err = push_bound_operand(b, slices[i].src, slices[i].act,
					 slices[i].values);
		if (err)
			goto out;
		at = slices[i].shift + slices[i].width;
	}
	err = 0;
	if (at < table->keysz)
		err = push_const(b, &zero, table->keysz - at, false);
	b->d.tables[t].key.first = first;
	b->d.tables[t].key.count = b->d.num_operands - first;
out:
	kfree(slices);
	return err;

not_slices:
	NL_SET_ERR_MSG_FMT(b->extack,
			   "P4TC: the key action of table %s does more than compute and set key slices",
			   table->common.name);
	err = -EOPNOTSUPP;
	goto out;
}

static int build_default(struct desc_builder *b,
			 struct p4tc_table_entry_value __rcu **p, u32 table,
			 bool hit)
{
	const struct p4tc_table_entry_value *v = rtnl_dereference(*p);
	struct p4tc_off_actref *ref;
	u32 first = b->d.num_operands;
	int err;

	ref = hit ? &b->d.tables[table].default_hit :
		    &b->d.tables[table].default_miss;
	ref->action = P4TC_OFF_NONE;
	ref->verdict = TC_ACT_PIPE;
	/* a default the datapath may not run is none */
	if (!v || !(v->permissions & P4TC_DATA_PERM_X))
		return 0;
	err = push_args(b, v->act, v->params.values);
	if (err)
		return err;
	ref = hit ? &b->d.tables[table].default_hit :
		    &b->d.tables[table].default_miss;
	ref->action = action_index(b, v->act->a_id);
	ref->args.first = first;
	ref->args.count = b->d.num_operands - first;
	ref->verdict = v->verdict;
	return 0;
}

static int build_tables(struct desc_builder *b)
{
	struct p4tc_table *table;
	unsigned long tmp, id;
	u32 i = 0, k, first;
	int err;

	idr_for_each_entry_ul(&b->pipeline->p_tbl_idr, table, tmp, id) {
		u32 t = i++;

		first = b->d.num_table_acts;
		for (k = 0; k < table->num_acts; k++) {
			u32 *a = push_table_acts(b);

			if (!a)
				return -ENOMEM;
			*a = action_index(b, table->acts[k].act->a_id);
		}
		b->d.tables[t].acts.first = first;
		b->d.tables[t].acts.count = b->d.num_table_acts - first;

		first = b->d.num_insns;
		err = push_instances(b, table->preacts, TCA_ACT_MAX_PRIO);
		if (!err)
			err = build_key(b, table, t);
		if (err)
			return err;
		b->d.tables[t].pre.first = first;
		b->d.tables[t].pre.count = b->d.num_insns - first;
		first = b->d.num_insns;
		err = push_instances(b, table->postacts, TCA_ACT_MAX_PRIO);
		if (err)
			return err;
		b->d.tables[t].post.first = first;
		b->d.tables[t].post.count = b->d.num_insns - first;

		err = build_default(b, &table->default_hit, t, true);
		if (!err)
			err = build_default(b, &table->default_miss, t, false);
		if (err)
			return err;
	}
	return 0;
}

/**
 * p4tc_offload_describe - the offload description of a sealed pipeline
 * @pipeline: the pipeline
 * @extack: why it cannot be described
 *
 * Under RTNL.  The description refers to the pipeline's names, so it must
 * be freed (p4tc_offload_describe_free()) before the pipeline can go.
 *
 * Return: the description or an ERR_PTR.
 */
struct p4tc_off_pipeline *
p4tc_offload_describe(struct p4tc_pipeline *pipeline,
		      struct netlink_ext_ack *extack)
{
	struct desc_builder *b;
	u32 first;
	int err;

	ASSERT_RTNL();
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return ERR_PTR(-ENOMEM);
	b->pipeline = pipeline;
	b->extack = extack;
	b->d.name = pipeline->common.name;
	b->d.pipeid = pipeline->common.p_id;

	err = build_parser(b);
	if (!err)
		err = build_objects(b);
	if (!err)
		err = build_actions(b);
	if (!err)
		err = build_tables(b);
	if (err)
		goto fail;
	first = b->d.num_insns;
	err = push_instances(b, pipeline->preacts, pipeline->num_preacts);
	if (!err)
		err = push_instances(b, pipeline->postacts,
				     pipeline->num_postacts);
	if (err)
		goto fail;
	b->d.prog.first = first;
	b->d.prog.count = b->d.num_insns - first;
	/* struct desc_builder starts with the description */
	return &b->d;

fail:
	if (err == -ENOMEM)
		NL_SET_ERR_MSG(extack, "P4TC: no memory for the offload description");
	desc_free(&b->d);
	kfree(b);
	return ERR_PTR(err);
}

/**
 * p4tc_offload_describe_free - free what p4tc_offload_describe() made
 * @d: the description
 */
void p4tc_offload_describe_free(struct p4tc_off_pipeline *d)
{
	struct desc_builder *b = container_of(d, struct desc_builder, d);

	desc_free(d);
	kfree(b);
}
