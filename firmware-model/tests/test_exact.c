// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the exact-match table (include/p4fw/exact.h). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "p4fw/exact.h"

/* any fixed value: the tables' hash seed */
#define SEED 0x5eedull

static void key32(uint8_t *k, uint32_t v)
{
	memcpy(k, &v, 4);
}

static void test_create_refuses_bad_sizes(void **state)
{
	int err = 0;

	(void)state;
	assert_null(p4fw_exact_create(0, 16, SEED, &err));
	assert_int_equal(err, -EINVAL);
	assert_null(p4fw_exact_create(P4FW_EXACT_MAX_KEY_BYTES + 1, 16, SEED, &err));
	assert_int_equal(err, -EINVAL);
	assert_null(p4fw_exact_create(4, 0, SEED, &err));
	assert_int_equal(err, -EINVAL);
	assert_null(p4fw_exact_create(4, P4FW_EXACT_MAX_ENTRIES + 1, SEED, &err));
	assert_int_equal(err, -EINVAL);
}

static void test_add_lookup_replace_del(void **state)
{
	struct p4fw_exact *t;
	uint8_t k[4];
	uint32_t v = 0;
	int err;

	(void)state;
	t = p4fw_exact_create(4, 16, SEED, &err);
	assert_non_null(t);
	assert_int_equal(err, 0);
	key32(k, 0x0a000001);
	assert_int_equal(p4fw_exact_lookup(t, k, &v), -ENOENT);
	assert_int_equal(p4fw_exact_add(t, k, 7), 0);
	assert_int_equal(p4fw_exact_add(t, k, 8), -EEXIST);
	assert_int_equal(p4fw_exact_lookup(t, k, &v), 0);
	assert_int_equal(v, 7);
	assert_int_equal(p4fw_exact_replace(t, k, 9), 0);
	assert_int_equal(p4fw_exact_lookup(t, k, &v), 0);
	assert_int_equal(v, 9);
	assert_int_equal(p4fw_exact_count(t), 1);
	assert_int_equal(p4fw_exact_del(t, k, &v), 0);
	assert_int_equal(v, 9);
	assert_int_equal(p4fw_exact_del(t, k, NULL), -ENOENT);
	assert_int_equal(p4fw_exact_replace(t, k, 1), -ENOENT);
	assert_int_equal(p4fw_exact_lookup(t, k, &v), -ENOENT);
	assert_int_equal(p4fw_exact_count(t), 0);
	p4fw_exact_destroy(t);
}

static void test_full_table_refuses_then_accepts_after_delete(void **state)
{
	struct p4fw_exact *t;
	uint8_t k[4];
	uint32_t i, v;
	int err;

	(void)state;
	t = p4fw_exact_create(4, 100, SEED, &err);
	assert_non_null(t);
	for (i = 0; i < 100; i++) {
		key32(k, i * 7919);
		assert_int_equal(p4fw_exact_add(t, k, i), 0);
	}
	key32(k, 0xdead);
	assert_int_equal(p4fw_exact_add(t, k, 1), -ENOSPC);
	key32(k, 5 * 7919);
	assert_int_equal(p4fw_exact_del(t, k, NULL), 0);
	key32(k, 0xdead);
	assert_int_equal(p4fw_exact_add(t, k, 1), 0);
	for (i = 0; i < 100; i++) {
		if (i == 5)
			continue;
		key32(k, i * 7919);
		assert_int_equal(p4fw_exact_lookup(t, k, &v), 0);
		assert_int_equal(v, i);
	}
	p4fw_exact_destroy(t);
}

static void test_key_lengths(void **state)
{
	static const uint32_t lens[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 16, 63, 64, 72 };
	uint8_t k[P4FW_EXACT_MAX_KEY_BYTES];
	uint32_t v;
	size_t n;
	int err, i;

	(void)state;
	for (n = 0; n < sizeof(lens) / sizeof(lens[0]); n++) {
		struct p4fw_exact *t = p4fw_exact_create(lens[n], 300, SEED, &err);

		assert_non_null(t);
		for (i = 0; i < 256; i++) {
			memset(k, 0, sizeof(k));
			k[0] = (uint8_t)i;
			k[lens[n] - 1] ^= 0x80;	/* the last byte counts too */
			assert_int_equal(p4fw_exact_add(t, k, (uint32_t)i), 0);
		}
		for (i = 0; i < 256; i++) {
			memset(k, 0, sizeof(k));
			k[0] = (uint8_t)i;
			k[lens[n] - 1] ^= 0x80;
			assert_int_equal(p4fw_exact_lookup(t, k, &v), 0);
			assert_int_equal(v, (uint32_t)i);
		}
		if (lens[n] > 1) {
			memset(k, 0, sizeof(k));	/* last byte differs */
			assert_int_equal(p4fw_exact_lookup(t, k, &v), -ENOENT);
		}
		p4fw_exact_destroy(t);
	}
}

