// SPDX-License-Identifier: GPL-2.0
/*
 * P4 types and values in tc.
 *
 * Users write types as bitN / intN (1..128 bits: the smallest container
 * that holds them, bits 0..N-1), as container names (u32, be16, ipv4,
 * mac, bool, dev, ...) or as slices of a container: bit32[16-31],
 * u16[0-11].  Values are numbers (decimal or 0x hex, up to 128 bits,
 * negative for signed types), dotted IPv4 addresses, MAC addresses,
 * true/false, or device names.  On the wire a value is its container:
 * host byte order, network order for be16/be32/be64/ipv4/mac.
 */

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>

#include "utils.h"
#include "ll_map.h"
#include "tc_util.h"
#include "json_print.h"
#include "p4tc_common.h"

static const struct {
	const char *name;
	int typeid;
	unsigned int bits;	/* container */
} p4_types[] = {
	{ "u8", P4T_U8, 8 },
	{ "u16", P4T_U16, 16 },
	{ "u32", P4T_U32, 32 },
	{ "u64", P4T_U64, 64 },
	{ "u128", P4T_U128, 128 },
	{ "s8", P4T_S8, 8 },
	{ "s16", P4T_S16, 16 },
	{ "s32", P4T_S32, 32 },
	{ "s64", P4T_S64, 64 },
	{ "s128", P4T_S128, 128 },
	{ "be16", P4T_BE16, 16 },
	{ "be32", P4T_BE32, 32 },
	{ "be64", P4T_BE64, 64 },
	{ "ipv4", P4T_IPV4ADDR, 32 },
	{ "mac", P4T_MACADDR, 48 },
	{ "macaddr", P4T_MACADDR, 48 },
	{ "bool", P4T_BOOL, 8 },
	{ "dev", P4T_DEV, 32 },
	{ "key", P4T_KEY, 512 },
};

/*
 * How a type prints (text and JSON): by its P4 name, as the seed's tc
 * does.  Unsigned containers are bitN, signed ones intN; the others print
 * as themselves.
 */
const char *p4_type_name(int typeid)
{
	static const struct {
		int typeid;
		const char *name;
	} p4_names[] = {
		{ P4T_U8, "bit8" }, { P4T_U16, "bit16" }, { P4T_U32, "bit32" },
		{ P4T_U64, "bit64" }, { P4T_U128, "bit128" },
		{ P4T_S8, "int8" }, { P4T_S16, "int16" }, { P4T_S32, "int32" },
		{ P4T_S64, "int64" }, { P4T_S128, "int128" },
		{ P4T_MACADDR, "macaddr" },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(p4_names); i++)
		if (p4_names[i].typeid == typeid)
			return p4_names[i].name;
	for (i = 0; i < ARRAY_SIZE(p4_types); i++)
		if (p4_types[i].typeid == typeid)
			return p4_types[i].name;
	return "unknown";
}

unsigned int p4_type_container_bits(int typeid)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(p4_types); i++)
		if (p4_types[i].typeid == typeid)
			return p4_types[i].bits;
	return 0;
}

/* Natural width: bool is one bit in a byte */
static unsigned int p4_type_bits(int typeid)
{
	return typeid == P4T_BOOL ? 1 : p4_type_container_bits(typeid);
}

bool p4_type_signed(int typeid)
{
	return typeid == P4T_S8 || typeid == P4T_S16 || typeid == P4T_S32 ||
	       typeid == P4T_S64 || typeid == P4T_S128;
}

static bool p4_type_unsigned_int(int typeid)
{
	return typeid == P4T_U8 || typeid == P4T_U16 || typeid == P4T_U32 ||
	       typeid == P4T_U64 || typeid == P4T_U128;
}

static bool p4_type_be(int typeid)
{
	return typeid == P4T_BE16 || typeid == P4T_BE32 ||
	       typeid == P4T_BE64 || typeid == P4T_IPV4ADDR ||
	       typeid == P4T_MACADDR;
}

static int p4_int_container(unsigned int bits, bool sign)
{
	static const int u[] = { P4T_U8, P4T_U16, P4T_U32, P4T_U64, P4T_U128 };
	static const int s[] = { P4T_S8, P4T_S16, P4T_S32, P4T_S64, P4T_S128 };
	unsigned int i, c = 8;

	for (i = 0; i < 5; i++, c *= 2)
		if (bits <= c)
			return sign ? s[i] : u[i];
	return -1;
}

/* "[a-b]" at @s into @t's slice; returns 0 or -1 */
static int p4_parse_slice(const char *s, struct p4_type_s *t)
{
	unsigned int a, b;
	char end;

	if (sscanf(s, "[%u-%u%c", &a, &b, &end) != 3 || end != ']' ||
	    s[strlen(s) - 1] != ']' || a > 0xffff || b > 0xffff)
		return -1;
	t->startbit = a;
	t->endbit = b;
	return 0;
}

