/* SPDX-License-Identifier: MIT */
/* The only file that tells OpenCL C from host C: integer types and the REAL precision switch. */
#ifndef HG_PORTABLE_H
#define HG_PORTABLE_H

#if defined(__OPENCL_VERSION__)
#if defined(REAL_IS_DOUBLE) && REAL_IS_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
typedef uint hg_u32;
typedef ulong hg_u64;
#define HG_INLINE static inline
#define HG_GLOBAL __global /* a pointer into a buffer; host C has one address space */
#else
#include <math.h>
#include <stdint.h>
typedef uint32_t hg_u32;
typedef uint64_t hg_u64;
#define HG_INLINE static inline
#define HG_GLOBAL
#endif

#endif
