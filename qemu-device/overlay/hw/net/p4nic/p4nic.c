/*
 * The P4 NIC: the PCI function.  BAR 0 holds the registers of
 * offload-api/SPEC.md, BAR 2 the MSI-X table; an Advanced Features
 * capability gives the function a function-level reset.  The queues live
 * in p4nic-queues.c, the ports and their rings in p4nic-ports.c, and the
 * firmware model (hw/net/p4nic/fw, built from firmware-model/) executes
 * admin commands and packets.
 *
 * Copyright (c) 2026 The P4TC offload authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/main-loop.h"
#include "qemu/module.h"
#include "qemu/guest-random.h"
#include "qapi/error.h"
#include "hw/pci/msix.h"
#include "hw/qdev-properties.h"
#include "migration/blocker.h"
#include "p4nic.h"
#include "trace.h"

#define P4NIC_AF_CAP_SIZE       6

/* ------------------------------------------------------------------ */
/* Interrupts and errors                                               */
/* ------------------------------------------------------------------ */

/*
 * Raise VECTOR.  INTR_MASK masks in addition to MSI-X's own per-vector
 * mask: a vector raised while masked here fires when it is unmasked.
 */
void p4nic_irq(P4NicState *s, uint32_t vector)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    bool masked = s->intr_mask & (1u << vector);

    assert(vector < p4nic_num_vectors(s));
    trace_p4nic_irq(vector, masked);
    if (masked) {
        s->intr_pending |= 1u << vector;
        return;
    }
    if (msix_enabled(pdev)) {
        msix_notify(pdev, vector);
    }
}

static void p4nic_intr_mask_write(P4NicState *s, uint32_t val)
{
    uint32_t fire;
    uint32_t v;

    if (val >> p4nic_num_vectors(s)) {
        p4nic_reg_refused(s, P4NIC_REG_INTR_MASK, val, P4NIC_ERR_NO_PORT);
        return;
    }
    s->intr_mask = val;
    fire = s->intr_pending & ~val;
    s->intr_pending &= val;
    for (v = 0; fire; v++, fire >>= 1) {
        if (fire & 1) {
            p4nic_irq(s, v);
        }
    }
}

static const char *const p4nic_err_names[] = {
    [P4NIC_ERR_READ_ONLY] = "read-only or no register",
    [P4NIC_ERR_VALUE] = "bad value",
    [P4NIC_ERR_BUSY] = "queue in use",
    [P4NIC_ERR_NO_PORT] = "no such port or vector",
    [P4NIC_ERR_ACCESS] = "bad access size or alignment",
};

/* A register write the device cannot accept: nothing changes. */
void p4nic_reg_refused(P4NicState *s, uint32_t off, uint32_t val,
                       uint32_t why)
{
    trace_p4nic_reg_refused(off, val, p4nic_err_names[why]);
    s->err_count++;
    s->err_last = (off & 0xffff) | (why << 16);
}

/*
 * DMA on a queue failed: stop every queue and all DMA until RESET, and
 * tell the driver which queue (QUEUE_REG: its BASE_LO offset).
 */
void p4nic_fatal(P4NicState *s, uint32_t queue_reg, uint64_t addr)
{
    if (s->status & P4NIC_STATUS_FATAL) {
        return;
    }
    trace_p4nic_fatal(queue_reg, addr);
    s->fatal_queue = queue_reg;
    s->status |= P4NIC_STATUS_FATAL;
    /*
     * The event queue runs for this one event; should it be the broken
     * queue, the second failure finds FATAL set and stops there.
     */
    p4nic_event_post(s, P4NIC_EV_FATAL, 0, queue_reg, true);
}

bool p4nic_queue_size_ok(uint32_t size)
{
    return size == 0 ||
           (size >= 2 && size <= P4NIC_QUEUE_MAX_SIZE && is_power_of_2(size));
}

/* ------------------------------------------------------------------ */
/* Reset                                                               */
/* ------------------------------------------------------------------ */

/* Back to power-on state, but the link state of the wires. */
static void p4nic_reset(P4NicState *s, const char *how)
{
    trace_p4nic_reset(how);
    s->ctrl = 0;
    s->intr_mask = 0;
    s->intr_pending = 0;
    s->err_count = 0;
    s->err_last = 0;
    s->fatal_queue = 0;
    p4fw_reset(s->fw);
    p4nic_queues_reset(s);
    p4nic_ports_reset(s);
    s->status = P4NIC_STATUS_READY;
}

static void p4nic_qdev_reset(DeviceState *dev)
{
    p4nic_reset(P4NIC(dev), "bus");
}

/* ------------------------------------------------------------------ */
/* Registers                                                           */
/* ------------------------------------------------------------------ */

