/* SPDX-License-Identifier: GPL-2.0 */
/*
 * P4TC: P4 programs in traffic control.  Objects of the template side and
 * the interface between the generic template code (p4tc_tmpl_api.c) and
 * each object kind.
 *
 * Locking: every template object is created, changed and freed under
 * RTNL; netlink handlers and dumps of RTM_*P4TEMPLATE run with it held.
 * Objects the datapath reads are freed after an RCU grace period.
 */
#ifndef __NET_P4TC_H
#define __NET_P4TC_H

#include <linux/idr.h>
#include <linux/netlink.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/rhashtable-types.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <net/act_api.h>
#include <net/gen_stats.h>
#include <net/net_namespace.h>
#include <net/p4tc_offload.h>
#include <net/p4tc_types.h>
#include <uapi/linux/p4tc.h>

#define P4TC_DEFAULT_NUM_TABLES P4TC_MINTABLES_COUNT
#define P4TC_TMPL_MAXATTR 16	/* the most attributes of an object kind */
#define P4TC_DEFAULT_MAX_RULES 1
#define P4TC_KERNEL_PIPEID 0
#define P4TC_KERNEL_PIPENAME "kernel"

/* Index of each id in a path */
#define P4TC_PID_IDX 0
#define P4TC_MID_IDX 1
#define P4TC_REGID_IDX 1
#define P4TC_PARSEID_IDX 1
#define P4TC_HDRFIELDID_IDX 2
#define P4TC_HDRID_IDX 2
#define P4TC_AID_IDX 1
#define P4TC_TBLID_IDX 1

/* Where a dump stopped: the last id written at each level of the path */
struct p4tc_dump_ctx {
	u32 ids[P4TC_PATH_MAX];
};

/*
 * The pipeline name of a request: as the user gave it (@passed), or filled
 * in by the object code for the reply.  @data has PIPELINENAMSIZ bytes.
 */
struct p4tc_nl_pname {
	char *data;
	bool passed;
};

struct p4tc_template_common;
struct p4tc_pipeline;

/**
 * struct p4tc_template_ops - what an object kind supplies
 * @cu: create, or update when the message has NLM_F_REPLACE; fills in the
 *	ids and the pipeline name of what it found or made.  Kinds that live
 *	in a pipeline leave it NULL and give @policy, @maxattr, @create and
 *	@update: the generic code parses the attributes and finds the
 *	(unsealed) pipeline first
 * @policy: attribute policy of the kind's P4TC_PARAMS
 * @maxattr: highest attribute of @policy, P4TC_TMPL_MAXATTR at most
 * @create: make an object in @pipeline from attributes @tb
 * @update: change the object of @pipeline that @tb and @ids name
 * @put: destroy an object @cu just created (a later object of the same
 *	batch failed)
 * @undo: instead of @put, for kinds whose create takes over objects made
 *	before (a header adopts its fields): give them back, then destroy;
 *	cannot fail, so that a batch is created whole or not at all
 * @gd: get or delete the object named by @nla and @ids, writing it into
 *	@skb; delete with NLM_F_ROOT and no name or id flushes
 * @fill: write the path and attributes of @tmpl; -EMSGSIZE when they do
 *	not fit (the caller drops the partial attributes)
 * @dump: write up to P4TC_MSGBATCH_SIZE objects after @ctx; returns the
 *	bytes written, 0 when there was nothing left
 * @update_sealed: @update is also called in sealed pipelines (and checks
 *	itself what may change there)
 */
struct p4tc_template_ops {
	struct p4tc_template_common *(*cu)(struct net *net, struct nlmsghdr *n,
					   struct nlattr *nla,
					   struct p4tc_nl_pname *nl_pname,
					   u32 *ids,
					   struct netlink_ext_ack *extack);
	const struct nla_policy *policy;
	int maxattr;
	struct p4tc_template_common *(*create)(struct p4tc_pipeline *pipeline,
					       struct nlattr **tb, u32 *ids,
					       struct netlink_ext_ack *extack);
	struct p4tc_template_common *(*update)(struct p4tc_pipeline *pipeline,
					       struct nlattr **tb, u32 *ids,
					       struct netlink_ext_ack *extack);
	int (*put)(struct net *net, struct p4tc_template_common *tmpl,
		   struct netlink_ext_ack *extack);
	void (*undo)(struct net *net, struct p4tc_template_common *tmpl);
	int (*gd)(struct net *net, struct sk_buff *skb, struct nlmsghdr *n,
		  struct nlattr *nla, struct p4tc_nl_pname *nl_pname, u32 *ids,
		  struct netlink_ext_ack *extack);
	int (*fill)(struct sk_buff *skb, struct p4tc_template_common *tmpl);
	int (*dump)(struct sk_buff *skb, struct p4tc_dump_ctx *ctx,
		    struct nlattr *nla, char **p_name, u32 *ids,
		    struct netlink_ext_ack *extack);
	bool update_sealed;
};

