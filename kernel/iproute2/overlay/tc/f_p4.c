/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f_p4.c	P4 classifier: binds a sealed P4TC pipeline
 *
 *   tc filter add dev DEV ingress prio 1 p4 pname PIPE [classid C]
 *	[prog tc obj FILE [section S] [verbose]]
 *	[skip_sw | skip_hw] [verbose] [action ...]
 *
 * "prog tc" loads an eBPF parser (BPF_PROG_TYPE_SCHED_ACT) that runs in
 * the parse graph's place; "prog xdp pinned PATH prog_cookie N" names a
 * parser that runs at XDP, before the filter, and proves it ran on a
 * packet with the cookie.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pkt_cls.h>
#include <linux/p4tc.h>
#include <linux/bpf.h>

#include "utils.h"
#include "tc_util.h"
#include "bpf_util.h"

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... p4 pname PIPELINE [ classid CLASSID ]\n"
		"              [ prog tc obj FILE [ section SECTION ] [ verbose ] |\n"
		"                prog xdp pinned PATH prog_cookie COOKIE ]\n"
		"              [ skip_sw | skip_hw ] [ verbose ]\n"
		"              [ action ACTION_SPEC ]\n"
		"\n"
		"PIPELINE is a sealed P4TC pipeline (tc p4template).  Packets\n"
		"run through its parse graph, preactions and postactions, then\n"
		"through ACTION_SPEC; a packet the parse graph rejects is dropped.\n"
		"With prog tc, the eBPF program FILE (section SECTION) parses in\n"
		"the parse graph's place; with prog xdp, the program pinned at\n"
		"PATH did at XDP, and wrote COOKIE in what it left the filter.\n"
		"NOTE: CLASSID is parsed as hexadecimal input.\n");
}

static void p4_prog_cb(void *nl, int fd, const char *annotation)
{
	addattr32(nl, MAX_MSG, TCA_P4_PROG_FD, fd);
	addattrstrz(nl, MAX_MSG, TCA_P4_PROG_NAME, annotation);
}

static const struct bpf_cfg_ops p4_prog_ops = {
	.ebpf_cb = p4_prog_cb,
};

/* prog tc|xdp BPF_ARGS: the rest of the line goes to bpf_parse_common(),
 * which stops at the first word that is not its own.
 */
static int p4_parse_prog(int *argc_p, char ***argv_p, struct bpf_cfg_in *cfg)
{
	int argc = *argc_p;
	char **argv = *argv_p;

	if (cfg->argv) {
		duparg("prog", *argv);
		return -1;
	}
	NEXT_ARG();
	if (strcmp(*argv, "tc") == 0) {
		cfg->type = BPF_PROG_TYPE_SCHED_ACT;
	} else if (strcmp(*argv, "xdp") == 0) {
		cfg->type = BPF_PROG_TYPE_XDP;
	} else {
		fprintf(stderr, "p4: prog is \"tc\" or \"xdp\", not \"%s\"\n",
			*argv);
		return -1;
	}
	NEXT_ARG();
	cfg->argc = argc;
	cfg->argv = argv;
	if (bpf_parse_common(cfg, &p4_prog_ops) < 0) {
		fprintf(stderr, "p4: unable to parse the prog arguments\n");
		return -1;
	}
	*argc_p = cfg->argc;
	*argv_p = cfg->argv;
	return 0;
}