static uint64_t p4nic_mmio_read(void *opaque, hwaddr off, unsigned size)
{
    P4NicState *s = opaque;
    uint64_t val = 0;

    if (size != 4 || (off & 3)) {
        return 0;
    }
    switch (off) {
    case P4NIC_REG_MAGIC:
        val = P4NIC_MAGIC;
        break;
    case P4NIC_REG_VERSION:
        val = P4NIC_ABI_MAJOR << 16 | P4NIC_ABI_MINOR;
        break;
    case P4NIC_REG_CAPS:
        val = P4NIC_CAP_MSIX | P4NIC_CAP_OFFLOAD;
        break;
    case P4NIC_REG_NUM_PORTS:
        val = s->num_ports;
        break;
    case P4NIC_REG_CTRL:
        val = s->ctrl;
        break;
    case P4NIC_REG_STATUS:
        val = s->status;
        break;
    case P4NIC_REG_INTR_MASK:
        val = s->intr_mask;
        break;
    case P4NIC_REG_ERR_COUNT:
        val = s->err_count;
        break;
    case P4NIC_REG_ERR_LAST:
        val = s->err_last;
        break;
    case P4NIC_REG_FATAL_QUEUE:
        val = s->fatal_queue;
        break;
    case P4NIC_REG_AQ_BASE_LO ... P4NIC_REG_EQ_HEAD:
        val = p4nic_queue_read(s, off);
        break;
    default:
        if (off >= P4NIC_REG_PORT(0) &&
            off < P4NIC_REG_PORT(s->num_ports)) {
            val = p4nic_port_read(s, (off - P4NIC_REG_PORT(0)) / 0x40,
                                  (off - P4NIC_REG_PORT(0)) % 0x40);
        }
        break;
    }
    trace_p4nic_reg_read(off, val);
    return val;
}

static void p4nic_ctrl_write(P4NicState *s, uint32_t val)
{
    if (val & ~(P4NIC_CTRL_ENABLE | P4NIC_CTRL_RESET)) {
        p4nic_reg_refused(s, P4NIC_REG_CTRL, val, P4NIC_ERR_VALUE);
        return;
    }
    if (val & P4NIC_CTRL_RESET) {
        p4nic_reset(s, "register");
        return;
    }
    s->ctrl = val;
    if (p4nic_running(s)) {
        qemu_bh_schedule(s->aq_bh);
        p4nic_ports_kick(s);
    }
}

static void p4nic_mmio_write(void *opaque, hwaddr off, uint64_t val,
                             unsigned size)
{
    P4NicState *s = opaque;

    if (size != 4 || (off & 3)) {
        p4nic_reg_refused(s, off, val, P4NIC_ERR_ACCESS);
        return;
    }
    trace_p4nic_reg_write(off, val);
    switch (off) {
    case P4NIC_REG_CTRL:
        p4nic_ctrl_write(s, val);
        break;
    case P4NIC_REG_INTR_MASK:
        p4nic_intr_mask_write(s, val);
        break;
    case P4NIC_REG_AQ_BASE_LO ... P4NIC_REG_EQ_HEAD:
        p4nic_queue_write(s, off, val);
        break;
    default:
        if (off >= P4NIC_REG_PORT(0) &&
            off < P4NIC_REG_PORT(P4NIC_MAX_PORTS)) {
            uint32_t p = (off - P4NIC_REG_PORT(0)) / 0x40;

            if (p >= s->num_ports) {
                p4nic_reg_refused(s, off, val, P4NIC_ERR_NO_PORT);
                return;
            }
            p4nic_port_write(s, p, (off - P4NIC_REG_PORT(0)) % 0x40, val);
            return;
        }
        p4nic_reg_refused(s, off, val, P4NIC_ERR_READ_ONLY);
        break;
    }
}

/*
 * Every size is accepted on the bus so that the device, not the memory
 * core, decides: a bad access is counted in ERR_COUNT like any refused
 * write, and reads 0.
 */
static const MemoryRegionOps p4nic_mmio_ops = {
    .read = p4nic_mmio_read,
    .write = p4nic_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 1,
        .max_access_size = 8,
    },
    .impl = {
        .min_access_size = 1,
        .max_access_size = 8,
    },
};

/* ------------------------------------------------------------------ */
/* Function-level reset through the Advanced Features capability       */
/* ------------------------------------------------------------------ */

static void p4nic_af_init(P4NicState *s, Error **errp)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    int pos;

    pos = pci_add_capability(pdev, PCI_CAP_ID_AF, 0, P4NIC_AF_CAP_SIZE,
                             errp);
    if (pos < 0) {
        return;
    }
    s->af_cap = pos;
    pci_set_byte(pdev->config + pos + PCI_AF_LENGTH, P4NIC_AF_CAP_SIZE);
    /* no transaction is ever pending: DMA completes inside the device */
    pci_set_byte(pdev->config + pos + PCI_AF_CAP,
                 PCI_AF_CAP_TP | PCI_AF_CAP_FLR);
    pci_set_byte(pdev->wmask + pos + PCI_AF_CTRL, PCI_AF_CTRL_FLR);
}