struct p4tc_template_common {
	char name[TEMPLATENAMSZ];
	const struct p4tc_template_ops *ops;
	u32 p_id;
};

extern const struct p4tc_template_ops p4tc_pipeline_ops;
extern const struct p4tc_template_ops p4tc_meta_ops;
extern const struct p4tc_template_ops p4tc_hdrfield_ops;
extern const struct p4tc_template_ops p4tc_header_ops;
extern const struct p4tc_template_ops p4tc_register_ops;
extern const struct p4tc_template_ops p4tc_act_ops;
extern const struct p4tc_template_ops p4tc_table_ops;

struct p4tc_parser;
struct tcf_exts;
struct bpf_prog;
struct tcf_result;

/**
 * struct p4tc_pipeline - a P4 program
 * @common: name and id
 * @p_meta_idr: user metadata by id
 * @p_reg_idr: registers by id
 * @p_act_idr: action templates by id
 * @p_tbl_idr: tables by id
 * @parser: the parse graph and header fields, NULL until the first is made
 * @net: the namespace the pipeline lives in
 * @preacts: bound tc actions run first for every packet (NULL: none yet)
 * @postacts: bound tc actions run last
 * @num_preacts: entries of @preacts
 * @num_postacts: entries of @postacts
 * @max_rules: limit on table entries (1..P4TC_MAXRULES_LIMIT)
 * @p_meta_bits: bits the user metadata containers take together
 * @p_meta_used: bytes of a packet's metadata that a metadatum holds
 * @p_ref: 1 while in its namespace, plus one per p4 filter that pins it;
 *	the last put frees it (a filter's, when the namespace went first)
 * @num_tables: tables the program declares
 * @curr_tables: tables created so far
 * @p_state: P4TC_STATE_*: READY (sealed) refuses template changes
 * @p_pinned: a filter pinned it once: packets may still be on it when the
 *	last filter goes, so deleting waits for them
 * @hw_blocks: the blocks p4 filters bind it to without skip_hw (struct
 *	p4tc_hw_block), where its entries are offered (p4tc_offload.c)
 */
struct p4tc_pipeline {
	struct p4tc_template_common common;
	struct idr p_meta_idr;
	struct idr p_reg_idr;
	struct idr p_act_idr;
	struct idr p_tbl_idr;
	struct p4tc_parser *parser;
	struct net *net;
	struct tc_action **preacts;
	struct tc_action **postacts;
	int num_preacts;
	int num_postacts;
	u32 max_rules;
	u32 p_meta_bits;
	DECLARE_BITMAP(p_meta_used, P4TC_MAXMETA_OFFSET / 8);
	refcount_t p_ref;
	u16 num_tables;
	u16 curr_tables;
	u8 p_state;
	bool p_pinned;
	struct list_head hw_blocks;
};

static inline bool pipeline_sealed(const struct p4tc_pipeline *pipeline)
{
	return pipeline->p_state == P4TC_STATE_READY;
}

struct p4tc_pipeline *tcf_pipeline_find_byid(struct net *net, u32 pipeid);
struct p4tc_pipeline *tcf_pipeline_find_byany(struct net *net,
					      const char *p_name, u32 pipeid,
					      struct netlink_ext_ack *extack);
struct p4tc_pipeline *
tcf_pipeline_find_byany_unsealed(struct net *net, const char *p_name,
				 u32 pipeid, struct netlink_ext_ack *extack);
struct p4tc_pipeline *tcf_pipeline_get(struct net *net, const char *p_name,
				       u32 pipeid,
				       struct netlink_ext_ack *extack);
void tcf_pipeline_put_ref(struct p4tc_pipeline *pipeline);
int p4tc_action_bind(struct net *net, struct nlattr *nla,
		     struct tc_action ***acts, struct netlink_ext_ack *extack);
void p4tc_action_destroy(struct tc_action **acts);

/**
 * struct p4tc_metadata - a metadatum: per-packet scratch of a P4 type
 * @common: name and pipeline id
 * @rcu: for freeing after readers
 * @m_id: id inside the pipeline
 * @m_ref: 1 for existing, plus one per command that names it
 * @m_startbit: first bit of the slice of @m_datatype
 * @m_endbit: last bit of the slice
 * @m_datatype: P4T_* of the container
 * @m_read_only: kernel metadata that programs may read but not write
 * @m_offset: bytes into a packet's metadata (user metadata)
 */
struct p4tc_metadata {
	struct p4tc_template_common common;
	struct rcu_head rcu;
	u32 m_id;
	refcount_t m_ref;
	u16 m_startbit;
	u16 m_endbit;
	u8 m_datatype;
	bool m_read_only;
	u8 m_offset;
};

