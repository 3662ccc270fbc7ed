// SPDX-License-Identifier: GPL-2.0-or-later
/* Example programs as images: see programs.h. */
#include <stddef.h>

#include "imgbuild.h"
#include "programs.h"

struct l3 {
	uint32_t eth, ipv4;
	uint32_t eth_dst, eth_src, eth_type;
	uint32_t ihl, ttl, proto, csum, src, dst;
};

/* Ethernet, then IPv4 (IHL * 4 bytes) when the EtherType says so. */
static void parse_l3(struct ib *b, struct l3 *h)
{
	h->eth = ib_header(b, 1, 14);
	h->ipv4 = ib_header(b, 2, 20);
	h->eth_dst = ib_field(b, 1, h->eth, 0, 48);
	h->eth_src = ib_field(b, 2, h->eth, 48, 48);
	h->eth_type = ib_field(b, 3, h->eth, 96, 16);
	h->ihl = ib_field(b, 4, h->ipv4, 4, 4);
	h->ttl = ib_field(b, 5, h->ipv4, 64, 8);
	h->proto = ib_field(b, 6, h->ipv4, 72, 8);
	h->csum = ib_field(b, 7, h->ipv4, 80, 16);
	h->src = ib_field(b, 8, h->ipv4, 96, 32);
	h->dst = ib_field(b, 9, h->ipv4, 128, 32);
	ib_header_len(b, h->ipv4, h->ihl, 4, 0, 60);
	ib_select(b, h->eth, h->eth_type, P4NIC_PARSE_ACCEPT);
	ib_transition(b, h->eth, 0x0800, 0xffff, h->ipv4);
}

static void ports(struct ib *b, uint32_t n)
{
	uint32_t p;

	for (p = 0; p < n; p++)
		ib_port(b, p, IFX(p));
}

/* An action whose whole body is "ret VERDICT". */
static uint32_t verdict_action(struct ib *b, uint32_t id, uint16_t verdict)
{
	ib_prog_begin(b);
	ib_ctl(b, P4NIC_OP_RET, P4NIC_CTL_VERDICT, verdict);
	return ib_action(b, id, 0, NULL, ib_prog_end(b));
}

/*
 * IPv4 router: fib (LPM on the destination) -> set_nh rewrites the MACs,
 * decrements the TTL with an incremental checksum update and sends out of
 * a port; TTL <= 1 goes to the host; a miss drops; non-IPv4 goes to host.
 */
uint8_t *program_router(uint32_t *len)
{
	static const uint16_t nh_w[] = { 48, 48, 32 };
	struct ib *b = ib_new(ROUTER_PIPEID);
	struct ib_table fib = { 0 };
	uint32_t set_nh, drop, to_host, m, ms, mc;
	struct l3 h;
	uint8_t *img;

	parse_l3(b, &h);
	ports(b, 4);
	m = ib_metadata(b, 1, 32, 0);

	ib_prog_begin(b);
	ib_branch(b, P4NIC_OP_BLE, ib_fieldop(b, h.ttl), ib_const(b, 8, 1),
		  P4NIC_CTL_VERDICT, 0 /* ok: the host answers */,
		  P4NIC_CTL_PIPE, 0);
	ib_insn(b, P4NIC_OP_SET, OPS(ib_fieldop(b, h.eth_dst),
				     ib_paramop(b, 0, 48)));
	ib_insn(b, P4NIC_OP_SET, OPS(ib_fieldop(b, h.eth_src),
				     ib_paramop(b, 1, 48)));
	ib_insn(b, P4NIC_OP_SUB, OPS(ib_fieldop(b, h.ttl), ib_fieldop(b, h.ttl),
				     ib_const(b, 8, 1)));
	/* TTL is the high byte of its checksum word: add 0x100, fold. */
	ms = ib_metaop(b, m);
	ib_insn(b, P4NIC_OP_PLUS, OPS(ms, ib_fieldop(b, h.csum),
				      ib_const(b, 16, 0x100)));
	mc = ib_slice(b, ms, 16, 16);
	ib_insn(b, P4NIC_OP_PLUS, OPS(ib_fieldop(b, h.csum),
				      ib_slice(b, ms, 0, 15), mc));
	ib_insn(b, P4NIC_OP_SEND_PORT_EGRESS, OPS(ib_paramop(b, 2, 32)));
	set_nh = ib_action(b, ROUTER_SET_NH, 3, nh_w, ib_prog_end(b));
	drop = verdict_action(b, ROUTER_DROP, 2);
	to_host = verdict_action(b, ROUTER_TO_HOST, 0);

	fib.id = ROUTER_FIB;
	fib.type = P4NIC_TABLE_LPM;
	fib.key_bits = 32;
	fib.max_entries = 1u << 16;
	fib.nkeys = 1;
	fib.keys[0] = ib_fieldop(b, h.dst);
	fib.nacts = 3;
	fib.acts[0] = set_nh;
	fib.acts[1] = drop;
	fib.acts[2] = to_host;
	fib.hit.action = P4NIC_NONE;
	fib.miss.action = drop;
	ib_table(b, &fib);

	ib_prog_begin(b);
	ib_branch(b, P4NIC_OP_BNE, ib_fieldop(b, h.eth_type),
		  ib_const(b, 16, 0x0800), P4NIC_CTL_VERDICT, 0,
		  P4NIC_CTL_PIPE, 0);
	ib_insn(b, P4NIC_OP_TABLEAPPLY, OPS(ib_tableop(b, 0)));
	ib_pipeline(b, h.eth, ib_prog_end(b));
	img = ib_finish(b, len);
	ib_free(b);
	return img;
}

