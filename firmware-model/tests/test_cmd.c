// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Admin commands: what each one does, and that every malformed command is
 * refused with the status and field that say why, changing nothing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>

#include "programs.h"
#include "rig.h"

#define REFUSED(cpl, st, fld) do {				\
	struct p4nic_cpl c_ = (cpl);				\
	assert_int_equal(c_.status, (st));			\
	assert_int_equal(c_.field, (fld));			\
} while (0)

static uint32_t num_entries(struct rig *r)
{
	struct p4nic_pipeline_info pi;

	assert_int_equal(rig_cmd(r, P4NIC_CMD_QUERY, NULL, 0, sizeof(pi),
				 P4NIC_QUERY_PIPELINE, 0, 0).status,
			 P4NIC_ST_OK);
	memcpy(&pi, r->mem + RIG_OUT, sizeof(pi));
	return pi.loaded ? pi.num_entries : 0xdead;
}

static void test_identify(void **state)
{
	struct rig *r = rig_new(3);
	struct p4nic_identity id;
	struct p4nic_cpl c;

	(void)state;
	c = rig_cmd(r, P4NIC_CMD_IDENTIFY, NULL, 0, sizeof(id), 0, 0, 0);
	assert_int_equal(c.status, P4NIC_ST_OK);
	assert_int_equal(c.result, sizeof(id));
	memcpy(&id, r->mem + RIG_OUT, sizeof(id));
	assert_int_equal(id.abi_major, P4NIC_ABI_MAJOR);
	assert_int_equal(id.num_ports, 3);
	assert_true(id.commands & P4NIC_CMD_BIT(P4NIC_CMD_QUERY));
	assert_false(id.commands & P4NIC_CMD_BIT(0));
	assert_int_equal(id.max_key_bits, 512);
	assert_int_equal(id.max_masks, 128);
	assert_int_equal(id.max_insns_per_action, 32);
	assert_int_equal(id.max_operands_per_insn, 9);
	assert_int_equal(id.fw_version, P4FW_VERSION);
	assert_int_equal(id.fw_version >> 16, 1);

	REFUSED(rig_cmd(r, 0, NULL, 0, 0, 0, 0, 0), P4NIC_ST_BAD_OPCODE,
		P4NIC_F_OPCODE);
	REFUSED(rig_cmd(r, 99, NULL, 0, 0, 0, 0, 0), P4NIC_ST_BAD_OPCODE,
		P4NIC_F_OPCODE);
	REFUSED(rig_cmd(r, P4NIC_CMD_IDENTIFY, NULL, 0, sizeof(id) - 1, 0, 0,
			0), P4NIC_ST_INVALID, P4NIC_F_OUT_LEN);
	REFUSED(rig_cmd(r, P4NIC_CMD_IDENTIFY, "x", 1, sizeof(id), 0, 0, 0),
		P4NIC_ST_INVALID, P4NIC_F_IN_LEN);
	c = rig_cmd(r, P4NIC_CMD_IDENTIFY, NULL, 0, sizeof(id), 0, 5, 0);
	REFUSED(c, P4NIC_ST_INVALID, P4NIC_F_PARAM);
	assert_int_equal(c.result, 1);
	r->dma_fail = 1;
	REFUSED(rig_cmd(r, P4NIC_CMD_IDENTIFY, NULL, 0, sizeof(id), 0, 0, 0),
		P4NIC_ST_DMA, P4NIC_F_OUT_ADDR);
	rig_free(r);
}

