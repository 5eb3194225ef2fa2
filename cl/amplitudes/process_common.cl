/* SPDX-License-Identifier: MIT */
/* What a process's generated diagram code sees: the HELAS library with masses and gluons, and
 * the model parameters it reads. */
#ifndef HG_PROCESS_COMMON_CL
#define HG_PROCESS_COMMON_CL

#include "amplitudes/model_couplings.h"
#include "helas/ew.cl"
#include "helas/external.cl"
#include "helas/external_massive.cl"
#include "helas/ffv.cl"
#include "helas/ffv_massive.cl"
#include "helas/vvv.cl"
#include "helas/vvvv.cl"
#include "shared/layout.h"

/* The model parameters, read once per event from the kernel's params buffer (host order:
 * amplitudes/model_couplings.h, filled by host/process/model_params.c). */
typedef struct {
  REAL g_s, e, top_mass, top_width;
  REAL mz, wz, mw, ww, mh, wh, mta;
  hg_complex c[HG_COUPLINGS]; /* the electroweak couplings, HELAS convention */
} hg_process_params;

/* The model parameters from the kernel's params buffer: g_s, e and the top's mass and width,
 * which every process reads; the electroweak ones come from hg_load_params_ew. */
HG_INLINE hg_process_params hg_load_params(__global const REAL *params) {
  hg_process_params pp;
  pp.g_s = params[HG_PARAM_SLOT_GS];
  pp.e = params[HG_PARAM_SLOT_E];
  pp.top_mass = params[HG_PARAM_SLOT_MT];
  pp.top_width = params[HG_PARAM_SLOT_WT];
  return pp;
}

/* The Z, W, H and tau masses and widths and the electroweak couplings, for the processes that
 * use them (the generated code defines HG_PROCESS_EW): the others keep their short load. */
HG_INLINE void hg_load_params_ew(__global const REAL *params, hg_process_params *pp) {
  pp->mz = params[HG_PARAM_SLOT_MZ];
  pp->wz = params[HG_PARAM_SLOT_WZ];
  pp->mw = params[HG_PARAM_SLOT_MW];
  pp->ww = params[HG_PARAM_SLOT_WW];
  pp->mh = params[HG_PARAM_SLOT_MH];
  pp->wh = params[HG_PARAM_SLOT_WH];
  pp->mta = params[HG_PARAM_SLOT_MTA];
  for (int k = 0; k < HG_COUPLINGS; ++k)
    pp->c[k] = hg_cmplx(params[HG_PARAMS_MASSES + 2 * k], params[HG_PARAMS_MASSES + 2 * k + 1]);
}

/* The chiral pair (left, right) of couplings from slot k on. */
HG_INLINE hg_coupling hg_coupling_pair(const hg_complex *c, int k) {
  hg_coupling gc;
  gc.gal[0] = c[k];
  gc.gal[1] = c[k + 1];
  return gc;
}

/* The n_particles momenta of one event from the structure-of-arrays batch. */
HG_INLINE void hg_load_event(__global const REAL *momenta, int n_particles, hg_u32 n_events,
                             size_t event, hg_fourvec *p) {
  for (int i = 0; i < n_particles; ++i)
    p[i] = hg_fourvec_make(momenta[HG_SOA_INDEX(0, i, n_particles, n_events, event)],
                           momenta[HG_SOA_INDEX(1, i, n_particles, n_events, event)],
                           momenta[HG_SOA_INDEX(2, i, n_particles, n_events, event)],
                           momenta[HG_SOA_INDEX(3, i, n_particles, n_events, event)]);
}

/* Both chiralities with the same real coupling (the vector couplings of QCD and QED). */
HG_INLINE hg_coupling hg_coupling_both(REAL g) {
  hg_coupling gc;
  gc.gal[0] = hg_cmplx(g, (REAL)0);
  gc.gal[1] = hg_cmplx(g, (REAL)0);
  return gc;
}

/* A vector "polarisation" equal to its momentum over its energy, with vxxxxx's slots: gauge
 * invariance makes every amplitude with it vanish (the tests' Ward identity check). */
HG_INLINE hg_wave hg_polarisation_from_momentum(hg_fourvec p, int nsv) {
  hg_wave v;
  for (int mu = 0; mu < 4; ++mu) v.w[mu] = hg_cmplx(p.v[mu] / p.v[0], (REAL)0);
  v.w[4] = hg_cmplx((REAL)nsv * p.v[0], (REAL)nsv * p.v[3]);
  v.w[5] = hg_cmplx((REAL)nsv * p.v[1], (REAL)nsv * p.v[2]);
  return v;
}

#endif
