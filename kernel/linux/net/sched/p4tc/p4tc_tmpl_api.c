// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * P4TC template API: RTM_CREATEP4TEMPLATE, RTM_DELP4TEMPLATE and
 * RTM_GETP4TEMPLATE, dispatched to the object kind named by p4tcmsg.obj.
 *
 * A request is a p4tcmsg, an optional P4TC_ROOT_PNAME and a P4TC_ROOT nest
 * holding objects 1..N, each a P4TC_PATH (ids below the pipeline) and a
 * P4TC_PARAMS nest of the kind's attributes.  The reply (and the
 * RTNLGRP_TC notification) has the same shape, with every object as the
 * kernel holds it after the change.
 *
 * A create takes up to P4TC_MSGBATCH_SIZE objects and is all or nothing:
 * when one fails, those made before it are destroyed.  Updates and
 * deletes take one object per message, so no refused message leaves part
 * of itself applied.  Dumps continue across messages, P4TC_MSGBATCH_SIZE
 * objects each.
 */

#include <linux/kernel.h>
#include <linux/init.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/netlink.h>
#include <net/p4tc.h>
#include <net/rtnetlink.h>
#include <net/sock.h>

/* Replies hold whole objects: a pipeline's 2 x 32 bound actions, or a
 * register's 128 values, need more than a page.
 */
#define P4TC_REPLY_SIZE (4 * NLMSG_GOODSIZE)

const struct nla_policy p4tc_root_policy[P4TC_ROOT_MAX + 1] = {
	[P4TC_ROOT] = { .type = NLA_NESTED },
	[P4TC_ROOT_PNAME] = { .type = NLA_NUL_STRING, .len = PIPELINENAMSIZ - 1 },
};

static const struct nla_policy p4tc_policy[P4TC_MAX + 1] = {
	[P4TC_PATH] = { .type = NLA_BINARY,
			.len = (P4TC_PATH_MAX - 1) * sizeof(u32) },
	[P4TC_PARAMS] = { .type = NLA_NESTED },
};

static const struct p4tc_template_ops *p4tc_ops[P4TC_OBJ_MAX + 1] = {
	[P4TC_OBJ_PIPELINE] = &p4tc_pipeline_ops,
	[P4TC_OBJ_META] = &p4tc_meta_ops,
	[P4TC_OBJ_HDR_FIELD] = &p4tc_hdrfield_ops,
	[P4TC_OBJ_ACT] = &p4tc_act_ops,
	[P4TC_OBJ_REGISTER] = &p4tc_register_ops,
	[P4TC_OBJ_HEADER] = &p4tc_header_ops,
	[P4TC_OBJ_TABLE] = &p4tc_table_ops,
};

static const struct p4tc_template_ops *
p4tc_obj_ops(u32 obj, struct netlink_ext_ack *extack)
{
	if (obj > P4TC_OBJ_MAX || !p4tc_ops[obj]) {
		NL_SET_ERR_MSG(extack, "Invalid object type");
		return NULL;
	}
	return p4tc_ops[obj];
}

/**
 * p4tc_name_check - check a template object name
 * @name: the name
 * @extack: receives the reason of a refusal
 *
 * Return: 0, or -EINVAL for an empty name.
 */
int p4tc_name_check(const char *name, struct netlink_ext_ack *extack)
{
	if (!name || !name[0]) {
		NL_SET_ERR_MSG(extack, "Object name must not be empty");
		return -EINVAL;
	}
	return 0;
}

/**
 * p4tc_tmpl_find_byname - find a template object by name
 * @idr: the objects
 * @name: the name
 *
 * Return: the object, or NULL.
 */
struct p4tc_template_common *p4tc_tmpl_find_byname(struct idr *idr,
						   const char *name)
{
	struct p4tc_template_common *common;
	unsigned long tmp, id;

	idr_for_each_entry_ul(idr, common, tmp, id) {
		if (!strcmp(common->name, name))
			return common;
	}
	return NULL;
}

