// SPDX-License-Identifier: GPL-2.0
/* Ternary table: see include/p4fw/ternary.h for the design. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "p4fw/exact.h"
#include "p4fw/ternary.h"

#define NONE UINT32_MAX

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
};

struct p4fw_ternary *p4fw_ternary_create(uint32_t key_bytes,
					 uint32_t max_entries,
					 uint32_t max_masks, int *err)
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
	t->index = p4fw_exact_create(key_bytes + 1, max_entries, err);
	if (!t->index) {
		free(t);
		return NULL;
	}
	t->groups = calloc(max_masks, sizeof(*t->groups));
	t->order = calloc(max_masks, sizeof(*t->order));
	t->prio = malloc((size_t)max_entries * sizeof(*t->prio));
	t->value = malloc((size_t)max_entries * sizeof(*t->value));
	t->next = malloc((size_t)max_entries * sizeof(*t->next));
	t->free = malloc((size_t)max_entries * sizeof(*t->free));
	if (!t->groups || !t->order || !t->prio || !t->value || !t->next ||
	    !t->free) {
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
	free(t);
}

void p4fw_ternary_flush(struct p4fw_ternary *t)
{
	uint32_t i;

	p4fw_exact_flush(t->index);
	memset(t->groups, 0, (size_t)t->max_masks * sizeof(*t->groups));
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

/* Keep t->order sorted by min_prio (at most 128 ids: insertion sort). */
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
		/* Same key & mask: the chain, sorted by priority. */
		for (link = &head; *link != NONE && t->prio[*link] <= prio;
		     link = &t->next[*link])
			if (t->prio[*link] == prio)
				return -EEXIST;
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
		if (head == NONE)
			p4fw_exact_del(t->index, ik, NULL);
		else
			p4fw_exact_replace(t->index, ik, head);
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
	}
	return 0;
}

int p4fw_ternary_lookup(const struct p4fw_ternary *t, const uint8_t *key,
			uint32_t *value, uint32_t *prio)
{
	uint8_t ik[P4FW_TERNARY_MAX_KEY_BYTES + 1];
	uint32_t i, head, best = NONE;

	for (i = 0; i < t->norder; i++) {
		uint32_t id = t->order[i];

		/* Groups come by their lowest possible priority: stop early. */
		if (best != NONE && t->prio[best] <= t->groups[id].min_prio)
			break;
		index_key(t, id, key, ik);
		if (p4fw_exact_lookup(t->index, ik, &head))
			continue;
		if (best == NONE || t->prio[head] < t->prio[best])
			best = head;
	}
	if (best == NONE)
		return -ENOENT;
	*value = t->value[best];
	if (prio)
		*prio = t->prio[best];
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
