// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * P4TC table entries: how they are kept and found, and the runtime
 * messages (RTM_P4TC_CREATE, RTM_P4TC_DEL, RTM_P4TC_GET) that write and
 * read them.
 *
 * The datapath sees a key and finds the entry that wins for it.  A table
 * keeps its entries by mask: one hash table of masked keys per distinct
 * mask (at most the table's nummasks), so a lookup costs one hash lookup
 * per mask whatever the number of entries.  Entries equal in key and mask
 * but not in priority hang off the one with the lowest priority number.
 * In LPM tables masks are prefixes, kept longest first, and the first
 * hit wins; elsewhere the lowest priority number among the masks' hits
 * wins.  Readers take no lock and allocate nothing; writers run under
 * RTNL, and what they unlink is freed after an RCU grace period.
 *
 * Runtime messages have the template messages' shape: a p4tcmsg (obj
 * P4TC_OBJ_TABLE_ENTRY), the pipeline name, and up to P4TC_MSGBATCH_SIZE
 * objects, each the table's id (P4TC_PATH) and P4TC_ENTRY_* attributes.
 * A message is applied whole or not at all.
 */

#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/netlink.h>
#include <net/p4tc.h>
#include <net/pkt_cls.h>
#include <net/rtnetlink.h>
#include <net/sch_generic.h>
#include <net/sock.h>

static const struct nla_policy p4tc_entry_policy[P4TC_ENTRY_MAX + 1] = {
	[P4TC_ENTRY_TBLNAME] = { .type = NLA_NUL_STRING, .len = TABLENAMSIZ - 1 },
	[P4TC_ENTRY_KEY_BLOB] = { .type = NLA_BINARY,
				  .len = P4TC_MAX_KEYSZ / 8 },
	[P4TC_ENTRY_MASK_BLOB] = { .type = NLA_BINARY,
				   .len = P4TC_MAX_KEYSZ / 8 },
	[P4TC_ENTRY_PRIO] = NLA_POLICY_MIN(NLA_U32, 1),
	[P4TC_ENTRY_ACT] = { .type = NLA_NESTED },
	[P4TC_ENTRY_PERMISSIONS] = NLA_POLICY_MAX(NLA_U16, P4TC_PERM_MAX),
	[P4TC_ENTRY_WHODUNNIT] = NLA_POLICY_RANGE(NLA_U8, P4TC_ENTITY_UNSPEC,
						  P4TC_ENTITY_MAX),
	[P4TC_ENTRY_CREATE_WHODUNNIT] = { .type = NLA_REJECT },
	[P4TC_ENTRY_UPDATE_WHODUNNIT] = { .type = NLA_REJECT },
	[P4TC_ENTRY_TM] = { .type = NLA_REJECT },
	[P4TC_ENTRY_STATS] = { .type = NLA_REJECT },
	[P4TC_ENTRY_FLAGS] = NLA_POLICY_MASK(NLA_U32, TCA_CLS_FLAGS_SKIP_HW |
					     TCA_CLS_FLAGS_SKIP_SW |
					     TCA_CLS_FLAGS_VERBOSE),
	[P4TC_ENTRY_IN_HW_COUNT] = { .type = NLA_REJECT },
};

static const struct nla_policy p4tc_entry_act_policy[TCA_ACT_MAX + 1] = {
	[TCA_ACT_KIND] = { .type = NLA_NUL_STRING, .len = ACTNAMSIZ - 1 },
	[TCA_ACT_OPTIONS] = { .type = NLA_NESTED },
};

static const struct nla_policy p4tc_entry_opt_policy[P4TC_ACT_MAX + 1] = {
	[P4TC_ACT_NAME] = { .type = NLA_NUL_STRING, .len = ACTNAMSIZ - 1 },
	[P4TC_ACT_PARMS] = { .type = NLA_NESTED },
	[P4TC_ACT_OPT] = NLA_POLICY_EXACT_LEN(sizeof(struct tc_act_dyna)),
};

/* ------------------------------------------------------------------ */
/* What an entry does: an action of the table with its parameters      */
/* ------------------------------------------------------------------ */

/* A value holds a reference on its action template from its parse until
 * it leaves its entry or default (under RTNL, not when its memory goes
 * after a grace period), so that the template cannot be deleted while an
 * entry or a default names it, and can be as soon as none does.
 */
static void value_put_act(struct p4tc_table_entry_value *value)
{
	if (value)
		tcf_act_put_ref(value->act);
}

/**
 * p4tc_entry_value_free - free an entry's or a default's action after the
 * datapath let go of it
 * @value: the value, or NULL
 *
 * Its action template is free to go at once.  Called under RTNL.
 */
void p4tc_entry_value_free(struct p4tc_table_entry_value *value)
{
	ASSERT_RTNL();
	if (!value)
		return;
	value_put_act(value);
	kfree_rcu(value, rcu);
}

/**
 * p4tc_entry_value_parse - the action of an entry or a default action
 * @table: the table
 * @nla: a tc action list holding one action "PIPE/NAME" of the table's
 *	pipeline with its parameters (TCA_ACT_OPTIONS as an instance has)
 * @dflt: a default action (else an entry's)
 * @extack: receives the reason of a refusal
 *
 * Return: the value, or an ERR_PTR.
 */
struct p4tc_table_entry_value *
p4tc_entry_value_parse(struct p4tc_table *table, struct nlattr *nla,
		       bool dflt, struct netlink_ext_ack *extack)
{
	struct p4tc_pipeline *pipeline = table->pipeline;
	size_t plen = strlen(pipeline->common.name);
	struct nlattr *tb[TCA_ACT_MAX + 1];
	struct nlattr *opt[P4TC_ACT_MAX + 1];
	struct p4tc_table_entry_value *value;
	struct nlattr *one = NULL, *attr;
	int verdict = TC_ACT_PIPE;
	struct p4tc_act *act;
	const char *kind;
	int rem, ret;

	nla_for_each_nested(attr, nla, rem) {
		if (one) {
			NL_SET_ERR_MSG(extack, "An entry or default has one action");
			return ERR_PTR(-EINVAL);
		}
		one = attr;
	}
	if (!one) {
		NL_SET_ERR_MSG(extack, "Action list is empty");
		return ERR_PTR(-EINVAL);
	}
	/* tc writes action lists without NLA_F_NESTED on every level */
	ret = nla_parse_nested_deprecated(tb, TCA_ACT_MAX, one,
					  p4tc_entry_act_policy, extack);
	if (ret < 0)
		return ERR_PTR(ret);
	if (!tb[TCA_ACT_KIND]) {
		NL_SET_ERR_MSG(extack, "Action kind missing");
		return ERR_PTR(-EINVAL);
	}
	kind = nla_data(tb[TCA_ACT_KIND]);
	if (strncmp(kind, pipeline->common.name, plen) || kind[plen] != '/') {
		NL_SET_ERR_MSG_FMT(extack,
				   "Action %.40s is not one of pipeline %.20s",
				   kind, pipeline->common.name);
		return ERR_PTR(-EINVAL);
	}
	act = tcf_act_find_byname(pipeline, kind + plen + 1);
	if (!act) {
		NL_SET_ERR_MSG_FMT(extack, "Unknown action %.40s", kind);
		return ERR_PTR(-ENOENT);
	}
	if (!act->active) {
		NL_SET_ERR_MSG_FMT(extack, "Action %.40s is not active", kind);
		return ERR_PTR(-EINVAL);
	}
	ret = p4tc_table_act_allowed(table, act, dflt, extack);
	if (ret < 0)
		return ERR_PTR(ret);

	memset(opt, 0, sizeof(opt));
	if (tb[TCA_ACT_OPTIONS]) {
		ret = nla_parse_nested_deprecated(opt, P4TC_ACT_MAX,
						  tb[TCA_ACT_OPTIONS],
						  p4tc_entry_opt_policy,
						  extack);
		if (ret < 0)
			return ERR_PTR(ret);
	}
	if (opt[P4TC_ACT_OPT]) {
		const struct tc_act_dyna *dyna = nla_data(opt[P4TC_ACT_OPT]);

		if (dyna->index) {
			NL_SET_ERR_MSG(extack,
				       "Entry actions take parameters, not an instance index");
			return ERR_PTR(-EINVAL);
		}
		verdict = dyna->action;
		if (TC_ACT_EXT_OPCODE(verdict) || verdict < TC_ACT_UNSPEC ||
		    verdict > TC_ACT_VALUE_MAX) {
			NL_SET_ERR_MSG(extack,
				       "Entry action control must be a plain verdict");
			return ERR_PTR(-EINVAL);
		}
	}

	value = kzalloc(struct_size(value, params.values, act->params_bytes),
			GFP_KERNEL_ACCOUNT);
	if (!value)
		return ERR_PTR(-ENOMEM);
	ret = p4tc_act_params_parse(act, opt[P4TC_ACT_PARMS], &value->params,
				    extack);
	if (ret < 0) {
		kfree(value);
		return ERR_PTR(ret);
	}
	/* given back by p4tc_entry_value_free() or entry_put_value() */
	refcount_inc(&act->a_ref);
	value->act = act;
	value->verdict = verdict;
	return value;
}

