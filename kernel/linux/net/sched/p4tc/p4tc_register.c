// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * P4TC registers: arrays of 1..P4TC_MAX_REGISTER_ELEMS typed values that
 * programs keep state in ("register/PIPE/NAME type bit32 numelems 8").
 * Elements start at zero; until the pipeline is sealed they can be set
 * with "update register/... index I value V", and they can always be read
 * with "get".  Values travel in their container's layout and are checked
 * against the register's type.
 */

#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/netlink.h>
#include <net/p4tc.h>

static const struct nla_policy p4tc_register_policy[P4TC_REGISTER_MAX + 1] = {
	[P4TC_REGISTER_NAME] = { .type = NLA_NUL_STRING, .len = REGISTERNAMSIZ - 1 },
	[P4TC_REGISTER_INFO] = NLA_POLICY_EXACT_LEN(sizeof(struct p4tc_u_register)),
	[P4TC_REGISTER_INDEX] = { .type = NLA_U32 },
	[P4TC_REGISTER_VALUE] = { .type = NLA_BINARY,
				  .len = P4T_MAX_BITSZ / 8 },
	[P4TC_REGISTER_VALUES] = { .type = NLA_REJECT },
	[P4TC_REGISTER_HW] = { .type = NLA_REJECT },
	[P4TC_REGISTER_HW_DEV] = { .type = NLA_REJECT },
};

static const struct p4tc_type *reg_type(const struct p4tc_register *reg)
{
	return p4type_find_byid(reg->reg_type);
}

static void *reg_elem(const struct p4tc_register *reg, u32 index)
{
	return reg->reg_value + index * p4t_container_bytes(reg_type(reg));
}

static const struct p4tc_find_msgs register_msgs = {
	.no_id = "Unable to find register by id",
	.mismatch = "Register name and id name different registers",
	.no_key = "Must specify register name or id",
	.no_name = "Register name not found",
};

static struct p4tc_register *
tcf_register_find_byany(struct p4tc_pipeline *pipeline, const char *name,
			u32 id, struct netlink_ext_ack *extack)
{
	struct p4tc_template_common *common;

	common = p4tc_tmpl_find_byany(&pipeline->p_reg_idr, name, id,
				      &register_msgs, extack);
	return IS_ERR(common) ? ERR_CAST(common) : to_register(common);
}

static int tcf_register_check_info(const struct p4tc_u_register *info,
				   struct netlink_ext_ack *extack)
{
	const struct p4tc_type *type = p4type_find_byid(info->datatype);

	if (!info->datatype) {
		NL_SET_ERR_MSG(extack, "Must specify datatype");
		return -EINVAL;
	}
	if (!type || (type->flags & P4T_F_BLOB)) {
		NL_SET_ERR_MSG(extack, "Invalid data type for P4 register");
		return -EINVAL;
	}
	if (!info->num_elems) {
		NL_SET_ERR_MSG(extack, "Num elems can't be zero");
		return -EINVAL;
	}
	if (info->num_elems > P4TC_MAX_REGISTER_ELEMS) {
		NL_SET_ERR_MSG(extack,
			       "Number of elements exceededs P4 register maximum");
		return -EINVAL;
	}
	if (info->startbit > info->endbit) {
		NL_SET_ERR_MSG(extack, "startbit > endbit");
		return -EINVAL;
	}
	if (info->endbit >= type->bitsz) {
		NL_SET_ERR_MSG(extack, "Endbit doesn't fix in container datatype");
		return -EINVAL;
	}
	return p4t_check_slice(type, info->startbit, info->endbit, extack);
}

/* Check a value attribute against the register's type. */
static int tcf_register_check_value(const struct p4tc_register *reg,
				    const struct nlattr *attr,
				    struct netlink_ext_ack *extack)
{
	const struct p4tc_type *type = reg_type(reg);

	if (nla_len(attr) != p4t_container_bytes(type)) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "Value size differs from register type's container size");
		return -EINVAL;
	}
	return p4t_validate_value(type, reg->reg_startbit, reg->reg_endbit,
				  nla_data(attr), extack);
}

static int tcf_register_check_index(const struct p4tc_register *reg,
				    const struct nlattr *attr,
				    struct netlink_ext_ack *extack)
{
	if (nla_get_u32(attr) >= reg->reg_num_elems) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "Register index out of bounds");
		return -EINVAL;
	}
	return 0;
}

static void tcf_register_free(struct p4tc_register *reg)
{
	kfree(reg->reg_value);
	kfree(reg);
}

