/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the router's eBPF datapaths (datapath.bpf.c at tc,
 * datapath-xdp.bpf.c at XDP) know of router.tc: its pipeline id, the ids
 * of its tables and of the actions their entries run, how forward's
 * parameters are laid out, and its TTL and checksum update.
 * p4tc-bpf-tables.sh checks the ids against the loaded templates.
 */
#ifndef ROUTER_BPF_H
#define ROUTER_BPF_H

#include <linux/if_ether.h>
#include <linux/types.h>
#include <bpf/bpf_endian.h>

#define ROUTER_PIPEID	40	/* pipeid */
#define TBL_FIB		1	/* cb/fib: LPM on the IPv4 destination */
#define TBL_NEXTHOP	2	/* cb/nexthop: exact on the next hop */
#define ACT_SET_NH	1	/* the order router.tc creates actions in */
#define ACT_DROP	2
#define ACT_FORWARD	3

/* set_nh's parameter: bit32, host order */
struct set_nh_params {
	__u32 nh;
};

/* forward's parameters, as the template lays them out */
struct forward_params {
	__u8 dmac[ETH_ALEN];
	__u8 smac[ETH_ALEN];
	__u32 port;		/* dev: an ifindex, host order */
};

/* The IPv4 checksum after the TTL went down by one: forward's RFC 1624
 * update, as its commands do it (@csum in network order).
 */
static __always_inline __u16 router_ttl_csum(__u16 csum)
{
	__u16 c = bpf_ntohs(csum);

	c += c >= 0xff00 ? 0x101 : 0x100;
	return bpf_htons(c);
}

#endif