/**
 * p4tc_entry_value_fill - write an entry's or a default's action as a tc
 * action list of one action
 * @skb: the message
 * @attr: the attribute of the list
 * @value: the value
 *
 * Return: 0 or -EMSGSIZE.
 */
int p4tc_entry_value_fill(struct sk_buff *skb, int attr,
			  const struct p4tc_table_entry_value *value)
{
	struct tc_act_dyna dyna = { .action = value->verdict };
	struct nlattr *list, *one, *opts;

	list = nla_nest_start(skb, attr);
	if (!list)
		return -EMSGSIZE;
	one = nla_nest_start(skb, 1);
	if (!one ||
	    nla_put_string(skb, TCA_ACT_KIND, value->act->ops.kind))
		return -EMSGSIZE;
	opts = nla_nest_start(skb, TCA_ACT_OPTIONS);
	if (!opts ||
	    nla_put_string(skb, P4TC_ACT_NAME, value->act->ops.kind) ||
	    nla_put(skb, P4TC_ACT_OPT, sizeof(dyna), &dyna) ||
	    p4tc_act_params_fill(skb, value->act, &value->params))
		return -EMSGSIZE;
	nla_nest_end(skb, opts);
	nla_nest_end(skb, one);
	nla_nest_end(skb, list);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Masks                                                               */
/* ------------------------------------------------------------------ */

static struct p4tc_table_mask *mask_find(struct p4tc_table *table,
					 const u8 *mask)
{
	struct p4tc_table_mask *m;

	list_for_each_entry(m, &table->masks, list) {
		if (!memcmp(m->mask, mask, table->key_bytes))
			return m;
	}
	return NULL;
}

static struct p4tc_table_mask *mask_get(struct p4tc_table *table,
					const u8 *mask, u32 prefix_len,
					struct netlink_ext_ack *extack)
{
	struct p4tc_table_mask *m, *pos;
	int ret;

	m = mask_find(table, mask);
	if (m)
		return m;
	if (table->num_masks >= table->max_masks) {
		NL_SET_ERR_MSG_FMT(extack,
				   "Table has its %u masks (nummasks): no room for another",
				   table->max_masks);
		return ERR_PTR(-ENOSPC);
	}
	m = kzalloc(struct_size(m, mask, table->key_bytes), GFP_KERNEL_ACCOUNT);
	if (!m)
		return ERR_PTR(-ENOMEM);
	memcpy(m->mask, mask, table->key_bytes);
	m->prefix_len = prefix_len;
	m->ht_params.head_offset = offsetof(struct p4tc_table_entry, node);
	m->ht_params.key_offset = offsetof(struct p4tc_table_entry, key);
	m->ht_params.key_len = table->key_bytes;
	m->ht_params.automatic_shrinking = true;
	ret = rhashtable_init(&m->ht, &m->ht_params);
	if (ret) {
		kfree(m);
		return ERR_PTR(ret);
	}

	/* LPM: the longest prefix first, so that the first hit wins */
	list_for_each_entry(pos, &table->masks, list) {
		if (pos->prefix_len < prefix_len)
			break;
	}
	list_add_tail_rcu(&m->list, &pos->list);
	table->num_masks++;
	return m;
}

static void mask_free_work(struct work_struct *work)
{
	struct p4tc_table_mask *m = container_of(to_rcu_work(work),
						 struct p4tc_table_mask,
						 rwork);

	rhashtable_destroy(&m->ht);
	kfree(m);
}

/* A mask with no entry left goes, after the datapath let go. */
static void mask_put_if_empty(struct p4tc_table *table,
			      struct p4tc_table_mask *m)
{
	if (m->num_entries)
		return;
	list_del_rcu(&m->list);
	table->num_masks--;
	INIT_RCU_WORK(&m->rwork, mask_free_work);
	queue_rcu_work(system_wq, &m->rwork);
}

/* ------------------------------------------------------------------ */
/* Entries                                                             */
/* ------------------------------------------------------------------ */

/* The entry leaves its table: its action template is free to go. */
static void entry_put_value(struct p4tc_table_entry *e)
{
	value_put_act(rtnl_dereference(e->value));
}

/* The memory alone: the value gave its reference back with the entry. */
static void entry_free_rcu(struct rcu_head *head)
{
	struct p4tc_table_entry *e = container_of(head, struct p4tc_table_entry,
						  rcu);
	struct p4tc_table_entry_value *value;

	value = rcu_dereference_protected(e->value, 1);
	kfree(value);
	kfree(e);
}

/* Free an entry the datapath never saw. */
static void entry_free(struct p4tc_table_entry *e)
{
	entry_free_rcu(&e->rcu);
}

static void stats_block_free_rcu(struct rcu_head *head)
{
	struct p4tc_stats_block *blk = container_of(head,
						    struct p4tc_stats_block,
						    rcu);

	free_percpu(blk->stats);
	kfree(blk);
}

/* Give @e the counters of its handle, in a block made on demand. */
static int entry_stats_get(struct p4tc_table *table,
			   struct p4tc_table_entry *e)
{
	unsigned long idx = e->handle / P4TC_STATS_BLOCK;
	struct gnet_stats_basic_sync __percpu *stats;
	struct p4tc_stats_block *blk;
	int cpu, ret;

	blk = xa_load(&table->stats_blocks, idx);
	if (!blk) {
		blk = kzalloc(sizeof(*blk), GFP_KERNEL_ACCOUNT);
		if (!blk)
			return -ENOMEM;
		blk->stats = __alloc_percpu_gfp(sizeof(*blk->stats) *
						P4TC_STATS_BLOCK,
						__alignof__(*blk->stats),
						GFP_KERNEL_ACCOUNT);
		if (!blk->stats) {
			kfree(blk);
			return -ENOMEM;
		}
		ret = xa_err(xa_store(&table->stats_blocks, idx, blk,
				      GFP_KERNEL_ACCOUNT));
		if (ret) {
			free_percpu(blk->stats);
			kfree(blk);
			return ret;
		}
	}
	blk->used++;
	stats = blk->stats + e->handle % P4TC_STATS_BLOCK;
	/* handles come round again after 2^31: start from zero */
	for_each_possible_cpu(cpu) {
		struct gnet_stats_basic_sync *s = per_cpu_ptr(stats, cpu);

		memset(s, 0, sizeof(*s));
		gnet_stats_basic_sync_init(s);
	}
	e->stats = stats;
	return 0;
}

/* The entry is unlinked: its block goes with its last entry, after the
 * datapath let go.
 */
static void entry_stats_put(struct p4tc_table *table,
			    struct p4tc_table_entry *e)
{
	unsigned long idx = e->handle / P4TC_STATS_BLOCK;
	struct p4tc_stats_block *blk = xa_load(&table->stats_blocks, idx);

	if (--blk->used)
		return;
	xa_erase(&table->stats_blocks, idx);
	call_rcu(&blk->rcu, stats_block_free_rcu);
}

static struct p4tc_table_entry *
entry_head(struct p4tc_table_mask *m, const u8 *key)
{
	return rhashtable_lookup_fast(&m->ht, key, m->ht_params);
}

/* Link @e into its mask's hash table, by priority; @head is the entry
 * there with the same key, or NULL.
 */
static int entry_link(struct p4tc_table_mask *m, struct p4tc_table_entry *e,
		      struct p4tc_table_entry *head,
		      struct netlink_ext_ack *extack)
{
	struct p4tc_table_entry *prev = NULL, *cur;
	int ret;

	if (!head)
		return rhashtable_insert_fast(&m->ht, &e->node, m->ht_params);

	for (cur = head; cur && cur->prio < e->prio;
	     cur = rtnl_dereference(cur->next))
		prev = cur;
	if (cur && cur->prio == e->prio) {
		NL_SET_ERR_MSG(extack,
			       "An entry with this key, mask and priority exists");
		return -EEXIST;
	}
	RCU_INIT_POINTER(e->next, cur);
	if (prev) {
		rcu_assign_pointer(prev->next, e);
		return 0;
	}
	ret = rhashtable_replace_fast(&m->ht, &head->node, &e->node,
				      m->ht_params);
	WARN_ON_ONCE(ret);
	return ret;
}

static void entry_unlink(struct p4tc_table_mask *m, struct p4tc_table_entry *e)
{
	struct p4tc_table_entry *head, *prev, *next;

	next = rtnl_dereference(e->next);
	head = entry_head(m, e->key);
	if (head == e) {
		if (next)
			WARN_ON_ONCE(rhashtable_replace_fast(&m->ht, &e->node,
							     &next->node,
							     m->ht_params));
		else
			WARN_ON_ONCE(rhashtable_remove_fast(&m->ht, &e->node,
							    m->ht_params));
		return;
	}
	for (prev = head; prev; prev = rtnl_dereference(prev->next)) {
		if (rtnl_dereference(prev->next) == e) {
			rcu_assign_pointer(prev->next, next);
			return;
		}
	}
	WARN_ON_ONCE(1);
}

/* Take @e out of its table; it is freed after the datapath let go. */
static void entry_del(struct p4tc_table *table, struct p4tc_table_entry *e)
{
	struct p4tc_table_mask *m = e->mask;

	p4tc_offload_entry_del(table, e);
	entry_unlink(m, e);
	m->num_entries--;
	mask_put_if_empty(table, m);
	entry_stats_put(table, e);
	idr_remove(&table->entries_idr, e->handle);
	table->num_entries--;
	entry_put_value(e);
	call_rcu(&e->rcu, entry_free_rcu);
}

/* rhashtable_free_and_destroy() hands over the head of each key's chain */
static void entry_chain_free(void *ptr, void *arg)
{
	struct p4tc_table_entry *e = ptr, *next;

	for (; e; e = next) {
		next = rcu_dereference_protected(e->next, 1);
		entry_free(e);
	}
}

static void mask_free_entries_work(struct work_struct *work)
{
	struct p4tc_table_mask *m = container_of(to_rcu_work(work),
						 struct p4tc_table_mask,
						 rwork);

	rhashtable_free_and_destroy(&m->ht, entry_chain_free, NULL);
	kfree(m);
}

/* Take every entry out of @table at once.  Unlinking a million entries
 * one by one takes minutes under RTNL on a debug kernel (each removal may
 * shrink a hash table); here the masks leave the datapath's list, and a
 * worker frees them with their entries after a grace period, holding no
 * lock.
 */
static void entries_detach_all(struct p4tc_table *table)
{
	struct p4tc_table_mask *m, *tmp;
	struct p4tc_table_entry *e;
	struct p4tc_stats_block *blk;
	unsigned long idx, tmp_idx;

	p4tc_offload_entries_gone(table);
	/* the action templates now, the memory later (a walk of the handles
	 * costs little beside the unlinking it replaces)
	 */
	idr_for_each_entry_ul(&table->entries_idr, e, tmp_idx, idx)
		entry_put_value(e);
	list_for_each_entry_safe(m, tmp, &table->masks, list) {
		list_del_rcu(&m->list);
		INIT_RCU_WORK(&m->rwork, mask_free_entries_work);
		queue_rcu_work(system_unbound_wq, &m->rwork);
	}
	xa_for_each(&table->stats_blocks, idx, blk) {
		xa_erase(&table->stats_blocks, idx);
		call_rcu(&blk->rcu, stats_block_free_rcu);
	}
	/* the entries' handles; the next ones keep counting up */
	idr_destroy(&table->entries_idr);
	table->num_masks = 0;
	table->num_entries = 0;
}

/**
 * p4tc_table_entries_flush - delete every entry of a table, whatever the
 * permissions (the table is going)
 * @table: the table
 *
 * The entries are freed by a worker after a grace period.
 */
void p4tc_table_entries_flush(struct p4tc_table *table)
{
	entries_detach_all(table);
}

/**
 * p4tc_table_lookup - the entry that wins for a key
 * @table: the table
 * @key: the key, the table's key bytes long
 * @handed_over: the lookup is a device's, which handed the packet over:
 *	its entries (skip_sw) match too
 *
 * Called with BH off under RCU.  Entries the datapath may not execute
 * (their X permission) do not match, nor do skip_sw entries but for a
 * packet a device handed over.
 *
 * Return: the entry, or NULL on a miss.
 */
struct p4tc_table_entry *p4tc_table_lookup(struct p4tc_table *table,
					   const u8 *key, bool handed_over)
{
	u32 skip = handed_over ? 0 : TCA_CLS_FLAGS_SKIP_SW;
	struct p4tc_table_entry *best = NULL, *e;
	u8 mkey[P4TC_MAX_KEYSZ / 8];
	struct p4tc_table_mask *m;
	u32 i;

	list_for_each_entry_rcu(m, &table->masks, list) {
		for (i = 0; i < table->key_bytes; i++)
			mkey[i] = key[i] & m->mask[i];
		e = rhashtable_lookup_fast(&m->ht, mkey, m->ht_params);
		/* entries only hardware runs (skip_sw) are not there */
		while (e && (!(READ_ONCE(e->permissions) & P4TC_DATA_PERM_X) ||
			     (e->flags & skip)))
			e = rcu_dereference_bh(e->next);
		if (!e)
			continue;
		if (table->type == P4TC_TABLE_TYPE_LPM)
			return e;
		if (!best || e->prio < best->prio)
			best = e;
	}
	return best;
}

/* An entry as a request describes it: where it goes and what it does */
struct p4tc_entry_req {
	u8 key[P4TC_MAX_KEYSZ / 8];
	u8 mask[P4TC_MAX_KEYSZ / 8];
	u32 prefix_len;
	u32 prio;		/* 0: not given */
	u16 perms;
	bool perms_given;
};

static bool mask_is_prefix(const u8 *mask, u32 bytes, u32 *len)
{
	u32 i, n = 0;

	for (i = 0; i < bytes && mask[i] == 0xff; i++)
		n += 8;
	if (i < bytes) {
		u8 b = mask[i];

		/* ones then zeros: the complement plus one is a power of 2 */
		if ((u8)(~b + 1) & (u8)~b)
			return false;
		n += hweight8(b);
		for (i++; i < bytes; i++)
			if (mask[i])
				return false;
	}
	*len = n;
	return true;
}

/* Key, mask and priority of a request, checked against the table. */
static int entry_req_parse(struct p4tc_table *table, struct nlattr **tb,
			   struct p4tc_entry_req *req,
			   struct netlink_ext_ack *extack)
{
	u32 kb = table->key_bytes, i;
	u8 last = 0xff;

	if (!tb[P4TC_ENTRY_KEY_BLOB]) {
		NL_SET_ERR_MSG(extack, "Entry needs a key");
		return -EINVAL;
	}
	if (nla_len(tb[P4TC_ENTRY_KEY_BLOB]) != kb) {
		NL_SET_ERR_MSG_FMT(extack,
				   "Key is %d bytes; the table's (keysz %u) is %u",
				   nla_len(tb[P4TC_ENTRY_KEY_BLOB]), table->keysz,
				   kb);
		return -EINVAL;
	}
	memcpy(req->key, nla_data(tb[P4TC_ENTRY_KEY_BLOB]), kb);
	if (table->keysz % 8)
		last = 0xff << (8 - table->keysz % 8);

	if (tb[P4TC_ENTRY_MASK_BLOB]) {
		if (nla_len(tb[P4TC_ENTRY_MASK_BLOB]) != kb) {
			NL_SET_ERR_MSG_FMT(extack,
					   "Mask is %d bytes; the table's (keysz %u) is %u",
					   nla_len(tb[P4TC_ENTRY_MASK_BLOB]),
					   table->keysz, kb);
			return -EINVAL;
		}
		memcpy(req->mask, nla_data(tb[P4TC_ENTRY_MASK_BLOB]), kb);
		if (req->mask[kb - 1] & ~last) {
			NL_SET_ERR_MSG(extack, "Mask has bits beyond the key size");
			return -EINVAL;
		}
	} else {
		memset(req->mask, 0xff, kb);
		req->mask[kb - 1] = last;
	}
	for (i = 0; i < kb; i++)
		req->key[i] &= req->mask[i];

	req->prio = tb[P4TC_ENTRY_PRIO] ? nla_get_u32(tb[P4TC_ENTRY_PRIO]) : 0;
	switch (table->type) {
	case P4TC_TABLE_TYPE_EXACT:
		if (memchr_inv(req->mask, 0xff, kb - 1) ||
		    req->mask[kb - 1] != last) {
			NL_SET_ERR_MSG(extack,
				       "Entries of an exact table match every key bit: no mask");
			return -EINVAL;
		}
		req->prefix_len = table->keysz;
		break;
	case P4TC_TABLE_TYPE_LPM:
		if (!mask_is_prefix(req->mask, kb, &req->prefix_len)) {
			NL_SET_ERR_MSG(extack,
				       "The mask of an LPM entry must be a prefix");
			return -EINVAL;
		}
		if (req->prio &&
		    req->prio != table->keysz - req->prefix_len + 1) {
			NL_SET_ERR_MSG_FMT(extack,
					   "Priority %u contradicts the /%u prefix (priority %u)",
					   req->prio, req->prefix_len,
					   table->keysz - req->prefix_len + 1);
			return -EINVAL;
		}
		req->prio = table->keysz - req->prefix_len + 1;
		break;
	default:
		req->prefix_len = 0;
		break;
	}
	return 0;
}

static int entry_perms_parse(struct p4tc_table *table, struct nlattr **tb,
			     struct p4tc_entry_req *req,
			     struct netlink_ext_ack *extack)
{
	req->perms_given = !!tb[P4TC_ENTRY_PERMISSIONS];
	req->perms = req->perms_given ?
		     nla_get_u16(tb[P4TC_ENTRY_PERMISSIONS]) :
		     table->permissions & ~P4TC_CTRL_PERM_C;
	if (req->perms & ~table->permissions) {
		NL_SET_ERR_MSG(extack, "Entry permissions exceed the table's");
		return -EPERM;
	}
	return 0;
}

/* Make and insert an entry; nothing is left behind on failure. */
static struct p4tc_table_entry *entry_create(struct p4tc_table *table,
					     struct nlattr **tb, u8 who,
					     struct netlink_ext_ack *extack)
{
	struct p4tc_table_entry_value *value = NULL;
	struct p4tc_table_entry *e, *head;
	struct p4tc_entry_req req;
	struct p4tc_table_mask *m;
	u32 flags;
	int ret;

	ret = entry_req_parse(table, tb, &req, extack);
	if (ret < 0)
		return ERR_PTR(ret);
	ret = entry_perms_parse(table, tb, &req, extack);
	if (ret < 0)
		return ERR_PTR(ret);
	if (table->num_entries >= table->max_entries) {
		NL_SET_ERR_MSG_FMT(extack, "Table is full (tentries %u)",
				   table->max_entries);
		return ERR_PTR(-ENOSPC);
	}
	flags = tb[P4TC_ENTRY_FLAGS] ? nla_get_u32(tb[P4TC_ENTRY_FLAGS]) : 0;
	if (!tc_flags_valid(flags)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[P4TC_ENTRY_FLAGS],
				    "skip_sw and skip_hw exclude each other");
		return ERR_PTR(-EINVAL);
	}

	if (tb[P4TC_ENTRY_ACT]) {
		value = p4tc_entry_value_parse(table, tb[P4TC_ENTRY_ACT], false,
					       extack);
		if (IS_ERR(value))
			return ERR_CAST(value);
	}

	e = kzalloc(struct_size(e, key, table->key_bytes), GFP_KERNEL_ACCOUNT);
	if (!e) {
		p4tc_entry_value_free(value);
		return ERR_PTR(-ENOMEM);
	}
	RCU_INIT_POINTER(e->value, value);
	memcpy(e->key, req.key, table->key_bytes);
	e->permissions = req.perms;
	e->flags = flags;
	e->create_who = who;
	e->created = jiffies;
	e->lastused = e->created;

	m = mask_get(table, req.mask, req.prefix_len, extack);
	if (IS_ERR(m)) {
		ret = PTR_ERR(m);
		goto free;
	}
	head = entry_head(m, req.key);
	if (!req.prio) {
		if (head) {
			NL_SET_ERR_MSG(extack,
				       "An entry with this key and mask exists: give a priority to add another");
			ret = -EEXIST;
			goto put_mask;
		}
		if (!table->next_prio) {
			NL_SET_ERR_MSG(extack,
				       "No priority left to assign: give one");
			ret = -ENOSPC;
			goto put_mask;
		}
		req.prio = table->next_prio;
	}
	e->prio = req.prio;
	e->mask = m;

	ret = idr_alloc_cyclic(&table->entries_idr, e, 1, 0,
			       GFP_KERNEL_ACCOUNT);
	if (ret < 0)
		goto put_mask;
	e->handle = ret;
	ret = entry_stats_get(table, e);
	if (ret < 0)
		goto put_handle;
	ret = entry_link(m, e, head, extack);
	if (ret < 0)
		goto put_stats;
	m->num_entries++;
	table->num_entries++;
	if (table->type != P4TC_TABLE_TYPE_LPM && e->prio >= table->next_prio)
		table->next_prio = e->prio + 1;	/* 0 once U32_MAX is taken */
	/* a skip_sw entry is invisible to the datapath until a device has it */
	ret = p4tc_offload_entry_add(table, e, extack);
	if (ret < 0) {
		entry_del(table, e);
		return ERR_PTR(ret);
	}
	return e;

put_stats:
	entry_stats_put(table, e);
put_handle:
	idr_remove(&table->entries_idr, e->handle);
put_mask:
	mask_put_if_empty(table, m);
free:
	/* the datapath never saw it */
	entry_put_value(e);
	entry_free(e);
	return ERR_PTR(ret);
}

