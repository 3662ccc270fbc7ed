// SPDX-License-Identifier: GPL-2.0
/*
 * p4nic ports: one netdev per device port, with a TX and an RX ring and
 * one NAPI context that both of the port's vectors schedule.
 *
 * The device completes descriptors in order and marks each DONE; the
 * driver owns the indices (tx_next / rx_next are the doorbells it writes,
 * tx_clean / rx_clean where it reaps), so nothing the device writes is
 * used as an index.  Frames are linear: the device takes one buffer per
 * frame, so the netdev has no scatter-gather.
 */
#include <linux/dma-mapping.h>
#include <linux/error-injection.h>
#include <linux/etherdevice.h>
#include <linux/interrupt.h>
#include <linux/if_vlan.h>
#include <net/p4tc_offload.h>
#include <uapi/linux/pkt_cls.h>
#include "p4nic.h"

#define P4NIC_NAPI_BUDGET	64

static u32 p4nic_ring_next(u32 i)
{
	return (i + 1) % P4NIC_RING_SIZE;
}

static u32 p4nic_tx_free(const struct p4nic_port *port)
{
	/* xmit and the cleaner each read the index the other writes */
	return (READ_ONCE(port->tx_clean) - READ_ONCE(port->tx_next) - 1) %
	       P4NIC_RING_SIZE;
}

/* ------------------------------------------------------------------ */
/* TX                                                                  */
/* ------------------------------------------------------------------ */

static netdev_tx_t p4nic_start_xmit(struct sk_buff *skb,
				    struct net_device *netdev)
{
	struct p4nic_port *port = netdev_priv(netdev);
	struct device *dev = &port->nic->pdev->dev;
	struct p4nic_tx_desc *d;
	dma_addr_t dma;
	u32 i = port->tx_next;

	if (skb->len > P4NIC_PKT_MAX || skb_linearize(skb)) {
		dev_core_stats_tx_dropped_inc(netdev);
		dev_kfree_skb_any(skb);
		return NETDEV_TX_OK;
	}
	dma = dma_map_single(dev, skb->data, skb->len, DMA_TO_DEVICE);
	if (dma_mapping_error(dev, dma)) {
		dev_core_stats_tx_dropped_inc(netdev);
		dev_kfree_skb_any(skb);
		return NETDEV_TX_OK;
	}
	port->tx_skb[i] = skb;
	port->tx_dma[i] = dma;
	d = &port->tx_ring[i];
	d->addr = cpu_to_le64(dma);
	d->len = cpu_to_le16(skb->len);
	d->flags = 0;
	d->status = 0;
	d->rsvd = 0;
	skb_tx_timestamp(skb);
	/* the slot is filled (its skb, a status not DONE) before the
	 * cleaner on another CPU may see it: pairs with p4nic_tx_clean()
	 */
	smp_wmb();
	WRITE_ONCE(port->tx_next, p4nic_ring_next(i));
	if (!p4nic_tx_free(port)) {
		netif_stop_queue(netdev);
		/* pairs with the barrier in p4nic_tx_clean(): no lost wake */
		smp_mb();
		if (p4nic_tx_free(port))
			netif_start_queue(netdev);
	}
	/* the descriptor is in memory before the doorbell */
	dma_wmb();
	p4nic_wr(port->nic, p4nic_port_reg(port->index, P4NIC_PORT_TX_TAIL),
		 port->tx_next);
	return NETDEV_TX_OK;
}

/* Reap sent frames; return how many. */
static int p4nic_tx_clean(struct p4nic_port *port, int budget)
{
	struct device *dev = &port->nic->pdev->dev;
	u64 packets = 0, bytes = 0, errors = 0;
	struct p4nic_tx_desc *d;
	struct sk_buff *skb;
	u16 status;

	while (port->tx_clean != READ_ONCE(port->tx_next)) {
		/* the slot as p4nic_start_xmit() filled it, then published */
		smp_rmb();
		d = &port->tx_ring[port->tx_clean];
		status = le16_to_cpu(READ_ONCE(d->status));
		if (!(status & P4NIC_DESC_DONE))
			break;
		dma_rmb();
		skb = port->tx_skb[port->tx_clean];
		dma_unmap_single(dev, port->tx_dma[port->tx_clean], skb->len,
				 DMA_TO_DEVICE);
		if (status & P4NIC_DESC_ERROR) {
			errors++;
		} else {
			packets++;
			bytes += skb->len;
		}
		napi_consume_skb(skb, budget);
		port->tx_skb[port->tx_clean] = NULL;
		WRITE_ONCE(port->tx_clean, p4nic_ring_next(port->tx_clean));
	}
	u64_stats_update_begin(&port->tx_stats.syncp);
	port->tx_stats.packets += packets;
	port->tx_stats.bytes += bytes;
	port->tx_stats.errors += errors;
	u64_stats_update_end(&port->tx_stats.syncp);
	/* tx_clean is visible before the queue's state is read */
	smp_mb();
	if (netif_queue_stopped(port->netdev) && p4nic_tx_free(port))
		netif_wake_queue(port->netdev);
	return packets + errors;
}

