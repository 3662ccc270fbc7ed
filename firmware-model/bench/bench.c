// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Benchmark of the firmware model: nanoseconds per random single lookup,
 * inserts per second and bytes per entry for each table type, at the sizes
 * the firmware-model issue names, and nanoseconds per packet through the
 * IPv4-router program.  Beside each exact and LPM lookup figure: the same
 * keys and the same lookup sequence on DPDK's rte_hash and rte_lpm, in the
 * same run, and the ratio.  Prints numbers and whether each target is met;
 * asserts nothing (the machine is shared and noisy: read the figures, do
 * not gate a build on them).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "p4fw/exact.h"
#include "p4fw/lpm.h"
#include "p4fw/p4fw.h"
#include "p4fw/ternary.h"
#include "imgbuild.h"
#include "programs.h"

#ifdef HAVE_DPDK
#include <rte_eal.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_lpm.h>

/* any fixed value: the tables' hash seed */
#define SEED 0x5eedull
#endif

#define LOOKUPS (1u << 20)
#define REPS 5

/*
 * Run BODY (N operations) REPS times; OUT is the median ns per operation,
 * which a noisy neighbour moves less than the mean.
 */
#define TIMED(out, n, body) do {					\
	double v_[REPS];						\
	int r_;								\
									\
	for (r_ = 0; r_ < REPS; r_++) {					\
		double t_ = now_ns();					\
									\
		body;							\
		v_[r_] = (now_ns() - t_) / (n);				\
	}								\
	(out) = median(v_);						\
} while (0)

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

static double median(double *v)
{
	int i, j;

	for (i = 1; i < REPS; i++)
		for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double x = v[j];

			v[j] = v[j - 1];
			v[j - 1] = x;
		}
	return v[REPS / 2];
}

static volatile uint32_t sink;
static uint32_t *draws;		/* LOOKUPS random draws, for both sides */
static int have_dpdk;

/* Kept for the targets summary. */
static double exact_ns[3], hash_ns[3], lpm_ns[3], rte_lpm_ns[3];
static double ternary_ns[4], exact_bytes, router_ns;
static uint32_t router_fwd;	/* percent of packets transmitted */

static void fill_draws(uint32_t mod)
{
	uint32_t i;

	for (i = 0; i < LOOKUPS; i++)
		draws[i] = rnd() % mod;
}

static void bench_exact(int slot, uint32_t n)
{
	uint32_t *keys = malloc((size_t)n * sizeof(*keys)), i, v = 0, hits = 0;
	struct p4fw_exact *t;
	double t0, ins, ours, theirs = 0;
	int err;

	t = p4fw_exact_create(4, n, SEED, &err);
	for (i = 0; i < n; i++)
		keys[i] = rnd();
	t0 = now_ns();
	for (i = 0; i < n; i++)
		if (p4fw_exact_add(t, (uint8_t *)&keys[i], i))
			keys[i] = keys[0];	/* a duplicate draw */
	ins = now_ns() - t0;
	fill_draws(n);
	TIMED(ours, LOOKUPS,
	      for (i = 0; i < LOOKUPS; i++)
		      hits += !p4fw_exact_lookup(t, (uint8_t *)&keys[draws[i]],
						 &v));
	sink = hits + v;
#ifdef HAVE_DPDK
	if (have_dpdk) {
		struct rte_hash_parameters hp = {
			.name = "bench", .entries = n, .key_len = 4,
			.hash_func = rte_hash_crc, .socket_id = 0,
		};
		struct rte_hash *h = rte_hash_create(&hp);
		void *data = NULL;

		if (h) {
			for (i = 0; i < n; i++)
				rte_hash_add_key_data(h, &keys[i],
						      (void *)(uintptr_t)(i + 1));
			TIMED(theirs, LOOKUPS,
			      for (i = 0; i < LOOKUPS; i++)
				      hits += rte_hash_lookup_data(h,
							&keys[draws[i]],
							&data) >= 0);
			sink += hits + (uint32_t)(uintptr_t)data;
			rte_hash_free(h);
		}
	}
#endif
	exact_ns[slot] = ours;
	hash_ns[slot] = theirs;
	if (slot == 0)
		exact_bytes = (double)p4fw_exact_footprint(t) / n;
	printf("exact   %8u x 32-bit keys   %6.1f ns/lookup", n, ours);
	if (theirs > 0)
		printf("  rte_hash %6.1f ns  ratio %5.2f", theirs, ours / theirs);
	printf("  %6.2f M inserts/s  %5.1f bytes/entry\n", n / ins * 1e3,
	       (double)p4fw_exact_footprint(t) / n);
	p4fw_exact_destroy(t);
	free(keys);
}

