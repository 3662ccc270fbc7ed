// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The packet engine: parse graph, command interpreter, table apply and the
 * verdict, with P4TC's semantics (see offload-api/SPEC.md, "Datapath").
 *
 * A packet runs on a working copy.  Whatever it does (entry counters,
 * register writes, mirrors, header edits) takes effect only if the device
 * owns the verdict; when the packet must go to the host for the software
 * pipeline, every effect is undone and the host gets the original bytes,
 * so that a packet is never processed, counted or mirrored twice.
 */
#include <string.h>

#include "fw.h"
#include "p4fw/exact.h"
#include "p4fw/lpm.h"
#include "p4fw/ternary.h"

/* Internal verdicts: how a program ended. */
enum {
	V_PIPE,		/* ran to its end: go on */
	V_OK,		/* TC_ACT_OK */
	V_DROP,		/* TC_ACT_SHOT */
	V_REDIRECT,	/* send_port_egress */
	V_PUNT,		/* give the original to the host */
};

#define TC_ACT_OK	0
#define TC_ACT_SHOT	2
#define TC_ACT_PIPE	3

u128 fw_get_bits(const uint8_t *p, uint32_t bitpos, uint32_t width)
{
	const uint8_t *b = p + bitpos / 8;
	uint32_t lead = bitpos % 8, nbytes = (lead + width + 7) / 8, i;
	u128 x = 0;

	/* Most fields fit a 64-bit window: read just their bytes. */
	if (nbytes <= 8) {
		uint64_t w = 0;

		for (i = 0; i < nbytes; i++)
			w = w << 8 | b[i];
		w >>= nbytes * 8 - lead - width;
		return width == 64 ? w : w & ((1ull << width) - 1);
	}
	/* The 128 bits from BITPOS on, left-aligned, then the top WIDTH. */
	for (i = 0; i < 16; i++)
		x = x << 8 | (i < nbytes ? b[i] : 0);
	if (lead)
		x = x << lead | (nbytes > 16 ? b[16] >> (8 - lead) : 0);
	return x >> (128 - width);
}

void fw_set_bits(uint8_t *p, uint32_t bitpos, uint32_t width, u128 v)
{
	uint32_t i;

	if (bitpos % 8 == 0 && width % 8 == 0) {
		for (i = width / 8; i-- > 0; v >>= 8)
			p[bitpos / 8 + i] = (uint8_t)v;
		return;
	}
	for (i = 0; i < width; i++) {
		uint32_t bit = bitpos + width - 1 - i;
		uint8_t m = (uint8_t)(0x80 >> bit % 8);

		if (v >> i & 1)
			p[bit / 8] |= m;
		else
			p[bit / 8] &= (uint8_t)~m;
	}
}

static void punt(struct fw_ctx *c, uint32_t reason, uint32_t info)
{
	if (!c->punt_reason) {
		c->punt_reason = reason;
		c->punt_info = info;
	}
}

/* Whole container value of a value operand. */
static inline u128 container(const struct fw_pipeline *p, struct fw_ctx *c,
		      const struct fw_operand *o, const u128 *params)
{

	switch (o->kind) {
	case P4NIC_OPND_CONST:
		return p->consts[o->index];
	case P4NIC_OPND_METADATA:
		return c->meta[o->index];
	case P4NIC_OPND_KMETA:
		if (c->kmeta_bad & 1u << o->index)
			punt(c, P4NIC_RX_UNSUPPORTED, 0);
		return c->kmeta[o->index];
	case P4NIC_OPND_FIELD:
		if (!(c->valid & 1u << o->header))
			return 0;
		return fw_get_bits(c->pkt, c->hdr_off[o->header] * 8 +
				   o->hdr_bit, o->container_bits);
	case P4NIC_OPND_PARAM:
		return params[o->index];
	case P4NIC_OPND_REGISTER:
		return p->regs[o->index].cells[o->elem];
	case P4NIC_OPND_RESULT:
		return o->index == P4NIC_RESULT_HIT ? c->hit : !c->hit;
	default:
		return 0;
	}
}

