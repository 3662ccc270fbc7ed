/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The p4nic driver: a PCI function with 1 to 8 Ethernet ports whose
 * firmware runs offloaded P4TC pipelines.  The device ABI is
 * include/linux/p4nic_abi.h (offload-api/SPEC.md in the P4TC tree).
 */
#ifndef P4NIC_H
#define P4NIC_H

#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/pci.h>
#include <linux/p4nic_abi.h>
#include <linux/u64_stats_sync.h>

#define P4NIC_DRV_NAME		"p4nic"

#define P4NIC_AQ_SIZE		32	/* admin commands and completions */
#define P4NIC_EQ_SIZE		64	/* events */
#define P4NIC_RING_SIZE		256	/* TX and RX descriptors per port */
#define P4NIC_RX_BUF_LEN	2048	/* an MTU of 1500 and its headers */
#define P4NIC_CMD_TIMEOUT_MS	10000	/* TCG is slow; hardware is not */
#define P4NIC_RESET_TIMEOUT_US	1000000

struct p4nic;
struct p4nic_table;
struct p4nic_reg_init;

/* Per-port counters the driver keeps; the device's come from PORT_QUERY. */
struct p4nic_ring_stats {
	u64 packets;
	u64 bytes;
	u64 errors;		/* descriptors the device completed with ERROR */
	u64 dropped;		/* RX: parser rejects and allocation failures */
	struct u64_stats_sync syncp;
};

/**
 * struct p4nic_port - one Ethernet port: a netdev with a TX and an RX ring
 * @nic: the device
 * @netdev: its net_device
 * @index: port number on the device
 * @napi: TX completion and RX, both vectors of the port schedule it
 * @tx_ring: TX descriptors (coherent DMA)
 * @tx_skb: the skb of each TX descriptor in flight
 * @tx_dma: the DMA mapping of each TX descriptor's skb
 * @tx_next: next descriptor to fill (the device's TX_TAIL)
 * @tx_clean: next descriptor to complete
 * @rx_ring: RX descriptors (coherent DMA)
 * @rx_skb: the buffer posted in each RX descriptor
 * @rx_dma: the DMA mapping of each posted buffer
 * @rx_next: next descriptor to post (the device's RX_TAIL)
 * @rx_clean: next descriptor the device fills
 * @tx_ring_dma: bus address of @tx_ring
 * @rx_ring_dma: bus address of @rx_ring
 * @tx_stats: frames sent
 * @rx_stats: frames received
 * @up: rings allocated and the port enabled on the device
 */
struct p4nic_port {
	struct p4nic *nic;
	struct net_device *netdev;
	u32 index;
	struct napi_struct napi;

	struct p4nic_tx_desc *tx_ring;
	struct sk_buff **tx_skb;
	dma_addr_t *tx_dma;
	u32 tx_next;
	u32 tx_clean;

	struct p4nic_rx_desc *rx_ring;
	struct sk_buff **rx_skb;
	dma_addr_t *rx_dma;
	u32 rx_next;
	u32 rx_clean;

	dma_addr_t tx_ring_dma;
	dma_addr_t rx_ring_dma;
	struct p4nic_ring_stats tx_stats;
	struct p4nic_ring_stats rx_stats;
	bool up;
};

/**
 * struct p4nic - one device
 * @pdev: its PCI function
 * @regs: BAR 0
 * @num_ports: ports the device has
 * @identity: IDENTIFY's answer, as the device sent it
 * @aq_lock: serialises admin commands: one in flight at a time
 * @aq: admin commands (coherent DMA)
 * @acq: completions
 * @eq: events
 * @aq_dma: bus address of @aq
 * @acq_dma: bus address of @acq
 * @eq_dma: bus address of @eq
 * @aq_tail: next command slot
 * @acq_head: next completion slot
 * @acq_phase: the phase of a new completion in this pass
 * @eq_head: next event slot
 * @eq_phase: the phase of a new event in this pass
 * @cpl_lock: protects the completion queue's head and @cpl_wait
 * @cpl_wait: the cookie the waiting command expects
 * @cpl: its completion, copied out by the interrupt handler
 * @cpl_done: signalled when @cpl holds it
 * @cookie: the last command's cookie
 * @dead: a command timed out, or the device reported a fatal error: it is
 *	not trusted with DMA any more
 * @halted: the dead device was reset: it does no DMA until it is set up
 *	again (under @aq_lock)
 * @link_event: what a link event calls (p4nic_port_link_event(), set at
 *	probe): the event queue (p4nic_adminq.c) does not know the ports
 * @ports: the ports' netdevs' private parts
 * @irq_names: names of the MSI-X vectors in /proc/interrupts
 * @off_lock: protects the offload state below against a reset's reload
 * @binds: the p4 filters bound to the ports' blocks (p4nic_offload.c)
 * @num_binds: entries of @binds
 * @port_binds: entries of @binds per port: the ports with PORT_PIPELINE
 * @image: the loaded pipeline's image, for a reload after a reset
 * @image_len: its bytes
 * @pipeid: the loaded pipeline, 0: none (read by RX without a lock)
 * @tables: the loaded pipeline's tables and their entries (p4nic_entries.c)
 * @num_tables: entries of @tables
 * @num_entries: entries the device holds, in all its tables (read by
 *	devlink without a lock)
 * @reg_init: the registers' values at BIND the device was given
 *	(p4nic_registers.c), for a reset
 * @num_reg_init: entries of @reg_init
 * @devlink: its devlink instance (p4nic_devlink.c)
 * @dbg: its test knobs' debugfs directory (p4nic_debugfs.c)
 */