/*
 * ACL and forwarding: count the packet in a register, a ternary ACL on
 * (src, dst, proto, L4 destination port) permits or denies, then an exact
 * table on the destination MAC sends (and maybe mirrors) or gives the
 * packet to the host.
 */
uint8_t *program_acl(uint32_t *len)
{
	static const uint16_t w1[] = { 32 }, w2[] = { 32, 32 };
	struct ib *b = ib_new(ACL_PIPEID);
	struct ib_table acl = { 0 }, fwd = { 0 };
	uint32_t tcp, udp, tcp_doff, tcp_dport, udp_dport, dport, reg;
	uint32_t permit, deny, send, msend, to_host, r0;
	struct l3 h;
	uint8_t *img;

	parse_l3(b, &h);
	tcp = ib_header(b, 3, 20);
	udp = ib_header(b, 4, 8);
	tcp_dport = ib_field(b, 10, tcp, 16, 16);
	tcp_doff = ib_field(b, 11, tcp, 96, 4);
	udp_dport = ib_field(b, 12, udp, 16, 16);
	ib_header_len(b, tcp, tcp_doff, 4, 0, 60);
	ib_select(b, h.ipv4, h.proto, P4NIC_PARSE_ACCEPT);
	ib_transition(b, h.ipv4, 6, 0xff, tcp);
	ib_transition(b, h.ipv4, 17, 0xff, udp);
	ports(b, 4);
	dport = ib_metadata(b, 1, 16, 0);
	reg = ib_register(b, ACL_REG, 64, 4);

	permit = verdict_action(b, ACL_PERMIT, 3);
	deny = verdict_action(b, ACL_DENY, 2);
	to_host = verdict_action(b, ACL_TO_HOST, 0);
	ib_prog_begin(b);
	ib_insn(b, P4NIC_OP_SEND_PORT_EGRESS, OPS(ib_paramop(b, 0, 32)));
	send = ib_action(b, ACL_SEND, 1, w1, ib_prog_end(b));
	ib_prog_begin(b);
	ib_insn(b, P4NIC_OP_MIRROR_PORT_EGRESS, OPS(ib_paramop(b, 1, 32)));
	ib_insn(b, P4NIC_OP_SEND_PORT_EGRESS, OPS(ib_paramop(b, 0, 32)));
	msend = ib_action(b, ACL_MIRROR_SEND, 2, w2, ib_prog_end(b));

	/* Key preaction: the L4 port from whichever header is there. */
	ib_prog_begin(b);
	ib_branch(b, P4NIC_OP_BEQ, ib_fieldop(b, h.proto), ib_const(b, 8, 6),
		  P4NIC_CTL_PIPE, 0, P4NIC_CTL_JUMP, 2);
	ib_insn(b, P4NIC_OP_SET, OPS(ib_metaop(b, dport),
				     ib_fieldop(b, tcp_dport)));
	ib_ctl(b, P4NIC_OP_RET, P4NIC_CTL_PIPE, 0);
	ib_insn(b, P4NIC_OP_SET, OPS(ib_metaop(b, dport),
				     ib_fieldop(b, udp_dport)));
	acl.pre = ib_prog_end(b);
	acl.id = ACL_TABLE;
	acl.type = P4NIC_TABLE_TERNARY;
	acl.key_bits = 88;
	acl.max_entries = 4096;
	acl.max_masks = 16;
	acl.nkeys = 4;
	acl.keys[0] = ib_fieldop(b, h.src);
	acl.keys[1] = ib_fieldop(b, h.dst);
	acl.keys[2] = ib_fieldop(b, h.proto);
	acl.keys[3] = ib_metaop(b, dport);
	acl.nacts = 2;
	acl.acts[0] = permit;
	acl.acts[1] = deny;
	acl.hit.action = P4NIC_NONE;
	acl.miss.action = permit;
	ib_table(b, &acl);

	fwd.id = ACL_FWD;
	fwd.type = P4NIC_TABLE_EXACT;
	fwd.key_bits = 48;
	fwd.max_entries = 1024;
	fwd.nkeys = 1;
	fwd.keys[0] = ib_fieldop(b, h.eth_dst);
	fwd.nacts = 2;
	fwd.acts[0] = send;
	fwd.acts[1] = msend;
	fwd.hit.action = P4NIC_NONE;
	fwd.miss.action = to_host;
	ib_table(b, &fwd);

	ib_prog_begin(b);
	r0 = ib_regop(b, reg, 0);
	ib_insn(b, P4NIC_OP_PLUS, OPS(r0, r0, ib_const(b, 1, 1)));
	ib_insn(b, P4NIC_OP_TABLEAPPLY, OPS(ib_tableop(b, 0)));
	ib_insn(b, P4NIC_OP_TABLEAPPLY, OPS(ib_tableop(b, 1)));
	ib_pipeline(b, h.eth, ib_prog_end(b));
	img = ib_finish(b, len);
	ib_free(b);
	return img;
}

