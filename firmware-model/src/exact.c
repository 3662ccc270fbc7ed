// SPDX-License-Identifier: GPL-2.0
/* Exact-match table: see include/p4fw/exact.h for the design. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "p4fw/exact.h"
#include "hash.h"

/*
 * A slot is a header and the key, inline, so that a lookup usually reads
 * one cache line: tag is the low 31 bits of the key's hash with bit 31 set
 * (0: the slot is empty; tag & mask is the slot's home), then the value,
 * then key_bytes rounded up to 8.
 */
struct slot_hdr {
	uint32_t tag;
	uint32_t value;
};

#define USED 0x80000000u

struct p4fw_exact {
	uint32_t key_bytes;
	uint32_t max_entries;
	uint32_t count;
	uint32_t mask;		/* slots - 1 */
	uint32_t stride;	/* bytes per slot */
	uint64_t seed;
	uint8_t *slots;
};

struct p4fw_exact *p4fw_exact_create(uint32_t key_bytes, uint32_t max_entries,
				     int *err)
{
	struct p4fw_exact *t;
	uint64_t slots = 8;

	if (key_bytes == 0 || key_bytes > P4FW_EXACT_MAX_KEY_BYTES ||
	    max_entries == 0 || max_entries > P4FW_EXACT_MAX_ENTRIES) {
		*err = -EINVAL;
		return NULL;
	}
	/* At most 3/4 full, so every probe run ends at an empty slot. */
	while (slots * 3 < (uint64_t)max_entries * 4)
		slots <<= 1;

	t = calloc(1, sizeof(*t));
	if (!t) {
		*err = -ENOMEM;
		return NULL;
	}
	t->key_bytes = key_bytes;
	t->max_entries = max_entries;
	t->mask = (uint32_t)(slots - 1);
	t->stride = sizeof(struct slot_hdr) + ((key_bytes + 7) & ~7u);
	t->seed = p4fw_hash((const uint8_t *)&t, sizeof(t), 0x5eedull);
	t->slots = fw_big_zalloc(slots * t->stride);
	if (!t->slots) {
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
	fw_big_free(t->slots, ((size_t)t->mask + 1) * t->stride);
	free(t);
}

static struct slot_hdr *slot(const struct p4fw_exact *t, uint32_t i)
{
	return (struct slot_hdr *)(t->slots + (size_t)i * t->stride);
}

static uint8_t *slot_key(struct slot_hdr *s)
{
	return (uint8_t *)(s + 1);
}

static uint32_t tag_of(const struct p4fw_exact *t, const uint8_t *key)
{
	uint64_t w = 0;

	if (t->key_bytes <= 8) {
		memcpy(&w, key, t->key_bytes);
		return (uint32_t)p4fw_hash64(w, t->seed) | USED;
	}
	return (uint32_t)p4fw_hash(key, t->key_bytes, t->seed) | USED;
}

/* The slot holding KEY, or -1 with *hole the empty slot ending the run. */
static int64_t find(const struct p4fw_exact *t, const uint8_t *key,
		    uint32_t tag, uint32_t *hole)
{
	uint32_t i = tag & t->mask;

	for (;;) {
		struct slot_hdr *s = slot(t, i);

		if (!s->tag) {
			if (hole)
				*hole = i;
			return -1;
		}
		if (s->tag == tag && !memcmp(slot_key(s), key, t->key_bytes))
			return i;
		i = (i + 1) & t->mask;
	}
}

int p4fw_exact_add(struct p4fw_exact *t, const uint8_t *key, uint32_t value)
{
	uint32_t tag = tag_of(t, key), hole;
	struct slot_hdr *s;

	if (find(t, key, tag, &hole) >= 0)
		return -EEXIST;
	if (t->count == t->max_entries)
		return -ENOSPC;
	s = slot(t, hole);
	memcpy(slot_key(s), key, t->key_bytes);
	s->value = value;
	s->tag = tag;
	t->count++;
	return 0;
}

int p4fw_exact_replace(struct p4fw_exact *t, const uint8_t *key,
		       uint32_t value)
{
	int64_t i = find(t, key, tag_of(t, key), NULL);

	if (i < 0)
		return -ENOENT;
	slot(t, (uint32_t)i)->value = value;
	return 0;
}

int p4fw_exact_del(struct p4fw_exact *t, const uint8_t *key, uint32_t *value)
{
	int64_t found = find(t, key, tag_of(t, key), NULL);
	uint32_t i, j, home;

	if (found < 0)
		return -ENOENT;
	i = (uint32_t)found;
	if (value)
		*value = slot(t, i)->value;
	t->count--;

	/*
	 * Backward-shift deletion: move each later member of the run into
	 * the hole when its home does not lie cyclically in (hole, itself],
	 * so lookups never need tombstones.
	 */
	j = i;
	for (;;) {
		j = (j + 1) & t->mask;
		if (!slot(t, j)->tag)
			break;
		home = slot(t, j)->tag & t->mask;
		if (((j - home) & t->mask) >= ((j - i) & t->mask)) {
			memcpy(slot(t, i), slot(t, j), t->stride);
			i = j;
		}
	}
	slot(t, i)->tag = 0;
	return 0;
}

/*
 * Keys of up to 8 bytes (most P4 keys: an address, a port, a MAC) are
 * hashed and compared as one zero-padded word; slot keys are padded with
 * zeros, so the word compare is exact.
 */
static int lookup_small(const struct p4fw_exact *t, const uint8_t *key,
			uint32_t *value)
{
	uint64_t w = 0, k;
	uint32_t tag, i;

	memcpy(&w, key, t->key_bytes);
	tag = (uint32_t)p4fw_hash64(w, t->seed) | USED;
	for (i = tag & t->mask;; i = (i + 1) & t->mask) {
		struct slot_hdr *s = slot(t, i);

		if (!s->tag)
			return -ENOENT;
		memcpy(&k, slot_key(s), 8);
		if (s->tag == tag && k == w) {
			*value = s->value;
			return 0;
		}
	}
}

int p4fw_exact_lookup(const struct p4fw_exact *t, const uint8_t *key,
		      uint32_t *value)
{
	int64_t i;

	if (t->key_bytes <= 8)
		return lookup_small(t, key, value);
	i = find(t, key, tag_of(t, key), NULL);

	if (i < 0)
		return -ENOENT;
	*value = slot(t, (uint32_t)i)->value;
	return 0;
}

void p4fw_exact_flush(struct p4fw_exact *t)
{
	memset(t->slots, 0, ((size_t)t->mask + 1) * t->stride);
	t->count = 0;
}

uint32_t p4fw_exact_count(const struct p4fw_exact *t)
{
	return t->count;
}

size_t p4fw_exact_footprint(const struct p4fw_exact *t)
{
	return sizeof(*t) + ((size_t)t->mask + 1) * t->stride;
}
