/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim: just enough of the kernel's types for skiplist.h and rbtree.h. */
#ifndef _SHIM_LINUX_TYPES_H
#define _SHIM_LINUX_TYPES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef unsigned long long u64;	/* as in the kernel, not uint64_t */
typedef uint32_t u32;
typedef uint16_t u16;
typedef uint8_t u8;
typedef int64_t s64;
typedef int32_t s32;
#endif
