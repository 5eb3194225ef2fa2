/* SPDX-License-Identifier: MIT */
/* The beam frame of an event with two massless incoming particles: the photon family's engines
 * take the quark along +z and the antiquark along -z (ixxxx1, oxxxx2); an event in any other frame
 * is brought there by a Lorentz transformation, which leaves |M|^2 unchanged (CONVENTIONS.md,
 * "The beam frame"). Plain C shared by host and device. */
#ifndef HG_BEAM_FRAME_H
#define HG_BEAM_FRAME_H

#include "common/real.h"

/* Non-zero when particles 0 and 1 of p (E, px, py, pz of each in turn) are along the z axis,
 * particle 0 towards +z and particle 1 towards -z: the frame the engines take as it is. */
HG_INLINE int hg_in_beam_frame(const REAL *p) {
  return p[1] == (REAL)0 && p[2] == (REAL)0 && p[5] == (REAL)0 && p[6] == (REAL)0 &&
         p[3] > (REAL)0 && p[7] < (REAL)0;
}

/* Brings the n particles of p into the beam frame in place: the boost to the rest frame of
 * P = p_0 + p_1, then the rotation that takes p_0 to +z (first by pi about x when p_0 points to
 * -z, so the rotation below never meets its singular angle). Particles 0 and 1 come out with
 * px = py = 0 exactly. Events already in the beam frame, and those whose P is not timelike (left
 * for the kernels' checks), are left as they are, bit for bit: every value is chosen by a select,
 * never a branch on the event. */
HG_INLINE void hg_to_beam_frame(REAL *p, int n) {
  const REAL e = p[0] + p[4], px = p[1] + p[5], py = p[2] + p[6], pz = p[3] + p[7];
  const REAL m2 = e * e - px * px - py * py - pz * pz;
  const int keep = hg_in_beam_frame(p) || !(m2 > (REAL)0) || !(e > (REAL)0);
  const REAL m = sqrt(keep ? (REAL)1 : m2);
  const REAL bx = px / e, by = py / e, bz = pz / e, g = e / m;
  const REAL gg = g * g / (g + (REAL)1);
  /* particle 0's direction in the rest frame of P, and the flip by pi about x */
  const REAL k0 = p[0], kb = bx * p[1] + by * p[2] + bz * p[3];
  const REAL c0 = gg * kb - g * k0;
  const REAL dx = p[1] + c0 * bx, dy = p[2] + c0 * by, dz = p[3] + c0 * bz;
  const REAL flip = dz < (REAL)0 ? (REAL)-1 : (REAL)1;
  const REAL norm = sqrt(dx * dx + dy * dy + dz * dz);
  const REAL inv = norm > (REAL)0 ? (REAL)1 / norm : (REAL)0;
  /* unit vector n = (nx, ny, nz), nz >= 0 after the flip; Rodrigues' rotation taking n to z about
   * a = n x z = (ny, -nx, 0): R v = c v + a x v + (a.v) a / (1 + c), c = nz */
  const REAL nx = dx * inv, ny = flip * dy * inv, nz = flip * dz * inv;
  const REAL c = nz, ax = ny, ay = -nx, f = (REAL)1 / ((REAL)1 + c);
  for (int i = 0; i < n; ++i) {
    REAL *q = p + 4 * i;
    const REAL b = bx * q[1] + by * q[2] + bz * q[3];
    const REAL t = g * (q[0] - b);
    const REAL s = gg * b - g * q[0];
    const REAL x = q[1] + s * bx, y = flip * (q[2] + s * by), z = flip * (q[3] + s * bz);
    const REAL av = ax * x + ay * y;
    /* a x v with a = (ax, ay, 0): (ay z, -ax z, ax y - ay x) */
    REAL rx = c * x + ay * z + av * ax * f;
    REAL ry = c * y - ax * z + av * ay * f;
    REAL rz = c * z + (ax * y - ay * x);
    /* the incoming particles exactly on the axis, their |p| kept */
    const REAL r = sqrt(rx * rx + ry * ry + rz * rz);
    rx = i < 2 ? (REAL)0 : rx;
    ry = i < 2 ? (REAL)0 : ry;
    rz = i == 0 ? r : i == 1 ? -r : rz;
    q[0] = keep ? q[0] : t;
    q[1] = keep ? q[1] : rx;
    q[2] = keep ? q[2] : ry;
    q[3] = keep ? q[3] : rz;
  }
}

#endif
