// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the kernel's P4 type code (net/sched/p4tc/p4tc_types.c,
 * built unchanged against the stand-in headers in shim/): containers,
 * slices, byte orders, value checks, comparisons and printing.
 */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <net/netlink.h>
#include <net/p4tc_types.h>

char shim_last_print[256];

static struct net_device fake_dev = { .name = "eth7" };

struct net_device *dev_get_by_index_rcu(struct net *net, int ifindex)
{
	(void)net;
	return ifindex == 7 ? &fake_dev : NULL;
}

static const struct p4tc_type *T(int id)
{
	const struct p4tc_type *t = p4type_find_byid(id);

	assert_non_null(t);
	return t;
}

static void test_find(void **state)
{
	(void)state;
	assert_string_equal(T(P4T_U8)->name, "u8");
	assert_int_equal(T(P4T_U128)->container_bitsz, 128);
	assert_int_equal(T(P4T_MACADDR)->container_bitsz, 48);
	assert_int_equal(T(P4T_BOOL)->bitsz, 1);
	assert_int_equal(T(P4T_BOOL)->container_bitsz, 8);
	assert_null(p4type_find_byid(P4T_UNSPEC));
	assert_null(p4type_find_byid(P4T_STRING));
	assert_null(p4type_find_byid(P4T_NESTED));
	assert_null(p4type_find_byid(P4T_MAX + 1));
	assert_null(p4type_find_byid(-1));
	assert_true(p4tc_type_unsigned(P4T_U64));
	assert_false(p4tc_type_unsigned(P4T_S64));
	assert_false(p4tc_type_unsigned(P4T_BE32));
}

static void test_slices(void **state)
{
	struct netlink_ext_ack ext = {};

	(void)state;
	assert_int_equal(p4t_check_slice(T(P4T_U32), 16, 31, &ext), 0);
	assert_int_equal(p4t_check_slice(T(P4T_U32), 31, 16, &ext), -EINVAL);
	assert_string_equal(ext._msg, "Slice start bit is above its end bit");
	assert_int_equal(p4t_check_slice(T(P4T_U8), 0, 8, &ext), -EINVAL);
	assert_string_equal(ext._msg, "Slice end bit is outside the type");
	assert_int_equal(p4t_check_slice(T(P4T_IPV4ADDR), 0, 15, &ext), -EINVAL);
	assert_string_equal(ext._msg, "Type does not allow bit slices");
	assert_int_equal(p4t_check_slice(T(P4T_IPV4ADDR), 0, 31, &ext), 0);
	assert_int_equal(p4t_check_slice(T(P4T_U128), 0, 127, &ext), 0);
	assert_int_equal(p4t_check_slice(T(P4T_BOOL), 0, 0, &ext), 0);
	assert_int_equal(p4t_check_slice(T(P4T_BOOL), 0, 7, &ext), -EINVAL);
}

static void test_mask_shift(void **state)
{
	struct p4tc_type_mask_shift ms;

	(void)state;
	p4t_mask_shift(T(P4T_U32), 16, 31, &ms);
	assert_int_equal(ms.shift, 16);
	assert_int_equal(ms.width, 16);
	assert_int_equal(ms.mask.w[0], 0xffff0000ULL);
	assert_int_equal(ms.mask.w[1], 0);
	p4t_mask_shift(T(P4T_U128), 60, 67, &ms);
	assert_int_equal(ms.mask.w[0], 0xf000000000000000ULL);
	assert_int_equal(ms.mask.w[1], 0xfULL);
	p4t_mask_shift(T(P4T_U128), 0, 127, &ms);
	assert_int_equal(ms.mask.w[0], ~0ULL);
	assert_int_equal(ms.mask.w[1], ~0ULL);
}

