// SPDX-License-Identifier: GPL-2.0
/*
 * The whole router (router.tc) as an eBPF datapath that keeps P4TC's
 * tables (seed mode 2): the program parses and acts itself, and looks
 * the router's FIB and next hops up with the kfunc bpf_p4tc_tbl_read(),
 * so "tc p4" still adds the routes, the entries' permissions still say
 * what matches and their counters still count.  Bound where the p4
 * filter would be, as a tc action:
 *
 *   tc filter add dev PORT ingress prio 1 matchall \
 *	action bpf obj build/bpf/router/datapath.bpf.o sec p4tc/datapath
 *
 * What router.tc does, step by step: ethernet, then ipv4 when the
 * etherType is 0x800 (a header that does not fit drops, as the graph's
 * reject); a packet other than IPv4 goes to the host; TTL 1 or 0 drops;
 * the FIB (LPM on the destination) gives a next hop (set_nh) or drops;
 * the next hop gives the MACs and the port (forward) or drops; forward
 * writes the MACs, decrements the TTL with the RFC 1624 update of the
 * checksum and sends the packet out of the port.
 *
 * The ids it names and forward's parameters are router.bpf.h's.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <linux/p4tc.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "router.bpf.h"

#define IP_TTL_AT	(ETH_HLEN + 8)
#define IP_CSUM_AT	(ETH_HLEN + 10)
#define IP_DST_AT	(ETH_HLEN + 16)

extern struct p4tc_table_entry_act_bpf *
bpf_p4tc_tbl_read(struct __sk_buff *skb_ctx,
		  const struct p4tc_table_entry_act_bpf_params *params,
		  const void *key, const __u32 key__sz) __ksym;

SEC("p4tc/datapath")
int router_datapath(struct __sk_buff *skb)
{
	struct p4tc_table_entry_act_bpf_params tp = { .pipeid = ROUTER_PIPEID };
	struct p4tc_table_entry_act_bpf *act;
	struct forward_params fwd;
	__u8 version_ihl, ttl;
	__u16 ether_type, csum;
	__u32 ihl, key, nh = 0;

	/* the parse graph */
	if (skb->len < ETH_HLEN)
		return TC_ACT_SHOT;
	/* on the wire a VLAN tag's etherType is at byte 12: not IPv4 */
	if (skb->vlan_present)
		return TC_ACT_OK;
	if (bpf_skb_load_bytes(skb, 12, &ether_type, sizeof(ether_type)))
		return TC_ACT_SHOT;
	if (ether_type != bpf_htons(ETH_P_IP))
		return TC_ACT_OK;	/* route: not IPv4, to the host */
	if (bpf_skb_load_bytes(skb, ETH_HLEN, &version_ihl, 1))
		return TC_ACT_SHOT;
	ihl = (version_ihl & 0xf) * 4;
	if (ETH_HLEN + 20 > skb->len || ihl < 20 || ETH_HLEN + ihl > skb->len)
		return TC_ACT_SHOT;

	/* route */
	if (bpf_skb_load_bytes(skb, IP_TTL_AT, &ttl, 1))
		return TC_ACT_SHOT;
	if (ttl <= 1)
		return TC_ACT_SHOT;
	if (bpf_skb_load_bytes(skb, IP_DST_AT, &key, sizeof(key)))
		return TC_ACT_SHOT;
	tp.tblid = TBL_FIB;
	act = bpf_p4tc_tbl_read(skb, &tp, &key, sizeof(key));
	if (!act)
		return TC_ACT_SHOT;
	switch (act->act_id) {
	case ACT_SET_NH:
		nh = ((struct set_nh_params *)act->params)->nh;
		break;
	case ACT_DROP:
		return TC_ACT_SHOT;
	}

	key = bpf_htonl(nh);
	tp.tblid = TBL_NEXTHOP;
	act = bpf_p4tc_tbl_read(skb, &tp, &key, sizeof(key));
	if (!act)
		return TC_ACT_SHOT;
	switch (act->act_id) {
	case ACT_FORWARD:
		break;
	case ACT_DROP:
		return TC_ACT_SHOT;
	default:
		return TC_ACT_PIPE;	/* no action: nothing happens */
	}
	__builtin_memcpy(&fwd, act->params, sizeof(fwd));

	/* forward */
	if (bpf_skb_store_bytes(skb, 0, &fwd, 2 * ETH_ALEN, 0))
		return TC_ACT_SHOT;
	ttl--;
	if (bpf_skb_store_bytes(skb, IP_TTL_AT, &ttl, 1, 0) ||
	    bpf_skb_load_bytes(skb, IP_CSUM_AT, &csum, sizeof(csum)))
		return TC_ACT_SHOT;
	csum = router_ttl_csum(csum);
	if (bpf_skb_store_bytes(skb, IP_CSUM_AT, &csum, sizeof(csum), 0))
		return TC_ACT_SHOT;
	return bpf_redirect(fwd.port, 0);
}

char _license[] SEC("license") = "GPL";
