/* SPDX-License-Identifier: MIT */
/* Structure-of-arrays layout of event batches, read by host C and OpenCL C alike. */
#ifndef HG_LAYOUT_H
#define HG_LAYOUT_H

/* Component c (0 = E, 1..3 = px, py, pz) of particle i of event e in a batch of n_events:
 * event index fastest, so neighbouring work-items read neighbouring addresses. Particle 0 is the
 * quark (along +z), 1 the antiquark (along -z), 2.. the photons. */
#define HG_SOA_INDEX(c, i, n_particles, n_events, e)                                               \
  (((size_t)(c) * (size_t)(n_particles) + (size_t)(i)) * (size_t)(n_events) + (size_t)(e))

/* Helicity configuration index: bit i is the helicity of particle i (0 means -1, 1 means +1). */
#define HG_HELICITY_OF(config, i) ((((config) >> (i)) & 1u) ? 1 : -1)

#endif