/* ------------------------------------------------------------------ */
/* RX                                                                  */
/* ------------------------------------------------------------------ */

/* Post a fresh buffer in descriptor I; false if there is no memory. */
static bool p4nic_rx_post(struct p4nic_port *port, u32 i, gfp_t gfp)
{
	struct device *dev = &port->nic->pdev->dev;
	struct p4nic_rx_desc *d = &port->rx_ring[i];
	struct sk_buff *skb;
	dma_addr_t dma;

	skb = __netdev_alloc_skb_ip_align(port->netdev, P4NIC_RX_BUF_LEN, gfp);
	if (!skb)
		return false;
	dma = dma_map_single(dev, skb->data, P4NIC_RX_BUF_LEN, DMA_FROM_DEVICE);
	if (dma_mapping_error(dev, dma)) {
		dev_kfree_skb_any(skb);
		return false;
	}
	port->rx_skb[i] = skb;
	port->rx_dma[i] = dma;
	memset(d, 0, sizeof(*d));
	d->addr = cpu_to_le64(dma);
	d->buf_len = cpu_to_le16(P4NIC_RX_BUF_LEN);
	return true;
}

/* Post buffers in every free descriptor and ring the doorbell. */
static void p4nic_rx_refill(struct p4nic_port *port, gfp_t gfp)
{
	u32 posted = 0;

	while (p4nic_ring_next(port->rx_next) != port->rx_clean &&
	       !port->rx_skb[port->rx_next]) {
		if (!p4nic_rx_post(port, port->rx_next, gfp))
			break;
		port->rx_next = p4nic_ring_next(port->rx_next);
		posted++;
	}
	if (posted) {
		dma_wmb();
		p4nic_wr(port->nic,
			 p4nic_port_reg(port->index, P4NIC_PORT_RX_TAIL),
			 port->rx_next);
	}
}

/* What the device did with a frame of its pipeline, for P4TC.  PASS: it
 * ran the pipeline, whose verdict (TC_ACT_OK or TC_ACT_PIPE) the
 * descriptor gives.  TABLE_MISS, UNSUPPORTED: it handed the frame over
 * unfinished, and the host's run must see the device's entries too.
 * Non-zero: the frame cannot be marked, and must not go up (it would run
 * the pipeline twice, or without the device's entries).
 */
static int p4nic_rx_mark(struct p4nic_port *port, struct sk_buff *skb,
			 const struct p4nic_rx_desc *d, u16 reason)
{
	u32 pipeid = READ_ONCE(port->nic->pipeid);
	int verdict = le32_to_cpu(d->info);

	if (!pipeid)
		return 0;	/* unloaded since: nothing to skip */
	switch (reason) {
	case P4NIC_RX_PASS:
		if (verdict != TC_ACT_OK && verdict != TC_ACT_PIPE)
			return -EINVAL;
		return p4tc_skb_decided(skb, pipeid, verdict);
	case P4NIC_RX_TABLE_MISS:
	case P4NIC_RX_UNSUPPORTED:
		return p4tc_skb_handed_over(skb, pipeid);
	default:
		return 0;
	}
}

