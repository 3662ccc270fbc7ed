/*
 * The P4 NIC seen from the host: QMP x-query-p4nic and HMP "info p4nic"
 * print every p4nic's registers, queues, ports and what its firmware has
 * loaded (pipeline, tables, entries and their counters).
 *
 * Copyright (c) 2026 The P4TC offload authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qapi/qapi-commands-machine.h"
#include "qapi/type-helpers.h"
#include "qom/object.h"
#include "p4nic.h"

/* Entries shown per table; the rest are counted. */
#define P4NIC_INFO_ENTRIES      32

static const char *const p4nic_table_types[] = {
    [P4NIC_TABLE_EXACT] = "exact",
    [P4NIC_TABLE_LPM] = "lpm",
    [P4NIC_TABLE_TERNARY] = "ternary",
};

/* Who decides a table's lookups (P4NIC_MISS_*, P4NIC_LOOKUP_TO_HOST) */
static const char *const p4nic_miss_modes[] = {
    [P4NIC_MISS_DEFAULT] = "miss default",
    [P4NIC_MISS_TO_HOST] = "miss to host",
    [P4NIC_LOOKUP_TO_HOST] = "lookups to host",
};

static void p4nic_info_hex(GString *buf, const uint8_t *p, uint32_t len)
{
    uint32_t i;

    for (i = 0; i < len; i++) {
        g_string_append_printf(buf, "%02x", p[i]);
    }
}

static void p4nic_info_queue(GString *buf, const char *name,
                             const P4NicQueue *q)
{
    g_string_append_printf(buf, "    %s: base 0x%" PRIx64 " size %u head %u "
                           "tail %u done %" PRIu64, name, q->base, q->size,
                           q->head, q->tail, q->done);
    if (q->bytes || q->errors) {
        g_string_append_printf(buf, " bytes %" PRIu64 " errors %" PRIu64,
                               q->bytes, q->errors);
    }
    g_string_append_c(buf, '\n');
}

static void p4nic_info_port(P4NicState *s, GString *buf, uint32_t p)
{
    P4NicPort *pt = &s->ports[p];
    NetClientState *nc = qemu_get_queue(pt->nic);
    struct p4fw_port_stats st;

    p4fw_port_stats(s->fw, p, &st);
    g_string_append_printf(buf, "  port %u: %s mac " MAC_FMT " link %s %s%s\n",
                           p, nc->peer ? nc->peer->name : "(no netdev)",
                           MAC_ARG(pt->conf.macaddr.a),
                           st.link ? "up" : "down",
                           st.enabled ? "enabled" : "disabled",
                           st.pipeline ? " pipeline" : "");
    g_string_append_printf(buf, "    wire: rx %" PRIu64 " (%" PRIu64
                           " bytes) tx %" PRIu64 " (%" PRIu64 " bytes) "
                           "dropped while off %" PRIu64 " looped %" PRIu64
                           "\n", st.rx_packets, st.rx_bytes, st.tx_packets,
                           st.tx_bytes, pt->wire_dropped, pt->loop_dropped);
    g_string_append_printf(buf, "    pipeline: to host %" PRIu64 " dropped %"
                           PRIu64 " no buffer %" PRIu64 " too big %" PRIu64
                           "\n", st.to_host, st.dropped, st.no_buffer,
                           pt->rx_too_big);
    g_string_append_printf(buf, "    held for a buffer: %u now, %" PRIu64
                           " in all\n", pt->held_count, pt->rx_held);
    p4nic_info_queue(buf, "tx ring", &pt->tx);
    p4nic_info_queue(buf, "rx ring", &pt->rx);
}