int p4_type_parse(const char *str, struct p4_type_s *t)
{
	const char *br = strchr(str, '[');
	size_t n = br ? (size_t)(br - str) : strlen(str);
	unsigned int i, bits;
	char name[32];
	bool sign;

	if (n == 0 || n >= sizeof(name))
		return -1;
	memcpy(name, str, n);
	name[n] = '\0';
	t->ipv6 = 0;
	if (!strcmp(name, "ipv6") && !br) {
		t->typeid = P4T_U128;
		t->startbit = 0;
		t->endbit = 127;
		t->ipv6 = 1;
		return 0;
	}

	sign = !strncmp(name, "int", 3);
	if (sign || !strncmp(name, "bit", 3)) {
		const char *num = name + 3;
		char *end;

		if (!isdigit((unsigned char)*num))
			return -1;
		bits = strtoul(num, &end, 10);
		if (*end || bits < 1 || bits > 128)
			return -1;
		t->typeid = p4_int_container(bits, sign);
		t->startbit = 0;
		t->endbit = bits - 1;
		if (br) {
			/* a slice is of a whole container: bit32[16-31] */
			if (p4_type_container_bits(t->typeid) != bits)
				return -1;
			return p4_parse_slice(br, t);
		}
		return 0;
	}

	for (i = 0; i < ARRAY_SIZE(p4_types); i++) {
		if (strcmp(name, p4_types[i].name))
			continue;
		t->typeid = p4_types[i].typeid;
		t->startbit = 0;
		t->endbit = p4_type_bits(t->typeid) - 1;
		return br ? p4_parse_slice(br, t) : 0;
	}
	return -1;
}

unsigned int p4_type_width(const struct p4_type_s *t)
{
	return t->endbit - t->startbit + 1;
}

void p4_type_format(const struct p4_type_s *t, char *buf, size_t len)
{
	unsigned int cbits = p4_type_container_bits(t->typeid);
	bool whole = t->startbit == 0 &&
		     t->endbit == p4_type_bits(t->typeid) - 1;

	if (t->ipv6) {
		snprintf(buf, len, "ipv6");
		return;
	}
	if (p4_type_unsigned_int(t->typeid) || p4_type_signed(t->typeid)) {
		const char *fam = p4_type_signed(t->typeid) ? "int" : "bit";

		if (t->startbit == 0)
			snprintf(buf, len, "%s%u", fam, t->endbit + 1);
		else
			snprintf(buf, len, "%s%u[%u-%u]", fam, cbits,
				 t->startbit, t->endbit);
		return;
	}
	if (whole)
		snprintf(buf, len, "%s", p4_type_name(t->typeid));
	else
		snprintf(buf, len, "%s[%u-%u]", p4_type_name(t->typeid),
			 t->startbit, t->endbit);
}

/*
 * A type attribute: struct p4tc_meta_size_params, which metadata, header
 * fields and action parameters share (struct p4tc_hdrfield_ty has its
 * layout).
 */
void p4_type_attr(struct nlmsghdr *n, int attr, const struct p4_type_s *t)
{
	struct p4tc_meta_size_params sz = {
		.startbit = t->startbit,
		.endbit = t->endbit,
		.datatype = t->typeid,
	};

	_Static_assert(sizeof(struct p4tc_meta_size_params) ==
		       sizeof(struct p4tc_hdrfield_ty), "type attributes differ");
	addattr_l(n, MAX_MSG, attr, &sz, sizeof(sz));
}

const char *p4_type_family(const struct p4_type_s *t)
{
	if (p4_type_unsigned_int(t->typeid))
		return "bit";
	if (p4_type_signed(t->typeid))
		return "int";
	return p4_type_name(t->typeid);
}

/* @v = @v * @m + @a; -1 on overflow of 128 bits */
static int val_muladd(struct p4_val *v, unsigned int m, unsigned int a)
{
	unsigned __int128 x = ((unsigned __int128)v->w[1] << 64) | v->w[0];
	unsigned __int128 max = ~(unsigned __int128)0;

	if (x > (max - a) / m)
		return -1;
	x = x * m + a;
	v->w[0] = (__u64)x;
	v->w[1] = (__u64)(x >> 64);
	return 0;
}

