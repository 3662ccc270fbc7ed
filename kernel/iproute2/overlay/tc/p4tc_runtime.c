// SPDX-License-Identifier: GPL-2.0
/*
 * tc p4runtime (tc p4): P4TC table entries.
 *
 *   tc p4 create|update|get|del PNAME/table/CB/TNAME [ KEYFIELD VALUE[/M] ]...
 *        [ prio N ] [ permissions PERM ] [ skip_sw | skip_hw ] [ verbose ]
 *        [ action ACTION ]
 *
 * Key fields are named and typed by the pipeline's introspection file,
 * $INTROSPECTION/PNAME.json (default /etc/iproute2/introspection/): tc
 * packs them in order, most significant bit first, into the key the
 * kernel matches, and a mask beside it (VALUE/N a prefix of N bits,
 * VALUE/MASK any mask; a field not given matches anything).  With no key
 * get dumps the table and del flushes it.
 */

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utils.h"
#include "tc_util.h"
#include "tc_common.h"
#include "p4tc_common.h"
#include "p4tc_json.h"

#define P4_INTROSPECTION_DIR "/etc/iproute2/introspection"
#define P4_MAX_KEYFIELDS 64

enum p4rt_cmd { RT_CREATE, RT_UPDATE, RT_DEL, RT_GET };

struct p4rt_req {
	struct nlmsghdr n;
	struct p4tcmsg t;
	char buf[MAX_MSG];
};

struct p4_keyfield {
	char name[TEMPLATENAMSZ];
	char match[16];
	struct p4_type_s type;
	unsigned int id;
	unsigned int offset;	/* bits into the key */
	unsigned int width;
};

/* What the introspection file says of one table */
struct p4_table_info {
	char pname[PIPELINENAMSIZ];
	char tname[TABLENAMSIZ];
	unsigned int id;
	unsigned int keysz;
	unsigned int nfields;
	struct p4_keyfield f[P4_MAX_KEYFIELDS];
};

static void p4rt_usage(void)
{
	fprintf(stderr,
		"Usage: tc p4runtime { create | update | get | del } TABLE\n"
		"               [ KEYFIELD VALUE[/PREFIXLEN|/MASK] ]... [ prio N ]\n"
		"               [ permissions PERM ] [ skip_sw | skip_hw ] [ verbose ]\n"
		"               [ action ACTION ]\n"
		"Key fields come from $INTROSPECTION/PNAME.json (default "
		P4_INTROSPECTION_DIR ").\n"
		"get and del with no key dump and flush the table.\n"
		"TABLE := PNAME/table/CB/TNAME [ pipeid N ] [ tblid M ] |\n"
		"         PNAME/table/ tblid M | pipeid N tblid M\n"
		"PERM := CRUDXCRUDX (letters or -: control plane, then datapath) | 0xNNN\n");
}

/* ------------------------------------------------------------------ */
/* Introspection                                                       */
/* ------------------------------------------------------------------ */

static int ti_fail(const char *path, const char *what)
{
	fprintf(stderr, "Error: introspection %s: %s\n", path, what);
	return -1;
}

static int ti_field(const struct p4_json *jf, struct p4_keyfield *f,
		    const char *path)
{
	const char *name = p4_json_get_str(jf, "name");
	const char *type = p4_json_get_str(jf, "type");
	const char *match = p4_json_get_str(jf, "match_type");
	long long id = 0, width = 0;

	if (!name || !type || strlen(name) >= sizeof(f->name))
		return ti_fail(path, "a key field lacks a name or type");
	strcpy(f->name, name);
	if (p4_type_parse(type, &f->type)) {
		fprintf(stderr, "Error: introspection %s: key field %s has unknown type \"%s\"\n",
			path, name, type);
		return -1;
	}
	snprintf(f->match, sizeof(f->match), "%s", match ?: "exact");
	p4_json_get_int(jf, "id", &id);
	f->id = id;
	if (p4_json_get_int(jf, "bitwidth", &width))
		width = p4_type_width(&f->type);
	if (width < 1 || width > 128 ||
	    (unsigned int)width > p4_type_width(&f->type)) {
		fprintf(stderr, "Error: introspection %s: key field %s: bitwidth %lld does not fit its type\n",
			path, name, width);
		return -1;
	}
	f->width = width;
	return 0;
}

static int p4_table_info_load(const char *pname, const char *tname,
			      struct p4_table_info *ti)
{
	const struct p4_json *tables, *t, *jf;
	const char *dir = getenv("INTROSPECTION");
	struct p4_json *doc;
	const char *err;
	char path[PATH_MAX];
	long long v;
	int ret = -1;

	if (!strcmp(ti->pname, pname) && !strcmp(ti->tname, tname))
		return 0;
	memset(ti, 0, sizeof(*ti));
	snprintf(path, sizeof(path), "%s/%s.json", dir ?: P4_INTROSPECTION_DIR,
		 pname);
	doc = p4_json_parse_file(path, &err);
	if (!doc)
		return ti_fail(path, err);

