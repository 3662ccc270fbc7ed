// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * P4TC table templates: "table/PIPE/CB/NAME keysz N [type exact|lpm|ternary]
 * [tentries N] [nummasks N] [permissions P] [key action ...] [preactions
 * ...] [postactions ...] [default_hit_action ...] [default_miss_action ...]
 * [table_acts ...] [entry ...]...".
 *
 * A pipeline has as many tables as its numtables says, made before it is
 * sealed.  The key, pre- and postactions are tc actions bound to the
 * table; the default actions, like entries' actions, are an action of
 * the pipeline with its parameter values (struct p4tc_table_entry_value),
 * which is all the datapath and a device need to run them.  Once the
 * pipeline is sealed only the default actions may change, as their own
 * permissions allow.  Entries live in p4tc_tbl_entry.c.
 */

#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/netlink.h>
#include <net/p4tc.h>

static const struct nla_policy p4tc_table_policy[P4TC_TABLE_MAX + 1] = {
	[P4TC_TABLE_NAME] = { .type = NLA_NUL_STRING, .len = TABLENAMSIZ - 1 },
	[P4TC_TABLE_TYPE] = NLA_POLICY_RANGE(NLA_U8, P4TC_TABLE_TYPE_EXACT,
					     P4TC_TABLE_TYPE_MAX),
	/* sizes: table_sizes_check(), with the seed's messages */
	[P4TC_TABLE_KEYSZ] = { .type = NLA_U32 },
	[P4TC_TABLE_MAX_ENTRIES] = { .type = NLA_U32 },
	[P4TC_TABLE_MAX_MASKS] = { .type = NLA_U32 },
	/* permissions: table_check_perms(), with the seed's messages */
	[P4TC_TABLE_PERMISSIONS] = { .type = NLA_U16 },
	[P4TC_TABLE_KEY_ACTION] = { .type = NLA_NESTED },
	[P4TC_TABLE_PREACTIONS] = { .type = NLA_NESTED },
	[P4TC_TABLE_POSTACTIONS] = { .type = NLA_NESTED },
	[P4TC_TABLE_DEFAULT_HIT] = { .type = NLA_NESTED },
	[P4TC_TABLE_DEFAULT_MISS] = { .type = NLA_NESTED },
	[P4TC_TABLE_ACTS_LIST] = { .type = NLA_NESTED },
	[P4TC_TABLE_ENTRIES] = { .type = NLA_NESTED },
	[P4TC_TABLE_NUM_ENTRIES] = { .type = NLA_REJECT },
	[P4TC_TABLE_NUM_MASKS] = { .type = NLA_REJECT },
};

static const struct nla_policy
p4tc_table_default_policy[P4TC_TABLE_DEFAULT_MAX + 1] = {
	[P4TC_TABLE_DEFAULT_ACTION] = { .type = NLA_NESTED },
	[P4TC_TABLE_DEFAULT_PERMISSIONS] = NLA_POLICY_MAX(NLA_U16,
							  P4TC_PERM_MAX),
};

static const struct nla_policy p4tc_table_act_policy[P4TC_TABLE_ACT_MAX + 1] = {
	[P4TC_TABLE_ACT_NAME] = { .type = NLA_NUL_STRING, .len = ACTNAMSIZ - 1 },
	[P4TC_TABLE_ACT_FLAGS] = NLA_POLICY_MAX(NLA_U8,
						P4TC_TABLE_ACT_FLAGS_TABLEONLY |
						P4TC_TABLE_ACT_FLAGS_DEFAULTONLY),
};

static const struct p4tc_find_msgs table_msgs = {
	.no_id = "Unable to find table by id",
	.mismatch = "Table name and id name different tables",
	.no_key = "Must specify table name or id",
	.no_name = "Table name not found",
};

/**
 * tcf_table_find_byany - find a table of a pipeline by name, id or both
 * @pipeline: the pipeline
 * @name: "CB/NAME", or NULL
 * @id: the table id, or 0
 * @extack: receives why none was found
 *
 * Return: the table, or an ERR_PTR.
 */
struct p4tc_table *tcf_table_find_byany(struct p4tc_pipeline *pipeline,
					const char *name, u32 id,
					struct netlink_ext_ack *extack)
{
	struct p4tc_template_common *common;

	common = p4tc_tmpl_find_byany(&pipeline->p_tbl_idr, name, id,
				      &table_msgs, extack);
	return IS_ERR(common) ? ERR_CAST(common) : to_table(common);
}

/**
 * tcf_table_find_byname - find a table of a pipeline by name
 * @pipeline: the pipeline
 * @name: "CB/NAME"
 *
 * Return: the table, or NULL.
 */
struct p4tc_table *tcf_table_find_byname(struct p4tc_pipeline *pipeline,
					 const char *name)
{
	struct p4tc_template_common *common;

	common = p4tc_tmpl_find_byname(&pipeline->p_tbl_idr, name);
	return common ? to_table(common) : NULL;
}

/**
 * tcf_table_put_ref - a program no longer names this table
 * @table: the table
 */
void tcf_table_put_ref(struct p4tc_table *table)
{
	refcount_dec(&table->tbl_ref);
}

/**
 * p4tc_table_act_allowed - may an entry or a default action use an action
 * @table: the table
 * @act: the action template
 * @use: an entry's action, or a default action
 * @extack: receives the reason of a refusal
 *
 * A table that lists no action takes any of its pipeline's.
 *
 * Return: 0 or -EINVAL.
 */
