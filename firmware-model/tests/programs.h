/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The example programs, as images: what the kernel would build from the
 * templates of tests/programs/ (router, acl, calc, vlan), and images a
 * hostile guest could send (hits, wide_key).  Shared by the golden
 * tests, the fuzz corpus generator and the benchmark.
 */
#ifndef P4FW_PROGRAMS_H
#define P4FW_PROGRAMS_H

#include <stdint.h>

/* The ifindex the kernel gives NIC port P in these programs. */
#define IFX(p) (10u + (p))

/* Table and action ids. */
enum {
	ROUTER_PIPEID = 7,
	ROUTER_FIB = 1,			/* LPM on ipv4.dst */
	ROUTER_SET_NH = 1,		/* (dmac 48, smac 48, ifindex 32) */
	ROUTER_DROP = 2,
	ROUTER_TO_HOST = 3,

	ACL_PIPEID = 8,
	ACL_TABLE = 2,			/* ternary: src, dst, proto, dport */
	ACL_FWD = 3,			/* exact: eth.dst */
	ACL_PERMIT = 10,
	ACL_DENY = 11,
	ACL_SEND = 12,			/* (ifindex 32) */
	ACL_MIRROR_SEND = 13,		/* (ifindex 32, mirror ifindex 32) */
	ACL_TO_HOST = 14,
	ACL_REG = 1,			/* bit64[4]: [0] packets seen */

	CALC_PIPEID = 9,
	CALC_SET_LOW = 20,		/* (value 16) */

	VLAN_PIPEID = 10,
	VLAN_PORT = 1,			/* exact: in ifindex 32, vid 12 */
	VLAN_PUSH = 30,			/* (vid 12, ifindex 32) */
	VLAN_POP = 31,			/* (ifindex 32) */
	VLAN_DROP = 32,

	HITS_PIPEID = 40,
	HITS_A = 1,			/* exact: eth.dst, no actions */
	HITS_B = 2,			/* the same; its pre applies A */

	WIDE_KEY_PIPEID = 41,
	WIDE_KEY_TABLE = 1,		/* exact: 512-bit constant key */
};

uint8_t *program_router(uint32_t *len);
uint8_t *program_acl(uint32_t *len);
uint8_t *program_calc(uint32_t *len);
uint8_t *program_vlan(uint32_t *len);
/* 32 table hits, the last inside a table's pre program */
uint8_t *program_hits(uint32_t *len);
/* writes bits 504-511 of a 512-bit key */
uint8_t *program_wide_key(uint32_t *len);

#endif /* P4FW_PROGRAMS_H */
