// SPDX-License-Identifier: GPL-2.0
/*
 * tc p4template: create, update, delete and show P4TC templates.
 *
 *   tc p4template create|update|del|get OBJECT/PATH [ATTRIBUTES]
 *
 * OBJECT/PATH is pipeline/P, metadata/P/NAME, hdrfield/P/PARSER/HDR/FIELD,
 * header/P/PARSER/HDR, register/P/NAME or action/P/[CB/]NAME.  A path that ends in '/' (no
 * object name) means every object there: get dumps them, del flushes them.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include "utils.h"
#include "tc_util.h"
#include "tc_common.h"
#include "p4tc_common.h"

enum p4tmpl_cmd { CMD_CREATE, CMD_UPDATE, CMD_DEL, CMD_GET };

struct p4tmpl_req {
	struct nlmsghdr n;
	struct p4tcmsg t;
	char buf[MAX_MSG];
};

/* What the path named */
struct p4tmpl_path {
	int obj;			/* P4TC_OBJ_* */
	char pname[PIPELINENAMSIZ];	/* "" when absent */
	char parser[PARSERNAMSIZ];
	char name[TEMPLATENAMSZ];	/* the object, "" for all */
};

static const struct {
	const char *word;
	int obj;
	const char *json;
} p4tmpl_objs[] = {
	{ "pipeline", P4TC_OBJ_PIPELINE, "pipeline" },
	{ "metadata", P4TC_OBJ_META, "metadata" },
	{ "hdrfield", P4TC_OBJ_HDR_FIELD, "hdrfield" },
	{ "header", P4TC_OBJ_HEADER, "header" },
	{ "register", P4TC_OBJ_REGISTER, "register" },
	{ "action", P4TC_OBJ_ACT, "action template" },
	{ "table", P4TC_OBJ_TABLE, "table" },
};

static void p4tmpl_usage(void)
{
	fprintf(stderr,
		"Usage: tc p4template { create | update | del | get } OBJECT/PATH [ ATTRS ]\n"
		"       pipeline/PNAME [ pipeid ID ] [ numtables N ] [ maxrules N ]\n"
		"                [ preactions ACTIONS ] [ postactions ACTIONS ] [ state ready ]\n"
		"       metadata/PNAME/MNAME [ mid ID ] type TYPE\n"
		"       hdrfield/PNAME/PARSER/HDR/FIELD [ hdrfieldid ID ] [ parserid ID ]\n"
		"                type TYPE [ offset BITS ]\n"
		"       header/PNAME/PARSER/HDR [ hdrid ID ] [ parserid ID ] len BYTES\n"
		"                [ maxlen BYTES lenfield FIELD lenmult N [ lenadd N ] ]\n"
		"                [ start | nostart ] [ select FIELD ]\n"
		"                [ transition VALUE[/MASK] NEXT ]... [ default NEXT ]\n"
		"       register/PNAME/RNAME [ regid ID ] type TYPE numelems N\n"
		"                (update:) index I value VALUE\n"
		"       action/PNAME/[CB/]ANAME [ actid ID ]\n"
		"                [ param NAME type TYPE [ id ID ] ]... [ cmd COMMAND ]...\n"
		"                [ state active ]\n"
		"       table/PNAME/CB/TNAME [ tblid ID ] keysz BITS\n"
		"                [ type exact | lpm | ternary ] [ tentries N ] [ nummasks N ]\n"
		"                [ permissions PERM ] [ key action ACTIONS ]\n"
		"                [ preactions ACTIONS ] [ postactions ACTIONS ]\n"
		"                [ default_hit_action [ permissions PERM ] [ action ACTION ] ]\n"
		"                [ default_miss_action [ permissions PERM ] [ action ACTION ] ]\n"
		"                [ table_acts [ act name PNAME/ACT [ flags tableonly | defaultonly ] ]... ]\n"
		"                [ entry KEYFIELD VALUE... [ prio N ] [ permissions PERM ]\n"
		"                        [ action ACTION ] ]...\n"
		"TYPE := bitN | intN | bitN[START-END] | u8..u128 | s8..s128 | be16 | be32\n"
		"        | be64 | ipv4 | mac | bool | dev\n"
		"NEXT := HDR | accept | reject\n"
		"PERM := CRUDXCRUDX (letters or -: control plane, then datapath) | 0xNNN\n"
		"A PATH ending in '/' names every object there: get dumps, del flushes.\n");
}

static const char *p4tmpl_obj_json(int obj)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(p4tmpl_objs); i++)
		if (p4tmpl_objs[i].obj == obj)
			return p4tmpl_objs[i].json;
	return "unknown";
}

/* Copy the next '/'-separated component of *@s into @dst. */
static int path_next(const char **s, char *dst, size_t len, bool last)
{
	const char *p = *s;
	const char *slash = last ? NULL : strchr(p, '/');
	size_t n = slash ? (size_t)(slash - p) : strlen(p);

	if (n >= len) {
		fprintf(stderr, "Error: name \"%.*s...\" is longer than %zu bytes\n",
			32, p, len - 1);
		return -1;
	}
	memcpy(dst, p, n);
	dst[n] = '\0';
	*s = slash ? slash + 1 : p + n;
	return 0;
}

static int p4tmpl_parse_path(const char *str, struct p4tmpl_path *path)
{
	const char *slash = strchr(str, '/');
	const char *p;
	unsigned int i;

	memset(path, 0, sizeof(*path));
	path->obj = -1;
	for (i = 0; slash && i < ARRAY_SIZE(p4tmpl_objs); i++) {
		if (strlen(p4tmpl_objs[i].word) == (size_t)(slash - str) &&
		    !strncmp(str, p4tmpl_objs[i].word, slash - str))
			path->obj = p4tmpl_objs[i].obj;
	}
	if (path->obj < 0) {
		fprintf(stderr, "Error: unknown object path \"%s\"\n", str);
		return -1;
	}
	p = slash + 1;
	if (path->obj == P4TC_OBJ_PIPELINE)
		return path_next(&p, path->pname, sizeof(path->pname), true);

	if (path_next(&p, path->pname, sizeof(path->pname), false))
		return -1;
	/* no pipeline name: "OBJ/ pipeid N ..." names it by id */
	if (path->obj == P4TC_OBJ_HDR_FIELD || path->obj == P4TC_OBJ_HEADER) {
		if (path_next(&p, path->parser, sizeof(path->parser), false))
			return -1;
	}
	/* the rest is the name: metadata and field names may hold '/' */
	return path_next(&p, path->name, sizeof(path->name), true);
}

static __u32 get_id(const char *arg)
{
	__u32 id;

	if (get_u32(&id, arg, 0) || !id)
		invarg("must be a number above 0", arg);
	return id;
}

/*
 * Every object below a pipeline may name its pipeline by id, as the seed
 * writes it ("get metadata/ pipeid 22 mid 42", or with both name and id):
 * take "pipeid N" out of the arguments into ids[0].  Returns the
 * arguments left, in place.
 */
static int p4tmpl_take_pipeid(int argc, char **argv, __u32 *ids)
{
	int i, out = 0;

	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "pipeid")) {
			argv[out++] = argv[i];
			continue;
		}
		if (++i == argc)
			missarg("pipeid");
		ids[0] = get_id(argv[i]);
	}
	return out;
}

static void p4tmpl_parse_type(const char *arg, struct p4_type_s *t)
{
	if (p4_type_parse(arg, t))
		invarg("unknown type (bitN, intN, bitN[A-B], u8..u128, ipv4, ...)",
		       arg);
}

/*
 * A type attribute: struct p4tc_meta_size_params and struct
 * p4tc_hdrfield_ty have one layout (startbit, endbit, datatype).
 */
static void p4tmpl_add_type(struct nlmsghdr *n, int attr, const char *arg)
{
	struct p4_type_s t = {};

	p4tmpl_parse_type(arg, &t);
	p4_type_attr(n, attr, &t);
}

static const char * const pipeline_words[] = { "preactions", "postactions",
	"numtables", "maxrules", "pipeid", "state", NULL };
static const char * const table_words[] = { "tblid", "type", "keysz",
	"tentries", "nummasks", "permissions", "key", "preactions",
	"postactions", "default_hit_action", "default_miss_action",
	"table_acts", "entry", NULL };

/* Arguments after "preactions" up to the next keyword of the object. */
static int p4tmpl_parse_actions(int *argc_p, char ***argv_p, int attr,
				struct nlmsghdr *n, const char * const *stop)
{
	int argc = *argc_p, count = 0, rest;
	char **argv = *argv_p;
	unsigned int i;

	while (count < argc) {
		for (i = 0; stop[i]; i++)
			if (!strcmp(argv[count], stop[i]))
				goto found;
		count++;
	}
found:
	if (!count) {
		fprintf(stderr, "Error: expected actions after \"%s\"\n",
			argv[-1]);
		return -1;
	}
	rest = argc - count;
	if (parse_action(&count, &argv, attr | NLA_F_NESTED, n)) {
		fprintf(stderr, "Error: bad action list\n");
		return -1;
	}
	if (count) {
		fprintf(stderr, "Error: unexpected \"%s\" in action list\n",
			*argv);
		return -1;
	}
	*argc_p = rest;
	*argv_p = argv;
	return 0;
}