static int p4nic_rx_clean(struct p4nic_port *port, int budget)
{
	struct device *dev = &port->nic->pdev->dev;
	u64 packets = 0, bytes = 0, errors = 0, dropped = 0;
	struct p4nic_rx_desc *d;
	struct sk_buff *skb;
	u16 status, len, reason;
	int done = 0;

	while (done < budget && port->rx_clean != port->rx_next) {
		d = &port->rx_ring[port->rx_clean];
		status = le16_to_cpu(READ_ONCE(d->status));
		if (!(status & P4NIC_DESC_DONE))
			break;
		dma_rmb();
		len = le16_to_cpu(d->pkt_len);
		reason = le16_to_cpu(d->reason);
		skb = port->rx_skb[port->rx_clean];
		port->rx_skb[port->rx_clean] = NULL;
		dma_unmap_single(dev, port->rx_dma[port->rx_clean],
				 P4NIC_RX_BUF_LEN, DMA_FROM_DEVICE);
		port->rx_clean = p4nic_ring_next(port->rx_clean);
		done++;

		if ((status & P4NIC_DESC_ERROR) || len < ETH_HLEN ||
		    len > P4NIC_RX_BUF_LEN) {
			errors++;
			dev_kfree_skb_any(skb);
			continue;
		}
		/* the device's parse graph rejected it: P4TC drops those */
		if (reason == P4NIC_RX_PARSER) {
			dropped++;
			dev_kfree_skb_any(skb);
			continue;
		}
		skb_put(skb, len);
		/* the device ran the pipeline, or handed the frame over */
		if (p4nic_rx_mark(port, skb, d, reason)) {
			dropped++;
			dev_kfree_skb_any(skb);
			continue;
		}
		skb->protocol = eth_type_trans(skb, port->netdev);
		packets++;
		bytes += len;
		napi_gro_receive(&port->napi, skb);
	}
	u64_stats_update_begin(&port->rx_stats.syncp);
	port->rx_stats.packets += packets;
	port->rx_stats.bytes += bytes;
	port->rx_stats.errors += errors;
	port->rx_stats.dropped += dropped;
	u64_stats_update_end(&port->rx_stats.syncp);
	p4nic_rx_refill(port, GFP_ATOMIC);
	return done;
}

static int p4nic_poll(struct napi_struct *napi, int budget)
{
	struct p4nic_port *port = container_of(napi, struct p4nic_port, napi);
	int done;

	p4nic_tx_clean(port, budget);
	done = p4nic_rx_clean(port, budget);
	if (done < budget)
		napi_complete_done(napi, done);
	return done;
}

/**
 * p4nic_port_irq - a port's TX or RX vector
 * @irq: the vector
 * @data: the port
 *
 * Return: IRQ_HANDLED.
 */
irqreturn_t p4nic_port_irq(int irq, void *data)
{
	struct p4nic_port *port = data;

	napi_schedule(&port->napi);
	return IRQ_HANDLED;
}

/**
 * p4nic_port_set - enable or disable a port on the device
 * @nic: the device
 * @port: the port
 * @enabled: its new state
 *
 * The port runs the loaded pipeline while a p4 filter binds it there
 * (p4nic_offload.c); callers hold RTNL.
 *
 * Return: 0 or a negative errno.
 */
int p4nic_port_set(struct p4nic *nic, u32 port, bool enabled)
{
	u32 p[2] = { port, (enabled ? P4NIC_PORT_ENABLED : 0) |
			   (nic->port_binds[port] ? P4NIC_PORT_PIPELINE : 0) };

	return p4nic_cmd(nic, P4NIC_CMD_PORT_SET, NULL, 0, NULL, 0, p, 2, NULL);
}

/**
 * p4nic_port_query - a port's MAC, state and device counters
 * @nic: the device
 * @port: the port
 * @info: receives them
 *
 * Return: 0 or a negative errno.
 */
int p4nic_port_query(struct p4nic *nic, u32 port,
		     struct p4nic_port_info *info)
{
	return p4nic_cmd(nic, P4NIC_CMD_PORT_QUERY, NULL, 0, info, sizeof(*info),
			 &port, 1, NULL);
}

/**
 * p4nic_port_link_event - the device says a port's link changed
 * @nic: the device
 * @index: the port, as the event gives it (not trusted)
 *
 * struct p4nic's link_event: called by the event interrupt.
 */
void p4nic_port_link_event(struct p4nic *nic, u32 index)
{
	if (index < nic->num_ports && nic->ports[index])
		p4nic_port_link(nic->ports[index]);
	else
		dev_warn_ratelimited(&nic->pdev->dev,
				     "link event for port %u, which does not exist\n",
				     index);
}

/**
 * p4nic_port_link - read the port's link state into the carrier
 * @port: the port
 */
void p4nic_port_link(struct p4nic_port *port)
{
	u32 st = p4nic_rd(port->nic,
			  p4nic_port_reg(port->index, P4NIC_PORT_STATUS));

	if (port->up && (st & P4NIC_PORT_LINK_UP))
		netif_carrier_on(port->netdev);
	else
		netif_carrier_off(port->netdev);
}

/* ------------------------------------------------------------------ */
/* Open and stop                                                       */
/* ------------------------------------------------------------------ */

