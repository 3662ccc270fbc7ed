/*
 * QTest for the P4 NIC (hw/net/p4nic): drives its registers, queues and
 * rings as a driver would, with no guest kernel.  Ports 0 and 1 are
 * wired to socket pairs, so the test sends frames in and reads what the
 * device sends out.  Every negative test ends with QEMU alive and the
 * device reporting the error (ERR_COUNT / ERR_LAST, STATUS.FATAL, a
 * descriptor's ERROR bit or a command's status).
 *
 * Copyright (c) 2026 The P4TC offload authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include <poll.h>
#include "libqtest.h"
#include "qemu/bswap.h"
#include "libqos/libqos-pc.h"
#include "libqos/pci.h"
#include "qapi/qmp/qdict.h"
#include "hw/pci/pci_regs.h"
#include "p4nic/imgbuild.h"
#include "p4nic/programs.h"

#define NPORTS          4       /* the router program maps 4 ports */
#define NWIRED          2       /* ports 0 and 1 have a socket */
#define QSIZE           16
#define RING            8
#define BUF             2048
#define ADDR_NOWHERE    0xfff0000000000000ull   /* not guest memory */

typedef struct Nic {
    QOSState *qs;
    QPCIDevice *dev;
    QPCIBar bar;
    int sock[NWIRED];           /* our end of each port's wire */
    int peer[NWIRED];           /* QEMU's end */
    uint64_t aq, acq, eq, in, out;
    uint32_t aq_tail, acq_head;
    bool acq_phase;
    uint32_t cookie;
    uint64_t tx[NPORTS], rx[NPORTS], txbuf[NPORTS], rxbuf[NPORTS];
} Nic;

static uint32_t rd(Nic *n, uint32_t off)
{
    return qpci_io_readl(n->dev, n->bar, off);
}

static void wr(Nic *n, uint32_t off, uint32_t val)
{
    qpci_io_writel(n->dev, n->bar, off, val);
}

static uint32_t port_reg(uint32_t p, uint32_t off)
{
    return P4NIC_REG_PORT(p) + off;
}

/* The last refused register write was OFF, for WHY, and it was the Nth. */
static void assert_refused(Nic *n, uint32_t off, uint32_t why, uint32_t nth)
{
    uint32_t last = rd(n, P4NIC_REG_ERR_LAST);

    g_assert_cmpuint(rd(n, P4NIC_REG_ERR_COUNT), ==, nth);
    g_assert_cmphex(P4NIC_ERR_OFFSET(last), ==, off);
    g_assert_cmpuint(P4NIC_ERR_WHY(last), ==, why);
}

static void set_queue(Nic *n, uint32_t reg, uint64_t base, uint32_t size)
{
    wr(n, reg, (uint32_t)base);
    wr(n, reg + 4, base >> 32);
    wr(n, reg + 8, size);
}

/* Reset the function and bring up its admin, completion and event queues. */
static void bring_up(Nic *n)
{
    wr(n, P4NIC_REG_CTRL, P4NIC_CTRL_RESET);
    g_assert_cmphex(rd(n, P4NIC_REG_STATUS), ==, P4NIC_STATUS_READY);
    qtest_memset(n->qs->qts, n->acq, 0, QSIZE * 16);
    qtest_memset(n->qs->qts, n->eq, 0, QSIZE * 16);
    set_queue(n, P4NIC_REG_AQ_BASE_LO, n->aq, QSIZE);
    set_queue(n, P4NIC_REG_ACQ_BASE_LO, n->acq, QSIZE);
    set_queue(n, P4NIC_REG_EQ_BASE_LO, n->eq, QSIZE);
    wr(n, P4NIC_REG_CTRL, P4NIC_CTRL_ENABLE);
    n->aq_tail = 0;
    n->acq_head = 0;
    n->acq_phase = true;
    g_assert_cmpuint(rd(n, P4NIC_REG_ERR_COUNT), ==, 0);
}

/* NETDEVS: more -netdev options; PROPS: more p4nic properties, after ",". */
static Nic *nic_new_with(const char *netdevs, const char *props)
{
    Nic *n = g_new0(Nic, 1);
    int sv[NWIRED][2], p;

    for (p = 0; p < NWIRED; p++) {
        g_assert_cmpint(socketpair(PF_UNIX, SOCK_STREAM, 0, sv[p]), ==, 0);
        n->sock[p] = sv[p][0];
        n->peer[p] = sv[p][1];
    }
    n->qs = qtest_pc_boot("-netdev socket,id=w0,fd=%d "
                          "-netdev socket,id=w1,fd=%d %s "
                          "-device p4nic,id=nic,addr=04.0,ports=%d,"
                          "netdev0=w0,netdev1=w1%s",
                          n->peer[0], n->peer[1], netdevs, NPORTS, props);
    n->dev = qpci_device_find(n->qs->pcibus, QPCI_DEVFN(4, 0));
    g_assert(n->dev);
    qpci_device_enable(n->dev);
    n->bar = qpci_iomap(n->dev, P4NIC_BAR_REGS, NULL);
    n->aq = qmalloc(n->qs, QSIZE * sizeof(struct p4nic_cmd));
    n->acq = qmalloc(n->qs, QSIZE * 16);
    n->eq = qmalloc(n->qs, QSIZE * 16);
    n->in = qmalloc(n->qs, P4NIC_IMAGE_MAX_BYTES);
    n->out = qmalloc(n->qs, 64 * 1024);
    for (p = 0; p < NPORTS; p++) {
        n->tx[p] = qmalloc(n->qs, RING * sizeof(struct p4nic_tx_desc));
        n->rx[p] = qmalloc(n->qs, RING * sizeof(struct p4nic_rx_desc));
        n->txbuf[p] = qmalloc(n->qs, RING * BUF);
        n->rxbuf[p] = qmalloc(n->qs, RING * BUF);
    }
    bring_up(n);
    return n;
}

static Nic *nic_new(void)
{
    return nic_new_with("", "");
}

static void nic_free(Nic *n)
{
    int p;

    for (p = 0; p < NWIRED; p++) {
        close(n->sock[p]);
        close(n->peer[p]);
    }
    g_free(n->dev);
    qtest_shutdown(n->qs);
    g_free(n);
}

/* ------------------------------------------------------------------ */
/* Admin commands                                                      */
/* ------------------------------------------------------------------ */

/* Wait for the next completion; false if none came. */
static bool next_cpl(Nic *n, struct p4nic_cpl *cpl)
{
    uint64_t at = n->acq + n->acq_head * 16;
    int i;

    for (i = 0; i < 5000; i++) {
        qtest_memread(n->qs->qts, at, cpl, sizeof(*cpl));
        if (!!(le16_to_cpu(cpl->flags) & P4NIC_CPL_PHASE) == n->acq_phase) {
            n->acq_head = (n->acq_head + 1) % QSIZE;
            if (!n->acq_head) {
                n->acq_phase = !n->acq_phase;
            }
            wr(n, P4NIC_REG_ACQ_HEAD, n->acq_head);
            return true;
        }
        g_usleep(1000);
    }
    return false;
}