/*
 * Arithmetic and control: every operation's result lands in the Ethernet
 * addresses of a packet sent out of port 1, so a test reads them back.
 *   dst = (5 - 7)[16] ++ ((0xff00 ^ 0x0ff0) & 0x3c3c | 1)[16] ++ pktlen[16]
 *   src = (a[0-15] ++ (a + 0xf0000000)[16-31] ++ 0xab)[40 bits, 48 wide]
 * with a = 0x12345678; a signed compare (-2 < 1) must skip a poison
 * write, and a packet from any port but 0 is dropped.
 */
uint8_t *program_calc(uint32_t *len)
{
	static const uint16_t w16[] = { 16 };
	struct ib *b = ib_new(CALC_PIPEID);
	uint32_t eth, dst, src, ma, mb, mc, md, me, msig, set_low;
	uint32_t a, bb, c, d, e, s;
	uint8_t *img;

	eth = ib_header(b, 1, 14);
	dst = ib_field(b, 1, eth, 0, 48);
	src = ib_field(b, 2, eth, 48, 48);
	ports(b, 2);
	ma = ib_metadata(b, 1, 32, 0);
	mb = ib_metadata(b, 2, 32, 0);
	mc = ib_metadata(b, 3, 64, 0);
	md = ib_metadata(b, 4, 16, 0);
	me = ib_metadata(b, 5, 16, 0);
	msig = ib_metadata(b, 6, 8, P4NIC_TYPE_SIGNED);

	ib_prog_begin(b);
	ib_insn(b, P4NIC_OP_SET, OPS(ib_slice(b, ib_fieldop(b, dst), 0, 15),
				     ib_paramop(b, 0, 16)));
	set_low = ib_action(b, CALC_SET_LOW, 1, w16, ib_prog_end(b));

	ib_prog_begin(b);
	a = ib_metaop(b, ma);
	bb = ib_metaop(b, mb);
	c = ib_metaop(b, mc);
	d = ib_metaop(b, md);
	e = ib_metaop(b, me);
	s = ib_metaop(b, msig);
	ib_insn(b, P4NIC_OP_SET, OPS(a, ib_const(b, 32, 0x12345678)));
	ib_insn(b, P4NIC_OP_PLUS, OPS(bb, a, ib_const(b, 32, 0xf0000000)));
	ib_insn(b, P4NIC_OP_CONCAT, OPS(c, ib_slice(b, a, 0, 15),
					ib_slice(b, bb, 16, 31),
					ib_const(b, 8, 0xab)));
	ib_insn(b, P4NIC_OP_SET, OPS(ib_fieldop(b, src), ib_slice(b, c, 0, 39)));
	ib_insn(b, P4NIC_OP_SET, OPS(s, ib_const(b, 8, 0xfe)));
	ib_branch(b, P4NIC_OP_BLT, s, ib_sconst(b, 8, 1),
		  P4NIC_CTL_JUMP, 2, P4NIC_CTL_PIPE, 0);
	ib_insn(b, P4NIC_OP_SET, OPS(ib_fieldop(b, dst),
				     ib_const(b, 48, 0xeeeeeeeeeeee)));
	ib_insn(b, P4NIC_OP_SUB, OPS(d, ib_const(b, 16, 5), ib_const(b, 16, 7)));
	ib_insn(b, P4NIC_OP_SET, OPS(ib_slice(b, ib_fieldop(b, dst), 32, 47), d));
	ib_insn(b, P4NIC_OP_BXOR, OPS(e, ib_const(b, 16, 0xff00),
				      ib_const(b, 16, 0x0ff0)));
	ib_insn(b, P4NIC_OP_BAND, OPS(e, e, ib_const(b, 16, 0x3c3c)));
	ib_insn(b, P4NIC_OP_BOR, OPS(e, e, ib_const(b, 16, 1)));
	ib_insn(b, P4NIC_OP_SET, OPS(ib_slice(b, ib_fieldop(b, dst), 16, 31), e));
	ib_ctl(b, P4NIC_OP_LABEL, P4NIC_CTL_PIPE, 0);
	ib_insn(b, P4NIC_OP_PRINT, OPS(e));
	ib_insn(b, P4NIC_OP_ACT, OPS(ib_actionop(b, set_low),
				     ib_slice(b, ib_kmetaop(b, P4NIC_KMETA_PKTLEN),
					      0, 15)));
	ib_branch(b, P4NIC_OP_BEQ, ib_kmetaop(b, P4NIC_KMETA_IIF),
		  ib_const(b, 32, IFX(0)), P4NIC_CTL_PIPE, 0,
		  P4NIC_CTL_VERDICT, 2);
	ib_insn(b, P4NIC_OP_SEND_PORT_EGRESS, OPS(ib_const(b, 32, IFX(1))));
	ib_pipeline(b, eth, ib_prog_end(b));
	img = ib_finish(b, len);
	ib_free(b);
	return img;
}

