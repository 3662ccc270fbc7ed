// SPDX-License-Identifier: GPL-2.0
/*
 * P4TC action commands in tc: "cmd OP OPERAND..." in an action template,
 * to P4TC_ACT_CMDS_LIST and back.
 *
 *   cmd set DST SRC             cmd plus|sub|band|bor|bxor DST A B
 *   cmd concat DST SRC SRC...   cmd beq|bne|blt|ble|bgt|bge A B control THEN [/ ELSE]
 *   cmd label NAME              cmd jump N|LABEL
 *   cmd act PIPE.ACT.INDEX      cmd act PIPE.ACT [ARG...]     cmd act kernel.KIND.INDEX
 *   cmd print [prefix STR] A    cmd ret [VERDICT]
 *   cmd tableapply table.PIPE.CB/TABLE
 *   cmd send_port_egress DEV    cmd mirror_port_egress DEV
 *   cmd setvalid HEADER         cmd setinvalid HEADER
 *
 * THEN and ELSE are a verdict (pipe goes on), "jump N" (N commands
 * forward) or "jump LABEL".  Operands: metadata.PIPE.NAME,
 * hdrfield.PIPE.PARSER.HDR.FIELD, key.PIPE.CB/TABLE, param.NAME,
 * constant.TYPE.VALUE, dev.IFNAME, register.PIPE.NAME[INDEX],
 * results.hit|miss, table.PIPE.CB/TABLE, header.PIPE.PARSER.HDR; all but
 * constants, devices, results and headers may end in a slice [A-B]
 * (registers: after the index).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

#include "utils.h"
#include "tc_util.h"
#include "p4tc_common.h"

static const char * const p4_op_names[P4TC_CMD_OP_MAX + 1] = {
	[P4TC_CMD_OP_SET] = "set",
	[P4TC_CMD_OP_ACT] = "act",
	[P4TC_CMD_OP_BEQ] = "beq",
	[P4TC_CMD_OP_BNE] = "bne",
	[P4TC_CMD_OP_BLT] = "blt",
	[P4TC_CMD_OP_BLE] = "ble",
	[P4TC_CMD_OP_BGT] = "bgt",
	[P4TC_CMD_OP_BGE] = "bge",
	[P4TC_CMD_OP_PLUS] = "plus",
	[P4TC_CMD_OP_PRINT] = "print",
	[P4TC_CMD_OP_TABLEAPPLY] = "tableapply",
	[P4TC_CMD_OP_SNDPORTEGR] = "send_port_egress",
	[P4TC_CMD_OP_MIRPORTEGR] = "mirror_port_egress",
	[P4TC_CMD_OP_SUB] = "sub",
	[P4TC_CMD_OP_CONCAT] = "concat",
	[P4TC_CMD_OP_BAND] = "band",
	[P4TC_CMD_OP_BOR] = "bor",
	[P4TC_CMD_OP_BXOR] = "bxor",
	[P4TC_CMD_OP_LABEL] = "label",
	[P4TC_CMD_OP_JUMP] = "jump",
	[P4TC_CMD_OP_RET] = "ret",
	[P4TC_CMD_OP_SETVALID] = "setvalid",
	[P4TC_CMD_OP_SETINVALID] = "setinvalid",
};

static const struct {
	const char *prefix;
	int kind;
} p4_opnd_kinds[] = {
	{ "constant.", P4TC_OPER_CONST },
	{ "metadata.", P4TC_OPER_META },
	{ "hdrfield.", P4TC_OPER_HDRFIELD },
	{ "key.", P4TC_OPER_KEY },
	{ "param.", P4TC_OPER_PARAM },
	{ "dev.", P4TC_OPER_DEV },
	{ "register.", P4TC_OPER_REG },
	{ "results.", P4TC_OPER_RES },
	{ "table.", P4TC_OPER_TBL },
	{ "header.", P4TC_OPER_HDR },
};

static int p4_op_parse(const char *word)
{
	int i;

	for (i = 1; i <= P4TC_CMD_OP_MAX; i++)
		if (p4_op_names[i] && !strcmp(word, p4_op_names[i]))
			return i;
	return -1;
}

static int bad(const char *what, const char *arg)
{
	fprintf(stderr, "Error: %s: \"%s\"\n", what, arg);
	return -1;
}

/* A trailing "[A-B]" or "[A]": cut it off @s. */
static int cut_bracket(char *s, unsigned int *a, unsigned int *b, bool *has)
{
	char *open = strrchr(s, '['), *end;
	unsigned long x, y;

	*has = false;
	if (!open)
		return 0;
	if (s[strlen(s) - 1] != ']')
		return -1;
	x = strtoul(open + 1, &end, 0);
	y = x;
	if (*end == '-')
		y = strtoul(end + 1, &end, 0);
	if (end == open + 1 || *end != ']' || x > 0xffff || y > 0xffff)
		return -1;
	*open = '\0';
	*a = x;
	*b = y;
	*has = true;
	return 0;
}

