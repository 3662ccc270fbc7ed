/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * P4TC: P4 programs in traffic control.  Netlink interface of the template
 * side (RTM_*P4TEMPLATE): pipelines, metadata, the parse graph (headers and
 * header fields), registers, action templates and tables; of the tc
 * actions action templates make; and of the runtime side (RTM_P4TC_*):
 * table entries.  See Documentation/networking/p4tc.rst.
 */
#ifndef __LINUX_P4TC_H
#define __LINUX_P4TC_H

#include <linux/types.h>
#include <linux/pkt_sched.h>
#include <linux/pkt_cls.h>

/* Message header of every template message */
struct p4tcmsg {
	__u32 pipeid;
	__u32 obj;	/* P4TC_OBJ_* */
};

#define P4TC_MAXPIPELINE_COUNT 32
#define P4TC_MAXRULES_LIMIT 512
#define P4TC_MAXTABLES_COUNT 32
#define P4TC_MINTABLES_COUNT 0
#define P4TC_MAXPARSE_KEYS 16
#define P4TC_MAXMETA_SZ 128		/* bits of one metadatum */
#define P4TC_MAXMETA_OFFSET 1024	/* bits of all user metadata */
#define P4TC_MSGBATCH_SIZE 16
#define P4TC_MAX_KEYSZ 512
#define P4TC_MAX_REGISTER_ELEMS 128
#define P4TC_MAX_PARSE_HEADERS 32	/* headers of one parser */
#define P4TC_MAX_TRANSITIONS 16		/* transitions of one header */
#define P4TC_MAX_HEADER_LEN 512		/* bytes */

#define TEMPLATENAMSZ 256
#define PIPELINENAMSIZ TEMPLATENAMSZ
#define METANAMSIZ TEMPLATENAMSZ
#define PARSERNAMSIZ TEMPLATENAMSZ
#define HDRFIELDNAMSIZ TEMPLATENAMSZ
#define HEADERNAMSIZ TEMPLATENAMSZ
#define REGISTERNAMSIZ TEMPLATENAMSZ
#define ACTPARAMNAMSIZ TEMPLATENAMSZ

#define TABLENAMSIZ TEMPLATENAMSZ

#define P4TC_MAX_PARAMS 32		/* parameters of one action */
#define P4TC_CMDS_LIST_MAX 32		/* commands of one action */
#define P4TC_CMD_MAX_OPNDS 9		/* operands of one command */

#define P4TC_MAX_TENTRIES (1 << 24)	/* entries of one table */
#define P4TC_DEFAULT_TENTRIES 256
#define P4TC_MAX_TMASKS 128		/* distinct masks of one table */
#define P4TC_DEFAULT_TMASKS 8
#define P4TC_MAX_TABLE_ACTS 32		/* actions a table lists */

/* What an eBPF parser run by the p4 classifier ("prog tc obj ...") hands
 * over, in the buffer bpf_p4tc_get_parser_buffer() gives it: the headers
 * it found, named by their template id.  Bit (ID - 1) of @valid says that
 * header ID is in the packet, @hdr_off[ID - 1] bytes from the MAC header
 * and @hdr_len[ID - 1] bytes long (0: the length the parse graph would
 * find, the header's fixed one or read from its length field).  The
 * datapath then reads and writes header fields in the packet where the
 * parser placed their headers, as after the parse graph.  Headers with ids
 * over P4TC_MAX_PARSE_HEADERS cannot be named here.
 */
struct p4tc_parser_buffer {
	__u32 valid;
	__u16 hdr_off[P4TC_MAX_PARSE_HEADERS];
	__u16 hdr_len[P4TC_MAX_PARSE_HEADERS];
};

