/* Userspace stand-in for <linux/kernel.h>: what p4tc_types.c uses. */
#ifndef P4TC_SHIM_LINUX_KERNEL_H
#define P4TC_SHIM_LINUX_KERNEL_H
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <linux/types.h>

/* scnprintf: like snprintf, but returns what was written */
static inline int scnprintf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!len)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return 0;
	return (size_t)n >= len ? (int)len - 1 : n;
}

extern char shim_last_print[256];
#define pr_info(...) snprintf(shim_last_print, sizeof(shim_last_print), __VA_ARGS__)
#endif