/* The action operand of act: PIPE.ACT.INDEX or PIPE.ACT */
static int p4_add_act_opnd(struct nlmsghdr *n, char *arg, bool *by_index)
{
	char *last = strrchr(arg, '.'), *end;
	unsigned long index;

	*by_index = false;
	if (!last || !strchr(arg, '.'))
		return bad("an action is PIPELINE.ACTION[.INDEX]", arg);
	addattr8(n, MAX_MSG, P4TC_OPND_KIND, P4TC_OPER_ACT);
	index = strtoul(last + 1, &end, 0);
	if (last != strchr(arg, '.') && *end == '\0' && end != last + 1) {
		*last = '\0';
		addattr32(n, MAX_MSG, P4TC_OPND_INDEX, index);
		*by_index = true;
	}
	addattrstrz(n, MAX_MSG, P4TC_OPND_PATH, arg);
	return 0;
}

static int p4_add_opnd(struct nlmsghdr *n, char *arg)
{
	unsigned int a, b, i;
	struct p4_type_s t = {};
	struct p4_val v;
	bool has;
	int kind = -1;
	char *rest = NULL;

	for (i = 0; i < ARRAY_SIZE(p4_opnd_kinds); i++) {
		size_t len = strlen(p4_opnd_kinds[i].prefix);

		if (!strncmp(arg, p4_opnd_kinds[i].prefix, len)) {
			kind = p4_opnd_kinds[i].kind;
			rest = arg + len;
			break;
		}
	}
	if (kind < 0 || !*rest)
		return bad("unknown operand", arg);
	addattr8(n, MAX_MSG, P4TC_OPND_KIND, kind);

	if (kind == P4TC_OPER_CONST) {
		struct p4tc_meta_size_params ty = {};
		__u8 buf[16] = {};

		if (p4_val_parse_constant(arg, &v, &t))
			return bad("constant does not parse or fit its type", arg);
		ty.datatype = t.typeid;
		ty.startbit = t.startbit;
		ty.endbit = t.endbit;
		p4_val_to_container(&v, t.typeid, buf);
		addattr_l(n, MAX_MSG, P4TC_OPND_TYPE, &ty, sizeof(ty));
		addattr_l(n, MAX_MSG, P4TC_OPND_VALUE, buf,
			  p4_type_container_bits(t.typeid) / 8);
		return 0;
	}

	if (cut_bracket(rest, &a, &b, &has))
		return bad("a slice is [START-END]", arg);
	if (kind == P4TC_OPER_REG) {
		unsigned int a2, b2;
		bool has2;

		/* register.P.R[INDEX] or register.P.R[INDEX][A-B] */
		if (has && cut_bracket(rest, &a2, &b2, &has2))
			return bad("a register element is [INDEX]", arg);
		if (has && has2) {
			if (a2 != b2)
				return bad("a register element is [INDEX]", arg);
			addattr32(n, MAX_MSG, P4TC_OPND_INDEX, a2);
		} else if (has) {
			if (a != b)
				return bad("a register element is [INDEX]", arg);
			addattr32(n, MAX_MSG, P4TC_OPND_INDEX, a);
			has = false;
		}
	}
	if (has) {
		struct p4tc_opnd_slice sl = { a, b };

		addattr_l(n, MAX_MSG, P4TC_OPND_SLICE, &sl, sizeof(sl));
	}
	addattrstrz(n, MAX_MSG, P4TC_OPND_PATH, rest);
	return 0;
}

