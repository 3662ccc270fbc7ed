// SPDX-License-Identifier: GPL-2.0-or-later
/* Longest-prefix-match table: see include/p4fw/lpm.h for the design. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "p4fw/exact.h"
#include "p4fw/lpm.h"

#define CHILD 0x80000000u
#define KEY_BYTES (P4FW_LPM_MAX_BITS / 8)

/*
 * slot: 0 no prefix covers it; CHILD | node index; else value + 1.
 * depth: for a leaf slot, 1 + the length of the prefix that set it (0:
 * none); only updates read it, so it sits apart from the lookup path.
 */
struct node {
	uint32_t slot[256];
};

/* Apart from the slots, so that lookups walk dense 1 KiB nodes. */
struct node_depth {
	uint16_t depth[256];
};

/*
 * The root is one flat array indexed by the first root_bits of the key
 * (24, or the whole key when shorter), DIR-24-8 style: a prefix up to /24
 * is found with one read.  Its depths fit a byte: root leaves come from
 * prefixes of at most root_bits bits.  Both arrays come from calloc, so
 * the pages of a sparse root are never touched.
 */
#define ROOT UINT32_MAX		/* the root, where a node id is expected */

struct p4fw_lpm {
	uint32_t key_bits;
	uint32_t key_bytes;
	uint32_t max_entries;
	uint32_t root_bits;		/* 8, 16 or 24 */
	uint32_t *root_slot;
	uint8_t *root_depth;
	struct p4fw_exact *rules;	/* (length, masked key) -> value */
	struct node *nodes;		/* below the root */
	struct node_depth *depths;	/* one per node */
	uint32_t nnodes;		/* used, including free ones */
	uint32_t cap;
	uint32_t *free_nodes;
	uint32_t nfree_nodes;
};

struct p4fw_lpm *p4fw_lpm_create(uint32_t key_bits, uint32_t max_entries,
				 uint64_t seed, int *err)
{
	struct p4fw_lpm *t;

	if (key_bits == 0 || key_bits > P4FW_LPM_MAX_BITS ||
	    max_entries == 0 || max_entries > P4FW_EXACT_MAX_ENTRIES) {
		*err = -EINVAL;
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		*err = -ENOMEM;
		return NULL;
	}
	t->key_bits = key_bits;
	t->key_bytes = (key_bits + 7) / 8;
	t->max_entries = max_entries;
	t->root_bits = t->key_bytes >= 3 ? 24 : 8 * t->key_bytes;
	t->root_slot = fw_big_zalloc(sizeof(uint32_t) << t->root_bits);
	t->root_depth = fw_big_zalloc((size_t)1 << t->root_bits);
	t->rules = p4fw_exact_create(t->key_bytes + 2, max_entries, seed, err);
	t->cap = 16;
	t->nodes = fw_big_zalloc(t->cap * sizeof(*t->nodes));
	t->depths = calloc(t->cap, sizeof(*t->depths));
	t->free_nodes = malloc(t->cap * sizeof(*t->free_nodes));
	if (!t->rules || !t->nodes || !t->depths || !t->free_nodes ||
	    !t->root_slot ||
	    !t->root_depth) {
		p4fw_lpm_destroy(t);
		*err = -ENOMEM;
		return NULL;
	}
	*err = 0;
	return t;
}

void p4fw_lpm_destroy(struct p4fw_lpm *t)
{
	if (!t)
		return;
	p4fw_exact_destroy(t->rules);
	fw_big_free(t->root_slot, sizeof(uint32_t) << t->root_bits);
	fw_big_free(t->root_depth, (size_t)1 << t->root_bits);
	fw_big_free(t->nodes, t->cap * sizeof(*t->nodes));
	free(t->depths);
	free(t->free_nodes);
	free(t);
}

