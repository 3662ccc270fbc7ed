/* SPDX-License-Identifier: GPL-2.0 */
/*
 * P4TC hardware offload: what P4TC asks of a driver.
 *
 * A p4 filter binds a sealed pipeline to a tc block.  Unless the filter
 * says skip_hw, P4TC offers the pipeline to every driver on that block
 * through the block's callbacks (tc_setup_cb_*), with setup type
 * TC_SETUP_CLSP4 and a struct p4tc_offload, as cls_flower offers rules.
 *
 * At BIND the driver gets a description of the whole pipeline
 * (struct p4tc_off_pipeline): a flat, self-contained copy of the parse
 * graph, header fields, metadata, registers, actions with their command
 * programs, tables and the pipeline's own program, in host byte order.
 * Records refer to other records by index into their arrays (spans of
 * first, count); no pointer leads back into P4TC, so a driver never
 * depends on P4TC's internal structures.  The description lives for the
 * duration of the callback: a driver copies or translates what it keeps.
 *
 * Semantics are P4TC's (Documentation/networking/p4tc.rst): what a
 * device does with a packet must be what the software pipeline would do,
 * or the device must give the packet to the host unchanged.  Anything
 * the device cannot do exactly is refused, with an extack message that
 * starts with the driver's name.
 *
 * Every callback runs under RTNL and may sleep.
 */
#ifndef __NET_P4TC_OFFLOAD_H
#define __NET_P4TC_OFFLOAD_H

#include <linux/skbuff.h>
#include <linux/types.h>
#include <net/flow_offload.h>
#include <uapi/linux/pkt_cls.h>

#define P4TC_OFF_NONE		U32_MAX		/* no record */
#define P4TC_OFF_ACCEPT		(U32_MAX - 1)	/* parse graph: accept */
#define P4TC_OFF_REJECT		U32_MAX		/* parse graph: reject */

/* Records [first, first + count) of another array of the description. */
struct p4tc_off_span {
	u32 first;
	u32 count;
};

/* A value of up to 128 bits: w[0] holds bits 0..63, w[1] bits 64..127. */
struct p4tc_off_val {
	u64 w[2];
};

/**
 * struct p4tc_off_header - a node of the parse graph
 * @name: "ipv4"
 * @id: P4TC's id of the header
 * @min_len: bytes; the header's length when @len_field is NONE
 * @max_len: the largest length @len_field may give
 * @len_field: FIELDS index of the field giving the length, or NONE:
 *	length = value * @len_mult + @len_add, within [@min_len, @max_len]
 * @len_mult: see @len_field
 * @len_add: see @len_field
 * @select: FIELDS index of the field whose value picks the next header,
 *	or NONE
 * @trans: TRANSITIONS tried in order when @select is set
 * @default_next: HEADERS index, P4TC_OFF_ACCEPT or P4TC_OFF_REJECT
 *
 * Headers are ordered so that every next header has a higher index: the
 * graph only moves forward and a packet visits each header at most once.
 * A header that runs past the end of the packet rejects it.
 */
struct p4tc_off_header {
	const char *name;
	u32 id;
	u16 min_len;
	u16 max_len;
	u32 len_field;
	u16 len_mult;
	u16 len_add;
	u32 select;
	struct p4tc_off_span trans;
	u32 default_next;
};

/* (select value & @mask) == @value goes to @next (as default_next). */
struct p4tc_off_trans {
	struct p4tc_off_val value;
	struct p4tc_off_val mask;
	u32 next;
};

/**
 * struct p4tc_off_field - a header field: bits [@bit_offset, @bit_offset +
 *	@bit_width) of its header, network order, bit 0 the header's first
 * @name: "ipv4/dstAddr"
 * @id: P4TC's id
 * @header: HEADERS index, or NONE (a field no header holds reads 0)
 * @bit_offset: see above
 * @bit_width: 1..128
 * @is_signed: compares as a signed number
 */
struct p4tc_off_field {
	const char *name;
	u32 id;
	u32 header;
	u16 bit_offset;
	u16 bit_width;
	bool is_signed;
};

/* User metadata: per packet, zero at the start of the pipeline. */
struct p4tc_off_meta {
	const char *name;
	u32 id;
	u16 bit_width;
	bool is_signed;
};

