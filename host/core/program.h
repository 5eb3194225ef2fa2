/* SPDX-License-Identifier: MIT */
/* Building OpenCL programs from the cl/ sources (embedded, or read from HEGETCL_CL_DIR) plus
 * generated text, with the options that select precision and process size; cached per context. */
#ifndef HG_PROGRAM_H
#define HG_PROGRAM_H

#include <stddef.h>

#include "context.h"
#include "hegetcl/amplitude.h"

/* One piece of a program's source: a cl/ file (path relative to cl/) or generated text. */
typedef struct {
  const char *cl_file;
  const char *generated;
} hg_source_part;

/* Writes the build options for a precision and photon count into buf: -cl-std=CL1.2, REAL,
 * REAL_IS_DOUBLE, N_PHOTONS, -cl-single-precision-constant for float, -Werror when the
 * environment sets HEGETCL_WERROR=1, -I <dir> when HEGETCL_CL_DIR is set, and the text of
 * HEGETCL_CL_OPTIONS (vendor options such as NVIDIA's -cl-nv-maxrregcount=N) when set. Fails with
 * HEGETCL_ERR_UNSUPPORTED for double on a device without cl_khr_fp64. */
hegetcl_status hg_build_options(hegetcl_context *ctx, hegetcl_precision precision,
                                unsigned n_photons, char *buf, size_t size);

/* The program of these parts and options, built on first use and cached in the context. A failed
 * build (CL_BUILD_PROGRAM_FAILURE or CL_INVALID_BUILD_OPTIONS) gives HEGETCL_ERR_PROGRAM_BUILD with
 * the files, options, device, what to check (HEGETCL_CL_OPTIONS, HEGETCL_CL_DIR) and the whole log.
 * A program not yet in the context is first looked for in the disk cache (program_cache.h) and
 * stored there after a build from source. *build_seconds (may be NULL) receives the time getting
 * the program took (a build, or a load from the disk cache), 0 when the context had it. Several
 * host threads may call it at once: each builds outside the context's lock, and one that asks for
 * a program another thread is building waits for it. */
hegetcl_status hg_program_get(hegetcl_context *ctx, const hg_source_part *parts, size_t n_parts,
                              const char *options, cl_program *out, double *build_seconds);

/* A new string: the build log with each "<kernel>:LINE:" (how NVIDIA's compiler names the source,
 * ignoring #line file names) followed by " [cl/file:line]" that line stands for in the parts'
 * concatenated text. NULL when memory runs out. */
char *hg_annotate_build_log(const char *log, const char *const *strings, const size_t *lengths,
                            size_t n_parts);

/* Whether HEGETCL_BUILD_LOG=1 asks for build logs (a successful build's compiler log, and the
 * disk cache's one line per program), for studies. */
int hg_build_log_wanted(void);

/* A kernel of a program, its creation checked. */
hegetcl_status hg_kernel_create(hegetcl_context *ctx, cl_program program, const char *name,
                                cl_kernel *out);

#endif
