// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Golden tests: each example program's image is loaded through the admin
 * command path, fed entries, and run on packets whose outputs are known.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>

#include "programs.h"
#include "rig.h"

#define MAC_A 0x020000000001ull
#define MAC_B 0x020000000002ull
#define MAC_H 0x0200000000ffull
#define IP(a, b, c, d) ((uint32_t)(a) << 24 | (b) << 16 | (c) << 8 | (d))

static void add_route(struct rig *r, uint32_t handle, uint32_t prefix,
		      int plen, uint32_t action, uint64_t dmac, uint32_t ifx)
{
	uint8_t key[4], mask[4];
	ib_u128 params[3] = { dmac, MAC_H, ifx };
	uint32_t m = plen ? ~0u << (32 - plen) : 0;
	struct p4nic_entry e;
	int i;

	for (i = 0; i < 4; i++) {
		key[i] = (uint8_t)((prefix & m) >> (24 - 8 * i));
		mask[i] = (uint8_t)(m >> (24 - 8 * i));
	}
	ib_entry(&e, ROUTER_FIB, handle, 0, action, 4, key, mask,
		 action == ROUTER_SET_NH ? 3 : 0, params);
	assert_int_equal(rig_entry(r, P4NIC_CMD_ENTRY_ADD, &e).status,
			 P4NIC_ST_OK);
}

static void counter(struct rig *r, uint32_t table, uint32_t handle,
		    uint64_t packets, uint64_t bytes)
{
	struct p4nic_cpl c = rig_cmd(r, P4NIC_CMD_COUNTERS_READ, NULL, 0, 16,
				     table, handle, 1);
	struct p4nic_counter k;

	assert_int_equal(c.status, P4NIC_ST_OK);
	assert_int_equal(c.result, 16);
	memcpy(&k, r->mem + RIG_OUT, sizeof(k));
	assert_int_equal(k.packets, packets);
	assert_int_equal(k.bytes, bytes);
}