/* The entry a request names by key, mask and (unless unique) priority. */
static struct p4tc_table_entry *entry_find(struct p4tc_table *table,
					   struct nlattr **tb,
					   struct netlink_ext_ack *extack)
{
	struct p4tc_table_entry *e, *next;
	struct p4tc_entry_req req;
	struct p4tc_table_mask *m;
	int ret;

	ret = entry_req_parse(table, tb, &req, extack);
	if (ret < 0)
		return ERR_PTR(ret);
	m = mask_find(table, req.mask);
	e = m ? entry_head(m, req.key) : NULL;
	if (req.prio) {
		while (e && e->prio < req.prio)
			e = rtnl_dereference(e->next);
		if (e && e->prio != req.prio)
			e = NULL;
	} else if (e) {
		next = rtnl_dereference(e->next);
		if (next) {
			NL_SET_ERR_MSG(extack,
				       "Several entries have this key and mask: give the priority");
			return ERR_PTR(-EINVAL);
		}
	}
	if (!e) {
		NL_SET_ERR_MSG(extack, "No such entry");
		return ERR_PTR(-ENOENT);
	}
	return e;
}

static int entry_parse_attrs(struct nlattr *nla, struct nlattr **tb,
			     struct netlink_ext_ack *extack)
{
	if (!nla) {
		NL_SET_ERR_MSG(extack, "Must specify entry attributes");
		return -EINVAL;
	}
	return nla_parse_nested(tb, P4TC_ENTRY_MAX, nla, p4tc_entry_policy,
				extack);
}

