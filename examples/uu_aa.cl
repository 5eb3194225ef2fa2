/* SPDX-License-Identifier: MIT */
/* Example user kernel: u u~ -> gamma gamma written by hand with the HEGET (HELAS) functions,
 * built by hegetcl_user_program_build (examples/user_kernel.c), which supplies the headers and
 * REAL. Particle order, helicity bits and normalisation as in CONVENTIONS.md. */
#include "helas/external.cl"
#include "helas/ffv.cl"

/* momenta: structure of arrays, component c of particle i of event e at (c * 4 + i) * n + e;
 * me[e]: |M|^2 summed over helicities and colours, divided by 4 * 9 * 2! (MadGraph's). */
__kernel void uu_aa(__global const REAL *momenta, const uint n_events, const REAL coupling,
                    __global REAL *me) {
  const size_t e = get_global_id(0);
  if (e >= n_events) return;
  hg_fourvec p[4];
  for (int i = 0; i < 4; ++i)
    p[i] = hg_fourvec_make(momenta[(0 * 4 + i) * n_events + e], momenta[(1 * 4 + i) * n_events + e],
                           momenta[(2 * 4 + i) * n_events + e], momenta[(3 * 4 + i) * n_events + e]);
  hg_coupling gc; /* e Q_u for both chiralities */
  gc.gal[0] = hg_cmplx(coupling, (REAL)0);
  gc.gal[1] = hg_cmplx(coupling, (REAL)0);
  REAL sum = (REAL)0;
  for (int h = 0; h < 16; ++h) { /* bit i: helicity of particle i (0: -1, 1: +1) */
    const hg_wave quark = ixxxx1(p[0], (h & 1) ? 1 : -1, 1);      /* u(p0), along +z */
    const hg_wave antiquark = oxxxx2(p[1], (h & 2) ? 1 : -1, -1); /* vbar(p1), along -z */
    const hg_wave photon3 = vxxxx0(p[2], (h & 4) ? 1 : -1, 1);    /* outgoing photons */
    const hg_wave photon4 = vxxxx0(p[3], (h & 8) ? 1 : -1, 1);
    /* the two diagrams: the quark emits photon 3 first, or photon 4 */
    const hg_complex a3 = iovxxx(fvixx0(quark, photon3, gc), antiquark, photon4, gc);
    const hg_complex a4 = iovxxx(fvixx0(quark, photon4, gc), antiquark, photon3, gc);
    sum += hg_cabs2(hg_cadd(a3, a4));
  }
  me[e] = sum * (REAL)3 / (REAL)(4 * 9 * 2); /* colour sum 3; spins, colours, identical photons */
}