static void test_router(void **state)
{
	struct rig *r = rig_new(4);
	uint8_t pkt[128], orig[128];
	struct p4fw_verdict v;
	struct p4nic_table_info ti;
	uint32_t len;

	(void)state;
	rig_load(r, program_router);
	add_route(r, 5, IP(10, 1, 0, 0), 16, ROUTER_SET_NH, MAC_A, IFX(1));
	add_route(r, 6, IP(10, 1, 2, 0), 24, ROUTER_SET_NH, MAC_B, IFX(2));
	add_route(r, 9, IP(10, 9, 0, 0), 16, ROUTER_SET_NH, MAC_B, 99);

	/* Longest prefix wins; MACs, TTL and checksum rewritten. */
	len = rig_ipv4(pkt, 0x52, 0x99, IP(1, 1, 1, 1), IP(10, 1, 2, 3), 17,
		       64, 1, 2);
	p4fw_process(r->fw, 0, pkt, len, &v);
	assert_int_equal(v.kind, P4FW_TX);
	assert_int_equal(v.port, 2);
	assert_int_equal(v.len, len);
	assert_int_equal(rig_mac(v.data), MAC_B);
	assert_int_equal(rig_mac(v.data + 6), MAC_H);
	assert_int_equal(v.data[14 + 8], 63);
	assert_true(rig_ipv4_csum_ok(v.data));
	assert_memory_equal(v.data + 12, pkt + 12, 8);
	assert_memory_equal(v.data + 26, pkt + 26, len - 26);
	assert_int_equal(v.num_mirrors, 0);

	len = rig_ipv4(pkt, 0x52, 0x99, IP(1, 1, 1, 1), IP(10, 1, 3, 3), 17,
		       2, 1, 2);
	p4fw_process(r->fw, 3, pkt, len, &v);
	assert_int_equal(v.kind, P4FW_TX);
	assert_int_equal(v.port, 1);
	assert_int_equal(v.data[14 + 8], 1);
	assert_true(rig_ipv4_csum_ok(v.data));

	/* No route: the default miss action drops. */
	len = rig_ipv4(pkt, 0x52, 0x99, IP(1, 1, 1, 1), IP(192, 168, 0, 1), 17,
		       64, 1, 2);
	p4fw_process(r->fw, 0, pkt, len, &v);
	assert_int_equal(v.kind, P4FW_DROP);

	/* TTL 1: decided, to the host, untouched. */
	len = rig_ipv4(pkt, 0x52, 0x99, IP(1, 1, 1, 1), IP(10, 1, 2, 3), 17,
		       1, 1, 2);
	p4fw_process(r->fw, 0, pkt, len, &v);
	assert_int_equal(v.kind, P4FW_HOST);
	assert_int_equal(v.reason, P4NIC_RX_PASS);
	assert_int_equal(v.info, 0);
	assert_memory_equal(v.data, pkt, len);

	/* Not IPv4 (an ARP frame): to the host as is. */
	memset(pkt, 0, 60);
	pkt[12] = 0x08;
	pkt[13] = 0x06;
	p4fw_process(r->fw, 0, pkt, 60, &v);
	assert_int_equal(v.kind, P4FW_HOST);
	assert_int_equal(v.reason, P4NIC_RX_PASS);

	/* A next hop that is not a NIC port: the original, to the host. */
	len = rig_ipv4(pkt, 0x52, 0x99, IP(1, 1, 1, 1), IP(10, 9, 0, 1), 17,
		       64, 1, 2);
	memcpy(orig, pkt, len);
	p4fw_process(r->fw, 0, pkt, len, &v);
	assert_int_equal(v.kind, P4FW_HOST);
	assert_int_equal(v.reason, P4NIC_RX_UNSUPPORTED);
	assert_memory_equal(v.data, orig, len);

	/* IHL 15 in a short frame: the parse graph rejects it. */
	pkt[14] = 0x4f;
	p4fw_process(r->fw, 0, pkt, 40, &v);
	assert_int_equal(v.kind, P4FW_HOST);
	assert_int_equal(v.reason, P4NIC_RX_PARSER);

	/* Counters: only what the device decided; punted packets are not. */
	counter(r, ROUTER_FIB, 6, 2, 2 * len);
	counter(r, ROUTER_FIB, 5, 1, len);
	counter(r, ROUTER_FIB, 9, 0, 0);
	assert_int_equal(rig_cmd(r, P4NIC_CMD_QUERY, NULL, 0, sizeof(ti),
				 P4NIC_QUERY_TABLE, ROUTER_FIB, 0).status,
			 P4NIC_ST_OK);
	memcpy(&ti, r->mem + RIG_OUT, sizeof(ti));
	assert_int_equal(ti.num_entries, 3);
	assert_int_equal(ti.hits, 3);	/* two sent, the TTL 1 one passed */
	assert_int_equal(ti.misses, 1);

	/* Miss-to-host: the original goes up, named by table. */
	assert_int_equal(rig_cmd(r, P4NIC_CMD_TABLE_MISS_MODE, NULL, 0, 0,
				 ROUTER_FIB, P4NIC_MISS_TO_HOST, 0).status,
			 P4NIC_ST_OK);
	len = rig_ipv4(pkt, 0x52, 0x99, IP(1, 1, 1, 1), IP(192, 168, 0, 1), 17,
		       64, 1, 2);
	p4fw_process(r->fw, 0, pkt, len, &v);
	assert_int_equal(v.kind, P4FW_HOST);
	assert_int_equal(v.reason, P4NIC_RX_TABLE_MISS);
	assert_int_equal(v.info, ROUTER_FIB);

	/* Delete the /24: the /16 takes over; replace it with drop. */
	assert_int_equal(rig_cmd(r, P4NIC_CMD_ENTRY_DEL, NULL, 0, 0,
				 ROUTER_FIB, 6, 0).status, P4NIC_ST_OK);
	len = rig_ipv4(pkt, 0x52, 0x99, IP(1, 1, 1, 1), IP(10, 1, 2, 3), 17,
		       64, 1, 2);
	p4fw_process(r->fw, 0, pkt, len, &v);
	assert_int_equal(v.kind, P4FW_TX);
	assert_int_equal(v.port, 1);
	{
		struct p4nic_entry e;
		uint8_t key[4] = { 10, 1, 0, 0 }, mask[4] = { 255, 255, 0, 0 };

		ib_entry(&e, ROUTER_FIB, 5, 0, ROUTER_DROP, 4, key, mask, 0,
			 NULL);
		assert_int_equal(rig_entry(r, P4NIC_CMD_ENTRY_REPLACE,
					   &e).status, P4NIC_ST_OK);
	}
	p4fw_process(r->fw, 0, pkt, len, &v);
	assert_int_equal(v.kind, P4FW_DROP);
	counter(r, ROUTER_FIB, 5, 3, 3 * len);	/* replace keeps counts */

	/* A new default miss action: to the host, decided. */
	{
		struct p4nic_default_action d = { .table_id = ROUTER_FIB,
			.which = P4NIC_DEFAULT_MISS,
			.action_id = ROUTER_TO_HOST };

		assert_int_equal(rig_cmd(r, P4NIC_CMD_TABLE_MISS_MODE, NULL, 0,
					 0, ROUTER_FIB, P4NIC_MISS_DEFAULT,
					 0).status, P4NIC_ST_OK);
		assert_int_equal(rig_cmd(r, P4NIC_CMD_DEFAULT_SET, &d,
					 sizeof(d), 0, 0, 0, 0).status,
				 P4NIC_ST_OK);
	}
	len = rig_ipv4(pkt, 0x52, 0x99, IP(1, 1, 1, 1), IP(192, 168, 0, 1), 17,
		       64, 1, 2);
	p4fw_process(r->fw, 0, pkt, len, &v);
	assert_int_equal(v.kind, P4FW_HOST);
	assert_int_equal(v.reason, P4NIC_RX_PASS);
	rig_free(r);
}