/*
 * Random adds, replaces and deletes over a small key space in a small
 * table, checked after every operation against a plain array.  ADDS of
 * every 8 operations are adds, one a replace, the rest deletes: at 5 adds
 * the table stays at its capacity, so runs of full buckets are long and
 * deletes move keys back.
 */
static void random_against_reference(uint32_t key_bytes, uint32_t adds)
{
	enum { SPACE = 512, CAP = 300, OPS = 20000 };
	static int32_t ref[SPACE];	/* -1: absent, else the value */
	struct p4fw_exact *t;
	uint32_t rng = 12345, v, count = 0, i, key, what;
	uint8_t k[16] = { 0 };
	int err, op;

	t = p4fw_exact_create(key_bytes, CAP, SEED, &err);
	assert_non_null(t);
	for (i = 0; i < SPACE; i++)
		ref[i] = -1;
	for (op = 0; op < OPS; op++) {
		rng = rng * 1103515245u + 12345u;
		key = (rng >> 8) % SPACE;
		key32(k + key_bytes - 4, key);
		what = (rng >> 4) % 8;
		if (what < adds) {
			err = p4fw_exact_add(t, k, (uint32_t)op);
			if (ref[key] >= 0) {
				assert_int_equal(err, -EEXIST);
			} else if (count == CAP) {
				assert_int_equal(err, -ENOSPC);
			} else {
				assert_int_equal(err, 0);
				ref[key] = op;
				count++;
			}
		} else if (what == adds) {
			err = p4fw_exact_replace(t, k, (uint32_t)op);
			assert_int_equal(err, ref[key] >= 0 ? 0 : -ENOENT);
			if (ref[key] >= 0)
				ref[key] = op;
		} else {
			err = p4fw_exact_del(t, k, &v);
			if (ref[key] >= 0) {
				assert_int_equal(err, 0);
				assert_int_equal(v, (uint32_t)ref[key]);
				ref[key] = -1;
				count--;
			} else {
				assert_int_equal(err, -ENOENT);
			}
		}
		assert_int_equal(p4fw_exact_count(t), count);
		if (op % 97)
			continue;
		for (i = 0; i < SPACE; i++) {
			key32(k + key_bytes - 4, i);
			err = p4fw_exact_lookup(t, k, &v);
			if (ref[i] >= 0) {
				assert_int_equal(err, 0);
				assert_int_equal(v, (uint32_t)ref[i]);
			} else {
				assert_int_equal(err, -ENOENT);
			}
		}
	}
	p4fw_exact_destroy(t);
}

static void test_random_against_reference(void **state)
{
	(void)state;
	random_against_reference(4, 3);		/* word compare */
	random_against_reference(16, 3);	/* byte compare */
}

static void test_random_at_capacity(void **state)
{
	(void)state;
	random_against_reference(4, 5);
	random_against_reference(16, 5);
}

static void test_flush(void **state)
{
	struct p4fw_exact *t;
	uint8_t k[4];
	uint32_t i, v;
	int err;

	(void)state;
	t = p4fw_exact_create(4, 64, SEED, &err);
	assert_non_null(t);
	for (i = 0; i < 64; i++) {
		key32(k, i);
		assert_int_equal(p4fw_exact_add(t, k, i), 0);
	}
	p4fw_exact_flush(t);
	assert_int_equal(p4fw_exact_count(t), 0);
	for (i = 0; i < 64; i++) {
		key32(k, i);
		assert_int_equal(p4fw_exact_lookup(t, k, &v), -ENOENT);
	}
	for (i = 0; i < 64; i++) {	/* full capacity again */
		key32(k, i + 1000);
		assert_int_equal(p4fw_exact_add(t, k, i), 0);
	}
	p4fw_exact_destroy(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_refuses_bad_sizes),
		cmocka_unit_test(test_add_lookup_replace_del),
		cmocka_unit_test(test_full_table_refuses_then_accepts_after_delete),
		cmocka_unit_test(test_key_lengths),
		cmocka_unit_test(test_random_against_reference),
		cmocka_unit_test(test_random_at_capacity),
		cmocka_unit_test(test_flush),
	};

	return cmocka_run_group_tests_name("exact", tests, NULL, NULL);
}