/*
 * A register: @num_elems cells of @bit_width bits, state across packets.
 * @init: CONSTS, the cells' values at BIND (@num_elems of them): the
 * device's copy starts from them.
 */
struct p4tc_off_register {
	const char *name;
	u32 id;
	u16 bit_width;
	bool is_signed;
	u32 num_elems;
	struct p4tc_off_span init;
};

/* A parameter of an action, in declaration order. */
struct p4tc_off_param {
	const char *name;
	u16 bit_width;
	bool is_signed;
};

/**
 * struct p4tc_off_action - an action template
 * @name: "cb/forward"
 * @id: P4TC's id, which table entries name
 * @params: PARAMS
 * @prog: INSNS of its command program
 */
struct p4tc_off_action {
	const char *name;
	u32 id;
	struct p4tc_off_span params;
	struct p4tc_off_span prog;
};

/**
 * struct p4tc_off_actref - an action with constant arguments: a table's
 *	default action
 * @action: ACTIONS index, or NONE (no action)
 * @args: OPERANDS, all constants, one per parameter
 * @verdict: the tc verdict when the action's program ends without one
 *	(TC_ACT_PIPE: go on)
 */
struct p4tc_off_actref {
	u32 action;
	struct p4tc_off_span args;
	int verdict;
};

enum p4tc_off_table_type {
	P4TC_OFF_TABLE_EXACT = 1,
	P4TC_OFF_TABLE_LPM = 2,
	P4TC_OFF_TABLE_TERNARY = 3,
};

/**
 * struct p4tc_off_table - a table
 * @name: "cb/fib"
 * @id: P4TC's id, which entries name
 * @type: P4TC_OFF_TABLE_*
 * @key_bits: bits of the key
 * @max_entries: the most entries
 * @max_masks: the most distinct masks
 * @key: OPERANDS that make the key, packed in order from its most
 *	significant bit (the first bit of key byte 0)
 * @acts: ACTIONS indices (in TABLE_ACTS) entries may use; none listed:
 *	any action of the pipeline
 * @pre: INSNS run before the key is built
 * @post: INSNS run after the entry's (or default) action
 * @default_hit: what a hit of an entry without an action runs
 * @default_miss: what a miss runs
 */
struct p4tc_off_table {
	const char *name;
	u32 id;
	u32 type;
	u32 key_bits;
	u32 max_entries;
	u32 max_masks;
	struct p4tc_off_span key;
	struct p4tc_off_span acts;
	struct p4tc_off_span pre;
	struct p4tc_off_span post;
	struct p4tc_off_actref default_hit;
	struct p4tc_off_actref default_miss;
};

/* Controls of a command (P4TC_CMD_THEN, _ELSE) */
enum p4tc_off_ctl {
	P4TC_OFF_CTL_PIPE = 0,		/* the next command */
	P4TC_OFF_CTL_JUMP = 1,		/* arg: the command's index */
	P4TC_OFF_CTL_VERDICT = 2,	/* arg: TC_ACT_*; ends the action */
};

/**
 * struct p4tc_off_insn - a command
 * @op: P4TC_CMD_OP_* (uapi/linux/p4tc.h)
 * @then_ctl: P4TC_OFF_CTL_*: where a branch taken, a jump or a ret goes
 * @else_ctl: where a branch not taken goes
 * @then_arg: a verdict, or the index (in its program) of the command a
 *	jump goes to, always forward
 * @else_arg: as @then_arg
 * @operands: OPERANDS
 */
struct p4tc_off_insn {
	u8 op;
	u8 then_ctl;
	u8 else_ctl;
	u32 then_arg;
	u32 else_arg;
	struct p4tc_off_span operands;
};

enum p4tc_off_opnd_kind {
	P4TC_OFF_OPND_CONST = 1,	/* @index: CONSTS (DEV: the ifindex) */
	P4TC_OFF_OPND_META,		/* @index: METADATA */
	P4TC_OFF_OPND_KMETA,		/* @index: P4TC_KERNEL_META_* */
	P4TC_OFF_OPND_FIELD,		/* @index: FIELDS */
	P4TC_OFF_OPND_KEY,		/* @index: TABLES, its key */
	P4TC_OFF_OPND_PARAM,		/* @index: of the running action */
	P4TC_OFF_OPND_REGISTER,		/* @index: REGISTERS, @elem its cell */
	P4TC_OFF_OPND_RESULT,		/* @index: 1 hit, 0 miss */
	P4TC_OFF_OPND_TABLE,		/* @index: TABLES */
	P4TC_OFF_OPND_ACTION,		/* @index: ACTIONS */
	P4TC_OFF_OPND_HEADER,		/* @index: HEADERS (setvalid, setinvalid) */
};