static void put_be32(uint8_t *k, uint32_t a)
{
	k[0] = (uint8_t)(a >> 24);
	k[1] = (uint8_t)(a >> 16);
	k[2] = (uint8_t)(a >> 8);
	k[3] = (uint8_t)a;
}

static void bench_lpm(int slot, uint32_t n)
{
	uint32_t *pfx = malloc((size_t)n * sizeof(*pfx));
	uint32_t *addr = malloc((size_t)n * sizeof(*addr));
	uint32_t i, v = 0, added = 0, longer = 0;
	uint8_t *len = malloc(n), k[4];
	struct p4fw_lpm *t;
	double t0, ins, ours, theirs = 0;
	int err;

	t = p4fw_lpm_create(32, n, SEED, &err);
	/* Shaped like a routing table: mostly /24, some /16../23, a few longer. */
	for (i = 0; i < n; i++) {
		uint32_t r = rnd() % 100;

		len[i] = (uint8_t)(r < 60 ? 24 : r < 90 ? 16 + rnd() % 8 :
				   25 + rnd() % 8);
		pfx[i] = rnd() & (0xffffffffu << (32 - len[i]));
		addr[i] = pfx[i] | (rnd() & ~(0xffffffffu << (32 - len[i])));
		longer += len[i] > 24;
	}
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		put_be32(k, pfx[i]);
		added += !p4fw_lpm_add(t, k, len[i], i);
	}
	ins = now_ns() - t0;
	fill_draws(n);
	TIMED(ours, LOOKUPS,
	      for (i = 0; i < LOOKUPS; i++) {
		      put_be32(k, addr[draws[i]]);
		      p4fw_lpm_lookup(t, k, &v, NULL);
		      sink += v;
	      });
#ifdef HAVE_DPDK
	if (have_dpdk) {
		struct rte_lpm_config cfg = {
			.max_rules = n, .number_tbl8s = longer + 256,
		};
		struct rte_lpm *l = rte_lpm_create("bench", 0, &cfg);

		if (l) {
			for (i = 0; i < n; i++)
				rte_lpm_add(l, pfx[i], len[i], i & 0xffffff);
			TIMED(theirs, LOOKUPS,
			      for (i = 0; i < LOOKUPS; i++) {
				      rte_lpm_lookup(l, addr[draws[i]], &v);
				      sink += v;
			      });
			rte_lpm_free(l);
		}
	}
#endif
	lpm_ns[slot] = ours;
	rte_lpm_ns[slot] = theirs;
	printf("lpm     %8u IPv4 prefixes  %6.1f ns/lookup", n, ours);
	if (theirs > 0)
		printf("  rte_lpm  %6.1f ns  ratio %5.2f", theirs, ours / theirs);
	printf("  %6.2f M inserts/s  %6.1f bytes/prefix\n", added / ins * 1e3,
	       (double)p4fw_lpm_footprint(t) / added);
	p4fw_lpm_destroy(t);
	free(pfx);
	free(addr);
	free(len);
}

static void bench_ternary(int slot, uint32_t n, uint32_t nmasks)
{
	uint32_t masks[64], *keys = malloc((size_t)n * sizeof(*keys));
	uint32_t *look = malloc((size_t)n * sizeof(*look)), i, v = 0, p;
	struct p4fw_ternary *t;
	uint8_t m[4];
	double t0, ins, ours;
	int err;

	t = p4fw_ternary_create(4, n, nmasks, SEED, &err);
	for (i = 0; i < nmasks; i++)
		masks[i] = rnd() | 0x80000000u;
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		uint32_t mk = masks[i % nmasks];

		keys[i] = rnd() & mk;
		memcpy(m, &mk, 4);
		p4fw_ternary_add(t, (uint8_t *)&keys[i], m, rnd() % n, i);
		look[i] = keys[i] | (rnd() & ~mk);
	}
	ins = now_ns() - t0;
	fill_draws(n);
	TIMED(ours, LOOKUPS / 4,
	      for (i = 0; i < LOOKUPS / 4; i++) {
		      p4fw_ternary_lookup(t, (uint8_t *)&look[draws[i]], &v,
					  &p);
		      sink += v;
	      });
	ternary_ns[slot] = ours;
	printf("ternary %8u x 32-bit keys, %2u masks  %6.1f ns/lookup  (%4.1fx exact at 1K)  %6.2f M inserts/s\n",
	       n, nmasks, ours, ours / exact_ns[0], n / ins * 1e3);
	p4fw_ternary_destroy(t);
	free(keys);
	free(look);
}