/**
 * p4tc_table_entries_add - add a template's initial entries, all or none
 * @table: the table
 * @nla: entries 1..N, each a nest of P4TC_ENTRY_* attributes
 * @extack: receives the reason of a refusal
 *
 * Return: 0 or a negative errno.
 */
int p4tc_table_entries_add(struct p4tc_table *table, struct nlattr *nla,
			   struct netlink_ext_ack *extack)
{
	struct nlattr *tb[P4TC_ENTRY_MAX + 1];
	struct p4tc_table_entry *e, **made;
	struct nlattr *attr;
	int rem, ret = 0;
	u32 n = 0, i;

	nla_for_each_nested(attr, nla, rem)
		n++;
	made = kcalloc(n, sizeof(*made), GFP_KERNEL);
	if (!made)
		return -ENOMEM;
	i = 0;
	nla_for_each_nested(attr, nla, rem) {
		ret = entry_parse_attrs(attr, tb, extack);
		if (ret < 0)
			break;
		e = entry_create(table, tb, P4TC_ENTITY_KERNEL, extack);
		if (IS_ERR(e)) {
			ret = PTR_ERR(e);
			break;
		}
		made[i++] = e;
	}
	if (ret < 0) {
		while (i--)
			entry_del(table, made[i]);
	}
	kfree(made);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Replies                                                             */
/* ------------------------------------------------------------------ */

/* skip flags as asked, and where the entry is */
static u32 entry_flags(const struct p4tc_table_entry *e)
{
	u32 flags = e->flags & (TCA_CLS_FLAGS_SKIP_HW | TCA_CLS_FLAGS_SKIP_SW |
				TCA_CLS_FLAGS_IN_HW);

	return flags & TCA_CLS_FLAGS_IN_HW ? flags :
					     flags | TCA_CLS_FLAGS_NOT_IN_HW;
}

static int entry_fill(struct sk_buff *skb, struct p4tc_table *table,
		      struct p4tc_table_entry *e)
{
	struct p4tc_table_entry_value *value = rtnl_dereference(e->value);
	u32 ids[] = { table->common.p_id, table->tbl_id };
	struct gnet_stats_basic_sync sum;
	struct p4tc_table_entry_stats st;
	struct p4tc_table_entry_tm tm;
	unsigned long now = jiffies;
	struct nlattr *nest;

