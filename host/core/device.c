/* SPDX-License-Identifier: MIT */
/* Lists OpenCL devices, picks the one a spec names, and creates the context and queue on it. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "hegetcl/version.h"

#define HG_MAX_PLATFORMS 16
#define HG_MAX_DEVICES 64

/* Reads a string property into dst (size bytes), cut short with "..." when it is longer. */
static void get_string(cl_platform_id platform, cl_device_id device, cl_uint param, char *dst,
                       size_t size) {
  size_t needed = 0;
  cl_int err = device != NULL ? clGetDeviceInfo(device, param, 0, NULL, &needed)
                              : clGetPlatformInfo(platform, param, 0, NULL, &needed);
  char *full = err == CL_SUCCESS && needed > 0 ? malloc(needed) : NULL;
  if (full != NULL)
    err = device != NULL ? clGetDeviceInfo(device, param, needed, full, NULL)
                         : clGetPlatformInfo(platform, param, needed, full, NULL);
  if (full == NULL || err != CL_SUCCESS) {
    snprintf(dst, size, "?");
  } else {
    full[needed - 1] = '\0';
    snprintf(dst, size, "%s", full);
    if (strlen(full) >= size && size > 4) memcpy(dst + size - 4, "...", 4);
  }
  free(full);
}

static void fill_info(cl_platform_id platform, cl_device_id device, unsigned p, unsigned d,
                      hegetcl_device_info *info) {
  memset(info, 0, sizeof *info);
  info->platform_index = p;
  info->device_index = d;
  get_string(platform, NULL, CL_PLATFORM_NAME, info->platform, sizeof info->platform);
  get_string(platform, device, CL_DEVICE_NAME, info->name, sizeof info->name);
  get_string(platform, device, CL_DEVICE_VENDOR, info->vendor, sizeof info->vendor);
  get_string(platform, device, CL_DRIVER_VERSION, info->driver_version,
             sizeof info->driver_version);
  get_string(platform, device, CL_DEVICE_VERSION, info->device_version,
             sizeof info->device_version);
  get_string(platform, device, CL_DEVICE_OPENCL_C_VERSION, info->opencl_c_version,
             sizeof info->opencl_c_version);
  cl_device_type type = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, NULL) == CL_SUCCESS)
    info->is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
  cl_uint units = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL) ==
      CL_SUCCESS)
    info->compute_units = units;
  cl_ulong memory = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof memory, &memory, NULL) ==
      CL_SUCCESS)
    info->global_memory_bytes = memory;
  cl_ulong local_memory = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_memory, &local_memory,
                      NULL) == CL_SUCCESS)
    info->local_memory_bytes = local_memory;
  cl_ulong max_buffer = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_buffer, &max_buffer, NULL) ==
      CL_SUCCESS)
    info->max_buffer_bytes = max_buffer;
  size_t size = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, NULL, &size) == CL_SUCCESS && size > 0) {
    char *extensions = malloc(size);
    if (extensions != NULL &&
        clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, extensions, NULL) == CL_SUCCESS)
      info->has_fp64 = strstr(extensions, "cl_khr_fp64") != NULL;
    free(extensions);
  }
}

/* Every (platform, device) pair, in platform then device order. */
typedef struct {
  cl_platform_id platform;
  cl_device_id device;
  hegetcl_device_info info;
} hg_found_device;

