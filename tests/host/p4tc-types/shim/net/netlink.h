/* Userspace stand-in for <net/netlink.h>: extack messages only. */
#ifndef P4TC_SHIM_NET_NETLINK_H
#define P4TC_SHIM_NET_NETLINK_H
struct netlink_ext_ack {
	const char *_msg;
};
#define NL_SET_ERR_MSG(extack, msg) do { \
	if (extack) \
		(extack)->_msg = (msg); \
} while (0)
#endif
