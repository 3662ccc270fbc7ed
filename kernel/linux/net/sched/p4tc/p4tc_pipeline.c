// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * P4TC pipelines: a P4 program's container.  Each network namespace has up
 * to P4TC_MAXPIPELINE_COUNT of them, by name and by id.  A pipeline is
 * built unsealed (its objects may be created, changed and deleted), then
 * sealed with "state ready", after which its templates are read only and
 * the p4 classifier may run it.  The "kernel" pipeline (id 0) is global,
 * always sealed, and holds the skb metadata programs may read.
 *
 * Pre- and postactions are ordinary tc actions bound to the pipeline as a
 * classifier binds its actions: binding takes a reference and a bind
 * count, replacing or deleting the pipeline gives them back.
 */

#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/netlink.h>
#include <net/netns/generic.h>
#include <net/p4tc.h>
#include <net/pkt_cls.h>
#include <net/sock.h>

struct p4tc_pipeline_net {
	struct idr pipeline_idr;
	unsigned int num_pipelines;
};

static unsigned int pipeline_net_id;
static struct p4tc_pipeline *root_pipeline;

static const struct nla_policy tc_pipeline_policy[P4TC_PIPELINE_MAX + 1] = {
	[P4TC_PIPELINE_MAXRULES] =
		NLA_POLICY_RANGE(NLA_U32, 1, P4TC_MAXRULES_LIMIT),
	[P4TC_PIPELINE_NUMTABLES] =
		NLA_POLICY_RANGE(NLA_U16, P4TC_MINTABLES_COUNT,
				 P4TC_MAXTABLES_COUNT),
	[P4TC_PIPELINE_STATE] = NLA_POLICY_EXACT_LEN(sizeof(u8)),
	[P4TC_PIPELINE_PREACTIONS] = { .type = NLA_NESTED },
	[P4TC_PIPELINE_POSTACTIONS] = { .type = NLA_NESTED },
	[P4TC_PIPELINE_NAME] = { .type = NLA_REJECT },
	[P4TC_PIPELINE_CURR_TABLES] = { .type = NLA_REJECT },
};

static struct p4tc_pipeline_net *p4tc_pipe_net(struct net *net)
{
	return net_generic(net, pipeline_net_id);
}

/**
 * p4tc_action_destroy - unbind and free a list p4tc_action_bind() made
 * @acts: the list, or NULL
 */
void p4tc_action_destroy(struct tc_action **acts)
{
	if (acts) {
		tcf_action_destroy(acts, TCA_ACT_UNBIND);
		kfree(acts);
	}
}

/**
 * p4tc_action_bind - bind the tc actions of a list to a template object
 * @net: the namespace
 * @nla: the list (TCA_ACT_* nests 1..N)
 * @acts: receives the actions (TCA_ACT_MAX_PRIO slots), NULL on error
 * @extack: receives the reason of a refusal
 *
 * Return: the number of actions (at least one), or a negative errno.
 */
int p4tc_action_bind(struct net *net, struct nlattr *nla,
		     struct tc_action ***acts, struct netlink_ext_ack *extack)
{
	int init_res[TCA_ACT_MAX_PRIO];
	struct tc_action **a;
	size_t attrs_size;
	int ret;

	a = kcalloc(TCA_ACT_MAX_PRIO, sizeof(*a), GFP_KERNEL_ACCOUNT);
	if (!a)
		return -ENOMEM;

	ret = tcf_action_init(net, NULL, nla, NULL, a, init_res, &attrs_size,
			      TCA_ACT_FLAGS_BIND, 0, extack);
	if (ret < 0) {
		/* some kinds (gact's missing parameters) refuse in silence */
		if (extack && !extack->_msg)
			NL_SET_ERR_MSG(extack, "An action of the list was refused");
		kfree(a);
		*acts = NULL;
		return ret;
	}
	if (!ret) {
		NL_SET_ERR_MSG(extack, "Action list is empty");
		kfree(a);
		*acts = NULL;
		return -EINVAL;
	}
	*acts = a;
	return ret;
}

/* Pre- and postactions and the tables' bound actions and entries first:
 * they may use the pipeline's own action kinds, which go next, before the
 * objects (tables too) actions name.
 */
