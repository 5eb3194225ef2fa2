/* SPDX-License-Identifier: MIT */
/* The kernels of a process given as data: one work-item per event; the generated diagram code
 * (host/process/codegen.c) comes before this file and defines hg_process_config. */

/* |M|^2 summed over colours and over n_configs helicity configurations from first on: both
 * kernels call this one function, so the compiler inlines the diagram code once. */
HG_INLINE REAL hg_process_configs(__global const REAL *momenta, hg_u32 n_events, size_t event,
                                  __global const REAL *params, hg_u32 first, hg_u32 n_configs) {
  hg_fourvec p[N_PARTICLES];
  hg_load_event(momenta, N_PARTICLES, n_events, event, p);
  hg_process_params pp = hg_load_params(params);
#ifdef HG_PROCESS_EW
  hg_load_params_ew(params, &pp);
#endif
  REAL sum = (REAL)0;
  /* one copy of the diagram code: unrolling the helicity loop would copy it per configuration */
#pragma unroll 1
  for (hg_u32 k = 0; k < n_configs; ++k) sum += hg_process_config(p, first + k, pp);
  return sum;
}

/* |M|^2 summed over helicities and colours, times me_factor = 1/IDEN (initial spins and colours,
 * identical final-state particles: MadGraph's normalisation). */
__kernel void amplitude_summed(__global const REAL *restrict momenta, const hg_u32 n_events,
                               __global const REAL *restrict params, const REAL me_factor,
                               __global REAL *restrict me) {
  const size_t event = get_global_id(0);
  if (event >= n_events) return;
  me[event] = hg_process_configs(momenta, n_events, event, params, 0, HG_PROCESS_CONFIGS) *
               me_factor;
}

/* The same for the helicity configuration helicity[event] (bit i: particle i has helicity +1). */
__kernel void amplitude_helicity(__global const REAL *restrict momenta, const hg_u32 n_events,
                                 __global const REAL *restrict params, const REAL me_factor,
                                 __global const hg_u32 *restrict helicity,
                                 __global REAL *restrict me) {
  const size_t event = get_global_id(0);
  if (event >= n_events) return;
  me[event] = hg_process_configs(momenta, n_events, event, params, helicity[event], 1) * me_factor;
}