/* Queue a raw 64-byte command and ring the doorbell. */
static void post_raw(Nic *n, const void *cmd)
{
    qtest_memwrite(n->qs->qts, n->aq + n->aq_tail * 64, cmd, 64);
    n->aq_tail = (n->aq_tail + 1) % QSIZE;
    wr(n, P4NIC_REG_AQ_TAIL, n->aq_tail);
}

static struct p4nic_cpl cmd_at(Nic *n, uint16_t op, uint64_t in,
                               uint32_t in_len, uint64_t out,
                               uint32_t out_len, uint32_t p0, uint32_t p1,
                               uint32_t p2)
{
    struct p4nic_cmd c = { 0 };
    struct p4nic_cpl cpl;

    c.opcode = cpu_to_le16(op);
    c.cookie = cpu_to_le32(++n->cookie);
    c.in_addr = cpu_to_le64(in);
    c.in_len = cpu_to_le32(in_len);
    c.out_addr = cpu_to_le64(out);
    c.out_len = cpu_to_le32(out_len);
    c.p[0] = cpu_to_le32(p0);
    c.p[1] = cpu_to_le32(p1);
    c.p[2] = cpu_to_le32(p2);
    post_raw(n, &c);
    g_assert(next_cpl(n, &cpl));
    g_assert_cmphex(le32_to_cpu(cpl.cookie), ==, n->cookie);
    g_assert_cmpuint(le16_to_cpu(cpl.aq_head), ==, n->aq_tail);
    return cpl;
}

/* A command with IN copied to the input buffer; out at n->out. */
static struct p4nic_cpl cmd(Nic *n, uint16_t op, const void *in,
                            uint32_t in_len, uint32_t out_len, uint32_t p0,
                            uint32_t p1, uint32_t p2)
{
    if (in) {
        qtest_memwrite(n->qs->qts, n->in, in, in_len);
    }
    return cmd_at(n, op, n->in, in_len, n->out, out_len, p0, p1, p2);
}

static void cmd_ok(Nic *n, uint16_t op, const void *in, uint32_t in_len,
                   uint32_t out_len, uint32_t p0, uint32_t p1, uint32_t p2)
{
    struct p4nic_cpl c = cmd(n, op, in, in_len, out_len, p0, p1, p2);

    g_assert_cmpuint(le16_to_cpu(c.status), ==, P4NIC_ST_OK);
}

static void identify(Nic *n)
{
    cmd_ok(n, P4NIC_CMD_IDENTIFY, NULL, 0, sizeof(struct p4nic_identity), 0,
           0, 0);
}

static void load_router(Nic *n)
{
    uint32_t len;
    uint8_t *img = program_router(&len);

    cmd_ok(n, P4NIC_CMD_PIPELINE_LOAD, img, len, 0, 0, 0, 0);
    free(img);
}

/* fib: DST/PLEN -> set_nh(dmac, smac, the ifindex of port OUT) */
static void add_route(Nic *n, uint32_t handle, uint32_t dst, uint32_t plen,
                      uint32_t out)
{
    struct p4nic_entry e;
    uint8_t key[4], mask[4];
    ib_u128 params[3] = { 0x020000000001ull, 0x020000000002ull, IFX(out) };
    uint32_t m = plen ? ~0u << (32 - plen) : 0;
    int i;

    for (i = 0; i < 4; i++) {
        key[i] = (dst & m) >> (24 - 8 * i);
        mask[i] = m >> (24 - 8 * i);
    }
    ib_entry(&e, ROUTER_FIB, handle, 0, ROUTER_SET_NH, 4, key, mask, 3,
             params);
    cmd_ok(n, P4NIC_CMD_ENTRY_ADD, &e, sizeof(e), 0, 0, 0, 0);
}

/* ------------------------------------------------------------------ */
/* Rings and wires                                                     */
/* ------------------------------------------------------------------ */

static void ring_up(Nic *n, uint32_t p)
{
    qtest_memset(n->qs->qts, n->tx[p], 0, RING * 16);
    qtest_memset(n->qs->qts, n->rx[p], 0, RING * 24);
    set_queue(n, port_reg(p, P4NIC_PORT_TX_BASE_LO), n->tx[p], RING);
    set_queue(n, port_reg(p, P4NIC_PORT_RX_BASE_LO), n->rx[p], RING);
    /* the pipeline, once loaded, runs on every port of these tests */
    cmd_ok(n, P4NIC_CMD_PORT_SET, NULL, 0, 0, p,
           P4NIC_PORT_ENABLED | P4NIC_PORT_PIPELINE, 0);
    g_assert_cmphex(rd(n, port_reg(p, P4NIC_PORT_STATUS)), ==,
                    P4NIC_PORT_LINK_UP | P4NIC_PORT_ENABLED);
}

/* Post RX buffers IDX..TAIL-1 of port P, each LEN bytes. */
static void post_rx(Nic *n, uint32_t p, uint32_t idx, uint32_t tail,
                    uint16_t len)
{
    struct p4nic_rx_desc d = { 0 };

    for (; idx != tail; idx = (idx + 1) % RING) {
        d.addr = cpu_to_le64(n->rxbuf[p] + idx * BUF);
        d.buf_len = cpu_to_le16(len);
        qtest_memwrite(n->qs->qts, n->rx[p] + idx * 24, &d, sizeof(d));
    }
    wr(n, port_reg(p, P4NIC_PORT_RX_TAIL), tail);
}

/* Wait for RX descriptor IDX of port P to be done. */
static struct p4nic_rx_desc rx_wait(Nic *n, uint32_t p, uint32_t idx)
{
    struct p4nic_rx_desc d;
    int i;

    for (i = 0; i < 5000; i++) {
        qtest_memread(n->qs->qts, n->rx[p] + idx * 24, &d, sizeof(d));
        if (le16_to_cpu(d.status) & P4NIC_DESC_DONE) {
            return d;
        }
        g_usleep(1000);
    }
    g_assert_not_reached();
}

/* Transmit a frame from the host on port P, descriptor IDX. */
static uint16_t host_tx(Nic *n, uint32_t p, uint32_t idx, uint64_t addr,
                        const void *frame, uint16_t len)
{
    struct p4nic_tx_desc d = { 0 };

    if (frame) {
        qtest_memwrite(n->qs->qts, addr, frame, len);
    }
    d.addr = cpu_to_le64(addr);
    d.len = cpu_to_le16(len);
    qtest_memwrite(n->qs->qts, n->tx[p] + idx * 16, &d, sizeof(d));
    wr(n, port_reg(p, P4NIC_PORT_TX_TAIL), (idx + 1) % RING);
    g_assert_cmpuint(rd(n, port_reg(p, P4NIC_PORT_TX_HEAD)), ==,
                     (idx + 1) % RING);
    qtest_memread(n->qs->qts, n->tx[p] + idx * 16, &d, sizeof(d));
    return le16_to_cpu(d.status);
}