/* What an eBPF parser at XDP ("prog xdp pinned PATH prog_cookie N") leaves
 * for the p4 classifier, in the frame's XDP metadata, which the stack
 * keeps with the packet up to tc (bpf_p4tc_xdp_get_parser_buffer()
 * places it there).  XDP metadata is at most 32 bytes: headers ids 1 to
 * P4TC_XDP_PARSE_HEADERS, offsets only (lengths are the headers' fixed
 * ones or read from their length fields, as the parse graph reads them).
 * @cookie must be the filter's prog_cookie: it proves that this packet
 * went through the parser.
 */
#define P4TC_XDP_PARSE_HEADERS 12
/* in @valid: the parser rejects the packet (the filter drops and counts
 * it, as the parse graph's rejects)
 */
#define P4TC_XDP_PARSER_REJECT (1U << 31)
struct p4tc_xdp_parser_buffer {
	__u32 cookie;
	__u32 valid;
	__u16 hdr_off[P4TC_XDP_PARSE_HEADERS];
};

/* Table lookups from an eBPF datapath (seed mode 2): the kfuncs
 * bpf_p4tc_tbl_read() (tc) and bpf_xdp_p4tc_tbl_read() (XDP) take the
 * table by pipeline and table id, and a key laid out as the table's key
 * (keysz bits, in network order, as "tc p4" writes it).
 */
struct p4tc_table_entry_act_bpf_params {
	__u32 pipeid;
	__u32 tblid;
};

/* What they answer: whether an entry matched (@hit), and the action that
 * runs (the entry's, else the table's default hit or miss action): its
 * template id (0: none) and its parameter values as the template lays
 * them out, in declaration order, each in its type's container (host
 * order for integers and dev, network order for mac, ipv4 and beN).
 */
#define P4TC_BPF_MAX_PARAMS_BYTES 128
struct p4tc_table_entry_act_bpf {
	__u32 act_id;
	__u8 hit;
	__u8 pad;
	__u16 params_bytes;
	__u8 params[P4TC_BPF_MAX_PARAMS_BYTES];
};

/* Ids of the path of an object: [pipeline, object] or [pipeline, parser, object] */
#define P4TC_PATH_MAX 3

/* Root attributes */
enum {
	P4TC_ROOT_UNSPEC,
	P4TC_ROOT,		/* nested: objects 1..P4TC_MSGBATCH_SIZE */
	P4TC_ROOT_PNAME,	/* string: pipeline name */
	__P4TC_ROOT_MAX,
};

#define P4TC_ROOT_MAX (__P4TC_ROOT_MAX - 1)

/* Attributes of one object */
enum {
	P4TC_UNSPEC,
	P4TC_PATH,		/* u32 ids[P4TC_PATH_MAX] after the pipeline id */
	P4TC_PARAMS,		/* nested: the object kind's attributes */
	__P4TC_MAX,
};

#define P4TC_MAX (__P4TC_MAX - 1)

/* Object kinds (struct p4tcmsg obj) */
enum {
	P4TC_OBJ_UNSPEC,
	P4TC_OBJ_PIPELINE,
	P4TC_OBJ_META,
	P4TC_OBJ_HDR_FIELD,
	P4TC_OBJ_ACT,
	P4TC_OBJ_TABLE,
	P4TC_OBJ_TABLE_ENTRY,
	P4TC_OBJ_REGISTER,
	P4TC_OBJ_HEADER,	/* parse graph node */
	__P4TC_OBJ_MAX,
};

#define P4TC_OBJ_MAX (__P4TC_OBJ_MAX - 1)

/* Pipeline attributes */
enum {
	P4TC_PIPELINE_UNSPEC,
	P4TC_PIPELINE_MAXRULES,		/* u32 */
	P4TC_PIPELINE_NUMTABLES,	/* u16 */
	P4TC_PIPELINE_STATE,		/* u8: P4TC_STATE_READY seals */
	P4TC_PIPELINE_PREACTIONS,	/* nested: tc actions */
	P4TC_PIPELINE_POSTACTIONS,	/* nested: tc actions */
	P4TC_PIPELINE_NAME,		/* string, in dumps */
	P4TC_PIPELINE_CURR_TABLES,	/* u16, read only */
	__P4TC_PIPELINE_MAX
};

