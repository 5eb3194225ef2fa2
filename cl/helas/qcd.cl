/* SPDX-License-Identifier: MIT */
/* The whole HELAS library for processes with quarks, gluons and massive particles: the massless
 * set (external.cl, ffv.cl) plus the massive external wavefunctions, the massive FFV off-shell
 * functions and the three- and four-gluon vertices. A program that includes this file has them
 * all; an embedded top-level file so that generated kernels can be built on it. */
#ifndef HG_QCD_CL
#define HG_QCD_CL

#include "helas/external.cl"
#include "helas/external_massive.cl"
#include "helas/ffv.cl"
#include "helas/ffv_massive.cl"
#include "helas/vvv.cl"
#include "helas/vvvv.cl"

#endif
