/* SPDX-License-Identifier: MIT */
/* Floating-point operations per |M|^2 of each engine, counted from the kernels' code, and the
 * peak rates of the GPUs docs/performance.md quotes. */
#ifndef HG_BENCH_FLOPS_H
#define HG_BENCH_FLOPS_H

#include "hegetcl/hegetcl.h"
#include "process/colour_ordered.h"
#include "process/flow_recursion.h"

/* Operations per event (a fused multiply-add counts 2, a division or square root 1) of the engine
 * for n photons: one helicity configuration (per_helicity) or the helicity sum; shared_sum selects
 * the recursive engine's work-group-shared sum (recursive_shared.cl). 0 when unknown. */
double hg_bench_flops_per_event(hegetcl_engine engine, unsigned n, int per_helicity,
                                int shared_sum);

/* Operations per event of the recursive colour engine (cl/amplitudes/colour_ordered.cl) for
 * the process co: summed over its helicity configurations or one
 * per event (per_helicity), with the exact colour sum (orderings^2 per configuration) or one
 * sampled colour assignment (colour_sampled). */
double hg_bench_flops_colour_ordered(const hg_colour_ordered *co, int per_helicity,
                                     int colour_sampled);
/* The same for its work-group kernels (cl/amplitudes/colour_group.cl), exact colour sum: each
 * distinct word of gluons once per configuration, an ordering's own current and quark line (one
 * propagator per line current), the colour sum over the whole colour matrix. */
double hg_bench_flops_colour_group(const hg_colour_ordered *co, int per_helicity);

/* Operations per event of the quark-line recursion (cl/amplitudes/flow_recursion.cl) for its
 * tape fr, counted from the tape: each vertex operation's HELAS function (its massive or
 * massless form as the operation's mass says), its targets' complex multiply-adds (4 per current,
 * 1 per colour flow), the external wavefunctions and the colour sum over the flows, per
 * configuration, times the n_configs configurations amplitude_summed sums or one
 * (per_helicity); with colour_sampled the colour factors of one assignment (once per event) and
 * |sum_f c_f A_f|^2 instead of the colour sum (amplitude_colour). The couplings made per
 * configuration (a product per photon charge) are not counted. */
double hg_bench_flops_flow_recursion(const hg_flow_recursion *fr, size_t n_configs,
                                     int per_helicity, int colour_sampled);

/* The vendor's peak FP32 and FP64 rates [TFLOP/s] for a device name (H100 SXM, H100 PCIe, H200);
 * 0 when the name is not known. */
int hg_bench_peak_tflops(const char *device_name, double *fp32, double *fp64);

#endif