int p4tc_table_act_allowed(const struct p4tc_table *table,
			   const struct p4tc_act *act, enum p4tc_act_use use,
			   struct netlink_ext_ack *extack)
{
	u32 i;

	if (!table->num_acts)
		return 0;
	for (i = 0; i < table->num_acts; i++) {
		const struct p4tc_table_act *ta = &table->acts[i];

		if (ta->act != act)
			continue;
		/* tableonly: not a default action */
		if (use == P4TC_ACT_USE_HIT &&
		    (ta->flags & P4TC_TABLE_ACT_FLAGS_TABLEONLY)) {
			NL_SET_ERR_MSG(extack,
				       "Action is not allowed as default hit action");
			return -EINVAL;
		}
		if (use == P4TC_ACT_USE_MISS &&
		    (ta->flags & P4TC_TABLE_ACT_FLAGS_TABLEONLY)) {
			NL_SET_ERR_MSG(extack,
				       "Action is not allowed as default miss action");
			return -EINVAL;
		}
		/* defaultonly: not for entries */
		if (use == P4TC_ACT_USE_ENTRY &&
		    (ta->flags & P4TC_TABLE_ACT_FLAGS_DEFAULTONLY)) {
			NL_SET_ERR_MSG(extack,
				       "Action is not allowed as entry action");
			return -EINVAL;
		}
		return 0;
	}
	NL_SET_ERR_MSG_FMT(extack, "Action %.40s is not in the table's action list",
			   act->common.name);
	return -EINVAL;
}

/* keysz, tentries and nummasks: each 1..its maximum, when given */
static int table_sizes_check(struct nlattr **tb, struct netlink_ext_ack *extack)
{
	static const struct {
		int attr;
		u32 max;
		const char *zero;	/* the seed's messages */
		const char *big;
	} sizes[] = {
		{ P4TC_TABLE_KEYSZ, P4TC_MAX_KEYSZ, "Table keysz cannot be zero",
		  "Table keysz exceeds maximum keysz" },
		{ P4TC_TABLE_MAX_ENTRIES, P4TC_MAX_TENTRIES,
		  "Table max_entries cannot be zero",
		  "Table max_entries exceeds maximum value" },
		{ P4TC_TABLE_MAX_MASKS, P4TC_MAX_TMASKS,
		  "Table max_masks cannot be zero",
		  "Table max_masks exceeds maximum value" },
	};
	u32 i, v;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		if (!tb[sizes[i].attr])
			continue;
		v = nla_get_u32(tb[sizes[i].attr]);
		if (v && v <= sizes[i].max)
			continue;
		p4tc_set_msg(extack, v ? sizes[i].big : sizes[i].zero);
		NL_SET_BAD_ATTR(extack, tb[sizes[i].attr]);
		return -EINVAL;
	}
	return 0;
}

