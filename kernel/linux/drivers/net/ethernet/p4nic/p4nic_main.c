// SPDX-License-Identifier: GPL-2.0
/*
 * p4nic: the driver of the P4 NIC that QEMU emulates (hw/net/p4nic), the
 * reference P4TC offload driver.  This file: PCI probe and remove, reset,
 * MSI-X and bring-up.  p4nic_adminq.c talks to the firmware,
 * p4nic_port.c runs the ports' netdevs, p4nic_ethtool.c answers ethtool,
 * p4nic_devlink.c devlink,
 * p4nic_offload.c takes P4TC's offload requests and p4nic_image.c
 * translates pipelines into device images.
 */
#include <linux/interrupt.h>
#include <linux/iopoll.h>
#include <linux/module.h>
#include <linux/rtnetlink.h>
#include "p4nic.h"

static int p4nic_reset(struct p4nic *nic)
{
	u32 st;

	p4nic_wr(nic, P4NIC_REG_CTRL, P4NIC_CTRL_RESET);
	if (readl_poll_timeout(nic->regs + P4NIC_REG_STATUS, st,
			       st & P4NIC_STATUS_READY, 100,
			       P4NIC_RESET_TIMEOUT_US)) {
		dev_err(&nic->pdev->dev, "device not ready after reset (status 0x%x)\n",
			st);
		return -ETIMEDOUT;
	}
	return 0;
}

/* Read what the device is before touching anything else. */
static int p4nic_check_device(struct p4nic *nic)
{
	struct device *dev = &nic->pdev->dev;
	u32 magic = p4nic_rd(nic, P4NIC_REG_MAGIC);
	u32 version = p4nic_rd(nic, P4NIC_REG_VERSION);

	if (magic != P4NIC_MAGIC) {
		dev_err(dev, "not a p4nic: magic 0x%08x\n", magic);
		return -ENODEV;
	}
	if (version >> 16 != P4NIC_ABI_MAJOR) {
		dev_err(dev, "device ABI %u.%u, this driver knows %u.x\n",
			version >> 16, version & 0xffff, P4NIC_ABI_MAJOR);
		return -ENODEV;
	}
	nic->num_ports = p4nic_rd(nic, P4NIC_REG_NUM_PORTS);
	if (!nic->num_ports || nic->num_ports > P4NIC_MAX_PORTS) {
		dev_err(dev, "device reports %u ports\n", nic->num_ports);
		return -ENODEV;
	}
	if (!(p4nic_rd(nic, P4NIC_REG_CAPS) & P4NIC_CAP_MSIX)) {
		dev_err(dev, "device without MSI-X\n");
		return -ENODEV;
	}
	return 0;
}

static int p4nic_identify(struct p4nic *nic)
{
	struct p4nic_identity *id = &nic->identity;
	u32 done;
	int ret;

	ret = p4nic_cmd(nic, P4NIC_CMD_IDENTIFY, NULL, 0, id, sizeof(*id),
			NULL, 0, &done);
	if (ret)
		return ret;
	if (done != sizeof(*id) || le16_to_cpu(id->abi_major) != P4NIC_ABI_MAJOR ||
	    le32_to_cpu(id->num_ports) != nic->num_ports) {
		dev_err(&nic->pdev->dev,
			"IDENTIFY does not match the registers (%u bytes, ABI %u, %u ports)\n",
			done, le16_to_cpu(id->abi_major),
			le32_to_cpu(id->num_ports));
		return -EIO;
	}
	return 0;
}

static void p4nic_ports_destroy(struct p4nic *nic)
{
	u32 p;

	for (p = 0; p < nic->num_ports; p++)
		if (nic->ports[p])
			p4nic_port_destroy(nic->ports[p]);
}

