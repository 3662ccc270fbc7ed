/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Longest-prefix-match table of the P4 NIC firmware model.
 *
 * Keys are big-endian bit strings of a fixed width per table (1 to 512
 * bits; the P4TC key blob), prefixes are (key, length 0..width), values
 * 31-bit handles.  A lookup returns the value of the longest prefix that
 * matches, never scanning entries.
 *
 * A multibit trie with leaf pushing: a flat root indexed by the key's
 * first 24 bits (DIR-24-8 style; the whole key when it is shorter), then
 * nodes of 256 slots per further key byte.  Every slot is either a child
 * node or the value of the longest prefix covering it (with that prefix's
 * length kept beside, for updates), so a lookup reads one slot for a
 * prefix up to /24, one more per byte beyond.  The root of a table with
 * keys of 24 bits or more is 80 MiB of address space, of which only the
 * pages prefixes cover are ever touched (DPDK's rte_lpm holds 64 MiB).  The
 * prefixes themselves live in an exact-match table, which deletion uses to
 * find the next-longest covering prefix; nodes whose 256 slots become one
 * leaf are folded back into their parent.
 */
#ifndef P4FW_LPM_H
#define P4FW_LPM_H

#include <stddef.h>
#include <stdint.h>

#define P4FW_LPM_MAX_BITS 512u
#define P4FW_LPM_MAX_VALUE 0x7ffffffeu

struct p4fw_lpm;

/*
 * SEED keys the hash of its rule index, as p4fw_exact_create()'s.  Errors
 * are negative errno values.
 */
struct p4fw_lpm *p4fw_lpm_create(uint32_t key_bits, uint32_t max_entries,
				 uint64_t seed, int *err);
void p4fw_lpm_destroy(struct p4fw_lpm *t);

/*
 * Add prefix KEY/LEN.  Key bits beyond LEN are ignored.  -EINVAL for a
 * length over the width or a value over P4FW_LPM_MAX_VALUE, -EEXIST if
 * the prefix is present, -ENOSPC when max_entries are held.
 */
int p4fw_lpm_add(struct p4fw_lpm *t, const uint8_t *key, uint32_t len,
		 uint32_t value);
int p4fw_lpm_del(struct p4fw_lpm *t, const uint8_t *key, uint32_t len,
		 uint32_t *value);
/* 0 with the longest match's value (and its length if LEN), or -ENOENT. */
int p4fw_lpm_lookup(const struct p4fw_lpm *t, const uint8_t *key,
		    uint32_t *value, uint32_t *len);
void p4fw_lpm_flush(struct p4fw_lpm *t);

uint32_t p4fw_lpm_count(const struct p4fw_lpm *t);
/*
 * Trie nodes in use, the root counting as one: 1 while no prefix is longer
 * than the root's bits (24, or the whole key when shorter).
 */
uint32_t p4fw_lpm_nodes(const struct p4fw_lpm *t);
size_t p4fw_lpm_footprint(const struct p4fw_lpm *t);
/*
 * The most the footprint can grow by adding a prefix of LEN bits: the
 * node arrays' next doublings, when the prefix may need more nodes than
 * are free (one per key byte beyond the root).  0 when it needs none.
 */
size_t p4fw_lpm_add_bytes(const struct p4fw_lpm *t, uint32_t len);

#endif /* P4FW_LPM_H */
