/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Ternary table of the P4 NIC firmware model: entries are (key, mask,
 * priority) -> 32-bit value, and a lookup returns the matching entry with
 * the lowest priority number (P4TC's rule).
 *
 * Tuple-space search: entries are grouped by mask (at most max_masks
 * distinct masks, P4TC's nummasks), each group an exact match on the
 * masked key, all groups sharing one exact-match table keyed by
 * (mask id, key & mask).  Entries that share key and mask but differ in
 * priority hang off that one exact entry, sorted by priority.  A lookup
 * visits the groups in order of the lowest priority they may hold and
 * stops as soon as no later group can beat the best match, so its cost
 * grows with the number of masks, never with the number of entries.
 */
#ifndef P4FW_TERNARY_H
#define P4FW_TERNARY_H

#include <stddef.h>
#include <stdint.h>

#define P4FW_TERNARY_MAX_KEY_BYTES 64u
#define P4FW_TERNARY_MAX_MASKS 128u
/*
 * Entries with the same key and mask (told apart by priority) form a
 * sorted chain that an add walks: capped, so that filling a table costs
 * no more than O(n) chain steps.
 */
#define P4FW_TERNARY_MAX_SAME 64u

struct p4fw_ternary;

/*
 * SEED keys its hashes, as p4fw_exact_create()'s.  Errors are negative
 * errno values.
 */
struct p4fw_ternary *p4fw_ternary_create(uint32_t key_bytes,
					 uint32_t max_entries,
					 uint32_t max_masks, uint64_t seed,
					 int *err);
void p4fw_ternary_destroy(struct p4fw_ternary *t);

/*
 * Add an entry.  Key bits outside the mask are ignored (the entry matches
 * on key & mask).  -EEXIST for an entry with the same key & mask, mask
 * and priority; -ENOSPC when max_entries are held; -E2BIG when the mask
 * would be one more than max_masks distinct masks; -EMLINK when
 * P4FW_TERNARY_MAX_SAME entries have this key and mask already.
 */
int p4fw_ternary_add(struct p4fw_ternary *t, const uint8_t *key,
		     const uint8_t *mask, uint32_t prio, uint32_t value);
/* Remove the entry (key & mask, mask, prio); -ENOENT if absent. */
int p4fw_ternary_del(struct p4fw_ternary *t, const uint8_t *key,
		     const uint8_t *mask, uint32_t prio, uint32_t *value);
/* 0 with the best entry's value and priority, or -ENOENT. */
int p4fw_ternary_lookup(const struct p4fw_ternary *t, const uint8_t *key,
			uint32_t *value, uint32_t *prio);
void p4fw_ternary_flush(struct p4fw_ternary *t);

uint32_t p4fw_ternary_count(const struct p4fw_ternary *t);
uint32_t p4fw_ternary_masks(const struct p4fw_ternary *t);
/* Bytes the table holds, as p4fw_exact_footprint(). */
size_t p4fw_ternary_footprint(const struct p4fw_ternary *t);

#endif /* P4FW_TERNARY_H */
