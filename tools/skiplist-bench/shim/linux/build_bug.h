/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _SHIM_LINUX_BUILD_BUG_H
#define _SHIM_LINUX_BUILD_BUG_H
#include <assert.h>	/* static_assert() */
#endif
