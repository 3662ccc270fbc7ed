/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Test rig: a firmware instance with a flat "guest memory" for DMA, helpers
 * that issue admin commands the way a driver would, and packet builders.
 */
#ifndef P4FW_RIG_H
#define P4FW_RIG_H

#include <stdint.h>
#include <string.h>

#include "p4fw/p4fw.h"
#include "imgbuild.h"

#define RIG_MEM (4u << 20)
#define RIG_IN 0x1000u
#define RIG_OUT (2u << 20)

struct rig {
	struct p4fw *fw;
	uint8_t *mem;
	int dma_fail;		/* nonzero: every DMA access fails */
};

struct rig *rig_new(uint32_t ports);
void rig_free(struct rig *r);

struct p4nic_cpl rig_cmd(struct rig *r, uint16_t opcode, const void *in,
			 uint32_t in_len, uint32_t out_len, uint32_t p0,
			 uint32_t p1, uint32_t p2);
/* Load one of the example programs, asserting success. */
void rig_load(struct rig *r, uint8_t *(*program)(uint32_t *len));
struct p4nic_cpl rig_entry(struct rig *r, uint16_t opcode,
			   const struct p4nic_entry *e);

/* Ethernet + IPv4 + (TCP or UDP) frame; returns its length. */
uint32_t rig_ipv4(uint8_t *buf, uint64_t dmac, uint64_t smac, uint32_t src,
		  uint32_t dst, uint8_t proto, uint8_t ttl, uint16_t sport,
		  uint16_t dport);
int rig_ipv4_csum_ok(const uint8_t *frame);
uint64_t rig_mac(const uint8_t *p);

#endif /* P4FW_RIG_H */