/**
 * p4tc_tmpl_find_byany - find a template object by name, id or both
 * @idr: the objects
 * @name: the name, or NULL
 * @id: the id, or 0
 * @msgs: what to say when the lookup fails
 * @extack: receives that
 *
 * When both are given they must name the same object.
 *
 * Return: the object, or an ERR_PTR.
 */
struct p4tc_template_common *
p4tc_tmpl_find_byany(struct idr *idr, const char *name, u32 id,
		     const struct p4tc_find_msgs *msgs,
		     struct netlink_ext_ack *extack)
{
	struct p4tc_template_common *common;

	if (id) {
		common = idr_find(idr, id);
		if (!common) {
			p4tc_set_msg(extack, msgs->no_id);
			return ERR_PTR(-ENOENT);
		}
		if (name && strcmp(common->name, name)) {
			p4tc_set_msg(extack, msgs->mismatch);
			return ERR_PTR(-EINVAL);
		}
		return common;
	}
	if (!name) {
		p4tc_set_msg(extack, msgs->no_key);
		return ERR_PTR(-EINVAL);
	}
	common = p4tc_tmpl_find_byname(idr, name);
	if (!common) {
		p4tc_set_msg(extack, msgs->no_name);
		return ERR_PTR(-ENOENT);
	}
	return common;
}

/**
 * p4tc_tmpl_alloc_id - give a new object the id asked for, or the first free
 * @idr: the objects
 * @obj: the new object
 * @id: in: the id asked for, or 0; out: the id given
 * @msg: what a failure says (the seed's message for the object kind)
 * @extack: receives the reason of a failure
 *
 * Callers check first that an id asked for is free.
 *
 * Return: 0 or a negative errno.
 */
int p4tc_tmpl_alloc_id(struct idr *idr, void *obj, u32 *id, const char *msg,
		       struct netlink_ext_ack *extack)
{
	int ret;

	if (*id) {
		ret = idr_alloc_u32(idr, obj, id, *id, GFP_KERNEL_ACCOUNT);
	} else {
		*id = 1;
		ret = idr_alloc_u32(idr, obj, id, UINT_MAX, GFP_KERNEL_ACCOUNT);
	}
	if (ret < 0)
		p4tc_set_msg(extack, msg);
	return ret;
}

/**
 * p4tc_req_pipeline - the pipeline a request names, for an object in it
 * @net: the namespace
 * @nl_pname: the name from the request; filled in for the reply
 * @ids: ids[P4TC_PID_IDX] from the request; filled in for the reply
 * @write: the request changes the pipeline: it must be unsealed
 * @extack: receives the reason of a failure
 *
 * Return: the pipeline, or an ERR_PTR.
 */
struct p4tc_pipeline *p4tc_req_pipeline(struct net *net,
					struct p4tc_nl_pname *nl_pname,
					u32 *ids, bool write,
					struct netlink_ext_ack *extack)
{
	const char *p_name = nl_pname->passed ? nl_pname->data : NULL;
	struct p4tc_pipeline *pipeline;

	if (write)
		pipeline = tcf_pipeline_find_byany_unsealed(net, p_name,
							    ids[P4TC_PID_IDX],
							    extack);
	else
		pipeline = tcf_pipeline_find_byany(net, p_name,
						   ids[P4TC_PID_IDX], extack);
	if (IS_ERR(pipeline))
		return pipeline;
	strscpy(nl_pname->data, pipeline->common.name, PIPELINENAMSIZ);
	ids[P4TC_PID_IDX] = pipeline->common.p_id;
	return pipeline;
}

/**
 * p4tc_dump_pipeline - the pipeline a dump request names
 * @skb: the dump message (its socket gives the namespace)
 * @p_name: in: the name from the request, or NULL; out: the pipeline's
 * @ids: ids[P4TC_PID_IDX] from the request; filled in for the reply
 * @extack: receives the reason of a failure
 *
 * Return: the pipeline, or an ERR_PTR.
 */
struct p4tc_pipeline *p4tc_dump_pipeline(struct sk_buff *skb, char **p_name,
					 u32 *ids,
					 struct netlink_ext_ack *extack)
{
	struct p4tc_pipeline *pipeline;

