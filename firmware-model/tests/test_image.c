// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The image loader refuses malformed images with the status and field
 * that name the fault, and no corruption of a valid image can crash it,
 * leak, or leave a pipeline half loaded.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>

#include "programs.h"
#include "rig.h"

static struct p4nic_image_section *dir(uint8_t *img, uint32_t kind)
{
	struct p4nic_image_hdr *h = (struct p4nic_image_hdr *)img;
	struct p4nic_image_section *s = (struct p4nic_image_section *)(h + 1);
	uint32_t i;

	for (i = 0; i < h->num_sections; i++)
		if (s[i].kind == kind)
			return &s[i];
	fail_msg("no section %u", kind);
	return NULL;
}

static void *record(uint8_t *img, uint32_t kind, uint32_t i)
{
	struct p4nic_image_section *s = dir(img, kind);

	return img + s->offset + i * s->rec_size;
}

static void expect(uint8_t *img, uint32_t len, uint16_t status,
		   uint16_t field)
{
	struct rig *r = rig_new(4);
	struct p4nic_cpl c = rig_cmd(r, P4NIC_CMD_PIPELINE_LOAD, img, len, 0,
				     0, 0, 0);

	assert_int_equal(c.status, status);
	assert_int_equal(c.field, field);
	/* Nothing is left loaded after a refusal. */
	assert_int_equal(rig_cmd(r, P4NIC_CMD_QUERY, NULL, 0, 32,
				 P4NIC_QUERY_PIPELINE, 0, 0).status,
			 P4NIC_ST_OK);
	assert_int_equal(r->mem[RIG_OUT], status == P4NIC_ST_OK);
	rig_free(r);
}

typedef void (*corrupt_fn)(uint8_t *img, uint32_t *len);

#define CASE(name, prog, st, fld, body)					\
	static void corrupt_##name(uint8_t *img, uint32_t *len)		\
	{								\
		(void)len; (void)img;					\
		body;							\
	}								\
	static void test_##name(void **state)				\
	{								\
		uint32_t len;						\
		uint8_t *img = program_##prog(&len);			\
									\
		(void)state;						\
		expect(img, len, P4NIC_ST_OK, P4NIC_F_NONE);		\
		corrupt_##name(img, &len);				\
		expect(img, len, st, fld);				\
		free(img);						\
	}

#define HDR ((struct p4nic_image_hdr *)img)
#define INV P4NIC_ST_INVALID

CASE(magic, router, INV, P4NIC_F_IMG_MAGIC, HDR->magic ^= 1)
CASE(version, router, INV, P4NIC_F_IMG_VERSION, HDR->version_major = 2)
CASE(minor, router, INV, P4NIC_F_IMG_VERSION,
     HDR->version_minor = P4NIC_ABI_MINOR + 1)
/* setvalid and setinvalid are 1.2 instructions */
CASE(minor_setvalid, vlan, INV, P4NIC_F_IMG_INSN, HDR->version_minor = 1)
CASE(total_len, router, INV, P4NIC_F_IMG_LEN, HDR->total_len += 8)
CASE(truncated, router, INV, P4NIC_F_IMG_LEN, *len -= 1)
CASE(nsections, router, INV, P4NIC_F_IMG_SECTION, HDR->num_sections = 99)
CASE(sect_kind, router, INV, P4NIC_F_IMG_SECTION,
     dir(img, P4NIC_SECT_CONSTS)->kind = 0)
CASE(sect_dup, router, INV, P4NIC_F_IMG_SECTION,
     dir(img, P4NIC_SECT_CONSTS)->kind = P4NIC_SECT_FIELDS)
CASE(sect_align, router, INV, P4NIC_F_IMG_SECTION,
     dir(img, P4NIC_SECT_FIELDS)->offset += 4)
CASE(sect_size, router, INV, P4NIC_F_IMG_SECTION,
     dir(img, P4NIC_SECT_FIELDS)->rec_size = 20)
CASE(sect_beyond, router, INV, P4NIC_F_IMG_SECTION,
     dir(img, P4NIC_SECT_OPERANDS)->count = 0x10000000)
CASE(sect_overlap, router, INV, P4NIC_F_IMG_SECTION,
     dir(img, P4NIC_SECT_CONSTS)->offset = dir(img, P4NIC_SECT_FIELDS)->offset)
