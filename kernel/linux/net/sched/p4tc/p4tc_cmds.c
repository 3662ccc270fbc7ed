// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * P4TC action commands: the program of an action template, checked when
 * the template is written so that the datapath (p4tc_exec.c) never has to.
 *
 * A program is at most P4TC_CMDS_LIST_MAX commands of at most
 * P4TC_CMD_MAX_OPNDS operands.  Every operand is resolved here against
 * what it names (metadata, header fields, parameters, registers, devices,
 * action instances) and holds a reference on it while the template lives.
 * The checks: which operands a command may write and read, widths (a
 * destination at least as wide as each source, as their sum for concat),
 * constants that fit, slices inside their object, control that only moves
 * forward to a command that exists (so every program ends), labels that
 * are unique.  A refusal names the command and the operand.
 *
 * The program is kept as the user sent it for dumps, and resolved into
 * struct p4tc_cmd for the datapath.
 */

#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/act_api.h>
#include <net/netlink.h>
#include <net/p4tc.h>

#define P4TC_LABEL_LEN 64

static const struct nla_policy p4tc_cmd_policy[P4TC_CMD_MAX + 1] = {
	/* the operation: cmd_parse(), with the seed's message */
	[P4TC_CMD_OP] = { .type = NLA_U8 },
	[P4TC_CMD_OPNDS] = { .type = NLA_NESTED },
	[P4TC_CMD_THEN] = { .type = NLA_NESTED },
	[P4TC_CMD_ELSE] = { .type = NLA_NESTED },
	[P4TC_CMD_LABEL] = { .type = NLA_NUL_STRING,
			     .len = P4TC_LABEL_LEN - 1 },
	[P4TC_CMD_PREFIX] = { .type = NLA_NUL_STRING, .len = 63 },
};

static const struct nla_policy p4tc_ctl_policy[P4TC_CTL_MAX + 1] = {
	[P4TC_CTL_VERDICT] = { .type = NLA_U32 },
	[P4TC_CTL_JUMP] = NLA_POLICY_MIN(NLA_U32, 1),
	[P4TC_CTL_LABEL] = { .type = NLA_NUL_STRING,
			     .len = P4TC_LABEL_LEN - 1 },
};

static const struct nla_policy p4tc_opnd_policy[P4TC_OPND_MAX + 1] = {
	/* the kind: opnd_parse(), with the seed's message */
	[P4TC_OPND_KIND] = { .type = NLA_U8 },
	[P4TC_OPND_PATH] = { .type = NLA_NUL_STRING, .len = 2 * TEMPLATENAMSZ },
	[P4TC_OPND_SLICE] =
		NLA_POLICY_EXACT_LEN(sizeof(struct p4tc_opnd_slice)),
	[P4TC_OPND_TYPE] =
		NLA_POLICY_EXACT_LEN(sizeof(struct p4tc_meta_size_params)),
	[P4TC_OPND_VALUE] = { .type = NLA_BINARY, .len = P4T_MAX_BITSZ / 8 },
	[P4TC_OPND_INDEX] = { .type = NLA_U32 },
};

