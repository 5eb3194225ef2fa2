/* SPDX-License-Identifier: MIT */
/* The colour flows' leading-colour weights of unweighted events: per event and flow k, |J_k|^2
 * summed over helicities (J_k: the flow's partial amplitude in the diagrams engine's colour
 * basis). The generated hg_process_flow_weights (host/process/codegen.c) comes before this file.
 */

/* Event e of n_events (momenta in the amplitudes' layout): weights[k * n_events + e]. */
__kernel void generator_flows(__global const REAL *restrict momenta, const hg_u32 n_events,
                              __global const REAL *restrict params,
                              __global REAL *restrict weights) {
  const size_t event = get_global_id(0);
  if (event >= n_events) return;
  hg_fourvec p[N_PARTICLES];
  hg_load_event(momenta, N_PARTICLES, n_events, event, p);
  hg_process_params pp = hg_load_params(params);
#ifdef HG_PROCESS_EW
  hg_load_params_ew(params, &pp); /* the Z, W, H and tau: left unset, they were read undefined */
#endif
  REAL w[HG_PROCESS_FLOWS];
  for (int k = 0; k < HG_PROCESS_FLOWS; ++k) w[k] = (REAL)0;
#pragma unroll 1
  for (hg_u32 config = 0; config < HG_PROCESS_CONFIGS; ++config)
    hg_process_flow_weights(p, config, pp, w);
  for (int k = 0; k < HG_PROCESS_FLOWS; ++k) weights[(size_t)k * n_events + event] = w[k];
}
