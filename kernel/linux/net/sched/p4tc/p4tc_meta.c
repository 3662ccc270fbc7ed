// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * P4TC metadata: named, typed per-packet scratch values of a pipeline
 * ("metadata/PIPE/NAME type bit8").  Their containers together take at
 * most P4TC_MAXMETA_OFFSET bits.  The kernel pipeline's metadata are the
 * skb fields programs may read; users cannot create or delete them.
 */

#include <linux/bitmap.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/netlink.h>
#include <net/p4tc.h>

static const struct nla_policy p4tc_meta_policy[P4TC_META_MAX + 1] = {
	[P4TC_META_NAME] = { .type = NLA_NUL_STRING, .len = METANAMSIZ - 1 },
	[P4TC_META_SIZE] = NLA_POLICY_EXACT_LEN(sizeof(struct p4tc_meta_size_params)),
	[P4TC_META_PREALLOC] = { .type = NLA_REJECT },
};

static const struct p4tc_find_msgs meta_msgs = {
	.no_id = "Unable to find metadatum by id",
	.mismatch = "Metadatum name and id name different metadata",
	.no_key = "Must specify metadatum name or id",
	.no_name = "Metadatum name not found",
};

struct p4tc_metadata *tcf_meta_find_byid(struct p4tc_pipeline *pipeline,
					 u32 m_id)
{
	return idr_find(&pipeline->p_meta_idr, m_id);
}

struct p4tc_metadata *tcf_meta_find_byname(struct p4tc_pipeline *pipeline,
					   const char *m_name)
{
	struct p4tc_template_common *common;

	common = p4tc_tmpl_find_byname(&pipeline->p_meta_idr, m_name);
	return common ? to_meta(common) : NULL;
}

static struct p4tc_metadata *tcf_meta_find_byany(struct p4tc_pipeline *pipeline,
						 const char *m_name, u32 m_id,
						 struct netlink_ext_ack *extack)
{
	struct p4tc_template_common *common;

	common = p4tc_tmpl_find_byany(&pipeline->p_meta_idr, m_name, m_id,
				      &meta_msgs, extack);
	return IS_ERR(common) ? ERR_CAST(common) : to_meta(common);
}

static unsigned int meta_container_bits(u8 datatype)
{
	return p4type_find_byid(datatype)->container_bitsz;
}

/* Check a P4TC_META_SIZE attribute, with the seed's messages. */
static int tcf_meta_check_size(const struct p4tc_meta_size_params *sz,
			       struct netlink_ext_ack *extack)
{
	const struct p4tc_type *type = p4type_find_byid(sz->datatype);

	if (!type) {
		NL_SET_ERR_MSG(extack, "Invalid data type");
		return -EINVAL;
	}
	if (type->flags & P4T_F_BLOB) {
		NL_SET_ERR_MSG(extack, "Invalid data type for user metdatum");
		return -EINVAL;
	}
	if (type->container_bitsz > P4TC_MAXMETA_SZ) {
		NL_SET_ERR_MSG(extack, "Bit size too big");
		return -EINVAL;
	}
	if (sz->startbit >= type->bitsz) {
		NL_SET_ERR_MSG(extack, "Startbit value too big");
		return -EINVAL;
	}
	if (sz->endbit >= type->bitsz) {
		NL_SET_ERR_MSG(extack, "Endbit value too big");
		return -EINVAL;
	}
	if (sz->endbit < sz->startbit) {
		NL_SET_ERR_MSG(extack, "Endbit value smaller than startbit");
		return -EINVAL;
	}
	return p4t_check_slice(type, sz->startbit, sz->endbit, extack);
}

static void tcf_meta_free(struct p4tc_metadata *meta)
{
	kfree_rcu(meta, rcu);
}

/* Find @bytes of a packet's metadata, aligned to their power of two. */
static int tcf_meta_alloc_space(struct p4tc_pipeline *pipeline,
				unsigned int bytes,
				struct netlink_ext_ack *extack)
{
	unsigned long off;

