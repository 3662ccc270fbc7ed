// SPDX-License-Identifier: GPL-2.0
/*
 * The router's parse graph (router.tc) as an eBPF parser, for the p4
 * classifier's "prog tc" mode:
 *
 *   tc filter add dev PORT ingress prio 1 p4 pname router \
 *	prog tc obj build/bpf/router/parser.bpf.o section p4tc/parser
 *
 * It finds the same headers the graph does and rejects what the graph
 * rejects: ethernet (14 bytes) always; ipv4 after it when the etherType
 * is 0x800, its length ihl * 4 between 20 and 60 bytes, inside the
 * packet.  It says where they are in the parser buffer, by header id
 * (ethernet is header 1 of the router's parser, ipv4 header 2: the
 * order router.tc creates them in), and returns TC_ACT_PIPE; the
 * pipeline's actions then run on those headers.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <linux/p4tc.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define HDR_ETHERNET	1
#define HDR_IPV4	2
#define HDR_BIT(id)	(1U << ((id) - 1))

extern __u8 *bpf_p4tc_get_parser_buffer(struct __sk_buff *skb_ctx,
					const int rdwr_buf_size) __ksym;

SEC("p4tc/parser")
int router_parser(struct __sk_buff *skb)
{
	struct p4tc_parser_buffer *pb;
	__u16 ether_type;
	__u8 version_ihl;
	__u32 ihl;

	pb = (struct p4tc_parser_buffer *)
		bpf_p4tc_get_parser_buffer(skb, sizeof(*pb));
	if (!pb)
		return TC_ACT_SHOT;

	/* ethernet: 14 bytes, or the packet is rejected */
	if (skb->len < ETH_HLEN)
		return TC_ACT_SHOT;
	pb->valid = HDR_BIT(HDR_ETHERNET);
	pb->hdr_off[HDR_ETHERNET - 1] = 0;
	pb->hdr_len[HDR_ETHERNET - 1] = ETH_HLEN;

	/* The graph sees the frame as on the wire: a VLAN tag the stack
	 * holds outside the frame sits at byte 12 there, so the etherType
	 * the graph selects on is the tag's, which it does not follow.
	 */
	if (skb->vlan_present)
		return TC_ACT_PIPE;
	/* bpf_skb_load_bytes() reaches headers in paged data too */
	if (bpf_skb_load_bytes(skb, 12, &ether_type, sizeof(ether_type)))
		return TC_ACT_SHOT;
	if (ether_type != bpf_htons(ETH_P_IP))
		return TC_ACT_PIPE;

	/* ipv4: ihl * 4 bytes, 20 to 60, inside the packet */
	if (bpf_skb_load_bytes(skb, ETH_HLEN, &version_ihl, 1))
		return TC_ACT_SHOT;
	ihl = (version_ihl & 0xf) * 4;
	if (ihl < 20 || ETH_HLEN + ihl > skb->len)
		return TC_ACT_SHOT;
	pb->valid |= HDR_BIT(HDR_IPV4);
	pb->hdr_off[HDR_IPV4 - 1] = ETH_HLEN;
	pb->hdr_len[HDR_IPV4 - 1] = ihl;
	return TC_ACT_PIPE;
}

char _license[] SEC("license") = "GPL";
