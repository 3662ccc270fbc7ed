// SPDX-License-Identifier: GPL-2.0
/*
 * pktblast: the datapath benchmark's packet blaster.  Sends 64-byte
 * UDP/IPv4 frames out of an interface through a packet socket, bypassing
 * the qdisc, as fast as sendmmsg() takes them, for a number of seconds,
 * and prints how many went.
 *
 *   pktblast IFACE DMAC NROUTES SECONDS
 *
 * Frames go from 10.1.0.1 to the .1 of route i's /24, route i
 * (0 <= i < NROUTES) being (16 + i / 65536).(i / 256 % 256).(i % 256).0:
 * 1024 prebuilt frames spread evenly over the routes, sent round robin.
 * Run in the guest only.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define FRAMES		1024
#define FRAME_LEN	64
#define BATCH		32

static uint8_t frames[FRAMES][FRAME_LEN];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint16_t csum(const uint8_t *p, int len)
{
	uint32_t sum = 0;
	int i;

	for (i = 0; i < len; i += 2)
		sum += p[i] << 8 | p[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum & 0xffff;
}

static void build(uint8_t *f, const uint8_t *dmac, const uint8_t *smac,
		  uint32_t route)
{
	uint16_t c;

	memset(f, 0, FRAME_LEN);
	memcpy(f, dmac, 6);
	memcpy(f + 6, smac, 6);
	f[12] = 0x08;
	f[14] = 0x45;
	f[17] = FRAME_LEN - 14;
	f[22] = 64;
	f[23] = 17;
	f[26] = 10;
	f[27] = 1;
	f[29] = 1;
	f[30] = 16 + route / 65536;
	f[31] = route / 256 % 256;
	f[32] = route % 256;
	f[33] = 1;
	c = csum(f + 14, 20);
	f[24] = c >> 8;
	f[25] = c;
	f[35] = 9;		/* ports 9 -> 9 (discard) */
	f[37] = 9;
	f[39] = FRAME_LEN - 34;	/* UDP length; no UDP checksum */
}

static int parse_mac(const char *s, uint8_t *mac)
{
	return sscanf(s, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &mac[0], &mac[1],
		      &mac[2], &mac[3], &mac[4], &mac[5]) == 6 ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct mmsghdr msg[BATCH];
	struct iovec iov[BATCH];
	struct sockaddr_ll sll = { 0 };
	uint8_t dmac[6], smac[6];
	unsigned long long sent = 0, failed = 0;
	double start, secs, t;
	struct ifreq ifr = { 0 };
	uint32_t nroutes, i, next = 0;
	int fd, one = 1, n;

	if (argc != 5 || parse_mac(argv[2], dmac) ||
	    (nroutes = strtoul(argv[3], NULL, 0)) == 0 || nroutes > 1000000 ||
	    (secs = atof(argv[4])) <= 0) {
		fprintf(stderr, "usage: pktblast IFACE DMAC NROUTES(1..1000000) SECONDS\n");
		return 2;
	}
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0) {
		perror("pktblast: socket");
		return 1;
	}
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", argv[1]);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0) {
		perror("pktblast: SIOCGIFHWADDR");
		return 1;
	}
	memcpy(smac, ifr.ifr_hwaddr.sa_data, 6);
	sll.sll_family = AF_PACKET;
	sll.sll_ifindex = if_nametoindex(argv[1]);
	sll.sll_protocol = htons(ETH_P_IP);
	if (!sll.sll_ifindex || bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		perror("pktblast: bind");
		return 1;
	}
	if (setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one)))
		perror("pktblast: PACKET_QDISC_BYPASS (going through the qdisc)");

	for (i = 0; i < FRAMES; i++)
		build(frames[i], dmac, smac, (uint64_t)i * nroutes / FRAMES);
	memset(msg, 0, sizeof(msg));
	for (i = 0; i < BATCH; i++) {
		iov[i].iov_len = FRAME_LEN;
		msg[i].msg_hdr.msg_iov = &iov[i];
		msg[i].msg_hdr.msg_iovlen = 1;
	}

	start = now();
	do {
		for (i = 0; i < BATCH; i++) {
			iov[i].iov_base = frames[next];
			next = (next + 1) % FRAMES;
		}
		n = sendmmsg(fd, msg, BATCH, 0);
		if (n < 0) {
			if (errno != ENOBUFS && errno != EAGAIN) {
				perror("pktblast: sendmmsg");
				return 1;
			}
			failed += BATCH;
			continue;
		}
		sent += n;
	} while ((t = now() - start) < secs);
	printf("pktblast: %llu frames in %.2f s: %.0f frames/s (%llu refused)\n",
	       sent, t, sent / t, failed);
	return 0;
}
