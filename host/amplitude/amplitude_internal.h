/* SPDX-License-Identifier: MIT */
/* The amplitude object's insides, for the host files that launch its kernels (bench, pipelines). */
#ifndef HG_AMPLITUDE_INTERNAL_H
#define HG_AMPLITUDE_INTERNAL_H

#include <stddef.h>

#include "core/context.h"
#include "hegetcl/amplitude.h"

struct hegetcl_amplitude {
  hegetcl_context *ctx;
  hegetcl_process process;
  char options[512];
  cl_program program; /* owned by the context's cache */
  cl_kernel summed, helicity;
  cl_mem momenta, helicities, me; /* kept between calls, grown as needed */
  void *staging;                  /* host copy in the program's precision */
  size_t capacity;                /* events the buffers hold */
  size_t local_size;              /* 0: chosen from the kernel's limits */
  double build_seconds;           /* 0 when the program came from the cache */
};

/* Sizeof the program's REAL. */
size_t hg_amplitude_real_size(const hegetcl_amplitude *amp);

/* The local size for a kernel: the one set, checked against the kernel's limit, or the largest
 * power-of-two multiple of the preferred multiple up to 128. */
hegetcl_status hg_amplitude_local_size(hegetcl_amplitude *amp, cl_kernel kernel, size_t *local);

/* Sets arguments 0..3 (momenta, n_events, coupling, me_factor) of an amplitude kernel; *next is
 * the index of the next argument. */
hegetcl_status hg_amplitude_set_common_args(hegetcl_amplitude *amp, cl_kernel kernel,
                                            cl_mem momenta, cl_uint n_events, cl_uint *next);

#endif