#define P4TC_PIPELINE_MAX (__P4TC_PIPELINE_MAX - 1)

/* Pipeline states */
enum {
	P4TC_STATE_NOT_READY,
	P4TC_STATE_READY,
};

/* Type and bit slice of a metadatum: bits [startbit, endbit] of datatype */
struct p4tc_meta_size_params {
	__u16 startbit;
	__u16 endbit;
	__u8 datatype;	/* P4T_* */
	__u8 __pad;
};

/* Metadata attributes */
enum {
	P4TC_META_UNSPEC,
	P4TC_META_NAME,		/* string */
	P4TC_META_SIZE,		/* struct p4tc_meta_size_params */
	P4TC_META_PREALLOC,	/* u32, reserved */
	__P4TC_META_MAX
};

#define P4TC_META_MAX (__P4TC_META_MAX - 1)

/* Metadata of the "kernel" pipeline (pipeid 0): fields of the skb */
enum {
	P4TC_KERNEL_META_UNSPEC,
	P4TC_KERNEL_META_PKTLEN,	/* u32 */
	P4TC_KERNEL_META_DATALEN,	/* u32 */
	P4TC_KERNEL_META_SKBMARK,	/* u32 */
	P4TC_KERNEL_META_TCINDEX,	/* u16 */
	P4TC_KERNEL_META_SKBHASH,	/* u32 */
	P4TC_KERNEL_META_SKBPRIO,	/* u32 */
	P4TC_KERNEL_META_IFINDEX,	/* dev */
	P4TC_KERNEL_META_SKBIIF,	/* dev */
	P4TC_KERNEL_META_PROTOCOL,	/* be16 */
	P4TC_KERNEL_META_PKTYPE,	/* bit3 */
	P4TC_KERNEL_META_IDF,		/* bit1 */
	P4TC_KERNEL_META_IPSUM,		/* bit2 */
	P4TC_KERNEL_META_OOOK,		/* bit1 */
	P4TC_KERNEL_META_FCLONE,	/* bit2 */
	P4TC_KERNEL_META_PEEKED,	/* bit1 */
	P4TC_KERNEL_META_QMAP,		/* u16 */
	P4TC_KERNEL_META_PTYPEOFF,	/* u8 */
	P4TC_KERNEL_META_CLONEOFF,	/* u8 */
	P4TC_KERNEL_META_PTCLNOFF,	/* u16 */
	P4TC_KERNEL_META_DIRECTION,	/* bit1: 0 ingress, 1 egress */
	__P4TC_KERNEL_META_MAX
};

#define P4TC_KERNEL_META_MAX (__P4TC_KERNEL_META_MAX - 1)

/* Type and bit slice of a header field */
struct p4tc_hdrfield_ty {
	__u16 startbit;
	__u16 endbit;
	__u8 datatype;	/* P4T_* */
	__u8 __pad;
};

/* Header field attributes */
enum {
	P4TC_HDRFIELD_UNSPEC,
	P4TC_HDRFIELD_DATA,		/* struct p4tc_hdrfield_ty */
	P4TC_HDRFIELD_NAME,		/* string "HEADER/FIELD" */
	P4TC_HDRFIELD_PARSER_NAME,	/* string */
	P4TC_HDRFIELD_PARSER_ID,	/* u32 */
	P4TC_HDRFIELD_OFFSET,		/* u16: first bit inside its header */
	__P4TC_HDRFIELD_MAX
};

#define P4TC_HDRFIELD_MAX (__P4TC_HDRFIELD_MAX - 1)

/* Where a parse goes after a header: a header name, or one of these */
#define P4TC_PARSE_ACCEPT "accept"
#define P4TC_PARSE_REJECT "reject"

