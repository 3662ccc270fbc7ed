// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The p4 classifier: binds a sealed P4TC pipeline
 *
 * One filter per priority, like matchall: every packet that reaches it
 * runs through the pipeline (parse graph, preactions, postactions), then
 * through the filter's own actions.  The first verdict other than pipe
 * ends classification; a packet the parse graph rejects is dropped.
 *
 * The filter pins its pipeline, which cannot be deleted while bound.  A
 * filter going away (delete, replace, its block's end) waits for the
 * packets still running on it before it lets go of its actions and its
 * pin, so that a pipeline can be deleted as soon as its last filter is:
 * p4 filters are few, and "tc filter del" followed by "tc p4template del"
 * is what users type.
 *
 * Offload follows cls_flower and cls_matchall: unless the filter says
 * skip_hw, the pipeline's description (p4tc_offload_describe()) goes to
 * every driver of the block (TC_SETUP_CLSP4, P4TC_OFFLOAD_BIND); skip_sw
 * fails unless one of them runs it, and then the filter does not run
 * the pipeline in software.  A device joining the block later gets it
 * through reoffload.
 *
 * An eBPF program may parse in the parse graph's place (seed mode 1):
 * "prog tc obj FILE section S", a BPF_PROG_TYPE_SCHED_ACT program the
 * filter runs first on each packet, which says where the headers are
 * through bpf_p4tc_get_parser_buffer(); or "prog xdp pinned PATH
 * prog_cookie N", a BPF_PROG_TYPE_XDP program that ran before, at XDP,
 * and left the same in the packet's metadata with the filter's cookie
 * (p4tc_bpf.c).  A packet without it is dropped and counted.  Either
 * runs in software only: a device running the pipeline parses with the
 * graph.
 */

#include <linux/bpf.h>
#include <linux/kernel.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/rtnetlink.h>

#include <net/sch_generic.h>
#include <net/pkt_cls.h>
#include <net/p4tc.h>
#include <net/p4tc_offload.h>

/* what "tc" names a parser: "FILE:[SECTION]" */
#define CLS_P4_PROG_NAME_LEN 256

struct cls_p4_head {
	struct tcf_exts exts;
	struct tcf_result res;
	struct p4tc_pipeline *pipeline;
	struct tc_p4_pcnt __percpu *pcnt;
	struct p4tc_bpf_parser parser;	/* an eBPF parser, or prog NULL */
	char *parser_name;
	u32 handle;
	u32 flags;
	unsigned int in_hw_count;
	bool deleting;
};

/* A device running the pipeline had this packet first: it decided it
 * (p4tc_skb_decided()), and what is left is its verdict or the filter's
 * own actions; or it handed it over (p4tc_skb_handed_over()), and the
 * whole pipeline runs here with the device's entries.  The mark goes
 * once used, so that a packet that comes back (a redirect to another
 * port, say) runs the pipeline again, as in software.
 */
static bool p4_classify_device(struct sk_buff *skb,
			       struct cls_p4_head *head,
			       struct tcf_result *res, bool *handed_over,
			       int *ret)
{
	struct p4tc_skb_ext *ext = skb_ext_find(skb, SKB_EXT_P4TC);
	int verdict = ext->verdict;

	if (ext->pipeid != head->pipeline->common.p_id)
		return false;	/* another pipeline's packet */
	skb_ext_del(skb, SKB_EXT_P4TC);
	if (verdict == P4TC_SKB_HANDED_OVER) {
		*handed_over = true;
		return false;
	}
	*ret = verdict != TC_ACT_PIPE ? verdict :
		tcf_exts_exec(skb, &head->exts, res);
	return true;
}

static int p4_classify(struct sk_buff *skb, const struct tcf_proto *tp,
		       struct tcf_result *res)
{
	struct cls_p4_head *head = rcu_dereference_bh(tp->root);
	struct tc_p4_pcnt *pcnt;
	bool handed_over = false;
	bool rejected, cookie_bad;
	int ret;

	if (unlikely(!head))
		return -1;

	*res = head->res;
	if (unlikely(skb_ext_exist(skb, SKB_EXT_P4TC)) &&
	    p4_classify_device(skb, head, res, &handed_over, &ret))
		return ret;
	/* skip_sw: only what the pipeline's device hands over runs here */
	if (tc_skip_sw(head->flags) && !handed_over)
		return -1;
	ret = p4tc_pipeline_classify(skb, head->pipeline,
				     head->parser.prog ? &head->parser : NULL,
				     &head->exts, res, handed_over, &rejected,
				     &cookie_bad);
	pcnt = this_cpu_ptr(head->pcnt);
	pcnt->pkts++;
	if (rejected)
		pcnt->parser_rejects++;
	if (cookie_bad)
		pcnt->cookie_mismatches++;
	return ret;
}

static int p4_init(struct tcf_proto *tp)
{
	return 0;
}

/* Under RTNL, once no packet can reach @head. */
static void p4_head_free(struct cls_p4_head *head)
{
	tcf_exts_destroy(&head->exts);
	if (head->pipeline)
		tcf_pipeline_put_ref(head->pipeline);
	if (head->parser.prog)
		bpf_prog_put(head->parser.prog);
	kfree(head->parser_name);
	free_percpu(head->pcnt);
	kfree(head);
}

static void p4_offload_init(struct p4tc_offload *off, struct tcf_proto *tp,
			    struct cls_p4_head *head, bool bind,
			    struct netlink_ext_ack *extack)
{
	tc_cls_common_offload_init(&off->common, tp, head->flags, extack);
	off->command = bind ? P4TC_OFFLOAD_BIND : P4TC_OFFLOAD_UNBIND;
	off->cookie = (unsigned long)head;
	off->pipeid = head->pipeline->common.p_id;
}

static void p4_hw_unbind(struct tcf_proto *tp, struct cls_p4_head *head,
			 struct netlink_ext_ack *extack)
{
	struct p4tc_offload off = {};

	p4_offload_init(&off, tp, head, false, extack);
	tc_setup_cb_destroy(tp->chain->block, tp, TC_SETUP_CLSP4, &off, false,
			    &head->flags, &head->in_hw_count, true);
}

/* Offer the pipeline to the block's drivers.  Without skip_sw a refusal
 * (of P4TC's description or of every driver) leaves the filter in
 * software; with skip_sw it fails the request.
 */
static int p4_hw_bind(struct tcf_proto *tp, struct cls_p4_head *head,
		      struct netlink_ext_ack *extack)
{
	bool skip_sw = tc_skip_sw(head->flags);
	struct p4tc_off_pipeline *desc;
	struct p4tc_offload off = {};
	int err;

	/* the pipeline's entries are offered where it is bound */
	err = p4tc_offload_block_get(head->pipeline, tp->chain->block);
	if (err)
		return err;
	p4_offload_init(&off, tp, head, true, extack);
	desc = p4tc_offload_describe(head->pipeline, off.common.extack);
	if (IS_ERR(desc)) {
		/* software only: the block stays the filter's until it goes */
		if (!skip_sw)
			return 0;
		err = PTR_ERR(desc);
		goto put;
	}
	off.pipeline = desc;
	err = tc_setup_cb_add(tp->chain->block, tp, TC_SETUP_CLSP4, &off,
			      skip_sw, &head->flags, &head->in_hw_count, true);
	p4tc_offload_describe_free(desc);
	if (err) {
		p4_hw_unbind(tp, head, NULL);
		if (err == -EOPNOTSUPP && extack && !extack->_msg)
			NL_SET_ERR_MSG(extack,
				       "skip_sw: a device on this block cannot offload P4 pipelines");
		goto put;
	}
	if (skip_sw && !tc_in_hw(head->flags)) {
		NL_SET_ERR_MSG(extack,
			       "skip_sw: no device on this block offloads P4 pipelines");
		err = -EOPNOTSUPP;
		goto put;
	}
	if (tc_in_hw(head->flags))
		p4tc_offload_replay(head->pipeline, tp->chain->block, NULL,
				    NULL);
	return 0;

put:
	p4tc_offload_block_put(head->pipeline, tp->chain->block);
	return err;
}

/* @head is out of @tp: wait for its last packets, then free it. */
static void p4_head_release(struct tcf_proto *tp, struct cls_p4_head *head)
{
	if (!tc_skip_hw(head->flags)) {
		if (tc_in_hw(head->flags))
			p4tc_offload_withdraw(head->pipeline, tp->chain->block,
					      NULL, NULL);
		p4_hw_unbind(tp, head, NULL);
		p4tc_offload_block_put(head->pipeline, tp->chain->block);
	}
	tcf_unbind_filter(tp, &head->res);
	synchronize_net();
	p4_head_free(head);
}

static void p4_destroy(struct tcf_proto *tp, bool rtnl_held,
		       struct netlink_ext_ack *extack)
{
	struct cls_p4_head *head = rtnl_dereference(tp->root);

	if (!head)
		return;
	RCU_INIT_POINTER(tp->root, NULL);
	p4_head_release(tp, head);
}

static void *p4_get(struct tcf_proto *tp, u32 handle)
{
	struct cls_p4_head *head = rtnl_dereference(tp->root);

	if (head && !head->deleting && head->handle == handle)
		return head;
	return NULL;
}

static const struct nla_policy p4_policy[TCA_P4_MAX + 1] = {
	[TCA_P4_CLASSID]	= { .type = NLA_U32 },
	[TCA_P4_ACT]		= { .type = NLA_NESTED },
	[TCA_P4_PNAME]		= { .type = NLA_NUL_STRING,
				    .len = PIPELINENAMSIZ - 1 },
	[TCA_P4_PROG_FD]	= { .type = NLA_U32 },
	[TCA_P4_PROG_NAME]	= { .type = NLA_NUL_STRING,
				    .len = CLS_P4_PROG_NAME_LEN - 1 },
	[TCA_P4_PROG_TYPE]	= { .type = NLA_U32 },
	[TCA_P4_PROG_COOKIE]	= { .type = NLA_U32 },
	[TCA_P4_FLAGS]		= NLA_POLICY_MASK(NLA_U32,
						  TCA_CLS_FLAGS_SKIP_HW |
						  TCA_CLS_FLAGS_SKIP_SW |
						  TCA_CLS_FLAGS_VERBOSE),
};

static int p4_parse_flags(struct nlattr **tb, u32 *flags,
			  struct netlink_ext_ack *extack)
{
	*flags = 0;
	if (tb[TCA_P4_FLAGS])
		*flags = nla_get_u32(tb[TCA_P4_FLAGS]);
	if (!tc_flags_valid(*flags)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_P4_FLAGS],
				    "skip_sw and skip_hw exclude each other");
		return -EINVAL;
	}
	return 0;
}