/* Guest memory for the router's commands. */
static uint8_t guest[1 << 20];

static int mem_read(void *o, uint64_t a, void *b, uint32_t l)
{
	(void)o;
	if (a > sizeof(guest) || l > sizeof(guest) - a)
		return -1;
	memcpy(b, guest + a, l);
	return 0;
}

static int mem_write(void *o, uint64_t a, const void *b, uint32_t l)
{
	(void)o;
	if (a > sizeof(guest) || l > sizeof(guest) - a)
		return -1;
	memcpy(guest + a, b, l);
	return 0;
}

static int command(struct p4fw *fw, uint16_t op, const void *in, uint32_t len,
		   uint32_t p0, uint32_t p1)
{
	struct p4fw_dma dma = { mem_read, mem_write, NULL };
	struct p4nic_cmd c = { .opcode = op, .in_len = len, .p = { p0, p1 } };
	struct p4nic_cpl cpl;

	if (len)
		memcpy(guest, in, len);
	p4fw_command(fw, (const uint8_t *)&c, &dma, (uint8_t *)&cpl);
	return cpl.status;
}

/* The router program with 10K routes, on packets to random routes. */
static void bench_router(void)
{
	enum { ROUTES = 10000, PKTS = 4096, PKTLEN = 64 };
	static uint8_t pkts[PKTS][PKTLEN];
	struct p4fw *fw = p4fw_create(4, NULL, &(int){ 0 });
	struct p4fw_verdict v;
	struct p4nic_entry e;
	uint32_t len, i, sent = 0, dst[ROUTES];
	uint8_t *img = program_router(&len);

	if (command(fw, P4NIC_CMD_PIPELINE_LOAD, img, len, 0, 0))
		abort();
	free(img);
	/* ports run the pipeline only when told to (ABI 1.1) */
	for (i = 0; i < 4; i++)
		if (command(fw, P4NIC_CMD_PORT_SET, NULL, 0, i,
			    P4NIC_PORT_PIPELINE))
			abort();
	for (i = 0; i < ROUTES; i++) {
		uint32_t plen = 16 + rnd() % 9, m = 0xffffffffu << (32 - plen);
		ib_u128 prm[3] = { 0x020000000000ull | i, 0x0200000000ffull,
				   IFX(rnd() % 4) };
		uint8_t key[4], mask[4];

		dst[i] = rnd() & m;
		put_be32(key, dst[i]);
		put_be32(mask, m);
		ib_entry(&e, ROUTER_FIB, i, 0, ROUTER_SET_NH, 4, key, mask, 3,
			 prm);
		if (command(fw, P4NIC_CMD_ENTRY_ADD, &e, sizeof(e), 0, 0))
			dst[i] = dst[0];	/* the same prefix, drawn twice */
	}
	for (i = 0; i < PKTS; i++) {
		uint8_t *p = pkts[i], *ip = p + 14;

		memset(p, 0, PKTLEN);
		p[12] = 0x08;
		ip[0] = 0x45;
		ip[8] = 64;
		ip[9] = 17;
		put_be32(ip + 12, 0x01020304);
		put_be32(ip + 16, dst[rnd() % ROUTES] | (rnd() & 0xff));
	}
	fill_draws(PKTS);
	TIMED(router_ns, LOOKUPS / 4,
	      for (i = 0; i < LOOKUPS / 4; i++) {
		      p4fw_process(fw, 0, pkts[draws[i]], PKTLEN, &v);
		      sent += v.kind == P4FW_TX;
	      });
	router_fwd = sent * 100 / (REPS * (LOOKUPS / 4));
	printf("router  %8u routes, %u-byte packets  %6.1f ns/packet (%u%% forwarded)\n",
	       ROUTES, PKTLEN, router_ns, router_fwd);
	p4fw_destroy(fw);
}