static int p4_parse_opt(struct filter_util *qu, char *handle,
			int argc, char **argv, struct nlmsghdr *n)
{
	struct tcmsg *t = NLMSG_DATA(n);
	struct bpf_cfg_in cfg = {};
	const char *pname = NULL;
	bool has_cookie = false;
	struct rtattr *tail;
	__u32 flags = 0;
	__u32 cookie;

	if (handle && get_u32(&t->tcm_handle, handle, 0)) {
		fprintf(stderr, "Illegal \"handle\" \"%s\": a number\n",
			handle);
		return -1;
	}
	if (argc == 0) {
		fprintf(stderr, "p4: pname PIPELINE is required\n");
		explain();
		return -1;
	}

	tail = addattr_nest(n, MAX_MSG, TCA_OPTIONS);
	while (argc > 0) {
		if (strcmp(*argv, "pname") == 0) {
			NEXT_ARG();
			if (pname) {
				duparg("pname", *argv);
				return -1;
			}
			if (strlen(*argv) >= PIPELINENAMSIZ) {
				fprintf(stderr,
					"p4: pipeline name \"%s\" is longer than %d bytes\n",
					*argv, PIPELINENAMSIZ - 1);
				return -1;
			}
			pname = *argv;
			addattrstrz(n, MAX_MSG, TCA_P4_PNAME, pname);
		} else if (strcmp(*argv, "classid") == 0 ||
			   strcmp(*argv, "flowid") == 0) {
			__u32 classid;

			NEXT_ARG();
			if (get_tc_classid(&classid, *argv)) {
				fprintf(stderr, "Illegal \"classid\" \"%s\"\n",
					*argv);
				return -1;
			}
			addattr32(n, MAX_MSG, TCA_P4_CLASSID, classid);
		} else if (strcmp(*argv, "action") == 0) {
			NEXT_ARG();
			if (parse_action(&argc, &argv, TCA_P4_ACT, n)) {
				fprintf(stderr, "Illegal \"action\"\n");
				return -1;
			}
			continue;
		} else if (strcmp(*argv, "prog") == 0) {
			if (p4_parse_prog(&argc, &argv, &cfg))
				return -1;
		} else if (strcmp(*argv, "prog_cookie") == 0) {
			NEXT_ARG();
			if (has_cookie) {
				duparg("prog_cookie", *argv);
				return -1;
			}
			if (get_u32(&cookie, *argv, 0)) {
				fprintf(stderr,
					"p4: prog_cookie \"%s\" is not a 32-bit number\n",
					*argv);
				return -1;
			}
			has_cookie = true;
		} else if (strcmp(*argv, "skip_hw") == 0) {
			flags |= TCA_CLS_FLAGS_SKIP_HW;
		} else if (strcmp(*argv, "skip_sw") == 0) {
			flags |= TCA_CLS_FLAGS_SKIP_SW;
		} else if (strcmp(*argv, "verbose") == 0) {
			flags |= TCA_CLS_FLAGS_VERBOSE;
		} else if (strcmp(*argv, "help") == 0) {
			explain();
			return -1;
		} else {
			fprintf(stderr, "p4: what is \"%s\"?\n", *argv);
			explain();
			return -1;
		}
		argc--;
		argv++;
	}
	if (!pname) {
		fprintf(stderr, "p4: pname PIPELINE is required\n");
		return -1;
	}
	if ((flags & TCA_CLS_FLAGS_SKIP_HW) && (flags & TCA_CLS_FLAGS_SKIP_SW)) {
		fprintf(stderr, "p4: skip_hw and skip_sw exclude each other\n");
		return -1;
	}
	if (flags)
		addattr32(n, MAX_MSG, TCA_P4_FLAGS, flags);
	if (cfg.argv) {
		if (bpf_load_common(&cfg, &p4_prog_ops, n) < 0) {
			fprintf(stderr, "p4: unable to load the prog\n");
			return -1;
		}
		addattr32(n, MAX_MSG, TCA_P4_PROG_TYPE, cfg.type);
	}
	if (has_cookie)
		addattr32(n, MAX_MSG, TCA_P4_PROG_COOKIE, cookie);
	addattr_nest_end(n, tail);
	return 0;
}

static int p4_print_opt(struct filter_util *qu, FILE *f,
			struct rtattr *opt, __u32 handle)
{
	struct rtattr *tb[TCA_P4_MAX + 1];

