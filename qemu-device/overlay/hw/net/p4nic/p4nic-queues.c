/*
 * The P4 NIC's admin queue, its completion queue and the event queue.
 *
 * Commands are executed by the firmware model in a bottom half, at most
 * P4NIC_AQ_BUDGET per run and for P4NIC_AQ_SLICE_NS (a run ends after
 * the command that passed it), so that a guest ringing with a full queue
 * of large commands never holds the main loop for long.  A completion is
 * never written over one the driver has not consumed: with the completion
 * queue full, execution waits for the driver's ACQ_HEAD.
 *
 * Copyright (c) 2026 The P4TC offload authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/main-loop.h"
#include "sysemu/dma.h"
#include "p4nic.h"
#include "trace.h"

#define P4NIC_CPL_FLAGS_OFF     14      /* flags, in completions and events */

/* The queue whose BASE_LO is at OFF, and its entry size. */
static P4NicQueue *p4nic_queue_at(P4NicState *s, hwaddr off,
                                  uint32_t *esize, uint32_t *reg)
{
    if (off < P4NIC_REG_ACQ_BASE_LO) {
        *esize = sizeof(struct p4nic_cmd);
        *reg = P4NIC_REG_AQ_BASE_LO;
        return &s->aq;
    }
    *esize = sizeof(struct p4nic_cpl);
    if (off < P4NIC_REG_EQ_BASE_LO) {
        *reg = P4NIC_REG_ACQ_BASE_LO;
        return &s->acq;
    }
    *reg = P4NIC_REG_EQ_BASE_LO;
    return &s->eq;
}

static void p4nic_queue_clear(P4NicQueue *q)
{
    memset(q, 0, sizeof(*q));
    q->phase = true;
}

void p4nic_queues_reset(P4NicState *s)
{
    p4nic_queue_clear(&s->aq);
    p4nic_queue_clear(&s->acq);
    p4nic_queue_clear(&s->eq);
    s->aq_waiting = false;
    s->events_lost = 0;
}

/* Entries the device produced that the driver has not consumed. */
static uint32_t p4nic_cq_used(const P4NicQueue *q)
{
    return (q->tail - q->head) & (q->size - 1);
}

/* One slot stays empty, so that a full queue differs from an empty one. */
static bool p4nic_cq_full(const P4NicQueue *q)
{
    return p4nic_cq_used(q) == q->size - 1;
}

uint64_t p4nic_queue_read(P4NicState *s, hwaddr off)
{
    uint32_t esize, reg;
    P4NicQueue *q = p4nic_queue_at(s, off, &esize, &reg);

    switch (off - reg) {
    case 0x0:
        return (uint32_t)q->base;
    case 0x4:
        return q->base >> 32;
    case 0x8:
        return q->size;
    case 0xc:
        /* AQ: TAIL; ACQ, EQ: HEAD (the driver's consumer index) */
        return q == &s->aq ? q->tail : q->head;
    case 0x10:
        /* AQ_HEAD: the next command the device reads */
        return q == &s->aq ? q->head : 0;
    }
    return 0;
}

void p4nic_queue_write(P4NicState *s, hwaddr off, uint32_t val)
{
    uint32_t esize, reg;
    P4NicQueue *q = p4nic_queue_at(s, off, &esize, &reg);
    bool enabled = s->ctrl & P4NIC_CTRL_ENABLE;

    switch (off - reg) {
    case 0x0:
    case 0x4:
    case 0x8:
        if (enabled) {
            p4nic_reg_refused(s, off, val, P4NIC_ERR_BUSY);
            return;
        }
        if (off - reg == 0x0) {
            if (val & (esize - 1)) {
                p4nic_reg_refused(s, off, val, P4NIC_ERR_VALUE);
                return;
            }
            q->base = deposit64(q->base, 0, 32, val);
        } else if (off - reg == 0x4) {
            q->base = deposit64(q->base, 32, 32, val);
        } else {
            if (!p4nic_queue_size_ok(val)) {
                p4nic_reg_refused(s, off, val, P4NIC_ERR_VALUE);
                return;
            }
            q->size = val;
            q->head = q->tail = 0;
            q->phase = true;
        }
        return;
    case 0xc:
        if (!q->size || val >= q->size) {
            p4nic_reg_refused(s, off, val, P4NIC_ERR_VALUE);
            return;
        }
        if (q == &s->aq) {
            q->tail = val;
            if (p4nic_running(s)) {
                qemu_bh_schedule(s->aq_bh);
            }
            return;
        }
        /* the driver may only return what the device produced */
        if (((val - q->head) & (q->size - 1)) > p4nic_cq_used(q)) {
            p4nic_reg_refused(s, off, val, P4NIC_ERR_VALUE);
            return;
        }
        q->head = val;
        if (q == &s->acq && s->aq_waiting && p4nic_running(s)) {
            qemu_bh_schedule(s->aq_bh);
        }
        return;
    default:
        p4nic_reg_refused(s, off, val, P4NIC_ERR_READ_ONLY);
        return;
    }
}

/*
 * Write a 16-byte entry to a device-produced queue with the phase bit of
 * this pass.  False when DMA failed: the device is stopped.
 */
static bool p4nic_cq_post(P4NicState *s, P4NicQueue *q, uint32_t reg,
                          uint8_t *entry)
{
    uint64_t addr = q->base + (uint64_t)q->tail * 16;

    stw_le_p(entry + P4NIC_CPL_FLAGS_OFF, q->phase ? P4NIC_CPL_PHASE : 0);
    if (pci_dma_write(PCI_DEVICE(s), addr, entry, 16) != MEMTX_OK) {
        p4nic_fatal(s, reg, addr);
        return false;
    }
    q->tail = (q->tail + 1) & (q->size - 1);
    if (!q->tail) {
        q->phase = !q->phase;
    }
    q->done++;
    return true;
}

