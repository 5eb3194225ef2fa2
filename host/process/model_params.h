/* SPDX-License-Identifier: MIT */
/* The model's parameters: MadGraph's param_card names over hegetcl_process's fields, the
 * electroweak quantities derived at tree level, and the couplings of the params buffer. */
#ifndef HG_MODEL_PARAMS_H
#define HG_MODEL_PARAMS_H

#include <stddef.h>

#include "amplitudes/model_couplings.h"
#include "hegetcl/amplitude.h"

/* The derived electroweak quantities of MadGraph's sm (real masses; with complex_mass the
 * couplings below use mu_V^2 = M_V^2 - i M_V Gamma_V instead). */
typedef struct {
  double ee, gs, mw, sw2, cw, sw, vev, yt, ytau;
} hg_ew_derived;

/* Fills *d from p's inputs; -1 with the reason and the fix in error when they give no real W
 * mass or a parameter is out of range. */
int hg_model_derive(const hegetcl_process *p, hg_ew_derived *d, char *error, size_t error_size);

/* The params buffer of a process's kernels (HG_PARAMS_SIZE values, model_couplings.h's order):
 * g_s, e, the masses and widths, then the couplings as (re, im). -1 as hg_model_derive. */
int hg_model_params(const hegetcl_process *p, double *out, char *error, size_t error_size);

/* Every parameter in range: 0, or -1 with the name, the value and the fix in error. */
int hg_model_check(const hegetcl_process *p, char *error, size_t error_size);

#endif
