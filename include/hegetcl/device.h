/* SPDX-License-Identifier: MIT */
/* OpenCL devices and the hegetcl context that owns one device, its queue and its programs. */
#ifndef HEGETCL_DEVICE_H
#define HEGETCL_DEVICE_H

#include <stddef.h>

#include "hegetcl/cl.h"
#include "hegetcl/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What hegetcl reports about a device, and writes into every output. */
typedef struct {
  unsigned platform_index, device_index;
  char platform[128];
  char name[128];
  char vendor[128];
  char driver_version[64];
  char device_version[64];   /* CL_DEVICE_VERSION, e.g. "OpenCL 3.0 CUDA" */
  char opencl_c_version[64]; /* CL_DEVICE_OPENCL_C_VERSION */
  int is_gpu;                /* CL_DEVICE_TYPE_GPU */
  int has_fp64;              /* cl_khr_fp64 listed */
  unsigned compute_units;
  unsigned long long global_memory_bytes;
  unsigned long long local_memory_bytes; /* CL_DEVICE_LOCAL_MEM_SIZE, a work-group's at most */
  unsigned long long max_buffer_bytes;   /* CL_DEVICE_MAX_MEM_ALLOC_SIZE, one buffer's at most */
  int auto_without_gpu; /* spec "auto" (or none) found no GPU and took this device instead */
} hegetcl_device_info;

/* A context: one device, its queue, its built programs and the last error message. Thread
 * safety: a context, and every object made from it (amplitudes, user programs), is used by one
 * thread at a time; different contexts may be used from different threads at once (each has its
 * own queue and program cache). Functions without a context (names, parsers, defaults,
 * hegetcl_device_list, hegetcl_version) may be called from any thread. */
typedef struct hegetcl_context hegetcl_context;

/* Lists every device of every platform into infos[0..capacity) and sets *count to how many there
 * are (which may exceed capacity). No platform at all is HEGETCL_ERR_NO_DEVICE, with the ICD hint
 * written into message (message_size bytes, may be 0). */
hegetcl_status hegetcl_device_list(hegetcl_device_info *infos, size_t capacity, size_t *count,
                                   char *message, size_t message_size);

/* Creates a context on the device that spec names:
 *   NULL, "" or "auto"  a GPU if there is one (the first by platform, device order), else the
 *                       first device, such as PoCL's CPU device; hegetcl_context_device reports
 *                       the choice, with auto_without_gpu set when no GPU was found (a caller
 *                       should say so: the run is on the CPU);
 *   "gpu", "cpu"        the only device of that type (several: HEGETCL_ERR_INPUT listing them);
 *   "P:D"               platform index P, device index D;
 *   any other text      the only device whose platform, name or vendor contains it (case-blind).
 * *out is set even on failure (unless memory ran out), so hegetcl_last_error can be read; destroy
 * it either way. HEGETCL_DEVICE, when set, is used where spec is NULL. */
hegetcl_status hegetcl_context_create(const char *spec, hegetcl_context **out);

/* Releases the context and every program and buffer it owns; NULL is a no-op. */
void hegetcl_context_destroy(hegetcl_context *ctx);

/* The message of the last failure on this context ("" if none). */
const char *hegetcl_last_error(const hegetcl_context *ctx);

/* The context's device. */
hegetcl_status hegetcl_context_device(const hegetcl_context *ctx, hegetcl_device_info *out);

/* The OpenCL objects the context owns, for callers that keep their own data on the device
 * (hegetcl_amplitude_evaluate_buffers) or launch their own kernels (hegetcl_user_program_build).
 * They stay the context's: use them while it lives, and retain any you keep longer. The queue is
 * in order, with profiling enabled. Any pointer may be NULL. */
hegetcl_status hegetcl_context_opencl(const hegetcl_context *ctx, cl_context *context,
                                      cl_device_id *device, cl_command_queue *queue);

#ifdef __cplusplus
}
#endif
#endif