/* THEN or ELSE: a verdict, "jump N" or "jump LABEL"; eats its words. */
static int p4_add_ctl(struct nlmsghdr *n, int attr, int *argc_p,
		      char ***argv_p)
{
	char **argv = *argv_p, *end;
	struct rtattr *nest;
	unsigned long dist;
	int argc = *argc_p, verdict;

	nest = addattr_nest(n, MAX_MSG, attr | NLA_F_NESTED);
	if (!strcmp(*argv, "jump")) {
		if (argc < 2)
			return bad("jump needs a distance or a label", *argv);
		argc--;
		argv++;
		dist = strtoul(*argv, &end, 0);
		if (*end == '\0' && end != *argv)
			addattr32(n, MAX_MSG, P4TC_CTL_JUMP, dist);
		else
			addattrstrz(n, MAX_MSG, P4TC_CTL_LABEL, *argv);
	} else if (action_a2n(*argv, &verdict, false) == 0) {
		addattr32(n, MAX_MSG, P4TC_CTL_VERDICT, verdict);
	} else {
		return bad("expected a verdict or jump", *argv);
	}
	addattr_nest_end(n, nest);
	*argc_p = argc - 1;
	*argv_p = argv + 1;
	return 0;
}

/* Words of one command: up to the next "cmd" or template keyword. */
static int cmd_words(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (!strcmp(argv[i], "cmd") || !strcmp(argv[i], "param") ||
		    !strcmp(argv[i], "state") || !strcmp(argv[i], "actid"))
			break;
	return i;
}

static int p4_add_cmd(struct nlmsghdr *n, int idx, int argc, char **argv)
{
	struct rtattr *cmd, *opnds = NULL, *one;
	int op, nopnds = 0, verdict;
	bool branch, by_index;

	if (!argc)
		return bad("cmd needs an operation", "cmd");
	op = p4_op_parse(*argv);
	if (op < 0)
		return bad("unknown command", *argv);
	branch = op >= P4TC_CMD_OP_BEQ && op <= P4TC_CMD_OP_BGE;
	cmd = addattr_nest(n, MAX_MSG, idx | NLA_F_NESTED);
	addattr8(n, MAX_MSG, P4TC_CMD_OP, op);
	argc--;
	argv++;

	switch (op) {
	case P4TC_CMD_OP_LABEL:
		if (argc != 1)
			return bad("label takes one name", p4_op_names[op]);
		addattrstrz(n, MAX_MSG, P4TC_CMD_LABEL, *argv);
		argc = 0;
		break;
	case P4TC_CMD_OP_JUMP:
		argv--;
		argc++;
		/* "jump X" reads as the control "jump X" */
		if (argc != 2 ||
		    p4_add_ctl(n, P4TC_CMD_THEN, &argc, &argv))
			return bad("jump takes a distance or a label", "jump");
		break;
	case P4TC_CMD_OP_RET:
		if (argc > 1)
			return bad("ret takes at most a verdict", "ret");
		if (argc == 1) {
			struct rtattr *nest;

			if (action_a2n(*argv, &verdict, false))
				return bad("ret takes a verdict", *argv);
			nest = addattr_nest(n, MAX_MSG,
					    P4TC_CMD_THEN | NLA_F_NESTED);
			addattr32(n, MAX_MSG, P4TC_CTL_VERDICT, verdict);
			addattr_nest_end(n, nest);
		}
		argc = 0;
		break;
	case P4TC_CMD_OP_PRINT:
		if (argc > 2 && !strcmp(*argv, "prefix")) {
			addattrstrz(n, MAX_MSG, P4TC_CMD_PREFIX, argv[1]);
			argc -= 2;
			argv += 2;
		}
		break;
	}

	while (argc > 0) {
		if (!strcmp(*argv, "control")) {
			/* after any command: the seed's "control VERDICT" */
			if (argc < 2)
				return bad("control takes a verdict", *argv);
			argc--;
			argv++;
			/* the controls follow the operands, outside their nest */
			if (opnds)
				addattr_nest_end(n, opnds);
			opnds = NULL;
			if (p4_add_ctl(n, P4TC_CMD_THEN, &argc, &argv))
				return -1;
			if (argc > 0 && !strcmp(*argv, "/")) {
				if (!branch)
					return bad("only branches take a second control",
						   "/");
				argc--;
				argv++;
				if (argc <= 0 ||
				    p4_add_ctl(n, P4TC_CMD_ELSE, &argc, &argv))
					return bad("expected a control after /",
						   "/");
			}
			if (argc)
				return bad("unexpected words after the control",
					   *argv);
			break;
		}
		if (!opnds)
			opnds = addattr_nest(n, MAX_MSG,
					     P4TC_CMD_OPNDS | NLA_F_NESTED);
		one = addattr_nest(n, MAX_MSG, ++nopnds | NLA_F_NESTED);
		if (op == P4TC_CMD_OP_ACT && nopnds == 1) {
			if (p4_add_act_opnd(n, *argv, &by_index))
				return -1;
		} else if (p4_add_opnd(n, *argv)) {
			return -1;
		}
		addattr_nest_end(n, one);
		argc--;
		argv++;
	}
	if (opnds)
		addattr_nest_end(n, opnds);
	addattr_nest_end(n, cmd);
	return 0;
}

