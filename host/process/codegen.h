/* SPDX-License-Identifier: MIT */
/* OpenCL C for a process's diagrams (diagrams.h): straight-line HELAS calls per helicity
 * configuration, colour-flow amplitudes and the colour sum. */
#ifndef HG_PROCESS_CODEGEN_H
#define HG_PROCESS_CODEGEN_H

#include "diagrams.h"

/* The generated source (the caller frees it), or NULL when memory runs out. It defines
 * N_PARTICLES, HG_PROCESS_CONFIGS, HG_PROCESS_FLOWS, the colour matrix and
 *   REAL hg_process_config(const hg_fourvec *p, hg_u32 config, hg_process_params pp):
 * the |M|^2 of one helicity configuration summed over colours (not averaged), for
 * cl/amplitudes/process_kernels.cl. */
char *hg_process_source(const hg_diagram_set *set);

/* The same with external vector gauge_particle's polarisation replaced by its momentum over its
 * energy (hg_polarisation_from_momentum): the Ward identity's check, |M|^2 = 0. */
char *hg_process_source_gauge_check(const hg_diagram_set *set, int gauge_particle);

/* The leading-colour weights of the colour flows (docs/generator.md, "Colour flows"): defines
 * N_PARTICLES, HG_PROCESS_CONFIGS, HG_PROCESS_FLOWS and
 *   void hg_process_flow_weights(const hg_fourvec *p, hg_u32 config, hg_process_params pp,
 *                                REAL *w): w[k] += |J_k|^2 of flow k (set->flows[k]),
 * for cl/generator/flows.cl. NULL when memory runs out. */
char *hg_process_source_flow_weights(const hg_diagram_set *set);

#endif
