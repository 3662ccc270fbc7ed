// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Seed inputs for QEMU's generic-fuzz-p4nic target: what a driver does,
 * in the fuzzer's own input language (tests/qtest/fuzz/generic_fuzz.c), so
 * that the fuzzer starts with the device running a program and packets
 * crossing it rather than at "queue not configured".  Usage: gen_seeds DIR
 *
 * An input is a list of operations separated by "FUZZ"; an operation's
 * first byte picks it, its argument is the C struct generic_fuzz.c
 * memcpy()s (natural alignment, so with padding).  The device's DMA reads
 * of guest memory are answered from the DMA patterns, one pattern per
 * read, in turn: before each doorbell the seed clears the patterns and
 * adds those the device will read, in the order it reads them (a command,
 * then its input; a TX descriptor, then its frame, then the RX descriptor
 * of the port the frame comes in on).  The device has four ports on one
 * hub, as the example programs' images have.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p4nic_abi.h"
#include "imgbuild.h"
#include "programs.h"
#include "rig.h"

enum { OP_READ = 2, OP_WRITE = 3, OP_PCI_WRITE = 5, OP_ADD_DMA_PATTERN = 7,
	OP_CLEAR_DMA_PATTERNS = 8, OP_CLOCK_STEP = 9 };

/* Guest memory the seed's queues and buffers use (the machine has 512M). */
#define AQ	0x100000u
#define ACQ	0x110000u
#define EQ	0x120000u
#define OUT	0x130000u
#define IN	0x200000u
#define TXR	0x300000u
#define RXR	0x310000u
#define FRAME	0x320000u
#define RXBUF	0x330000u
#define QSIZE	16u

struct input {
	uint8_t buf[1 << 17];
	size_t len;
	uint32_t aq_tail, tx_tail;
};

static void put(struct input *in, const void *p, size_t len)
{
	if (in->len + len > sizeof(in->buf)) {
		fprintf(stderr, "gen_seeds: input too long\n");
		exit(1);
	}
	memcpy(in->buf + in->len, p, len);
	in->len += len;
}

static void op(struct input *in, uint8_t code, const void *arg, size_t len)
{
	if (in->len)
		put(in, "FUZZ", 4);
	put(in, &code, 1);
	put(in, arg, len);
}

/* A 32-bit write to the first fuzzed region: BAR 0, the registers. */
static void wr(struct input *in, uint32_t off, uint32_t val)
{
	struct { uint8_t size, base; uint32_t offset; uint64_t value; } a;

	memset(&a, 0, sizeof(a));
	a.size = 2;
	a.offset = off;
	a.value = val;
	op(in, OP_WRITE, &a, sizeof(a));
}

static void rd(struct input *in, uint32_t off)
{
	struct { uint8_t size, base; uint32_t offset; } a;

	memset(&a, 0, sizeof(a));
	a.size = 2;
	a.offset = off;
	op(in, OP_READ, &a, sizeof(a));
}

static void pattern(struct input *in, const void *p, size_t len)
{
	uint8_t a[2] = { 0, 0 };	/* index, stride: no byte counts up */

	if (in->len)
		put(in, "FUZZ", 4);
	put(in, &(uint8_t){ OP_ADD_DMA_PATTERN }, 1);
	put(in, a, 2);
	put(in, p, len);
}

static void clear(struct input *in)
{
	op(in, OP_CLEAR_DMA_PATTERNS, NULL, 0);
}

/* The queues, then ENABLE: as the driver's probe does. */
static void start(struct input *in)
{
	wr(in, P4NIC_REG_AQ_BASE_LO, AQ);
	wr(in, P4NIC_REG_AQ_SIZE, QSIZE);
	wr(in, P4NIC_REG_ACQ_BASE_LO, ACQ);
	wr(in, P4NIC_REG_ACQ_SIZE, QSIZE);
	wr(in, P4NIC_REG_EQ_BASE_LO, EQ);
	wr(in, P4NIC_REG_EQ_SIZE, QSIZE);
	wr(in, P4NIC_REG_CTRL, P4NIC_CTRL_ENABLE);
}

/* One admin command: its descriptor and input as patterns, the doorbell. */
static void command(struct input *in, uint16_t opcode, const void *data,
		    uint32_t data_len, uint32_t out_len, uint32_t p0,
		    uint32_t p1, uint32_t p2)
{
	struct p4nic_cmd c;

	memset(&c, 0, sizeof(c));
	c.opcode = opcode;
	c.cookie = ++in->aq_tail;
	c.in_addr = data_len ? IN : 0;
	c.in_len = data_len;
	c.out_addr = out_len ? OUT : 0;
	c.out_len = out_len;
	c.p[0] = p0;
	c.p[1] = p1;
	c.p[2] = p2;
	clear(in);
	pattern(in, &c, sizeof(c));
	if (data_len)
		pattern(in, data, data_len);
	wr(in, P4NIC_REG_AQ_TAIL, in->aq_tail % QSIZE);
}

/*
 * The rings (port 0 sends, port 1 receives), then every port enabled and
 * running the pipeline (the device takes rings only while a port is off).
 */