static void test_flags_and_ports(void **state)
{
	struct rig *r = rig_new(2);
	struct p4fw_dma dma = { NULL, NULL, NULL };
	struct p4nic_cmd cmd = { .opcode = P4NIC_CMD_RESET, .flags = 1,
				 .cookie = 5 };
	struct p4nic_port_info pi;
	struct p4nic_cpl c;

	(void)state;
	p4fw_command(r->fw, (const uint8_t *)&cmd, &dma, (uint8_t *)&c);
	REFUSED(c, P4NIC_ST_INVALID, P4NIC_F_FLAGS);
	assert_int_equal(c.cookie, 5);

	REFUSED(rig_cmd(r, P4NIC_CMD_PORT_SET, NULL, 0, 0, 2, 0, 0),
		P4NIC_ST_INVALID, P4NIC_F_PORT);
	REFUSED(rig_cmd(r, P4NIC_CMD_PORT_SET, NULL, 0, 0, 1, 8, 0),
		P4NIC_ST_INVALID, P4NIC_F_PARAM);
	assert_false(p4fw_port_enabled(r->fw, 1));
	assert_int_equal(rig_cmd(r, P4NIC_CMD_PORT_SET, NULL, 0, 0, 1,
				 P4NIC_PORT_ENABLED, 0).status, P4NIC_ST_OK);
	assert_true(p4fw_port_enabled(r->fw, 1));
	p4fw_set_link(r->fw, 1, true);
	p4fw_count_host_tx(r->fw, 1, 100);
	p4fw_count_no_buffer(r->fw, 1);
	c = rig_cmd(r, P4NIC_CMD_PORT_QUERY, NULL, 0, sizeof(pi), 1, 0, 0);
	assert_int_equal(c.status, P4NIC_ST_OK);
	memcpy(&pi, r->mem + RIG_OUT, sizeof(pi));
	assert_int_equal(pi.mac[0], 0x52);
	assert_int_equal(pi.mac[5], 1);
	assert_int_equal(pi.status, P4NIC_PORT_LINK_UP | P4NIC_PORT_ENABLED);
	assert_int_equal(pi.tx_packets, 1);
	assert_int_equal(pi.tx_bytes, 100);
	assert_int_equal(pi.no_buffer, 1);

	/* Reset: ports disabled, counters zero, link kept (it is the wire's). */
	rig_load(r, program_calc);
	assert_int_equal(rig_cmd(r, P4NIC_CMD_RESET, NULL, 0, 0, 0, 0, 0).status,
			 P4NIC_ST_OK);
	assert_false(p4fw_port_enabled(r->fw, 1));
	assert_int_equal(num_entries(r), 0xdead);
	rig_cmd(r, P4NIC_CMD_PORT_QUERY, NULL, 0, sizeof(pi), 1, 0, 0);
	memcpy(&pi, r->mem + RIG_OUT, sizeof(pi));
	assert_int_equal(pi.status, P4NIC_PORT_LINK_UP);
	assert_int_equal(pi.tx_packets, 0);
	rig_free(r);
}

static void test_load_unload(void **state)
{
	struct rig *r = rig_new(4);
	uint32_t len;
	uint8_t *img = program_router(&len);

	(void)state;
	REFUSED(rig_cmd(r, P4NIC_CMD_PIPELINE_UNLOAD, NULL, 0, 0, ROUTER_PIPEID,
			0, 0), P4NIC_ST_NO_PIPELINE, P4NIC_F_NONE);
	REFUSED(rig_cmd(r, P4NIC_CMD_PIPELINE_LOAD, img, 8, 0, 0, 0, 0),
		P4NIC_ST_INVALID, P4NIC_F_IN_LEN);
	REFUSED(rig_cmd(r, P4NIC_CMD_PIPELINE_LOAD, NULL,
			P4NIC_IMAGE_MAX_BYTES + 1, 0, 0, 0, 0),
		P4NIC_ST_LIMIT, P4NIC_F_IN_LEN);
	r->dma_fail = 1;
	REFUSED(rig_cmd(r, P4NIC_CMD_PIPELINE_LOAD, img, len, 0, 0, 0, 0),
		P4NIC_ST_DMA, P4NIC_F_IN_ADDR);
	r->dma_fail = 0;
	assert_int_equal(num_entries(r), 0xdead);
	assert_int_equal(rig_cmd(r, P4NIC_CMD_PIPELINE_LOAD, img, len, 0, 0, 0,
				 0).status, P4NIC_ST_OK);
	REFUSED(rig_cmd(r, P4NIC_CMD_PIPELINE_LOAD, img, len, 0, 0, 0, 0),
		P4NIC_ST_BUSY, P4NIC_F_NONE);
	REFUSED(rig_cmd(r, P4NIC_CMD_PIPELINE_UNLOAD, NULL, 0, 0, 99, 0, 0),
		P4NIC_ST_INVALID, P4NIC_F_PIPEID);
	assert_int_equal(num_entries(r), 0);
	assert_int_equal(rig_cmd(r, P4NIC_CMD_PIPELINE_UNLOAD, NULL, 0, 0,
				 ROUTER_PIPEID, 0, 0).status, P4NIC_ST_OK);
	assert_int_equal(num_entries(r), 0xdead);
	free(img);
	rig_free(r);
}