	/* software's counters and what the devices counted */
	p4tc_offload_entry_stats(table, e);
	gnet_stats_basic_sync_init(&sum);
	gnet_stats_add_basic(&sum, e->stats, NULL, false);
	st.packets = u64_stats_read(&sum.packets) + e->hw_packets;
	st.bytes = u64_stats_read(&sum.bytes) + e->hw_bytes;
	tm.created = jiffies_to_clock_t(now - e->created);
	tm.lastused = jiffies_to_clock_t(now - READ_ONCE(e->lastused));
	tm.firstused = READ_ONCE(e->firstused) ?
		       jiffies_to_clock_t(now - READ_ONCE(e->firstused)) : 0;

	if (p4tc_put_path(skb, ids, ARRAY_SIZE(ids)))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, P4TC_PARAMS);
	if (!nest ||
	    nla_put_string(skb, P4TC_ENTRY_TBLNAME, table->common.name) ||
	    nla_put(skb, P4TC_ENTRY_KEY_BLOB, table->key_bytes, e->key) ||
	    nla_put(skb, P4TC_ENTRY_MASK_BLOB, table->key_bytes,
		    e->mask->mask) ||
	    nla_put_u32(skb, P4TC_ENTRY_PRIO, e->prio) ||
	    nla_put_u16(skb, P4TC_ENTRY_PERMISSIONS, e->permissions) ||
	    nla_put_u8(skb, P4TC_ENTRY_CREATE_WHODUNNIT, e->create_who) ||
	    (e->update_who &&
	     nla_put_u8(skb, P4TC_ENTRY_UPDATE_WHODUNNIT, e->update_who)) ||
	    (value && p4tc_entry_value_fill(skb, P4TC_ENTRY_ACT, value)) ||
	    nla_put_64bit(skb, P4TC_ENTRY_TM, sizeof(tm), &tm,
			  P4TC_ENTRY_PAD) ||
	    nla_put_64bit(skb, P4TC_ENTRY_STATS, sizeof(st), &st,
			  P4TC_ENTRY_PAD) ||
	    nla_put_u32(skb, P4TC_ENTRY_FLAGS, entry_flags(e)) ||
	    nla_put_u32(skb, P4TC_ENTRY_IN_HW_COUNT, e->in_hw_count))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Runtime messages                                                    */
/* ------------------------------------------------------------------ */

/* One object of a runtime request, as found or made */
struct p4tc_rt_obj {
	struct p4tc_table *table;
	struct p4tc_table_entry *entry;		/* NULL: the whole table */
	struct p4tc_table_entry_value *value;	/* update: the new one */
	u16 perms;
	bool perms_given;
	bool hw_replaced;			/* devices have @value */
	bool placed;				/* offered anew: @old_* */
	u32 old_flags;
	u16 old_perms;
	u8 who;
};

struct p4tc_rt_req {
	struct nlattr *tb[P4TC_ROOT_MAX + 1];
	struct nlattr *objs[P4TC_MSGBATCH_SIZE];
	struct p4tc_rt_obj obj[P4TC_MSGBATCH_SIZE];
	struct p4tc_pipeline *pipeline;
	int num_objs;
};

static int rt_req_parse(struct net *net, const struct nlmsghdr *n,
			struct p4tc_rt_req *req,
			struct netlink_ext_ack *extack)
{
	const char *p_name = NULL;
	struct p4tcmsg *t;
	int ret;

