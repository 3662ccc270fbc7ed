// SPDX-License-Identifier: GPL-2.0
/*
 * p4nic ethtool: driver info, link, ring sizes, and statistics: the
 * driver's own counters and the device's per-port counters (PORT_QUERY),
 * which also count what the pipeline did in hardware.
 */
#include <linux/ethtool.h>
#include "p4nic.h"

static void p4nic_get_drvinfo(struct net_device *netdev,
			      struct ethtool_drvinfo *info)
{
	struct p4nic_port *port = netdev_priv(netdev);
	struct p4nic *nic = port->nic;
	u32 fw = le32_to_cpu(nic->identity.fw_version);

	strscpy(info->driver, P4NIC_DRV_NAME, sizeof(info->driver));
	/* as devlink says them: fw, then fw.mgmt.api */
	if (fw)
		snprintf(info->fw_version, sizeof(info->fw_version),
			 "%u.%u.%u (ABI %u.%u)", fw >> 16, (fw >> 8) & 0xff,
			 fw & 0xff, le16_to_cpu(nic->identity.abi_major),
			 le16_to_cpu(nic->identity.abi_minor));
	else
		snprintf(info->fw_version, sizeof(info->fw_version),
			 "ABI %u.%u", le16_to_cpu(nic->identity.abi_major),
			 le16_to_cpu(nic->identity.abi_minor));
	strscpy(info->bus_info, pci_name(nic->pdev), sizeof(info->bus_info));
}

static void p4nic_get_ringparam(struct net_device *netdev,
				struct ethtool_ringparam *ring,
				struct kernel_ethtool_ringparam *kring,
				struct netlink_ext_ack *extack)
{
	ring->rx_max_pending = P4NIC_RING_SIZE - 1;
	ring->tx_max_pending = P4NIC_RING_SIZE - 1;
	ring->rx_pending = P4NIC_RING_SIZE - 1;
	ring->tx_pending = P4NIC_RING_SIZE - 1;
}

/* ethtool -S: the driver's counters, then the device's. */
static const char p4nic_stat_names[][ETH_GSTRING_LEN] = {
	"rx_packets", "rx_bytes", "rx_desc_errors", "rx_parser_drops",
	"tx_packets", "tx_bytes", "tx_desc_errors",
	"hw_wire_rx_packets", "hw_wire_rx_bytes",
	"hw_wire_tx_packets", "hw_wire_tx_bytes",
	"hw_to_host", "hw_pipeline_drops", "hw_no_buffer",
};

#define P4NIC_NUM_STATS ARRAY_SIZE(p4nic_stat_names)

static int p4nic_get_sset_count(struct net_device *netdev, int sset)
{
	return sset == ETH_SS_STATS ? P4NIC_NUM_STATS : -EOPNOTSUPP;
}

static void p4nic_get_strings(struct net_device *netdev, u32 sset, u8 *data)
{
	if (sset == ETH_SS_STATS)
		memcpy(data, p4nic_stat_names, sizeof(p4nic_stat_names));
}

static void p4nic_get_ethtool_stats(struct net_device *netdev,
				    struct ethtool_stats *stats, u64 *data)
{
	struct p4nic_port *port = netdev_priv(netdev);
	struct p4nic_port_info pi = {};
	unsigned int start;
	int i = 0;

	do {
		start = u64_stats_fetch_begin(&port->rx_stats.syncp);
		data[0] = port->rx_stats.packets;
		data[1] = port->rx_stats.bytes;
		data[2] = port->rx_stats.errors;
		data[3] = port->rx_stats.dropped;
	} while (u64_stats_fetch_retry(&port->rx_stats.syncp, start));
	do {
		start = u64_stats_fetch_begin(&port->tx_stats.syncp);
		data[4] = port->tx_stats.packets;
		data[5] = port->tx_stats.bytes;
		data[6] = port->tx_stats.errors;
	} while (u64_stats_fetch_retry(&port->tx_stats.syncp, start));
	i = 7;
	/* the device's counters; zeros if it cannot answer */
	if (p4nic_port_query(port->nic, port->index, &pi))
		netdev_warn_once(netdev, "the device did not report its counters\n");
	data[i++] = le64_to_cpu(pi.rx_packets);
	data[i++] = le64_to_cpu(pi.rx_bytes);
	data[i++] = le64_to_cpu(pi.tx_packets);
	data[i++] = le64_to_cpu(pi.tx_bytes);
	data[i++] = le64_to_cpu(pi.to_host);
	data[i++] = le64_to_cpu(pi.dropped);
	data[i++] = le64_to_cpu(pi.no_buffer);
}

const struct ethtool_ops p4nic_ethtool_ops = {
	.get_drvinfo		= p4nic_get_drvinfo,
	.get_link		= ethtool_op_get_link,
	.get_ringparam		= p4nic_get_ringparam,
	.get_sset_count		= p4nic_get_sset_count,
	.get_strings		= p4nic_get_strings,
	.get_ethtool_stats	= p4nic_get_ethtool_stats,
};