static void test_read_write_whole(void **state)
{
	struct p4t_val v = { { 0x1234, 0 } }, r;
	uint8_t be[2], host[2];
	uint8_t b16[16];

	(void)state;
	/* be16 stores network order, u16 host order (little endian here) */
	p4t_host_write(T(P4T_BE16), NULL, &v, be);
	assert_int_equal(be[0], 0x12);
	assert_int_equal(be[1], 0x34);
	p4t_host_write(T(P4T_U16), NULL, &v, host);
	assert_int_equal(host[0], 0x34);
	p4t_host_read(T(P4T_BE16), NULL, be, &r);
	assert_int_equal(r.w[0], 0x1234);

	/* 128 bits round trip */
	v.w[0] = 0x8899aabbccddeeffULL;
	v.w[1] = 0x0011223344556677ULL;
	p4t_host_write(T(P4T_U128), NULL, &v, b16);
	p4t_host_read(T(P4T_U128), NULL, b16, &r);
	assert_memory_equal(&r, &v, sizeof(v));

	/* a write truncates to the container */
	v.w[0] = 0x1ff;
	v.w[1] = 0;
	p4t_host_write(T(P4T_U8), NULL, &v, host);
	assert_int_equal(host[0], 0xff);
}

static void test_read_write_slice(void **state)
{
	struct p4tc_type_mask_shift ms;
	uint32_t word = 0xaaaaaaaa;
	struct p4t_val v = { { 0x1234, 0 } }, r;
	uint8_t s8;

	(void)state;
	p4t_mask_shift(T(P4T_U32), 16, 31, &ms);
	p4t_host_write(T(P4T_U32), &ms, &v, &word);
	assert_int_equal(word, 0x1234aaaa);	/* low half untouched */
	p4t_host_read(T(P4T_U32), &ms, &word, &r);
	assert_int_equal(r.w[0], 0x1234);

	/* bits beyond the slice are dropped on write */
	v.w[0] = 0xfff3;
	p4t_mask_shift(T(P4T_U32), 0, 3, &ms);
	word = 0;
	p4t_host_write(T(P4T_U32), &ms, &v, &word);
	assert_int_equal(word, 0x3);

	/* a signed slice reads sign-extended: int5 0b10000 is -16 */
	s8 = 0x10;
	p4t_mask_shift(T(P4T_S8), 0, 4, &ms);
	p4t_host_read(T(P4T_S8), &ms, &s8, &r);
	assert_int_equal((int64_t)r.w[0], -16);
	assert_int_equal(r.w[1], ~0ULL);
}

static void test_copy_between_types(void **state)
{
	uint8_t be[2] = { 0x86, 0xdd };
	uint32_t u = 0;

	(void)state;
	p4t_copy(T(P4T_U32), NULL, &u, T(P4T_BE16), NULL, be);
	assert_int_equal(u, 0x86dd);
}

static void test_validate(void **state)
{
	struct netlink_ext_ack ext = {};
	uint16_t u16v;
	uint8_t s8v, b;
	uint32_t dev;
	uint8_t big[16];

	(void)state;
	u16v = 4095;	/* bit12 */
	assert_int_equal(p4t_validate_value(T(P4T_U16), 0, 11, &u16v, &ext), 0);
	u16v = 4096;
	assert_int_equal(p4t_validate_value(T(P4T_U16), 0, 11, &u16v, &ext),
			 -ERANGE);
	assert_string_equal(ext._msg, "Value too wide for its type");

	/* int5: -16 .. 15, sign-extended through its s8 container */
	s8v = (uint8_t)-16;
	assert_int_equal(p4t_validate_value(T(P4T_S8), 0, 4, &s8v, &ext), 0);
	s8v = 15;
	assert_int_equal(p4t_validate_value(T(P4T_S8), 0, 4, &s8v, &ext), 0);
	s8v = 16;
	assert_int_equal(p4t_validate_value(T(P4T_S8), 0, 4, &s8v, &ext),
			 -ERANGE);
	assert_string_equal(ext._msg, "Signed value out of range for its type");
	s8v = (uint8_t)-17;
	assert_int_equal(p4t_validate_value(T(P4T_S8), 0, 4, &s8v, &ext),
			 -ERANGE);
	s8v = 0x80;	/* -128 is a whole s8 */
	assert_int_equal(p4t_validate_value(T(P4T_S8), 0, 7, &s8v, &ext), 0);

	b = 2;
	assert_int_equal(p4t_validate_value(T(P4T_BOOL), 0, 0, &b, &ext),
			 -EINVAL);
	assert_string_equal(ext._msg, "A bool is 0 or 1");
	dev = 0;
	assert_int_equal(p4t_validate_value(T(P4T_DEV), 0, 31, &dev, &ext),
			 -EINVAL);
	dev = 3;
	assert_int_equal(p4t_validate_value(T(P4T_DEV), 0, 31, &dev, &ext), 0);

	memset(big, 0xff, sizeof(big));
	assert_int_equal(p4t_validate_value(T(P4T_U128), 0, 127, big, &ext), 0);
	assert_int_equal(p4t_validate_value(T(P4T_U128), 0, 126, big, &ext),
			 -ERANGE);
}