	pipeline = tcf_pipeline_find_byany(sock_net(skb->sk), *p_name,
					   ids[P4TC_PID_IDX], extack);
	if (IS_ERR(pipeline))
		return pipeline;
	*p_name = pipeline->common.name;
	ids[P4TC_PID_IDX] = pipeline->common.p_id;
	return pipeline;
}

/**
 * p4tc_tmpl_fill - write an object into a reply
 * @skb: the reply
 * @tmpl: the object
 * @extack: receives the reason of a failure
 *
 * Return: 0, or -EMSGSIZE (the caller drops the reply).
 */
int p4tc_tmpl_fill(struct sk_buff *skb, struct p4tc_template_common *tmpl,
		   struct netlink_ext_ack *extack)
{
	if (tmpl->ops->fill(skb, tmpl)) {
		NL_SET_ERR_MSG(extack, "Object does not fit in the reply");
		return -EMSGSIZE;
	}
	return 0;
}

/**
 * p4tc_put_path - write the ids of an object's path below its pipeline
 * @skb: the message
 * @ids: the path; ids[0] is the pipeline (carried by the header)
 * @n: entries of @ids, P4TC_PATH_MAX at most
 *
 * Return: 0 or -EMSGSIZE.
 */
int p4tc_put_path(struct sk_buff *skb, const u32 *ids, int n)
{
	if (n <= 1)
		return 0;
	return nla_put(skb, P4TC_PATH, (n - 1) * sizeof(u32), &ids[1]);
}

/**
 * tcf_p4_tmpl_generic_dump - dump the objects of an IDR, continuing
 * @skb: the dump message
 * @ctx: where the previous message of this dump stopped
 * @idr: the objects
 * @idx: which id of @ctx belongs to this level
 * @dump_1: writes one object; returns <0 on error (what it wrote is
 *	dropped), 1 to skip the object
 * @extack: unused, for symmetry with the other template calls
 *
 * Writes objects as nests 1..P4TC_MSGBATCH_SIZE.
 *
 * Return: the message length when something was written, 0 at the end of
 * the objects, -EMSGSIZE when not even one fits.
 */
int tcf_p4_tmpl_generic_dump(struct sk_buff *skb, struct p4tc_dump_ctx *ctx,
			     struct idr *idr, int idx,
			     int (*dump_1)(struct sk_buff *skb,
					   struct p4tc_template_common *tmpl),
			     struct netlink_ext_ack *extack)
{
	struct p4tc_template_common *common;
	unsigned long id = ctx->ids[idx];
	unsigned long tmp;
	bool full = false;
	int i = 0;

	idr_for_each_entry_continue_ul(idr, common, tmp, id) {
		struct nlattr *count;
		int ret;

		if (i == P4TC_MSGBATCH_SIZE)
			break;

		count = nla_nest_start(skb, i + 1);
		if (!count) {
			full = true;
			break;
		}
		ret = dump_1(skb, common);
		if (ret < 0) {
			nla_nest_cancel(skb, count);
			full = true;
			break;
		}
		if (ret) {
			nla_nest_cancel(skb, count);
			continue;
		}
		nla_nest_end(skb, count);
		i++;
	}

	if (!i)
		return full ? -EMSGSIZE : 0;

	/* the next message starts at the first object not written */
	ctx->ids[idx] = id;
	return skb->len;
}

/* Create or update an object of a kind that lives in a pipeline. */
static struct p4tc_template_common *
p4tc_tmpl_cu_in_pipeline(const struct p4tc_template_ops *ops, struct net *net,
			 struct nlmsghdr *n, struct nlattr *nla,
			 struct p4tc_nl_pname *nl_pname, u32 *ids,
			 struct netlink_ext_ack *extack)
{
	struct nlattr *tb[P4TC_TMPL_MAXATTR + 1];
	struct p4tc_pipeline *pipeline;
	int ret;