/* Send a frame into port P's wire (the socket netdev's framing). */
static void wire_send(Nic *n, uint32_t p, const void *frame, uint32_t len)
{
    uint32_t be = htonl(len);

    g_assert_cmpint(write(n->sock[p], &be, 4), ==, 4);
    g_assert_cmpint(write(n->sock[p], frame, len), ==, len);
}

/* A frame out of port P's wire within MS milliseconds; its length or -1. */
static int wire_recv(Nic *n, uint32_t p, uint8_t *buf, uint32_t size, int ms)
{
    struct pollfd pfd = { .fd = n->sock[p], .events = POLLIN };
    uint32_t be, len;
    int i;

    /* the main loop runs while qtest talks to it: keep it busy */
    for (i = 0; i < ms; i++) {
        if (poll(&pfd, 1, 0) == 1) {
            break;
        }
        rd(n, P4NIC_REG_STATUS);
        g_usleep(1000);
    }
    if (i == ms) {
        return -1;
    }
    g_assert_cmpint(recv(n->sock[p], &be, 4, MSG_WAITALL), ==, 4);
    len = ntohl(be);
    g_assert_cmpuint(len, <=, size);
    g_assert_cmpint(recv(n->sock[p], buf, len, MSG_WAITALL), ==, len);
    return len;
}

/* Ethernet + IPv4 + UDP, checksummed; returns the length. */
static uint32_t ipv4_frame(uint8_t *f, uint32_t dst, uint8_t ttl)
{
    uint32_t sum = 0, i;

    memset(f, 0, 64);
    memcpy(f, "\x02\x00\x00\x00\x00\x99\x02\x00\x00\x00\x00\x42", 12);
    f[12] = 0x08;
    f[14] = 0x45;
    f[17] = 50;                 /* total length: 20 + 8 + 22 */
    f[22] = ttl;
    f[23] = 17;
    memcpy(f + 26, "\x0a\x00\x00\x01", 4);
    f[30] = dst >> 24;
    f[31] = dst >> 16;
    f[32] = dst >> 8;
    f[33] = dst;
    for (i = 14; i < 34; i += 2) {
        sum += f[i] << 8 | f[i + 1];
    }
    sum = (sum & 0xffff) + (sum >> 16);
    sum = ~((sum & 0xffff) + (sum >> 16)) & 0xffff;
    f[24] = sum >> 8;
    f[25] = sum;
    f[37] = 9;
    f[39] = 30;                 /* UDP length */
    return 64;
}

static bool ipv4_csum_ok(const uint8_t *f)
{
    uint32_t sum = 0, i;

    for (i = 14; i < 34; i += 2) {
        sum += f[i] << 8 | f[i + 1];
    }
    sum = (sum & 0xffff) + (sum >> 16);
    return ((sum & 0xffff) + (sum >> 16)) == 0xffff;
}

static char *query(Nic *n)
{
    QDict *rsp = qtest_qmp(n->qs->qts, "{'execute': 'x-query-p4nic'}");
    QDict *ret = qdict_get_qdict(rsp, "return");
    char *text;

    g_assert(ret);
    text = g_strdup(qdict_get_str(ret, "human-readable-text"));
    qobject_unref(rsp);
    return text;
}

/* ------------------------------------------------------------------ */
/* Positive tests                                                      */
/* ------------------------------------------------------------------ */

static void test_identify(void)
{
    Nic *n = nic_new();
    struct p4nic_identity id;
    struct p4nic_port_info pi;

    g_assert_cmphex(qpci_config_readw(n->dev, PCI_VENDOR_ID), ==,
                    P4NIC_PCI_VENDOR_ID);
    g_assert_cmphex(qpci_config_readw(n->dev, PCI_DEVICE_ID), ==,
                    P4NIC_PCI_DEVICE_ID);
    g_assert_cmphex(qpci_config_readw(n->dev, PCI_CLASS_DEVICE), ==,
                    P4NIC_PCI_CLASS);
    g_assert_cmphex(rd(n, P4NIC_REG_MAGIC), ==, P4NIC_MAGIC);
    g_assert_cmphex(rd(n, P4NIC_REG_VERSION), ==,
                    P4NIC_ABI_MAJOR << 16 | P4NIC_ABI_MINOR);
    g_assert_cmpuint(rd(n, P4NIC_REG_NUM_PORTS), ==, NPORTS);
    g_assert_cmphex(rd(n, P4NIC_REG_CAPS), ==,
                    P4NIC_CAP_MSIX | P4NIC_CAP_OFFLOAD);

    cmd_ok(n, P4NIC_CMD_IDENTIFY, NULL, 0, sizeof(id), 0, 0, 0);
    qtest_memread(n->qs->qts, n->out, &id, sizeof(id));
    g_assert_cmpuint(le16_to_cpu(id.abi_major), ==, P4NIC_ABI_MAJOR);
    g_assert_cmpuint(le32_to_cpu(id.num_ports), ==, NPORTS);
    g_assert(le32_to_cpu(id.commands) &
             P4NIC_CMD_BIT(P4NIC_CMD_PIPELINE_LOAD));

    /* the MAC of port 1 is the base MAC plus one, in registers and QUERY */
    cmd_ok(n, P4NIC_CMD_PORT_QUERY, NULL, 0, sizeof(pi), 1, 0, 0);
    qtest_memread(n->qs->qts, n->out, &pi, sizeof(pi));
    g_assert_cmphex(rd(n, port_reg(1, P4NIC_PORT_MAC_LO)), ==,
                    ldl_le_p(pi.mac));
    g_assert_cmphex(rd(n, port_reg(1, P4NIC_PORT_MAC_HI)), ==,
                    lduw_le_p(pi.mac + 4));
    g_assert_cmphex(pi.mac[5], ==,
                    (rd(n, port_reg(0, P4NIC_PORT_MAC_HI)) >> 8) + 1);
    g_assert_cmphex(le16_to_cpu(pi.status), ==, P4NIC_PORT_LINK_UP);
    nic_free(n);
}