static int parse_pipeline(int cmd, int argc, char **argv, struct nlmsghdr *n,
			  __u32 *ids)
{
	while (argc > 0) {
		if (!strcmp(*argv, "pipeid")) {
			NEXT_ARG();
			ids[0] = get_id(*argv);
		} else if (!strcmp(*argv, "numtables")) {
			__u16 v;

			NEXT_ARG();
			if (get_u16(&v, *argv, 0))
				invarg("numtables must be a number", *argv);
			addattr16(n, MAX_MSG, P4TC_PIPELINE_NUMTABLES, v);
		} else if (!strcmp(*argv, "maxrules")) {
			__u32 v;

			NEXT_ARG();
			if (get_u32(&v, *argv, 0))
				invarg("maxrules must be a number", *argv);
			addattr32(n, MAX_MSG, P4TC_PIPELINE_MAXRULES, v);
		} else if (!strcmp(*argv, "state")) {
			NEXT_ARG();
			if (strcmp(*argv, "ready"))
				invarg("state can only be \"ready\"", *argv);
			addattr8(n, MAX_MSG, P4TC_PIPELINE_STATE,
				 P4TC_STATE_READY);
		} else if (!strcmp(*argv, "preactions") ||
			   !strcmp(*argv, "postactions")) {
			int attr = !strcmp(*argv, "preactions") ?
				   P4TC_PIPELINE_PREACTIONS :
				   P4TC_PIPELINE_POSTACTIONS;

			NEXT_ARG();
			if (p4tmpl_parse_actions(&argc, &argv, attr, n,
						 pipeline_words))
				return -1;
			continue;
		} else {
			fprintf(stderr, "Error: unknown pipeline argument \"%s\"\n",
				*argv);
			return -1;
		}
		argc--;
		argv++;
	}
	return 0;
}

static int parse_metadata(int cmd, int argc, char **argv, struct nlmsghdr *n,
			  __u32 *ids)
{
	while (argc > 0) {
		if (!strcmp(*argv, "mid")) {
			NEXT_ARG();
			ids[1] = get_id(*argv);
		} else if (!strcmp(*argv, "type")) {
			NEXT_ARG();
			p4tmpl_add_type(n, P4TC_META_SIZE, *argv);
		} else {
			fprintf(stderr, "Error: unknown metadata argument \"%s\"\n",
				*argv);
			return -1;
		}
		argc--;
		argv++;
	}
	return 0;
}

static int parse_hdrfield(int cmd, int argc, char **argv, struct nlmsghdr *n,
			  __u32 *ids)
{
	while (argc > 0) {
		if (!strcmp(*argv, "hdrfieldid")) {
			NEXT_ARG();
			ids[2] = get_id(*argv);
		} else if (!strcmp(*argv, "parserid")) {
			NEXT_ARG();
			ids[1] = get_id(*argv);
		} else if (!strcmp(*argv, "type")) {
			NEXT_ARG();
			p4tmpl_add_type(n, P4TC_HDRFIELD_DATA, *argv);
		} else if (!strcmp(*argv, "offset")) {
			__u16 v;

			NEXT_ARG();
			if (get_u16(&v, *argv, 0))
				invarg("offset must be a bit number", *argv);
			addattr16(n, MAX_MSG, P4TC_HDRFIELD_OFFSET, v);
		} else {
			fprintf(stderr, "Error: unknown hdrfield argument \"%s\"\n",
				*argv);
			return -1;
		}
		argc--;
		argv++;
	}
	return 0;
}

static void parse_u16_arg(struct nlmsghdr *n, int attr, const char *arg)
{
	__u16 v;

	if (get_u16(&v, arg, 0))
		invarg("must be a number from 0 to 65535", arg);
	addattr16(n, MAX_MSG, attr, v);
}

/* A transition as given on the command line */
struct header_trans {
	struct p4_val value;
	struct p4_val mask;
	bool has_mask;
	const char *next;
};

static int parse_header(int cmd, int argc, char **argv, struct nlmsghdr *n,
			__u32 *ids)
{
	struct header_trans trans[P4TC_MAX_TRANSITIONS + 1];
	int ntrans = 0, i;

	while (argc > 0) {
		if (!strcmp(*argv, "hdrid")) {
			NEXT_ARG();
			ids[2] = get_id(*argv);
		} else if (!strcmp(*argv, "parserid")) {
			NEXT_ARG();
			ids[1] = get_id(*argv);
		} else if (!strcmp(*argv, "len")) {
			NEXT_ARG();
			parse_u16_arg(n, P4TC_HEADER_LEN, *argv);
		} else if (!strcmp(*argv, "maxlen")) {
			NEXT_ARG();
			parse_u16_arg(n, P4TC_HEADER_MAXLEN, *argv);
		} else if (!strcmp(*argv, "lenmult")) {
			NEXT_ARG();
			parse_u16_arg(n, P4TC_HEADER_LEN_MULT, *argv);
		} else if (!strcmp(*argv, "lenadd")) {
			NEXT_ARG();
			parse_u16_arg(n, P4TC_HEADER_LEN_ADD, *argv);
		} else if (!strcmp(*argv, "lenfield")) {
			NEXT_ARG();
			addattrstrz(n, MAX_MSG, P4TC_HEADER_LEN_FIELD, *argv);
		} else if (!strcmp(*argv, "start")) {
			addattr8(n, MAX_MSG, P4TC_HEADER_START, 1);
		} else if (!strcmp(*argv, "nostart")) {
			addattr8(n, MAX_MSG, P4TC_HEADER_START, 0);
		} else if (!strcmp(*argv, "select")) {
			NEXT_ARG();
			addattrstrz(n, MAX_MSG, P4TC_HEADER_SELECT, *argv);
		} else if (!strcmp(*argv, "default")) {
			NEXT_ARG();
			addattrstrz(n, MAX_MSG, P4TC_HEADER_DEFAULT_NEXT, *argv);
		} else if (!strcmp(*argv, "transition")) {
			struct p4_type_s t = { P4T_U128, 0, 127 };
			struct header_trans *tr;
			char *slash;

			if (ntrans == ARRAY_SIZE(trans)) {
				/* one more than the kernel takes: it says so */
				fprintf(stderr, "Error: more than %zu transitions\n",
					ARRAY_SIZE(trans));
				return -1;
			}
			tr = &trans[ntrans++];
			NEXT_ARG();
			slash = strchr(*argv, '/');
			if (slash)
				*slash = '\0';
			if (p4_val_parse(*argv, &t, &tr->value))
				invarg("transition value must be a number", *argv);
			tr->has_mask = !!slash;
			if (slash && p4_val_parse(slash + 1, &t, &tr->mask))
				invarg("transition mask must be a number",
				       slash + 1);
			NEXT_ARG();
			tr->next = *argv;
		} else {
			fprintf(stderr, "Error: unknown header argument \"%s\"\n",
				*argv);
			return -1;
		}
		argc--;
		argv++;
	}
	/* the transitions are one list, wherever they stood on the line */
	if (ntrans) {
		struct rtattr *list, *one;

		list = addattr_nest(n, MAX_MSG,
				    P4TC_HEADER_TRANSITIONS | NLA_F_NESTED);
		for (i = 0; i < ntrans; i++) {
			one = addattr_nest(n, MAX_MSG, (i + 1) | NLA_F_NESTED);
			addattr_l(n, MAX_MSG, P4TC_TRANS_VALUE, &trans[i].value,
				  sizeof(trans[i].value));
			if (trans[i].has_mask)
				addattr_l(n, MAX_MSG, P4TC_TRANS_MASK,
					  &trans[i].mask, sizeof(trans[i].mask));
			addattrstrz(n, MAX_MSG, P4TC_TRANS_NEXT, trans[i].next);
			addattr_nest_end(n, one);
		}
		addattr_nest_end(n, list);
	}
	return 0;
}

static int parse_action_tmpl(int cmd, int argc, char **argv,
			     struct nlmsghdr *n, __u32 *ids)
{
	/* commands are gathered apart, as they may come between params */
	struct {
		struct nlmsghdr n;
		char buf[MAX_MSG];
	} cmds = { .n.nlmsg_len = NLMSG_LENGTH(0) };
	struct rtattr *params = NULL;
	bool active = false;
	int nparams = 0;

	while (argc > 0) {
		if (!strcmp(*argv, "cmd")) {
			if (cmds.n.nlmsg_len > NLMSG_LENGTH(0)) {
				fprintf(stderr, "Error: commands come together, one \"cmd\" each\n");
				return -1;
			}
			if (p4_cmds_parse(&argc, &argv, &cmds.n))
				return -1;
			continue;
		}
		if (!strcmp(*argv, "actid")) {
			NEXT_ARG();
			ids[1] = get_id(*argv);
		} else if (!strcmp(*argv, "param")) {
			struct rtattr *one;

			NEXT_ARG();
			if (!params)
				params = addattr_nest(n, MAX_MSG,
						      P4TC_ACT_PARMS | NLA_F_NESTED);
			one = addattr_nest(n, MAX_MSG, ++nparams | NLA_F_NESTED);
			addattrstrz(n, MAX_MSG, P4TC_ACT_PARAMS_NAME, *argv);
			NEXT_ARG();
			if (strcmp(*argv, "type"))
				invarg("expected \"type\" after the parameter name",
				       *argv);
			NEXT_ARG();
			p4tmpl_add_type(n, P4TC_ACT_PARAMS_TYPE, *argv);
			if (argc > 1 && !strcmp(argv[1], "id")) {
				NEXT_ARG();
				NEXT_ARG();
				addattr32(n, MAX_MSG, P4TC_ACT_PARAMS_ID,
					  get_id(*argv));
			}
			addattr_nest_end(n, one);
		} else if (!strcmp(*argv, "state")) {
			NEXT_ARG();
			if (strcmp(*argv, "active"))
				invarg("state can only be \"active\"", *argv);
			active = true;
		} else {
			fprintf(stderr, "Error: unknown action template argument \"%s\"\n",
				*argv);
			return -1;
		}
		argc--;
		argv++;
	}
	if (params)
		addattr_nest_end(n, params);
	if (cmds.n.nlmsg_len > NLMSG_LENGTH(0) &&
	    addraw_l(n, MAX_MSG, NLMSG_DATA(&cmds.n),
		     cmds.n.nlmsg_len - NLMSG_LENGTH(0)))
		return -1;
	if (active)
		addattr8(n, MAX_MSG, P4TC_ACT_ACTIVE, 1);
	return 0;
}