static int p4_num_parse(const char *s, struct p4_val *v, bool *neg)
{
	unsigned int base = 10, d;

	memset(v, 0, sizeof(*v));
	*neg = false;
	if (*s == '-') {
		*neg = true;
		s++;
	}
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (isdigit((unsigned char)*s))
			d = *s - '0';
		else if (base == 16 && isxdigit((unsigned char)*s))
			d = tolower((unsigned char)*s) - 'a' + 10;
		else
			return -1;
		if (val_muladd(v, base, d))
			return -1;
	}
	return 0;
}

static bool val_fits_unsigned(const struct p4_val *v, unsigned int bits)
{
	if (bits >= 128)
		return true;
	if (bits >= 64)
		return bits == 64 ? v->w[1] == 0 : (v->w[1] >> (bits - 64)) == 0;
	return v->w[1] == 0 && (v->w[0] >> bits) == 0;
}

/* Is @v exactly 2^@bit? */
static bool val_is_pow2(const struct p4_val *v, unsigned int bit)
{
	if (bit >= 64)
		return v->w[0] == 0 && v->w[1] == 1ULL << (bit - 64);
	return v->w[1] == 0 && v->w[0] == 1ULL << bit;
}

int p4_val_parse(const char *str, const struct p4_type_s *t, struct p4_val *v)
{
	unsigned int cbits = p4_type_container_bits(t->typeid);
	unsigned int a[6];
	bool neg;
	int i;

	memset(v, 0, sizeof(*v));
	if (t->ipv6) {
		__u8 a6[16];

		if (inet_pton(AF_INET6, str, a6) != 1)
			return -1;
		for (i = 0; i < 16; i++)
			v->w[(15 - i) / 8] |= (__u64)a6[i] << (8 * ((15 - i) % 8));
		return 0;
	}
	switch (t->typeid) {
	case P4T_IPV4ADDR:
		if (sscanf(str, "%u.%u.%u.%u", &a[0], &a[1], &a[2], &a[3]) != 4 ||
		    a[0] > 255 || a[1] > 255 || a[2] > 255 || a[3] > 255)
			return -1;
		v->w[0] = (a[0] << 24) | (a[1] << 16) | (a[2] << 8) | a[3];
		return 0;
	case P4T_MACADDR:
		if (sscanf(str, "%x:%x:%x:%x:%x:%x", &a[0], &a[1], &a[2], &a[3],
			   &a[4], &a[5]) != 6)
			return -1;
		for (i = 0; i < 6; i++) {
			if (a[i] > 255)
				return -1;
			v->w[0] = (v->w[0] << 8) | a[i];
		}
		return 0;
	case P4T_BOOL:
		if (!strcmp(str, "true") || !strcmp(str, "1"))
			v->w[0] = 1;
		else if (strcmp(str, "false") && strcmp(str, "0"))
			return -1;
		return 0;
	case P4T_DEV:
		if (isdigit((unsigned char)str[0]))
			break;
		v->w[0] = ll_name_to_index(str);
		return v->w[0] ? 0 : -1;
	}

	if (p4_num_parse(str, v, &neg))
		return -1;
	if (neg) {
		/* -x in 128-bit two's complement; must fit the container */
		if (!p4_type_signed(t->typeid))
			return -1;
		if (!val_fits_unsigned(v, cbits - 1) &&
		    !val_is_pow2(v, cbits - 1))
			return -1;
		v->w[0] = ~v->w[0] + 1;
		v->w[1] = ~v->w[1] + (v->w[0] == 0);
		if (cbits < 64) {
			v->w[0] &= (1ULL << cbits) - 1;
			v->w[1] = 0;
		} else if (cbits == 64) {
			v->w[1] = 0;
		}
		return 0;
	}
	return val_fits_unsigned(v, cbits) ? 0 : -1;
}

int p4_val_parse_constant(const char *str, struct p4_val *v,
			  struct p4_type_s *ct)
{
	const char *tstart, *vstart;
	char tname[32];

	if (strncmp(str, "constant.", 9))
		return -1;
	tstart = str + 9;
	vstart = strchr(tstart, '.');
	if (!vstart || vstart == tstart || vstart - tstart >= (int)sizeof(tname))
		return -1;
	/* an IPv4 value has dots too: the type ends at the first one */
	memcpy(tname, tstart, vstart - tstart);
	tname[vstart - tstart] = '\0';
	if (p4_type_parse(tname, ct))
		return -1;
	return p4_val_parse(vstart + 1, ct, v);
}

void p4_val_to_container(const struct p4_val *v, int typeid, void *buf)
{
	unsigned int n = p4_type_container_bits(typeid) / 8, i, bit;
	bool be = p4_type_be(typeid);
	__u8 *b = buf;

	for (i = 0; i < n && i < 16; i++) {
		bit = 8 * (be ? n - 1 - i : i);
		b[i] = v->w[bit / 64] >> (bit % 64);
	}
}

