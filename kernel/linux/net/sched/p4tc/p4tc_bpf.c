// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * P4TC kfuncs: what eBPF programs call into P4TC for.
 *
 * An eBPF parser ("tc filter ... p4 pname P prog tc obj FILE section S")
 * runs in the parse graph's place, as the first step of the p4
 * classifier.  It finds the packet's headers, writes where they are into
 * the parser buffer bpf_p4tc_get_parser_buffer() hands it (struct
 * p4tc_parser_buffer), and returns TC_ACT_PIPE.  The datapath checks what
 * it wrote and reads and writes header fields there, as after the parse
 * graph (p4tc_exec.c).
 *
 * An eBPF parser at XDP ("prog xdp pinned PATH prog_cookie N") runs
 * before the stack has the packet.  bpf_p4tc_xdp_get_parser_buffer()
 * places its buffer (struct p4tc_xdp_parser_buffer) in the frame's XDP
 * metadata, which the stack keeps with the packet; the parser writes the
 * headers there and the filter's cookie (directly, or with
 * bpf_p4tc_set_cookie()), and the p4 classifier finds it at tc.  The
 * metadata travels with the packet, so it cannot be mistaken for another
 * packet's, whatever the driver batches.
 *
 * The kfuncs are registered against vmlinux BTF: a kernel built without
 * CONFIG_DEBUG_INFO_BTF has none, and programs calling them fail to load.
 */

#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/init.h>
#include <linux/skbuff.h>
#include <net/p4tc.h>
#include <net/xdp.h>

__diag_push();
__diag_ignore_all("-Wmissing-prototypes",
		  "kfuncs: global functions without a prototype in a header");

/**
 * bpf_p4tc_get_parser_buffer - the buffer an eBPF parser writes to
 * @skb_ctx: the program's context
 * @rdwr_buf_size: the bytes the program will use, a constant: at most
 *	sizeof(struct p4tc_parser_buffer)
 *
 * The buffer is zeroed before the parser starts, and read when it
 * returns TC_ACT_PIPE.  Only the p4 classifier's parser run has one.
 *
 * Return: the buffer, or NULL when @skb_ctx is not a packet the p4
 * classifier is parsing or @rdwr_buf_size is too large.
 */
noinline u8 *bpf_p4tc_get_parser_buffer(struct __sk_buff *skb_ctx,
					const int rdwr_buf_size)
{
	struct sk_buff *skb = (struct sk_buff *)skb_ctx;

	if (rdwr_buf_size <= 0 ||
	    rdwr_buf_size > sizeof(struct p4tc_parser_buffer))
		return NULL;
	return (u8 *)p4tc_run_parser_buffer(skb);
}

/* The frame's metadata holds the buffer: placed now if it holds nothing,
 * or already (the same parser asking twice).  Anything else is another
 * program's metadata, which the buffer must not overwrite.
 */
static struct p4tc_xdp_parser_buffer *xdp_parser_buffer(struct xdp_buff *xdp)
{
	const size_t size = sizeof(struct p4tc_xdp_parser_buffer);
	void *frame_end = xdp->data_hard_start + sizeof(struct xdp_frame);
	void *meta = xdp->data - size;

	/* the XDP metadata limit (xdp_metalen_invalid()) */
	BUILD_BUG_ON(size > 32 || size % 4);
	if (xdp_data_meta_unsupported(xdp))
		return NULL;
	if (xdp->data_meta == meta)
		return meta;
	if (xdp->data_meta != xdp->data || meta < frame_end)
		return NULL;
	memset(meta, 0, size);
	xdp->data_meta = meta;
	return meta;
}

/**
 * bpf_p4tc_xdp_get_parser_buffer - the buffer an eBPF parser at XDP fills
 * @xdp_ctx: the program's context
 * @rdwr_buf_size: the bytes the program will use, a constant: at most
 *	sizeof(struct p4tc_xdp_parser_buffer)
 *
 * Places the buffer, zeroed, in the frame's XDP metadata (which must be
 * empty), or gives the one placed before.  The program's data_meta moves
 * in front of it.
 *
 * Return: the buffer, or NULL when the driver keeps no metadata, the
 * frame has no room in front of it, its metadata is another program's,
 * or @rdwr_buf_size is too large.
 */
noinline u8 *bpf_p4tc_xdp_get_parser_buffer(struct xdp_md *xdp_ctx,
					    const int rdwr_buf_size)
{
	if (rdwr_buf_size <= 0 ||
	    rdwr_buf_size > sizeof(struct p4tc_xdp_parser_buffer))
		return NULL;
	return (u8 *)xdp_parser_buffer((struct xdp_buff *)xdp_ctx);
}

/**
 * bpf_p4tc_set_cookie - mark the frame as parsed by the filter's parser
 * @xdp_ctx: the program's context
 * @cookie: the p4 filter's prog_cookie
 *
 * Writes @cookie into the frame's parser buffer, placing the buffer as
 * bpf_p4tc_xdp_get_parser_buffer() does when it is not there yet.
 *
 * Return: 0, or -ENOSPC when the buffer cannot be placed.
 */
noinline int bpf_p4tc_set_cookie(struct xdp_md *xdp_ctx, u32 cookie)
{
	struct p4tc_xdp_parser_buffer *b;

	b = xdp_parser_buffer((struct xdp_buff *)xdp_ctx);
	if (!b)
		return -ENOSPC;
	b->cookie = cookie;
	return 0;
}

__diag_pop();

BTF_SET8_START(p4tc_parser_kfunc_ids)
BTF_ID_FLAGS(func, bpf_p4tc_get_parser_buffer, KF_RET_NULL)
BTF_SET8_END(p4tc_parser_kfunc_ids)

static const struct btf_kfunc_id_set p4tc_parser_kfunc_set = {
	.owner = THIS_MODULE,
	.set = &p4tc_parser_kfunc_ids,
};

BTF_SET8_START(p4tc_xdp_parser_kfunc_ids)
BTF_ID_FLAGS(func, bpf_p4tc_xdp_get_parser_buffer, KF_RET_NULL)
BTF_ID_FLAGS(func, bpf_p4tc_set_cookie)
BTF_SET8_END(p4tc_xdp_parser_kfunc_ids)

static const struct btf_kfunc_id_set p4tc_xdp_parser_kfunc_set = {
	.owner = THIS_MODULE,
	.set = &p4tc_xdp_parser_kfunc_ids,
};

static int __init p4tc_bpf_init(void)
{
	int err;

	/* "prog tc" parsers are BPF_PROG_TYPE_SCHED_ACT, as in act_bpf */
	err = register_btf_kfunc_id_set(BPF_PROG_TYPE_SCHED_ACT,
					&p4tc_parser_kfunc_set);
	return err ?: register_btf_kfunc_id_set(BPF_PROG_TYPE_XDP,
						&p4tc_xdp_parser_kfunc_set);
}
late_initcall(p4tc_bpf_init);