static inline u128 rd(const struct fw_pipeline *p, struct fw_ctx *c,
		      const struct fw_operand *o, const u128 *params)
{
	if (o->whole && o->kind != P4NIC_OPND_KEY)
		return container(p, c, o, params);
	if (o->kind == P4NIC_OPND_KEY)
		return fw_get_bits(c->keys[o->index], o->bit_start,
				   opnd_width(o));
	return container(p, c, o, params) >> o->bit_start &
	       fw_mask(opnd_width(o));
}

static __int128 rd_signed(const struct fw_pipeline *p, struct fw_ctx *c,
			  const struct fw_operand *o, const u128 *params)
{
	uint32_t w = opnd_width(o);
	u128 v = rd(p, c, o, params);

	if (w < 128 && v >> (w - 1) & 1)
		v |= ~fw_mask(w);
	return (__int128)v;
}

/* Write V (truncated to the operand's width); false if it must punt. */
static bool wr(const struct fw_pipeline *p, struct fw_ctx *c,
	       const struct fw_operand *o, u128 v)
{
	uint32_t w = opnd_width(o);
	u128 m, *cell;

	v &= fw_mask(w);
	switch (o->kind) {
	case P4NIC_OPND_METADATA:
		cell = &c->meta[o->index];
		break;
	case P4NIC_OPND_KMETA:
		cell = &c->kmeta[o->index];
		break;
	case P4NIC_OPND_KEY:
		fw_set_bits(c->keys[o->index], o->bit_start, w, v);
		return true;
	case P4NIC_OPND_FIELD:
		/* Writing a header the packet does not have does nothing. */
		if (c->valid & 1u << o->header) {
			u128 old = o->whole ? 0 : container(p, c, o, NULL);

			m = fw_mask(w) << o->bit_start;
			fw_set_bits(c->pkt, c->hdr_off[o->header] * 8 +
				    o->hdr_bit, o->container_bits,
				    (old & ~m) | v << o->bit_start);
		}
		return true;
	case P4NIC_OPND_REGISTER:
		cell = &p->regs[o->index].cells[o->elem];
		if (c->num_undo == FW_MAX_UNDO) {
			punt(c, P4NIC_RX_UNSUPPORTED, 0);
			return false;
		}
		c->undo[c->num_undo++] = (struct fw_undo){ cell, *cell };
		break;
	default:
		return false;	/* the loader allows no other */
	}
	/* Containers other than keys are at most 128 bits: so is the shift. */
	m = fw_mask(w) << o->bit_start;
	*cell = (*cell & ~m) | v << o->bit_start;
	return true;
}

static int run(struct p4fw *fw, struct fw_span prog, const u128 *params);

static int call_action(struct p4fw *fw, uint32_t action, const u128 *args)
{
	struct fw_ctx *c = &fw->ctx;
	int v;

	if (c->depth >= FW_MAX_DEPTH) {
		punt(c, P4NIC_RX_UNSUPPORTED, 0);
		return V_PUNT;
	}
	c->depth++;
	v = run(fw, fw->pipe->actions[action].prog, args);
	c->depth--;
	return v;
}

static int lookup(const struct fw_table *t, const uint8_t *key,
		  uint32_t *handle)
{
	switch (t->type) {
	case P4NIC_TABLE_EXACT:
		return p4fw_exact_lookup(t->exact, key, handle);
	case P4NIC_TABLE_LPM:
		return p4fw_lpm_lookup(t->lpm, key, handle, NULL);
	default:
		return p4fw_ternary_lookup(t->ternary, key, handle, NULL);
	}
}

/*
 * tableapply: preactions, key, lookup, the hit entry's action (or the
 * default hit action) or the default miss action, postactions.
 */
