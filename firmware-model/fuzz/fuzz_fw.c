// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over everything a guest can send the firmware: admin
 * commands (and so the image loader, entries, defaults, registers) and
 * packets, in any order.
 *
 * The input is a stream of records.  A record starting with an even byte
 * is a 64-byte admin command; with an odd byte, a packet: in-port byte,
 * 16-bit length, bytes; 0xff ends the stream.  Guest memory, for the commands' DMA reads, is
 * the input itself (address = offset), so images and entries placed in
 * the input are what the fuzzer mutates; DMA writes land in a scratch
 * area.  Beyond the sanitizers, two properties are checked: a refused
 * command leaves the pipeline as it was, and verdicts are well formed.
 * With FUZZ_TRACE set in the environment, each record's outcome is
 * printed (run the binary on one input to see what it does).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p4fw/p4fw.h"

#define SCRATCH (1u << 20)
#define PORTS 4

struct mem {
	const uint8_t *in;
	size_t in_len;
	uint8_t *scratch;
};

static int dma_read(void *opaque, uint64_t addr, void *buf, uint32_t len)
{
	struct mem *m = opaque;

	if (addr > m->in_len || len > m->in_len - addr)
		return -1;
	memcpy(buf, m->in + addr, len);
	return 0;
}

static int dma_write(void *opaque, uint64_t addr, const void *buf,
		     uint32_t len)
{
	struct mem *m = opaque;

	if (addr > SCRATCH || len > SCRATCH - addr)
		return -1;
	memcpy(m->scratch + addr, buf, len);
	return 0;
}

/* What a refused command must not change. */
static void snapshot(struct p4fw *fw, const struct p4fw_dma *dma,
		     uint8_t *out)
{
	struct p4nic_cmd q = { .opcode = P4NIC_CMD_QUERY,
			       .out_len = sizeof(struct p4nic_pipeline_info),
			       .out_addr = 0 };
	struct p4nic_cpl c;

	q.p[0] = P4NIC_QUERY_PIPELINE;
	p4fw_command(fw, (const uint8_t *)&q, dma, (uint8_t *)&c);
	if (c.status)
		abort();
	memcpy(out, ((struct mem *)dma->opaque)->scratch,
	       sizeof(struct p4nic_pipeline_info));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t scratch[SCRATCH];
	static const uint8_t macs[PORTS][6] = { { 2, 0, 0, 0, 0, 1 } };
	struct mem m = { data, size, scratch };
	struct p4fw_dma dma = { dma_read, dma_write, &m };
	uint8_t before[32], after[32], cpl[16];
	struct p4fw_verdict v;
	size_t pos = 0;
	struct p4fw *fw;
	int err;

	static int trace = -1;

	if (trace < 0)
		trace = getenv("FUZZ_TRACE") != NULL;
	fw = p4fw_create(PORTS, macs, &err);
	if (!fw)
		abort();
	while (pos < size) {
		uint8_t tag = data[pos++];

		if (tag == 0xff)
			break;
		if (!(tag & 1)) {
			if (size - pos < sizeof(struct p4nic_cmd))
				break;
			snapshot(fw, &dma, before);
			p4fw_command(fw, data + pos, &dma, cpl);
			if (trace)
				fprintf(stderr, "cmd %u: status %u field %u result %u\n",
					data[pos] | data[pos + 1] << 8, cpl[8],
					cpl[10], cpl[4] | cpl[5] << 8);
			pos += sizeof(struct p4nic_cmd);
			if (cpl[8] | cpl[9]) {
				snapshot(fw, &dma, after);
				if (memcmp(before, after, sizeof(before)))
					abort();
			}
		} else {
			uint32_t port, len;

			if (size - pos < 3)
				break;
			port = data[pos] % (PORTS + 1);	/* one bad port */
			len = (uint32_t)data[pos + 1] | data[pos + 2] << 8;
			pos += 3;
			if (len > size - pos)
				len = (uint32_t)(size - pos);
			p4fw_process(fw, port, data + pos, len, &v);
			pos += len;
			if (trace)
				fprintf(stderr, "packet %u bytes on %u: kind %d port %u reason %u mirrors %u\n",
					len, port, v.kind, v.port, v.reason,
					v.num_mirrors);
			if (v.kind > P4FW_HOST || v.len != len ||
			    (v.kind == P4FW_TX && v.port >= PORTS) ||
			    (v.kind == P4FW_HOST &&
			     v.reason > P4NIC_RX_UNSUPPORTED) ||
			    v.num_mirrors > 4)
				abort();
		}
	}
	p4fw_destroy(fw);
	return 0;
}
