// SPDX-License-Identifier: GPL-2.0
/*
 * p4nic: table entries in the device, and who decides each table's
 * lookups (the cooperative model).
 *
 * P4TC offers every entry it may to every device that runs the pipeline.
 * The driver gives each one a device handle (P4TC's handles only grow;
 * the device's stay below the table's size), keeps a copy of what it
 * sent so that a reset can put it back, and counts the entries it could
 * not take.  A table's lookups are the device's (MISS_DEFAULT) only when
 * the device holds every entry that could match and runs the table's
 * defaults: P4TC says there are no software-only entries, the device
 * refused no entry and no default action.  Otherwise every lookup of the
 * table goes to the host (LOOKUP_TO_HOST), which holds them all.  All of
 * it runs under RTNL and @off_lock.
 */

#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <net/p4tc_offload.h>
#include <uapi/linux/pkt_cls.h>

#include "p4nic.h"

/* Counters: a dump of a table asks for each entry's.  Past a few entries
 * the driver reads the whole table's with one COUNTERS_READ per 65536
 * handles and answers from that snapshot for a while: a dump of a large
 * table costs a few commands, not one per entry.  A snapshot is dropped
 * when an entry comes or goes (a handle may change hands) and after a
 * reset.
 */
#define P4NIC_STATS_BATCH_MIN	16	/* handles: fewer, one read each */
#define P4NIC_STATS_TTL		(HZ / 10)
#define P4NIC_COUNTERS_MAX	65536	/* COUNTERS_READ's count, at most */

/* An entry the device holds: its device handle, the ADDs it took (one per
 * block the device's ports bind the pipeline in), what it was sent, and
 * its counters as last read (P4TC takes what was counted since)
 */
struct p4nic_hw_entry {
	u32 dev_handle;
	u32 refs;
	struct p4nic_entry cmd;
	u64 packets;
	u64 bytes;
};

/**
 * struct p4nic_table - what the driver knows of a table of the image
 * @id: P4TC's table id, the device's too
 * @type: P4TC_OFF_TABLE_*
 * @key_bits: bits of the key
 * @max_entries: the device's handles are below it
 * @entries: P4TC handle to struct p4nic_hw_entry
 * @handles: device handles in use
 * @refused_set: P4TC handles of the entries offered that the device does
 *	not hold (refused, or lost in a reset)
 * @refused: entries of @refused_set
 * @sw_only: P4TC has entries it offered to no device
 * @mode: the table's P4NIC_MISS_* / LOOKUP_TO_HOST mode in the device
 * @dflt: the default hit and miss actions P4TC changed since BIND, which
 *	a reset must give back (the image has the ones of BIND)
 * @dflt_changed: @dflt holds one, per P4NIC_DEFAULT_*
 * @dflt_refused: the device does not run the table's default, per
 *	P4NIC_DEFAULT_*: the host decides the table's lookups
 * @handle_end: device handles are below it (the IDA hands out the lowest)
 * @snap: the counters of handles [0, @snap_len), read at @snap_at; NULL:
 *	none
 * @snap_len: entries of @snap
 * @snap_at: jiffies of the read
 */
struct p4nic_table {
	u32 id;
	u32 type;
	u32 key_bits;
	u32 max_entries;
	struct xarray entries;
	struct ida handles;
	struct xarray refused_set;
	u32 refused;
	bool sw_only;
	u32 mode;
	struct p4nic_default_action dflt[2];
	bool dflt_changed[2];
	bool dflt_refused[2];
	u32 handle_end;
	struct p4nic_counter *snap;
	u32 snap_len;
	unsigned long snap_at;
};

static void table_snap_drop(struct p4nic_table *t)
{
	kvfree(t->snap);
	t->snap = NULL;
	t->snap_len = 0;
}

/**
 * p4nic_tables_init - the tables of a pipeline being loaded
 * @nic: the device
 * @d: the pipeline's description
 *
 * Every table starts with its lookups at the host (the image says so):
 * P4TC sends the entries and each table's mode right after.
 *
 * Return: 0 or -ENOMEM.
 */
int p4nic_tables_init(struct p4nic *nic, const struct p4tc_off_pipeline *d)
{
	u32 i;

	nic->tables = kcalloc(d->num_tables, sizeof(*nic->tables), GFP_KERNEL);
	if (!nic->tables)
		return -ENOMEM;
	WRITE_ONCE(nic->num_tables, d->num_tables);
	for (i = 0; i < d->num_tables; i++) {
		struct p4nic_table *t = &nic->tables[i];

		t->id = d->tables[i].id;
		t->type = d->tables[i].type;
		t->key_bits = d->tables[i].key_bits;
		t->max_entries = d->tables[i].max_entries;
		xa_init(&t->entries);
		xa_init(&t->refused_set);
		ida_init(&t->handles);
		t->sw_only = true;
		t->mode = P4NIC_LOOKUP_TO_HOST;
	}
	return 0;
}

