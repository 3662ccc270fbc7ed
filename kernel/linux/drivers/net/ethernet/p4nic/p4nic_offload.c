// SPDX-License-Identifier: GPL-2.0
/*
 * p4nic: P4TC offload.  The ports' ndo_setup_tc binds their ingress
 * blocks; the block callback takes TC_SETUP_CLSP4 requests
 * (include/net/p4tc_offload.h): pipelines here, entries and table modes
 * in p4nic_entries.c.
 *
 * The device runs one pipeline, on the ports that have PORT_PIPELINE.  A
 * p4 filter binding a pipeline to a port's block (BIND) loads the image
 * when the device has none, and sets the port's bit; the last binding of
 * a port (UNBIND) clears it, and the device's last binding unloads the
 * image.  A second pipeline on the same device is refused: its filter
 * stays in software, or fails with skip_sw.
 *
 * Bindings are counted per port, not per filter: replacing a filter binds
 * the new one before the old one goes, and one port may sit in several
 * blocks.  Registers are in p4nic_registers.c.  Everything here runs
 * under RTNL; @off_lock keeps the state
 * consistent with a function-level reset, which reloads the image
 * (p4nic_offload_restore()).
 */

#include <linux/kernel.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/flow_offload.h>
#include <net/p4tc_offload.h>
#include <net/pkt_cls.h>

#include "p4nic.h"

/* One binding: a p4 filter (cookie) on a port's block. */
struct p4nic_bind {
	struct list_head list;
	unsigned long cookie;
	u32 port;
};

static LIST_HEAD(p4nic_block_cb_list);

/* Device refusals as users should read them. */
static const char *p4nic_status_text(int err)
{
	switch (err) {
	case -EOPNOTSUPP:
		return "the device does not support it";
	case -EINVAL:
		return "the device refused a field of the image";
	case -ERANGE:
		return "over the device's limits";
	case -ENOSPC:
		return "the device is full";
	case -ENOMEM:
		return "the device ran out of memory";
	case -ETIMEDOUT:
		return "the device did not answer";
	case -EIO:
		return "the device is down (see the kernel log)";
	default:
		return "the device refused it";
	}
}

static int p4nic_port_apply(struct p4nic *nic, u32 port)
{
	struct p4nic_port *p = nic->ports[port];

	return p4nic_port_set(nic, port, p && p->up);
}

static int p4nic_load(struct p4nic *nic, const struct p4tc_off_pipeline *d,
		      struct netlink_ext_ack *extack)
{
	u32 len, at = 0;
	void *img;
	int err;

	img = p4nic_image_build(nic, d, extack, &len);
	if (IS_ERR(img))
		return PTR_ERR(img);
	err = p4nic_cmd(nic, P4NIC_CMD_PIPELINE_LOAD, img, len, NULL, 0,
			NULL, 0, &at);
	if (err) {
		NL_SET_ERR_MSG_FMT(extack,
				   "p4nic: loading pipeline %s: %s (%d, image byte %u)",
				       d->name, p4nic_status_text(err), err, at);
		kvfree(img);
		return err;
	}
	err = p4nic_tables_init(nic, d);
	if (!err) {
		err = p4nic_regs_load(nic, d);
		if (err) {
			NL_SET_ERR_MSG_FMT(extack,
					   "p4nic: pipeline %s: the registers' values: %s (%d)",
					   d->name, p4nic_status_text(err), err);
			p4nic_regs_free(nic);
			p4nic_tables_free(nic);
		}
	}
	if (err) {
		u32 p = d->pipeid;

		p4nic_cmd(nic, P4NIC_CMD_PIPELINE_UNLOAD, NULL, 0, NULL, 0, &p,
			  1, NULL);
		kvfree(img);
		return err;
	}
	nic->image = img;
	nic->image_len = len;
	WRITE_ONCE(nic->pipeid, d->pipeid);
	return 0;
}

static void p4nic_unload(struct p4nic *nic)
{
	u32 p = nic->pipeid;

	if (p4nic_cmd(nic, P4NIC_CMD_PIPELINE_UNLOAD, NULL, 0, NULL, 0, &p, 1,
		      NULL))
		dev_warn(&nic->pdev->dev, "pipeline %u did not unload\n", p);
	p4nic_tables_free(nic);
	p4nic_regs_free(nic);
	kvfree(nic->image);
	nic->image = NULL;
	nic->image_len = 0;
	WRITE_ONCE(nic->pipeid, 0);
}

static int p4nic_bind(struct p4nic_port *port, struct p4tc_offload *off)
{
	struct netlink_ext_ack *extack = off->common.extack;
	struct p4nic *nic = port->nic;
	struct p4nic_bind *b;
	bool loaded = false;
	int err;

	if (!off->pipeline)
		return -EINVAL;
	if (nic->pipeid && nic->pipeid != off->pipeid) {
		NL_SET_ERR_MSG_FMT(extack,
				   "p4nic: the device runs pipeline %u: one pipeline per device",
				       nic->pipeid);
		return -EBUSY;
	}
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	b->cookie = off->cookie;
	b->port = port->index;

	mutex_lock(&nic->off_lock);
	if (!nic->pipeid) {
		err = p4nic_load(nic, off->pipeline, extack);
		if (err)
			goto unlock;
		loaded = true;
	}
	if (!nic->port_binds[port->index]++) {
		err = p4nic_port_apply(nic, port->index);
		if (err) {
			nic->port_binds[port->index]--;
			NL_SET_ERR_MSG_FMT(extack,
					   "p4nic: running the pipeline on port %u: %s (%d)",
					       port->index,
					       p4nic_status_text(err), err);
			if (loaded)
				p4nic_unload(nic);
			goto unlock;
		}
	}
	list_add(&b->list, &nic->binds);
	nic->num_binds++;
	b = NULL;
	err = 0;
unlock:
	mutex_unlock(&nic->off_lock);
	kfree(b);
	return err;
}