CASE(sect_limit, router, P4NIC_ST_LIMIT, P4NIC_F_IMG_SECTION,
     dir(img, P4NIC_SECT_HEADERS)->count = 33)
CASE(no_pipeline, router, INV, P4NIC_F_IMG_PIPELINE,
     dir(img, P4NIC_SECT_PIPELINE)->count = 0)
CASE(pipeid, router, INV, P4NIC_F_IMG_PIPELINE,
     ((struct p4nic_img_pipeline *)record(img, P4NIC_SECT_PIPELINE, 0))
	->pipeid = 0)
CASE(header_back, router, INV, P4NIC_F_IMG_HEADER,
     ((struct p4nic_img_header *)record(img, P4NIC_SECT_HEADERS, 1))
	->default_next = 0)
CASE(header_len, router, INV, P4NIC_F_IMG_HEADER,
     ((struct p4nic_img_header *)record(img, P4NIC_SECT_HEADERS, 1))
	->max_len = 19)
CASE(transition_back, router, INV, P4NIC_F_IMG_TRANSITION,
     ((struct p4nic_img_transition *)record(img, P4NIC_SECT_TRANSITIONS, 0))
	->next = 0)
CASE(transition_wide, router, INV, P4NIC_F_IMG_TRANSITION,
     ((struct p4nic_img_transition *)record(img, P4NIC_SECT_TRANSITIONS, 0))
	->mask.lo = 0x1ffff)
CASE(field_outside, router, INV, P4NIC_F_IMG_FIELD,
     ((struct p4nic_img_field *)record(img, P4NIC_SECT_FIELDS, 4))
	->bit_offset = 160)
CASE(field_width, router, INV, P4NIC_F_IMG_FIELD,
     ((struct p4nic_img_field *)record(img, P4NIC_SECT_FIELDS, 0))
	->bit_width = 129)
CASE(field_header, router, INV, P4NIC_F_IMG_FIELD,
     ((struct p4nic_img_field *)record(img, P4NIC_SECT_FIELDS, 0))
	->header = 2)
CASE(operand_kind, router, INV, P4NIC_F_IMG_OPERAND,
     ((struct p4nic_img_operand *)record(img, P4NIC_SECT_OPERANDS, 0))
	->kind = 99)
CASE(operand_slice, router, INV, P4NIC_F_IMG_OPERAND,
     ((struct p4nic_img_operand *)record(img, P4NIC_SECT_OPERANDS, 0))
	->bit_end = 200)
CASE(const_wide, router, INV, P4NIC_F_IMG_OPERAND,
     ((struct p4nic_u128 *)record(img, P4NIC_SECT_CONSTS, 0))->lo = 0x1ff)
CASE(insn_op, router, INV, P4NIC_F_IMG_INSN,
     ((struct p4nic_img_insn *)record(img, P4NIC_SECT_INSNS, 0))->op = 0)
CASE(insn_ctl, router, INV, P4NIC_F_IMG_INSN,
     ((struct p4nic_img_insn *)record(img, P4NIC_SECT_INSNS, 0))
	->then_ctl = 7)
CASE(jump_beyond, calc, INV, P4NIC_F_IMG_INSN,
     {
	struct p4nic_image_section *s = dir(img, P4NIC_SECT_INSNS);
	uint32_t i;

	for (i = 0; i < s->count; i++) {
		struct p4nic_img_insn *in = record(img, P4NIC_SECT_INSNS, i);

		if (in->then_ctl == P4NIC_CTL_JUMP)
			in->then_arg = 60;
	}
     })
CASE(table_key, router, INV, P4NIC_F_IMG_TABLE,
     ((struct p4nic_img_table *)record(img, P4NIC_SECT_TABLES, 0))
	->key_bits = 33)
CASE(table_type, router, INV, P4NIC_F_IMG_TABLE,
     ((struct p4nic_img_table *)record(img, P4NIC_SECT_TABLES, 0))->type = 4)
CASE(table_limit, router, P4NIC_ST_LIMIT, P4NIC_F_IMG_TABLE,
     ((struct p4nic_img_table *)record(img, P4NIC_SECT_TABLES, 0))
	->max_entries = (1u << 20) + 1)
CASE(table_default, router, INV, P4NIC_F_IMG_TABLE,
     ((struct p4nic_img_table *)record(img, P4NIC_SECT_TABLES, 0))
	->default_miss.action = 3)