static const char *met(int ok)
{
	return ok ? "met" : "NOT met";
}

static void targets(void)
{
	static const char *const sizes[3][2] = {
		{ "1K", "10K" }, { "64K", "100K" }, { "1M", "1M" } };
	int i;

	printf("\ntargets (issue 7):\n");
	for (i = 0; i < 3 && have_dpdk; i++)
		printf("  exact %-4s no slower than rte_hash: %5.2fx  %s\n",
		       sizes[i][0], exact_ns[i] / hash_ns[i],
		       met(exact_ns[i] <= hash_ns[i]));
	for (i = 0; i < 3 && have_dpdk; i++)
		printf("  lpm   %-4s within 2x of rte_lpm:    %5.2fx  %s\n",
		       sizes[i][1], lpm_ns[i] / rte_lpm_ns[i],
		       met(lpm_ns[i] <= 2 * rte_lpm_ns[i]));
	printf("  ternary 64 masks under 20x exact:   %5.1fx (1K) %5.1fx (16K)  %s\n",
	       ternary_ns[1] / exact_ns[0], ternary_ns[3] / exact_ns[0],
	       met(ternary_ns[1] < 20 * exact_ns[0] &&
		   ternary_ns[3] < 20 * exact_ns[0]));
	/* a router that forwards nothing measures only its way to the host */
	printf("  router under 250 ns/packet:         %5.1f ns  %s\n",
	       router_ns, router_fwd < 99 ? "NOT met: the packets were not routed" :
	       met(router_ns < 250));
	printf("  exact entry (32-bit key) < 64 B:    %5.1f B  %s\n",
	       exact_bytes, met(exact_bytes < 64));
	if (!have_dpdk)
		printf("  (DPDK comparisons skipped: %s)\n",
#ifdef HAVE_DPDK
		       "rte_eal_init failed"
#else
		       "built without libdpdk-dev"
#endif
		       );
}

static int want(int argc, char **argv, const char *what)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], what))
			return 1;
	return argc == 1;
}

/* bench [exact] [lpm] [ternary] [router]: those parts only (default all). */
int main(int argc, char **argv)
{
#ifdef HAVE_DPDK
	char prefix[64];
	char *eal[] = { "bench", "--no-huge", "-m", "1536", "--no-pci",
			"--no-shconf", "--no-telemetry", "-l", "0",
			"--log-level=lib.*:error", prefix, NULL };

	/* A prefix of its own, so that concurrent runs do not share EAL files. */
	snprintf(prefix, sizeof(prefix), "--file-prefix=p4fw-bench-%d",
		 (int)getpid());
	have_dpdk = rte_eal_init(11, eal) >= 0;
#endif
	draws = malloc(LOOKUPS * sizeof(*draws));
	printf("p4fw benchmark: each figure the median of %d runs of %u random single\n"
	       "lookups (ternary, router: a quarter as many)%s\n\n", REPS, LOOKUPS,
	       have_dpdk ? "; DPDK 22.11 alongside, same keys, same sequence" : "");
	if (want(argc, argv, "exact") || want(argc, argv, "ternary")) {
		bench_exact(0, 1u << 10);
		bench_exact(1, 1u << 16);
		bench_exact(2, 1u << 20);
	}
	if (want(argc, argv, "lpm")) {
		bench_lpm(0, 10000);
		bench_lpm(1, 100000);
		bench_lpm(2, 1000000);
	}
	if (want(argc, argv, "ternary")) {
		bench_ternary(0, 1024, 8);
		bench_ternary(1, 1024, 64);
		bench_ternary(2, 16384, 8);
		bench_ternary(3, 16384, 64);
	}
	if (want(argc, argv, "router"))
		bench_router();
	if (argc == 1)
		targets();
	free(draws);
#ifdef HAVE_DPDK
	if (have_dpdk)
		rte_eal_cleanup();
#endif
	return 0;
}