static int __tcf_register_put(struct p4tc_pipeline *pipeline,
			      struct p4tc_register *reg,
			      struct netlink_ext_ack *extack)
{
	if (!refcount_dec_if_one(&reg->reg_ref)) {
		NL_SET_ERR_MSG(extack, "Unable to delete referenced register");
		return -EBUSY;
	}
	idr_remove(&pipeline->p_reg_idr, reg->reg_id);
	tcf_register_free(reg);
	return 0;
}

static int tcf_register_put(struct net *net, struct p4tc_template_common *tmpl,
			    struct netlink_ext_ack *extack)
{
	struct p4tc_pipeline *pipeline = tcf_pipeline_find_byid(net, tmpl->p_id);

	return __tcf_register_put(pipeline, to_register(tmpl), extack);
}

/**
 * tcf_register_purge - free every register of a pipeline being destroyed
 * @pipeline: the pipeline
 */
void tcf_register_purge(struct p4tc_pipeline *pipeline)
{
	struct p4tc_register *reg;
	unsigned long tmp, id;

	idr_for_each_entry_ul(&pipeline->p_reg_idr, reg, tmp, id) {
		idr_remove(&pipeline->p_reg_idr, id);
		tcf_register_free(reg);
	}
}

static struct p4tc_template_common *
tcf_register_create(struct p4tc_pipeline *pipeline, struct nlattr **tb,
		    u32 *ids, struct netlink_ext_ack *extack)
{
	u32 id = ids[P4TC_REGID_IDX];
	const struct p4tc_u_register *info;
	struct p4tc_register *reg;
	const char *name;
	int ret;

	if (!tb[P4TC_REGISTER_NAME]) {
		NL_SET_ERR_MSG(extack, "Must specify register name");
		return ERR_PTR(-EINVAL);
	}
	name = nla_data(tb[P4TC_REGISTER_NAME]);
	ret = p4tc_name_check(name, extack);
	if (ret < 0)
		return ERR_PTR(ret);
	if (p4tc_tmpl_find_byname(&pipeline->p_reg_idr, name)) {
		NL_SET_ERR_MSG(extack, "Register already exists");
		return ERR_PTR(-EEXIST);
	}
	if (id && idr_find(&pipeline->p_reg_idr, id)) {
		NL_SET_ERR_MSG(extack, "Register already exists");
		return ERR_PTR(-EEXIST);
	}
	if (!tb[P4TC_REGISTER_INFO]) {
		NL_SET_ERR_MSG(extack, "Missing register info");
		return ERR_PTR(-EINVAL);
	}
	/* elements are set by update, after create */
	if (tb[P4TC_REGISTER_INDEX]) {
		NL_SET_ERR_MSG(extack, "Index can't be passed in create");
		return ERR_PTR(-EINVAL);
	}
	if (tb[P4TC_REGISTER_VALUE]) {
		NL_SET_ERR_MSG(extack, "Value can't be passed in create");
		return ERR_PTR(-EINVAL);
	}
	info = nla_data(tb[P4TC_REGISTER_INFO]);
	ret = tcf_register_check_info(info, extack);
	if (ret < 0)
		return ERR_PTR(ret);

	reg = kzalloc(sizeof(*reg), GFP_KERNEL_ACCOUNT);
	if (!reg)
		return ERR_PTR(-ENOMEM);
	reg->reg_type = info->datatype;
	reg->reg_value = kcalloc(info->num_elems,
				 p4t_container_bytes(reg_type(reg)),
				 GFP_KERNEL_ACCOUNT);
	if (!reg->reg_value) {
		kfree(reg);
		return ERR_PTR(-ENOMEM);
	}

	ret = p4tc_tmpl_alloc_id(&pipeline->p_reg_idr, reg, &id,
				 "Unable to allocate register id", extack);
	if (ret < 0) {
		tcf_register_free(reg);
		return ERR_PTR(ret);
	}

	strscpy(reg->common.name, name, REGISTERNAMSIZ);
	reg->common.ops = &p4tc_register_ops;
	reg->common.p_id = pipeline->common.p_id;
	reg->pipeline = pipeline;
	spin_lock_init(&reg->reg_value_lock);
	reg->reg_num_elems = info->num_elems;
	reg->reg_id = id;
	reg->reg_startbit = info->startbit;
	reg->reg_endbit = info->endbit;
	refcount_set(&reg->reg_ref, 1);
	return &reg->common;
}

