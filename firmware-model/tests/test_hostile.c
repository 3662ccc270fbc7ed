// SPDX-License-Identifier: GPL-2.0
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hit_list_full),
		cmocka_unit_test(test_wide_key_write),
	};

	return cmocka_run_group_tests_name("hostile", tests, NULL, NULL);
}