/*
 * Header (parse graph node) attributes.  The length of a header in bytes
 * is LEN when it has no LEN_FIELD; otherwise the value of that field of
 * the header times LEN_MULT plus LEN_ADD, which must lie in [LEN, MAXLEN]
 * (IPv4: ihl * 4 + 0 in [20, 60]).
 */
enum {
	P4TC_HEADER_UNSPEC,
	P4TC_HEADER_NAME,		/* string */
	P4TC_HEADER_PARSER_NAME,	/* string */
	P4TC_HEADER_PARSER_ID,		/* u32 */
	P4TC_HEADER_LEN,		/* u16: bytes, fixed or least */
	P4TC_HEADER_MAXLEN,		/* u16: bytes, most */
	P4TC_HEADER_LEN_MULT,		/* u16 */
	P4TC_HEADER_LEN_ADD,		/* u16 */
	P4TC_HEADER_LEN_FIELD,		/* string: field of this header, "" none */
	P4TC_HEADER_START,		/* u8: 1 = the parse starts here */
	P4TC_HEADER_SELECT,		/* string: field of this header, "" none */
	P4TC_HEADER_TRANSITIONS,	/* nested: P4TC_TRANS_* nests 1..N */
	P4TC_HEADER_DEFAULT_NEXT,	/* string: header, accept or reject */
	__P4TC_HEADER_MAX
};

#define P4TC_HEADER_MAX (__P4TC_HEADER_MAX - 1)

/* One transition: when (select & mask) == value, go to next */
enum {
	P4TC_TRANS_UNSPEC,
	P4TC_TRANS_VALUE,	/* __u64[2]: low word first, host order */
	P4TC_TRANS_MASK,	/* __u64[2]: default all ones */
	P4TC_TRANS_NEXT,	/* string: header, accept or reject */
	__P4TC_TRANS_MAX
};

#define P4TC_TRANS_MAX (__P4TC_TRANS_MAX - 1)

/* Type, slice and size of a register */
struct p4tc_u_register {
	__u64 startbit;
	__u64 endbit;
	__u32 num_elems;
	__u32 datatype;	/* P4T_* */
};

/*
 * Register attributes.  A value is an element in its container's layout:
 * container_bits / 8 bytes, host order, network order for be and ipv4.
 */
enum {
	P4TC_REGISTER_UNSPEC,
	P4TC_REGISTER_NAME,	/* string */
	P4TC_REGISTER_INFO,	/* struct p4tc_u_register */
	P4TC_REGISTER_INDEX,	/* u32 */
	P4TC_REGISTER_VALUE,	/* binary: one element */
	P4TC_REGISTER_VALUES,	/* nested: every element (get) */
	/*
	 * get, with the pipeline offloaded: nested, one nest per device
	 * (1, 2, ...) with its name (P4TC_REGISTER_HW_DEV) and its copy of
	 * the cells asked for (INDEX and VALUE, or VALUES)
	 */
	P4TC_REGISTER_HW,
	P4TC_REGISTER_HW_DEV,	/* string: the device ("0000:00:08.0") */
	__P4TC_REGISTER_MAX
};

#define P4TC_REGISTER_MAX (__P4TC_REGISTER_MAX - 1)

/*
 * Action template attributes.  An active template is also a tc action
 * kind "PIPELINE/NAME" whose instances carry P4TC_ACT_OPT, P4TC_ACT_PARMS
 * (with values) and P4TC_ACT_TM in their TCA_ACT_OPTIONS.
 */
enum {
	P4TC_ACT_UNSPEC,
	P4TC_ACT_NAME,		/* string "[CB/]NAME"; instances: the kind */
	P4TC_ACT_PARMS,		/* nested: P4TC_ACT_PARAMS_* nests 1..N */
	P4TC_ACT_OPT,		/* struct tc_act_dyna (instances) */
	P4TC_ACT_TM,		/* struct tcf_t (instances, read only) */
	P4TC_ACT_CMDS_LIST,	/* nested: commands 1..N, see P4TC_CMD_* */
	P4TC_ACT_ACTIVE,	/* u8: 1 makes the tc action kind */
	P4TC_ACT_PAD,
	P4TC_ACT_KIND_ID,	/* u32: the tc action kind's id, read only */
	__P4TC_ACT_MAX
};