static void tcf_pipeline_free(struct p4tc_pipeline *pipeline)
{
	p4tc_action_destroy(pipeline->preacts);
	p4tc_action_destroy(pipeline->postacts);
	pipeline->preacts = NULL;
	pipeline->postacts = NULL;
	pipeline->num_preacts = 0;
	pipeline->num_postacts = 0;
	tcf_table_release_all(pipeline);
	tcf_act_purge(pipeline);
	tcf_table_purge(pipeline);
	tcf_register_purge(pipeline);
	tcf_parser_purge(pipeline);
	tcf_meta_purge(pipeline);
	idr_destroy(&pipeline->p_act_idr);
	idr_destroy(&pipeline->p_tbl_idr);
	idr_destroy(&pipeline->p_meta_idr);
	idr_destroy(&pipeline->p_reg_idr);
	kfree(pipeline);
}

/* Remove the pipeline from its namespace: no longer found by id. */
static void tcf_pipeline_unlist(struct net *net, struct p4tc_pipeline *pipeline)
{
	struct p4tc_pipeline_net *pipe_net = p4tc_pipe_net(net);

	idr_remove(&pipe_net->pipeline_idr, pipeline->common.p_id);
	pipe_net->num_pipelines--;
}

static int tcf_pipeline_put(struct net *net,
			    struct p4tc_template_common *tmpl,
			    struct netlink_ext_ack *extack)
{
	struct p4tc_pipeline *pipeline = to_pipeline(tmpl);
	int ret;

	if (refcount_read(&pipeline->p_ref) > 1) {
		NL_SET_ERR_MSG(extack, "Can't delete referenced pipeline");
		return -EBUSY;
	}
	ret = tcf_act_check_pipeline_deletable(pipeline, extack);
	if (ret < 0)
		return ret;
	if (!refcount_dec_if_one(&pipeline->p_ref)) {
		NL_SET_ERR_MSG(extack, "Can't delete referenced pipeline");
		return -EBUSY;
	}
	/* A filter that pinned it is gone, but packets it classified may
	 * still be running the pipeline's actions; and an eBPF datapath may
	 * have found it by id (bpf_p4tc_tbl_read()) and be reading its
	 * tables: out of the IDR first, freed after them.
	 */
	tcf_pipeline_unlist(pipeline->net, pipeline);
	synchronize_net();
	tcf_pipeline_free(pipeline);
	return 0;
}

struct p4tc_pipeline *tcf_pipeline_find_byid(struct net *net, u32 pipeid)
{
	if (pipeid == P4TC_KERNEL_PIPEID)
		return root_pipeline;
	return idr_find(&p4tc_pipe_net(net)->pipeline_idr, pipeid);
}

static struct p4tc_pipeline *tcf_pipeline_find_byname(struct net *net,
						      const char *name)
{
	struct p4tc_pipeline_net *pipe_net = p4tc_pipe_net(net);
	struct p4tc_pipeline *pipeline;
	unsigned long tmp, id;

	if (!strcmp(name, P4TC_KERNEL_PIPENAME))
		return root_pipeline;
	idr_for_each_entry_ul(&pipe_net->pipeline_idr, pipeline, tmp, id) {
		if (!strcmp(pipeline->common.name, name))
			return pipeline;
	}
	return NULL;
}

/**
 * tcf_pipeline_find_byany - find a pipeline by name, id or both
 * @net: the namespace
 * @p_name: the name, or NULL
 * @pipeid: the id, or 0
 * @extack: receives the reason of a failure
 *
 * When both are given they must name the same pipeline.  Id 0 with no
 * name is no pipeline; the name "kernel" is the kernel pipeline.
 *
 * Return: the pipeline, or an ERR_PTR.
 */
struct p4tc_pipeline *tcf_pipeline_find_byany(struct net *net,
					      const char *p_name, u32 pipeid,
					      struct netlink_ext_ack *extack)
{
	struct p4tc_pipeline *pipeline;