/* Register reset, and function-level reset through the AF capability. */
static void test_reset(void)
{
    Nic *n = nic_new();
    uint8_t af;

    load_router(n);
    wr(n, P4NIC_REG_INTR_MASK, 3);
    wr(n, P4NIC_REG_CTRL, P4NIC_CTRL_RESET);
    g_assert_cmphex(rd(n, P4NIC_REG_CTRL), ==, 0);
    g_assert_cmphex(rd(n, P4NIC_REG_STATUS), ==, P4NIC_STATUS_READY);
    g_assert_cmphex(rd(n, P4NIC_REG_INTR_MASK), ==, 0);
    g_assert_cmpuint(rd(n, P4NIC_REG_AQ_SIZE), ==, 0);
    g_assert_cmpuint(rd(n, P4NIC_REG_AQ_HEAD), ==, 0);
    bring_up(n);
    /* the pipeline went with the reset: loading again works */
    load_router(n);
    cmd_ok(n, P4NIC_CMD_PORT_SET, NULL, 0, 0, 0,
           P4NIC_PORT_ENABLED | P4NIC_PORT_PIPELINE, 0);

    af = qpci_find_capability(n->dev, PCI_CAP_ID_AF, 0);
    g_assert_cmpuint(af, !=, 0);
    g_assert_cmphex(qpci_config_readb(n->dev, af + PCI_AF_CAP), ==,
                    PCI_AF_CAP_TP | PCI_AF_CAP_FLR);
    qpci_config_writeb(n->dev, af + PCI_AF_CTRL, PCI_AF_CTRL_FLR);
    g_assert_cmphex(qpci_config_readb(n->dev, af + PCI_AF_CTRL), ==, 0);
    /* FLR cleared bus mastering and the BAR: map again */
    qpci_device_enable(n->dev);
    n->bar = qpci_iomap(n->dev, P4NIC_BAR_REGS, NULL);
    g_assert_cmphex(rd(n, P4NIC_REG_CTRL), ==, 0);
    g_assert_cmpuint(rd(n, P4NIC_REG_AQ_SIZE), ==, 0);
    g_assert_cmphex(rd(n, port_reg(0, P4NIC_PORT_STATUS)), ==,
                    P4NIC_PORT_LINK_UP);
    bring_up(n);
    load_router(n);
    nic_free(n);
}

/*
 * The router: a frame in on port 0 for a routed prefix leaves on port 1
 * rewritten (MACs, TTL, checksum); counters count it; QMP shows it.
 */
static void test_pipeline_packet(void)
{
    Nic *n = nic_new();
    struct p4nic_counter ctr;
    struct p4nic_table_info ti;
    uint8_t f[64], out[BUF];
    char *text;
    int len;

    load_router(n);
    add_route(n, 3, 0x0a020000, 16, 1);
    ring_up(n, 0);
    ring_up(n, 1);
    post_rx(n, 0, 0, RING - 1, BUF);

    wire_send(n, 0, f, ipv4_frame(f, 0x0a020304, 64));
    len = wire_recv(n, 1, out, sizeof(out), 5000);
    g_assert_cmpint(len, ==, 64);
    g_assert(!memcmp(out, "\x02\x00\x00\x00\x00\x01\x02\x00\x00\x00\x00\x02",
                     12));
    g_assert_cmpuint(out[22], ==, 63);
    g_assert(ipv4_csum_ok(out));
    g_assert(!memcmp(out + 26, f + 26, 64 - 26));
    /* a miss drops: nothing anywhere */
    wire_send(n, 0, f, ipv4_frame(f, 0x0b000001, 64));
    g_assert_cmpint(wire_recv(n, 1, out, sizeof(out), 200), ==, -1);
    g_assert_cmpuint(rd(n, port_reg(0, P4NIC_PORT_RX_HEAD)), ==, 0);
    /* TTL 1: the program gives it to the host, as the program left it */
    wire_send(n, 0, f, ipv4_frame(f, 0x0a020304, 1));
    {
        struct p4nic_rx_desc d = rx_wait(n, 0, 0);

        g_assert_cmpuint(le16_to_cpu(d.status), ==, P4NIC_DESC_DONE);
        g_assert_cmpuint(le16_to_cpu(d.reason), ==, P4NIC_RX_PASS);
        g_assert_cmpuint(le16_to_cpu(d.pkt_len), ==, 64);
        qtest_memread(n->qs->qts, n->rxbuf[0], out, 64);
        g_assert(!memcmp(out, f, 64));
    }

    cmd_ok(n, P4NIC_CMD_COUNTERS_READ, NULL, 0, sizeof(ctr), ROUTER_FIB, 3,
           1);
    qtest_memread(n->qs->qts, n->out, &ctr, sizeof(ctr));
    /* the routed frame and the TTL 1 one: hardware owned both verdicts */
    g_assert_cmpuint(le64_to_cpu(ctr.packets), ==, 2);
    g_assert_cmpuint(le64_to_cpu(ctr.bytes), ==, 128);
    cmd_ok(n, P4NIC_CMD_QUERY, NULL, 0, sizeof(ti), P4NIC_QUERY_TABLE,
           ROUTER_FIB, 0);
    qtest_memread(n->qs->qts, n->out, &ti, sizeof(ti));
    g_assert_cmpuint(le32_to_cpu(ti.num_entries), ==, 1);
    g_assert_cmpuint(le64_to_cpu(ti.misses), ==, 1);

    text = query(n);
    g_assert(strstr(text, "pipeline 7: 1 tables"));
    g_assert(strstr(text, "table 1: lpm, key 32 bits, 1/65536 entries"));
    g_assert(strstr(text, "entry 3: key 0a020000 mask ffff0000 prio 0 "
                    "action 1 packets 2 bytes 128"));
    g_assert(strstr(text, "port 1: w1"));
    g_free(text);
    text = qtest_hmp(n->qs->qts, "info p4nic");
    g_assert(strstr(text, "pipeline 7"));
    g_free(text);
    nic_free(n);
}

/*
 * No pipeline: a plain NIC.  Wire to host with reason NO_PIPELINE, host
 * to wire unchanged.
 */
static void test_plain_nic(void)
{
    Nic *n = nic_new();
    struct p4nic_rx_desc d;
    struct p4nic_port_info pi;
    uint8_t f[64], out[BUF];

    ring_up(n, 0);
    ring_up(n, 1);
    post_rx(n, 1, 0, 4, BUF);
    wire_send(n, 1, f, ipv4_frame(f, 0x0a000002, 9));
    d = rx_wait(n, 1, 0);
    g_assert_cmpuint(le16_to_cpu(d.reason), ==, P4NIC_RX_NO_PIPELINE);
    g_assert_cmpuint(le16_to_cpu(d.pkt_len), ==, 64);
    qtest_memread(n->qs->qts, n->rxbuf[1], out, 64);
    g_assert(!memcmp(out, f, 64));
    g_assert_cmpuint(rd(n, port_reg(1, P4NIC_PORT_RX_HEAD)), ==, 1);

    g_assert_cmphex(host_tx(n, 0, 0, n->txbuf[0], f, 60), ==,
                    P4NIC_DESC_DONE);
    g_assert_cmpint(wire_recv(n, 0, out, sizeof(out), 5000), ==, 60);
    g_assert(!memcmp(out, f, 60));

    cmd_ok(n, P4NIC_CMD_PORT_QUERY, NULL, 0, sizeof(pi), 0, 0, 0);
    qtest_memread(n->qs->qts, n->out, &pi, sizeof(pi));
    g_assert_cmpuint(le64_to_cpu(pi.tx_packets), ==, 1);
    g_assert_cmpuint(le64_to_cpu(pi.tx_bytes), ==, 60);
    nic_free(n);
}