/* Update: set one element, or (not in use) change type and size. */
static struct p4tc_template_common *
tcf_register_update(struct p4tc_pipeline *pipeline, struct nlattr **tb,
		    u32 *ids, struct netlink_ext_ack *extack)
{
	const char *name = tb[P4TC_REGISTER_NAME] ?
			   nla_data(tb[P4TC_REGISTER_NAME]) : NULL;
	const struct p4tc_u_register *info;
	struct p4tc_register *reg;
	void *value;
	int ret;

	reg = tcf_register_find_byany(pipeline, name, ids[P4TC_REGID_IDX],
				      extack);
	if (IS_ERR(reg))
		return ERR_CAST(reg);

	info = tb[P4TC_REGISTER_INFO] ? nla_data(tb[P4TC_REGISTER_INFO]) : NULL;
	if (info && !tb[P4TC_REGISTER_INDEX] && !tb[P4TC_REGISTER_VALUE]) {
		/* a new type and size: only while no action uses it */
		if (refcount_read(&reg->reg_ref) > 1) {
			NL_SET_ERR_MSG(extack, "Register is in use by an action");
			return ERR_PTR(-EBUSY);
		}
		ret = tcf_register_check_info(info, extack);
		if (ret < 0)
			return ERR_PTR(ret);
		value = kcalloc(info->num_elems,
				p4t_container_bytes(p4type_find_byid(info->datatype)),
				GFP_KERNEL_ACCOUNT);
		if (!value)
			return ERR_PTR(-ENOMEM);
		/* a new type starts from zero, like a new register */
		spin_lock_bh(&reg->reg_value_lock);
		swap(reg->reg_value, value);
		reg->reg_type = info->datatype;
		reg->reg_num_elems = info->num_elems;
		reg->reg_startbit = info->startbit;
		reg->reg_endbit = info->endbit;
		spin_unlock_bh(&reg->reg_value_lock);
		kfree(value);
		return &reg->common;
	}

	/* the seed's element update: info, if given, restates the register */
	if (info && info->num_elems != reg->reg_num_elems) {
		NL_SET_ERR_MSG(extack, "Can't update register num elems");
		return ERR_PTR(-EINVAL);
	}
	if (info && (info->startbit != reg->reg_startbit ||
		     info->endbit != reg->reg_endbit ||
		     info->datatype != reg->reg_type)) {
		NL_SET_ERR_MSG(extack,
			       "Start and endbit don't match with register values");
		return ERR_PTR(-EINVAL);
	}
	if (!tb[P4TC_REGISTER_INDEX]) {
		NL_SET_ERR_MSG(extack, "Must specify index");
		return ERR_PTR(-EINVAL);
	}
	if (!tb[P4TC_REGISTER_VALUE]) {
		NL_SET_ERR_MSG(extack, "Missing register value");
		return ERR_PTR(-EINVAL);
	}
	ret = tcf_register_check_index(reg, tb[P4TC_REGISTER_INDEX], extack);
	if (ret < 0)
		return ERR_PTR(ret);
	ret = tcf_register_check_value(reg, tb[P4TC_REGISTER_VALUE], extack);
	if (ret < 0)
		return ERR_PTR(ret);

	spin_lock_bh(&reg->reg_value_lock);
	memcpy(reg_elem(reg, nla_get_u32(tb[P4TC_REGISTER_INDEX])),
	       nla_data(tb[P4TC_REGISTER_VALUE]),
	       nla_len(tb[P4TC_REGISTER_VALUE]));
	spin_unlock_bh(&reg->reg_value_lock);
	return &reg->common;
}

/* Write the register; with @index >= 0 only that element's value. */
/**
 * p4tc_register_cell - a cell's value, in host order
 * @reg: the register
 * @index: the cell, below its number of cells
 * @v: the value
 */
void p4tc_register_cell(struct p4tc_register *reg, u32 index,
			struct p4t_val *v)
{
	const struct p4tc_type *type = reg_type(reg);
	struct p4tc_type_mask_shift ms;
	u8 buf[P4T_MAX_BITSZ / 8];

	p4t_mask_shift(type, reg->reg_startbit, reg->reg_endbit, &ms);
	spin_lock_bh(&reg->reg_value_lock);
	memcpy(buf, reg_elem(reg, index), p4t_container_bytes(type));
	spin_unlock_bh(&reg->reg_value_lock);
	p4t_host_read(type, &ms, buf, v);
}

