/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Exact-match table of the P4 NIC firmware model.
 *
 * Keys are byte strings of one fixed length per table (1 to 72 bytes: a
 * P4TC key blob of up to 512 bits, and a tag); values are 32-bit handles
 * the caller gives meaning to (an entry index).  Open addressing over
 * buckets of four ways, kept at most 3/4 full, probed linearly; a bucket
 * holds the ways' hash tags, values and keys inline, so a lookup usually
 * reads one cache line (exactly one for keys of up to 8 bytes) and
 * compares the four ways without a branch each.  Deletion moves later
 * keys of the run back instead of leaving tombstones, so no operation
 * degrades over time.
 * Insert, delete and lookup are O(1) expected; nothing allocates after
 * create.
 *
 * Not thread-safe: the device model serialises control commands with
 * packet processing.
 */
#ifndef P4FW_EXACT_H
#define P4FW_EXACT_H

#include <stddef.h>
#include <stdint.h>

/* A 512-bit P4TC key, plus room for the tag the ternary table prepends. */
#define P4FW_EXACT_MAX_KEY_BYTES 72u
#define P4FW_EXACT_MAX_ENTRIES (1u << 24)

struct p4fw_exact;

/*
 * SEED keys the table's hash: give each table a secret random value, so
 * that whoever chooses the keys cannot choose ones that collide.  Errors
 * are negative errno values.
 */
struct p4fw_exact *p4fw_exact_create(uint32_t key_bytes, uint32_t max_entries,
				     uint64_t seed, int *err);
void p4fw_exact_destroy(struct p4fw_exact *t);
/* The seed the table was created with: for tests of where seeds come from. */
uint64_t p4fw_exact_seed(const struct p4fw_exact *t);

/*
 * Add KEY -> VALUE.  -EEXIST if KEY is present (use replace), -ENOSPC when
 * the table holds max_entries.
 */
int p4fw_exact_add(struct p4fw_exact *t, const uint8_t *key, uint32_t value);
/* Change the value of a present KEY; -ENOENT if absent. */
int p4fw_exact_replace(struct p4fw_exact *t, const uint8_t *key,
		       uint32_t value);
/* Remove KEY, returning its value in *value if not NULL; -ENOENT if absent. */
int p4fw_exact_del(struct p4fw_exact *t, const uint8_t *key, uint32_t *value);
/* 0 and *value on a hit, -ENOENT on a miss. */
int p4fw_exact_lookup(const struct p4fw_exact *t, const uint8_t *key,
		      uint32_t *value);
/*
 * The same for a table of keys of at most 8 bytes, the key given as the
 * word its bytes make read little-endian, zero-padded: for callers that
 * compose keys in a register (the ternary table's index).
 */
int p4fw_exact_lookup_word(const struct p4fw_exact *t, uint64_t w,
			   uint32_t *value);
void p4fw_exact_flush(struct p4fw_exact *t);

uint32_t p4fw_exact_count(const struct p4fw_exact *t);
/* Bytes the table holds in memory, for the bytes-per-entry figure. */
size_t p4fw_exact_footprint(const struct p4fw_exact *t);

#endif /* P4FW_EXACT_H */
