// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * P4TC offload, second half: the placement of what a sealed pipeline
 * holds on the devices that run it.  The blocks a pipeline is bound to
 * with hardware, each entry's place (software, devices, both) as its
 * flags and the devices' answers decide it, replay and withdrawal when
 * filters come and go, hit counters read back, default actions and
 * register reads.  The pipeline's description, which a device gets when
 * a filter binds it, is built by p4tc_offload_describe.c.
 */

#include <linux/kernel.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/p4tc.h>
#include <net/p4tc_offload.h>
#include <net/pkt_cls.h>

/* ------------------------------------------------------------------ */
/* Where entries go: the blocks the pipeline is bound to with hardware */
/* ------------------------------------------------------------------ */

/* A block with p4 filters that bind the pipeline without skip_hw */
struct p4tc_hw_block {
	struct list_head list;
	struct tcf_block *block;
	u32 refs;
};

/**
 * p4tc_offload_block_get - a p4 filter binds @pipeline to @block with
 *	hardware: entries are offered there from now on
 * @pipeline: the pipeline
 * @block: the filter's block
 *
 * Under RTNL.
 *
 * Return: 0 or -ENOMEM.
 */
int p4tc_offload_block_get(struct p4tc_pipeline *pipeline,
			   struct tcf_block *block)
{
	struct p4tc_hw_block *hb;

	ASSERT_RTNL();
	list_for_each_entry(hb, &pipeline->hw_blocks, list) {
		if (hb->block == block) {
			hb->refs++;
			return 0;
		}
	}
	hb = kzalloc(sizeof(*hb), GFP_KERNEL_ACCOUNT);
	if (!hb)
		return -ENOMEM;
	hb->block = block;
	hb->refs = 1;
	list_add_tail(&hb->list, &pipeline->hw_blocks);
	return 0;
}

/**
 * p4tc_offload_block_put - undo p4tc_offload_block_get()
 * @pipeline: the pipeline
 * @block: the filter's block
 */
void p4tc_offload_block_put(struct p4tc_pipeline *pipeline,
			    struct tcf_block *block)
{
	struct p4tc_hw_block *hb;

	ASSERT_RTNL();
	list_for_each_entry(hb, &pipeline->hw_blocks, list) {
		if (hb->block == block) {
			if (!--hb->refs) {
				list_del(&hb->list);
				kfree(hb);
			}
			return;
		}
	}
	WARN_ON_ONCE(1);
}

/* ------------------------------------------------------------------ */
/* Entries                                                             */
/* ------------------------------------------------------------------ */

/* An action with its constant arguments, as a device takes it */
static void value_describe(const struct p4tc_table_entry_value *value,
			   u32 *action_id, u32 *num_params,
			   struct p4tc_off_val *params, int *verdict)
{
	u32 i;

	*action_id = 0;
	*num_params = 0;
	*verdict = TC_ACT_PIPE;
	if (!value)
		return;
	*action_id = value->act->a_id;
	*verdict = value->verdict;
	*num_params = min_t(u32, value->act->num_params, P4TC_OFF_MAX_PARAMS);
	for (i = 0; i < *num_params; i++) {
		const struct p4tc_act_param *p = &value->act->params[i];
		struct p4t_val v;

		p4t_host_read(p->type, &p->ms, value->params.values + p->offset,
			      &v);
		memcpy(params[i].w, v.w, sizeof(v.w));
	}
}

static void entry_describe(const struct p4tc_table *table,
			   const struct p4tc_table_entry *e,
			   const struct p4tc_table_entry_value *value,
			   struct p4tc_off_entry *oe)
{
	memset(oe, 0, sizeof(*oe));
	oe->table_id = table->tbl_id;
	oe->handle = e->handle;
	oe->prio = e->prio;
	oe->key_bits = table->keysz;
	oe->key = e->key;
	oe->mask = e->mask->mask;
	value_describe(value, &oe->action_id, &oe->num_params, oe->params,
		       &oe->verdict);
}

