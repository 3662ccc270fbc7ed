// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * P4TC runtime messages: RTM_P4TC_CREATE, RTM_P4TC_DEL and RTM_P4TC_GET
 * write and read table entries (kept by p4tc_tbl_entry.c), with the
 * tables' and the entries' permissions, notifications and dumps.
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

#include "p4tc_tbl_entry.h"

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

	if (nlmsg_len(n) < sizeof(struct p4tcmsg)) {
		NL_SET_ERR_MSG(extack, "Message header is missing");
		return -EINVAL;
	}
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
			       "Need to seal pipeline before issuing runtime command");
		return -EINVAL;
	}
	if (!req->tb[P4TC_ROOT]) {
		NL_SET_ERR_MSG(extack, "Netlink P4TC table attributes missing");
		return -EINVAL;
	}
	if (!nla_len(req->tb[P4TC_ROOT])) {
		NL_SET_ERR_MSG(extack, "No elements in root table array");
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
	ret = p4tc_entry_parse_attrs(params, tb, extack);
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
	const char *entry_denied;	/* or the seed's message for it */
};

static const struct p4tc_rt_verb rt_update_verb = {
	P4TC_CTRL_PERM_U, "updating entries", "update"
};

static const struct p4tc_rt_verb rt_del_verb = {
	P4TC_CTRL_PERM_D, "deleting entries", "delete"
};

static const struct p4tc_rt_verb rt_get_verb = {
	P4TC_CTRL_PERM_R, "reading entries", "read",
	"Permission denied: Unable to read table entry"
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
	e = p4tc_entry_find(table, tb, extack);
	if (IS_ERR(e))
		return PTR_ERR(e);
	if (verb->entry_denied && !(e->permissions & verb->perm)) {
		p4tc_set_msg(extack, verb->entry_denied);
		return -EPERM;
	}
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
		e = p4tc_entry_create(o->table, tb, rt_who(tb), extack);
		if (IS_ERR(e)) {
			ret = PTR_ERR(e);
			break;
		}
		o->entry = e;
	}
	if (ret < 0) {
		while (i--)
			p4tc_entry_del(req->obj[i].table, req->obj[i].entry);
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
			NL_SET_ERR_MSG(extack, "Must specify key blobs");
			ret = -EINVAL;
			break;
		}
		ret = p4tc_entry_perms_parse(o->table, tb, &er, extack);
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
							  P4TC_ACT_USE_ENTRY,
							  extack);
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
		p4tc_entries_detach_all(table);
		return 0;
	}
	if (kept == table->num_entries) {
		NL_SET_ERR_MSG(extack, "Unable to flush any entries");
		return -EPERM;
	}
	/* some stay: the others go one by one */
	idr_for_each_entry_ul(&table->entries_idr, e, tmp, id) {
		if (e->permissions & P4TC_CTRL_PERM_D)
			p4tc_entry_del(table, e);
		cond_resched();
	}
	/* a warning: the others went */
	NL_SET_ERR_MSG(extack, "Unable to flush all entries");
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
		p4tc_entry_del(req->obj[i].table, req->obj[i].entry);
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
