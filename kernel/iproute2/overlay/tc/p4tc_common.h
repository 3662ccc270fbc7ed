/* SPDX-License-Identifier: GPL-2.0 */
/*
 * P4TC in tc: P4 type names, typed values, and the template commands.
 */
#ifndef _TC_P4TC_COMMON_H_
#define _TC_P4TC_COMMON_H_

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>
#include <linux/p4tc.h>

/* A P4 type as users write it: a container type and a bit slice of it */
struct p4_type_s {
	__u8 typeid;		/* P4T_* of the container */
	__u16 startbit;
	__u16 endbit;
	/* tc's own: a u128 written and printed as an IPv6 address (the
	 * kernel has no IPv6 type; key fields name it in the JSON)
	 */
	__u8 ipv6;
};

/* A 128-bit number, low word first */
struct p4_val {
	__u64 w[2];
};

int p4_type_parse(const char *str, struct p4_type_s *t);
const char *p4_type_name(int typeid);
unsigned int p4_type_container_bits(int typeid);
bool p4_type_signed(int typeid);
void p4_type_format(const struct p4_type_s *t, char *buf, size_t len);
/* A type attribute (struct p4tc_meta_size_params's layout) of @t */
struct nlmsghdr;
void p4_type_attr(struct nlmsghdr *n, int attr, const struct p4_type_s *t);
const char *p4_type_family(const struct p4_type_s *t);
unsigned int p4_type_width(const struct p4_type_s *t);

int p4_val_parse(const char *str, const struct p4_type_s *t,
		 struct p4_val *v);
int p4_val_parse_constant(const char *str, struct p4_val *v,
			  struct p4_type_s *ct);
void p4_val_to_container(const struct p4_val *v, int typeid, void *buf);
void p4_val_from_container(const void *buf, const struct p4_type_s *t,
			   struct p4_val *v);
void p4_val_format(const struct p4_val *v, const struct p4_type_s *t,
		   char *buf, size_t len);
void p4_val_print(const char *key, const struct p4_val *v,
		  const struct p4_type_s *t);

int p4_perm_parse(const char *str, __u16 *perm);
void p4_perm_format(__u16 perm, char *buf);	/* 11 bytes */

struct rtattr;

/* A parameter of an action template */
struct p4_act_param {
	char name[ACTPARAMNAMSIZ];
	struct p4_type_s type;
};

int p4_get_act_params(const char *pname, const char *aname,
		      struct p4_act_param *params);
void p4_print_act_params(struct rtattr *nest);

struct nlmsghdr;
int p4_cmds_parse(int *argc_p, char ***argv_p, struct nlmsghdr *n);
void p4_cmds_print(struct rtattr *list);

int do_p4tmpl(int argc, char **argv);
int do_p4runtime(int argc, char **argv);
void p4rt_batch_begin(const char *name);
int p4rt_batch_flush(void);
extern bool p4rt_batch_failed;
extern int force;
int p4_entry_parse(const char *pname, const char *tname, int *argc_p,
		   char ***argv_p, struct nlmsghdr *n,
		   const char * const *stop);

struct action_util;
struct action_util *p4_dyna_action_util(void);

#endif