/* The eBPF parser of a new filter: a program of the type asked for,
 * held until the filter goes.
 */
static int p4_parser_get(struct nlattr **tb, struct cls_p4_head *new,
			 struct netlink_ext_ack *extack)
{
	struct bpf_prog *prog;
	u32 type;
	int err;

	if (!tb[TCA_P4_PROG_FD] && !tb[TCA_P4_PROG_NAME] &&
	    !tb[TCA_P4_PROG_TYPE] && !tb[TCA_P4_PROG_COOKIE])
		return 0;
	if (!tb[TCA_P4_PROG_FD] || !tb[TCA_P4_PROG_TYPE]) {
		NL_SET_ERR_MSG(extack,
			       "An eBPF parser needs its program's fd and type");
		return -EINVAL;
	}
	type = nla_get_u32(tb[TCA_P4_PROG_TYPE]);
	if (type != BPF_PROG_TYPE_SCHED_ACT && type != BPF_PROG_TYPE_XDP) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_P4_PROG_TYPE],
				    "An eBPF parser's type is BPF_PROG_TYPE_SCHED_ACT (prog tc) or BPF_PROG_TYPE_XDP (prog xdp)");
		return -EINVAL;
	}
	if (type == BPF_PROG_TYPE_SCHED_ACT && tb[TCA_P4_PROG_COOKIE]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_P4_PROG_COOKIE],
				    "prog_cookie is for a parser that ran at XDP");
		return -EINVAL;
	}
	if (type == BPF_PROG_TYPE_XDP) {
		/* a zeroed buffer has cookie 0: it would prove nothing */
		if (!tb[TCA_P4_PROG_COOKIE] ||
		    !nla_get_u32(tb[TCA_P4_PROG_COOKIE])) {
			NL_SET_ERR_MSG(extack,
				       "A parser at XDP needs a prog_cookie other than 0");
			return -EINVAL;
		}
		new->parser.cookie = nla_get_u32(tb[TCA_P4_PROG_COOKIE]);
	}
	if (tc_skip_sw(new->flags)) {
		NL_SET_ERR_MSG(extack,
			       "skip_sw: an eBPF parser runs in software only");
		return -EINVAL;
	}
	err = p4tc_pipeline_bpf_parser_check(new->pipeline, extack);
	if (err)
		return err;
	prog = bpf_prog_get_type_dev(nla_get_u32(tb[TCA_P4_PROG_FD]), type,
				     false);
	if (IS_ERR(prog)) {
		NL_SET_ERR_MSG_FMT(extack,
				   "The eBPF parser's fd is not a program of type %s",
				   type == BPF_PROG_TYPE_XDP ?
				   "BPF_PROG_TYPE_XDP" :
				   "BPF_PROG_TYPE_SCHED_ACT");
		return PTR_ERR(prog);
	}
	new->parser.prog = prog;
	new->parser_name = tb[TCA_P4_PROG_NAME] ?
		nla_strdup(tb[TCA_P4_PROG_NAME], GFP_KERNEL_ACCOUNT) :
		kstrdup(prog->aux->name, GFP_KERNEL_ACCOUNT);
	return new->parser_name ? 0 : -ENOMEM;
}

