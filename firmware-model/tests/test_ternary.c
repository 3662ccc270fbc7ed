// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the ternary table (include/p4fw/ternary.h). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "p4fw/ternary.h"

/* any fixed value: the tables' hash seed */
#define SEED 0x5eedull

static void be32(uint8_t *k, uint32_t v)
{
	k[0] = (uint8_t)(v >> 24);
	k[1] = (uint8_t)(v >> 16);
	k[2] = (uint8_t)(v >> 8);
	k[3] = (uint8_t)v;
}

static int add(struct p4fw_ternary *t, uint32_t key, uint32_t mask,
	       uint32_t prio, uint32_t value)
{
	uint8_t k[4], m[4];

	be32(k, key);
	be32(m, mask);
	return p4fw_ternary_add(t, k, m, prio, value);
}

static int del(struct p4fw_ternary *t, uint32_t key, uint32_t mask,
	       uint32_t prio)
{
	uint8_t k[4], m[4];

	be32(k, key);
	be32(m, mask);
	return p4fw_ternary_del(t, k, m, prio, NULL);
}

static int lookup(const struct p4fw_ternary *t, uint32_t key, uint32_t *value,
		  uint32_t *prio)
{
	uint8_t k[4];

	be32(k, key);
	return p4fw_ternary_lookup(t, k, value, prio);
}

static void test_create_refuses_bad_sizes(void **state)
{
	int err;

	(void)state;
	assert_null(p4fw_ternary_create(0, 8, 8, SEED, &err));
	assert_int_equal(err, -EINVAL);
	assert_null(p4fw_ternary_create(65, 8, 8, SEED, &err));
	assert_int_equal(err, -EINVAL);
	assert_null(p4fw_ternary_create(4, 8, 0, SEED, &err));
	assert_int_equal(err, -EINVAL);
	assert_null(p4fw_ternary_create(4, 8, 129, SEED, &err));
	assert_int_equal(err, -EINVAL);
	assert_null(p4fw_ternary_create(4, 0, 8, SEED, &err));
	assert_int_equal(err, -EINVAL);
}

static void test_lowest_priority_number_wins(void **state)
{
	struct p4fw_ternary *t;
	uint32_t v, p;
	int err;

	(void)state;
	t = p4fw_ternary_create(4, 16, 8, SEED, &err);
	assert_non_null(t);
	assert_int_equal(add(t, 0x0a000000, 0xff000000, 30, 1), 0); /* 10/8 */
	assert_int_equal(add(t, 0x0a010000, 0xffff0000, 20, 2), 0); /* 10.1/16 */
	assert_int_equal(add(t, 0x00000000, 0x00000000, 40, 3), 0); /* any */
	assert_int_equal(lookup(t, 0x0a010203, &v, &p), 0);
	assert_int_equal(v, 2);
	assert_int_equal(p, 20);
	assert_int_equal(lookup(t, 0x0a020304, &v, &p), 0);
	assert_int_equal(v, 1);
	assert_int_equal(lookup(t, 0x0b000001, &v, &p), 0);
	assert_int_equal(v, 3);
	/* A wider mask with a better priority beats a narrower one. */
	assert_int_equal(add(t, 0x00000000, 0x00000000, 5, 4), 0);
	assert_int_equal(lookup(t, 0x0a010203, &v, &p), 0);
	assert_int_equal(v, 4);
	assert_int_equal(p, 5);
	assert_int_equal(del(t, 0, 0, 5), 0);
	assert_int_equal(lookup(t, 0x0a010203, &v, &p), 0);
	assert_int_equal(v, 2);
	p4fw_ternary_destroy(t);
}

static void test_same_key_and_mask_different_priorities(void **state)
{
	struct p4fw_ternary *t;
	uint32_t v, p;
	int err;

	(void)state;
	t = p4fw_ternary_create(4, 16, 8, SEED, &err);
	assert_non_null(t);
	assert_int_equal(add(t, 0x01020304, 0xffffffff, 20, 20), 0);
	assert_int_equal(add(t, 0x01020304, 0xffffffff, 10, 10), 0);
	assert_int_equal(add(t, 0x01020304, 0xffffffff, 30, 30), 0);
	assert_int_equal(add(t, 0x01020304, 0xffffffff, 20, 99), -EEXIST);
	/* Bits outside the mask do not make a different entry. */
	assert_int_equal(add(t, 0x010203ff, 0xffffff00, 7, 7), 0);
	assert_int_equal(add(t, 0x01020300, 0xffffff00, 7, 8), -EEXIST);
	assert_int_equal(p4fw_ternary_masks(t), 2);
	assert_int_equal(lookup(t, 0x01020304, &v, &p), 0);
	assert_int_equal(v, 7);
	assert_int_equal(del(t, 0x01020311, 0xffffff00, 7), 0);
	assert_int_equal(p4fw_ternary_masks(t), 1);
	assert_int_equal(lookup(t, 0x01020304, &v, &p), 0);
	assert_int_equal(v, 10);
	assert_int_equal(del(t, 0x01020304, 0xffffffff, 10), 0);	/* head */
	assert_int_equal(lookup(t, 0x01020304, &v, &p), 0);
	assert_int_equal(v, 20);
	assert_int_equal(del(t, 0x01020304, 0xffffffff, 30), 0);	/* tail */
	assert_int_equal(del(t, 0x01020304, 0xffffffff, 30), -ENOENT);
	assert_int_equal(lookup(t, 0x01020304, &v, &p), 0);
	assert_int_equal(v, 20);
	assert_int_equal(del(t, 0x01020304, 0xffffffff, 20), 0);
	assert_int_equal(lookup(t, 0x01020304, &v, &p), -ENOENT);
	assert_int_equal(p4fw_ternary_count(t), 0);
	assert_int_equal(p4fw_ternary_masks(t), 0);
	p4fw_ternary_destroy(t);
}

