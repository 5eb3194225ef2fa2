/* SPDX-License-Identifier: MIT */
/* Independent host work items (building the groups' programs) over a few threads. */
#ifndef HG_PARALLEL_H
#define HG_PARALLEL_H

#include <stddef.h>

#include "hegetcl/status.h"

/* Runs work(i, user) for i = 0 .. n - 1 on up to hg_build_threads() threads (the caller's among
 * them), each i once, in no set order; returns the status of the lowest i that failed, or
 * HEGETCL_OK. Every item runs even when another failed. */
hegetcl_status hg_parallel_for(size_t n, hegetcl_status (*work)(size_t i, void *user), void *user);

/* Threads for program builds: HEGETCL_BUILD_THREADS when set (1 to 256), else 1 (one after
 * another: Oclgrind 21.10 crashes when two threads build at once). */
unsigned hg_build_threads(void);

#endif
