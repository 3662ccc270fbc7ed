// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * P4TC action templates and the tc actions they make.
 *
 * "action/PIPE/NAME param port type dev param mac type macaddr" declares
 * a P4 action with typed parameters.  Once active ("state active") the
 * template is a tc action kind "PIPE/NAME" of its namespace, and
 * "tc actions add action PIPE/NAME param port dev eth0 param mac ..."
 * makes instances of it like of any other kind: indexes, reference and
 * bind counts, stats, cookies, binding to filters.
 *
 * Lifetime: the template is a dynamic kind (act_api), counted by a_kind_ref:
 * one for being registered, one per instance and per kind lookup in
 * flight.  Deleting the template (refused while an instance is bound)
 * deletes its unbound instances and unregisters the kind; the memory goes
 * with the last reference, which an instance a filter still holds while
 * its namespace dies may keep a little longer.
 *
 * Template writes run under RTNL.  Instances change their parameters as
 * act_skbedit does: a new block published with RCU under the action's
 * lock; the datapath only reads.
 */

#include <linux/kernel.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/act_api.h>
#include <net/netlink.h>
#include <net/p4tc.h>
#include <net/pkt_cls.h>

static const struct nla_policy p4tc_act_policy[P4TC_ACT_MAX + 1] = {
	[P4TC_ACT_NAME] = { .type = NLA_NUL_STRING, .len = ACTNAMSIZ - 1 },
	[P4TC_ACT_PARMS] = { .type = NLA_NESTED },
	[P4TC_ACT_OPT] = { .type = NLA_REJECT },
	[P4TC_ACT_TM] = { .type = NLA_REJECT },
	[P4TC_ACT_CMDS_LIST] = { .type = NLA_NESTED },
	[P4TC_ACT_ACTIVE] = NLA_POLICY_MAX(NLA_U8, 1),
	[P4TC_ACT_KIND_ID] = { .type = NLA_REJECT },
};

static const struct nla_policy p4tc_act_param_policy[P4TC_ACT_PARAMS_MAX + 1] = {
	[P4TC_ACT_PARAMS_NAME] = { .type = NLA_NUL_STRING,
				   .len = ACTPARAMNAMSIZ - 1 },
	[P4TC_ACT_PARAMS_ID] = NLA_POLICY_MIN(NLA_U32, 1),
	[P4TC_ACT_PARAMS_TYPE] =
		NLA_POLICY_EXACT_LEN(sizeof(struct p4tc_meta_size_params)),
	[P4TC_ACT_PARAMS_VALUE] = { .type = NLA_BINARY,
				    .len = P4T_MAX_BITSZ / 8 },
};

/* Instances' TCA_ACT_OPTIONS */
static const struct nla_policy p4tc_act_inst_policy[P4TC_ACT_MAX + 1] = {
	[P4TC_ACT_NAME] = { .type = NLA_REJECT },
	[P4TC_ACT_PARMS] = { .type = NLA_NESTED },
	[P4TC_ACT_OPT] = NLA_POLICY_EXACT_LEN(sizeof(struct tc_act_dyna)),
	[P4TC_ACT_TM] = { .type = NLA_REJECT },
	[P4TC_ACT_CMDS_LIST] = { .type = NLA_REJECT },
	[P4TC_ACT_ACTIVE] = { .type = NLA_REJECT },
	[P4TC_ACT_KIND_ID] = { .type = NLA_REJECT },
};

static const struct p4tc_find_msgs act_msgs = {
	.no_id = "Unable to find action by id",
	.mismatch = "Action template name and id name different templates",
	.no_key = "Must specify action name or id",
	.no_name = "Action name not found",
};

static const struct p4tc_type *param_type(const struct p4tc_act_param *param)
{
	return param->type;
}

static struct p4tc_act *to_act_ops(const struct tc_action_ops *ops)
{
	return container_of(ops, struct p4tc_act, ops);
}

static struct tcf_p4act *to_p4act(const struct tc_action *a)
{
	return container_of(a, struct tcf_p4act, common);
}

static struct p4tc_act *tcf_act_find_byany(struct p4tc_pipeline *pipeline,
					   const char *name, u32 id,
					   struct netlink_ext_ack *extack)
{
	struct p4tc_template_common *common;

	common = p4tc_tmpl_find_byany(&pipeline->p_act_idr, name, id,
				      &act_msgs, extack);
	return IS_ERR(common) ? ERR_CAST(common) : to_act(common);
}

/**
 * tcf_act_find_byname - an action template of a pipeline by name
 * @pipeline: the pipeline
 * @name: "[CB/]NAME"
 *
 * Return: the template or NULL.
 */
struct p4tc_act *tcf_act_find_byname(struct p4tc_pipeline *pipeline,
				     const char *name)
{
	struct p4tc_template_common *common;

	common = p4tc_tmpl_find_byname(&pipeline->p_act_idr, name);
	return common ? to_act(common) : NULL;
}