	if (WARN_ON_ONCE(ops->maxattr > P4TC_TMPL_MAXATTR))
		return ERR_PTR(-EINVAL);
	ret = nla_parse_nested(tb, ops->maxattr, nla, ops->policy, extack);
	if (ret < 0)
		return ERR_PTR(ret);

	/* kinds that may change in sealed pipelines check that themselves */
	pipeline = p4tc_req_pipeline(net, nl_pname, ids,
				     !((n->nlmsg_flags & NLM_F_REPLACE) &&
				       ops->update_sealed), extack);
	if (IS_ERR(pipeline))
		return ERR_CAST(pipeline);

	if (n->nlmsg_flags & NLM_F_REPLACE)
		return ops->update(pipeline, tb, ids, extack);
	return ops->create(pipeline, tb, ids, extack);
}

/**
 * p4tc_parse_obj - parse one object of a request: its path ids and its
 * attributes
 * @arg: the object's nest
 * @pipeid: the pipeline id of the message header
 * @ids: receives the path, P4TC_PATH_MAX ids, the pipeline's first
 * @params: receives the object's P4TC_PARAMS, or NULL
 * @extack: receives the reason of a refusal
 *
 * Return: 0 or a negative errno.
 */
int p4tc_parse_obj(struct nlattr *arg, u32 pipeid, u32 *ids,
		   struct nlattr **params, struct netlink_ext_ack *extack)
{
	struct nlattr *tb[P4TC_MAX + 1];
	int ret;

	ret = nla_parse_nested(tb, P4TC_MAX, arg, p4tc_policy, extack);
	if (ret < 0)
		return ret;

	ids[P4TC_PID_IDX] = pipeid;
	if (tb[P4TC_PATH]) {
		int len = nla_len(tb[P4TC_PATH]);

		if (len % sizeof(u32)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[P4TC_PATH],
					    "Path must be a list of 32-bit ids");
			return -EINVAL;
		}
		memcpy(&ids[1], nla_data(tb[P4TC_PATH]), len);
	}
	*params = tb[P4TC_PARAMS];
	return 0;
}

/**
 * p4tc_parse_batch - split a P4TC_ROOT nest into its objects 1..N
 * @root: the nest
 * @objs: receives the objects, P4TC_MSGBATCH_SIZE at most
 * @extack: receives the reason of a refusal (gaps, too many, none)
 *
 * Return: the number of objects, or a negative errno.
 */
int p4tc_parse_batch(struct nlattr *root, struct nlattr **objs,
		     struct netlink_ext_ack *extack)
{
	struct nlattr *nla;
	int rem, n = 0;

	nla_for_each_nested(nla, root, rem) {
		if (n == P4TC_MSGBATCH_SIZE) {
			NL_SET_ERR_MSG(extack,
				       "At most 16 objects fit in one message");
			return -E2BIG;
		}
		if (nla_type(nla) != n + 1 || !(nla->nla_type & NLA_F_NESTED) ||
		    nla_len(nla) < 0) {
			NL_SET_ERR_MSG_ATTR(extack, nla,
					    "Objects must be nests numbered from 1");
			return -EINVAL;
		}
		objs[n++] = nla;
	}
	if (!n) {
		NL_SET_ERR_MSG(extack, "Message names no object");
		return -EINVAL;
	}
	return n;
}

struct p4tc_req {
	struct nlattr *tb[P4TC_ROOT_MAX + 1];
	const struct p4tc_template_ops *ops;
	struct nlattr *objs[P4TC_MSGBATCH_SIZE];
	int num_objs;
	char *p_name;
};

static int p4tc_parse_req(const struct nlmsghdr *n, struct p4tc_req *req,
			  struct netlink_ext_ack *extack)
{
	struct p4tcmsg *t;
	int ret;

	if (nlmsg_len(n) < sizeof(struct p4tcmsg)) {
		NL_SET_ERR_MSG(extack, "Message header is missing");
		return -EINVAL;
	}
	ret = nlmsg_parse(n, sizeof(struct p4tcmsg), req->tb, P4TC_ROOT_MAX,
			  p4tc_root_policy, extack);
	if (ret < 0)
		return ret;