/* A valid ACL-table entry, for the tests to break one field at a time. */
static void acl_entry(struct p4nic_entry *e, uint32_t handle, uint32_t prio)
{
	uint8_t key[11] = { 10, 0, 0, 1, 0, 0, 0, 0, 6, 0, 22 };
	uint8_t mask[11] = { 255, 255, 255, 255, 0, 0, 0, 0, 255, 255, 255 };

	ib_entry(e, ACL_TABLE, handle, prio, ACL_DENY, 11, key, mask, 0, NULL);
}

static void fwd_entry(struct p4nic_entry *e, uint32_t handle, uint64_t mac,
		      uint32_t ifx)
{
	uint8_t key[6], mask[6];
	ib_u128 p = ifx;
	int i;

	for (i = 0; i < 6; i++) {
		key[i] = (uint8_t)(mac >> (40 - 8 * i));
		mask[i] = 0xff;
	}
	ib_entry(e, ACL_FWD, handle, 0, ACL_SEND, 6, key, mask, 1, &p);
}

static void expect_entry_refused(struct rig *r, const struct p4nic_entry *e,
				 uint16_t opcode, uint16_t status,
				 uint16_t field)
{
	uint32_t before = num_entries(r);

	REFUSED(rig_entry(r, opcode, e), status, field);
	assert_int_equal(num_entries(r), before);
}