/**
 * struct p4tc_off_operand - what a command reads or writes
 * @kind: P4TC_OFF_OPND_*
 * @is_signed: compares as a signed number
 * @container_bits: bits of the object's value (for KEY: the key's)
 * @bit_start: first bit of the operand's slice of the object, bit 0 the
 *	least significant (for KEY: counted from the key's first bit)
 * @bit_end: last bit of the slice
 * @index: see enum p4tc_off_opnd_kind
 * @elem: the register cell
 */
struct p4tc_off_operand {
	u8 kind;
	bool is_signed;
	u16 container_bits;
	u16 bit_start;
	u16 bit_end;
	u32 index;
	u32 elem;
};

/**
 * struct p4tc_off_pipeline - a sealed pipeline, for a driver to translate
 * @name: the pipeline's name
 * @pipeid: its id
 * @start_header: HEADERS index the parse starts at, or NONE (no parser)
 * @prog: INSNS of the pipeline's program: its preactions then its
 *	postactions; a verdict other than pipe ends the packet's trip
 * @headers: the parse graph (see struct p4tc_off_header)
 * @trans: parse graph transitions
 * @fields: header fields
 * @meta: user metadata
 * @registers: registers
 * @actions: action templates
 * @params: their parameters
 * @tables: tables
 * @table_acts: ACTIONS indices a table allows
 * @insns: commands of every program
 * @operands: operands of every command, table key and default action
 * @consts: constant values
 * @num_headers: entries of @headers, and so on for each array
 * @num_trans: see @num_headers
 * @num_fields: see @num_headers
 * @num_meta: see @num_headers
 * @num_registers: see @num_headers
 * @num_actions: see @num_headers
 * @num_params: see @num_headers
 * @num_tables: see @num_headers
 * @num_table_acts: see @num_headers
 * @num_insns: see @num_headers
 * @num_operands: see @num_headers
 * @num_consts: see @num_headers
 *
 * After a verdict other than pipe the trip ends: TC_ACT_SHOT drops the
 * packet, TC_ACT_OK accepts it; the end of the program gives it to the
 * p4 filter's own actions; a send_port_egress transmits it.  A device that
 * hands such a packet to the host marks it with p4tc_skb_decided().
 */
struct p4tc_off_pipeline {
	const char *name;
	u32 pipeid;
	u32 start_header;
	struct p4tc_off_span prog;
	struct p4tc_off_header *headers;
	struct p4tc_off_trans *trans;
	struct p4tc_off_field *fields;
	struct p4tc_off_meta *meta;
	struct p4tc_off_register *registers;
	struct p4tc_off_action *actions;
	struct p4tc_off_param *params;
	struct p4tc_off_table *tables;
	u32 *table_acts;
	struct p4tc_off_insn *insns;
	struct p4tc_off_operand *operands;
	struct p4tc_off_val *consts;
	u32 num_headers;
	u32 num_trans;
	u32 num_fields;
	u32 num_meta;
	u32 num_registers;
	u32 num_actions;
	u32 num_params;
	u32 num_tables;
	u32 num_table_acts;
	u32 num_insns;
	u32 num_operands;
	u32 num_consts;
};

#define P4TC_OFF_MAX_PARAMS	8	/* what P4TC_ACT_PARAMS allows, at most */

/**
 * struct p4tc_off_entry - a table entry
 * @table_id: its table's id (struct p4tc_off_table.id)
 * @handle: its id in the table, unique while it exists; deletes, replaces
 *	and counters name it
 * @prio: lowest wins (ternary tables; exact and LPM entries have one too,
 *	which a device may ignore)
 * @key_bits: bits of @key and @mask: the table's key width
 * @key: the masked key, packed as the table's key operands say, bit 0 the
 *	most significant of byte 0
 * @mask: its mask (exact: all ones; LPM: a prefix)
 * @action_id: the entry's action (struct p4tc_off_action.id), or 0: a hit
 *	runs the table's default hit action
 * @num_params: entries of @params: the action's parameters
 * @params: their values, in declaration order
 * @verdict: the tc verdict when the action's program ends without one
 */
