// SPDX-License-Identifier: GPL-2.0
/*
 * tc actions of P4TC's dynamic kinds: "PIPELINE/ACTION", one kind per
 * active action template.
 *
 *   action PIPE/ACT [ param NAME [ type T [ id N ] ] VALUE ]... [ CONTROL ]
 *                   [ index N ]
 *
 * Parameter types come from the kernel (the template), so values are
 * written as their type reads: numbers, a.b.c.d, aa:bb:..., device names,
 * true/false.  An instance names every parameter of its action; binding to
 * an existing instance needs only its index.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utils.h"
#include "tc_util.h"
#include "p4tc_common.h"

static void p4_dyna_explain(void)
{
	fprintf(stderr,
		"Usage: ... PIPELINE/ACTION [ param NAME [ type T [ id N ] ] VALUE ]...\n"
		"           [ CONTROL ] [ index N ]\n"
		"CONTROL := reclassify | pipe | drop | continue | ok | goto chain N\n");
}

/* Split "PIPE/[CB/]ACT" at its first '/'. */
static int p4_dyna_split(const char *kind, char *pname, size_t plen,
			 const char **aname)
{
	const char *slash = strchr(kind, '/');

	if (!slash || slash == kind || !slash[1] ||
	    (size_t)(slash - kind) >= plen) {
		fprintf(stderr, "Error: \"%s\" is not PIPELINE/ACTION\n", kind);
		return -1;
	}
	memcpy(pname, kind, slash - kind);
	pname[slash - kind] = '\0';
	*aname = slash + 1;
	return 0;
}

/*
 * One parameter: its name, the value ARG read as TYPE, and, when the
 * seed's long form restated them, the type and the id for the kernel to
 * check against the template's.
 */
static int p4_dyna_add_param(struct nlmsghdr *n, int idx, const char *name,
			     const struct p4_type_s *type, bool typed,
			     __u32 id, const char *arg)
{
	__u8 buf[16] = {};
	struct rtattr *one;
	struct p4_val v;

	if (p4_val_parse(arg, type, &v)) {
		char tname[64];

		p4_type_format(type, tname, sizeof(tname));
		fprintf(stderr,
			"Error: value \"%s\" of parameter %s is not a %s\n",
			arg, name, tname);
		return -1;
	}
	p4_val_to_container(&v, type->typeid, buf);
	one = addattr_nest(n, MAX_MSG, idx | NLA_F_NESTED);
	addattrstrz(n, MAX_MSG, P4TC_ACT_PARAMS_NAME, name);
	if (id)
		addattr32(n, MAX_MSG, P4TC_ACT_PARAMS_ID, id);
	if (typed)
		p4_type_attr(n, P4TC_ACT_PARAMS_TYPE, type);
	addattr_l(n, MAX_MSG, P4TC_ACT_PARAMS_VALUE, buf,
		  p4_type_container_bits(type->typeid) / 8);
	addattr_nest_end(n, one);
	return 0;
}