	tables = p4_json_get(doc, "tables");
	p4_json_for_each(t, tables) {
		const char *name = p4_json_get_str(t, "name");

		if (name && !strcmp(name, tname))
			break;
	}
	if (!t) {
		fprintf(stderr, "Error: introspection %s has no table \"%s\"\n",
			path, tname);
		goto out;
	}
	if (!p4_json_get_int(t, "id", &v))
		ti->id = v;
	p4_json_for_each(jf, p4_json_get(t, "keyfields")) {
		struct p4_keyfield *f = &ti->f[ti->nfields];

		if (ti->nfields == P4_MAX_KEYFIELDS) {
			ti_fail(path, "too many key fields");
			goto out;
		}
		if (ti_field(jf, f, path))
			goto out;
		f->offset = ti->keysz;
		ti->keysz += f->width;
		ti->nfields++;
	}
	if (!p4_json_get_int(t, "keysize", &v)) {
		if (v < ti->keysz || v > P4TC_MAX_KEYSZ) {
			ti_fail(path, "keysize is not the sum of the key fields");
			goto out;
		}
		ti->keysz = v;
	}
	if (!ti->nfields || !ti->keysz) {
		ti_fail(path, "table has no key fields");
		goto out;
	}
	snprintf(ti->pname, sizeof(ti->pname), "%s", pname);
	snprintf(ti->tname, sizeof(ti->tname), "%s", tname);
	ret = 0;
out:
	p4_json_free(doc);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Keys: fields packed most significant bit first                      */
/* ------------------------------------------------------------------ */

static bool val_bit(const struct p4_val *v, unsigned int b)
{
	return (v->w[b / 64] >> (b % 64)) & 1;
}

static void bits_put(__u8 *buf, unsigned int off, unsigned int width,
		     const struct p4_val *v)
{
	unsigned int i, pos;

	for (i = 0; i < width; i++) {
		pos = off + i;
		if (val_bit(v, width - 1 - i))
			buf[pos / 8] |= 0x80 >> (pos % 8);
		else
			buf[pos / 8] &= ~(0x80 >> (pos % 8));
	}
}

static void bits_get(const __u8 *buf, unsigned int off, unsigned int width,
		     struct p4_val *v)
{
	unsigned int i, pos, b;

	memset(v, 0, sizeof(*v));
	for (i = 0; i < width; i++) {
		pos = off + i;
		b = width - 1 - i;
		if (buf[pos / 8] & (0x80 >> (pos % 8)))
			v->w[b / 64] |= 1ULL << (b % 64);
	}
}

static bool val_fits(const struct p4_val *v, unsigned int bits)
{
	if (bits >= 128)
		return true;
	if (bits >= 64)
		return !(v->w[1] >> (bits - 64));
	return !v->w[1] && !(v->w[0] >> bits);
}

/* The @len high bits of a @width-bit field set */
static void val_prefix(struct p4_val *m, unsigned int width, unsigned int len)
{
	unsigned int i, b;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < len; i++) {
		b = width - 1 - i;
		m->w[b / 64] |= 1ULL << (b % 64);
	}
}

/* VALUE, VALUE/PREFIXLEN or VALUE/MASK of field @f. */
static int field_parse(const struct p4_keyfield *f, char *arg,
		       struct p4_val *v, struct p4_val *m)
{
	char *slash = strchr(arg, '/');
	char tname[64];
	int ret = 0;

	p4_type_format(&f->type, tname, sizeof(tname));
	if (slash)
		*slash = '\0';
	if (p4_val_parse(arg, &f->type, v) || !val_fits(v, f->width)) {
		fprintf(stderr, "Error: \"%s\" is not a %u-bit %s value of key field %s\n",
			arg, f->width, tname, f->name);
		ret = -1;
		goto out;
	}
	val_prefix(m, f->width, f->width);
	if (!slash)
		goto out;
	/*
	 * A mask on a field the introspection file calls exact is the
	 * kernel's to refuse, for an exact table: the seed's untyped
	 * tables take masks on every field.
	 */
	if (strspn(slash + 1, "0123456789") == strlen(slash + 1) &&
	    slash[1]) {
		unsigned int len = atoi(slash + 1);

		if (len > f->width) {
			fprintf(stderr, "Error: prefix /%u is longer than key field %s (%u bits)\n",
				len, f->name, f->width);
			ret = -1;
			goto out;
		}
		val_prefix(m, f->width, len);
	} else if (p4_val_parse(slash + 1, &f->type, m) ||
		   !val_fits(m, f->width)) {
		fprintf(stderr, "Error: \"%s\" is not a mask of key field %s\n",
			slash + 1, f->name);
		ret = -1;
	}
out:
	if (slash)
		*slash = '/';
	return ret;
}

static bool is_stop(const char *arg, const char * const *stop)
{
	for (; stop && *stop; stop++)
		if (!strcmp(arg, *stop))
			return true;
	return false;
}

static struct p4_table_info p4_ti;

/**
 * p4_entry_parse - parse an entry's key, priority, permissions and action
 *
 * Up to the end or a word of @stop.  Return: 1 with a key, 0 without one,
 * -1 on error.
 */
static bool is_entry_flag(const char *w)
{
	return !strcmp(w, "skip_sw") || !strcmp(w, "skip_hw") ||
	       !strcmp(w, "verbose");
}

