// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * P4TC parser: header fields and the declarative parse graph.
 *
 * A pipeline has at most one parser, made with its first header or header
 * field and freed with its last.  Header fields ("hdrfield/P/PARSER/HDR/
 * FIELD type T") are typed values of a header; a field given an offset is
 * placed: it is bits [offset, offset + width) of its header, counted from
 * the header's first bit in network order.  Fields without an offset are
 * the seed's: only an eBPF parser can fill them.
 *
 * Headers ("header/P/PARSER/HDR") are the nodes of the parse graph that
 * the software datapath and the NIC firmware both interpret: a length
 * (fixed, or read from a field: IPv4's ihl * 4), a select field whose
 * value picks the next header through a list of transitions, a default
 * next header, and the parse's start header.  The graph may not loop, so
 * a parse visits each header at most once.
 *
 * Headers and fields refer to each other only through counted references:
 * a field holds its header, a header its length and select fields and the
 * targets of its transitions.  An object others refer to is not deleted.
 */

#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/netlink.h>
#include <net/p4tc.h>
#include <net/sock.h>

#define P4TC_DEFAULT_PARSER_ID 1
#define P4TC_VALID_FIELD "isValid"

static const struct nla_policy p4tc_hdrfield_policy[P4TC_HDRFIELD_MAX + 1] = {
	[P4TC_HDRFIELD_DATA] = NLA_POLICY_EXACT_LEN(sizeof(struct p4tc_hdrfield_ty)),
	[P4TC_HDRFIELD_NAME] = { .type = NLA_NUL_STRING, .len = HDRFIELDNAMSIZ - 1 },
	[P4TC_HDRFIELD_PARSER_NAME] = { .type = NLA_NUL_STRING,
					.len = PARSERNAMSIZ - 1 },
	[P4TC_HDRFIELD_PARSER_ID] = { .type = NLA_U32 },
	[P4TC_HDRFIELD_OFFSET] = NLA_POLICY_MAX(NLA_U16,
						P4TC_MAX_HEADER_LEN * 8 - 1),
};

static const struct nla_policy p4tc_trans_policy[P4TC_TRANS_MAX + 1] = {
	[P4TC_TRANS_VALUE] = NLA_POLICY_EXACT_LEN(sizeof(struct p4t_val)),
	[P4TC_TRANS_MASK] = NLA_POLICY_EXACT_LEN(sizeof(struct p4t_val)),
	[P4TC_TRANS_NEXT] = { .type = NLA_NUL_STRING, .len = HEADERNAMSIZ - 1 },
};

static const struct nla_policy p4tc_header_policy[P4TC_HEADER_MAX + 1] = {
	[P4TC_HEADER_NAME] = { .type = NLA_NUL_STRING, .len = HEADERNAMSIZ - 1 },
	[P4TC_HEADER_PARSER_NAME] = { .type = NLA_NUL_STRING,
				      .len = PARSERNAMSIZ - 1 },
	[P4TC_HEADER_PARSER_ID] = { .type = NLA_U32 },
	[P4TC_HEADER_LEN] = NLA_POLICY_RANGE(NLA_U16, 1, P4TC_MAX_HEADER_LEN),
	[P4TC_HEADER_MAXLEN] = NLA_POLICY_RANGE(NLA_U16, 1, P4TC_MAX_HEADER_LEN),
	[P4TC_HEADER_LEN_MULT] = NLA_POLICY_RANGE(NLA_U16, 1, P4TC_MAX_HEADER_LEN),
	[P4TC_HEADER_LEN_ADD] = NLA_POLICY_MAX(NLA_U16, P4TC_MAX_HEADER_LEN),
	[P4TC_HEADER_LEN_FIELD] = { .type = NLA_NUL_STRING,
				    .len = HDRFIELDNAMSIZ - 1 },
	[P4TC_HEADER_START] = NLA_POLICY_MAX(NLA_U8, 1),
	[P4TC_HEADER_SELECT] = { .type = NLA_NUL_STRING,
				 .len = HDRFIELDNAMSIZ - 1 },
	[P4TC_HEADER_TRANSITIONS] = { .type = NLA_NESTED },
	[P4TC_HEADER_DEFAULT_NEXT] = { .type = NLA_NUL_STRING,
				       .len = HEADERNAMSIZ - 1 },
};

/* Parser */

static struct p4tc_parser *
tcf_parser_find(struct p4tc_pipeline *pipeline, const char *name, u32 id,
		struct netlink_ext_ack *extack)
{
	struct p4tc_parser *parser = pipeline->parser;

	if (!parser) {
		NL_SET_ERR_MSG(extack, "Pipeline has no parser");
		return ERR_PTR(-ENOENT);
	}
	if (id && id != parser->parser_id) {
		NL_SET_ERR_MSG(extack, "Unable to find parser by id");
		return ERR_PTR(-ENOENT);
	}
	if (name && strcmp(parser->parser_name, name)) {
		NL_SET_ERR_MSG(extack, "Parser name not found");
		return ERR_PTR(-ENOENT);
	}
	return parser;
}

/* The pipeline's parser, made now if it has none. */
static struct p4tc_parser *
tcf_parser_get_or_create(struct p4tc_pipeline *pipeline, const char *name,
			 u32 id, struct netlink_ext_ack *extack)
{
	struct p4tc_parser *parser = pipeline->parser;

	if (!name) {
		NL_SET_ERR_MSG(extack, "Must supply parser name");
		return ERR_PTR(-EINVAL);
	}
	if (parser) {
		if (strcmp(parser->parser_name, name) ||
		    (id && id != parser->parser_id)) {
			NL_SET_ERR_MSG(extack,
				       "Can only have one parser instance per pipeline");
			return ERR_PTR(-EEXIST);
		}
		return parser;
	}
	if (p4tc_name_check(name, extack))
		return ERR_PTR(-EINVAL);

	parser = kzalloc(sizeof(*parser), GFP_KERNEL_ACCOUNT);
	if (!parser)
		return ERR_PTR(-ENOMEM);
	strscpy(parser->parser_name, name, PARSERNAMSIZ);
	parser->parser_id = id ?: P4TC_DEFAULT_PARSER_ID;
	idr_init(&parser->hdrfield_idr);
	idr_init(&parser->header_idr);
	pipeline->parser = parser;
	return parser;
}

/* Free the parser once it holds nothing. */
static void tcf_parser_put_if_empty(struct p4tc_pipeline *pipeline)
{
	struct p4tc_parser *parser = pipeline->parser;

	if (!parser || parser->num_objects)
		return;
	idr_destroy(&parser->hdrfield_idr);
	idr_destroy(&parser->header_idr);
	pipeline->parser = NULL;
	kfree(parser);
}

/* Header fields */

static const struct p4tc_find_msgs hdrfield_msgs = {
	.no_id = "Unable to find hdrfield by id",
	.mismatch = "Header field name and id name different fields",
	.no_key = "Must specify hdrfield name or id",
	.no_name = "Header field name not found",
};

struct p4tc_hdrfield *tcf_hdrfield_find_byname(struct p4tc_parser *parser,
					       const char *name)
{
	struct p4tc_template_common *common;

	common = p4tc_tmpl_find_byname(&parser->hdrfield_idr, name);
	return common ? to_hdrfield(common) : NULL;
}

/* Field @fname ("ihl") of header @hdr ("ipv4"). */
static struct p4tc_hdrfield *tcf_hdrfield_of(struct p4tc_parser *parser,
					     const char *hdr,
					     const char *fname)
{
	char full[HDRFIELDNAMSIZ];

	if (snprintf(full, sizeof(full), "%s/%s", hdr, fname) >= sizeof(full))
		return NULL;
	return tcf_hdrfield_find_byname(parser, full);
}

/* Is @field ("ipv4/ttl") a field of header @hdr ("ipv4")? */
static bool hdrfield_of_header(const struct p4tc_hdrfield *field,
			       const char *hdr)
{
	size_t n = strlen(hdr);

	return !strncmp(field->common.name, hdr, n) &&
	       field->common.name[n] == '/';
}

static u16 hdrfield_width(const struct p4tc_hdrfield *field)
{
	return field->endbit - field->startbit + 1;
}

/* The header part of "HDR/FIELD" into @hdr; checks the name's shape. */
static int hdrfield_split_name(const char *name, char *hdr,
			       struct netlink_ext_ack *extack)
{
	const char *slash = strchr(name, '/');

	if (!slash || slash == name || !slash[1] || strchr(slash + 1, '/')) {
		NL_SET_ERR_MSG(extack,
			       "Header field name must be HEADER/FIELD");
		return -EINVAL;
	}
	if (!strcmp(slash + 1, P4TC_VALID_FIELD)) {
		NL_SET_ERR_MSG(extack,
			       "Field name isValid is reserved for header validity");
		return -EINVAL;
	}
	strscpy(hdr, name, min_t(size_t, slash - name + 1, HEADERNAMSIZ));
	return 0;
}

static struct p4tc_hdrfield *
tcf_hdrfield_find_byany(struct p4tc_parser *parser, const char *name, u32 id,
			struct netlink_ext_ack *extack)
{
	struct p4tc_template_common *common;

	common = p4tc_tmpl_find_byany(&parser->hdrfield_idr, name, id,
				      &hdrfield_msgs, extack);
	return IS_ERR(common) ? ERR_CAST(common) : to_hdrfield(common);
}

/* Check type and placement of a field of header @hdr (may be NULL). */
static int hdrfield_check(const struct p4tc_hdrfield_ty *ty, u16 offset,
			  const struct p4tc_header *hdr,
			  struct netlink_ext_ack *extack)
{
	const struct p4tc_type *type = p4type_find_byid(ty->datatype);
	int ret;

	if (!type || (type->flags & P4T_F_BLOB)) {
		NL_SET_ERR_MSG(extack, "Invalid hdrfield data type");
		return -EINVAL;
	}
	if (ty->startbit > ty->endbit) {
		NL_SET_ERR_MSG(extack, "Header field startbit > endbit");
		return -EINVAL;
	}
	ret = p4t_check_slice(type, ty->startbit, ty->endbit, extack);
	if (ret < 0)
		return ret;
	/* a field made before its header is checked when the header comes */
	if (offset == P4TC_HDRFIELD_NO_OFFSET || !hdr)
		return 0;
	if (offset + ty->endbit - ty->startbit + 1 > hdr->min_len * 8) {
		NL_SET_ERR_MSG(extack,
			       "Field lies beyond the fixed part of its header");
		return -EINVAL;
	}
	return 0;
}

static void tcf_hdrfield_free(struct p4tc_parser *parser,
			      struct p4tc_hdrfield *field)
{
	idr_remove(&parser->hdrfield_idr, field->hdrfield_id);
	if (field->header)
		refcount_dec(&field->header->hdr_ref);
	parser->num_objects--;
	kfree(field);
}

static int __tcf_hdrfield_put(struct p4tc_pipeline *pipeline,
			      struct p4tc_hdrfield *field,
			      struct netlink_ext_ack *extack)
{
	if (!refcount_dec_if_one(&field->hdrfield_ref)) {
		NL_SET_ERR_MSG(extack, "Unable to delete referenced header field");
		return -EBUSY;
	}
	tcf_hdrfield_free(pipeline->parser, field);
	tcf_parser_put_if_empty(pipeline);
	return 0;
}

static int tcf_hdrfield_put(struct net *net, struct p4tc_template_common *tmpl,
			    struct netlink_ext_ack *extack)
{
	struct p4tc_pipeline *pipeline = tcf_pipeline_find_byid(net, tmpl->p_id);

	return __tcf_hdrfield_put(pipeline, to_hdrfield(tmpl), extack);
}

/* The parser id a create or update names: an attribute, or the path */
static u32 tcf_parser_id(struct nlattr *attr, const u32 *ids)
{
	return attr ? nla_get_u32(attr) : ids[P4TC_PARSEID_IDX];
}

static struct p4tc_template_common *
tcf_hdrfield_create(struct p4tc_pipeline *pipeline, struct nlattr **tb,
		    u32 *ids, struct netlink_ext_ack *extack)
{
	const char *pname = tb[P4TC_HDRFIELD_PARSER_NAME] ?
			    nla_data(tb[P4TC_HDRFIELD_PARSER_NAME]) : NULL;
	u16 offset = P4TC_HDRFIELD_NO_OFFSET;
	const struct p4tc_hdrfield_ty *ty;
	char hdrname[HEADERNAMSIZ];
	struct p4tc_hdrfield *field;
	struct p4tc_parser *parser;
	struct p4tc_header *hdr;
	u32 id = ids[P4TC_HDRFIELDID_IDX];
	const char *name;
	int ret;

	if (!tb[P4TC_HDRFIELD_NAME]) {
		NL_SET_ERR_MSG(extack, "Must specify header field name");
		return ERR_PTR(-EINVAL);
	}
	name = nla_data(tb[P4TC_HDRFIELD_NAME]);
	ret = hdrfield_split_name(name, hdrname, extack);
	if (ret < 0)
		return ERR_PTR(ret);
	if (!tb[P4TC_HDRFIELD_DATA]) {
		NL_SET_ERR_MSG(extack, "Must supply header field data");
		return ERR_PTR(-EINVAL);
	}
	ty = nla_data(tb[P4TC_HDRFIELD_DATA]);
	if (tb[P4TC_HDRFIELD_OFFSET])
		offset = nla_get_u16(tb[P4TC_HDRFIELD_OFFSET]);

	if (pipeline->parser && tcf_hdrfield_find_byname(pipeline->parser, name)) {
		NL_SET_ERR_MSG(extack, "Header field with same id or name was already inserted");
		return ERR_PTR(-EEXIST);
	}
	if (pipeline->parser && id &&
	    idr_find(&pipeline->parser->hdrfield_idr, id)) {
		NL_SET_ERR_MSG(extack, "Header field with same id or name was already inserted");
		return ERR_PTR(-EEXIST);
	}
	hdr = pipeline->parser ? tcf_header_find_byname(pipeline->parser, hdrname) :
	      NULL;
	ret = hdrfield_check(ty, offset, hdr, extack);
	if (ret < 0)
		return ERR_PTR(ret);

	parser = tcf_parser_get_or_create(pipeline, pname,
					  tcf_parser_id(tb[P4TC_HDRFIELD_PARSER_ID],
							ids),
					  extack);
	if (IS_ERR(parser))
		return ERR_CAST(parser);

	field = kzalloc(sizeof(*field), GFP_KERNEL_ACCOUNT);
	if (!field) {
		NL_SET_ERR_MSG(extack, "Failed to allocate hdrfield");
		ret = -ENOMEM;
		goto put_parser;
	}
	ret = p4tc_tmpl_alloc_id(&parser->hdrfield_idr, field, &id,
				 "Unable to allocate ID for hdrfield", extack);
	if (ret < 0) {
		kfree(field);
		goto put_parser;
	}

	strscpy(field->common.name, name, HDRFIELDNAMSIZ);
	field->common.ops = &p4tc_hdrfield_ops;
	field->common.p_id = pipeline->common.p_id;
	field->parser = parser;
	field->hdrfield_id = id;
	field->startbit = ty->startbit;
	field->endbit = ty->endbit;
	field->datatype = ty->datatype;
	field->offset = offset;
	refcount_set(&field->hdrfield_ref, 1);
	if (hdr) {
		field->header = hdr;
		refcount_inc(&hdr->hdr_ref);
	}
	parser->num_objects++;
	return &field->common;

put_parser:
	tcf_parser_put_if_empty(pipeline);
	return ERR_PTR(ret);
}

static struct p4tc_template_common *
tcf_hdrfield_update(struct p4tc_pipeline *pipeline, struct nlattr **tb,
		    u32 *ids, struct netlink_ext_ack *extack)
{
	const char *pname = tb[P4TC_HDRFIELD_PARSER_NAME] ?
			    nla_data(tb[P4TC_HDRFIELD_PARSER_NAME]) : NULL;
	const char *name = tb[P4TC_HDRFIELD_NAME] ?
			   nla_data(tb[P4TC_HDRFIELD_NAME]) : NULL;
	struct p4tc_hdrfield_ty ty;
	struct p4tc_hdrfield *field;
	struct p4tc_parser *parser;
	u16 offset;
	int ret;

	parser = tcf_parser_find(pipeline, pname,
				 tcf_parser_id(tb[P4TC_HDRFIELD_PARSER_ID], ids),
				 extack);
	if (IS_ERR(parser))
		return ERR_CAST(parser);
	field = tcf_hdrfield_find_byany(parser, name, ids[P4TC_HDRFIELDID_IDX],
					extack);
	if (IS_ERR(field))
		return ERR_CAST(field);
	if (refcount_read(&field->hdrfield_ref) > 1) {
		NL_SET_ERR_MSG(extack,
			       "Header field is in use (by its header or an action)");
		return ERR_PTR(-EBUSY);
	}

	ty.startbit = field->startbit;
	ty.endbit = field->endbit;
	ty.datatype = field->datatype;
	if (tb[P4TC_HDRFIELD_DATA])
		ty = *(struct p4tc_hdrfield_ty *)nla_data(tb[P4TC_HDRFIELD_DATA]);
	offset = tb[P4TC_HDRFIELD_OFFSET] ?
		 nla_get_u16(tb[P4TC_HDRFIELD_OFFSET]) : field->offset;
	ret = hdrfield_check(&ty, offset, field->header, extack);
	if (ret < 0)
		return ERR_PTR(ret);

	field->startbit = ty.startbit;
	field->endbit = ty.endbit;
	field->datatype = ty.datatype;
	field->offset = offset;
	return &field->common;
}

static int tcf_hdrfield_fill(struct sk_buff *skb,
			     struct p4tc_template_common *tmpl)
{
	const struct p4tc_hdrfield *field = to_hdrfield(tmpl);
	struct p4tc_hdrfield_ty ty = {
		.startbit = field->startbit,
		.endbit = field->endbit,
		.datatype = field->datatype,
	};
	u32 ids[] = { field->common.p_id, field->parser->parser_id,
		      field->hdrfield_id };
	struct nlattr *nest;

	if (p4tc_put_path(skb, ids, ARRAY_SIZE(ids)))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, P4TC_PARAMS);
	if (!nest ||
	    nla_put_string(skb, P4TC_HDRFIELD_NAME, field->common.name) ||
	    nla_put_string(skb, P4TC_HDRFIELD_PARSER_NAME,
			   field->parser->parser_name) ||
	    nla_put_u32(skb, P4TC_HDRFIELD_PARSER_ID,
			field->parser->parser_id) ||
	    nla_put(skb, P4TC_HDRFIELD_DATA, sizeof(ty), &ty))
		return -EMSGSIZE;
	if (field->offset != P4TC_HDRFIELD_NO_OFFSET &&
	    nla_put_u16(skb, P4TC_HDRFIELD_OFFSET, field->offset))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int tcf_hdrfield_flush(struct p4tc_pipeline *pipeline,
			      struct p4tc_parser *parser,
			      struct netlink_ext_ack *extack)
{
	struct p4tc_hdrfield *field;
	unsigned long tmp, id;

	/* the seed's text, though these are header fields */
	idr_for_each_entry_ul(&parser->hdrfield_idr, field, tmp, id) {
		if (refcount_read(&field->hdrfield_ref) > 1) {
			NL_SET_ERR_MSG(extack, "Unable to flush any table instance");
			return -EBUSY;
		}
	}
	idr_for_each_entry_ul(&parser->hdrfield_idr, field, tmp, id)
		tcf_hdrfield_free(parser, field);
	tcf_parser_put_if_empty(pipeline);
	return 0;
}

/* How a get or delete finds a header field or a header */
struct tcf_parser_kind {
	const struct nla_policy *policy;
	int maxattr;
	int name_attr;
	int parser_name_attr;
	int parser_id_attr;
	int id_idx;
	size_t idr_offset;	/* of the objects' IDR in struct p4tc_parser */
	const struct p4tc_find_msgs *msgs;
	const char *none_to_flush;	/* a warning, not an error */
	int (*flush)(struct p4tc_pipeline *pipeline, struct p4tc_parser *parser,
		     struct netlink_ext_ack *extack);
	int (*put)(struct p4tc_pipeline *pipeline,
		   struct p4tc_template_common *tmpl,
		   struct netlink_ext_ack *extack);
};

static int tcf_parser_gd(const struct tcf_parser_kind *kind, struct net *net,
			 struct sk_buff *skb, struct nlmsghdr *n,
			 struct nlattr *nla, struct p4tc_nl_pname *nl_pname,
			 u32 *ids, struct netlink_ext_ack *extack)
{
	struct nlattr *tb[P4TC_HEADER_MAX + 1] = {};
	bool del = n->nlmsg_type == RTM_DELP4TEMPLATE;
	struct p4tc_template_common *tmpl;
	struct p4tc_pipeline *pipeline;
	struct p4tc_parser *parser;
	const char *name, *pname;
	bool flush;
	int ret;

	if (nla) {
		ret = nla_parse_nested(tb, kind->maxattr, nla, kind->policy,
				       extack);
		if (ret < 0)
			return ret;
	}
	if (tb[kind->parser_id_attr])
		ids[P4TC_PARSEID_IDX] = nla_get_u32(tb[kind->parser_id_attr]);
	pipeline = p4tc_req_pipeline(net, nl_pname, ids, del, extack);
	if (IS_ERR(pipeline))
		return PTR_ERR(pipeline);

	name = tb[kind->name_attr] ? nla_data(tb[kind->name_attr]) : NULL;
	flush = del && (n->nlmsg_flags & NLM_F_ROOT) && !name &&
		!ids[kind->id_idx];
	if (flush && !pipeline->parser) {
		p4tc_set_msg(extack, kind->none_to_flush);
		return 0;
	}
	pname = tb[kind->parser_name_attr] ?
		nla_data(tb[kind->parser_name_attr]) : NULL;
	parser = tcf_parser_find(pipeline, pname, ids[P4TC_PARSEID_IDX], extack);
	if (IS_ERR(parser))
		return PTR_ERR(parser);
	ids[P4TC_PARSEID_IDX] = parser->parser_id;

	if (flush) {
		if (idr_is_empty((void *)parser + kind->idr_offset)) {
			p4tc_set_msg(extack, kind->none_to_flush);
			return 0;
		}
		return kind->flush(pipeline, parser, extack);
	}

	tmpl = p4tc_tmpl_find_byany((void *)parser + kind->idr_offset, name,
				    ids[kind->id_idx], kind->msgs, extack);
	if (IS_ERR(tmpl))
		return PTR_ERR(tmpl);
	ret = p4tc_tmpl_fill(skb, tmpl, extack);
	if (ret < 0)
		return ret;

	if (del)
		return kind->put(pipeline, tmpl, extack);
	return 0;
}

static int tcf_hdrfield_put_common(struct p4tc_pipeline *pipeline,
				   struct p4tc_template_common *tmpl,
				   struct netlink_ext_ack *extack)
{
	return __tcf_hdrfield_put(pipeline, to_hdrfield(tmpl), extack);
}

static const struct tcf_parser_kind hdrfield_kind = {
	.policy = p4tc_hdrfield_policy,
	.maxattr = P4TC_HDRFIELD_MAX,
	.name_attr = P4TC_HDRFIELD_NAME,
	.parser_name_attr = P4TC_HDRFIELD_PARSER_NAME,
	.parser_id_attr = P4TC_HDRFIELD_PARSER_ID,
	.id_idx = P4TC_HDRFIELDID_IDX,
	.idr_offset = offsetof(struct p4tc_parser, hdrfield_idr),
	.msgs = &hdrfield_msgs,
	.none_to_flush = "There are no header fields to flush",
	.flush = tcf_hdrfield_flush,
	.put = tcf_hdrfield_put_common,
};

static int tcf_hdrfield_gd(struct net *net, struct sk_buff *skb,
			   struct nlmsghdr *n, struct nlattr *nla,
			   struct p4tc_nl_pname *nl_pname, u32 *ids,
			   struct netlink_ext_ack *extack)
{
	return tcf_parser_gd(&hdrfield_kind, net, skb, n, nla, nl_pname, ids,
			     extack);
}

/* Pipeline and parser of a dump request */
static struct p4tc_parser *tcf_parser_dump_find(struct sk_buff *skb,
						char **p_name, u32 *ids,
						struct netlink_ext_ack *extack)
{
	struct p4tc_pipeline *pipeline;

	pipeline = p4tc_dump_pipeline(skb, p_name, ids, extack);
	return IS_ERR(pipeline) ? ERR_CAST(pipeline) : pipeline->parser;
}

static int tcf_hdrfield_dump(struct sk_buff *skb, struct p4tc_dump_ctx *ctx,
			     struct nlattr *nla, char **p_name, u32 *ids,
			     struct netlink_ext_ack *extack)
{
	struct p4tc_parser *parser;

	parser = tcf_parser_dump_find(skb, p_name, ids, extack);
	if (IS_ERR(parser))
		return PTR_ERR(parser);
	if (!parser)
		return 0;
	return tcf_p4_tmpl_generic_dump(skb, ctx, &parser->hdrfield_idr,
					P4TC_HDRFIELDID_IDX, tcf_hdrfield_fill,
					extack);
}

const struct p4tc_template_ops p4tc_hdrfield_ops = {
	.policy = p4tc_hdrfield_policy,
	.maxattr = P4TC_HDRFIELD_MAX,
	.create = tcf_hdrfield_create,
	.update = tcf_hdrfield_update,
	.fill = tcf_hdrfield_fill,
	.gd = tcf_hdrfield_gd,
	.put = tcf_hdrfield_put,
	.dump = tcf_hdrfield_dump,
};

/* Headers */

static const struct p4tc_find_msgs header_msgs = {
	.no_id = "Unable to find header by id",
	.mismatch = "Header name and id name different headers",
	.no_key = "Must specify header name or id",
	.no_name = "Header name not found",
};

struct p4tc_header *tcf_header_find_byname(struct p4tc_parser *parser,
					   const char *name)
{
	struct p4tc_template_common *common;

	common = p4tc_tmpl_find_byname(&parser->header_idr, name);
	return common ? to_header(common) : NULL;
}

static struct p4tc_header *
tcf_header_find_byany(struct p4tc_parser *parser, const char *name, u32 id,
		      struct netlink_ext_ack *extack)
{
	struct p4tc_template_common *common;

	common = p4tc_tmpl_find_byany(&parser->header_idr, name, id,
				      &header_msgs, extack);
	return IS_ERR(common) ? ERR_CAST(common) : to_header(common);
}

/* Length of a header; see P4TC_HEADER_LEN */
struct p4tc_header_len {
	u16 min_len;
	u16 max_len;
	u16 len_mult;
	u16 len_add;
};

/* What a header's graph attributes resolve to before they are applied. */
struct p4tc_header_graph {
	struct p4tc_header_len len;
	struct p4tc_hdrfield *len_field;
	struct p4tc_hdrfield *select;
	struct p4tc_header_trans trans[P4TC_MAX_TRANSITIONS];
	u8 num_trans;
	struct p4tc_header *default_next;
	u8 default_kind;
	int start;	/* -1: unchanged */
};

static void header_graph_of(const struct p4tc_header *hdr,
			    struct p4tc_header_graph *g)
{
	g->len.min_len = hdr->min_len;
	g->len.max_len = hdr->max_len;
	g->len.len_mult = hdr->len_mult;
	g->len.len_add = hdr->len_add;
	g->len_field = hdr->len_field;
	g->select = hdr->select;
	memcpy(g->trans, hdr->trans, sizeof(g->trans));
	g->num_trans = hdr->num_trans;
	g->default_next = hdr->default_next;
	g->default_kind = hdr->default_kind;
	g->start = -1;
}

/* A next-header name: a header of @parser other than @self, or a verdict. */
static int header_parse_next(struct p4tc_parser *parser,
			     const struct p4tc_header *self,
			     const struct nlattr *attr,
			     struct p4tc_header **next, u8 *kind,
			     struct netlink_ext_ack *extack)
{
	const char *name = nla_data(attr);

	*next = NULL;
	if (!strcmp(name, P4TC_PARSE_ACCEPT)) {
		*kind = P4TC_NEXT_ACCEPT;
		return 0;
	}
	if (!strcmp(name, P4TC_PARSE_REJECT)) {
		*kind = P4TC_NEXT_REJECT;
		return 0;
	}
	*next = tcf_header_find_byname(parser, name);
	if (!*next) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "Next header not found");
		return -ENOENT;
	}
	if (*next == self) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "A header cannot be followed by itself");
		return -ELOOP;
	}
	*kind = P4TC_NEXT_HEADER;
	return 0;
}