static void acl_rule(struct rig *r, uint32_t handle, uint32_t prio,
		     uint32_t src, uint32_t src_mask, uint8_t proto,
		     uint16_t dport, uint32_t action)
{
	uint8_t key[11] = { 0 }, mask[11] = { 0 };
	struct p4nic_entry e;
	int i;

	for (i = 0; i < 4; i++) {
		key[i] = (uint8_t)((src & src_mask) >> (24 - 8 * i));
		mask[i] = (uint8_t)(src_mask >> (24 - 8 * i));
	}
	key[8] = proto;
	mask[8] = 0xff;
	key[9] = (uint8_t)(dport >> 8);
	key[10] = (uint8_t)dport;
	mask[9] = mask[10] = 0xff;
	ib_entry(&e, ACL_TABLE, handle, prio, action, 11, key, mask, 0, NULL);
	assert_int_equal(rig_entry(r, P4NIC_CMD_ENTRY_ADD, &e).status,
			 P4NIC_ST_OK);
}

static void fwd_rule(struct rig *r, uint32_t handle, uint64_t mac,
		     uint32_t action, uint32_t nparams, ib_u128 p0, ib_u128 p1)
{
	uint8_t key[6], mask[6];
	ib_u128 params[2] = { p0, p1 };
	struct p4nic_entry e;
	int i;

	for (i = 0; i < 6; i++) {
		key[i] = (uint8_t)(mac >> (40 - 8 * i));
		mask[i] = 0xff;
	}
	ib_entry(&e, ACL_FWD, handle, 0, action, 6, key, mask, nparams, params);
	assert_int_equal(rig_entry(r, P4NIC_CMD_ENTRY_ADD, &e).status,
			 P4NIC_ST_OK);
}

static uint64_t reg0(struct rig *r)
{
	struct p4nic_u128 v;

	assert_int_equal(rig_cmd(r, P4NIC_CMD_REG_READ, NULL, 0, 16, ACL_REG,
				 0, 1).status, P4NIC_ST_OK);
	memcpy(&v, r->mem + RIG_OUT, sizeof(v));
	assert_int_equal(v.hi, 0);
	return v.lo;
}