static int __p4_entry_parse(const char *pname, const char *tname,
			    int *argc_p, char ***argv_p, struct nlmsghdr *n,
			    const char * const *stop)
{
	__u8 key[P4TC_MAX_KEYSZ / 8] = {}, mask[P4TC_MAX_KEYSZ / 8] = {};
	bool given[P4_MAX_KEYFIELDS] = {};
	struct p4_table_info *ti = &p4_ti;
	int argc = *argc_p, nkeys = 0, count, err;
	char **argv = *argv_p, **end, *saved;
	__u32 flags = 0;
	unsigned int i;

	if (p4_table_info_load(pname, tname, ti))
		return -1;

	while (argc > 0 && !is_stop(*argv, stop)) {
		if (!strcmp(*argv, "prio")) {
			__u32 prio;

			NEXT_ARG();
			if (get_u32(&prio, *argv, 0) || !prio)
				invarg("prio is a number from 1", *argv);
			addattr32(n, MAX_MSG, P4TC_ENTRY_PRIO, prio);
		} else if (!strcmp(*argv, "permissions")) {
			__u16 perm;

			NEXT_ARG();
			if (p4_perm_parse(*argv, &perm))
				invarg("permissions are CRUDXCRUDX letters or dashes, or 0x0..0x3ff",
				       *argv);
			addattr16(n, MAX_MSG, P4TC_ENTRY_PERMISSIONS, perm);
		} else if (!strcmp(*argv, "skip_sw")) {
			flags |= TCA_CLS_FLAGS_SKIP_SW;
		} else if (!strcmp(*argv, "skip_hw")) {
			flags |= TCA_CLS_FLAGS_SKIP_HW;
		} else if (!strcmp(*argv, "verbose")) {
			flags |= TCA_CLS_FLAGS_VERBOSE;
		} else if (!strcmp(*argv, "action")) {
			/* the action runs to the end, the next stop word or
			 * the entry's flags, which may follow it
			 */
			for (count = 0; count < argc; count++)
				if (is_stop(argv[count], stop) ||
				    is_entry_flag(argv[count]))
					break;
			argc -= count;
			/* tc's parse_action looks past its count for action
			 * flags (skip_sw after an action is the entry's here):
			 * it sees the words up to @count only
			 */
			end = argv + count;
			saved = *end;
			*end = NULL;
			err = parse_action(&count, &argv,
					   P4TC_ENTRY_ACT | NLA_F_NESTED, n);
			*end = saved;
			if (err) {
				fprintf(stderr, "Error: bad entry action\n");
				return -1;
			}
			if (count) {
				fprintf(stderr, "Error: unexpected \"%s\" after the entry action\n",
					*argv);
				return -1;
			}
			continue;
		} else {
			struct p4_val v, m;

			for (i = 0; i < ti->nfields; i++)
				if (!strcmp(ti->f[i].name, *argv))
					break;
			if (i == ti->nfields) {
				fprintf(stderr, "Error: table %s has no key field \"%s\"\n",
					tname, *argv);
				return -1;
			}
			if (given[i]) {
				fprintf(stderr, "Error: key field %s given twice\n",
					*argv);
				return -1;
			}
			NEXT_ARG();
			if (field_parse(&ti->f[i], *argv, &v, &m))
				return -1;
			bits_put(key, ti->f[i].offset, ti->f[i].width, &v);
			bits_put(mask, ti->f[i].offset, ti->f[i].width, &m);
			given[i] = true;
			nkeys++;
		}
		argc--;
		argv++;
	}
	if (nkeys) {
		addattr_l(n, MAX_MSG, P4TC_ENTRY_KEY_BLOB, key,
			  (ti->keysz + 7) / 8);
		addattr_l(n, MAX_MSG, P4TC_ENTRY_MASK_BLOB, mask,
			  (ti->keysz + 7) / 8);
	}
	/* an update takes the flags it gives, none included, as a flower
	 * filter's replace does
	 */
	if (flags || (n->nlmsg_flags & NLM_F_REPLACE))
		addattr32(n, MAX_MSG, P4TC_ENTRY_FLAGS, flags);
	addattr8(n, MAX_MSG, P4TC_ENTRY_WHODUNNIT, P4TC_ENTITY_TC);
	*argc_p = argc;
	*argv_p = argv;
	return nkeys ? 1 : 0;
}

int p4_entry_parse(const char *pname, const char *tname, int *argc_p,
		   char ***argv_p, struct nlmsghdr *n, const char * const *stop)
{
	return __p4_entry_parse(pname, tname, argc_p, argv_p, n, stop) < 0 ?
	       -1 : 0;
}

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

static const char *who_name(unsigned int who)
{
	static const char * const names[] = {
		[P4TC_ENTITY_UNSPEC] = "unspec",
		[P4TC_ENTITY_KERNEL] = "kernel",
		[P4TC_ENTITY_TC] = "tc",
		[P4TC_ENTITY_TIMER] = "timer",
	};

	return who < ARRAY_SIZE(names) ? names[who] : "unknown";
}