static void test_limits(void **state)
{
	struct p4fw_ternary *t;
	uint32_t i;
	int err;

	(void)state;
	t = p4fw_ternary_create(4, 4, 2, SEED, &err);
	assert_non_null(t);
	assert_int_equal(add(t, 1, 0xffffffff, 1, 1), 0);
	assert_int_equal(add(t, 2, 0xffffff00, 2, 2), 0);
	assert_int_equal(add(t, 3, 0xffff0000, 3, 3), -E2BIG);	/* 3rd mask */
	assert_int_equal(add(t, 4, 0xffffffff, 4, 4), 0);
	assert_int_equal(add(t, 5, 0xffffffff, 5, 5), 0);
	assert_int_equal(add(t, 6, 0xffffffff, 6, 6), -ENOSPC);
	assert_int_equal(del(t, 2, 0xffffff00, 2), 0);		/* frees a mask */
	assert_int_equal(add(t, 3, 0xffff0000, 3, 3), 0);
	p4fw_ternary_flush(t);
	assert_int_equal(p4fw_ternary_count(t), 0);
	for (i = 0; i < 4; i++)
		assert_int_equal(add(t, i, 0xffffffff, i, i), 0);
	p4fw_ternary_destroy(t);
}

/* Random entries and keys against a linear scan over all entries. */
static void test_random_against_linear_scan(void **state)
{
	enum { N = 200, OPS = 6000 };
	static const uint32_t masks[] = {
		0xffffffff, 0xffffff00, 0xffff0000, 0xff000000, 0x0000ffff,
		0x00ff00ff, 0xf0f0f0f0, 0x00000000,
	};
	struct ref { uint32_t key, mask, prio, value; int used; } ref[N];
	struct p4fw_ternary *t;
	uint32_t rng = 777, v, p, i, key;
	int err, op;

	(void)state;
	memset(ref, 0, sizeof(ref));
	t = p4fw_ternary_create(4, N, 8, SEED, &err);
	assert_non_null(t);
	for (op = 0; op < OPS; op++) {
		rng = rng * 1664525u + 1013904223u;
		i = (rng >> 8) % N;
		if (!ref[i].used) {
			ref[i].mask = masks[(rng >> 3) % 8];
			ref[i].key = ((rng * 2654435761u) & 0x0f0f0f0f) & ref[i].mask;
			ref[i].prio = i;	/* unique priorities */
			ref[i].value = (uint32_t)op;
			assert_int_equal(add(t, ref[i].key, ref[i].mask,
					     ref[i].prio, ref[i].value), 0);
			ref[i].used = 1;
		} else {
			assert_int_equal(del(t, ref[i].key, ref[i].mask,
					     ref[i].prio), 0);
			ref[i].used = 0;
		}
		/* Probe keys drawn from the same small space. */
		key = (rng ^ (rng >> 13)) & 0x0f0f0f0f;
		{
			uint32_t best = UINT32_MAX, bv = 0, j;

			for (j = 0; j < N; j++)
				if (ref[j].used && (key & ref[j].mask) == ref[j].key &&
				    ref[j].prio < best) {
					best = ref[j].prio;
					bv = ref[j].value;
				}
			err = lookup(t, key, &v, &p);
			if (best == UINT32_MAX) {
				assert_int_equal(err, -ENOENT);
			} else {
				assert_int_equal(err, 0);
				assert_int_equal(p, best);
				assert_int_equal(v, bv);
			}
		}
	}
	p4fw_ternary_destroy(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_refuses_bad_sizes),
		cmocka_unit_test(test_lowest_priority_number_wins),
		cmocka_unit_test(test_same_key_and_mask_different_priorities),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_random_against_linear_scan),
	};

	return cmocka_run_group_tests_name("ternary", tests, NULL, NULL);
}