	ret = nlmsg_parse(n, sizeof(struct p4tcmsg), req->tb, P4TC_ROOT_MAX,
			  p4tc_root_policy, extack);
	if (ret < 0)
		return ret;
	t = nlmsg_data(n);
	if (t->obj != P4TC_OBJ_TABLE_ENTRY) {
		NL_SET_ERR_MSG(extack, "Runtime messages carry table entries");
		return -EOPNOTSUPP;
	}
	if (req->tb[P4TC_ROOT_PNAME])
		p_name = nla_data(req->tb[P4TC_ROOT_PNAME]);
	if (p_name && !p_name[0])
		p_name = NULL;
	req->pipeline = tcf_pipeline_find_byany(net, p_name, t->pipeid,
						extack);
	if (IS_ERR(req->pipeline))
		return PTR_ERR(req->pipeline);
	if (!pipeline_sealed(req->pipeline)) {
		NL_SET_ERR_MSG(extack,
			       "Pipeline is not sealed: entries come after sealing");
		return -EINVAL;
	}
	if (!req->tb[P4TC_ROOT]) {
		NL_SET_ERR_MSG(extack, "Netlink P4TC runtime attributes missing");
		return -EINVAL;
	}
	req->num_objs = p4tc_parse_batch(req->tb[P4TC_ROOT], req->objs, extack);
	return req->num_objs < 0 ? req->num_objs : 0;
}

/* The table and attributes of object @i of a request. */
static struct p4tc_table *rt_obj_table(struct p4tc_rt_req *req, int i,
				       struct nlattr **tb,
				       struct netlink_ext_ack *extack)
{
	u32 ids[P4TC_PATH_MAX] = {};
	struct nlattr *params;
	int ret;

	ret = p4tc_parse_obj(req->objs[i], req->pipeline->common.p_id, ids,
			     &params, extack);
	if (ret < 0)
		return ERR_PTR(ret);
	ret = entry_parse_attrs(params, tb, extack);
	if (ret < 0)
		return ERR_PTR(ret);
	return tcf_table_find_byany(req->pipeline,
				    tb[P4TC_ENTRY_TBLNAME] ?
				    nla_data(tb[P4TC_ENTRY_TBLNAME]) : NULL,
				    ids[P4TC_TBLID_IDX], extack);
}

static int rt_check_perm(u16 perms, u16 bit, const char *who,
			 const char *what, struct netlink_ext_ack *extack)
{
	if (perms & bit)
		return 0;
	NL_SET_ERR_MSG_FMT(extack, "%s permissions forbid %s", who, what);
	return -EPERM;
}

/* What a verb needs: the table's and the entry's permission bit */
struct p4tc_rt_verb {
	u16 perm;
	const char *table_what;	/* "Table permissions forbid ..." */
	const char *entry_what;	/* "Entry permissions forbid ..." */
};

static const struct p4tc_rt_verb rt_update_verb = {
	P4TC_CTRL_PERM_U, "updating entries", "update"
};

static const struct p4tc_rt_verb rt_del_verb = {
	P4TC_CTRL_PERM_D, "deleting entries", "delete"
};

static const struct p4tc_rt_verb rt_get_verb = {
	P4TC_CTRL_PERM_R, "reading entries", "read"
};

/* Object @i of a request: its table and, when it has a key, the entry
 * the key names, each checked against @verb's permission.  o->entry is
 * NULL without a key.
 */
static int rt_obj_find(struct p4tc_rt_req *req, int i, struct nlattr **tb,
		       const struct p4tc_rt_verb *verb,
		       struct netlink_ext_ack *extack)
{
	struct p4tc_rt_obj *o = &req->obj[i];
	struct p4tc_table *table;
	struct p4tc_table_entry *e;
	int ret;

	table = rt_obj_table(req, i, tb, extack);
	if (IS_ERR(table))
		return PTR_ERR(table);
	ret = rt_check_perm(table->permissions, verb->perm, "Table",
			    verb->table_what, extack);
	if (ret < 0)
		return ret;
	o->table = table;
	if (!tb[P4TC_ENTRY_KEY_BLOB])
		return 0;
	e = entry_find(table, tb, extack);
	if (IS_ERR(e))
		return PTR_ERR(e);
	ret = rt_check_perm(e->permissions, verb->perm, "Entry",
			    verb->entry_what, extack);
	if (ret < 0)
		return ret;
	o->entry = e;
	return 0;
}

/* Build the reply or notification: every object of the request. */
static struct sk_buff *rt_reply(struct p4tc_rt_req *req,
				const struct nlmsghdr *n, u32 portid,
				int event, struct netlink_ext_ack *extack)
{
	struct p4tcmsg *t;
	struct nlmsghdr *nlh;
	struct nlattr *root, *nest;
	struct sk_buff *skb;
	int i;

	skb = alloc_skb(NLMSG_GOODSIZE * 4, GFP_KERNEL);
	if (!skb)
		return ERR_PTR(-ENOMEM);
	nlh = nlmsg_put(skb, portid, n->nlmsg_seq, event, sizeof(*t),
			n->nlmsg_flags & ~NLM_F_ECHO);
	if (!nlh)
		goto full;
	t = nlmsg_data(nlh);
	t->pipeid = req->pipeline->common.p_id;
	t->obj = P4TC_OBJ_TABLE_ENTRY;
	if (nla_put_string(skb, P4TC_ROOT_PNAME, req->pipeline->common.name))
		goto full;
	root = nla_nest_start(skb, P4TC_ROOT);
	if (!root)
		goto full;
	for (i = 0; i < req->num_objs; i++) {
		const struct p4tc_rt_obj *o = &req->obj[i];

		nest = nla_nest_start(skb, i + 1);
		if (!nest)
			goto full;
		if (o->entry) {
			if (entry_fill(skb, o->table, o->entry))
				goto full;
		} else {
			u32 ids[] = { o->table->common.p_id, o->table->tbl_id };

			if (p4tc_put_path(skb, ids, ARRAY_SIZE(ids)))
				goto full;
		}
		nla_nest_end(skb, nest);
	}
	nla_nest_end(skb, root);
	nlmsg_end(skb, nlh);
	return skb;

full:
	kfree_skb(skb);
	NL_SET_ERR_MSG(extack, "Entries do not fit in the reply");
	return ERR_PTR(-EMSGSIZE);
}

static int rt_notify(struct net *net, struct p4tc_rt_req *req,
		     const struct nlmsghdr *n, u32 portid, int event,
		     struct netlink_ext_ack *extack)
{
	struct sk_buff *skb;