static int apply_table(struct p4fw *fw, uint32_t ti)
{
	const struct fw_pipeline *p = fw->pipe;
	const struct fw_table *t = &p->tables[ti];
	struct fw_ctx *c = &fw->ctx;
	uint8_t *key = c->keys[ti];
	const struct fw_actref *ref = NULL;
	const struct fw_entry *e = NULL;
	uint32_t i, pos = 0, handle = P4NIC_NONE;
	int v;

	if (c->depth >= FW_MAX_DEPTH || c->num_hits >= FW_MAX_HITS) {
		punt(c, P4NIC_RX_UNSUPPORTED, 0);
		return V_PUNT;
	}
	c->depth++;
	v = run(fw, t->pre, NULL);
	if (v != V_PIPE)
		goto out;

	memset(key, 0, t->key_bytes);
	for (i = 0; i < t->key.count; i++) {
		const struct fw_operand *o = &p->opnds[p->keycomps[t->key.first + i]];
		uint32_t w = opnd_width(o);

		fw_set_bits(key, pos, w, rd(p, c, o, NULL));
		pos += w;
	}
	if (c->punt_reason) {
		v = V_PUNT;
		goto out;
	}
	if (t->miss_mode == P4NIC_LOOKUP_TO_HOST) {
		/* the host has entries that may beat ours: it decides */
		punt(c, P4NIC_RX_TABLE_MISS, t->id);
		v = V_PUNT;
		goto out;
	}
	c->hit = lookup(t, key, &handle) == 0;
	if (c->hit) {
		e = &t->entries[handle];
		ref = e->action == P4NIC_NONE ? &t->dflt[P4NIC_DEFAULT_HIT] :
		      NULL;
	} else if (t->miss_mode == P4NIC_MISS_TO_HOST) {
		punt(c, P4NIC_RX_TABLE_MISS, t->id);
		v = V_PUNT;
		goto out;
	} else {
		ref = &t->dflt[P4NIC_DEFAULT_MISS];
	}
	/* The pre program may have applied tables and filled the list. */
	if (c->num_hits >= FW_MAX_HITS) {
		punt(c, P4NIC_RX_UNSUPPORTED, 0);
		v = V_PUNT;
		goto out;
	}
	c->hits[c->num_hits++] = (struct fw_hit){ ti, c->hit ? handle :
						  P4NIC_NONE, c->len };
	if (e && !ref)
		v = call_action(fw, e->action, e->params);
	else if (ref->action != P4NIC_NONE)
		v = call_action(fw, ref->action, ref->args);
	if (v == V_PIPE)
		v = run(fw, t->post, NULL);
out:
	c->depth--;
	return v;
}

static bool compare(uint8_t op, __int128 a, __int128 b, bool is_signed)
{
	u128 ua = (u128)a, ub = (u128)b;

	switch (op) {
	case P4NIC_OP_BEQ:
		return a == b;
	case P4NIC_OP_BNE:
		return a != b;
	case P4NIC_OP_BLT:
		return is_signed ? a < b : ua < ub;
	case P4NIC_OP_BLE:
		return is_signed ? a <= b : ua <= ub;
	case P4NIC_OP_BGT:
		return is_signed ? a > b : ua > ub;
	default:
		return is_signed ? a >= b : ua >= ub;
	}
}

/* A branch's outcome: the next pc, or an internal verdict (negative). */
static int control(struct fw_ctx *c, uint8_t ctl, uint16_t arg,
		   uint32_t *pc)
{
	switch (ctl) {
	case P4NIC_CTL_JUMP:
		*pc += arg;
		return V_PIPE;
	case P4NIC_CTL_VERDICT:
		switch (arg) {
		case TC_ACT_PIPE:
			break;
		case TC_ACT_OK:
			return V_OK;
		case TC_ACT_SHOT:
			return V_DROP;
		default:
			/* reclassify, stolen, trap, goto chain: software */
			punt(c, P4NIC_RX_UNSUPPORTED, 0);
			return V_PUNT;
		}
		/* fall through */
	default:
		*pc += 1;
		return V_PIPE;
	}
}

