/*
 * The P4 NIC's ports: one NIC client per port on its own netdev, a TX
 * ring the host sends through and an RX ring it receives on.
 *
 * A frame from a port's wire runs through the firmware model; its verdict
 * transmits it on a port, drops it, or delivers it to the host on the RX
 * ring of the port it came in on; mirrors go out whatever the verdict.
 * Frames the host transmits go straight to the wire (the pipeline is an
 * ingress pipeline).  A frame for the host that finds no free RX buffer
 * waits in the port's held queue while the port goes on forwarding; when
 * that queue is full the port stops taking frames from its wire (they
 * wait in the netdev's queue) until the driver posts buffers.  A slow
 * guest loses nothing.
 *
 * Copyright (c) 2026 The P4TC offload authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "sysemu/dma.h"
#include "p4nic.h"
#include "trace.h"

#define P4NIC_TX_DESC_STATUS    offsetof(struct p4nic_tx_desc, status)
#define P4NIC_RX_DESC_PKT_LEN   offsetof(struct p4nic_rx_desc, pkt_len)
#define P4NIC_RX_DESC_WB_LEN    (offsetof(struct p4nic_rx_desc, rsvd) - \
                                 P4NIC_RX_DESC_PKT_LEN)

static bool p4nic_port_running(P4NicState *s, P4NicPort *pt)
{
    return p4nic_running(s) && p4fw_port_enabled(s->fw, pt->index);
}

/* Put a frame on a port's wire. */
static void p4nic_wire_send(P4NicState *s, uint32_t port, const uint8_t *data,
                            uint32_t len)
{
    if (port >= s->num_ports) {
        return;
    }
    qemu_send_packet(qemu_get_queue(s->ports[port].nic), data, len);
}

/* ------------------------------------------------------------------ */
/* Host TX                                                             */
/* ------------------------------------------------------------------ */

/*
 * Send what the driver queued, up to its TX_TAIL: at most the ring size
 * per doorbell.
 */
static void p4nic_port_tx(P4NicState *s, P4NicPort *pt)
{
    uint32_t reg = P4NIC_REG_PORT(pt->index) + P4NIC_PORT_TX_BASE_LO;
    PCIDevice *pdev = PCI_DEVICE(s);
    uint8_t d[sizeof(struct p4nic_tx_desc)];
    bool done = false;
    uint16_t status;
    uint64_t addr;
    uint32_t len;

    while (p4nic_port_running(s, pt) && pt->tx.size &&
           pt->tx.head != pt->tx.tail) {
        addr = pt->tx.base + (uint64_t)pt->tx.head * sizeof(d);
        if (pci_dma_read(pdev, addr, d, sizeof(d)) != MEMTX_OK) {
            p4nic_fatal(s, reg, addr);
            break;
        }
        len = lduw_le_p(d + offsetof(struct p4nic_tx_desc, len));
        status = P4NIC_DESC_DONE;
        if (lduw_le_p(d + offsetof(struct p4nic_tx_desc, flags)) ||
            len < 14 || len > P4NIC_PKT_MAX ||
            pci_dma_read(pdev, ldq_le_p(d), s->txbuf, len) != MEMTX_OK) {
            status |= P4NIC_DESC_ERROR;
            pt->tx.errors++;
        } else {
            p4nic_wire_send(s, pt->index, s->txbuf, len);
            p4fw_count_host_tx(s->fw, pt->index, len);
            pt->tx.bytes += len;
        }
        trace_p4nic_tx(pt->index, pt->tx.head, len, status);
        stw_le_p(d + P4NIC_TX_DESC_STATUS, status);
        if (pci_dma_write(pdev, addr + P4NIC_TX_DESC_STATUS,
                          d + P4NIC_TX_DESC_STATUS, 2) != MEMTX_OK) {
            p4nic_fatal(s, reg, addr);
            break;
        }
        pt->tx.head = (pt->tx.head + 1) & (pt->tx.size - 1);
        pt->tx.done++;
        done = true;
    }
    if (done) {
        p4nic_irq(s, P4NIC_VEC_TX(pt->index));
    }
}

/* ------------------------------------------------------------------ */
/* Host RX                                                             */
/* ------------------------------------------------------------------ */

/*
 * Write a frame to the next posted buffer of PT's RX ring, which has one.
 * False if the ring's DMA failed (the device stopped).
 */
