/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Zeroed memory for the big arrays of tables (exact slots, the LPM root
 * and its nodes).
 * Large ones are mapped directly, so pages a table never touches cost
 * nothing, and on Linux are marked for transparent huge pages: a random
 * lookup in a 64 MiB array otherwise pays a TLB miss on top of the cache
 * miss.  Small ones come from calloc.
 */
#ifndef P4FW_BIGMEM_H
#define P4FW_BIGMEM_H

#include <stddef.h>

void *fw_big_zalloc(size_t bytes);
void fw_big_free(void *p, size_t bytes);
/*
 * Grow P (from fw_big_zalloc or this, OLD bytes) to NEW >= OLD bytes, keeping its
 * contents; the bytes added are not zeroed.  NULL, P untouched, when out
 * of memory.  Large arrays move by remapping their pages, not by copying.
 */
void *fw_big_grow(void *p, size_t old, size_t new);
/*
 * Zero P (BYTES, from fw_big_zalloc): large arrays get fresh zero pages,
 * at the cost of the pages they had touched, not of their size.
 */
void fw_big_zero(void *p, size_t bytes);

#endif /* P4FW_BIGMEM_H */
