// SPDX-License-Identifier: GPL-2.0
/*
 * The whole router (router.tc) as an XDP program over P4TC's tables
 * (seed mode 2 at XDP): datapath.bpf.c's steps on the frame as the device
 * received it, with the kfunc bpf_xdp_p4tc_tbl_read() for the FIB and the
 * next hops, so "tc p4" adds the routes and the entries' counters count:
 *
 *   ip link set dev PORT xdpgeneric obj build/bpf/router/datapath-xdp.bpf.o sec xdp
 *
 * Not IPv4 (a VLAN tag is in the frame here, so a tagged frame is not
 * either): to the host.  A header that does not fit, a TTL of 1 or 0, a
 * missing route or next hop, a drop entry: dropped.  Forwarded frames get
 * the next hop's MACs, TTL - 1 with the RFC 1624 checksum update, and go
 * out of its port.  Ids as in router.bpf.h.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/p4tc.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "router.bpf.h"

extern struct p4tc_table_entry_act_bpf *
bpf_xdp_p4tc_tbl_read(struct xdp_md *xdp_ctx,
		      const struct p4tc_table_entry_act_bpf_params *params,
		      const void *key, const __u32 key__sz) __ksym;

SEC("xdp")
int router_xdp_datapath(struct xdp_md *ctx)
{
	struct p4tc_table_entry_act_bpf_params tp = { .pipeid = ROUTER_PIPEID };
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct p4tc_table_entry_act_bpf *act;
	struct ethhdr *eth = data;
	struct forward_params fwd;
	__u32 ihl, key, nh = 0;
	__u16 csum;
	__u8 *ip;

	if ((void *)(eth + 1) > end)
		return XDP_DROP;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip = (__u8 *)(eth + 1);
	if ((void *)(ip + 20) > end)
		return XDP_DROP;
	ihl = (ip[0] & 0xf) * 4;
	if (ihl < 20 || (void *)(ip + ihl) > end)
		return XDP_DROP;
	if (ip[8] <= 1)
		return XDP_DROP;

	__builtin_memcpy(&key, ip + 16, sizeof(key));
	tp.tblid = TBL_FIB;
	act = bpf_xdp_p4tc_tbl_read(ctx, &tp, &key, sizeof(key));
	if (!act)
		return XDP_DROP;
	switch (act->act_id) {
	case ACT_SET_NH:
		nh = ((struct set_nh_params *)act->params)->nh;
		break;
	case ACT_DROP:
		return XDP_DROP;
	}

	key = bpf_htonl(nh);
	tp.tblid = TBL_NEXTHOP;
	act = bpf_xdp_p4tc_tbl_read(ctx, &tp, &key, sizeof(key));
	if (!act)
		return XDP_DROP;
	switch (act->act_id) {
	case ACT_FORWARD:
		break;
	case ACT_DROP:
		return XDP_DROP;
	default:
		return XDP_PASS;	/* no action: nothing happens */
	}
	__builtin_memcpy(&fwd, act->params, sizeof(fwd));

	__builtin_memcpy(eth->h_dest, fwd.dmac, ETH_ALEN);
	__builtin_memcpy(eth->h_source, fwd.smac, ETH_ALEN);
	ip[8]--;
	__builtin_memcpy(&csum, ip + 10, sizeof(csum));
	csum = router_ttl_csum(csum);
	__builtin_memcpy(ip + 10, &csum, sizeof(csum));
	return bpf_redirect(fwd.port, 0);
}

char _license[] SEC("license") = "GPL";
