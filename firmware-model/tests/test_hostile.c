// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Images a hostile guest may load (tests/programs.c, "hostile images"):
 * each legal by the loader's rules, each built to reach a limit of the
 * packet engine.  Under ASan and UBSan a missed limit shows as an abort,
 * not as a wrong answer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>

#include "p4fw/exact.h"
#include "p4fw/ternary.h"
#include "fw.h"
#include "pipeline.h"
#include "programs.h"
#include "rig.h"

/* The packet's table hits outnumber the hit list: it goes to the host. */
static void test_hit_list_full(void **state)
{
	struct rig *r = rig_new(2);
	uint8_t pkt[60] = { 0 };
	struct p4fw_verdict v;
	struct p4nic_cpl c;

	(void)state;
	rig_load(r, program_hits);
	p4fw_process(r->fw, 0, pkt, sizeof(pkt), &v);
	assert_int_equal(v.kind, P4FW_HOST);
	assert_int_equal(v.reason, P4NIC_RX_UNSUPPORTED);
	assert_int_equal(v.len, sizeof(pkt));
	/* nothing counted: the host runs the packet */
	c = rig_cmd(r, P4NIC_CMD_QUERY, NULL, 0,
		    sizeof(struct p4nic_table_info), P4NIC_QUERY_TABLE, HITS_A,
		    0);
	assert_int_equal(c.status, P4NIC_ST_OK);
	assert_int_equal(((struct p4nic_table_info *)(r->mem + RIG_OUT))->misses,
			 0);
	rig_free(r);
}

/* Key slices reach bit 511; no mask may be shifted that far. */
static void test_wide_key_write(void **state)
{
	struct rig *r = rig_new(2);
	uint8_t pkt[60] = { 0 };
	struct p4fw_verdict v;

	(void)state;
	rig_load(r, program_wide_key);
	p4fw_process(r->fw, 0, pkt, sizeof(pkt), &v);
	assert_int_equal(v.kind, P4FW_TX);
	assert_int_equal(v.port, 1);
	rig_free(r);
}

/* One table of TYPE on a KEY_BITS constant key, no actions. */
static uint8_t *one_table(uint32_t type, uint32_t key_bits,
			  uint32_t max_entries, uint32_t max_masks,
			  uint32_t *len)
{
	struct ib *b = ib_new(42);
	struct ib_table t = { 0 };
	uint32_t eth, left = key_bits, w;
	uint8_t *img;

	eth = ib_header(b, 1, 14);
	ib_field(b, 1, eth, 0, 48);
	ib_port(b, 0, IFX(0));
	t.id = 1;
	t.type = type;
	t.key_bits = key_bits;
	t.max_entries = max_entries;
	t.max_masks = max_masks;
	for (; left; left -= w) {
		w = left > 128 ? 128 : left;
		t.keys[t.nkeys++] = ib_const(b, (uint16_t)w, 0);
	}
	t.hit.action = P4NIC_NONE;
	t.miss.action = P4NIC_NONE;
	ib_table(b, &t);
	ib_prog_begin(b);
	ib_insn(b, P4NIC_OP_TABLEAPPLY, OPS(ib_tableop(b, 0)));
	ib_pipeline(b, eth, ib_prog_end(b));
	img = ib_finish(b, len);
	ib_free(b);
	return img;
}

static uint16_t load(struct rig *r, uint8_t *img, uint32_t len)
{
	uint16_t st = rig_cmd(r, P4NIC_CMD_PIPELINE_LOAD, img, len, 0, 0, 0,
			      0).status;

	free(img);
	return st;
}

/* A /KEY_BITS prefix of a wide LPM table whose first three bytes are N. */
static uint16_t add_prefix(struct rig *r, uint32_t key_bits, uint32_t n,
			   uint32_t handle)
{
	uint8_t key[64] = { 0 }, mask[64];
	struct p4nic_entry e;

	memset(mask, 0xff, sizeof(mask));
	key[0] = (uint8_t)(n >> 16);
	key[1] = (uint8_t)(n >> 8);
	key[2] = (uint8_t)n;
	ib_entry(&e, 1, handle, 0, 0, key_bits / 8, key, mask, 0,
		 NULL);
	return rig_entry(r, P4NIC_CMD_ENTRY_ADD, &e).status;
}

/*
 * The device's memory limit: an image whose tables need more is refused
 * whole; a wide prefix that could grow the trie past it is refused, and
 * the tables never hold more than the limit.
 */