	off = bitmap_find_next_zero_area(pipeline->p_meta_used,
					 P4TC_MAXMETA_OFFSET / 8, 0, bytes,
					 roundup_pow_of_two(bytes) - 1);
	if (off >= P4TC_MAXMETA_OFFSET / 8) {
		NL_SET_ERR_MSG(extack,
			       "Pipeline metadata space is fragmented: no room for this type");
		return -ENOSPC;
	}
	bitmap_set(pipeline->p_meta_used, off, bytes);
	return off;
}

static void tcf_meta_free_space(struct p4tc_pipeline *pipeline,
				const struct p4tc_metadata *meta)
{
	bitmap_clear(pipeline->p_meta_used, meta->m_offset,
		     meta_container_bits(meta->m_datatype) / 8);
}

static int __tcf_meta_put(struct p4tc_pipeline *pipeline,
			  struct p4tc_metadata *meta,
			  struct netlink_ext_ack *extack)
{
	if (!refcount_dec_if_one(&meta->m_ref)) {
		NL_SET_ERR_MSG(extack, "Unable to delete referenced metadatum");
		return -EBUSY;
	}
	idr_remove(&pipeline->p_meta_idr, meta->m_id);
	pipeline->p_meta_bits -= meta_container_bits(meta->m_datatype);
	tcf_meta_free_space(pipeline, meta);
	tcf_meta_free(meta);
	return 0;
}

static int tcf_meta_put(struct net *net, struct p4tc_template_common *tmpl,
			struct netlink_ext_ack *extack)
{
	struct p4tc_pipeline *pipeline;

	pipeline = tcf_pipeline_find_byid(net, tmpl->p_id);
	return __tcf_meta_put(pipeline, to_meta(tmpl), extack);
}

/**
 * tcf_meta_purge - free every metadatum of a pipeline being destroyed
 * @pipeline: the pipeline
 */
void tcf_meta_purge(struct p4tc_pipeline *pipeline)
{
	struct p4tc_metadata *meta;
	unsigned long tmp, id;

	idr_for_each_entry_ul(&pipeline->p_meta_idr, meta, tmp, id) {
		idr_remove(&pipeline->p_meta_idr, id);
		tcf_meta_free(meta);
	}
	pipeline->p_meta_bits = 0;
	bitmap_zero(pipeline->p_meta_used, P4TC_MAXMETA_OFFSET / 8);
}

static struct p4tc_template_common *
tcf_meta_create(struct p4tc_pipeline *pipeline, struct nlattr **tb, u32 *ids,
		struct netlink_ext_ack *extack)
{
	u32 m_id = ids[P4TC_MID_IDX];
	const struct p4tc_meta_size_params *sz;
	struct p4tc_metadata *meta;
	const char *m_name;
	unsigned int bits;
	int ret;

	if (!tb[P4TC_META_NAME]) {
		NL_SET_ERR_MSG(extack, "Must specify metadatum name");
		return ERR_PTR(-EINVAL);
	}
	m_name = nla_data(tb[P4TC_META_NAME]);
	ret = p4tc_name_check(m_name, extack);
	if (ret < 0)
		return ERR_PTR(ret);
	if (tcf_meta_find_byname(pipeline, m_name)) {
		NL_SET_ERR_MSG(extack, "Metadatum already exists");
		return ERR_PTR(-EEXIST);
	}
	if (m_id && tcf_meta_find_byid(pipeline, m_id)) {
		NL_SET_ERR_MSG(extack, "Metadatum already exists");
		return ERR_PTR(-EEXIST);
	}
	if (!tb[P4TC_META_SIZE]) {
		NL_SET_ERR_MSG(extack, "Must specify metadatum size params");
		return ERR_PTR(-EINVAL);
	}
	sz = nla_data(tb[P4TC_META_SIZE]);
	ret = tcf_meta_check_size(sz, extack);
	if (ret < 0)
		return ERR_PTR(ret);
	bits = meta_container_bits(sz->datatype);
	if (pipeline->p_meta_bits + bits > P4TC_MAXMETA_OFFSET) {
		/* 1024 bits in all */
		NL_SET_ERR_MSG(extack, "Metadata max offset exceeded");
		return ERR_PTR(-ENOSPC);
	}