struct p4tc_metadata *tcf_meta_find_byid(struct p4tc_pipeline *pipeline,
					 u32 m_id);
struct p4tc_metadata *tcf_meta_find_byname(struct p4tc_pipeline *pipeline,
					   const char *m_name);
void tcf_meta_purge(struct p4tc_pipeline *pipeline);
int tcf_meta_init_kernel(struct p4tc_pipeline *kernel_pipeline);

/* A transition of the parse graph: (select & mask) == value goes to next */
struct p4tc_header_trans {
	struct p4t_val value;
	struct p4t_val mask;
	struct p4tc_header *next;	/* NULL: @next_kind */
	u8 next_kind;			/* P4TC_NEXT_* */
};

enum {
	P4TC_NEXT_HEADER,
	P4TC_NEXT_ACCEPT,
	P4TC_NEXT_REJECT,
};

/**
 * struct p4tc_parser - a pipeline's parser: header fields and parse graph
 * @parser_name: as the user named it ("parser1")
 * @hdrfield_idr: header fields by id
 * @header_idr: headers by id
 * @start: the header the parse starts at, or NULL
 * @parser_id: id (the pipeline has one parser)
 * @num_objects: headers and fields; the parser goes with the last one
 * @num_headers: headers (P4TC_MAX_PARSE_HEADERS at most)
 * @hdr_slots: the slots (bits) headers take in a packet's parse state
 * @hdr_by_id: headers of ids 1 to P4TC_MAX_PARSE_HEADERS, for what an
 *	eBPF parser reports (read by the datapath once sealed)
 */
struct p4tc_parser {
	char parser_name[PARSERNAMSIZ];
	struct idr hdrfield_idr;
	struct idr header_idr;
	struct p4tc_header *start;
	u32 parser_id;
	u32 num_objects;
	u32 num_headers;
	u32 hdr_slots;
	struct p4tc_header *hdr_by_id[P4TC_MAX_PARSE_HEADERS];
};

/**
 * struct p4tc_header - a node of the parse graph
 * @common: name ("ipv4") and pipeline id
 * @parser: the parser it belongs to
 * @hdr_id: id inside the parser
 * @min_len: bytes; the length when @len_field is NULL
 * @max_len: largest length @len_field may give
 * @len_mult: length = @len_field * @len_mult + @len_add
 * @len_add: see @len_mult
 * @len_field: field of this header holding its length, or NULL
 * @select: field of this header whose value picks the next header, or NULL
 * @trans: transitions tried in order when @select is set
 * @num_trans: entries of @trans
 * @default_next: header after this one when no transition matches
 * @default_kind: P4TC_NEXT_*; HEADER means @default_next
 * @hdr_ref: 1 for existing, plus one per field, transition and command
 *	naming it
 * @slot: where a packet's parse state keeps this header's offset
 */
struct p4tc_header {
	struct p4tc_template_common common;
	struct p4tc_parser *parser;
	u32 hdr_id;
	u16 min_len;
	u16 max_len;
	u16 len_mult;
	u16 len_add;
	struct p4tc_hdrfield *len_field;
	struct p4tc_hdrfield *select;
	struct p4tc_header_trans trans[P4TC_MAX_TRANSITIONS];
	u8 num_trans;
	struct p4tc_header *default_next;
	u8 default_kind;
	refcount_t hdr_ref;
	u8 slot;
};

#define P4TC_HDRFIELD_NO_OFFSET 0xffff

/**
 * struct p4tc_hdrfield - a header field ("ipv4/dstAddr")
 * @common: name "HEADER/FIELD" and pipeline id
 * @parser: the parser it belongs to
 * @header: its header in the parse graph, or NULL (a field only an eBPF
 *	parser fills)
 * @hdrfield_id: id inside the parser
 * @startbit: first bit of the slice of @datatype
 * @endbit: last bit of the slice
 * @offset: first bit inside @header (network order), or
 *	P4TC_HDRFIELD_NO_OFFSET
 * @datatype: P4T_*
 * @hdrfield_ref: 1 for existing, plus one per header and command using it
 */
struct p4tc_hdrfield {
	struct p4tc_template_common common;
	struct p4tc_parser *parser;
	struct p4tc_header *header;
	u32 hdrfield_id;
	u16 startbit;
	u16 endbit;
	u16 offset;
	u8 datatype;
	refcount_t hdrfield_ref;
};

struct p4tc_hdrfield *tcf_hdrfield_find_byname(struct p4tc_parser *parser,
					       const char *name);
struct p4tc_header *tcf_header_find_byname(struct p4tc_parser *parser,
					   const char *name);