/* Where a command's message starts: "Command 3 operand 2: ..." */
#define CMD_ERR(extack, ci, fmt, args...) \
	NL_SET_ERR_MSG_FMT(extack, "Command %u: " fmt, (ci) + 1, ##args)
#define OPND_ERR(extack, ci, oi, fmt, args...) \
	NL_SET_ERR_MSG_FMT(extack, "Command %u operand %u: " fmt, (ci) + 1, \
			   (oi) + 1, ##args)

/* What a command does with each operand */
enum { ROLE_READ, ROLE_WRITE, ROLE_ACT, ROLE_TABLE, ROLE_DEV, ROLE_HDR };

static bool opnd_readable(const struct p4tc_cmd_opnd *o)
{
	return o->kind != P4TC_OPER_TBL && o->kind != P4TC_OPER_ACT &&
	       o->kind != P4TC_OPER_HDR;
}

static bool opnd_writable(const struct p4tc_cmd_opnd *o)
{
	switch (o->kind) {
	case P4TC_OPER_META:
		return !o->meta->m_read_only;
	case P4TC_OPER_HDRFIELD:
	case P4TC_OPER_KEY:
	case P4TC_OPER_REG:
		return true;
	default:
		return false;
	}
}

/* The number of bits a constant needs: what a destination must hold. */
static u16 const_bits(const struct p4t_val *v)
{
	if (v->w[1])
		return 64 + fls64(v->w[1]);
	return max_t(u16, fls64(v->w[0]), 1);
}

/* The bits a source brings to a destination */
static u16 src_bits(const struct p4tc_cmd_opnd *o)
{
	if (o->kind == P4TC_OPER_CONST && !o->is_signed)
		return const_bits(&o->value);
	return o->width;
}

static void opnd_put(struct p4tc_cmd_opnd *o)
{
	switch (o->kind) {
	case P4TC_OPER_META:
		refcount_dec(&o->meta->m_ref);
		break;
	case P4TC_OPER_HDRFIELD:
		refcount_dec(&o->field->hdrfield_ref);
		break;
	case P4TC_OPER_HDR:
		refcount_dec(&o->hdr->hdr_ref);
		break;
	case P4TC_OPER_REG:
		refcount_dec(&o->reg->reg_ref);
		break;
	case P4TC_OPER_KEY:
	case P4TC_OPER_TBL:
		tcf_table_put_ref(o->table);
		break;
	case P4TC_OPER_ACT:
		if (o->inst)
			tcf_idr_release(o->inst, true);
		else if (o->act)
			tcf_act_put_ref(o->act);
		break;
	}
	o->kind = P4TC_OPER_UNSPEC;
}

static void cmds_free(struct p4tc_cmd *cmds, u32 num_cmds)
{
	u32 i, j;

	for (i = 0; i < num_cmds; i++) {
		for (j = 0; j < cmds[i].num_opnds; j++)
			opnd_put(&cmds[i].opnds[j]);
		kfree(cmds[i].opnds);
	}
}

/**
 * p4tc_prog_free - free a program and give back what its operands hold
 * @prog: the program (may be NULL); no datapath reader may be left
 */
void p4tc_prog_free(struct p4tc_prog *prog)
{
	if (!prog)
		return;
	cmds_free(prog->cmds, prog->num_cmds);
	kfree(prog);
}

/**
 * p4tc_prog_binds - how many binds of @a the program's act commands hold
 * @prog: the program (may be NULL)
 * @a: an action instance
 *
 * Return: the count.
 */
int p4tc_prog_binds(const struct p4tc_prog *prog, const struct tc_action *a)
{
	int n = 0;
	u32 i;

	for (i = 0; prog && i < prog->num_cmds; i++)
		if (prog->cmds[i].op == P4TC_CMD_OP_ACT &&
		    prog->cmds[i].opnds[0].inst == a)
			n++;
	return n;
}

/* Split "A.B" at its first dot: @b points after it. */
static int path_split(char *path, char **b)
{
	char *dot = strchr(path, '.');

	if (!dot || dot == path || !dot[1])
		return -EINVAL;
	*dot = '\0';
	*b = dot + 1;
	return 0;
}

static void opnd_set_type(struct p4tc_cmd_opnd *o, u8 datatype, u16 startbit,
			  u16 endbit)
{
	o->type = p4type_find_byid(datatype);
	p4t_mask_shift(o->type, startbit, endbit, &o->ms);
	o->obj_width = endbit - startbit + 1;
	o->is_signed = o->type->flags & P4T_F_SIGNED;
}

static int opnd_const(struct p4tc_cmd_opnd *o, struct nlattr **tb, u32 ci,
		      u32 oi, struct netlink_ext_ack *extack)
{
	const struct p4tc_meta_size_params *ty;
	const struct p4tc_type *type;
	int ret;

	if (!tb[P4TC_OPND_TYPE] || !tb[P4TC_OPND_VALUE]) {
		OPND_ERR(extack, ci, oi, "a constant needs a type and a value");
		return -EINVAL;
	}
	ty = nla_data(tb[P4TC_OPND_TYPE]);
	type = p4type_find_byid(ty->datatype);
	if (!type || (type->flags & P4T_F_BLOB)) {
		OPND_ERR(extack, ci, oi, "Invalid operand type");
		return -EINVAL;
	}
	ret = p4t_check_slice(type, ty->startbit, ty->endbit, extack);
	if (ret < 0)
		return ret;
	if (nla_len(tb[P4TC_OPND_VALUE]) != p4t_container_bytes(type)) {
		OPND_ERR(extack, ci, oi, "constant size differs from its type");
		return -EINVAL;
	}
	ret = p4t_validate_value(type, ty->startbit, ty->endbit,
				 nla_data(tb[P4TC_OPND_VALUE]), extack);
	if (ret < 0) {
		OPND_ERR(extack, ci, oi, "constant too wide for its type");
		return ret;
	}
	/* the value is the slice's low bits, already in range */
	opnd_set_type(o, ty->datatype, 0, ty->endbit - ty->startbit);
	p4t_host_read(type, NULL, nla_data(tb[P4TC_OPND_VALUE]), &o->value);
	p4t_val_trunc(&o->value, o->obj_width);
	return 0;
}

/* "PIPE.NAME": PIPE must be the action's pipeline, or "kernel" if allowed */
static struct p4tc_pipeline *opnd_pipeline(struct p4tc_pipeline *pipeline,
					   const char *pname, bool kernel)
{
	if (kernel && !strcmp(pname, P4TC_KERNEL_PIPENAME))
		return tcf_pipeline_find_byid(pipeline->net, P4TC_KERNEL_PIPEID);
	if (!strcmp(pname, pipeline->common.name))
		return pipeline;
	return NULL;
}

static int opnd_meta(struct p4tc_pipeline *pipeline, struct p4tc_cmd_opnd *o,
		     char *path, u32 ci, u32 oi, struct netlink_ext_ack *extack)
{
	struct p4tc_metadata *meta;
	struct p4tc_pipeline *mp;
	char *name;

	mp = path_split(path, &name) ? NULL :
	     opnd_pipeline(pipeline, path, true);
	if (!mp) {
		OPND_ERR(extack, ci, oi,
			 "metadata are PIPELINE.NAME of this pipeline or kernel");
		return -EINVAL;
	}
	meta = tcf_meta_find_byname(mp, name);
	if (!meta) {
		OPND_ERR(extack, ci, oi, "unknown metadata %.40s", name);
		return -ENOENT;
	}
	refcount_inc(&meta->m_ref);
	o->meta = meta;
	o->index = meta->m_id;
	opnd_set_type(o, meta->m_datatype, meta->m_startbit, meta->m_endbit);
	return 0;
}

static int opnd_hdrfield(struct p4tc_pipeline *pipeline,
			 struct p4tc_cmd_opnd *o, char *path, u32 ci, u32 oi,
			 struct netlink_ext_ack *extack)
{
	struct p4tc_parser *parser = pipeline->parser;
	char *parser_name, *hdr, *field, *dot;
	struct p4tc_hdrfield *f;

	if (path_split(path, &parser_name) || path_split(parser_name, &hdr) ||
	    path_split(hdr, &field) ||
	    !opnd_pipeline(pipeline, path, false)) {
		OPND_ERR(extack, ci, oi,
			 "header fields are PIPELINE.PARSER.HEADER.FIELD");
		return -EINVAL;
	}
	if (!parser || strcmp(parser->parser_name, parser_name)) {
		OPND_ERR(extack, ci, oi, "unknown parser %.40s", parser_name);
		return -ENOENT;
	}
	/* the field is named "HEADER/FIELD" */
	dot = field - 1;
	*dot = '/';
	f = tcf_hdrfield_find_byname(parser, hdr);
	if (!f) {
		OPND_ERR(extack, ci, oi, "unknown header field %.40s", hdr);
		return -ENOENT;
	}
	if (!f->header || f->offset == P4TC_HDRFIELD_NO_OFFSET) {
		OPND_ERR(extack, ci, oi,
			 "header field %.30s has no place in a header", hdr);
		return -EINVAL;
	}
	/* the datapath moves a field through 128 bits with its first byte */
	if (f->offset % 8 && f->endbit - f->startbit + 1 > 120) {
		OPND_ERR(extack, ci, oi,
			 "fields over 120 bits must start on a byte");
		return -EINVAL;
	}
	refcount_inc(&f->hdrfield_ref);
	o->field = f;
	opnd_set_type(o, f->datatype, f->startbit, f->endbit);
	return 0;
}

/* A header of the parse graph: what setvalid and setinvalid act on. */
static int opnd_header(struct p4tc_pipeline *pipeline, struct p4tc_cmd_opnd *o,
		       char *path, u32 ci, u32 oi,
		       struct netlink_ext_ack *extack)
{
	struct p4tc_parser *parser = pipeline->parser;
	char *parser_name, *hdr_name;
	struct p4tc_header *hdr;

	if (path_split(path, &parser_name) ||
	    path_split(parser_name, &hdr_name) ||
	    !opnd_pipeline(pipeline, path, false)) {
		OPND_ERR(extack, ci, oi, "headers are PIPELINE.PARSER.HEADER");
		return -EINVAL;
	}
	if (!parser || strcmp(parser->parser_name, parser_name)) {
		OPND_ERR(extack, ci, oi, "unknown parser %.40s", parser_name);
		return -ENOENT;
	}
	hdr = tcf_header_find_byname(parser, hdr_name);
	if (!hdr) {
		OPND_ERR(extack, ci, oi, "unknown header %.40s", hdr_name);
		return -ENOENT;
	}
	if (hdr == parser->start) {
		OPND_ERR(extack, ci, oi,
			 "the parse graph's start header %.40s is always there",
			 hdr_name);
		return -EINVAL;
	}
	refcount_inc(&hdr->hdr_ref);
	o->hdr = hdr;
	o->obj_width = 0;
	return 0;
}

static int opnd_param(const struct p4tc_param_list *pl,
		      struct p4tc_cmd_opnd *o, const char *name, u32 ci,
		      u32 oi, struct netlink_ext_ack *extack)
{
	u32 i;

	for (i = 0; i < pl->num; i++) {
		const struct p4tc_act_param *param = &pl->params[i];

		if (strcmp(param->name, name))
			continue;
		o->index = i;
		opnd_set_type(o, param->datatype, param->startbit,
			      param->endbit);
		return 0;
	}
	OPND_ERR(extack, ci, oi, "the action has no parameter %.40s", name);
	return -ENOENT;
}

static int opnd_dev(struct p4tc_pipeline *pipeline, struct p4tc_cmd_opnd *o,
		    const char *name, u32 ci, u32 oi,
		    struct netlink_ext_ack *extack)
{
	struct net_device *dev = __dev_get_by_name(pipeline->net, name);

	if (!dev) {
		OPND_ERR(extack, ci, oi, "unknown device %.20s", name);
		return -ENODEV;
	}
	opnd_set_type(o, P4T_DEV, 0, 31);
	o->value.w[0] = dev->ifindex;
	return 0;
}

static int opnd_reg(struct p4tc_pipeline *pipeline, struct p4tc_cmd_opnd *o,
		    char *path, struct nlattr **tb, u32 ci, u32 oi,
		    struct netlink_ext_ack *extack)
{
	struct p4tc_template_common *common;
	struct p4tc_register *reg;
	char *name;

	if (path_split(path, &name) || !opnd_pipeline(pipeline, path, false)) {
		OPND_ERR(extack, ci, oi, "registers are PIPELINE.NAME[INDEX]");
		return -EINVAL;
	}
	common = p4tc_tmpl_find_byname(&pipeline->p_reg_idr, name);
	if (!common) {
		OPND_ERR(extack, ci, oi, "unknown register %.40s", name);
		return -ENOENT;
	}
	reg = to_register(common);
	o->index = tb[P4TC_OPND_INDEX] ? nla_get_u32(tb[P4TC_OPND_INDEX]) : 0;
	if (o->index >= reg->reg_num_elems) {
		OPND_ERR(extack, ci, oi, "Register index out of bounds");
		return -EINVAL;
	}
	refcount_inc(&reg->reg_ref);
	o->reg = reg;
	opnd_set_type(o, reg->reg_type, reg->reg_startbit, reg->reg_endbit);
	return 0;
}

/* key.PIPE.CB/TABLE (the key the table's key action builds) or
 * table.PIPE.CB/TABLE (tableapply).  A key is read and written in slices
 * of at most 128 bits, bit 0 the first bit of the key.
 */
static int opnd_table(struct p4tc_pipeline *pipeline, struct p4tc_cmd_opnd *o,
		      char *path, u8 kind, u32 ci, u32 oi,
		      struct netlink_ext_ack *extack)
{
	struct p4tc_table *table;
	char *name;

	if (path_split(path, &name) || !opnd_pipeline(pipeline, path, false)) {
		OPND_ERR(extack, ci, oi, "%s are PIPELINE.CB/TABLE",
			 kind == P4TC_OPER_KEY ? "keys" : "tables");
		return -EINVAL;
	}
	table = tcf_table_find_byname(pipeline, name);
	if (!table) {
		OPND_ERR(extack, ci, oi, "unknown table %.40s", name);
		return -ENOENT;
	}
	refcount_inc(&table->tbl_ref);
	o->table = table;
	o->type = p4type_find_byid(P4T_KEY);
	o->obj_width = kind == P4TC_OPER_KEY ? table->keysz : 0;
	o->is_signed = false;
	return 0;
}

/* Bind instance @index of @ops's instances in @tn, as a filter would. */
static int opnd_bind_instance(struct tc_action_net *tn,
			      struct p4tc_cmd_opnd *o, u32 index, u32 ci,
			      u32 oi, struct netlink_ext_ack *extack)
{
	int ret;

	ret = tcf_idr_check_alloc(tn, &index, &o->inst, 1);
	if (ret < 0)
		return ret;
	if (!ret) {
		tcf_idr_cleanup(tn, index);
		o->inst = NULL;
		OPND_ERR(extack, ci, oi, "ACT: unknown Action index");
		return -ENOENT;
	}
	return 0;
}

static int opnd_act(struct p4tc_pipeline *pipeline, struct p4tc_cmd_opnd *o,
		    char *path, struct nlattr **tb, u32 ci, u32 oi,
		    struct netlink_ext_ack *extack)
{
	struct tc_action_ops *ops;
	struct p4tc_act *callee;
	char *name;
	int ret;

	if (path_split(path, &name) || !opnd_pipeline(pipeline, path, true)) {
		OPND_ERR(extack, ci, oi,
			 "actions are PIPELINE.NAME of this pipeline, or kernel.KIND");
		return -EINVAL;
	}
	if (!strcmp(path, P4TC_KERNEL_PIPENAME)) {
		if (!tb[P4TC_OPND_INDEX]) {
			OPND_ERR(extack, ci, oi,
				 "Must specify instance id for kernel act calls");
			return -EINVAL;
		}
		ops = tc_lookup_action_n(pipeline->net, name);
		if (!ops) {
			OPND_ERR(extack, ci, oi, "ACT: unknown Action Kind");
			return -ENOENT;
		}
		if (ops->dyn_ref || ops->lookup) {
			tc_action_ops_put(ops);
			OPND_ERR(extack, ci, oi,
				 "action kind %.30s cannot be named here", name);
			return -EINVAL;
		}
		o->kind = P4TC_OPER_UNSPEC;	/* nothing held yet */
		ret = opnd_bind_instance(net_generic(pipeline->net,
						     ops->net_id), o,
					 nla_get_u32(tb[P4TC_OPND_INDEX]), ci,
					 oi, extack);
		tc_action_ops_put(ops);
		return ret;
	}

	callee = tcf_act_find_byname(pipeline, name);
	if (!callee) {
		OPND_ERR(extack, ci, oi, "unknown action %.40s", name);
		return -ENOENT;
	}
	if (!callee->active) {
		OPND_ERR(extack, ci, oi, "action %.40s is not active", name);
		return -EINVAL;
	}
	if (tb[P4TC_OPND_INDEX])
		return opnd_bind_instance(&callee->tn, o,
					  nla_get_u32(tb[P4TC_OPND_INDEX]), ci,
					  oi, extack);
	refcount_inc(&callee->a_ref);
	o->act = callee;
	return 0;
}

/* Resolve operand @oi of command @ci; on error it holds nothing. */
static int opnd_parse(struct p4tc_pipeline *pipeline,
		      const struct p4tc_param_list *pl, struct nlattr *nla,
		      struct p4tc_cmd_opnd *o, u32 ci, u32 oi,
		      struct netlink_ext_ack *extack)
{
	struct nlattr *tb[P4TC_OPND_MAX + 1];
	char *path = NULL;
	u8 kind;
	int ret;

	ret = nla_parse_nested(tb, P4TC_OPND_MAX, nla, p4tc_opnd_policy,
			       extack);
	if (ret < 0)
		return ret;
	if (!tb[P4TC_OPND_KIND]) {
		OPND_ERR(extack, ci, oi, "operand information is mandatory");
		return -EINVAL;
	}
	kind = nla_get_u8(tb[P4TC_OPND_KIND]);
	if (kind != P4TC_OPER_CONST) {
		if (!tb[P4TC_OPND_PATH]) {
			OPND_ERR(extack, ci, oi, "operand needs a path");
			return -EINVAL;
		}
		/* resolving cuts the path up: work on a copy */
		path = nla_strdup(tb[P4TC_OPND_PATH], GFP_KERNEL);
		if (!path) {
			OPND_ERR(extack, ci, oi, "Failed to alloc operand path data");
			return -ENOMEM;
		}
	}

	switch (kind) {
	case P4TC_OPER_CONST:
		ret = opnd_const(o, tb, ci, oi, extack);
		break;
	case P4TC_OPER_META:
		ret = opnd_meta(pipeline, o, path, ci, oi, extack);
		break;
	case P4TC_OPER_HDRFIELD:
		ret = opnd_hdrfield(pipeline, o, path, ci, oi, extack);
		break;
	case P4TC_OPER_PARAM:
		ret = opnd_param(pl, o, path, ci, oi, extack);
		break;
	case P4TC_OPER_DEV:
		ret = opnd_dev(pipeline, o, path, ci, oi, extack);
		break;
	case P4TC_OPER_REG:
		ret = opnd_reg(pipeline, o, path, tb, ci, oi, extack);
		break;
	case P4TC_OPER_RES:
		if (strcmp(path, "hit") && strcmp(path, "miss")) {
			/* results are hit or miss */
			OPND_ERR(extack, ci, oi, "Invalid result field");
			ret = -EINVAL;
			break;
		}
		o->index = !strcmp(path, "hit");
		opnd_set_type(o, P4T_BOOL, 0, 0);
		break;
	case P4TC_OPER_ACT:
		ret = opnd_act(pipeline, o, path, tb, ci, oi, extack);
		break;
	case P4TC_OPER_KEY:
	case P4TC_OPER_TBL:
		ret = opnd_table(pipeline, o, path, kind, ci, oi, extack);
		break;
	case P4TC_OPER_HDR:
		ret = opnd_header(pipeline, o, path, ci, oi, extack);
		break;
	default:
		OPND_ERR(extack, ci, oi, "Unknown operand type");
		ret = -EINVAL;
	}
	kfree(path);
	if (ret < 0)
		return ret;
	o->kind = kind;

	o->shift = 0;
	o->width = o->obj_width;
	if (tb[P4TC_OPND_SLICE] && kind == P4TC_OPER_HDR) {
		opnd_put(o);
		OPND_ERR(extack, ci, oi, "a header takes no slice");
		return -EINVAL;
	}
	if (tb[P4TC_OPND_SLICE]) {
		const struct p4tc_opnd_slice *sl = nla_data(tb[P4TC_OPND_SLICE]);

		if (!opnd_readable(o) || kind == P4TC_OPER_CONST ||
		    sl->startbit > sl->endbit || sl->endbit >= o->obj_width) {
			opnd_put(o);
			/* a slice outside the operand's bits */
			OPND_ERR(extack, ci, oi,
				 "Start and end bit dont fit in space");
			return -EINVAL;
		}
		o->shift = sl->startbit;
		o->width = sl->endbit - sl->startbit + 1;
	}
	if (kind == P4TC_OPER_KEY &&
	    (o->width > P4T_MAX_BITSZ || (o->width > 120 && o->shift % 8))) {
		opnd_put(o);
		OPND_ERR(extack, ci, oi,
			 "key slices: at most 128 bits, from a byte if over 120");
		return -EINVAL;
	}
	return 0;
}

/* How the datapath reaches @o (P4TC_ACC_*): in one step when it is a
 * whole value of 1 to 8 bytes, byte aligned and alone in its container.
 * Fields in use, metadata in use and parameters of a program do not move
 * (their updates are refused, new parameters reparse the program), so
 * where they are is known here.
 */
static void opnd_access(struct p4tc_cmd_opnd *o,
			const struct p4tc_param_list *pl)
{
	bool whole = o->width == o->obj_width;

	o->acc = P4TC_ACC_SLOW;
	if (!o->width || o->width > 64)
		return;
	switch (o->kind) {
	case P4TC_OPER_CONST:
	case P4TC_OPER_DEV:
		o->acc = P4TC_ACC_CONST;
		return;
	case P4TC_OPER_HDRFIELD:
		if (!whole || o->width % 8 || o->field->offset % 8)
			return;
		o->acc = P4TC_ACC_PKT;
		o->acc_slot = o->field->header->slot;
		o->acc_off = o->field->offset / 8;
		o->acc_be = true;
		break;
	case P4TC_OPER_KEY:
		if (o->shift % 8 || o->width % 8)
			return;
		o->acc = P4TC_ACC_KEY;
		o->acc_off = o->shift / 8;
		o->acc_be = true;
		break;
	case P4TC_OPER_META:
		if (o->meta->common.p_id == P4TC_KERNEL_PIPEID || !whole ||
		    o->ms.shift || o->width != o->type->container_bitsz)
			return;
		o->acc = P4TC_ACC_META;
		o->acc_off = o->meta->m_offset;
		o->acc_be = p4t_msb_first(o->type);
		break;
	case P4TC_OPER_PARAM:
		if (!whole || o->ms.shift ||
		    o->width != o->type->container_bitsz)
			return;
		o->acc = P4TC_ACC_PARAM;
		o->acc_off = pl->params[o->index].offset;
		o->acc_be = p4t_msb_first(o->type);
		break;
	default:
		return;
	}
	o->acc_bytes = o->width / 8;
}

/* Whether the datapath runs @cmd on 64-bit values of one-step operands:
 * for these operations that gives what the general path gives, values cut
 * to their operand's width.  Signed compares take the general path.
 */
static bool cmd_fast(const struct p4tc_cmd *cmd)
{
	u32 i;

	switch (cmd->op) {
	case P4TC_CMD_OP_SET:
	case P4TC_CMD_OP_PLUS:
	case P4TC_CMD_OP_SUB:
	case P4TC_CMD_OP_BAND:
	case P4TC_CMD_OP_BOR:
	case P4TC_CMD_OP_BXOR:
		/* a verdict to keep is the general path's business */
		if (cmd->then_ctl)
			return false;
		break;
	case P4TC_CMD_OP_BEQ ... P4TC_CMD_OP_BGE:
		if (cmd->opnds[0].is_signed || cmd->opnds[1].is_signed)
			return false;
		break;
	default:
		return false;
	}
	for (i = 0; i < cmd->num_opnds; i++)
		if (cmd->opnds[i].acc == P4TC_ACC_SLOW)
			return false;
	return true;
}

static int opnds_parse(struct p4tc_pipeline *pipeline,
		       const struct p4tc_param_list *pl, struct nlattr *nla,
		       struct p4tc_cmd *cmd, u32 ci,
		       struct netlink_ext_ack *extack)
{
	struct nlattr *attr;
	int rem, ret;
	u32 n = 0;

	if (!nla)
		return 0;
	nla_for_each_nested(attr, nla, rem)
		n++;
	if (n > P4TC_CMD_MAX_OPNDS) {
		CMD_ERR(extack, ci, "Operands list exceeds maximum allowed value");
		return -E2BIG;
	}
	cmd->opnds = kcalloc(n, sizeof(*cmd->opnds), GFP_KERNEL_ACCOUNT);
	if (!cmd->opnds)
		return -ENOMEM;
	nla_for_each_nested(attr, nla, rem) {
		ret = opnd_parse(pipeline, pl, attr, &cmd->opnds[cmd->num_opnds],
				 ci, cmd->num_opnds, extack);
		if (ret < 0)
			return ret;
		opnd_access(&cmd->opnds[cmd->num_opnds], pl);
		cmd->num_opnds++;
	}
	return 0;
}

/* Check the operands' count, roles and widths against the operation. */
static int cmd_check_opnds(struct p4tc_cmd *cmd, u32 ci,
			   struct netlink_ext_ack *extack)
{
	static const struct {
		u8 min, max;
		u8 first;	/* role of operand 1 */
		u8 rest;	/* role of the others */
	} shape[P4TC_CMD_OP_MAX + 1] = {
		[P4TC_CMD_OP_SET] = { 2, 2, ROLE_WRITE, ROLE_READ },
		[P4TC_CMD_OP_ACT] = { 1, 9, ROLE_ACT, ROLE_READ },
		[P4TC_CMD_OP_BEQ ... P4TC_CMD_OP_BGE] = { 2, 2, ROLE_READ,
							  ROLE_READ },
		[P4TC_CMD_OP_PLUS] = { 3, 3, ROLE_WRITE, ROLE_READ },
		[P4TC_CMD_OP_SUB] = { 3, 3, ROLE_WRITE, ROLE_READ },
		[P4TC_CMD_OP_BAND ... P4TC_CMD_OP_BXOR] = { 3, 3, ROLE_WRITE,
							    ROLE_READ },
		[P4TC_CMD_OP_CONCAT] = { 3, 9, ROLE_WRITE, ROLE_READ },
		[P4TC_CMD_OP_PRINT] = { 1, 1, ROLE_READ, ROLE_READ },
		[P4TC_CMD_OP_TABLEAPPLY] = { 1, 1, ROLE_TABLE, ROLE_READ },
		[P4TC_CMD_OP_SNDPORTEGR] = { 1, 1, ROLE_DEV, ROLE_READ },
		[P4TC_CMD_OP_MIRPORTEGR] = { 1, 1, ROLE_DEV, ROLE_READ },
		[P4TC_CMD_OP_SETVALID] = { 1, 1, ROLE_HDR, ROLE_READ },
		[P4TC_CMD_OP_SETINVALID] = { 1, 1, ROLE_HDR, ROLE_READ },
	};
	/* the seed's messages, where it had the operation */
	static const char * const count_msg[P4TC_CMD_OP_MAX + 1] = {
		[P4TC_CMD_OP_SET] = "SET must have only 2 operands",
		[P4TC_CMD_OP_BEQ ... P4TC_CMD_OP_BGE] =
			"Branch: branch must have only 2 operands",
		[P4TC_CMD_OP_PRINT] = "print must have only 1 operands",
		[P4TC_CMD_OP_TABLEAPPLY] = "tableapply must have only 1 operands",
		[P4TC_CMD_OP_SNDPORTEGR] =
			"send_port_egress must have only 1 operands",
	};
	struct p4tc_cmd_opnd *o = cmd->opnds;
	u32 i, sum = 0;

	if (cmd->num_opnds < shape[cmd->op].min ||
	    cmd->num_opnds > shape[cmd->op].max) {
		if (count_msg[cmd->op])
			CMD_ERR(extack, ci, "%s", count_msg[cmd->op]);
		else if (shape[cmd->op].min == shape[cmd->op].max)
			CMD_ERR(extack, ci, "takes %u operands, not %u",
				shape[cmd->op].min, cmd->num_opnds);
		else
			CMD_ERR(extack, ci, "takes %u to %u operands, not %u",
				shape[cmd->op].min, shape[cmd->op].max,
				cmd->num_opnds);
		return -EINVAL;
	}

	for (i = 0; i < cmd->num_opnds; i++) {
		u8 role = i ? shape[cmd->op].rest : shape[cmd->op].first;

		switch (role) {
		case ROLE_WRITE:
			if (opnd_writable(&o[i]))
				break;
			if (cmd->op == P4TC_CMD_OP_SET)
				CMD_ERR(extack, ci, "Unable to set read-only operand");
			else
				CMD_ERR(extack, ci,
					"Unable to store op result in read-only operand");
			return -EINVAL;
		case ROLE_READ:
			if (!opnd_readable(&o[i])) {
				OPND_ERR(extack, ci, i, "cannot be read");
				return -EINVAL;
			}
			break;
		case ROLE_ACT:
			if (o[i].kind != P4TC_OPER_ACT) {
				CMD_ERR(extack, ci,
					"ACT: Operand type MUST be P4TC_OPER_ACTID");
				return -EINVAL;
			}
			break;
		case ROLE_TABLE:
			if (o[i].kind != P4TC_OPER_TBL) {
				CMD_ERR(extack, ci, "Operand A must be a table");
				return -EINVAL;
			}
			break;
		case ROLE_HDR:
			if (o[i].kind != P4TC_OPER_HDR) {
				OPND_ERR(extack, ci, i,
					 "must be a header (header.PIPELINE.PARSER.HEADER)");
				return -EINVAL;
			}
			break;
		case ROLE_DEV:
			if (!opnd_readable(&o[i]) ||
			    o[i].type->typeid != P4T_DEV || o[i].width != 32) {
				/* a value of type dev */
				OPND_ERR(extack, ci, i, "dev parameter must be dev");
				return -EINVAL;
			}
			break;
		}
	}

	switch (cmd->op) {
	case P4TC_CMD_OP_PRINT:
		if (o[0].kind == P4TC_OPER_CONST) {
			CMD_ERR(extack, ci, "Operand A cannot be constant");
			return -EINVAL;
		}
		break;
	case P4TC_CMD_OP_BEQ ... P4TC_CMD_OP_BGE:
		if (o[0].kind == P4TC_OPER_CONST && o[1].kind == P4TC_OPER_CONST) {
			CMD_ERR(extack, ci, "Branch: A and B can't both be constant");
			return -EINVAL;
		}
		break;
	case P4TC_CMD_OP_SET:
		if (src_bits(&o[1]) > o[0].width) {
			CMD_ERR(extack, ci, "set: B.bitsize has to be <= A.bitsize");
			return -EINVAL;
		}
		break;
	case P4TC_CMD_OP_PLUS:
	case P4TC_CMD_OP_SUB:
	case P4TC_CMD_OP_BAND:
	case P4TC_CMD_OP_BOR:
	case P4TC_CMD_OP_BXOR:
		for (i = 1; i < cmd->num_opnds; i++) {
			if (src_bits(&o[i]) > o[0].width) {
				OPND_ERR(extack, ci, i,
					 "%u bits do not fit the %u-bit destination",
					 src_bits(&o[i]), o[0].width);
				return -EINVAL;
			}
		}
		break;
	case P4TC_CMD_OP_CONCAT:
		for (i = 1; i < cmd->num_opnds; i++)
			sum += o[i].width;
		if (sum > o[0].width) {
			CMD_ERR(extack, ci,
				"Rvalue operands concatenated must fit inside operand A");
			return -EINVAL;
		}
		break;
	case P4TC_CMD_OP_ACT:
		if (o[0].inst && cmd->num_opnds > 1) {
			CMD_ERR(extack, ci,
				"Can't specify runtime params together with instance id");
			return -EINVAL;
		}
		if (o[0].inst)
			break;
		if (cmd->num_opnds - 1 > o[0].act->num_params) {
			CMD_ERR(extack, ci,
				"Act has less runtime parameters than passed in call");
			return -EINVAL;
		}
		if (cmd->num_opnds - 1 < o[0].act->num_params) {
			CMD_ERR(extack, ci,
				"Act has more runtime params than passed in call");
			return -EINVAL;
		}
		for (i = 1; i < cmd->num_opnds; i++) {
			const struct p4tc_act_param *param =
				&o[0].act->params[i - 1];
			u16 pbits = param->endbit - param->startbit + 1;

			if (src_bits(&o[i]) > pbits) {
				OPND_ERR(extack, ci, i,
					 "%u bits do not fit parameter %.20s",
					 src_bits(&o[i]), param->name);
				return -EINVAL;
			}
		}
		break;
	}
	return 0;
}

/* A branch or jump target: a verdict, a distance, or a label (pass 2). */
static int ctl_parse(struct nlattr *nla, u8 *ctl, u32 *arg,
		     const char **label, u32 ci, bool verdict_only,
		     struct netlink_ext_ack *extack)
{
	struct nlattr *tb[P4TC_CTL_MAX + 1];
	int ret, n;

	ret = nla_parse_nested(tb, P4TC_CTL_MAX, nla, p4tc_ctl_policy, extack);
	if (ret < 0)
		return ret;
	n = !!tb[P4TC_CTL_VERDICT] + !!tb[P4TC_CTL_JUMP] + !!tb[P4TC_CTL_LABEL];
	if (n != 1) {
		CMD_ERR(extack, ci, "a control is one verdict, jump or label");
		return -EINVAL;
	}
	if (tb[P4TC_CTL_VERDICT]) {
		int v = nla_get_u32(tb[P4TC_CTL_VERDICT]);

		/* plain verdicts: continue (TC_ACT_UNSPEC) to TC_ACT_TRAP */
		if (v != TC_ACT_UNSPEC && (v < 0 || v > TC_ACT_VALUE_MAX)) {
			CMD_ERR(extack, ci, "unknown verdict %d", v);
			return -EINVAL;
		}
		*arg = v;
		*ctl = P4TC_CTL_VERDICT;
		return 0;
	}
	if (verdict_only) {
		CMD_ERR(extack, ci, "Operand A must be a return code");
		return -EINVAL;
	}
	*ctl = P4TC_CTL_JUMP;
	if (tb[P4TC_CTL_JUMP])
		*arg = ci + nla_get_u32(tb[P4TC_CTL_JUMP]);
	else
		*label = nla_data(tb[P4TC_CTL_LABEL]);
	return 0;
}

static int cmd_parse(struct p4tc_pipeline *pipeline,
		     const struct p4tc_param_list *pl, struct nlattr *nla,
		     struct p4tc_cmd *cmd, u32 ci,
		     const char **labels, const char **then_label,
		     const char **else_label, struct netlink_ext_ack *extack)
{
	struct nlattr *tb[P4TC_CMD_MAX + 1];
	bool branch;
	int ret;

	ret = nla_parse_nested(tb, P4TC_CMD_MAX, nla, p4tc_cmd_policy, extack);
	if (ret < 0)
		return ret;
	if (!tb[P4TC_CMD_OP]) {
		CMD_ERR(extack, ci, "operation missing");
		return -EINVAL;
	}
	cmd->op = nla_get_u8(tb[P4TC_CMD_OP]);
	if (cmd->op < P4TC_CMD_OP_SET || cmd->op > P4TC_CMD_OP_MAX) {
		CMD_ERR(extack, ci, "Unknown operation ID");
		return -EINVAL;
	}
	branch = p4tc_cmd_is_branch(cmd->op);

	if (cmd->op == P4TC_CMD_OP_LABEL) {
		if (!tb[P4TC_CMD_LABEL]) {
			CMD_ERR(extack, ci, "label needs a name");
			return -EINVAL;
		}
		labels[ci] = nla_data(tb[P4TC_CMD_LABEL]);
	} else if (tb[P4TC_CMD_LABEL]) {
		CMD_ERR(extack, ci, "only label takes a name");
		return -EINVAL;
	}
	if (tb[P4TC_CMD_PREFIX] && cmd->op != P4TC_CMD_OP_PRINT) {
		CMD_ERR(extack, ci, "only print takes a prefix");
		return -EINVAL;
	}
	cmd->prefix = tb[P4TC_CMD_PREFIX] ? nla_data(tb[P4TC_CMD_PREFIX]) : "";

	/* any command may end with "control VERDICT" (the seed's): the
	 * verdict the action returns if it ends after that command
	 */
	if (tb[P4TC_CMD_ELSE] && !branch) {
		CMD_ERR(extack, ci, "only branches take a second control");
		return -EINVAL;
	}
	if (tb[P4TC_CMD_THEN] && cmd->op == P4TC_CMD_OP_LABEL) {
		CMD_ERR(extack, ci, "a label takes no control");
		return -EINVAL;
	}
	if ((branch || cmd->op == P4TC_CMD_OP_JUMP) && !tb[P4TC_CMD_THEN]) {
		CMD_ERR(extack, ci, "needs a control");
		return -EINVAL;
	}
	if (tb[P4TC_CMD_THEN]) {
		ret = ctl_parse(tb[P4TC_CMD_THEN], &cmd->then_ctl,
				&cmd->then_arg, then_label, ci,
				cmd->op == P4TC_CMD_OP_RET, extack);
		if (ret < 0)
			return ret;
		if (cmd->op == P4TC_CMD_OP_JUMP &&
		    cmd->then_ctl == P4TC_CTL_VERDICT) {
			/* a distance or a label */
			CMD_ERR(extack, ci, "Operand A must be a label");
			return -EINVAL;
		}
		if (!branch && cmd->op != P4TC_CMD_OP_JUMP &&
		    cmd->then_ctl != P4TC_CTL_VERDICT) {
			CMD_ERR(extack, ci, "only branches and jump take a jump");
			return -EINVAL;
		}
	}
	if (tb[P4TC_CMD_ELSE]) {
		ret = ctl_parse(tb[P4TC_CMD_ELSE], &cmd->else_ctl,
				&cmd->else_arg, else_label, ci, false, extack);
		if (ret < 0)
			return ret;
	} else if (branch) {
		cmd->else_ctl = P4TC_CTL_VERDICT;
		cmd->else_arg = TC_ACT_PIPE;
	}

	if (cmd->op == P4TC_CMD_OP_LABEL && tb[P4TC_CMD_OPNDS]) {
		CMD_ERR(extack, ci, "label command mustn't have operands");
		return -EINVAL;
	}
	/* the seed's jump and ret had an operand; ours have a control */
	if ((cmd->op == P4TC_CMD_OP_JUMP || cmd->op == P4TC_CMD_OP_RET) &&
	    tb[P4TC_CMD_OPNDS]) {
		CMD_ERR(extack, ci, "takes no operands");
		return -EINVAL;
	}
	ret = opnds_parse(pipeline, pl, tb[P4TC_CMD_OPNDS], cmd, ci, extack);
	if (ret < 0)
		return ret;
	if (cmd->op == P4TC_CMD_OP_LABEL || cmd->op == P4TC_CMD_OP_JUMP ||
	    cmd->op == P4TC_CMD_OP_RET)
		return 0;
	ret = cmd_check_opnds(cmd, ci, extack);
	if (ret < 0)
		return ret;
	cmd->fast = cmd_fast(cmd);
	return 0;
}

/* Resolve a jump's label into a command index.  @past_end: the seed's
 * message for a jump beyond the end, which names the control.
 */
static int ctl_resolve(const char *label, u32 *arg, const char **labels,
		       u32 n, u32 ci, const char *past_end,
		       struct netlink_ext_ack *extack)
{
	u32 i;

	if (label) {
		for (i = 0; i < n; i++)
			if (labels[i] && !strcmp(labels[i], label))
				break;
		if (i == n) {
			CMD_ERR(extack, ci, "Unable to find label");
			return -ENOENT;
		}
		*arg = i;
	}
	if (*arg <= ci) {
		CMD_ERR(extack, ci, "Backward jumps are not allowed");
		return -EINVAL;
	}
	/* n itself is the end of the program */
	if (*arg > n) {
		CMD_ERR(extack, ci, "%s", past_end);
		return -EINVAL;
	}
	return 0;
}

/**
 * p4tc_cmds_parse - check and resolve an action template's program
 * @pipeline: the template's pipeline
 * @pl: the template's parameters, what param operands name
 * @nla: P4TC_ACT_CMDS_LIST; print prefixes point into it, so the caller
 *	keeps it as long as the program (the template's cmds_nla)
 * @extack: receives the reason of a refusal, naming command and operand
 *
 * Return: the program, or an ERR_PTR.
 */
struct p4tc_prog *p4tc_cmds_parse(struct p4tc_pipeline *pipeline,
				  const struct p4tc_param_list *pl,
				  struct nlattr *nla,
				  struct netlink_ext_ack *extack)
{
	const char **labels, **then_label, **else_label;
	struct p4tc_prog *prog;
	struct nlattr *attr;
	u32 n = 0, i, j;
	int rem, ret;

	nla_for_each_nested(attr, nla, rem)
		n++;
	if (n > P4TC_CMDS_LIST_MAX) {
		NL_SET_ERR_MSG_FMT(extack, "An action has at most %u commands",
				   P4TC_CMDS_LIST_MAX);
		return ERR_PTR(-E2BIG);
	}
	prog = kzalloc(struct_size(prog, cmds, n), GFP_KERNEL_ACCOUNT);
	/* per command: its label, and the labels its controls name */
	labels = kcalloc(3 * P4TC_CMDS_LIST_MAX, sizeof(*labels), GFP_KERNEL);
	if (!prog || !labels) {
		kfree(prog);
		kfree(labels);
		return ERR_PTR(-ENOMEM);
	}
	then_label = labels + P4TC_CMDS_LIST_MAX;
	else_label = labels + 2 * P4TC_CMDS_LIST_MAX;

	i = 0;
	nla_for_each_nested(attr, nla, rem) {
		struct p4tc_cmd *cmd = &prog->cmds[i];

		/* a failed command frees what it resolved, with the others */
		prog->num_cmds = i + 1;
		ret = cmd_parse(pipeline, pl, attr, cmd, i, labels,
				&then_label[i], &else_label[i], extack);
		if (ret < 0)
			goto err;
		for (j = 0; labels[i] && j < i; j++) {
			if (labels[j] && !strcmp(labels[j], labels[i])) {
				/* a label given twice */
				CMD_ERR(extack, i,
					"Unable to insert in labels hashtable");
				ret = -EEXIST;
				goto err;
			}
		}
		i++;
	}

	for (i = 0; i < n; i++) {
		struct p4tc_cmd *cmd = &prog->cmds[i];

		if (cmd->then_ctl == P4TC_CTL_JUMP) {
			ret = ctl_resolve(then_label[i], &cmd->then_arg, labels,
					  n, i,
					  cmd->op == P4TC_CMD_OP_JUMP ?
					  "jump excessive branch" :
					  "ctl1 excessive branch", extack);
			if (ret < 0)
				goto err;
		}
		if (cmd->else_ctl == P4TC_CTL_JUMP) {
			ret = ctl_resolve(else_label[i], &cmd->else_arg, labels,
					  n, i, "ctl2 excessive branch", extack);
			if (ret < 0)
				goto err;
		}
	}
	kfree(labels);
	return prog;

err:
	kfree(labels);
	p4tc_prog_free(prog);
	return ERR_PTR(ret);
}