/* A field of header @hdr that is placed, by its short name. */
static int header_parse_field(struct p4tc_parser *parser, const char *hdr,
			      const struct nlattr *attr,
			      struct p4tc_hdrfield **field,
			      struct netlink_ext_ack *extack)
{
	const char *fname = nla_data(attr);

	*field = NULL;
	if (!fname[0])
		return 0;
	*field = tcf_hdrfield_of(parser, hdr, fname);
	if (!*field) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "Field not found in this header");
		return -ENOENT;
	}
	if ((*field)->offset == P4TC_HDRFIELD_NO_OFFSET) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "Field has no offset in its header");
		return -EINVAL;
	}
	if (hdrfield_width(*field) > 64) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "Length and select fields are at most 64 bits");
		return -EINVAL;
	}
	return 0;
}

static int header_parse_transitions(struct p4tc_parser *parser,
				    const struct p4tc_header *self,
				    struct nlattr *nla,
				    struct p4tc_header_graph *g,
				    struct netlink_ext_ack *extack)
{
	struct nlattr *tb[P4TC_TRANS_MAX + 1];
	struct p4t_val width_mask = {};
	struct nlattr *attr;
	int rem, ret, n = 0;

	if (g->select) {
		width_mask.w[0] = ~0ULL;
		width_mask.w[1] = 0;
		if (hdrfield_width(g->select) < 64)
			width_mask.w[0] = (1ULL << hdrfield_width(g->select)) - 1;
	}