static __u32 get_u32_arg(const char *arg, const char *what)
{
	__u32 v;

	if (get_u32(&v, arg, 0))
		invarg(what, arg);
	return v;
}

static __u16 get_perm_arg(const char *arg)
{
	__u16 perm;

	if (p4_perm_parse(arg, &perm))
		invarg("permissions are CRUDXCRUDX letters or dashes, or 0x0..0x3ff",
		       arg);
	return perm;
}

/* default_hit_action / default_miss_action [ permissions P ] [ action A ] */
static int parse_table_default(int *argc_p, char ***argv_p, int attr,
			       struct nlmsghdr *n)
{
	int argc = *argc_p;
	char **argv = *argv_p;
	struct rtattr *nest;

	nest = addattr_nest(n, MAX_MSG, attr | NLA_F_NESTED);
	argc--;
	argv++;
	if (argc > 0 && !strcmp(*argv, "permissions")) {
		NEXT_ARG();
		addattr16(n, MAX_MSG, P4TC_TABLE_DEFAULT_PERMISSIONS,
			  get_perm_arg(*argv));
		argc--;
		argv++;
	}
	if (argc > 0 && !strcmp(*argv, "action")) {
		if (p4tmpl_parse_actions(&argc, &argv,
					 P4TC_TABLE_DEFAULT_ACTION, n,
					 table_words))
			return -1;
	}
	addattr_nest_end(n, nest);
	*argc_p = argc;
	*argv_p = argv;
	return 0;
}

/* table_acts [ act name PNAME/ACT [ flags tableonly | defaultonly ] ]... */
static int parse_table_acts(int *argc_p, char ***argv_p, struct nlmsghdr *n)
{
	int argc = *argc_p, i = 0;
	char **argv = *argv_p;
	struct rtattr *list, *one;

	list = addattr_nest(n, MAX_MSG, P4TC_TABLE_ACTS_LIST | NLA_F_NESTED);
	argc--;
	argv++;
	while (argc > 0 && !strcmp(*argv, "act")) {
		NEXT_ARG();
		if (strcmp(*argv, "name"))
			invarg("expected \"name\" after \"act\"", *argv);
		NEXT_ARG();
		one = addattr_nest(n, MAX_MSG, ++i | NLA_F_NESTED);
		addattrstrz(n, MAX_MSG, P4TC_TABLE_ACT_NAME, *argv);
		argc--;
		argv++;
		if (argc > 0 && !strcmp(*argv, "flags")) {
			NEXT_ARG();
			if (!strcmp(*argv, "tableonly"))
				addattr8(n, MAX_MSG, P4TC_TABLE_ACT_FLAGS,
					 P4TC_TABLE_ACT_FLAGS_TABLEONLY);
			else if (!strcmp(*argv, "defaultonly"))
				addattr8(n, MAX_MSG, P4TC_TABLE_ACT_FLAGS,
					 P4TC_TABLE_ACT_FLAGS_DEFAULTONLY);
			else
				invarg("flags are tableonly or defaultonly",
				       *argv);
			argc--;
			argv++;
		}
		addattr_nest_end(n, one);
	}
	addattr_nest_end(n, list);
	*argc_p = argc;
	*argv_p = argv;
	return 0;
}

static int parse_table(int cmd, int argc, char **argv, struct nlmsghdr *n,
		       __u32 *ids, const struct p4tmpl_path *path)
{
	struct rtattr *entries = NULL;
	int nentries = 0;

	while (argc > 0) {
		if (!strcmp(*argv, "tblid")) {
			NEXT_ARG();
			ids[1] = get_id(*argv);
		} else if (!strcmp(*argv, "keysz")) {
			NEXT_ARG();
			addattr32(n, MAX_MSG, P4TC_TABLE_KEYSZ,
				  get_u32_arg(*argv, "keysz must be a number"));
		} else if (!strcmp(*argv, "tentries")) {
			NEXT_ARG();
			addattr32(n, MAX_MSG, P4TC_TABLE_MAX_ENTRIES,
				  get_u32_arg(*argv, "tentries must be a number"));
		} else if (!strcmp(*argv, "nummasks")) {
			NEXT_ARG();
			addattr32(n, MAX_MSG, P4TC_TABLE_MAX_MASKS,
				  get_u32_arg(*argv, "nummasks must be a number"));
		} else if (!strcmp(*argv, "type")) {
			NEXT_ARG();
			if (!strcmp(*argv, "exact"))
				addattr8(n, MAX_MSG, P4TC_TABLE_TYPE,
					 P4TC_TABLE_TYPE_EXACT);
			else if (!strcmp(*argv, "lpm"))
				addattr8(n, MAX_MSG, P4TC_TABLE_TYPE,
					 P4TC_TABLE_TYPE_LPM);
			else if (!strcmp(*argv, "ternary"))
				addattr8(n, MAX_MSG, P4TC_TABLE_TYPE,
					 P4TC_TABLE_TYPE_TERNARY);
			else
				invarg("table type is exact, lpm or ternary",
				       *argv);
		} else if (!strcmp(*argv, "permissions")) {
			NEXT_ARG();
			addattr16(n, MAX_MSG, P4TC_TABLE_PERMISSIONS,
				  get_perm_arg(*argv));
		} else if (!strcmp(*argv, "key")) {
			NEXT_ARG();
			if (strcmp(*argv, "action"))
				invarg("expected \"key action ACTIONS\"", *argv);
			if (p4tmpl_parse_actions(&argc, &argv,
						 P4TC_TABLE_KEY_ACTION, n,
						 table_words))
				return -1;
			continue;
		} else if (!strcmp(*argv, "preactions") ||
			   !strcmp(*argv, "postactions")) {
			int attr = !strcmp(*argv, "preactions") ?
				   P4TC_TABLE_PREACTIONS :
				   P4TC_TABLE_POSTACTIONS;

			NEXT_ARG();
			if (p4tmpl_parse_actions(&argc, &argv, attr, n,
						 table_words))
				return -1;
			continue;
		} else if (!strcmp(*argv, "default_hit_action") ||
			   !strcmp(*argv, "default_miss_action")) {
			int attr = !strcmp(*argv, "default_hit_action") ?
				   P4TC_TABLE_DEFAULT_HIT :
				   P4TC_TABLE_DEFAULT_MISS;

			if (parse_table_default(&argc, &argv, attr, n))
				return -1;
			continue;
		} else if (!strcmp(*argv, "table_acts")) {
			if (parse_table_acts(&argc, &argv, n))
				return -1;
			continue;
		} else if (!strcmp(*argv, "entry")) {
			struct rtattr *one;

			if (!entries)
				entries = addattr_nest(n, MAX_MSG,
						       P4TC_TABLE_ENTRIES |
						       NLA_F_NESTED);
			NEXT_ARG();
			one = addattr_nest(n, MAX_MSG,
					   ++nentries | NLA_F_NESTED);
			if (p4_entry_parse(path->pname, path->name, &argc,
					   &argv, n, table_words))
				return -1;
			addattr_nest_end(n, one);
			continue;
		} else {
			fprintf(stderr, "Error: unknown table argument \"%s\"\n",
				*argv);
			return -1;
		}
		argc--;
		argv++;
	}
	if (entries)
		addattr_nest_end(n, entries);
	return 0;
}

static int p4tmpl_get_register(const struct p4tmpl_path *path, __u32 pipeid,
			       __u32 regid, struct p4tc_u_register *info);

