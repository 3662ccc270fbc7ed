// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * P4TC data types.
 *
 * Every type is a container of whole bytes (host order, or network order
 * for be16/be32/be64/ipv4/mac) holding a value of up to 128 bits.  A slice
 * [startbit, endbit] of an integer container is a narrower value: bit8 is
 * u8[0-7], bit12 is u16[0-11], int5 is s8[0-4].  Values move between
 * containers through struct p4t_val, a 128-bit host-order number, so one
 * read and one write routine serve every width and byte order.
 *
 * This file has no state and takes no locks; it is also built in userspace
 * by the host unit tests (tests/host/p4tc-types/).
 */

#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/string.h>
#include <linux/errno.h>
#include <net/netlink.h>
#include <net/p4tc_types.h>

static const struct p4tc_type p4tc_types[P4T_MAX + 1] = {
	[P4T_U8] = { .name = "u8", .typeid = P4T_U8, .bitsz = 8,
		.container_bitsz = 8, .flags = P4T_F_SLICE },
	[P4T_U16] = { .name = "u16", .typeid = P4T_U16, .bitsz = 16,
		.container_bitsz = 16, .flags = P4T_F_SLICE },
	[P4T_U32] = { .name = "u32", .typeid = P4T_U32, .bitsz = 32,
		.container_bitsz = 32, .flags = P4T_F_SLICE },
	[P4T_U64] = { .name = "u64", .typeid = P4T_U64, .bitsz = 64,
		.container_bitsz = 64, .flags = P4T_F_SLICE },
	[P4T_U128] = { .name = "u128", .typeid = P4T_U128, .bitsz = 128,
		.container_bitsz = 128, .flags = P4T_F_SLICE },
	[P4T_S8] = { .name = "s8", .typeid = P4T_S8, .bitsz = 8,
		.container_bitsz = 8, .flags = P4T_F_SIGNED | P4T_F_SLICE },
	[P4T_S16] = { .name = "s16", .typeid = P4T_S16, .bitsz = 16,
		.container_bitsz = 16, .flags = P4T_F_SIGNED | P4T_F_SLICE },
	[P4T_S32] = { .name = "s32", .typeid = P4T_S32, .bitsz = 32,
		.container_bitsz = 32, .flags = P4T_F_SIGNED | P4T_F_SLICE },
	[P4T_S64] = { .name = "s64", .typeid = P4T_S64, .bitsz = 64,
		.container_bitsz = 64, .flags = P4T_F_SIGNED | P4T_F_SLICE },
	[P4T_S128] = { .name = "s128", .typeid = P4T_S128, .bitsz = 128,
		.container_bitsz = 128, .flags = P4T_F_SIGNED | P4T_F_SLICE },
	[P4T_BE16] = { .name = "be16", .typeid = P4T_BE16, .bitsz = 16,
		.container_bitsz = 16, .flags = P4T_F_BE | P4T_F_SLICE },
	[P4T_BE32] = { .name = "be32", .typeid = P4T_BE32, .bitsz = 32,
		.container_bitsz = 32, .flags = P4T_F_BE | P4T_F_SLICE },
	[P4T_BE64] = { .name = "be64", .typeid = P4T_BE64, .bitsz = 64,
		.container_bitsz = 64, .flags = P4T_F_BE | P4T_F_SLICE },
	[P4T_MACADDR] = { .name = "mac", .typeid = P4T_MACADDR, .bitsz = 48,
			  .container_bitsz = 48, .flags = P4T_F_BE },
	[P4T_IPV4ADDR] = { .name = "ipv4", .typeid = P4T_IPV4ADDR, .bitsz = 32,
			   .container_bitsz = 32, .flags = P4T_F_BE },
	[P4T_BOOL] = { .name = "bool", .typeid = P4T_BOOL, .bitsz = 1,
		       .container_bitsz = 8 },
	[P4T_DEV] = { .name = "dev", .typeid = P4T_DEV, .bitsz = 32,
		      .container_bitsz = 32 },
	[P4T_KEY] = { .name = "key", .typeid = P4T_KEY, .bitsz = P4TC_MAX_KEYSZ,
		      .container_bitsz = P4TC_MAX_KEYSZ, .flags = P4T_F_BLOB },
};

/**
 * p4type_find_byid - the P4 data type with id @typeid
 * @typeid: P4T_*
 *
 * Return: the type, or NULL when @typeid names no data type (the netlink
 * ids such as P4T_STRING or P4T_NESTED are not data types).
 */