#define P4TC_ACT_MAX (__P4TC_ACT_MAX - 1)

struct tc_act_dyna {
	tc_gen;
};

/* One action parameter: its type in a template, its value in an instance */
enum {
	P4TC_ACT_PARAMS_UNSPEC,
	P4TC_ACT_PARAMS_NAME,	/* string */
	P4TC_ACT_PARAMS_ID,	/* u32 */
	P4TC_ACT_PARAMS_TYPE,	/* struct p4tc_meta_size_params */
	P4TC_ACT_PARAMS_VALUE,	/* binary: the container layout of the type */
	__P4TC_ACT_PARAMS_MAX
};

#define P4TC_ACT_PARAMS_MAX (__P4TC_ACT_PARAMS_MAX - 1)

/*
 * Commands: the body of an action template.  P4TC_ACT_CMDS_LIST holds
 * commands 1..P4TC_CMDS_LIST_MAX, run in order.
 */
enum {
	P4TC_CMD_UNSPEC,
	P4TC_CMD_OP,		/* u8: P4TC_CMD_OP_* */
	P4TC_CMD_OPNDS,		/* nested: operands 1..P4TC_CMD_MAX_OPNDS */
	P4TC_CMD_THEN,		/* nested P4TC_CTL_*: branch taken; jump; ret */
	P4TC_CMD_ELSE,		/* nested P4TC_CTL_*: branch not taken */
	P4TC_CMD_LABEL,		/* string: the name of a label command */
	P4TC_CMD_PREFIX,	/* string: print's prefix */
	__P4TC_CMD_MAX
};

#define P4TC_CMD_MAX (__P4TC_CMD_MAX - 1)

/* Command operations, numbered as in the seed series */
enum {
	P4TC_CMD_OP_UNSPEC,
	P4TC_CMD_OP_SET,		/* dst src */
	P4TC_CMD_OP_ACT,		/* action [args...] */
	P4TC_CMD_OP_BEQ,		/* a b, THEN and ELSE */
	P4TC_CMD_OP_BNE,
	P4TC_CMD_OP_BLT,
	P4TC_CMD_OP_BLE,
	P4TC_CMD_OP_BGT,
	P4TC_CMD_OP_BGE,
	P4TC_CMD_OP_PLUS,		/* dst a b */
	P4TC_CMD_OP_PRINT,		/* any */
	P4TC_CMD_OP_TABLEAPPLY,		/* table */
	P4TC_CMD_OP_SNDPORTEGR,		/* dev */
	P4TC_CMD_OP_MIRPORTEGR,		/* dev */
	P4TC_CMD_OP_SUB,		/* dst a b */
	P4TC_CMD_OP_CONCAT,		/* dst, then 2 to 8 sources */
	P4TC_CMD_OP_BAND,		/* dst a b */
	P4TC_CMD_OP_BOR,
	P4TC_CMD_OP_BXOR,
	P4TC_CMD_OP_LABEL,		/* P4TC_CMD_LABEL */
	P4TC_CMD_OP_JUMP,		/* THEN */
	P4TC_CMD_OP_RET,		/* THEN optional: a verdict */
	P4TC_CMD_OP_SETVALID,		/* header: insert it if absent */
	P4TC_CMD_OP_SETINVALID,		/* header: remove it if present */
	__P4TC_CMD_OP_MAX
};

#define P4TC_CMD_OP_MAX (__P4TC_CMD_OP_MAX - 1)