void p4fw_lpm_flush(struct p4fw_lpm *t)
{
	size_t n = (size_t)1 << t->root_bits;
	uint32_t *slot = fw_big_zalloc(n * sizeof(*slot));
	uint8_t *depth = fw_big_zalloc(n);

	p4fw_exact_flush(t->rules);
	/* Fresh zero pages rather than touching every page of the root. */
	if (slot && depth) {
		fw_big_free(t->root_slot, n * sizeof(*slot));
		fw_big_free(t->root_depth, n);
		t->root_slot = slot;
		t->root_depth = depth;
	} else {
		fw_big_free(slot, n * sizeof(*slot));
		fw_big_free(depth, n);
		memset(t->root_slot, 0, n * sizeof(*slot));
		memset(t->root_depth, 0, n);
	}
	t->nnodes = 0;
	t->nfree_nodes = 0;
}

uint32_t p4fw_lpm_count(const struct p4fw_lpm *t)
{
	return p4fw_exact_count(t->rules);
}

uint32_t p4fw_lpm_nodes(const struct p4fw_lpm *t)
{
	return 1 + t->nnodes - t->nfree_nodes;	/* the root counts */
}

size_t p4fw_lpm_footprint(const struct p4fw_lpm *t)
{
	return sizeof(*t) + p4fw_exact_footprint(t->rules) +
	       ((size_t)5 << t->root_bits) +
	       (size_t)t->cap * (sizeof(*t->nodes) + sizeof(*t->depths) +
				 sizeof(*t->free_nodes));
}

size_t p4fw_lpm_add_bytes(const struct p4fw_lpm *t, uint32_t len)
{
	uint32_t levels = len > t->root_bits ? (len - t->root_bits + 7) / 8 : 0;
	uint64_t cap = t->cap;

	while (t->nfree_nodes + (cap - t->nnodes) < levels)
		cap *= 2;
	return (size_t)(cap - t->cap) * (sizeof(*t->nodes) +
					 sizeof(*t->depths) +
					 sizeof(*t->free_nodes));
}

/* Levels: 0 is the root (root_bits), then one key byte per node level. */
static uint32_t level_end(const struct p4fw_lpm *t, uint32_t level)
{
	return t->root_bits + 8 * level;
}

