/* SPDX-License-Identifier: MIT */
/* The OpenCL header the public API needs (cl_mem, cl_program), at the 1.2 API hegetcl targets. */
#ifndef HEGETCL_CL_H
#define HEGETCL_CL_H

/* hegetcl calls the OpenCL 1.2 API; a caller may ask for a newer one by defining this first. */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#endif