struct p4tc_off_entry {
	u32 table_id;
	u32 handle;
	u32 prio;
	u32 key_bits;
	const u8 *key;
	const u8 *mask;
	u32 action_id;
	u32 num_params;
	struct p4tc_off_val params[P4TC_OFF_MAX_PARAMS];
	int verdict;
};

/**
 * enum p4tc_off_table_mode - who decides a table's lookups
 * @P4TC_OFF_LOOKUP_HW: every entry that may match is in hardware: the
 *	device decides hits and misses (a miss runs the default miss action)
 * @P4TC_OFF_LOOKUP_HOST: the table has entries only software holds, which
 *	may match better than the device's: every lookup must hand the
 *	original packet to the host
 */
enum p4tc_off_table_mode {
	P4TC_OFF_LOOKUP_HW,
	P4TC_OFF_LOOKUP_HOST,
};

enum p4tc_offload_command {
	P4TC_OFFLOAD_BIND,		/* run @pipeline on the block's ports */
	P4TC_OFFLOAD_UNBIND,		/* stop running it there */
	P4TC_OFFLOAD_ENTRY_ADD,		/* @entry */
	P4TC_OFFLOAD_ENTRY_REPLACE,	/* @entry: same key, new action */
	P4TC_OFFLOAD_ENTRY_DEL,		/* @entry: its table and handle */
	P4TC_OFFLOAD_TABLE_MODE,	/* @table_id, @table_mode */
	P4TC_OFFLOAD_ENTRY_STATS,	/* @entry: add to @stats */
	P4TC_OFFLOAD_DEFAULT_SET,	/* @table_id, @dflt */
	P4TC_OFFLOAD_TABLE_FLUSH,	/* @table_id: every entry goes */
	P4TC_OFFLOAD_REG_READ,		/* @reg: each device's copy */
};

/**
 * struct p4tc_off_reg_read - REG_READ: the devices' copies of a register
 * @reg_id: the register (struct p4tc_off_register.id)
 * @num_elems: its cells
 * @add: each device that runs the pipeline reports its copy, once: its
 *	name (the driver's dev_name()) and its @num_elems cells
 *
 * A device keeps its own copy of each register, which the packets it runs
 * change: the control plane reads it with the software one (tc p4template
 * get register/...).  @add returns 0 or -ENOMEM.
 */
struct p4tc_off_reg_read {
	u32 reg_id;
	u32 num_elems;
	int (*add)(struct p4tc_off_reg_read *r, const char *device,
		   const struct p4tc_off_val *cells);
};

/**
 * struct p4tc_off_default - a table's default action, changed after BIND
 * @hit: the default hit action (an entry without an action of its own
 *	runs it); false: the default miss action
 * @action_id: the action (struct p4tc_off_action.id), or 0: none
 * @num_params: entries of @params: the action's parameters
 * @params: the constant arguments, in declaration order
 * @verdict: the tc verdict when the action's program ends without one
 *
 * The software table has the new default already.  A device that cannot
 * run it refuses (with an extack message): P4TC then puts the old one
 * back, in software and in every device, and the change fails.
 */
struct p4tc_off_default {
	bool hit;
	u32 action_id;
	u32 num_params;
	struct p4tc_off_val params[P4TC_OFF_MAX_PARAMS];
	int verdict;
};

/**
 * struct p4tc_off_stats - what devices counted for an entry
 * @packets: hits since the device was last asked (a delta, as
 *	flow_stats_update() takes them)
 * @bytes: their bytes
 * @lastused: jiffies of the last hit a device saw, or 0
 *
 * Each device adds its own; P4TC adds the sum to the entry's counters.
 */
struct p4tc_off_stats {
	u64 packets;
	u64 bytes;
	unsigned long lastused;
};