	if (pipeid) {
		pipeline = tcf_pipeline_find_byid(net, pipeid);
		if (!pipeline) {
			NL_SET_ERR_MSG(extack, "Unable to find pipeline by id");
			return ERR_PTR(-ENOENT);
		}
		if (p_name && strcmp(pipeline->common.name, p_name)) {
			NL_SET_ERR_MSG(extack,
				       "Pipeline name and id name different pipelines");
			return ERR_PTR(-EINVAL);
		}
		return pipeline;
	}
	if (!p_name) {
		NL_SET_ERR_MSG(extack, "Must specify pipeline name or id");
		return ERR_PTR(-EINVAL);
	}
	pipeline = tcf_pipeline_find_byname(net, p_name);
	if (!pipeline) {
		NL_SET_ERR_MSG(extack, "Pipeline name not found");
		return ERR_PTR(-ENOENT);
	}
	return pipeline;
}

/**
 * tcf_pipeline_find_byany_unsealed - find a pipeline whose templates may
 * still change
 * @net: the namespace
 * @p_name: the name, or NULL
 * @pipeid: the id, or 0
 * @extack: receives the reason of a failure
 *
 * Return: the pipeline, or an ERR_PTR (-EPERM when it is sealed).
 */
struct p4tc_pipeline *
tcf_pipeline_find_byany_unsealed(struct net *net, const char *p_name,
				 u32 pipeid, struct netlink_ext_ack *extack)
{
	struct p4tc_pipeline *pipeline;

	pipeline = tcf_pipeline_find_byany(net, p_name, pipeid, extack);
	if (IS_ERR(pipeline))
		return pipeline;
	if (pipeline_sealed(pipeline)) {
		NL_SET_ERR_MSG(extack, "Pipeline is sealed");
		return ERR_PTR(-EPERM);
	}
	return pipeline;
}

/**
 * tcf_pipeline_get - pin a sealed pipeline for a user (a p4 filter)
 * @net: the namespace
 * @p_name: the name, or NULL
 * @pipeid: the id, or 0
 * @extack: receives the reason of a failure
 *
 * A pinned pipeline cannot be deleted until tcf_pipeline_put_ref().
 * Called under RTNL.
 *
 * Return: the pipeline, or an ERR_PTR.
 */
struct p4tc_pipeline *tcf_pipeline_get(struct net *net, const char *p_name,
				       u32 pipeid,
				       struct netlink_ext_ack *extack)
{
	struct p4tc_pipeline *pipeline;

	ASSERT_RTNL();
	pipeline = tcf_pipeline_find_byany(net, p_name, pipeid, extack);
	if (IS_ERR(pipeline))
		return pipeline;
	if (pipeline == root_pipeline) {
		NL_SET_ERR_MSG(extack, "The kernel pipeline cannot be used");
		return ERR_PTR(-EINVAL);
	}
	if (!pipeline_sealed(pipeline)) {
		NL_SET_ERR_MSG(extack, "Pipeline must be sealed before use");
		return ERR_PTR(-EINVAL);
	}
	refcount_inc(&pipeline->p_ref);
	pipeline->p_pinned = true;
	return pipeline;
}
EXPORT_SYMBOL_GPL(tcf_pipeline_get);

/**
 * tcf_pipeline_put_ref - unpin a pipeline pinned by tcf_pipeline_get()
 * @pipeline: the pipeline
 *
 * Called under RTNL, once no packet can reach the pipeline through the
 * pin (the filter waited for its readers).  The last pin of a pipeline
 * whose namespace is gone frees it.
 */
void tcf_pipeline_put_ref(struct p4tc_pipeline *pipeline)
{
	ASSERT_RTNL();
	if (refcount_dec_and_test(&pipeline->p_ref))
		tcf_pipeline_free(pipeline);
}
EXPORT_SYMBOL_GPL(tcf_pipeline_put_ref);

static int pipeline_check_sealable(struct p4tc_pipeline *pipeline,
				   struct tc_action **preacts,
				   struct tc_action **postacts,
				   struct netlink_ext_ack *extack)
{
	int ret;

	if (pipeline->curr_tables != pipeline->num_tables) {
		NL_SET_ERR_MSG(extack,
			       "Must have all table defined to update state to ready");
		return -EINVAL;
	}
	if (!preacts) {
		NL_SET_ERR_MSG(extack,
			       "Must specify pipeline preactions before sealing");
		return -EINVAL;
	}
	if (!postacts) {
		NL_SET_ERR_MSG(extack,
			       "Must specify pipeline postactions before sealing");
		return -EINVAL;
	}
	ret = tcf_act_check_sealable(pipeline, extack);
	if (ret < 0)
		return ret;
	return tcf_parser_check_sealable(pipeline, extack);
}