void tcf_parser_purge(struct p4tc_pipeline *pipeline);
int tcf_parser_check_sealable(struct p4tc_pipeline *pipeline,
			      struct netlink_ext_ack *extack);

/**
 * struct p4tc_register - an array of typed values programs keep state in
 * @common: name and pipeline id
 * @reg_value_lock: serializes element reads and writes
 * @reg_value: @reg_num_elems containers
 * @reg_num_elems: elements (1..P4TC_MAX_REGISTER_ELEMS)
 * @reg_id: id inside the pipeline
 * @reg_ref: 1 for existing, plus one per command that names it
 * @reg_startbit: first bit of the slice of @reg_type
 * @reg_endbit: last bit of the slice
 * @reg_type: P4T_* of the containers
 */
struct p4tc_register {
	struct p4tc_template_common common;
	struct p4tc_pipeline *pipeline;	/* which outlives it */
	spinlock_t reg_value_lock;	/* guards reg_value */
	void *reg_value;
	u32 reg_num_elems;
	u32 reg_id;
	refcount_t reg_ref;
	u16 reg_startbit;
	u16 reg_endbit;
	u8 reg_type;
};

void tcf_register_purge(struct p4tc_pipeline *pipeline);
void p4tc_register_cell(struct p4tc_register *reg, u32 index,
			struct p4t_val *v);

/**
 * struct p4tc_act_param - a parameter of an action template
 * @name: as declared ("port")
 * @id: id inside the action (1..)
 * @offset: bytes into an instance's value block
 * @startbit: first bit of the slice of @datatype
 * @endbit: last bit of the slice
 * @datatype: P4T_* of the container
 * @type: the type of @datatype
 * @ms: the slice of @type, for the datapath
 */
struct p4tc_act_param {
	char name[ACTPARAMNAMSIZ];
	const struct p4tc_type *type;
	struct p4tc_type_mask_shift ms;
	u32 id;
	u16 offset;
	u16 startbit;
	u16 endbit;
	u8 datatype;
};

/**
 * struct p4tc_act - an action template, and once active a tc action kind
 * @common: name "[CB/]NAME" and pipeline id
 * @ops: the tc action kind "PIPELINE/NAME" (valid when @active)
 * @tn: the kind's instances (valid when @active)
 * @params: @num_params parameters, in declaration order
 * @prog: the program (NULL: none), read by the datapath under RCU
 * @cmds_nla: the program as the user sent it, for dumps
 * @pipeline: the pipeline (the datapath uses it only through @prog)
 * @dying_prog: the program while its pipeline is being destroyed
 * @rcu: for freeing after the datapath
 * @num_params: entries of @params
 * @params_bytes: size of an instance's value block
 * @a_id: id inside the pipeline
 * @a_ref: 1 for existing, plus one per other template, table action list,
 *	entry and default action naming it
 * @a_kind_ref: the kind's users (act_api's dyn_ref): 1 for being
 *	registered, plus instances and lookups in flight
 * @active: the kind is registered; parameters no longer change
 */
struct p4tc_act {
	struct p4tc_template_common common;
	struct tc_action_ops ops;
	struct tc_action_net tn;
	struct p4tc_act_param *params;
	struct p4tc_prog __rcu *prog;
	struct nlattr *cmds_nla;
	struct p4tc_pipeline *pipeline;
	struct p4tc_prog *dying_prog;
	struct rcu_head rcu;
	u32 num_params;
	u32 params_bytes;
	u32 a_id;
	refcount_t a_ref;
	refcount_t a_kind_ref;
	bool active;
};

/* The parameter values of an instance, laid out as @params of its kind */
struct tcf_p4act_params {
	struct rcu_head rcu;
	u8 values[];
};

/* An instance of an action template: a tc action */
struct tcf_p4act {
	struct tc_action common;
	struct tcf_p4act_params __rcu *params;
};

struct p4tc_act *tcf_act_find_byname(struct p4tc_pipeline *pipeline,
				     const char *name);
void tcf_act_put_ref(struct p4tc_act *act);
int p4tc_act_params_parse(struct p4tc_act *act, struct nlattr *nla,
			  struct tcf_p4act_params *params,
			  struct netlink_ext_ack *extack);
int p4tc_act_instance_copy(struct p4tc_act *act, u32 index, u8 *values,
			   int *verdict, struct netlink_ext_ack *extack);
int p4tc_act_params_fill(struct sk_buff *skb, const struct p4tc_act *act,
			 const struct tcf_p4act_params *params);
const struct p4tc_act *p4tc_action_template(const struct tc_action *a,
					    const struct p4tc_pipeline *pipeline,
					    const u8 **values);

/**
 * struct p4tc_table_act - an action a table's entries and defaults may use
 * @act: the action template (the table holds a reference)
 * @flags: P4TC_TABLE_ACT_FLAGS_*
 */