/*
 * Backpressure: frames for the host that find no buffer wait (first in
 * the device, then in the netdev) and arrive in order when the driver
 * posts buffers; none is dropped.  40 frames are more than the device
 * holds (32), so the netdev's queue is used too.
 */
static void test_backpressure(void)
{
    Nic *n = nic_new();
    struct p4nic_port_info pi;
    uint32_t got = 0, head = 0;
    uint8_t f[64];
    int i;

    ring_up(n, 0);
    for (i = 0; i < 40; i++) {
        wire_send(n, 0, f, ipv4_frame(f, 0x0a000000 + i, 64));
    }
    for (i = 0; i < 50; i++) {
        rd(n, P4NIC_REG_STATUS);
        g_usleep(1000);
    }
    g_assert_cmpuint(rd(n, port_reg(0, P4NIC_PORT_RX_HEAD)), ==, 0);
    /* a ring of 8 holds 7 posted buffers: post, collect, repeat */
    while (got < 40) {
        uint32_t k, batch = MIN(RING - 1, 40 - got);

        post_rx(n, 0, head, (head + batch) % RING, BUF);
        for (k = 0; k < batch; k++) {
            struct p4nic_rx_desc d = rx_wait(n, 0, head);

            g_assert_cmpuint(le16_to_cpu(d.pkt_len), ==, 64);
            qtest_memread(n->qs->qts, n->rxbuf[0] + head * BUF, f, 64);
            g_assert_cmpuint(f[33], ==, got);
            /* the driver hands the descriptor back: clear DONE */
            qtest_memset(n->qs->qts, n->rx[0] + head * 24, 0, 24);
            head = (head + 1) % RING;
            got++;
        }
    }
    cmd_ok(n, P4NIC_CMD_PORT_QUERY, NULL, 0, sizeof(pi), 0, 0, 0);
    qtest_memread(n->qs->qts, n->out, &pi, sizeof(pi));
    g_assert_cmpuint(le64_to_cpu(pi.rx_packets), ==, 40);
    g_assert_cmpuint(le64_to_cpu(pi.to_host), ==, 40);
    g_assert_cmpuint(le64_to_cpu(pi.no_buffer), ==, 0);
    nic_free(n);
}

/* Set MSI-X table entry V: message address and data, masked or not. */
static void msix_entry(Nic *n, uint16_t v, uint64_t addr, uint32_t data,
                       bool masked)
{
    uint64_t e = n->dev->msix_table_off + v * PCI_MSIX_ENTRY_SIZE;

    qpci_io_writel(n->dev, n->dev->msix_table_bar,
                   e + PCI_MSIX_ENTRY_LOWER_ADDR, (uint32_t)addr);
    qpci_io_writel(n->dev, n->dev->msix_table_bar,
                   e + PCI_MSIX_ENTRY_UPPER_ADDR, addr >> 32);
    qpci_io_writel(n->dev, n->dev->msix_table_bar, e + PCI_MSIX_ENTRY_DATA,
                   data);
    qpci_io_writel(n->dev, n->dev->msix_table_bar,
                   e + PCI_MSIX_ENTRY_VECTOR_CTRL, masked);
}

/*
 * Completions raise vector 0, a message written where its MSI-X entry
 * says; INTR_MASK holds it back until it is cleared; with the vector
 * masked in the MSI-X table it is pending in the PBA.
 */
static void test_interrupts(void)
{
    Nic *n = nic_new();
    uint64_t msg = qmalloc(n->qs, 4);

    qpci_msix_enable(n->dev);
    g_assert_cmpuint(qpci_msix_table_size(n->dev), ==, 2 + 2 * NPORTS);
    qtest_writel(n->qs->qts, msg, 0);
    msix_entry(n, P4NIC_VEC_ADMIN, msg, 0xcafe0000, false);
    identify(n);
    g_assert_cmphex(qtest_readl(n->qs->qts, msg), ==, 0xcafe0000);

    qtest_writel(n->qs->qts, msg, 0);
    wr(n, P4NIC_REG_INTR_MASK, 1u << P4NIC_VEC_ADMIN);
    identify(n);
    g_assert_cmphex(qtest_readl(n->qs->qts, msg), ==, 0);
    wr(n, P4NIC_REG_INTR_MASK, 0);
    g_assert_cmphex(qtest_readl(n->qs->qts, msg), ==, 0xcafe0000);

    qtest_writel(n->qs->qts, msg, 0);
    msix_entry(n, P4NIC_VEC_ADMIN, msg, 0xcafe0000, true);
    identify(n);
    g_assert_cmphex(qtest_readl(n->qs->qts, msg), ==, 0);
    g_assert(qpci_msix_pending(n->dev, P4NIC_VEC_ADMIN));
    g_assert(!qpci_msix_pending(n->dev, P4NIC_VEC_EVENT));
    qpci_msix_disable(n->dev);
    nic_free(n);
}

/* Link changes reach the port's STATUS and the event queue. */
static void test_link_events(void)
{
    Nic *n = nic_new();
    struct p4nic_event ev;
    QDict *rsp;

    ring_up(n, 1);
    rsp = qtest_qmp(n->qs->qts, "{'execute': 'set_link', 'arguments': "
                    "{'name': 'w1', 'up': false}}");
    g_assert(qdict_haskey(rsp, "return"));
    qobject_unref(rsp);
    g_assert_cmphex(rd(n, port_reg(1, P4NIC_PORT_STATUS)), ==,
                    P4NIC_PORT_ENABLED);
    qtest_memread(n->qs->qts, n->eq, &ev, sizeof(ev));
    g_assert_cmpuint(le16_to_cpu(ev.type), ==, P4NIC_EV_LINK);
    g_assert_cmpuint(le16_to_cpu(ev.port), ==, 1);
    g_assert_cmphex(le32_to_cpu(ev.data), ==, P4NIC_PORT_ENABLED);
    g_assert_cmpuint(le16_to_cpu(ev.flags), ==, P4NIC_CPL_PHASE);
    g_assert_cmpuint(rd(n, P4NIC_REG_EQ_HEAD), ==, 0);

    rsp = qtest_qmp(n->qs->qts, "{'execute': 'set_link', 'arguments': "
                    "{'name': 'w1', 'up': true}}");
    qobject_unref(rsp);
    g_assert_cmphex(rd(n, port_reg(1, P4NIC_PORT_STATUS)), ==,
                    P4NIC_PORT_LINK_UP | P4NIC_PORT_ENABLED);
    qtest_memread(n->qs->qts, n->eq + 16, &ev, sizeof(ev));
    g_assert_cmpuint(le16_to_cpu(ev.type), ==, P4NIC_EV_LINK);
    g_assert_cmphex(le32_to_cpu(ev.data), ==,
                    P4NIC_PORT_LINK_UP | P4NIC_PORT_ENABLED);
    /* the driver consumes both; a third would go to slot 2 */
    wr(n, P4NIC_REG_EQ_HEAD, 2);
    g_assert_cmpuint(rd(n, P4NIC_REG_ERR_COUNT), ==, 0);
    wr(n, P4NIC_REG_EQ_HEAD, 3);
    assert_refused(n, P4NIC_REG_EQ_HEAD, P4NIC_ERR_VALUE, 1);
    nic_free(n);
}