const struct p4tc_type *p4type_find_byid(int typeid)
{
	if (typeid <= P4T_UNSPEC || typeid > P4T_MAX)
		return NULL;
	return p4tc_types[typeid].name ? &p4tc_types[typeid] : NULL;
}

/**
 * p4tc_type_unsigned - whether values of @typeid are unsigned numbers
 * @typeid: P4T_*
 *
 * Return: true for u8 .. u128 and bool.
 */
bool p4tc_type_unsigned(int typeid)
{
	switch (typeid) {
	case P4T_U8:
	case P4T_U16:
	case P4T_U32:
	case P4T_U64:
	case P4T_U128:
	case P4T_BOOL:
		return true;
	default:
		return false;
	}
}

/* Extend bit (width - 1) of @v through bit 127. */
void p4t_val_sign_extend(struct p4t_val *v, unsigned int width)
{
	struct p4t_val m;

	if (!width || width >= 128)
		return;
	p4t_val_ones(&m, width);
	if (p4t_val_bit(v, width - 1)) {
		v->w[0] |= ~m.w[0];
		v->w[1] |= ~m.w[1];
	} else {
		v->w[0] &= m.w[0];
		v->w[1] &= m.w[1];
	}
}

/* The container at @src as a host-order number (zero-extended). */
static void p4t_load(const struct p4tc_type *type, const void *src,
		     struct p4t_val *v)
{
	unsigned int n = p4t_container_bytes(type), i, bit;
	const u8 *b = src;
	bool msb = p4t_msb_first(type);

	v->w[0] = 0;
	v->w[1] = 0;
	for (i = 0; i < n && i < 16; i++) {
		bit = 8 * (msb ? n - 1 - i : i);
		v->w[bit / 64] |= (u64)b[i] << (bit % 64);
	}
}

static void p4t_store(const struct p4tc_type *type, const struct p4t_val *v,
		      void *dst)
{
	unsigned int n = p4t_container_bytes(type), i, bit;
	bool msb = p4t_msb_first(type);
	u8 *b = dst;

	for (i = 0; i < n && i < 16; i++) {
		bit = 8 * (msb ? n - 1 - i : i);
		b[i] = v->w[bit / 64] >> (bit % 64);
	}
}

/**
 * p4t_check_slice - check that [@startbit, @endbit] is a slice of @type
 * @type: the container type
 * @startbit: lowest bit of the slice
 * @endbit: highest bit of the slice
 * @extack: receives the reason of a refusal
 *
 * Integer types take any slice inside their container; the others only
 * their whole width.
 *
 * Return: 0 or -EINVAL.
 */
int p4t_check_slice(const struct p4tc_type *type, u16 startbit, u16 endbit,
		    struct netlink_ext_ack *extack)
{
	if (startbit > endbit) {
		NL_SET_ERR_MSG(extack, "Slice start bit is above its end bit");
		return -EINVAL;
	}
	if (endbit >= type->bitsz) {
		NL_SET_ERR_MSG(extack, "Slice end bit is outside the type");
		return -EINVAL;
	}
	if (!(type->flags & P4T_F_SLICE) &&
	    (startbit != 0 || endbit != type->bitsz - 1)) {
		NL_SET_ERR_MSG(extack, "Type does not allow bit slices");
		return -EINVAL;
	}
	return 0;
}

/**
 * p4t_mask_shift - describe the slice [@startbit, @endbit] of @type
 * @type: the container type (the slice must have passed p4t_check_slice())
 * @startbit: lowest bit of the slice
 * @endbit: highest bit of the slice
 * @ms: filled with the slice's mask, shift and width
 */
void p4t_mask_shift(const struct p4tc_type *type, u16 startbit, u16 endbit,
		    struct p4tc_type_mask_shift *ms)
{
	ms->width = endbit - startbit + 1;
	ms->shift = startbit;
	p4t_val_ones(&ms->mask, ms->width);
	p4t_val_shl(&ms->mask, startbit);
}

/**
 * p4t_validate_value - check that @value fits the slice of @type
 * @type: the container type
 * @startbit: lowest bit of the slice
 * @endbit: highest bit of the slice
 * @value: the value in @type's container layout, in the low bits
 * @extack: receives the reason of a refusal
 *
 * An unsigned slice of N bits takes 0 .. 2^N - 1; a signed one
 * -2^(N-1) .. 2^(N-1) - 1, sign-extended through the container; bool
 * takes 0 and 1; dev an ifindex above 0 ("Invalid ifindex", the seed's).
 *
 * Return: 0 or -EINVAL.
 */