static bool p4nic_rx_fill(P4NicState *s, P4NicPort *pt, const uint8_t *data,
                          uint32_t len, uint32_t reason, uint32_t info)
{
    uint32_t reg = P4NIC_REG_PORT(pt->index) + P4NIC_PORT_RX_BASE_LO;
    PCIDevice *pdev = PCI_DEVICE(s);
    uint8_t d[sizeof(struct p4nic_rx_desc)];
    uint16_t status = P4NIC_DESC_DONE;
    uint64_t addr;

    addr = pt->rx.base + (uint64_t)pt->rx.head * sizeof(d);
    if (pci_dma_read(pdev, addr, d, sizeof(d)) != MEMTX_OK) {
        p4nic_fatal(s, reg, addr);
        return false;
    }
    if (len > lduw_le_p(d + offsetof(struct p4nic_rx_desc, buf_len))) {
        status |= P4NIC_DESC_ERROR;
        pt->rx_too_big++;
        pt->rx.errors++;
    } else if (pci_dma_write(pdev, ldq_le_p(d), data, len) != MEMTX_OK) {
        status |= P4NIC_DESC_ERROR;
        pt->rx.errors++;
    } else {
        pt->rx.bytes += len;
    }
    stw_le_p(d + P4NIC_RX_DESC_PKT_LEN, len);
    stw_le_p(d + offsetof(struct p4nic_rx_desc, status), status);
    stw_le_p(d + offsetof(struct p4nic_rx_desc, reason), reason);
    stl_le_p(d + offsetof(struct p4nic_rx_desc, info), info);
    if (pci_dma_write(pdev, addr + P4NIC_RX_DESC_PKT_LEN,
                      d + P4NIC_RX_DESC_PKT_LEN, P4NIC_RX_DESC_WB_LEN) !=
        MEMTX_OK) {
        p4nic_fatal(s, reg, addr);
        return false;
    }
    trace_p4nic_rx(pt->index, pt->rx.head, len, status, reason, info);
    pt->rx.head = (pt->rx.head + 1) & (pt->rx.size - 1);
    pt->rx.done++;
    return true;
}

static bool p4nic_rx_has_buffer(P4NicPort *pt)
{
    return pt->rx.size && pt->rx.head != pt->rx.tail;
}

/* Move held frames to posted buffers, oldest first. */
static void p4nic_rx_drain(P4NicState *s, P4NicPort *pt)
{
    bool filled = false;

    while (pt->held_count && p4nic_rx_has_buffer(pt) && p4nic_running(s)) {
        P4NicHeld *h = &pt->held[pt->held_first];

        if (!p4nic_rx_fill(s, pt, h->data, h->len, h->reason, h->info)) {
            break;
        }
        g_free(h->data);
        h->data = NULL;
        pt->held_first = (pt->held_first + 1) % P4NIC_HELD_MAX;
        pt->held_count--;
        filled = true;
    }
    if (filled) {
        p4nic_irq(s, P4NIC_VEC_RX(pt->index));
    }
}

static void p4nic_rx_drop_held(P4NicPort *pt)
{
    while (pt->held_count) {
        g_free(pt->held[pt->held_first].data);
        pt->held[pt->held_first].data = NULL;
        pt->held_first = (pt->held_first + 1) % P4NIC_HELD_MAX;
        pt->held_count--;
    }
    pt->held_first = 0;
}

/* Deliver a frame to the host on PT's RX ring, or hold it for a buffer. */
static void p4nic_host_rx(P4NicState *s, P4NicPort *pt, const uint8_t *data,
                          uint32_t len, uint32_t reason, uint32_t info)
{
    P4NicHeld *h;

    if (!pt->held_count && p4nic_rx_has_buffer(pt)) {
        if (p4nic_rx_fill(s, pt, data, len, reason, info)) {
            p4nic_irq(s, P4NIC_VEC_RX(pt->index));
        }
        return;
    }
    /* can_receive keeps room here, but for a port with no ring at all */
    if (!pt->rx.size || pt->held_count == P4NIC_HELD_MAX) {
        pt->rx_no_buffer++;
        p4fw_count_no_buffer(s->fw, pt->index);
        trace_p4nic_rx_no_buffer(pt->index, len);
        return;
    }
    h = &pt->held[(pt->held_first + pt->held_count) % P4NIC_HELD_MAX];
    h->data = g_memdup2(data, len);
    h->len = len;
    h->reason = reason;
    h->info = info;
    pt->held_count++;
    pt->rx_held++;
    trace_p4nic_rx_held(pt->index, len, pt->held_count);
}

/* ------------------------------------------------------------------ */
/* The wire side                                                       */
/* ------------------------------------------------------------------ */

static bool p4nic_port_can_receive(NetClientState *nc)
{
    P4NicPort *pt = qemu_get_nic_opaque(nc);

    /* a port that is off drops what comes in, and counts it */
    if (!p4nic_port_running(pt->s, pt) || !pt->rx.size) {
        return true;
    }
    return pt->held_count < P4NIC_HELD_MAX;
}

