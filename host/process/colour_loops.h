/* SPDX-License-Identifier: MIT */
/* Colour sums of products of traces by counting index loops: the Fierz identity turns every
 * contracted pair of generators into a rewiring of indices, so a sum over colours is a sum of
 * powers of N. Fast enough for the colour matrices of the recursive engine (hundreds of basis
 * elements); colour.c keeps the general algebra of the diagram engine. */
#ifndef HG_COLOUR_LOOPS_H
#define HG_COLOUR_LOOPS_H

#define HG_COLOUR_LOOPS_MAX_SLOTS 32

/* Sum over the colours of Tr(w_1) Tr(w_2) ... for n_cycles traces, cycle k holding the generator
 * labels letters[start_k .. start_k + length[k] - 1]; every label appears exactly twice (it is
 * summed). su = 1: SU(N) generators, T^a_ij T^a_kl = (d_il d_kj - d_ij d_kl / N) / 2; su = 0:
 * U(N), without the second term (exact for colour factors that vanish for the U(1) gluon).
 * Tr(T^a T^b) = delta^ab / 2, N = 3. Returns NaN when a label is not paired or the size exceeds
 * HG_COLOUR_LOOPS_MAX_SLOTS. */
double hg_colour_loops(const unsigned char *letters, const int *length, int n_cycles, int su);

#endif
