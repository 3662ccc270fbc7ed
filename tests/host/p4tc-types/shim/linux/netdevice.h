/* Userspace stand-in for <linux/netdevice.h>: one fake device, ifindex 7. */
#ifndef P4TC_SHIM_LINUX_NETDEVICE_H
#define P4TC_SHIM_LINUX_NETDEVICE_H
struct net;
struct net_device {
	char name[16];
};
struct net_device *dev_get_by_index_rcu(struct net *net, int ifindex);
#define rcu_read_lock() do { } while (0)
#define rcu_read_unlock() do { } while (0)
#endif