/**
 * p4_cmds_parse - the "cmd ..." words of an action template
 * @n: the message; P4TC_ACT_CMDS_LIST is added to it
 *
 * Consumes every "cmd" group at *@argv_p (the caller saw "cmd" first).
 * Returns 0, or -1 after printing why.
 */
int p4_cmds_parse(int *argc_p, char ***argv_p, struct nlmsghdr *n)
{
	char **argv = *argv_p;
	int argc = *argc_p, idx = 0, w;
	struct rtattr *list;

	list = addattr_nest(n, MAX_MSG, P4TC_ACT_CMDS_LIST | NLA_F_NESTED);
	while (argc > 0 && !strcmp(*argv, "cmd")) {
		argc--;
		argv++;
		w = cmd_words(argc, argv);
		if (++idx > P4TC_CMDS_LIST_MAX)
			return bad("an action has at most 32 commands", "cmd");
		if (p4_add_cmd(n, idx, w, argv))
			return -1;
		argc -= w;
		argv += w;
	}
	addattr_nest_end(n, list);
	*argc_p = argc;
	*argv_p = argv;
	return 0;
}

/* Printing: the command as it was written */

static void p4_opnd_format(struct rtattr *nest, char *buf, size_t len)
{
	struct rtattr *tb[P4TC_OPND_MAX + 1];
	const char *prefix = "?";
	size_t used;
	unsigned int i;
	int kind;

	parse_rtattr_nested(tb, P4TC_OPND_MAX, nest);
	kind = tb[P4TC_OPND_KIND] ? rta_getattr_u8(tb[P4TC_OPND_KIND]) : 0;
	if (kind == P4TC_OPER_CONST && tb[P4TC_OPND_TYPE] &&
	    tb[P4TC_OPND_VALUE] &&
	    RTA_PAYLOAD(tb[P4TC_OPND_TYPE]) >= sizeof(struct p4tc_meta_size_params)) {
		struct p4tc_meta_size_params *ty = RTA_DATA(tb[P4TC_OPND_TYPE]);
		struct p4_type_s t = { ty->datatype, ty->startbit, ty->endbit };
		char tname[32], val[64];
		struct p4_val v;

		p4_type_format(&t, tname, sizeof(tname));
		p4_val_from_container(RTA_DATA(tb[P4TC_OPND_VALUE]), &t, &v);
		p4_val_format(&v, &t, val, sizeof(val));
		snprintf(buf, len, "constant.%s.%s", tname, val);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(p4_opnd_kinds); i++)
		if (p4_opnd_kinds[i].kind == kind)
			prefix = p4_opnd_kinds[i].prefix;
	if (kind == P4TC_OPER_ACT)
		prefix = "";
	snprintf(buf, len, "%s%s", prefix,
		 tb[P4TC_OPND_PATH] ? rta_getattr_str(tb[P4TC_OPND_PATH]) : "");
	used = strlen(buf);
	if (tb[P4TC_OPND_INDEX] && used < len)
		snprintf(buf + used, len - used,
			 kind == P4TC_OPER_ACT ? ".%u" : "[%u]",
			 rta_getattr_u32(tb[P4TC_OPND_INDEX]));
	used = strlen(buf);
	if (tb[P4TC_OPND_SLICE] && used < len &&
	    RTA_PAYLOAD(tb[P4TC_OPND_SLICE]) >= sizeof(struct p4tc_opnd_slice)) {
		struct p4tc_opnd_slice *sl = RTA_DATA(tb[P4TC_OPND_SLICE]);

		snprintf(buf + used, len - used, "[%u-%u]", sl->startbit,
			 sl->endbit);
	}
}