static int p4nic_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct device *dev = &pdev->dev;
	struct p4nic *nic;
	u32 p, nvec;
	int ret;

	nic = devm_kzalloc(dev, sizeof(*nic), GFP_KERNEL);
	if (!nic)
		return -ENOMEM;
	nic->pdev = pdev;
	mutex_init(&nic->aq_lock);
	mutex_init(&nic->off_lock);
	INIT_LIST_HEAD(&nic->binds);
	spin_lock_init(&nic->cpl_lock);
	init_completion(&nic->cpl_done);
	nic->link_event = p4nic_port_link_event;
	pci_set_drvdata(pdev, nic);

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	ret = pcim_iomap_regions(pdev, BIT(P4NIC_BAR_REGS), P4NIC_DRV_NAME);
	if (ret)
		return ret;
	nic->regs = pcim_iomap_table(pdev)[P4NIC_BAR_REGS];
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;
	pci_set_master(pdev);

	ret = p4nic_check_device(nic);
	if (ret)
		return ret;
	ret = p4nic_reset(nic);
	if (ret)
		return ret;

	nvec = 2 + 2 * nic->num_ports;
	ret = pci_alloc_irq_vectors(pdev, nvec, nvec, PCI_IRQ_MSIX);
	if (ret < 0) {
		dev_err(dev, "cannot have %u MSI-X vectors: %d\n", nvec, ret);
		return ret;
	}
	ret = p4nic_adminq_init(nic);
	if (ret)
		goto vectors;
	snprintf(nic->irq_names[0], sizeof(nic->irq_names[0]),
		 "p4nic-admin@%s", pci_name(pdev));
	snprintf(nic->irq_names[1], sizeof(nic->irq_names[1]),
		 "p4nic-event@%s", pci_name(pdev));
	ret = request_irq(pci_irq_vector(pdev, P4NIC_VEC_ADMIN),
			  p4nic_adminq_irq, 0, nic->irq_names[0], nic);
	if (ret)
		goto vectors;
	ret = request_irq(pci_irq_vector(pdev, P4NIC_VEC_EVENT),
			  p4nic_event_irq, 0, nic->irq_names[1], nic);
	if (ret)
		goto admin_irq;
	p4nic_wr(nic, P4NIC_REG_CTRL, P4NIC_CTRL_ENABLE);
	ret = p4nic_identify(nic);
	if (ret)
		goto event_irq;
	ret = p4nic_devlink_register(nic);
	if (ret)
		goto event_irq;

	for (p = 0; p < nic->num_ports; p++) {
		ret = p4nic_port_create(nic, p);
		if (ret)
			goto ports;
	}
	p4nic_debugfs_add(nic);
	dev_info(dev, "%u ports, ABI %u.%u\n", nic->num_ports,
		 le16_to_cpu(nic->identity.abi_major),
		 le16_to_cpu(nic->identity.abi_minor));
	return 0;

ports:
	/* no link event may reach a port being freed */
	free_irq(pci_irq_vector(pdev, P4NIC_VEC_EVENT), nic);
	p4nic_ports_destroy(nic);
	p4nic_devlink_unregister(nic);
	goto admin_irq;
event_irq:
	free_irq(pci_irq_vector(pdev, P4NIC_VEC_EVENT), nic);
admin_irq:
	p4nic_reset(nic);
	free_irq(pci_irq_vector(pdev, P4NIC_VEC_ADMIN), nic);
vectors:
	pci_free_irq_vectors(pdev);
	return ret;
}

static void p4nic_remove(struct pci_dev *pdev)
{
	struct p4nic *nic = pci_get_drvdata(pdev);

	/* Events reach the ports: their vector goes first.  The admin vector
	 * stays while the netdevs close (which disables their ports on the
	 * device); a reset then stops all DMA before the queues' memory goes.
	 */
	p4nic_debugfs_remove(nic);
	free_irq(pci_irq_vector(pdev, P4NIC_VEC_EVENT), nic);
	p4nic_devlink_unregister(nic);
	p4nic_ports_destroy(nic);
	p4nic_offload_cleanup(nic);
	p4nic_reset(nic);
	free_irq(pci_irq_vector(pdev, P4NIC_VEC_ADMIN), nic);
	pci_free_irq_vectors(pdev);
}