static void test_entry_refusals(void **state)
{
	struct rig *r = rig_new(4);
	struct p4nic_entry e, ok;
	uint32_t i;

	(void)state;
	acl_entry(&e, 0, 1);
	REFUSED(rig_entry(r, P4NIC_CMD_ENTRY_ADD, &e), P4NIC_ST_NO_PIPELINE,
		P4NIC_F_NONE);
	rig_load(r, program_acl);
	acl_entry(&ok, 0, 1);
	assert_int_equal(rig_entry(r, P4NIC_CMD_ENTRY_ADD, &ok).status,
			 P4NIC_ST_OK);

	REFUSED(rig_cmd(r, P4NIC_CMD_ENTRY_ADD, &e, sizeof(e) - 1, 0, 0, 0, 0),
		P4NIC_ST_INVALID, P4NIC_F_IN_LEN);
	e = ok; e.table_id = 77; e.handle = 1;
	expect_entry_refused(r, &e, P4NIC_CMD_ENTRY_ADD, P4NIC_ST_NOT_FOUND,
			     P4NIC_F_TABLE_ID);
	e = ok; e.handle = 4096;
	expect_entry_refused(r, &e, P4NIC_CMD_ENTRY_ADD, P4NIC_ST_INVALID,
			     P4NIC_F_HANDLE);
	e = ok; e.prio = 2;
	expect_entry_refused(r, &e, P4NIC_CMD_ENTRY_ADD, P4NIC_ST_EXISTS,
			     P4NIC_F_HANDLE);
	e = ok; e.handle = 1;
	expect_entry_refused(r, &e, P4NIC_CMD_ENTRY_ADD, P4NIC_ST_EXISTS,
			     P4NIC_F_KEY);
	e = ok; e.handle = 1; e.key[4] = 1;	/* outside its mask */
	expect_entry_refused(r, &e, P4NIC_CMD_ENTRY_ADD, P4NIC_ST_INVALID,
			     P4NIC_F_KEY);
	e = ok; e.handle = 1; e.mask[11] = 0xff;	/* beyond 88 bits */
	expect_entry_refused(r, &e, P4NIC_CMD_ENTRY_ADD, P4NIC_ST_INVALID,
			     P4NIC_F_MASK);
	e = ok; e.handle = 1; e.key_len = 12;
	expect_entry_refused(r, &e, P4NIC_CMD_ENTRY_ADD, P4NIC_ST_INVALID,
			     P4NIC_F_KEY_LEN);
	e = ok; e.handle = 1; e.action_id = 999;
	expect_entry_refused(r, &e, P4NIC_CMD_ENTRY_ADD, P4NIC_ST_NOT_FOUND,
			     P4NIC_F_ACTION_ID);
	e = ok; e.handle = 1; e.action_id = ACL_SEND; e.num_params = 1;
	expect_entry_refused(r, &e, P4NIC_CMD_ENTRY_ADD, P4NIC_ST_INVALID,
			     P4NIC_F_ACTION_ID);	/* not a table action */
	e = ok; e.handle = 1; e.num_params = 1;
	expect_entry_refused(r, &e, P4NIC_CMD_ENTRY_ADD, P4NIC_ST_INVALID,
			     P4NIC_F_ACTION_PARAM);
	e = ok; e.handle = 1; e.rsvd[1] = 1;
	expect_entry_refused(r, &e, P4NIC_CMD_ENTRY_ADD, P4NIC_ST_INVALID,
			     P4NIC_F_FLAGS);
	e = ok; e.handle = 2;
	expect_entry_refused(r, &e, P4NIC_CMD_ENTRY_REPLACE,
			     P4NIC_ST_NOT_FOUND, P4NIC_F_HANDLE);
	e = ok; e.key[0] = 11;
	expect_entry_refused(r, &e, P4NIC_CMD_ENTRY_REPLACE, P4NIC_ST_INVALID,
			     P4NIC_F_KEY);	/* replace cannot move an entry */

	/* Exact table: full mask, no priority, parameters that fit. */
	fwd_entry(&ok, 0, 0x020000000001ull, IFX(1));
	e = ok; e.mask[0] = 0xfe;
	expect_entry_refused(r, &e, P4NIC_CMD_ENTRY_ADD, P4NIC_ST_INVALID,
			     P4NIC_F_MASK);
	e = ok; e.prio = 3;
	expect_entry_refused(r, &e, P4NIC_CMD_ENTRY_ADD, P4NIC_ST_INVALID,
			     P4NIC_F_PRIO);
	e = ok; e.params[0].lo = 1ull << 32;
	expect_entry_refused(r, &e, P4NIC_CMD_ENTRY_ADD, P4NIC_ST_INVALID,
			     P4NIC_F_ACTION_PARAM);
	e = ok; e.num_params = 9;
	expect_entry_refused(r, &e, P4NIC_CMD_ENTRY_ADD, P4NIC_ST_INVALID,
			     P4NIC_F_ACTION_PARAM);

	/* Ternary: 16 masks at most in this table. */
	for (i = 0; i < 16; i++) {
		acl_entry(&e, 10 + i, 1);
		e.mask[0] = (uint8_t)(0xff << (i % 8));
		e.mask[1] = i < 8 ? 0xff : 0;
		e.key[0] &= e.mask[0];
		e.key[1] &= e.mask[1];
		e.key[3] = 2;	/* not the first entry's key */
		if (i == 0)
			continue;	/* the first entry's mask */
		assert_int_equal(rig_entry(r, P4NIC_CMD_ENTRY_ADD, &e).status,
				 P4NIC_ST_OK);
	}
	acl_entry(&e, 40, 1);
	e.mask[7] = 0xff;
	expect_entry_refused(r, &e, P4NIC_CMD_ENTRY_ADD, P4NIC_ST_NO_SPACE,
			     P4NIC_F_MASK);

	/* Delete and flush. */
	REFUSED(rig_cmd(r, P4NIC_CMD_ENTRY_DEL, NULL, 0, 0, ACL_TABLE, 4096, 0),
		P4NIC_ST_INVALID, P4NIC_F_HANDLE);
	REFUSED(rig_cmd(r, P4NIC_CMD_ENTRY_DEL, NULL, 0, 0, ACL_TABLE, 5, 0),
		P4NIC_ST_NOT_FOUND, P4NIC_F_HANDLE);
	REFUSED(rig_cmd(r, P4NIC_CMD_ENTRY_DEL, NULL, 0, 0, 77, 0, 0),
		P4NIC_ST_NOT_FOUND, P4NIC_F_TABLE_ID);
	assert_int_equal(num_entries(r), 16);
	assert_int_equal(rig_cmd(r, P4NIC_CMD_ENTRY_DEL, NULL, 0, 0, ACL_TABLE,
				 0, 0).status, P4NIC_ST_OK);
	assert_int_equal(num_entries(r), 15);
	assert_int_equal(rig_cmd(r, P4NIC_CMD_TABLE_FLUSH, NULL, 0, 0,
				 ACL_TABLE, 0, 0).status, P4NIC_ST_OK);
	assert_int_equal(num_entries(r), 0);
	/* After a flush every mask is free again. */
	e.handle = 0;
	assert_int_equal(rig_entry(r, P4NIC_CMD_ENTRY_ADD, &e).status,
			 P4NIC_ST_OK);
	rig_free(r);
}

