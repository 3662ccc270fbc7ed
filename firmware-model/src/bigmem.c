// SPDX-License-Identifier: GPL-2.0
/* Zeroed memory for big table arrays: see bigmem.h. */
#define _DEFAULT_SOURCE
#include <stdlib.h>

#include "bigmem.h"

#ifdef __linux__
#include <sys/mman.h>

#define BIG (2u << 20)

void *fw_big_zalloc(size_t bytes)
{
	void *p;

	if (bytes < BIG)
		return calloc(1, bytes);
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
#endif