static void ports(struct input *in)
{
	uint32_t p;

	wr(in, P4NIC_REG_PORT(0) + P4NIC_PORT_TX_BASE_LO, TXR);
	wr(in, P4NIC_REG_PORT(0) + P4NIC_PORT_TX_SIZE, QSIZE);
	wr(in, P4NIC_REG_PORT(1) + P4NIC_PORT_RX_BASE_LO, RXR);
	wr(in, P4NIC_REG_PORT(1) + P4NIC_PORT_RX_SIZE, QSIZE);
	for (p = 0; p < 4; p++)
		command(in, P4NIC_CMD_PORT_SET, NULL, 0, 0, p,
			P4NIC_PORT_ENABLED | P4NIC_PORT_PIPELINE, 0);
	wr(in, P4NIC_REG_PORT(1) + P4NIC_PORT_RX_TAIL, QSIZE - 1);
}

/* A frame out of port 0; the hub brings it in on ports 1 to 3. */
static void send(struct input *in, const uint8_t *frame, uint16_t len)
{
	struct p4nic_tx_desc t;
	struct p4nic_rx_desc r;

	memset(&t, 0, sizeof(t));
	t.addr = FRAME;
	t.len = len;
	memset(&r, 0, sizeof(r));
	r.addr = RXBUF;
	r.buf_len = 2048;
	clear(in);
	pattern(in, &t, sizeof(t));
	pattern(in, frame, len);
	pattern(in, &r, sizeof(r));
	wr(in, P4NIC_REG_PORT(0) + P4NIC_PORT_TX_TAIL, ++in->tx_tail % QSIZE);
	rd(in, P4NIC_REG_PORT(0) + P4NIC_PORT_TX_HEAD);
	rd(in, P4NIC_REG_PORT(1) + P4NIC_PORT_RX_HEAD);
}

static void load(struct input *in, uint8_t *(*program)(uint32_t *len))
{
	uint32_t len;
	uint8_t *img = program(&len);

	command(in, P4NIC_CMD_PIPELINE_LOAD, img, len, 0, 0, 0, 0);
	free(img);
}

static void write_out(struct input *in, const char *dir, const char *name)
{
	char path[512];
	FILE *f;

	op(in, OP_CLOCK_STEP, NULL, 0);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(in->buf, 1, in->len, f) != in->len || fclose(f)) {
		perror(path);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	static struct input in;
	uint8_t pkt[128], key[11] = { 10, 2, 0, 0 }, mask[11] = { 255, 255 };
	ib_u128 params[3] = { 0x020000000002ull, 0x0200000000ffull, IFX(1) };
	struct p4nic_entry e;
	uint32_t len, off;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}

	/* the device as the driver's probe leaves it; every register read */
	memset(&in, 0, sizeof(in));
	start(&in);
	command(&in, P4NIC_CMD_IDENTIFY, NULL, 0, 128, 0, 0, 0);
	command(&in, P4NIC_CMD_PORT_QUERY, NULL, 0, 64, 1, 0, 0);
	for (off = 0; off <= P4NIC_REG_EQ_HEAD; off += 4)
		rd(&in, off);
	for (off = 0; off <= P4NIC_PORT_MAC_HI; off += 4)
		rd(&in, P4NIC_REG_PORT(3) + off);
	write_out(&in, argv[1], "identify");

	/* the router with a route, a routed frame and one the FIB misses */
	memset(&in, 0, sizeof(in));
	start(&in);
	load(&in, program_router);
	ib_entry(&e, ROUTER_FIB, 1, 0, ROUTER_SET_NH, 4, key, mask, 3, params);
	command(&in, P4NIC_CMD_ENTRY_ADD, &e, sizeof(e), 0, 0, 0, 0);
	ports(&in);
	len = rig_ipv4(pkt, 0x525400123456ull, 2, 0x0a010001, 0x0a020001, 17,
		       64, 1, 2);
	send(&in, pkt, (uint16_t)len);
	len = rig_ipv4(pkt, 0x525400123456ull, 2, 0x0a010001, 0x0b020001, 17,
		       64, 1, 2);
	send(&in, pkt, (uint16_t)len);
	command(&in, P4NIC_CMD_COUNTERS_READ, NULL, 0, 64, ROUTER_FIB, 0, 2);
	command(&in, P4NIC_CMD_TABLE_MISS_MODE, NULL, 0, 0, ROUTER_FIB, 1, 0);
	send(&in, pkt, (uint16_t)len);
	command(&in, P4NIC_CMD_ENTRY_DEL, NULL, 0, 0, ROUTER_FIB, 1, 0);
	write_out(&in, argv[1], "router");

	/* the ACL with its register, a frame, then a reset under traffic */
	memset(&in, 0, sizeof(in));
	start(&in);
	load(&in, program_acl);
	ports(&in);
	len = rig_ipv4(pkt, 1, 2, 0x01020304, 0x0a010203, 6, 64, 1, 22);
	send(&in, pkt, (uint16_t)len);
	command(&in, P4NIC_CMD_REG_READ, NULL, 0, 64, ACL_REG, 0, 4);
	wr(&in, P4NIC_REG_CTRL, P4NIC_CTRL_RESET);
	start(&in);
	in.aq_tail = 0;
	command(&in, P4NIC_CMD_IDENTIFY, NULL, 0, 128, 0, 0, 0);
	write_out(&in, argv[1], "acl-reset");

	/* the VLAN program: a frame to push a tag on */
	memset(&in, 0, sizeof(in));
	start(&in);
	load(&in, program_vlan);
	ports(&in);
	len = rig_ipv4(pkt, 1, 2, 0x01020304, 0x0a010203, 17, 64, 1, 53);
	send(&in, pkt, (uint16_t)len);
	command(&in, P4NIC_CMD_PIPELINE_UNLOAD, NULL, 0, 0, VLAN_PIPEID, 0, 0);
	write_out(&in, argv[1], "vlan");
	return 0;
}