static void test_lpm_mask(void **state)
{
	struct rig *r = rig_new(4);
	uint8_t key[4] = { 10, 0, 0, 0 }, mask[4] = { 255, 0, 255, 0 };
	struct p4nic_entry e;

	(void)state;
	rig_load(r, program_router);
	ib_entry(&e, ROUTER_FIB, 0, 0, ROUTER_DROP, 4, key, mask, 0, NULL);
	expect_entry_refused(r, &e, P4NIC_CMD_ENTRY_ADD, P4NIC_ST_INVALID,
			     P4NIC_F_MASK);
	rig_free(r);
}

/* A pipeline runs on the ports that have PORT_PIPELINE, and only there. */
static void test_port_pipeline(void **state)
{
	struct rig *r = rig_new(4);
	struct p4nic_port_info pi;
	struct p4fw_verdict v;
	uint8_t pkt[128];
	uint32_t len;

	(void)state;
	rig_load(r, program_acl);	/* PIPELINE on both ports */
	assert_int_equal(rig_cmd(r, P4NIC_CMD_PORT_SET, NULL, 0, 0, 1,
				 P4NIC_PORT_ENABLED, 0).status, P4NIC_ST_OK);
	len = rig_ipv4(pkt, 0x020000000000ull, 1, 1, 2, 17, 64, 1, 2);
	p4fw_process(r->fw, 0, pkt, len, &v);
	assert_int_equal(v.kind, P4FW_HOST);
	assert_int_equal(v.reason, P4NIC_RX_PASS);	/* the program ran */
	p4fw_process(r->fw, 1, pkt, len, &v);
	assert_int_equal(v.kind, P4FW_HOST);
	assert_int_equal(v.reason, P4NIC_RX_NO_PIPELINE);
	assert_memory_equal(v.data, pkt, len);

	rig_cmd(r, P4NIC_CMD_PORT_QUERY, NULL, 0, sizeof(pi), 0, 0, 0);
	memcpy(&pi, r->mem + RIG_OUT, sizeof(pi));
	assert_int_equal(pi.status, P4NIC_PORT_PIPELINE);

	/* unloading clears the bit: the next pipeline starts on no port */
	assert_int_equal(rig_cmd(r, P4NIC_CMD_PIPELINE_UNLOAD, NULL, 0, 0,
				 ACL_PIPEID, 0, 0).status, P4NIC_ST_OK);
	rig_cmd(r, P4NIC_CMD_PORT_QUERY, NULL, 0, sizeof(pi), 0, 0, 0);
	memcpy(&pi, r->mem + RIG_OUT, sizeof(pi));
	assert_int_equal(pi.status, 0);
	rig_free(r);
}

