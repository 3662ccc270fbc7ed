// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * P4TC table entries: how they are kept and found.  The runtime messages
 * that write and read them are p4tc_runtime.c; what it uses of this file
 * is p4tc_tbl_entry.h.
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

#include "p4tc_tbl_entry.h"

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
 * @use: an entry's action, or a default action
 * @extack: receives the reason of a refusal
 *
 * Return: the value, or an ERR_PTR.
 */
struct p4tc_table_entry_value *
p4tc_entry_value_parse(struct p4tc_table *table, struct nlattr *nla,
		       enum p4tc_act_use use, struct netlink_ext_ack *extack)
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
	u32 index = 0;
	int rem, ret;

	nla_for_each_nested(attr, nla, rem) {
		if (one && use == P4TC_ACT_USE_HIT) {
			NL_SET_ERR_MSG(extack, "Can only have one hit action");
			return ERR_PTR(-EINVAL);
		}
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
	ret = p4tc_table_act_allowed(table, act, use, extack);
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

		index = dyna->index;
		verdict = dyna->action;
		if (TC_ACT_EXT_OPCODE(verdict) || verdict < TC_ACT_UNSPEC ||
		    verdict > TC_ACT_VALUE_MAX) {
			NL_SET_ERR_MSG(extack,
				       "Entry action control must be a plain verdict");
			return ERR_PTR(-EINVAL);
		}
	}

	if (index && opt[P4TC_ACT_PARMS]) {
		NL_SET_ERR_MSG(extack,
			       "Can't specify runtime params together with instance id");
		return ERR_PTR(-EINVAL);
	}

	value = kzalloc(struct_size(value, params.values, act->params_bytes),
			GFP_KERNEL_ACCOUNT);
	if (!value)
		return ERR_PTR(-ENOMEM);
	/* an existing instance, by index: its values and verdict, copied */
	if (index)
		ret = p4tc_act_instance_copy(act, index, value->params.values,
					     &verdict, extack);
	else
		ret = p4tc_act_params_parse(act, opt[P4TC_ACT_PARMS],
					    &value->params, extack);
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
	if (!m) {
		NL_SET_ERR_MSG(extack, "Failed to allocate mask");
		return ERR_PTR(-ENOMEM);
	}
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

/**
 * p4tc_entry_del - take an entry out of its table
 * @table: the table
 * @e: the entry
 *
 * Its action template is free to go at once; the entry is freed after
 * the datapath let go of it.
 */
void p4tc_entry_del(struct p4tc_table *table, struct p4tc_table_entry *e)
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

/**
 * p4tc_entries_detach_all - take every entry out of a table at once
 * @table: the table
 *
 * Unlinking a million entries one by one takes minutes under RTNL on a
 * debug kernel (each removal may shrink a hash table); here the masks
 * leave the datapath's list, and a worker frees them with their entries
 * after a grace period, holding no lock.
 */