CASE(action_id, router, INV, P4NIC_F_IMG_ACTION,
     ((struct p4nic_img_action *)record(img, P4NIC_SECT_ACTIONS, 1))->id = 1)
CASE(table_act, router, INV, P4NIC_F_IMG_TABLE_ACT,
     *(uint32_t *)record(img, P4NIC_SECT_TABLE_ACTS, 0) = 3)
CASE(port_range, router, INV, P4NIC_F_IMG_PORT,
     ((struct p4nic_img_port *)record(img, P4NIC_SECT_PORTS, 0))->port = 4)
CASE(port_dup, router, INV, P4NIC_F_IMG_PORT,
     ((struct p4nic_img_port *)record(img, P4NIC_SECT_PORTS, 1))->port = 0)
CASE(register_elems, acl, P4NIC_ST_LIMIT, P4NIC_F_IMG_REGISTER,
     ((struct p4nic_img_register *)record(img, P4NIC_SECT_REGISTERS, 0))
	->num_elems = 129)

/* Hand-built images for refusals a corruption cannot express neatly. */
static void expect_built(struct ib *b, uint16_t status, uint16_t field)
{
	uint32_t len;
	uint8_t *img = ib_finish(b, &len);

	expect(img, len, status, field);
	free(img);
	ib_free(b);
}

static void test_semantic(void **state)
{
	struct ib *b;
	uint32_t m8, m16, a;

	(void)state;
	/* set: the destination must be at least as wide as the source. */
	b = ib_new(1);
	m8 = ib_metadata(b, 1, 8, 0);
	m16 = ib_metadata(b, 2, 16, 0);
	ib_prog_begin(b);
	ib_insn(b, P4NIC_OP_SET, OPS(ib_metaop(b, m8), ib_metaop(b, m16)));
	ib_pipeline(b, P4NIC_NONE, ib_prog_end(b));
	expect_built(b, INV, P4NIC_F_IMG_INSN);

	/* A constant is not writable. */
	b = ib_new(1);
	ib_prog_begin(b);
	ib_insn(b, P4NIC_OP_SET, OPS(ib_const(b, 8, 1), ib_const(b, 8, 2)));
	ib_pipeline(b, P4NIC_NONE, ib_prog_end(b));
	expect_built(b, INV, P4NIC_F_IMG_INSN);

	/* Parameters exist only inside their action. */
	b = ib_new(1);
	m8 = ib_metadata(b, 1, 8, 0);
	ib_prog_begin(b);
	ib_insn(b, P4NIC_OP_SET, OPS(ib_metaop(b, m8), ib_paramop(b, 0, 8)));
	ib_pipeline(b, P4NIC_NONE, ib_prog_end(b));
	expect_built(b, INV, P4NIC_F_IMG_OPERAND);

	/* An action that calls itself: hardware runs in bounded time. */
	b = ib_new(1);
	ib_prog_begin(b);
	ib_insn(b, P4NIC_OP_ACT, OPS(ib_actionop(b, 0)));
	a = ib_action(b, 5, 0, NULL, ib_prog_end(b));
	ib_prog_begin(b);
	ib_insn(b, P4NIC_OP_ACT, OPS(ib_actionop(b, a)));
	ib_pipeline(b, P4NIC_NONE, ib_prog_end(b));
	expect_built(b, INV, P4NIC_F_IMG_ACTION);

	/* act with the wrong number of arguments. */
	b = ib_new(1);
	ib_prog_begin(b);
	a = ib_action(b, 5, 1, (const uint16_t[]){ 8 }, ib_prog_end(b));
	ib_prog_begin(b);
	ib_insn(b, P4NIC_OP_ACT, OPS(ib_actionop(b, a)));
	ib_pipeline(b, P4NIC_NONE, ib_prog_end(b));
	expect_built(b, INV, P4NIC_F_IMG_INSN);

	/* concat wider than its destination. */
	b = ib_new(1);
	m8 = ib_metadata(b, 1, 8, 0);
	ib_prog_begin(b);
	ib_insn(b, P4NIC_OP_CONCAT, OPS(ib_metaop(b, m8), ib_const(b, 8, 1),
					ib_const(b, 1, 1)));
	ib_pipeline(b, P4NIC_NONE, ib_prog_end(b));
	expect_built(b, INV, P4NIC_F_IMG_INSN);

	/* setvalid names a header, never the start one; a header is no value. */
	b = ib_new(1);
	a = ib_header(b, 1, 14);
	ib_prog_begin(b);
	ib_insn(b, P4NIC_OP_SETVALID, OPS(ib_headerop(b, a)));
	ib_pipeline(b, a, ib_prog_end(b));
	expect_built(b, INV, P4NIC_F_IMG_INSN);
	b = ib_new(1);
	m8 = ib_metadata(b, 1, 8, 0);
	ib_prog_begin(b);
	ib_insn(b, P4NIC_OP_SETINVALID, OPS(ib_metaop(b, m8)));
	ib_pipeline(b, P4NIC_NONE, ib_prog_end(b));
	expect_built(b, INV, P4NIC_F_IMG_INSN);
	b = ib_new(1);
	a = ib_header(b, 1, 14);
	ib_header(b, 2, 4);
	ib_prog_begin(b);
	ib_insn(b, P4NIC_OP_SETVALID, OPS(ib_headerop(b, 2)));
	ib_pipeline(b, a, ib_prog_end(b));
	expect_built(b, INV, P4NIC_F_IMG_OPERAND);
	b = ib_new(1);
	m8 = ib_metadata(b, 1, 8, 0);
	a = ib_header(b, 1, 14);
	ib_header(b, 2, 4);
	ib_prog_begin(b);
	ib_insn(b, P4NIC_OP_SET, OPS(ib_metaop(b, m8), ib_headerop(b, 1)));
	ib_pipeline(b, a, ib_prog_end(b));
	expect_built(b, INV, P4NIC_F_IMG_INSN);

	/* The smallest valid image: a pipeline that does nothing. */
	b = ib_new(1);
	ib_prog_begin(b);
	ib_pipeline(b, P4NIC_NONE, ib_prog_end(b));
	expect_built(b, P4NIC_ST_OK, P4NIC_F_NONE);
}