/**
 * p4nic_tables_free - forget the tables (the pipeline was unloaded)
 * @nic: the device
 */
void p4nic_tables_free(struct p4nic *nic)
{
	struct p4nic_hw_entry *he;
	unsigned long idx;
	u32 i;

	for (i = 0; i < nic->num_tables; i++) {
		struct p4nic_table *t = &nic->tables[i];

		xa_for_each(&t->entries, idx, he)
			kfree(he);
		xa_destroy(&t->entries);
		xa_destroy(&t->refused_set);
		ida_destroy(&t->handles);
		table_snap_drop(t);
	}
	kfree(nic->tables);
	nic->tables = NULL;
	WRITE_ONCE(nic->num_tables, 0);
	WRITE_ONCE(nic->num_entries, 0);
}

static struct p4nic_table *table_find(struct p4nic *nic, u32 id)
{
	u32 i;

	for (i = 0; i < nic->num_tables; i++)
		if (nic->tables[i].id == id)
			return &nic->tables[i];
	return NULL;
}

/* The mode the table must be in; tell the device when it changes. */
static void table_apply(struct p4nic *nic, struct p4nic_table *t)
{
	bool host = t->sw_only || t->refused ||
		    t->dflt_refused[P4NIC_DEFAULT_HIT] ||
		    t->dflt_refused[P4NIC_DEFAULT_MISS];
	u32 mode = host ? P4NIC_LOOKUP_TO_HOST : P4NIC_MISS_DEFAULT;
	u32 p[2] = { t->id, mode };

	if (mode == t->mode)
		return;
	if (p4nic_cmd(nic, P4NIC_CMD_TABLE_MISS_MODE, NULL, 0, NULL, 0, p, 2,
		      NULL)) {
		/* the device keeps the old mode: only LOOKUP_TO_HOST is safe */
		dev_warn(&nic->pdev->dev, "table %u: mode %u refused\n",
			 t->id, mode);
		return;
	}
	t->mode = mode;
}

/* The device does not hold P4TC's entry @handle, or holds it again. */
static void table_refused(struct p4nic_table *t, u32 handle, bool refused)
{
	if (!refused) {
		if (xa_erase(&t->refused_set, handle))
			t->refused--;
		return;
	}
	if (xa_load(&t->refused_set, handle))
		return;
	/* no memory to remember it: count it anyway, the safe way */
	if (!xa_err(xa_store(&t->refused_set, handle, xa_mk_value(1),
			     GFP_KERNEL)))
		t->refused++;
	else
		t->sw_only = true;
}

static int entry_build(struct p4nic_table *t, const struct p4tc_off_entry *oe,
		       u32 dev_handle, struct p4nic_entry *c,
		       struct netlink_ext_ack *extack)
{
	u32 bytes = DIV_ROUND_UP(oe->key_bits, 8), i;

	if (oe->verdict != TC_ACT_PIPE) {
		NL_SET_ERR_MSG(extack,
			       "p4nic: an entry whose action has a verdict of its own is not supported");
		return -EOPNOTSUPP;
	}
	if (oe->key_bits != t->key_bits || bytes > P4NIC_MAX_KEY_BYTES ||
	    oe->num_params > P4NIC_MAX_PARAMS) {
		NL_SET_ERR_MSG(extack, "p4nic: the entry does not fit its table");
		return -EINVAL;
	}
	memset(c, 0, sizeof(*c));
	c->table_id = cpu_to_le32(t->id);
	c->handle = cpu_to_le32(dev_handle);
	c->prio = cpu_to_le32(t->type == P4TC_OFF_TABLE_TERNARY ? oe->prio : 0);
	c->action_id = cpu_to_le32(oe->action_id);
	c->key_len = cpu_to_le16(bytes);
	c->num_params = cpu_to_le16(oe->num_params);
	memcpy(c->key, oe->key, bytes);
	memcpy(c->mask, oe->mask, bytes);
	for (i = 0; i < oe->num_params; i++) {
		c->params[i].lo = cpu_to_le64(oe->params[i].w[0]);
		c->params[i].hi = cpu_to_le64(oe->params[i].w[1]);
	}
	return 0;
}

