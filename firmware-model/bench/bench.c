// SPDX-License-Identifier: GPL-2.0
/*
 * Table benchmark of the firmware model: nanoseconds per random single
 * lookup, inserts per second and bytes per entry, for the sizes the
 * firmware-model issue names.  Prints numbers; asserts nothing (the
 * machine is shared and noisy: read the figures, do not gate on them).
 * DPDK's rte_hash / rte_lpm side-by-side figures are not here yet.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "p4fw/exact.h"
#include "p4fw/lpm.h"
#include "p4fw/ternary.h"

#define LOOKUPS (1u << 22)

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

static volatile uint32_t sink;

static void bench_exact(uint32_t n)
{
	uint32_t *keys = malloc((size_t)n * sizeof(*keys)), i, v, hits = 0;
	struct p4fw_exact *t;
	double t0, t1, t2;
	int err;

	t = p4fw_exact_create(4, n, &err);
	for (i = 0; i < n; i++)
		keys[i] = rnd();
	t0 = now_ns();
	for (i = 0; i < n; i++)
		if (p4fw_exact_add(t, (uint8_t *)&keys[i], i))
			keys[i] = keys[0];	/* a duplicate draw */
	t1 = now_ns();
	for (i = 0; i < LOOKUPS; i++)
		hits += !p4fw_exact_lookup(t, (uint8_t *)&keys[rnd() % n], &v);
	t2 = now_ns();
	sink = hits + v;
	printf("exact   32-bit keys %8u entries: %6.1f ns/lookup  %6.2f M inserts/s  %5.1f bytes/entry\n",
	       n, (t2 - t1) / LOOKUPS, n / (t1 - t0) * 1e3,
	       (double)p4fw_exact_footprint(t) / n);
	p4fw_exact_destroy(t);
	free(keys);
}

static void bench_lpm(uint32_t n)
{
	uint32_t *pfx = malloc((size_t)n * sizeof(*pfx)), i, v, a, added = 0;
	uint8_t *len = malloc(n), k[4];
	struct p4fw_lpm *t;
	double t0, t1, t2;
	int err;

	t = p4fw_lpm_create(32, n, &err);
	/* Lengths shaped like a routing table: mostly /24, some /16-/23, a few longer. */
	for (i = 0; i < n; i++) {
		uint32_t r = rnd() % 100;

		len[i] = r < 60 ? 24 : r < 90 ? 16 + rnd() % 8 : 25 + rnd() % 8;
		pfx[i] = rnd() & (0xffffffffu << (32 - len[i]));
	}
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		k[0] = pfx[i] >> 24;
		k[1] = pfx[i] >> 16;
		k[2] = pfx[i] >> 8;
		k[3] = pfx[i];
		added += !p4fw_lpm_add(t, k, len[i], i);
	}
	t1 = now_ns();
	for (i = 0; i < LOOKUPS; i++) {
		a = pfx[rnd() % n] | (rnd() & 0xff);
		k[0] = a >> 24;
		k[1] = a >> 16;
		k[2] = a >> 8;
		k[3] = a;
		v = 0;
		p4fw_lpm_lookup(t, k, &v, NULL);
		sink += v;
	}
	t2 = now_ns();
	printf("lpm     IPv4 prefixes %7u (%u unique): %6.1f ns/lookup  %6.2f M inserts/s  %6.1f bytes/prefix (%u nodes)\n",
	       n, added, (t2 - t1) / LOOKUPS, added / (t1 - t0) * 1e3,
	       (double)p4fw_lpm_footprint(t) / added, p4fw_lpm_nodes(t));
	p4fw_lpm_destroy(t);
	free(pfx);
	free(len);
}

static void bench_ternary(uint32_t n, uint32_t nmasks)
{
	uint32_t masks[64], *keys = malloc((size_t)n * sizeof(*keys)), i, v, p;
	struct p4fw_ternary *t;
	uint8_t m[4];
	double t0, t1, t2;
	int err;

	t = p4fw_ternary_create(4, n, nmasks, &err);
	for (i = 0; i < nmasks; i++)
		masks[i] = rnd() | 0x80000000u;
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		uint32_t mk = masks[i % nmasks];

		keys[i] = rnd() & mk;
		memcpy(m, &mk, 4);
		p4fw_ternary_add(t, (uint8_t *)&keys[i], m, i, i);
	}
	t1 = now_ns();
	for (i = 0; i < LOOKUPS; i++) {
		uint32_t key = keys[rnd() % n] | (rnd() & 0x00ff00ff);

		v = 0;
		p4fw_ternary_lookup(t, (uint8_t *)&key, &v, &p);
		sink += v;
	}
	t2 = now_ns();
	printf("ternary 32-bit keys %6u entries %2u masks: %6.1f ns/lookup  %6.2f M inserts/s\n",
	       n, nmasks, (t2 - t1) / LOOKUPS, n / (t1 - t0) * 1e3);
	p4fw_ternary_destroy(t);
	free(keys);
}

int main(void)
{
	bench_exact(1u << 10);
	bench_exact(1u << 16);
	bench_exact(1u << 20);
	bench_lpm(10000);
	bench_lpm(100000);
	bench_lpm(1000000);
	bench_ternary(1024, 8);
	bench_ternary(1024, 64);
	bench_ternary(16384, 8);
	bench_ternary(16384, 64);
	return 0;
}