/* LOOKUP_TO_HOST: a hit goes to the host too, as the original. */
static void test_lookup_to_host(void **state)
{
	struct rig *r = rig_new(4);
	struct p4fw_verdict v;
	struct p4nic_entry e;
	uint8_t pkt[128];
	uint32_t len;

	(void)state;
	rig_load(r, program_acl);
	fwd_entry(&e, 1, 0x020000000001ull, IFX(1));
	assert_int_equal(rig_entry(r, P4NIC_CMD_ENTRY_ADD, &e).status,
			 P4NIC_ST_OK);
	len = rig_ipv4(pkt, 0x020000000001ull, 1, 1, 2, 17, 64, 1, 2);
	p4fw_process(r->fw, 0, pkt, len, &v);
	assert_int_equal(v.kind, P4FW_TX);

	assert_int_equal(rig_cmd(r, P4NIC_CMD_TABLE_MISS_MODE, NULL, 0, 0,
				 ACL_FWD, P4NIC_LOOKUP_TO_HOST, 0).status,
			 P4NIC_ST_OK);
	p4fw_process(r->fw, 0, pkt, len, &v);
	assert_int_equal(v.kind, P4FW_HOST);
	assert_int_equal(v.reason, P4NIC_RX_TABLE_MISS);
	assert_int_equal(v.info, ACL_FWD);
	assert_memory_equal(v.data, pkt, len);
	REFUSED(rig_cmd(r, P4NIC_CMD_TABLE_MISS_MODE, NULL, 0, 0, ACL_FWD,
			P4NIC_LOOKUP_TO_HOST + 1, 0), P4NIC_ST_INVALID,
		P4NIC_F_MODE);

	assert_int_equal(rig_cmd(r, P4NIC_CMD_TABLE_MISS_MODE, NULL, 0, 0,
				 ACL_FWD, P4NIC_MISS_DEFAULT, 0).status,
			 P4NIC_ST_OK);
	p4fw_process(r->fw, 0, pkt, len, &v);
	assert_int_equal(v.kind, P4FW_TX);
	rig_free(r);
}