static uint32_t level_index(const struct p4fw_lpm *t, const uint8_t *p,
			    uint32_t level)
{
	uint32_t i, v = 0;

	if (level)
		return p[t->root_bits / 8 + level - 1];
	for (i = 0; i < t->root_bits / 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* Slot S of node N (or of the root): its value and its depth. */
static uint32_t *slot_at(struct p4fw_lpm *t, uint32_t n, uint32_t s)
{
	return n == ROOT ? &t->root_slot[s] : &t->nodes[n].slot[s];
}

static uint16_t depth_get(const struct p4fw_lpm *t, uint32_t n, uint32_t s)
{
	return n == ROOT ? t->root_depth[s] : t->depths[n].depth[s];
}

static void depth_set(struct p4fw_lpm *t, uint32_t n, uint32_t s,
		      uint16_t depth)
{
	if (n == ROOT)
		t->root_depth[s] = (uint8_t)depth;	/* <= 25 at the root */
	else
		t->depths[n].depth[s] = depth;
}

/* KEY cut to LEN bits, into OUT (key_bytes). */
static void prefix_of(const struct p4fw_lpm *t, const uint8_t *key,
		      uint32_t len, uint8_t *out)
{
	uint32_t i;

	for (i = 0; i < t->key_bytes; i++) {
		if (len >= 8 * (i + 1))
			out[i] = key[i];
		else if (len > 8 * i)
			out[i] = key[i] & (uint8_t)(0xff00u >> (len - 8 * i));
		else
			out[i] = 0;
	}
}

static void rule_key(const struct p4fw_lpm *t, const uint8_t *prefix,
		     uint32_t len, uint8_t *out)
{
	out[0] = (uint8_t)(len >> 8);
	out[1] = (uint8_t)len;
	memcpy(out + 2, prefix, t->key_bytes);
}

/*
 * Double the node arrays.  The slots go last: their size is only known
 * through cap, which changes with them, so a failure leaves them as
 * they were (the other two arrays may have grown, which is harmless).
 */
static int nodes_grow(struct p4fw_lpm *t)
{
	uint32_t cap = t->cap * 2;
	struct node_depth *depths;
	uint32_t *free_nodes;
	struct node *nodes;

	if (cap > (CHILD >> 1))
		return -ENOSPC;
	depths = realloc(t->depths, cap * sizeof(*depths));
	if (!depths)
		return -ENOMEM;
	t->depths = depths;
	free_nodes = realloc(t->free_nodes, cap * sizeof(*free_nodes));
	if (!free_nodes)
		return -ENOMEM;
	t->free_nodes = free_nodes;
	nodes = fw_big_grow(t->nodes, t->cap * sizeof(*nodes),
			    cap * sizeof(*nodes));
	if (!nodes)
		return -ENOMEM;
	t->nodes = nodes;
	t->cap = cap;
	return 0;
}

/* A node whose slots are all copies of (slot, depth): a pushed-down leaf. */
static int64_t node_new(struct p4fw_lpm *t, uint32_t slot, uint16_t depth)
{
	uint32_t n, i;
	int err;

	if (t->nfree_nodes) {
		n = t->free_nodes[--t->nfree_nodes];
	} else {
		if (t->nnodes == t->cap) {
			err = nodes_grow(t);
			if (err)
				return err;
		}
		n = t->nnodes++;
	}
	for (i = 0; i < 256; i++) {
		t->nodes[n].slot[i] = slot;
		t->depths[n].depth[i] = depth;
	}
	return n;
}

/* Set every leaf under slot S of node N covered by a shorter prefix. */
static void cover(struct p4fw_lpm *t, uint32_t n, uint32_t s, uint32_t slot,
		  uint16_t depth)
{
	uint32_t v = *slot_at(t, n, s), i;

	if (v & CHILD) {
		for (i = 0; i < 256; i++)
			cover(t, v & ~CHILD, i, slot, depth);
		return;
	}
	if (depth_get(t, n, s) < depth) {
		*slot_at(t, n, s) = slot;
		depth_set(t, n, s, depth);
	}
}

/* Fold node C, child of slot S of N, when all its slots are one leaf. */
static void fold(struct p4fw_lpm *t, uint32_t n, uint32_t s)
{
	uint32_t v = *slot_at(t, n, s), i;
	const struct node_depth *d;
	const struct node *c;

	if (!(v & CHILD))
		return;
	c = &t->nodes[v & ~CHILD];
	d = &t->depths[v & ~CHILD];
	for (i = 0; i < 256; i++)
		if ((c->slot[i] & CHILD) || c->slot[i] != c->slot[0] ||
		    d->depth[i] != d->depth[0])
			return;
	t->free_nodes[t->nfree_nodes++] = v & ~CHILD;
	*slot_at(t, n, s) = c->slot[0];
	depth_set(t, n, s, d->depth[0]);
}

/* Replace, under slot S of N, the leaves set by depth OLD with (slot, depth). */
static void uncover(struct p4fw_lpm *t, uint32_t n, uint32_t s, uint16_t old,
		    uint32_t slot, uint16_t depth)
{
	uint32_t v = *slot_at(t, n, s), i;

	if (v & CHILD) {
		/*
		 * No fold here: a node below the range exists only for a
		 * longer prefix, which stays and keeps the node mixed.
		 */
		for (i = 0; i < 256; i++)
			uncover(t, v & ~CHILD, i, old, slot, depth);
		return;
	}
	if (depth_get(t, n, s) == old) {
		*slot_at(t, n, s) = slot;
		depth_set(t, n, s, depth);
	}
}

/*
 * The node path to prefix P/LEN: path[i] is the node at level i; returns
 * the level where LEN ends.  With CREATE, missing nodes are made (leaf
 * pushed); without, a missing node ends the walk with -ENOENT.
 */
static int64_t walk(struct p4fw_lpm *t, const uint8_t *p, uint32_t len,
		    int create, uint32_t *path)
{
	uint32_t level = 0, n = ROOT;

	while (len > level_end(t, level)) {
		uint32_t s = level_index(t, p, level);

		path[level] = n;
		if (!(*slot_at(t, n, s) & CHILD)) {
			int64_t c;

			if (!create)
				return -ENOENT;
			c = node_new(t, *slot_at(t, n, s), depth_get(t, n, s));
			if (c < 0)
				return c;
			/* node_new may move the nodes: look the slot up again */
			*slot_at(t, n, s) = CHILD | (uint32_t)c;
			depth_set(t, n, s, 0);
		}
		n = *slot_at(t, n, s) & ~CHILD;
		level++;
	}
	path[level] = n;
	return level;
}

int p4fw_lpm_add(struct p4fw_lpm *t, const uint8_t *key, uint32_t len,
		 uint32_t value)
{
	uint8_t p[KEY_BYTES], rk[KEY_BYTES + 2];
	uint32_t path[KEY_BYTES], first, count, i;
	int64_t level;
	int err;

	if (len > t->key_bits || value > P4FW_LPM_MAX_VALUE)
		return -EINVAL;
	prefix_of(t, key, len, p);
	rule_key(t, p, len, rk);
	err = p4fw_exact_add(t->rules, rk, value);
	if (err)
		return err;
	level = walk(t, p, len, 1, path);
	if (level < 0) {
		/* Out of memory for a node: nothing was set, undo the rule.
		 * Nodes made on the way stay, as copies of their parent slot.
		 */
		p4fw_exact_del(t->rules, rk, NULL);
		return (int)level;
	}
	count = 1u << (level_end(t, (uint32_t)level) - len);
	first = level_index(t, p, (uint32_t)level) & ~(count - 1);
	for (i = first; i < first + count; i++)
		cover(t, path[level], i, value + 1, (uint16_t)(len + 1));
	return 0;
}

int p4fw_lpm_del(struct p4fw_lpm *t, const uint8_t *key, uint32_t len,
		 uint32_t *value)
{
	uint8_t p[KEY_BYTES], q[KEY_BYTES], rk[KEY_BYTES + 2];
	uint32_t path[KEY_BYTES], first, count, i, v, slot = 0;
	uint16_t depth = 0;
	int64_t level, l;

	if (len > t->key_bits)
		return -EINVAL;
	prefix_of(t, key, len, p);
	rule_key(t, p, len, rk);
	if (p4fw_exact_del(t->rules, rk, &v))
		return -ENOENT;
	if (value)
		*value = v;

	/* What covers the prefix's range now: the next-longest prefix. */
	for (l = (int64_t)len - 1; l >= 0; l--) {
		prefix_of(t, p, (uint32_t)l, q);
		rule_key(t, q, (uint32_t)l, rk);
		if (!p4fw_exact_lookup(t->rules, rk, &v)) {
			slot = v + 1;
			depth = (uint16_t)(l + 1);
			break;
		}
	}

	level = walk(t, p, len, 0, path);
	if (level < 0)
		return 0;	/* cannot happen: the prefix's nodes exist */
	count = 1u << (level_end(t, (uint32_t)level) - len);
	first = level_index(t, p, (uint32_t)level) & ~(count - 1);
	for (i = first; i < first + count; i++)
		uncover(t, path[level], i, (uint16_t)(len + 1), slot, depth);
	/* Fold the path's nodes that became one leaf, deepest first. */
	for (l = level; l > 0; l--)
		fold(t, path[l - 1], level_index(t, p, (uint32_t)(l - 1)));
	return 0;
}

int p4fw_lpm_lookup(const struct p4fw_lpm *t, const uint8_t *key,
		    uint32_t *value, uint32_t *len)
{
	uint32_t n = ROOT, idx, s, i;

	if (t->key_bytes >= 4) {
		/* IPv4 and wider: one 32-bit load for the root and a node */
		uint32_t w = (uint32_t)key[0] << 24 | (uint32_t)key[1] << 16 |
			     (uint32_t)key[2] << 8 | key[3];

		idx = w >> 8;
		s = t->root_slot[idx];
		if (s & CHILD) {
			n = s & ~CHILD;
			idx = w & 0xff;
			s = t->nodes[n].slot[idx];
			for (i = 4; s & CHILD; i++) {
				n = s & ~CHILD;
				idx = key[i];	/* children end before the key does */
				s = t->nodes[n].slot[idx];
			}
		}
	} else {
		/* narrower keys: the root is the whole key, no nodes */
		idx = key[0];
		for (i = 1; i < t->key_bytes; i++)
			idx = idx << 8 | key[i];
		s = t->root_slot[idx];
	}
	if (!s)
		return -ENOENT;
	*value = s - 1;
	if (len)
		*len = depth_get(t, n, idx) - 1u;
	return 0;
}
