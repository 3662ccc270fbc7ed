// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the longest-prefix-match table (include/p4fw/lpm.h). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "p4fw/lpm.h"

/* any fixed value: the tables' hash seed */
#define SEED 0x5eedull

static void be32(uint8_t *k, uint32_t v)
{
	k[0] = (uint8_t)(v >> 24);
	k[1] = (uint8_t)(v >> 16);
	k[2] = (uint8_t)(v >> 8);
	k[3] = (uint8_t)v;
}

static int add4(struct p4fw_lpm *t, uint32_t a, uint32_t len, uint32_t v)
{
	uint8_t k[4];

	be32(k, a);
	return p4fw_lpm_add(t, k, len, v);
}

static int del4(struct p4fw_lpm *t, uint32_t a, uint32_t len)
{
	uint8_t k[4];

	be32(k, a);
	return p4fw_lpm_del(t, k, len, NULL);
}

/* The value of the longest match, or -1. */
static int64_t get4(const struct p4fw_lpm *t, uint32_t a)
{
	uint8_t k[4];
	uint32_t v, len;

	be32(k, a);
	if (p4fw_lpm_lookup(t, k, &v, &len))
		return -1;
	return v;
}

static void test_create_refuses_bad_sizes(void **state)
{
	int err;

	(void)state;
	assert_null(p4fw_lpm_create(0, 8, SEED, &err));
	assert_int_equal(err, -EINVAL);
	assert_null(p4fw_lpm_create(513, 8, SEED, &err));
	assert_int_equal(err, -EINVAL);
	assert_null(p4fw_lpm_create(32, 0, SEED, &err));
	assert_int_equal(err, -EINVAL);
}

static void test_ipv4_longest_wins_and_delete_falls_back(void **state)
{
	struct p4fw_lpm *t;
	uint8_t k[4];
	uint32_t v, len;
	int err;

	(void)state;
	t = p4fw_lpm_create(32, 64, SEED, &err);
	assert_non_null(t);
	assert_int_equal(get4(t, 0x0a000001), -1);
	assert_int_equal(add4(t, 0, 0, 1), 0);			/* default */
	assert_int_equal(add4(t, 0x0a000000, 8, 2), 0);		/* 10/8 */
	assert_int_equal(add4(t, 0x0a010000, 16, 3), 0);	/* 10.1/16 */
	assert_int_equal(add4(t, 0x0a010200, 24, 4), 0);	/* 10.1.2/24 */
	assert_int_equal(add4(t, 0x0a010203, 32, 5), 0);	/* host */
	assert_int_equal(add4(t, 0x0a010200, 23, 6), 0);	/* 10.1.2/23 */
	assert_int_equal(get4(t, 0x0a010203), 5);
	assert_int_equal(get4(t, 0x0a010204), 4);
	assert_int_equal(get4(t, 0x0a010304), 6);
	assert_int_equal(get4(t, 0x0a010404), 3);
	assert_int_equal(get4(t, 0x0a020304), 2);
	assert_int_equal(get4(t, 0x0b000000), 1);
	be32(k, 0x0a010204);
	assert_int_equal(p4fw_lpm_lookup(t, k, &v, &len), 0);
	assert_int_equal(len, 24);

	assert_int_equal(add4(t, 0x0a0102ff, 24, 9), -EEXIST);	/* host bits */
	assert_int_equal(add4(t, 0x0a010203, 33, 9), -EINVAL);
	assert_int_equal(add4(t, 0x0a010203, 31, P4FW_LPM_MAX_VALUE + 1), -EINVAL);

	assert_int_equal(del4(t, 0x0a010200, 24), 0);
	assert_int_equal(get4(t, 0x0a010204), 6);		/* the /23 */
	assert_int_equal(get4(t, 0x0a010203), 5);
	assert_int_equal(del4(t, 0x0a010200, 24), -ENOENT);
	assert_int_equal(del4(t, 0x0a010200, 23), 0);
	assert_int_equal(get4(t, 0x0a010204), 3);
	assert_int_equal(del4(t, 0x0a010203, 32), 0);
	assert_int_equal(del4(t, 0x0a010000, 16), 0);
	assert_int_equal(del4(t, 0x0a000000, 8), 0);
	assert_int_equal(get4(t, 0x0a010203), 1);
	assert_int_equal(del4(t, 0, 0), 0);
	assert_int_equal(get4(t, 0x0a010203), -1);
	assert_int_equal(p4fw_lpm_count(t), 0);
	assert_int_equal(p4fw_lpm_nodes(t), 1);	/* every node folded */
	p4fw_lpm_destroy(t);
}