int p4t_validate_value(const struct p4tc_type *type, u16 startbit, u16 endbit,
		       const void *value, struct netlink_ext_ack *extack)
{
	unsigned int width = endbit - startbit + 1;
	struct p4t_val v, ext;

	if (type->flags & P4T_F_BLOB)
		return 0;

	p4t_load(type, value, &v);
	switch (type->typeid) {
	case P4T_BOOL:
		if (v.w[0] > 1) {
			NL_SET_ERR_MSG(extack, "A bool is 0 or 1");
			return -EINVAL;
		}
		return 0;
	case P4T_DEV:
		if (!v.w[0] || v.w[0] > INT_MAX) {
			NL_SET_ERR_MSG(extack, "Invalid ifindex");
			return -EINVAL;
		}
		return 0;
	}

	if (type->flags & P4T_F_SIGNED) {
		ext = v;
		p4t_val_sign_extend(&ext, width);
		/* the container's bits above the slice must repeat its sign */
		p4t_val_sign_extend(&v, type->container_bitsz);
		if (ext.w[0] != v.w[0] || ext.w[1] != v.w[1]) {
			NL_SET_ERR_MSG(extack, "Signed value out of range for its type");
			return -ERANGE;
		}
		return 0;
	}

	p4t_val_shr(&v, width);
	if (v.w[0] || v.w[1]) {
		NL_SET_ERR_MSG(extack, "Value too wide for its type");
		return -ERANGE;
	}
	return 0;
}

/**
 * p4t_host_read - read a value out of its container
 * @type: the container type
 * @ms: the slice to read, or NULL for the whole container
 * @src: the container
 * @dst: the value, in host order, sign-extended for signed types
 */
void p4t_host_read(const struct p4tc_type *type,
		   const struct p4tc_type_mask_shift *ms, const void *src,
		   struct p4t_val *dst)
{
	unsigned int width = type->bitsz;

	p4t_load(type, src, dst);
	if (ms) {
		dst->w[0] &= ms->mask.w[0];
		dst->w[1] &= ms->mask.w[1];
		p4t_val_shr(dst, ms->shift);
		width = ms->width;
	}
	if (type->flags & P4T_F_SIGNED)
		p4t_val_sign_extend(dst, width);
}

/**
 * p4t_host_write - write a value into its container
 * @type: the container type
 * @ms: the slice to write, or NULL for the whole container
 * @src: the value, in host order; bits beyond the slice are dropped
 * @dst: the container; its bits outside the slice keep their value
 */
void p4t_host_write(const struct p4tc_type *type,
		    const struct p4tc_type_mask_shift *ms,
		    const struct p4t_val *src, void *dst)
{
	struct p4t_val v = *src, old, m;

	if (ms) {
		p4t_load(type, dst, &old);
		p4t_val_shl(&v, ms->shift);
		m = ms->mask;
		v.w[0] = (old.w[0] & ~m.w[0]) | (v.w[0] & m.w[0]);
		v.w[1] = (old.w[1] & ~m.w[1]) | (v.w[1] & m.w[1]);
	}
	p4t_store(type, &v, dst);
}

/**
 * p4t_copy - assign one typed value to another
 * @dst_t: destination type
 * @dst_ms: destination slice, or NULL
 * @dstv: destination container
 * @src_t: source type
 * @src_ms: source slice, or NULL
 * @srcv: source container
 *
 * The value is truncated to the destination's width; callers check widths
 * when the program is loaded.
 */
void p4t_copy(const struct p4tc_type *dst_t,
	      const struct p4tc_type_mask_shift *dst_ms, void *dstv,
	      const struct p4tc_type *src_t,
	      const struct p4tc_type_mask_shift *src_ms, const void *srcv)
{
	struct p4t_val v;

	p4t_host_read(src_t, src_ms, srcv, &v);
	p4t_host_write(dst_t, dst_ms, &v, dstv);
}

/**
 * p4t_cmp - compare two typed values
 * @a_t: type of the first value
 * @a_ms: its slice, or NULL
 * @av: its container
 * @b_t: type of the second value
 * @b_ms: its slice, or NULL
 * @bv: its container
 *
 * The comparison is signed when either type is signed.
 *
 * Return: <0, 0 or >0 as the first value is below, equal to or above the
 * second.
 */
