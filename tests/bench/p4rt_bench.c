// SPDX-License-Identifier: GPL-2.0
/*
 * p4rt_bench: insert and delete table entries through one netlink socket,
 * P4TC entries (up to 16 per message) or the equivalent flower filters
 * (one per message, as tc sends them), and print entries per second and
 * kernel memory per entry (slab and per-CPU deltas from /proc/meminfo).
 * Memory is read once the kernel settled (deferred frees of earlier runs
 * done).  Run in the test guest by tests/bench/cp-bench.sh.
 *
 *   p4rt_bench p4 PIPE TABLE KIND N PER_MSG ACTION [keep]
 *   p4rt_bench flower DEV KIND N
 *
 * With keep, the P4 entries stay (for a datapath test to use them).
 *
 * KIND is "exact" (N distinct /32 keys) or "lpm" (N prefixes of lengths
 * 20 to 32).  ACTION is the entries' action kind "PIPE/NAME" taking one
 * bit32 parameter "m"; flower filters get "gact ok".  Keys are the IPv4
 * addresses 10.0.0.0 + i (exact) or i << (32 - len) within 64.0.0.0/2
 * (lpm), so both kinds give N distinct entries.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/socket.h>
#include <linux/if_ether.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <linux/tc_act/tc_gact.h>
#include <linux/p4tc.h>

#define BUF_SIZE (64 * 1024)

struct msg {
	char buf[BUF_SIZE];
	struct nlmsghdr *n;
};

static int nl_fd;
static __u32 nl_seq;

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static void msg_init(struct msg *m, int type, int flags, const void *hdr,
		     size_t hlen)
{
	memset(m->buf, 0, NLMSG_SPACE(hlen));
	m->n = (struct nlmsghdr *)m->buf;
	m->n->nlmsg_len = NLMSG_LENGTH(hlen);
	m->n->nlmsg_type = type;
	m->n->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	m->n->nlmsg_seq = ++nl_seq;
	memcpy(NLMSG_DATA(m->n), hdr, hlen);
}

static struct nlattr *put(struct msg *m, int type, const void *data, int len)
{
	struct nlattr *a = (struct nlattr *)(m->buf + NLMSG_ALIGN(m->n->nlmsg_len));

	if (NLMSG_ALIGN(m->n->nlmsg_len) + NLA_HDRLEN + NLA_ALIGN(len) >
	    BUF_SIZE) {
		fprintf(stderr, "p4rt_bench: message too long\n");
		exit(2);
	}
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy((char *)a + NLA_HDRLEN, data, len);
	m->n->nlmsg_len = NLMSG_ALIGN(m->n->nlmsg_len) + NLA_ALIGN(a->nla_len);
	return a;
}

static void put_str(struct msg *m, int type, const char *s)
{
	put(m, type, s, strlen(s) + 1);
}

static void put_u8(struct msg *m, int type, __u8 v)
{
	put(m, type, &v, sizeof(v));
}

static void put_u16(struct msg *m, int type, __u16 v)
{
	put(m, type, &v, sizeof(v));
}

static void put_u32(struct msg *m, int type, __u32 v)
{
	put(m, type, &v, sizeof(v));
}

static struct nlattr *nest(struct msg *m, int type)
{
	return put(m, type | NLA_F_NESTED, NULL, 0);
}

static void nest_end(struct msg *m, struct nlattr *a)
{
	a->nla_len = m->buf + m->n->nlmsg_len - (char *)a;
}

/* Send and wait for the ack; exit with the kernel's message on error. */
static void talk(struct msg *m)
{
	char rbuf[8192];
	struct nlmsghdr *h;
	ssize_t len;

	if (send(nl_fd, m->buf, m->n->nlmsg_len, 0) < 0)
		die("send");
	for (;;) {
		len = recv(nl_fd, rbuf, sizeof(rbuf), 0);
		if (len < 0)
			die("recv");
		for (h = (struct nlmsghdr *)rbuf; NLMSG_OK(h, len);
		     h = NLMSG_NEXT(h, len)) {
			struct nlmsgerr *e;

			if (h->nlmsg_seq != m->n->nlmsg_seq ||
			    h->nlmsg_type != NLMSG_ERROR)
				continue;
			e = NLMSG_DATA(h);
			if (e->error) {
				fprintf(stderr, "p4rt_bench: kernel said %s\n",
					strerror(-e->error));
				exit(1);
			}
			return;
		}
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Slab + Percpu of /proc/meminfo, in bytes */
static long long kmem(void)
{
	char line[256];
	long long v, sum = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		die("/proc/meminfo");
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Slab: %lld kB", &v) == 1 ||
		    sscanf(line, "Percpu: %lld kB", &v) == 1)
			sum += v * 1024;
	}
	fclose(f);
	return sum;
}

