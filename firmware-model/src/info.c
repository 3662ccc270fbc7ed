// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Introspection: what the host's monitor shows of a NIC.  Plain reads of
 * the firmware's state; nothing here is reachable by the guest.
 */
#include <string.h>

#include "fw.h"

int p4fw_port_stats(const struct p4fw *fw, uint32_t port,
		    struct p4fw_port_stats *st)
{
	const struct fw_port *pt;

	if (port >= fw->num_ports)
		return -1;
	pt = &fw->ports[port];
	st->enabled = pt->enabled;
	st->pipeline = pt->pipeline;
	st->link = pt->link;
	st->rx_packets = pt->rx_packets;
	st->rx_bytes = pt->rx_bytes;
	st->tx_packets = pt->tx_packets;
	st->tx_bytes = pt->tx_bytes;
	st->to_host = pt->to_host;
	st->dropped = pt->dropped;
	st->no_buffer = pt->no_buffer;
	return 0;
}

bool p4fw_pipeline_stats(const struct p4fw *fw,
			 struct p4fw_pipeline_stats *st)
{
	const struct fw_pipeline *p = fw->pipe;

	memset(st, 0, sizeof(*st));
	if (!p)
		return false;
	st->pipeid = p->pipeid;
	st->num_tables = p->num_tables;
	st->num_actions = p->num_actions;
	st->num_registers = p->num_regs;
	st->num_entries = p->num_entries;
	return true;
}

int p4fw_table_stats(const struct p4fw *fw, uint32_t index,
		     struct p4fw_table_stats *st)
{
	const struct fw_table *t;

	if (!fw->pipe || index >= fw->pipe->num_tables)
		return -1;
	t = &fw->pipe->tables[index];
	st->id = t->id;
	st->type = t->type;
	st->key_bits = t->key_bits;
	st->max_entries = t->max_entries;
	st->num_entries = t->num_entries;
	st->num_masks = t->type == P4NIC_TABLE_TERNARY ?
			p4fw_ternary_masks(t->ternary) : 0;
	st->miss_mode = t->miss_mode;
	st->hits = t->hits;
	st->misses = t->misses;
	return 0;
}

int p4fw_entry_next(const struct p4fw *fw, uint32_t index, uint32_t *handle,
		    struct p4fw_entry_stats *st)
{
	const struct fw_table *t;
	const struct fw_entry *e;
	uint32_t h;

	if (!fw->pipe || index >= fw->pipe->num_tables)
		return -1;
	t = &fw->pipe->tables[index];
	for (h = *handle; h < t->max_entries; h++) {
		e = &t->entries[h];
		if (!e->used)
			continue;
		st->handle = h;
		st->prio = e->prio;
		st->action_id = e->action == P4NIC_NONE ? 0 :
				fw->pipe->actions[e->action].id;
		st->key_bytes = t->key_bytes;
		st->key = t->keys + (size_t)h * 2 * t->key_bytes;
		st->mask = st->key + t->key_bytes;
		st->packets = e->packets;
		st->bytes = e->bytes;
		*handle = h + 1;
		return 0;
	}
	*handle = t->max_entries;
	return -1;
}
