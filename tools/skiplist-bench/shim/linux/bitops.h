/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _SHIM_LINUX_BITOPS_H
#define _SHIM_LINUX_BITOPS_H
/* __ffs(): index of the lowest set bit; undefined for 0, as in the kernel. */
static inline unsigned long __ffs(unsigned long word)
{
	return __builtin_ctzl(word);
}
#endif