static int parse_register(int cmd, int argc, char **argv, struct nlmsghdr *n,
			  __u32 *ids, const struct p4tmpl_path *path)
{
	struct p4tc_u_register info = {};
	bool have_type = false, have_num = false;
	const char *value = NULL;

	while (argc > 0) {
		if (!strcmp(*argv, "regid")) {
			NEXT_ARG();
			ids[1] = get_id(*argv);
		} else if (!strcmp(*argv, "type")) {
			struct p4_type_s t = {};

			NEXT_ARG();
			p4tmpl_parse_type(*argv, &t);
			info.datatype = t.typeid;
			info.startbit = t.startbit;
			info.endbit = t.endbit;
			have_type = true;
		} else if (!strcmp(*argv, "numelems")) {
			NEXT_ARG();
			if (get_u32(&info.num_elems, *argv, 0))
				invarg("numelems must be a number", *argv);
			have_num = true;
		} else if (!strcmp(*argv, "index")) {
			__u32 index;

			NEXT_ARG();
			if (get_u32(&index, *argv, 0))
				invarg("index must be a number", *argv);
			addattr32(n, MAX_MSG, P4TC_REGISTER_INDEX, index);
		} else if (!strcmp(*argv, "value")) {
			NEXT_ARG();
			value = *argv;
		} else {
			fprintf(stderr, "Error: unknown register argument \"%s\"\n",
				*argv);
			return -1;
		}
		argc--;
		argv++;
	}

	if (have_type != have_num) {
		fprintf(stderr, "Error: a register needs both type and numelems\n");
		return -1;
	}
	if (have_type)
		addattr_l(n, MAX_MSG, P4TC_REGISTER_INFO, &info, sizeof(info));

	if (value) {
		struct p4tc_u_register cur;
		struct p4_type_s rt, ct;
		__u8 buf[16] = {};
		struct p4_val v;
		int ret;

		/* the value goes in the register's container: the type given
		 * (a create, which the kernel refuses with the seed's message),
		 * or the register's own
		 */
		if (cmd == CMD_CREATE && have_type)
			cur = info;
		else if (p4tmpl_get_register(path, ids[0], ids[1], &cur))
			return -1;
		rt.typeid = cur.datatype;
		rt.startbit = cur.startbit;
		rt.endbit = cur.endbit;
		if (!strncmp(value, "constant.", 9))
			ret = p4_val_parse_constant(value, &v, &ct);
		else
			ret = p4_val_parse(value, &rt, &v);
		if (ret)
			invarg("value does not parse, or is too wide for its type",
			       value);
		if (!strncmp(value, "constant.", 9)) {
			/* the constant's bits must fit the container */
			struct p4_type_s whole = { rt.typeid, 0,
				p4_type_container_bits(rt.typeid) - 1 };
			char tmp[64];

			p4_val_format(&v, &ct, tmp, sizeof(tmp));
			if (p4_val_parse(tmp, &whole, &v))
				invarg("value is too wide for the register",
				       value);
		}
		p4_val_to_container(&v, rt.typeid, buf);
		addattr_l(n, MAX_MSG, P4TC_REGISTER_VALUE, buf,
			  p4_type_container_bits(rt.typeid) / 8);
	}
	return 0;
}

/* Printing */

static struct p4tcmsg *p4tmpl_msg(struct nlmsghdr *n, struct rtattr **tb)
{
	struct p4tcmsg *t = NLMSG_DATA(n);
	int len = n->nlmsg_len - NLMSG_LENGTH(sizeof(*t));

	if (len < 0) {
		fprintf(stderr, "Error: short P4TC template message\n");
		return NULL;
	}
	parse_rtattr_flags(tb, P4TC_ROOT_MAX, P4TC_RTA(t), len, NLA_F_NESTED);
	return t;
}

static void print_path_ids(struct rtattr *path, __u32 *ids, int n)
{
	size_t len = path ? RTA_PAYLOAD(path) : 0;

	memset(ids, 0, n * sizeof(*ids));
	if (len > n * sizeof(*ids))
		len = n * sizeof(*ids);
	if (len)
		memcpy(ids, RTA_DATA(path), len);
}

static void print_pipeline(struct rtattr *params, __u32 *ids, const char *pname)
{
	struct rtattr *tb[P4TC_PIPELINE_MAX + 1];

	parse_rtattr_nested(tb, P4TC_PIPELINE_MAX, params);
	if (tb[P4TC_PIPELINE_NAME]) {
		/* a dump: names and ids */
		print_string(PRINT_ANY, "pname", "pipeline name %s",
			     rta_getattr_str(tb[P4TC_PIPELINE_NAME]));
		print_uint(PRINT_ANY, "pipeid", " pipeid %u", ids[0]);
		print_nl();
		return;
	}
	print_string(PRINT_FP, NULL, "pipeline name %s", pname);
	print_uint(PRINT_FP, NULL, " pipeid %u", ids[0]);
	print_nl();
	print_string(PRINT_FP, NULL, "\t", NULL);
	if (tb[P4TC_PIPELINE_MAXRULES])
		print_uint(PRINT_ANY, "pmaxrules", "maxrules %u",
			   rta_getattr_u32(tb[P4TC_PIPELINE_MAXRULES]));
	if (tb[P4TC_PIPELINE_NUMTABLES])
		print_uint(PRINT_ANY, "pnumtables", " numtables %u",
			   rta_getattr_u16(tb[P4TC_PIPELINE_NUMTABLES]));
	if (tb[P4TC_PIPELINE_STATE])
		print_string(PRINT_ANY, "pstate", " state %s",
			     rta_getattr_u8(tb[P4TC_PIPELINE_STATE]) ==
			     P4TC_STATE_READY ? "ready" : "not ready");
	print_nl();
	if (tb[P4TC_PIPELINE_PREACTIONS]) {
		print_string(PRINT_FP, NULL, "\tpreactions:", NULL);
		open_json_object("preactions");
		tc_print_action(stdout, tb[P4TC_PIPELINE_PREACTIONS], 0);
		close_json_object();
		print_nl();
	}
	if (tb[P4TC_PIPELINE_POSTACTIONS]) {
		print_string(PRINT_FP, NULL, "\tpostactions:", NULL);
		open_json_object("postactions");
		tc_print_action(stdout, tb[P4TC_PIPELINE_POSTACTIONS], 0);
		close_json_object();
		print_nl();
	}
}

static void print_type_fields(const struct p4_type_s *t, const char *tkey,
			      const char *skey)
{
	char buf[64];

	p4_type_format(t, buf, sizeof(buf));
	print_string(PRINT_FP, NULL, " type %s", buf);
	print_string(PRINT_JSON, tkey, NULL, p4_type_family(t));
	print_uint(PRINT_JSON, skey, NULL, p4_type_width(t));
	if (t->startbit)
		print_uint(PRINT_JSON, "startbit", NULL, t->startbit);
}

static void print_metadata(struct rtattr *params, __u32 *ids)
{
	struct rtattr *tb[P4TC_META_MAX + 1];

	parse_rtattr_nested(tb, P4TC_META_MAX, params);
	print_string(PRINT_FP, NULL, "metadata", NULL);
	print_uint(PRINT_ANY, "mid", " mid %u", ids[1]);
	if (tb[P4TC_META_NAME])
		print_string(PRINT_ANY, "mname", " name %s",
			     rta_getattr_str(tb[P4TC_META_NAME]));
	if (tb[P4TC_META_SIZE] &&
	    RTA_PAYLOAD(tb[P4TC_META_SIZE]) >= sizeof(struct p4tc_meta_size_params)) {
		struct p4tc_meta_size_params *sz = RTA_DATA(tb[P4TC_META_SIZE]);
		struct p4_type_s t = { sz->datatype, sz->startbit, sz->endbit };

		print_type_fields(&t, "mtype", "msize");
	}
	print_nl();
}

static void print_hdrfield(struct rtattr *params, __u32 *ids)
{
	struct rtattr *tb[P4TC_HDRFIELD_MAX + 1];

	parse_rtattr_nested(tb, P4TC_HDRFIELD_MAX, params);
	print_string(PRINT_FP, NULL, "hdrfield", NULL);
	if (tb[P4TC_HDRFIELD_NAME])
		print_string(PRINT_ANY, "hdrfieldname", " name %s",
			     rta_getattr_str(tb[P4TC_HDRFIELD_NAME]));
	print_uint(PRINT_ANY, "hdrfieldid", " hdrfieldid %u", ids[2]);
	if (tb[P4TC_HDRFIELD_PARSER_NAME])
		print_string(PRINT_ANY, "parsername", " parser %s",
			     rta_getattr_str(tb[P4TC_HDRFIELD_PARSER_NAME]));
	print_uint(PRINT_ANY, "parserid", " parserid %u", ids[1]);
	if (tb[P4TC_HDRFIELD_DATA] &&
	    RTA_PAYLOAD(tb[P4TC_HDRFIELD_DATA]) >= sizeof(struct p4tc_hdrfield_ty)) {
		struct p4tc_hdrfield_ty *ty = RTA_DATA(tb[P4TC_HDRFIELD_DATA]);
		struct p4_type_s t = { ty->datatype, ty->startbit, ty->endbit };

		print_type_fields(&t, "hdrfieldtype", "hdrfieldsize");
	}
	if (tb[P4TC_HDRFIELD_OFFSET])
		print_uint(PRINT_ANY, "offset", " offset %u",
			   rta_getattr_u16(tb[P4TC_HDRFIELD_OFFSET]));
	print_nl();
}

/* Transition values: numbers in JSON, hex for people */
static void print_trans_val(const char *key, const char *fmt,
			    const struct p4_val *v, const struct p4_type_s *t)
{
	char buf[48];

	if (is_json_context()) {
		p4_val_print(key, v, t);
		return;
	}
	if (v->w[1])
		snprintf(buf, sizeof(buf), "0x%llx%016llx",
			 (unsigned long long)v->w[1], (unsigned long long)v->w[0]);
	else
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)v->w[0]);
	print_string(PRINT_FP, NULL, fmt, buf);
}