static void p4nic_config_write(PCIDevice *pdev, uint32_t addr, uint32_t val,
                               int len)
{
    P4NicState *s = P4NIC(pdev);
    uint32_t ctrl = s->af_cap + PCI_AF_CTRL;

    pci_default_write_config(pdev, addr, val, len);
    if (s->af_cap && ranges_overlap(addr, len, ctrl, 1) &&
        (pdev->config[ctrl] & PCI_AF_CTRL_FLR)) {
        trace_p4nic_reset("function level");
        /* resets config space and calls p4nic_qdev_reset() */
        pci_device_reset(pdev);
        pdev->config[ctrl] &= ~PCI_AF_CTRL_FLR;
    }
}

/* ------------------------------------------------------------------ */
/* Life                                                                */
/* ------------------------------------------------------------------ */

static void p4nic_realize(PCIDevice *pdev, Error **errp)
{
    P4NicState *s = P4NIC(pdev);
    uint8_t macs[P4NIC_MAX_PORTS][6];
    uint32_t p, v;
    uint64_t secret;
    int err;

    if (s->num_ports < 1 || s->num_ports > P4NIC_MAX_PORTS) {
        error_setg(errp, "p4nic: ports=%u: must be 1 to %u", s->num_ports,
                   P4NIC_MAX_PORTS);
        return;
    }
    for (p = s->num_ports; p < P4NIC_MAX_PORTS; p++) {
        if (s->ports[p].conf.peers.ncs[0]) {
            error_setg(errp, "p4nic: netdev%u given but ports=%u", p,
                       s->num_ports);
            return;
        }
    }

    qemu_macaddr_default_if_unset(&s->macaddr);
    for (p = 0; p < s->num_ports; p++) {
        s->ports[p].conf.macaddr = s->macaddr;
        s->ports[p].conf.macaddr.a[5] += p;
        memcpy(macs[p], s->ports[p].conf.macaddr.a, 6);
    }
    s->fw = p4fw_create(s->num_ports, (const uint8_t (*)[6])macs, &err);
    if (!s->fw) {
        error_setg_errno(errp, -err, "p4nic: cannot create the firmware");
        return;
    }
    /*
     * The tables' hash seeds derive from a secret the guest cannot know
     * (and that -seed makes reproducible), so that it cannot pick keys
     * that collide.
     */
    qemu_guest_getrandom_nofail(&secret, sizeof(secret));
    p4fw_set_secret(s->fw, secret);
    p4fw_set_mem_limit(s->fw, s->mem_limit);

    /*
     * Not migratable: the blocker (not an unmigratable vmsd) so that
     * migrate and savevm give the user the reason.
     */
    error_setg(&s->migration_blocker,
               "p4nic does not migrate: its firmware state (pipeline, "
               "tables, entries, registers, counters) is not serialised");
    if (migrate_add_blocker(s->migration_blocker, errp) < 0) {
        goto err_blocker;
    }

    memory_region_init_io(&s->mmio, OBJECT(s), &p4nic_mmio_ops, s,
                          "p4nic-mmio", P4NIC_BAR_REGS_SIZE);
    pci_register_bar(pdev, P4NIC_BAR_REGS, PCI_BASE_ADDRESS_SPACE_MEMORY,
                     &s->mmio);
    memory_region_init(&s->msix_bar, OBJECT(s), "p4nic-msix",
                       P4NIC_MSIX_BAR_SIZE);
    pci_register_bar(pdev, P4NIC_BAR_MSIX, PCI_BASE_ADDRESS_SPACE_MEMORY,
                     &s->msix_bar);
    if (msix_init(pdev, p4nic_num_vectors(s), &s->msix_bar, P4NIC_BAR_MSIX,
                  P4NIC_MSIX_TABLE, &s->msix_bar, P4NIC_BAR_MSIX,
                  P4NIC_MSIX_PBA, 0, errp)) {
        goto err_msix;
    }
    for (v = 0; v < p4nic_num_vectors(s); v++) {
        msix_vector_use(pdev, v);
    }
    p4nic_af_init(s, errp);
    if (!s->af_cap) {
        goto err_af;
    }
    /* MSI-X only: no INTx pin */
    pci_set_byte(pdev->config + PCI_INTERRUPT_PIN, 0);

    s->aq_bh = qemu_bh_new_guarded(p4nic_aq_bh, s,
                                   &DEVICE(s)->mem_reentrancy_guard);
    p4nic_ports_init(s);
    p4nic_reset(s, "power on");
    return;

err_af:
    for (v = 0; v < p4nic_num_vectors(s); v++) {
        msix_vector_unuse(pdev, v);
    }
    msix_uninit(pdev, &s->msix_bar, &s->msix_bar);
err_msix:
    migrate_del_blocker(s->migration_blocker);
err_blocker:
    error_free(s->migration_blocker);
    s->migration_blocker = NULL;
    p4fw_destroy(s->fw);
    s->fw = NULL;
}