static void test_cmp(void **state)
{
	uint8_t u = 1, s = 0xff;	/* u8 1, s8 -1 */
	uint32_t a = 5, b = 7;
	uint8_t x[16] = { 0 }, y[16] = { 0 };

	(void)state;
	assert_true(p4t_cmp(T(P4T_U32), NULL, &a, T(P4T_U32), NULL, &b) < 0);
	assert_true(p4t_cmp(T(P4T_U32), NULL, &b, T(P4T_U32), NULL, &a) > 0);
	assert_int_equal(p4t_cmp(T(P4T_U32), NULL, &a, T(P4T_U32), NULL, &a), 0);
	/* signed when either side is: -1 < 1 */
	assert_true(p4t_cmp(T(P4T_S8), NULL, &s, T(P4T_U8), NULL, &u) < 0);
	/* unsigned: 255 > 1 */
	assert_true(p4t_cmp(T(P4T_U8), NULL, &s, T(P4T_U8), NULL, &u) > 0);
	/* the high word decides */
	x[15] = 1;
	y[0] = 0xff;
	assert_true(p4t_cmp(T(P4T_U128), NULL, x, T(P4T_U128), NULL, y) > 0);
}

static void check_print(int id, const void *val, const char *want)
{
	char buf[200];

	p4t_snprint(buf, sizeof(buf), (struct net *)1, T(id), NULL, val);
	assert_string_equal(buf, want);
}

static void test_print(void **state)
{
	uint8_t ip[4] = { 10, 0, 0, 1 };
	uint8_t mac[6] = { 0, 0x11, 0x22, 0x33, 0x44, 0xff };
	uint8_t t = 1, s = 0xfe;
	uint32_t dev = 7, dev2 = 9, u = 0xdead;
	uint8_t big[16];

	(void)state;
	check_print(P4T_IPV4ADDR, ip, "10.0.0.1");
	check_print(P4T_MACADDR, mac, "00:11:22:33:44:ff");
	check_print(P4T_BOOL, &t, "true");
	check_print(P4T_S8, &s, "-2");
	check_print(P4T_U32, &u, "0xdead");
	check_print(P4T_DEV, &dev, "eth7");
	check_print(P4T_DEV, &dev2, "9");
	memset(big, 0, sizeof(big));
	big[15] = 0x12;
	big[0] = 0x34;
	check_print(P4T_U128, big, "0x12000000000000000000000000000034");

	p4t_print(NULL, T(P4T_U32), NULL, "x is", &u);
	assert_string_equal(shim_last_print, "x is 0xdead\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_slices),
		cmocka_unit_test(test_mask_shift),
		cmocka_unit_test(test_read_write_whole),
		cmocka_unit_test(test_read_write_slice),
		cmocka_unit_test(test_copy_between_types),
		cmocka_unit_test(test_validate),
		cmocka_unit_test(test_cmp),
		cmocka_unit_test(test_print),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