/*
 * VLAN push and pop by port: an exact table on (in port, VLAN id; 0 for
 * an untagged frame) either tags the frame (setvalid vlan, the old
 * EtherType moves into the tag) and sends it out of a trunk port, or
 * untags it (setinvalid vlan) and sends it out of an access port; a miss
 * drops.
 */
uint8_t *program_vlan(uint32_t *len)
{
	static const uint16_t push_w[] = { 12, 32 }, pop_w[] = { 32 };
	struct ib *b = ib_new(VLAN_PIPEID);
	struct ib_table t = { 0 };
	uint32_t eth, vlan, eth_type, vid, vlan_type, push, pop, drop;
	uint8_t *img;

	eth = ib_header(b, 1, 14);
	vlan = ib_header(b, 2, 4);
	ib_field(b, 1, eth, 0, 48);
	ib_field(b, 2, eth, 48, 48);
	eth_type = ib_field(b, 3, eth, 96, 16);
	vid = ib_field(b, 4, vlan, 4, 12);
	vlan_type = ib_field(b, 5, vlan, 16, 16);
	ib_select(b, eth, eth_type, P4NIC_PARSE_ACCEPT);
	ib_transition(b, eth, 0x8100, 0xffff, vlan);
	ports(b, 4);

	ib_prog_begin(b);
	ib_insn(b, P4NIC_OP_SETVALID, OPS(ib_headerop(b, vlan)));
	ib_insn(b, P4NIC_OP_SET, OPS(ib_fieldop(b, vid), ib_paramop(b, 0, 12)));
	ib_insn(b, P4NIC_OP_SET, OPS(ib_fieldop(b, vlan_type),
				     ib_fieldop(b, eth_type)));
	ib_insn(b, P4NIC_OP_SET, OPS(ib_fieldop(b, eth_type),
				     ib_const(b, 16, 0x8100)));
	ib_insn(b, P4NIC_OP_SEND_PORT_EGRESS, OPS(ib_paramop(b, 1, 32)));
	push = ib_action(b, VLAN_PUSH, 2, push_w, ib_prog_end(b));

	ib_prog_begin(b);
	ib_insn(b, P4NIC_OP_SET, OPS(ib_fieldop(b, eth_type),
				     ib_fieldop(b, vlan_type)));
	ib_insn(b, P4NIC_OP_SETINVALID, OPS(ib_headerop(b, vlan)));
	ib_insn(b, P4NIC_OP_SEND_PORT_EGRESS, OPS(ib_paramop(b, 0, 32)));
	pop = ib_action(b, VLAN_POP, 1, pop_w, ib_prog_end(b));
	drop = verdict_action(b, VLAN_DROP, 2);

	t.id = VLAN_PORT;
	t.type = P4NIC_TABLE_EXACT;
	t.key_bits = 44;
	t.max_entries = 256;
	t.nkeys = 2;
	t.keys[0] = ib_kmetaop(b, P4NIC_KMETA_IIF);
	t.keys[1] = ib_fieldop(b, vid);
	t.nacts = 3;
	t.acts[0] = push;
	t.acts[1] = pop;
	t.acts[2] = drop;
	t.hit.action = P4NIC_NONE;
	t.miss.action = drop;
	ib_table(b, &t);

	ib_prog_begin(b);
	ib_insn(b, P4NIC_OP_TABLEAPPLY, OPS(ib_tableop(b, 0)));
	ib_pipeline(b, eth, ib_prog_end(b));
	img = ib_finish(b, len);
	ib_free(b);
	return img;
}