	nla_for_each_nested(attr, nla, rem) {
		struct p4tc_header_trans *t;

		if (n == P4TC_MAX_TRANSITIONS) {
			NL_SET_ERR_MSG(extack,
				       "A header has at most 16 transitions");
			return -E2BIG;
		}
		if (!g->select) {
			NL_SET_ERR_MSG(extack,
				       "Transitions need a select field");
			return -EINVAL;
		}
		ret = nla_parse_nested(tb, P4TC_TRANS_MAX, attr,
				       p4tc_trans_policy, extack);
		if (ret < 0)
			return ret;
		if (!tb[P4TC_TRANS_VALUE] || !tb[P4TC_TRANS_NEXT]) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "A transition needs a value and a next header");
			return -EINVAL;
		}
		t = &g->trans[n];
		memcpy(&t->value, nla_data(tb[P4TC_TRANS_VALUE]),
		       sizeof(t->value));
		t->mask = width_mask;
		if (tb[P4TC_TRANS_MASK])
			memcpy(&t->mask, nla_data(tb[P4TC_TRANS_MASK]),
			       sizeof(t->mask));
		if ((t->value.w[0] & ~width_mask.w[0]) || t->value.w[1] ||
		    (t->mask.w[0] & ~width_mask.w[0]) || t->mask.w[1]) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "Transition value or mask wider than the select field");
			return -ERANGE;
		}
		if (t->value.w[0] & ~t->mask.w[0]) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "Transition value has bits outside its mask");
			return -EINVAL;
		}
		ret = header_parse_next(parser, self, tb[P4TC_TRANS_NEXT],
					&t->next, &t->next_kind, extack);
		if (ret < 0)
			return ret;
		n++;
	}
	g->num_trans = n;
	return 0;
}

