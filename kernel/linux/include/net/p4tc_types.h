/* SPDX-License-Identifier: GPL-2.0 */
/*
 * P4TC data types: how a value of each P4 type is stored (its container),
 * how a bit slice of a container is read and written, how values are
 * checked and printed.
 */
#ifndef __NET_P4TC_TYPES_H
#define __NET_P4TC_TYPES_H

#include <linux/types.h>
#include <uapi/linux/p4tc.h>

struct net;
struct netlink_ext_ack;

#define P4T_MAX_BITSZ 128
#define P4T_MAX_STR_SZ 32

/* Flags of a type */
#define P4T_F_SIGNED	BIT(0)	/* two's complement, compares signed */
#define P4T_F_BE	BIT(1)	/* container in network byte order */
#define P4T_F_SLICE	BIT(2)	/* bit slices [startbit, endbit] allowed */
#define P4T_F_BLOB	BIT(3)	/* bytes, not a number (key) */

/**
 * struct p4tc_type - a P4 data type
 * @name: as users write it ("u32", "ipv4", ...)
 * @typeid: P4T_*
 * @bitsz: the type's natural width in bits
 * @container_bitsz: bits of storage, a multiple of 8
 * @flags: P4T_F_*
 */
struct p4tc_type {
	const char *name;
	int typeid;
	u16 bitsz;
	u16 container_bitsz;
	u32 flags;
};

/**
 * struct p4t_val - a value of up to 128 bits in host order
 * @w: w[0] holds bits 0..63, w[1] bits 64..127
 */
struct p4t_val {
	u64 w[2];
};

/**
 * struct p4tc_type_mask_shift - where a slice lives in its container
 * @mask: the slice's bits, in the container's host-order value
 * @shift: the slice's lowest bit
 * @width: bits of the slice
 */
struct p4tc_type_mask_shift {
	struct p4t_val mask;
	u8 shift;
	u8 width;
};

/*
 * 128-bit helpers on struct p4t_val.  Inline: the datapath calls them for
 * every operand of every command, and a call costs more than their work.
 */

/* @v = the low @width bits set */
static inline void p4t_val_ones(struct p4t_val *v, unsigned int width)
{
	v->w[0] = width >= 64 ? ~0ULL : (1ULL << width) - 1;
	v->w[1] = width >= 128 ? ~0ULL :
		  width > 64 ? (1ULL << (width - 64)) - 1 : 0;
}

static inline void p4t_val_shl(struct p4t_val *v, unsigned int s)
{
	if (!s)
		return;
	if (s >= 128) {
		v->w[0] = 0;
		v->w[1] = 0;
	} else if (s >= 64) {
		v->w[1] = v->w[0] << (s - 64);
		v->w[0] = 0;
	} else {
		v->w[1] = (v->w[1] << s) | (v->w[0] >> (64 - s));
		v->w[0] <<= s;
	}
}

static inline void p4t_val_shr(struct p4t_val *v, unsigned int s)
{
	if (!s)
		return;
	if (s >= 128) {
		v->w[0] = 0;
		v->w[1] = 0;
	} else if (s >= 64) {
		v->w[0] = v->w[1] >> (s - 64);
		v->w[1] = 0;
	} else {
		v->w[0] = (v->w[0] >> s) | (v->w[1] << (64 - s));
		v->w[1] >>= s;
	}
}

static inline bool p4t_val_bit(const struct p4t_val *v, unsigned int bit)
{
	return (v->w[bit / 64] >> (bit % 64)) & 1;
}

/* Keep the low @width bits of @v. */
static inline void p4t_val_trunc(struct p4t_val *v, unsigned int width)
{
	struct p4t_val m;

	p4t_val_ones(&m, width);
	v->w[0] &= m.w[0];
	v->w[1] &= m.w[1];
}

void p4t_val_sign_extend(struct p4t_val *v, unsigned int width);

const struct p4tc_type *p4type_find_byid(int typeid);
bool p4tc_type_unsigned(int typeid);

int p4t_check_slice(const struct p4tc_type *type, u16 startbit, u16 endbit,
		    struct netlink_ext_ack *extack);
void p4t_mask_shift(const struct p4tc_type *type, u16 startbit, u16 endbit,
		    struct p4tc_type_mask_shift *ms);
int p4t_validate_value(const struct p4tc_type *type, u16 startbit, u16 endbit,
		       const void *value, struct netlink_ext_ack *extack);

void p4t_host_read(const struct p4tc_type *type,
		   const struct p4tc_type_mask_shift *ms, const void *src,
		   struct p4t_val *dst);
void p4t_host_write(const struct p4tc_type *type,
		    const struct p4tc_type_mask_shift *ms,
		    const struct p4t_val *src, void *dst);

void p4t_copy(const struct p4tc_type *dst_t,
	      const struct p4tc_type_mask_shift *dst_ms, void *dstv,
	      const struct p4tc_type *src_t,
	      const struct p4tc_type_mask_shift *src_ms, const void *srcv);
int p4t_cmp(const struct p4tc_type *a_t,
	    const struct p4tc_type_mask_shift *a_ms, const void *av,
	    const struct p4tc_type *b_t,
	    const struct p4tc_type_mask_shift *b_ms, const void *bv);

int p4t_snprint(char *buf, size_t len, struct net *net,
		const struct p4tc_type *type,
		const struct p4tc_type_mask_shift *ms, const void *val);
void p4t_print(struct net *net, const struct p4tc_type *type,
	       const struct p4tc_type_mask_shift *ms, const char *prefix,
	       const void *val);

static inline unsigned int p4t_container_bytes(const struct p4tc_type *type)
{
	return type->container_bitsz / 8;
}

/* Whether a container holds its most significant byte first (the
 * compiler's byte order: tests/host builds this header in user space)
 */
static inline bool p4t_msb_first(const struct p4tc_type *type)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return true;
#else
	return type->flags & P4T_F_BE;
#endif
}

#endif