static hegetcl_status enumerate(hg_found_device *found, size_t capacity, size_t *count,
                                char *message, size_t message_size) {
  cl_platform_id platforms[HG_MAX_PLATFORMS];
  cl_uint n_platforms = 0;
  cl_int err = clGetPlatformIDs(HG_MAX_PLATFORMS, platforms, &n_platforms);
  *count = 0;
  if (err == -1001 || (err == CL_SUCCESS && n_platforms == 0)) {
    if (message_size > 0)
      snprintf(message, message_size,
               "no OpenCL platform found: install an OpenCL driver (on Debian: apt-get install "
               "pocl-opencl-icd for the CPU, or the GPU vendor's ICD) and check that "
               "/etc/OpenCL/vendors or OCL_ICD_VENDORS lists it");
    return HEGETCL_ERR_NO_DEVICE;
  }
  if (err != CL_SUCCESS) {
    if (message_size > 0)
      snprintf(message, message_size, "clGetPlatformIDs: %s (%d) listing OpenCL platforms",
               hg_cl_error_name(err) ? hg_cl_error_name(err) : "unknown OpenCL error",
               (int)err);
    return HEGETCL_ERR_OPENCL;
  }
  for (cl_uint p = 0; p < n_platforms; ++p) {
    cl_device_id devices[HG_MAX_DEVICES];
    cl_uint n_devices = 0;
    if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, HG_MAX_DEVICES, devices, &n_devices) !=
        CL_SUCCESS)
      continue; /* CL_DEVICE_NOT_FOUND: a platform without devices */
    for (cl_uint d = 0; d < n_devices; ++d) {
      if (*count < capacity) {
        found[*count].platform = platforms[p];
        found[*count].device = devices[d];
        fill_info(platforms[p], devices[d], p, d, &found[*count].info);
      }
      ++*count;
    }
  }
  if (*count == 0) {
    if (message_size > 0)
      snprintf(message, message_size,
               "OpenCL platforms were found but they offer no device: check the driver "
               "installation (clinfo lists what the ICD loader sees)");
    return HEGETCL_ERR_NO_DEVICE;
  }
  return HEGETCL_OK;
}

hegetcl_status hegetcl_device_list(hegetcl_device_info *infos, size_t capacity, size_t *count,
                                   char *message, size_t message_size) {
  hg_found_device found[HG_MAX_DEVICES];
  if (message_size > 0) message[0] = '\0';
  const hegetcl_status status = enumerate(found, HG_MAX_DEVICES, count, message, message_size);
  for (size_t i = 0; i < *count && i < capacity && i < HG_MAX_DEVICES; ++i)
    infos[i] = found[i].info;
  return status;
}

static int contains_caseblind(const char *haystack, const char *needle) {
  const size_t n = strlen(needle);
  for (; *haystack; ++haystack) {
    size_t i = 0;
    while (i < n && haystack[i] &&
           tolower((unsigned char)haystack[i]) == tolower((unsigned char)needle[i]))
      ++i;
    if (i == n) return 1;
  }
  return n == 0;
}

/* Appends "  P:D  name (platform)" lines for the given devices to buf. */
static void describe(char *buf, size_t size, const hg_found_device *found, const size_t *which,
                     size_t n) {
  size_t used = strlen(buf);
  for (size_t i = 0; i < n && used + 1 < size; ++i) {
    const hegetcl_device_info *info = &found[which[i]].info;
    used += (size_t)snprintf(buf + used, size - used, "\n  %u:%u  %s (%s, %s)",
                             info->platform_index, info->device_index, info->name,
                             info->platform, info->is_gpu ? "GPU" : "not a GPU");
  }
}

static hegetcl_status select_device(hegetcl_context *ctx, const hg_found_device *found,
                                    size_t count, const char *spec, size_t *chosen) {
  size_t all[HG_MAX_DEVICES] = {0}, matches[HG_MAX_DEVICES] = {0}, n_matches = 0;
  for (size_t i = 0; i < count; ++i) all[i] = i;
  char listing[4096] = "";
  describe(listing, sizeof listing, found, all, count);
  if (spec == NULL || spec[0] == '\0' || strcmp(spec, "auto") == 0) {
    for (size_t i = 0; i < count; ++i)
      if (found[i].info.is_gpu) {
        *chosen = i;
        return HEGETCL_OK;
      }
    *chosen = 0;
    return HEGETCL_OK;
  }
  unsigned p = 0, d = 0;
  char tail = 0;
  if (sscanf(spec, "%u:%u%c", &p, &d, &tail) == 2) {
    for (size_t i = 0; i < count; ++i)
      if (found[i].info.platform_index == p && found[i].info.device_index == d) {
        *chosen = i;
        return HEGETCL_OK;
      }
    return hg_fail(ctx, HEGETCL_ERR_NO_DEVICE,
                   "device '%s': there is no platform %u device %u; the devices are:%s", spec, p,
                   d, listing);
  }
  const int want_gpu = strcmp(spec, "gpu") == 0, want_cpu = strcmp(spec, "cpu") == 0;
  for (size_t i = 0; i < count; ++i) {
    const hegetcl_device_info *info = &found[i].info;
    const int match = want_gpu   ? info->is_gpu
                      : want_cpu ? !info->is_gpu
                                 : contains_caseblind(info->name, spec) ||
                                       contains_caseblind(info->platform, spec) ||
                                       contains_caseblind(info->vendor, spec);
    if (match) matches[n_matches++] = i;
  }
  if (n_matches == 1) {
    *chosen = matches[0];
    return HEGETCL_OK;
  }
  if (n_matches == 0)
    return hg_fail(ctx, HEGETCL_ERR_NO_DEVICE,
                   "device '%s' matches no OpenCL device; give 'auto', 'gpu', 'cpu', P:D or a "
                   "part of a name from:%s",
                   spec, listing);
  char several[4096] = "";
  describe(several, sizeof several, found, matches, n_matches);
  return hg_fail(ctx, HEGETCL_ERR_INPUT,
                 "device '%s' matches %zu devices; name one as P:D or by a longer part of its "
                 "name:%s",
                 spec, n_matches, several);
}