/* Does @from lead to @self?  A depth-first walk that enters each header
 * once (@seen: their parse slots), so it costs at most every edge of the
 * graph once, whatever its shape: without the memo, 20 headers with 17
 * edges each took ~17^20 steps under RTNL.  The graph has no loop, so the
 * depth stays below P4TC_MAX_PARSE_HEADERS.
 */
static bool header_reaches(struct p4tc_header *from, struct p4tc_header *self,
			   u32 *seen)
{
	int i;

	if (from == self)
		return true;
	if (*seen & BIT(from->slot))
		return false;
	*seen |= BIT(from->slot);
	for (i = 0; i < from->num_trans; i++)
		if (from->trans[i].next &&
		    header_reaches(from->trans[i].next, self, seen))
			return true;
	return from->default_next &&
	       header_reaches(from->default_next, self, seen);
}

/* Would @self with edges @g be reachable from one of its next headers? */
static bool header_graph_loops(struct p4tc_header *self,
			       const struct p4tc_header_graph *g)
{
	u32 seen = 0;
	int i;

	for (i = 0; i < g->num_trans; i++)
		if (g->trans[i].next &&
		    header_reaches(g->trans[i].next, self, &seen))
			return true;
	return g->default_next && header_reaches(g->default_next, self, &seen);
}

