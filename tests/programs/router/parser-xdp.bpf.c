// SPDX-License-Identifier: GPL-2.0
/*
 * The router's parse graph (router.tc) as an eBPF parser at XDP, for the
 * p4 classifier's "prog xdp" mode:
 *
 *   bpftool prog load build/bpf/router/parser-xdp.bpf.o /sys/fs/bpf/rp \
 *	type xdp
 *   ip link set dev PORT xdpgeneric pinned /sys/fs/bpf/rp
 *   tc filter add dev PORT ingress prio 1 p4 pname router \
 *	prog xdp pinned /sys/fs/bpf/rp prog_cookie 22
 *
 * What parser.bpf.c does at tc, done before the stack has the packet:
 * ethernet (14 bytes) always; ipv4 after it when the etherType is 0x800,
 * its length ihl * 4 between 20 and 60 bytes, inside the packet.  The
 * result goes into the frame's XDP metadata (struct
 * p4tc_xdp_parser_buffer), which the p4 classifier reads at tc: header
 * offsets by id (ethernet 1, ipv4 2), the packet rejected or not, and the
 * cookie 22 that proves this packet went through this parser.  Every
 * packet passes: the filter drops and counts rejects, as after the graph.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/p4tc.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define HDR_ETHERNET	1
#define HDR_IPV4	2
#define HDR_BIT(id)	(1U << ((id) - 1))
#define ROUTER_XDP_COOKIE 22

extern __u8 *bpf_p4tc_xdp_get_parser_buffer(struct xdp_md *xdp_ctx,
					    const int rdwr_buf_size) __ksym;
extern int bpf_p4tc_set_cookie(struct xdp_md *xdp_ctx, __u32 cookie) __ksym;

SEC("xdp")
int router_xdp_parser(struct xdp_md *ctx)
{
	struct p4tc_xdp_parser_buffer *pb;
	void *data, *end;
	struct ethhdr *eth;
	__u8 *ip;
	__u32 ihl;

	pb = (struct p4tc_xdp_parser_buffer *)
		bpf_p4tc_xdp_get_parser_buffer(ctx, sizeof(*pb));
	if (!pb)
		return XDP_PASS;	/* no cookie: the filter drops it */
	data = (void *)(long)ctx->data;
	end = (void *)(long)ctx->data_end;

	/* ethernet: 14 bytes, or the packet is rejected */
	eth = data;
	if ((void *)(eth + 1) > end)
		goto reject;
	pb->valid = HDR_BIT(HDR_ETHERNET);
	pb->hdr_off[HDR_ETHERNET - 1] = 0;
	/* a VLAN tag is in the frame here: its etherType is the tag's */
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		goto done;

	/* ipv4: ihl * 4 bytes, 20 to 60, inside the packet */
	ip = (__u8 *)(eth + 1);
	if ((void *)(ip + 20) > end)
		goto reject;
	ihl = (*ip & 0xf) * 4;
	if (ihl < 20 || (void *)(ip + ihl) > end)
		goto reject;
	pb->valid |= HDR_BIT(HDR_IPV4);
	pb->hdr_off[HDR_IPV4 - 1] = ETH_HLEN;
	goto done;

reject:
	pb->valid |= P4TC_XDP_PARSER_REJECT;
done:
	bpf_p4tc_set_cookie(ctx, ROUTER_XDP_COOKIE);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