	meta = kzalloc(sizeof(*meta), GFP_KERNEL_ACCOUNT);
	if (!meta) {
		NL_SET_ERR_MSG(extack, "Unable to allocate user metadatum");
		return ERR_PTR(-ENOMEM);
	}

	ret = tcf_meta_alloc_space(pipeline, bits / 8, extack);
	if (ret < 0) {
		kfree(meta);
		return ERR_PTR(ret);
	}
	meta->m_offset = ret;
	meta->m_datatype = sz->datatype;

	ret = p4tc_tmpl_alloc_id(&pipeline->p_meta_idr, meta, &m_id,
				 "Unable to alloc user metadatum id", extack);
	if (ret < 0) {
		tcf_meta_free_space(pipeline, meta);
		kfree(meta);
		return ERR_PTR(ret);
	}

	strscpy(meta->common.name, m_name, METANAMSIZ);
	meta->common.ops = &p4tc_meta_ops;
	meta->common.p_id = pipeline->common.p_id;
	meta->m_id = m_id;
	meta->m_startbit = sz->startbit;
	meta->m_endbit = sz->endbit;
	meta->m_datatype = sz->datatype;
	refcount_set(&meta->m_ref, 1);
	pipeline->p_meta_bits += bits;
	return &meta->common;
}

static struct p4tc_template_common *
tcf_meta_update(struct p4tc_pipeline *pipeline, struct nlattr **tb, u32 *ids,
		struct netlink_ext_ack *extack)
{
	const char *m_name = tb[P4TC_META_NAME] ?
			     nla_data(tb[P4TC_META_NAME]) : NULL;
	const struct p4tc_meta_size_params *sz;
	struct p4tc_metadata *meta;
	unsigned int old_bits, bits;
	int ret;

	meta = tcf_meta_find_byany(pipeline, m_name, ids[P4TC_MID_IDX], extack);
	if (IS_ERR(meta))
		return ERR_CAST(meta);
	if (!tb[P4TC_META_SIZE])
		return &meta->common;

	if (refcount_read(&meta->m_ref) > 1) {
		NL_SET_ERR_MSG(extack, "Metadata is in use by an action");
		return ERR_PTR(-EBUSY);
	}
	sz = nla_data(tb[P4TC_META_SIZE]);
	ret = tcf_meta_check_size(sz, extack);
	if (ret < 0)
		return ERR_PTR(ret);
	old_bits = meta_container_bits(meta->m_datatype);
	bits = meta_container_bits(sz->datatype);
	if (pipeline->p_meta_bits - old_bits + bits > P4TC_MAXMETA_OFFSET) {
		/* 1024 bits in all */
		NL_SET_ERR_MSG(extack, "Metadata max offset exceeded");
		return ERR_PTR(-ENOSPC);
	}

	/* the new container takes its own place */
	tcf_meta_free_space(pipeline, meta);
	ret = tcf_meta_alloc_space(pipeline, bits / 8, extack);
	if (ret < 0) {
		bitmap_set(pipeline->p_meta_used, meta->m_offset, old_bits / 8);
		return ERR_PTR(ret);
	}
	meta->m_offset = ret;
	pipeline->p_meta_bits = pipeline->p_meta_bits - old_bits + bits;
	meta->m_startbit = sz->startbit;
	meta->m_endbit = sz->endbit;
	meta->m_datatype = sz->datatype;
	return &meta->common;
}

static int tcf_meta_fill(struct sk_buff *skb,
			 struct p4tc_template_common *tmpl)
{
	const struct p4tc_metadata *meta = to_meta(tmpl);
	struct p4tc_meta_size_params sz = {
		.startbit = meta->m_startbit,
		.endbit = meta->m_endbit,
		.datatype = meta->m_datatype,
	};
	u32 ids[] = { meta->common.p_id, meta->m_id };
	struct nlattr *nest;