struct p4tc_table_act {
	struct p4tc_act *act;
	u8 flags;
};

/**
 * struct p4tc_table_entry_value - what an entry (or a default) does
 * @rcu: for freeing after the datapath
 * @act: the action template
 * @verdict: the verdict when the action's program gives none
 * @permissions: of a default action (entries keep theirs in the entry)
 * @params: its parameter values, laid out as @act's params (last: the
 *	values follow)
 */
struct p4tc_table_entry_value {
	struct rcu_head rcu;
	struct p4tc_act *act;
	int verdict;
	u16 permissions;
	struct tcf_p4act_params params;
};

#define P4TC_STATS_BLOCK 64

/**
 * struct p4tc_stats_block - the hit counters of P4TC_STATS_BLOCK entry
 *	handles: one per-CPU allocation serves many entries
 * @stats: per CPU, a counter per handle of the block
 * @rcu: for freeing after the datapath
 * @used: entries of the block
 */
struct p4tc_stats_block {
	struct gnet_stats_basic_sync __percpu *stats;
	struct rcu_head rcu;
	u32 used;
};

/**
 * struct p4tc_table_mask - the entries of a table that share a mask
 * @list: in the table's masks (LPM: the longest prefix first)
 * @ht: the entries by masked key; entries equal in key and mask but not
 *	in priority hang off the one with the lowest priority
 * @ht_params: @ht's parameters (the key length is the table's)
 * @rwork: frees @ht after the datapath let go
 * @num_entries: entries with this mask
 * @prefix_len: bits of the prefix (LPM tables)
 * @mask: the mask, the table's key bytes long
 */
struct p4tc_table_mask {
	struct list_head list;
	struct rhashtable ht;
	struct rhashtable_params ht_params;
	struct rcu_work rwork;
	u32 num_entries;
	u32 prefix_len;
	u8 mask[];
};

/**
 * struct p4tc_table_entry - a table entry
 * @node: in its mask's hash table (the first of its priority chain)
 * @next: the next entry with the same key and mask, by priority
 * @mask: its mask
 * @value: its action, replaced by updates
 * @stats: hit counters per CPU, in the table's block of @handle
 * @rcu: for freeing after the datapath
 * @created: jiffies of its creation
 * @lastused: jiffies of its last hit
 * @firstused: jiffies of its first hit, 0 before
 * @prio: priority, lowest wins
 * @handle: id in the table's entry IDR (dumps continue from it);
 *	handles are given in turn, so a handle (and its counters) is not
 *	reused while readers of the entry that had it may still run
 * @permissions: P4TC_*_PERM_*
 * @create_who: P4TC_ENTITY_* that made it
 * @update_who: P4TC_ENTITY_* that last changed it (0: none)
 * @flags: TCA_CLS_FLAGS_SKIP_HW, _SKIP_SW (not in the software lookup)
 *	and _IN_HW
 * @in_hw_count: device callbacks that took it
 * @hw_packets: hits devices counted (read back when the entry is dumped)
 * @hw_bytes: their bytes
 * @key: the masked key
 */
struct p4tc_table_entry {
	struct rhash_head node;
	struct p4tc_table_entry __rcu *next;
	struct p4tc_table_mask *mask;
	struct p4tc_table_entry_value __rcu *value;
	struct gnet_stats_basic_sync __percpu *stats;
	struct rcu_head rcu;
	unsigned long created;
	unsigned long lastused;
	unsigned long firstused;
	u32 prio;
	u32 handle;
	u16 permissions;
	u8 create_who;
	u8 update_who;
	u32 flags;
	u32 in_hw_count;
	u64 hw_packets;
	u64 hw_bytes;
	u8 key[];
};

/**
 * struct p4tc_table - a P4 table
 * @common: name "CB/NAME" and pipeline id
 * @pipeline: its pipeline
 * @rcu: for freeing after the datapath
 * @masks: its masks (struct p4tc_table_mask), read by the datapath
 * @entries_idr: its entries by handle
 * @stats_blocks: the blocks of hit counters, by handle / P4TC_STATS_BLOCK
 * @key_acts: the tc actions that build the key (NULL: none; the lists
 *	end at their first empty slot)
 * @preacts: tc actions run before the lookup
 * @postacts: tc actions run after the entry's action
 * @default_hit: what a hit whose entry has no action does
 * @default_miss: what a miss does
 * @acts: the actions entries and defaults may use (none listed: any of
 *	the pipeline's)
 * @num_acts: entries of @acts
 * @tbl_id: id inside the pipeline
 * @keysz: bits of the key
 * @key_bytes: bytes of the key
 * @max_entries: the most entries
 * @max_masks: the most distinct masks
 * @num_entries: entries now
 * @num_masks: masks now
 * @next_prio: the priority of the next ternary entry given none
 * @num_sw_only: entries no device was offered (skip_hw, or not
 *	executable): while there are any, devices send every lookup of the
 *	table to the host
 * @tbl_ref: 1 for existing, plus one per command naming the table
 * @permissions: P4TC_*_PERM_*
 * @type: P4TC_TABLE_TYPE_*
 */