/* kmem() once the kernel stopped freeing what earlier runs left to RCU
 * and workers: two readings a second apart within 64 KiB (10 s at most).
 */
static long long kmem_settled(void)
{
	long long a = kmem(), b;
	int i;

	for (i = 0; i < 10; i++) {
		sleep(1);
		b = kmem();
		if (llabs(b - a) < 64 * 1024)
			return b;
		a = b;
	}
	return a;
}

/* Key i: its address and prefix length */
static void key_of(int lpm, unsigned int i, __u32 *addr, unsigned int *len)
{
	if (!lpm) {
		*addr = 0x0a000000u + i;
		*len = 32;
		return;
	}
	/* lengths 20..32 in turn, each with room for 2^18 prefixes inside
	 * 64.0.0.0/2: 3.4 million distinct entries
	 */
	*len = 20 + i % 13;
	*addr = 0x40000000u | (((i / 13) + 1) << (32 - *len) & 0x3fffffffu);
}

/* ------------------------------------------------------------------ */

static void p4_entry(struct msg *m, int idx, const char *table, int lpm,
		     unsigned int i, const char *action, int with_act)
{
	struct tc_act_dyna dyna = { .action = TC_ACT_PIPE };
	struct nlattr *obj, *params, *acts, *one, *opts, *parms, *p;
	unsigned int len;
	__u32 addr, mask;

	key_of(lpm, i, &addr, &len);
	mask = len ? htonl(~0u << (32 - len)) : 0;
	addr = htonl(addr) & mask;
	obj = nest(m, idx);
	params = nest(m, P4TC_PARAMS);
	put_str(m, P4TC_ENTRY_TBLNAME, table);
	put(m, P4TC_ENTRY_KEY_BLOB, &addr, 4);
	put(m, P4TC_ENTRY_MASK_BLOB, &mask, 4);
	put_u8(m, P4TC_ENTRY_WHODUNNIT, P4TC_ENTITY_TC);
	if (with_act) {
		__u32 v = i;

		acts = nest(m, P4TC_ENTRY_ACT);
		one = nest(m, 1);
		put_str(m, TCA_ACT_KIND, action);
		opts = nest(m, TCA_ACT_OPTIONS);
		put(m, P4TC_ACT_OPT, &dyna, sizeof(dyna));
		parms = nest(m, P4TC_ACT_PARMS);
		p = nest(m, 1);
		put_str(m, P4TC_ACT_PARAMS_NAME, "m");
		put(m, P4TC_ACT_PARAMS_VALUE, &v, sizeof(v));
		nest_end(m, p);
		nest_end(m, parms);
		nest_end(m, opts);
		nest_end(m, one);
		nest_end(m, acts);
	}
	nest_end(m, params);
	nest_end(m, obj);
}

static double p4_run(const char *pipe, const char *table, int lpm,
		     unsigned int n, unsigned int per, const char *action,
		     int del)
{
	struct p4tcmsg t = { .obj = P4TC_OBJ_TABLE_ENTRY };
	struct msg *m = malloc(sizeof(*m));
	unsigned int i, k;
	struct nlattr *root;
	double t0 = now();

	for (i = 0; i < n; i += per) {
		msg_init(m, del ? RTM_P4TC_DEL : RTM_P4TC_CREATE,
			 del ? 0 : NLM_F_CREATE | NLM_F_EXCL, &t, sizeof(t));
		put_str(m, P4TC_ROOT_PNAME, pipe);
		root = nest(m, P4TC_ROOT);
		for (k = 0; k < per && i + k < n; k++)
			p4_entry(m, k + 1, table, lpm, i + k, action, !del);
		nest_end(m, root);
		talk(m);
	}
	free(m);
	return now() - t0;
}