static void off_init(struct p4tc_offload *off, const struct p4tc_table *table,
		     enum p4tc_offload_command cmd,
		     struct netlink_ext_ack *extack)
{
	memset(off, 0, sizeof(*off));
	off->common.extack = extack;
	off->command = cmd;
	off->pipeid = table->common.p_id;
	off->table_id = table->tbl_id;
}

/* Offer @off to every block of the pipeline.  With @err_stop the first
 * refusal ends it.
 *
 * Return: the callbacks that took it, or the refusal.
 */
static int offer_all(struct p4tc_pipeline *pipeline, struct p4tc_offload *off,
		     bool err_stop)
{
	struct p4tc_hw_block *hb;
	int n = 0, ret;

	list_for_each_entry(hb, &pipeline->hw_blocks, list) {
		ret = tc_setup_cb_call(hb->block, TC_SETUP_CLSP4, off, err_stop,
				       true);
		if (ret < 0)
			return ret;
		n += ret;
	}
	return n;
}

static bool entry_offerable(const struct p4tc_table_entry *e)
{
	return !(e->flags & TCA_CLS_FLAGS_SKIP_HW) &&
	       (e->permissions & P4TC_DATA_PERM_X);
}

/* Tell the devices who decides the table's lookups, when that changed. */
static void table_mode_sync(struct p4tc_table *table, u32 was_sw_only)
{
	struct p4tc_offload off;

	if (!was_sw_only == !table->num_sw_only)
		return;
	off_init(&off, table, P4TC_OFFLOAD_TABLE_MODE, NULL);
	off.table_mode = table->num_sw_only ? P4TC_OFF_LOOKUP_HOST :
					      P4TC_OFF_LOOKUP_HW;
	offer_all(table->pipeline, &off, false);
}

static void entry_del_hw(struct p4tc_table *table, struct p4tc_table_entry *e)
{
	struct p4tc_off_entry oe;
	struct p4tc_offload off;

	entry_describe(table, e, NULL, &oe);
	off_init(&off, table, P4TC_OFFLOAD_ENTRY_DEL, NULL);
	off.entry = &oe;
	offer_all(table->pipeline, &off, false);
}

/* Offer @e, with @value as its action, as its flags and permissions say. */
static int entry_add_value(struct p4tc_table *table,
			   struct p4tc_table_entry *e,
			   const struct p4tc_table_entry_value *value,
			   struct netlink_ext_ack *extack)
{
	bool skip_sw = e->flags & TCA_CLS_FLAGS_SKIP_SW;
	u32 was = table->num_sw_only;
	struct p4tc_off_entry oe;
	struct p4tc_offload off;
	int n;

	if (!entry_offerable(e)) {
		if (skip_sw) {
			NL_SET_ERR_MSG(extack,
				       "skip_sw: an entry the datapath may not execute cannot be offloaded");
			return -EINVAL;
		}
		table->num_sw_only++;
		table_mode_sync(table, was);
		return 0;
	}
	entry_describe(table, e, value, &oe);
	off_init(&off, table, P4TC_OFFLOAD_ENTRY_ADD,
		 skip_sw || (e->flags & TCA_CLS_FLAGS_VERBOSE) ? extack : NULL);
	off.entry = &oe;
	n = offer_all(table->pipeline, &off, skip_sw);
	if (skip_sw && n <= 0) {
		entry_del_hw(table, e);
		if (!n)
			NL_SET_ERR_MSG_FMT(extack,
					   "skip_sw: no device runs pipeline %s",
					   table->pipeline->common.name);
		return n ?: -EOPNOTSUPP;
	}
	if (n > 0) {
		e->flags |= TCA_CLS_FLAGS_IN_HW;
		e->in_hw_count = n;
		return 0;
	}
	table->num_sw_only++;
	table_mode_sync(table, was);
	return 0;
}