static int pipeline_parse_state(struct nlattr *attr, bool *seal,
				struct netlink_ext_ack *extack)
{
	u8 state;

	*seal = false;
	if (!attr)
		return 0;
	state = nla_get_u8(attr);
	if (state != P4TC_STATE_READY) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "Pipeline state can only be set to ready");
		return -EINVAL;
	}
	*seal = true;
	return 0;
}

static struct p4tc_pipeline *tcf_pipeline_create(struct net *net,
						 struct nlattr *nla,
						 const char *p_name, u32 pipeid,
						 struct netlink_ext_ack *extack)
{
	struct p4tc_pipeline_net *pipe_net = p4tc_pipe_net(net);
	struct nlattr *tb[P4TC_PIPELINE_MAX + 1];
	struct p4tc_pipeline *pipeline;
	bool seal;
	int ret;

	ret = nla_parse_nested(tb, P4TC_PIPELINE_MAX, nla, tc_pipeline_policy,
			       extack);
	if (ret < 0)
		return ERR_PTR(ret);
	ret = pipeline_parse_state(tb[P4TC_PIPELINE_STATE], &seal, extack);
	if (ret < 0)
		return ERR_PTR(ret);
	if (seal) {
		NL_SET_ERR_MSG(extack,
			       "A pipeline is sealed by an update, once complete");
		return ERR_PTR(-EINVAL);
	}

	if (!p_name) {
		NL_SET_ERR_MSG(extack, "Must specify pipeline name");
		return ERR_PTR(-EINVAL);
	}
	if (strchr(p_name, '/')) {
		NL_SET_ERR_MSG(extack, "Pipeline name must not contain '/'");
		return ERR_PTR(-EINVAL);
	}
	if (!strcmp(p_name, P4TC_KERNEL_PIPENAME)) {
		NL_SET_ERR_MSG(extack, "Pipeline name kernel is reserved");
		return ERR_PTR(-EEXIST);
	}
	if (tcf_pipeline_find_byname(net, p_name)) {
		NL_SET_ERR_MSG(extack, "Pipeline was already created");
		return ERR_PTR(-EEXIST);
	}
	if (pipeid && idr_find(&pipe_net->pipeline_idr, pipeid)) {
		NL_SET_ERR_MSG(extack, "Pipeline id is taken");
		return ERR_PTR(-EEXIST);
	}
	if (pipe_net->num_pipelines >= P4TC_MAXPIPELINE_COUNT) {
		NL_SET_ERR_MSG(extack,
			       "Namespace already has the maximum of 32 pipelines");
		return ERR_PTR(-ENOSPC);
	}

	pipeline = kzalloc(sizeof(*pipeline), GFP_KERNEL_ACCOUNT);
	if (!pipeline)
		return ERR_PTR(-ENOMEM);

	strscpy(pipeline->common.name, p_name, PIPELINENAMSIZ);
	pipeline->common.ops = &p4tc_pipeline_ops;
	pipeline->net = net;
	idr_init(&pipeline->p_meta_idr);
	idr_init(&pipeline->p_reg_idr);
	idr_init(&pipeline->p_act_idr);
	idr_init(&pipeline->p_tbl_idr);
	INIT_LIST_HEAD(&pipeline->hw_blocks);
	refcount_set(&pipeline->p_ref, 1);
	pipeline->p_state = P4TC_STATE_NOT_READY;
	pipeline->max_rules = tb[P4TC_PIPELINE_MAXRULES] ?
		nla_get_u32(tb[P4TC_PIPELINE_MAXRULES]) :
		P4TC_DEFAULT_MAX_RULES;
	pipeline->num_tables = tb[P4TC_PIPELINE_NUMTABLES] ?
		nla_get_u16(tb[P4TC_PIPELINE_NUMTABLES]) :
		P4TC_DEFAULT_NUM_TABLES;

	if (tb[P4TC_PIPELINE_PREACTIONS]) {
		ret = p4tc_action_bind(net, tb[P4TC_PIPELINE_PREACTIONS],
				       &pipeline->preacts, extack);
		if (ret < 0)
			goto free;
		pipeline->num_preacts = ret;
	}
	if (tb[P4TC_PIPELINE_POSTACTIONS]) {
		ret = p4tc_action_bind(net, tb[P4TC_PIPELINE_POSTACTIONS],
				       &pipeline->postacts, extack);
		if (ret < 0)
			goto free;
		pipeline->num_postacts = ret;
	}

