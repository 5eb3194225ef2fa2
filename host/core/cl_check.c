/* SPDX-License-Identifier: MIT */
/* OpenCL error names and the context's error message: every failure says what, where and why. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "context.h"

const char *hg_cl_error_name(cl_int code) {
  switch (code) {
#define HG_CL_CODE(name)                                                                           \
  case name:                                                                                       \
    return #name;
    HG_CL_CODE(CL_SUCCESS)
    HG_CL_CODE(CL_DEVICE_NOT_FOUND)
    HG_CL_CODE(CL_DEVICE_NOT_AVAILABLE)
    HG_CL_CODE(CL_COMPILER_NOT_AVAILABLE)
    HG_CL_CODE(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    HG_CL_CODE(CL_OUT_OF_RESOURCES)
    HG_CL_CODE(CL_OUT_OF_HOST_MEMORY)
    HG_CL_CODE(CL_PROFILING_INFO_NOT_AVAILABLE)
    HG_CL_CODE(CL_MEM_COPY_OVERLAP)
    HG_CL_CODE(CL_IMAGE_FORMAT_MISMATCH)
    HG_CL_CODE(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    HG_CL_CODE(CL_BUILD_PROGRAM_FAILURE)
    HG_CL_CODE(CL_MAP_FAILURE)
    HG_CL_CODE(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    HG_CL_CODE(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    HG_CL_CODE(CL_COMPILE_PROGRAM_FAILURE)
    HG_CL_CODE(CL_LINKER_NOT_AVAILABLE)
    HG_CL_CODE(CL_LINK_PROGRAM_FAILURE)
    HG_CL_CODE(CL_DEVICE_PARTITION_FAILED)
    HG_CL_CODE(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    HG_CL_CODE(CL_INVALID_VALUE)
    HG_CL_CODE(CL_INVALID_DEVICE_TYPE)
    HG_CL_CODE(CL_INVALID_PLATFORM)
    HG_CL_CODE(CL_INVALID_DEVICE)
    HG_CL_CODE(CL_INVALID_CONTEXT)
    HG_CL_CODE(CL_INVALID_QUEUE_PROPERTIES)
    HG_CL_CODE(CL_INVALID_COMMAND_QUEUE)
    HG_CL_CODE(CL_INVALID_HOST_PTR)
    HG_CL_CODE(CL_INVALID_MEM_OBJECT)
    HG_CL_CODE(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    HG_CL_CODE(CL_INVALID_IMAGE_SIZE)
    HG_CL_CODE(CL_INVALID_SAMPLER)
    HG_CL_CODE(CL_INVALID_BINARY)
    HG_CL_CODE(CL_INVALID_BUILD_OPTIONS)
    HG_CL_CODE(CL_INVALID_PROGRAM)
    HG_CL_CODE(CL_INVALID_PROGRAM_EXECUTABLE)
    HG_CL_CODE(CL_INVALID_KERNEL_NAME)
    HG_CL_CODE(CL_INVALID_KERNEL_DEFINITION)
    HG_CL_CODE(CL_INVALID_KERNEL)
    HG_CL_CODE(CL_INVALID_ARG_INDEX)
    HG_CL_CODE(CL_INVALID_ARG_VALUE)
    HG_CL_CODE(CL_INVALID_ARG_SIZE)
    HG_CL_CODE(CL_INVALID_KERNEL_ARGS)
    HG_CL_CODE(CL_INVALID_WORK_DIMENSION)
    HG_CL_CODE(CL_INVALID_WORK_GROUP_SIZE)
    HG_CL_CODE(CL_INVALID_WORK_ITEM_SIZE)
    HG_CL_CODE(CL_INVALID_GLOBAL_OFFSET)
    HG_CL_CODE(CL_INVALID_EVENT_WAIT_LIST)
    HG_CL_CODE(CL_INVALID_EVENT)
    HG_CL_CODE(CL_INVALID_OPERATION)
    HG_CL_CODE(CL_INVALID_GL_OBJECT)
    HG_CL_CODE(CL_INVALID_BUFFER_SIZE)
    HG_CL_CODE(CL_INVALID_MIP_LEVEL)
    HG_CL_CODE(CL_INVALID_GLOBAL_WORK_SIZE)
    HG_CL_CODE(CL_INVALID_PROPERTY)
    HG_CL_CODE(CL_INVALID_IMAGE_DESCRIPTOR)
    HG_CL_CODE(CL_INVALID_COMPILER_OPTIONS)
    HG_CL_CODE(CL_INVALID_LINKER_OPTIONS)
    HG_CL_CODE(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef HG_CL_CODE
  case -1001:
    return "CL_PLATFORM_NOT_FOUND_KHR";
  default:
    return NULL;
  }
}

hegetcl_status hg_vfail(hegetcl_context *ctx, hegetcl_status status, const char *fmt,
                        va_list ap) {
  if (ctx == NULL) return status;
  va_list copy;
  va_copy(copy, ap);
  const int length = vsnprintf(NULL, 0, fmt, copy);
  va_end(copy);
  char *text = length >= 0 ? malloc((size_t)length + 1) : NULL;
  if (text != NULL) {
    vsnprintf(text, (size_t)length + 1, fmt, ap);
    pthread_mutex_lock(&ctx->lock);
    free(ctx->message);
    ctx->message = text;
    pthread_mutex_unlock(&ctx->lock);
  }
  return status;
}

hegetcl_status hg_fail(hegetcl_context *ctx, hegetcl_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  hg_vfail(ctx, status, fmt, ap);
  va_end(ap);
  return status;
}

hegetcl_status hg_cl_check(hegetcl_context *ctx, cl_int err, const char *call, const char *fmt,
                           ...) {
  if (err == CL_SUCCESS) return HEGETCL_OK;
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  const char *name = hg_cl_error_name(err);
  char unknown[48];
  if (name == NULL) {
    snprintf(unknown, sizeof unknown, "unknown OpenCL error %d", (int)err);
    name = unknown;
  }
  /* the device's memory (or, for CL_OUT_OF_RESOURCES, its other resources) ran out: the batch
   * sets the size of every buffer and launch, so a smaller one is the fix */
  const int device_memory = err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES ||
                            err == CL_INVALID_BUFFER_SIZE;
  const char *device = ctx != NULL && ctx->info.name[0] ? ctx->info.name : "(no device yet)";
  const char *hint = "";
  if (device_memory)
    hint = ": the device ran out of memory or resources; lower the batch (hegetcl xsec --batch, "
           "events per launch) or pass fewer events per call";
  else if (err == CL_OUT_OF_HOST_MEMORY)
    hint = ": the host ran out of memory; lower the batch or free memory";
  return hg_fail(ctx,
                 device_memory                  ? HEGETCL_ERR_DEVICE_MEMORY
                 : err == CL_OUT_OF_HOST_MEMORY ? HEGETCL_ERR_NO_MEMORY
                                                : HEGETCL_ERR_OPENCL,
                 "%s: %s (%d) %s, on %s%s", call, name, (int)err, what, device, hint);
}

double hg_now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
