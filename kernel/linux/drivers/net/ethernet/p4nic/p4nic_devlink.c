// SPDX-License-Identifier: GPL-2.0
/*
 * p4nic: devlink.  "devlink dev info" names the driver, the device and the
 * versions of its firmware and of the ABI the driver speaks with it;
 * "devlink resource show" gives the device's table capacity (the limits
 * IDENTIFY states) and how much of it the loaded pipeline occupies.  The
 * sizes are the device's own: they cannot be changed.
 */

#include <linux/kernel.h>
#include <net/devlink.h>

#include "p4nic.h"

enum p4nic_resource_id {
	P4NIC_RES_TABLES = 1,	/* tables of the loaded pipeline */
	P4NIC_RES_ENTRIES,	/* entries in them: one pool for all tables */
};

static struct p4nic *devlink_nic(struct devlink *devlink)
{
	return *(struct p4nic **)devlink_priv(devlink);
}

static int p4nic_devlink_info_get(struct devlink *devlink,
				  struct devlink_info_req *req,
				  struct netlink_ext_ack *extack)
{
	struct p4nic *nic = devlink_nic(devlink);
	u32 fw = le32_to_cpu(nic->identity.fw_version);
	char buf[32];
	int err;

	err = devlink_info_driver_name_put(req, P4NIC_DRV_NAME);
	if (err)
		return err;
	snprintf(buf, sizeof(buf), "%04x:%04x", nic->pdev->vendor,
		 nic->pdev->device);
	err = devlink_info_version_fixed_put(req,
					     DEVLINK_INFO_VERSION_GENERIC_ASIC_ID,
					     buf);
	if (err)
		return err;
	snprintf(buf, sizeof(buf), "%u", nic->pdev->revision);
	err = devlink_info_version_fixed_put(req,
					     DEVLINK_INFO_VERSION_GENERIC_ASIC_REV,
					     buf);
	if (err)
		return err;
	/* a 1.0 device does not say its firmware's version */
	if (fw) {
		snprintf(buf, sizeof(buf), "%u.%u.%u", fw >> 16,
			 (fw >> 8) & 0xff, fw & 0xff);
		err = devlink_info_version_running_put(req,
						       DEVLINK_INFO_VERSION_GENERIC_FW,
						       buf);
		if (err)
			return err;
	}
	snprintf(buf, sizeof(buf), "%u.%u",
		 le16_to_cpu(nic->identity.abi_major),
		 le16_to_cpu(nic->identity.abi_minor));
	return devlink_info_version_running_put(req,
						DEVLINK_INFO_VERSION_GENERIC_FW_MGMT_API,
						buf);
}

static const struct devlink_ops p4nic_devlink_ops = {
	.info_get = p4nic_devlink_info_get,
};

static u64 p4nic_tables_occ(void *priv)
{
	struct p4nic *nic = priv;

	return READ_ONCE(nic->num_tables);
}

static u64 p4nic_entries_occ(void *priv)
{
	struct p4nic *nic = priv;

	return READ_ONCE(nic->num_entries);
}

static int p4nic_resource(struct devlink *devlink, const char *name, u64 id,
			  u32 size, devlink_resource_occ_get_t *occ,
			  struct p4nic *nic)
{
	struct devlink_resource_size_params params;
	int err;

	devlink_resource_size_params_init(&params, size, size, 1,
					  DEVLINK_RESOURCE_UNIT_ENTRY);
	err = devlink_resource_register(devlink, name, size, id,
					DEVLINK_RESOURCE_ID_PARENT_TOP,
					&params);
	if (err)
		return err;
	devlink_resource_occ_get_register(devlink, id, occ, nic);
	return 0;
}

/**
 * p4nic_devlink_register - the device's devlink instance
 * @nic: the device, IDENTIFY's answer in @nic->identity
 *
 * Return: 0 or a negative errno.
 */
int p4nic_devlink_register(struct p4nic *nic)
{
	struct devlink *devlink;
	int err;

	devlink = devlink_alloc(&p4nic_devlink_ops, sizeof(nic),
				&nic->pdev->dev);
	if (!devlink)
		return -ENOMEM;
	*(struct p4nic **)devlink_priv(devlink) = nic;
	err = p4nic_resource(devlink, "tables", P4NIC_RES_TABLES,
			     le32_to_cpu(nic->identity.max_tables),
			     p4nic_tables_occ, nic);
	if (!err)
		err = p4nic_resource(devlink, "entries", P4NIC_RES_ENTRIES,
				     le32_to_cpu(nic->identity.max_entries_total),
				     p4nic_entries_occ, nic);
	if (err) {
		devlink_resources_unregister(devlink);
		devlink_free(devlink);
		return err;
	}
	devlink_register(devlink);
	nic->devlink = devlink;
	return 0;
}

/**
 * p4nic_devlink_unregister - undo p4nic_devlink_register()
 * @nic: the device
 */
void p4nic_devlink_unregister(struct p4nic *nic)
{
	devlink_unregister(nic->devlink);
	devlink_resources_unregister(nic->devlink);
	devlink_free(nic->devlink);
	nic->devlink = NULL;
}
