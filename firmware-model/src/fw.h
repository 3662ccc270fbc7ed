/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One NIC's firmware state, shared by the packet engine and commands. */
#ifndef P4FW_FW_H
#define P4FW_FW_H

#include "p4fw/p4fw.h"
#include "pipeline.h"

struct fw_port {
	uint8_t mac[6];
	bool enabled;
	bool pipeline;	/* its frames run the pipeline (PORT_PIPELINE) */
	bool link;
	uint64_t rx_packets, rx_bytes;
	uint64_t tx_packets, tx_bytes;
	uint64_t to_host, dropped, no_buffer;
};

/* A table lookup to count if hardware owns the packet's verdict. */
struct fw_hit {
	uint32_t table;
	uint32_t handle;	/* P4NIC_NONE: a miss */
	uint32_t len;		/* the frame's bytes at the lookup */
};

struct fw_undo {
	u128 *cell;
	u128 old;
};

/* Per-packet scratch, reused: nothing is allocated per packet. */
struct fw_ctx {
	uint8_t *pkt;		/* the working copy */
	uint32_t len;
	uint32_t in_port;
	uint32_t valid;		/* bit per header index */
	uint32_t hdr_off[FW_MAX_HEADERS];
	uint32_t hdr_len[FW_MAX_HEADERS];
	u128 meta[FW_MAX_METADATA];
	u128 kmeta[P4NIC_KMETA_MAX + 1];
	uint32_t kmeta_bad;	/* bit per P4NIC_KMETA_*: reading punts */
	uint8_t keys[FW_MAX_TABLES][P4NIC_MAX_KEY_BYTES];
	bool hit;
	uint32_t steps;
	uint32_t depth;
	uint32_t punt_reason;
	uint32_t punt_info;
	uint32_t egress;
	uint32_t num_hits;
	struct fw_hit hits[FW_MAX_HITS];
	uint32_t num_undo;
	struct fw_undo undo[FW_MAX_UNDO];
	uint32_t num_mirrors;
	uint32_t mirror_port[FW_MAX_MIRRORS];
	uint32_t mirror_len[FW_MAX_MIRRORS];
};

struct p4fw {
	uint32_t num_ports;
	struct fw_port ports[P4NIC_MAX_PORTS];
	struct fw_pipeline *pipe;	/* NULL: none loaded */
	uint64_t secret;		/* p4fw_set_secret() */
	uint64_t loads;			/* PIPELINE_LOADs: each its own seeds */
	uint64_t mem_limit;		/* p4fw_set_mem_limit(); 0: none */
	struct fw_ctx ctx;
	uint8_t work[P4NIC_PKT_MAX];
	uint8_t mirror_buf[FW_MAX_MIRRORS][P4NIC_PKT_MAX];
};

/* Bit strings in network order: BITPOS counts from the MSB of P[0]. */
u128 fw_get_bits(const uint8_t *p, uint32_t bitpos, uint32_t width);
void fw_set_bits(uint8_t *p, uint32_t bitpos, uint32_t width, u128 v);

#endif /* P4FW_FW_H */