static void p4nic_exit(PCIDevice *pdev)
{
    P4NicState *s = P4NIC(pdev);
    uint32_t v;

    p4nic_ports_cleanup(s);
    qemu_bh_delete(s->aq_bh);
    for (v = 0; v < p4nic_num_vectors(s); v++) {
        msix_vector_unuse(pdev, v);
    }
    msix_uninit(pdev, &s->msix_bar, &s->msix_bar);
    migrate_del_blocker(s->migration_blocker);
    error_free(s->migration_blocker);
    p4fw_destroy(s->fw);
}

/* x-fatal: reading says whether the device stopped on a fatal error */
static bool p4nic_get_fatal(Object *obj, Error **errp)
{
    return P4NIC(obj)->status & P4NIC_STATUS_FATAL;
}

/* Setting x-fatal stops the device as a failed DMA would (queue 0). */
static void p4nic_set_fatal(Object *obj, bool value, Error **errp)
{
    P4NicState *s = P4NIC(obj);

    if (!value) {
        error_setg(errp, "p4nic: only a reset clears a fatal error");
        return;
    }
    p4nic_fatal(s, 0, 0);
}

static bool p4nic_get_babble(Object *obj, Error **errp)
{
    return P4NIC(obj)->babble;
}

static void p4nic_set_babble(Object *obj, bool value, Error **errp)
{
    P4NIC(obj)->babble = value;
}

static void p4nic_instance_init(Object *obj)
{
    P4NicState *s = P4NIC(obj);

    /* test knobs: see P4NicState.refuse_opcode */
    object_property_add_uint16_ptr(obj, "x-refuse-opcode",
                                   &s->refuse_opcode,
                                   OBJ_PROP_FLAG_READWRITE);
    object_property_add_bool(obj, "x-fatal", p4nic_get_fatal,
                             p4nic_set_fatal);
    object_property_add_bool(obj, "x-babble", p4nic_get_babble,
                             p4nic_set_babble);
    object_property_add_uint64_ptr(obj, "x-babbled", &s->babbled,
                                   OBJ_PROP_FLAG_READ);
}

static Property p4nic_properties[] = {
    DEFINE_PROP_UINT32("ports", P4NicState, num_ports, 1),
    DEFINE_PROP_MACADDR("mac", P4NicState, macaddr),
    DEFINE_PROP_SIZE("mem-limit", P4NicState, mem_limit,
                     P4NIC_MEM_LIMIT_DEFAULT),
    DEFINE_PROP_NETDEV("netdev0", P4NicState, ports[0].conf.peers),
    DEFINE_PROP_NETDEV("netdev1", P4NicState, ports[1].conf.peers),
    DEFINE_PROP_NETDEV("netdev2", P4NicState, ports[2].conf.peers),
    DEFINE_PROP_NETDEV("netdev3", P4NicState, ports[3].conf.peers),
    DEFINE_PROP_NETDEV("netdev4", P4NicState, ports[4].conf.peers),
    DEFINE_PROP_NETDEV("netdev5", P4NicState, ports[5].conf.peers),
    DEFINE_PROP_NETDEV("netdev6", P4NicState, ports[6].conf.peers),
    DEFINE_PROP_NETDEV("netdev7", P4NicState, ports[7].conf.peers),
    DEFINE_PROP_END_OF_LIST(),
};

static void p4nic_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);

    k->realize = p4nic_realize;
    k->exit = p4nic_exit;
    k->config_write = p4nic_config_write;
    k->vendor_id = P4NIC_PCI_VENDOR_ID;
    k->device_id = P4NIC_PCI_DEVICE_ID;
    k->revision = P4NIC_PCI_REVISION;
    k->class_id = P4NIC_PCI_CLASS;
    dc->desc = "P4 programmable NIC (P4TC offload)";
    dc->reset = p4nic_qdev_reset;
    device_class_set_props(dc, p4nic_properties);
    set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
}

static const TypeInfo p4nic_info_type = {
    .name = TYPE_P4NIC,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(P4NicState),
    .instance_init = p4nic_instance_init,
    .class_init = p4nic_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_CONVENTIONAL_PCI_DEVICE },
        { },
    },
};

static void p4nic_register_types(void)
{
    type_register_static(&p4nic_info_type);
}

type_init(p4nic_register_types)
