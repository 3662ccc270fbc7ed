// SPDX-License-Identifier: GPL-2.0
/*
 * p4nic: test knobs in debugfs, as netdevsim keeps its own.  Under
 * <debugfs>/p4nic/<pci name>/:
 *
 * cookie	the last admin command's cookie.  Writing it lets a test
 *		reach the wrap of the 32-bit counter (where 0, which the
 *		interrupt handler reads as "no command waiting", must be
 *		skipped) in a few commands instead of 2^32.
 *
 * Nothing here is needed to run the device; without CONFIG_DEBUG_FS the
 * calls are empty.
 */

#include <linux/debugfs.h>
#include "p4nic.h"

static struct dentry *p4nic_dbg_root;

static int p4nic_dbg_cookie_get(void *data, u64 *val)
{
	struct p4nic *nic = data;

	mutex_lock(&nic->aq_lock);
	*val = nic->cookie;
	mutex_unlock(&nic->aq_lock);
	return 0;
}

static int p4nic_dbg_cookie_set(void *data, u64 val)
{
	struct p4nic *nic = data;

	if (val > U32_MAX)
		return -EINVAL;
	/* the command path reads and bumps it under the same lock */
	mutex_lock(&nic->aq_lock);
	nic->cookie = val;
	mutex_unlock(&nic->aq_lock);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(p4nic_dbg_cookie_fops, p4nic_dbg_cookie_get,
			 p4nic_dbg_cookie_set, "%llu\n");

/**
 * p4nic_debugfs_add - a device's knobs
 * @nic: the device, probed
 *
 * Failures are not errors: debugfs is for tests (see the file comment).
 */
void p4nic_debugfs_add(struct p4nic *nic)
{
	nic->dbg = debugfs_create_dir(pci_name(nic->pdev), p4nic_dbg_root);
	debugfs_create_file_unsafe("cookie", 0600, nic->dbg, nic,
				   &p4nic_dbg_cookie_fops);
}

/**
 * p4nic_debugfs_remove - a device's knobs go, before the device
 * @nic: the device
 */
void p4nic_debugfs_remove(struct p4nic *nic)
{
	debugfs_remove_recursive(nic->dbg);
	nic->dbg = NULL;
}

/**
 * p4nic_debugfs_init - the driver's directory, at module load
 */
void p4nic_debugfs_init(void)
{
	p4nic_dbg_root = debugfs_create_dir(P4NIC_DRV_NAME, NULL);
}

/**
 * p4nic_debugfs_exit - the driver's directory goes, at module unload
 */
void p4nic_debugfs_exit(void)
{
	debugfs_remove_recursive(p4nic_dbg_root);
}