static void test_capacity_and_flush(void **state)
{
	struct p4fw_lpm *t;
	uint32_t i;
	int err;

	(void)state;
	t = p4fw_lpm_create(32, 3, SEED, &err);
	assert_non_null(t);
	for (i = 0; i < 3; i++)
		assert_int_equal(add4(t, i << 8, 24, i), 0);
	assert_int_equal(add4(t, 9 << 8, 24, 9), -ENOSPC);
	assert_int_equal(get4(t, 0x1ff), 1);
	p4fw_lpm_flush(t);
	assert_int_equal(get4(t, 0x1ff), -1);
	assert_int_equal(p4fw_lpm_nodes(t), 1);
	for (i = 0; i < 3; i++)
		assert_int_equal(add4(t, i << 8, 24, i), 0);
	p4fw_lpm_destroy(t);
}

/*
 * Enough /32s in distinct /24s that the node array outgrows calloc and
 * then its first mapping (1 KiB nodes, 2 MiB threshold): every grow keeps
 * the nodes already made, and deleting all folds them back.
 */
static void test_node_array_grows(void **state)
{
	const uint32_t n = 6000;
	struct p4fw_lpm *t;
	uint32_t i;
	int err;

	(void)state;
	t = p4fw_lpm_create(32, n, SEED, &err);
	assert_non_null(t);
	for (i = 0; i < n; i++)
		assert_int_equal(add4(t, i << 8 | 7, 32, i), 0);
	assert_int_equal(p4fw_lpm_nodes(t), 1 + n);
	for (i = 0; i < n; i++) {
		assert_int_equal(get4(t, i << 8 | 7), (int)i);
		assert_int_equal(get4(t, i << 8 | 8), -1);
	}
	for (i = 0; i < n; i++)
		assert_int_equal(del4(t, i << 8 | 7, 32), 0);
	assert_int_equal(p4fw_lpm_nodes(t), 1);
	p4fw_lpm_destroy(t);
}

/* Widths that are not whole bytes, and wide keys. */
static void test_odd_and_wide_keys(void **state)
{
	struct p4fw_lpm *t;
	uint8_t k[16], q[16];
	uint32_t v, len;
	int err;

	(void)state;
	t = p4fw_lpm_create(12, 16, SEED, &err);	/* 12-bit keys */
	assert_non_null(t);
	k[0] = 0xab;
	k[1] = 0xc0;
	assert_int_equal(p4fw_lpm_add(t, k, 12, 7), 0);
	assert_int_equal(p4fw_lpm_add(t, k, 4, 8), 0);
	assert_int_equal(p4fw_lpm_add(t, k, 13, 9), -EINVAL);
	q[0] = 0xab;
	q[1] = 0xcf;	/* bits beyond the width do not count */
	assert_int_equal(p4fw_lpm_lookup(t, q, &v, &len), 0);
	assert_int_equal(v, 7);
	assert_int_equal(len, 12);
	q[1] = 0xd0;
	assert_int_equal(p4fw_lpm_lookup(t, q, &v, &len), 0);
	assert_int_equal(v, 8);
	assert_int_equal(len, 4);
	p4fw_lpm_destroy(t);

	t = p4fw_lpm_create(128, 16, SEED, &err);
	assert_non_null(t);
	memset(k, 0, sizeof(k));
	k[0] = 0x20;
	k[1] = 0x01;
	k[2] = 0x0d;
	k[3] = 0xb8;
	assert_int_equal(p4fw_lpm_add(t, k, 32, 1), 0);		/* 2001:db8::/32 */
	k[15] = 1;
	assert_int_equal(p4fw_lpm_add(t, k, 128, 2), 0);
	memcpy(q, k, 16);
	assert_int_equal(p4fw_lpm_lookup(t, q, &v, &len), 0);
	assert_int_equal(v, 2);
	q[15] = 2;
	assert_int_equal(p4fw_lpm_lookup(t, q, &v, &len), 0);
	assert_int_equal(v, 1);
	assert_int_equal(len, 32);
	assert_int_equal(p4fw_lpm_del(t, k, 128, &v), 0);
	assert_int_equal(v, 2);
	assert_int_equal(p4fw_lpm_nodes(t), 2);	/* root + 1 for the /32 */
	p4fw_lpm_destroy(t);
}

