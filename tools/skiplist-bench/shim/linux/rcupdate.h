/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim: the two RCU accessors lib/rbtree.c uses, single threaded. */
#ifndef _SHIM_LINUX_RCUPDATE_H
#define _SHIM_LINUX_RCUPDATE_H
#include <linux/compiler.h>
#define rcu_assign_pointer(p, v)	WRITE_ONCE(p, v)
#define rcu_dereference_raw(p)		READ_ONCE(p)
#endif
