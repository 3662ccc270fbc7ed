/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small JSON reader for P4TC introspection files.
 */
#ifndef _TC_P4TC_JSON_H_
#define _TC_P4TC_JSON_H_

#include <stdbool.h>

enum {
	P4_JSON_NULL,
	P4_JSON_BOOL,
	P4_JSON_NUMBER,
	P4_JSON_STRING,
	P4_JSON_ARRAY,
	P4_JSON_OBJECT,
};

/* A value; the members of an array or object are @child and its @next */
struct p4_json {
	int type;
	char *key;		/* in an object: the member's name */
	char *str;		/* strings */
	long long num;		/* numbers and booleans */
	struct p4_json *child;
	struct p4_json *next;
};

struct p4_json *p4_json_parse(const char *text, const char **err);
struct p4_json *p4_json_parse_file(const char *path, const char **err);
void p4_json_free(struct p4_json *v);
struct p4_json *p4_json_get(const struct p4_json *obj, const char *key);
const char *p4_json_get_str(const struct p4_json *obj, const char *key);
int p4_json_get_int(const struct p4_json *obj, const char *key,
		    long long *num);

#define p4_json_for_each(pos, arr) \
	for ((pos) = (arr) && (arr)->type == P4_JSON_ARRAY ? (arr)->child : NULL; \
	     (pos); (pos) = (pos)->next)

#endif
