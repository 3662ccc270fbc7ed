/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * P4TC table entries inside net/sched/p4tc/: what the runtime messages
 * (p4tc_runtime.c) use of the entries' storage (p4tc_tbl_entry.c).  All
 * of it runs under RTNL.
 */
#ifndef __NET_SCHED_P4TC_TBL_ENTRY_H
#define __NET_SCHED_P4TC_TBL_ENTRY_H

#include <net/netlink.h>
#include <net/p4tc.h>

/* An entry as a request describes it: where it goes and what it does */
struct p4tc_entry_req {
	u8 key[P4TC_MAX_KEYSZ / 8];
	u8 mask[P4TC_MAX_KEYSZ / 8];
	u32 prefix_len;
	u32 prio;		/* 0: not given */
	u16 perms;
	bool perms_given;
};

int p4tc_entry_parse_attrs(struct nlattr *nla, struct nlattr **tb,
			   struct netlink_ext_ack *extack);
int p4tc_entry_perms_parse(struct p4tc_table *table, struct nlattr **tb,
			   struct p4tc_entry_req *req,
			   struct netlink_ext_ack *extack);
struct p4tc_table_entry *p4tc_entry_create(struct p4tc_table *table,
					   struct nlattr **tb, u8 who,
					   struct netlink_ext_ack *extack);
struct p4tc_table_entry *p4tc_entry_find(struct p4tc_table *table,
					 struct nlattr **tb,
					 struct netlink_ext_ack *extack);
void p4tc_entry_del(struct p4tc_table *table, struct p4tc_table_entry *e);
void p4tc_entries_detach_all(struct p4tc_table *table);

#endif /* __NET_SCHED_P4TC_TBL_ENTRY_H */
