/* SPDX-License-Identifier: MIT */
/* The quark-line recursion's tape as data: the layout of its two buffers, which the host
 * (host/amplitude/flow_recursion_amplitude.c) fills and the kernels (flow_recursion.cl) read
 * (CONVENTIONS.md, "Quark lines in the recursive engine"). The words buffer (hg_u32) starts with
 * a header of HG_FR_HEADER words, whose entries below give the counts and where each table
 * starts; the reals buffer (REAL) holds the colour coefficients as (re, im) pairs, then one
 * real per coupling (a photon coupling's charge, else 0). Tapes for the work-group kernels
 * also hold a schedule of the same operations: steps whose operations read only currents the
 * earlier steps completed, each step's results gathered into their targets by entries (one per
 * target slot or flow of the step, its terms the step's operations and their coefficients). */
#ifndef HG_FLOW_RECURSION_TAPE_H
#define HG_FLOW_RECURSION_TAPE_H

/* header words */
#define HG_FR_N_OPS 0          /* vertex operations */
#define HG_FR_N_FLOWS 1        /* colour flows (partial amplitudes) */
#define HG_FR_N_CONFIGS 2      /* helicity configurations summed */
#define HG_FR_N_COUPLINGS 3    /* couplings (index 0: g_s) */
#define HG_FR_N_SLOTS 4        /* current slots used (externals first) */
#define HG_FR_OPS_AT 5         /* the operations: 3 words each */
#define HG_FR_TARGETS_AT 6     /* the targets: slot (or flow) | first << 15 | coefficient << 16 */
#define HG_FR_CONFIGS_AT 7     /* the helicity configurations */
#define HG_FR_EXTERNALS_AT 8   /* one descriptor per external particle */
#define HG_FR_COUPLINGS_AT 9   /* one descriptor per coupling */
#define HG_FR_CHARGES_AT 10    /* in the reals buffer: the couplings' charges */
#define HG_FR_COLOURS_AT 11    /* the colour flows' strings, for sampled colours (below) */
/* the work-group kernels' schedule (flow_recursion_group.cl; 0 chunks when the tape has none) */
#define HG_FR_N_CHUNKS 12      /* steps of at most FR_WG_SIZE independent operations */
#define HG_FR_CHUNKS_AT 13     /* per step: first operation, operations, first entry, entries */
#define HG_FR_GROUP_OPS_AT 14  /* the operations in the steps' order: 3 words each, as above */
#define HG_FR_ENTRIES_AT 15    /* per entry: slot (or flow) | first << 15 | flow << 16, first
                                  term, terms */
#define HG_FR_TERMS_AT 16      /* per term: the step's operation | coefficient << 16 */
#define HG_FR_HEADER 17

/* an external particle's descriptor: kind | mass code << 3 | helicity bit << 8 | (the
 * wavefunction's last argument is -1) << 16 */
#define HG_FR_EXT_SCALAR 0u      /* sxxxxx */
#define HG_FR_EXT_FERMION_IN 1u  /* ixxxxx: the particle's line flows in (colour_ordered.h) */
#define HG_FR_EXT_FERMION_OUT 2u /* oxxxxx */
#define HG_FR_EXT_GAUGE 3u       /* the polarisation replaced by the momentum (gauge checks) */
#define HG_FR_EXT_MASSIVE 4u     /* a massive vector: two helicity bits, value 3 no config */
#define HG_FR_EXT_VECTOR 5u      /* a massless vector */

/* The colour flows' strings (sampled colours, CONVENTIONS.md "Colour sampling"): n_flows words
 * giving where each flow's description starts (from HG_FR_COLOURS_AT's value on), then per flow
 * its number of strings and per string a word start | end << 8 | length << 16 followed by length
 * words, the external gluons' positions in the string's order. start and end are the positions
 * of the quarks whose fundamental indices are the string's row (flowing-out end) and column
 * (flowing-in end), both HG_FR_COLOUR_TRACE for a trace. */
#define HG_FR_COLOUR_TRACE 127u

/* a coupling's descriptor: kind | slot << 8 (the params buffer's couplings) */
#define HG_FR_CPL_STRONG 0u /* g_s, both chiralities */
#define HG_FR_CPL_PHOTON 1u /* e times the charge, both chiralities */
#define HG_FR_CPL_BOSON 2u  /* an electroweak boson self-coupling: one complex number in both */
#define HG_FR_CPL_PAIR 3u   /* an electroweak (left, right) pair from the slot on */

#endif