/* An event queue entry; p4nic_cq_post() sets its phase. */
static void p4nic_event_fill(uint8_t *ev, uint16_t type, uint16_t port,
                             uint32_t data)
{
    memset(ev, 0, sizeof(struct p4nic_event));
    stw_le_p(ev + offsetof(struct p4nic_event, type), type);
    stw_le_p(ev + offsetof(struct p4nic_event, port), port);
    stl_le_p(ev + offsetof(struct p4nic_event, data), data);
}

void p4nic_event_post(P4NicState *s, uint16_t type, uint16_t port,
                      uint32_t data, bool fatal)
{
    uint8_t ev[sizeof(struct p4nic_event)];
    bool up = (s->ctrl & P4NIC_CTRL_ENABLE) &&
              (fatal || !(s->status & P4NIC_STATUS_FATAL));

    if (!up || !s->eq.size || p4nic_cq_full(&s->eq)) {
        s->events_lost++;
        trace_p4nic_event_lost(type, port, data);
        return;
    }
    p4nic_event_fill(ev, type, port, data);
    trace_p4nic_event(type, port, data);
    if (p4nic_cq_post(s, &s->eq, P4NIC_REG_EQ_BASE_LO, ev)) {
        p4nic_irq(s, P4NIC_VEC_EVENT);
    }
}

/*
 * x-babble: a link event the driver did not make room for, without an
 * interrupt (see P4NicState.babble).
 */
void p4nic_event_babble(P4NicState *s, uint16_t port)
{
    uint8_t ev[sizeof(struct p4nic_event)];

    if (!p4nic_running(s) || !s->eq.size) {
        return;
    }
    p4nic_event_fill(ev, P4NIC_EV_LINK, port, 0);
    s->babbled++;
    trace_p4nic_event_babble(port, s->babbled);
    p4nic_cq_post(s, &s->eq, P4NIC_REG_EQ_BASE_LO, ev);
}

/* The firmware's view of guest memory: the function's DMA. */
static int p4nic_dma_read(void *opaque, uint64_t addr, void *buf,
                          uint32_t len)
{
    if (len && addr + len - 1 < addr) {
        return -1;
    }
    return pci_dma_read(PCI_DEVICE(opaque), addr, buf, len) == MEMTX_OK ?
           0 : -1;
}

static int p4nic_dma_write(void *opaque, uint64_t addr, const void *buf,
                           uint32_t len)
{
    if (len && addr + len - 1 < addr) {
        return -1;
    }
    return pci_dma_write(PCI_DEVICE(opaque), addr, buf, len) == MEMTX_OK ?
           0 : -1;
}

static bool p4nic_aq_ready(P4NicState *s)
{
    return p4nic_running(s) && s->aq.size && s->acq.size &&
           s->aq.head != s->aq.tail;
}

void p4nic_aq_bh(void *opaque)
{
    P4NicState *s = opaque;
    const struct p4fw_dma dma = {
        .read = p4nic_dma_read,
        .write = p4nic_dma_write,
        .opaque = s,
    };
    uint8_t cmd[sizeof(struct p4nic_cmd)];
    uint8_t cpl[sizeof(struct p4nic_cpl)];
    int64_t end = qemu_clock_get_ns(QEMU_CLOCK_REALTIME) +
                  P4NIC_AQ_SLICE_NS;
    bool posted = false;
    unsigned int n;
    uint64_t addr;

    s->aq_waiting = false;
    for (n = 0; n < P4NIC_AQ_BUDGET && p4nic_aq_ready(s) &&
         qemu_clock_get_ns(QEMU_CLOCK_REALTIME) < end; n++) {
        if (p4nic_cq_full(&s->acq)) {
            s->aq_waiting = true;
            break;
        }
        addr = s->aq.base + (uint64_t)s->aq.head * sizeof(cmd);
        if (pci_dma_read(PCI_DEVICE(s), addr, cmd, sizeof(cmd)) !=
            MEMTX_OK) {
            p4nic_fatal(s, P4NIC_REG_AQ_BASE_LO, addr);
            break;
        }
        memset(cpl, 0, sizeof(cpl));
        if (s->refuse_opcode && lduw_le_p(cmd) == s->refuse_opcode) {
            /* x-refuse-opcode: a device that refuses what it is asked */
            stl_le_p(cpl + offsetof(struct p4nic_cpl, cookie),
                     ldl_le_p(cmd + offsetof(struct p4nic_cmd, cookie)));
            stw_le_p(cpl + offsetof(struct p4nic_cpl, status),
                     P4NIC_ST_BUSY);
        } else {
            p4fw_command(s->fw, cmd, &dma, cpl);
        }
        s->aq.head = (s->aq.head + 1) & (s->aq.size - 1);
        s->aq.done++;
        stw_le_p(cpl + offsetof(struct p4nic_cpl, aq_head), s->aq.head);
        trace_p4nic_cmd(lduw_le_p(cmd), ldl_le_p(cmd + 4),
                        lduw_le_p(cpl + offsetof(struct p4nic_cpl, status)),
                        lduw_le_p(cpl + offsetof(struct p4nic_cpl, field)),
                        ldl_le_p(cpl + offsetof(struct p4nic_cpl, result)));
        if (!p4nic_cq_post(s, &s->acq, P4NIC_REG_ACQ_BASE_LO, cpl)) {
            break;
        }
        posted = true;
        /* PORT_SET and RESET change which ports run */
        p4nic_ports_kick(s);
    }
    if (posted) {
        p4nic_irq(s, P4NIC_VEC_ADMIN);
    }
    if (!s->aq_waiting && p4nic_aq_ready(s)) {
        qemu_bh_schedule(s->aq_bh);
    }
}