/* Where control goes: exactly one of these */
enum {
	P4TC_CTL_UNSPEC,
	P4TC_CTL_VERDICT,	/* u32: TC_ACT_*; TC_ACT_PIPE goes on */
	P4TC_CTL_JUMP,		/* u32: forward distance in commands, >= 1 */
	P4TC_CTL_LABEL,		/* string: jump to this label */
	__P4TC_CTL_MAX
};

#define P4TC_CTL_MAX (__P4TC_CTL_MAX - 1)

/* Operand kinds, and what P4TC_OPND_PATH names for each */
enum {
	P4TC_OPER_UNSPEC,
	P4TC_OPER_CONST,	/* no path: P4TC_OPND_TYPE and _VALUE */
	P4TC_OPER_META,		/* "PIPE.NAME"; PIPE "kernel": skb metadata */
	P4TC_OPER_HDRFIELD,	/* "PIPE.PARSER.HDR.FIELD" */
	P4TC_OPER_KEY,		/* "PIPE.CB/TABLE" */
	P4TC_OPER_PARAM,	/* "NAME": a parameter of this action */
	P4TC_OPER_DEV,		/* "IFNAME" */
	P4TC_OPER_REG,		/* "PIPE.NAME", P4TC_OPND_INDEX the element */
	P4TC_OPER_RES,		/* "hit" or "miss" */
	P4TC_OPER_TBL,		/* "PIPE.CB/TABLE" */
	P4TC_OPER_ACT,		/* "PIPE.NAME" or "kernel.KIND", INDEX */
	P4TC_OPER_HDR,		/* "PIPE.PARSER.HDR": a header of the graph */
	__P4TC_OPER_MAX
};

#define P4TC_OPER_MAX (__P4TC_OPER_MAX - 1)

/* Bits [startbit, endbit] of an operand's value, bit 0 the lowest */
struct p4tc_opnd_slice {
	__u16 startbit;
	__u16 endbit;
};

/* One operand */
enum {
	P4TC_OPND_UNSPEC,
	P4TC_OPND_KIND,		/* u8: P4TC_OPER_* */
	P4TC_OPND_PATH,		/* string */
	P4TC_OPND_SLICE,	/* struct p4tc_opnd_slice; default: all bits */
	P4TC_OPND_TYPE,		/* struct p4tc_meta_size_params: constants */
	P4TC_OPND_VALUE,	/* binary: a constant, its type's container */
	P4TC_OPND_INDEX,	/* u32: register element, action instance */
	__P4TC_OPND_MAX
};

#define P4TC_OPND_MAX (__P4TC_OPND_MAX - 1)

/* Table types: how entries match */
enum {
	P4TC_TABLE_TYPE_UNSPEC,
	P4TC_TABLE_TYPE_EXACT = 1,	/* mask all ones */
	P4TC_TABLE_TYPE_LPM = 2,	/* mask a prefix; the longest wins */
	P4TC_TABLE_TYPE_TERNARY = 3,	/* any mask; the lowest prio wins */
	__P4TC_TABLE_TYPE_MAX,
};

#define P4TC_TABLE_TYPE_MAX (__P4TC_TABLE_TYPE_MAX - 1)

/*
 * Permissions of a table, an entry or a default action: ten bits
 * CRUDXCRUDX, the high five for the control plane, the low five for the
 * datapath (C create, R read, U update, D delete, X execute).
 */
#define P4TC_CTRL_PERM_C (1 << 9)
#define P4TC_CTRL_PERM_R (1 << 8)
#define P4TC_CTRL_PERM_U (1 << 7)
#define P4TC_CTRL_PERM_D (1 << 6)
#define P4TC_CTRL_PERM_X (1 << 5)
#define P4TC_DATA_PERM_C (1 << 4)
#define P4TC_DATA_PERM_R (1 << 3)
#define P4TC_DATA_PERM_U (1 << 2)
#define P4TC_DATA_PERM_D (1 << 1)
#define P4TC_DATA_PERM_X (1 << 0)
#define P4TC_PERM_MAX ((1 << 10) - 1)