static struct p4tc_act_param *tcf_param_find(struct p4tc_act *act,
					     const char *name, u32 id)
{
	u32 i;

	for (i = 0; i < act->num_params; i++) {
		struct p4tc_act_param *param = &act->params[i];

		if ((!name || !strcmp(param->name, name)) &&
		    (!id || param->id == id))
			return param;
	}
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Instances: the tc action kind                                       */
/* ------------------------------------------------------------------ */

static int tcf_p4act_act(struct sk_buff *skb, const struct tc_action *a,
			 struct tcf_result *res)
{
	const struct p4tc_act *act = to_act_ops(a->ops);
	const struct tcf_p4act_params *params;
	struct tcf_p4act *p = to_p4act(a);
	int verdict = READ_ONCE(p->tcf_action);

	tcf_lastuse_update(&p->tcf_tm);
	tcf_action_update_bstats(&p->common, skb);
	params = rcu_dereference_bh(p->params);
	verdict = p4tc_act_run(skb, act, params->values, verdict);
	if (verdict == TC_ACT_SHOT)
		tcf_action_inc_drop_qstats(&p->common);
	return verdict;
}

/**
 * p4tc_action_template - the P4 action template of a tc action instance
 * @a: the instance
 * @pipeline: the pipeline the template must be of
 * @values: set to the instance's parameter values, laid out as the
 *	template's params
 *
 * Under RTNL (the values are the instance's current ones).
 *
 * Return: the template, or NULL when @a is not an instance of one of
 * @pipeline's action kinds.
 */
const struct p4tc_act *p4tc_action_template(const struct tc_action *a,
					    const struct p4tc_pipeline *pipeline,
					    const u8 **values)
{
	const struct p4tc_act *act;

	if (a->ops->act != tcf_p4act_act)
		return NULL;
	act = to_act_ops(a->ops);
	if (act->pipeline != pipeline)
		return NULL;
	*values = rtnl_dereference(to_p4act(a)->params)->values;
	return act;
}

/**
 * p4tc_act_instance_copy - the parameter values and verdict of an instance
 * @act: the action template (its kind)
 * @index: the instance's index
 * @values: receives the values, act->params_bytes of them
 * @verdict: receives the instance's control verdict
 * @extack: receives the reason of a failure
 *
 * For a table entry or default that names an existing instance by index,
 * as the seed's scripts write it: the entry takes the instance's values
 * as they are now.  Under RTNL.
 *
 * Return: 0, or -ENOENT when no instance has that index.
 */
int p4tc_act_instance_copy(struct p4tc_act *act, u32 index, u8 *values,
			   int *verdict, struct netlink_ext_ack *extack)
{
	struct tc_action *a;

	if (!tcf_idr_search(&act->tn, &a, index)) {
		NL_SET_ERR_MSG(extack, "ACT: unknown Action index");
		return -ENOENT;
	}
	memcpy(values, rtnl_dereference(to_p4act(a)->params)->values,
	       act->params_bytes);
	*verdict = READ_ONCE(a->tcfa_action);
	tcf_idr_release(a, false);
	return 0;
}

/**
 * p4tc_act_params_fill - write an action's parameters, with values
 * @skb: the message
 * @act: the action template
 * @params: the values, or NULL for the template's types alone
 *
 * Return: 0 or -EMSGSIZE.
 */
int p4tc_act_params_fill(struct sk_buff *skb, const struct p4tc_act *act,
			 const struct tcf_p4act_params *params)
{
	struct nlattr *nest, *one;
	u32 i;

	nest = nla_nest_start(skb, P4TC_ACT_PARMS);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < act->num_params; i++) {
		const struct p4tc_act_param *param = &act->params[i];
		struct p4tc_meta_size_params ty = {
			.startbit = param->startbit,
			.endbit = param->endbit,
			.datatype = param->datatype,
		};

		one = nla_nest_start(skb, i + 1);
		if (!one ||
		    nla_put_string(skb, P4TC_ACT_PARAMS_NAME, param->name) ||
		    nla_put_u32(skb, P4TC_ACT_PARAMS_ID, param->id) ||
		    nla_put(skb, P4TC_ACT_PARAMS_TYPE, sizeof(ty), &ty))
			return -EMSGSIZE;
		if (params &&
		    nla_put(skb, P4TC_ACT_PARAMS_VALUE,
			    p4t_container_bytes(param_type(param)),
			    params->values + param->offset))
			return -EMSGSIZE;
		nla_nest_end(skb, one);
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int tcf_p4act_dump(struct sk_buff *skb, struct tc_action *a, int bind,
			  int ref)
{
	struct p4tc_act *act = to_act_ops(a->ops);
	unsigned char *b = skb_tail_pointer(skb);
	struct tcf_p4act *p = to_p4act(a);
	const struct tcf_p4act_params *params;
	struct tc_act_dyna opt = {
		.index = p->tcf_index,
		.refcnt = refcount_read(&p->tcf_refcnt) - ref,
		.bindcnt = atomic_read(&p->tcf_bindcnt) - bind,
	};
	struct tcf_t t;

	spin_lock_bh(&p->tcf_lock);
	opt.action = p->tcf_action;
	params = rcu_dereference_protected(p->params,
					   lockdep_is_held(&p->tcf_lock));
	if (nla_put(skb, P4TC_ACT_OPT, sizeof(opt), &opt) ||
	    nla_put_string(skb, P4TC_ACT_NAME, a->ops->kind) ||
	    p4tc_act_params_fill(skb, act, params))
		goto nla_put_failure;
	tcf_tm_dump(&t, &p->tcf_tm);
	if (nla_put_64bit(skb, P4TC_ACT_TM, sizeof(t), &t, P4TC_ACT_PAD))
		goto nla_put_failure;
	spin_unlock_bh(&p->tcf_lock);
	return skb->len;

nla_put_failure:
	spin_unlock_bh(&p->tcf_lock);
	nlmsg_trim(skb, b);
	return -1;
}

/**
 * p4tc_act_params_parse - fill the parameter block of an instance or an
 * entry: every parameter of the action, once, checked against its type
 * @act: the action template
 * @nla: P4TC_ACT_PARMS, or NULL (right for an action without parameters)
 * @params: the block, the template's params_bytes of values (zeroed)
 * @extack: receives the reason of a refusal
 *
 * Return: 0 or a negative errno.
 */
int p4tc_act_params_parse(struct p4tc_act *act, struct nlattr *nla,
			  struct tcf_p4act_params *params,
			  struct netlink_ext_ack *extack)
{
	struct nlattr *tb[P4TC_ACT_PARAMS_MAX + 1];
	DECLARE_BITMAP(seen, P4TC_MAX_PARAMS) = {};
	struct p4tc_act_param *param;
	struct nlattr *attr, *value;
	int rem, ret;

	/* no list: right for an action without parameters */
	if (!nla) {
		if (!act->num_params)
			return 0;
		NL_SET_ERR_MSG(extack, "Must specify action parameters");
		return -EINVAL;
	}
	nla_for_each_nested(attr, nla, rem) {
		const char *name;
		u32 id;

		ret = nla_parse_nested(tb, P4TC_ACT_PARAMS_MAX, attr,
				       p4tc_act_param_policy, extack);
		if (ret < 0)
			return ret;
		name = tb[P4TC_ACT_PARAMS_NAME] ?
		       nla_data(tb[P4TC_ACT_PARAMS_NAME]) : NULL;
		id = tb[P4TC_ACT_PARAMS_ID] ?
		     nla_get_u32(tb[P4TC_ACT_PARAMS_ID]) : 0;
		if (!name && !id) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "Must specify param name or id");
			return -EINVAL;
		}
		param = tcf_param_find(act, name, id);
		if (!param) {
			if (name && !tcf_param_find(act, name, 0))
				NL_SET_ERR_MSG_ATTR(extack, attr,
						    "Param name not found");
			else
				NL_SET_ERR_MSG_ATTR(extack, attr,
						    "Unable to find param by id");
			return -ENOENT;
		}
		if (__test_and_set_bit(param - act->params, seen)) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "Parameter given twice");
			return -EINVAL;
		}
		if (!tb[P4TC_ACT_PARAMS_VALUE]) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "Must specify param value");
			return -EINVAL;
		}
		/* the seed's instances may restate the type: it must agree */
		if (tb[P4TC_ACT_PARAMS_TYPE]) {
			const struct p4tc_meta_size_params *ty =
				nla_data(tb[P4TC_ACT_PARAMS_TYPE]);

			if (ty->datatype != param->datatype ||
			    ty->startbit != param->startbit ||
			    ty->endbit != param->endbit) {
				NL_SET_ERR_MSG_ATTR(extack,
						    tb[P4TC_ACT_PARAMS_TYPE],
						    "Param type differs from template");
				return -EINVAL;
			}
		}
		value = tb[P4TC_ACT_PARAMS_VALUE];
		if (nla_len(value) != p4t_container_bytes(param_type(param))) {
			NL_SET_ERR_MSG_ATTR(extack, value,
					    "Value length differs from template's");
			return -EINVAL;
		}
		ret = p4t_validate_value(param_type(param), param->startbit,
					 param->endbit, nla_data(value), extack);
		if (ret < 0)
			return ret;
		memcpy(params->values + param->offset, nla_data(value),
		       nla_len(value));
	}

	if (bitmap_weight(seen, P4TC_MAX_PARAMS) != act->num_params) {
		NL_SET_ERR_MSG(extack, "Every parameter of the action needs a value");
		return -EINVAL;
	}
	return 0;
}

