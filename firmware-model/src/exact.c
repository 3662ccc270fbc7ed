// SPDX-License-Identifier: GPL-2.0-or-later
/* Exact-match table: see include/p4fw/exact.h for the design. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "p4fw/exact.h"
#include "hash.h"

/*
 * A bucket holds WAYS entries laid out by field, so that for keys of up
 * to 8 bytes a bucket is exactly one 64-byte cache line:
 *
 *	uint32_t tag[WAYS];	0: the way is empty
 *	uint32_t value[WAYS];
 *	uint8_t  key[WAYS][kstride];	key_bytes rounded up to 8, zero-padded
 *
 * A tag is 32 bits of the key's hash with bit 0 set, and also names the
 * key's home bucket, (tag * buckets) >> 32, so a bucket count need not be
 * a power of two and deletion never rehashes a key.  A key lives in its
 * home bucket or, when that is full, in one of the full buckets after it
 * (cyclically): a lookup stops at the first bucket with an empty way.
 * All WAYS tags are compared without a branch per way, so the usual
 * lookup (a hit or miss in the home bucket) takes one predictable branch
 * and the CPU can overlap the cache misses of consecutive lookups.
 */
#define WAYS 4u

_Static_assert(WAYS == 4, "p4fw_exact_lookup_word compares four ways");

struct p4fw_exact {
	uint32_t key_bytes;
	uint32_t max_entries;
	uint32_t count;
	uint32_t buckets;
	uint32_t kstride;	/* bytes per key in a bucket */
	uint32_t bstride;	/* bytes per bucket */
	uint64_t seed;
	uint8_t *mem;
};

struct p4fw_exact *p4fw_exact_create(uint32_t key_bytes, uint32_t max_entries,
				     uint64_t seed, int *err)
{
	struct p4fw_exact *t;

	if (key_bytes == 0 || key_bytes > P4FW_EXACT_MAX_KEY_BYTES ||
	    max_entries == 0 || max_entries > P4FW_EXACT_MAX_ENTRIES) {
		*err = -EINVAL;
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		*err = -ENOMEM;
		return NULL;
	}
	t->key_bytes = key_bytes;
	t->max_entries = max_entries;
	/*
	 * At most 3/4 of the ways in use, and at least two buckets, so
	 * every run of full buckets ends at one with an empty way.
	 */
	t->buckets = (uint32_t)(((uint64_t)max_entries * 4 + 3 * WAYS - 1) /
				(3 * WAYS)) + 1;
	t->kstride = (key_bytes + 7) & ~7u;
	t->bstride = WAYS * (8 + t->kstride);
	t->seed = seed;
	t->mem = fw_big_zalloc((size_t)t->buckets * t->bstride);
	if (!t->mem) {
		free(t);
		*err = -ENOMEM;
		return NULL;
	}
	*err = 0;
	return t;
}

void p4fw_exact_destroy(struct p4fw_exact *t)
{
	if (!t)
		return;
	fw_big_free(t->mem, (size_t)t->buckets * t->bstride);
	free(t);
}

uint64_t p4fw_exact_seed(const struct p4fw_exact *t)
{
	return t->seed;
}

static uint8_t *bucket(const struct p4fw_exact *t, uint32_t b)
{
	return t->mem + (size_t)b * t->bstride;
}

static uint32_t *tags(uint8_t *b)
{
	return (uint32_t *)b;
}

static uint32_t *values(uint8_t *b)
{
	return (uint32_t *)b + WAYS;
}

static uint8_t *key_at(const struct p4fw_exact *t, uint8_t *b, uint32_t way)
{
	return b + WAYS * 8 + way * t->kstride;
}

static uint32_t home(const struct p4fw_exact *t, uint32_t tag)
{
	return (uint32_t)(((uint64_t)tag * t->buckets) >> 32);
}

static uint32_t next(const struct p4fw_exact *t, uint32_t b)
{
	return b + 1 == t->buckets ? 0 : b + 1;
}

static uint32_t tag_of(const struct p4fw_exact *t, const uint8_t *key)
{
	if (t->key_bytes <= 8)
		return (uint32_t)p4fw_hash64(p4fw_load_small(key, t->key_bytes),
					     t->seed) | 1;
	return (uint32_t)p4fw_hash(key, t->key_bytes, t->seed) | 1;
}

/* Bit i set when way i of bucket B is empty. */
static unsigned int empty_ways(uint8_t *b)
{
	unsigned int m = 0, i;

	for (i = 0; i < WAYS; i++)
		m |= (unsigned int)(tags(b)[i] == 0) << i;
	return m;
}

/*
 * Find KEY: 0 with *bp, *wayp its place, or -ENOENT with *bp the first
 * bucket with an empty way, where KEY would go.
 */