/*
 * Every single-byte corruption of every example image: the loader either
 * accepts (the byte did not matter or stayed valid) or refuses, and in
 * both cases the sanitizers see nothing wrong.  An accepted image must
 * also run a packet.
 */
static void sweep(uint8_t *(*program)(uint32_t *len))
{
	struct rig *r = rig_new(4);
	uint8_t pkt[128] = { 0 };
	struct p4fw_verdict v;
	uint32_t len, i, refused = 0;
	uint8_t *img = program(&len);

	pkt[12] = 0x08;
	pkt[14] = 0x45;
	for (i = 0; i < len; i++) {
		uint8_t save = img[i];
		struct p4nic_cpl c;

		img[i] ^= (uint8_t)(0x5a + i);
		c = rig_cmd(r, P4NIC_CMD_PIPELINE_LOAD, img, len, 0, 0, 0, 0);
		img[i] = save;
		if (c.status) {
			assert_int_not_equal(c.field, P4NIC_F_NONE);
			refused++;
			continue;
		}
		p4fw_process(r->fw, 0, pkt, sizeof(pkt), &v);
		assert_int_equal(rig_cmd(r, P4NIC_CMD_RESET, NULL, 0, 0, 0, 0,
					 0).status, P4NIC_ST_OK);
	}
	/* Most bytes of an image matter. */
	assert_true(refused > len / 2);
	free(img);
	rig_free(r);
}

static void test_sweep(void **state)
{
	(void)state;
	sweep(program_router);
	sweep(program_acl);
	sweep(program_calc);
	sweep(program_vlan);
}

#define T(name) cmocka_unit_test(test_##name)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(magic), T(version), T(minor), T(minor_setvalid),
		T(total_len), T(truncated),
		T(nsections), T(sect_kind), T(sect_dup), T(sect_align),
		T(sect_size), T(sect_beyond), T(sect_overlap), T(sect_limit),
		T(no_pipeline), T(pipeid), T(header_back), T(header_len),
		T(transition_back), T(transition_wide), T(field_outside),
		T(field_width), T(field_header), T(operand_kind),
		T(operand_slice), T(const_wide), T(insn_op), T(insn_ctl),
		T(jump_beyond), T(table_key), T(table_type), T(table_limit),
		T(table_default), T(action_id), T(table_act), T(port_range),
		T(port_dup), T(register_elems), T(semantic), T(sweep),
	};

	return cmocka_run_group_tests_name("image", tests, NULL, NULL);
}