	if (!rtnl_notify_needed(net, n->nlmsg_flags, RTNLGRP_TC))
		return 0;
	skb = rt_reply(req, n, portid, event, extack);
	if (IS_ERR(skb))
		return PTR_ERR(skb);
	return rtnetlink_send(skb, net, portid, RTNLGRP_TC,
			      n->nlmsg_flags & NLM_F_ECHO);
}

static u8 rt_who(struct nlattr **tb)
{
	return tb[P4TC_ENTRY_WHODUNNIT] ?
	       nla_get_u8(tb[P4TC_ENTRY_WHODUNNIT]) : P4TC_ENTITY_UNSPEC;
}

static int rt_create(struct net *net, struct p4tc_rt_req *req,
		     const struct nlmsghdr *n, u32 portid,
		     struct netlink_ext_ack *extack)
{
	struct nlattr *tb[P4TC_ENTRY_MAX + 1];
	int i, ret = 0;

	for (i = 0; i < req->num_objs; i++) {
		struct p4tc_rt_obj *o = &req->obj[i];
		struct p4tc_table_entry *e;

		o->table = rt_obj_table(req, i, tb, extack);
		if (IS_ERR(o->table)) {
			ret = PTR_ERR(o->table);
			break;
		}
		ret = rt_check_perm(o->table->permissions, P4TC_CTRL_PERM_C,
				    "Table", "creating entries", extack);
		if (ret < 0)
			break;
		e = entry_create(o->table, tb, rt_who(tb), extack);
		if (IS_ERR(e)) {
			ret = PTR_ERR(e);
			break;
		}
		o->entry = e;
	}
	if (ret < 0) {
		while (i--)
			entry_del(req->obj[i].table, req->obj[i].entry);
		return ret;
	}
	/* the entries are in: a failed notification does not undo them */
	rt_notify(net, req, n, portid, RTM_P4TC_CREATE, extack);
	return 0;
}

/* Hardware first, before anything changes in software: a skip_sw entry
 * the devices refuse fails the update.  New skip flags, or a change of
 * whether the datapath may execute the entry, place it anew (with the
 * update's action); a new action alone replaces the devices' one.
 */
static int rt_update_hw(struct p4tc_rt_obj *o, u32 flags,
			struct netlink_ext_ack *extack)
{
	const u32 skips = TCA_CLS_FLAGS_SKIP_HW | TCA_CLS_FLAGS_SKIP_SW;
	struct p4tc_table_entry *e = o->entry;
	u16 perms = o->perms_given ? o->perms : e->permissions;
	int ret;

	if (((flags ^ e->flags) & skips) ||
	    ((perms ^ e->permissions) & P4TC_DATA_PERM_X)) {
		o->old_flags = e->flags & ~TCA_CLS_FLAGS_IN_HW;
		o->old_perms = e->permissions;
		ret = p4tc_offload_entry_place(o->table, e, flags, perms,
					       o->value ?:
					       rtnl_dereference(e->value),
					       extack);
		if (ret < 0)
			return ret;
		o->placed = true;
		return 0;
	}
	if (!o->value)
		return 0;
	ret = p4tc_offload_entry_replace(o->table, e, o->value, extack);
	if (ret < 0)
		return ret;
	o->hw_replaced = true;
	return 0;
}

static int rt_update(struct net *net, struct p4tc_rt_req *req,
		     const struct nlmsghdr *n, u32 portid,
		     struct netlink_ext_ack *extack)
{
	struct nlattr *tb[P4TC_ENTRY_MAX + 1];
	int i, ret = 0;
	u32 flags;

	/* check and build everything first, then change */
	for (i = 0; i < req->num_objs; i++) {
		struct p4tc_rt_obj *o = &req->obj[i];
		struct p4tc_entry_req er;

		ret = rt_obj_find(req, i, tb, &rt_update_verb, extack);
		if (ret < 0)
			break;
		if (!o->entry) {
			NL_SET_ERR_MSG(extack, "Entry needs a key");
			ret = -EINVAL;
			break;
		}
		ret = entry_perms_parse(o->table, tb, &er, extack);
		if (ret < 0)
			break;
		o->perms = er.perms;
		o->perms_given = er.perms_given;
		if (!tb[P4TC_ENTRY_ACT] && !o->perms_given &&
		    !tb[P4TC_ENTRY_FLAGS]) {
			NL_SET_ERR_MSG(extack,
				       "Entry update needs an action, permissions or flags");
			ret = -EINVAL;
			break;
		}
		flags = tb[P4TC_ENTRY_FLAGS] ?
			nla_get_u32(tb[P4TC_ENTRY_FLAGS]) :
			o->entry->flags & ~TCA_CLS_FLAGS_IN_HW;
		if (!tc_flags_valid(flags)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[P4TC_ENTRY_FLAGS],
					    "skip_sw and skip_hw exclude each other");
			ret = -EINVAL;
			break;
		}
		if (tb[P4TC_ENTRY_ACT]) {
			o->value = p4tc_entry_value_parse(o->table,
							  tb[P4TC_ENTRY_ACT],
							  false, extack);
			if (IS_ERR(o->value)) {
				ret = PTR_ERR(o->value);
				o->value = NULL;
				break;
			}
		}
		o->who = rt_who(tb);
		ret = rt_update_hw(o, flags, extack);
		if (ret < 0)
			break;
	}
	if (ret < 0) {
		for (i = 0; i < req->num_objs; i++) {
			struct p4tc_rt_obj *o = &req->obj[i];

			/* devices get the actions and places that stay back */
			if (o->placed)
				p4tc_offload_entry_place(o->table, o->entry,
							 o->old_flags,
							 o->old_perms,
							 rtnl_dereference(o->entry->value),
							 NULL);
			else if (o->hw_replaced)
				p4tc_offload_entry_replace(o->table, o->entry,
							   rtnl_dereference(o->entry->value),
							   NULL);
			p4tc_entry_value_free(o->value);
		}
		return ret;
	}

	for (i = 0; i < req->num_objs; i++) {
		struct p4tc_rt_obj *o = &req->obj[i];
		struct p4tc_table_entry *e = o->entry;

		if (o->value)
			p4tc_entry_value_free(rcu_replace_pointer_rtnl(e->value,
								       o->value));
		o->value = NULL;
		if (o->perms_given)
			WRITE_ONCE(e->permissions, o->perms);
		e->update_who = o->who;
	}
	rt_notify(net, req, n, portid, RTM_P4TC_CREATE, extack);
	return 0;
}

static int tc_ctl_p4_rt_cu(struct sk_buff *skb, struct nlmsghdr *n,
			   struct netlink_ext_ack *extack)
{
	u32 portid = NETLINK_CB(skb).portid;
	struct net *net = sock_net(skb->sk);
	struct p4tc_rt_req *req;
	int ret;