/*
 * Ports 2 and 3 on one hub: what the router sends out of port 2 comes
 * back into port 3 while the firmware still holds it.  The looped frame
 * is dropped and counted; nothing else breaks.
 */
static void test_loop(void)
{
    Nic *n = nic_new_with("-netdev hubport,id=a,hubid=0 "
                          "-netdev hubport,id=b,hubid=0",
                          ",netdev2=a,netdev3=b");
    uint8_t f[64], out[BUF];
    char *text;
    int p;

    load_router(n);
    add_route(n, 0, 0x0a020000, 16, 2);
    add_route(n, 1, 0x0a030000, 16, 1);
    for (p = 0; p < NPORTS; p++) {
        ring_up(n, p);
    }
    /* port 0 has no RX buffer: forwarding goes on regardless */
    wire_send(n, 0, f, ipv4_frame(f, 0x0a020304, 64));
    wire_send(n, 0, f, ipv4_frame(f, 0x0a030305, 64));
    g_assert_cmpint(wire_recv(n, 1, out, sizeof(out), 5000), ==, 64);
    g_assert_cmpuint(out[33], ==, 5);
    text = query(n);
    g_assert(strstr(text, "port 3: b"));
    g_assert(strstr(text, "looped 1\n"));
    g_free(text);
    nic_free(n);
}

/* ------------------------------------------------------------------ */
/* Negative tests: QEMU lives, the device says what was wrong          */
/* ------------------------------------------------------------------ */

static void test_bad_registers(void)
{
    Nic *n = nic_new();
    uint32_t errs = 0;

    /* sizes: 0 is "off", 3 and 8192 are refused */
    wr(n, P4NIC_REG_CTRL, 0);
    wr(n, P4NIC_REG_AQ_SIZE, 3);
    assert_refused(n, P4NIC_REG_AQ_SIZE, P4NIC_ERR_VALUE, ++errs);
    wr(n, P4NIC_REG_AQ_SIZE, 8192);
    assert_refused(n, P4NIC_REG_AQ_SIZE, P4NIC_ERR_VALUE, ++errs);
    wr(n, P4NIC_REG_AQ_SIZE, 0xffffffff);
    assert_refused(n, P4NIC_REG_AQ_SIZE, P4NIC_ERR_VALUE, ++errs);
    g_assert_cmpuint(rd(n, P4NIC_REG_AQ_SIZE), ==, QSIZE);
    wr(n, P4NIC_REG_ACQ_BASE_LO, 0x1008);
    assert_refused(n, P4NIC_REG_ACQ_BASE_LO, P4NIC_ERR_VALUE, ++errs);
    wr(n, P4NIC_REG_AQ_SIZE, 0);
    g_assert_cmpuint(rd(n, P4NIC_REG_AQ_SIZE), ==, 0);
    wr(n, P4NIC_REG_AQ_TAIL, 0);
    assert_refused(n, P4NIC_REG_AQ_TAIL, P4NIC_ERR_VALUE, ++errs);
    bring_up(n);
    errs = 0;

    /* doorbells beyond the ring */
    wr(n, P4NIC_REG_AQ_TAIL, QSIZE);
    assert_refused(n, P4NIC_REG_AQ_TAIL, P4NIC_ERR_VALUE, ++errs);
    wr(n, P4NIC_REG_AQ_TAIL, 0x80000000);
    assert_refused(n, P4NIC_REG_AQ_TAIL, P4NIC_ERR_VALUE, ++errs);
    /* returning completions the device never produced */
    wr(n, P4NIC_REG_ACQ_HEAD, 5);
    assert_refused(n, P4NIC_REG_ACQ_HEAD, P4NIC_ERR_VALUE, ++errs);
    /* reprogramming a running queue, writing a read-only register */
    wr(n, P4NIC_REG_AQ_BASE_LO, 0);
    assert_refused(n, P4NIC_REG_AQ_BASE_LO, P4NIC_ERR_BUSY, ++errs);
    wr(n, P4NIC_REG_MAGIC, 0);
    assert_refused(n, P4NIC_REG_MAGIC, P4NIC_ERR_READ_ONLY, ++errs);
    wr(n, P4NIC_REG_AQ_HEAD, 1);
    assert_refused(n, P4NIC_REG_AQ_HEAD, P4NIC_ERR_READ_ONLY, ++errs);
    wr(n, 0x3ffc, 1);
    assert_refused(n, 0x3ffc, P4NIC_ERR_READ_ONLY, ++errs);
    wr(n, P4NIC_REG_CTRL, 0x80 | P4NIC_CTRL_ENABLE);
    assert_refused(n, P4NIC_REG_CTRL, P4NIC_ERR_VALUE, ++errs);
    /* interrupts on vectors that do not exist, ports beyond the NIC's */
    wr(n, P4NIC_REG_INTR_MASK, 1u << (2 + 2 * NPORTS));
    assert_refused(n, P4NIC_REG_INTR_MASK, P4NIC_ERR_NO_PORT, ++errs);
    g_assert_cmphex(rd(n, P4NIC_REG_INTR_MASK), ==, 0);
    wr(n, port_reg(NPORTS, P4NIC_PORT_TX_SIZE), 8);
    assert_refused(n, port_reg(NPORTS, P4NIC_PORT_TX_SIZE),
                   P4NIC_ERR_NO_PORT, ++errs);
    g_assert_cmpuint(rd(n, port_reg(NPORTS, P4NIC_PORT_TX_SIZE)), ==, 0);
    /* byte and 64-bit accesses */
    qpci_io_writeb(n->dev, n->bar, P4NIC_REG_INTR_MASK, 1);
    assert_refused(n, P4NIC_REG_INTR_MASK, P4NIC_ERR_ACCESS, ++errs);
    qpci_io_writeq(n->dev, n->bar, P4NIC_REG_INTR_MASK, 1);
    assert_refused(n, P4NIC_REG_INTR_MASK, P4NIC_ERR_ACCESS, ++errs);
    g_assert_cmphex(rd(n, P4NIC_REG_INTR_MASK), ==, 0);

    /* port rings: sizes, doorbells, reprogramming an enabled port */
    wr(n, port_reg(0, P4NIC_PORT_RX_SIZE), 6);
    assert_refused(n, port_reg(0, P4NIC_PORT_RX_SIZE), P4NIC_ERR_VALUE,
                   ++errs);
    wr(n, port_reg(0, P4NIC_PORT_RX_BASE_LO), 0x1004);
    assert_refused(n, port_reg(0, P4NIC_PORT_RX_BASE_LO), P4NIC_ERR_VALUE,
                   ++errs);
    wr(n, port_reg(0, P4NIC_PORT_RX_TAIL), 0);
    assert_refused(n, port_reg(0, P4NIC_PORT_RX_TAIL), P4NIC_ERR_VALUE,
                   ++errs);
    ring_up(n, 0);
    wr(n, port_reg(0, P4NIC_PORT_TX_TAIL), RING);
    assert_refused(n, port_reg(0, P4NIC_PORT_TX_TAIL), P4NIC_ERR_VALUE,
                   ++errs);
    wr(n, port_reg(0, P4NIC_PORT_TX_SIZE), 16);
    assert_refused(n, port_reg(0, P4NIC_PORT_TX_SIZE), P4NIC_ERR_BUSY,
                   ++errs);
    wr(n, port_reg(0, P4NIC_PORT_STATUS), 0);
    assert_refused(n, port_reg(0, P4NIC_PORT_STATUS), P4NIC_ERR_READ_ONLY,
                   ++errs);

    /* after all that, the device works */
    identify(n);
    g_assert_cmphex(rd(n, P4NIC_REG_STATUS), ==, P4NIC_STATUS_READY);
    nic_free(n);
}

