// SPDX-License-Identifier: GPL-2.0-or-later
/* Ternary table: see include/p4fw/ternary.h for the design. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "p4fw/exact.h"
#include "p4fw/ternary.h"
#include "hash.h"

#define NONE UINT32_MAX
#define SATURATED 255

/*
 * Each group has a counting Bloom filter of the masked keys it holds, so a
 * lookup skips a group that cannot match at the cost of a multiply and one
 * word test, and probes the index only for the few that may.  The filter
 * is blocked: one hash picks a 64-bit word and three bits in it (16 bits
 * per entry: 0.8% false positives measured, against 1.7% with two bits).  A counter stuck at SATURATED is
 * never decremented: it can only cost a useless probe, never a wrong
 * answer.
 */
#define FILTER_MIN_BITS 512u
#define FILTER_MAX_BITS (1u << 17)	/* word index: at most the top 11 bits */
#define FILTER_MUL 0x9e3779b97f4a7c15ull	/* odd */

/* The lookup's view of a group, kept in lookup order. */
struct hot {
	uint64_t mask;		/* the mask's first 8 bytes, for short keys */
	const uint64_t *filter;	/* the group's filter words */
	uint32_t min_prio;
	uint32_t id;
};

/* The entries that share one mask. */
struct group {
	uint8_t mask[P4FW_TERNARY_MAX_KEY_BYTES];
	uint32_t refs;		/* entries in the group; 0: slot unused */
	/*
	 * No entry of the group has a lower priority number than this.  It
	 * is lowered on add and left alone on delete: still a valid bound
	 * for stopping a lookup, and keeping it exact would cost a scan.
	 */
	uint32_t min_prio;
};

struct p4fw_ternary {
	uint32_t key_bytes;
	uint32_t max_entries;
	uint32_t max_masks;
	uint32_t count;
	struct p4fw_exact *index;	/* (group id, key & mask) -> head */
	struct group *groups;		/* max_masks slots */
	uint8_t *order;			/* used group ids by min_prio */
	uint32_t norder;
	uint32_t *prio;			/* per entry */
	uint32_t *value;
	uint32_t *next;			/* same key & mask, higher prio number */
	uint32_t *free;
	uint32_t nfree;
	struct hot *hot;		/* norder entries, as order */
	uint64_t fseed;
	uint32_t fshift;		/* 64 - log2(words per filter) */
	uint32_t fwords;		/* 64-bit words per group's filter */
	uint64_t *fbits;		/* max_masks filters */
	uint8_t *fcount;		/* their counters */
};

