// SPDX-License-Identifier: GPL-2.0-or-later
/* Test rig: see rig.h. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>

#include "rig.h"

static int dma_read(void *opaque, uint64_t addr, void *buf, uint32_t len)
{
	struct rig *r = opaque;

	if (r->dma_fail || addr > RIG_MEM || len > RIG_MEM - addr)
		return -1;
	memcpy(buf, r->mem + addr, len);
	return 0;
}

static int dma_write(void *opaque, uint64_t addr, const void *buf,
		     uint32_t len)
{
	struct rig *r = opaque;

	if (r->dma_fail || addr > RIG_MEM || len > RIG_MEM - addr)
		return -1;
	memcpy(r->mem + addr, buf, len);
	return 0;
}

struct rig *rig_new(uint32_t ports)
{
	struct rig *r = calloc(1, sizeof(*r));
	uint8_t macs[P4NIC_MAX_PORTS][6] = { { 0 } };
	uint32_t i;
	int err;

	for (i = 0; i < ports; i++) {
		macs[i][0] = 0x52;
		macs[i][5] = (uint8_t)i;
	}
	r->mem = calloc(1, RIG_MEM);
	r->fw = p4fw_create(ports, (const uint8_t (*)[6])macs, &err);
	assert_non_null(r->fw);
	return r;
}

void rig_free(struct rig *r)
{
	p4fw_destroy(r->fw);
	free(r->mem);
	free(r);
}

struct p4nic_cpl rig_cmd(struct rig *r, uint16_t opcode, const void *in,
			 uint32_t in_len, uint32_t out_len, uint32_t p0,
			 uint32_t p1, uint32_t p2)
{
	struct p4fw_dma dma = { dma_read, dma_write, r };
	struct p4nic_cmd c = { 0 };
	struct p4nic_cpl cpl;
	static uint32_t cookie = 100;

	c.opcode = opcode;
	c.cookie = ++cookie;
	c.in_addr = RIG_IN;
	c.in_len = in_len;
	c.out_addr = RIG_OUT;
	c.out_len = out_len;
	c.p[0] = p0;
	c.p[1] = p1;
	c.p[2] = p2;
	if (in && in_len)
		memcpy(r->mem + RIG_IN, in, in_len);
	p4fw_command(r->fw, (const uint8_t *)&c, &dma, (uint8_t *)&cpl);
	assert_int_equal(cpl.cookie, cookie);
	return cpl;
}

void rig_load(struct rig *r, uint8_t *(*program)(uint32_t *len))
{
	uint32_t len;
	uint8_t *img = program(&len);
	struct p4nic_cpl c = rig_cmd(r, P4NIC_CMD_PIPELINE_LOAD, img, len, 0,
				     0, 0, 0);

	struct p4fw_port_stats st;
	uint32_t port;

	free(img);
	assert_int_equal(c.status, P4NIC_ST_OK);
	/* the example programs run on every port, enabled or not */
	for (port = 0; !p4fw_port_stats(r->fw, port, &st); port++)
		assert_int_equal(rig_cmd(r, P4NIC_CMD_PORT_SET, NULL, 0, 0,
					 port, P4NIC_PORT_PIPELINE, 0).status,
				 P4NIC_ST_OK);
}

struct p4nic_cpl rig_entry(struct rig *r, uint16_t opcode,
			   const struct p4nic_entry *e)
{
	return rig_cmd(r, opcode, e, sizeof(*e), 0, 0, 0, 0);
}

static uint16_t csum(const uint8_t *p, uint32_t len)
{
	uint32_t s = 0, i;

	for (i = 0; i + 1 < len; i += 2)
		s += (uint32_t)p[i] << 8 | p[i + 1];
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

static void put_mac(uint8_t *p, uint64_t mac)
{
	int i;

	for (i = 0; i < 6; i++)
		p[i] = (uint8_t)(mac >> (40 - 8 * i));
}

uint64_t rig_mac(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 6; i++)
		v = v << 8 | p[i];
	return v;
}

uint32_t rig_ipv4(uint8_t *buf, uint64_t dmac, uint64_t smac, uint32_t src,
		  uint32_t dst, uint8_t proto, uint8_t ttl, uint16_t sport,
		  uint16_t dport)
{
	uint8_t *ip = buf + 14, *l4 = ip + 20;
	uint32_t l4len = proto == 6 ? 20 : 8, i;
	uint16_t c;

	memset(buf, 0, 14 + 20 + l4len + 6);
	put_mac(buf, dmac);
	put_mac(buf + 6, smac);
	buf[12] = 0x08;
	ip[0] = 0x45;
	ip[2] = (uint8_t)((20 + l4len + 6) >> 8);
	ip[3] = (uint8_t)(20 + l4len + 6);
	ip[8] = ttl;
	ip[9] = proto;
	for (i = 0; i < 4; i++) {
		ip[12 + i] = (uint8_t)(src >> (24 - 8 * i));
		ip[16 + i] = (uint8_t)(dst >> (24 - 8 * i));
	}
	c = csum(ip, 20);
	ip[10] = (uint8_t)(c >> 8);
	ip[11] = (uint8_t)c;
	l4[0] = (uint8_t)(sport >> 8);
	l4[1] = (uint8_t)sport;
	l4[2] = (uint8_t)(dport >> 8);
	l4[3] = (uint8_t)dport;
	if (proto == 6)
		l4[12] = 5 << 4;
	return 14 + 20 + l4len + 6;
}

int rig_ipv4_csum_ok(const uint8_t *frame)
{
	return csum(frame + 14, 20) == 0;
}