static int p4_change(struct net *net, struct sk_buff *in_skb,
		     struct tcf_proto *tp, unsigned long base, u32 handle,
		     struct nlattr **tca, void **arg, u32 flags,
		     struct netlink_ext_ack *extack)
{
	struct cls_p4_head *head = rtnl_dereference(tp->root);
	struct nlattr *tb[TCA_P4_MAX + 1];
	struct cls_p4_head *new;
	u32 userflags;
	int err;

	if (!tca[TCA_OPTIONS]) {
		NL_SET_ERR_MSG(extack, "A p4 filter needs a pipeline (pname)");
		return -EINVAL;
	}
	if (head && (head->deleting || *arg != head)) {
		NL_SET_ERR_MSG(extack,
			       "A p4 filter is already at this priority and protocol");
		return -EEXIST;
	}
	/* tc sets no NLA_F_NESTED on TCA_OPTIONS, for any classifier */
	err = nla_parse_nested_deprecated(tb, TCA_P4_MAX, tca[TCA_OPTIONS],
					  p4_policy, extack);
	if (err < 0)
		return err;
	if (!tb[TCA_P4_PNAME]) {
		NL_SET_ERR_MSG(extack, "A p4 filter needs a pipeline (pname)");
		return -EINVAL;
	}
	err = p4_parse_flags(tb, &userflags, extack);
	if (err < 0)
		return err;