/**
 * p4tc_offload_entry_add - offer a new entry to the pipeline's devices
 * @table: its table
 * @e: the entry, linked, its flags the request's
 * @extack: for skip_sw and verbose
 *
 * skip_sw fails unless a device takes it (and takes it back from those
 * that did); otherwise the entry is in_hw or software only.
 *
 * Return: 0 or a negative errno (then nothing is left in hardware).
 */
int p4tc_offload_entry_add(struct p4tc_table *table,
			   struct p4tc_table_entry *e,
			   struct netlink_ext_ack *extack)
{
	ASSERT_RTNL();
	return entry_add_value(table, e, rtnl_dereference(e->value), extack);
}

/**
 * p4tc_offload_entry_place - an entry's skip flags, or whether the
 *	datapath may execute it, change: out of the devices, then offered
 *	anew, as a flower filter replaced with other flags is
 * @table: its table
 * @e: the entry
 * @flags: its new flags (TCA_CLS_FLAGS_SKIP_*, _VERBOSE)
 * @perms: its new permissions
 * @value: the action to offer: the update's new one, or the entry's
 * @extack: for skip_sw and verbose
 *
 * On success the entry has @flags and @perms.  A skip_sw placement no
 * device takes fails, and the entry is placed back as it was.
 *
 * Return: 0 or a negative errno.
 */
int p4tc_offload_entry_place(struct p4tc_table *table,
			     struct p4tc_table_entry *e, u32 flags, u16 perms,
			     const struct p4tc_table_entry_value *value,
			     struct netlink_ext_ack *extack)
{
	u32 old_flags = e->flags & ~TCA_CLS_FLAGS_IN_HW;
	u16 old_perms = e->permissions;
	int err;

	ASSERT_RTNL();
	p4tc_offload_entry_del(table, e);
	e->flags = flags;
	e->in_hw_count = 0;
	WRITE_ONCE(e->permissions, perms);
	err = entry_add_value(table, e, value, extack);
	if (!err)
		return 0;
	e->flags = old_flags;
	e->in_hw_count = 0;
	WRITE_ONCE(e->permissions, old_perms);
	entry_add_value(table, e, rtnl_dereference(e->value), NULL);
	return err;
}

/**
 * p4tc_offload_entry_replace - an entry's action changes
 * @table: its table
 * @e: the entry, its old value still in place
 * @value: the new value
 * @extack: for skip_sw
 *
 * A device that refuses the new action leaves the old one: for a
 * skip_sw entry the update fails, any other entry leaves hardware and
 * stays in software.
 *
 * Return: 0 or a negative errno (skip_sw: the update must not happen).
 */
int p4tc_offload_entry_replace(struct p4tc_table *table,
			       struct p4tc_table_entry *e,
			       const struct p4tc_table_entry_value *value,
			       struct netlink_ext_ack *extack)
{
	bool skip_sw = e->flags & TCA_CLS_FLAGS_SKIP_SW;
	u32 was = table->num_sw_only;
	struct p4tc_off_entry oe;
	struct p4tc_offload off;
	int n;

	ASSERT_RTNL();
	if (!(e->flags & TCA_CLS_FLAGS_IN_HW))
		return 0;
	entry_describe(table, e, value, &oe);
	off_init(&off, table, P4TC_OFFLOAD_ENTRY_REPLACE,
		 skip_sw ? extack : NULL);
	off.entry = &oe;
	n = offer_all(table->pipeline, &off, true);
	if (n >= 0)
		return 0;
	if (skip_sw) {
		/* put the old action back where the new one went */
		entry_describe(table, e, rtnl_dereference(e->value), &oe);
		off.common.extack = NULL;
		offer_all(table->pipeline, &off, false);
		return n;
	}
	entry_del_hw(table, e);
	e->flags &= ~TCA_CLS_FLAGS_IN_HW;
	e->in_hw_count = 0;
	table->num_sw_only++;
	table_mode_sync(table, was);
	return 0;
}