hegetcl_status hegetcl_context_create(const char *spec, hegetcl_context **out) {
  hegetcl_context *ctx = calloc(1, sizeof *ctx);
  *out = ctx;
  if (ctx == NULL) return HEGETCL_ERR_NO_MEMORY;
  pthread_mutex_init(&ctx->lock, NULL);
  pthread_cond_init(&ctx->built, NULL);
  if (spec == NULL) spec = getenv("HEGETCL_DEVICE");
  hg_found_device found[HG_MAX_DEVICES];
  size_t count = 0;
  char message[1024];
  hegetcl_status status = enumerate(found, HG_MAX_DEVICES, &count, message, sizeof message);
  if (status != HEGETCL_OK) return hg_fail(ctx, status, "%s", message);
  if (count > HG_MAX_DEVICES) count = HG_MAX_DEVICES;
  size_t chosen = 0;
  status = select_device(ctx, found, count, spec, &chosen);
  if (status != HEGETCL_OK) return status;
  ctx->platform = found[chosen].platform;
  ctx->device = found[chosen].device;
  ctx->info = found[chosen].info;
  ctx->info.auto_without_gpu =
      (spec == NULL || spec[0] == '\0' || strcmp(spec, "auto") == 0) && !ctx->info.is_gpu;
  cl_int err = CL_SUCCESS;
  const cl_context_properties properties[] = {CL_CONTEXT_PLATFORM,
                                              (cl_context_properties)ctx->platform, 0};
  ctx->context = clCreateContext(properties, 1, &ctx->device, NULL, NULL, &err);
  status = hg_cl_check(ctx, err, "clCreateContext", "creating a context");
  if (status != HEGETCL_OK) return status;
  ctx->queue = clCreateCommandQueue(ctx->context, ctx->device, CL_QUEUE_PROFILING_ENABLE, &err);
  return hg_cl_check(ctx, err, "clCreateCommandQueue", "creating a profiling queue");
}

void hegetcl_context_destroy(hegetcl_context *ctx) {
  if (ctx == NULL) return;
  for (size_t i = 0; i < ctx->n_programs; ++i) {
    if (ctx->programs[i].program != NULL) clReleaseProgram(ctx->programs[i].program);
    free(ctx->programs[i].key);
  }
  free(ctx->programs);
  if (ctx->queue != NULL) clReleaseCommandQueue(ctx->queue);
  if (ctx->context != NULL) clReleaseContext(ctx->context);
  free(ctx->message);
  pthread_cond_destroy(&ctx->built);
  pthread_mutex_destroy(&ctx->lock);
  free(ctx);
}

const char *hegetcl_last_error(const hegetcl_context *ctx) {
  return ctx != NULL && ctx->message != NULL ? ctx->message : "";
}

hegetcl_status hegetcl_context_device(const hegetcl_context *ctx, hegetcl_device_info *out) {
  if (ctx == NULL || ctx->device == NULL) return HEGETCL_ERR_INPUT;
  *out = ctx->info;
  return HEGETCL_OK;
}

hegetcl_status hegetcl_context_opencl(const hegetcl_context *ctx, cl_context *context,
                                      cl_device_id *device, cl_command_queue *queue) {
  if (ctx == NULL || ctx->context == NULL) return HEGETCL_ERR_INPUT;
  if (context != NULL) *context = ctx->context;
  if (device != NULL) *device = ctx->device;
  if (queue != NULL) *queue = ctx->queue;
  return HEGETCL_OK;
}

const char *hegetcl_version(void) { return HEGETCL_VERSION; }