static void p4nic_rings_free(struct p4nic_port *port)
{
	struct device *dev = &port->nic->pdev->dev;
	u32 i;

	for (i = 0; i < P4NIC_RING_SIZE; i++) {
		if (port->tx_skb && port->tx_skb[i]) {
			dma_unmap_single(dev, port->tx_dma[i],
					 port->tx_skb[i]->len, DMA_TO_DEVICE);
			dev_kfree_skb_any(port->tx_skb[i]);
		}
		if (port->rx_skb && port->rx_skb[i]) {
			dma_unmap_single(dev, port->rx_dma[i], P4NIC_RX_BUF_LEN,
					 DMA_FROM_DEVICE);
			dev_kfree_skb_any(port->rx_skb[i]);
		}
	}
	kfree(port->tx_skb);
	kfree(port->tx_dma);
	kfree(port->rx_skb);
	kfree(port->rx_dma);
	port->tx_skb = NULL;
	port->tx_dma = NULL;
	port->rx_skb = NULL;
	port->rx_dma = NULL;
	if (port->tx_ring)
		dma_free_coherent(dev, P4NIC_RING_SIZE * sizeof(*port->tx_ring),
				  port->tx_ring, port->tx_ring_dma);
	if (port->rx_ring)
		dma_free_coherent(dev, P4NIC_RING_SIZE * sizeof(*port->rx_ring),
				  port->rx_ring, port->rx_ring_dma);
	port->tx_ring = NULL;
	port->rx_ring = NULL;
}

static int p4nic_rings_alloc(struct p4nic_port *port)
{
	struct device *dev = &port->nic->pdev->dev;

	port->tx_ring = dma_alloc_coherent(dev, P4NIC_RING_SIZE *
					   sizeof(*port->tx_ring),
					   &port->tx_ring_dma, GFP_KERNEL);
	port->rx_ring = dma_alloc_coherent(dev, P4NIC_RING_SIZE *
					   sizeof(*port->rx_ring),
					   &port->rx_ring_dma, GFP_KERNEL);
	port->tx_skb = kcalloc(P4NIC_RING_SIZE, sizeof(*port->tx_skb),
			       GFP_KERNEL);
	port->tx_dma = kcalloc(P4NIC_RING_SIZE, sizeof(*port->tx_dma),
			       GFP_KERNEL);
	port->rx_skb = kcalloc(P4NIC_RING_SIZE, sizeof(*port->rx_skb),
			       GFP_KERNEL);
	port->rx_dma = kcalloc(P4NIC_RING_SIZE, sizeof(*port->rx_dma),
			       GFP_KERNEL);
	if (!port->tx_ring || !port->rx_ring || !port->tx_skb ||
	    !port->tx_dma || !port->rx_skb || !port->rx_dma) {
		p4nic_rings_free(port);
		return -ENOMEM;
	}
	port->tx_next = 0;
	port->tx_clean = 0;
	port->rx_next = 0;
	port->rx_clean = 0;
	return 0;
}

/* The rings' addresses and sizes, written while the port is disabled. */
static int p4nic_rings_program(struct p4nic_port *port)
{
	struct p4nic *nic = port->nic;
	u32 p = port->index, errs = p4nic_rd(nic, P4NIC_REG_ERR_COUNT);

	p4nic_wr(nic, p4nic_port_reg(p, P4NIC_PORT_TX_BASE_LO),
		 lower_32_bits(port->tx_ring_dma));
	p4nic_wr(nic, p4nic_port_reg(p, P4NIC_PORT_TX_BASE_HI),
		 upper_32_bits(port->tx_ring_dma));
	p4nic_wr(nic, p4nic_port_reg(p, P4NIC_PORT_TX_SIZE), P4NIC_RING_SIZE);
	p4nic_wr(nic, p4nic_port_reg(p, P4NIC_PORT_RX_BASE_LO),
		 lower_32_bits(port->rx_ring_dma));
	p4nic_wr(nic, p4nic_port_reg(p, P4NIC_PORT_RX_BASE_HI),
		 upper_32_bits(port->rx_ring_dma));
	p4nic_wr(nic, p4nic_port_reg(p, P4NIC_PORT_RX_SIZE), P4NIC_RING_SIZE);
	if (p4nic_rd(nic, P4NIC_REG_ERR_COUNT) != errs) {
		netdev_err(port->netdev,
			   "device refused the ring setup (register 0x%x, reason %u)\n",
			   P4NIC_ERR_OFFSET(p4nic_rd(nic, P4NIC_REG_ERR_LAST)),
			   P4NIC_ERR_WHY(p4nic_rd(nic, P4NIC_REG_ERR_LAST)));
		return -EIO;
	}
	return 0;
}