struct p4fw_ternary *p4fw_ternary_create(uint32_t key_bytes,
					 uint32_t max_entries,
					 uint32_t max_masks, uint64_t seed,
					 int *err)
{
	struct p4fw_ternary *t;

	if (key_bytes == 0 || key_bytes > P4FW_TERNARY_MAX_KEY_BYTES ||
	    max_masks == 0 || max_masks > P4FW_TERNARY_MAX_MASKS ||
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
	t->max_masks = max_masks;
	t->index = p4fw_exact_create(key_bytes + 1, max_entries, seed, err);
	if (!t->index) {
		free(t);
		return NULL;
	}
	{
		uint64_t per = ((uint64_t)max_entries + max_masks - 1) /
			       max_masks * 16;
		uint32_t bits = FILTER_MIN_BITS, log = 9;

		while (bits < per && bits < FILTER_MAX_BITS) {
			bits <<= 1;
			log++;
		}
		t->fshift = 64 - (log - 6);	/* picks a word */
		t->fwords = bits / 64;
		t->fseed = p4fw_hash64(seed, 0xb100ull);
		t->fbits = calloc((size_t)max_masks * t->fwords,
				  sizeof(*t->fbits));
		t->fcount = calloc((size_t)max_masks * bits, 1);
	}
	t->hot = calloc(max_masks, sizeof(*t->hot));
	t->groups = calloc(max_masks, sizeof(*t->groups));
	t->order = calloc(max_masks, sizeof(*t->order));
	t->prio = malloc((size_t)max_entries * sizeof(*t->prio));
	t->value = malloc((size_t)max_entries * sizeof(*t->value));
	t->next = malloc((size_t)max_entries * sizeof(*t->next));
	t->free = malloc((size_t)max_entries * sizeof(*t->free));
	if (!t->groups || !t->order || !t->prio || !t->value || !t->next ||
	    !t->free || !t->hot || !t->fbits || !t->fcount) {
		p4fw_ternary_destroy(t);
		*err = -ENOMEM;
		return NULL;
	}
	p4fw_ternary_flush(t);
	*err = 0;
	return t;
}

void p4fw_ternary_destroy(struct p4fw_ternary *t)
{
	if (!t)
		return;
	p4fw_exact_destroy(t->index);
	free(t->groups);
	free(t->order);
	free(t->prio);
	free(t->value);
	free(t->next);
	free(t->free);
	free(t->hot);
	free(t->fbits);
	free(t->fcount);
	free(t);
}

void p4fw_ternary_flush(struct p4fw_ternary *t)
{
	uint32_t i;

	p4fw_exact_flush(t->index);
	memset(t->groups, 0, (size_t)t->max_masks * sizeof(*t->groups));
	memset(t->fbits, 0, (size_t)t->max_masks * t->fwords * 8);
	memset(t->fcount, 0, (size_t)t->max_masks * t->fwords * 64);
	t->norder = 0;
	for (i = 0; i < t->max_entries; i++)
		t->free[i] = t->max_entries - 1 - i;
	t->nfree = t->max_entries;
	t->count = 0;
}

/* The index key of KEY in group ID: the id, then key & mask. */
static void index_key(const struct p4fw_ternary *t, uint32_t id,
		      const uint8_t *key, uint8_t *out)
{
	const uint8_t *mask = t->groups[id].mask;
	uint32_t i;

	out[0] = (uint8_t)id;
	for (i = 0; i < t->key_bytes; i++)
		out[i + 1] = key[i] & mask[i];
}

static int64_t find_group(const struct p4fw_ternary *t, const uint8_t *mask)
{
	uint32_t i;

	for (i = 0; i < t->norder; i++)
		if (!memcmp(t->groups[t->order[i]].mask, mask, t->key_bytes))
			return t->order[i];
	return -1;
}

/*
 * The filter hash of a masked key of up to 8 bytes: one multiply
 * (multiply-shift: the product's high bits, the only ones a filter
 * reads, are a universal hash), the cheapest step of a lookup's loop
 * over the groups.  The seed keeps key 0 from mapping to 0.
 */
static inline uint64_t short_hash(uint64_t seed, uint64_t x)
{
	return (x ^ seed) * FILTER_MUL;
}

/*
 * A filter's three bits for hash H, from high bits below its word index.
 * Three, not two: at 16 filter bits per entry that halves the false
 * positives, each of which costs a probe of the index.
 */
static inline uint64_t filter_bits(uint64_t h)
{
	return 1ull << (h >> 34 & 63) | 1ull << (h >> 40 & 63) |
	       1ull << (h >> 46 & 63);
}

/* The filter hash of key & mask (a group's mask). */
static uint64_t filter_hash(const struct p4fw_ternary *t, const uint8_t *key,
			    const uint8_t *mask)
{
	uint8_t m[P4FW_TERNARY_MAX_KEY_BYTES];
	uint64_t w = 0, mw = 0;
	uint32_t i;

	if (t->key_bytes <= 8) {
		w = p4fw_load_small(key, t->key_bytes);
		mw = p4fw_load_small(mask, t->key_bytes);
		return short_hash(t->fseed, w & mw);
	}
	for (i = 0; i < t->key_bytes; i++)
		m[i] = key[i] & mask[i];
	return p4fw_hash(m, t->key_bytes, t->fseed);
}

/* Word of group ID's filter for hash H; its two bits in *BITS. */
static size_t filter_word(const struct p4fw_ternary *t, uint32_t id,
			  uint64_t h, uint64_t *bits)
{
	*bits = filter_bits(h);
	return (size_t)id * t->fwords + (size_t)(h >> t->fshift);
}

static void filter_update(struct p4fw_ternary *t, uint32_t id, uint64_t h,
			  int add)
{
	uint64_t bits, b;
	size_t w = filter_word(t, id, h, &bits);

	for (b = bits; b; b &= b - 1) {
		uint8_t *c = &t->fcount[w * 64 + (size_t)__builtin_ctzll(b)];

		if (*c == SATURATED)
			continue;
		if (add)
			++*c;
		else if (!--*c)
			t->fbits[w] &= ~(b & -b);
	}
	if (add)
		t->fbits[w] |= bits;
}

/*
 * Keep t->order sorted by min_prio (at most 128 ids: insertion sort), and
 * t->hot in the same order.
 */
static void sort_order(struct p4fw_ternary *t)
{
	uint32_t i, j;

	for (i = 1; i < t->norder; i++) {
		uint8_t id = t->order[i];
		uint32_t p = t->groups[id].min_prio;

		for (j = i; j > 0 && t->groups[t->order[j - 1]].min_prio > p; j--)
			t->order[j] = t->order[j - 1];
		t->order[j] = id;
	}
	for (i = 0; i < t->norder; i++) {
		const struct group *g = &t->groups[t->order[i]];

		t->hot[i].id = t->order[i];
		t->hot[i].filter = &t->fbits[(size_t)t->order[i] * t->fwords];
		t->hot[i].min_prio = g->min_prio;
		t->hot[i].mask = 0;
		memcpy(&t->hot[i].mask, g->mask,
		       t->key_bytes < 8 ? t->key_bytes : 8);
	}
}

int p4fw_ternary_add(struct p4fw_ternary *t, const uint8_t *key,
		     const uint8_t *mask, uint32_t prio, uint32_t value)
{
	uint8_t ik[P4FW_TERNARY_MAX_KEY_BYTES + 1];
	uint32_t id, head, e, *link;
	int64_t g = find_group(t, mask);
	int err;

	/* Refusals first, so that a refused add changes nothing. */
	if (g < 0 && t->norder == t->max_masks)
		return -E2BIG;
	if (!t->nfree)
		return -ENOSPC;
	if (g < 0) {
		for (id = 0; t->groups[id].refs; id++)
			;
		memcpy(t->groups[id].mask, mask, t->key_bytes);
		t->groups[id].min_prio = NONE;
	} else {
		id = (uint32_t)g;
	}
	index_key(t, id, key, ik);

	if (p4fw_exact_lookup(t->index, ik, &head) == 0) {
		uint32_t n = 0;

		/* Same key & mask: the chain, sorted by priority. */
		for (link = &head; *link != NONE && t->prio[*link] <= prio;
		     link = &t->next[*link], n++)
			if (t->prio[*link] == prio)
				return -EEXIST;
		for (e = *link; e != NONE && n < P4FW_TERNARY_MAX_SAME;
		     e = t->next[e])
			n++;
		if (n >= P4FW_TERNARY_MAX_SAME)
			return -EMLINK;
		e = t->free[--t->nfree];
		t->next[e] = *link;
		*link = e;
		if (head == e)
			p4fw_exact_replace(t->index, ik, e);
	} else {
		e = t->free[--t->nfree];
		t->next[e] = NONE;
		err = p4fw_exact_add(t->index, ik, e);
		if (err) {	/* cannot happen: the index holds max_entries */
			t->free[t->nfree++] = e;
			return err;
		}
		filter_update(t, id, filter_hash(t, key, t->groups[id].mask),
			      1);
	}
	t->prio[e] = prio;
	t->value[e] = value;
	t->count++;
	if (!t->groups[id].refs++)
		t->order[t->norder++] = (uint8_t)id;
	if (prio < t->groups[id].min_prio)
		t->groups[id].min_prio = prio;
	sort_order(t);
	return 0;
}

int p4fw_ternary_del(struct p4fw_ternary *t, const uint8_t *key,
		     const uint8_t *mask, uint32_t prio, uint32_t *value)
{
	uint8_t ik[P4FW_TERNARY_MAX_KEY_BYTES + 1];
	int64_t g = find_group(t, mask);
	uint32_t head, e, *link, i;

	if (g < 0)
		return -ENOENT;
	index_key(t, (uint32_t)g, key, ik);
	if (p4fw_exact_lookup(t->index, ik, &head))
		return -ENOENT;
	for (link = &head; *link != NONE && t->prio[*link] != prio;
	     link = &t->next[*link])
		;
	if (*link == NONE)
		return -ENOENT;
	e = *link;
	*link = t->next[e];
	if (link == &head) {
		/* The head changed: point the index at the new one. */
		if (head == NONE) {
			p4fw_exact_del(t->index, ik, NULL);
			filter_update(t, (uint32_t)g,
				      filter_hash(t, key, t->groups[g].mask),
				      0);
		} else {
			p4fw_exact_replace(t->index, ik, head);
		}
	}
	if (value)
		*value = t->value[e];
	t->free[t->nfree++] = e;
	t->count--;
	if (!--t->groups[g].refs) {
		for (i = 0; t->order[i] != g; i++)
			;
		memmove(&t->order[i], &t->order[i + 1], t->norder - i - 1);
		t->norder--;
		/* A reused group starts clean, saturated counters included. */
		memset(&t->fbits[(size_t)g * t->fwords], 0, t->fwords * 8);
		memset(&t->fcount[(size_t)g * t->fwords * 64], 0,
		       t->fwords * 64);
		sort_order(t);
	}
	return 0;
}

/* A group's filter says whether key & mask may be in it (hash H). */
static inline bool may_hold_in(const uint64_t *filter, uint32_t fshift,
			       uint64_t h)
{
	uint64_t bits = filter_bits(h);

	return (filter[h >> fshift] & bits) == bits;
}

/*
 * Keys of up to 7 bytes, the common case: the key, each group's mask and
 * the index key are words in registers, and a group the filter rules out
 * costs a dozen instructions.
 */
static uint32_t lookup_short(const struct p4fw_ternary *t, const uint8_t *key,
			     uint32_t *best)
{
	const struct hot *g = t->hot, *end = t->hot + t->norder;
	uint64_t kw = p4fw_load_small(key, t->key_bytes), seed = t->fseed, x;
	uint32_t fshift = t->fshift, head, best_prio = NONE;

	for (; g < end; g++) {
		/* Groups come by their lowest possible priority: stop early. */
		if (best_prio <= g->min_prio)
			break;
		x = kw & g->mask;
		if (!may_hold_in(g->filter, fshift, short_hash(seed, x)))
			continue;
		/* index_key's bytes, as the word they make */
		if (p4fw_exact_lookup_word(t->index, g->id | x << 8, &head))
			continue;
		if (t->prio[head] < best_prio) {
			*best = head;
			best_prio = t->prio[head];
		}
	}
	return best_prio;
}

static uint32_t lookup_long(const struct p4fw_ternary *t, const uint8_t *key,
		       uint32_t *best)
{
	uint8_t ik[P4FW_TERNARY_MAX_KEY_BYTES + 1];
	uint32_t i, head, best_prio = NONE;
	uint64_t h;

	for (i = 0; i < t->norder; i++) {
		const struct hot *g = &t->hot[i];

		if (best_prio <= g->min_prio)
			break;
		h = filter_hash(t, key, t->groups[g->id].mask);
		if (!may_hold_in(g->filter, t->fshift, h))
			continue;
		index_key(t, g->id, key, ik);
		if (p4fw_exact_lookup(t->index, ik, &head))
			continue;
		if (t->prio[head] < best_prio) {
			*best = head;
			best_prio = t->prio[head];
		}
	}
	return best_prio;
}

int p4fw_ternary_lookup(const struct p4fw_ternary *t, const uint8_t *key,
			uint32_t *value, uint32_t *prio)
{
	uint32_t best = NONE, best_prio;

	best_prio = t->key_bytes < 8 ? lookup_short(t, key, &best) :
		    lookup_long(t, key, &best);
	if (best == NONE)
		return -ENOENT;
	*value = t->value[best];
	if (prio)
		*prio = best_prio;
	return 0;
}

uint32_t p4fw_ternary_count(const struct p4fw_ternary *t)
{
	return t->count;
}

uint32_t p4fw_ternary_masks(const struct p4fw_ternary *t)
{
	return t->norder;
}

size_t p4fw_ternary_footprint(const struct p4fw_ternary *t)
{
	size_t masks = t->max_masks, entries = t->max_entries;

	return sizeof(*t) + p4fw_exact_footprint(t->index) +
	       masks * (sizeof(*t->groups) + sizeof(*t->order) +
			sizeof(*t->hot)) +
	       masks * t->fwords * (sizeof(*t->fbits) + 64) +
	       entries * (sizeof(*t->prio) + sizeof(*t->value) +
			  sizeof(*t->next) + sizeof(*t->free));
}
