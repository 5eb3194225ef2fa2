/* SPDX-License-Identifier: MIT */
/* Kernel names, shared by the OpenCL sources and the host so neither spells them alone. */
#ifndef HG_KERNEL_NAMES_H
#define HG_KERNEL_NAMES_H

#define HG_KERNEL_AMPLITUDE_SUMMED "amplitude_summed"
#define HG_KERNEL_AMPLITUDE_HELICITY "amplitude_helicity"
/* the recursive colour engine: one colour assignment per event (colour_ordered.cl) */
#define HG_KERNEL_AMPLITUDE_COLOUR "amplitude_colour"
/* the recursive engines: each colour flow's leading-colour weight (colour_ordered.cl,
 * flow_recursion.cl) */
#define HG_KERNEL_AMPLITUDE_FLOW_WEIGHTS "amplitude_flow_weights"
/* The split diagram engine: part p's kernel is this prefix followed by p (kernels.cl). */
#define HG_KERNEL_AMPLITUDE_DIAGRAMS_PART "amplitude_diagrams_part_"
#define HG_KERNEL_AMPLITUDE_ACCUMULATE "amplitude_accumulate"
#define HG_KERNEL_AMPLITUDE_BEAM_FRAME "amplitude_beam_frame"
/* cl/integrate/ and cl/xsec/kernels.cl */
#define HG_KERNEL_VEGAS_REDUCE "vegas_reduce"
#define HG_KERNEL_VEGAS_SAMPLE_POINTS "vegas_sample_points"
#define HG_KERNEL_XSEC_SAMPLE "xsec_sample"
#define HG_KERNEL_GENERATOR_SAMPLE "generator_sample"
#define HG_KERNEL_GENERATOR_FLOWS "generator_flows"
#define HG_KERNEL_GENERATOR_MARK "generator_mark"
#define HG_KERNEL_GENERATOR_COMPACT "generator_compact"
#define HG_KERNEL_GENERATOR_OBSERVABLES "generator_observables"
#define HG_KERNEL_XSEC_CHANNEL_REDUCE "xsec_channel_reduce"
#define HG_KERNEL_XSEC_SAMPLING_REDUCE "xsec_sampling_reduce"
#define HG_KERNEL_XSEC_VARIATIONS "xsec_variations"
/* cl/analysis/histogram.cl */
#define HG_KERNEL_HISTOGRAM_REDUCE "histogram_reduce"
#define HG_KERNEL_HISTOGRAM_ACCUMULATE "histogram_accumulate"
/* cl/events/unweight.cl */
#define HG_KERNEL_EVENTS_MARK "events_mark"
#define HG_KERNEL_EVENTS_GATHER "events_gather"

#endif