static int p4nic_open(struct net_device *netdev)
{
	struct p4nic_port *port = netdev_priv(netdev);
	int ret;

	ret = p4nic_rings_alloc(port);
	if (ret)
		return ret;
	ret = p4nic_rings_program(port);
	if (ret)
		goto free;
	p4nic_rx_refill(port, GFP_KERNEL);
	napi_enable(&port->napi);
	ret = p4nic_port_set(port->nic, port->index, true);
	if (ret) {
		netdev_err(netdev, "the device would not enable the port: %d\n",
			   ret);
		goto napi_off;
	}
	port->up = true;
	p4nic_port_link(port);
	netif_start_queue(netdev);
	return 0;

napi_off:
	napi_disable(&port->napi);
free:
	p4nic_rings_free(port);
	return ret;
}

static int p4nic_stop(struct net_device *netdev)
{
	struct p4nic_port *port = netdev_priv(netdev);
	int ret;

	/* a port that did not run again after a reset holds nothing */
	if (!port->tx_ring) {
		netif_tx_disable(netdev);
		return 0;
	}
	port->up = false;
	/* NAPI first: its TX clean wakes a stopped queue that has room, and
	 * would wake it again after the netif_tx_disable() below.  That
	 * takes the queue's xmit lock, so a p4nic_start_xmit() running on
	 * another CPU ends before the rings go.  A close through the stack
	 * has quiesced the queue already, a function reset has not (the
	 * port is only detached: p4nic_port_quiesce()).
	 */
	napi_disable(&port->napi);
	netif_tx_disable(netdev);
	netif_carrier_off(netdev);
	/* a disabled port does no DMA: the rings can go.  A device that
	 * refuses (or is dead) may still write them: reset it first.
	 */
	ret = p4nic_port_set(port->nic, port->index, false);
	if (ret) {
		netdev_warn(netdev, "the device would not disable the port: %d\n",
			    ret);
		p4nic_halt(port->nic, "a port could not be disabled");
	}
	p4nic_rings_free(port);
	return 0;
}

/**
 * p4nic_port_quiesce - before a function reset: the port stops and lets
 * go of its rings; the stack sees it detached, not down
 * @port: the port
 *
 * Called with RTNL held.
 */
void p4nic_port_quiesce(struct p4nic_port *port)
{
	netif_device_detach(port->netdev);
	if (netif_running(port->netdev))
		p4nic_stop(port->netdev);
}

/**
 * p4nic_port_resume - after a function reset: the port runs again as it
 * did before p4nic_port_quiesce()
 * @port: the port
 *
 * Called with RTNL held.
 */
void p4nic_port_resume(struct p4nic_port *port)
{
	int ret;

	if (netif_running(port->netdev)) {
		ret = p4nic_open(port->netdev);
		if (ret) {
			netdev_err(port->netdev,
				   "cannot run again after the reset: %d\n", ret);
			return;
		}
	}
	netif_device_attach(port->netdev);
}

static void p4nic_get_stats64(struct net_device *netdev,
			      struct rtnl_link_stats64 *s)
{
	struct p4nic_port *port = netdev_priv(netdev);
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&port->rx_stats.syncp);
		s->rx_packets = port->rx_stats.packets;
		s->rx_bytes = port->rx_stats.bytes;
		s->rx_errors = port->rx_stats.errors;
		s->rx_dropped = port->rx_stats.dropped;
	} while (u64_stats_fetch_retry(&port->rx_stats.syncp, start));
	do {
		start = u64_stats_fetch_begin(&port->tx_stats.syncp);
		s->tx_packets = port->tx_stats.packets;
		s->tx_bytes = port->tx_stats.bytes;
		s->tx_errors = port->tx_stats.errors;
	} while (u64_stats_fetch_retry(&port->tx_stats.syncp, start));
}

static const struct net_device_ops p4nic_netdev_ops = {
	.ndo_open		= p4nic_open,
	.ndo_stop		= p4nic_stop,
	.ndo_start_xmit		= p4nic_start_xmit,
	.ndo_get_stats64	= p4nic_get_stats64,
	.ndo_set_mac_address	= eth_mac_addr,
	.ndo_validate_addr	= eth_validate_addr,
	.ndo_setup_tc		= p4nic_setup_tc,
	.ndo_set_features	= p4nic_set_features,
};

