/*
 * The P4 NIC: a PCI function whose ports run offloaded P4TC pipelines
 * through the firmware model.  Internal interface between the device's
 * files; the guest-visible contract is offload-api/SPEC.md.
 *
 * Copyright (c) 2026 The P4TC offload authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_NET_P4NIC_H
#define HW_NET_P4NIC_H

#include "qemu/timer.h"
#include "qemu/units.h"
#include "hw/pci/pci.h"
#include "net/net.h"
#include "qom/object.h"
#include "p4fw/p4fw.h"

#define TYPE_P4NIC "p4nic"
OBJECT_DECLARE_SIMPLE_TYPE(P4NicState, P4NIC)

/* MSI-X table and PBA share BAR 2. */
#define P4NIC_MSIX_BAR_SIZE     0x1000
#define P4NIC_MSIX_TABLE        0x0000
#define P4NIC_MSIX_PBA          0x0800

/*
 * Commands executed per run of the admin bottom half, and the time after
 * which a run yields to the main loop (a command can be costly: a /0 LPM
 * prefix fills 2^24 root slots): bounded work under the global lock.
 */
#define P4NIC_AQ_BUDGET         16
#define P4NIC_AQ_SLICE_NS       (2 * SCALE_MS)

/* Host memory the tables of a loaded pipeline may hold, by default. */
#define P4NIC_MEM_LIMIT_DEFAULT (1 * GiB)

/*
 * A queue in guest memory.  For rings the driver produces into (admin
 * commands, TX, RX buffers) the driver owns tail and the device head; for
 * queues the device produces into (completions, events) it is the other
 * way round, and phase is the value the device writes in the entries of
 * the current pass.
 */
typedef struct P4NicQueue {
    uint64_t base;
    uint32_t size;              /* entries; 0: off */
    uint32_t head;
    uint32_t tail;
    bool phase;
    uint64_t done;              /* entries the device consumed/produced */
    uint64_t bytes;             /* rings: frame bytes */
    uint64_t errors;            /* descriptors completed with ERROR */
} P4NicQueue;

/*
 * Frames for the host that found the RX ring empty wait here, in order,
 * so that a slow driver loses nothing while the port keeps forwarding;
 * with P4NIC_HELD_MAX waiting, the port stops taking frames from its wire.
 */
#define P4NIC_HELD_MAX          32

typedef struct P4NicHeld {
    uint8_t *data;
    uint32_t len;
    uint32_t reason;
    uint32_t info;
} P4NicHeld;

typedef struct P4NicPort {
    P4NicState *s;
    uint32_t index;
    NICConf conf;
    NICState *nic;
    P4NicQueue tx;
    P4NicQueue rx;
    P4NicHeld held[P4NIC_HELD_MAX];
    uint32_t held_first;
    uint32_t held_count;
    uint64_t rx_held;           /* frames that had to wait for a buffer */
    uint64_t rx_no_buffer;      /* frames for the host with no ring */
    uint64_t rx_too_big;        /* frames larger than the posted buffer */
    uint64_t wire_dropped;      /* frames in while the port was off */
    uint64_t loop_dropped;      /* our own frames, looped back into us */
} P4NicPort;

struct P4NicState {
    PCIDevice parent_obj;

    MemoryRegion mmio;
    MemoryRegion msix_bar;
    uint8_t af_cap;             /* config offset of the AF (FLR) capability */

    /* properties */
    uint32_t num_ports;
    MACAddr macaddr;
    uint64_t mem_limit;         /* bytes the tables may hold, 0: no limit */

    P4NicPort ports[P4NIC_MAX_PORTS];
    struct p4fw *fw;
    Error *migration_blocker;

    /* registers */
    uint32_t ctrl;
    uint32_t status;
    uint32_t intr_mask;
    uint32_t intr_pending;      /* raised while masked by INTR_MASK */
    uint32_t err_count;
    uint32_t err_last;
    uint32_t fatal_queue;

    P4NicQueue aq;
    P4NicQueue acq;
    P4NicQueue eq;
    QEMUBH *aq_bh;
    bool aq_waiting;            /* the completion queue is full */
    uint64_t events_lost;       /* no room in the event queue */
    bool in_pipeline;           /* a frame is in the firmware */

    /*
     * Test knobs (qom-set at run time) for the driver's tests of a
     * device that misbehaves: admin commands with this opcode complete
     * with BUSY, unexecuted (0: none).  With babble set, every read of
     * a port's STATUS register writes another link event into the event
     * queue, past the head the driver gave and without an interrupt:
     * a driver must not spend its interrupt handler on such a device
     * forever (babbled counts those events).
     */
    uint16_t refuse_opcode;
    bool babble;
    uint64_t babbled;

    uint8_t txbuf[P4NIC_PKT_MAX];
};

static inline uint32_t p4nic_num_vectors(const P4NicState *s)
{
    return 2 + 2 * s->num_ports;
}

/* True while queues and DMA run: ENABLE set and no fatal error. */
static inline bool p4nic_running(const P4NicState *s)
{
    return (s->ctrl & P4NIC_CTRL_ENABLE) &&
           !(s->status & P4NIC_STATUS_FATAL);
}

/* p4nic.c */
void p4nic_irq(P4NicState *s, uint32_t vector);
void p4nic_fatal(P4NicState *s, uint32_t queue_reg, uint64_t addr);
void p4nic_reg_refused(P4NicState *s, uint32_t off, uint32_t val,
                       uint32_t why);
bool p4nic_queue_size_ok(uint32_t size);

/* p4nic-queues.c */
void p4nic_queues_reset(P4NicState *s);
uint64_t p4nic_queue_read(P4NicState *s, hwaddr off);
void p4nic_queue_write(P4NicState *s, hwaddr off, uint32_t val);
/* FATAL: post even though the device stopped (the fatal event itself) */
void p4nic_event_post(P4NicState *s, uint16_t type, uint16_t port,
                      uint32_t data, bool fatal);
void p4nic_event_babble(P4NicState *s, uint16_t port);
void p4nic_aq_bh(void *opaque);

/* p4nic-ports.c */
void p4nic_ports_init(P4NicState *s);
void p4nic_ports_cleanup(P4NicState *s);
void p4nic_ports_reset(P4NicState *s);
uint64_t p4nic_port_read(P4NicState *s, uint32_t p, hwaddr off);
void p4nic_port_write(P4NicState *s, uint32_t p, hwaddr off, uint32_t val);
/* After a command that may have enabled a port: resume its rings. */
void p4nic_ports_kick(P4NicState *s);

/* p4nic-info.c */
void p4nic_info(P4NicState *s, GString *buf);

#endif /* HW_NET_P4NIC_H */