struct p4tc_table {
	struct p4tc_template_common common;
	struct p4tc_pipeline *pipeline;
	struct rcu_head rcu;
	struct list_head masks;
	struct idr entries_idr;
	struct xarray stats_blocks;
	struct tc_action **key_acts;
	struct tc_action **preacts;
	struct tc_action **postacts;
	struct p4tc_table_entry_value __rcu *default_hit;
	struct p4tc_table_entry_value __rcu *default_miss;
	struct p4tc_table_act *acts;
	u32 num_acts;
	u32 tbl_id;
	u32 keysz;
	u32 key_bytes;
	u32 max_entries;
	u32 max_masks;
	u32 num_entries;
	u32 num_masks;
	u32 next_prio;
	u32 num_sw_only;
	refcount_t tbl_ref;
	u16 permissions;
	u8 type;
};

struct p4tc_table *tcf_table_find_byname(struct p4tc_pipeline *pipeline,
					 const char *name);
struct p4tc_table *tcf_table_find_byany(struct p4tc_pipeline *pipeline,
					const char *name, u32 id,
					struct netlink_ext_ack *extack);
void tcf_table_put_ref(struct p4tc_table *table);
void tcf_table_release_all(struct p4tc_pipeline *pipeline);
int tcf_table_binds(struct p4tc_pipeline *pipeline, const struct tc_action *a);
void tcf_table_purge(struct p4tc_pipeline *pipeline);
/* Where a table uses an action: its list's flags say where it may be */
enum p4tc_act_use {
	P4TC_ACT_USE_ENTRY,
	P4TC_ACT_USE_HIT,	/* the default hit action */
	P4TC_ACT_USE_MISS,	/* the default miss action */
};

int p4tc_table_act_allowed(const struct p4tc_table *table,
			   const struct p4tc_act *act, enum p4tc_act_use use,
			   struct netlink_ext_ack *extack);

/* Entries (p4tc_tbl_entry.c) */
struct p4tc_table_entry_value *
p4tc_entry_value_parse(struct p4tc_table *table, struct nlattr *nla,
		       enum p4tc_act_use use, struct netlink_ext_ack *extack);
void p4tc_entry_value_free(struct p4tc_table_entry_value *value);
int p4tc_entry_value_fill(struct sk_buff *skb, int attr,
			  const struct p4tc_table_entry_value *value);
int p4tc_table_entries_add(struct p4tc_table *table, struct nlattr *nla,
			   struct netlink_ext_ack *extack);
void p4tc_table_entries_flush(struct p4tc_table *table);
struct p4tc_table_entry *p4tc_table_lookup(struct p4tc_table *table,
					   const u8 *key, bool handed_over);
void p4tc_runtime_init(void);

/* Offload: the description (p4tc_offload_describe.c) */
struct p4tc_off_pipeline;
struct tcf_block;
struct p4tc_off_pipeline *
p4tc_offload_describe(struct p4tc_pipeline *pipeline,
		      struct netlink_ext_ack *extack);
void p4tc_offload_describe_free(struct p4tc_off_pipeline *d);

/* Offload: where entries, defaults and registers go (p4tc_offload.c) */
int p4tc_offload_block_get(struct p4tc_pipeline *pipeline,
			   struct tcf_block *block);
void p4tc_offload_block_put(struct p4tc_pipeline *pipeline,
			    struct tcf_block *block);
void p4tc_offload_replay(struct p4tc_pipeline *pipeline,
			 struct tcf_block *block, flow_setup_cb_t *cb,
			 void *cb_priv);
void p4tc_offload_withdraw(struct p4tc_pipeline *pipeline,
			   struct tcf_block *block, flow_setup_cb_t *cb,
			   void *cb_priv);
void p4tc_offload_default_set(struct p4tc_table *table, bool hit,
			      struct netlink_ext_ack *extack);

/**
 * struct p4tc_reg_copy - a device's copy of a register (REG_READ)
 * @list: in the list p4tc_offload_register_read() fills
 * @device: the device's name
 * @cells: its cells, host order
 */
struct p4tc_reg_copy {
	struct list_head list;
	char device[32];
	struct p4tc_off_val cells[];
};

void p4tc_offload_register_read(struct p4tc_register *reg,
				struct list_head *copies);