/* Commands: truncated, garbage, out-of-RAM buffers, lying images. */
static void test_bad_commands(void)
{
    Nic *n = nic_new();
    uint8_t raw[64];
    struct p4nic_cpl c;
    struct p4nic_image_hdr *h;
    uint32_t len, i;
    uint8_t *img = program_router(&len);

    c = cmd(n, 0xffff, NULL, 0, 0, 0, 0, 0);
    g_assert_cmpuint(le16_to_cpu(c.status), ==, P4NIC_ST_BAD_OPCODE);
    c = cmd(n, P4NIC_CMD_PIPELINE_LOAD, img, 8, 0, 0, 0, 0);
    g_assert_cmpuint(le16_to_cpu(c.status), ==, P4NIC_ST_INVALID);
    g_assert_cmpuint(le16_to_cpu(c.field), ==, P4NIC_F_IN_LEN);
    c = cmd(n, P4NIC_CMD_PIPELINE_LOAD, NULL, P4NIC_IMAGE_MAX_BYTES + 1, 0,
            0, 0, 0);
    g_assert_cmpuint(le16_to_cpu(c.status), ==, P4NIC_ST_LIMIT);
    /* an image that says it is longer, or shorter, than it is */
    h = (struct p4nic_image_hdr *)img;
    h->total_len = cpu_to_le32(len + 64);
    c = cmd(n, P4NIC_CMD_PIPELINE_LOAD, img, len, 0, 0, 0, 0);
    g_assert_cmpuint(le16_to_cpu(c.status), ==, P4NIC_ST_INVALID);
    g_assert_cmpuint(le16_to_cpu(c.field), ==, P4NIC_F_IMG_LEN);
    h->total_len = cpu_to_le32(len - 16);
    c = cmd(n, P4NIC_CMD_PIPELINE_LOAD, img, len, 0, 0, 0, 0);
    g_assert_cmpuint(le16_to_cpu(c.status), ==, P4NIC_ST_INVALID);
    h->total_len = cpu_to_le32(len);
    h->num_sections = cpu_to_le32(0x10000000);
    c = cmd(n, P4NIC_CMD_PIPELINE_LOAD, img, len, 0, 0, 0, 0);
    g_assert_cmpuint(le16_to_cpu(c.status), ==, P4NIC_ST_INVALID);
    /* buffers that are not guest memory */
    c = cmd_at(n, P4NIC_CMD_PIPELINE_LOAD, ADDR_NOWHERE, len, 0, 0, 0, 0, 0);
    g_assert_cmpuint(le16_to_cpu(c.status), ==, P4NIC_ST_DMA);
    c = cmd_at(n, P4NIC_CMD_IDENTIFY, 0, 0, ADDR_NOWHERE, 128, 0, 0, 0);
    g_assert_cmpuint(le16_to_cpu(c.status), ==, P4NIC_ST_DMA);
    c = cmd_at(n, P4NIC_CMD_IDENTIFY, 0, 0, UINT64_MAX - 8, 128, 0, 0, 0);
    g_assert_cmpuint(le16_to_cpu(c.status), ==, P4NIC_ST_DMA);
    /* garbage: each answered, none OK but by chance IDENTIFY-like ones */
    for (i = 0; i < 64; i++) {
        uint32_t j;

        for (j = 0; j < sizeof(raw); j++) {
            raw[j] = g_test_rand_int();
        }
        post_raw(n, raw);
        g_assert(next_cpl(n, &c));
    }
    g_assert_cmphex(rd(n, P4NIC_REG_STATUS), ==, P4NIC_STATUS_READY);
    /* and a good image still loads */
    free(img);
    load_router(n);
    nic_free(n);
}

/* A queue whose memory is not guest RAM stops the device: FATAL. */
static void test_fatal_queue(void)
{
    Nic *n = nic_new();
    struct p4nic_event ev;

    wr(n, P4NIC_REG_CTRL, 0);
    set_queue(n, P4NIC_REG_AQ_BASE_LO, ADDR_NOWHERE, QSIZE);
    wr(n, P4NIC_REG_CTRL, P4NIC_CTRL_ENABLE);
    wr(n, P4NIC_REG_AQ_TAIL, 1);
    g_assert_cmphex(rd(n, P4NIC_REG_STATUS), ==,
                    P4NIC_STATUS_READY | P4NIC_STATUS_FATAL);
    g_assert_cmphex(rd(n, P4NIC_REG_FATAL_QUEUE), ==, P4NIC_REG_AQ_BASE_LO);
    qtest_memread(n->qs->qts, n->eq, &ev, sizeof(ev));
    g_assert_cmpuint(le16_to_cpu(ev.type), ==, P4NIC_EV_FATAL);
    g_assert_cmphex(le32_to_cpu(ev.data), ==, P4NIC_REG_AQ_BASE_LO);
    g_assert_cmpuint(le16_to_cpu(ev.flags), ==, P4NIC_CPL_PHASE);
    /* the completion queue itself out of RAM */
    bring_up(n);
    wr(n, P4NIC_REG_CTRL, 0);
    set_queue(n, P4NIC_REG_ACQ_BASE_LO, ADDR_NOWHERE, QSIZE);
    wr(n, P4NIC_REG_CTRL, P4NIC_CTRL_ENABLE);
    {
        struct p4nic_cmd c = { .opcode = cpu_to_le16(P4NIC_CMD_IDENTIFY) };

        post_raw(n, &c);
    }
    g_assert_cmphex(rd(n, P4NIC_REG_STATUS), ==,
                    P4NIC_STATUS_READY | P4NIC_STATUS_FATAL);
    g_assert_cmphex(rd(n, P4NIC_REG_FATAL_QUEUE), ==,
                    P4NIC_REG_ACQ_BASE_LO);
    /* the event queue out of RAM: the fatal event cannot be posted */
    wr(n, P4NIC_REG_CTRL, P4NIC_CTRL_RESET);
    set_queue(n, P4NIC_REG_AQ_BASE_LO, n->aq, QSIZE);
    set_queue(n, P4NIC_REG_ACQ_BASE_LO, n->acq, QSIZE);
    set_queue(n, P4NIC_REG_EQ_BASE_LO, ADDR_NOWHERE, QSIZE);
    wr(n, P4NIC_REG_CTRL, P4NIC_CTRL_ENABLE);
    n->aq_tail = n->acq_head = 0;
    n->acq_phase = true;
    qtest_memset(n->qs->qts, n->acq, 0, QSIZE * 16);
    /* a TX ring out of RAM */
    set_queue(n, port_reg(1, P4NIC_PORT_TX_BASE_LO), ADDR_NOWHERE, RING);
    cmd_ok(n, P4NIC_CMD_PORT_SET, NULL, 0, 0, 1, P4NIC_PORT_ENABLED, 0);
    wr(n, port_reg(1, P4NIC_PORT_TX_TAIL), 1);
    g_assert_cmphex(rd(n, P4NIC_REG_STATUS), ==,
                    P4NIC_STATUS_READY | P4NIC_STATUS_FATAL);
    g_assert_cmphex(rd(n, P4NIC_REG_FATAL_QUEUE), ==,
                    port_reg(1, P4NIC_PORT_TX_BASE_LO));
    /* RESET recovers */
    bring_up(n);
    identify(n);
    nic_free(n);
}