/* The NIC port the kernel knows as IFINDEX, or P4NIC_NONE. */
static uint32_t port_of(const struct p4fw *fw, u128 ifindex)
{
	uint32_t i;

	for (i = 0; ifindex && i < fw->num_ports; i++)
		if (fw->pipe->ports[i].ifindex == ifindex)
			return i;
	return P4NIC_NONE;
}

static int mirror(struct p4fw *fw, uint32_t port)
{
	struct fw_ctx *c = &fw->ctx;

	if (port == P4NIC_NONE || c->num_mirrors == FW_MAX_MIRRORS) {
		punt(c, P4NIC_RX_UNSUPPORTED, 0);
		return V_PUNT;
	}
	memcpy(fw->mirror_buf[c->num_mirrors], c->pkt, c->len);
	c->mirror_port[c->num_mirrors] = port;
	c->mirror_len[c->num_mirrors] = c->len;
	c->num_mirrors++;
	return V_PIPE;
}

/* Whether the parse graph goes from header P straight to header H. */
static bool leads_to(const struct fw_pipeline *p, uint32_t from, uint32_t h)
{
	const struct fw_header *hd = &p->headers[from];
	uint32_t i;

	if (hd->default_next == h)
		return true;
	for (i = 0; i < hd->trans.count; i++)
		if (p->trans[hd->trans.first + i].next == h)
			return true;
	return false;
}

/* Headers at or after byte AT move by DELTA bytes. */
static void shift_headers(struct fw_ctx *c, uint32_t at, int32_t delta)
{
	uint32_t v = c->valid, i;

	for (i = 0; v; i++, v >>= 1)
		if (v & 1 && c->hdr_off[i] >= at)
			c->hdr_off[i] = (uint32_t)((int32_t)c->hdr_off[i] + delta);
}

/*
 * setvalid: a header the packet lacks goes in, fixed_len bytes of zeros,
 * right after the last header present that the parse graph leads from to
 * it; with none, nothing happens (as a write to an absent header).  A
 * frame that would outgrow P4NIC_PKT_MAX goes to the host, whose
 * software has no such limit.
 */
static int set_valid(struct p4fw *fw, uint32_t h)
{
	const struct fw_pipeline *p = fw->pipe;
	struct fw_ctx *c = &fw->ctx;
	uint32_t i, at = 0, len = p->headers[h].fixed_len;
	bool found = false;

	if (c->valid & 1u << h)
		return V_PIPE;
	for (i = 0; i < p->num_headers; i++) {
		uint32_t end = c->hdr_off[i] + c->hdr_len[i];

		if (c->valid & 1u << i && leads_to(p, i, h) &&
		    (!found || end > at)) {
			at = end;
			found = true;
		}
	}
	if (!found)
		return V_PIPE;
	if (c->len + len > P4NIC_PKT_MAX) {
		punt(c, P4NIC_RX_UNSUPPORTED, 0);
		return V_PUNT;
	}
	memmove(c->pkt + at + len, c->pkt + at, c->len - at);
	memset(c->pkt + at, 0, len);
	c->len += len;
	shift_headers(c, at, (int32_t)len);
	c->hdr_off[h] = at;
	c->hdr_len[h] = len;
	c->valid |= 1u << h;
	c->kmeta[P4NIC_KMETA_PKTLEN] = c->len;
	return V_PIPE;
}

/* setinvalid: a header the packet has goes out of it. */
static int set_invalid(struct p4fw *fw, uint32_t h)
{
	struct fw_ctx *c = &fw->ctx;
	uint32_t at, len;

	if (!(c->valid & 1u << h))
		return V_PIPE;
	at = c->hdr_off[h];
	len = c->hdr_len[h];
	memmove(c->pkt + at, c->pkt + at + len, c->len - at - len);
	c->len -= len;
	c->valid &= ~(1u << h);
	shift_headers(c, at + len, -(int32_t)len);
	c->kmeta[P4NIC_KMETA_PKTLEN] = c->len;
	return V_PIPE;
}

