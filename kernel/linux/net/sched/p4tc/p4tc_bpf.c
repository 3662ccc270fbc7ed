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
 * An eBPF datapath (seed mode 2) looks tables up itself:
 * bpf_p4tc_tbl_read() at tc (act_bpf, cls_bpf programs, and the p4
 * classifier's parser) and bpf_xdp_p4tc_tbl_read() at XDP answer a key
 * with the action the table's entry (or default) says to run and its
 * parameters.  The lookup is tableapply's: the same entries match (their
 * permissions), the same counters count, in sealed pipelines only.
 *
 * The kfuncs are registered against vmlinux BTF: a kernel built without
 * CONFIG_DEBUG_INFO_BTF has none, and programs calling them fail to load.
 */

#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/init.h>
#include <linux/bottom_half.h>
#include <linux/netdevice.h>
#include <linux/percpu.h>
#include <linux/skbuff.h>
#include <net/p4tc.h>
#include <net/xdp.h>

/* What a table read answers, per CPU: valid until the program's next read */
static DEFINE_PER_CPU(struct p4tc_table_entry_act_bpf, p4tc_bpf_act);

/* Look @key up in the table @params names, in @net; the answer goes to
 * this CPU's buffer.  BH off: the lookup's RCU and counters need it, and
 * BPF_PROG_TEST_RUN runs programs with BH on.
 */
static struct p4tc_table_entry_act_bpf *
tbl_read(struct net *net, const struct p4tc_table_entry_act_bpf_params *params,
	 const void *key, u32 key__sz, const struct sk_buff *skb, u32 len)
{
	const struct p4tc_table_entry_value *v;
	struct p4tc_table_entry_act_bpf *act;
	struct p4tc_pipeline *pipeline;
	struct p4tc_template_common *t;
	struct p4tc_table *table;
	bool hit;

	if (!params || !key)
		return NULL;
	local_bh_disable();
	/* a pipeline leaves its IDR a grace period before it is freed */
	pipeline = tcf_pipeline_find_byid(net, params->pipeid);
	if (!pipeline || !pipeline_sealed(pipeline))
		goto none;
	t = idr_find(&pipeline->p_tbl_idr, params->tblid);
	if (!t)
		goto none;
	table = to_table(t);
	if (key__sz != table->key_bytes)
		goto none;
	v = p4tc_table_read(table, key, skb, len, &hit);
	if (v && v->act->params_bytes > P4TC_BPF_MAX_PARAMS_BYTES)
		goto none;
	act = this_cpu_ptr(&p4tc_bpf_act);
	act->hit = hit;
	act->act_id = v ? v->act->a_id : 0;
	act->params_bytes = v ? v->act->params_bytes : 0;
	if (v)
		memcpy(act->params, v->params.values, act->params_bytes);
	local_bh_enable();
	return act;

none:
	local_bh_enable();
	return NULL;
}

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

/**
 * bpf_p4tc_tbl_read - look a key up in a P4TC table, from tc
 * @skb_ctx: the program's context: the packet whose hit counts
 * @params: the pipeline and table ids
 * @key: the key, laid out as the table's
 * @key__sz: its size: the table's key bytes
 *
 * Return: whether an entry matched and the action to run with its
 * parameters, valid until the program's next read; or NULL when there is
 * no such table in a sealed pipeline of the packet's namespace, the key
 * size is not the table's, or the action's parameters do not fit.
 */
noinline struct p4tc_table_entry_act_bpf *
bpf_p4tc_tbl_read(struct __sk_buff *skb_ctx,
		  const struct p4tc_table_entry_act_bpf_params *params,
		  const void *key, const u32 key__sz)
{
	struct sk_buff *skb = (struct sk_buff *)skb_ctx;

	if (!skb->dev)
		return NULL;
	return tbl_read(dev_net(skb->dev), params, key, key__sz, skb, 0);
}

/**
 * bpf_xdp_p4tc_tbl_read - look a key up in a P4TC table, from XDP
 * @xdp_ctx: the program's context: the frame whose hit counts
 * @params: the pipeline and table ids
 * @key: the key, laid out as the table's
 * @key__sz: its size: the table's key bytes
 *
 * Return: as bpf_p4tc_tbl_read(), in the receiving device's namespace.
 */
noinline struct p4tc_table_entry_act_bpf *
bpf_xdp_p4tc_tbl_read(struct xdp_md *xdp_ctx,
		      const struct p4tc_table_entry_act_bpf_params *params,
		      const void *key, const u32 key__sz)
{
	struct xdp_buff *xdp = (struct xdp_buff *)xdp_ctx;

	return tbl_read(dev_net(xdp->rxq->dev), params, key, key__sz, NULL,
			xdp->data_end - xdp->data);
}

__diag_pop();

BTF_SET8_START(p4tc_tbl_kfunc_ids)
BTF_ID_FLAGS(func, bpf_p4tc_tbl_read, KF_RET_NULL)
BTF_SET8_END(p4tc_tbl_kfunc_ids)

static const struct btf_kfunc_id_set p4tc_tbl_kfunc_set = {
	.owner = THIS_MODULE,
	.set = &p4tc_tbl_kfunc_ids,
};

BTF_SET8_START(p4tc_parser_kfunc_ids)
BTF_ID_FLAGS(func, bpf_p4tc_get_parser_buffer, KF_RET_NULL)
BTF_ID_FLAGS(func, bpf_p4tc_tbl_read, KF_RET_NULL)
BTF_SET8_END(p4tc_parser_kfunc_ids)

static const struct btf_kfunc_id_set p4tc_parser_kfunc_set = {
	.owner = THIS_MODULE,
	.set = &p4tc_parser_kfunc_ids,
};

BTF_SET8_START(p4tc_xdp_parser_kfunc_ids)
BTF_ID_FLAGS(func, bpf_p4tc_xdp_get_parser_buffer, KF_RET_NULL)
BTF_ID_FLAGS(func, bpf_p4tc_set_cookie)
BTF_ID_FLAGS(func, bpf_xdp_p4tc_tbl_read, KF_RET_NULL)
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
	err = err ?: register_btf_kfunc_id_set(BPF_PROG_TYPE_XDP,
					       &p4tc_xdp_parser_kfunc_set);
	/* cls_bpf's programs read tables too */
	return err ?: register_btf_kfunc_id_set(BPF_PROG_TYPE_SCHED_CLS,
						&p4tc_tbl_kfunc_set);
}
late_initcall(p4tc_bpf_init);