static void test_acl(void **state)
{
	struct rig *r = rig_new(4);
	uint8_t pkt[128];
	struct p4fw_verdict v;
	uint32_t len;

	(void)state;
	rig_load(r, program_acl);
	acl_rule(r, 0, 10, 0, 0, 6, 22, ACL_DENY);
	acl_rule(r, 1, 5, IP(10, 0, 0, 1), ~0u, 6, 22, ACL_PERMIT);
	fwd_rule(r, 0, MAC_A, ACL_SEND, 1, IFX(1), 0);
	fwd_rule(r, 1, MAC_B, ACL_MIRROR_SEND, 2, IFX(2), IFX(3));

	len = rig_ipv4(pkt, MAC_A, 0x99, IP(10, 0, 0, 2), IP(10, 0, 0, 9), 6,
		       64, 1000, 22);
	p4fw_process(r->fw, 0, pkt, len, &v);
	assert_int_equal(v.kind, P4FW_DROP);

	len = rig_ipv4(pkt, MAC_A, 0x99, IP(10, 0, 0, 1), IP(10, 0, 0, 9), 6,
		       64, 1000, 22);
	p4fw_process(r->fw, 0, pkt, len, &v);
	assert_int_equal(v.kind, P4FW_TX);
	assert_int_equal(v.port, 1);
	assert_memory_equal(v.data, pkt, len);

	/* UDP 22 is not TCP 22: permitted by the miss; sent and mirrored. */
	len = rig_ipv4(pkt, MAC_B, 0x99, IP(10, 0, 0, 2), IP(10, 0, 0, 9), 17,
		       64, 1000, 22);
	p4fw_process(r->fw, 1, pkt, len, &v);
	assert_int_equal(v.kind, P4FW_TX);
	assert_int_equal(v.port, 2);
	assert_int_equal(v.num_mirrors, 1);
	assert_int_equal(v.mirrors[0].port, 3);
	assert_int_equal(v.mirrors[0].len, len);
	assert_memory_equal(v.mirrors[0].data, pkt, len);

	/* Unknown destination MAC: the host, decided by the program. */
	len = rig_ipv4(pkt, 0x77, 0x99, IP(10, 0, 0, 2), IP(10, 0, 0, 9), 17,
		       64, 1000, 53);
	p4fw_process(r->fw, 0, pkt, len, &v);
	assert_int_equal(v.kind, P4FW_HOST);
	assert_int_equal(v.reason, P4NIC_RX_PASS);
	assert_int_equal(reg0(r), 4);

	/* Miss-to-host undoes the register increment and the ACL count. */
	assert_int_equal(rig_cmd(r, P4NIC_CMD_TABLE_MISS_MODE, NULL, 0, 0,
				 ACL_FWD, P4NIC_MISS_TO_HOST, 0).status,
			 P4NIC_ST_OK);
	p4fw_process(r->fw, 0, pkt, len, &v);
	assert_int_equal(v.kind, P4FW_HOST);
	assert_int_equal(v.reason, P4NIC_RX_TABLE_MISS);
	assert_int_equal(v.info, ACL_FWD);
	assert_int_equal(reg0(r), 4);
	counter(r, ACL_TABLE, 0, 1, 60);
	counter(r, ACL_TABLE, 1, 1, 60);

	/* Registers can be written and read back. */
	{
		struct p4nic_u128 w[2] = { { 7, 0 }, { 9, 0 } };

		assert_int_equal(rig_cmd(r, P4NIC_CMD_REG_WRITE, w, sizeof(w),
					 0, ACL_REG, 0, 2).status, P4NIC_ST_OK);
		assert_int_equal(reg0(r), 7);
	}
	rig_free(r);
}

static void test_calc(void **state)
{
	struct rig *r = rig_new(2);
	uint8_t pkt[60] = { 0 };
	struct p4fw_verdict v;

	(void)state;
	rig_load(r, program_calc);
	p4fw_process(r->fw, 0, pkt, sizeof(pkt), &v);
	assert_int_equal(v.kind, P4FW_TX);
	assert_int_equal(v.port, 1);
	assert_int_equal(rig_mac(v.data), 0xfffe3031003cull);
	assert_int_equal(rig_mac(v.data + 6), 0x0056780234abull);
	/* From another port the iif check drops it. */
	p4fw_process(r->fw, 1, pkt, sizeof(pkt), &v);
	assert_int_equal(v.kind, P4FW_DROP);
	rig_free(r);
}