/* Run one program; PARAMS are the running action's (NULL elsewhere). */
static int run(struct p4fw *fw, struct fw_span prog, const u128 *params)
{
	const struct fw_pipeline *p = fw->pipe;
	struct fw_ctx *c = &fw->ctx;
	uint32_t pc = 0;

	while (pc < prog.count) {
		const struct fw_insn *in = &p->insns[prog.first + pc];
		const struct fw_operand *o = &p->opnds[in->opnds.first];
		u128 args[P4NIC_MAX_PARAMS], v = 0;
		uint32_t k;
		int r = V_PIPE;

		if (++c->steps > FW_MAX_STEPS) {
			punt(c, P4NIC_RX_UNSUPPORTED, 0);
			return V_PUNT;
		}
		switch (in->op) {
		case P4NIC_OP_SET:
			wr(p, c, &o[0], rd(p, c, &o[1], params));
			break;
		case P4NIC_OP_PLUS:
			wr(p, c, &o[0], rd(p, c, &o[1], params) +
			   rd(p, c, &o[2], params));
			break;
		case P4NIC_OP_SUB:
			wr(p, c, &o[0], rd(p, c, &o[1], params) -
			   rd(p, c, &o[2], params));
			break;
		case P4NIC_OP_BAND:
			wr(p, c, &o[0], rd(p, c, &o[1], params) &
			   rd(p, c, &o[2], params));
			break;
		case P4NIC_OP_BOR:
			wr(p, c, &o[0], rd(p, c, &o[1], params) |
			   rd(p, c, &o[2], params));
			break;
		case P4NIC_OP_BXOR:
			wr(p, c, &o[0], rd(p, c, &o[1], params) ^
			   rd(p, c, &o[2], params));
			break;
		case P4NIC_OP_CONCAT:
			for (k = 1; k < in->opnds.count; k++)
				v = v << opnd_width(&o[k]) |
				    rd(p, c, &o[k], params);
			wr(p, c, &o[0], v);
			break;
		case P4NIC_OP_BEQ: case P4NIC_OP_BNE: case P4NIC_OP_BLT:
		case P4NIC_OP_BLE: case P4NIC_OP_BGT: case P4NIC_OP_BGE: {
			bool sgn = (o[0].flags | o[1].flags) &
				   P4NIC_TYPE_SIGNED;
			bool taken;

			if (sgn)
				taken = compare(in->op,
						rd_signed(p, c, &o[0], params),
						rd_signed(p, c, &o[1], params),
						true);
			else
				taken = compare(in->op,
						(__int128)rd(p, c, &o[0], params),
						(__int128)rd(p, c, &o[1], params),
						false);
			if (c->punt_reason)
				return V_PUNT;
			r = taken ? control(c, in->then_ctl, in->then_arg, &pc) :
			    control(c, in->else_ctl, in->else_arg, &pc);
			if (r != V_PIPE)
				return r;
			continue;
		}
		case P4NIC_OP_JUMP:
			pc += in->then_arg;
			continue;
		case P4NIC_OP_ACT:
			for (k = 1; k < in->opnds.count; k++)
				args[k - 1] = rd(p, c, &o[k], params);
			r = call_action(fw, o[0].index, args);
			break;
		case P4NIC_OP_TABLEAPPLY:
			r = apply_table(fw, o[0].index);
			break;
		case P4NIC_OP_SEND_PORT_EGRESS:
			c->egress = port_of(fw, rd(p, c, &o[0], params));
			if (c->egress == P4NIC_NONE) {
				punt(c, P4NIC_RX_UNSUPPORTED, 0);
				return V_PUNT;
			}
			return V_REDIRECT;
		case P4NIC_OP_MIRROR_PORT_EGRESS:
			r = mirror(fw, port_of(fw, rd(p, c, &o[0], params)));
			break;
		case P4NIC_OP_SETVALID:
			r = set_valid(fw, o[0].index);
			break;
		case P4NIC_OP_SETINVALID:
			r = set_invalid(fw, o[0].index);
			break;
		case P4NIC_OP_RET:
			if (in->then_ctl == P4NIC_CTL_VERDICT) {
				r = control(c, in->then_ctl, in->then_arg, &pc);
				if (r != V_PIPE)
					return r;
			}
			return V_PIPE;
		default:	/* print, label: nothing to do in hardware */
			break;
		}
		if (c->punt_reason)
			return V_PUNT;
		if (r != V_PIPE)
			return r;
		pc++;
	}
	return V_PIPE;
}