/**
 * p4tc_offload_entry_del - an entry goes: out of the devices too
 * @table: its table
 * @e: the entry, still linked
 */
void p4tc_offload_entry_del(struct p4tc_table *table,
			    struct p4tc_table_entry *e)
{
	u32 was = table->num_sw_only;

	ASSERT_RTNL();
	/* devices that refused it are told too: they stop counting it */
	if (entry_offerable(e))
		entry_del_hw(table, e);
	if (e->flags & (TCA_CLS_FLAGS_IN_HW | TCA_CLS_FLAGS_SKIP_SW))
		return;
	table->num_sw_only--;
	table_mode_sync(table, was);
}

/**
 * p4tc_offload_entry_stats - add what the devices counted to an entry
 * @table: its table
 * @e: the entry
 *
 * Under RTNL, when the entry is dumped: each device answers with what it
 * counted since it was last asked.
 */
void p4tc_offload_entry_stats(struct p4tc_table *table,
			      struct p4tc_table_entry *e)
{
	struct p4tc_off_entry oe;
	struct p4tc_offload off;

	ASSERT_RTNL();
	if (!(e->flags & TCA_CLS_FLAGS_IN_HW) ||
	    list_empty(&table->pipeline->hw_blocks))
		return;
	entry_describe(table, e, NULL, &oe);
	off_init(&off, table, P4TC_OFFLOAD_ENTRY_STATS, NULL);
	off.entry = &oe;
	offer_all(table->pipeline, &off, false);
	e->hw_packets += off.stats.packets;
	e->hw_bytes += off.stats.bytes;
	if (off.stats.packets && time_after(off.stats.lastused,
					    READ_ONCE(e->lastused))) {
		WRITE_ONCE(e->lastused, off.stats.lastused);
		if (!READ_ONCE(e->firstused))
			WRITE_ONCE(e->firstused, off.stats.lastused);
	}
}

/**
 * p4tc_offload_entries_gone - every entry of a table goes (a flush): out of
 *	the devices too, with one request per block
 * @table: the table, its entries still there
 */
void p4tc_offload_entries_gone(struct p4tc_table *table)
{
	struct p4tc_offload off;
	u32 was = table->num_sw_only;

	ASSERT_RTNL();
	if (table->num_entries && !list_empty(&table->pipeline->hw_blocks)) {
		off_init(&off, table, P4TC_OFFLOAD_TABLE_FLUSH, NULL);
		offer_all(table->pipeline, &off, false);
	}
	table->num_sw_only = 0;
	table_mode_sync(table, was);
}

/* Offer @off to one callback (@cb) or to every callback of @block.
 *
 * Return: the callbacks that took it.
 */
static int offer_one(struct tcf_block *block, flow_setup_cb_t *cb,
		     void *cb_priv, struct p4tc_offload *off)
{
	if (cb)
		return cb(TC_SETUP_CLSP4, off, cb_priv) ? 0 : 1;
	return max(tc_setup_cb_call(block, TC_SETUP_CLSP4, off, false, true),
		   0);
}

/* @n more devices hold @e (negative: fewer); its flags and its table's
 * count of software-only entries follow.  With @sync the devices hear of
 * a change of the table's mode.  A reoffload (one callback joining or
 * leaving, the block's callback lock held) cannot call the blocks: the
 * other devices keep the mode they have, which is safe, as none of them
 * holds @e (each refused it, and sends the lookups to the host for it).
 */
static void entry_hw_count(struct p4tc_table *table,
			   struct p4tc_table_entry *e, int n, bool sync)
{
	bool was_in_hw = e->flags & TCA_CLS_FLAGS_IN_HW;
	u32 was = table->num_sw_only;