/*
 * Random prefixes added and deleted in a small address space, every
 * lookup checked against a brute-force longest match, and every node
 * folded away once the table is empty again.
 */
static void test_random_against_brute_force(void **state)
{
	enum { N = 300, OPS = 8000 };
	struct { uint32_t addr, len, value; int used; } ref[N];
	struct p4fw_lpm *t;
	uint32_t rng = 4242, i, j, a, best_len;
	int64_t best;
	int err, op;

	(void)state;
	memset(ref, 0, sizeof(ref));
	t = p4fw_lpm_create(32, N, SEED, &err);
	assert_non_null(t);
	for (op = 0; op < OPS; op++) {
		rng = rng * 1103515245u + 12345u;
		i = (rng >> 7) % N;
		if (!ref[i].used) {
			uint32_t len = (rng >> 3) % 33, mask;

			mask = len ? 0xffffffffu << (32 - len) : 0;
			a = (rng * 2654435761u) & 0x0a0b0cffu & mask;
			for (j = 0; j < N; j++)	/* keep prefixes unique */
				if (ref[j].used && ref[j].len == len && ref[j].addr == a)
					break;
			if (j < N) {
				assert_int_equal(add4(t, a, len, i), -EEXIST);
				continue;
			}
			assert_int_equal(add4(t, a, len, i), 0);
			ref[i].addr = a;
			ref[i].len = len;
			ref[i].value = i;
			ref[i].used = 1;
		} else {
			assert_int_equal(del4(t, ref[i].addr, ref[i].len), 0);
			ref[i].used = 0;
		}
		for (j = 0; j < 8; j++) {
			uint32_t k;

			rng = rng * 1103515245u + 12345u;
			a = (rng * 2654435761u) & 0x0a0b0cffu;
			best = -1;
			best_len = 0;
			for (k = 0; k < N; k++) {
				uint32_t m = ref[k].len ? 0xffffffffu << (32 - ref[k].len) : 0;

				if (ref[k].used && (a & m) == ref[k].addr &&
				    (best < 0 || ref[k].len > best_len)) {
					best = ref[k].value;
					best_len = ref[k].len;
				}
			}
			assert_int_equal(get4(t, a), best);
		}
	}
	for (i = 0; i < N; i++)
		if (ref[i].used)
			assert_int_equal(del4(t, ref[i].addr, ref[i].len), 0);
	assert_int_equal(p4fw_lpm_count(t), 0);
	assert_int_equal(p4fw_lpm_nodes(t), 1);
	p4fw_lpm_destroy(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_refuses_bad_sizes),
		cmocka_unit_test(test_ipv4_longest_wins_and_delete_falls_back),
		cmocka_unit_test(test_capacity_and_flush),
		cmocka_unit_test(test_node_array_grows),
		cmocka_unit_test(test_odd_and_wide_keys),
		cmocka_unit_test(test_random_against_brute_force),
	};

	return cmocka_run_group_tests_name("lpm", tests, NULL, NULL);
}