	new = kzalloc(sizeof(*new), GFP_KERNEL_ACCOUNT);
	if (!new)
		return -ENOMEM;
	new->pcnt = alloc_percpu_gfp(struct tc_p4_pcnt, GFP_KERNEL_ACCOUNT);
	if (!new->pcnt) {
		kfree(new);
		return -ENOMEM;
	}
	err = tcf_exts_init(&new->exts, net, TCA_P4_ACT, 0);
	if (err) {
		p4_head_free(new);
		return err;
	}
	new->handle = head ? head->handle : handle ?: 1;
	new->flags = userflags;

	new->pipeline = tcf_pipeline_get(net, nla_data(tb[TCA_P4_PNAME]), 0,
					 extack);
	if (IS_ERR(new->pipeline)) {
		err = PTR_ERR(new->pipeline);
		new->pipeline = NULL;
		p4_head_free(new);
		return err;
	}
	err = p4_parser_get(tb, new, extack);
	if (err) {
		p4_head_free(new);
		return err;
	}

	err = tcf_exts_validate_ex(net, tp, tb, tca[TCA_RATE], &new->exts,
				   flags, new->flags, extack);
	if (err < 0) {
		p4_head_free(new);
		return err;
	}
	if (!tc_skip_hw(new->flags)) {
		err = p4_hw_bind(tp, new, extack);
		if (err) {
			p4_head_free(new);
			return err;
		}
	}
	if (tb[TCA_P4_CLASSID]) {
		new->res.classid = nla_get_u32(tb[TCA_P4_CLASSID]);
		tcf_bind_filter(tp, &new->res, base);
	}