struct p4nic {
	struct pci_dev *pdev;
	void __iomem *regs;
	u32 num_ports;
	struct p4nic_identity identity;

	struct mutex aq_lock;	/* one command at a time */
	struct p4nic_cmd *aq;
	struct p4nic_cpl *acq;
	struct p4nic_event *eq;
	dma_addr_t aq_dma;
	dma_addr_t acq_dma;
	dma_addr_t eq_dma;
	u32 aq_tail;
	u32 acq_head;
	bool acq_phase;
	u32 eq_head;
	bool eq_phase;

	spinlock_t cpl_lock;	/* acq_head, acq_phase, cpl_wait, cpl */
	u32 cpl_wait;
	struct p4nic_cpl cpl;
	struct completion cpl_done;
	u32 cookie;
	bool dead;
	bool halted;

	void (*link_event)(struct p4nic *nic, u32 port);
	struct p4nic_port *ports[P4NIC_MAX_PORTS];
	char irq_names[P4NIC_NUM_VECTORS][32];

	struct mutex off_lock;	/* the offload state, against resets */
	struct list_head binds;
	u32 num_binds;
	u32 port_binds[P4NIC_MAX_PORTS];
	void *image;
	u32 image_len;
	u32 pipeid;
	struct p4nic_table *tables;
	u32 num_tables;
	u32 num_entries;
	struct p4nic_reg_init **reg_init;
	u32 num_reg_init;
	struct devlink *devlink;
	struct dentry *dbg;
};

static inline u32 p4nic_rd(struct p4nic *nic, u32 off)
{
	return readl(nic->regs + off);
}

static inline void p4nic_wr(struct p4nic *nic, u32 off, u32 val)
{
	writel(val, nic->regs + off);
}

static inline u32 p4nic_port_reg(u32 port, u32 off)
{
	return P4NIC_REG_PORT(port) + off;
}

/* p4nic_debugfs.c */
void p4nic_debugfs_init(void);
void p4nic_debugfs_exit(void);
void p4nic_debugfs_add(struct p4nic *nic);
void p4nic_debugfs_remove(struct p4nic *nic);

/* p4nic_adminq.c */
int p4nic_adminq_init(struct p4nic *nic);
int p4nic_adminq_program(struct p4nic *nic);
int p4nic_cmd(struct p4nic *nic, u16 opcode, const void *in, u32 in_len,
	      void *out, u32 out_len, const u32 *params, u32 nparams,
	      u32 *result);
void p4nic_halt(struct p4nic *nic, const char *why);
irqreturn_t p4nic_adminq_irq(int irq, void *data);
irqreturn_t p4nic_event_irq(int irq, void *data);

/* p4nic_port.c */
int p4nic_port_create(struct p4nic *nic, u32 index);
void p4nic_port_destroy(struct p4nic_port *port);
irqreturn_t p4nic_port_irq(int irq, void *data);
void p4nic_port_link(struct p4nic_port *port);
void p4nic_port_link_event(struct p4nic *nic, u32 index);
int p4nic_port_set(struct p4nic *nic, u32 port, bool enabled);
int p4nic_port_query(struct p4nic *nic, u32 port,
		     struct p4nic_port_info *info);
void p4nic_port_quiesce(struct p4nic_port *port);
void p4nic_port_resume(struct p4nic_port *port);

/* p4nic_image.c */
struct p4tc_off_pipeline;
void *p4nic_image_build(struct p4nic *nic, const struct p4tc_off_pipeline *d,
			struct netlink_ext_ack *extack, u32 *len);

/* p4nic_entries.c */
struct p4tc_offload;
int p4nic_tables_init(struct p4nic *nic, const struct p4tc_off_pipeline *d);
void p4nic_tables_free(struct p4nic *nic);
int p4nic_entries_offload(struct p4nic *nic, struct p4tc_offload *off);
void p4nic_entries_restore(struct p4nic *nic);

/* p4nic_offload.c */
int p4nic_setup_tc(struct net_device *netdev, enum tc_setup_type type,
		   void *type_data);
int p4nic_set_features(struct net_device *netdev, netdev_features_t features);
int p4nic_offload_restore(struct p4nic *nic);
void p4nic_offload_cleanup(struct p4nic *nic);

/* p4nic_registers.c */
int p4nic_regs_load(struct p4nic *nic, const struct p4tc_off_pipeline *d);
void p4nic_regs_restore(struct p4nic *nic);
void p4nic_regs_free(struct p4nic *nic);
int p4nic_regs_read(struct p4nic *nic, struct p4tc_offload *off);

/* p4nic_devlink.c */
int p4nic_devlink_register(struct p4nic *nic);
void p4nic_devlink_unregister(struct p4nic *nic);

/* p4nic_ethtool.c */
extern const struct ethtool_ops p4nic_ethtool_ops;

#endif /* P4NIC_H */