/* ------------------------------------------------------------------ */
/* Life                                                                */
/* ------------------------------------------------------------------ */

/* Request (or free) the port's TX and RX vectors. */
static int p4nic_port_irqs(struct p4nic_port *port, bool request)
{
	struct p4nic *nic = port->nic;
	u32 v[2] = { P4NIC_VEC_TX(port->index), P4NIC_VEC_RX(port->index) };
	int i, ret;

	if (!request) {
		for (i = 0; i < 2; i++)
			free_irq(pci_irq_vector(nic->pdev, v[i]), port);
		return 0;
	}
	for (i = 0; i < 2; i++) {
		snprintf(nic->irq_names[v[i]], sizeof(nic->irq_names[v[i]]),
			 "p4nic%u-%s@%s", port->index, i ? "rx" : "tx",
			 pci_name(nic->pdev));
		ret = request_irq(pci_irq_vector(nic->pdev, v[i]),
				  p4nic_port_irq, 0, nic->irq_names[v[i]], port);
		if (ret) {
			if (i)
				free_irq(pci_irq_vector(nic->pdev, v[0]), port);
			return ret;
		}
	}
	return 0;
}

/**
 * p4nic_port_create - the netdev of a device port
 * @nic: the device
 * @index: the port
 *
 * Return: 0 or a negative errno; on success nic->ports[index] is set.
 */
int p4nic_port_create(struct p4nic *nic, u32 index)
{
	struct net_device *netdev;
	struct p4nic_port *port;
	u8 mac[ETH_ALEN];
	u32 lo, hi;
	int ret;

	netdev = alloc_etherdev(sizeof(*port));
	if (!netdev)
		return -ENOMEM;
	SET_NETDEV_DEV(netdev, &nic->pdev->dev);
	port = netdev_priv(netdev);
	port->nic = nic;
	port->netdev = netdev;
	port->index = index;
	u64_stats_init(&port->tx_stats.syncp);
	u64_stats_init(&port->rx_stats.syncp);

	lo = p4nic_rd(nic, p4nic_port_reg(index, P4NIC_PORT_MAC_LO));
	hi = p4nic_rd(nic, p4nic_port_reg(index, P4NIC_PORT_MAC_HI));
	mac[0] = lo;
	mac[1] = lo >> 8;
	mac[2] = lo >> 16;
	mac[3] = lo >> 24;
	mac[4] = hi;
	mac[5] = hi >> 8;
	if (is_valid_ether_addr(mac)) {
		eth_hw_addr_set(netdev, mac);
	} else {
		dev_warn(&nic->pdev->dev, "port %u: invalid MAC %pM, using a random one\n",
			 index, mac);
		eth_hw_addr_random(netdev);
	}
	netdev->netdev_ops = &p4nic_netdev_ops;
	netdev->hw_features |= NETIF_F_HW_TC;
	netdev->features |= NETIF_F_HW_TC;
	netdev->ethtool_ops = &p4nic_ethtool_ops;
	netdev->min_mtu = ETH_MIN_MTU;
	netdev->max_mtu = P4NIC_RX_BUF_LEN - ETH_HLEN - NET_IP_ALIGN -
			  VLAN_HLEN;
	netdev->dev_port = index;
	netif_napi_add(netdev, &port->napi, p4nic_poll);
	netif_carrier_off(netdev);

	/* the vectors before the netdev: it may be opened at once */
	ret = p4nic_port_irqs(port, true);
	if (ret)
		goto napi;
	nic->ports[index] = port;
	ret = register_netdev(netdev);
	if (ret)
		goto irqs;
	return 0;

irqs:
	nic->ports[index] = NULL;
	p4nic_port_irqs(port, false);
napi:
	netif_napi_del(&port->napi);
	free_netdev(netdev);
	return ret;
}

/* a failed probe after some ports exist (tests/guest/p4nic-hostile-device.sh) */
ALLOW_ERROR_INJECTION(p4nic_port_create, ERRNO);

/**
 * p4nic_port_destroy - unregister a port's netdev (closing it first)
 * @port: the port
 */
void p4nic_port_destroy(struct p4nic_port *port)
{
	struct net_device *netdev = port->netdev;

	unregister_netdev(netdev);
	p4nic_port_irqs(port, false);
	port->nic->ports[port->index] = NULL;
	netif_napi_del(&port->napi);
	free_netdev(netdev);
}
