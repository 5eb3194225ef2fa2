/* SPDX-License-Identifier: MIT */
/* Text formatted by worker threads and written in order: items (fixed-size records, e.g. events
 * with their weights) are gathered in batches; each batch is turned into text by a worker calling
 * format, and the batches' texts go to the output in the order the items came. The text is what
 * formatting the items one by one in this thread would give. */
#ifndef HG_IO_TEXT_POOL_H
#define HG_IO_TEXT_POOL_H

#include <stddef.h>

#include "io/format_real.h"
#include "io/output_file.h"

typedef struct hg_text_pool hg_text_pool;

/* Writes count items (item_size bytes apart) as text into t. */
typedef void (*hg_text_pool_format)(void *user, const unsigned char *items, size_t count,
                                    size_t item_size, hg_text *t);

/* threads workers (0: the online CPUs, at most 16; HEGETCL_FORMAT_THREADS overrides), batches of
 * batch_items items. NULL without memory or threads, or when one thread is asked for (the caller
 * then formats in its own thread). */
hg_text_pool *hg_text_pool_create(unsigned threads, size_t item_size, size_t batch_items,
                                  hg_text_pool_format format, void *user, hg_output *out);

/* Storage for the next item (item_size bytes, 8-byte aligned), filled by the caller before the
 * next call; a full batch is handed to the workers and finished batches are written. NULL when
 * the output has failed (hg_output_status says why) or without memory. */
void *hg_text_pool_item(hg_text_pool *p);

/* Every item so far formatted and written to the output; returns hg_output_status (or
 * HEGETCL_ERR_NO_MEMORY). */
int hg_text_pool_drain(hg_text_pool *p);

/* Stops the workers and frees p, without writing what is pending (drain first to keep it). */
void hg_text_pool_destroy(hg_text_pool *p);

/* The number of threads of the pool (1 when none is made). */
unsigned hg_text_pool_threads(unsigned asked);

#endif
