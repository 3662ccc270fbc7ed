/* SPDX-License-Identifier: GPL-2.0 */
/*
 * P4TC datapath tracepoints: one per packet the p4 classifier runs a
 * pipeline on, one per table a program applies.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM p4tc

#if !defined(_TRACE_P4TC_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_P4TC_H

#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/tracepoint.h>
#include <net/sch_generic.h>

TRACE_EVENT(p4_classify,
	    TP_PROTO(const struct net_device *dev, bool ingress,
		     const char *pname, u32 pipeid, int verdict, bool rejected),

	    TP_ARGS(dev, ingress, pname, pipeid, verdict, rejected),

	    TP_STRUCT__entry(__string(pname, pname)
			     __field(u32, p_id)
			     __field(int, ifindex)
			     __field(bool, ingress)
			     __field(int, verdict)
			     __field(bool, rejected)),

	    TP_fast_assign(__assign_str(pname, pname);
			   __entry->p_id = pipeid;
			   __entry->ifindex = dev ? dev->ifindex : 0;
			   __entry->ingress = ingress;
			   __entry->verdict = verdict;
			   __entry->rejected = rejected;),

	    TP_printk("dev=%d dir=%s pipeline=%s p_id=%u verdict=%d%s",
		      __entry->ifindex, __entry->ingress ? "ingress" : "egress",
		      __get_str(pname), __entry->p_id, __entry->verdict,
		      __entry->rejected ? " parser=reject" : "")
);

TRACE_EVENT(p4_table_apply,
	    TP_PROTO(const struct sk_buff *skb, u32 pipeid, const char *tname,
		     u32 tblid, bool hit, u32 prio),

	    TP_ARGS(skb, pipeid, tname, tblid, hit, prio),

	    TP_STRUCT__entry(__string(tname, tname)
			     __field(u32, p_id)
			     __field(u32, tblid)
			     __field(int, ifindex)
			     __field(bool, hit)
			     __field(u32, prio)),

	    TP_fast_assign(__assign_str(tname, tname);
			   __entry->p_id = pipeid;
			   __entry->tblid = tblid;
			   __entry->ifindex = skb->dev ? skb->dev->ifindex : 0;
			   __entry->hit = hit;
			   __entry->prio = prio;),

	    TP_printk("dev=%d p_id=%u table=%s tblid=%u %s prio=%u",
		      __entry->ifindex, __entry->p_id, __get_str(tname),
		      __entry->tblid, __entry->hit ? "hit" : "miss",
		      __entry->prio)
);

#endif /* _TRACE_P4TC_H */

#include <trace/define_trace.h>
