// SPDX-License-Identifier: GPL-2.0
/* Exact-match table: see include/p4fw/exact.h for the design. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "p4fw/exact.h"
#include "hash.h"

struct slot {
	uint32_t tag;	/* low 32 bits of the key's hash; tag & mask = home */
	uint32_t ref;	/* entry index + 1; 0: the slot is empty */
};

struct p4fw_exact {
	uint32_t key_bytes;
	uint32_t max_entries;
	uint32_t count;
	uint32_t mask;		/* slots - 1 */
	uint64_t seed;
	struct slot *slots;
	uint8_t *keys;		/* max_entries * key_bytes */
	uint32_t *values;	/* max_entries */
	uint32_t *free;		/* stack of free entry indexes */
	uint32_t nfree;
};

struct p4fw_exact *p4fw_exact_create(uint32_t key_bytes, uint32_t max_entries,
				     int *err)
{
	struct p4fw_exact *t;
	uint64_t slots = 8;
	uint32_t i;

	if (key_bytes == 0 || key_bytes > P4FW_EXACT_MAX_KEY_BYTES ||
	    max_entries == 0 || max_entries > P4FW_EXACT_MAX_ENTRIES) {
		*err = -EINVAL;
		return NULL;
	}
	/* At most 3/4 full, so every probe run ends at an empty slot. */
	while (slots * 3 < (uint64_t)max_entries * 4)
		slots <<= 1;

	t = calloc(1, sizeof(*t));
	if (!t)
		goto nomem;
	t->key_bytes = key_bytes;
	t->max_entries = max_entries;
	t->mask = (uint32_t)(slots - 1);
	t->seed = p4fw_hash((const uint8_t *)&t, sizeof(t), 0x5eedull);
	t->slots = calloc(slots, sizeof(*t->slots));
	t->keys = malloc((size_t)max_entries * key_bytes);
	t->values = malloc((size_t)max_entries * sizeof(*t->values));
	t->free = malloc((size_t)max_entries * sizeof(*t->free));
	if (!t->slots || !t->keys || !t->values || !t->free) {
		p4fw_exact_destroy(t);
		goto nomem;
	}
	for (i = 0; i < max_entries; i++)
		t->free[i] = max_entries - 1 - i;
	t->nfree = max_entries;
	*err = 0;
	return t;
nomem:
	*err = -ENOMEM;
	return NULL;
}

void p4fw_exact_destroy(struct p4fw_exact *t)
{
	if (!t)
		return;
	free(t->slots);
	free(t->keys);
	free(t->values);
	free(t->free);
	free(t);
}

static const uint8_t *entry_key(const struct p4fw_exact *t, uint32_t ref)
{
	return t->keys + (size_t)(ref - 1) * t->key_bytes;
}

/* The slot holding KEY, or -1 with *hole the empty slot ending the run. */
static int64_t find(const struct p4fw_exact *t, const uint8_t *key,
		    uint32_t tag, uint32_t *hole)
{
	uint32_t i = tag & t->mask;

	for (;;) {
		const struct slot *s = &t->slots[i];

		if (!s->ref) {
			if (hole)
				*hole = i;
			return -1;
		}
		if (s->tag == tag &&
		    !memcmp(entry_key(t, s->ref), key, t->key_bytes))
			return i;
		i = (i + 1) & t->mask;
	}
}

int p4fw_exact_add(struct p4fw_exact *t, const uint8_t *key, uint32_t value)
{
	uint32_t tag = (uint32_t)p4fw_hash(key, t->key_bytes, t->seed);
	uint32_t hole, idx;

	if (find(t, key, tag, &hole) >= 0)
		return -EEXIST;
	if (!t->nfree)
		return -ENOSPC;
	idx = t->free[--t->nfree];
	memcpy(t->keys + (size_t)idx * t->key_bytes, key, t->key_bytes);
	t->values[idx] = value;
	t->slots[hole].tag = tag;
	t->slots[hole].ref = idx + 1;
	t->count++;
	return 0;
}

int p4fw_exact_replace(struct p4fw_exact *t, const uint8_t *key,
		       uint32_t value)
{
	uint32_t tag = (uint32_t)p4fw_hash(key, t->key_bytes, t->seed);
	int64_t i = find(t, key, tag, NULL);

	if (i < 0)
		return -ENOENT;
	t->values[t->slots[i].ref - 1] = value;
	return 0;
}

int p4fw_exact_del(struct p4fw_exact *t, const uint8_t *key, uint32_t *value)
{
	uint32_t tag = (uint32_t)p4fw_hash(key, t->key_bytes, t->seed);
	int64_t found = find(t, key, tag, NULL);
	uint32_t i, j, home, idx;

	if (found < 0)
		return -ENOENT;
	i = (uint32_t)found;
	idx = t->slots[i].ref - 1;
	if (value)
		*value = t->values[idx];
	t->free[t->nfree++] = idx;
	t->count--;

	/*
	 * Backward-shift deletion: move each later member of the run into
	 * the hole when its home does not lie cyclically in (hole, itself],
	 * so lookups never need tombstones.
	 */
	j = i;
	for (;;) {
		j = (j + 1) & t->mask;
		if (!t->slots[j].ref)
			break;
		home = t->slots[j].tag & t->mask;
		if (((j - home) & t->mask) >= ((j - i) & t->mask)) {
			t->slots[i] = t->slots[j];
			i = j;
		}
	}
	t->slots[i].ref = 0;
	t->slots[i].tag = 0;
	return 0;
}

int p4fw_exact_lookup(const struct p4fw_exact *t, const uint8_t *key,
		      uint32_t *value)
{
	uint32_t tag = (uint32_t)p4fw_hash(key, t->key_bytes, t->seed);
	int64_t i = find(t, key, tag, NULL);

	if (i < 0)
		return -ENOENT;
	*value = t->values[t->slots[i].ref - 1];
	return 0;
}

void p4fw_exact_flush(struct p4fw_exact *t)
{
	uint32_t i;

	memset(t->slots, 0, ((size_t)t->mask + 1) * sizeof(*t->slots));
	for (i = 0; i < t->max_entries; i++)
		t->free[i] = t->max_entries - 1 - i;
	t->nfree = t->max_entries;
	t->count = 0;
}

uint32_t p4fw_exact_count(const struct p4fw_exact *t)
{
	return t->count;
}

size_t p4fw_exact_footprint(const struct p4fw_exact *t)
{
	return sizeof(*t) + ((size_t)t->mask + 1) * sizeof(*t->slots) +
	       (size_t)t->max_entries * (t->key_bytes + 2 * sizeof(uint32_t));
}
