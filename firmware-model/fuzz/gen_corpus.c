// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writes the fuzz target's seed corpus: for each example program, an input
 * that loads it, adds entries and sends packets that reach every table,
 * so the fuzzer starts deep inside the firmware rather than at "bad
 * magic".  Usage: gen_corpus DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "programs.h"
#include "rig.h"

struct seed {
	uint8_t buf[1 << 16];
	uint32_t len;
	uint32_t blobs;		/* where the next DMA blob goes */
	uint8_t stream[1 << 14];
	uint32_t slen;
};

/* DMA blobs live after the record stream; addresses are fixed up late. */
static uint32_t blob(struct seed *s, const void *p, uint32_t len)
{
	uint32_t at = s->blobs;

	memcpy(s->buf + at, p, len);
	s->blobs += (len + 7) & ~7u;
	return at;
}

static void command(struct seed *s, uint16_t op, uint32_t in_at,
		    uint32_t in_len, uint32_t out_len, uint32_t p0,
		    uint32_t p1, uint32_t p2)
{
	struct p4nic_cmd c = { 0 };

	c.opcode = op;
	c.in_addr = in_at;	/* relative to the blob area, fixed below */
	c.in_len = in_len;
	c.out_len = out_len;
	c.p[0] = p0;
	c.p[1] = p1;
	c.p[2] = p2;
	s->stream[s->slen++] = 0;
	memcpy(s->stream + s->slen, &c, sizeof(c));
	s->slen += sizeof(c);
}

static void packet(struct seed *s, uint8_t port, const uint8_t *p,
		   uint16_t len)
{
	s->stream[s->slen++] = 1;
	s->stream[s->slen++] = port;
	s->stream[s->slen++] = (uint8_t)len;
	s->stream[s->slen++] = (uint8_t)(len >> 8);
	memcpy(s->stream + s->slen, p, len);
	s->slen += len;
}

/*
 * Lay out: stream, then blobs.  Command in_addr values were blob-relative;
 * shift them by the stream's length now that it is known.
 */