/* The prefix length of a field mask, or -1 when it is no prefix. */
static int mask_prefix_len(const struct p4_val *m, unsigned int width)
{
	unsigned int i = 0, j;

	while (i < width && val_bit(m, width - 1 - i))
		i++;
	for (j = i; j < width; j++)
		if (val_bit(m, width - 1 - j))
			return -1;
	return i;
}

static void print_key_raw(const char *name, const __u8 *b, int len)
{
	char buf[2 * P4TC_MAX_KEYSZ / 8 + 3];
	int i;

	strcpy(buf, "0x");
	for (i = 0; i < len && i < P4TC_MAX_KEYSZ / 8; i++)
		sprintf(buf + 2 + 2 * i, "%02x", b[i]);
	print_string(PRINT_ANY, name, " %s", buf);
}

static void print_entry_key(const char *pname, const char *tname,
			    struct rtattr *kattr, struct rtattr *mattr)
{
	struct p4_table_info *ti = &p4_ti;
	const __u8 *key = RTA_DATA(kattr), *mask;
	int len = RTA_PAYLOAD(kattr);
	unsigned int i;

	print_string(PRINT_FP, NULL, "\tkey", NULL);
	if (!mattr || (int)RTA_PAYLOAD(mattr) != len ||
	    p4_table_info_load(pname, tname, ti) ||
	    (int)(ti->keysz + 7) / 8 != len) {
		print_key_raw("key_blob", key, len);
		if (mattr)
			print_key_raw("mask_blob", RTA_DATA(mattr),
				      RTA_PAYLOAD(mattr));
		print_nl();
		return;
	}
	mask = RTA_DATA(mattr);
	open_json_array(PRINT_JSON, "key");
	for (i = 0; i < ti->nfields; i++) {
		const struct p4_keyfield *f = &ti->f[i];
		struct p4_val v, m;
		char tname_buf[64];
		int plen;

		bits_get(key, f->offset, f->width, &v);
		bits_get(mask, f->offset, f->width, &m);
		if (!m.w[0] && !m.w[1])
			continue;	/* matches anything */
		p4_type_format(&f->type, tname_buf, sizeof(tname_buf));
		open_json_object(NULL);
		print_string(PRINT_ANY, "keyfield", " %s", f->name);
		print_uint(PRINT_JSON, "id", NULL, f->id);
		print_uint(PRINT_JSON, "width", NULL, f->width);
		print_string(PRINT_JSON, "type", NULL, tname_buf);
		print_string(PRINT_JSON, "match_type", NULL, f->match);
		print_string(PRINT_FP, NULL, " ", NULL);
		p4_val_print("fieldval", &v, &f->type);
		plen = mask_prefix_len(&m, f->width);
		if (plen != (int)f->width) {
			if (plen >= 0) {
				print_uint(PRINT_ANY, "prefix_len", "/%u", plen);
			} else {
				print_string(PRINT_FP, NULL, "/", NULL);
				p4_val_print("fieldmask", &m, &f->type);
			}
		}
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
	print_nl();
}

static void print_entry(const char *pname, struct rtattr *params, __u32 tblid)
{
	struct rtattr *tb[P4TC_ENTRY_MAX + 1];
	const char *tname = "";
	char perm[11];

	parse_rtattr_nested(tb, P4TC_ENTRY_MAX, params);
	if (tb[P4TC_ENTRY_TBLNAME])
		tname = rta_getattr_str(tb[P4TC_ENTRY_TBLNAME]);
	open_json_object(NULL);
	print_string(PRINT_FP, NULL, "table %s", tname);
	print_uint(PRINT_ANY, "tblid", " tblid %u", tblid);
	if (tb[P4TC_ENTRY_PRIO])
		print_uint(PRINT_ANY, "prio", " prio %u",
			   rta_getattr_u32(tb[P4TC_ENTRY_PRIO]));
	if (tb[P4TC_ENTRY_PERMISSIONS]) {
		p4_perm_format(rta_getattr_u16(tb[P4TC_ENTRY_PERMISSIONS]),
			       perm);
		print_string(PRINT_ANY, "permissions", " permissions %s", perm);
	}
	if (tb[P4TC_ENTRY_CREATE_WHODUNNIT])
		print_string(PRINT_ANY, "create_whodunnit",
			     " create_whodunnit %s",
			     who_name(rta_getattr_u8(tb[P4TC_ENTRY_CREATE_WHODUNNIT])));
	if (tb[P4TC_ENTRY_UPDATE_WHODUNNIT])
		print_string(PRINT_ANY, "update_whodunnit",
			     " update_whodunnit %s",
			     who_name(rta_getattr_u8(tb[P4TC_ENTRY_UPDATE_WHODUNNIT])));
	if (tb[P4TC_ENTRY_FLAGS]) {
		__u32 flags = rta_getattr_u32(tb[P4TC_ENTRY_FLAGS]);

		if (flags & TCA_CLS_FLAGS_SKIP_HW)
			print_bool(PRINT_ANY, "skip_hw", " skip_hw", true);
		if (flags & TCA_CLS_FLAGS_SKIP_SW)
			print_bool(PRINT_ANY, "skip_sw", " skip_sw", true);
		if (flags & TCA_CLS_FLAGS_IN_HW) {
			print_bool(PRINT_ANY, "in_hw", " in_hw", true);
			if (tb[P4TC_ENTRY_IN_HW_COUNT])
				print_uint(PRINT_ANY, "in_hw_count",
					   " in_hw_count %u",
					   rta_getattr_u32(tb[P4TC_ENTRY_IN_HW_COUNT]));
		} else if (flags & TCA_CLS_FLAGS_NOT_IN_HW) {
			print_bool(PRINT_ANY, "not_in_hw", " not_in_hw", true);
		}
	}
	print_nl();
	if (tb[P4TC_ENTRY_KEY_BLOB])
		print_entry_key(pname, tname, tb[P4TC_ENTRY_KEY_BLOB],
				tb[P4TC_ENTRY_MASK_BLOB]);
	if (tb[P4TC_ENTRY_ACT]) {
		print_string(PRINT_FP, NULL, "\taction:", NULL);
		open_json_object("action");
		tc_print_action(stdout, tb[P4TC_ENTRY_ACT], 0);
		close_json_object();
		print_nl();
	}
	if (show_stats && tb[P4TC_ENTRY_STATS] &&
	    RTA_PAYLOAD(tb[P4TC_ENTRY_STATS]) >=
	    sizeof(struct p4tc_table_entry_stats)) {
		struct p4tc_table_entry_stats st;

		memcpy(&st, RTA_DATA(tb[P4TC_ENTRY_STATS]), sizeof(st));
		open_json_object("stats");
		print_lluint(PRINT_ANY, "packets", "\thit %llu packets",
			     st.packets);
		print_lluint(PRINT_ANY, "bytes", " %llu bytes", st.bytes);
		close_json_object();
		if (tb[P4TC_ENTRY_TM] &&
		    RTA_PAYLOAD(tb[P4TC_ENTRY_TM]) >=
		    sizeof(struct p4tc_table_entry_tm)) {
			struct p4tc_table_entry_tm tm;
			int hz = get_user_hz();

			memcpy(&tm, RTA_DATA(tb[P4TC_ENTRY_TM]), sizeof(tm));
			open_json_object("tm");
			print_lluint(PRINT_ANY, "created", ", created %llu sec",
				     tm.created / hz);
			print_lluint(PRINT_ANY, "lastused", " used %llu sec",
				     tm.lastused / hz);
			if (tm.firstused)
				print_lluint(PRINT_ANY, "firstused",
					     " firstused %llu sec",
					     tm.firstused / hz);
			close_json_object();
		}
		print_nl();
	}
	close_json_object();
}

static void print_entries(const char *pname, struct rtattr *root)
{
	struct rtattr *tb[P4TC_MSGBATCH_SIZE + 1];
	int i;

	parse_rtattr_nested(tb, P4TC_MSGBATCH_SIZE, root);
	for (i = 1; i <= P4TC_MSGBATCH_SIZE && tb[i]; i++) {
		struct rtattr *a[P4TC_MAX + 1];
		__u32 tblid = 0;

		parse_rtattr_nested(a, P4TC_MAX, tb[i]);
		if (a[P4TC_PATH] && RTA_PAYLOAD(a[P4TC_PATH]) >= sizeof(__u32))
			tblid = *(__u32 *)RTA_DATA(a[P4TC_PATH]);
		if (a[P4TC_PARAMS])
			print_entry(pname, a[P4TC_PARAMS], tblid);
	}
}

struct p4rt_print_state {
	bool started;
};

/*
 * The head, then the entries.  In JSON each message of a dump has its
 * own head and entries list, as the seed's tc prints them; the text has
 * one head line.
 */
static void print_start(struct p4rt_print_state *st, const char *pname,
			__u32 pipeid)
{
	bool first = !st->started;

	if (!first) {
		if (!is_json_context())
			return;
		close_json_array(PRINT_JSON, NULL);
		close_json_object();
	}
	st->started = true;
	open_json_object(NULL);
	print_string(PRINT_ANY, "pname", "pipeline %s", pname);
	print_uint(PRINT_ANY, "pipeid", " pipeid %u", pipeid);
	close_json_object();
	print_nl();
	open_json_object(NULL);
	open_json_array(PRINT_JSON, "entries");
}

static void print_end(struct p4rt_print_state *st)
{
	if (!st->started)
		return;
	close_json_array(PRINT_JSON, NULL);
	close_json_object();
}

static int print_p4rt_msg(struct nlmsghdr *n, void *arg)
{
	struct p4rt_print_state *st = arg;
	struct rtattr *tb[P4TC_ROOT_MAX + 1];
	struct p4tcmsg *t = NLMSG_DATA(n);
	int len = n->nlmsg_len - NLMSG_LENGTH(sizeof(*t));
	const char *pname;

	if (len < 0) {
		fprintf(stderr, "Error: short P4TC runtime message\n");
		return -1;
	}
	parse_rtattr_flags(tb, P4TC_ROOT_MAX, P4TC_RTA(t), len, NLA_F_NESTED);
	pname = tb[P4TC_ROOT_PNAME] ? rta_getattr_str(tb[P4TC_ROOT_PNAME]) : "";
	if (!tb[P4TC_ROOT] && st->started)
		return 0;
	print_start(st, pname, t->pipeid);
	if (tb[P4TC_ROOT])
		print_entries(pname, tb[P4TC_ROOT]);
	return 0;
}

/* ------------------------------------------------------------------ */
/* The command                                                         */
/* ------------------------------------------------------------------ */

/* The introspection file in @dir of pipeline id @pipeid; its name in @pname. */
static struct p4_json *p4rt_file_of_pipeid(const char *dir, __u32 pipeid,
					   char *pname)
{
	struct p4_json *doc = NULL;
	char path[PATH_MAX];
	struct dirent *de;
	const char *err;
	long long v;
	DIR *d;

	d = opendir(dir);
	if (!d) {
		fprintf(stderr, "Error: introspection directory %s: %s\n", dir,
			strerror(errno));
		return NULL;
	}
	while (!doc && (de = readdir(d))) {
		size_t n = strlen(de->d_name);
		const char *name;

		if (n < 6 || strcmp(de->d_name + n - 5, ".json"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		doc = p4_json_parse_file(path, &err);
		name = doc ? p4_json_get_str(doc, "pipeline_name") : NULL;
		if (name && strlen(name) < PIPELINENAMSIZ &&
		    !p4_json_get_int(doc, "id", &v) && v == pipeid) {
			strcpy(pname, name);
		} else {
			p4_json_free(doc);
			doc = NULL;
		}
	}
	closedir(d);
	if (!doc)
		fprintf(stderr, "Error: no introspection file in %s is of pipeline id %u\n",
			dir, pipeid);
	return doc;
}

/*
 * The seed's scripts may name the pipeline and the table by id: the
 * pipeline of id @pipeid (unless @pname names it) and its table of id
 * @tblid (unless @tname names it), by the introspection files.  Ids given
 * with names must be theirs.
 */
static int p4rt_resolve_ids(__u32 pipeid, __u32 tblid, char *pname,
			    char *tname)
{
	const char *dir = getenv("INTROSPECTION") ?: P4_INTROSPECTION_DIR;
	const struct p4_json *t;
	char path[PATH_MAX];
	struct p4_json *doc;
	const char *name;
	const char *err;
	long long v;
	int ret = -1;

	if (!pname[0]) {
		doc = p4rt_file_of_pipeid(dir, pipeid, pname);
		if (!doc)
			return -1;
	} else {
		snprintf(path, sizeof(path), "%s/%s.json", dir, pname);
		doc = p4_json_parse_file(path, &err);
		if (!doc)
			return ti_fail(path, err);
		if (pipeid && (p4_json_get_int(doc, "id", &v) || v != pipeid)) {
			fprintf(stderr, "Error: pipeline %s is not of id %u\n",
				pname, pipeid);
			goto out;
		}
	}
	if (!tblid) {
		ret = 0;
		goto out;
	}
	p4_json_for_each(t, p4_json_get(doc, "tables")) {
		name = p4_json_get_str(t, "name");
		if (name && !p4_json_get_int(t, "id", &v) && v == tblid)
			break;
	}
	if (!t || strlen(name) >= TABLENAMSIZ)
		fprintf(stderr, "Error: pipeline %s has no table of id %u\n",
			pname, tblid);
	else if (tname[0] && strcmp(tname, name))
		fprintf(stderr, "Error: table %s is not of id %u\n", tname,
			tblid);
	else {
		strcpy(tname, name);	/* the same, when it was given */
		ret = 0;
	}
out:
	p4_json_free(doc);
	return ret;
}

/* PNAME/table/CB/TNAME, or PNAME/TNAME as the seed series wrote it */
static int p4rt_parse_path(const char *str, char *pname, char *tname)
{
	const char *slash = strchr(str, '/');
	const char *rest;

	if (!slash || slash == str || !slash[1] ||
	    slash - str >= PIPELINENAMSIZ) {
		fprintf(stderr, "Error: \"%s\" is not PNAME/table/CB/TNAME\n",
			str);
		return -1;
	}
	memcpy(pname, str, slash - str);
	pname[slash - str] = '\0';
	rest = slash + 1;
	if (!strncmp(rest, "table/", 6))
		rest += 6;
	else if (!strcmp(rest, "table"))
		rest += 5;
	/* no table name: "tblid M" names it */
	if (strlen(rest) >= TABLENAMSIZ) {
		fprintf(stderr, "Error: \"%s\" names no table\n", str);
		return -1;
	}
	strcpy(tname, rest);
	return 0;
}

/* "pipeid N" and "tblid M" where the table is named: taken out of argv */
static int p4rt_take_ids(int *argc_p, char ***argv_p, __u32 *pipeid,
			 __u32 *tblid)
{
	char **argv = *argv_p;
	int argc = *argc_p;

	while (argc >= 2 && (!strcmp(*argv, "pipeid") ||
			     !strcmp(*argv, "tblid"))) {
		__u32 *id = !strcmp(*argv, "pipeid") ? pipeid : tblid;

		if (get_u32(id, argv[1], 0) || !*id) {
			fprintf(stderr, "Error: illegal %s \"%s\"\n", *argv,
				argv[1]);
			return -1;
		}
		argc -= 2;
		argv += 2;
	}
	*argc_p = argc;
	*argv_p = argv;
	return 0;
}

/* tc -b: consecutive creates, updates or deletes by key in one pipeline
 * go to the kernel P4TC_MSGBATCH_SIZE to a message, which the kernel
 * applies whole or not at all.  When it refuses one, its lines are sent
 * again one by one: the lines before the faulty one are applied, the
 * faulty one says its error and its line number, as without grouping.
 */
struct p4rt_line {
	int lineno;
	int argc;
	char **argv;
};

struct p4rt_group {
	struct p4rt_req req;
	struct rtattr *root;
	int type;
	int flags;
	char pname[PIPELINENAMSIZ];
	int n;
	struct p4rt_line lines[P4TC_MSGBATCH_SIZE];
};

static struct p4rt_group *group;
static bool replaying;
static const char *batch_name = "-";
bool p4rt_batch_failed;

/* tc -b FILE starts: FILE names the faulty lines */
void p4rt_batch_begin(const char *name)
{
	batch_name = name ?: "-";
	p4rt_batch_failed = false;
}

static void group_free_lines(void)
{
	int i, j;

	for (i = 0; i < group->n; i++) {
		for (j = 0; j < group->lines[i].argc; j++)
			free(group->lines[i].argv[j]);
		free(group->lines[i].argv);
	}
	group->n = 0;
}

static int do_p4runtime_one(int argc, char **argv);

/**
 * p4rt_batch_flush - send the entries tc -b has grouped
 *
 * Return: 0, or -1 with cmdlineno set to the faulty line.  With -force
 * every faulty line is reported here ("Command failed FILE:LINE"), 0 is
 * returned and p4rt_batch_failed is set.
 */
int p4rt_batch_flush(void)
{
	int i, ret = 0, line = cmdlineno;

	if (!group || !group->n)
		return 0;
	addattr_nest_end(&group->req.n, group->root);
	if (rtnl_talk_suppress_rtnl_errmsg(&rth, &group->req.n, NULL) >= 0) {
		group_free_lines();
		return 0;
	}
	replaying = true;
	for (i = 0; i < group->n; i++) {
		cmdlineno = group->lines[i].lineno;
		if (!do_p4runtime_one(group->lines[i].argc,
				      group->lines[i].argv))
			continue;
		if (!force) {
			ret = -1;
			break;
		}
		fprintf(stderr, "Command failed %s:%d\n", batch_name, cmdlineno);
		p4rt_batch_failed = true;
	}
	replaying = false;
	group_free_lines();
	if (!ret)
		cmdlineno = line;
	return ret;
}

/* Keep a copy of a line, to send it again alone. */
static int group_keep_line(int argc, char **argv)
{
	struct p4rt_line *l = &group->lines[group->n];
	int i;

	l->argv = calloc(argc, sizeof(*l->argv));
	if (!l->argv)
		return -1;
	for (i = 0; i < argc; i++) {
		l->argv[i] = strdup(argv[i]);
		if (!l->argv[i]) {
			while (i--)
				free(l->argv[i]);
			free(l->argv);
			return -1;
		}
	}
	l->argc = argc;
	l->lineno = cmdlineno;
	return 0;
}

/* Add one entry's object (built in @req) to the group: 0 when grouped. */
static int group_add(struct p4rt_req *req, struct rtattr *obj,
		     const char *pname, int argc, char **argv)
{
	struct rtattr *copy;

	if (!group) {
		group = calloc(1, sizeof(*group));
		if (!group)
			return -1;
	}
	if (group->n &&
	    (group->type != req->n.nlmsg_type ||
	     group->flags != req->n.nlmsg_flags ||
	     strcmp(group->pname, pname) ||
	     NLMSG_ALIGN(group->req.n.nlmsg_len) + RTA_ALIGN(obj->rta_len) >
	     sizeof(group->req) - RTA_LENGTH(0)) &&
	    p4rt_batch_flush())
		return -1;
	if (!group->n) {
		group->req.n.nlmsg_len = NLMSG_LENGTH(sizeof(struct p4tcmsg));
		group->req.n.nlmsg_type = req->n.nlmsg_type;
		group->req.n.nlmsg_flags = req->n.nlmsg_flags;
		group->req.t = req->t;
		group->type = req->n.nlmsg_type;
		group->flags = req->n.nlmsg_flags;
		snprintf(group->pname, sizeof(group->pname), "%s", pname);
		addattrstrz(&group->req.n, MAX_MSG, P4TC_ROOT_PNAME, pname);
		group->root = addattr_nest(&group->req.n, MAX_MSG,
					   P4TC_ROOT | NLA_F_NESTED);
	}
	if (group_keep_line(argc, argv))
		return -1;
	copy = NLMSG_TAIL(&group->req.n);
	memcpy(copy, obj, obj->rta_len);
	copy->rta_type = (group->n + 1) | NLA_F_NESTED;
	group->req.n.nlmsg_len = NLMSG_ALIGN(group->req.n.nlmsg_len) +
				 RTA_ALIGN(obj->rta_len);
	if (++group->n == P4TC_MSGBATCH_SIZE)
		return p4rt_batch_flush();
	return 0;
}

int do_p4runtime(int argc, char **argv)
{
	/* anything but a groupable line sends the group first */
	if (batch_mode && !replaying && group && group->n &&
	    (argc < 1 || (strcmp(*argv, "create") && strcmp(*argv, "update") &&
			  strcmp(*argv, "del") && strcmp(*argv, "delete"))) &&
	    p4rt_batch_flush())
		return -1;
	return do_p4runtime_one(argc, argv);
}

static int do_p4runtime_one(int argc, char **argv)
{
	int argc0 = argc;
	char **argv0 = argv;
	char pname[PIPELINENAMSIZ], tname[TABLENAMSIZ];
	struct rtattr *root, *obj, *params;
	struct p4rt_print_state st = {};
	struct nlmsghdr *ans = NULL;
	struct p4rt_req req = {};
	int cmd, type, flags = 0, has_key, ret;
	__u32 pipeid = 0, tblid = 0;

	if (argc < 1 || !strcmp(*argv, "help")) {
		p4rt_usage();
		return argc < 1 ? -1 : 0;
	}
	if (!strcmp(*argv, "create")) {
		cmd = RT_CREATE;
		type = RTM_P4TC_CREATE;
		flags = NLM_F_CREATE | NLM_F_EXCL;
	} else if (!strcmp(*argv, "update")) {
		cmd = RT_UPDATE;
		type = RTM_P4TC_CREATE;
		flags = NLM_F_REPLACE;
	} else if (!strcmp(*argv, "del") || !strcmp(*argv, "delete")) {
		cmd = RT_DEL;
		type = RTM_P4TC_DEL;
	} else if (!strcmp(*argv, "get") || !strcmp(*argv, "show")) {
		cmd = RT_GET;
		type = RTM_P4TC_GET;
	} else {
		fprintf(stderr, "Error: unknown command \"%s\", try \"tc p4runtime help\"\n",
			*argv);
		return -1;
	}
	NEXT_ARG();
	pname[0] = tname[0] = '\0';
	if (strcmp(*argv, "pipeid")) {
		if (p4rt_parse_path(*argv, pname, tname))
			return -1;
		argc--;
		argv++;
	}
	if (p4rt_take_ids(&argc, &argv, &pipeid, &tblid))
		return -1;
	if (!pname[0] && !pipeid) {
		fprintf(stderr, "Error: no pipeline: PNAME/table/CB/TNAME or pipeid N\n");
		return -1;
	}
	if (!tname[0] && !tblid) {
		fprintf(stderr, "Error: no table: PNAME/table/CB/TNAME or tblid M\n");
		return -1;
	}
	if ((pipeid || tblid) &&
	    p4rt_resolve_ids(pipeid, tblid, pname, tname))
		return -1;

	req.n.nlmsg_len = NLMSG_LENGTH(sizeof(struct p4tcmsg));
	req.n.nlmsg_type = type;
	req.n.nlmsg_flags = NLM_F_REQUEST | flags;
	req.t.obj = P4TC_OBJ_TABLE_ENTRY;
	addattrstrz(&req.n, MAX_MSG, P4TC_ROOT_PNAME, pname);
	root = addattr_nest(&req.n, MAX_MSG, P4TC_ROOT | NLA_F_NESTED);
	obj = addattr_nest(&req.n, MAX_MSG, 1 | NLA_F_NESTED);
	params = addattr_nest(&req.n, MAX_MSG, P4TC_PARAMS | NLA_F_NESTED);
	addattrstrz(&req.n, MAX_MSG, P4TC_ENTRY_TBLNAME, tname);
	has_key = __p4_entry_parse(pname, tname, &argc, &argv, &req.n, NULL);
	if (has_key < 0)
		return -1;
	if (argc > 0) {
		fprintf(stderr, "Error: unexpected \"%s\"\n", *argv);
		return -1;
	}
	addattr_nest_end(&req.n, params);
	addattr_nest_end(&req.n, obj);
	addattr_nest_end(&req.n, root);

	if ((cmd == RT_CREATE || cmd == RT_UPDATE) && !has_key) {
		fprintf(stderr, "Error: an entry needs a key\n");
		return -1;
	}

	if (cmd == RT_GET && !has_key) {
		req.n.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
		if (rtnl_dump_request_n(&rth, &req.n) < 0) {
			perror("Cannot send dump request");
			return -1;
		}
		new_json_obj(json);
		ret = rtnl_dump_filter(&rth, print_p4rt_msg, &st);
		print_end(&st);
		delete_json_obj();
		return ret < 0 ? -1 : 0;
	}

	if (cmd != RT_GET) {
		if (batch_mode && !replaying && has_key)
			return group_add(&req, obj, pname, argc0, argv0);
		if (batch_mode && !replaying && p4rt_batch_flush())
			return -1;
		if (rtnl_talk(&rth, &req.n, NULL) < 0)
			return -1;
		return 0;
	}
	if (rtnl_talk(&rth, &req.n, &ans) < 0)
		return -1;
	new_json_obj(json);
	ret = print_p4rt_msg(ans, &st);
	print_end(&st);
	delete_json_obj();
	free(ans);
	return ret;
}