static struct tcf_p4act_params *
tcf_p4act_params_alloc(struct p4tc_act *act, struct nlattr *nla,
		       struct netlink_ext_ack *extack)
{
	struct tcf_p4act_params *params;
	int ret;

	params = kzalloc(struct_size(params, values, act->params_bytes),
			 GFP_KERNEL_ACCOUNT);
	if (!params)
		return ERR_PTR(-ENOMEM);
	ret = p4tc_act_params_parse(act, nla, params, extack);
	if (ret < 0) {
		kfree(params);
		return ERR_PTR(ret);
	}
	return params;
}

static int tcf_p4act_init(struct net *net, struct nlattr *nla,
			  struct nlattr *est, struct tc_action **a,
			  struct tcf_proto *tp,
			  const struct tc_action_ops *ops, u32 flags,
			  struct netlink_ext_ack *extack)
{
	struct p4tc_act *act = to_act_ops(ops);
	struct tc_action_net *tn = ops->dyn_tn;
	bool bind = flags & TCA_ACT_FLAGS_BIND;
	struct nlattr *tb[P4TC_ACT_MAX + 1];
	struct tcf_chain *goto_ch = NULL;
	struct tcf_p4act_params *params;
	struct tc_act_dyna *parm;
	struct tcf_p4act *p;
	bool exists = false;
	int ret = 0, err;
	u32 index;

	if (!nla) {
		NL_SET_ERR_MSG(extack, "Must specify action netlink attributes");
		return -EINVAL;
	}
	err = nla_parse_nested(tb, P4TC_ACT_MAX, nla, p4tc_act_inst_policy,
			       extack);
	if (err < 0)
		return err;
	if (!tb[P4TC_ACT_OPT]) {
		NL_SET_ERR_MSG(extack, "Must specify option netlink attributes");
		return -EINVAL;
	}
	parm = nla_data(tb[P4TC_ACT_OPT]);
	index = parm->index;

	err = tcf_idr_check_alloc(tn, &index, a, bind);
	if (err < 0)
		return err;
	exists = err;
	if (exists && bind)
		return 0;

	if (!exists) {
		ret = tcf_idr_create_from_flags(tn, index, est, a, ops, bind,
						flags);
		if (ret) {
			tcf_idr_cleanup(tn, index);
			return ret;
		}
		ret = ACT_P_CREATED;
	} else if (!(flags & TCA_ACT_FLAGS_REPLACE)) {
		tcf_idr_release(*a, bind);
		NL_SET_ERR_MSG(extack, "Action instance with this index exists");
		return -EEXIST;
	}

	err = tcf_action_check_ctrlact(parm->action, tp, &goto_ch, extack);
	if (err < 0)
		goto release;

