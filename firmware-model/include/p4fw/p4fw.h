/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The P4 NIC firmware model: what the QEMU p4nic device calls.
 *
 * One struct p4fw is one NIC's firmware: its ports, its loaded pipeline
 * (tables, entries, counters, registers) and its scratch space.  There is
 * no global state, so several NICs live in one process.  The device feeds
 * it admin commands as the raw bytes of struct p4nic_cmd, with a DMA
 * accessor for the buffers they point to, and packets from the wire; the
 * firmware answers with completion bytes and verdicts.  Nothing a guest
 * sends can make it crash, leak or change state on a refused command.
 *
 * Not thread-safe: the caller serialises commands and packets (QEMU's
 * device runs under its lock).  See offload-api/SPEC.md for the ABI.
 */
#ifndef P4FW_P4FW_H
#define P4FW_P4FW_H

#include <stdbool.h>
#include <stdint.h>

#include "p4nic_abi.h"

/*
 * The firmware's own version, which IDENTIFY reports (ABI 1.1): it moves
 * with every change of behaviour, where the ABI version moves only with
 * the interface.  1.2.0: setvalid and setinvalid (ABI 1.2).
 */
#define P4FW_VERSION		P4NIC_FW_VERSION(1, 2, 0)

struct p4fw;

/* Reads and writes guest memory; return 0, or nonzero for a bad range. */
struct p4fw_dma {
	int (*read)(void *opaque, uint64_t addr, void *buf, uint32_t len);
	int (*write)(void *opaque, uint64_t addr, const void *buf,
		     uint32_t len);
	void *opaque;
};

/* MACS: NUM_PORTS addresses of 6 bytes, reported by PORT_QUERY. */
struct p4fw *p4fw_create(uint32_t num_ports, const uint8_t (*macs)[6],
			 int *err);
void p4fw_destroy(struct p4fw *fw);
/*
 * The secret the tables' hash seeds derive from: a random value from the
 * host (QEMU's guest-random source), so that a guest cannot pick entry
 * keys that collide and make every lookup slow.  Until it is set, the
 * seeds are fixed, which keeps tests and fuzzing reproducible.
 */
void p4fw_set_secret(struct p4fw *fw, uint64_t secret);
/*
 * The most host memory the pipeline's tables may hold, in bytes (0, the
 * default: no limit).  A guest chooses table sizes, key widths and
 * prefixes; without a limit it could make the device take gigabytes
 * (an LPM table's root alone is 80 MiB of address space, a wide prefix
 * grows its trie by up to 92 KiB).  PIPELINE_LOAD refuses an image whose
 * tables would exceed it, ENTRY_ADD a prefix that could grow an LPM trie
 * past it, both with NO_MEMORY.
 */
void p4fw_set_mem_limit(struct p4fw *fw, uint64_t bytes);
/* What the tables hold now, as the limit counts it. */
uint64_t p4fw_mem_used(const struct p4fw *fw);
/* Back to power-on: no pipeline, ports disabled, counters zero. */
void p4fw_reset(struct p4fw *fw);

/*
 * Execute one admin command (64 bytes, struct p4nic_cmd) and write its
 * completion (16 bytes, struct p4nic_cpl) except aq_head and flags,
 * which belong to the device.
 */
void p4fw_command(struct p4fw *fw, const uint8_t *cmd,
		  const struct p4fw_dma *dma, uint8_t *cpl);

/* Port state the device owns and the firmware reports. */
void p4fw_set_link(struct p4fw *fw, uint32_t port, bool up);
bool p4fw_port_enabled(const struct p4fw *fw, uint32_t port);
/* A frame the host sent out of PORT (counted in PORT_QUERY). */
void p4fw_count_host_tx(struct p4fw *fw, uint32_t port, uint32_t len);
/* A frame for the host dropped for want of an RX buffer. */
void p4fw_count_no_buffer(struct p4fw *fw, uint32_t port);

enum p4fw_verdict_kind {
	P4FW_DROP = 0,
	P4FW_TX = 1,		/* transmit data on port */
	P4FW_HOST = 2,		/* deliver data to the host, with reason */
};

struct p4fw_copy {
	uint32_t port;
	uint32_t len;
	const uint8_t *data;
};

/*
 * What the NIC does with a packet.  Buffers belong to the firmware and
 * stay valid until the next p4fw_process() or command.  Mirrors are
 * transmitted whatever the verdict.
 */
struct p4fw_verdict {
	enum p4fw_verdict_kind kind;
	uint32_t reason;	/* HOST: P4NIC_RX_* */
	uint32_t info;		/* HOST: as p4nic_rx_desc.info */
	uint32_t port;		/* TX */
	uint32_t len;
	const uint8_t *data;
	uint32_t num_mirrors;
	struct p4fw_copy mirrors[4];
};

/*
 * Introspection for the host (QEMU's "info p4nic"): what is loaded and
 * what it counted, in host byte order.  Reading changes nothing.
 */
struct p4fw_port_stats {
	bool enabled;
	bool pipeline;	/* its frames run the pipeline */
	bool link;
	uint64_t rx_packets, rx_bytes;	/* from the wire */
	uint64_t tx_packets, tx_bytes;	/* to the wire */
	uint64_t to_host, dropped, no_buffer;
};

struct p4fw_pipeline_stats {
	uint32_t pipeid;
	uint32_t num_tables;
	uint32_t num_actions;
	uint32_t num_registers;
	uint32_t num_entries;
};

struct p4fw_table_stats {
	uint32_t id;
	uint32_t type;		/* P4NIC_TABLE_* */
	uint32_t key_bits;
	uint32_t max_entries;
	uint32_t num_entries;
	uint32_t num_masks;	/* ternary */
	uint32_t miss_mode;	/* P4NIC_MISS_* */
	uint64_t hits, misses;
};

/* An entry; key and mask point into the firmware, key_bytes long. */
struct p4fw_entry_stats {
	uint32_t handle;
	uint32_t prio;
	uint32_t action_id;	/* 0: none of its own */
	uint32_t key_bytes;
	const uint8_t *key;
	const uint8_t *mask;
	uint64_t packets, bytes;
};

/* 0, or -1 for a port beyond the NIC's. */
int p4fw_port_stats(const struct p4fw *fw, uint32_t port,
		    struct p4fw_port_stats *st);
/* false when no pipeline is loaded. */
bool p4fw_pipeline_stats(const struct p4fw *fw,
			 struct p4fw_pipeline_stats *st);
/* The table at INDEX (0..num_tables-1): 0, or -1 when there is none. */
int p4fw_table_stats(const struct p4fw *fw, uint32_t index,
		     struct p4fw_table_stats *st);
/*
 * The entry with the lowest handle at or after *HANDLE in the table at
 * INDEX: 0 and *HANDLE set to the handle after it, or -1 when none is
 * left.  A walk costs max_entries steps at most.
 */
int p4fw_entry_next(const struct p4fw *fw, uint32_t index, uint32_t *handle,
		    struct p4fw_entry_stats *st);

/* Run the loaded pipeline on a frame that arrived on IN_PORT. */
void p4fw_process(struct p4fw *fw, uint32_t in_port, const uint8_t *pkt,
		  uint32_t len, struct p4fw_verdict *v);

#endif /* P4FW_P4FW_H */