	if (p4tc_put_path(skb, ids, ARRAY_SIZE(ids)))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, P4TC_PARAMS);
	if (!nest ||
	    nla_put_string(skb, P4TC_META_NAME, meta->common.name) ||
	    nla_put(skb, P4TC_META_SIZE, sizeof(sz), &sz))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int tcf_meta_flush(struct p4tc_pipeline *pipeline,
			  struct netlink_ext_ack *extack)
{
	struct p4tc_metadata *meta;
	unsigned long tmp, id;

	/* all or nothing: refuse before deleting anything */
	if (idr_is_empty(&pipeline->p_meta_idr)) {
		/* not an error: tc shows it as a warning */
		NL_SET_ERR_MSG(extack, "There is not metadata to flush");
		return 0;
	}
	idr_for_each_entry_ul(&pipeline->p_meta_idr, meta, tmp, id) {
		if (refcount_read(&meta->m_ref) > 1) {
			NL_SET_ERR_MSG(extack, "Unable to flush any metadata");
			return -EBUSY;
		}
	}
	idr_for_each_entry_ul(&pipeline->p_meta_idr, meta, tmp, id)
		__tcf_meta_put(pipeline, meta, NULL);
	return 0;
}

static int tcf_meta_gd(struct net *net, struct sk_buff *skb,
		       struct nlmsghdr *n, struct nlattr *nla,
		       struct p4tc_nl_pname *nl_pname, u32 *ids,
		       struct netlink_ext_ack *extack)
{
	struct nlattr *tb[P4TC_META_MAX + 1] = {};
	bool del = n->nlmsg_type == RTM_DELP4TEMPLATE;
	struct p4tc_pipeline *pipeline;
	struct p4tc_metadata *meta;
	const char *m_name;
	int ret;

	if (nla) {
		ret = nla_parse_nested(tb, P4TC_META_MAX, nla,
				       p4tc_meta_policy, extack);
		if (ret < 0)
			return ret;
	}

	pipeline = p4tc_req_pipeline(net, nl_pname, ids, del, extack);
	if (IS_ERR(pipeline))
		return PTR_ERR(pipeline);

	m_name = tb[P4TC_META_NAME] ? nla_data(tb[P4TC_META_NAME]) : NULL;
	if (del && (n->nlmsg_flags & NLM_F_ROOT) && !m_name &&
	    !ids[P4TC_MID_IDX])
		return tcf_meta_flush(pipeline, extack);

	meta = tcf_meta_find_byany(pipeline, m_name, ids[P4TC_MID_IDX],
				   extack);
	if (IS_ERR(meta))
		return PTR_ERR(meta);

	ret = p4tc_tmpl_fill(skb, &meta->common, extack);
	if (ret < 0)
		return ret;

	if (del)
		return __tcf_meta_put(pipeline, meta, extack);
	return 0;
}

static int tcf_meta_dump(struct sk_buff *skb, struct p4tc_dump_ctx *ctx,
			 struct nlattr *nla, char **p_name, u32 *ids,
			 struct netlink_ext_ack *extack)
{
	struct p4tc_pipeline *pipeline;

	pipeline = p4tc_dump_pipeline(skb, p_name, ids, extack);
	if (IS_ERR(pipeline))
		return PTR_ERR(pipeline);
	return tcf_p4_tmpl_generic_dump(skb, ctx, &pipeline->p_meta_idr,
					P4TC_MID_IDX, tcf_meta_fill, extack);
}