static double flower_run(int ifindex, int lpm, unsigned int n, int del)
{
	struct msg *m = malloc(sizeof(*m));
	struct tcmsg tcm = {
		.tcm_family = AF_UNSPEC,
		.tcm_ifindex = ifindex,
		.tcm_parent = TC_H_MAKE(TC_H_CLSACT, TC_H_MIN_INGRESS),
	};
	struct tc_gact gact = { .action = TC_ACT_OK };
	struct nlattr *opts, *acts, *one, *aopts;
	unsigned int i, len;
	__u32 addr, mask;
	double t0 = now();

	for (i = 0; i < n; i++) {
		tcm.tcm_handle = i + 1;
		tcm.tcm_info = TC_H_MAKE(1 << 16, htons(ETH_P_IP));
		msg_init(m, del ? RTM_DELTFILTER : RTM_NEWTFILTER,
			 del ? 0 : NLM_F_CREATE | NLM_F_EXCL, &tcm,
			 sizeof(tcm));
		put_str(m, TCA_KIND, "flower");
		if (!del) {
			key_of(lpm, i, &addr, &len);
			mask = len ? htonl(~0u << (32 - len)) : 0;
			addr = htonl(addr) & mask;
			opts = nest(m, TCA_OPTIONS);
			put_u16(m, TCA_FLOWER_KEY_ETH_TYPE, htons(ETH_P_IP));
			put(m, TCA_FLOWER_KEY_IPV4_DST, &addr, 4);
			put(m, TCA_FLOWER_KEY_IPV4_DST_MASK, &mask, 4);
			put_u32(m, TCA_FLOWER_FLAGS, TCA_CLS_FLAGS_SKIP_HW);
			acts = nest(m, TCA_FLOWER_ACT);
			one = nest(m, 1);
			put_str(m, TCA_ACT_KIND, "gact");
			aopts = nest(m, TCA_ACT_OPTIONS);
			put(m, TCA_GACT_PARMS, &gact, sizeof(gact));
			nest_end(m, aopts);
			nest_end(m, one);
			nest_end(m, acts);
			nest_end(m, opts);
		}
		talk(m);
	}
	free(m);
	return now() - t0;
}

static void report(const char *what, unsigned int n, double secs)
{
	printf("%-34s %8u entries %8.2f s %10.0f entries/s\n", what, n, secs,
	       n / secs);
}

int main(int argc, char **argv)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int rcvbuf = 1 << 20, lpm;
	long long m0, m1;
	double ins, del;
	unsigned int n;
	char what[64];

	if (argc < 5) {
		fprintf(stderr,
			"usage: p4rt_bench p4 PIPE TABLE exact|lpm N PER_MSG ACTION [keep]\n"
			"       p4rt_bench flower DEV exact|lpm N\n");
		return 2;
	}
	nl_fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (nl_fd < 0 || bind(nl_fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		die("netlink socket");
	setsockopt(nl_fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));

	if (!strcmp(argv[1], "p4") && (argc == 8 || argc == 9)) {
		unsigned int per = atoi(argv[6]);
		int keep = argc == 9 && !strcmp(argv[8], "keep");

		lpm = !strcmp(argv[4], "lpm");
		n = atoi(argv[5]);
		if (!per || per > P4TC_MSGBATCH_SIZE) {
			fprintf(stderr, "p4rt_bench: 1 to 16 entries per message\n");
			return 2;
		}
		m0 = kmem_settled();
		ins = p4_run(argv[2], argv[3], lpm, n, per, argv[7], 0);
		m1 = kmem_settled();
		snprintf(what, sizeof(what), "p4 %s insert (%u/msg)", argv[4], per);
		report(what, n, ins);
		printf("%-34s %8.0f bytes/entry (slab + percpu)\n",
		       "p4 kernel memory", (double)(m1 - m0) / n);
		if (keep)
			return 0;
		del = p4_run(argv[2], argv[3], lpm, n, per, argv[7], 1);
		snprintf(what, sizeof(what), "p4 %s delete (%u/msg)", argv[4], per);
		report(what, n, del);
		return 0;
	}
	if (!strcmp(argv[1], "flower") && argc == 5) {
		int ifindex = if_nametoindex(argv[2]);

		if (!ifindex)
			die(argv[2]);
		lpm = !strcmp(argv[3], "lpm");
		n = atoi(argv[4]);
		m0 = kmem_settled();
		ins = flower_run(ifindex, lpm, n, 0);
		m1 = kmem_settled();
		snprintf(what, sizeof(what), "flower %s insert (1/msg)", argv[3]);
		report(what, n, ins);
		printf("%-34s %8.0f bytes/entry (slab + percpu)\n",
		       "flower kernel memory", (double)(m1 - m0) / n);
		del = flower_run(ifindex, lpm, n, 1);
		snprintf(what, sizeof(what), "flower %s delete (1/msg)", argv[3]);
		report(what, n, del);
		return 0;
	}
	fprintf(stderr, "p4rt_bench: bad arguments\n");
	return 2;
}