/* Resolve and check the graph attributes of @tb onto @g (which starts as
 * the header's current state).  @self is NULL for a header being created.
 */
static int header_parse_graph(struct p4tc_parser *parser,
			      struct p4tc_header *self, const char *name,
			      struct nlattr **tb, struct p4tc_header_graph *g,
			      struct netlink_ext_ack *extack)
{
	struct p4tc_header_len *len = &g->len;
	int ret;

	if (tb[P4TC_HEADER_LEN])
		len->min_len = nla_get_u16(tb[P4TC_HEADER_LEN]);
	if (tb[P4TC_HEADER_MAXLEN])
		len->max_len = nla_get_u16(tb[P4TC_HEADER_MAXLEN]);
	if (tb[P4TC_HEADER_LEN_MULT])
		len->len_mult = nla_get_u16(tb[P4TC_HEADER_LEN_MULT]);
	if (tb[P4TC_HEADER_LEN_ADD])
		len->len_add = nla_get_u16(tb[P4TC_HEADER_LEN_ADD]);
	if (tb[P4TC_HEADER_LEN_FIELD]) {
		ret = header_parse_field(parser, name, tb[P4TC_HEADER_LEN_FIELD],
					 &g->len_field, extack);
		if (ret < 0)
			return ret;
	}
	if (tb[P4TC_HEADER_SELECT]) {
		ret = header_parse_field(parser, name, tb[P4TC_HEADER_SELECT],
					 &g->select, extack);
		if (ret < 0)
			return ret;
		/* a new select field invalidates the old transitions */
		if (g->select != (self ? self->select : NULL) &&
		    !tb[P4TC_HEADER_TRANSITIONS])
			g->num_trans = 0;
	}
	if (tb[P4TC_HEADER_TRANSITIONS]) {
		ret = header_parse_transitions(parser, self,
					       tb[P4TC_HEADER_TRANSITIONS], g,
					       extack);
		if (ret < 0)
			return ret;
	}
	if (!g->select && g->num_trans) {
		NL_SET_ERR_MSG(extack, "Transitions need a select field");
		return -EINVAL;
	}
	if (tb[P4TC_HEADER_DEFAULT_NEXT]) {
		ret = header_parse_next(parser, self,
					tb[P4TC_HEADER_DEFAULT_NEXT],
					&g->default_next, &g->default_kind,
					extack);
		if (ret < 0)
			return ret;
	}
	if (tb[P4TC_HEADER_START])
		g->start = nla_get_u8(tb[P4TC_HEADER_START]);

	if (g->len_field) {
		if (len->max_len < len->min_len) {
			NL_SET_ERR_MSG(extack,
				       "A variable length needs maxlen at least len");
			return -EINVAL;
		}
		if (!len->len_mult) {
			NL_SET_ERR_MSG(extack,
				       "A variable length needs a multiplier (lenmult)");
			return -EINVAL;
		}
	} else if (len->max_len < len->min_len) {
		/* a fixed header: maxlen, lenmult, lenadd wait for a field */
		len->max_len = len->min_len;
	}
	return 0;
}

