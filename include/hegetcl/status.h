/* SPDX-License-Identifier: MIT */
/* Status codes of every public hegetcl function: one X-macro list, values pinned. */
#ifndef HEGETCL_STATUS_H
#define HEGETCL_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

/* X(name, value, meaning): the single source of codes, names and one-line meanings. */
#define HEGETCL_STATUS_LIST(X)                                                                     \
  X(HEGETCL_OK, 0, "success")                                                                      \
  X(HEGETCL_ERR_INPUT, -1, "an argument is invalid; the message names it and the fix")           \
  X(HEGETCL_ERR_NO_DEVICE, -2, "no OpenCL device matches; the message lists the devices found")  \
  X(HEGETCL_ERR_OPENCL, -3, "an OpenCL call failed; the message names the call, code and action") \
  X(HEGETCL_ERR_PROGRAM_BUILD, -4, "a kernel program did not build; the message has the log")    \
  X(HEGETCL_ERR_NONFINITE, -5, "a kernel produced non-finite values")                             \
  X(HEGETCL_ERR_NO_MEMORY, -6, "host memory could not be allocated")                              \
  X(HEGETCL_ERR_UNSUPPORTED, -7, "the device lacks a feature the request needs")                  \
  X(HEGETCL_ERR_IO, -8, "a file could not be read or written")                                  \
  X(HEGETCL_ERR_DEVICE_MEMORY, -9,                                                                 \
    "the device has too little memory for the request; the message names the batch that fits")

typedef enum {
#define HEGETCL_STATUS_ENUM(name, value, meaning) name = value,
  HEGETCL_STATUS_LIST(HEGETCL_STATUS_ENUM)
#undef HEGETCL_STATUS_ENUM
} hegetcl_status;

/* The code's name ("HEGETCL_ERR_INPUT"); "HEGETCL_UNKNOWN_STATUS" for a value not in the list. */
const char *hegetcl_status_name(hegetcl_status status);

/* The code's one-line meaning. */
const char *hegetcl_status_meaning(hegetcl_status status);

#ifdef __cplusplus
}
#endif
#endif