static ssize_t p4nic_port_receive(NetClientState *nc, const uint8_t *buf,
                                  size_t size)
{
    P4NicPort *pt = qemu_get_nic_opaque(nc);
    P4NicState *s = pt->s;
    struct p4fw_verdict v;
    uint32_t i;

    if (!p4nic_port_running(s, pt) || size > P4NIC_PKT_MAX) {
        pt->wire_dropped++;
        trace_p4nic_wire_dropped(pt->index, size);
        return size;
    }
    /*
     * Not now: the net layer keeps the frame and stops delivering until
     * qemu_flush_queued_packets() (a queue flush does not ask
     * can_receive before each frame).
     */
    if (!p4nic_port_can_receive(nc)) {
        return 0;
    }
    /*
     * A frame this device sends may come straight back into one of its
     * ports (two ports on one hub): the firmware's buffers still hold the
     * frame being sent, and a loop would never end.  Like a switch
     * without a loop guard, the looped frame is lost, and counted.
     */
    if (s->in_pipeline) {
        pt->loop_dropped++;
        trace_p4nic_loop_dropped(pt->index, size);
        return size;
    }
    s->in_pipeline = true;
    p4fw_process(s->fw, pt->index, buf, size, &v);
    trace_p4nic_verdict(pt->index, v.kind, v.port, v.reason, v.num_mirrors);
    for (i = 0; i < v.num_mirrors; i++) {
        p4nic_wire_send(s, v.mirrors[i].port, v.mirrors[i].data,
                        v.mirrors[i].len);
    }
    switch (v.kind) {
    case P4FW_TX:
        p4nic_wire_send(s, v.port, v.data, v.len);
        break;
    case P4FW_HOST:
        p4nic_host_rx(s, pt, v.data, v.len, v.reason, v.info);
        break;
    case P4FW_DROP:
        break;
    }
    s->in_pipeline = false;
    return size;
}

static void p4nic_port_link_changed(NetClientState *nc)
{
    P4NicPort *pt = qemu_get_nic_opaque(nc);
    P4NicState *s = pt->s;
    uint32_t st;

    p4fw_set_link(s->fw, pt->index, !nc->link_down);
    st = (nc->link_down ? 0 : P4NIC_PORT_LINK_UP) |
         (p4fw_port_enabled(s->fw, pt->index) ? P4NIC_PORT_ENABLED : 0);
    p4nic_event_post(s, P4NIC_EV_LINK, pt->index, st, false);
}

static NetClientInfo p4nic_port_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .can_receive = p4nic_port_can_receive,
    .receive = p4nic_port_receive,
    .link_status_changed = p4nic_port_link_changed,
};

/* ------------------------------------------------------------------ */
/* Registers                                                           */
/* ------------------------------------------------------------------ */

uint64_t p4nic_port_read(P4NicState *s, uint32_t p, hwaddr off)
{
    P4NicPort *pt = &s->ports[p];
    const uint8_t *mac = pt->conf.macaddr.a;

    switch (off) {
    case P4NIC_PORT_TX_BASE_LO:
        return (uint32_t)pt->tx.base;
    case P4NIC_PORT_TX_BASE_HI:
        return pt->tx.base >> 32;
    case P4NIC_PORT_TX_SIZE:
        return pt->tx.size;
    case P4NIC_PORT_TX_TAIL:
        return pt->tx.tail;
    case P4NIC_PORT_TX_HEAD:
        return pt->tx.head;
    case P4NIC_PORT_RX_BASE_LO:
        return (uint32_t)pt->rx.base;
    case P4NIC_PORT_RX_BASE_HI:
        return pt->rx.base >> 32;
    case P4NIC_PORT_RX_SIZE:
        return pt->rx.size;
    case P4NIC_PORT_RX_TAIL:
        return pt->rx.tail;
    case P4NIC_PORT_RX_HEAD:
        return pt->rx.head;
    case P4NIC_PORT_STATUS:
        if (s->babble) {
            p4nic_event_babble(s, p);
        }
        return (qemu_get_queue(pt->nic)->link_down ? 0 : P4NIC_PORT_LINK_UP) |
               (p4fw_port_enabled(s->fw, p) ? P4NIC_PORT_ENABLED : 0);
    case P4NIC_PORT_MAC_LO:
        return ldl_le_p(mac);
    case P4NIC_PORT_MAC_HI:
        return lduw_le_p(mac + 4);
    }
    return 0;
}

/*
 * A ring's base and size: only while the port is disabled.  TX
 * descriptors are 16 bytes and aligned to that; RX descriptors are 24
 * bytes, aligned to 8.
 */