static int find(const struct p4fw_exact *t, const uint8_t *key, uint32_t tag,
		uint32_t *bp, uint32_t *wayp)
{
	uint32_t b = home(t, tag), i;

	for (;;) {
		uint8_t *bk = bucket(t, b);

		for (i = 0; i < WAYS; i++)
			if (tags(bk)[i] == tag &&
			    !memcmp(key_at(t, bk, i), key, t->key_bytes)) {
				*bp = b;
				*wayp = i;
				return 0;
			}
		if (empty_ways(bk)) {
			*bp = b;
			return -ENOENT;
		}
		b = next(t, b);
	}
}

int p4fw_exact_add(struct p4fw_exact *t, const uint8_t *key, uint32_t value)
{
	uint32_t tag = tag_of(t, key), b, way;
	uint8_t *bk;

	if (!find(t, key, tag, &b, &way))
		return -EEXIST;
	if (t->count == t->max_entries)
		return -ENOSPC;
	bk = bucket(t, b);
	way = (uint32_t)__builtin_ctz(empty_ways(bk));
	memset(key_at(t, bk, way), 0, t->kstride);
	memcpy(key_at(t, bk, way), key, t->key_bytes);
	values(bk)[way] = value;
	tags(bk)[way] = tag;
	t->count++;
	return 0;
}

int p4fw_exact_replace(struct p4fw_exact *t, const uint8_t *key,
		       uint32_t value)
{
	uint32_t b, way;

	if (find(t, key, tag_of(t, key), &b, &way))
		return -ENOENT;
	values(bucket(t, b))[way] = value;
	return 0;
}

/* Buckets from A forward to B, cyclically. */
static uint32_t dist(const struct p4fw_exact *t, uint32_t a, uint32_t b)
{
	return b >= a ? b - a : b + t->buckets - a;
}

int p4fw_exact_del(struct p4fw_exact *t, const uint8_t *key, uint32_t *value)
{
	uint32_t hole, hway, b, i;
	uint8_t *hk, *bk;
	int run_ends;

	if (find(t, key, tag_of(t, key), &hole, &hway))
		return -ENOENT;
	hk = bucket(t, hole);
	if (value)
		*value = values(hk)[hway];
	t->count--;

	/*
	 * The hole may end a run that keys after it relied on: bring back
	 * into it a later key of the run whose home is at or before the
	 * hole, which leaves a hole where that key was; repeat until the
	 * scan passes a bucket that had an empty way (the run's end).
	 */
	run_ends = empty_ways(hk) != 0;
	for (b = next(t, hole); !run_ends; b = next(t, b)) {
		bk = bucket(t, b);
		run_ends = empty_ways(bk) != 0;
		for (i = 0; i < WAYS; i++) {
			uint32_t tag = tags(bk)[i];

			if (!tag || dist(t, home(t, tag), b) < dist(t, hole, b))
				continue;
			memcpy(key_at(t, hk, hway), key_at(t, bk, i),
			       t->kstride);
			values(hk)[hway] = values(bk)[i];
			tags(hk)[hway] = tag;
			hole = b;
			hway = i;
			hk = bk;
			break;
		}
	}
	tags(hk)[hway] = 0;
	return 0;
}

/*
 * Keys of up to 8 bytes (most P4 keys: an address, a port, a MAC) are
 * hashed and compared as one zero-padded word, all four ways at once;
 * a slot's key bytes read as that word because the model runs on
 * little-endian hosts only (hash.h).
 */
int p4fw_exact_lookup_word(const struct p4fw_exact *t, uint64_t w,
			   uint32_t *value)
{
	uint32_t tag = (uint32_t)p4fw_hash64(w, t->seed) | 1, b;

	for (b = home(t, tag);; b = next(t, b)) {
		uint8_t *bk = bucket(t, b);
		const uint32_t *tg = tags(bk);
		uint64_t k[WAYS];
		unsigned int hit;

		memcpy(k, key_at(t, bk, 0), sizeof(k));
		hit = ((tg[0] == tag) & (k[0] == w)) |
		      ((tg[1] == tag) & (k[1] == w)) << 1 |
		      ((tg[2] == tag) & (k[2] == w)) << 2 |
		      ((tg[3] == tag) & (k[3] == w)) << 3;
		if (hit) {
			*value = values(bk)[__builtin_ctz(hit)];
			return 0;
		}
		if (empty_ways(bk))
			return -ENOENT;
	}
}

int p4fw_exact_lookup(const struct p4fw_exact *t, const uint8_t *key,
		      uint32_t *value)
{
	uint32_t b, way;

	if (t->key_bytes <= 8)
		return p4fw_exact_lookup_word(t, p4fw_load_small(key,
							 t->key_bytes), value);
	if (find(t, key, tag_of(t, key), &b, &way))
		return -ENOENT;
	*value = values(bucket(t, b))[way];
	return 0;
}

void p4fw_exact_flush(struct p4fw_exact *t)
{
	fw_big_zero(t->mem, (size_t)t->buckets * t->bstride);
	t->count = 0;
}

uint32_t p4fw_exact_count(const struct p4fw_exact *t)
{
	return t->count;
}

size_t p4fw_exact_footprint(const struct p4fw_exact *t)
{
	return sizeof(*t) + (size_t)t->buckets * t->bstride;
}