void p4_val_from_container(const void *buf, const struct p4_type_s *t,
			   struct p4_val *v)
{
	unsigned int n = p4_type_container_bits(t->typeid) / 8, i, bit;
	bool be = p4_type_be(t->typeid);
	const __u8 *b = buf;

	memset(v, 0, sizeof(*v));
	for (i = 0; i < n && i < 16; i++) {
		bit = 8 * (be ? n - 1 - i : i);
		v->w[bit / 64] |= (__u64)b[i] << (bit % 64);
	}
}

void p4_val_format(const struct p4_val *v, const struct p4_type_s *t,
		   char *buf, size_t len)
{
	unsigned int cbits = p4_type_container_bits(t->typeid);
	unsigned int i;

	if (t->ipv6) {
		__u8 a6[16];
		char s6[INET6_ADDRSTRLEN];

		for (i = 0; i < 16; i++)
			a6[i] = v->w[(15 - i) / 8] >> (8 * ((15 - i) % 8));
		inet_ntop(AF_INET6, a6, s6, sizeof(s6));
		snprintf(buf, len, "%s", s6);
		return;
	}
	switch (t->typeid) {
	case P4T_IPV4ADDR:
		snprintf(buf, len, "%u.%u.%u.%u",
			 (unsigned int)(v->w[0] >> 24) & 0xff,
			 (unsigned int)(v->w[0] >> 16) & 0xff,
			 (unsigned int)(v->w[0] >> 8) & 0xff,
			 (unsigned int)v->w[0] & 0xff);
		return;
	case P4T_MACADDR:
		snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x",
			 (unsigned int)(v->w[0] >> 40) & 0xff,
			 (unsigned int)(v->w[0] >> 32) & 0xff,
			 (unsigned int)(v->w[0] >> 24) & 0xff,
			 (unsigned int)(v->w[0] >> 16) & 0xff,
			 (unsigned int)(v->w[0] >> 8) & 0xff,
			 (unsigned int)v->w[0] & 0xff);
		return;
	case P4T_BOOL:
		snprintf(buf, len, "%s", v->w[0] ? "true" : "false");
		return;
	case P4T_DEV:
		snprintf(buf, len, "%s", ll_index_to_name(v->w[0]));
		return;
	}
	if (p4_type_signed(t->typeid) && cbits <= 64) {
		__s64 s = (__s64)(v->w[0] << (64 - cbits)) >> (64 - cbits);

		snprintf(buf, len, "%lld", (long long)s);
		return;
	}
	if (v->w[1])
		snprintf(buf, len, "0x%llx%016llx", (unsigned long long)v->w[1],
			 (unsigned long long)v->w[0]);
	else
		snprintf(buf, len, "%llu", (unsigned long long)v->w[0]);
}

/* JSON: numbers up to 64 bits as numbers, the rest as strings */
void p4_val_print(const char *key, const struct p4_val *v,
		  const struct p4_type_s *t)
{
	char buf[64];

	p4_val_format(v, t, buf, sizeof(buf));
	if (is_json_context() && !v->w[1] &&
	    (p4_type_unsigned_int(t->typeid) || t->typeid == P4T_BE16 ||
	     t->typeid == P4T_BE32 || t->typeid == P4T_BE64)) {
		print_lluint(PRINT_JSON, key, NULL, v->w[0]);
		return;
	}
	if (is_json_context() && p4_type_signed(t->typeid) &&
	    p4_type_container_bits(t->typeid) <= 64) {
		print_s64(PRINT_JSON, key, NULL, strtoll(buf, NULL, 10));
		return;
	}
	print_string(PRINT_ANY, key, "%s", buf);
}

/* Permissions: "CRUDXCRUDX" letters or '-', or a number up to 0x3ff */
int p4_perm_parse(const char *str, __u16 *perm)
{
	static const char letters[] = "CRUDXCRUDX";
	unsigned int i;
	char *end;
	long v;

	if (strlen(str) == 10 && strspn(str, "CRUDX-") == 10) {
		*perm = 0;
		for (i = 0; i < 10; i++) {
			if (str[i] == letters[i])
				*perm |= 1 << (9 - i);
			else if (str[i] != '-')
				return -1;
		}
		return 0;
	}
	v = strtol(str, &end, 0);
	if (!*str || *end || v < 0 || v > P4TC_PERM_MAX)
		return -1;
	*perm = v;
	return 0;
}

void p4_perm_format(__u16 perm, char *buf)
{
	static const char letters[] = "CRUDXCRUDX";
	unsigned int i;

	for (i = 0; i < 10; i++)
		buf[i] = perm & (1 << (9 - i)) ? letters[i] : '-';
	buf[10] = '\0';
}
