// SPDX-License-Identifier: GPL-2.0-or-later
/* Zeroed memory for big table arrays: see bigmem.h. */
#define _GNU_SOURCE		/* mremap */
#include <stdlib.h>
#include <string.h>

#include "bigmem.h"

#ifdef __linux__
#include <sys/mman.h>

#define BIG (2u << 20)

void *fw_big_zalloc(size_t bytes)
{
	void *p;

	if (bytes < BIG) {
		/* whole cache lines, so a 64-byte bucket is one line */
		bytes = (bytes + 63) & ~(size_t)63;
		p = aligned_alloc(64, bytes);
		if (p)
			memset(p, 0, bytes);
		return p;
	}
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	madvise(p, bytes, MADV_HUGEPAGE);	/* a hint: failure is fine */
	return p;
}

void fw_big_free(void *p, size_t bytes)
{
	if (!p)
		return;
	if (bytes < BIG)
		free(p);
	else
		munmap(p, bytes);
}

void fw_big_zero(void *p, size_t bytes)
{
	if (bytes < BIG || madvise(p, bytes, MADV_DONTNEED))
		memset(p, 0, bytes);
}

void *fw_big_grow(void *p, size_t old, size_t new)
{
	void *q;

	if (new < BIG)
		return realloc(p, new);
	if (old < BIG) {
		q = fw_big_zalloc(new);
		if (q) {
			memcpy(q, p, old);
			free(p);
		}
		return q;
	}
	q = mremap(p, old, new, MREMAP_MAYMOVE);
	if (q == MAP_FAILED)
		return NULL;
	madvise(q, new, MADV_HUGEPAGE);
	return q;
}
#else
void *fw_big_zalloc(size_t bytes)
{
	return calloc(1, bytes);
}

void fw_big_free(void *p, size_t bytes)
{
	(void)bytes;
	free(p);
}

void *fw_big_grow(void *p, size_t old, size_t new)
{
	(void)old;
	return realloc(p, new);
}

void fw_big_zero(void *p, size_t bytes)
{
	memset(p, 0, bytes);
}
#endif