	ret = p4tc_tmpl_alloc_id(&pipe_net->pipeline_idr, pipeline, &pipeid,
				 "Unable to allocate pipeline id", extack);
	if (ret < 0)
		goto free;
	pipeline->common.p_id = pipeid;
	pipe_net->num_pipelines++;
	return pipeline;

free:
	tcf_pipeline_free(pipeline);
	return ERR_PTR(ret);
}

static struct p4tc_pipeline *tcf_pipeline_update(struct net *net,
						 struct nlattr *nla,
						 const char *p_name, u32 pipeid,
						 struct netlink_ext_ack *extack)
{
	struct tc_action **preacts = NULL, **postacts = NULL;
	struct nlattr *tb[P4TC_PIPELINE_MAX + 1];
	int num_preacts = 0, num_postacts = 0;
	struct p4tc_pipeline *pipeline;
	u16 num_tables;
	bool seal;
	int ret;

	ret = nla_parse_nested(tb, P4TC_PIPELINE_MAX, nla, tc_pipeline_policy,
			       extack);
	if (ret < 0)
		return ERR_PTR(ret);
	ret = pipeline_parse_state(tb[P4TC_PIPELINE_STATE], &seal, extack);
	if (ret < 0)
		return ERR_PTR(ret);

	pipeline = tcf_pipeline_find_byany(net, p_name, pipeid, extack);
	if (IS_ERR(pipeline))
		return pipeline;
	if (pipeline == root_pipeline) {
		NL_SET_ERR_MSG(extack, "The kernel pipeline cannot change");
		return ERR_PTR(-EPERM);
	}
	if (pipeline_sealed(pipeline)) {
		NL_SET_ERR_MSG(extack, "Pipeline is sealed");
		return ERR_PTR(-EPERM);
	}

	num_tables = tb[P4TC_PIPELINE_NUMTABLES] ?
		     nla_get_u16(tb[P4TC_PIPELINE_NUMTABLES]) :
		     pipeline->num_tables;
	if (num_tables < pipeline->curr_tables) {
		NL_SET_ERR_MSG(extack,
			       "Pipeline already has more tables than numtables");
		return ERR_PTR(-EINVAL);
	}

	if (tb[P4TC_PIPELINE_PREACTIONS]) {
		ret = p4tc_action_bind(net, tb[P4TC_PIPELINE_PREACTIONS],
				       &preacts, extack);
		if (ret < 0)
			return ERR_PTR(ret);
		num_preacts = ret;
	}
	if (tb[P4TC_PIPELINE_POSTACTIONS]) {
		ret = p4tc_action_bind(net, tb[P4TC_PIPELINE_POSTACTIONS],
				       &postacts, extack);
		if (ret < 0)
			goto undo;
		num_postacts = ret;
	}

	if (seal) {
		u16 saved = pipeline->num_tables;

		pipeline->num_tables = num_tables;
		ret = pipeline_check_sealable(pipeline,
					      preacts ?: pipeline->preacts,
					      postacts ?: pipeline->postacts,
					      extack);
		pipeline->num_tables = saved;
		if (ret < 0)
			goto undo;
	}

	/* Nothing can fail from here: commit. */
	pipeline->num_tables = num_tables;
	if (tb[P4TC_PIPELINE_MAXRULES])
		pipeline->max_rules = nla_get_u32(tb[P4TC_PIPELINE_MAXRULES]);
	if (preacts) {
		p4tc_action_destroy(pipeline->preacts);
		pipeline->preacts = preacts;
		pipeline->num_preacts = num_preacts;
	}
	if (postacts) {
		p4tc_action_destroy(pipeline->postacts);
		pipeline->postacts = postacts;
		pipeline->num_postacts = num_postacts;
	}
	if (seal)
		pipeline->p_state = P4TC_STATE_READY;
	return pipeline;

undo:
	p4tc_action_destroy(postacts);
	p4tc_action_destroy(preacts);
	return ERR_PTR(ret);
}

