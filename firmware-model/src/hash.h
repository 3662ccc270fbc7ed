/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Keyed 64-bit hash of a byte string for the firmware model's tables: 8
 * bytes per step through a 128-bit multiply-fold (the "mum" mix), so a
 * 4-byte key costs a few multiplies.  The seed is per table, so a guest
 * cannot precompute colliding keys for every device.
 */
#ifndef P4FW_HASH_H
#define P4FW_HASH_H

#include <stdint.h>
#include <string.h>

/* Keys are read as little-endian words (p4fw_load_small, the tables). */
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the firmware model runs on little-endian hosts only"
#endif

static inline uint64_t p4fw_mum(uint64_t a, uint64_t b)
{
	unsigned __int128 r = (unsigned __int128)a * b;

	return (uint64_t)r ^ (uint64_t)(r >> 64);
}

/* Keys of 8 bytes or less, zero-padded into W: one multiply. */
static inline uint64_t p4fw_hash64(uint64_t w, uint64_t seed)
{
	return p4fw_mum(w ^ seed, 0xe7037ed1a0b428dbull);
}

static inline uint64_t p4fw_hash(const uint8_t *p, uint32_t len, uint64_t seed)
{
	const uint64_t k0 = 0xa0761d6478bd642full, k1 = 0xe7037ed1a0b428dbull;
	uint64_t h = seed ^ ((uint64_t)len * k0), w;

	while (len >= 8) {
		memcpy(&w, p, 8);
		h = p4fw_mum(h ^ w, k1);
		p += 8;
		len -= 8;
	}
	if (len) {
		w = 0;
		memcpy(&w, p, len);
		h = p4fw_mum(h ^ w, k1);
	}
	return p4fw_mum(h, k0);
}

/*
 * The N (1 to 8) bytes at P as a zero-padded little-endian word, read with
 * loads of fixed size.  Not a memcpy into a zeroed word: stores of
 * varying size cannot be forwarded to the word's load, which then waits
 * for them to retire, behind the cache miss of the lookup before; that
 * serialised consecutive lookups and tripled their cost.
 */
static inline uint64_t p4fw_load_small(const uint8_t *p, uint32_t n)
{
	uint32_t lo, hi;
	uint64_t w;

	if (n == 8) {
		memcpy(&w, p, 8);
		return w;
	}
	if (n >= 4) {
		memcpy(&lo, p, 4);
		memcpy(&hi, p + n - 4, 4);	/* overlaps lo unless n is 8 */
		return lo | (uint64_t)hi << (8 * (n - 4));
	}
	return p[0] | (uint64_t)p[n / 2] << (8 * (n / 2)) |
	       (uint64_t)p[n - 1] << (8 * (n - 1));
}

#endif /* P4FW_HASH_H */