	if (n < 0 && (u32)-n > e->in_hw_count)
		n = -e->in_hw_count;
	e->in_hw_count += n;
	if (!!e->in_hw_count == was_in_hw)
		return;
	if (e->in_hw_count)
		e->flags |= TCA_CLS_FLAGS_IN_HW;
	else
		e->flags &= ~TCA_CLS_FLAGS_IN_HW;
	/* a skip_sw entry is in no lookup of software's either way */
	if (e->flags & TCA_CLS_FLAGS_SKIP_SW)
		return;
	if (e->in_hw_count)
		table->num_sw_only--;
	else
		table->num_sw_only++;
	if (sync)
		table_mode_sync(table, was);
}

static void table_mode_offer(struct p4tc_table *table,
			     struct tcf_block *block, flow_setup_cb_t *cb,
			     void *cb_priv)
{
	struct p4tc_offload off;

	off_init(&off, table, P4TC_OFFLOAD_TABLE_MODE, NULL);
	off.table_mode = table->num_sw_only ? P4TC_OFF_LOOKUP_HOST :
					      P4TC_OFF_LOOKUP_HW;
	offer_one(block, cb, cb_priv, &off);
}

/* Every entry of @pipeline that may go to a device goes to @block's
 * callbacks, or to @cb alone: ADD (@add, a replay) or DEL (a withdrawal),
 * counting the devices that took it or held it.
 */
static void entries_move(struct p4tc_pipeline *pipeline,
			 struct tcf_block *block, flow_setup_cb_t *cb,
			 void *cb_priv, bool add)
{
	struct p4tc_table_entry *e;
	struct p4tc_table *table;
	struct p4tc_off_entry oe;
	struct p4tc_offload off;
	unsigned long tid, tmp, id, tmp2;
	int n;

	ASSERT_RTNL();
	idr_for_each_entry_ul(&pipeline->p_tbl_idr, table, tmp, tid) {
		idr_for_each_entry_ul(&table->entries_idr, e, tmp2, id) {
			if (!entry_offerable(e) || (!add && !e->in_hw_count))
				continue;
			entry_describe(table, e,
				       add ? rtnl_dereference(e->value) : NULL,
				       &oe);
			off_init(&off, table, add ? P4TC_OFFLOAD_ENTRY_ADD :
						    P4TC_OFFLOAD_ENTRY_DEL, NULL);
			off.entry = &oe;
			n = offer_one(block, cb, cb_priv, &off);
			entry_hw_count(table, e, add ? n : -n, !cb);
			cond_resched();
		}
		if (add)
			table_mode_offer(table, block, cb, cb_priv);
	}
}

/**
 * p4tc_offload_replay - give a block (or one callback of it) the entries
 *	and table modes of a pipeline it starts running
 * @pipeline: the pipeline
 * @block: the block, with every callback (@cb NULL) ...
 * @cb: ... or only this callback (reoffload)
 * @cb_priv: @cb's data
 *
 * Entries the devices of @block already hold (a port in two blocks) are
 * taken again without a second copy, and counted again.  A refusal
 * leaves that entry out of that device, which then sends the table's
 * lookups to the host.
 */
void p4tc_offload_replay(struct p4tc_pipeline *pipeline,
			 struct tcf_block *block, flow_setup_cb_t *cb,
			 void *cb_priv)
{
	entries_move(pipeline, block, cb, cb_priv, true);
}

/**
 * p4tc_offload_withdraw - take a pipeline's entries back from a block (or
 *	one callback of it) that stops running it
 * @pipeline: the pipeline
 * @block: the block, with every callback (@cb NULL) ...
 * @cb: ... or only this callback (a device leaving the block)
 * @cb_priv: @cb's data
 *
 * Called before UNBIND.  Each device that held an entry says so (ENTRY_DEL
 * returns 0) and is counted out of the entry's in_hw_count.  An entry no
 * device holds any more is not_in_hw; without skip_sw it is software's
 * alone again, and its table's lookups go to the host on the devices
 * that stay.  A skip_sw entry stays, in no datapath, as with flower.
 */
