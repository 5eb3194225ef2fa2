/* SPDX-License-Identifier: MIT */
/* Users' own kernels: OpenCL C sources built with the HEGET functions (HELAS wavefunctions and
 * vertices, complex numbers, four-vectors) available, cached in the context like the library's
 * own programs. */
#ifndef HEGETCL_USER_PROGRAM_H
#define HEGETCL_USER_PROGRAM_H

#include "hegetcl/amplitude.h"
#include "hegetcl/cl.h"
#include "hegetcl/device.h"
#include "hegetcl/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Builds source, OpenCL C 1.2 written against hegetcl's kernel headers, into *out:
 *   - `#include "helas/external.cl"` (ixxxx0/1/2, oxxxx0/1/2, vxxxx0/1/2), "helas/ffv.cl"
 *     (iovxxx, fvixx0, fvoxx0, jioxx0), "helas/wavefunction.h" (hg_wave, hg_coupling),
 *     "common/real.h" (hg_complex and its operations), "common/fourvec.h" (hg_fourvec) and
 *     "shared/philox.h" are taken from the sources built into the library (the same text as the
 *     installed share/hegetcl/cl/ files: CONVENTIONS.md describes them); other includes go to
 *     the compiler as written (add -I DIR to options for your own files);
 *   - precision macros are set: -D REAL=double -D REAL_IS_DOUBLE=1 (cl_khr_fp64 enabled) or
 *     -D REAL=float -D REAL_IS_DOUBLE=0 -cl-single-precision-constant, with -cl-std=CL1.2;
 *     write literals as (REAL)0.5;
 *   - options (may be NULL) are appended to hegetcl's.
 * name (may be NULL: "user source") names the source in compiler messages (#line).
 * The build is cached in the context by source text and options: a second call with the same
 * arguments returns the same program without compiling; its binary is also kept in the disk cache
 * of programs for later processes (docs/user-guide.md, "Program cache"), except for a source
 * with an #include "file" of its own or options with -I, whose files the cache cannot see.
 * *out is a cl_program the caller owns one reference to (clReleaseProgram it; the context keeps
 * its own until destroyed); make kernels
 * with clCreateKernel and run them on the queue hegetcl_context_opencl gives.
 * Errors: HEGETCL_ERR_INPUT (NULL source), HEGETCL_ERR_UNSUPPORTED (double without cl_khr_fp64),
 * HEGETCL_ERR_PROGRAM_BUILD with the options, the device and the whole compiler log (lines
 * named by your file name and line) in hegetcl_last_error(ctx). */
hegetcl_status hegetcl_user_program_build(hegetcl_context *ctx, const char *source,
                                          const char *name, hegetcl_precision precision,
                                          const char *options, cl_program *out);

#ifdef __cplusplus
}
#endif
#endif
