/* SPDX-License-Identifier: MIT */
/* VEGAS integration settings and results, shared by every integrand (cross sections, tests). */
#ifndef HEGETCL_VEGAS_H
#define HEGETCL_VEGAS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The largest grid damping exponent taken: Lepage's usual range is 0.5 to 2; on p p -> 2 a
 * (PoCL) alpha 0 to 3 gave sigma within its error, alpha 5, 10 and 100 collapsed the grid and gave
 * sigma 5 %, 23 % and 31 % low with chi^2/dof 7, 4.5 and 3 (docs/user-guide.md, "VEGAS"). */
#define HEGETCL_VEGAS_ALPHA_MAX 2.0

/* How VEGAS runs: adapt_iterations iterations of adapt_events train the grid and are discarded;
 * then iterations of events_per_iteration each (the grid still adapting) are combined, weighted by
 * their inverse variances, until the combined relative error reaches target_rel_error (after at
 * least min_iterations, so that chi^2/dof means something), or max_events (summed over the
 * combined iterations) or max_iterations is reached. A target loose enough to be reached with
 * fewer events makes the combined iterations smaller: the last adapting iteration's error says
 * how many events the target needs, spread over min_iterations iterations of adapt_events
 * times a power of 2 (never more than events_per_iteration), so a 1 % run stops soon after 1 %. */
typedef struct {
  unsigned bins;                 /* grid bins per dimension, 2..255 (default 64) */
  double alpha;                  /* grid damping exponent (Lepage's alpha, 0 to
                                    HEGETCL_VEGAS_ALPHA_MAX, default 1.5) */
  unsigned adapt_iterations;     /* default 5 */
  uint64_t adapt_events;         /* per adapting iteration, default 200000 */
  uint64_t events_per_iteration; /* at most, default 1000000 (fewer for a loose target) */
  unsigned min_iterations;       /* combined iterations at least, default 3 */
  unsigned max_iterations;       /* combined iterations at most, default 100 */
  uint64_t max_events;           /* combined events at most, default 1e9 */
  double target_rel_error;       /* stop when error / |estimate| falls below it, default 2e-3 */
  size_t batch_size;             /* events per device launch, default 1 << 20 */
  uint64_t seed;                 /* Philox key */
  int fixed_iteration_events;    /* 1: every combined iteration takes events_per_iteration events
                                    whatever the target (the rule before combined iterations were
                                    sized from the target: it repeats those runs bit for bit);
                                    0 (default): sized from the target as above */
} hegetcl_vegas_settings;

/* Fills s with the defaults above and seed 1. */
void hegetcl_vegas_settings_defaults(hegetcl_vegas_settings *s);

/* One finished iteration, passed to the progress callback. */
typedef struct {
  unsigned index;          /* counting the adapting ones; also the Philox counter's iteration */
  int adapting;            /* 1 for a discarded grid-training iteration */
  uint64_t events;         /* sampled in this iteration */
  uint64_t events_nonzero; /* with a non-zero weight (inside the cuts) */
  double estimate, error;  /* this iteration's integral and its standard error */
  double combined, combined_error, chi2_per_dof; /* over the combined iterations so far */
  unsigned combined_iterations;
  double max_weight; /* the largest weight of the iteration */
  double seconds;    /* wall time of the iteration */
  double variance;   /* error^2, exactly as the combination used it */
  int restored;      /* 1: done before the run was resumed (read back from the checkpoint) */
} hegetcl_vegas_iteration;

typedef void (*hegetcl_vegas_progress)(const hegetcl_vegas_iteration *iteration, void *user);

/* The outcome of an integration. */
typedef struct {
  double estimate, error, chi2_per_dof;
  unsigned iterations;     /* combined */
  uint64_t events;         /* combined */
  uint64_t events_total;   /* including the adapting iterations */
  uint64_t events_nonzero; /* combined events with a non-zero weight */
  int reached_target;      /* 1 when target_rel_error was reached */
  double wall_seconds;     /* the integration, programs built before excluded */
  double max_weight;       /* the largest weight of the last iteration (the unweighting's) */
} hegetcl_vegas_result;

/* The probability that honest errors give a chi^2 as large as chi2_per_dof * (iterations - 1)
 * or larger (chi^2 with iterations - 1 degrees of freedom); 1 for fewer than 2 iterations. Below
 * HEGETCL_VEGAS_CHI2_SUSPECT the iterations disagree more than their errors allow: the error is
 * not to be trusted (more events per iteration, or more adapting iterations, usually cure it). */
double hegetcl_vegas_chi2_probability(double chi2_per_dof, unsigned iterations);
#define HEGETCL_VEGAS_CHI2_SUSPECT 0.05

#ifdef __cplusplus
}
#endif

#endif
