// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * P4TC datapath: running action programs on packets.
 *
 * A run is one packet's trip through a pipeline's actions: its user
 * metadata (zero at the start), its parse state (the header offsets the
 * parse graph found, computed the first time a header field is used) and
 * the last table result.  Runs live in per-CPU scratch, one per nesting
 * level: an action started on a packet that already has a run on this CPU
 * in the same pipeline (an act command, the actions of one filter) joins
 * it; any other packet (a mirror's copy sent out by a program, say) gets
 * the next level.  The datapath allocates nothing and takes no lock but a
 * register's, and the programs it runs were checked when written
 * (p4tc_cmds.c), so every operand is known good and every program ends.
 *
 * Values are unsigned numbers of up to 128 bits (struct p4t_val), cut to
 * the width of the operand they come from; an operand's slice is taken
 * from its object's value.  Header fields are bit strings in network
 * order at their offset in their header, headers found by walking the
 * parse graph from the MAC header.  The parse graph only runs in sealed
 * pipelines, whose graph no longer changes: before that, fields read 0
 * and writing them does nothing, as for a header the packet does not have.
 */

#include <linux/filter.h>
#include <linux/if_vlan.h>
#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/percpu.h>
#include <linux/skbuff.h>
#include <net/act_api.h>
#include <net/p4tc.h>
#include <net/pkt_cls.h>
#include <net/sch_generic.h>

#define CREATE_TRACE_POINTS
#include <trace/events/p4tc.h>

#define P4TC_MAX_NEST 4		/* packets a CPU is running at once */
#define P4TC_MAX_CALLS 8	/* actions calling actions with arguments */
#define P4TC_MAX_APPLY 8	/* tables applied inside one another */
#define P4TC_MAX_ARGS (P4TC_CMD_MAX_OPNDS - 1)

struct p4tc_run {
	struct sk_buff *skb;
	const struct p4tc_pipeline *pipeline;
	u32 valid;				/* headers found, by slot */
	u16 hdr_off[P4TC_MAX_PARSE_HEADERS];	/* bytes from the MAC header */
	u16 hdr_len[P4TC_MAX_PARSE_HEADERS];
	const struct p4tc_header *hdr[P4TC_MAX_PARSE_HEADERS];
	bool parsed;
	bool reshaped;				/* a header went in or out */
	bool hit;
	bool handed_over;			/* the device's entries count */
	bool refused;				/* a write the skb cannot take */
	bool bpf_parsing;			/* an eBPF parser runs on it */
	u8 calls;
	u8 applies;
	u16 meta_dirty;		/* bytes of meta written: the next run clears */
	u8 meta[P4TC_MAXMETA_OFFSET / 8];
	u8 key[P4TC_MAX_KEYSZ / 8];		/* what the key action builds */
	u8 args[P4TC_MAX_CALLS][P4TC_MAX_ARGS * P4T_MAX_BITSZ / 8];
	struct p4tc_parser_buffer pbuf;		/* what an eBPF parser found */
};

struct p4tc_scratch {
	u32 depth;
	struct p4tc_run runs[P4TC_MAX_NEST];
};

static DEFINE_PER_CPU(struct p4tc_scratch, p4tc_scratch);

/* What a command sequence ends with */
#define P4TC_GO_ON	(-1)

/* ------------------------------------------------------------------ */
/* Packet bytes, counted from the MAC header                           */
/* ------------------------------------------------------------------ */

/* A program sees the frame as it is on the wire, as a device does.  The
 * stack takes a VLAN tag out of the frame (into skb->vlan_tci) before tc
 * ingress, and puts one there back only when it transmits: while the skb
 * has one, the program's bytes 12..15 are that tag (its protocol, then
 * its TCI) and the frame's bytes from 12 on follow it.  Writing them
 * changes the skb's tag.
 */
#define PKT_TAG_AT	(2 * ETH_ALEN)

static bool pkt_tagged(const struct sk_buff *skb)
{
	return skb_vlan_tag_present(skb);
}

static unsigned int pkt_len(const struct sk_buff *skb)
{
	return skb->len - skb_mac_offset(skb) +
	       (pkt_tagged(skb) ? VLAN_HLEN : 0);
}

/* The tag as it would be on the wire */
static void pkt_tag_bytes(const struct sk_buff *skb, u8 tag[VLAN_HLEN])
{
	put_unaligned_be16(ntohs(skb->vlan_proto), tag);
	put_unaligned_be16(skb_vlan_tag_get(skb), tag + 2);
}

/* Copy @n bytes of the frame as the wire has it, from @off, to @buf. */
static bool pkt_copy(const struct sk_buff *skb, u32 off, u32 n, u8 *buf)
{
	int mac = skb_mac_offset(skb);
	u8 tag[VLAN_HLEN];
	u32 k;

	if (off + n > pkt_len(skb))
		return false;
	if (!pkt_tagged(skb))
		return !skb_copy_bits(skb, mac + off, buf, n);
	pkt_tag_bytes(skb, tag);
	for (k = 0; k < n; ) {
		u32 at = off + k, len;

		if (at < PKT_TAG_AT) {
			len = min(n - k, PKT_TAG_AT - at);
			if (skb_copy_bits(skb, mac + at, buf + k, len))
				return false;
		} else if (at < PKT_TAG_AT + VLAN_HLEN) {
			len = min(n - k, PKT_TAG_AT + VLAN_HLEN - at);
			memcpy(buf + k, tag + at - PKT_TAG_AT, len);
		} else {
			len = n - k;
			if (skb_copy_bits(skb, mac + at - VLAN_HLEN, buf + k,
					  len))
				return false;
		}
		k += len;
	}
	return true;
}

/* @bits bits of the bytes at @p from bit @shift (0..7; bit 0 the most
 * significant of @p[0]), as a number: at most 16 bytes, as p4tc_cmds.c
 * refuses fields and key slices that would span 17.
 */
static void bytes_read_bits(const u8 *p, u32 shift, u16 bits,
			    struct p4t_val *v)
{
	u32 n = (shift + bits + 7) / 8, i;
	u64 x = 0;

	/* Most fields fit in 8 bytes: one 64-bit word, no 128-bit shifts */
	if (n <= 8) {
		for (i = 0; i < n; i++)
			x = x << 8 | p[i];
		x >>= n * 8 - shift - bits;
		v->w[0] = bits >= 64 ? x : x & ((1ULL << bits) - 1);
		v->w[1] = 0;
		return;
	}
	v->w[0] = 0;
	v->w[1] = 0;
	for (i = 0; i < n; i++) {
		p4t_val_shl(v, 8);
		v->w[0] |= p[i];
	}
	p4t_val_shr(v, n * 8 - shift - bits);
	p4t_val_trunc(v, bits);
}

/* Write the low @bits bits of @v there, keeping the bits around them. */
static void bytes_write_bits(u8 *p, u32 shift, u16 bits,
			     const struct p4t_val *v)
{
	u32 n = (shift + bits + 7) / 8, i;
	unsigned int low = n * 8 - shift - bits;
	struct p4t_val old, m, nv = *v;

	if (n <= 8) {
		u64 w = 0, mask;

		for (i = 0; i < n; i++)
			w = w << 8 | p[i];
		mask = (bits >= 64 ? ~0ULL : (1ULL << bits) - 1) << low;
		w = (w & ~mask) | ((v->w[0] << low) & mask);
		for (i = n; i--; w >>= 8)
			p[i] = w;
		return;
	}
	bytes_read_bits(p, 0, n * 8, &old);
	p4t_val_ones(&m, bits);
	p4t_val_shl(&m, low);
	p4t_val_trunc(&nv, bits);
	p4t_val_shl(&nv, low);
	old.w[0] = (old.w[0] & ~m.w[0]) | nv.w[0];
	old.w[1] = (old.w[1] & ~m.w[1]) | nv.w[1];
	for (i = n; i--; ) {
		p[i] = old.w[0];
		p4t_val_shr(&old, 8);
	}
}

/* @bits bits of the packet from bit @pos, as a number. */
static bool pkt_read_bits(const struct sk_buff *skb, u32 pos, u16 bits,
			  struct p4t_val *v)
{
	u32 first = pos / 8, n = (pos % 8 + bits + 7) / 8;
	u8 buf[P4T_MAX_BITSZ / 8 + 1];
	const u8 *p;

	if (first + n > pkt_len(skb))
		return false;
	if (pkt_tagged(skb)) {
		if (!pkt_copy(skb, first, n, buf))
			return false;
		p = buf;
	} else {
		p = skb_header_pointer(skb, skb_mac_offset(skb) + first, n,
				       buf);
		if (!p)
			return false;
	}
	bytes_read_bits(p, pos % 8, bits, v);
	return true;
}

/* Make @len bytes of the skb from @off (from the MAC header, no tag
 * counted) writable; their address.
 */
static u8 *pkt_writable(struct sk_buff *skb, u32 off, u32 len)
{
	int at = skb_mac_offset(skb) + off;

	if (off + len > skb->len - skb_mac_offset(skb))
		return NULL;
	if (at < 0) {
		/* before skb->data, as at ingress: unshare the head */
		if (skb_cow(skb, -at))
			return NULL;
		if (at + (int)len > 0 &&
		    skb_ensure_writable(skb, min_t(int, skb->len, at + len)))
			return NULL;
	} else if (skb_ensure_writable(skb, min_t(int, skb->len, at + len))) {
		return NULL;
	}
	return skb->data + at;
}

/* A write to a tagged frame: the bytes as the wire has them change, then
 * go back to the skb's data and to its tag.
 */
static void pkt_write_tagged(struct sk_buff *skb, u32 pos, u16 bits,
			     const struct p4t_val *v)
{
	u32 first = pos / 8, n = (pos % 8 + bits + 7) / 8, k;
	u8 buf[P4T_MAX_BITSZ / 8 + 1];
	u8 *p;

	if (!pkt_copy(skb, first, n, buf))
		return;
	bytes_write_bits(buf, pos % 8, bits, v);
	for (k = 0; k < n; ) {
		u32 at = first + k, len;

		if (at < PKT_TAG_AT) {
			len = min(n - k, PKT_TAG_AT - at);
			p = pkt_writable(skb, at, len);
		} else if (at < PKT_TAG_AT + VLAN_HLEN) {
			u8 tag[VLAN_HLEN];

			len = min(n - k, PKT_TAG_AT + VLAN_HLEN - at);
			pkt_tag_bytes(skb, tag);
			memcpy(tag + at - PKT_TAG_AT, buf + k, len);
			__vlan_hwaccel_put_tag(skb,
					       htons(get_unaligned_be16(tag)),
					       get_unaligned_be16(tag + 2));
			k += len;
			continue;
		} else {
			len = n - k;
			p = pkt_writable(skb, at - VLAN_HLEN, len);
		}
		if (!p)
			return;
		memcpy(p, buf + k, len);
		k += len;
	}
}

static void pkt_write_bits(struct sk_buff *skb, u32 pos, u16 bits,
			   const struct p4t_val *v)
{
	u8 *p;

	if (pkt_tagged(skb)) {
		pkt_write_tagged(skb, pos, bits, v);
	} else {
		p = pkt_writable(skb, pos / 8, (pos % 8 + bits + 7) / 8);
		if (!p)
			return;
		bytes_write_bits(p, pos % 8, bits, v);
	}
	/* A program changes headers as it likes and updates checksums in
	 * them itself; a device's sum over the old bytes is no longer true.
	 */
	if (skb->ip_summed == CHECKSUM_COMPLETE)
		skb->ip_summed = CHECKSUM_NONE;
}

/* Offsets in the head that follow the frame's bytes when @at..@at + @len
 * is cut out (@len < 0) or @len bytes go in at @at: the bytes before @at
 * move, those after stay.  @old is the MAC header's offset in the head
 * before the move; @x one of the skb's head offsets.
 */
static void head_offset_fix(u16 *x, u16 old, u32 at, int len)
{
	u32 o = *x - old;

	if (o < at)
		*x -= len;
	else if (len < 0 && o < at - len)
		*x = old + at - len;	/* it was cut out: what followed */
}

static void frame_offsets_fix(struct sk_buff *skb, u16 mac, u32 at, int len)
{
	u16 x;

	head_offset_fix(&skb->network_header, mac, at, len);
	if (skb_transport_header_was_set(skb))
		head_offset_fix(&skb->transport_header, mac, at, len);
	if (skb->ip_summed == CHECKSUM_PARTIAL) {
		x = skb->csum_start;
		head_offset_fix(&x, mac, at, len);
		skb->csum_start = x;
	}
	skb->mac_header -= len;
	skb->mac_len = skb_network_header(skb) - skb_mac_header(skb);
	/* a device's sum over the frame is no longer true */
	if (skb->ip_summed == CHECKSUM_COMPLETE)
		skb->ip_summed = CHECKSUM_NONE;
}

/* @len zero bytes into the frame (the skb's own bytes, no tag outside
 * counted) at @at bytes from its MAC header: the bytes before @at move
 * back into the headroom, so the data from @at on stays where it is.
 * skb->data keeps its byte: at ingress it stays on the network header
 * when the bytes go in before it.
 */
static bool frame_insert(struct sk_buff *skb, u32 at, u32 len)
{
	int d = -skb_mac_offset(skb);	/* where the data starts in the frame */
	u8 *mac;

	if (d < 0 || at > skb->len + d || skb_is_gso(skb))
		return false;
	if ((int)at > d && skb_ensure_writable(skb, at - d))
		return false;
	if (skb_cow_head(skb, d + len))
		return false;
	mac = skb_mac_header(skb);
	memmove(mac - len, mac, at);
	memset(mac - len + at, 0, len);
	frame_offsets_fix(skb, skb->mac_header, at, len);
	if ((int)at > d)
		__skb_push(skb, len);
	return true;
}

/* Cut @len bytes out of the frame at @at: the bytes before them move up. */
static bool frame_remove(struct sk_buff *skb, u32 at, u32 len)
{
	int d = -skb_mac_offset(skb);
	u8 *mac;
	int k;

	if (d < 0 || at + len > skb->len + d || skb_is_gso(skb))
		return false;
	if ((int)(at + len) > d && skb_ensure_writable(skb, at + len - d))
		return false;
	if (d && skb_cow_head(skb, 0))	/* bytes before the data move */
		return false;
	mac = skb_mac_header(skb);
	memmove(mac + len, mac, at);
	/* the data loses the removed bytes at or after its start */
	k = clamp_t(int, (int)(at + len) - d, 0, len);
	frame_offsets_fix(skb, skb->mac_header, at, -(int)len);
	__skb_pull(skb, k);
	return true;
}

/* Put a tag the skb carries outside the frame into it, where the program
 * sees it, as the stack does before it transmits: then the frame's bytes
 * are the program's, and can grow and shrink.
 */
static bool frame_take_tag(struct sk_buff *skb)
{
	u8 tag[VLAN_HLEN];

	if (!pkt_tagged(skb))
		return true;
	pkt_tag_bytes(skb, tag);
	if (!frame_insert(skb, PKT_TAG_AT, VLAN_HLEN))
		return false;
	memcpy(skb_mac_header(skb) + PKT_TAG_AT, tag, VLAN_HLEN);
	__vlan_hwaccel_clear_tag(skb);
	return true;
}

/* ------------------------------------------------------------------ */
/* The parse graph                                                     */
/* ------------------------------------------------------------------ */

static bool field_value(const struct sk_buff *skb, u32 hdr_off,
			const struct p4tc_hdrfield *f, struct p4t_val *v)
{
	return pkt_read_bits(skb, hdr_off * 8 + f->offset,
			     f->endbit - f->startbit + 1, v);
}

/* Walk the graph from its start header, as far as the packet goes.  False
 * when the graph rejects the packet: a header runs past its end, a length
 * field is out of range, or a transition says reject.  The headers found
 * before stay valid (actions outside the p4 classifier read them); the
 * classifier drops a rejected packet, as the device does.
 */
static bool run_parse(struct p4tc_run *run)
{
	const struct p4tc_parser *parser = run->pipeline->parser;
	const struct p4tc_header *hdr;
	u32 off = 0, n;

	run->parsed = true;
	if (!parser || !pipeline_sealed(run->pipeline))
		return true;
	if (!skb_mac_header_was_set(run->skb))
		return false;

	hdr = parser->start;
	for (n = 0; hdr && n < P4TC_MAX_PARSE_HEADERS; n++) {
		const struct p4tc_header *next = hdr->default_next;
		u8 next_kind = hdr->default_kind;
		u32 len = hdr->min_len, i;
		struct p4t_val v;

		if (off + len > pkt_len(run->skb))
			return false;
		if (hdr->len_field) {
			if (!field_value(run->skb, off, hdr->len_field, &v))
				return false;
			len = v.w[0] * hdr->len_mult + hdr->len_add;
			if (v.w[1] || len < hdr->min_len ||
			    len > hdr->max_len || off + len > pkt_len(run->skb))
				return false;
		}
		run->hdr_off[hdr->slot] = off;
		run->hdr_len[hdr->slot] = len;
		run->hdr[hdr->slot] = hdr;
		run->valid |= BIT(hdr->slot);
		if (hdr->select && field_value(run->skb, off, hdr->select, &v)) {
			for (i = 0; i < hdr->num_trans; i++) {
				const struct p4tc_header_trans *t =
					&hdr->trans[i];

				if (!((v.w[0] ^ t->value.w[0]) & t->mask.w[0]) &&
				    !((v.w[1] ^ t->value.w[1]) & t->mask.w[1])) {
					next = t->next;
					next_kind = t->next_kind;
					break;
				}
			}
		}
		off += len;
		if (next_kind != P4TC_NEXT_HEADER)
			return next_kind == P4TC_NEXT_ACCEPT;
		hdr = next;
	}
	/* the graph has no loops and at most P4TC_MAX_PARSE_HEADERS nodes */
	return true;
}

/* Where field @f's header is, or false when the packet lacks it. */
static bool run_field_pos(struct p4tc_run *run, const struct p4tc_hdrfield *f,
			  u32 *pos)
{
	if (!run->parsed)
		run_parse(run);
	if (!(run->valid & BIT(f->header->slot)))
		return false;
	*pos = run->hdr_off[f->header->slot] * 8 + f->offset;
	return true;
}

/* ------------------------------------------------------------------ */
/* An eBPF parser in the parse graph's place                           */
/* ------------------------------------------------------------------ */

/**
 * p4tc_run_parser_buffer - the parser buffer of the packet being parsed
 * @skb: the packet the calling eBPF program runs on
 *
 * For bpf_p4tc_get_parser_buffer(): the buffer exists only while the p4
 * classifier runs its eBPF parser on @skb, on this CPU.  Any other caller
 * (the same program run by act_bpf, say) gets NULL.
 *
 * Return: the buffer, zeroed before the program started, or NULL.
 */
struct p4tc_parser_buffer *p4tc_run_parser_buffer(const struct sk_buff *skb)
{
	struct p4tc_scratch *sc = this_cpu_ptr(&p4tc_scratch);
	struct p4tc_run *run;

	if (!sc->depth)
		return NULL;
	run = &sc->runs[sc->depth - 1];
	if (run->skb != skb || !run->bpf_parsing)
		return NULL;
	return &run->pbuf;
}

/* Run the eBPF parser on the frame from its MAC header, as cls_bpf runs
 * its programs.  Its verdict: pipe goes on, anything else is final.
 */
static int run_bpf_parse(struct p4tc_run *run, const struct bpf_prog *prog)
{
	struct sk_buff *skb = run->skb;
	bool at_ingress = skb_at_tc_ingress(skb);
	int ret;

	memset(&run->pbuf, 0, sizeof(run->pbuf));
	run->bpf_parsing = true;
	if (at_ingress)
		__skb_push(skb, skb->mac_len);
	bpf_compute_data_pointers(skb);
	ret = bpf_prog_run(prog, skb);
	if (at_ingress)
		__skb_pull(skb, skb->mac_len);
	run->bpf_parsing = false;
	return ret;
}

/* The length of @hdr at @off, as the parse graph finds it: its fixed
 * length, or its length field's value times its multiplier plus its
 * addend.
 */
static bool run_hdr_len(struct p4tc_run *run, const struct p4tc_header *hdr,
			u32 off, u32 *len)
{
	struct p4t_val v;

	if (!hdr->len_field) {
		*len = hdr->min_len;
		return true;
	}
	if (off + hdr->min_len > pkt_len(run->skb) ||
	    !field_value(run->skb, off, hdr->len_field, &v) || v.w[1])
		return false;
	*len = v.w[0] * hdr->len_mult + hdr->len_add;
	return true;
}

/* Take the headers the eBPF parser placed (run->pbuf), checked as the
 * parse graph would check them: a header the pipeline has, of a length
 * its template allows, inside the packet.  False (the packet is
 * rejected) otherwise.  A parser at tc saw the frame without a VLAN tag
 * the stack holds outside it (@untagged_view); the datapath's frame has
 * the tag (see pkt_tagged()), so what lies after it moves by its length.
 * A parser at XDP saw the frame as the device received it.
 */
static bool run_bpf_import(struct p4tc_run *run, bool untagged_view)
{
	const struct p4tc_parser *parser = run->pipeline->parser;
	const struct p4tc_parser_buffer *b = &run->pbuf;
	unsigned long valid = b->valid;
	u32 plen = pkt_len(run->skb);
	unsigned int i;

	run->parsed = true;
	if (!valid)
		return true;
	i = __ffs(valid);
	if (!parser || !skb_mac_header_was_set(run->skb))
		goto bad;
	for_each_set_bit(i, &valid, P4TC_MAX_PARSE_HEADERS) {
		/* a sealed pipeline's headers no longer change */
		const struct p4tc_header *hdr = parser->hdr_by_id[i];
		u32 off = b->hdr_off[i];
		u32 len = b->hdr_len[i];

		if (!hdr)
			goto bad;
		if (untagged_view && pkt_tagged(run->skb) && off >= PKT_TAG_AT)
			off += VLAN_HLEN;
		if (!len && !run_hdr_len(run, hdr, off, &len))
			goto bad;
		if (len < hdr->min_len ||
		    len > (hdr->len_field ? hdr->max_len : hdr->min_len) ||
		    off + len > plen)
			goto bad;
		run->hdr_off[hdr->slot] = off;
		run->hdr_len[hdr->slot] = len;
		run->hdr[hdr->slot] = hdr;
		run->valid |= BIT(hdr->slot);
	}
	return true;

bad:
	net_warn_ratelimited("p4tc: pipeline %s: the eBPF parser placed header id %u where the pipeline cannot take it: packet rejected\n",
			     run->pipeline->common.name, i + 1);
	run->valid = 0;
	return false;
}

/* What a parser at XDP left in the frame's metadata, into run->pbuf.
 * False when it is not there or its cookie is not @cookie: this packet
 * did not go through the filter's parser.  @rejected: the parser said
 * so.
 */
static bool run_xdp_fetch(struct p4tc_run *run, u32 cookie, bool *rejected)
{
	const struct p4tc_xdp_parser_buffer *x;
	struct sk_buff *skb = run->skb;
	unsigned int i;

	if (skb_metadata_len(skb) < sizeof(*x) ||
	    !skb_mac_header_was_set(skb))
		return false;
	/* the buffer is the metadata's last bytes, before the MAC header */
	x = (const void *)(skb_metadata_end(skb) - sizeof(*x));
	if (x->cookie != cookie)
		return false;
	*rejected = x->valid & P4TC_XDP_PARSER_REJECT;
	memset(&run->pbuf, 0, sizeof(run->pbuf));
	run->pbuf.valid = x->valid & GENMASK(P4TC_XDP_PARSE_HEADERS - 1, 0);
	for (i = 0; i < P4TC_XDP_PARSE_HEADERS; i++)
		run->pbuf.hdr_off[i] = x->hdr_off[i];
	return true;
}

/* The eBPF parser's part of a run: the verdict to go on with (pipe), or
 * the trip's end.  @accepted says whether the packet was rejected,
 * @cookie_bad whether an XDP parser's buffer was missing or not ours.
 */
static int run_bpf_parser(struct p4tc_run *run,
			  const struct p4tc_bpf_parser *bp, bool *accepted,
			  bool *cookie_bad)
{
	bool rejected = false;
	int ret;

	if (bp->prog->type == BPF_PROG_TYPE_XDP) {
		if (!run_xdp_fetch(run, bp->cookie, &rejected)) {
			*cookie_bad = true;
			*accepted = true;
			return TC_ACT_SHOT;
		}
		*accepted = !rejected && run_bpf_import(run, false);
		return *accepted ? TC_ACT_PIPE : TC_ACT_SHOT;
	}
	ret = run_bpf_parse(run, bp->prog);
	*accepted = ret != TC_ACT_SHOT;
	if (ret != TC_ACT_PIPE)
		return ret;
	*accepted = run_bpf_import(run, true);
	return *accepted ? TC_ACT_PIPE : TC_ACT_SHOT;
}

/* ------------------------------------------------------------------ */
/* Kernel metadata: fields of the skb                                  */
/* ------------------------------------------------------------------ */

static u64 kmeta_read(const struct sk_buff *skb, u32 id)
{
	switch (id) {
	case P4TC_KERNEL_META_PKTLEN:
		return pkt_len(skb);
	case P4TC_KERNEL_META_DATALEN:
		return skb->data_len;
	case P4TC_KERNEL_META_SKBMARK:
		return skb->mark;
	case P4TC_KERNEL_META_TCINDEX:
		return skb->tc_index;
	case P4TC_KERNEL_META_SKBHASH:
		return skb->hash;
	case P4TC_KERNEL_META_SKBPRIO:
		return skb->priority;
	case P4TC_KERNEL_META_IFINDEX:
		return skb->dev ? skb->dev->ifindex : 0;
	case P4TC_KERNEL_META_SKBIIF:
		return skb->skb_iif;
	case P4TC_KERNEL_META_PROTOCOL:
		return be16_to_cpu(skb->protocol);
	case P4TC_KERNEL_META_PKTYPE:
		return skb->pkt_type;
	case P4TC_KERNEL_META_IDF:
		return skb->ignore_df;
	case P4TC_KERNEL_META_IPSUM:
		return skb->ip_summed;
	case P4TC_KERNEL_META_OOOK:
		return skb->ooo_okay;
	case P4TC_KERNEL_META_FCLONE:
		return skb->fclone;
	case P4TC_KERNEL_META_PEEKED:
		return skb->peeked;
	case P4TC_KERNEL_META_QMAP:
		return skb->queue_mapping;
	case P4TC_KERNEL_META_PTYPEOFF:
		return PKT_TYPE_OFFSET;
	case P4TC_KERNEL_META_CLONEOFF:
		return CLONED_OFFSET;
	case P4TC_KERNEL_META_PTCLNOFF:
		return PKT_TYPE_OFFSET << 8 | CLONED_OFFSET;
	case P4TC_KERNEL_META_DIRECTION:
		return !skb_at_tc_ingress(skb);
	}
	return 0;
}

/*
 * Only the writable ones (p4tc_meta.c marks the others read only).  The
 * lengths are the skb's data: a write that would change one would make
 * the skb lie about what it holds, so it is refused at run time (the
 * packet is dropped, counted as the action's drop).  ptypeoff is a
 * constant of the kernel's skb layout, not a field: a write to it does
 * nothing.
 */
static void kmeta_write(struct p4tc_run *run, u32 id, u64 v)
{
	struct sk_buff *skb = run->skb;

	switch (id) {
	case P4TC_KERNEL_META_PKTLEN:
	case P4TC_KERNEL_META_DATALEN:
		if (v != kmeta_read(skb, id))
			run->refused = true;
		break;
	case P4TC_KERNEL_META_SKBMARK:
		skb->mark = v;
		break;
	case P4TC_KERNEL_META_TCINDEX:
		skb->tc_index = v;
		break;
	case P4TC_KERNEL_META_SKBHASH:
		skb->hash = v;
		break;
	case P4TC_KERNEL_META_SKBPRIO:
		skb->priority = v;
		break;
	case P4TC_KERNEL_META_SKBIIF:
		skb->skb_iif = v;
		break;
	case P4TC_KERNEL_META_PROTOCOL:
		skb->protocol = cpu_to_be16(v);
		break;
	case P4TC_KERNEL_META_PKTYPE:
		skb->pkt_type = v;
		break;
	case P4TC_KERNEL_META_IDF:
		skb->ignore_df = v;
		break;
	case P4TC_KERNEL_META_OOOK:
		skb->ooo_okay = v;
		break;
	case P4TC_KERNEL_META_PEEKED:
		skb->peeked = v;
		break;
	case P4TC_KERNEL_META_QMAP:
		/* A transmit choice: the device's queue is picked after tc,
		 * within its range.  At ingress the field is the receive
		 * queue, which RPS trusts: left alone there.
		 */
		if (!skb_at_tc_ingress(skb))
			skb_set_queue_mapping(skb, v);
		break;
	}
}

/* ------------------------------------------------------------------ */
/* Operands                                                            */
/* ------------------------------------------------------------------ */

/* The value of the object an operand names (all its bits). */
static void obj_read(struct p4tc_run *run, const struct p4tc_cmd_opnd *o,
		     const u8 *params, const struct p4tc_act *act,
		     struct p4t_val *v)
{
	u32 pos;

	v->w[0] = 0;
	v->w[1] = 0;
	switch (o->kind) {
	case P4TC_OPER_CONST:
	case P4TC_OPER_DEV:
		*v = o->value;
		break;
	case P4TC_OPER_META:
		if (o->meta->common.p_id == P4TC_KERNEL_PIPEID)
			v->w[0] = kmeta_read(run->skb, o->index);
		else
			p4t_host_read(o->type, &o->ms,
				      run->meta + o->meta->m_offset, v);
		break;
	case P4TC_OPER_HDRFIELD:
		if (run_field_pos(run, o->field, &pos))
			pkt_read_bits(run->skb, pos, o->obj_width, v);
		break;
	case P4TC_OPER_PARAM:
		p4t_host_read(o->type, &o->ms,
			      params + act->params[o->index].offset, v);
		break;
	case P4TC_OPER_REG: {
		struct p4tc_register *reg = o->reg;

		spin_lock(&reg->reg_value_lock);
		p4t_host_read(o->type, &o->ms, reg->reg_value + o->index *
			      p4t_container_bytes(o->type), v);
		spin_unlock(&reg->reg_value_lock);
		break;
	}
	case P4TC_OPER_RES:
		v->w[0] = o->index ? run->hit : !run->hit;
		break;
	}
	p4t_val_trunc(v, o->obj_width);
}

/* A run starts with zero metadata: it clears what the last one wrote. */
static void meta_dirty(struct p4tc_run *run, u32 end)
{
	if (end > run->meta_dirty)
		run->meta_dirty = end;
}

static void meta_write(struct p4tc_run *run, const struct p4tc_cmd_opnd *o,
		       const struct p4t_val *v)
{
	u32 off = o->meta->m_offset;

	meta_dirty(run, off + p4t_container_bytes(o->type));
	p4t_host_write(o->type, &o->ms, v, run->meta + off);
}

static void obj_write(struct p4tc_run *run, const struct p4tc_cmd_opnd *o,
		      const struct p4t_val *v)
{
	u32 pos;

	switch (o->kind) {
	case P4TC_OPER_META:
		if (o->meta->common.p_id == P4TC_KERNEL_PIPEID)
			kmeta_write(run, o->index, v->w[0]);
		else
			meta_write(run, o, v);
		break;
	case P4TC_OPER_HDRFIELD:
		if (run_field_pos(run, o->field, &pos))
			pkt_write_bits(run->skb, pos, o->obj_width, v);
		break;
	case P4TC_OPER_REG: {
		struct p4tc_register *reg = o->reg;

		spin_lock(&reg->reg_value_lock);
		p4t_host_write(o->type, &o->ms, v, reg->reg_value + o->index *
			       p4t_container_bytes(o->type));
		spin_unlock(&reg->reg_value_lock);
		break;
	}
	}
}

/* An operand's value: its slice of its object's value.  A key is read
 * and written in place: slices count from its first bit.
 */
static void opnd_read(struct p4tc_run *run, const struct p4tc_cmd_opnd *o,
		      const u8 *params, const struct p4tc_act *act,
		      struct p4t_val *v)
{
	if (o->kind == P4TC_OPER_KEY) {
		bytes_read_bits(run->key + o->shift / 8, o->shift % 8, o->width,
				v);
		return;
	}
	obj_read(run, o, params, act, v);
	p4t_val_shr(v, o->shift);
	p4t_val_trunc(v, o->width);
}

/* Write @v (cut to the operand's width) into the operand's slice. */
static void opnd_write(struct p4tc_run *run, const struct p4tc_cmd_opnd *o,
		       const u8 *params, const struct p4tc_act *act,
		       const struct p4t_val *v)
{
	struct p4t_val obj = {}, nv = *v, m;

	if (o->kind == P4TC_OPER_KEY) {
		bytes_write_bits(run->key + o->shift / 8, o->shift % 8,
				 o->width, v);
		return;
	}
	p4t_val_trunc(&nv, o->width);
	if (o->width != o->obj_width) {
		obj_read(run, o, params, act, &obj);
		p4t_val_ones(&m, o->width);
		p4t_val_shl(&m, o->shift);
		p4t_val_shl(&nv, o->shift);
		obj.w[0] = (obj.w[0] & ~m.w[0]) | nv.w[0];
		obj.w[1] = (obj.w[1] & ~m.w[1]) | nv.w[1];
		nv = obj;
	}
	obj_write(run, o, &nv);
}

/* ------------------------------------------------------------------ */
/* Operands in one step (P4TC_ACC_*, p4tc_cmds.c chose them)            */
/* ------------------------------------------------------------------ */

/* The one-step helpers are inlined into fast_cmd(): a call and return
 * per operand cost more than their work.
 */

/* @n (1..8) bytes at @p as a number, most significant first when @be */
static __always_inline u64 acc_load(const u8 *p, u32 n, bool be)
{
	u64 x = 0;
	u32 i;

	switch (n) {
	case 1:
		return *p;
	case 2:
		return be ? get_unaligned_be16(p) : get_unaligned((u16 *)p);
	case 4:
		return be ? get_unaligned_be32(p) : get_unaligned((u32 *)p);
	case 6:		/* a MAC address */
		return be ? (u64)get_unaligned_be16(p) << 32 |
			    get_unaligned_be32(p + 2) :
			    get_unaligned_le32(p) |
			    (u64)get_unaligned_le16(p + 4) << 32;
	case 8:
		return be ? get_unaligned_be64(p) : get_unaligned((u64 *)p);
	}
	for (i = 0; i < n; i++)
		x |= (u64)p[i] << 8 * (be ? n - 1 - i : i);
	return x;
}

/* The low @n bytes of @x at @p */
static __always_inline void acc_store(u8 *p, u32 n, bool be, u64 x)
{
	u32 i;

	switch (n) {
	case 1:
		*p = x;
		return;
	case 2:
		if (be)
			put_unaligned_be16(x, p);
		else
			put_unaligned(x, (u16 *)p);
		return;
	case 4:
		if (be)
			put_unaligned_be32(x, p);
		else
			put_unaligned(x, (u32 *)p);
		return;
	case 6:
		if (be) {
			put_unaligned_be16(x >> 32, p);
			put_unaligned_be32(x, p + 2);
		} else {
			put_unaligned_le32(x, p);
			put_unaligned_le16(x >> 32, p + 4);
		}
		return;
	case 8:
		if (be)
			put_unaligned_be64(x, p);
		else
			put_unaligned(x, (u64 *)p);
		return;
	}
	for (i = 0; i < n; i++)
		p[i] = x >> 8 * (be ? n - 1 - i : i);
}

/* A packet operand's bytes in the skb's head, or NULL when the packet
 * lacks its header or they are not there as the wire has them: a tag
 * the skb holds outside the frame, paged data, or, to write them, a head
 * shared with a clone.  The general path handles those.
 */
static __always_inline u8 *pkt_at(struct p4tc_run *run,
				  const struct p4tc_cmd_opnd *o, bool write)
{
	struct sk_buff *skb = run->skb;
	u32 off;

	if (unlikely(!run->parsed))
		run_parse(run);
	if (!(run->valid & BIT(o->acc_slot)) || unlikely(pkt_tagged(skb)) ||
	    (write && skb_cloned(skb)))
		return NULL;
	off = run->hdr_off[o->acc_slot] + o->acc_off;
	if (unlikely(off + o->acc_bytes >
		     skb_tail_pointer(skb) - skb_mac_header(skb)))
		return NULL;
	return skb_mac_header(skb) + off;
}

static __always_inline u64 fast_read(struct p4tc_run *run,
				     const struct p4tc_cmd_opnd *o,
				     const u8 *params,
				     const struct p4tc_act *act)
{
	struct p4t_val v;
	const u8 *p;

	switch (o->acc) {
	case P4TC_ACC_CONST:
		return o->value.w[0];
	case P4TC_ACC_META:
		return acc_load(run->meta + o->acc_off, o->acc_bytes, o->acc_be);
	case P4TC_ACC_PARAM:
		return acc_load(params + o->acc_off, o->acc_bytes, o->acc_be);
	case P4TC_ACC_KEY:
		return acc_load(run->key + o->acc_off, o->acc_bytes, true);
	}
	p = pkt_at(run, o, false);
	if (likely(p))
		return acc_load(p, o->acc_bytes, true);
	if (!(run->valid & BIT(o->acc_slot)))
		return 0;	/* as for any field of a header not there */
	opnd_read(run, o, params, act, &v);
	return v.w[0];
}

/* An operand of at most 64 bits, in one step when it can be */
static u64 opnd_u64(struct p4tc_run *run, const struct p4tc_cmd_opnd *o,
		    const u8 *params, const struct p4tc_act *act)
{
	struct p4t_val v;

	if (o->acc != P4TC_ACC_SLOW)
		return fast_read(run, o, params, act);
	opnd_read(run, o, params, act, &v);
	return v.w[0];
}

static __always_inline void fast_write(struct p4tc_run *run,
				       const struct p4tc_cmd_opnd *o,
				       const u8 *params,
				       const struct p4tc_act *act, u64 x)
{
	struct p4t_val v = { .w = { x } };
	u8 *p;

	switch (o->acc) {
	case P4TC_ACC_META:
		meta_dirty(run, o->acc_off + o->acc_bytes);
		acc_store(run->meta + o->acc_off, o->acc_bytes, o->acc_be, x);
		return;
	case P4TC_ACC_KEY:
		acc_store(run->key + o->acc_off, o->acc_bytes, true, x);
		return;
	}
	p = pkt_at(run, o, true);
	if (likely(p)) {
		acc_store(p, o->acc_bytes, true, x);
		/* as pkt_write_bits(): a device's sum is no longer true */
		if (run->skb->ip_summed == CHECKSUM_COMPLETE)
			run->skb->ip_summed = CHECKSUM_NONE;
		return;
	}
	if (run->valid & BIT(o->acc_slot))
		opnd_write(run, o, params, act, &v);
}

/* ------------------------------------------------------------------ */
/* Commands                                                            */
/* ------------------------------------------------------------------ */

static void val_add(struct p4t_val *a, const struct p4t_val *b)
{
	u64 lo = a->w[0] + b->w[0];

	a->w[1] += b->w[1] + (lo < a->w[0]);
	a->w[0] = lo;
}

static void val_sub(struct p4t_val *a, const struct p4t_val *b)
{
	u64 lo = a->w[0] - b->w[0];

	a->w[1] -= b->w[1] + (a->w[0] < b->w[0]);
	a->w[0] = lo;
}

/* Compare: signed when either operand is (two's complement, 128 bits). */
static bool branch_taken(u8 op, struct p4t_val a, struct p4t_val b,
			 const struct p4tc_cmd_opnd *oa,
			 const struct p4tc_cmd_opnd *ob)
{
	bool sgn = oa->is_signed || ob->is_signed;
	int cmp;

	if (oa->is_signed)
		p4t_val_sign_extend(&a, oa->width);
	if (ob->is_signed)
		p4t_val_sign_extend(&b, ob->width);
	if (a.w[1] != b.w[1])
		cmp = sgn ? ((s64)a.w[1] < (s64)b.w[1] ? -1 : 1) :
			    (a.w[1] < b.w[1] ? -1 : 1);
	else
		cmp = a.w[0] == b.w[0] ? 0 : (a.w[0] < b.w[0] ? -1 : 1);

	switch (op) {
	case P4TC_CMD_OP_BEQ:
		return !cmp;
	case P4TC_CMD_OP_BNE:
		return cmp;
	case P4TC_CMD_OP_BLT:
		return cmp < 0;
	case P4TC_CMD_OP_BLE:
		return cmp <= 0;
	case P4TC_CMD_OP_BGT:
		return cmp > 0;
	default:
		return cmp >= 0;
	}
}

/* Send the packet out of @ifindex, as act_mirred does: the packet itself
 * when @own (send_port_egress at tc ingress, where act_mirred's redirect
 * sends it too), a copy otherwise.  False when it cannot go (no such
 * device, down, out of memory): the packet is then still the caller's.
 * Once it is sent the device's queue owns it, whatever the queue does.
 */
static bool port_egress(struct p4tc_run *run, u32 ifindex, bool own)
{
	struct sk_buff *skb = run->skb;
	struct net_device *dev;
	struct sk_buff *skb2;
	int mac_len;

	dev = dev_get_by_index_rcu(run->pipeline->net, ifindex);
	if (unlikely(!dev || !(dev->flags & IFF_UP) ||
		     !netif_carrier_ok(dev) || !skb_mac_header_was_set(skb)))
		return false;
	if (own) {
		skb2 = skb;
		/* the packet's trip here ends: what the device's own tc
		 * hooks run on it is a new trip, not part of this run
		 */
		run->skb = NULL;
	} else {
		skb2 = skb_clone(skb, GFP_ATOMIC);
		if (!skb2)
			return false;
	}
	nf_reset_ct(skb2);
	/* at ingress the data starts at the network header: xmit wants MAC */
	if (skb2->data != skb_mac_header(skb2)) {
		mac_len = skb_network_header(skb2) - skb_mac_header(skb2);
		skb_push_rcsum(skb2, mac_len);
	}
	/* a header went in or out: the protocol is the frame's own now */
	if (run->reshaped && skb_mac_header_len(skb2) >= ETH_HLEN)
		skb2->protocol = eth_hdr(skb2)->h_proto;
	skb2->skb_iif = skb2->dev->ifindex;
	skb2->dev = dev;
	skb_set_redirected(skb2, skb2->tc_at_ingress);
	dev_queue_xmit(skb2);
	return true;
}

static int prog_run(struct p4tc_run *run, const struct p4tc_act *act,
		    const u8 *params);

/* act: an instance by index, or a template with arguments */
static int cmd_act(struct p4tc_run *run, const struct p4tc_cmd *cmd,
		   const struct p4tc_act *act, const u8 *params)
{
	const struct p4tc_cmd_opnd *o = cmd->opnds;
	const struct p4tc_act *callee = o->act;
	struct tc_action *inst = o->inst;
	struct tcf_result res = {};
	struct p4t_val v;
	u8 *args;
	u32 i;
	int ret;

	if (inst) {
		ret = tcf_action_exec(run->skb, &inst, 1, &res);
		return ret == TC_ACT_PIPE ? P4TC_GO_ON : ret;
	}

	if (run->calls == P4TC_MAX_CALLS)
		return TC_ACT_SHOT;
	args = run->args[run->calls];
	memset(args, 0, callee->params_bytes);
	for (i = 1; i < cmd->num_opnds; i++) {
		const struct p4tc_act_param *param = &callee->params[i - 1];

		opnd_read(run, &o[i], params, act, &v);
		p4t_host_write(param->type, &param->ms, &v,
			       args + param->offset);
	}
	run->calls++;
	ret = prog_run(run, callee, args);
	run->calls--;
	/* "ret pipe" ends the callee, not its caller */
	return ret == TC_ACT_PIPE ? P4TC_GO_ON : ret;
}

/* Run a table's bound tc actions (a NULL-ended list). */
static int acts_run(struct p4tc_run *run, struct tc_action **acts)
{
	struct tcf_result res = {};
	int n, ret;

	if (!acts)
		return P4TC_GO_ON;
	for (n = 0; n < TCA_ACT_MAX_PRIO && acts[n]; n++)
		;
	ret = tcf_action_exec(run->skb, acts, n, &res);
	return ret == TC_ACT_PIPE ? P4TC_GO_ON : ret;
}

/* Run an entry's or a default's action with its parameter values. */
static int value_run(struct p4tc_run *run,
		     const struct p4tc_table_entry_value *value)
{
	int ret;

	ret = prog_run(run, value->act, value->params.values);
	/* "ret pipe" ends the action, not the table apply nor its caller:
	 * as in the device, pipe never ends classification
	 */
	if (ret != P4TC_GO_ON && ret != TC_ACT_PIPE)
		return ret;
	return value->verdict == TC_ACT_PIPE ? P4TC_GO_ON : value->verdict;
}

static void entry_used(struct p4tc_table_entry *e)
{
	unsigned long now = jiffies;

	if (READ_ONCE(e->lastused) != now)
		WRITE_ONCE(e->lastused, now);
	if (unlikely(!READ_ONCE(e->firstused)))
		WRITE_ONCE(e->firstused, now);
}

static void entry_hit(struct p4tc_table_entry *e, const struct sk_buff *skb)
{
	bstats_update(this_cpu_ptr(e->stats), skb);
	entry_used(e);
}

/* A default action runs when the datapath may execute it. */
static const struct p4tc_table_entry_value *
default_value(struct p4tc_table_entry_value __rcu **p)
{
	const struct p4tc_table_entry_value *v = rcu_dereference_bh(*p);

	return v && (v->permissions & P4TC_DATA_PERM_X) ? v : NULL;
}

/* tableapply: preactions, the key action, the lookup, the entry's action
 * (the default hit action for an entry without one) or the default miss
 * action, postactions.  A verdict other than pipe ends it there.
 */
static int cmd_tableapply(struct p4tc_run *run, const struct p4tc_cmd *cmd)
{
	struct p4tc_table *table = cmd->opnds[0].table;
	const struct p4tc_table_entry_value *v;
	struct p4tc_table_entry *e = NULL;
	int ret;

	if (run->applies == P4TC_MAX_APPLY) {
		net_warn_ratelimited("p4tc: table %s applied too deep\n",
				     table->common.name);
		return TC_ACT_SHOT;
	}
	run->applies++;
	ret = acts_run(run, READ_ONCE(table->preacts));
	if (ret != P4TC_GO_ON)
		goto out;
	memset(run->key, 0, table->key_bytes);
	ret = acts_run(run, READ_ONCE(table->key_acts));
	if (ret != P4TC_GO_ON)
		goto out;

	e = p4tc_table_lookup(table, run->key, run->handed_over);
	trace_p4_table_apply(run->skb, run->pipeline->common.p_id,
			     table->common.name, table->tbl_id, !!e,
			     e ? e->prio : 0);
	if (e) {
		entry_hit(e, run->skb);
		v = rcu_dereference_bh(e->value);
		if (!v)
			v = default_value(&table->default_hit);
	} else {
		v = default_value(&table->default_miss);
	}
	if (v) {
		ret = value_run(run, v);
		if (ret != P4TC_GO_ON)
			goto out;
	}
	ret = acts_run(run, READ_ONCE(table->postacts));
out:
	/* what the actions applied inside does not count here */
	run->hit = !!e;
	run->applies--;
	return ret;
}

/**
 * p4tc_table_read - a table's answer to a key, for an eBPF datapath
 * @table: a table of a sealed pipeline
 * @key: the key, @table's key bytes
 * @skb: the packet the hit counts, or NULL (XDP)
 * @len: the packet's length when @skb is NULL
 * @hit: set when an entry matched
 *
 * The lookup of tableapply, with its permissions (entries and defaults
 * the datapath may not execute do not run) and its counters (the
 * entry's hits), for bpf_p4tc_tbl_read().  Under RCU with BH off.
 *
 * Return: the action that runs: the entry's, the default hit action for
 * an entry without one, the default miss action; or NULL, none.
 */
const struct p4tc_table_entry_value *
p4tc_table_read(struct p4tc_table *table, const u8 *key,
		const struct sk_buff *skb, u32 len, bool *hit)
{
	const struct p4tc_table_entry_value *v;
	struct p4tc_table_entry *e;

	e = p4tc_table_lookup(table, key, false);
	*hit = !!e;
	if (skb)
		trace_p4_table_apply(skb, table->common.p_id,
				     table->common.name, table->tbl_id, !!e,
				     e ? e->prio : 0);
	if (!e)
		return default_value(&table->default_miss);
	if (skb) {
		entry_hit(e, skb);
	} else {
		_bstats_update(this_cpu_ptr(e->stats), len, 1);
		entry_used(e);
	}
	v = rcu_dereference_bh(e->value);
	return v ?: default_value(&table->default_hit);
}

/* Whether the parse graph can go from @p straight to @h. */
static bool hdr_leads_to(const struct p4tc_header *p,
			 const struct p4tc_header *h)
{
	u32 i;

	if (p->default_kind == P4TC_NEXT_HEADER && p->default_next == h)
		return true;
	for (i = 0; i < p->num_trans; i++)
		if (p->trans[i].next_kind == P4TC_NEXT_HEADER &&
		    p->trans[i].next == h)
			return true;
	return false;
}

/* Headers from @at on move by @len bytes. */
static void hdrs_shift(struct p4tc_run *run, u32 at, int len)
{
	unsigned long valid = run->valid;
	u32 s;

	for_each_set_bit(s, &valid, P4TC_MAX_PARSE_HEADERS)
		if (run->hdr_off[s] >= at)
			run->hdr_off[s] += len;
}

/* setvalid: a header the packet lacks goes in, its min_len bytes of
 * zeros, right after the last header present that the parse graph leads
 * from to it; none there, nothing happens (as a write to a field of an
 * absent header).  A packet that cannot take it (out of memory, GSO) is
 * dropped: no half-changed packet goes on.
 */
static int cmd_setvalid(struct p4tc_run *run, const struct p4tc_header *hdr)
{
	unsigned long valid;
	u32 s, at = 0, len = hdr->min_len;
	bool found = false;

	if (!run->parsed)
		run_parse(run);
	valid = run->valid;
	if (valid & BIT(hdr->slot))
		return P4TC_GO_ON;
	for_each_set_bit(s, &valid, P4TC_MAX_PARSE_HEADERS) {
		u32 end = run->hdr_off[s] + run->hdr_len[s];

		if (hdr_leads_to(run->hdr[s], hdr) && (!found || end > at)) {
			at = end;
			found = true;
		}
	}
	if (!found)
		return P4TC_GO_ON;
	if (!frame_take_tag(run->skb) || !frame_insert(run->skb, at, len)) {
		net_warn_ratelimited("p4tc: setvalid %s: the packet cannot grow: dropped\n",
				     hdr->common.name);
		return TC_ACT_SHOT;
	}
	hdrs_shift(run, at, len);
	run->hdr_off[hdr->slot] = at;
	run->hdr_len[hdr->slot] = len;
	run->hdr[hdr->slot] = hdr;
	run->valid |= BIT(hdr->slot);
	run->reshaped = true;
	return P4TC_GO_ON;
}

/* setinvalid: a header the packet has goes out of it. */
static int cmd_setinvalid(struct p4tc_run *run, const struct p4tc_header *hdr)
{
	u32 at, len;

	if (!run->parsed)
		run_parse(run);
	if (!(run->valid & BIT(hdr->slot)))
		return P4TC_GO_ON;
	at = run->hdr_off[hdr->slot];
	len = run->hdr_len[hdr->slot];
	if (!frame_take_tag(run->skb) || !frame_remove(run->skb, at, len)) {
		net_warn_ratelimited("p4tc: setinvalid %s: the packet cannot shrink: dropped\n",
				     hdr->common.name);
		return TC_ACT_SHOT;
	}
	run->valid &= ~BIT(hdr->slot);
	hdrs_shift(run, at + len, -(int)len);
	run->reshaped = true;
	return P4TC_GO_ON;
}

/* Where a control goes: *pc moves, or a verdict ends the action. */
static int control(u8 ctl, u32 arg, u32 *pc)
{
	if (ctl == P4TC_CTL_JUMP) {
		*pc = arg;
		return P4TC_GO_ON;
	}
	(*pc)++;
	return arg == TC_ACT_PIPE ? P4TC_GO_ON : arg;
}

static void cmd_print(struct p4tc_run *run, const struct p4tc_cmd *cmd,
		      const struct p4tc_act *act, const u8 *params)
{
	struct p4t_val v;

	opnd_read(run, &cmd->opnds[0], params, act, &v);
	if (v.w[1])
		pr_info_ratelimited("p4tc %s: %s 0x%llx%016llx\n",
				    act->ops.kind, cmd->prefix, v.w[1], v.w[0]);
	else
		pr_info_ratelimited("p4tc %s: %s %llu\n", act->ops.kind,
				    cmd->prefix, v.w[0]);
}

/* A command on one-step operands (cmd->fast): 64-bit values, cut to the
 * destination's width when stored, as the general path cuts them.  Not
 * inlined: in prog_run() it would share, and spill, its registers.
 */
static noinline int fast_cmd(struct p4tc_run *run,
			     const struct p4tc_cmd *cmd,
			     const struct p4tc_act *act, const u8 *params,
			     u32 *pc)
{
	const struct p4tc_cmd_opnd *o = cmd->opnds;
	u64 a = fast_read(run, &o[1], params, act), b;
	bool taken;

	switch (cmd->op) {
	case P4TC_CMD_OP_SET:
		break;
	case P4TC_CMD_OP_PLUS:
		a += fast_read(run, &o[2], params, act);
		break;
	case P4TC_CMD_OP_SUB:
		a -= fast_read(run, &o[2], params, act);
		break;
	case P4TC_CMD_OP_BAND:
		a &= fast_read(run, &o[2], params, act);
		break;
	case P4TC_CMD_OP_BOR:
		a |= fast_read(run, &o[2], params, act);
		break;
	case P4TC_CMD_OP_BXOR:
		a ^= fast_read(run, &o[2], params, act);
		break;
	default:
		/* a branch: operand 0 against operand 1 */
		b = a;
		a = fast_read(run, &o[0], params, act);
		switch (cmd->op) {
		case P4TC_CMD_OP_BEQ:
			taken = a == b;
			break;
		case P4TC_CMD_OP_BNE:
			taken = a != b;
			break;
		case P4TC_CMD_OP_BLT:
			taken = a < b;
			break;
		case P4TC_CMD_OP_BLE:
			taken = a <= b;
			break;
		case P4TC_CMD_OP_BGT:
			taken = a > b;
			break;
		default:
			taken = a >= b;
			break;
		}
		return taken ? control(cmd->then_ctl, cmd->then_arg, pc) :
			       control(cmd->else_ctl, cmd->else_arg, pc);
	}
	fast_write(run, &o[0], params, act, a);
	(*pc)++;
	return P4TC_GO_ON;
}

/* Run @act's program: P4TC_GO_ON at its end, or the verdict it gave. */
static int prog_run(struct p4tc_run *run, const struct p4tc_act *act,
		    const u8 *params)
{
	const struct p4tc_prog *prog = rcu_dereference_bh(act->prog);
	/* the verdict of the last "control" on a command that is no branch */
	int last = P4TC_GO_ON;
	struct p4t_val a, b, c;
	u32 pc = 0, i;
	bool own;
	int ret;

	while (prog && pc < prog->num_cmds) {
		const struct p4tc_cmd *cmd = &prog->cmds[pc];
		const struct p4tc_cmd_opnd *o = cmd->opnds;

		if (cmd->fast) {
			ret = fast_cmd(run, cmd, act, params, &pc);
			if (ret != P4TC_GO_ON)
				return ret;
			continue;
		}
		ret = P4TC_GO_ON;
		switch (cmd->op) {
		case P4TC_CMD_OP_SET:
			opnd_read(run, &o[1], params, act, &a);
			opnd_write(run, &o[0], params, act, &a);
			break;
		case P4TC_CMD_OP_PLUS:
		case P4TC_CMD_OP_SUB:
		case P4TC_CMD_OP_BAND:
		case P4TC_CMD_OP_BOR:
		case P4TC_CMD_OP_BXOR:
			opnd_read(run, &o[1], params, act, &a);
			opnd_read(run, &o[2], params, act, &b);
			if (cmd->op == P4TC_CMD_OP_PLUS) {
				val_add(&a, &b);
			} else if (cmd->op == P4TC_CMD_OP_SUB) {
				val_sub(&a, &b);
			} else {
				for (i = 0; i < 2; i++) {
					if (cmd->op == P4TC_CMD_OP_BAND)
						a.w[i] &= b.w[i];
					else if (cmd->op == P4TC_CMD_OP_BOR)
						a.w[i] |= b.w[i];
					else
						a.w[i] ^= b.w[i];
				}
			}
			opnd_write(run, &o[0], params, act, &a);
			break;
		case P4TC_CMD_OP_CONCAT:
			a.w[0] = 0;
			a.w[1] = 0;
			for (i = 1; i < cmd->num_opnds; i++) {
				opnd_read(run, &o[i], params, act, &c);
				p4t_val_shl(&a, o[i].width);
				a.w[0] |= c.w[0];
				a.w[1] |= c.w[1];
			}
			opnd_write(run, &o[0], params, act, &a);
			break;
		case P4TC_CMD_OP_BEQ ... P4TC_CMD_OP_BGE:
			opnd_read(run, &o[0], params, act, &a);
			opnd_read(run, &o[1], params, act, &b);
			if (branch_taken(cmd->op, a, b, &o[0], &o[1]))
				ret = control(cmd->then_ctl, cmd->then_arg, &pc);
			else
				ret = control(cmd->else_ctl, cmd->else_arg, &pc);
			if (ret != P4TC_GO_ON)
				return ret;
			continue;
		case P4TC_CMD_OP_JUMP:
			pc = cmd->then_arg;
			continue;
		case P4TC_CMD_OP_RET:
			return cmd->then_ctl ? cmd->then_arg : last;
		case P4TC_CMD_OP_ACT:
			ret = cmd_act(run, cmd, act, params);
			break;
		case P4TC_CMD_OP_PRINT:
			cmd_print(run, cmd, act, params);
			break;
		case P4TC_CMD_OP_TABLEAPPLY:
			ret = cmd_tableapply(run, cmd);
			break;
		case P4TC_CMD_OP_SNDPORTEGR:
			a.w[0] = opnd_u64(run, &o[0], params, act);
			/* the packet leaves: nothing after this sees it.  At
			 * ingress it is gone (consumed), elsewhere a copy
			 * left and the packet is stolen.
			 */
			own = skb_at_tc_ingress(run->skb);
			if (!port_egress(run, a.w[0], own))
				return TC_ACT_SHOT;
			return own ? TC_ACT_CONSUMED : TC_ACT_STOLEN;
		case P4TC_CMD_OP_MIRPORTEGR:
			a.w[0] = opnd_u64(run, &o[0], params, act);
			port_egress(run, a.w[0], false);
			break;
		case P4TC_CMD_OP_SETVALID:
			ret = cmd_setvalid(run, o[0].hdr);
			break;
		case P4TC_CMD_OP_SETINVALID:
			ret = cmd_setinvalid(run, o[0].hdr);
			break;
		}
		if (unlikely(run->refused))
			return TC_ACT_SHOT;
		if (ret != P4TC_GO_ON)
			return ret;
		if (cmd->then_ctl == P4TC_CTL_VERDICT)
			last = cmd->then_arg;
		pc++;
	}
	return last;
}

/* A packet's trip starts: the next run level of this CPU, or NULL when
 * every level is taken.
 */
static struct p4tc_run *run_push(struct p4tc_scratch *sc, struct sk_buff *skb,
				 const struct p4tc_pipeline *pipeline)
{
	struct p4tc_run *run;

	if (sc->depth == P4TC_MAX_NEST) {
		net_warn_ratelimited("p4tc: pipeline %s nested too deep\n",
				     pipeline->common.name);
		return NULL;
	}
	run = &sc->runs[sc->depth++];
	run->skb = skb;
	run->pipeline = pipeline;
	run->valid = 0;
	run->parsed = false;
	run->reshaped = false;
	run->hit = false;
	run->handed_over = false;
	run->refused = false;
	run->calls = 0;
	run->applies = 0;
	memset(run->meta, 0, run->meta_dirty);
	run->meta_dirty = 0;
	return run;
}

static void run_pop(struct p4tc_scratch *sc, struct p4tc_run *run)
{
	run->skb = NULL;
	sc->depth--;
}

/**
 * p4tc_act_run - run an action instance's program on a packet
 * @skb: the packet
 * @act: the instance's template
 * @params: the instance's parameter values
 * @verdict: the instance's own verdict, for a program that gives none
 *
 * Called from the tc action with BH off (softirq, or xmit under
 * rcu_read_lock_bh), so the per-CPU scratch is this run's alone.
 *
 * Return: a TC_ACT_* verdict.
 */
int p4tc_act_run(struct sk_buff *skb, const struct p4tc_act *act,
		 const u8 *params, int verdict)
{
	struct p4tc_scratch *sc = this_cpu_ptr(&p4tc_scratch);
	struct p4tc_run *run = NULL;
	bool fresh;
	int ret;

	if (!rcu_access_pointer(act->prog))
		return verdict;
	if (sc->depth)
		run = &sc->runs[sc->depth - 1];
	fresh = !run || run->skb != skb || run->pipeline != act->pipeline;
	if (fresh) {
		run = run_push(sc, skb, act->pipeline);
		if (!run)
			return TC_ACT_SHOT;
	}
	ret = prog_run(run, act, params);
	if (fresh)
		run_pop(sc, run);
	return ret == P4TC_GO_ON ? verdict : ret;
}

/* Bound tc actions of a pipeline; none is as if they said pipe. */
static int pipeline_acts_run(struct sk_buff *skb, struct tc_action **acts,
			     int n, struct tcf_result *res)
{
	return n ? tcf_action_exec(skb, acts, n, res) : TC_ACT_PIPE;
}

/**
 * p4tc_pipeline_classify - one packet's trip through a sealed pipeline
 * @skb: the packet, its MAC header set (tc ingress or egress)
 * @pipeline: the pipeline, pinned by the caller (a p4 filter)
 * @exts: the filter's own actions, run last
 * @res: the filter's result, given to its actions
 * @bp: an eBPF parser in the parse graph's place, or NULL
 * @handed_over: a device running the pipeline handed the packet over
 *	unfinished (p4tc_skb_handed_over()): the lookups are the device's
 *	too, and see its entries (skip_sw), as it would have
 * @rejected: set when the parse graph or the eBPF parser rejected the
 *	packet
 * @cookie_bad: set when @bp ran at XDP but the packet does not carry its
 *	buffer with @bp's cookie (the packet is dropped)
 *
 * The parse graph (or @bp) runs first; a packet it rejects is dropped
 * without running anything.  An eBPF parser at tc runs here, and returns
 * pipe to go on, shot to reject; any other verdict ends the trip with it.
 * One at XDP ran before: what it left in the packet's metadata is used.
 * Then the
 * pipeline's preactions, its postactions and @exts, in one run: they
 * share the packet's metadata and parse state.
 * The first verdict other than pipe ends the trip.  Called with BH off
 * and under RCU, from the classifier.
 *
 * Return: a TC_ACT_* verdict.
 */
int p4tc_pipeline_classify(struct sk_buff *skb,
			   const struct p4tc_pipeline *pipeline,
			   const struct p4tc_bpf_parser *bp,
			   struct tcf_exts *exts, struct tcf_result *res,
			   bool handed_over, bool *rejected, bool *cookie_bad)
{
	struct p4tc_scratch *sc = this_cpu_ptr(&p4tc_scratch);
	/* for the tracepoint: a program may have sent the packet on */
	const struct net_device *dev = skb->dev;
	bool ingress = skb_at_tc_ingress(skb);
	struct tcf_result p4res = {};
	struct p4tc_run *run;
	bool accepted = true;
	int ret;

	*cookie_bad = false;
	run = run_push(sc, skb, pipeline);
	if (!run)
		return TC_ACT_SHOT;
	run->handed_over = handed_over;
	if (bp) {
		ret = run_bpf_parser(run, bp, &accepted, cookie_bad);
		if (ret != TC_ACT_PIPE)
			goto out;
	} else {
		accepted = run_parse(run);
		if (!accepted) {
			ret = TC_ACT_SHOT;
			goto out;
		}
	}
	ret = pipeline_acts_run(skb, pipeline->preacts, pipeline->num_preacts,
				&p4res);
	if (ret != TC_ACT_PIPE)
		goto out;
	ret = pipeline_acts_run(skb, pipeline->postacts,
				pipeline->num_postacts, &p4res);
	if (ret != TC_ACT_PIPE)
		goto out;
	ret = tcf_exts_exec(skb, exts, res);
out:
	trace_p4_classify(dev, ingress, pipeline->common.name,
			  pipeline->common.p_id, ret, !accepted);
	run_pop(sc, run);
	*rejected = !accepted;
	return ret;
}
EXPORT_SYMBOL_GPL(p4tc_pipeline_classify);