	params = tcf_p4act_params_alloc(act, tb[P4TC_ACT_PARMS], extack);
	if (IS_ERR(params)) {
		err = PTR_ERR(params);
		goto put_chain;
	}

	p = to_p4act(*a);
	spin_lock_bh(&p->tcf_lock);
	goto_ch = tcf_action_set_ctrlact(*a, parm->action, goto_ch);
	params = rcu_replace_pointer(p->params, params,
				     lockdep_is_held(&p->tcf_lock));
	spin_unlock_bh(&p->tcf_lock);

	if (goto_ch)
		tcf_chain_put_by_act(goto_ch);
	if (params)
		kfree_rcu(params, rcu);
	return ret;

put_chain:
	if (goto_ch)
		tcf_chain_put_by_act(goto_ch);
release:
	tcf_idr_release(*a, bind);
	return err;
}

static void tcf_p4act_cleanup(struct tc_action *a)
{
	struct tcf_p4act_params *params;

	params = rcu_dereference_protected(to_p4act(a)->params, 1);
	if (params)
		kfree_rcu(params, rcu);
}

static int tcf_p4act_walker(struct net *net, struct sk_buff *skb,
			    struct netlink_callback *cb, int type,
			    const struct tc_action_ops *ops,
			    struct netlink_ext_ack *extack)
{
	return tcf_generic_walker(ops->dyn_tn, skb, cb, type, ops, extack);
}

static size_t tcf_p4act_get_fill_size(const struct tc_action *a)
{
	const struct p4tc_act *act = to_act_ops(a->ops);

	return nla_total_size(sizeof(struct tc_act_dyna)) +
	       nla_total_size(ACTNAMSIZ) +
	       nla_total_size_64bit(sizeof(struct tcf_t)) +
	       nla_total_size(0) + act->num_params *
	       (nla_total_size(0) + nla_total_size(ACTPARAMNAMSIZ) +
		nla_total_size(sizeof(u32)) +
		nla_total_size(sizeof(struct p4tc_meta_size_params)) +
		nla_total_size(P4T_MAX_BITSZ / 8));
}

/* The last user of the kind is gone: no instance and no lookup is left. */
static void tcf_act_release(const struct tc_action_ops *ops)
{
	struct p4tc_act *act = to_act_ops(ops);

	/* its program went when the template was deleted */
	idr_destroy(&act->tn.idrinfo->action_idr);
	kfree(act->tn.idrinfo);
	kfree(act->params);
	kfree_rcu(act, rcu);
}

/* ------------------------------------------------------------------ */
/* Templates                                                           */
/* ------------------------------------------------------------------ */

static void tcf_act_free(struct p4tc_act *act)
{
	p4tc_prog_free(rcu_dereference_protected(act->prog, 1));
	kfree(act->cmds_nla);
	kfree(act->params);
	kfree(act);
}

/* Take the program away from the datapath.  The caller frees it, and
 * then the template's cmds_nla (its print prefixes point there), after
 * an RCU grace period if the template was active: instances, entries and
 * default actions run it, and an entry deleted just before may still be
 * running it.
 */
static struct p4tc_prog *tcf_act_take_prog(struct p4tc_act *act)
{
	return rcu_replace_pointer_rtnl(act->prog, NULL);
}

static void tcf_act_free_cmds(struct p4tc_act *act)
{
	kfree(act->cmds_nla);
	act->cmds_nla = NULL;
}

/* Make the template a tc action kind of its namespace. */
static int tcf_act_activate(struct p4tc_pipeline *pipeline,
			    struct p4tc_act *act,
			    struct netlink_ext_ack *extack)
{
	struct tc_action_ops *ops = &act->ops;
	int ret;

	ret = tc_action_net_init(pipeline->net, &act->tn, ops);
	if (ret < 0)
		return ret;
	snprintf(ops->kind, ACTNAMSIZ, "%s/%s", pipeline->common.name,
		 act->common.name);
	ops->owner = THIS_MODULE;
	ops->size = sizeof(struct tcf_p4act);
	ops->act = tcf_p4act_act;
	ops->dump = tcf_p4act_dump;
	ops->cleanup = tcf_p4act_cleanup;
	ops->walk = tcf_p4act_walker;
	ops->get_fill_size = tcf_p4act_get_fill_size;
	ops->init_ops = tcf_p4act_init;
	ops->dyn_tn = &act->tn;
	ops->dyn_ref = &act->a_kind_ref;
	ops->dyn_release = tcf_act_release;
	refcount_set(&act->a_kind_ref, 1);

	ret = tcf_register_dyn_action(pipeline->net, ops);
	if (ret < 0) {
		idr_destroy(&act->tn.idrinfo->action_idr);
		kfree(act->tn.idrinfo);
		act->tn.idrinfo = NULL;
		if (ret == -EEXIST)
			NL_SET_ERR_MSG(extack,
				       "An action kind of this name already exists");
		else
			NL_SET_ERR_MSG(extack, "Unable to register new action template");
		return ret;
	}
	act->active = true;
	return 0;
}

/* Binds of @a that the pipeline's own pre- and postactions hold. */
static int tcf_act_own_binds(struct p4tc_pipeline *pipeline,
			     struct tc_action *a)
{
	int i, n = 0;

	for (i = 0; pipeline->preacts && i < pipeline->num_preacts; i++)
		n += pipeline->preacts[i] == a;
	for (i = 0; pipeline->postacts && i < pipeline->num_postacts; i++)
		n += pipeline->postacts[i] == a;
	return n + tcf_table_binds(pipeline, a);
}

/* Binds of @a that the programs of the pipeline's templates hold. */
static int tcf_act_prog_binds(struct p4tc_pipeline *pipeline,
			      struct tc_action *a)
{
	struct p4tc_act *act;
	unsigned long tmp, id;
	int n = 0;