/* A device's cell in the register's container layout */
static int reg_hw_put(struct sk_buff *skb, struct p4tc_register *reg,
		      int attr, const struct p4tc_off_val *cell)
{
	const struct p4tc_type *type = reg_type(reg);
	struct p4tc_type_mask_shift ms;
	u8 buf[P4T_MAX_BITSZ / 8] = {};
	struct p4t_val v;

	memcpy(v.w, cell->w, sizeof(v.w));
	p4t_mask_shift(type, reg->reg_startbit, reg->reg_endbit, &ms);
	p4t_host_write(type, &ms, &v, buf);
	return nla_put(skb, attr, p4t_container_bytes(type), buf);
}

/* The copies of the devices that run the register's pipeline */
static int reg_fill_hw(struct sk_buff *skb, struct p4tc_register *reg,
		       s64 index)
{
	struct p4tc_reg_copy *c;
	struct nlattr *hw, *dev, *vals;
	LIST_HEAD(copies);
	int n = 0, ret = -EMSGSIZE;
	u32 i;

	p4tc_offload_register_read(reg, &copies);
	if (list_empty(&copies))
		return 0;
	hw = nla_nest_start(skb, P4TC_REGISTER_HW);
	if (!hw)
		goto out;
	list_for_each_entry(c, &copies, list) {
		dev = nla_nest_start(skb, ++n);
		if (!dev || nla_put_string(skb, P4TC_REGISTER_HW_DEV, c->device))
			goto out;
		if (index >= 0) {
			if (nla_put_u32(skb, P4TC_REGISTER_INDEX, index) ||
			    reg_hw_put(skb, reg, P4TC_REGISTER_VALUE,
				       &c->cells[index]))
				goto out;
		} else {
			vals = nla_nest_start(skb, P4TC_REGISTER_VALUES);
			if (!vals)
				goto out;
			for (i = 0; i < reg->reg_num_elems; i++)
				if (reg_hw_put(skb, reg, i + 1, &c->cells[i]))
					goto out;
			nla_nest_end(skb, vals);
		}
		nla_nest_end(skb, dev);
	}
	nla_nest_end(skb, hw);
	ret = 0;
out:
	p4tc_offload_register_copies_free(&copies);
	return ret;
}

static int tcf_register_fill_1(struct sk_buff *skb,
			       struct p4tc_register *reg, s64 index)
{
	struct p4tc_u_register info = {
		.startbit = reg->reg_startbit,
		.endbit = reg->reg_endbit,
		.num_elems = reg->reg_num_elems,
		.datatype = reg->reg_type,
	};
	unsigned int bytes = p4t_container_bytes(reg_type(reg));
	u32 ids[] = { reg->common.p_id, reg->reg_id };
	u8 buf[P4T_MAX_BITSZ / 8];
	struct nlattr *nest, *vals;
	u32 i;

	if (p4tc_put_path(skb, ids, ARRAY_SIZE(ids)))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, P4TC_PARAMS);
	if (!nest ||
	    nla_put_string(skb, P4TC_REGISTER_NAME, reg->common.name) ||
	    nla_put(skb, P4TC_REGISTER_INFO, sizeof(info), &info))
		return -EMSGSIZE;

	if (index >= 0) {
		spin_lock_bh(&reg->reg_value_lock);
		memcpy(buf, reg_elem(reg, index), bytes);
		spin_unlock_bh(&reg->reg_value_lock);
		if (nla_put_u32(skb, P4TC_REGISTER_INDEX, index) ||
		    nla_put(skb, P4TC_REGISTER_VALUE, bytes, buf))
			return -EMSGSIZE;
	} else {
		vals = nla_nest_start(skb, P4TC_REGISTER_VALUES);
		if (!vals)
			return -EMSGSIZE;
		for (i = 0; i < reg->reg_num_elems; i++) {
			spin_lock_bh(&reg->reg_value_lock);
			memcpy(buf, reg_elem(reg, i), bytes);
			spin_unlock_bh(&reg->reg_value_lock);
			if (nla_put(skb, i + 1, bytes, buf))
				return -EMSGSIZE;
		}
		nla_nest_end(skb, vals);
	}
	if (reg_fill_hw(skb, reg, index))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int tcf_register_fill(struct sk_buff *skb,
			     struct p4tc_template_common *tmpl)
{
	return tcf_register_fill_1(skb, to_register(tmpl), -1);
}