void p4tc_entries_detach_all(struct p4tc_table *table)
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
	p4tc_entries_detach_all(table);
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
		NL_SET_ERR_MSG(extack, "Must specify key blobs");
		return -EINVAL;
	}
	if (nla_len(tb[P4TC_ENTRY_KEY_BLOB]) != kb) {
		NL_SET_ERR_MSG(extack, "Key blob size and table key size differ");
		return -EINVAL;
	}
	memcpy(req->key, nla_data(tb[P4TC_ENTRY_KEY_BLOB]), kb);
	if (table->keysz % 8)
		last = 0xff << (8 - table->keysz % 8);

	if (tb[P4TC_ENTRY_MASK_BLOB]) {
		if (nla_len(tb[P4TC_ENTRY_MASK_BLOB]) != kb) {
			NL_SET_ERR_MSG(extack,
				       "Key and mask blob must have the same length");
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

/**
 * p4tc_entry_perms_parse - the permissions a request gives an entry
 * @table: the table, whose permissions bound the entry's
 * @tb: the request's P4TC_ENTRY_* attributes
 * @req: receives them (perms, perms_given)
 * @extack: receives the reason of a refusal
 *
 * Return: 0 or a negative errno.
 */
int p4tc_entry_perms_parse(struct p4tc_table *table, struct nlattr **tb,
			   struct p4tc_entry_req *req,
			   struct netlink_ext_ack *extack)
{
	req->perms_given = !!tb[P4TC_ENTRY_PERMISSIONS];
	req->perms = req->perms_given ?
		     nla_get_u16(tb[P4TC_ENTRY_PERMISSIONS]) :
		     table->permissions &
		     ~(P4TC_CTRL_PERM_C | P4TC_DATA_PERM_C);
	if (req->perms & ~table->permissions) {
		NL_SET_ERR_MSG(extack,
			       "Trying to set permission bits which aren't allowed by table");
		return -EPERM;
	}
	/* an entry is made once: what would C let one do to it? */
	if (req->perms & (P4TC_CTRL_PERM_C | P4TC_DATA_PERM_C)) {
		NL_SET_ERR_MSG(extack,
			       "Create permission for table entry doesn't make sense");
		return -EINVAL;
	}
	return 0;
}

/**
 * p4tc_entry_create - make an entry and insert it
 * @table: the table
 * @tb: the entry's P4TC_ENTRY_* attributes
 * @who: P4TC_ENTITY_* that makes it
 * @extack: receives the reason of a refusal
 *
 * Nothing is left behind on failure.
 *
 * Return: the entry or an ERR_PTR.
 */
struct p4tc_table_entry *p4tc_entry_create(struct p4tc_table *table,
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
	ret = p4tc_entry_perms_parse(table, tb, &req, extack);
	if (ret < 0)
		return ERR_PTR(ret);
	if (table->num_entries >= table->max_entries) {
		NL_SET_ERR_MSG(extack, "Table instance max entries reached");
		return ERR_PTR(-ENOSPC);
	}
	flags = tb[P4TC_ENTRY_FLAGS] ? nla_get_u32(tb[P4TC_ENTRY_FLAGS]) : 0;
	if (!tc_flags_valid(flags)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[P4TC_ENTRY_FLAGS],
				    "skip_sw and skip_hw exclude each other");
		return ERR_PTR(-EINVAL);
	}

	if (tb[P4TC_ENTRY_ACT]) {
		value = p4tc_entry_value_parse(table, tb[P4TC_ENTRY_ACT],
					       P4TC_ACT_USE_ENTRY,
					       extack);
		if (IS_ERR(value))
			return ERR_CAST(value);
	}

	e = kzalloc(struct_size(e, key, table->key_bytes), GFP_KERNEL_ACCOUNT);
	if (!e) {
		NL_SET_ERR_MSG(extack, "Unable to allocate table entry");
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
			NL_SET_ERR_MSG(extack, "Unable to allocate priority");
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
		p4tc_entry_del(table, e);
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

/**
 * p4tc_entry_find - the entry a request names
 * @table: the table
 * @tb: the request's P4TC_ENTRY_* attributes: key, mask and (unless the
 *	key and mask are unique) priority
 * @extack: receives the reason of a refusal
 *
 * Return: the entry or an ERR_PTR.
 */
struct p4tc_table_entry *p4tc_entry_find(struct p4tc_table *table,
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
		NL_SET_ERR_MSG(extack, "Unable to find entry");
		return ERR_PTR(-ENOENT);
	}
	return e;
}

/**
 * p4tc_entry_parse_attrs - the P4TC_ENTRY_* attributes of one object
 * @nla: its P4TC_PARAMS
 * @tb: receives them
 * @extack: receives the reason of a refusal
 *
 * Return: 0 or a negative errno.
 */
int p4tc_entry_parse_attrs(struct nlattr *nla, struct nlattr **tb,
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
		ret = p4tc_entry_parse_attrs(attr, tb, extack);
		if (ret < 0)
			break;
		e = p4tc_entry_create(table, tb, P4TC_ENTITY_KERNEL, extack);
		if (IS_ERR(e)) {
			ret = PTR_ERR(e);
			break;
		}
		made[i++] = e;
	}
	if (ret < 0) {
		while (i--)
			p4tc_entry_del(table, made[i]);
	}
	kfree(made);
	return ret;
}