static int parse_p4_dyna(struct action_util *a, int *argc_p, char ***argv_p,
			 int tca_id, struct nlmsghdr *n)
{
	struct p4_act_param *params = NULL;
	struct tc_act_dyna opt = {};
	char pname[PIPELINENAMSIZ];
	struct rtattr *tail, *pnest = NULL;
	char **argv = *argv_p;
	int argc = *argc_p;
	int nparams = -1, given = 0, i, ret = -1;
	struct p4_type_s type = {};
	const char *aname;
	bool typed;
	__u32 id;

	if (p4_dyna_split(*argv, pname, sizeof(pname), &aname))
		return -1;
	NEXT_ARG_FWD();

	tail = addattr_nest(n, MAX_MSG, tca_id);
	while (argc > 0 && !strcmp(*argv, "param")) {
		NEXT_ARG();
		if (nparams < 0) {
			params = calloc(P4TC_MAX_PARAMS, sizeof(*params));
			if (!params)
				goto out;
			nparams = p4_get_act_params(pname, aname, params);
			if (nparams < 0)
				goto out;
			pnest = addattr_nest(n, MAX_MSG,
					     P4TC_ACT_PARMS | NLA_F_NESTED);
		}
		for (i = 0; i < nparams; i++)
			if (!strcmp(params[i].name, *argv))
				break;
		if (i == nparams) {
			fprintf(stderr, "Error: action %s has no parameter \"%s\"\n",
				aname, *argv);
			goto out;
		}
		NEXT_ARG();
		/* the seed's form: param NAME type T [id N] VALUE */
		type = params[i].type;
		typed = !strcmp(*argv, "type");
		if (typed) {
			NEXT_ARG();
			if (p4_type_parse(*argv, &type)) {
				fprintf(stderr, "Error: \"%s\" is not a type\n",
					*argv);
				goto out;
			}
			NEXT_ARG();
		}
		id = 0;
		if (!strcmp(*argv, "id")) {
			NEXT_ARG();
			if (get_u32(&id, *argv, 0) || !id) {
				fprintf(stderr, "Error: illegal parameter id \"%s\"\n",
					*argv);
				goto out;
			}
			NEXT_ARG();
		}
		if (p4_dyna_add_param(n, ++given, params[i].name, &type, typed,
				      id, *argv))
			goto out;
		NEXT_ARG_FWD();
	}
	if (pnest)
		addattr_nest_end(n, pnest);

	parse_action_control_dflt(&argc, &argv, &opt.action, false,
				  TC_ACT_PIPE);
	if (argc > 0 && !strcmp(*argv, "index")) {
		NEXT_ARG();
		if (get_u32(&opt.index, *argv, 10)) {
			fprintf(stderr, "Error: illegal index \"%s\"\n", *argv);
			goto out;
		}
		NEXT_ARG_FWD();
	}
	if (argc > 0 && !strcmp(*argv, "help")) {
		p4_dyna_explain();
		goto out;
	}
	addattr_l(n, MAX_MSG, P4TC_ACT_OPT, &opt, sizeof(opt));
	addattr_nest_end(n, tail);
	*argc_p = argc;
	*argv_p = argv;
	ret = 0;
out:
	free(params);
	return ret;
}

static int print_p4_dyna(struct action_util *au, FILE *f, struct rtattr *arg)
{
	struct rtattr *tb[P4TC_ACT_MAX + 1];
	struct tc_act_dyna *opt;

	if (!arg)
		return 0;
	parse_rtattr_nested(tb, P4TC_ACT_MAX, arg);
	if (!tb[P4TC_ACT_OPT] ||
	    RTA_PAYLOAD(tb[P4TC_ACT_OPT]) < sizeof(*opt)) {
		fprintf(stderr, "Error: P4 action without its options\n");
		return -1;
	}
	opt = RTA_DATA(tb[P4TC_ACT_OPT]);
	print_string(PRINT_ANY, "kind", "%s",
		     tb[P4TC_ACT_NAME] ? rta_getattr_str(tb[P4TC_ACT_NAME]) :
		     "p4 action");
	print_action_control(f, " ", opt->action, "");
	if (tb[P4TC_ACT_PARMS])
		p4_print_act_params(tb[P4TC_ACT_PARMS]);
	/* a table entry's or default action is no instance: no index */
	if (!opt->index) {
		print_nl();
		return 0;
	}
	print_nl();
	print_uint(PRINT_ANY, "index", "\t index %u", opt->index);
	print_int(PRINT_ANY, "ref", " ref %d", opt->refcnt);
	print_int(PRINT_ANY, "bind", " bind %d", opt->bindcnt);
	if (show_stats && tb[P4TC_ACT_TM] &&
	    RTA_PAYLOAD(tb[P4TC_ACT_TM]) >= sizeof(struct tcf_t))
		print_tm(f, RTA_DATA(tb[P4TC_ACT_TM]));
	print_nl();
	return 0;
}

static struct action_util p4_dyna_util = {
	.id = "p4dyna",
	.parse_aopt = parse_p4_dyna,
	.print_aopt = print_p4_dyna,
};

/* The action_util of every kind whose name has a '/' (m_action.c) */
struct action_util *p4_dyna_action_util(void)
{
	return &p4_dyna_util;
}