static int tcf_register_flush(struct p4tc_pipeline *pipeline,
			      struct netlink_ext_ack *extack)
{
	struct p4tc_register *reg;
	unsigned long tmp, id;

	if (idr_is_empty(&pipeline->p_reg_idr)) {
		/* not an error: tc shows it as a warning */
		NL_SET_ERR_MSG(extack, "There are no registers to flush");
		return 0;
	}
	idr_for_each_entry_ul(&pipeline->p_reg_idr, reg, tmp, id) {
		if (refcount_read(&reg->reg_ref) > 1) {
			NL_SET_ERR_MSG(extack, "Unable to flush any register");
			return -EBUSY;
		}
	}
	idr_for_each_entry_ul(&pipeline->p_reg_idr, reg, tmp, id)
		__tcf_register_put(pipeline, reg, NULL);
	return 0;
}

static int tcf_register_gd(struct net *net, struct sk_buff *skb,
			   struct nlmsghdr *n, struct nlattr *nla,
			   struct p4tc_nl_pname *nl_pname, u32 *ids,
			   struct netlink_ext_ack *extack)
{
	struct nlattr *tb[P4TC_REGISTER_MAX + 1] = {};
	bool del = n->nlmsg_type == RTM_DELP4TEMPLATE;
	struct p4tc_pipeline *pipeline;
	struct p4tc_register *reg;
	const char *name;
	s64 index = -1;
	int ret;

	if (nla) {
		ret = nla_parse_nested(tb, P4TC_REGISTER_MAX, nla,
				       p4tc_register_policy, extack);
		if (ret < 0)
			return ret;
	}

	pipeline = p4tc_req_pipeline(net, nl_pname, ids, del, extack);
	if (IS_ERR(pipeline))
		return PTR_ERR(pipeline);

	name = tb[P4TC_REGISTER_NAME] ? nla_data(tb[P4TC_REGISTER_NAME]) : NULL;
	if (del && (n->nlmsg_flags & NLM_F_ROOT) && !name &&
	    !ids[P4TC_REGID_IDX])
		return tcf_register_flush(pipeline, extack);

	reg = tcf_register_find_byany(pipeline, name, ids[P4TC_REGID_IDX],
				      extack);
	if (IS_ERR(reg))
		return PTR_ERR(reg);
	if (del && tb[P4TC_REGISTER_INFO]) {
		NL_SET_ERR_MSG(extack, "Can't pass info attribute in delete");
		return -EINVAL;
	}
	if (tb[P4TC_REGISTER_INDEX]) {
		ret = tcf_register_check_index(reg, tb[P4TC_REGISTER_INDEX],
					       extack);
		if (ret < 0)
			return ret;
		index = nla_get_u32(tb[P4TC_REGISTER_INDEX]);
	}
	if (del && index >= 0 && tb[P4TC_REGISTER_VALUE]) {
		NL_SET_ERR_MSG(extack,
			       "Must specify param index and only param index");
		return -EINVAL;
	}
	if (tcf_register_fill_1(skb, reg, index)) {
		NL_SET_ERR_MSG(extack, "Object does not fit in the reply");
		return -EMSGSIZE;
	}
	if (!del)
		return 0;
	if (index < 0)
		return __tcf_register_put(pipeline, reg, extack);
	/* the seed's delete of an element: its value back to zero */
	spin_lock_bh(&reg->reg_value_lock);
	memset(reg_elem(reg, index), 0, p4t_container_bytes(reg_type(reg)));
	spin_unlock_bh(&reg->reg_value_lock);
	return 0;
}

static int tcf_register_dump(struct sk_buff *skb, struct p4tc_dump_ctx *ctx,
			     struct nlattr *nla, char **p_name, u32 *ids,
			     struct netlink_ext_ack *extack)
{
	struct p4tc_pipeline *pipeline;

	pipeline = p4tc_dump_pipeline(skb, p_name, ids, extack);
	if (IS_ERR(pipeline))
		return PTR_ERR(pipeline);
	return tcf_p4_tmpl_generic_dump(skb, ctx, &pipeline->p_reg_idr,
					P4TC_REGID_IDX, tcf_register_fill,
					extack);
}

const struct p4tc_template_ops p4tc_register_ops = {
	.policy = p4tc_register_policy,
	.maxattr = P4TC_REGISTER_MAX,
	.create = tcf_register_create,
	.update = tcf_register_update,
	.fill = tcf_register_fill,
	.gd = tcf_register_gd,
	.put = tcf_register_put,
	.dump = tcf_register_dump,
};
