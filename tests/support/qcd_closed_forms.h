/* SPDX-License-Identifier: MIT */
/* Closed-form tree-level QCD |M|^2 from the literature, for tests: independent of the kernels.
 *
 * Momenta are double p[n][4] = (E, px, py, pz) in MadGraph's process order, the incoming
 * particles 0 and 1 with their physical (positive-energy) momenta; g_s is the strong coupling
 * (MadGraph's G = 2 sqrt(pi alpha_s)). Units GeV. The momenta are only read; the parameters are
 * not const-qualified because ISO C17 does not convert double (*)[4] to const double (*)[4].
 * Nothing here keeps state between calls, so the functions may be called from several threads. */
#ifndef HG_QCD_CLOSED_FORMS_H
#define HG_QCD_CLOSED_FORMS_H

#include <stdint.h>

/* The largest gluon count hg_closed_mhv_gluons takes: its colour sum runs over (n-1)!^2 pairs of
 * orderings, 25 million at n = 8 and 1.6 billion at n = 9. */
#define HG_CLOSED_GLUONS_MAX 8

/* Negative returns of hg_closed_mhv_gluons; every squared amplitude is >= 0. */
#define HG_CLOSED_NMHV (-1.0) /* 3 or more of each helicity: not a Parke-Taylor amplitude */
/* n outside 4..HG_CLOSED_GLUONS_MAX, helicity beyond n bits, a momentum not finite or with
 * E <= 0, two momenta collinear (the amplitude is infinite), or no memory */
#define HG_CLOSED_BAD_INPUT (-2.0)

/* g g -> t t~ (MadGraph order g g t t~): sum over spins and colours / 256, MadGraph's ME
 * (B.L. Combridge, Nucl. Phys. B151 (1979) 429; M. Glueck, J.F. Owens, E. Reya, Phys. Rev. D17
 * (1978) 2324). */
double hg_closed_gg_ttx(double p[4][4], double g_s, double m_t);

/* q q~ -> t t~ (order q q~ t t~): sum over spins and colours / 36 (same references). */
double hg_closed_qqx_ttx(double p[4][4], double g_s, double m_t);

/* g g -> g g: sum over spins and colours / (4 * 64 * 2!), the 1/2! for the identical final
 * gluons as MadGraph (IDEN 512) (B.L. Combridge, J. Kripfganz, J. Ranft, Phys. Lett. B70 (1977)
 * 234; tabulated in R.K. Ellis, W.J. Stirling, B.R. Webber, "QCD and collider physics", 7.1). */
double hg_closed_gg_gg(double p[4][4], double g_s);

/* q q~ -> g g (order q q~ g g): sum over spins and colours / (4 * 9 * 2!) (IDEN 72), same
 * references. */
double hg_closed_qqx_gg(double p[4][4], double g_s);

/* n massless gluons, one helicity configuration: sum over colours of |M(h)|^2, full colour in
 * exact SU(3), neither averaged nor divided by identical-particle factors.
 *
 * helicity: bit i is particle i's physical helicity (0: -1, 1: +1), incoming particles 0 and 1
 * with theirs, as MadGraph counts them; crossed to all-outgoing, an incoming gluon of helicity h
 * counts as an outgoing one of -h. MHV (exactly two negative after crossing) and anti-MHV
 * (exactly two positive) configurations get the Parke-Taylor amplitude (S.J. Parke, T.R. Taylor,
 * Phys. Rev. Lett. 56 (1986) 2459; F.A. Berends, W.T. Giele, Nucl. Phys. B306 (1988) 759), in
 * the trace basis
 *   M = g^(n-2) sum_{sigma in S_(n-1)} Tr(T^a1 T^a_sigma2 ... T^a_sigman) A(1, sigma2, .., sigman),
 *   A(1..n) = i <jk>^4 / (<12><23>...<n1>),   Tr(T^a T^b) = delta^ab
 * (L. Dixon, TASI lectures, hep-ph/9601359, sections 3-5; M. Mangano, S. Parke, Phys. Rept. 200
 * (1991) 301), so with the Gell-Mann t^a = T^a / sqrt(2), Tr(t^a t^b) = delta^ab / 2:
 *   sum_colours |M|^2 = g^(2n-4) 2^n sum_{sigma, sigma'} A_sigma A*_sigma' C_{sigma sigma'},
 *   C_{sigma sigma'} = sum_a Tr(t^a1 t^a_sigma2 ...) Tr(t^a1 t^a_sigma'2 ...)^*,
 * the colour matrix computed exactly (hg_closed_trace_colour_factor). Configurations with all
 * gluons alike or all but one alike give 0 (they vanish at tree level); NMHV ones (n >= 6)
 * return HG_CLOSED_NMHV, bad input HG_CLOSED_BAD_INPUT. */
double hg_closed_mhv_gluons(unsigned n, double p[][4], uint32_t helicity, double g_s);

/* One Parke-Taylor partial amplitude of n massless gluons (any n >= 4), helicity as above (MHV
 * or anti-MHV, else 0): <jk>^4 / (<o0 o1> <o1 o2> ... <o(n-1) o0>) for the particles in the order
 * order[0..n-1], square brackets for anti-MHV, without the factor i g^(n-2); with Dixon's T^a
 * normalisation, sum_colours |M|^2 above is g^(2n-4) 2^n sum |sum_sigma Tr(t..) A_sigma|^2. */
double _Complex hg_closed_parke_taylor(unsigned n, double p[][4], uint32_t helicity,
                                       const unsigned char *order);

/* The SU(3) colour factor sum_a Tr(t^b1 t^b2 ... t^bn) Tr(t^b1 t^b_tau2 ... t^b_taun)^* with
 * Tr(t^a t^b) = delta^ab / 2, tau a permutation of 1..n-1 given 0-based (tau[k-1] + 1 is the
 * label in position k), from the Fierz identity
 *   t^a_ij t^a_kl = (delta_il delta_kj - delta_ij delta_kl / N) / 2
 * applied index by index: kept as a Laurent polynomial in N with integer coefficients and
 * evaluated at N = 3 in one division, so the result is the correctly rounded exact rational.
 * Returns NAN for n outside 2..HG_CLOSED_GLUONS_MAX or a tau that is not a permutation. */
double hg_closed_trace_colour_factor(unsigned n, const unsigned *tau);

/* What a negative return of hg_closed_mhv_gluons means, and the fix. */
const char *hg_closed_error_message(double code);

#endif