static const char *entry_status_text(int err)
{
	switch (err) {
	case -ENOSPC:
		return "the table, or its set of masks, is full";
	case -EEXIST:
		return "the device holds an entry with this key";
	case -EINVAL:
		return "the device refused a field";
	case -ERANGE:
		return "over the device's limits";
	default:
		return "the device refused it";
	}
}

static int entry_add(struct p4nic *nic, struct p4nic_table *t,
		     const struct p4tc_off_entry *oe,
		     struct netlink_ext_ack *extack)
{
	struct p4nic_hw_entry *he;
	int h, err;

	he = xa_load(&t->entries, oe->handle);
	if (he) {
		he->refs++;	/* a port in two blocks: the device has it */
		return 0;
	}
	he = kzalloc(sizeof(*he), GFP_KERNEL);
	if (!he)
		return -ENOMEM;
	h = ida_alloc_max(&t->handles, t->max_entries - 1, GFP_KERNEL);
	if (h < 0) {
		NL_SET_ERR_MSG_FMT(extack, "p4nic: table %u is full (%u entries)",
				   t->id, t->max_entries);
		err = -ENOSPC;
		goto free;
	}
	he->dev_handle = h;
	he->refs = 1;
	t->handle_end = max_t(u32, t->handle_end, h + 1);
	table_snap_drop(t);
	err = entry_build(t, oe, h, &he->cmd, extack);
	if (err)
		goto put;
	err = p4nic_cmd(nic, P4NIC_CMD_ENTRY_ADD, &he->cmd, sizeof(he->cmd),
			NULL, 0, NULL, 0, NULL);
	if (err) {
		NL_SET_ERR_MSG_FMT(extack, "p4nic: table %u: %s (%d)", t->id,
				   entry_status_text(err), err);
		goto put;
	}
	err = xa_insert(&t->entries, oe->handle, he, GFP_KERNEL);
	if (err) {
		u32 p[2] = { t->id, h };

		p4nic_cmd(nic, P4NIC_CMD_ENTRY_DEL, NULL, 0, NULL, 0, p, 2,
			  NULL);
		goto put;
	}
	WRITE_ONCE(nic->num_entries, nic->num_entries + 1);
	return 0;

put:
	ida_free(&t->handles, h);
free:
	kfree(he);
	return err;
}

/* Return: 0, or -ENOENT: the device does not hold the entry. */
static int entry_del(struct p4nic *nic, struct p4nic_table *t,
		     const struct p4tc_off_entry *oe)
{
	struct p4nic_hw_entry *he = xa_load(&t->entries, oe->handle);
	u32 p[2];
	int err;

	if (!he) {
		/* one the device refused: it no longer stands in the way */
		table_refused(t, oe->handle, false);
		return -ENOENT;
	}
	if (--he->refs)
		return 0;	/* another block of the device's ports has it */
	xa_erase(&t->entries, oe->handle);
	table_snap_drop(t);
	p[0] = t->id;
	p[1] = he->dev_handle;
	err = p4nic_cmd(nic, P4NIC_CMD_ENTRY_DEL, NULL, 0, NULL, 0, p, 2, NULL);
	if (err)
		dev_warn(&nic->pdev->dev, "table %u: entry %u did not go: %d\n",
			 t->id, he->dev_handle, err);
	ida_free(&t->handles, he->dev_handle);
	kfree(he);
	WRITE_ONCE(nic->num_entries, nic->num_entries - 1);
	return 0;
}

static int entry_replace(struct p4nic *nic, struct p4nic_table *t,
			 const struct p4tc_off_entry *oe,
			 struct netlink_ext_ack *extack)
{
	struct p4nic_hw_entry *he = xa_load(&t->entries, oe->handle);
	struct p4nic_entry c;
	int err;

	if (!he)
		return -ENOENT;
	err = entry_build(t, oe, he->dev_handle, &c, extack);
	if (err)
		return err;
	err = p4nic_cmd(nic, P4NIC_CMD_ENTRY_REPLACE, &c, sizeof(c), NULL, 0,
			NULL, 0, NULL);
	if (err) {
		NL_SET_ERR_MSG_FMT(extack, "p4nic: table %u: %s (%d)", t->id,
				   entry_status_text(err), err);
		return err;
	}
	he->cmd = c;
	return 0;
}