static void header_take_refs(struct p4tc_header_graph *g)
{
	int i;

	if (g->len_field)
		refcount_inc(&g->len_field->hdrfield_ref);
	if (g->select)
		refcount_inc(&g->select->hdrfield_ref);
	for (i = 0; i < g->num_trans; i++)
		if (g->trans[i].next)
			refcount_inc(&g->trans[i].next->hdr_ref);
	if (g->default_next)
		refcount_inc(&g->default_next->hdr_ref);
}

static void header_drop_refs(struct p4tc_header *hdr)
{
	int i;

	if (hdr->len_field)
		refcount_dec(&hdr->len_field->hdrfield_ref);
	if (hdr->select)
		refcount_dec(&hdr->select->hdrfield_ref);
	for (i = 0; i < hdr->num_trans; i++)
		if (hdr->trans[i].next)
			refcount_dec(&hdr->trans[i].next->hdr_ref);
	if (hdr->default_next)
		refcount_dec(&hdr->default_next->hdr_ref);
}

/* Apply a checked graph: references move from the old edges to the new. */
static void header_apply_graph(struct p4tc_parser *parser,
			       struct p4tc_header *hdr,
			       struct p4tc_header_graph *g)
{
	header_take_refs(g);
	header_drop_refs(hdr);
	hdr->min_len = g->len.min_len;
	hdr->max_len = g->len.max_len;
	hdr->len_mult = g->len.len_mult;
	hdr->len_add = g->len.len_add;
	hdr->len_field = g->len_field;
	hdr->select = g->select;
	memcpy(hdr->trans, g->trans, sizeof(hdr->trans));
	hdr->num_trans = g->num_trans;
	hdr->default_next = g->default_next;
	hdr->default_kind = g->default_kind;
	if (g->start == 1)
		parser->start = hdr;
	else if (!g->start && parser->start == hdr)
		parser->start = NULL;
}

static int header_check_start(struct p4tc_parser *parser,
			      struct p4tc_header *hdr,
			      const struct p4tc_header_graph *g,
			      struct netlink_ext_ack *extack)
{
	if (g->start == 1 && parser->start && parser->start != hdr) {
		NL_SET_ERR_MSG(extack, "Parser already starts at another header");
		return -EEXIST;
	}
	return 0;
}

/* Placed fields must stay inside the fixed part of the header. */
static int header_check_fields(struct p4tc_parser *parser,
			       struct p4tc_header *hdr, u16 min_len,
			       struct netlink_ext_ack *extack)
{
	struct p4tc_hdrfield *field;
	unsigned long tmp, id;

	idr_for_each_entry_ul(&parser->hdrfield_idr, field, tmp, id) {
		if (field->header != hdr ||
		    field->offset == P4TC_HDRFIELD_NO_OFFSET)
			continue;
		if (field->offset + hdrfield_width(field) > min_len * 8) {
			NL_SET_ERR_MSG(extack,
				       "A placed field would lie beyond the header's fixed length");
			return -EINVAL;
		}
	}
	return 0;
}

static void tcf_header_free(struct p4tc_parser *parser, struct p4tc_header *hdr)
{
	header_drop_refs(hdr);
	if (parser->start == hdr)
		parser->start = NULL;
	idr_remove(&parser->header_idr, hdr->hdr_id);
	if (hdr->hdr_id <= P4TC_MAX_PARSE_HEADERS)
		parser->hdr_by_id[hdr->hdr_id - 1] = NULL;
	parser->hdr_slots &= ~BIT(hdr->slot);
	parser->num_objects--;
	parser->num_headers--;
	kfree(hdr);
}

static int __tcf_header_put(struct p4tc_pipeline *pipeline,
			    struct p4tc_header *hdr,
			    struct netlink_ext_ack *extack)
{
	if (!refcount_dec_if_one(&hdr->hdr_ref)) {
		NL_SET_ERR_MSG(extack,
			       "Header has fields, is the next header of another or is named by a command");
		return -EBUSY;
	}
	tcf_header_free(pipeline->parser, hdr);
	tcf_parser_put_if_empty(pipeline);
	return 0;
}

static int tcf_header_put(struct net *net, struct p4tc_template_common *tmpl,
			  struct netlink_ext_ack *extack)
{
	struct p4tc_pipeline *pipeline = tcf_pipeline_find_byid(net, tmpl->p_id);

	return __tcf_header_put(pipeline, to_header(tmpl), extack);
}

/* Take back a header the same batch created: the fields it adopted are
 * fields without a header again, and nothing else names it.
 */
static void tcf_header_undo(struct net *net, struct p4tc_template_common *tmpl)
{
	struct p4tc_pipeline *pipeline = tcf_pipeline_find_byid(net, tmpl->p_id);
	struct p4tc_header *hdr = to_header(tmpl);
	struct p4tc_hdrfield *field;
	unsigned long tmp, id;

	idr_for_each_entry_ul(&hdr->parser->hdrfield_idr, field, tmp, id) {
		if (field->header == hdr) {
			field->header = NULL;
			refcount_dec(&hdr->hdr_ref);
		}
	}
	WARN_ON_ONCE(__tcf_header_put(pipeline, hdr, NULL));
}

