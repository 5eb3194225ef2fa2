/* SPDX-License-Identifier: MIT */
/* The diagram engine's code generator: straight-line OpenCL C for the n! diagrams. */
#ifndef HG_DIAGRAMS_CODEGEN_H
#define HG_DIAGRAMS_CODEGEN_H

#include "hegetcl/status.h"

/* From this many photons on, the diagrams are split over several kernels ("parts", as the HEGET
 * paper does for large n): a compiler's time on one function grows faster than its length, and
 * the single function holds n! diagrams. Below it, one function with every diagram is inlined
 * into amplitude_summed and amplitude_helicity. Chosen by measuring PoCL's compile times; override
 * at configure time, e.g. meson setup build -Dc_args=-DHG_DIAGRAMS_SPLIT_MIN_PHOTONS=7. */
#ifndef HG_DIAGRAMS_SPLIT_MIN_PHOTONS
#define HG_DIAGRAMS_SPLIT_MIN_PHOTONS 6
#endif

/* The most diagrams one part evaluates in the split form; the last part takes the remainder.
 * PoCL's compile time per part grows about as the square of its length on top of a fixed cost
 * per kernel, which puts the least total near 60; larger parts recompute fewer shared quark lines
 * and need fewer launches per helicity configuration. Chosen by measuring PoCL's compile times;
 * override as above (-DHG_DIAGRAMS_PER_PART=N). */
#ifndef HG_DIAGRAMS_PER_PART
#define HG_DIAGRAMS_PER_PART 60
#endif
#if HG_DIAGRAMS_PER_PART < 1
#error "HG_DIAGRAMS_PER_PART must be at least 1 (HG_DIAGRAMS_SPLIT_MIN_PHOTONS keeps one part)"
#endif

/* The number of parts the diagram engine uses for n photons: 1 (the single-function form) below
 * HG_DIAGRAMS_SPLIT_MIN_PHOTONS, else ceil(n! / HG_DIAGRAMS_PER_PART). 0 for n outside 1..12. */
unsigned hg_diagrams_part_count(unsigned n_photons);

/* Writes into *out (malloc'd, NUL-terminated; the caller frees) the diagram engine's code for n
 * photons with at most diagrams_per_part diagrams in each part (0: all in one). One part defines
 *   hg_complex hg_engine_amplitude(hg_wave fi, hg_wave fo, const hg_wave *photons,
 *                                  int quark_helicity, hg_coupling gc);
 * several define hg_diagrams_part_<p>(fi, fo, photons, gc) for p = 0..*n_parts-1, each the sum of
 * its diagrams, and the X-macro HG_DIAGRAM_PARTS(X) = X(0) X(1) ..., from which kernels.cl makes
 * one kernel per part. Every off-shell quark line a part needs is computed once inside it.
 * *n_parts (may be NULL) receives the number of parts. HEGETCL_ERR_INPUT for n outside 1..12,
 * HEGETCL_ERR_NO_MEMORY when memory ran out. */
hegetcl_status hg_diagrams_source_parts(unsigned n_photons, unsigned diagrams_per_part, char **out,
                                        unsigned *n_parts);

/* The same with the parts the engine uses: HG_DIAGRAMS_PER_PART diagrams per part from
 * HG_DIAGRAMS_SPLIT_MIN_PHOTONS photons on, one part below. */
hegetcl_status hg_diagrams_source(unsigned n_photons, char **out);

#endif
