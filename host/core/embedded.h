/* SPDX-License-Identifier: MIT */
/* The cl/ sources compiled into the library by host/embed_cl.py. */
#ifndef HG_EMBEDDED_H
#define HG_EMBEDDED_H

#include <stddef.h>

typedef struct {
  const char *path; /* relative to cl/, e.g. "amplitudes/kernels.cl" */
  const unsigned char *data; /* includes inlined, not NUL-terminated */
  size_t size;
} hg_embedded_file;

extern const hg_embedded_file hg_embedded_files[];
extern const size_t hg_embedded_count;

#endif
