/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for WARN_ON_ONCE(): counts every true condition in
 * shim_warnings (the tests check it) and prints the first one.
 */
#ifndef _SHIM_LINUX_BUG_H
#define _SHIM_LINUX_BUG_H
#include <stdio.h>
#include <linux/compiler.h>

extern unsigned long shim_warnings;

#define WARN_ON_ONCE(cond) ({						\
	int __c = !!(cond);						\
	if (unlikely(__c)) {						\
		if (!shim_warnings++)					\
			fprintf(stderr, "WARNING: %s:%d: %s\n",		\
				__FILE__, __LINE__, #cond);		\
	}								\
	unlikely(__c);							\
})
#endif