static int table_check_perms(u16 perms, struct netlink_ext_ack *extack)
{
	if (perms > P4TC_PERM_MAX) {
		NL_SET_ERR_MSG(extack, "Permission may only have 10 bits turned on");
		return -EINVAL;
	}
	if (!(perms & P4TC_DATA_PERM_R)) {
		NL_SET_ERR_MSG(extack, "Data path read permissions must be set");
		return -EINVAL;
	}
	if (!(perms & P4TC_DATA_PERM_X)) {
		NL_SET_ERR_MSG(extack, "Table must have execute permissions");
		return -EINVAL;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* A change: everything create and update may set, made before it is    */
/* committed, so that a refusal leaves the table as it was               */
/* ------------------------------------------------------------------ */

struct p4tc_table_default {
	bool given;		/* the request has the attribute */
	bool set_perms;		/* ... with permissions only */
	u16 perms;
	struct p4tc_table_entry_value *value;	/* NULL: remove */
};

struct p4tc_table_change {
	struct tc_action **key_acts, **preacts, **postacts;
	struct p4tc_table_act *acts;
	u32 num_acts;
	bool acts_given;
	struct p4tc_table_default hit, miss;
};

static void table_acts_put(struct p4tc_table_act *acts, u32 num)
{
	u32 i;

	for (i = 0; i < num; i++)
		tcf_act_put_ref(acts[i].act);
	kfree(acts);
}

/* "PIPE/NAME" names an action of @pipeline: its template. */
static struct p4tc_act *table_act_lookup(struct p4tc_pipeline *pipeline,
					 const char *fullname,
					 struct netlink_ext_ack *extack)
{
	size_t plen = strlen(pipeline->common.name);
	struct p4tc_act *act;

	if (strncmp(fullname, pipeline->common.name, plen) ||
	    fullname[plen] != '/') {
		NL_SET_ERR_MSG_FMT(extack,
				   "Action %.40s is not one of pipeline %.20s",
				   fullname, pipeline->common.name);
		return ERR_PTR(-EINVAL);
	}
	act = tcf_act_find_byname(pipeline, fullname + plen + 1);
	if (!act) {
		NL_SET_ERR_MSG_FMT(extack, "Unknown action %.40s", fullname);
		return ERR_PTR(-ENOENT);
	}
	return act;
}

static int table_acts_parse(struct p4tc_pipeline *pipeline,
			    struct nlattr *nla, struct p4tc_table_change *chg,
			    struct netlink_ext_ack *extack)
{
	struct nlattr *tb[P4TC_TABLE_ACT_MAX + 1];
	struct nlattr *attr;
	int rem, ret;
	u32 n = 0, i;

	nla_for_each_nested(attr, nla, rem)
		n++;
	if (n > P4TC_MAX_TABLE_ACTS) {
		NL_SET_ERR_MSG(extack, "A table lists at most 32 actions");
		return -E2BIG;
	}
	chg->acts_given = true;
	if (!n)
		return 0;
	chg->acts = kcalloc(n, sizeof(*chg->acts), GFP_KERNEL_ACCOUNT);
	if (!chg->acts)
		return -ENOMEM;

	nla_for_each_nested(attr, nla, rem) {
		struct p4tc_act *act;

		ret = nla_parse_nested(tb, P4TC_TABLE_ACT_MAX, attr,
				       p4tc_table_act_policy, extack);
		if (ret < 0)
			return ret;
		if (!tb[P4TC_TABLE_ACT_NAME]) {
			NL_SET_ERR_MSG(extack,
				       "Must specify allowed table action name");
			return -EINVAL;
		}
		act = table_act_lookup(pipeline,
				       nla_data(tb[P4TC_TABLE_ACT_NAME]),
				       extack);
		if (IS_ERR(act))
			return PTR_ERR(act);
		for (i = 0; i < chg->num_acts; i++) {
			if (chg->acts[i].act == act) {
				NL_SET_ERR_MSG_FMT(extack,
						   "Action %.40s is listed twice",
						   act->common.name);
				return -EINVAL;
			}
		}
		chg->acts[chg->num_acts].flags = tb[P4TC_TABLE_ACT_FLAGS] ?
			nla_get_u8(tb[P4TC_TABLE_ACT_FLAGS]) : 0;
		if (chg->acts[chg->num_acts].flags ==
		    (P4TC_TABLE_ACT_FLAGS_TABLEONLY |
		     P4TC_TABLE_ACT_FLAGS_DEFAULTONLY)) {
			NL_SET_ERR_MSG(extack,
				       "An action is tableonly or defaultonly, not both");
			return -EINVAL;
		}
		refcount_inc(&act->a_ref);
		chg->acts[chg->num_acts++].act = act;
	}
	return 0;
}

/* A default action: P4TC_TABLE_DEFAULT_ACTION and/or _PERMISSIONS. */
static int table_default_parse(struct p4tc_table *table, struct nlattr *nla,
			       enum p4tc_act_use use,
			       struct p4tc_table_default *d,
			       struct netlink_ext_ack *extack)
{
	struct nlattr *tb[P4TC_TABLE_DEFAULT_MAX + 1];
	int ret;

	ret = nla_parse_nested(tb, P4TC_TABLE_DEFAULT_MAX, nla,
			       p4tc_table_default_policy, extack);
	if (ret < 0)
		return ret;
	d->given = true;
	d->perms = tb[P4TC_TABLE_DEFAULT_PERMISSIONS] ?
		   nla_get_u16(tb[P4TC_TABLE_DEFAULT_PERMISSIONS]) :
		   P4TC_PERMS_DEFACT_DEFAULT;
	if (d->perms & ~table->permissions) {
		NL_SET_ERR_MSG(extack,
			       "Default action permissions exceed the table's");
		return -EPERM;
	}
	if (!(d->perms & P4TC_DATA_PERM_X)) {
		NL_SET_ERR_MSG(extack,
			       "Default action must have data path execute permissions");
		return -EINVAL;
	}
	if (!tb[P4TC_TABLE_DEFAULT_ACTION]) {
		d->set_perms = !!tb[P4TC_TABLE_DEFAULT_PERMISSIONS];
		return 0;
	}
	d->value = p4tc_entry_value_parse(table, tb[P4TC_TABLE_DEFAULT_ACTION],
					  use, extack);
	if (IS_ERR(d->value)) {
		ret = PTR_ERR(d->value);
		d->value = NULL;
		return ret;
	}
	d->value->permissions = d->perms;
	return 0;
}

static void table_change_free(struct p4tc_table_change *chg)
{
	p4tc_action_destroy(chg->key_acts);
	p4tc_action_destroy(chg->preacts);
	p4tc_action_destroy(chg->postacts);
	table_acts_put(chg->acts, chg->num_acts);
	p4tc_entry_value_free(chg->hit.value);
	p4tc_entry_value_free(chg->miss.value);
}

/* The datapath runs bound lists up to their first empty slot. */
static int table_bind(struct net *net, struct nlattr *nla,
		      struct tc_action ***acts, struct netlink_ext_ack *extack)
{
	int ret;

	if (!nla)
		return 0;
	ret = p4tc_action_bind(net, nla, acts, extack);
	return ret < 0 ? ret : 0;
}

/* A default action that stays must fit the action list that will be. */
static int table_default_check(struct p4tc_table *table,
			       enum p4tc_act_use use,
			       const struct p4tc_table_default *d,
			       struct p4tc_table_entry_value __rcu **cur,
			       struct netlink_ext_ack *extack)
{
	const struct p4tc_table_entry_value *v;

	if (d->set_perms && !rtnl_dereference(*cur)) {
		NL_SET_ERR_MSG(extack,
			       "No default action to set the permissions of");
		return -ENOENT;
	}
	v = d->given && !d->set_perms ? d->value : rtnl_dereference(*cur);
	if (!v)
		return 0;
	return p4tc_table_act_allowed(table, v->act, use, extack);
}

/* Parse the parts create and update share; the default actions are
 * checked against the action list the table will have.
 */
static int table_change_parse(struct p4tc_table *table, struct nlattr **tb,
			      struct p4tc_table_change *chg,
			      struct netlink_ext_ack *extack)
{
	struct p4tc_pipeline *pipeline = table->pipeline;
	struct net *net = pipeline->net;
	struct p4tc_table_act *old_acts;
	u32 old_num;
	int ret;

	if (tb[P4TC_TABLE_ACTS_LIST]) {
		ret = table_acts_parse(pipeline, tb[P4TC_TABLE_ACTS_LIST], chg,
				       extack);
		if (ret < 0)
			return ret;
	}
	ret = table_bind(net, tb[P4TC_TABLE_KEY_ACTION], &chg->key_acts,
			 extack);
	if (ret < 0)
		return ret;
	ret = table_bind(net, tb[P4TC_TABLE_PREACTIONS], &chg->preacts,
			 extack);
	if (ret < 0)
		return ret;
	ret = table_bind(net, tb[P4TC_TABLE_POSTACTIONS], &chg->postacts,
			 extack);
	if (ret < 0)
		return ret;

	/* defaults are checked against the list being set */
	old_acts = table->acts;
	old_num = table->num_acts;
	if (chg->acts_given) {
		table->acts = chg->acts;
		table->num_acts = chg->num_acts;
	}
	ret = 0;
	if (tb[P4TC_TABLE_DEFAULT_HIT])
		ret = table_default_parse(table, tb[P4TC_TABLE_DEFAULT_HIT],
					  P4TC_ACT_USE_HIT, &chg->hit, extack);
	if (!ret && tb[P4TC_TABLE_DEFAULT_MISS])
		ret = table_default_parse(table, tb[P4TC_TABLE_DEFAULT_MISS],
					  P4TC_ACT_USE_MISS, &chg->miss,
					  extack);
	if (!ret)
		ret = table_default_check(table, P4TC_ACT_USE_HIT, &chg->hit,
					  &table->default_hit, extack);
	if (!ret)
		ret = table_default_check(table, P4TC_ACT_USE_MISS, &chg->miss,
					  &table->default_miss, extack);
	table->acts = old_acts;
	table->num_acts = old_num;
	return ret;
}

static void table_default_swap(struct p4tc_table_default *d,
			       struct p4tc_table_entry_value __rcu **cur)
{
	struct p4tc_table_entry_value *old = rtnl_dereference(*cur);

	if (!d->given)
		return;
	if (d->set_perms) {
		/* permissions are read by the control path alone */
		if (old)
			swap(old->permissions, d->perms);
		return;
	}
	rcu_assign_pointer(*cur, d->value);
	d->value = old;
}

/* Swap the change into the table; a second call swaps it back.  The
 * datapath sees each part change at once; what it may still be reading
 * goes with table_change_free() after a grace period.
 */
static void table_change_swap(struct p4tc_table *table,
			      struct p4tc_table_change *chg)
{
	if (chg->key_acts)
		swap(table->key_acts, chg->key_acts);
	if (chg->preacts)
		swap(table->preacts, chg->preacts);
	if (chg->postacts)
		swap(table->postacts, chg->postacts);
	if (chg->acts_given) {
		swap(table->acts, chg->acts);
		swap(table->num_acts, chg->num_acts);
	}
	table_default_swap(&chg->hit, &table->default_hit);
	table_default_swap(&chg->miss, &table->default_miss);
}

/* After the swap: what the change holds now was the table's. */
static void table_change_release(struct p4tc_table_change *chg)
{
	if (chg->key_acts || chg->preacts || chg->postacts ||
	    chg->hit.value || chg->miss.value)
		synchronize_rcu();
	table_change_free(chg);
}

/* ------------------------------------------------------------------ */
/* Life                                                                */
/* ------------------------------------------------------------------ */

/* Give back what the table holds but its memory (programs may still
 * name it: they drop their references later).
 */
static void table_release(struct p4tc_table *table)
{
	p4tc_table_entries_flush(table);
	p4tc_action_destroy(table->key_acts);
	p4tc_action_destroy(table->preacts);
	p4tc_action_destroy(table->postacts);
	table->key_acts = NULL;
	table->preacts = NULL;
	table->postacts = NULL;
	p4tc_entry_value_free(rcu_replace_pointer_rtnl(table->default_hit,
						       NULL));
	p4tc_entry_value_free(rcu_replace_pointer_rtnl(table->default_miss,
						       NULL));
	table_acts_put(table->acts, table->num_acts);
	table->acts = NULL;
	table->num_acts = 0;
}

static void table_free(struct p4tc_table *table)
{
	idr_destroy(&table->entries_idr);
	xa_destroy(&table->stats_blocks);
	kfree_rcu(table, rcu);
}

static int __tcf_table_put(struct p4tc_pipeline *pipeline,
			   struct p4tc_table *table,
			   struct netlink_ext_ack *extack)
{
	if (refcount_read(&table->tbl_ref) > 1) {
		NL_SET_ERR_MSG(extack, "Unable to delete referenced table");
		return -EBUSY;
	}
	idr_remove(&pipeline->p_tbl_idr, table->tbl_id);
	pipeline->curr_tables--;
	table_release(table);
	/* the datapath of the pipeline's actions may still be in it */
	synchronize_rcu();
	table_free(table);
	return 0;
}

static int tcf_table_put(struct net *net, struct p4tc_template_common *tmpl,
			 struct netlink_ext_ack *extack)
{
	struct p4tc_pipeline *pipeline = tcf_pipeline_find_byid(net, tmpl->p_id);

	return __tcf_table_put(pipeline, to_table(tmpl), extack);
}

static int acts_binds(struct tc_action **acts, const struct tc_action *a)
{
	int i, n = 0;

	for (i = 0; acts && i < TCA_ACT_MAX_PRIO && acts[i]; i++)
		n += acts[i] == a;
	return n;
}

/**
 * tcf_table_binds - how many times the pipeline's tables bind an action
 * @pipeline: the pipeline
 * @a: the action
 *
 * Return: the number of bindings of @a by key, pre- and postactions.
 */
int tcf_table_binds(struct p4tc_pipeline *pipeline, const struct tc_action *a)
{
	struct p4tc_table *table;
	unsigned long tmp, id;
	int n = 0;

	idr_for_each_entry_ul(&pipeline->p_tbl_idr, table, tmp, id)
		n += acts_binds(table->key_acts, a) +
		     acts_binds(table->preacts, a) +
		     acts_binds(table->postacts, a);
	return n;
}

/**
 * tcf_table_release_all - first step of destroying a pipeline's tables:
 * their entries, bound actions and action references go
 * @pipeline: the pipeline
 */
void tcf_table_release_all(struct p4tc_pipeline *pipeline)
{
	struct p4tc_table *table;
	unsigned long tmp, id;

	/* packets the pipeline's last users sent may still be in its tables */
	if (!idr_is_empty(&pipeline->p_tbl_idr))
		synchronize_rcu();
	idr_for_each_entry_ul(&pipeline->p_tbl_idr, table, tmp, id)
		table_release(table);
}

/**
 * tcf_table_purge - last step: free the tables, after the action
 * templates whose programs name them
 * @pipeline: the pipeline
 */
void tcf_table_purge(struct p4tc_pipeline *pipeline)
{
	struct p4tc_table *table;
	unsigned long tmp, id;

	idr_for_each_entry_ul(&pipeline->p_tbl_idr, table, tmp, id) {
		idr_remove(&pipeline->p_tbl_idr, id);
		table_free(table);
	}
	pipeline->curr_tables = 0;
}

static struct p4tc_template_common *
tcf_table_create(struct p4tc_pipeline *pipeline, struct nlattr **tb,
		 u32 *ids, struct netlink_ext_ack *extack)
{
	struct p4tc_table_change chg = {};
	u32 id = ids[P4TC_TBLID_IDX];
	struct p4tc_table *table;
	const char *name;
	int ret;

	if (!tb[P4TC_TABLE_NAME]) {
		NL_SET_ERR_MSG(extack, "Must specify table name");
		return ERR_PTR(-EINVAL);
	}
	name = nla_data(tb[P4TC_TABLE_NAME]);
	ret = p4tc_name_check(name, extack);
	if (ret < 0)
		return ERR_PTR(ret);
	/* tables are named CB/NAME, as the seed's */
	if (!strchr(name, '/') || name[0] == '/') {
		NL_SET_ERR_MSG(extack, "Table name must contain control block");
		return ERR_PTR(-EINVAL);
	}
	if (tcf_table_find_byname(pipeline, name)) {
		NL_SET_ERR_MSG(extack, "Table already exists");
		return ERR_PTR(-EEXIST);
	}
	if (id && idr_find(&pipeline->p_tbl_idr, id)) {
		NL_SET_ERR_MSG(extack, "Table already exists");
		return ERR_PTR(-EEXIST);
	}
	if (pipeline->curr_tables >= pipeline->num_tables) {
		/* it has its numtables tables */
		NL_SET_ERR_MSG(extack, "Table range exceeded max allowed value");
		return ERR_PTR(-ENOSPC);
	}
	if (!tb[P4TC_TABLE_KEYSZ]) {
		NL_SET_ERR_MSG(extack, "Must specify table key size");
		return ERR_PTR(-EINVAL);
	}
	ret = table_sizes_check(tb, extack);
	if (ret < 0)
		return ERR_PTR(ret);

	table = kzalloc(sizeof(*table), GFP_KERNEL_ACCOUNT);
	if (!table)
		return ERR_PTR(-ENOMEM);
	strscpy(table->common.name, name, TABLENAMSIZ);
	table->common.ops = &p4tc_table_ops;
	table->common.p_id = pipeline->common.p_id;
	table->pipeline = pipeline;
	INIT_LIST_HEAD(&table->masks);
	idr_init(&table->entries_idr);
	xa_init(&table->stats_blocks);
	refcount_set(&table->tbl_ref, 1);
	table->keysz = nla_get_u32(tb[P4TC_TABLE_KEYSZ]);
	table->key_bytes = DIV_ROUND_UP(table->keysz, 8);
	/* no type: the seed's table, which matches with masks and
	 * priorities: a ternary table, nummasks 1..128 (default 8)
	 */
	table->type = tb[P4TC_TABLE_TYPE] ? nla_get_u8(tb[P4TC_TABLE_TYPE]) :
		      P4TC_TABLE_TYPE_TERNARY;
	table->max_entries = tb[P4TC_TABLE_MAX_ENTRIES] ?
		nla_get_u32(tb[P4TC_TABLE_MAX_ENTRIES]) : P4TC_DEFAULT_TENTRIES;
	table->max_masks = tb[P4TC_TABLE_MAX_MASKS] ?
		nla_get_u32(tb[P4TC_TABLE_MAX_MASKS]) : P4TC_DEFAULT_TMASKS;
	table->permissions = tb[P4TC_TABLE_PERMISSIONS] ?
		nla_get_u16(tb[P4TC_TABLE_PERMISSIONS]) :
		P4TC_PERMS_TABLE_DEFAULT;
	table->next_prio = 1;
	ret = table_check_perms(table->permissions, extack);
	if (ret < 0)
		goto free;
	if (table->type == P4TC_TABLE_TYPE_EXACT && table->max_masks > 1 &&
	    tb[P4TC_TABLE_MAX_MASKS]) {
		NL_SET_ERR_MSG(extack, "An exact table has one mask");
		ret = -EINVAL;
		goto free;
	}
	if (table->type == P4TC_TABLE_TYPE_EXACT)
		table->max_masks = 1;

	ret = table_change_parse(table, tb, &chg, extack);
	if (ret < 0)
		goto free_chg;

	ret = p4tc_tmpl_alloc_id(&pipeline->p_tbl_idr, table, &id,
				 "Unable to allocate table id", extack);
	if (ret < 0)
		goto free_chg;
	table->tbl_id = id;
	table_change_swap(table, &chg);
	/* the change now holds the new table's nothing */
	table_change_free(&chg);

	if (tb[P4TC_TABLE_ENTRIES]) {
		ret = p4tc_table_entries_add(table, tb[P4TC_TABLE_ENTRIES],
					     extack);
		if (ret < 0) {
			idr_remove(&pipeline->p_tbl_idr, id);
			table_release(table);
			synchronize_rcu();
			table_free(table);
			return ERR_PTR(ret);
		}
	}
	pipeline->curr_tables++;
	return &table->common;

free_chg:
	table_change_free(&chg);
free:
	idr_destroy(&table->entries_idr);
	kfree(table);
	return ERR_PTR(ret);
}

/* In a sealed pipeline only the default actions change, and only as
 * the permissions of the ones there allow.
 */
static int table_update_sealed_check(struct p4tc_table *table,
				     struct nlattr **tb,
				     struct netlink_ext_ack *extack)
{
	static const struct {
		int attr;
		const char *what;
		const char *denied;	/* the seed's message */
	} defs[] = {
		{ P4TC_TABLE_DEFAULT_HIT, "hit",
		  "Permission denied: Unable to update default hit action" },
		{ P4TC_TABLE_DEFAULT_MISS, "miss",
		  "Permission denied: Unable to update default miss action" },
	};
	int i;

	for (i = P4TC_TABLE_TYPE; i <= P4TC_TABLE_MAX; i++) {
		if (tb[i] && i != P4TC_TABLE_DEFAULT_HIT &&
		    i != P4TC_TABLE_DEFAULT_MISS) {
			NL_SET_ERR_MSG(extack,
				       "Only default action updates are allowed in sealed pipeline");
			return -EPERM;
		}
	}
	for (i = 0; i < ARRAY_SIZE(defs); i++) {
		const struct p4tc_table_entry_value *v;

		if (!tb[defs[i].attr])
			continue;
		v = rtnl_dereference(defs[i].attr == P4TC_TABLE_DEFAULT_HIT ?
				     table->default_hit : table->default_miss);
		if (v && !(v->permissions & P4TC_CTRL_PERM_U)) {
			p4tc_set_msg(extack, defs[i].denied);
			return -EPERM;
		}
		if (!v && !(table->permissions & P4TC_CTRL_PERM_C)) {
			NL_SET_ERR_MSG_FMT(extack,
					   "Table permissions forbid creating a default %s action",
					   defs[i].what);
			return -EPERM;
		}
	}
	return 0;
}

static struct p4tc_template_common *
tcf_table_update(struct p4tc_pipeline *pipeline, struct nlattr **tb,
		 u32 *ids, struct netlink_ext_ack *extack)
{
	const char *name = tb[P4TC_TABLE_NAME] ?
			   nla_data(tb[P4TC_TABLE_NAME]) : NULL;
	struct p4tc_table_change chg = {};
	u32 max_entries, max_masks, keysz;
	struct p4tc_table *table;
	u16 perms;
	u8 type;
	int ret;

	table = tcf_table_find_byany(pipeline, name, ids[P4TC_TBLID_IDX],
				     extack);
	if (IS_ERR(table))
		return ERR_CAST(table);

	if (pipeline_sealed(pipeline)) {
		ret = table_update_sealed_check(table, tb, extack);
		if (ret < 0)
			return ERR_PTR(ret);
	}

	ret = table_sizes_check(tb, extack);
	if (ret < 0)
		return ERR_PTR(ret);
	keysz = tb[P4TC_TABLE_KEYSZ] ? nla_get_u32(tb[P4TC_TABLE_KEYSZ]) :
		table->keysz;
	/* as in the seed, while nothing depends on it (sealed: refused above) */
	if (keysz != table->keysz && (table->num_entries || table->num_masks)) {
		NL_SET_ERR_MSG(extack, "Table has entries: its key size cannot change");
		return ERR_PTR(-EBUSY);
	}
	if (keysz != table->keysz && refcount_read(&table->tbl_ref) > 1) {
		NL_SET_ERR_MSG(extack,
			       "Commands use the table's key: its key size cannot change");
		return ERR_PTR(-EBUSY);
	}
	type = tb[P4TC_TABLE_TYPE] ? nla_get_u8(tb[P4TC_TABLE_TYPE]) :
	       table->type;
	max_entries = tb[P4TC_TABLE_MAX_ENTRIES] ?
		      nla_get_u32(tb[P4TC_TABLE_MAX_ENTRIES]) :
		      table->max_entries;
	max_masks = tb[P4TC_TABLE_MAX_MASKS] ?
		    nla_get_u32(tb[P4TC_TABLE_MAX_MASKS]) :
		    type == P4TC_TABLE_TYPE_EXACT ? 1 :
		    table->type == P4TC_TABLE_TYPE_EXACT ? P4TC_DEFAULT_TMASKS :
		    table->max_masks;
	perms = tb[P4TC_TABLE_PERMISSIONS] ?
		nla_get_u16(tb[P4TC_TABLE_PERMISSIONS]) : table->permissions;

	if (type != table->type && table->num_entries) {
		NL_SET_ERR_MSG(extack, "Table has entries: its type cannot change");
		return ERR_PTR(-EBUSY);
	}
	if (type == P4TC_TABLE_TYPE_EXACT && max_masks > 1) {
		NL_SET_ERR_MSG(extack, "An exact table has one mask");
		return ERR_PTR(-EINVAL);
	}
	if (max_entries < table->num_entries) {
		NL_SET_ERR_MSG(extack, "Table has more entries than tentries");
		return ERR_PTR(-EBUSY);
	}
	if (max_masks < table->num_masks) {
		NL_SET_ERR_MSG(extack, "Table has more masks than nummasks");
		return ERR_PTR(-EBUSY);
	}
	if (perms != table->permissions) {
		ret = table_check_perms(perms, extack);
		if (ret < 0)
			return ERR_PTR(ret);
		if (table->num_entries) {
			NL_SET_ERR_MSG(extack,
				       "Table has entries: its permissions cannot change");
			return ERR_PTR(-EBUSY);
		}
	}
	if (tb[P4TC_TABLE_ACTS_LIST] && table->num_entries) {
		NL_SET_ERR_MSG(extack,
			       "Table has entries: its action list cannot change");
		return ERR_PTR(-EBUSY);
	}

	ret = table_change_parse(table, tb, &chg, extack);
	if (ret < 0)
		goto free;

	table_change_swap(table, &chg);
	/* the message's entries go in under the table it makes */
	swap(table->type, type);
	swap(table->keysz, keysz);
	table->key_bytes = DIV_ROUND_UP(table->keysz, 8);
	swap(table->max_entries, max_entries);
	swap(table->max_masks, max_masks);
	swap(table->permissions, perms);
	if (tb[P4TC_TABLE_ENTRIES]) {
		ret = p4tc_table_entries_add(table, tb[P4TC_TABLE_ENTRIES],
					     extack);
		if (ret < 0) {
			table->type = type;
			table->keysz = keysz;
			table->key_bytes = DIV_ROUND_UP(keysz, 8);
			table->max_entries = max_entries;
			table->max_masks = max_masks;
			table->permissions = perms;
			table_change_swap(table, &chg);
			goto free;
		}
	}
	/* devices running the pipeline run its defaults too */
	if (chg.hit.given)
		p4tc_offload_default_set(table, true, extack);
	if (chg.miss.given)
		p4tc_offload_default_set(table, false, extack);
	table_change_release(&chg);
	return &table->common;

free:
	table_change_free(&chg);
	return ERR_PTR(ret);
}

/* ------------------------------------------------------------------ */
/* Replies                                                             */
/* ------------------------------------------------------------------ */

static int table_acts_fill(struct sk_buff *skb, int attr,
			   struct tc_action **acts)
{
	struct nlattr *nest;

	if (!acts)
		return 0;
	nest = nla_nest_start(skb, attr);
	if (!nest || tcf_action_dump(skb, acts, 0, 0, false) < 0)
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int table_default_fill(struct sk_buff *skb, int attr,
			      const struct p4tc_table_entry_value *v)
{
	struct nlattr *nest;

	if (!v)
		return 0;
	nest = nla_nest_start(skb, attr);
	if (!nest ||
	    nla_put_u16(skb, P4TC_TABLE_DEFAULT_PERMISSIONS, v->permissions) ||
	    p4tc_entry_value_fill(skb, P4TC_TABLE_DEFAULT_ACTION, v))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int table_list_fill(struct sk_buff *skb, const struct p4tc_table *table)
{
	struct nlattr *nest, *one;
	u32 i;

	if (!table->num_acts)
		return 0;
	nest = nla_nest_start(skb, P4TC_TABLE_ACTS_LIST);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < table->num_acts; i++) {
		const struct p4tc_act *act = table->acts[i].act;

		one = nla_nest_start(skb, i + 1);
		if (!one ||
		    nla_put_string(skb, P4TC_TABLE_ACT_NAME, act->ops.kind) ||
		    nla_put_u8(skb, P4TC_TABLE_ACT_FLAGS, table->acts[i].flags))
			return -EMSGSIZE;
		nla_nest_end(skb, one);
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int tcf_table_fill(struct sk_buff *skb,
			  struct p4tc_template_common *tmpl)
{
	struct p4tc_table *table = to_table(tmpl);
	u32 ids[] = { table->common.p_id, table->tbl_id };
	struct nlattr *nest;

	if (p4tc_put_path(skb, ids, ARRAY_SIZE(ids)))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, P4TC_PARAMS);
	if (!nest ||
	    nla_put_string(skb, P4TC_TABLE_NAME, table->common.name) ||
	    nla_put_u8(skb, P4TC_TABLE_TYPE, table->type) ||
	    nla_put_u32(skb, P4TC_TABLE_KEYSZ, table->keysz) ||
	    nla_put_u32(skb, P4TC_TABLE_MAX_ENTRIES, table->max_entries) ||
	    nla_put_u32(skb, P4TC_TABLE_MAX_MASKS, table->max_masks) ||
	    nla_put_u16(skb, P4TC_TABLE_PERMISSIONS, table->permissions) ||
	    nla_put_u32(skb, P4TC_TABLE_NUM_ENTRIES, table->num_entries) ||
	    nla_put_u32(skb, P4TC_TABLE_NUM_MASKS, table->num_masks) ||
	    table_acts_fill(skb, P4TC_TABLE_KEY_ACTION, table->key_acts) ||
	    table_acts_fill(skb, P4TC_TABLE_PREACTIONS, table->preacts) ||
	    table_acts_fill(skb, P4TC_TABLE_POSTACTIONS, table->postacts) ||
	    table_default_fill(skb, P4TC_TABLE_DEFAULT_HIT,
			       rtnl_dereference(table->default_hit)) ||
	    table_default_fill(skb, P4TC_TABLE_DEFAULT_MISS,
			       rtnl_dereference(table->default_miss)) ||
	    table_list_fill(skb, table))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int tcf_table_flush(struct p4tc_pipeline *pipeline,
			   struct netlink_ext_ack *extack)
{
	struct p4tc_table *table;
	unsigned long tmp, id;

	if (idr_is_empty(&pipeline->p_tbl_idr)) {
		/* not an error: tc shows it as a warning */
		NL_SET_ERR_MSG(extack, "There are not tables to flush");
		return 0;
	}
	/* an action's commands name one */
	idr_for_each_entry_ul(&pipeline->p_tbl_idr, table, tmp, id) {
		if (refcount_read(&table->tbl_ref) > 1) {
			NL_SET_ERR_MSG(extack, "Unable to flush any table");
			return -EBUSY;
		}
	}
	idr_for_each_entry_ul(&pipeline->p_tbl_idr, table, tmp, id)
		__tcf_table_put(pipeline, table, NULL);
	return 0;
}

static int tcf_table_gd(struct net *net, struct sk_buff *skb,
			struct nlmsghdr *n, struct nlattr *nla,
			struct p4tc_nl_pname *nl_pname, u32 *ids,
			struct netlink_ext_ack *extack)
{
	struct nlattr *tb[P4TC_TABLE_MAX + 1] = {};
	bool del = n->nlmsg_type == RTM_DELP4TEMPLATE;
	struct p4tc_pipeline *pipeline;
	struct p4tc_table *table;
	const char *name;
	int ret;

	if (nla) {
		ret = nla_parse_nested(tb, P4TC_TABLE_MAX, nla,
				       p4tc_table_policy, extack);
		if (ret < 0)
			return ret;
	}
	pipeline = p4tc_req_pipeline(net, nl_pname, ids, del, extack);
	if (IS_ERR(pipeline))
		return PTR_ERR(pipeline);

	name = tb[P4TC_TABLE_NAME] ? nla_data(tb[P4TC_TABLE_NAME]) : NULL;
	if (del && (n->nlmsg_flags & NLM_F_ROOT) && !name &&
	    !ids[P4TC_TBLID_IDX])
		return tcf_table_flush(pipeline, extack);

	table = tcf_table_find_byany(pipeline, name, ids[P4TC_TBLID_IDX],
				     extack);
	if (IS_ERR(table))
		return PTR_ERR(table);
	ret = p4tc_tmpl_fill(skb, &table->common, extack);
	if (ret < 0)
		return ret;
	if (del)
		return __tcf_table_put(pipeline, table, extack);
	return 0;
}

static int tcf_table_dump(struct sk_buff *skb, struct p4tc_dump_ctx *ctx,
			  struct nlattr *nla, char **p_name, u32 *ids,
			  struct netlink_ext_ack *extack)
{
	struct p4tc_pipeline *pipeline;

	pipeline = p4tc_dump_pipeline(skb, p_name, ids, extack);
	if (IS_ERR(pipeline))
		return PTR_ERR(pipeline);
	return tcf_p4_tmpl_generic_dump(skb, ctx, &pipeline->p_tbl_idr,
					P4TC_TBLID_IDX, tcf_table_fill, extack);
}

const struct p4tc_template_ops p4tc_table_ops = {
	.policy = p4tc_table_policy,
	.maxattr = P4TC_TABLE_MAX,
	.create = tcf_table_create,
	.update = tcf_table_update,
	.fill = tcf_table_fill,
	.gd = tcf_table_gd,
	.put = tcf_table_put,
	.dump = tcf_table_dump,
	.update_sealed = true,
};