static void p4nic_info_table(P4NicState *s, GString *buf, uint32_t index)
{
    struct p4fw_table_stats t;
    struct p4fw_entry_stats e;
    uint32_t handle = 0, shown = 0;

    p4fw_table_stats(s->fw, index, &t);
    g_string_append_printf(buf, "  table %u: %s, key %u bits, %u/%u "
                           "entries", t.id, p4nic_table_types[t.type],
                           t.key_bits, t.num_entries, t.max_entries);
    if (t.type == P4NIC_TABLE_TERNARY) {
        g_string_append_printf(buf, ", %u masks", t.num_masks);
    }
    g_string_append_printf(buf, ", %s, hits %" PRIu64 " misses %" PRIu64
                           "\n", t.miss_mode < ARRAY_SIZE(p4nic_miss_modes) ?
                           p4nic_miss_modes[t.miss_mode] : "mode ?",
                           t.hits, t.misses);
    while (shown < P4NIC_INFO_ENTRIES &&
           !p4fw_entry_next(s->fw, index, &handle, &e)) {
        g_string_append_printf(buf, "    entry %u: key ", e.handle);
        p4nic_info_hex(buf, e.key, e.key_bytes);
        g_string_append(buf, " mask ");
        p4nic_info_hex(buf, e.mask, e.key_bytes);
        g_string_append_printf(buf, " prio %u action %u packets %" PRIu64
                               " bytes %" PRIu64 "\n", e.prio, e.action_id,
                               e.packets, e.bytes);
        shown++;
    }
    if (shown < t.num_entries) {
        g_string_append_printf(buf, "    ... %u more entries\n",
                               t.num_entries - shown);
    }
}

void p4nic_info(P4NicState *s, GString *buf)
{
    DeviceState *dev = DEVICE(s);
    struct p4fw_pipeline_stats ps;
    uint32_t i;

    g_string_append_printf(buf, "p4nic %s: %u ports, ctrl 0x%x status 0x%x "
                           "(%s%s) intr mask 0x%x\n",
                           dev->id ? dev->id : dev->canonical_path,
                           s->num_ports, s->ctrl, s->status,
                           s->status & P4NIC_STATUS_READY ? "ready" : "",
                           s->status & P4NIC_STATUS_FATAL ? " fatal" : "",
                           s->intr_mask);
    if (s->status & P4NIC_STATUS_FATAL) {
        g_string_append_printf(buf, "  fatal: queue at register 0x%x\n",
                               s->fatal_queue);
    }
    g_string_append_printf(buf, "  refused register writes: %u",
                           s->err_count);
    if (s->err_count) {
        g_string_append_printf(buf, " (last: register 0x%x, reason %u)",
                               P4NIC_ERR_OFFSET(s->err_last),
                               P4NIC_ERR_WHY(s->err_last));
    }
    g_string_append_printf(buf, "\n  events lost: %" PRIu64 "\n",
                           s->events_lost);
    g_string_append_printf(buf, "  table memory: %" PRIu64 " of %" PRIu64
                           " bytes%s\n", p4fw_mem_used(s->fw), s->mem_limit,
                           s->mem_limit ? "" : " (no limit)");
    g_string_append(buf, "  queues:\n");
    p4nic_info_queue(buf, "admin", &s->aq);
    p4nic_info_queue(buf, "completion", &s->acq);
    p4nic_info_queue(buf, "event", &s->eq);
    for (i = 0; i < s->num_ports; i++) {
        p4nic_info_port(s, buf, i);
    }
    if (!p4fw_pipeline_stats(s->fw, &ps)) {
        g_string_append(buf, "  pipeline: none loaded\n");
        return;
    }
    g_string_append_printf(buf, "  pipeline %u: %u tables, %u actions, "
                           "%u registers, %u entries\n", ps.pipeid,
                           ps.num_tables, ps.num_actions, ps.num_registers,
                           ps.num_entries);
    for (i = 0; i < ps.num_tables; i++) {
        p4nic_info_table(s, buf, i);
    }
}

static int p4nic_info_one(Object *obj, void *opaque)
{
    P4NicState *s = (P4NicState *)object_dynamic_cast(obj, TYPE_P4NIC);

    if (s && DEVICE(s)->realized) {
        p4nic_info(s, opaque);
    }
    return 0;
}

HumanReadableText *qmp_x_query_p4nic(Error **errp)
{
    g_autoptr(GString) buf = g_string_new("");

    object_child_foreach_recursive(object_get_root(), p4nic_info_one, buf);
    if (!buf->len) {
        g_string_append(buf, "no p4nic device\n");
    }
    return human_readable_text_from_str(buf);
}