static struct p4tc_template_common *
tcf_header_create(struct p4tc_pipeline *pipeline, struct nlattr **tb,
		  u32 *ids, struct netlink_ext_ack *extack)
{
	const char *pname = tb[P4TC_HEADER_PARSER_NAME] ?
			    nla_data(tb[P4TC_HEADER_PARSER_NAME]) : NULL;
	struct p4tc_parser *parser = pipeline->parser;
	struct p4tc_header_graph *g;
	u32 id = ids[P4TC_HDRID_IDX];
	struct p4tc_hdrfield *field;
	struct p4tc_header *hdr;
	unsigned long tmp, fid;
	const char *name;
	int ret;

	if (!tb[P4TC_HEADER_NAME]) {
		NL_SET_ERR_MSG(extack, "Must specify header name");
		return ERR_PTR(-EINVAL);
	}
	name = nla_data(tb[P4TC_HEADER_NAME]);
	ret = p4tc_name_check(name, extack);
	if (ret < 0)
		return ERR_PTR(ret);
	if (strchr(name, '/') || !strcmp(name, P4TC_PARSE_ACCEPT) ||
	    !strcmp(name, P4TC_PARSE_REJECT)) {
		NL_SET_ERR_MSG(extack,
			       "Header name must not contain '/' nor be accept or reject");
		return ERR_PTR(-EINVAL);
	}
	if (!tb[P4TC_HEADER_LEN]) {
		NL_SET_ERR_MSG(extack, "Must specify header length");
		return ERR_PTR(-EINVAL);
	}
	if (parser && tcf_header_find_byname(parser, name)) {
		NL_SET_ERR_MSG(extack, "Header with the same name already exists");
		return ERR_PTR(-EEXIST);
	}
	if (parser && id && idr_find(&parser->header_idr, id)) {
		NL_SET_ERR_MSG(extack, "Header with the same id already exists");
		return ERR_PTR(-EEXIST);
	}
	if (parser && parser->num_headers >= P4TC_MAX_PARSE_HEADERS) {
		NL_SET_ERR_MSG(extack, "A parser has at most 32 headers");
		return ERR_PTR(-ENOSPC);
	}

	/* sixteen transitions are too many for the stack */
	g = kzalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return ERR_PTR(-ENOMEM);
	g->default_kind = P4TC_NEXT_ACCEPT;
	g->start = -1;

	parser = tcf_parser_get_or_create(pipeline, pname,
					  tcf_parser_id(tb[P4TC_HEADER_PARSER_ID],
							ids),
					  extack);
	if (IS_ERR(parser)) {
		kfree(g);
		return ERR_CAST(parser);
	}

	ret = header_parse_graph(parser, NULL, name, tb, g, extack);
	if (ret < 0)
		goto put_parser;
	ret = header_check_start(parser, NULL, g, extack);
	if (ret < 0)
		goto put_parser;
	/* fields made before their header must fit it */
	idr_for_each_entry_ul(&parser->hdrfield_idr, field, tmp, fid) {
		if (!hdrfield_of_header(field, name) ||
		    field->offset == P4TC_HDRFIELD_NO_OFFSET)
			continue;
		if (field->offset + hdrfield_width(field) > g->len.min_len * 8) {
			NL_SET_ERR_MSG(extack,
				       "A placed field would lie beyond the header's fixed length");
			ret = -EINVAL;
			goto put_parser;
		}
	}

	hdr = kzalloc(sizeof(*hdr), GFP_KERNEL_ACCOUNT);
	if (!hdr) {
		ret = -ENOMEM;
		goto put_parser;
	}
	ret = p4tc_tmpl_alloc_id(&parser->header_idr, hdr, &id,
				 "Unable to allocate header id", extack);
	if (ret < 0) {
		kfree(hdr);
		goto put_parser;
	}
	strscpy(hdr->common.name, name, HEADERNAMSIZ);
	hdr->common.ops = &p4tc_header_ops;
	hdr->common.p_id = pipeline->common.p_id;
	hdr->parser = parser;
	hdr->hdr_id = id;
	if (id <= P4TC_MAX_PARSE_HEADERS)
		parser->hdr_by_id[id - 1] = hdr;
	/* num_headers < P4TC_MAX_PARSE_HEADERS (32): a slot is free */
	hdr->slot = ffz(parser->hdr_slots);
	parser->hdr_slots |= BIT(hdr->slot);
	refcount_set(&hdr->hdr_ref, 1);
	header_apply_graph(parser, hdr, g);
	kfree(g);
	parser->num_objects++;
	parser->num_headers++;

	/* fields made before their header now belong to it */
	idr_for_each_entry_ul(&parser->hdrfield_idr, field, tmp, fid) {
		if (hdrfield_of_header(field, name)) {
			field->header = hdr;
			refcount_inc(&hdr->hdr_ref);
		}
	}
	return &hdr->common;

put_parser:
	kfree(g);
	tcf_parser_put_if_empty(pipeline);
	return ERR_PTR(ret);
}

static struct p4tc_template_common *
tcf_header_update(struct p4tc_pipeline *pipeline, struct nlattr **tb,
		  u32 *ids, struct netlink_ext_ack *extack)
{
	const char *pname = tb[P4TC_HEADER_PARSER_NAME] ?
			    nla_data(tb[P4TC_HEADER_PARSER_NAME]) : NULL;
	const char *name = tb[P4TC_HEADER_NAME] ?
			   nla_data(tb[P4TC_HEADER_NAME]) : NULL;
	struct p4tc_header_graph *g;
	struct p4tc_parser *parser;
	struct p4tc_header *hdr;
	int ret;

	parser = tcf_parser_find(pipeline, pname,
				 tcf_parser_id(tb[P4TC_HEADER_PARSER_ID], ids),
				 extack);
	if (IS_ERR(parser))
		return ERR_CAST(parser);
	hdr = tcf_header_find_byany(parser, name, ids[P4TC_HDRID_IDX], extack);
	if (IS_ERR(hdr))
		return ERR_CAST(hdr);

	g = kzalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return ERR_PTR(-ENOMEM);
	header_graph_of(hdr, g);
	ret = header_parse_graph(parser, hdr, hdr->common.name, tb, g, extack);
	if (ret < 0)
		goto out;
	ret = header_check_start(parser, hdr, g, extack);
	if (ret < 0)
		goto out;
	if (header_graph_loops(hdr, g)) {
		NL_SET_ERR_MSG(extack, "Transitions would make the parse graph loop");
		ret = -ELOOP;
		goto out;
	}
	ret = header_check_fields(parser, hdr, g->len.min_len, extack);
	if (ret < 0)
		goto out;

	header_apply_graph(parser, hdr, g);
out:
	kfree(g);
	return ret < 0 ? ERR_PTR(ret) : &hdr->common;
}

static const char *header_next_name(const struct p4tc_header *next, u8 kind)
{
	if (kind == P4TC_NEXT_ACCEPT)
		return P4TC_PARSE_ACCEPT;
	if (kind == P4TC_NEXT_REJECT)
		return P4TC_PARSE_REJECT;
	return next->common.name;
}

/* The part of a field name after "HDR/" */
static const char *hdrfield_short_name(const struct p4tc_hdrfield *field)
{
	return strchr(field->common.name, '/') + 1;
}

static int tcf_header_fill(struct sk_buff *skb,
			   struct p4tc_template_common *tmpl)
{
	const struct p4tc_header *hdr = to_header(tmpl);
	u32 ids[] = { hdr->common.p_id, hdr->parser->parser_id, hdr->hdr_id };
	struct nlattr *nest, *tnest, *t;
	int i;