/* Walk the parse graph; false if it rejects the packet. */
static bool parse(const struct fw_pipeline *p, struct fw_ctx *c)
{
	uint32_t h = p->start_header, off = 0;

	while (h < P4NIC_PARSE_ACCEPT && h != P4NIC_NONE) {
		const struct fw_header *hd = &p->headers[h];
		uint32_t hlen = hd->fixed_len, next = hd->default_next, i;

		if (off + hlen > c->len)
			return false;
		if (hd->len_field != P4NIC_NONE) {
			const struct fw_field *f = &p->fields[hd->len_field];
			uint64_t n = (uint64_t)fw_get_bits(c->pkt, off * 8 +
							   f->bit_offset,
							   f->bit_width);

			n = n * hd->len_mult + hd->len_add;
			if (n < hd->fixed_len || n > hd->max_len ||
			    off + n > c->len)
				return false;
			hlen = (uint32_t)n;
		}
		c->hdr_off[h] = off;
		c->hdr_len[h] = hlen;
		c->valid |= 1u << h;
		off += hlen;
		if (hd->sel_field != P4NIC_NONE) {
			const struct fw_field *f = &p->fields[hd->sel_field];
			u128 v = 0;

			if (c->valid & 1u << f->header)
				v = fw_get_bits(c->pkt, c->hdr_off[f->header] * 8 +
						f->bit_offset, f->bit_width);
			for (i = 0; i < hd->trans.count; i++) {
				const struct fw_transition *t =
					&p->trans[hd->trans.first + i];

				if ((v & t->mask) == (t->value & t->mask)) {
					next = t->next;
					break;
				}
			}
		}
		if (next == P4NIC_PARSE_REJECT)
			return false;
		h = next;
	}
	return true;
}

static void start_packet(struct p4fw *fw, uint32_t in_port, uint32_t len)
{
	const struct fw_pipeline *p = fw->pipe;
	struct fw_ctx *c = &fw->ctx;
	uint32_t i;

	c->pkt = fw->work;
	c->len = len;
	c->in_port = in_port;
	c->valid = 0;
	c->hit = false;
	c->steps = 0;
	c->depth = 0;
	c->punt_reason = 0;
	c->punt_info = 0;
	c->num_hits = 0;
	c->num_undo = 0;
	c->num_mirrors = 0;
	memset(c->meta, 0, p->num_meta * sizeof(c->meta[0]));
	for (i = 0; i < p->num_tables; i++)
		memset(c->keys[i], 0, p->tables[i].key_bytes);
	c->kmeta[P4NIC_KMETA_DATALEN] = 0;
	c->kmeta[P4NIC_KMETA_SKBMARK] = 0;
	c->kmeta[P4NIC_KMETA_TCINDEX] = 0;
	c->kmeta[P4NIC_KMETA_SKBPRIO] = 0;
	c->kmeta[P4NIC_KMETA_DIRECTION] = 0;
	c->kmeta[P4NIC_KMETA_PKTLEN] = len;
	c->kmeta[P4NIC_KMETA_IFINDEX] = p->ports[in_port].ifindex;
	c->kmeta[P4NIC_KMETA_IIF] = p->ports[in_port].ifindex;
	c->kmeta[P4NIC_KMETA_SKBPROTO] = len >= 14 ?
		(uint32_t)fw->work[12] << 8 | fw->work[13] : 0;
	/* Values the kernel would see differently: reading them punts. */
	c->kmeta_bad = 1u << P4NIC_KMETA_DATALEN;
	if (!p->ports[in_port].ifindex)
		c->kmeta_bad |= 1u << P4NIC_KMETA_IFINDEX |
				1u << P4NIC_KMETA_IIF;
	if (c->kmeta[P4NIC_KMETA_SKBPROTO] < 0x600)
		c->kmeta_bad |= 1u << P4NIC_KMETA_SKBPROTO;
}

