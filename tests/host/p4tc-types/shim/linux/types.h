/* Userspace stand-in for the kernel's <linux/types.h> (host unit tests). */
#ifndef P4TC_SHIM_LINUX_TYPES_H
#define P4TC_SHIM_LINUX_TYPES_H
#include_next <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;
#define BIT(n) (1UL << (n))
#endif
