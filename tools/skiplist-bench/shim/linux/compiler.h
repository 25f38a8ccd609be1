/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <linux/compiler.h> and the IS_ENABLED() of <linux/kconfig.h>. */
#ifndef _SHIM_LINUX_COMPILER_H
#define _SHIM_LINUX_COMPILER_H
#include <linux/types.h>

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#ifndef __always_inline
#define __always_inline	inline __attribute__((__always_inline__))
#endif
#define READ_ONCE(x)	(*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, val) do { *(volatile typeof(x) *)&(x) = (val); } while (0)

/* IS_ENABLED(CONFIG_FOO): 1 if CONFIG_FOO is defined to 1, else 0. */
#define __SHIM_ARG_PLACEHOLDER_1 0,
#define __shim_second(ignored, val, ...) val
#define __shim_defined(x) ___shim_defined(x)
#define ___shim_defined(val) ____shim_defined(__SHIM_ARG_PLACEHOLDER_##val)
#define ____shim_defined(arg1_or_junk) __shim_second(arg1_or_junk 1, 0, 0)
#define IS_ENABLED(option) __shim_defined(option)
#endif