/* The skb fields the kernel pipeline offers; see P4TC_KERNEL_META_*. */
static const struct {
	const char *name;
	u8 id;
	u8 datatype;
	u8 endbit;
	bool writable;	/* what the seed's commands write; see kmeta_write() */
} p4tc_kernel_meta[] = {
	{ "pktlen", P4TC_KERNEL_META_PKTLEN, P4T_U32, 31, true },
	{ "datalen", P4TC_KERNEL_META_DATALEN, P4T_U32, 31, true },
	{ "skbmark", P4TC_KERNEL_META_SKBMARK, P4T_U32, 31, true },
	{ "tcindex", P4TC_KERNEL_META_TCINDEX, P4T_U16, 15, true },
	{ "skbhash", P4TC_KERNEL_META_SKBHASH, P4T_U32, 31, true },
	{ "skbprio", P4TC_KERNEL_META_SKBPRIO, P4T_U32, 31, true },
	{ "ifindex", P4TC_KERNEL_META_IFINDEX, P4T_DEV, 31, false },
	{ "iif", P4TC_KERNEL_META_SKBIIF, P4T_DEV, 31, true },
	{ "skbproto", P4TC_KERNEL_META_PROTOCOL, P4T_BE16, 15, true },
	{ "skbptype", P4TC_KERNEL_META_PKTYPE, P4T_U8, 2, true },
	{ "skbidf", P4TC_KERNEL_META_IDF, P4T_U8, 0, true },
	{ "skbipsum", P4TC_KERNEL_META_IPSUM, P4T_U8, 1, false },
	{ "skboook", P4TC_KERNEL_META_OOOK, P4T_U8, 0, true },
	{ "skbfclone", P4TC_KERNEL_META_FCLONE, P4T_U8, 1, false },
	{ "skbpeek", P4TC_KERNEL_META_PEEKED, P4T_U8, 0, true },
	{ "skbqmap", P4TC_KERNEL_META_QMAP, P4T_U16, 15, true },
	{ "ptypeoff", P4TC_KERNEL_META_PTYPEOFF, P4T_U8, 7, true },
	{ "cloneoff", P4TC_KERNEL_META_CLONEOFF, P4T_U8, 7, false },
	{ "ptclnoff", P4TC_KERNEL_META_PTCLNOFF, P4T_U16, 15, false },
	{ "direction", P4TC_KERNEL_META_DIRECTION, P4T_U8, 0, false },
};

/**
 * tcf_meta_init_kernel - give the kernel pipeline its skb metadata
 * @kernel_pipeline: the kernel pipeline
 *
 * Return: 0 or -ENOMEM (the caller purges what was made).
 */
int __init tcf_meta_init_kernel(struct p4tc_pipeline *kernel_pipeline)
{
	int i;

	BUILD_BUG_ON(ARRAY_SIZE(p4tc_kernel_meta) != P4TC_KERNEL_META_MAX);
	for (i = 0; i < ARRAY_SIZE(p4tc_kernel_meta); i++) {
		struct p4tc_metadata *meta;
		u32 id = p4tc_kernel_meta[i].id;
		int ret;

		meta = kzalloc(sizeof(*meta), GFP_KERNEL);
		if (!meta)
			return -ENOMEM;
		strscpy(meta->common.name, p4tc_kernel_meta[i].name,
			METANAMSIZ);
		meta->common.ops = &p4tc_meta_ops;
		meta->common.p_id = P4TC_KERNEL_PIPEID;
		meta->m_id = id;
		meta->m_datatype = p4tc_kernel_meta[i].datatype;
		meta->m_endbit = p4tc_kernel_meta[i].endbit;
		meta->m_read_only = !p4tc_kernel_meta[i].writable;
		refcount_set(&meta->m_ref, 1);
		ret = idr_alloc_u32(&kernel_pipeline->p_meta_idr, meta, &id, id,
				    GFP_KERNEL);
		if (ret < 0) {
			kfree(meta);
			return ret;
		}
	}
	return 0;
}

const struct p4tc_template_ops p4tc_meta_ops = {
	.policy = p4tc_meta_policy,
	.maxattr = P4TC_META_MAX,
	.create = tcf_meta_create,
	.update = tcf_meta_update,
	.fill = tcf_meta_fill,
	.gd = tcf_meta_gd,
	.put = tcf_meta_put,
	.dump = tcf_meta_dump,
};