	if (!opt)
		return 0;
	parse_rtattr_nested(tb, TCA_P4_MAX, opt);

	if (handle)
		print_uint(PRINT_ANY, "handle", "handle 0x%x ", handle);
	if (tb[TCA_P4_PNAME])
		print_string(PRINT_ANY, "pname", "pname %s ",
			     rta_getattr_str(tb[TCA_P4_PNAME]));
	if (tb[TCA_P4_CLASSID]) {
		SPRINT_BUF(b1);

		print_string(PRINT_ANY, "flowid", "flowid %s ",
			     sprint_tc_classid(rta_getattr_u32(tb[TCA_P4_CLASSID]),
					       b1));
	}
	if (tb[TCA_P4_PROG_ID]) {
		__u32 type = tb[TCA_P4_PROG_TYPE] ?
			rta_getattr_u32(tb[TCA_P4_PROG_TYPE]) : 0;

		print_nl();
		print_string(PRINT_ANY, "prog_type", "  prog %s",
			     type == BPF_PROG_TYPE_XDP ? "xdp" : "tc");
		print_uint(PRINT_ANY, "prog_id", " id %u",
			   rta_getattr_u32(tb[TCA_P4_PROG_ID]));
		if (tb[TCA_P4_PROG_NAME])
			print_string(PRINT_ANY, "prog_name", " name %s",
				     rta_getattr_str(tb[TCA_P4_PROG_NAME]));
		if (tb[TCA_P4_PROG_COOKIE])
			print_uint(PRINT_ANY, "prog_cookie", " prog_cookie %u",
				   rta_getattr_u32(tb[TCA_P4_PROG_COOKIE]));
	}
	if (tb[TCA_P4_FLAGS]) {
		__u32 flags = rta_getattr_u32(tb[TCA_P4_FLAGS]);

		if (flags & TCA_CLS_FLAGS_SKIP_HW)
			print_bool(PRINT_ANY, "skip_hw", "\n  skip_hw", true);
		if (flags & TCA_CLS_FLAGS_SKIP_SW)
			print_bool(PRINT_ANY, "skip_sw", "\n  skip_sw", true);
		if (flags & TCA_CLS_FLAGS_IN_HW) {
			print_bool(PRINT_ANY, "in_hw", "\n  in_hw", true);
			if (tb[TCA_P4_IN_HW_COUNT])
				print_uint(PRINT_ANY, "in_hw_count",
					   " in_hw_count %u",
					   rta_getattr_u32(tb[TCA_P4_IN_HW_COUNT]));
		} else if (flags & TCA_CLS_FLAGS_NOT_IN_HW)
			print_bool(PRINT_ANY, "not_in_hw", "\n  not_in_hw",
				   true);
	}
	if (show_stats && tb[TCA_P4_PCNT]) {
		struct tc_p4_pcnt pc = {};

		memcpy(&pc, RTA_DATA(tb[TCA_P4_PCNT]),
		       RTA_PAYLOAD(tb[TCA_P4_PCNT]) < sizeof(pc) ?
		       RTA_PAYLOAD(tb[TCA_P4_PCNT]) : sizeof(pc));
		print_nl();
		print_u64(PRINT_ANY, "pkts", "  pipeline runs %llu",
			  (unsigned long long)pc.pkts);
		print_u64(PRINT_ANY, "parser_rejects", " parser rejects %llu",
			  (unsigned long long)pc.parser_rejects);
		if (tb[TCA_P4_PROG_COOKIE])
			print_u64(PRINT_ANY, "cookie_mismatches",
				  " prog_cookie mismatches %llu",
				  (unsigned long long)pc.cookie_mismatches);
	}
	if (tb[TCA_P4_ACT])
		tc_print_action(f, tb[TCA_P4_ACT], 0);
	return 0;
}

struct filter_util p4_filter_util = {
	.id = "p4",
	.parse_fopt = p4_parse_opt,
	.print_fopt = p4_print_opt,
};