/**
 * struct p4tc_offload - a TC_SETUP_CLSP4 request
 * @common: chain, protocol, priority and the extack to explain a refusal
 *	with (set when the user asked for skip_sw or verbose)
 * @command: P4TC_OFFLOAD_*
 * @cookie: the binding (one p4 filter): BIND and UNBIND carry the same
 * @pipeid: the pipeline's id
 * @pipeline: BIND: the description
 * @entry: ENTRY_*: the entry
 * @table_id: TABLE_MODE, DEFAULT_SET, TABLE_FLUSH: the table
 * @table_mode: TABLE_MODE: P4TC_OFF_LOOKUP_*
 * @dflt: DEFAULT_SET: the table's new default action
 * @reg: REG_READ: the register, and where the copies go
 * @stats: ENTRY_STATS: the drivers add what their devices counted
 *
 * A device that runs a pipeline starts with every table in
 * P4TC_OFF_LOOKUP_HOST; P4TC sends the entries then each table's mode
 * right after BIND, and a table's mode again when it changes.  Entries
 * go to every block the pipeline is bound to with hardware: a driver
 * that does not run the pipeline (it refused BIND) refuses them, and an
 * ENTRY_ADD of an entry the device already holds (a port in two blocks)
 * succeeds without a second copy: the driver counts the ADDs it took,
 * and the entry leaves the device with the last ENTRY_DEL.
 *
 * ENTRY_DEL returns 0 when the callback held the entry, -ENOENT when it
 * did not: P4TC counts the devices an entry is in (in_hw_count) from it.
 * Before UNBIND, for a filter that goes or a device that leaves the
 * block (reoffload), P4TC withdraws every entry it offered there with
 * ENTRY_DEL; the entries no device holds any more are not_in_hw, and
 * those without skip_sw make their table's lookups the host's.
 */
struct p4tc_offload {
	struct flow_cls_common_offload common;
	enum p4tc_offload_command command;
	unsigned long cookie;
	u32 pipeid;
	const struct p4tc_off_pipeline *pipeline;
	const struct p4tc_off_entry *entry;
	u32 table_id;
	enum p4tc_off_table_mode table_mode;
	const struct p4tc_off_default *dflt;
	struct p4tc_off_reg_read *reg;
	struct p4tc_off_stats stats;
};

/* struct p4tc_skb_ext.verdict: the device handed the packet over */
#define P4TC_SKB_HANDED_OVER	TC_ACT_UNSPEC

/**
 * struct p4tc_skb_ext - a device running a pipeline had this packet first
 *	(SKB_EXT_P4TC)
 * @pipeid: the pipeline
 * @verdict: how its program ended: TC_ACT_OK (the trip is over) or
 *	TC_ACT_PIPE (the p4 filter's own actions run next); or
 *	P4TC_SKB_HANDED_OVER: the device did not finish it
 */
struct p4tc_skb_ext {
	u32 pipeid;
	int verdict;
};

#if IS_ENABLED(CONFIG_NET_P4_TC)
/**
 * p4tc_skb_decided - mark a packet the device ran @pipeid on
 * @skb: the packet, as the device left it
 * @pipeid: the pipeline
 * @verdict: TC_ACT_OK or TC_ACT_PIPE, as the device reported it
 *
 * A driver calls this on a packet its device gives the host after running
 * the pipeline on it (p4nic: RX reason PASS).  The p4 filter bound to
 * @pipeid then does not run the pipeline again: it gives @verdict, or runs
 * its own actions when @verdict is TC_ACT_PIPE.
 *
 * Return: 0, or -ENOMEM (the packet would run the pipeline twice: drop it).
 */
static inline int p4tc_skb_decided(struct sk_buff *skb, u32 pipeid,
				   int verdict)
{
	struct p4tc_skb_ext *ext = skb_ext_add(skb, SKB_EXT_P4TC);

	if (!ext)
		return -ENOMEM;
	ext->pipeid = pipeid;
	ext->verdict = verdict;
	return 0;
}

/**
 * p4tc_skb_handed_over - mark a packet the device running @pipeid gives
 *	the host unfinished
 * @skb: the packet, as it came from the wire
 * @pipeid: the pipeline
 *
 * A driver calls this on a packet its device hands the host to decide (a
 * lookup of a table whose lookups are the host's, a command the device
 * lacks; p4nic: RX reasons TABLE_MISS and UNSUPPORTED).  The p4 filter
 * bound to @pipeid runs the whole pipeline on it, and its lookups see the
 * entries only devices hold (skip_sw) too: the device would have used
 * them, and the answer must be the one all software gives.
 *
 * Return: 0, or -ENOMEM (the lookups would miss the device's entries:
 * drop it).
 */
static inline int p4tc_skb_handed_over(struct sk_buff *skb, u32 pipeid)
{
	return p4tc_skb_decided(skb, pipeid, P4TC_SKB_HANDED_OVER);
}
#endif

#endif