	tcf_proto_update_usesw(tp, new->flags);

	*arg = new;
	rcu_assign_pointer(tp->root, new);
	if (head)
		p4_head_release(tp, head);
	return 0;
}

static int p4_delete(struct tcf_proto *tp, void *arg, bool *last,
		     bool rtnl_held, struct netlink_ext_ack *extack)
{
	struct cls_p4_head *head = rtnl_dereference(tp->root);

	/* the filter goes with its tcf_proto, in p4_destroy() */
	head->deleting = true;
	*last = true;
	return 0;
}

static void p4_walk(struct tcf_proto *tp, struct tcf_walker *arg,
		    bool rtnl_held)
{
	struct cls_p4_head *head = rtnl_dereference(tp->root);

	if (arg->count < arg->skip)
		goto skip;
	if (!head || head->deleting)
		return;
	if (arg->fn(tp, head, arg) < 0)
		arg->stop = 1;
skip:
	arg->count++;
}

static int p4_dump(struct net *net, struct tcf_proto *tp, void *fh,
		   struct sk_buff *skb, struct tcmsg *t, bool rtnl_held)
{
	struct cls_p4_head *head = fh;
	struct tc_p4_pcnt sum = {};
	struct nlattr *nest;
	u32 flags;
	int cpu;

	if (!head)
		return skb->len;

