/* SPDX-License-Identifier: MIT */
/* What a process's generated diagram code sees: the HELAS library with masses and gluons, and
 * the model parameters it reads. */
#ifndef HG_PROCESS_COMMON_CL
#define HG_PROCESS_COMMON_CL

#include "helas/external.cl"
#include "helas/external_massive.cl"
#include "helas/ffv.cl"
#include "helas/ffv_massive.cl"
#include "helas/vvv.cl"
#include "helas/vvvv.cl"
#include "shared/layout.h"

/* The model parameters, read once per event from the kernel's params buffer (host order:
 * HG_PROCESS_PARAM_* in host/process/process_amplitude.h). */
typedef struct {
  REAL g_s, e, top_mass, top_width;
} hg_process_params;

/* The model parameters from the kernel's params buffer (host order: g_s, e, top mass, width). */
HG_INLINE hg_process_params hg_load_params(__global const REAL *params) {
  hg_process_params pp;
  pp.g_s = params[0];
  pp.e = params[1];
  pp.top_mass = params[2];
  pp.top_width = params[3];
  return pp;
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