void p4tc_offload_withdraw(struct p4tc_pipeline *pipeline,
			   struct tcf_block *block, flow_setup_cb_t *cb,
			   void *cb_priv)
{
	entries_move(pipeline, block, cb, cb_priv, false);
}

/**
 * p4tc_offload_default_set - a table's default action changed: tell the
 *	devices
 * @table: the table, its new default in place
 * @hit: the default hit action changed; false: the default miss action
 * @extack: for the devices' warnings
 *
 * A device that cannot run the new default says why (a warning: the
 * change stands) and sends the table's lookups to the host, whose table
 * has it.
 */
void p4tc_offload_default_set(struct p4tc_table *table, bool hit,
			      struct netlink_ext_ack *extack)
{
	const struct p4tc_table_entry_value *v;
	struct p4tc_off_default d = { .hit = hit };
	struct p4tc_offload off;

	ASSERT_RTNL();
	if (list_empty(&table->pipeline->hw_blocks))
		return;
	v = rtnl_dereference(hit ? table->default_hit : table->default_miss);
	/* a default the datapath may not run is none, as at BIND */
	if (v && !(v->permissions & P4TC_DATA_PERM_X))
		v = NULL;
	value_describe(v, &d.action_id, &d.num_params, d.params, &d.verdict);
	off_init(&off, table, P4TC_OFFLOAD_DEFAULT_SET, extack);
	off.dflt = &d;
	offer_all(table->pipeline, &off, false);
}

/* ------------------------------------------------------------------ */
/* Registers                                                           */
/* ------------------------------------------------------------------ */

struct reg_read_ctx {
	struct p4tc_off_reg_read r;
	struct list_head *copies;
};

static int reg_copy_add(struct p4tc_off_reg_read *r, const char *device,
			const struct p4tc_off_val *cells)
{
	struct reg_read_ctx *ctx = container_of(r, struct reg_read_ctx, r);
	struct p4tc_reg_copy *c;

	list_for_each_entry(c, ctx->copies, list)
		if (!strcmp(c->device, device))
			return 0;	/* a port in two blocks */
	c = kzalloc(struct_size(c, cells, r->num_elems), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	strscpy(c->device, device, sizeof(c->device));
	memcpy(c->cells, cells, r->num_elems * sizeof(*cells));
	list_add_tail(&c->list, ctx->copies);
	return 0;
}

/**
 * p4tc_offload_register_read - the copies of a register that the devices
 *	running its pipeline keep
 * @reg: the register
 * @copies: an empty list, filled with struct p4tc_reg_copy (one per
 *	device); free it with p4tc_offload_register_copies_free()
 *
 * Under RTNL.  A device that cannot answer is left out.
 */
void p4tc_offload_register_read(struct p4tc_register *reg,
				struct list_head *copies)
{
	struct reg_read_ctx ctx = {
		.r = {
			.reg_id = reg->reg_id,
			.num_elems = reg->reg_num_elems,
			.add = reg_copy_add,
		},
		.copies = copies,
	};
	struct p4tc_offload off = {};

	ASSERT_RTNL();
	if (list_empty(&reg->pipeline->hw_blocks))
		return;
	off.command = P4TC_OFFLOAD_REG_READ;
	off.pipeid = reg->pipeline->common.p_id;
	off.reg = &ctx.r;
	offer_all(reg->pipeline, &off, false);
}

/**
 * p4tc_offload_register_copies_free - free what p4tc_offload_register_read()
 *	listed
 * @copies: the list
 */
void p4tc_offload_register_copies_free(struct list_head *copies)
{
	struct p4tc_reg_copy *c, *tmp;

	list_for_each_entry_safe(c, tmp, copies, list) {
		list_del(&c->list);
		kfree(c);
	}
}