	idr_for_each_entry_ul(&pipeline->p_act_idr, act, tmp, id)
		n += p4tc_prog_binds(rtnl_dereference(act->prog), a);
	return n;
}

/* May the template go?  Not while another template names it, nor while
 * one of its instances is bound, except, when the whole pipeline goes, by
 * the pipeline's own pre- and postactions.
 */
static int tcf_act_check_deletable(struct p4tc_pipeline *pipeline,
				   struct p4tc_act *act, bool with_pipeline,
				   struct netlink_ext_ack *extack)
{
	struct tcf_idrinfo *idrinfo;
	struct tc_action *p;
	unsigned long tmp, id;
	int ret = 0;

	/* other templates, table action lists, entries and default
	 * actions of the same pipeline name it
	 */
	if (!with_pipeline && refcount_read(&act->a_ref) > 1) {
		NL_SET_ERR_MSG(extack,
			       "Unable to delete referenced action template");
		return -EBUSY;
	}
	if (!act->active)
		return 0;

	idrinfo = act->tn.idrinfo;
	mutex_lock(&idrinfo->lock);
	idr_for_each_entry_ul(&idrinfo->action_idr, p, tmp, id) {
		int binds;

		if (IS_ERR(p))
			continue;
		binds = atomic_read(&p->tcfa_bindcnt);
		if (with_pipeline)
			binds -= tcf_act_own_binds(pipeline, p) +
				 tcf_act_prog_binds(pipeline, p);
		if (binds > 0) {
			NL_SET_ERR_MSG(extack,
				       "Action template has instances in use (bound to a filter or pipeline)");
			ret = -EBUSY;
			break;
		}
	}
	mutex_unlock(&idrinfo->lock);
	return ret;
}

/* Drop the creator's reference of every unbound instance, which deletes
 * it.  Bound ones (only when a dying namespace's filters still hold them)
 * stay until their filter goes.  The creator's reference is only dropped
 * under RTNL, so an instance found stays while the lock is let go.
 */
static void tcf_act_delete_instances(struct p4tc_act *act)
{
	struct tcf_idrinfo *idrinfo = act->tn.idrinfo;
	unsigned long id = 0, tmp;
	struct tc_action *p, *found;

	ASSERT_RTNL();
	do {
		found = NULL;
		mutex_lock(&idrinfo->lock);
		idr_for_each_entry_continue_ul(&idrinfo->action_idr, p, tmp,
					       id) {
			if (!IS_ERR(p) && !atomic_read(&p->tcfa_bindcnt)) {
				found = p;
				break;
			}
		}
		mutex_unlock(&idrinfo->lock);
		if (found) {
			tcf_idr_release(found, false);
			id++;
		}
	} while (found);
}

/* Take the template out of its pipeline.  Its unbound instances are
 * deleted; the kind is unregistered and freed when its last user goes.
 */
static void tcf_act_destroy(struct p4tc_pipeline *pipeline,
			    struct p4tc_act *act)
{
	struct p4tc_prog *prog;

	idr_remove(&pipeline->p_act_idr, act->a_id);
	if (!act->active) {
		tcf_act_free(act);
		return;
	}
	tcf_act_delete_instances(act);
	prog = tcf_act_take_prog(act);
	if (prog)
		synchronize_rcu();
	p4tc_prog_free(prog);
	tcf_act_free_cmds(act);
	tcf_unregister_dyn_action(pipeline->net, &act->ops);
}

static int __tcf_act_put(struct p4tc_pipeline *pipeline, struct p4tc_act *act,
			 struct netlink_ext_ack *extack)
{
	int ret;

	ret = tcf_act_check_deletable(pipeline, act, false, extack);
	if (ret < 0)
		return ret;
	tcf_act_destroy(pipeline, act);
	return 0;
}

static int tcf_act_put(struct net *net, struct p4tc_template_common *tmpl,
		       struct netlink_ext_ack *extack)
{
	struct p4tc_pipeline *pipeline = tcf_pipeline_find_byid(net, tmpl->p_id);

	return __tcf_act_put(pipeline, to_act(tmpl), extack);
}

/**
 * tcf_act_check_pipeline_deletable - may all templates go with the pipeline?
 * @pipeline: the pipeline about to be deleted
 * @extack: receives the reason when not
 *
 * Return: 0 or -EBUSY.
 */
int tcf_act_check_pipeline_deletable(struct p4tc_pipeline *pipeline,
				     struct netlink_ext_ack *extack)
{
	struct p4tc_act *act;
	unsigned long tmp, id;
	int ret;