static void print_header(struct rtattr *params, __u32 *ids)
{
	struct rtattr *tb[P4TC_HEADER_MAX + 1];

	parse_rtattr_nested(tb, P4TC_HEADER_MAX, params);
	print_string(PRINT_FP, NULL, "header", NULL);
	if (tb[P4TC_HEADER_NAME])
		print_string(PRINT_ANY, "hdrname", " name %s",
			     rta_getattr_str(tb[P4TC_HEADER_NAME]));
	print_uint(PRINT_ANY, "hdrid", " hdrid %u", ids[2]);
	if (tb[P4TC_HEADER_PARSER_NAME])
		print_string(PRINT_ANY, "parsername", " parser %s",
			     rta_getattr_str(tb[P4TC_HEADER_PARSER_NAME]));
	print_uint(PRINT_ANY, "parserid", " parserid %u", ids[1]);
	if (tb[P4TC_HEADER_START] && rta_getattr_u8(tb[P4TC_HEADER_START]))
		print_bool(PRINT_ANY, "start", " start", true);
	else
		print_bool(PRINT_JSON, "start", NULL, false);
	print_nl();
	print_string(PRINT_FP, NULL, "\t", NULL);
	if (tb[P4TC_HEADER_LEN])
		print_uint(PRINT_ANY, "len", "len %u",
			   rta_getattr_u16(tb[P4TC_HEADER_LEN]));
	if (tb[P4TC_HEADER_LEN_FIELD]) {
		if (tb[P4TC_HEADER_MAXLEN])
			print_uint(PRINT_ANY, "maxlen", " maxlen %u",
				   rta_getattr_u16(tb[P4TC_HEADER_MAXLEN]));
		print_string(PRINT_ANY, "lenfield", " lenfield %s",
			     rta_getattr_str(tb[P4TC_HEADER_LEN_FIELD]));
		if (tb[P4TC_HEADER_LEN_MULT])
			print_uint(PRINT_ANY, "lenmult", " lenmult %u",
				   rta_getattr_u16(tb[P4TC_HEADER_LEN_MULT]));
		if (tb[P4TC_HEADER_LEN_ADD])
			print_uint(PRINT_ANY, "lenadd", " lenadd %u",
				   rta_getattr_u16(tb[P4TC_HEADER_LEN_ADD]));
	}
	if (tb[P4TC_HEADER_SELECT])
		print_string(PRINT_ANY, "select", " select %s",
			     rta_getattr_str(tb[P4TC_HEADER_SELECT]));
	if (tb[P4TC_HEADER_TRANSITIONS]) {
		struct rtattr *tr[P4TC_MSGBATCH_SIZE + 1];
		struct p4_type_s t = { P4T_U128, 0, 127 };
		int i;

		parse_rtattr_nested(tr, P4TC_MSGBATCH_SIZE,
				    tb[P4TC_HEADER_TRANSITIONS]);
		open_json_array(PRINT_JSON, "transitions");
		for (i = 1; i <= P4TC_MSGBATCH_SIZE && tr[i]; i++) {
			struct rtattr *a[P4TC_TRANS_MAX + 1];
			struct p4_val v;

			parse_rtattr_nested(a, P4TC_TRANS_MAX, tr[i]);
			open_json_object(NULL);
			print_string(PRINT_FP, NULL, " transition ", NULL);
			if (a[P4TC_TRANS_VALUE]) {
				memcpy(&v, RTA_DATA(a[P4TC_TRANS_VALUE]),
				       sizeof(v));
				print_trans_val("value", "%s", &v, &t);
			}
			if (a[P4TC_TRANS_MASK]) {
				memcpy(&v, RTA_DATA(a[P4TC_TRANS_MASK]),
				       sizeof(v));
				print_trans_val("mask", "/%s", &v, &t);
			}
			if (a[P4TC_TRANS_NEXT])
				print_string(PRINT_ANY, "next", " %s",
					     rta_getattr_str(a[P4TC_TRANS_NEXT]));
			close_json_object();
		}
		close_json_array(PRINT_JSON, NULL);
	}
	if (tb[P4TC_HEADER_DEFAULT_NEXT])
		print_string(PRINT_ANY, "default", " default %s",
			     rta_getattr_str(tb[P4TC_HEADER_DEFAULT_NEXT]));
	print_nl();
}

/* A register's cells (INDEX and VALUE, or VALUES), a line each */
static void print_register_elems(struct rtattr **tb,
				 const struct p4_type_s *t, const char *indent)
{
	char fmt[32];

	snprintf(fmt, sizeof(fmt), "%sindex %%u", indent);
	open_json_array(PRINT_JSON, "elements");
	if (tb[P4TC_REGISTER_INDEX] && tb[P4TC_REGISTER_VALUE]) {
		struct p4_val v;

		open_json_object(NULL);
		print_uint(PRINT_ANY, "index", fmt,
			   rta_getattr_u32(tb[P4TC_REGISTER_INDEX]));
		p4_val_from_container(RTA_DATA(tb[P4TC_REGISTER_VALUE]), t, &v);
		print_string(PRINT_FP, NULL, " value ", NULL);
		p4_val_print("value", &v, t);
		close_json_object();
		print_nl();
	} else if (tb[P4TC_REGISTER_VALUES]) {
		struct rtattr *vals[P4TC_MAX_REGISTER_ELEMS + 1];
		int i;

		parse_rtattr_nested(vals, P4TC_MAX_REGISTER_ELEMS,
				    tb[P4TC_REGISTER_VALUES]);
		for (i = 1; i <= P4TC_MAX_REGISTER_ELEMS && vals[i]; i++) {
			struct p4_val v;

			open_json_object(NULL);
			print_uint(PRINT_ANY, "index", fmt, i - 1);
			p4_val_from_container(RTA_DATA(vals[i]), t, &v);
			print_string(PRINT_FP, NULL, " value ", NULL);
			p4_val_print("value", &v, t);
			close_json_object();
			print_nl();
		}
	}
	close_json_array(PRINT_JSON, NULL);
}