static void add_vlan(struct rig *r, uint32_t handle, uint32_t in_ifx,
		     uint16_t vid, uint32_t action, uint32_t nparams,
		     const ib_u128 *params)
{
	uint8_t key[6] = {
		(uint8_t)(in_ifx >> 24), (uint8_t)(in_ifx >> 16),
		(uint8_t)(in_ifx >> 8), (uint8_t)in_ifx,
		(uint8_t)(vid >> 4), (uint8_t)(vid << 4),
	};
	uint8_t mask[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xf0 };
	struct p4nic_entry e;

	ib_entry(&e, VLAN_PORT, handle, 0, action, 6, key, mask, nparams,
		 params);
	assert_int_equal(rig_entry(r, P4NIC_CMD_ENTRY_ADD, &e).status,
			 P4NIC_ST_OK);
}

/* setvalid and setinvalid: the frame grows and shrinks by the header. */
static void test_vlan(void **state)
{
	static const uint8_t tag[] = { 0x81, 0x00, 0x00, 0x64, 0x08, 0x00 };
	static uint8_t big[P4NIC_PKT_MAX];
	const ib_u128 push[] = { 100, IFX(3) }, pop[] = { IFX(0) };
	struct rig *r = rig_new(4);
	uint8_t pkt[128], tagged[132];
	struct p4fw_verdict v;
	uint32_t len;

	(void)state;
	rig_load(r, program_vlan);
	add_vlan(r, 1, IFX(0), 0, VLAN_PUSH, 2, push);
	add_vlan(r, 2, IFX(3), 100, VLAN_POP, 1, pop);

	/* An untagged frame from the access port leaves the trunk tagged. */
	len = rig_ipv4(pkt, MAC_A, MAC_B, IP(10, 0, 0, 1), IP(10, 0, 0, 2), 17,
		       64, 1, 2);
	p4fw_process(r->fw, 0, pkt, len, &v);
	assert_int_equal(v.kind, P4FW_TX);
	assert_int_equal(v.port, 3);
	assert_int_equal(v.len, len + 4);
	assert_memory_equal(v.data, pkt, 12);
	assert_memory_equal(v.data + 12, tag, sizeof(tag));
	assert_memory_equal(v.data + 18, pkt + 14, len - 14);
	memcpy(tagged, v.data, v.len);
	counter(r, VLAN_PORT, 1, 1, len);	/* bytes as looked up */

	/* Tagged with VLAN 100 from the trunk: untagged, as it came. */
	p4fw_process(r->fw, 3, tagged, len + 4, &v);
	assert_int_equal(v.kind, P4FW_TX);
	assert_int_equal(v.port, 0);
	assert_int_equal(v.len, len);
	assert_memory_equal(v.data, pkt, len);

	/* Another VLAN misses and drops; so does a tagged frame from port 0. */
	tagged[15] = 200;
	p4fw_process(r->fw, 3, tagged, len + 4, &v);
	assert_int_equal(v.kind, P4FW_DROP);
	tagged[15] = 100;
	p4fw_process(r->fw, 0, tagged, len + 4, &v);
	assert_int_equal(v.kind, P4FW_DROP);

	/* No room for the tag: the host gets the frame as it came. */
	memcpy(big, pkt, len);
	p4fw_process(r->fw, 0, big, sizeof(big), &v);
	assert_int_equal(v.kind, P4FW_HOST);
	assert_int_equal(v.reason, P4NIC_RX_UNSUPPORTED);
	assert_int_equal(v.len, sizeof(big));
	assert_ptr_equal(v.data, big);
	rig_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_router),
		cmocka_unit_test(test_acl),
		cmocka_unit_test(test_calc),
		cmocka_unit_test(test_vlan),
	};

	return cmocka_run_group_tests_name("golden", tests, NULL, NULL);
}