	t = nlmsg_data(n);
	req->ops = p4tc_obj_ops(t->obj, extack);
	if (!req->ops)
		return -EOPNOTSUPP;

	if (!req->tb[P4TC_ROOT]) {
		NL_SET_ERR_MSG(extack, "Netlink P4TC template attributes missing");
		return -EINVAL;
	}
	req->num_objs = p4tc_parse_batch(req->tb[P4TC_ROOT], req->objs, extack);
	if (req->num_objs < 0)
		return req->num_objs;

	req->p_name = req->tb[P4TC_ROOT_PNAME] ?
		      nla_data(req->tb[P4TC_ROOT_PNAME]) : NULL;
	if (req->p_name && !req->p_name[0])
		req->p_name = NULL;
	return 0;
}

/* Start a reply: header, the pipeline name slot, the P4TC_ROOT nest. */
static struct nlmsghdr *p4tc_reply_start(struct sk_buff *skb,
					 const struct nlmsghdr *n, u32 portid,
					 int event, const char *p_name,
					 struct p4tc_nl_pname *nl_pname,
					 struct nlattr **root)
{
	struct p4tcmsg *t = nlmsg_data(n), *t_new;
	struct nlattr *pnatt;
	struct nlmsghdr *nlh;

	nlh = nlmsg_put(skb, portid, n->nlmsg_seq, event, sizeof(*t),
			n->nlmsg_flags & ~NLM_F_ECHO);
	if (!nlh)
		return NULL;
	t_new = nlmsg_data(nlh);
	t_new->pipeid = t->pipeid;
	t_new->obj = t->obj;

	pnatt = nla_reserve(skb, P4TC_ROOT_PNAME, PIPELINENAMSIZ);
	if (!pnatt)
		return NULL;
	nl_pname->data = nla_data(pnatt);
	memset(nl_pname->data, 0, PIPELINENAMSIZ);
	nl_pname->passed = !!p_name;
	if (p_name)
		strscpy(nl_pname->data, p_name, PIPELINENAMSIZ);

	*root = nla_nest_start(skb, P4TC_ROOT);
	return *root ? nlh : NULL;
}

static int tc_ctl_p4_tmpl_cu(struct sk_buff *skb, struct nlmsghdr *n,
			     struct netlink_ext_ack *extack)
{
	struct p4tc_template_common *tmpls[P4TC_MSGBATCH_SIZE];
	u32 portid = NETLINK_CB(skb).portid;
	struct net *net = sock_net(skb->sk);
	bool replace = n->nlmsg_flags & NLM_F_REPLACE;
	struct p4tc_nl_pname nl_pname;
	struct p4tc_req req;
	struct sk_buff *new_skb;
	struct nlmsghdr *nlh;
	struct nlattr *root;
	int ret, i;

	/* rtnetlink_rcv_msg() already refused callers without CAP_NET_ADMIN */
replay:
	ret = p4tc_parse_req(n, &req, extack);
	if (ret < 0)
		return ret;
	if (replace && req.num_objs > 1) {
		NL_SET_ERR_MSG(extack, "Updates take one object per message");
		return -EINVAL;
	}

	new_skb = alloc_skb(P4TC_REPLY_SIZE, GFP_KERNEL);
	if (!new_skb)
		return -ENOMEM;

	nlh = p4tc_reply_start(new_skb, n, portid, RTM_CREATEP4TEMPLATE,
			       req.p_name, &nl_pname, &root);
	if (!nlh) {
		ret = -EMSGSIZE;
		goto free_skb;
	}