/* A function-level reset asked through the PCI core (sysfs "reset", AER):
 * the ports stop and let go of their rings while the device can still be
 * told, and after the reset the device gets its queues again, is checked
 * anew, and the ports run as they did.
 *
 * No admin command may be in flight when the reset comes: the reset
 * would drop it, its caller would time out and halt the device for good.
 * aq_lock is therefore held from the end of p4nic_reset_prepare() to the
 * moment the queues run again in p4nic_reset_done().  The offload state
 * (off_lock) is held longer, until the pipeline and its entries are back
 * in the device: an entry added or counters read meanwhile wait for the
 * device as it was, not for an empty one.
 */
static void p4nic_reset_prepare(struct pci_dev *pdev)
{
	struct p4nic *nic = pci_get_drvdata(pdev);
	u32 p;

	rtnl_lock();
	for (p = 0; p < nic->num_ports; p++)
		p4nic_port_quiesce(nic->ports[p]);
	rtnl_unlock();
	mutex_lock(&nic->off_lock);
	mutex_lock(&nic->aq_lock);
	/* No command is in flight now, but the handler of the last one may
	 * still run on another CPU: finishing after the reset, it would
	 * write the old completion queue's head into the device being set
	 * up anew (which refuses it, and the driver gives the device up).
	 * Wait for it, and keep both vectors quiet until the queues are
	 * programmed again.
	 */
	disable_irq(pci_irq_vector(pdev, P4NIC_VEC_ADMIN));
	disable_irq(pci_irq_vector(pdev, P4NIC_VEC_EVENT));
}

static void p4nic_reset_done(struct pci_dev *pdev)
{
	struct p4nic *nic = pci_get_drvdata(pdev);
	int ret;
	u32 p;

	/* off_lock and aq_lock: taken by p4nic_reset_prepare() */
	ret = p4nic_reset(nic);
	if (!ret)
		ret = p4nic_adminq_program(nic);
	enable_irq(pci_irq_vector(pdev, P4NIC_VEC_EVENT));
	enable_irq(pci_irq_vector(pdev, P4NIC_VEC_ADMIN));
	if (!ret)
		p4nic_wr(nic, P4NIC_REG_CTRL, P4NIC_CTRL_ENABLE);
	nic->dead = ret != 0;
	mutex_unlock(&nic->aq_lock);
	if (!ret) {
		ret = p4nic_identify(nic);
		if (ret) {
			mutex_lock(&nic->aq_lock);
			nic->dead = true;
			mutex_unlock(&nic->aq_lock);
		}
	}
	if (ret) {
		mutex_unlock(&nic->off_lock);
		dev_err(&pdev->dev, "device unusable after the reset: %d\n",
			ret);
		return;
	}
	/* a pipeline the reset took: before the ports run it */
	p4nic_offload_restore(nic);
	mutex_unlock(&nic->off_lock);
	rtnl_lock();
	for (p = 0; p < nic->num_ports; p++)
		p4nic_port_resume(nic->ports[p]);
	rtnl_unlock();
}

static const struct pci_error_handlers p4nic_err_handlers = {
	.reset_prepare	= p4nic_reset_prepare,
	.reset_done	= p4nic_reset_done,
};

static const struct pci_device_id p4nic_pci_ids[] = {
	{ PCI_DEVICE(P4NIC_PCI_VENDOR_ID, P4NIC_PCI_DEVICE_ID) },
	{ }
};
MODULE_DEVICE_TABLE(pci, p4nic_pci_ids);

static struct pci_driver p4nic_driver = {
	.name		= P4NIC_DRV_NAME,
	.id_table	= p4nic_pci_ids,
	.probe		= p4nic_probe,
	.remove		= p4nic_remove,
	.err_handler	= &p4nic_err_handlers,
};

static int __init p4nic_init(void)
{
	int ret;

	p4nic_debugfs_init();
	ret = pci_register_driver(&p4nic_driver);
	if (ret)
		p4nic_debugfs_exit();
	return ret;
}
module_init(p4nic_init);

static void __exit p4nic_exit(void)
{
	pci_unregister_driver(&p4nic_driver);
	p4nic_debugfs_exit();
}
module_exit(p4nic_exit);

MODULE_DESCRIPTION("P4 programmable NIC (P4TC offload reference driver)");
MODULE_LICENSE("GPL");
