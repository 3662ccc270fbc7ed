/* SPDX-License-Identifier: GPL-2.0 */
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

#endif /* P4FW_HASH_H */