/* Read the counters of handles [first, first + count). */
static int counters_read(struct p4nic *nic, struct p4nic_table *t, u32 first,
			 u32 count, struct p4nic_counter *c)
{
	u32 p[3] = { t->id, first, count };

	return p4nic_cmd(nic, P4NIC_CMD_COUNTERS_READ, NULL, 0, c,
			 count * sizeof(*c), p, 3, NULL);
}

/* The whole table's counters, when the snapshot is missing or old. */
static void table_snap(struct p4nic *nic, struct p4nic_table *t)
{
	u32 at;

	if (t->snap && time_before(jiffies, t->snap_at + P4NIC_STATS_TTL))
		return;
	table_snap_drop(t);
	if (t->handle_end < P4NIC_STATS_BATCH_MIN)
		return;
	t->snap = kvcalloc(t->handle_end, sizeof(*t->snap), GFP_KERNEL);
	if (!t->snap)
		return;		/* one read per entry, then */
	t->snap_at = jiffies;
	for (at = 0; at < t->handle_end; at += P4NIC_COUNTERS_MAX) {
		if (counters_read(nic, t, at,
				  min_t(u32, t->handle_end - at,
					P4NIC_COUNTERS_MAX), t->snap + at)) {
			table_snap_drop(t);
			return;
		}
	}
	t->snap_len = t->handle_end;
}

/* What the device counted for the entry since P4TC last asked. */
static int entry_stats(struct p4nic *nic, struct p4nic_table *t,
		       const struct p4tc_off_entry *oe,
		       struct p4tc_off_stats *stats)
{
	struct p4nic_hw_entry *he = xa_load(&t->entries, oe->handle);
	struct p4nic_counter c;
	u64 packets, bytes;
	int err;

	if (!he)
		return -ENOENT;
	table_snap(nic, t);
	if (he->dev_handle < t->snap_len) {
		c = t->snap[he->dev_handle];
	} else {
		err = counters_read(nic, t, he->dev_handle, 1, &c);
		if (err)
			return err;
	}
	packets = le64_to_cpu(c.packets);
	bytes = le64_to_cpu(c.bytes);
	/* a reset zeroes the device's counters: count from there */
	if (packets < he->packets || bytes < he->bytes) {
		he->packets = 0;
		he->bytes = 0;
	}
	if (packets > he->packets) {
		stats->packets += packets - he->packets;
		stats->bytes += bytes - he->bytes;
		stats->lastused = max(stats->lastused, jiffies);
	}
	he->packets = packets;
	he->bytes = bytes;
	return 0;
}

/* Every entry of the table goes (P4TC flushed it): one command. */
static int table_flush(struct p4nic *nic, struct p4nic_table *t)
{
	struct p4nic_hw_entry *he;
	unsigned long idx;
	u32 p = t->id, n = 0;
	int err;

	err = p4nic_cmd(nic, P4NIC_CMD_TABLE_FLUSH, NULL, 0, NULL, 0, &p, 1,
			NULL);
	if (err)
		dev_warn(&nic->pdev->dev, "table %u: flush: %d\n", t->id, err);
	xa_for_each(&t->entries, idx, he) {
		xa_erase(&t->entries, idx);
		ida_free(&t->handles, he->dev_handle);
		kfree(he);
		n++;
	}
	WRITE_ONCE(nic->num_entries, nic->num_entries - n);
	xa_destroy(&t->refused_set);
	t->refused = 0;
	table_snap_drop(t);
	return 0;
}

/* A default action P4TC changed: the device runs it, or the host decides
 * the table's lookups (it has the new default: the results stay equal).
 */
static int default_set(struct p4nic *nic, struct p4nic_table *t,
		       const struct p4tc_off_default *od,
		       struct netlink_ext_ack *extack)
{
	u32 which = od->hit ? P4NIC_DEFAULT_HIT : P4NIC_DEFAULT_MISS;
	const char *what = od->hit ? "hit" : "miss";
	struct p4nic_default_action *c = &t->dflt[which];
	u32 i;
	int err;