	t->tcm_handle = head->handle;
	nest = nla_nest_start(skb, TCA_OPTIONS);
	if (!nest)
		goto nla_put_failure;
	if (nla_put_string(skb, TCA_P4_PNAME, head->pipeline->common.name))
		goto nla_put_failure;
	if (head->res.classid &&
	    nla_put_u32(skb, TCA_P4_CLASSID, head->res.classid))
		goto nla_put_failure;
	/* in_hw moves with reoffload: not_in_hw is said from it, here */
	flags = head->flags & ~TCA_CLS_FLAGS_NOT_IN_HW;
	if (!tc_in_hw(flags))
		flags |= TCA_CLS_FLAGS_NOT_IN_HW;
	if (nla_put_u32(skb, TCA_P4_FLAGS, flags))
		goto nla_put_failure;
	if (nla_put_u32(skb, TCA_P4_IN_HW_COUNT, head->in_hw_count))
		goto nla_put_failure;
	if (head->parser.prog &&
	    (nla_put_u32(skb, TCA_P4_PROG_ID, head->parser.prog->aux->id) ||
	     nla_put_u32(skb, TCA_P4_PROG_TYPE, head->parser.prog->type) ||
	     nla_put_string(skb, TCA_P4_PROG_NAME, head->parser_name)))
		goto nla_put_failure;
	if (head->parser.cookie &&
	    nla_put_u32(skb, TCA_P4_PROG_COOKIE, head->parser.cookie))
		goto nla_put_failure;
	for_each_possible_cpu(cpu) {
		const struct tc_p4_pcnt *c = per_cpu_ptr(head->pcnt, cpu);

		sum.pkts += c->pkts;
		sum.parser_rejects += c->parser_rejects;
		sum.cookie_mismatches += c->cookie_mismatches;
	}
	if (nla_put_64bit(skb, TCA_P4_PCNT, sizeof(sum), &sum, TCA_P4_PAD))
		goto nla_put_failure;
	if (tcf_exts_dump(skb, &head->exts))
		goto nla_put_failure;
	nla_nest_end(skb, nest);

	if (tcf_exts_dump_stats(skb, &head->exts) < 0)
		goto nla_put_failure;
	return skb->len;

nla_put_failure:
	nla_nest_cancel(skb, nest);
	return -1;
}

/* A driver joins (@add) or leaves the block: bind or unbind it alone. */
static int p4_reoffload(struct tcf_proto *tp, bool add, flow_setup_cb_t *cb,
			void *cb_priv, struct netlink_ext_ack *extack)
{
	struct cls_p4_head *head = rtnl_dereference(tp->root);
	struct p4tc_off_pipeline *desc = NULL;
	struct p4tc_offload off = {};
	int err;

	if (!head || head->deleting || tc_skip_hw(head->flags))
		return 0;
	p4_offload_init(&off, tp, head, add, extack);
	/* the device leaving gives the entries back first */
	if (!add)
		p4tc_offload_withdraw(head->pipeline, tp->chain->block, cb,
				      cb_priv);
	if (add) {
		desc = p4tc_offload_describe(head->pipeline, off.common.extack);
		if (IS_ERR(desc))
			return tc_skip_sw(head->flags) ? PTR_ERR(desc) : 0;
		off.pipeline = desc;
	}
	err = tc_setup_cb_reoffload(tp->chain->block, tp, add, cb,
				    TC_SETUP_CLSP4, &off, cb_priv,
				    &head->flags, &head->in_hw_count);
	if (desc)
		p4tc_offload_describe_free(desc);
	/* the device joining gets the entries (refused: nothing happens) */
	if (add && !err)
		p4tc_offload_replay(head->pipeline, tp->chain->block, cb,
				    cb_priv);
	return err;
}

static void p4_bind_class(void *fh, u32 classid, unsigned long cl, void *q,
			  unsigned long base)
{
	struct cls_p4_head *head = fh;

	tc_cls_bind_class(classid, cl, q, &head->res, base);
}

static struct tcf_proto_ops cls_p4_ops __read_mostly = {
	.kind		= "p4",
	.classify	= p4_classify,
	.init		= p4_init,
	.destroy	= p4_destroy,
	.get		= p4_get,
	.change		= p4_change,
	.delete		= p4_delete,
	.walk		= p4_walk,
	.dump		= p4_dump,
	.bind_class	= p4_bind_class,
	.reoffload	= p4_reoffload,
	.owner		= THIS_MODULE,
};

static int __init cls_p4_init(void)
{
	return register_tcf_proto_ops(&cls_p4_ops);
}

static void __exit cls_p4_exit(void)
{
	unregister_tcf_proto_ops(&cls_p4_ops);
}

module_init(cls_p4_init);
module_exit(cls_p4_exit);

MODULE_DESCRIPTION("P4 classifier: binds a sealed P4TC pipeline");
MODULE_LICENSE("GPL");