/* Tables: control CRUD, datapath RX.  Entries: the same without create */
#define P4TC_PERMS_TABLE_DEFAULT \
	(P4TC_CTRL_PERM_C | P4TC_CTRL_PERM_R | P4TC_CTRL_PERM_U | \
	 P4TC_CTRL_PERM_D | P4TC_DATA_PERM_R | P4TC_DATA_PERM_X)
#define P4TC_PERMS_ENTRY_DEFAULT \
	(P4TC_PERMS_TABLE_DEFAULT & ~P4TC_CTRL_PERM_C)
/* Default actions: read and update from the control plane, run */
#define P4TC_PERMS_DEFACT_DEFAULT \
	(P4TC_CTRL_PERM_R | P4TC_CTRL_PERM_U | P4TC_DATA_PERM_R | \
	 P4TC_DATA_PERM_X)

/*
 * Table template attributes.  KEYSZ is required on create and fixed after
 * it; the other limits may change while the table has no entries.  The
 * key, pre- and postactions and default actions are tc action lists
 * bound to the table.
 */
enum {
	P4TC_TABLE_UNSPEC,
	P4TC_TABLE_NAME,		/* string "CB/NAME" */
	P4TC_TABLE_TYPE,		/* u8: P4TC_TABLE_TYPE_*, default exact */
	P4TC_TABLE_KEYSZ,		/* u32: bits, 1..P4TC_MAX_KEYSZ */
	P4TC_TABLE_MAX_ENTRIES,		/* u32: 1..P4TC_MAX_TENTRIES */
	P4TC_TABLE_MAX_MASKS,		/* u32: 1..P4TC_MAX_TMASKS */
	P4TC_TABLE_PERMISSIONS,		/* u16 */
	P4TC_TABLE_KEY_ACTION,		/* nested: tc actions building the key */
	P4TC_TABLE_PREACTIONS,		/* nested: tc actions */
	P4TC_TABLE_POSTACTIONS,		/* nested: tc actions */
	P4TC_TABLE_DEFAULT_HIT,		/* nested: P4TC_TABLE_DEFAULT_* */
	P4TC_TABLE_DEFAULT_MISS,	/* nested: P4TC_TABLE_DEFAULT_* */
	P4TC_TABLE_ACTS_LIST,		/* nested: P4TC_TABLE_ACT_* nests 1..N */
	P4TC_TABLE_ENTRIES,		/* nested: initial entries 1..N */
	P4TC_TABLE_NUM_ENTRIES,		/* u32, read only */
	P4TC_TABLE_NUM_MASKS,		/* u32, read only */
	__P4TC_TABLE_MAX
};

#define P4TC_TABLE_MAX (__P4TC_TABLE_MAX - 1)

/* A default action: empty ACTION (update) removes it */
enum {
	P4TC_TABLE_DEFAULT_UNSPEC,
	P4TC_TABLE_DEFAULT_ACTION,	/* nested: one tc action */
	P4TC_TABLE_DEFAULT_PERMISSIONS,	/* u16 */
	__P4TC_TABLE_DEFAULT_MAX
};

#define P4TC_TABLE_DEFAULT_MAX (__P4TC_TABLE_DEFAULT_MAX - 1)

/* Flags of an action in a table's list */
#define P4TC_TABLE_ACT_FLAGS_TABLEONLY	0x1	/* in entries, not default */
#define P4TC_TABLE_ACT_FLAGS_DEFAULTONLY 0x2	/* default, not in entries */

/* An action a table's entries and defaults may use */
enum {
	P4TC_TABLE_ACT_UNSPEC,
	P4TC_TABLE_ACT_NAME,		/* string "PIPE/[CB/]NAME" */
	P4TC_TABLE_ACT_FLAGS,		/* u8: P4TC_TABLE_ACT_FLAGS_* */
	__P4TC_TABLE_ACT_MAX
};