static void finish(struct seed *s, const char *dir, const char *name)
{
	uint32_t pos = 0, base;
	char path[512];
	FILE *f;

	s->stream[s->slen++] = 0xff;	/* end of records; blobs follow */
	base = s->slen;

	while (pos < s->slen - 1) {
		if (!(s->stream[pos] & 1)) {
			struct p4nic_cmd c;

			memcpy(&c, s->stream + pos + 1, sizeof(c));
			if (c.in_len)
				c.in_addr += base;
			memcpy(s->stream + pos + 1, &c, sizeof(c));
			pos += 1 + sizeof(c);
		} else {
			pos += 4 + (s->stream[pos + 2] |
				    s->stream[pos + 3] << 8);
		}
	}
	memmove(s->buf + base, s->buf, s->blobs);
	memcpy(s->buf, s->stream, s->slen);
	s->len = base + s->blobs;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(s->buf, 1, s->len, f) != s->len || fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* The image, then every port's frames through it (as rig_load does). */
static void load(struct seed *s, uint8_t *(*program)(uint32_t *len))
{
	uint32_t len, port;
	uint8_t *img = program(&len);

	command(s, P4NIC_CMD_PIPELINE_LOAD, blob(s, img, len), len, 0, 0, 0,
		0);
	free(img);
	for (port = 0; port < 4; port++)
		command(s, P4NIC_CMD_PORT_SET, 0, 0, 0, port,
			P4NIC_PORT_PIPELINE, 0);
}

static void entry(struct seed *s, const struct p4nic_entry *e)
{
	command(s, P4NIC_CMD_ENTRY_ADD, blob(s, e, sizeof(*e)), sizeof(*e), 0,
		0, 0, 0);
}

int main(int argc, char **argv)
{
	static struct seed s;
	uint8_t pkt[128], key[11] = { 10, 1, 0, 0 }, mask[11] = { 255, 255 };
	ib_u128 params[3] = { 0x020000000002ull, 0x0200000000ffull, IFX(1) };
	struct p4nic_entry e;
	uint32_t len;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}

	memset(&s, 0, sizeof(s));
	load(&s, program_router);
	ib_entry(&e, ROUTER_FIB, 1, 0, ROUTER_SET_NH, 4, key, mask, 3, params);
	entry(&s, &e);
	len = rig_ipv4(pkt, 1, 2, 0x01020304, 0x0a010203, 17, 64, 1, 2);
	packet(&s, 0, pkt, (uint16_t)len);
	command(&s, P4NIC_CMD_COUNTERS_READ, 0, 0, 64, ROUTER_FIB, 0, 4);
	command(&s, P4NIC_CMD_TABLE_MISS_MODE, 0, 0, 0, ROUTER_FIB, 1, 0);
	len = rig_ipv4(pkt, 1, 2, 0x01020304, 0x0b010203, 17, 64, 1, 2);
	packet(&s, 1, pkt, (uint16_t)len);
	command(&s, P4NIC_CMD_ENTRY_DEL, 0, 0, 0, ROUTER_FIB, 1, 0);
	finish(&s, argv[1], "router");

	memset(&s, 0, sizeof(s));
	load(&s, program_acl);
	memset(mask, 0, sizeof(mask));
	memset(key, 0, sizeof(key));
	key[8] = 6;
	mask[8] = 0xff;
	key[10] = 22;
	mask[9] = mask[10] = 0xff;
	ib_entry(&e, ACL_TABLE, 0, 5, ACL_DENY, 11, key, mask, 0, NULL);
	entry(&s, &e);
	memset(key, 0, sizeof(key));
	memset(mask, 0xff, 6);
	key[5] = 1;
	params[0] = IFX(1);
	params[1] = IFX(2);
	ib_entry(&e, ACL_FWD, 0, 0, ACL_MIRROR_SEND, 6, key, mask, 2, params);
	entry(&s, &e);
	len = rig_ipv4(pkt, 1, 2, 0x01020304, 0x0a010203, 6, 64, 1, 22);
	packet(&s, 0, pkt, (uint16_t)len);
	len = rig_ipv4(pkt, 1, 2, 0x01020304, 0x0a010203, 17, 64, 1, 53);
	packet(&s, 0, pkt, (uint16_t)len);
	command(&s, P4NIC_CMD_REG_READ, 0, 0, 64, ACL_REG, 0, 4);
	finish(&s, argv[1], "acl");

	memset(&s, 0, sizeof(s));
	load(&s, program_calc);
	memset(pkt, 0, 60);
	packet(&s, 0, pkt, 60);
	packet(&s, 1, pkt, 60);
	command(&s, P4NIC_CMD_IDENTIFY, 0, 0, 128, 0, 0, 0);
	command(&s, P4NIC_CMD_QUERY, 0, 0, 64, P4NIC_QUERY_PIPELINE, 0, 0);
	finish(&s, argv[1], "calc");

	/* VLAN: a push from port 0, a pop of VLAN 100 from port 3 */
	memset(&s, 0, sizeof(s));
	load(&s, program_vlan);
	memset(key, 0, sizeof(key));
	memset(mask, 0xff, 6);
	mask[5] = 0xf0;
	key[3] = IFX(0);
	params[0] = 100;
	params[1] = IFX(3);
	ib_entry(&e, VLAN_PORT, 0, 0, VLAN_PUSH, 6, key, mask, 2, params);
	entry(&s, &e);
	key[3] = IFX(3);
	key[4] = 100 >> 4;
	key[5] = (100 << 4) & 0xf0;
	params[0] = IFX(0);
	ib_entry(&e, VLAN_PORT, 1, 0, VLAN_POP, 6, key, mask, 1, params);
	entry(&s, &e);
	len = rig_ipv4(pkt, 1, 2, 0x01020304, 0x0a010203, 17, 64, 1, 53);
	packet(&s, 0, pkt, (uint16_t)len);
	finish(&s, argv[1], "vlan");

	/* Hostile images: a full hit list, a write to a 512-bit key's top */
	memset(&s, 0, sizeof(s));
	load(&s, program_hits);
	memset(pkt, 0, 60);
	packet(&s, 0, pkt, 60);
	finish(&s, argv[1], "hits");

	memset(&s, 0, sizeof(s));
	load(&s, program_wide_key);
	packet(&s, 0, pkt, 60);
	finish(&s, argv[1], "wide_key");
	return 0;
}