	for (i = 0; i < req.num_objs; i++) {
		struct p4tcmsg *t = nlmsg_data(nlh);
		u32 ids[P4TC_PATH_MAX] = {};
		struct nlattr *params, *nest;

		ret = p4tc_parse_obj(req.objs[i], t->pipeid, ids, &params,
				     extack);
		if (ret < 0)
			goto undo;
		if (!params) {
			NL_SET_ERR_MSG(extack, "Must specify object attributes");
			ret = -EINVAL;
			goto undo;
		}

		nest = nla_nest_start(new_skb, i + 1);
		if (!nest) {
			ret = -EMSGSIZE;
			goto undo;
		}
		if (req.ops->cu)
			tmpls[i] = req.ops->cu(net, nlh, params, &nl_pname, ids,
					       extack);
		else
			tmpls[i] = p4tc_tmpl_cu_in_pipeline(req.ops, net, nlh,
							    params, &nl_pname,
							    ids, extack);
		if (IS_ERR(tmpls[i])) {
			ret = PTR_ERR(tmpls[i]);
			goto undo;
		}
		ret = p4tc_tmpl_fill(new_skb, tmpls[i], extack);
		if (ret < 0) {
			/* a created object is undone; an update stays */
			i++;
			goto undo;
		}
		nla_nest_end(new_skb, nest);
		if (!t->pipeid)
			t->pipeid = ids[P4TC_PID_IDX];
	}
	nla_nest_end(new_skb, root);
	nlmsg_end(new_skb, nlh);

	return rtnetlink_send(new_skb, net, portid, RTNLGRP_TC,
			      n->nlmsg_flags & NLM_F_ECHO);

undo:
	/* newest first: nothing else names an object of the batch by now */
	if (!replace) {
		while (--i >= 0) {
			if (req.ops->undo)
				req.ops->undo(net, tmpls[i]);
			else
				WARN_ON_ONCE(req.ops->put(net, tmpls[i], NULL));
		}
	}
free_skb:
	kfree_skb(new_skb);
	/* an action module was loaded without RTNL: start again */
	if (ret == -EAGAIN)
		goto replay;
	return ret;
}

static int tc_ctl_p4_tmpl_gd(struct sk_buff *skb, struct nlmsghdr *n,
			     int event, struct netlink_ext_ack *extack)
{
	u32 portid = NETLINK_CB(skb).portid;
	struct net *net = sock_net(skb->sk);
	struct p4tc_nl_pname nl_pname;
	struct p4tc_req req;
	struct sk_buff *new_skb;
	struct nlmsghdr *nlh;
	struct nlattr *root;
	int ret, i;

	ret = p4tc_parse_req(n, &req, extack);
	if (ret < 0)
		return ret;
	if (event == RTM_DELP4TEMPLATE && req.num_objs > 1) {
		NL_SET_ERR_MSG(extack, "Deletes take one object per message");
		return -EINVAL;
	}

	new_skb = alloc_skb(P4TC_REPLY_SIZE, GFP_KERNEL);
	if (!new_skb)
		return -ENOMEM;

	nlh = p4tc_reply_start(new_skb, n, portid, event, req.p_name,
			       &nl_pname, &root);
	if (!nlh) {
		ret = -EMSGSIZE;
		goto free_skb;
	}

	for (i = 0; i < req.num_objs; i++) {
		struct p4tcmsg *t = nlmsg_data(nlh);
		u32 ids[P4TC_PATH_MAX] = {};
		struct nlattr *params, *nest;

		ret = p4tc_parse_obj(req.objs[i], t->pipeid, ids, &params,
				     extack);
		if (ret < 0)
			goto free_skb;

		nest = nla_nest_start(new_skb, i + 1);
		if (!nest) {
			ret = -EMSGSIZE;
			goto free_skb;
		}
		ret = req.ops->gd(net, new_skb, nlh, params, &nl_pname, ids,
				  extack);
		if (ret < 0)
			goto free_skb;
		nla_nest_end(new_skb, nest);
		if (!t->pipeid)
			t->pipeid = ids[P4TC_PID_IDX];
	}
	nla_nest_end(new_skb, root);
	nlmsg_end(new_skb, nlh);

	if (event == RTM_GETP4TEMPLATE)
		return rtnl_unicast(new_skb, net, portid);

	return rtnetlink_send(new_skb, net, portid, RTNLGRP_TC,
			      n->nlmsg_flags & NLM_F_ECHO);

free_skb:
	kfree_skb(new_skb);
	return ret;
}