static void test_counters_registers(void **state)
{
	struct rig *r = rig_new(4);
	struct p4nic_u128 w[2] = { { 1, 0 }, { 2, 1 } }, got;
	struct p4nic_entry e;
	struct p4nic_counter k[100];
	uint8_t pkt[128];
	struct p4fw_verdict v;
	uint32_t i, len;

	(void)state;
	rig_load(r, program_acl);
	for (i = 0; i < 100; i += 10) {
		fwd_entry(&e, i, 0x020000000000ull + i, IFX(1));
		assert_int_equal(rig_entry(r, P4NIC_CMD_ENTRY_ADD, &e).status,
				 P4NIC_ST_OK);
	}
	for (i = 0; i < 30; i++) {
		len = rig_ipv4(pkt, 0x020000000000ull + 10 * (i % 3), 1, 1, 2,
			       17, 64, 1, 2);
		p4fw_process(r->fw, 0, pkt, len, &v);
		assert_int_equal(v.kind, P4FW_TX);
	}
	assert_int_equal(rig_cmd(r, P4NIC_CMD_COUNTERS_READ, NULL, 0,
				 sizeof(k), ACL_FWD, 0, 100).result, sizeof(k));
	memcpy(k, r->mem + RIG_OUT, sizeof(k));
	for (i = 0; i < 100; i++) {
		assert_int_equal(k[i].packets, i < 30 && i % 10 == 0 ? 10 : 0);
		assert_int_equal(k[i].bytes, k[i].packets * len);
	}
	REFUSED(rig_cmd(r, P4NIC_CMD_COUNTERS_READ, NULL, 0, 16, ACL_FWD, 0, 0),
		P4NIC_ST_INVALID, P4NIC_F_COUNT);
	REFUSED(rig_cmd(r, P4NIC_CMD_COUNTERS_READ, NULL, 0, 32, ACL_FWD, 1023,
			2), P4NIC_ST_INVALID, P4NIC_F_COUNT);
	REFUSED(rig_cmd(r, P4NIC_CMD_COUNTERS_READ, NULL, 0, 16, ACL_FWD, 1024,
			1), P4NIC_ST_INVALID, P4NIC_F_HANDLE);
	REFUSED(rig_cmd(r, P4NIC_CMD_COUNTERS_READ, NULL, 0, 31, ACL_FWD, 0, 2),
		P4NIC_ST_INVALID, P4NIC_F_OUT_LEN);

	REFUSED(rig_cmd(r, P4NIC_CMD_REG_WRITE, w, sizeof(w), 0, 9, 0, 2),
		P4NIC_ST_NOT_FOUND, P4NIC_F_REG_ID);
	REFUSED(rig_cmd(r, P4NIC_CMD_REG_WRITE, w, sizeof(w), 0, ACL_REG, 4, 1),
		P4NIC_ST_INVALID, P4NIC_F_REG_INDEX);
	REFUSED(rig_cmd(r, P4NIC_CMD_REG_WRITE, w, sizeof(w), 0, ACL_REG, 3, 2),
		P4NIC_ST_INVALID, P4NIC_F_COUNT);
	REFUSED(rig_cmd(r, P4NIC_CMD_REG_WRITE, w, 16, 0, ACL_REG, 0, 2),
		P4NIC_ST_INVALID, P4NIC_F_IN_LEN);
	/* A 65-bit value in a bit64 register: refused, nothing written. */
	REFUSED(rig_cmd(r, P4NIC_CMD_REG_WRITE, w, sizeof(w), 0, ACL_REG, 0, 2),
		P4NIC_ST_INVALID, P4NIC_F_VALUE);
	rig_cmd(r, P4NIC_CMD_REG_READ, NULL, 0, 16, ACL_REG, 0, 1);
	memcpy(&got, r->mem + RIG_OUT, sizeof(got));
	assert_int_equal(got.lo, 30);

	REFUSED(rig_cmd(r, P4NIC_CMD_QUERY, NULL, 0, 64, 9, 0, 0),
		P4NIC_ST_INVALID, P4NIC_F_QUERY);
	REFUSED(rig_cmd(r, P4NIC_CMD_QUERY, NULL, 0, 64, P4NIC_QUERY_TABLE, 9,
			0), P4NIC_ST_NOT_FOUND, P4NIC_F_TABLE_ID);
	{
		struct p4nic_default_action d = { .table_id = ACL_FWD,
			.which = 2, .action_id = ACL_TO_HOST };

		REFUSED(rig_cmd(r, P4NIC_CMD_DEFAULT_SET, &d, sizeof(d), 0, 0,
				0, 0), P4NIC_ST_INVALID, P4NIC_F_WHICH);
		d.which = P4NIC_DEFAULT_MISS;
		d.num_params = 1;
		REFUSED(rig_cmd(r, P4NIC_CMD_DEFAULT_SET, &d, sizeof(d), 0, 0,
				0, 0), P4NIC_ST_INVALID, P4NIC_F_ACTION_PARAM);
		d.num_params = 0;
		d.action_id = 4242;
		REFUSED(rig_cmd(r, P4NIC_CMD_DEFAULT_SET, &d, sizeof(d), 0, 0,
				0, 0), P4NIC_ST_NOT_FOUND, P4NIC_F_ACTION_ID);
	}
	/* The refused default changes left the old miss action in place. */
	len = rig_ipv4(pkt, 0x77, 1, 1, 2, 17, 64, 1, 2);
	p4fw_process(r->fw, 0, pkt, len, &v);
	assert_int_equal(v.kind, P4FW_HOST);
	assert_int_equal(v.reason, P4NIC_RX_PASS);
	rig_free(r);
}

