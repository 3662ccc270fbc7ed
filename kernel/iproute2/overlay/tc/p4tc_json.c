// SPDX-License-Identifier: GPL-2.0
/*
 * A small JSON reader for P4TC introspection files: the whole document
 * as a tree of values, looked up by key and walked in order.  Numbers
 * are kept as 64-bit integers (introspection has no fractions).
 */

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p4tc_json.h"

struct p4_json_parser {
	const char *s;
	const char *err;
	int depth;
};

#define P4_JSON_MAX_DEPTH 32

static void skip_ws(struct p4_json_parser *p)
{
	while (isspace((unsigned char)*p->s))
		p->s++;
}

static struct p4_json *new_val(int type)
{
	struct p4_json *v = calloc(1, sizeof(*v));

	if (v)
		v->type = type;
	return v;
}

static struct p4_json *parse_value(struct p4_json_parser *p);

static char *parse_string(struct p4_json_parser *p)
{
	size_t cap = 16, len = 0;
	char *buf, *nb;

	if (*p->s != '"') {
		p->err = "expected a string";
		return NULL;
	}
	p->s++;
	buf = malloc(cap);
	if (!buf)
		return NULL;
	while (*p->s && *p->s != '"') {
		char c = *p->s++;

		if (c == '\\') {
			c = *p->s++;
			switch (c) {
			case 'n':
				c = '\n';
				break;
			case 't':
				c = '\t';
				break;
			case '"':
			case '\\':
			case '/':
				break;
			default:
				/* \uXXXX and the rest do not occur in names */
				p->err = "unsupported escape in a string";
				free(buf);
				return NULL;
			}
		} else if ((unsigned char)c < 0x20) {
			p->err = "control character in a string";
			free(buf);
			return NULL;
		}
		if (len + 1 >= cap) {
			cap *= 2;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb;
		}
		buf[len++] = c;
	}
	if (*p->s != '"') {
		p->err = "unterminated string";
		free(buf);
		return NULL;
	}
	p->s++;
	buf[len] = '\0';
	return buf;
}

static struct p4_json *parse_container(struct p4_json_parser *p, bool obj)
{
	struct p4_json *v = new_val(obj ? P4_JSON_OBJECT : P4_JSON_ARRAY);
	struct p4_json **tail;
	char close = obj ? '}' : ']';

	if (!v)
		return NULL;
	if (++p->depth > P4_JSON_MAX_DEPTH) {
		p->err = "nested too deep";
		goto err;
	}
	tail = &v->child;
	p->s++;
	skip_ws(p);
	if (*p->s == close) {
		p->s++;
		p->depth--;
		return v;
	}
	for (;;) {
		struct p4_json *item;
		char *key = NULL;

		skip_ws(p);
		if (obj) {
			key = parse_string(p);
			if (!key)
				goto err;
			skip_ws(p);
			if (*p->s != ':') {
				free(key);
				p->err = "expected ':'";
				goto err;
			}
			p->s++;
		}
		item = parse_value(p);
		if (!item) {
			free(key);
			goto err;
		}
		item->key = key;
		*tail = item;
		tail = &item->next;
		skip_ws(p);
		if (*p->s == ',') {
			p->s++;
			continue;
		}
		if (*p->s == close) {
			p->s++;
			p->depth--;
			return v;
		}
		p->err = obj ? "expected ',' or '}'" : "expected ',' or ']'";
		goto err;
	}
err:
	p4_json_free(v);
	return NULL;
}

static struct p4_json *parse_value(struct p4_json_parser *p)
{
	struct p4_json *v;
	char *end;

	skip_ws(p);
	switch (*p->s) {
	case '{':
		return parse_container(p, true);
	case '[':
		return parse_container(p, false);
	case '"':
		v = new_val(P4_JSON_STRING);
		if (!v)
			return NULL;
		v->str = parse_string(p);
		if (!v->str) {
			free(v);
			return NULL;
		}
		return v;
	}
	if (!strncmp(p->s, "true", 4) || !strncmp(p->s, "false", 5)) {
		v = new_val(P4_JSON_BOOL);
		if (!v)
			return NULL;
		v->num = *p->s == 't';
		p->s += v->num ? 4 : 5;
		return v;
	}
	if (!strncmp(p->s, "null", 4)) {
		p->s += 4;
		return new_val(P4_JSON_NULL);
	}
	if (*p->s == '-' || isdigit((unsigned char)*p->s)) {
		v = new_val(P4_JSON_NUMBER);
		if (!v)
			return NULL;
		errno = 0;
		v->num = strtoll(p->s, &end, 10);
		if (errno || end == p->s || *end == '.' || *end == 'e' ||
		    *end == 'E') {
			p->err = "numbers must be integers";
			free(v);
			return NULL;
		}
		p->s = end;
		return v;
	}
	p->err = "unexpected character";
	return NULL;
}

struct p4_json *p4_json_parse(const char *text, const char **err)
{
	struct p4_json_parser p = { .s = text };
	struct p4_json *v;

	v = parse_value(&p);
	if (v) {
		skip_ws(&p);
		if (*p.s) {
			p.err = "text after the document";
			p4_json_free(v);
			v = NULL;
		}
	}
	if (!v && err)
		*err = p.err ?: "out of memory";
	return v;
}

struct p4_json *p4_json_parse_file(const char *path, const char **err)
{
	struct p4_json *v = NULL;
	long size;
	char *buf;
	FILE *f;

	f = fopen(path, "r");
	if (!f) {
		*err = strerror(errno);
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		*err = "cannot size the file";
		goto out;
	}
	buf = malloc(size + 1);
	if (!buf) {
		*err = "out of memory";
		goto out;
	}
	if (fread(buf, 1, size, f) != (size_t)size) {
		*err = "short read";
		free(buf);
		goto out;
	}
	buf[size] = '\0';
	v = p4_json_parse(buf, err);
	free(buf);
out:
	fclose(f);
	return v;
}

void p4_json_free(struct p4_json *v)
{
	while (v) {
		struct p4_json *next = v->next;

		p4_json_free(v->child);
		free(v->key);
		free(v->str);
		free(v);
		v = next;
	}
}

struct p4_json *p4_json_get(const struct p4_json *obj, const char *key)
{
	struct p4_json *v;

	if (!obj || obj->type != P4_JSON_OBJECT)
		return NULL;
	for (v = obj->child; v; v = v->next)
		if (!strcmp(v->key, key))
			return v;
	return NULL;
}

const char *p4_json_get_str(const struct p4_json *obj, const char *key)
{
	const struct p4_json *v = p4_json_get(obj, key);

	return v && v->type == P4_JSON_STRING ? v->str : NULL;
}

int p4_json_get_int(const struct p4_json *obj, const char *key,
		    long long *num)
{
	const struct p4_json *v = p4_json_get(obj, key);

	if (!v || v->type != P4_JSON_NUMBER)
		return -1;
	*num = v->num;
	return 0;
}