void p4tc_offload_register_copies_free(struct list_head *copies);
int p4tc_offload_entry_add(struct p4tc_table *table,
			   struct p4tc_table_entry *e,
			   struct netlink_ext_ack *extack);
int p4tc_offload_entry_place(struct p4tc_table *table,
			     struct p4tc_table_entry *e, u32 flags, u16 perms,
			     const struct p4tc_table_entry_value *value,
			     struct netlink_ext_ack *extack);
int p4tc_offload_entry_replace(struct p4tc_table *table,
			       struct p4tc_table_entry *e,
			       const struct p4tc_table_entry_value *value,
			       struct netlink_ext_ack *extack);
void p4tc_offload_entry_del(struct p4tc_table *table,
			    struct p4tc_table_entry *e);
void p4tc_offload_entries_gone(struct p4tc_table *table);
void p4tc_offload_entry_stats(struct p4tc_table *table,
			      struct p4tc_table_entry *e);

/* A parameter list of a template, with its count and instance block size */
struct p4tc_param_list {
	struct p4tc_act_param *params;
	u32 num;
	u32 bytes;
};

/* A command operand, resolved against the objects it names */
struct p4tc_cmd_opnd {
	const struct p4tc_type *type;	/* the object's container type */
	struct p4tc_type_mask_shift ms;	/* the object's slice of it */
	union {
		struct p4tc_metadata *meta;
		struct p4tc_hdrfield *field;
		struct p4tc_register *reg;
		struct p4tc_act *act;		/* act with arguments */
		struct p4tc_table *table;	/* tables and keys */
		struct p4tc_header *hdr;	/* setvalid, setinvalid */
	};
	struct tc_action *inst;		/* act by index (bound), or NULL */
	struct p4t_val value;		/* constants, dev: the value */
	u32 index;			/* param, register element, kmeta id */
	u16 shift;			/* the operand's slice: first bit */
	u16 width;			/* bits of the operand's value */
	u16 obj_width;			/* bits of the object's value */
	u8 kind;			/* P4TC_OPER_* */
	bool is_signed;
	/* how the datapath reaches the operand's value in one step */
	u8 acc;				/* P4TC_ACC_* */
	u8 acc_bytes;			/* 1..8 bytes, the whole value */
	bool acc_be;			/* in network order */
	u8 acc_slot;			/* _PKT: the header's parse slot */
	u16 acc_off;			/* bytes into the header, metadata, */
					/* parameters or key */
};

/* Operands the datapath reads and writes as whole bytes at a fixed place,
 * without the slices and 128-bit values of the general path: the common
 * case, a whole field, metadata, parameter or key part of up to 64 bits.
 */
enum {
	P4TC_ACC_SLOW,		/* the general path */
	P4TC_ACC_CONST,		/* value.w[0] */
	P4TC_ACC_PKT,		/* the packet, in a header */
	P4TC_ACC_META,		/* the run's user metadata */
	P4TC_ACC_PARAM,		/* the running action's parameters */
	P4TC_ACC_KEY,		/* the key being built */
};

/* A command; labels are resolved to command indexes */
struct p4tc_cmd {
	struct p4tc_cmd_opnd *opnds;
	const char *prefix;		/* print: in the template's cmds_nla */
	u32 then_arg;			/* verdict, or command index to go to */
	u32 else_arg;
	u8 op;				/* P4TC_CMD_OP_* */
	u8 num_opnds;
	u8 then_ctl;			/* P4TC_CTL_VERDICT or _JUMP */
	u8 else_ctl;
	bool fast;			/* 64-bit operands, none P4TC_ACC_SLOW */
};

static inline bool p4tc_cmd_is_branch(u8 op)
{
	return op >= P4TC_CMD_OP_BEQ && op <= P4TC_CMD_OP_BGE;
}

/*
 * Whether @cmd carries the seed's "control VERDICT" on a command that is
 * no branch, jump or ret: the verdict its action returns if it ends after
 * the command.
 */
static inline bool p4tc_cmd_sets_verdict(const struct p4tc_cmd *cmd)
{
	return cmd->then_ctl && !p4tc_cmd_is_branch(cmd->op) &&
	       cmd->op != P4TC_CMD_OP_JUMP && cmd->op != P4TC_CMD_OP_RET;
}

/* A program: what an action template's commands resolve to */
struct p4tc_prog {
	u32 num_cmds;
	struct p4tc_cmd cmds[];
};

struct p4tc_prog *p4tc_cmds_parse(struct p4tc_pipeline *pipeline,
				  const struct p4tc_param_list *params,
				  struct nlattr *nla,
				  struct netlink_ext_ack *extack);