static int tc_ctl_p4_tmpl_get(struct sk_buff *skb, struct nlmsghdr *n,
			      struct netlink_ext_ack *extack)
{
	return tc_ctl_p4_tmpl_gd(skb, n, RTM_GETP4TEMPLATE, extack);
}

/* Creates and deletes need CAP_NET_ADMIN: rtnetlink_rcv_msg() checks it
 * for every message kind but GET.
 */
static int tc_ctl_p4_tmpl_delete(struct sk_buff *skb, struct nlmsghdr *n,
				 struct netlink_ext_ack *extack)
{
	return tc_ctl_p4_tmpl_gd(skb, n, RTM_DELP4TEMPLATE, extack);
}

static int tc_ctl_p4_tmpl_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct p4tc_dump_ctx *ctx = (void *)cb->ctx;
	struct netlink_ext_ack *extack = cb->extack;
	u32 portid = NETLINK_CB(cb->skb).portid;
	const struct nlmsghdr *n = cb->nlh;
	struct p4tcmsg *t = nlmsg_data(n), *t_new;
	u32 ids[P4TC_PATH_MAX] = {};
	struct nlattr *params = NULL;
	struct nlattr *root;
	struct nlmsghdr *nlh;
	struct p4tc_req req;
	char *p_name;
	int ret;

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));

	ret = p4tc_parse_req(n, &req, extack);
	if (ret < 0)
		return ret;
	ret = p4tc_parse_obj(req.objs[0], t->pipeid, ids, &params, extack);
	if (ret < 0)
		return ret;
	p_name = req.p_name;

	nlh = nlmsg_put(skb, portid, n->nlmsg_seq, RTM_GETP4TEMPLATE,
			sizeof(*t), NLM_F_MULTI);
	if (!nlh)
		return -EMSGSIZE;
	t_new = nlmsg_data(nlh);
	t_new->pipeid = t->pipeid;
	t_new->obj = t->obj;

	root = nla_nest_start(skb, P4TC_ROOT);
	if (!root) {
		ret = -EMSGSIZE;
		goto cancel;
	}
	ret = req.ops->dump(skb, ctx, params, &p_name, ids, extack);
	if (ret <= 0)
		goto cancel;
	nla_nest_end(skb, root);

	if (p_name && nla_put_string(skb, P4TC_ROOT_PNAME, p_name)) {
		ret = -EMSGSIZE;
		goto cancel;
	}
	if (!t_new->pipeid)
		t_new->pipeid = ids[P4TC_PID_IDX];

	nlmsg_end(skb, nlh);
	return skb->len;

cancel:
	nlmsg_cancel(skb, nlh);
	return ret;
}

static int __init p4tc_template_init(void)
{
	int ret;

	BUILD_BUG_ON(P4TC_META_MAX > P4TC_TMPL_MAXATTR);
	BUILD_BUG_ON(P4TC_HDRFIELD_MAX > P4TC_TMPL_MAXATTR);
	BUILD_BUG_ON(P4TC_HEADER_MAX > P4TC_TMPL_MAXATTR);
	BUILD_BUG_ON(P4TC_REGISTER_MAX > P4TC_TMPL_MAXATTR);
	BUILD_BUG_ON(P4TC_TABLE_MAX > P4TC_TMPL_MAXATTR);

	ret = tcf_pipeline_init();
	if (ret) {
		pr_err("p4tc: cannot set up pipelines: %d\n", ret);
		return ret;
	}

	rtnl_register(PF_UNSPEC, RTM_CREATEP4TEMPLATE, tc_ctl_p4_tmpl_cu, NULL,
		      0);
	rtnl_register(PF_UNSPEC, RTM_DELP4TEMPLATE, tc_ctl_p4_tmpl_delete, NULL,
		      0);
	rtnl_register(PF_UNSPEC, RTM_GETP4TEMPLATE, tc_ctl_p4_tmpl_get,
		      tc_ctl_p4_tmpl_dump, 0);
	p4tc_runtime_init();
	return 0;
}

subsys_initcall(p4tc_template_init);