static void test_mem_limit(void **state)
{
	struct rig *r = rig_new(1);
	uint64_t limit;
	uint32_t len, n;
	uint8_t *img;

	(void)state;
	/* an LPM root is 80 MiB: not within 64 MiB */
	p4fw_set_mem_limit(r->fw, 64u << 20);
	img = one_table(P4NIC_TABLE_LPM, 32, 1024, 33, &len);
	assert_int_equal(load(r, img, len), P4NIC_ST_NO_MEMORY);
	assert_int_equal(p4fw_mem_used(r->fw), 0);
	img = one_table(P4NIC_TABLE_LPM, 512, 4096, 1, &len);
	assert_int_equal(load(r, img, len), P4NIC_ST_NO_MEMORY);

	/* room for the table and about ten wide prefixes (92 KiB each) */
	p4fw_set_mem_limit(r->fw, 0);
	img = one_table(P4NIC_TABLE_LPM, 512, 4096, 1, &len);
	assert_int_equal(load(r, img, len), P4NIC_ST_OK);
	limit = p4fw_mem_used(r->fw) + (1u << 20);
	p4fw_set_mem_limit(r->fw, limit);
	for (n = 1; n < 100; n++) {
		uint16_t st = add_prefix(r, 512, n, n);

		assert_true(p4fw_mem_used(r->fw) <= limit);
		if (st == P4NIC_ST_NO_MEMORY)
			break;
		assert_int_equal(st, P4NIC_ST_OK);
	}
	assert_true(n > 2 && n < 100);
	/* a short prefix needs no node: still room for it */
	{
		uint8_t key[64] = { 0 }, mask[64] = { 0xff, 0xff };
		struct p4nic_entry e;

		ib_entry(&e, 1, 200, 0, 0, 64, key, mask, 0, NULL);
		assert_int_equal(rig_entry(r, P4NIC_CMD_ENTRY_ADD, &e).status,
				 P4NIC_ST_OK);
	}
	/* a flush keeps the trie's arrays: the limit still holds */
	assert_int_equal(rig_cmd(r, P4NIC_CMD_TABLE_FLUSH, NULL, 0, 0, 1, 0,
				 0).status, P4NIC_ST_OK);
	assert_true(p4fw_mem_used(r->fw) <= limit);
	assert_int_equal(add_prefix(r, 512, 1, 1), P4NIC_ST_OK);
	rig_free(r);
}

/* Entries that share key and mask form a chain: at most 64 of them. */
static void test_ternary_same_key(void **state)
{
	uint8_t key[4] = { 10, 0, 0, 1 }, mask[4] = { 255, 255, 255, 255 };
	struct rig *r = rig_new(1);
	struct p4nic_entry e;
	uint32_t len, i;
	uint8_t *img;

	(void)state;
	img = one_table(P4NIC_TABLE_TERNARY, 32, 1024, 8, &len);
	assert_int_equal(load(r, img, len), P4NIC_ST_OK);
	for (i = 0; i < P4FW_TERNARY_MAX_SAME; i++) {
		ib_entry(&e, 1, i, 1000 - i, 0, 4, key, mask, 0,
			 NULL);
		assert_int_equal(rig_entry(r, P4NIC_CMD_ENTRY_ADD, &e).status,
				 P4NIC_ST_OK);
	}
	ib_entry(&e, 1, i, 5000, 0, 4, key, mask, 0, NULL);
	assert_int_equal(rig_entry(r, P4NIC_CMD_ENTRY_ADD, &e).status,
			 P4NIC_ST_LIMIT);
	/* another key is fine */
	key[3] = 2;
	ib_entry(&e, 1, i, 5000, 0, 4, key, mask, 0, NULL);
	assert_int_equal(rig_entry(r, P4NIC_CMD_ENTRY_ADD, &e).status,
			 P4NIC_ST_OK);
	rig_free(r);
}

/* The seed of the loaded pipeline's first exact table. */
static uint64_t exact_seed(struct rig *r)
{
	const struct fw_pipeline *p = r->fw->pipe;
	uint32_t i;

	assert_non_null(p);
	for (i = 0; i < p->num_tables; i++)
		if (p->tables[i].type == P4NIC_TABLE_EXACT)
			return p4fw_exact_seed(p->tables[i].exact);
	fail_msg("the program has no exact table");
	return 0;
}

static uint64_t seed_after_load(uint64_t secret, int loads)
{
	struct rig *r = rig_new(4);	/* the ACL's ports */
	uint64_t seed;

	p4fw_set_secret(r->fw, secret);
	while (loads--) {
		/* a RESET unloads; the load count goes on */
		assert_int_equal(rig_cmd(r, P4NIC_CMD_RESET, NULL, 0, 0, 0, 0,
					 0).status, P4NIC_ST_OK);
		rig_load(r, program_acl);
	}
	seed = exact_seed(r);
	rig_free(r);
	return seed;
}

/*
 * An exact table's hash seed comes from the device's secret (QEMU draws
 * it from the guest-random source) and the load count, not from a stack
 * address a guest could learn or a value it could predict: different
 * secrets give different seeds, each load its own, and a given secret
 * the same ones (a fuzzer's run replays).
 */
static void test_hash_seed_from_secret(void **state)
{
	uint64_t a1 = seed_after_load(0x0123456789abcdefull, 1);
	uint64_t a2 = seed_after_load(0x0123456789abcdefull, 2);
	uint64_t b1 = seed_after_load(0xfedcba9876543210ull, 1);

	(void)state;
	assert_int_not_equal(a1, 0);
	assert_int_not_equal(a1, a2);
	assert_int_not_equal(a1, b1);
	assert_int_equal(a1, seed_after_load(0x0123456789abcdefull, 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hit_list_full),
		cmocka_unit_test(test_wide_key_write),
		cmocka_unit_test(test_mem_limit),
		cmocka_unit_test(test_ternary_same_key),
		cmocka_unit_test(test_hash_seed_from_secret),
	};

	return cmocka_run_group_tests_name("hostile", tests, NULL, NULL);
}