/* Descriptors with bad buffers or lengths complete with ERROR. */
static void test_bad_descriptors(void)
{
    Nic *n = nic_new();
    struct p4nic_rx_desc d;
    uint8_t f[200], out[BUF];

    ring_up(n, 0);
    ring_up(n, 1);
    memset(f, 0x5a, sizeof(f));
    g_assert_cmphex(host_tx(n, 0, 0, ADDR_NOWHERE, NULL, 60), ==,
                    P4NIC_DESC_DONE | P4NIC_DESC_ERROR);
    g_assert_cmphex(host_tx(n, 0, 1, n->txbuf[0], f, 13), ==,
                    P4NIC_DESC_DONE | P4NIC_DESC_ERROR);
    g_assert_cmphex(host_tx(n, 0, 2, n->txbuf[0], NULL, P4NIC_PKT_MAX + 1),
                    ==, P4NIC_DESC_DONE | P4NIC_DESC_ERROR);
    g_assert_cmphex(host_tx(n, 0, 3, n->txbuf[0], NULL, 0xffff), ==,
                    P4NIC_DESC_DONE | P4NIC_DESC_ERROR);
    g_assert_cmpint(wire_recv(n, 0, out, sizeof(out), 200), ==, -1);
    g_assert_cmphex(host_tx(n, 0, 4, n->txbuf[0], f, 100), ==,
                    P4NIC_DESC_DONE);
    g_assert_cmpint(wire_recv(n, 0, out, sizeof(out), 5000), ==, 100);

    /* a buffer too small, a buffer outside RAM, then a good one */
    post_rx(n, 1, 0, 1, 64);
    wire_send(n, 1, f, 100);
    d = rx_wait(n, 1, 0);
    g_assert_cmphex(le16_to_cpu(d.status), ==,
                    P4NIC_DESC_DONE | P4NIC_DESC_ERROR);
    g_assert_cmpuint(le16_to_cpu(d.pkt_len), ==, 100);
    d = (struct p4nic_rx_desc) {
        .addr = cpu_to_le64(ADDR_NOWHERE), .buf_len = cpu_to_le16(BUF),
    };
    qtest_memwrite(n->qs->qts, n->rx[1] + 24, &d, sizeof(d));
    wr(n, port_reg(1, P4NIC_PORT_RX_TAIL), 2);
    wire_send(n, 1, f, 100);
    d = rx_wait(n, 1, 1);
    g_assert_cmphex(le16_to_cpu(d.status), ==,
                    P4NIC_DESC_DONE | P4NIC_DESC_ERROR);
    post_rx(n, 1, 2, 3, BUF);
    wire_send(n, 1, f, 100);
    d = rx_wait(n, 1, 2);
    g_assert_cmphex(le16_to_cpu(d.status), ==, P4NIC_DESC_DONE);
    g_assert_cmphex(rd(n, P4NIC_REG_STATUS), ==, P4NIC_STATUS_READY);
    nic_free(n);
}

/* Bad device properties are refused at startup, with a reason. */
static void test_bad_properties(void)
{
    QTestState *qts;
    QDict *rsp;

    qts = qtest_init("-M none");
    rsp = qtest_qmp(qts, "{'execute': 'x-query-p4nic'}");
    g_assert(qdict_haskey(rsp, "return"));
    qobject_unref(rsp);
    qtest_quit(qts);

    qts = qtest_init("-nodefaults");
    rsp = qtest_qmp(qts, "{'execute': 'device_add', 'arguments': "
                    "{'driver': 'p4nic', 'ports': 9}}");
    g_assert(strstr(qdict_get_str(qdict_get_qdict(rsp, "error"), "desc"),
                    "must be 1 to 8"));
    qobject_unref(rsp);
    rsp = qtest_qmp(qts, "{'execute': 'device_add', 'arguments': "
                    "{'driver': 'p4nic', 'ports': 0}}");
    g_assert(qdict_haskey(rsp, "error"));
    qobject_unref(rsp);
    /* migration is refused, with the reason */
    rsp = qtest_qmp(qts, "{'execute': 'device_add', 'arguments': "
                    "{'driver': 'p4nic', 'id': 'x'}}");
    g_assert(qdict_haskey(rsp, "return"));
    qobject_unref(rsp);
    rsp = qtest_qmp(qts, "{'execute': 'migrate', 'arguments': "
                    "{'uri': 'exec:cat >/dev/null'}}");
    g_assert(strstr(qdict_get_str(qdict_get_qdict(rsp, "error"), "desc"),
                    "p4nic does not migrate"));
    qobject_unref(rsp);
    qtest_quit(qts);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/p4nic/identify", test_identify);
    qtest_add_func("/p4nic/reset", test_reset);
    qtest_add_func("/p4nic/pipeline-packet", test_pipeline_packet);
    qtest_add_func("/p4nic/plain-nic", test_plain_nic);
    qtest_add_func("/p4nic/backpressure", test_backpressure);
    qtest_add_func("/p4nic/interrupts", test_interrupts);
    qtest_add_func("/p4nic/link-events", test_link_events);
    qtest_add_func("/p4nic/loop", test_loop);
    qtest_add_func("/p4nic/bad-registers", test_bad_registers);
    qtest_add_func("/p4nic/bad-commands", test_bad_commands);
    qtest_add_func("/p4nic/fatal-queue", test_fatal_queue);
    qtest_add_func("/p4nic/bad-descriptors", test_bad_descriptors);
    qtest_add_func("/p4nic/bad-properties", test_bad_properties);
    return g_test_run();
}