	if (p4tc_put_path(skb, ids, ARRAY_SIZE(ids)))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, P4TC_PARAMS);
	if (!nest ||
	    nla_put_string(skb, P4TC_HEADER_NAME, hdr->common.name) ||
	    nla_put_string(skb, P4TC_HEADER_PARSER_NAME,
			   hdr->parser->parser_name) ||
	    nla_put_u32(skb, P4TC_HEADER_PARSER_ID, hdr->parser->parser_id) ||
	    nla_put_u16(skb, P4TC_HEADER_LEN, hdr->min_len) ||
	    nla_put_u16(skb, P4TC_HEADER_MAXLEN, hdr->max_len) ||
	    nla_put_u16(skb, P4TC_HEADER_LEN_MULT, hdr->len_mult) ||
	    nla_put_u16(skb, P4TC_HEADER_LEN_ADD, hdr->len_add) ||
	    nla_put_u8(skb, P4TC_HEADER_START, hdr->parser->start == hdr) ||
	    nla_put_string(skb, P4TC_HEADER_DEFAULT_NEXT,
			   header_next_name(hdr->default_next,
					    hdr->default_kind)))
		return -EMSGSIZE;
	if (hdr->len_field &&
	    nla_put_string(skb, P4TC_HEADER_LEN_FIELD,
			   hdrfield_short_name(hdr->len_field)))
		return -EMSGSIZE;
	if (hdr->select &&
	    nla_put_string(skb, P4TC_HEADER_SELECT,
			   hdrfield_short_name(hdr->select)))
		return -EMSGSIZE;
	if (hdr->num_trans) {
		tnest = nla_nest_start(skb, P4TC_HEADER_TRANSITIONS);
		if (!tnest)
			return -EMSGSIZE;
		for (i = 0; i < hdr->num_trans; i++) {
			const struct p4tc_header_trans *tr = &hdr->trans[i];

			t = nla_nest_start(skb, i + 1);
			if (!t ||
			    nla_put(skb, P4TC_TRANS_VALUE, sizeof(tr->value),
				    &tr->value) ||
			    nla_put(skb, P4TC_TRANS_MASK, sizeof(tr->mask),
				    &tr->mask) ||
			    nla_put_string(skb, P4TC_TRANS_NEXT,
					   header_next_name(tr->next,
							    tr->next_kind)))
				return -EMSGSIZE;
			nla_nest_end(skb, t);
		}
		nla_nest_end(skb, tnest);
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int tcf_header_flush(struct p4tc_pipeline *pipeline,
			    struct p4tc_parser *parser,
			    struct netlink_ext_ack *extack)
{
	u32 in[P4TC_MAX_PARSE_HEADERS];
	struct p4tc_hdrfield *field;
	struct p4tc_header *hdr;
	unsigned long tmp, id;
	int i;

	/* headers only refer to each other once their fields are gone */
	idr_for_each_entry_ul(&parser->hdrfield_idr, field, tmp, id) {
		if (field->header) {
			NL_SET_ERR_MSG(extack,
				       "Headers still have fields: nothing flushed");
			return -EBUSY;
		}
	}
	/* beyond their own and the graph's, a header's references are the
	 * commands' (setvalid, pkt operands): those keep every header
	 */
	memset(in, 0, sizeof(in));
	idr_for_each_entry_ul(&parser->header_idr, hdr, tmp, id) {
		for (i = 0; i < hdr->num_trans; i++)
			if (hdr->trans[i].next)
				in[hdr->trans[i].next->slot]++;
		if (hdr->default_next)
			in[hdr->default_next->slot]++;
	}
	idr_for_each_entry_ul(&parser->header_idr, hdr, tmp, id) {
		if (refcount_read(&hdr->hdr_ref) != 1 + in[hdr->slot]) {
			NL_SET_ERR_MSG_FMT(extack,
					   "Header %.32s is named by a command: nothing flushed",
					   hdr->common.name);
			return -EBUSY;
		}
	}
	idr_for_each_entry_ul(&parser->header_idr, hdr, tmp, id) {
		header_drop_refs(hdr);
		hdr->len_field = NULL;
		hdr->select = NULL;
		hdr->num_trans = 0;
		hdr->default_next = NULL;
	}
	idr_for_each_entry_ul(&parser->header_idr, hdr, tmp, id)
		tcf_header_free(parser, hdr);
	tcf_parser_put_if_empty(pipeline);
	return 0;
}

static int tcf_header_put_common(struct p4tc_pipeline *pipeline,
				 struct p4tc_template_common *tmpl,
				 struct netlink_ext_ack *extack)
{
	return __tcf_header_put(pipeline, to_header(tmpl), extack);
}

static const struct tcf_parser_kind header_kind = {
	.policy = p4tc_header_policy,
	.maxattr = P4TC_HEADER_MAX,
	.name_attr = P4TC_HEADER_NAME,
	.parser_name_attr = P4TC_HEADER_PARSER_NAME,
	.parser_id_attr = P4TC_HEADER_PARSER_ID,
	.id_idx = P4TC_HDRID_IDX,
	.idr_offset = offsetof(struct p4tc_parser, header_idr),
	.msgs = &header_msgs,
	.none_to_flush = "There are no headers to flush",
	.flush = tcf_header_flush,
	.put = tcf_header_put_common,
};

static int tcf_header_gd(struct net *net, struct sk_buff *skb,
			 struct nlmsghdr *n, struct nlattr *nla,
			 struct p4tc_nl_pname *nl_pname, u32 *ids,
			 struct netlink_ext_ack *extack)
{
	return tcf_parser_gd(&header_kind, net, skb, n, nla, nl_pname, ids,
			     extack);
}

static int tcf_header_dump(struct sk_buff *skb, struct p4tc_dump_ctx *ctx,
			   struct nlattr *nla, char **p_name, u32 *ids,
			   struct netlink_ext_ack *extack)
{
	struct p4tc_parser *parser;

	parser = tcf_parser_dump_find(skb, p_name, ids, extack);
	if (IS_ERR(parser))
		return PTR_ERR(parser);
	if (!parser)
		return 0;
	return tcf_p4_tmpl_generic_dump(skb, ctx, &parser->header_idr,
					P4TC_HDRID_IDX, tcf_header_fill, extack);
}

/**
 * p4tc_pipeline_bpf_parser_check - may an eBPF parser parse for @pipeline?
 * @pipeline: the pipeline a p4 filter binds
 * @extack: why not
 *
 * An eBPF parser names the headers it finds by id in its parser buffer
 * (struct p4tc_parser_buffer), which holds ids 1 to P4TC_MAX_PARSE_HEADERS:
 * a header with a larger id could never be found, so the filter is
 * refused rather than leave the header's fields unreadable.  Under RTNL.
 *
 * Return: 0, or -EINVAL.
 */
int p4tc_pipeline_bpf_parser_check(const struct p4tc_pipeline *pipeline,
				   struct netlink_ext_ack *extack)
{
	struct p4tc_parser *parser = pipeline->parser;
	struct p4tc_template_common *common;
	unsigned long tmp, id;

	if (!parser)
		return 0;
	idr_for_each_entry_ul(&parser->header_idr, common, tmp, id) {
		if (id > P4TC_MAX_PARSE_HEADERS) {
			NL_SET_ERR_MSG_FMT(extack,
					   "Header %s has id %lu: an eBPF parser names headers 1 to %u",
					   common->name, id,
					   P4TC_MAX_PARSE_HEADERS);
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * tcf_parser_check_sealable - may the pipeline's parse graph be sealed?
 * @pipeline: the pipeline
 * @extack: receives the reason of a refusal
 *
 * A parse graph with headers needs a start header.
 *
 * Return: 0 or -EINVAL.
 */
int tcf_parser_check_sealable(struct p4tc_pipeline *pipeline,
			      struct netlink_ext_ack *extack)
{
	struct p4tc_parser *parser = pipeline->parser;

	if (parser && !idr_is_empty(&parser->header_idr) && !parser->start) {
		NL_SET_ERR_MSG(extack,
			       "Parse graph has headers but no start header");
		return -EINVAL;
	}
	return 0;
}

/**
 * tcf_parser_purge - free the parser of a pipeline being destroyed
 * @pipeline: the pipeline
 */
void tcf_parser_purge(struct p4tc_pipeline *pipeline)
{
	struct p4tc_parser *parser = pipeline->parser;
	struct p4tc_hdrfield *field;
	struct p4tc_header *hdr;
	unsigned long tmp, id;

	if (!parser)
		return;
	idr_for_each_entry_ul(&parser->hdrfield_idr, field, tmp, id) {
		field->header = NULL;
		idr_remove(&parser->hdrfield_idr, id);
		kfree(field);
	}
	idr_for_each_entry_ul(&parser->header_idr, hdr, tmp, id) {
		idr_remove(&parser->header_idr, id);
		kfree(hdr);
	}
	parser->num_objects = 0;
	tcf_parser_put_if_empty(pipeline);
}

const struct p4tc_template_ops p4tc_header_ops = {
	.policy = p4tc_header_policy,
	.maxattr = P4TC_HEADER_MAX,
	.create = tcf_header_create,
	.update = tcf_header_update,
	.fill = tcf_header_fill,
	.gd = tcf_header_gd,
	.put = tcf_header_put,
	.undo = tcf_header_undo,
	.dump = tcf_header_dump,
};