/* Hostile images: legal, each built to reach a limit of the engine. */

/* An exact table on eth.dst with no actions: a miss does nothing. */
static uint32_t plain_table(struct ib *b, uint32_t id, uint32_t dst,
			    struct ib_span pre)
{
	struct ib_table t = { 0 };

	t.id = id;
	t.type = P4NIC_TABLE_EXACT;
	t.key_bits = 48;
	t.max_entries = 4;
	t.nkeys = 1;
	t.keys[0] = ib_fieldop(b, dst);
	t.hit.action = P4NIC_NONE;
	t.miss.action = P4NIC_NONE;
	t.pre = pre;
	return ib_table(b, &t);
}

/*
 * 31 applies of table A, then table B, whose pre program applies A: the
 * 32nd hit is recorded inside B's apply, after B checked the hit list had
 * room, and B's own would be the 33rd.
 */
uint8_t *program_hits(uint32_t *len)
{
	struct ib *b = ib_new(HITS_PIPEID);
	uint32_t eth, dst, a, i;
	struct ib_span none = { 0, 0 }, pre;
	uint8_t *img;

	eth = ib_header(b, 1, 14);
	dst = ib_field(b, 1, eth, 0, 48);
	ib_port(b, 0, IFX(0));
	ib_port(b, 1, IFX(1));
	a = plain_table(b, HITS_A, dst, none);
	ib_prog_begin(b);
	ib_insn(b, P4NIC_OP_TABLEAPPLY, OPS(ib_tableop(b, a)));
	pre = ib_prog_end(b);
	plain_table(b, HITS_B, dst, pre);

	ib_prog_begin(b);
	for (i = 0; i < 31; i++)
		ib_insn(b, P4NIC_OP_TABLEAPPLY, OPS(ib_tableop(b, 0)));
	ib_insn(b, P4NIC_OP_TABLEAPPLY, OPS(ib_tableop(b, 1)));
	ib_insn(b, P4NIC_OP_SEND_PORT_EGRESS, OPS(ib_const(b, 32, IFX(1))));
	ib_pipeline(b, eth, ib_prog_end(b));
	img = ib_finish(b, len);
	ib_free(b);
	return img;
}

/* A write to the top byte of a 512-bit key, from the main program. */
uint8_t *program_wide_key(uint32_t *len)
{
	struct ib *b = ib_new(WIDE_KEY_PIPEID);
	struct ib_table t = { 0 };
	uint32_t eth, i, k;
	uint8_t *img;

	eth = ib_header(b, 1, 14);
	ib_field(b, 1, eth, 0, 48);
	ib_port(b, 0, IFX(0));
	ib_port(b, 1, IFX(1));
	t.id = WIDE_KEY_TABLE;
	t.type = P4NIC_TABLE_EXACT;
	t.key_bits = 512;
	t.max_entries = 4;
	t.nkeys = 4;
	for (i = 0; i < 4; i++)
		t.keys[i] = ib_const(b, 128, i);
	t.hit.action = P4NIC_NONE;
	t.miss.action = P4NIC_NONE;
	ib_table(b, &t);

	ib_prog_begin(b);
	k = ib_opnd(b, P4NIC_OPND_KEY, 0, 512, 504, 511, 0, 0);
	ib_insn(b, P4NIC_OP_SET, OPS(k, ib_const(b, 8, 0xab)));
	ib_insn(b, P4NIC_OP_TABLEAPPLY, OPS(ib_tableop(b, 0)));
	ib_insn(b, P4NIC_OP_SEND_PORT_EGRESS, OPS(ib_const(b, 32, IFX(1))));
	ib_pipeline(b, eth, ib_prog_end(b));
	img = ib_finish(b, len);
	ib_free(b);
	return img;
}