int p4t_cmp(const struct p4tc_type *a_t,
	    const struct p4tc_type_mask_shift *a_ms, const void *av,
	    const struct p4tc_type *b_t,
	    const struct p4tc_type_mask_shift *b_ms, const void *bv)
{
	bool sign = (a_t->flags | b_t->flags) & P4T_F_SIGNED;
	struct p4t_val a, b;
	u64 ah, bh;

	p4t_host_read(a_t, a_ms, av, &a);
	p4t_host_read(b_t, b_ms, bv, &b);
	ah = a.w[1];
	bh = b.w[1];
	if (sign) {
		/* flip the sign bits: signed order becomes unsigned order */
		ah ^= 1ULL << 63;
		bh ^= 1ULL << 63;
	}
	if (ah != bh)
		return ah < bh ? -1 : 1;
	if (a.w[0] != b.w[0])
		return a.w[0] < b.w[0] ? -1 : 1;
	return 0;
}

static int p4t_snprint_hex(char *buf, size_t len, const struct p4t_val *v)
{
	if (v->w[1])
		return scnprintf(buf, len, "0x%llx%016llx",
				 (unsigned long long)v->w[1],
				 (unsigned long long)v->w[0]);
	return scnprintf(buf, len, "0x%llx", (unsigned long long)v->w[0]);
}

/**
 * p4t_snprint - format a typed value as users read it
 * @buf: output buffer
 * @len: its size
 * @net: namespace to name dev values in, or NULL for the ifindex
 * @type: the value's type
 * @ms: its slice, or NULL
 * @val: its container
 *
 * Unsigned numbers print in hex, signed ones in decimal (hex beyond 64
 * bits), ipv4 and mac in their usual notation, bool as true or false,
 * dev as the device name, key as hex bytes.
 *
 * Return: the characters written, without the NUL.
 */
int p4t_snprint(char *buf, size_t len, struct net *net,
		const struct p4tc_type *type,
		const struct p4tc_type_mask_shift *ms, const void *val)
{
	const u8 *b = val;
	struct p4t_val v;
	int n = 0;
	unsigned int i;

	if (type->flags & P4T_F_BLOB) {
		for (i = 0; i < p4t_container_bytes(type); i++)
			n += scnprintf(buf + n, len - n, "%02x", b[i]);
		return n;
	}

	p4t_host_read(type, ms, val, &v);
	switch (type->typeid) {
	case P4T_IPV4ADDR:
		return scnprintf(buf, len, "%u.%u.%u.%u",
				 (unsigned int)(v.w[0] >> 24) & 0xff,
				 (unsigned int)(v.w[0] >> 16) & 0xff,
				 (unsigned int)(v.w[0] >> 8) & 0xff,
				 (unsigned int)v.w[0] & 0xff);
	case P4T_MACADDR:
		for (i = 0; i < 6; i++)
			n += scnprintf(buf + n, len - n, i ? ":%02x" : "%02x",
				       (unsigned int)(v.w[0] >> (40 - 8 * i)) &
				       0xff);
		return n;
	case P4T_BOOL:
		return scnprintf(buf, len, "%s", v.w[0] ? "true" : "false");
	case P4T_DEV:
		if (net) {
			struct net_device *dev;

			rcu_read_lock();
			dev = dev_get_by_index_rcu(net, (int)v.w[0]);
			if (dev)
				n = scnprintf(buf, len, "%s", dev->name);
			rcu_read_unlock();
			if (n)
				return n;
		}
		return scnprintf(buf, len, "%llu", (unsigned long long)v.w[0]);
	}

	if ((type->flags & P4T_F_SIGNED) &&
	    v.w[1] == ((v.w[0] >> 63) ? ~0ULL : 0))
		return scnprintf(buf, len, "%lld", (long long)v.w[0]);
	return p4t_snprint_hex(buf, len, &v);
}

/**
 * p4t_print - log a typed value, as the P4TC print command does
 * @net: namespace to name dev values in
 * @type: the value's type
 * @ms: its slice, or NULL
 * @prefix: printed before the value
 * @val: its container
 */
void p4t_print(struct net *net, const struct p4tc_type *type,
	       const struct p4tc_type_mask_shift *ms, const char *prefix,
	       const void *val)
{
	char buf[2 * P4TC_MAX_KEYSZ / 8 + 1];

	p4t_snprint(buf, sizeof(buf), net, type, ms, val);
	pr_info("%s %s\n", prefix, buf);
}