static struct p4tc_template_common *
tcf_pipeline_cu(struct net *net, struct nlmsghdr *n, struct nlattr *nla,
		struct p4tc_nl_pname *nl_pname, u32 *ids,
		struct netlink_ext_ack *extack)
{
	const char *p_name = nl_pname->passed ? nl_pname->data : NULL;
	u32 pipeid = ids[P4TC_PID_IDX];
	struct p4tc_pipeline *pipeline;

	if (n->nlmsg_flags & NLM_F_REPLACE)
		pipeline = tcf_pipeline_update(net, nla, p_name, pipeid,
					       extack);
	else
		pipeline = tcf_pipeline_create(net, nla, p_name, pipeid,
					       extack);
	if (IS_ERR(pipeline))
		return ERR_CAST(pipeline);

	strscpy(nl_pname->data, pipeline->common.name, PIPELINENAMSIZ);
	ids[P4TC_PID_IDX] = pipeline->common.p_id;
	return &pipeline->common;
}

static int tcf_pipeline_fill(struct sk_buff *skb,
			     struct p4tc_template_common *tmpl)
{
	const struct p4tc_pipeline *pipeline = to_pipeline(tmpl);
	struct nlattr *nest, *acts;

	nest = nla_nest_start(skb, P4TC_PARAMS);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, P4TC_PIPELINE_MAXRULES, pipeline->max_rules) ||
	    nla_put_u16(skb, P4TC_PIPELINE_NUMTABLES, pipeline->num_tables) ||
	    nla_put_u16(skb, P4TC_PIPELINE_CURR_TABLES,
			pipeline->curr_tables) ||
	    nla_put_u8(skb, P4TC_PIPELINE_STATE, pipeline->p_state))
		return -EMSGSIZE;

	if (pipeline->preacts) {
		acts = nla_nest_start(skb, P4TC_PIPELINE_PREACTIONS);
		if (!acts ||
		    tcf_action_dump(skb, pipeline->preacts, 0, 0, false) < 0)
			return -EMSGSIZE;
		nla_nest_end(skb, acts);
	}
	if (pipeline->postacts) {
		acts = nla_nest_start(skb, P4TC_PIPELINE_POSTACTIONS);
		if (!acts ||
		    tcf_action_dump(skb, pipeline->postacts, 0, 0, false) < 0)
			return -EMSGSIZE;
		nla_nest_end(skb, acts);
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int tcf_pipeline_gd(struct net *net, struct sk_buff *skb,
			   struct nlmsghdr *n, struct nlattr *nla,
			   struct p4tc_nl_pname *nl_pname, u32 *ids,
			   struct netlink_ext_ack *extack)
{
	const char *p_name = nl_pname->passed ? nl_pname->data : NULL;
	struct p4tc_pipeline *pipeline;
	int ret;

	if (n->nlmsg_type == RTM_DELP4TEMPLATE &&
	    (n->nlmsg_flags & NLM_F_ROOT)) {
		NL_SET_ERR_MSG(extack, "Pipeline flush not supported");
		return -EOPNOTSUPP;
	}

	pipeline = tcf_pipeline_find_byany(net, p_name, ids[P4TC_PID_IDX],
					   extack);
	if (IS_ERR(pipeline))
		return PTR_ERR(pipeline);

	if (n->nlmsg_type == RTM_DELP4TEMPLATE && pipeline == root_pipeline) {
		NL_SET_ERR_MSG(extack, "The kernel pipeline cannot be deleted");
		return -EPERM;
	}

	ret = p4tc_tmpl_fill(skb, &pipeline->common, extack);
	if (ret < 0)
		return ret;

	ids[P4TC_PID_IDX] = pipeline->common.p_id;
	strscpy(nl_pname->data, pipeline->common.name, PIPELINENAMSIZ);

	if (n->nlmsg_type == RTM_DELP4TEMPLATE)
		return tcf_pipeline_put(net, &pipeline->common, extack);
	return 0;
}

/* A dump lists pipelines by name, each with its own id */
static int tcf_pipeline_dump_1(struct sk_buff *skb,
			       struct p4tc_template_common *common)
{
	struct p4tc_pipeline *pipeline = to_pipeline(common);
	struct nlattr *param;

	param = nla_nest_start(skb, P4TC_PARAMS);
	if (!param ||
	    nla_put_string(skb, P4TC_PIPELINE_NAME, pipeline->common.name) ||
	    nla_put_u8(skb, P4TC_PIPELINE_STATE, pipeline->p_state))
		return -EMSGSIZE;
	nla_nest_end(skb, param);
	if (nla_put_u32(skb, P4TC_PATH, pipeline->common.p_id))
		return -EMSGSIZE;
	return 0;
}

static int tcf_pipeline_dump(struct sk_buff *skb, struct p4tc_dump_ctx *ctx,
			     struct nlattr *nla, char **p_name, u32 *ids,
			     struct netlink_ext_ack *extack)
{
	struct net *net = sock_net(skb->sk);

	*p_name = NULL;
	return tcf_p4_tmpl_generic_dump(skb, ctx,
					&p4tc_pipe_net(net)->pipeline_idr,
					P4TC_PID_IDX, tcf_pipeline_dump_1,
					extack);
}

static __net_init int pipeline_init_net(struct net *net)
{
	struct p4tc_pipeline_net *pipe_net = p4tc_pipe_net(net);

	idr_init(&pipe_net->pipeline_idr);
	pipe_net->num_pipelines = 0;
	return 0;
}

/* Runs before the namespace's devices and actions go.  A pipeline no
 * filter pins is freed now, its bound actions given back while their IDRs
 * still exist; a pinned one leaves the namespace and is freed by the last
 * of its filters, which go with the devices, before the actions' IDRs.
 */
static void __net_exit pipeline_exit_net(struct net *net)
{
	struct p4tc_pipeline_net *pipe_net = p4tc_pipe_net(net);
	struct p4tc_pipeline *gone[P4TC_MAXPIPELINE_COUNT];
	struct p4tc_pipeline *pipeline;
	unsigned long pipeid, tmp;
	unsigned int n = 0, i;

	rtnl_lock();
	idr_for_each_entry_ul(&pipe_net->pipeline_idr, pipeline, tmp, pipeid) {
		tcf_pipeline_unlist(net, pipeline);
		gone[n++] = pipeline;
	}
	idr_destroy(&pipe_net->pipeline_idr);
	/* an eBPF datapath may have found them by id (see tcf_pipeline_put) */
	if (n)
		synchronize_net();
	for (i = 0; i < n; i++)
		tcf_pipeline_put_ref(gone[i]);
	rtnl_unlock();
}

static struct pernet_operations pipeline_net_ops = {
	.init = pipeline_init_net,
	.pre_exit = pipeline_exit_net,
	.id = &pipeline_net_id,
	.size = sizeof(struct p4tc_pipeline_net),
};

/**
 * tcf_pipeline_init - set up pipelines: the per-namespace state and the
 * kernel pipeline with its metadata
 *
 * Return: 0 or a negative errno.
 */
int __init tcf_pipeline_init(void)
{
	struct p4tc_pipeline *kp;
	int ret;

	kp = kzalloc(sizeof(*kp), GFP_KERNEL);
	if (!kp)
		return -ENOMEM;
	strscpy(kp->common.name, P4TC_KERNEL_PIPENAME, PIPELINENAMSIZ);
	kp->common.ops = &p4tc_pipeline_ops;
	kp->common.p_id = P4TC_KERNEL_PIPEID;
	kp->p_state = P4TC_STATE_READY;
	refcount_set(&kp->p_ref, 1);
	idr_init(&kp->p_meta_idr);
	idr_init(&kp->p_reg_idr);
	idr_init(&kp->p_act_idr);
	idr_init(&kp->p_tbl_idr);
	ret = tcf_meta_init_kernel(kp);
	if (ret)
		goto free;

	ret = register_pernet_subsys(&pipeline_net_ops);
	if (ret)
		goto free;
	root_pipeline = kp;
	return 0;

free:
	tcf_meta_purge(kp);
	idr_destroy(&kp->p_meta_idr);
	kfree(kp);
	return ret;
}

const struct p4tc_template_ops p4tc_pipeline_ops = {
	.cu = tcf_pipeline_cu,
	.fill = tcf_pipeline_fill,
	.gd = tcf_pipeline_gd,
	.put = tcf_pipeline_put,
	.dump = tcf_pipeline_dump,
};
