/* SPDX-License-Identifier: MIT */
/* The hegetcl context's insides, shared by the host C files (not installed). */
#ifndef HG_CONTEXT_H
#define HG_CONTEXT_H

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>

#include <CL/cl.h>

#include "hegetcl/device.h"

/* One built program, keyed by its sources' identity and its options. */
typedef struct {
  char *key;
  cl_program program;
  double build_seconds;
} hg_program_entry;

struct hegetcl_context {
  cl_platform_id platform;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  hegetcl_device_info info;
  char *message; /* last error, owned */
  hg_program_entry *programs;
  size_t n_programs, programs_capacity;
  /* programs loaded from and stored into the disk cache (program_cache.c), for tests */
  unsigned long programs_loaded, programs_stored;
  /* guards message, the program list and the counts: programs may be built from several host
   * threads at once (hg_program_get; the OpenCL calls themselves are thread-safe); built is
   * signalled when a program being built is ready (or its build failed) */
  pthread_mutex_t lock;
  pthread_cond_t built;
};

/* Records a formatted message as the context's last error and returns status. */
hegetcl_status hg_fail(hegetcl_context *ctx, hegetcl_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
hegetcl_status hg_vfail(hegetcl_context *ctx, hegetcl_status status, const char *fmt, va_list ap);

/* The name of an OpenCL error code ("CL_INVALID_VALUE"), or NULL for an unknown one. */
const char *hg_cl_error_name(cl_int code);

/* HEGETCL_OK for CL_SUCCESS; otherwise records "<call>: <NAME> (<code>) <what>, on <device>" and
 * returns HEGETCL_ERR_OPENCL (HEGETCL_ERR_NO_MEMORY for the out-of-resources codes, with a hint). */
hegetcl_status hg_cl_check(hegetcl_context *ctx, cl_int err, const char *call, const char *fmt,
                           ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Wall clock in seconds. */
double hg_now_seconds(void);

#endif