/* What the host's monitor reads: the loaded pipeline, tables, entries. */
static void test_introspection(void **state)
{
	struct rig *r = rig_new(4);
	struct p4fw_pipeline_stats ps;
	struct p4fw_table_stats ts;
	struct p4fw_entry_stats es;
	struct p4fw_port_stats pt;
	struct p4nic_entry e;
	uint32_t h = 0, i, acl = 0xffffffff;

	(void)state;
	assert_false(p4fw_pipeline_stats(r->fw, &ps));
	assert_int_equal(p4fw_table_stats(r->fw, 0, &ts), -1);
	assert_int_equal(p4fw_entry_next(r->fw, 0, &h, &es), -1);
	assert_int_equal(p4fw_port_stats(r->fw, 3, &pt), 0);
	assert_false(pt.enabled);
	assert_int_equal(p4fw_port_stats(r->fw, 4, &pt), -1);

	rig_load(r, program_acl);
	acl_entry(&e, 5, 3);
	assert_int_equal(rig_entry(r, P4NIC_CMD_ENTRY_ADD, &e).status,
			 P4NIC_ST_OK);
	acl_entry(&e, 9, 4);
	e.key[10] = 23;
	assert_int_equal(rig_entry(r, P4NIC_CMD_ENTRY_ADD, &e).status,
			 P4NIC_ST_OK);
	assert_true(p4fw_pipeline_stats(r->fw, &ps));
	assert_int_equal(ps.pipeid, ACL_PIPEID);
	assert_int_equal(ps.num_entries, 2);
	for (i = 0; i < ps.num_tables; i++) {
		assert_int_equal(p4fw_table_stats(r->fw, i, &ts), 0);
		if (ts.id == ACL_TABLE)
			acl = i;
	}
	assert_int_equal(p4fw_table_stats(r->fw, ps.num_tables, &ts), -1);
	assert_int_not_equal(acl, 0xffffffff);
	assert_int_equal(p4fw_table_stats(r->fw, acl, &ts), 0);
	assert_int_equal(ts.type, P4NIC_TABLE_TERNARY);
	assert_int_equal(ts.num_entries, 2);
	assert_int_equal(ts.num_masks, 1);

	h = 0;
	assert_int_equal(p4fw_entry_next(r->fw, acl, &h, &es), 0);
	assert_int_equal(es.handle, 5);
	assert_int_equal(es.prio, 3);
	assert_int_equal(es.action_id, ACL_DENY);
	assert_int_equal(es.key_bytes, 11);
	assert_int_equal(es.key[10], 22);
	assert_int_equal(es.mask[0], 255);
	assert_int_equal(h, 6);
	assert_int_equal(p4fw_entry_next(r->fw, acl, &h, &es), 0);
	assert_int_equal(es.handle, 9);
	assert_int_equal(es.key[10], 23);
	assert_int_equal(p4fw_entry_next(r->fw, acl, &h, &es), -1);
	rig_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identify),
		cmocka_unit_test(test_flags_and_ports),
		cmocka_unit_test(test_load_unload),
		cmocka_unit_test(test_introspection),
		cmocka_unit_test(test_entry_refusals),
		cmocka_unit_test(test_lpm_mask),
		cmocka_unit_test(test_port_pipeline),
		cmocka_unit_test(test_lookup_to_host),
		cmocka_unit_test(test_counters_registers),
	};

	return cmocka_run_group_tests_name("commands", tests, NULL, NULL);
}