void p4tc_prog_free(struct p4tc_prog *prog);
int p4tc_prog_binds(const struct p4tc_prog *prog, const struct tc_action *a);
/**
 * struct p4tc_bpf_parser - an eBPF program parsing in the parse graph's place
 * @prog: BPF_PROG_TYPE_SCHED_ACT: the p4 classifier runs it on each
 *	packet; BPF_PROG_TYPE_XDP: it ran at XDP and left its buffer in the
 *	packet's metadata
 * @cookie: what a parser at XDP writes in its buffer
 */
struct p4tc_bpf_parser {
	struct bpf_prog *prog;
	u32 cookie;
};

int p4tc_pipeline_classify(struct sk_buff *skb,
			   const struct p4tc_pipeline *pipeline,
			   const struct p4tc_bpf_parser *bp,
			   struct tcf_exts *exts, struct tcf_result *res,
			   bool handed_over, bool *rejected, bool *cookie_bad);
struct p4tc_parser_buffer *p4tc_run_parser_buffer(const struct sk_buff *skb);
const struct p4tc_table_entry_value *
p4tc_table_read(struct p4tc_table *table, const u8 *key,
		const struct sk_buff *skb, u32 len, bool *hit);
int p4tc_pipeline_bpf_parser_check(const struct p4tc_pipeline *pipeline,
				   struct netlink_ext_ack *extack);
int p4tc_act_run(struct sk_buff *skb, const struct p4tc_act *act,
		 const u8 *params, int verdict);
int tcf_act_check_pipeline_deletable(struct p4tc_pipeline *pipeline,
				     struct netlink_ext_ack *extack);
int tcf_act_check_sealable(struct p4tc_pipeline *pipeline,
			   struct netlink_ext_ack *extack);
void tcf_act_purge(struct p4tc_pipeline *pipeline);

/*
 * Helpers of the generic template code, for the object kinds.  Their IDRs
 * hold objects whose first member is their struct p4tc_template_common.
 */

/*
 * An extack message from a table of static strings: NL_SET_ERR_MSG()
 * takes a literal, these messages are as static.
 */
static inline void p4tc_set_msg(struct netlink_ext_ack *extack,
				const char *msg)
{
	if (extack)
		extack->_msg = msg;
}

/* What a failed lookup says, per object kind */
struct p4tc_find_msgs {
	const char *no_id;	/* the id names nothing */
	const char *mismatch;	/* name and id name different objects */
	const char *no_key;	/* neither name nor id given */
	const char *no_name;	/* the name names nothing */
};

struct p4tc_template_common *p4tc_tmpl_find_byname(struct idr *idr,
						   const char *name);
struct p4tc_template_common *
p4tc_tmpl_find_byany(struct idr *idr, const char *name, u32 id,
		     const struct p4tc_find_msgs *msgs,
		     struct netlink_ext_ack *extack);
int p4tc_tmpl_alloc_id(struct idr *idr, void *obj, u32 *id, const char *msg,
		       struct netlink_ext_ack *extack);
struct p4tc_pipeline *p4tc_req_pipeline(struct net *net,
					struct p4tc_nl_pname *nl_pname,
					u32 *ids, bool write,
					struct netlink_ext_ack *extack);
struct p4tc_pipeline *p4tc_dump_pipeline(struct sk_buff *skb, char **p_name,
					 u32 *ids,
					 struct netlink_ext_ack *extack);
int p4tc_tmpl_fill(struct sk_buff *skb, struct p4tc_template_common *tmpl,
		   struct netlink_ext_ack *extack);
int tcf_p4_tmpl_generic_dump(struct sk_buff *skb, struct p4tc_dump_ctx *ctx,
			     struct idr *idr, int idx,
			     int (*dump_1)(struct sk_buff *skb,
					   struct p4tc_template_common *tmpl),
			     struct netlink_ext_ack *extack);
int p4tc_put_path(struct sk_buff *skb, const u32 *ids, int n);
extern const struct nla_policy p4tc_root_policy[P4TC_ROOT_MAX + 1];
int p4tc_parse_obj(struct nlattr *arg, u32 pipeid, u32 *ids,
		   struct nlattr **params, struct netlink_ext_ack *extack);
int p4tc_parse_batch(struct nlattr *root, struct nlattr **objs,
		     struct netlink_ext_ack *extack);
int p4tc_name_check(const char *name, struct netlink_ext_ack *extack);

int tcf_pipeline_init(void);
void tcf_pipeline_exit(void);

#define to_pipeline(t) container_of(t, struct p4tc_pipeline, common)
#define to_meta(t) container_of(t, struct p4tc_metadata, common)
#define to_hdrfield(t) container_of(t, struct p4tc_hdrfield, common)
#define to_header(t) container_of(t, struct p4tc_header, common)
#define to_register(t) container_of(t, struct p4tc_register, common)
#define to_act(t) container_of(t, struct p4tc_act, common)
#define to_table(t) container_of(t, struct p4tc_table, common)

#endif