	req = kzalloc(sizeof(*req), GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	ret = rt_req_parse(net, n, req, extack);
	if (!ret) {
		if (n->nlmsg_flags & NLM_F_REPLACE)
			ret = rt_update(net, req, n, portid, extack);
		else
			ret = rt_create(net, req, n, portid, extack);
	}
	kfree(req);
	return ret;
}

/* Delete the entries of a table its and their permissions allow. */
static int rt_flush(struct p4tc_table *table, struct netlink_ext_ack *extack)
{
	struct p4tc_table_entry *e;
	unsigned long tmp, id;
	u32 kept = 0;

	idr_for_each_entry_ul(&table->entries_idr, e, tmp, id) {
		if (!(e->permissions & P4TC_CTRL_PERM_D))
			kept++;
	}
	if (!kept) {
		entries_detach_all(table);
		return 0;
	}
	/* some stay: the others go one by one */
	idr_for_each_entry_ul(&table->entries_idr, e, tmp, id) {
		if (e->permissions & P4TC_CTRL_PERM_D)
			entry_del(table, e);
		cond_resched();
	}
	if (kept)
		NL_SET_ERR_MSG_FMT(extack,
				   "%u entries kept: their permissions forbid delete",
				   kept);
	return 0;
}

static int tc_ctl_p4_rt_del(struct sk_buff *skb, struct nlmsghdr *n,
			    struct netlink_ext_ack *extack)
{
	u32 portid = NETLINK_CB(skb).portid;
	struct net *net = sock_net(skb->sk);
	struct nlattr *tb[P4TC_ENTRY_MAX + 1];
	struct p4tc_rt_req *req;
	int i, j, ret;

	req = kzalloc(sizeof(*req), GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	ret = rt_req_parse(net, n, req, extack);
	if (ret < 0)
		goto out;

	for (i = 0; i < req->num_objs; i++) {
		struct p4tc_rt_obj *o = &req->obj[i];

		ret = rt_obj_find(req, i, tb, &rt_del_verb, extack);
		if (ret < 0)
			goto out;
		if (!o->entry) {
			if (req->num_objs > 1) {
				NL_SET_ERR_MSG(extack,
					       "A flush takes one object per message");
				ret = -EINVAL;
				goto out;
			}
			ret = rt_flush(o->table, extack);
			if (!ret)
				rt_notify(net, req, n, portid, RTM_P4TC_DEL,
					  extack);
			goto out;
		}
		for (j = 0; j < i; j++) {
			if (req->obj[j].entry == o->entry) {
				NL_SET_ERR_MSG(extack,
					       "An entry is named twice");
				ret = -EINVAL;
				goto out;
			}
		}
	}
	/* the notification shows the entries as they were */
	rt_notify(net, req, n, portid, RTM_P4TC_DEL, extack);
	for (i = 0; i < req->num_objs; i++)
		entry_del(req->obj[i].table, req->obj[i].entry);
out:
	kfree(req);
	return ret;
}

static int tc_ctl_p4_rt_get(struct sk_buff *skb, struct nlmsghdr *n,
			    struct netlink_ext_ack *extack)
{
	u32 portid = NETLINK_CB(skb).portid;
	struct net *net = sock_net(skb->sk);
	struct nlattr *tb[P4TC_ENTRY_MAX + 1];
	struct p4tc_rt_req *req;
	struct sk_buff *reply;
	int i, ret;

	req = kzalloc(sizeof(*req), GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	ret = rt_req_parse(net, n, req, extack);
	if (ret < 0)
		goto out;
	for (i = 0; i < req->num_objs; i++) {
		struct p4tc_rt_obj *o = &req->obj[i];

		ret = rt_obj_find(req, i, tb, &rt_get_verb, extack);
		if (ret < 0)
			goto out;
		if (!o->entry) {
			NL_SET_ERR_MSG(extack,
				       "Get needs a key; a dump (NLM_F_DUMP) lists a table");
			ret = -EINVAL;
			goto out;
		}
	}
	reply = rt_reply(req, n, portid, RTM_P4TC_GET, extack);
	if (IS_ERR(reply)) {
		ret = PTR_ERR(reply);
		goto out;
	}
	ret = rtnl_unicast(reply, net, portid);
out:
	kfree(req);
	return ret;
}

/* Where a dump stopped: the table and the next entry handle */
struct p4tc_rt_dump_ctx {
	u32 tbl_id;
	u32 handle;
};

static int tc_ctl_p4_rt_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct p4tc_rt_dump_ctx *ctx = (void *)cb->ctx;
	struct netlink_ext_ack *extack = cb->extack;
	u32 portid = NETLINK_CB(cb->skb).portid;
	struct net *net = sock_net(skb->sk);
	struct nlattr *tb[P4TC_ENTRY_MAX + 1];
	struct p4tc_table_entry *e;
	struct nlattr *root, *nest;
	struct p4tc_table *table;
	struct p4tc_rt_req *req;
	unsigned long id, tmp;
	struct nlmsghdr *nlh;
	struct p4tcmsg *t;
	int ret, i = 0;

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));

	req = kzalloc(sizeof(*req), GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	ret = rt_req_parse(net, cb->nlh, req, extack);
	if (ret < 0)
		goto out;
	table = rt_obj_table(req, 0, tb, extack);
	if (IS_ERR(table)) {
		ret = PTR_ERR(table);
		goto out;
	}
	ret = rt_check_perm(table->permissions, P4TC_CTRL_PERM_R, "Table",
			    "reading entries", extack);
	if (ret < 0)
		goto out;

	nlh = nlmsg_put(skb, portid, cb->nlh->nlmsg_seq, RTM_P4TC_GET,
			sizeof(*t), NLM_F_MULTI);
	if (!nlh) {
		ret = -EMSGSIZE;
		goto out;
	}
	t = nlmsg_data(nlh);
	t->pipeid = req->pipeline->common.p_id;
	t->obj = P4TC_OBJ_TABLE_ENTRY;
	if (nla_put_string(skb, P4TC_ROOT_PNAME, req->pipeline->common.name))
		goto cancel;
	root = nla_nest_start(skb, P4TC_ROOT);
	if (!root)
		goto cancel;

	id = ctx->handle;
	idr_for_each_entry_continue_ul(&table->entries_idr, e, tmp, id) {
		if (i == P4TC_MSGBATCH_SIZE)
			break;
		if (!(e->permissions & P4TC_CTRL_PERM_R))
			continue;
		nest = nla_nest_start(skb, i + 1);
		if (!nest)
			break;
		if (entry_fill(skb, table, e)) {
			nla_nest_cancel(skb, nest);
			break;
		}
		nla_nest_end(skb, nest);
		i++;
	}
	if (!i) {
		/* the end, or not even one entry fits a message */
		ret = e ? -EMSGSIZE : 0;
		nlmsg_cancel(skb, nlh);
		goto out;
	}
	ctx->handle = id;
	nla_nest_end(skb, root);
	nlmsg_end(skb, nlh);
	ret = skb->len;
	goto out;

cancel:
	nlmsg_cancel(skb, nlh);
	ret = -EMSGSIZE;
out:
	kfree(req);
	return ret;
}

/**
 * p4tc_runtime_init - register the runtime messages
 */
void __init p4tc_runtime_init(void)
{
	rtnl_register(PF_UNSPEC, RTM_P4TC_CREATE, tc_ctl_p4_rt_cu, NULL, 0);
	rtnl_register(PF_UNSPEC, RTM_P4TC_DEL, tc_ctl_p4_rt_del, NULL, 0);
	rtnl_register(PF_UNSPEC, RTM_P4TC_GET, tc_ctl_p4_rt_get,
		      tc_ctl_p4_rt_dump, 0);
}