/* Undo what the packet did: it goes to the host as it came. */
static void rollback(struct fw_ctx *c)
{
	while (c->num_undo) {
		c->num_undo--;
		*c->undo[c->num_undo].cell = c->undo[c->num_undo].old;
	}
	c->num_hits = 0;
	c->num_mirrors = 0;
}

static void commit(struct p4fw *fw, struct p4fw_verdict *v)
{
	struct fw_pipeline *p = fw->pipe;
	struct fw_ctx *c = &fw->ctx;
	uint32_t i;

	for (i = 0; i < c->num_hits; i++) {
		struct fw_table *t = &p->tables[c->hits[i].table];

		if (c->hits[i].handle == P4NIC_NONE) {
			t->misses++;
		} else {
			struct fw_entry *e = &t->entries[c->hits[i].handle];

			t->hits++;
			e->packets++;
			e->bytes += c->hits[i].len;
		}
	}
	for (i = 0; i < c->num_mirrors; i++) {
		v->mirrors[i].port = c->mirror_port[i];
		v->mirrors[i].len = c->mirror_len[i];
		v->mirrors[i].data = fw->mirror_buf[i];
		fw->ports[c->mirror_port[i]].tx_packets++;
		fw->ports[c->mirror_port[i]].tx_bytes += c->mirror_len[i];
	}
	v->num_mirrors = c->num_mirrors;
}

/**
 * p4fw_process() - run the loaded pipeline on a frame from the wire
 * @fw: the firmware
 * @in_port: the port it arrived on (below the device's port count)
 * @pkt: its bytes
 * @len: their count
 * @v: the verdict; its buffers stay valid until the next call
 */
void p4fw_process(struct p4fw *fw, uint32_t in_port, const uint8_t *pkt,
		  uint32_t len, struct p4fw_verdict *v)
{
	struct fw_ctx *c = &fw->ctx;
	struct fw_port *port;
	int r;

	v->kind = P4FW_HOST;
	v->reason = 0;
	v->info = 0;
	v->port = 0;
	v->num_mirrors = 0;
	v->data = pkt;
	v->len = len;
	if (in_port >= fw->num_ports || len > P4NIC_PKT_MAX) {
		/* The device never sends these; refuse to guess. */
		v->kind = P4FW_DROP;
		return;
	}
	port = &fw->ports[in_port];
	port->rx_packets++;
	port->rx_bytes += len;
	if (!fw->pipe || !port->pipeline) {
		v->reason = P4NIC_RX_NO_PIPELINE;
		goto host;
	}
	memcpy(fw->work, pkt, len);
	start_packet(fw, in_port, len);
	if (!parse(fw->pipe, c)) {
		v->reason = P4NIC_RX_PARSER;
		goto host;
	}
	r = run(fw, fw->pipe->prog, NULL);
	if (r == V_PUNT) {
		rollback(c);
		v->reason = c->punt_reason;
		v->info = c->punt_info;
		goto host;
	}
	commit(fw, v);
	v->data = fw->work;
	v->len = c->len;	/* setvalid and setinvalid change it */
	switch (r) {
	case V_DROP:
		v->kind = P4FW_DROP;
		port->dropped++;
		return;
	case V_REDIRECT:
		v->kind = P4FW_TX;
		v->port = c->egress;
		fw->ports[c->egress].tx_packets++;
		fw->ports[c->egress].tx_bytes += c->len;
		return;
	default:
		v->reason = P4NIC_RX_PASS;
		v->info = r == V_OK ? TC_ACT_OK : TC_ACT_PIPE;
		break;
	}
host:
	port->to_host++;
}