	idr_for_each_entry_ul(&pipeline->p_act_idr, act, tmp, id) {
		ret = tcf_act_check_deletable(pipeline, act, true, extack);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/**
 * tcf_act_check_sealable - are all templates active?
 * @pipeline: the pipeline about to be sealed
 * @extack: receives the reason when not
 *
 * Return: 0 or -EINVAL.
 */
int tcf_act_check_sealable(struct p4tc_pipeline *pipeline,
			   struct netlink_ext_ack *extack)
{
	struct p4tc_act *act;
	unsigned long tmp, id;

	idr_for_each_entry_ul(&pipeline->p_act_idr, act, tmp, id) {
		if (!act->active) {
			NL_SET_ERR_MSG(extack,
				       "Every action template must be active before sealing");
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * tcf_act_purge - delete every action template of a pipeline being
 * destroyed, after its pre- and postactions have been given back
 * @pipeline: the pipeline
 */
void tcf_act_purge(struct p4tc_pipeline *pipeline)
{
	struct p4tc_act *act;
	unsigned long tmp, id;
	bool readers = false;

	/* Programs first: they bind instances of each other's kinds. */
	idr_for_each_entry_ul(&pipeline->p_act_idr, act, tmp, id) {
		act->dying_prog = tcf_act_take_prog(act);
		readers |= act->active && act->dying_prog;
	}
	if (readers)
		synchronize_rcu();
	idr_for_each_entry_ul(&pipeline->p_act_idr, act, tmp, id) {
		p4tc_prog_free(act->dying_prog);
		act->dying_prog = NULL;
	}
	idr_for_each_entry_ul(&pipeline->p_act_idr, act, tmp, id)
		tcf_act_destroy(pipeline, act);
}

/**
 * tcf_act_put_ref - a program, table, entry or default no longer names
 * this template
 * @act: the template
 */
void tcf_act_put_ref(struct p4tc_act *act)
{
	refcount_dec(&act->a_ref);
}

static bool tcf_params_have_id(const struct p4tc_act_param *params,
			       u32 n, u32 id)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (params[i].id == id)
			return true;
	return false;
}

static int tcf_act_params_parse(struct p4tc_param_list *list,
				struct nlattr *nla,
				struct netlink_ext_ack *extack)
{
	struct nlattr *tb[P4TC_ACT_PARAMS_MAX + 1];
	struct p4tc_act_param *params, *param;
	u32 n = 0, bytes = 0, next_id = 1;
	struct nlattr *attr;
	int rem, ret;

	params = kcalloc(P4TC_MAX_PARAMS, sizeof(*params), GFP_KERNEL_ACCOUNT);
	if (!params)
		return -ENOMEM;

	nla_for_each_nested(attr, nla, rem) {
		const struct p4tc_meta_size_params *ty;
		const struct p4tc_type *type;
		const char *name;
		u32 i;

		if (n == P4TC_MAX_PARAMS) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "An action has at most 32 parameters");
			ret = -E2BIG;
			goto err;
		}
		ret = nla_parse_nested(tb, P4TC_ACT_PARAMS_MAX, attr,
				       p4tc_act_param_policy, extack);
		if (ret < 0)
			goto err;
		if (!tb[P4TC_ACT_PARAMS_NAME]) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "Must specify param name");
			ret = -EINVAL;
			goto err;
		}
		if (!tb[P4TC_ACT_PARAMS_TYPE]) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "Must specify param type");
			ret = -EINVAL;
			goto err;
		}
		if (tb[P4TC_ACT_PARAMS_VALUE]) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "A template gives types, not values");
			ret = -EINVAL;
			goto err;
		}
		name = nla_data(tb[P4TC_ACT_PARAMS_NAME]);
		ret = p4tc_name_check(name, extack);
		if (ret < 0)
			goto err;
		param = &params[n];
		param->id = tb[P4TC_ACT_PARAMS_ID] ?
			    nla_get_u32(tb[P4TC_ACT_PARAMS_ID]) : 0;
		for (i = 0; i < n; i++) {
			if (!strcmp(params[i].name, name)) {
				NL_SET_ERR_MSG_ATTR(extack, attr,
						    "Param already exists");
				ret = -EEXIST;
				goto err;
			}
			if (param->id && params[i].id == param->id) {
				NL_SET_ERR_MSG_ATTR(extack, attr,
						    "Param already exists");
				ret = -EEXIST;
				goto err;
			}
		}

		ty = nla_data(tb[P4TC_ACT_PARAMS_TYPE]);
		type = p4type_find_byid(ty->datatype);
		if (!type || (type->flags & P4T_F_BLOB)) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "Param type is invalid");
			ret = -EINVAL;
			goto err;
		}
		ret = p4t_check_slice(type, ty->startbit, ty->endbit, extack);
		if (ret < 0)
			goto err;

		strscpy(param->name, name, ACTPARAMNAMSIZ);
		param->startbit = ty->startbit;
		param->endbit = ty->endbit;
		param->datatype = ty->datatype;
		param->type = type;
		p4t_mask_shift(type, ty->startbit, ty->endbit, &param->ms);
		param->offset = bytes;
		bytes += p4t_container_bytes(type);
		n++;
	}

	/* Parameters without an id get the lowest ones nobody took. */
	for (param = params; param < params + n; param++) {
		while (!param->id) {
			if (!tcf_params_have_id(params, n, next_id))
				param->id = next_id;
			next_id++;
		}
	}

	list->params = params;
	list->num = n;
	list->bytes = bytes;
	return 0;

err:
	kfree(params);
	return ret;
}

/* New parameters and program of a template being written */
struct p4tc_act_body {
	struct p4tc_param_list pl;
	struct p4tc_prog *prog;
	struct nlattr *cmds_nla;
	bool new_params;
	bool new_prog;
};

/* Where @p, an attribute of @copy, stands in @orig (NULL: nowhere). */
static const struct nlattr *attr_rebase(const struct nlattr *p,
					const struct nlattr *copy,
					const struct nlattr *orig)
{
	const u8 *at = (const u8 *)p, *start = (const u8 *)copy;

	if (!p || at < start || at > start + copy->nla_len)
		return p;
	return orig ? (const void *)orig + (at - start) : NULL;
}

/* The program was parsed from a copy of its attributes (it keeps them):
 * the attributes an error names must be the request's, or netlink's ack
 * warns that they lie outside it.  A program kept from before (new
 * parameters recheck it) is in no request: then the error names none.
 */
static void tcf_act_extack_rebase(struct netlink_ext_ack *extack,
				  const struct nlattr *copy,
				  const struct nlattr *orig)
{
	if (!extack)
		return;
	extack->bad_attr = attr_rebase(extack->bad_attr, copy, orig);
	extack->miss_nest = attr_rebase(extack->miss_nest, copy, orig);
}

