// SPDX-License-Identifier: GPL-2.0-or-later
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
 * command leaves the firmware as it was (the pipeline, every entry with
 * its counters, the defaults, the registers and the ports: a digest of
 * them before and after), and verdicts are well formed (a frame handed
 * to the host undecided is the frame that came in, byte for byte).
 * With FUZZ_TRACE set in the environment, each record's outcome is
 * printed (run the binary on one input to see what it does).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fw.h"

#define SCRATCH (1u << 20)
#define PORTS 4
/*
 * Tables are digested handle by handle up to this many; beyond it, by
 * their counts only, so that a command's check stays cheap on the
 * largest tables an image may declare.
 */
#define DIGEST_HANDLES 65536u

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

/* FNV-1a, 64 bits */
static uint64_t mix(uint64_t h, const void *p, size_t len)
{
	const uint8_t *b = p;

	while (len--)
		h = (h ^ *b++) * 0x100000001b3ull;
	return h;
}

/* What a refused command must not change, as one number. */
static uint64_t digest(const struct p4fw *fw)
{
	const struct fw_pipeline *p = fw->pipe;
	uint64_t h = 0xcbf29ce484222325ull;
	uint32_t i, j;

	for (i = 0; i < fw->num_ports; i++) {
		const struct fw_port *pt = &fw->ports[i];
		uint8_t flags = pt->enabled | pt->pipeline << 1 | pt->link << 2;

		h = mix(h, &flags, 1);
	}
	h = mix(h, &p, sizeof(p));
	if (!p)
		return h;
	h = mix(h, &p->num_entries, sizeof(p->num_entries));
	for (i = 0; i < p->num_tables; i++) {
		const struct fw_table *t = &p->tables[i];
		uint32_t n = t->max_entries < DIGEST_HANDLES ? t->max_entries :
			     DIGEST_HANDLES;

		h = mix(h, &t->miss_mode, sizeof(t->miss_mode));
		h = mix(h, &t->num_entries, sizeof(t->num_entries));
		for (j = 0; j < 2; j++) {
			h = mix(h, &t->dflt[j].action, sizeof(uint32_t));
			h = mix(h, &t->dflt[j].nargs, sizeof(uint32_t));
			h = mix(h, t->dflt[j].args,
				t->dflt[j].nargs * sizeof(u128));
		}
		for (j = 0; j < n; j++) {
			const struct fw_entry *e = &t->entries[j];

			if (!e->used)
				continue;
			h = mix(h, &j, sizeof(j));
			h = mix(h, &e->prio, sizeof(e->prio));
			h = mix(h, &e->action, sizeof(e->action));
			h = mix(h, &e->packets, sizeof(e->packets));
			h = mix(h, &e->bytes, sizeof(e->bytes));
			h = mix(h, e->params, e->nparams * sizeof(u128));
			h = mix(h, t->keys + (size_t)j * 2 * t->key_bytes,
				2 * t->key_bytes);
		}
	}
	for (i = 0; i < p->num_regs; i++)
		h = mix(h, p->regs[i].cells,
			p->regs[i].num_elems * sizeof(u128));
	return h;
}

/* A verdict as the device would report it; false: malformed. */
static bool verdict_ok(const struct p4fw_verdict *v, const uint8_t *pkt,
		       uint32_t len)
{
	uint32_t i;

	if (v->kind > P4FW_HOST || v->num_mirrors > FW_MAX_MIRRORS)
		return false;
	for (i = 0; i < v->num_mirrors; i++)
		if (v->mirrors[i].port >= PORTS ||
		    v->mirrors[i].len > P4NIC_PKT_MAX)
			return false;
	switch (v->kind) {
	case P4FW_TX:
		/* setvalid and setinvalid change the length */
		return v->port < PORTS && v->len <= P4NIC_PKT_MAX;
	case P4FW_HOST:
		if (v->reason > P4NIC_RX_UNSUPPORTED)
			return false;
		if (v->reason == P4NIC_RX_PASS)	/* decided: edited */
			return v->len <= P4NIC_PKT_MAX;
		/* undecided: the software pipeline gets the original */
		return v->len == len && !memcmp(v->data, pkt, len);
	default:
		return true;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t scratch[SCRATCH];
	static const uint8_t macs[PORTS][6] = { { 2, 0, 0, 0, 0, 1 } };
	struct mem m = { data, size, scratch };
	struct p4fw_dma dma = { dma_read, dma_write, &m };
	uint8_t cpl[16];
	uint64_t before;
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
			before = digest(fw);
			p4fw_command(fw, data + pos, &dma, cpl);
			if (trace)
				fprintf(stderr, "cmd %u: status %u field %u result %u\n",
					data[pos] | data[pos + 1] << 8, cpl[8],
					cpl[10], cpl[4] | cpl[5] << 8);
			pos += sizeof(struct p4nic_cmd);
			if ((cpl[8] | cpl[9]) && digest(fw) != before)
				abort();
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
			if (!verdict_ok(&v, data + pos - len, len))
				abort();
		}
	}
	p4fw_destroy(fw);
	return 0;
}