static int p4nic_unbind(struct p4nic_port *port, struct p4tc_offload *off)
{
	struct p4nic *nic = port->nic;
	struct p4nic_bind *b;

	mutex_lock(&nic->off_lock);
	list_for_each_entry(b, &nic->binds, list)
		if (b->cookie == off->cookie && b->port == port->index)
			goto found;
	mutex_unlock(&nic->off_lock);
	return -ENOENT;

found:
	list_del(&b->list);
	kfree(b);
	if (!--nic->port_binds[port->index] &&
	    p4nic_port_apply(nic, port->index))
		netdev_warn(port->netdev, "the pipeline may still run on this port\n");
	if (!--nic->num_binds)
		p4nic_unload(nic);
	mutex_unlock(&nic->off_lock);
	return 0;
}

static int p4nic_setup_clsp4(struct p4nic_port *port, struct p4tc_offload *off)
{
	struct p4nic *nic = port->nic;
	int err;

	switch (off->command) {
	case P4TC_OFFLOAD_BIND:
		return p4nic_bind(port, off);
	case P4TC_OFFLOAD_UNBIND:
		return p4nic_unbind(port, off);
	default:
		break;
	}
	/* the loaded pipeline's entries, tables and registers */
	mutex_lock(&nic->off_lock);
	if (off->command == P4TC_OFFLOAD_REG_READ)
		err = p4nic_regs_read(nic, off);
	else
		err = p4nic_entries_offload(nic, off);
	mutex_unlock(&nic->off_lock);
	return err;
}

static int p4nic_block_cb(enum tc_setup_type type, void *type_data,
			  void *cb_priv)
{
	struct p4nic_port *port = cb_priv;

	if (type != TC_SETUP_CLSP4)
		return -EOPNOTSUPP;
	if (!tc_cls_can_offload_and_chain0(port->netdev, type_data))
		return -EOPNOTSUPP;
	return p4nic_setup_clsp4(port, type_data);
}

/**
 * p4nic_setup_tc - ndo_setup_tc: ingress blocks only
 * @netdev: the port
 * @type: TC_SETUP_BLOCK
 * @type_data: the block request
 *
 * Return: 0 or a negative errno.
 */
int p4nic_setup_tc(struct net_device *netdev, enum tc_setup_type type,
		   void *type_data)
{
	struct p4nic_port *port = netdev_priv(netdev);

	switch (type) {
	case TC_SETUP_BLOCK:
		return flow_block_cb_setup_simple(type_data,
						  &p4nic_block_cb_list,
						  p4nic_block_cb, port, port,
						  true);
	default:
		return -EOPNOTSUPP;
	}
}

/**
 * p4nic_set_features - ndo_set_features: hw-tc-offload stays on while a
 *	pipeline is bound to the port
 * @netdev: the port
 * @features: what the user asks for
 *
 * Return: 0, or -EBUSY.
 */
int p4nic_set_features(struct net_device *netdev, netdev_features_t features)
{
	struct p4nic_port *port = netdev_priv(netdev);

	if (!(features & NETIF_F_HW_TC) &&
	    (netdev->features & NETIF_F_HW_TC) &&
	    port->nic->port_binds[port->index]) {
		netdev_err(netdev, "hw-tc-offload: a P4 pipeline is offloaded on this port; delete its p4 filter first\n");
		return -EBUSY;
	}
	return 0;
}

/**
 * p4nic_offload_restore - after a device reset: the pipeline again
 * @nic: the device, its admin queue running; @off_lock held (since
 *	before the reset: see p4nic_reset_prepare())
 *
 * The ports' PORT_PIPELINE bits come back with the ports
 * (p4nic_port_resume()).
 *
 * Return: 0 or a negative errno.
 */
int p4nic_offload_restore(struct p4nic *nic)
{
	int err = 0;

	lockdep_assert_held(&nic->off_lock);
	if (nic->image)
		err = p4nic_cmd(nic, P4NIC_CMD_PIPELINE_LOAD, nic->image,
				nic->image_len, NULL, 0, NULL, 0, NULL);
	if (nic->image && !err) {
		p4nic_regs_restore(nic);
		p4nic_entries_restore(nic);
	}
	if (err)
		dev_err(&nic->pdev->dev, "pipeline %u did not load again after the reset: %d\n",
			nic->pipeid, err);
	return err;
}

/**
 * p4nic_offload_cleanup - the device goes: forget its bindings
 * @nic: the device, its ports unregistered
 *
 * Unregistering the ports unbinds their blocks, and with them every
 * filter; what is left here would be a leak, so it is freed and said.
 */
void p4nic_offload_cleanup(struct p4nic *nic)
{
	struct p4nic_bind *b, *tmp;

	mutex_lock(&nic->off_lock);
	list_for_each_entry_safe(b, tmp, &nic->binds, list) {
		dev_warn(&nic->pdev->dev, "binding of port %u left at removal\n",
			 b->port);
		list_del(&b->list);
		kfree(b);
	}
	p4nic_tables_free(nic);
	p4nic_regs_free(nic);
	kvfree(nic->image);
	nic->image = NULL;
	mutex_unlock(&nic->off_lock);
}