static void p4nic_ring_write(P4NicState *s, uint32_t p, hwaddr off,
                             uint32_t val, P4NicQueue *q, uint32_t align)
{
    uint32_t reg = P4NIC_REG_PORT(p) + off;

    if (p4fw_port_enabled(s->fw, p)) {
        p4nic_reg_refused(s, reg, val, P4NIC_ERR_BUSY);
        return;
    }
    switch (off) {
    case P4NIC_PORT_TX_BASE_LO:
    case P4NIC_PORT_RX_BASE_LO:
        if (val & (align - 1)) {
            p4nic_reg_refused(s, reg, val, P4NIC_ERR_VALUE);
            return;
        }
        q->base = deposit64(q->base, 0, 32, val);
        return;
    case P4NIC_PORT_TX_BASE_HI:
    case P4NIC_PORT_RX_BASE_HI:
        q->base = deposit64(q->base, 32, 32, val);
        return;
    default:
        if (!p4nic_queue_size_ok(val)) {
            p4nic_reg_refused(s, reg, val, P4NIC_ERR_VALUE);
            return;
        }
        q->size = val;
        q->head = q->tail = 0;
        return;
    }
}

void p4nic_port_write(P4NicState *s, uint32_t p, hwaddr off, uint32_t val)
{
    P4NicPort *pt = &s->ports[p];
    uint32_t reg = P4NIC_REG_PORT(p) + off;

    switch (off) {
    case P4NIC_PORT_TX_BASE_LO:
    case P4NIC_PORT_TX_BASE_HI:
    case P4NIC_PORT_TX_SIZE:
        p4nic_ring_write(s, p, off, val, &pt->tx,
                         sizeof(struct p4nic_tx_desc));
        return;
    case P4NIC_PORT_RX_BASE_LO:
    case P4NIC_PORT_RX_BASE_HI:
    case P4NIC_PORT_RX_SIZE:
        p4nic_ring_write(s, p, off, val, &pt->rx, 8);
        return;
    case P4NIC_PORT_TX_TAIL:
        if (!pt->tx.size || val >= pt->tx.size) {
            p4nic_reg_refused(s, reg, val, P4NIC_ERR_VALUE);
            return;
        }
        pt->tx.tail = val;
        p4nic_port_tx(s, pt);
        return;
    case P4NIC_PORT_RX_TAIL:
        if (!pt->rx.size || val >= pt->rx.size) {
            p4nic_reg_refused(s, reg, val, P4NIC_ERR_VALUE);
            return;
        }
        pt->rx.tail = val;
        if (p4nic_port_running(s, pt)) {
            p4nic_rx_drain(s, pt);
            qemu_flush_queued_packets(qemu_get_queue(pt->nic));
        }
        return;
    default:
        p4nic_reg_refused(s, reg, val, P4NIC_ERR_READ_ONLY);
        return;
    }
}

/* ------------------------------------------------------------------ */
/* Life                                                                */
/* ------------------------------------------------------------------ */

void p4nic_ports_kick(P4NicState *s)
{
    uint32_t p;

    for (p = 0; p < s->num_ports; p++) {
        P4NicPort *pt = &s->ports[p];

        if (!p4nic_port_running(s, pt)) {
            continue;
        }
        p4nic_port_tx(s, pt);
        p4nic_rx_drain(s, pt);
        if (pt->held_count < P4NIC_HELD_MAX) {
            qemu_flush_queued_packets(qemu_get_queue(pt->nic));
        }
    }
}

void p4nic_ports_reset(P4NicState *s)
{
    uint32_t p;

    for (p = 0; p < s->num_ports; p++) {
        P4NicPort *pt = &s->ports[p];

        memset(&pt->tx, 0, sizeof(pt->tx));
        memset(&pt->rx, 0, sizeof(pt->rx));
        p4nic_rx_drop_held(pt);
        pt->rx_held = 0;
        pt->rx_no_buffer = 0;
        pt->rx_too_big = 0;
        pt->wire_dropped = 0;
        pt->loop_dropped = 0;
        p4fw_set_link(s->fw, p, !qemu_get_queue(pt->nic)->link_down);
    }
}

void p4nic_ports_init(P4NicState *s)
{
    DeviceState *dev = DEVICE(s);
    uint32_t p;

    for (p = 0; p < s->num_ports; p++) {
        P4NicPort *pt = &s->ports[p];

        pt->s = s;
        pt->index = p;
        pt->conf.bootindex = -1;
        pt->nic = qemu_new_nic(&p4nic_port_info, &pt->conf,
                               object_get_typename(OBJECT(s)), dev->id,
                               &dev->mem_reentrancy_guard, pt);
        qemu_format_nic_info_str(qemu_get_queue(pt->nic),
                                 pt->conf.macaddr.a);
    }
}

void p4nic_ports_cleanup(P4NicState *s)
{
    uint32_t p;

    for (p = 0; p < s->num_ports; p++) {
        qemu_del_nic(s->ports[p].nic);
        p4nic_rx_drop_held(&s->ports[p]);
    }
}