/* The devices' copies of the register (an offloaded pipeline's) */
#define P4_MAX_HW_COPIES	16
static void print_register_hw(struct rtattr *nest, const struct p4_type_s *t)
{
	struct rtattr *devs[P4_MAX_HW_COPIES + 1];
	int i;

	parse_rtattr_nested(devs, P4_MAX_HW_COPIES, nest);
	open_json_array(PRINT_JSON, "hw");
	for (i = 1; i <= P4_MAX_HW_COPIES && devs[i]; i++) {
		struct rtattr *tb[P4TC_REGISTER_MAX + 1];

		parse_rtattr_nested(tb, P4TC_REGISTER_MAX, devs[i]);
		open_json_object(NULL);
		if (tb[P4TC_REGISTER_HW_DEV])
			print_string(PRINT_ANY, "device", "\tin hw %s",
				     rta_getattr_str(tb[P4TC_REGISTER_HW_DEV]));
		print_nl();
		print_register_elems(tb, t, "\t\t");
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
}

static void print_register(struct rtattr *params, __u32 *ids)
{
	struct rtattr *tb[P4TC_REGISTER_MAX + 1];
	struct p4tc_u_register *info = NULL;
	struct p4_type_s t = {};

	parse_rtattr_nested(tb, P4TC_REGISTER_MAX, params);
	print_string(PRINT_FP, NULL, "register", NULL);
	if (tb[P4TC_REGISTER_NAME])
		print_string(PRINT_ANY, "regname", " name %s",
			     rta_getattr_str(tb[P4TC_REGISTER_NAME]));
	print_uint(PRINT_ANY, "regid", " regid %u", ids[1]);
	if (tb[P4TC_REGISTER_INFO] &&
	    RTA_PAYLOAD(tb[P4TC_REGISTER_INFO]) >= sizeof(*info)) {
		char buf[64];

		info = RTA_DATA(tb[P4TC_REGISTER_INFO]);
		t.typeid = info->datatype;
		t.startbit = info->startbit;
		t.endbit = info->endbit;
		p4_type_format(&t, buf, sizeof(buf));
		print_string(PRINT_FP, NULL, " type %s", buf);
		print_string(PRINT_JSON, "containertype", NULL,
			     p4_type_name(t.typeid));
		print_uint(PRINT_JSON, "startbit", NULL, t.startbit);
		print_uint(PRINT_JSON, "endbit", NULL, t.endbit);
		print_uint(PRINT_ANY, "numelems", " numelems %u",
			   info->num_elems);
	}
	print_nl();
	if (!info)
		return;

	print_register_elems(tb, &t, "\t");
	if (tb[P4TC_REGISTER_HW])
		print_register_hw(tb[P4TC_REGISTER_HW], &t);
}

/* The parameters of an action template or, with values, of an instance */
void p4_print_act_params(struct rtattr *nest)
{
	struct rtattr *tb[P4TC_MAX_PARAMS + 1];
	int i;

	parse_rtattr_nested(tb, P4TC_MAX_PARAMS, nest);
	open_json_array(PRINT_JSON, "params");
	for (i = 1; i <= P4TC_MAX_PARAMS && tb[i]; i++) {
		struct rtattr *a[P4TC_ACT_PARAMS_MAX + 1];
		struct p4tc_meta_size_params *ty;
		struct p4_type_s t = {};
		char buf[64];

		parse_rtattr_nested(a, P4TC_ACT_PARAMS_MAX, tb[i]);
		if (!a[P4TC_ACT_PARAMS_NAME] || !a[P4TC_ACT_PARAMS_TYPE] ||
		    RTA_PAYLOAD(a[P4TC_ACT_PARAMS_TYPE]) < sizeof(*ty))
			continue;
		ty = RTA_DATA(a[P4TC_ACT_PARAMS_TYPE]);
		t.typeid = ty->datatype;
		t.startbit = ty->startbit;
		t.endbit = ty->endbit;
		open_json_object(NULL);
		print_string(PRINT_FP, NULL, "%s", _SL_);
		print_string(PRINT_ANY, "name", "\t param %s",
			     rta_getattr_str(a[P4TC_ACT_PARAMS_NAME]));
		p4_type_format(&t, buf, sizeof(buf));
		print_string(PRINT_ANY, "type", " type %s", buf);
		if (a[P4TC_ACT_PARAMS_VALUE] &&
		    RTA_PAYLOAD(a[P4TC_ACT_PARAMS_VALUE]) ==
		    p4_type_container_bits(t.typeid) / 8) {
			struct p4_val v;

			p4_val_from_container(RTA_DATA(a[P4TC_ACT_PARAMS_VALUE]),
					      &t, &v);
			print_string(PRINT_FP, NULL, " value ", NULL);
			p4_val_print("value", &v, &t);
		}
		if (a[P4TC_ACT_PARAMS_ID])
			print_uint(PRINT_ANY, "id", " id %u",
				   rta_getattr_u32(a[P4TC_ACT_PARAMS_ID]));
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
}

/* A template is named by its path, PNAME/[CB/]ANAME, as the seed's tc does. */
static void print_action_tmpl(struct rtattr *params, __u32 *ids,
			      const char *pname)
{
	struct rtattr *tb[P4TC_ACT_MAX + 1];
	bool active;

	parse_rtattr_nested(tb, P4TC_ACT_MAX, params);
	print_string(PRINT_FP, NULL, "action template", NULL);
	if (tb[P4TC_ACT_NAME]) {
		char b1[PIPELINENAMSIZ + TEMPLATENAMSZ];

		snprintf(b1, sizeof(b1), "%s/%s", pname,
			 rta_getattr_str(tb[P4TC_ACT_NAME]));
		print_string(PRINT_ANY, "aname", " name %s", b1);
	}
	print_uint(PRINT_ANY, "actid", " actid %u", ids[1]);
	active = tb[P4TC_ACT_ACTIVE] && rta_getattr_u8(tb[P4TC_ACT_ACTIVE]);
	print_string(PRINT_ANY, "state", " state %s",
		     active ? "active" : "inactive");
	if (tb[P4TC_ACT_KIND_ID])
		print_uint(PRINT_ANY, "kind_id", " kind_id %u",
			   rta_getattr_u32(tb[P4TC_ACT_KIND_ID]));
	if (tb[P4TC_ACT_PARMS])
		p4_print_act_params(tb[P4TC_ACT_PARMS]);
	if (tb[P4TC_ACT_CMDS_LIST])
		p4_cmds_print(tb[P4TC_ACT_CMDS_LIST]);
	print_nl();
}

static const char *table_type_name(int type)
{
	switch (type) {
	case P4TC_TABLE_TYPE_EXACT:
		return "exact";
	case P4TC_TABLE_TYPE_LPM:
		return "lpm";
	case P4TC_TABLE_TYPE_TERNARY:
		return "ternary";
	}
	return "unknown";
}

static void print_perm(const char *key, const char *fmt, __u16 perm)
{
	char buf[11];

	p4_perm_format(perm, buf);
	print_string(PRINT_ANY, key, fmt, buf);
}

static void print_table_acts(const char *key, const char *title,
			     struct rtattr *list)
{
	if (!list)
		return;
	print_string(PRINT_FP, NULL, "\t%s:", title);
	open_json_object(key);
	tc_print_action(stdout, list, 0);
	close_json_object();
	print_nl();
}

static void print_table_default(const char *key, const char *title,
				struct rtattr *nest)
{
	struct rtattr *tb[P4TC_TABLE_DEFAULT_MAX + 1];

	if (!nest)
		return;
	parse_rtattr_nested(tb, P4TC_TABLE_DEFAULT_MAX, nest);
	open_json_object(key);
	print_string(PRINT_FP, NULL, "\t%s", title);
	if (tb[P4TC_TABLE_DEFAULT_PERMISSIONS])
		print_perm("permissions", " permissions %s",
			   rta_getattr_u16(tb[P4TC_TABLE_DEFAULT_PERMISSIONS]));
	print_string(PRINT_FP, NULL, ":", NULL);
	if (tb[P4TC_TABLE_DEFAULT_ACTION]) {
		open_json_object("action");
		tc_print_action(stdout, tb[P4TC_TABLE_DEFAULT_ACTION], 0);
		close_json_object();
	}
	close_json_object();
	print_nl();
}

static void print_table_list(struct rtattr *list)
{
	struct rtattr *tb[P4TC_MAX_TABLE_ACTS + 1];
	int i;

	if (!list)
		return;
	parse_rtattr_nested(tb, P4TC_MAX_TABLE_ACTS, list);
	print_string(PRINT_FP, NULL, "\ttable_acts:", NULL);
	open_json_array(PRINT_JSON, "table_acts");
	for (i = 1; i <= P4TC_MAX_TABLE_ACTS && tb[i]; i++) {
		struct rtattr *a[P4TC_TABLE_ACT_MAX + 1];
		__u8 flags = 0;

		parse_rtattr_nested(a, P4TC_TABLE_ACT_MAX, tb[i]);
		if (a[P4TC_TABLE_ACT_FLAGS])
			flags = rta_getattr_u8(a[P4TC_TABLE_ACT_FLAGS]);
		open_json_object(NULL);
		if (a[P4TC_TABLE_ACT_NAME])
			print_string(PRINT_ANY, "act_name", " act %s",
				     rta_getattr_str(a[P4TC_TABLE_ACT_NAME]));
		if (flags & P4TC_TABLE_ACT_FLAGS_TABLEONLY)
			print_string(PRINT_ANY, "flags", " flags %s",
				     "tableonly");
		else if (flags & P4TC_TABLE_ACT_FLAGS_DEFAULTONLY)
			print_string(PRINT_ANY, "flags", " flags %s",
				     "defaultonly");
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
	print_nl();
}

static void print_table(struct rtattr *params, __u32 *ids)
{
	struct rtattr *tb[P4TC_TABLE_MAX + 1];

	parse_rtattr_nested(tb, P4TC_TABLE_MAX, params);
	print_string(PRINT_FP, NULL, "table", NULL);
	if (tb[P4TC_TABLE_NAME])
		print_string(PRINT_ANY, "tname", " name %s",
			     rta_getattr_str(tb[P4TC_TABLE_NAME]));
	print_uint(PRINT_ANY, "tblid", " tblid %u", ids[1]);
	if (tb[P4TC_TABLE_TYPE])
		print_string(PRINT_ANY, "type", " type %s",
			     table_type_name(rta_getattr_u8(tb[P4TC_TABLE_TYPE])));
	if (tb[P4TC_TABLE_KEYSZ])
		print_uint(PRINT_ANY, "keysz", " keysz %u",
			   rta_getattr_u32(tb[P4TC_TABLE_KEYSZ]));
	if (tb[P4TC_TABLE_MAX_ENTRIES])
		print_uint(PRINT_ANY, "max_entries", " tentries %u",
			   rta_getattr_u32(tb[P4TC_TABLE_MAX_ENTRIES]));
	if (tb[P4TC_TABLE_MAX_MASKS])
		print_uint(PRINT_ANY, "masks", " nummasks %u",
			   rta_getattr_u32(tb[P4TC_TABLE_MAX_MASKS]));
	if (tb[P4TC_TABLE_PERMISSIONS])
		print_perm("permissions", " permissions %s",
			   rta_getattr_u16(tb[P4TC_TABLE_PERMISSIONS]));
	if (tb[P4TC_TABLE_NUM_ENTRIES])
		print_uint(PRINT_ANY, "entries", " entries %u",
			   rta_getattr_u32(tb[P4TC_TABLE_NUM_ENTRIES]));
	if (tb[P4TC_TABLE_NUM_MASKS])
		print_uint(PRINT_ANY, "masks_used", " masks_used %u",
			   rta_getattr_u32(tb[P4TC_TABLE_NUM_MASKS]));
	print_nl();
	print_table_acts("key", "key action", tb[P4TC_TABLE_KEY_ACTION]);
	print_table_acts("preactions", "preactions", tb[P4TC_TABLE_PREACTIONS]);
	print_table_acts("postactions", "postactions",
			 tb[P4TC_TABLE_POSTACTIONS]);
	print_table_default("default_hit", "default_hit_action",
			    tb[P4TC_TABLE_DEFAULT_HIT]);
	print_table_default("default_miss", "default_miss_action",
			    tb[P4TC_TABLE_DEFAULT_MISS]);
	print_table_list(tb[P4TC_TABLE_ACTS_LIST]);
}

static void print_objects(int obj, struct rtattr *root, const char *pname,
			  __u32 pipeid)
{
	struct rtattr *tb[P4TC_MSGBATCH_SIZE + 1];
	int i;

	parse_rtattr_nested(tb, P4TC_MSGBATCH_SIZE, root);
	for (i = 1; i <= P4TC_MSGBATCH_SIZE && tb[i]; i++) {
		struct rtattr *a[P4TC_MAX + 1];
		__u32 ids[P4TC_PATH_MAX];

		parse_rtattr_nested(a, P4TC_MAX, tb[i]);
		print_path_ids(a[P4TC_PATH], ids + 1, P4TC_PATH_MAX - 1);
		ids[0] = 0;
		if (!a[P4TC_PARAMS])
			continue;
		open_json_object(NULL);
		switch (obj) {
		case P4TC_OBJ_PIPELINE:
			ids[0] = a[P4TC_PATH] ? ids[1] : pipeid;
			print_pipeline(a[P4TC_PARAMS], ids, pname);
			break;
		case P4TC_OBJ_META:
			print_metadata(a[P4TC_PARAMS], ids);
			break;
		case P4TC_OBJ_HDR_FIELD:
			print_hdrfield(a[P4TC_PARAMS], ids);
			break;
		case P4TC_OBJ_HEADER:
			print_header(a[P4TC_PARAMS], ids);
			break;
		case P4TC_OBJ_REGISTER:
			print_register(a[P4TC_PARAMS], ids);
			break;
		case P4TC_OBJ_ACT:
			print_action_tmpl(a[P4TC_PARAMS], ids, pname);
			break;
		case P4TC_OBJ_TABLE:
			print_table(a[P4TC_PARAMS], ids);
			break;
		}
		close_json_object();
	}
}

static void print_head(const char *pname, __u32 pipeid, int obj)
{
	open_json_object(NULL);
	if (pname && pname[0])
		print_string(PRINT_JSON, "pname", NULL, pname);
	if (pipeid || (pname && pname[0]))
		print_uint(PRINT_JSON, "pipeid", NULL, pipeid);
	print_string(PRINT_JSON, "obj", NULL, p4tmpl_obj_json(obj));
	close_json_object();
}

/* A single reply: the head object, then the templates */
static int print_p4tmpl_reply(struct nlmsghdr *n)
{
	struct rtattr *tb[P4TC_ROOT_MAX + 1];
	struct p4tcmsg *t = p4tmpl_msg(n, tb);
	const char *pname;

	if (!t)
		return -1;
	pname = tb[P4TC_ROOT_PNAME] ? rta_getattr_str(tb[P4TC_ROOT_PNAME]) : "";
	print_head(pname, t->pipeid, t->obj);
	open_json_object(NULL);
	open_json_array(PRINT_JSON, "templates");
	if (tb[P4TC_ROOT])
		print_objects(t->obj, tb[P4TC_ROOT], pname, t->pipeid);
	close_json_array(PRINT_JSON, NULL);
	close_json_object();
	return 0;
}

struct p4tmpl_dump_state {
	int obj;
	bool started;
};

/*
 * Each message of a dump opens its own head object and templates list,
 * as the seed's tc prints them: a dump of more than 16 objects is
 * [head, {templates: 16}, head, {templates: the rest}].
 */
static void dump_start(struct p4tmpl_dump_state *st, const char *pname,
		       __u32 pipeid)
{
	if (st->started) {
		close_json_array(PRINT_JSON, NULL);
		close_json_object();
	}
	st->started = true;
	print_head(st->obj == P4TC_OBJ_PIPELINE ? NULL : pname, pipeid,
		   st->obj);
	open_json_object(NULL);
	open_json_array(PRINT_JSON, "templates");
}

static int print_p4tmpl_dump(struct nlmsghdr *n, void *arg)
{
	struct p4tmpl_dump_state *st = arg;
	struct rtattr *tb[P4TC_ROOT_MAX + 1];
	struct p4tcmsg *t = p4tmpl_msg(n, tb);
	const char *pname;

	if (!t)
		return -1;
	pname = tb[P4TC_ROOT_PNAME] ? rta_getattr_str(tb[P4TC_ROOT_PNAME]) : "";
	if (!tb[P4TC_ROOT] && st->started)
		return 0;
	dump_start(st, pname, t->pipeid);
	if (tb[P4TC_ROOT])
		print_objects(t->obj, tb[P4TC_ROOT], pname, t->pipeid);
	return 0;
}

/* Requests */

static void p4tmpl_req_init(struct p4tmpl_req *req, int type, int flags,
			    const struct p4tmpl_path *path, __u32 pipeid)
{
	memset(req, 0, sizeof(*req));
	req->n.nlmsg_len = NLMSG_LENGTH(sizeof(struct p4tcmsg));
	req->n.nlmsg_type = type;
	req->n.nlmsg_flags = NLM_F_REQUEST | flags;
	req->t.obj = path->obj;
	req->t.pipeid = pipeid;
	if (path->pname[0])
		addattrstrz(&req->n, MAX_MSG, P4TC_ROOT_PNAME, path->pname);
}

/* The name attribute of each object kind, and where its parser goes */
static void p4tmpl_put_names(struct nlmsghdr *n, const struct p4tmpl_path *path)
{
	switch (path->obj) {
	case P4TC_OBJ_META:
		if (path->name[0])
			addattrstrz(n, MAX_MSG, P4TC_META_NAME, path->name);
		break;
	case P4TC_OBJ_HDR_FIELD:
		if (path->name[0])
			addattrstrz(n, MAX_MSG, P4TC_HDRFIELD_NAME, path->name);
		if (path->parser[0])
			addattrstrz(n, MAX_MSG, P4TC_HDRFIELD_PARSER_NAME,
				    path->parser);
		break;
	case P4TC_OBJ_HEADER:
		if (path->name[0])
			addattrstrz(n, MAX_MSG, P4TC_HEADER_NAME, path->name);
		if (path->parser[0])
			addattrstrz(n, MAX_MSG, P4TC_HEADER_PARSER_NAME,
				    path->parser);
		break;
	case P4TC_OBJ_REGISTER:
		if (path->name[0])
			addattrstrz(n, MAX_MSG, P4TC_REGISTER_NAME, path->name);
		break;
	case P4TC_OBJ_ACT:
		if (path->name[0])
			addattrstrz(n, MAX_MSG, P4TC_ACT_NAME, path->name);
		break;
	case P4TC_OBJ_TABLE:
		if (path->name[0])
			addattrstrz(n, MAX_MSG, P4TC_TABLE_NAME, path->name);
		break;
	}
}

/*
 * Get one object named by @path (or by @id in its pipeline): its
 * P4TC_PARAMS.  The reply is in *@ans, for the caller to free.
 */
static struct rtattr *p4tmpl_get_one(const struct p4tmpl_path *path,
				     __u32 pipeid, __u32 id,
				     struct nlmsghdr **ans)
{
	struct rtattr *tb[P4TC_ROOT_MAX + 1], *objs[2], *a[P4TC_MAX + 1];
	struct rtattr *root, *obj, *params;
	struct p4tmpl_req req;

	*ans = NULL;
	p4tmpl_req_init(&req, RTM_GETP4TEMPLATE, 0, path, pipeid);
	root = addattr_nest(&req.n, MAX_MSG, P4TC_ROOT | NLA_F_NESTED);
	obj = addattr_nest(&req.n, MAX_MSG, 1 | NLA_F_NESTED);
	if (id) {
		__u32 ids[1] = { id };

		addattr_l(&req.n, MAX_MSG, P4TC_PATH, ids, sizeof(ids));
	}
	params = addattr_nest(&req.n, MAX_MSG, P4TC_PARAMS | NLA_F_NESTED);
	p4tmpl_put_names(&req.n, path);
	addattr_nest_end(&req.n, params);
	addattr_nest_end(&req.n, obj);
	addattr_nest_end(&req.n, root);

	if (rtnl_talk(&rth, &req.n, ans) < 0)
		return NULL;
	if (!p4tmpl_msg(*ans, tb) || !tb[P4TC_ROOT])
		goto bad;
	parse_rtattr_nested(objs, 1, tb[P4TC_ROOT]);
	if (!objs[1])
		goto bad;
	parse_rtattr_nested(a, P4TC_MAX, objs[1]);
	if (!a[P4TC_PARAMS])
		goto bad;
	return a[P4TC_PARAMS];
bad:
	fprintf(stderr, "Error: malformed P4TC template reply\n");
	return NULL;
}

static int p4tmpl_get_register(const struct p4tmpl_path *path, __u32 pipeid,
			       __u32 regid, struct p4tc_u_register *info)
{
	struct rtattr *r[P4TC_REGISTER_MAX + 1];
	struct nlmsghdr *ans;
	struct rtattr *params;
	int ret = -1;

	params = p4tmpl_get_one(path, pipeid, regid, &ans);
	if (!params)
		goto out;
	parse_rtattr_nested(r, P4TC_REGISTER_MAX, params);
	if (!r[P4TC_REGISTER_INFO] ||
	    RTA_PAYLOAD(r[P4TC_REGISTER_INFO]) < sizeof(*info)) {
		fprintf(stderr, "Error: malformed register reply\n");
		goto out;
	}
	memcpy(info, RTA_DATA(r[P4TC_REGISTER_INFO]), sizeof(*info));
	ret = 0;
out:
	free(ans);
	return ret;
}

/**
 * p4_get_act_params - the parameters of action template @aname of @pname
 * @params: receives up to P4TC_MAX_PARAMS of them
 *
 * Returns the number of parameters, or -1 after printing why.
 */
static int p4_fetch_act_params(const char *pname, const char *aname,
			       struct p4_act_param *params, bool *active)
{
	struct rtattr *t[P4TC_ACT_MAX + 1], *tb[P4TC_MAX_PARAMS + 1];
	struct p4tmpl_path path = { .obj = P4TC_OBJ_ACT };
	struct rtattr *attrs;
	struct nlmsghdr *ans;
	int i, n = -1;

	if (strlen(pname) >= sizeof(path.pname) ||
	    strlen(aname) >= sizeof(path.name)) {
		fprintf(stderr, "Error: action name is too long\n");
		return -1;
	}
	strcpy(path.pname, pname);
	strcpy(path.name, aname);
	attrs = p4tmpl_get_one(&path, 0, 0, &ans);
	if (!attrs)
		goto out;
	parse_rtattr_nested(t, P4TC_ACT_MAX, attrs);
	*active = t[P4TC_ACT_ACTIVE] && rta_getattr_u8(t[P4TC_ACT_ACTIVE]);
	n = 0;
	if (!t[P4TC_ACT_PARMS])
		goto out;
	parse_rtattr_nested(tb, P4TC_MAX_PARAMS, t[P4TC_ACT_PARMS]);
	for (i = 1; i <= P4TC_MAX_PARAMS && tb[i]; i++) {
		struct rtattr *a[P4TC_ACT_PARAMS_MAX + 1];
		struct p4tc_meta_size_params *ty;
		struct p4_act_param *p = &params[n];

		parse_rtattr_nested(a, P4TC_ACT_PARAMS_MAX, tb[i]);
		if (!a[P4TC_ACT_PARAMS_NAME] || !a[P4TC_ACT_PARAMS_TYPE] ||
		    RTA_PAYLOAD(a[P4TC_ACT_PARAMS_TYPE]) < sizeof(*ty) ||
		    RTA_PAYLOAD(a[P4TC_ACT_PARAMS_NAME]) > sizeof(p->name)) {
			fprintf(stderr, "Error: malformed action template reply\n");
			n = -1;
			goto out;
		}
		ty = RTA_DATA(a[P4TC_ACT_PARAMS_TYPE]);
		strcpy(p->name, rta_getattr_str(a[P4TC_ACT_PARAMS_NAME]));
		p->type.typeid = ty->datatype;
		p->type.startbit = ty->startbit;
		p->type.endbit = ty->endbit;
		p->type.ipv6 = 0;
		n++;
	}
out:
	free(ans);
	return n;
}

/*
 * The parameters of the action kinds met so far.  An active template's
 * parameters never change, so a batch of entries or instances (tc -b)
 * asks the kernel once per kind, not once per line.
 */
struct p4_act_params_cache {
	struct p4_act_params_cache *next;
	char pname[PIPELINENAMSIZ];
	char aname[TEMPLATENAMSZ];
	int n;
	struct p4_act_param params[P4TC_MAX_PARAMS];
};

static struct p4_act_params_cache *p4_act_cache;

/* A template command may delete a kind and make it anew: forget them. */
static void p4_act_cache_flush(void)
{
	while (p4_act_cache) {
		struct p4_act_params_cache *c = p4_act_cache;

		p4_act_cache = c->next;
		free(c);
	}
}

int p4_get_act_params(const char *pname, const char *aname,
		      struct p4_act_param *params)
{
	struct p4_act_params_cache *c;
	bool active = false;
	int n;

	for (c = p4_act_cache; c; c = c->next) {
		if (!strcmp(c->pname, pname) && !strcmp(c->aname, aname)) {
			memcpy(params, c->params, c->n * sizeof(*params));
			return c->n;
		}
	}
	n = p4_fetch_act_params(pname, aname, params, &active);
	if (n < 0 || !active || strlen(pname) >= sizeof(c->pname) ||
	    strlen(aname) >= sizeof(c->aname))
		return n;
	c = calloc(1, sizeof(*c));
	if (!c)
		return n;
	strcpy(c->pname, pname);
	strcpy(c->aname, aname);
	c->n = n;
	memcpy(c->params, params, n * sizeof(*params));
	c->next = p4_act_cache;
	p4_act_cache = c;
	return n;
}

static void p4_act_cache_flush(void);

int do_p4tmpl(int argc, char **argv)
{
	struct rtattr *root, *obj, *params;
	struct p4tmpl_path path;
	__u32 ids[P4TC_PATH_MAX] = {};
	struct p4tmpl_req req;
	int cmd, type, flags = 0, ret;
	bool all, by_id;

	p4_act_cache_flush();

	if (argc < 1 || !strcmp(*argv, "help")) {
		p4tmpl_usage();
		return argc < 1 ? -1 : 0;
	}
	if (!strcmp(*argv, "create")) {
		cmd = CMD_CREATE;
		type = RTM_CREATEP4TEMPLATE;
		flags = NLM_F_CREATE | NLM_F_EXCL;
	} else if (!strcmp(*argv, "update")) {
		cmd = CMD_UPDATE;
		type = RTM_CREATEP4TEMPLATE;
		flags = NLM_F_REPLACE;
	} else if (!strcmp(*argv, "del") || !strcmp(*argv, "delete")) {
		cmd = CMD_DEL;
		type = RTM_DELP4TEMPLATE;
	} else if (!strcmp(*argv, "get") || !strcmp(*argv, "show")) {
		cmd = CMD_GET;
		type = RTM_GETP4TEMPLATE;
	} else {
		fprintf(stderr, "Error: unknown command \"%s\", try \"tc p4template help\"\n",
			*argv);
		return -1;
	}
	NEXT_ARG();
	if (p4tmpl_parse_path(*argv, &path))
		return -1;
	argc--;
	argv++;
	if (path.obj != P4TC_OBJ_PIPELINE)
		argc = p4tmpl_take_pipeid(argc, argv, ids);

	all = !path.name[0] && path.obj != P4TC_OBJ_PIPELINE;
	if (path.obj == P4TC_OBJ_PIPELINE)
		all = !path.pname[0];

	p4tmpl_req_init(&req, type, flags, &path, 0);
	root = addattr_nest(&req.n, MAX_MSG, P4TC_ROOT | NLA_F_NESTED);
	obj = addattr_nest(&req.n, MAX_MSG, 1 | NLA_F_NESTED);
	/* the path ids go before the parameters, once they are parsed */
	params = addattr_nest(&req.n, MAX_MSG, P4TC_PARAMS | NLA_F_NESTED);
	p4tmpl_put_names(&req.n, &path);

	switch (path.obj) {
	case P4TC_OBJ_PIPELINE:
		ret = parse_pipeline(cmd, argc, argv, &req.n, ids);
		break;
	case P4TC_OBJ_META:
		ret = parse_metadata(cmd, argc, argv, &req.n, ids);
		break;
	case P4TC_OBJ_HDR_FIELD:
		ret = parse_hdrfield(cmd, argc, argv, &req.n, ids);
		break;
	case P4TC_OBJ_HEADER:
		ret = parse_header(cmd, argc, argv, &req.n, ids);
		break;
	case P4TC_OBJ_ACT:
		ret = parse_action_tmpl(cmd, argc, argv, &req.n, ids);
		break;
	case P4TC_OBJ_TABLE:
		ret = parse_table(cmd, argc, argv, &req.n, ids, &path);
		break;
	default:
		ret = parse_register(cmd, argc, argv, &req.n, ids, &path);
		break;
	}
	if (ret)
		return -1;
	addattr_nest_end(&req.n, params);
	if (ids[1] || ids[2])
		addattr_l(&req.n, MAX_MSG, P4TC_PATH, &ids[1],
			  sizeof(__u32) * (ids[2] ? 2 : 1));
	addattr_nest_end(&req.n, obj);
	addattr_nest_end(&req.n, root);
	req.t.pipeid = ids[0];

	if ((cmd == CMD_CREATE || cmd == CMD_UPDATE) && all && !ids[0] &&
	    path.obj == P4TC_OBJ_PIPELINE) {
		fprintf(stderr, "Error: path names no pipeline\n");
		return -1;
	}
	/* an id names the object: a field's or header's is ids[2], ids[1]
	 * being its parser's
	 */
	if (path.obj == P4TC_OBJ_HDR_FIELD || path.obj == P4TC_OBJ_HEADER)
		by_id = ids[2];
	else
		by_id = ids[1] || ids[2];
	if ((cmd == CMD_CREATE || cmd == CMD_UPDATE) && all && !by_id &&
	    path.obj != P4TC_OBJ_PIPELINE) {
		fprintf(stderr, "Error: path names no object\n");
		return -1;
	}

	if (cmd == CMD_GET && all && !by_id &&
	    !(path.obj == P4TC_OBJ_PIPELINE && ids[0])) {
		struct p4tmpl_dump_state st = { path.obj, false };

		req.n.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
		if (rtnl_dump_request_n(&rth, &req.n) < 0) {
			perror("Cannot send dump request");
			return -1;
		}
		new_json_obj(json);
		ret = rtnl_dump_filter(&rth, print_p4tmpl_dump, &st);
		if (ret >= 0 && !st.started)
			dump_start(&st, path.pname, ids[0]);
		if (st.started) {
			close_json_array(PRINT_JSON, NULL);
			close_json_object();
		}
		delete_json_obj();
		return ret < 0 ? -1 : 0;
	}

	/* a flush, unless "del pipeline/ pipeid N" names one */
	if (cmd == CMD_DEL && all && !by_id &&
	    !(path.obj == P4TC_OBJ_PIPELINE && ids[0]))
		req.n.nlmsg_flags |= NLM_F_ROOT;

	if (cmd == CMD_GET) {
		struct nlmsghdr *ans = NULL;

		if (rtnl_talk(&rth, &req.n, &ans) < 0)
			return -1;
		new_json_obj(json);
		ret = print_p4tmpl_reply(ans);
		delete_json_obj();
		free(ans);
		return ret;
	}

	if (rtnl_talk(&rth, &req.n, NULL) < 0)
		return -1;
	return 0;
}