/* A verdict as tc writes it (action_n2a() is tc_util.c's own) */
static const char *p4_verdict_name(int v)
{
	switch (v) {
	case TC_ACT_UNSPEC:
		return "continue";
	case TC_ACT_OK:
		return "pass";
	case TC_ACT_SHOT:
		return "drop";
	case TC_ACT_RECLASSIFY:
		return "reclassify";
	case TC_ACT_PIPE:
		return "pipe";
	case TC_ACT_STOLEN:
		return "stolen";
	case TC_ACT_TRAP:
		return "trap";
	}
	return "?";
}

static void p4_ctl_format(struct rtattr *nest, char *buf, size_t len)
{
	struct rtattr *tb[P4TC_CTL_MAX + 1];

	parse_rtattr_nested(tb, P4TC_CTL_MAX, nest);
	if (tb[P4TC_CTL_VERDICT])
		snprintf(buf, len, "%s",
			 p4_verdict_name(rta_getattr_u32(tb[P4TC_CTL_VERDICT])));
	else if (tb[P4TC_CTL_JUMP])
		snprintf(buf, len, "jump %u", rta_getattr_u32(tb[P4TC_CTL_JUMP]));
	else if (tb[P4TC_CTL_LABEL])
		snprintf(buf, len, "jump %s", rta_getattr_str(tb[P4TC_CTL_LABEL]));
	else
		snprintf(buf, len, "?");
}

static void p4_cmd_format(struct rtattr *nest, char *buf, size_t len)
{
	struct rtattr *tb[P4TC_CMD_MAX + 1];
	char part[600];
	int op, i;

	parse_rtattr_nested(tb, P4TC_CMD_MAX, nest);
	op = tb[P4TC_CMD_OP] ? rta_getattr_u8(tb[P4TC_CMD_OP]) : 0;
	snprintf(buf, len, "%s",
		 op > 0 && op <= P4TC_CMD_OP_MAX && p4_op_names[op] ?
		 p4_op_names[op] : "?");
#define CAT(...) do { size_t u = strlen(buf); \
	if (u < len) snprintf(buf + u, len - u, __VA_ARGS__); } while (0)
	if (tb[P4TC_CMD_LABEL])
		CAT(" %s", rta_getattr_str(tb[P4TC_CMD_LABEL]));
	if (tb[P4TC_CMD_PREFIX])
		CAT(" prefix %s", rta_getattr_str(tb[P4TC_CMD_PREFIX]));
	if (tb[P4TC_CMD_OPNDS]) {
		struct rtattr *o[P4TC_CMD_MAX_OPNDS + 1];

		parse_rtattr_nested(o, P4TC_CMD_MAX_OPNDS, tb[P4TC_CMD_OPNDS]);
		for (i = 1; i <= P4TC_CMD_MAX_OPNDS && o[i]; i++) {
			p4_opnd_format(o[i], part, sizeof(part));
			CAT(" %s", part);
		}
	}
	if (tb[P4TC_CMD_THEN]) {
		p4_ctl_format(tb[P4TC_CMD_THEN], part, sizeof(part));
		if (op == P4TC_CMD_OP_JUMP)
			CAT(" %s", part + strlen("jump "));
		else if (op == P4TC_CMD_OP_RET)
			CAT(" %s", part);
		else
			CAT(" control %s", part);
	}
	if (tb[P4TC_CMD_ELSE]) {
		p4_ctl_format(tb[P4TC_CMD_ELSE], part, sizeof(part));
		CAT(" / %s", part);
	}
#undef CAT
}

/**
 * p4_cmds_print - print an action template's P4TC_ACT_CMDS_LIST
 * @list: the attribute
 *
 * One "cmd ..." line per command; JSON: "cmds", an array of strings.
 */
void p4_cmds_print(struct rtattr *list)
{
	struct rtattr *tb[P4TC_CMDS_LIST_MAX + 1];
	char buf[2048];
	int i;

	parse_rtattr_nested(tb, P4TC_CMDS_LIST_MAX, list);
	open_json_array(PRINT_JSON, "cmds");
	for (i = 1; i <= P4TC_CMDS_LIST_MAX && tb[i]; i++) {
		p4_cmd_format(tb[i], buf, sizeof(buf));
		print_string(PRINT_FP, NULL, "%s", _SL_);
		print_string(PRINT_ANY, NULL, "\t cmd %s", buf);
	}
	close_json_array(PRINT_JSON, NULL);
}