/* Parse what @tb changes; the program is checked against the parameters
 * it will run with (so new parameters recheck the current program).
 */
static int tcf_act_body_parse(struct p4tc_pipeline *pipeline,
			      struct p4tc_act *act, struct nlattr **tb,
			      struct p4tc_act_body *body,
			      struct netlink_ext_ack *extack)
{
	struct nlattr *cmds = tb[P4TC_ACT_CMDS_LIST];
	int ret;

	body->pl.params = act->params;
	body->pl.num = act->num_params;
	body->pl.bytes = act->params_bytes;
	if (tb[P4TC_ACT_PARMS]) {
		ret = tcf_act_params_parse(&body->pl, tb[P4TC_ACT_PARMS],
					   extack);
		if (ret < 0)
			return ret;
		body->new_params = true;
		if (!cmds)
			cmds = act->cmds_nla;
	}
	if (!cmds)
		return 0;

	body->cmds_nla = kmemdup(cmds, cmds->nla_len, GFP_KERNEL_ACCOUNT);
	if (!body->cmds_nla) {
		ret = -ENOMEM;
		goto err;
	}
	body->prog = p4tc_cmds_parse(pipeline, &body->pl, body->cmds_nla,
				     extack);
	if (IS_ERR(body->prog)) {
		ret = PTR_ERR(body->prog);
		tcf_act_extack_rebase(extack, body->cmds_nla,
				      cmds == tb[P4TC_ACT_CMDS_LIST] ? cmds :
				      NULL);
		kfree(body->cmds_nla);
		goto err;
	}
	body->new_prog = true;
	return 0;

err:
	if (body->new_params)
		kfree(body->pl.params);
	body->new_params = false;
	return ret;
}

static void tcf_act_body_abort(struct p4tc_act_body *body)
{
	if (body->new_params)
		kfree(body->pl.params);
	if (body->new_prog) {
		p4tc_prog_free(body->prog);
		kfree(body->cmds_nla);
	}
}

/* Install the new body in a template nobody runs yet (inactive). */
static void tcf_act_body_commit(struct p4tc_act *act,
				struct p4tc_act_body *body)
{
	if (body->new_params) {
		kfree(act->params);
		act->params = body->pl.params;
		act->num_params = body->pl.num;
		act->params_bytes = body->pl.bytes;
	}
	if (body->new_prog) {
		/* inactive: nothing runs it, nothing calls it */
		p4tc_prog_free(tcf_act_take_prog(act));
		tcf_act_free_cmds(act);
		rcu_assign_pointer(act->prog, body->prog);
		act->cmds_nla = body->cmds_nla;
	}
}

static struct p4tc_template_common *
tcf_act_create(struct p4tc_pipeline *pipeline, struct nlattr **tb, u32 *ids,
	       struct netlink_ext_ack *extack)
{
	u32 a_id = ids[P4TC_AID_IDX];
	struct p4tc_act_body body = {};
	struct p4tc_act *act;
	const char *name;
	int ret;

	if (!tb[P4TC_ACT_NAME]) {
		NL_SET_ERR_MSG(extack, "Must supply action name");
		return ERR_PTR(-EINVAL);
	}
	name = nla_data(tb[P4TC_ACT_NAME]);
	ret = p4tc_name_check(name, extack);
	if (ret < 0)
		return ERR_PTR(ret);
	/* the kind "PIPELINE/NAME" must fit the kind names of act_api */
	if (strlen(pipeline->common.name) + 1 + strlen(name) >= ACTNAMSIZ) {
		NL_SET_ERR_MSG(extack,
			       "Pipeline and action name together must fit in 63 bytes");
		return ERR_PTR(-ENAMETOOLONG);
	}
	if (tcf_act_find_byname(pipeline, name)) {
		NL_SET_ERR_MSG(extack,
			       "Action already exists with same name");
		return ERR_PTR(-EEXIST);
	}
	if (a_id && idr_find(&pipeline->p_act_idr, a_id)) {
		NL_SET_ERR_MSG(extack,
			       "Action already exists with same id");
		return ERR_PTR(-EEXIST);
	}

	act = kzalloc(sizeof(*act), GFP_KERNEL_ACCOUNT);
	if (!act)
		return ERR_PTR(-ENOMEM);
	ret = tcf_act_body_parse(pipeline, act, tb, &body, extack);
	if (ret < 0)
		goto free;
	tcf_act_body_commit(act, &body);
	act->pipeline = pipeline;

	strscpy(act->common.name, name, TEMPLATENAMSZ);
	act->common.ops = &p4tc_act_ops;
	act->common.p_id = pipeline->common.p_id;
	refcount_set(&act->a_ref, 1);

	ret = p4tc_tmpl_alloc_id(&pipeline->p_act_idr, act, &a_id,
				 "Unable to alloc action id", extack);
	if (ret < 0)
		goto free;
	act->a_id = a_id;

	if (tb[P4TC_ACT_ACTIVE] && nla_get_u8(tb[P4TC_ACT_ACTIVE])) {
		ret = tcf_act_activate(pipeline, act, extack);
		if (ret < 0) {
			idr_remove(&pipeline->p_act_idr, a_id);
			goto free;
		}
	}
	return &act->common;

free:
	tcf_act_free(act);
	return ERR_PTR(ret);
}

static struct p4tc_template_common *
tcf_act_update(struct p4tc_pipeline *pipeline, struct nlattr **tb, u32 *ids,
	       struct netlink_ext_ack *extack)
{
	const char *name = tb[P4TC_ACT_NAME] ? nla_data(tb[P4TC_ACT_NAME]) :
			   NULL;
	struct p4tc_act_body body = {};
	struct p4tc_act *act;
	int ret;