	if (od->verdict != TC_ACT_PIPE) {
		NL_SET_ERR_MSG_FMT(extack,
				   "p4nic: table %u: default %s action has a verdict: lookups go to the host",
				   t->id, what);
		err = -EOPNOTSUPP;
		goto refused;
	}
	if (od->num_params > P4NIC_MAX_PARAMS) {
		NL_SET_ERR_MSG_FMT(extack,
				   "p4nic: table %u: default %s action has over %u params: lookups go to the host",
				   t->id, what, P4NIC_MAX_PARAMS);
		err = -ERANGE;
		goto refused;
	}
	memset(c, 0, sizeof(*c));
	c->table_id = cpu_to_le32(t->id);
	c->which = cpu_to_le32(which);
	c->action_id = cpu_to_le32(od->action_id);
	c->num_params = cpu_to_le32(od->num_params);
	for (i = 0; i < od->num_params; i++) {
		c->params[i].lo = cpu_to_le64(od->params[i].w[0]);
		c->params[i].hi = cpu_to_le64(od->params[i].w[1]);
	}
	err = p4nic_cmd(nic, P4NIC_CMD_DEFAULT_SET, c, sizeof(*c), NULL, 0,
			NULL, 0, NULL);
	if (err) {
		NL_SET_ERR_MSG_FMT(extack,
				   "p4nic: table %u: default %s action refused (%d): lookups go to the host",
				   t->id, what, err);
		goto refused;
	}
	t->dflt_changed[which] = true;
	t->dflt_refused[which] = false;
	return 0;

refused:
	/* the device may still run the old one: it must not decide */
	t->dflt_changed[which] = false;
	t->dflt_refused[which] = true;
	return err;
}

/**
 * p4nic_entries_offload - an ENTRY_*, TABLE_* or DEFAULT_SET request
 * @nic: the device, @off_lock held
 * @off: the request
 *
 * Return: 0, or why the device does not hold the entry (or run the
 * default).
 */
int p4nic_entries_offload(struct p4nic *nic, struct p4tc_offload *off)
{
	struct netlink_ext_ack *extack = off->common.extack;
	struct p4nic_table *t;
	int err;

	if (!nic->pipeid || off->pipeid != nic->pipeid)
		return -EOPNOTSUPP;	/* not the pipeline this device runs */
	t = table_find(nic, off->entry ? off->entry->table_id : off->table_id);
	if (!t)
		return -ENOENT;
	switch (off->command) {
	case P4TC_OFFLOAD_ENTRY_ADD:
		err = entry_add(nic, t, off->entry, extack);
		table_refused(t, off->entry->handle, err);
		break;
	case P4TC_OFFLOAD_ENTRY_REPLACE:
		err = entry_replace(nic, t, off->entry, extack);
		break;
	case P4TC_OFFLOAD_ENTRY_DEL:
		err = entry_del(nic, t, off->entry);
		break;
	case P4TC_OFFLOAD_TABLE_MODE:
		t->sw_only = off->table_mode == P4TC_OFF_LOOKUP_HOST;
		err = 0;
		break;
	case P4TC_OFFLOAD_ENTRY_STATS:
		return entry_stats(nic, t, off->entry, &off->stats);
	case P4TC_OFFLOAD_DEFAULT_SET:
		err = default_set(nic, t, off->dflt, extack);
		break;
	case P4TC_OFFLOAD_TABLE_FLUSH:
		err = table_flush(nic, t);
		break;
	default:
		return -EOPNOTSUPP;
	}
	table_apply(nic, t);
	return err;
}

/**
 * p4nic_entries_restore - after a reset reloaded the image: the entries
 *	and table modes again
 * @nic: the device, @off_lock held
 */
void p4nic_entries_restore(struct p4nic *nic)
{
	struct p4nic_hw_entry *he;
	unsigned long idx;
	u32 i, w;

	for (i = 0; i < nic->num_tables; i++) {
		struct p4nic_table *t = &nic->tables[i];

		xa_for_each(&t->entries, idx, he) {
			he->packets = 0;	/* the reset zeroed them */
			he->bytes = 0;
			if (!p4nic_cmd(nic, P4NIC_CMD_ENTRY_ADD, &he->cmd,
				       sizeof(he->cmd), NULL, 0, NULL, 0,
				       NULL))
				continue;
			/* lost: the host decides the table's lookups */
			xa_erase(&t->entries, idx);
			ida_free(&t->handles, he->dev_handle);
			kfree(he);
			WRITE_ONCE(nic->num_entries, nic->num_entries - 1);
			table_refused(t, idx, true);
		}
		table_snap_drop(t);
		for (w = 0; w < ARRAY_SIZE(t->dflt); w++) {
			if (!t->dflt_changed[w] ||
			    !p4nic_cmd(nic, P4NIC_CMD_DEFAULT_SET, &t->dflt[w],
				       sizeof(t->dflt[w]), NULL, 0, NULL, 0,
				       NULL))
				continue;
			t->dflt_changed[w] = false;
			t->dflt_refused[w] = true;
		}
		t->mode = P4NIC_LOOKUP_TO_HOST;	/* as the image loads it */
		table_apply(nic, t);
	}
}