#define P4TC_TABLE_ACT_MAX (__P4TC_TABLE_ACT_MAX - 1)

/* Who made or last changed an entry */
enum {
	P4TC_ENTITY_UNSPEC,
	P4TC_ENTITY_KERNEL,	/* the table template's initial entries */
	P4TC_ENTITY_TC,
	P4TC_ENTITY_TIMER,
	__P4TC_ENTITY_MAX
};

#define P4TC_ENTITY_MAX (__P4TC_ENTITY_MAX - 1)

/* Times of an entry, in jiffies ago (like struct tcf_t) */
struct p4tc_table_entry_tm {
	__u64 created;
	__u64 lastused;
	__u64 firstused;
};

/* Hit counters of an entry */
struct p4tc_table_entry_stats {
	__u64 packets;
	__u64 bytes;
};

/*
 * Table entry attributes (runtime messages and a template's initial
 * entries).  The key is a bit string of the table's keysz bits, bit 0
 * the most significant bit of its first byte; fields are packed in order,
 * each most significant bit first.  A mask has the key's length; with
 * none, every bit counts.  Get and delete name an entry by key, mask and
 * priority; with no key a get dumps and a delete flushes the table.
 */
enum {
	P4TC_ENTRY_UNSPEC,
	P4TC_ENTRY_TBLNAME,		/* string "CB/NAME" */
	P4TC_ENTRY_KEY_BLOB,		/* binary: the key */
	P4TC_ENTRY_MASK_BLOB,		/* binary: the mask */
	P4TC_ENTRY_PRIO,		/* u32: 1.., lowest wins */
	P4TC_ENTRY_ACT,			/* nested: one tc action of the table */
	P4TC_ENTRY_PERMISSIONS,		/* u16 */
	P4TC_ENTRY_WHODUNNIT,		/* u8: P4TC_ENTITY_* of the request */
	P4TC_ENTRY_CREATE_WHODUNNIT,	/* u8, read only */
	P4TC_ENTRY_UPDATE_WHODUNNIT,	/* u8, read only */
	P4TC_ENTRY_TM,			/* struct p4tc_table_entry_tm, read only */
	P4TC_ENTRY_STATS,		/* struct p4tc_table_entry_stats, r/o */
	P4TC_ENTRY_PAD,
	P4TC_ENTRY_FLAGS,		/* u32: TCA_CLS_FLAGS_* (pkt_cls.h) */
	P4TC_ENTRY_IN_HW_COUNT,		/* u32, read only: devices holding it */
	__P4TC_ENTRY_MAX
};

#define P4TC_ENTRY_MAX (__P4TC_ENTRY_MAX - 1)

/* P4 types */
enum {
	P4T_UNSPEC,
	P4T_U8 = 1,
	P4T_U16 = 2,
	P4T_U32 = 3,
	P4T_U64 = 4,
	P4T_STRING = 5,
	P4T_FLAG = 6,
	P4T_MSECS = 7,
	P4T_NESTED = 8,
	P4T_NESTED_ARRAY = 9,
	P4T_NUL_STRING = 10,
	P4T_BINARY = 11,
	P4T_S8 = 12,
	P4T_S16 = 13,
	P4T_S32 = 14,
	P4T_S64 = 15,
	P4T_BITFIELD32 = 16,
	P4T_MACADDR = 17,
	P4T_IPV4ADDR,
	P4T_BE16,
	P4T_BE32,
	P4T_BE64,
	P4T_U128,
	P4T_S128,
	P4T_PATH,
	P4T_BOOL,
	P4T_DEV,
	P4T_KEY,
	__P4T_MAX,
};

#define P4T_MAX (__P4T_MAX - 1)

#define P4TC_RTA(r) \
	((struct rtattr *)(((char *)(r)) + NLMSG_ALIGN(sizeof(struct p4tcmsg))))

#endif