	act = tcf_act_find_byany(pipeline, name, ids[P4TC_AID_IDX], extack);
	if (IS_ERR(act))
		return ERR_CAST(act);

	if (act->active) {
		if (tb[P4TC_ACT_PARMS] || tb[P4TC_ACT_CMDS_LIST]) {
			/* its parameters and commands are fixed once active */
			NL_SET_ERR_MSG(extack, "Unable to update active action");
			return ERR_PTR(-EBUSY);
		}
		if (tb[P4TC_ACT_ACTIVE] && !nla_get_u8(tb[P4TC_ACT_ACTIVE])) {
			NL_SET_ERR_MSG(extack,
				       "An active action template stays active until deleted");
			return ERR_PTR(-EINVAL);
		}
		return &act->common;
	}

	ret = tcf_act_body_parse(pipeline, act, tb, &body, extack);
	if (ret < 0)
		return ERR_PTR(ret);
	if (tb[P4TC_ACT_ACTIVE] && nla_get_u8(tb[P4TC_ACT_ACTIVE])) {
		ret = tcf_act_activate(pipeline, act, extack);
		if (ret < 0) {
			tcf_act_body_abort(&body);
			return ERR_PTR(ret);
		}
	}
	tcf_act_body_commit(act, &body);
	return &act->common;
}

static int tcf_act_fill(struct sk_buff *skb, struct p4tc_template_common *tmpl)
{
	struct p4tc_act *act = to_act(tmpl);
	u32 ids[] = { act->common.p_id, act->a_id };
	struct nlattr *nest;

	if (p4tc_put_path(skb, ids, ARRAY_SIZE(ids)))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, P4TC_PARAMS);
	if (!nest ||
	    nla_put_string(skb, P4TC_ACT_NAME, act->common.name) ||
	    nla_put_u8(skb, P4TC_ACT_ACTIVE, act->active) ||
	    (act->active &&
	     nla_put_u32(skb, P4TC_ACT_KIND_ID, act->ops.id)) ||
	    p4tc_act_params_fill(skb, act, NULL) ||
	    (act->cmds_nla &&
	     nla_put(skb, P4TC_ACT_CMDS_LIST | NLA_F_NESTED,
		     nla_len(act->cmds_nla), nla_data(act->cmds_nla))))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int tcf_act_flush(struct p4tc_pipeline *pipeline,
			 struct netlink_ext_ack *extack)
{
	struct p4tc_act *act;
	unsigned long tmp, id;
	int ret;

	if (idr_is_empty(&pipeline->p_act_idr)) {
		/* not an error: tc shows it as a warning */
		NL_SET_ERR_MSG(extack, "There are not action templates to flush");
		return 0;
	}
	idr_for_each_entry_ul(&pipeline->p_act_idr, act, tmp, id) {
		ret = tcf_act_check_deletable(pipeline, act, false, extack);
		if (ret < 0) {
			NL_SET_ERR_MSG(extack, "Unable to flush any action template");
			return ret;
		}
	}
	tcf_act_purge(pipeline);
	return 0;
}

static int tcf_act_gd(struct net *net, struct sk_buff *skb,
		      struct nlmsghdr *n, struct nlattr *nla,
		      struct p4tc_nl_pname *nl_pname, u32 *ids,
		      struct netlink_ext_ack *extack)
{
	struct nlattr *tb[P4TC_ACT_MAX + 1] = {};
	bool del = n->nlmsg_type == RTM_DELP4TEMPLATE;
	struct p4tc_pipeline *pipeline;
	struct p4tc_act *act;
	const char *name;
	int ret;

	if (nla) {
		ret = nla_parse_nested(tb, P4TC_ACT_MAX, nla, p4tc_act_policy,
				       extack);
		if (ret < 0)
			return ret;
	}

	pipeline = p4tc_req_pipeline(net, nl_pname, ids, del, extack);
	if (IS_ERR(pipeline))
		return PTR_ERR(pipeline);

	name = tb[P4TC_ACT_NAME] ? nla_data(tb[P4TC_ACT_NAME]) : NULL;
	if (del && (n->nlmsg_flags & NLM_F_ROOT) && !name &&
	    !ids[P4TC_AID_IDX])
		return tcf_act_flush(pipeline, extack);

	act = tcf_act_find_byany(pipeline, name, ids[P4TC_AID_IDX], extack);
	if (IS_ERR(act))
		return PTR_ERR(act);
	if (del) {
		ret = tcf_act_check_deletable(pipeline, act, false, extack);
		if (ret < 0)
			return ret;
	}
	if (tcf_act_fill(skb, &act->common)) {
		NL_SET_ERR_MSG(extack, "Object does not fit in the reply");
		return -EMSGSIZE;
	}
	if (del)
		tcf_act_destroy(pipeline, act);
	return 0;
}

static int tcf_act_dump(struct sk_buff *skb, struct p4tc_dump_ctx *ctx,
			struct nlattr *nla, char **p_name, u32 *ids,
			struct netlink_ext_ack *extack)
{
	struct p4tc_pipeline *pipeline;

	pipeline = p4tc_dump_pipeline(skb, p_name, ids, extack);
	if (IS_ERR(pipeline))
		return PTR_ERR(pipeline);
	return tcf_p4_tmpl_generic_dump(skb, ctx, &pipeline->p_act_idr,
					P4TC_AID_IDX, tcf_act_fill, extack);
}

const struct p4tc_template_ops p4tc_act_ops = {
	.policy = p4tc_act_policy,
	.maxattr = P4TC_ACT_MAX,
	.create = tcf_act_create,
	.update = tcf_act_update,
	.fill = tcf_act_fill,
	.gd = tcf_act_gd,
	.put = tcf_act_put,
	.dump = tcf_act_dump,
};
