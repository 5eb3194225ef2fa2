/* SPDX-License-Identifier: MIT */
/* VEGAS: device reduction launches, grid refinement, the inverse-variance combination, and the
 * state between iterations that a checkpoint saves. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "integrate/reduce_layout.h"
#include "integrate/batch_share.h"
#include "integrate/vegas.h"
#include "io/checkpoint_file.h"
#include "shared/kernel_names.h"
struct hg_vegas {
  hegetcl_context *ctx;
  cl_program program; /* for hg_vegas_integrate's reducer (may be NULL) */
  hegetcl_vegas_settings settings;
  unsigned dims, bins;
  double *edges, *d, *scratch;
  double *estimates, *variances; /* of the combined iterations */
  double *last_edges;            /* the grid the latest iteration sampled with */
  double last_max_weight;        /* and its largest weight */
  double *extra;                 /* the sampler's own sums of the latest iteration */
  size_t n_extra;
  hg_batch_rounds rounds; /* hg_vegas_run's work area */
  hg_vegas_iteration_end observer;
  void *observer_user;
  /* the progress of the integration: what a checkpoint saves */
  uint32_t index;               /* iterations done, adapting included */
  unsigned combined;            /* combined iterations done */
  int done;                     /* the integration is complete */
  double inv_sum, weighted;     /* sums of 1 / variance and estimate / variance */
  hegetcl_vegas_result result;  /* so far */
  hegetcl_vegas_iteration *its; /* every iteration done */
  size_t cap_its;
  hg_vegas_checkpoint checkpoint;
  void *checkpoint_user;
  const volatile sig_atomic_t *stop;
  int stopped;
  int freeze; /* the grid stays as the adaptation left it in the combined iterations */
};

void hegetcl_vegas_settings_defaults(hegetcl_vegas_settings *s) {
  s->bins = 64;
  s->alpha = 1.5;
  s->adapt_iterations = 5;
  s->adapt_events = 200000;
  s->events_per_iteration = 1000000;
  s->min_iterations = 3;
  s->max_iterations = 100;
  s->max_events = 1000000000;
  s->target_rel_error = 2e-3;
  s->batch_size = (size_t)1 << 20;
  s->seed = 1;
  s->fixed_iteration_events = 0;
}

const double *hg_vegas_edges(const hg_vegas *v) { return v->edges; }

static hegetcl_status check_settings(hegetcl_context *ctx, const hegetcl_vegas_settings *s) {
  if (s->bins < 2 || s->bins > 255)
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "VEGAS bins = %u: must be between 2 and 255 (bin indices are stored as bytes)",
                   s->bins);
  if (!(s->alpha >= 0.0 && s->alpha <= HEGETCL_VEGAS_ALPHA_MAX))
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "VEGAS alpha = %g: must lie in 0 to %g (the grid damping exponent; the usual "
                   "range is 0.5 to 2, 0 keeps the grid uniform): larger values collapse the grid "
                   "onto a few bins and give a cross section far below the true one with an error "
                   "that does not say so",
                   s->alpha, HEGETCL_VEGAS_ALPHA_MAX);
  if (s->events_per_iteration < 2 || (s->adapt_iterations > 0 && s->adapt_events < 2))
    return hg_fail(
        ctx, HEGETCL_ERR_INPUT, "events per iteration must be at least 2 (got %llu, adapting %llu)",
        (unsigned long long)s->events_per_iteration, (unsigned long long)s->adapt_events);
  if (s->max_iterations < 1 || s->min_iterations > s->max_iterations)
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "iterations: min %u, max %u: max must be at least 1 and at least min",
                   s->min_iterations, s->max_iterations);
  if (!(s->target_rel_error >= 0.0))
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "target relative error = %g: must be >= 0",
                   s->target_rel_error);
  if (s->batch_size < HG_REDUCE_LOCAL || s->batch_size > UINT32_MAX / 2)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "batch size %zu: must be between %d and %u",
                   s->batch_size, HG_REDUCE_LOCAL, UINT32_MAX / 2);
  return HEGETCL_OK;
}

hegetcl_status hg_vegas_create(hegetcl_context *ctx, cl_program program, unsigned dims,
                               const hegetcl_vegas_settings *settings, hg_vegas **out) {
  *out = NULL;
  hegetcl_status status = check_settings(ctx, settings);
  if (status != HEGETCL_OK) return status;
  hg_vegas *v = calloc(1, sizeof *v);
  if (v == NULL) return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the VEGAS state");
  v->ctx = ctx;
  v->program = program;
  v->settings = *settings;
  v->dims = dims;
  v->bins = settings->bins;
  const size_t n_edges = (size_t)dims * (v->bins + 1), n_hist = (size_t)dims * v->bins;
  v->edges = malloc(n_edges * sizeof *v->edges);
  v->d = malloc(n_hist * sizeof *v->d);
  v->scratch = malloc(2 * ((size_t)v->bins + 1) * sizeof *v->scratch);
  v->estimates = malloc(settings->max_iterations * sizeof *v->estimates);
  v->variances = malloc(settings->max_iterations * sizeof *v->variances);
  v->last_edges = malloc(n_edges * sizeof *v->last_edges);
  if (!v->edges || !v->d || !v->scratch || !v->estimates || !v->variances || !v->last_edges) {
    hg_vegas_destroy(v);
    return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no host memory for a VEGAS grid of %u x %u", dims,
                   v->bins);
  }
  for (unsigned j = 0; j < dims; ++j)
    for (unsigned i = 0; i <= v->bins; ++i)
      v->edges[(size_t)j * (v->bins + 1) + i] = (double)i / (double)v->bins;
  *out = v;
  return HEGETCL_OK;
}

void hg_vegas_destroy(hg_vegas *v) {
  if (v == NULL) return;
  free(v->edges);
  free(v->d);
  free(v->scratch);
  free(v->estimates);
  free(v->variances);
  free(v->last_edges);
  free(v->extra);
  hg_batch_share_free(&v->rounds);
  free(v->its);
  free(v);
}

void hg_vegas_refine_dimension(double *edges, const double *d, unsigned bins, double alpha,
                               double *scratch) {
  double *smooth = scratch, *share = scratch + bins;
  /* neighbour smoothing, as Lepage's VEGAS */
  double total = 0.0;
  for (unsigned i = 0; i < bins; ++i) {
    const double left = i > 0 ? d[i - 1] : d[i], right = i + 1 < bins ? d[i + 1] : d[i];
    smooth[i] = (i == 0 || i + 1 == bins) ? 0.5 * (d[i] + (i == 0 ? right : left))
                                          : (left + d[i] + right) / 3.0;
    total += smooth[i];
  }
  if (!(total > 0.0)) return; /* nothing seen: keep the grid */
  double share_total = 0.0;
  for (unsigned i = 0; i < bins; ++i) {
    const double r = smooth[i] / total;
    /* ((r - 1) / ln r)^alpha, with its limits 0 at r = 0 and 1 at r = 1 */
    share[i] = r > 0.0 ? (r < 1.0 ? pow((r - 1.0) / log(r), alpha) : 1.0) : 0.0;
    share_total += share[i];
  }
  const double per_bin = share_total / bins;
  /* new edges where the cumulative share crosses multiples of per_bin; old bins are filled
   * uniformly */
  double *next = smooth; /* reuse: new interior edges 1 .. bins - 1 */
  unsigned k = 0;
  double acc = 0.0;
  for (unsigned i = 1; i < bins; ++i) {
    const double want = per_bin * i;
    while (k < bins - 1 && acc + share[k] < want) acc += share[k++];
    const double frac = share[k] > 0.0 ? (want - acc) / share[k] : 0.0;
    next[i] = edges[k] + (frac < 1.0 ? frac : 1.0) * (edges[k + 1] - edges[k]);
  }
  for (unsigned i = 1; i < bins; ++i) edges[i] = next[i];
  edges[0] = 0.0;
  edges[bins] = 1.0;
}

void hg_vegas_set_observer(hg_vegas *v, hg_vegas_iteration_end observer, void *user) {
  v->observer = observer;
  v->observer_user = user;
}

double hg_vegas_last_max_weight(const hg_vegas *v) { return v->last_max_weight; }

const double *hg_vegas_last_edges(const hg_vegas *v) { return v->last_edges; }

/* One iteration of n_events: batches shared out and folded in order, the observer, the grid
 * refined. */
static hegetcl_status iterate(hg_vegas *v, const hg_vegas_work *work, uint32_t index, int adapting,
                              uint64_t n_events, double *estimate, double *variance,
                              uint64_t *nonzero) {
  hegetcl_status status = HEGETCL_OK;
  for (unsigned w = 0; w < work->workers && status == HEGETCL_OK; ++w)
    status = work->grid(work->user, w, v->edges);
  if (status != HEGETCL_OK) return status;
  const size_t n_hist = (size_t)v->dims * v->bins;
  const size_t per_batch = HG_REDUCE_SUMS + n_hist + work->extra;
  double *totals = malloc(per_batch * sizeof *totals);
  if (totals == NULL) return hg_fail(v->ctx, HEGETCL_ERR_NO_MEMORY, "no memory for VEGAS sums");
  const hg_batch_share share = {.workers = work->workers,
                                .contexts = work->contexts,
                                .per_batch = per_batch,
                                .max_index = HG_REDUCE_MAX,
                                .batch = work->batch,
                                .user = work->user,
                                .team = work->team,
                                .stop = v->stop};
  int stopped = 0;
  status = hg_batch_share_run(v->ctx, &share, &v->rounds, index, n_events,
                              v->settings.batch_size, totals, &stopped);
  if (status == HEGETCL_OK && stopped) v->stopped = 1; /* the unfinished iteration is dropped */
  if (status != HEGETCL_OK || stopped) {
    free(totals);
    return status;
  }
  const double *sums = totals;
  memcpy(v->d, totals + HG_REDUCE_SUMS, n_hist * sizeof *v->d);
  if (work->extra > 0) memcpy(v->extra, totals + HG_REDUCE_SUMS + n_hist, work->extra * sizeof *v->extra);
  const double nonfinite = sums[3], sum_w = sums[0], sum_w2 = sums[1], count_nonzero = sums[2];
  v->last_max_weight = sums[HG_REDUCE_MAX];
  free(totals);
  if (nonfinite > 0.0)
    return hg_fail(v->ctx, HEGETCL_ERR_NONFINITE,
                   "iteration %u: %.0f of %llu events have a non-finite weight (left out of no "
                   "estimate: the run stops)",
                   index, nonfinite, (unsigned long long)n_events);
  const double n = (double)n_events;
  const double mean = sum_w / n;
  *estimate = mean;
  *variance = fmax(sum_w2 / n - mean * mean, 0.0) / (n - 1.0);
  *nonzero = (uint64_t)count_nonzero;
  /* an earlier iteration had weight inside the cuts: then the grid, not the cuts, lost it */
  if (count_nonzero == 0.0 && index > 0)
    return hg_fail(v->ctx, HEGETCL_ERR_INPUT,
                   "iteration %u: none of %llu events has a non-zero weight, although the "
                   "earlier iterations found weight inside the cuts: the VEGAS grid adapted "
                   "away from it (grid damping --vegas-alpha %g; the default 1.5 is safe, "
                   "values above about 5 can collapse the grid onto a few bins): lower "
                   "--vegas-alpha, or adapt with more events",
                   index, (unsigned long long)n_events, v->settings.alpha);
  if (count_nonzero == 0.0)
    return hg_fail(v->ctx, HEGETCL_ERR_INPUT,
                   "iteration %u: none of %llu events has a non-zero weight: the cuts leave no "
                   "phase space (loosen them or raise the collider energy), or every weight is "
                   "zero for another reason (a PDF that is zero or negative where the cuts "
                   "reach)",
                   index, (unsigned long long)n_events);
  memcpy(v->last_edges, v->edges, (size_t)v->dims * (v->bins + 1) * sizeof *v->edges);
  if (v->observer) {
    status = v->observer(v->observer_user, index, adapting, n_events, *estimate, *variance,
                         v->extra);
    if (status != HEGETCL_OK) return status;
  }
  for (unsigned j = 0; j < v->dims && (adapting || !v->freeze); ++j)
    hg_vegas_refine_dimension(v->edges + (size_t)j * (v->bins + 1), v->d + (size_t)j * v->bins,
                              v->bins, v->settings.alpha, v->scratch);
  return HEGETCL_OK;
}

void hg_vegas_freeze_after_adaptation(hg_vegas *v, int freeze) { v->freeze = freeze; }

void hg_vegas_set_checkpoint(hg_vegas *v, hg_vegas_checkpoint checkpoint, void *user) {
  v->checkpoint = checkpoint;
  v->checkpoint_user = user;
}

void hg_vegas_set_stop(hg_vegas *v, const volatile sig_atomic_t *stop) { v->stop = stop; }

int hg_vegas_stopped(const hg_vegas *v) { return v->stopped; }

int hg_vegas_done(const hg_vegas *v) { return v->done; }

uint32_t hg_vegas_iterations_done(const hg_vegas *v) { return v->index; }

/* Keeps the record of an iteration (for the checkpoint and a resumed run's progress). */
static hegetcl_status keep_iteration(hg_vegas *v, const hegetcl_vegas_iteration *it) {
  if (it->index >= v->cap_its) {
    const size_t cap = v->cap_its ? 2 * v->cap_its : 64;
    hegetcl_vegas_iteration *grown = realloc(v->its, cap * sizeof *grown);
    if (grown == NULL) return hg_fail(v->ctx, HEGETCL_ERR_NO_MEMORY, "no memory for iterations");
    v->its = grown;
    v->cap_its = cap;
  }
  v->its[it->index] = *it;
  return HEGETCL_OK;
}

/* Events of each combined iteration: events_per_iteration, or fewer where the target error is
 * loose enough that fewer reach it. The last adapting iteration's relative error r over its
 * adapt_events N_a says how many events the target T needs, N_a (r / T)^2 (the grid only gets
 * better after it, so this errs on the side of more); spread over min_iterations iterations and
 * rounded up to N_a times a power of 2, so that runs whose errors differ by rounding (float and
 * double amplitudes, another batch size) take the same events. A target that needs
 * events_per_iteration or more per iteration (or none: target 0, no adapting iterations) leaves
 * the iterations as they were, bit for bit. The iteration is read from the records a checkpoint
 * keeps, so a resumed run sizes them the same. */
static uint64_t combined_events(const hg_vegas *v) {
  const hegetcl_vegas_settings *s = &v->settings;
  const uint64_t most = s->events_per_iteration;
  if (s->fixed_iteration_events || s->adapt_iterations == 0 || !(s->target_rel_error > 0) ||
      v->index < s->adapt_iterations)
    return most;
  const hegetcl_vegas_iteration *last = &v->its[s->adapt_iterations - 1];
  const double rel = last->error / fabs(last->estimate);
  if (!isfinite(rel) || !(rel > 0)) return most;
  const unsigned spread = s->min_iterations > 0 ? s->min_iterations : 1;
  const double ratio = rel / s->target_rel_error;
  const double needed = (double)s->adapt_events * ratio * ratio / spread;
  if (!(needed < (double)most)) return most;
  uint64_t events = s->adapt_events;
  while ((double)events < needed && events < most) events *= 2;
  return events < most ? events : most;
}

double hegetcl_vegas_chi2_probability(double chi2_per_dof, unsigned iterations) {
  if (iterations < 2 || !(chi2_per_dof >= 0)) return 1.0;
  const unsigned dof = iterations - 1;
  const double half = 0.5 * chi2_per_dof * dof; /* chi^2 / 2 */
  /* Q(dof/2, chi^2/2), the regularised upper incomplete gamma function, in closed form for
   * integer dof: even, e^-x sum_{j<dof/2} x^j/j!; odd, erfc(sqrt x) + e^-x sum over
   * half-integer powers x^(j-1/2)/Gamma(j+1/2), j = 1..(dof-1)/2. */
  double sum = 0.0, term;
  if (dof % 2 == 0) {
    term = 1.0;
    for (unsigned j = 0; j < dof / 2; ++j) {
      sum += term;
      term *= half / (j + 1);
    }
    sum *= exp(-half);
  } else {
    term = sqrt(half) / tgamma(1.5); /* j = 1: x^(1/2) / Gamma(3/2) */
    for (unsigned j = 1; j <= (dof - 1) / 2; ++j) {
      sum += term;
      term *= half / (j + 0.5);
    }
    sum = erfc(sqrt(half)) + exp(-half) * sum;
  }
  return sum < 0 ? 0 : sum > 1 ? 1 : sum;
}

hegetcl_status hg_vegas_run(hg_vegas *v, const hg_vegas_work *work,
                            hegetcl_vegas_progress progress, void *progress_user,
                            hegetcl_vegas_result *result) {
  const hegetcl_vegas_settings *s = &v->settings;
  memset(result, 0, sizeof *result);
  hegetcl_status status = HEGETCL_OK;
  if (work->extra > v->n_extra) {
    double *grown = realloc(v->extra, work->extra * sizeof *grown);
    if (grown == NULL) return hg_fail(v->ctx, HEGETCL_ERR_NO_MEMORY, "no memory for VEGAS sums");
    v->extra = grown;
    v->n_extra = work->extra;
  }
  v->stopped = 0;
  /* the iterations done before a resume, as they were */
  for (uint32_t i = 0; progress != NULL && i < v->index; ++i) {
    hegetcl_vegas_iteration it = v->its[i];
    it.restored = 1;
    progress(&it, progress_user);
  }
  hegetcl_vegas_result *r = &v->result;
  const double start = hg_now_seconds(), before = r->wall_seconds;
  while (!v->done) {
    const int adapting = v->index < s->adapt_iterations;
    const uint64_t n_events = adapting ? s->adapt_events : combined_events(v);
    if (!adapting && !(v->combined < s->max_iterations && r->events + n_events <= s->max_events)) {
      v->done = 1;
      break;
    }
    const double t0 = hg_now_seconds();
    double estimate = 0.0, variance = 0.0;
    uint64_t nonzero = 0;
    status = iterate(v, work, v->index, adapting, n_events, &estimate, &variance, &nonzero);
    if (status != HEGETCL_OK) return status;
    if (v->stopped) break;
    hegetcl_vegas_iteration it = {.index = v->index,
                                  .adapting = adapting,
                                  .events = n_events,
                                  .events_nonzero = nonzero,
                                  .estimate = estimate,
                                  .error = sqrt(variance),
                                  .variance = variance,
                                  .max_weight = v->last_max_weight};
    ++v->index;
    r->events_total += n_events;
    if (!adapting) {
      if (!(variance > 0.0))
        return hg_fail(v->ctx, HEGETCL_ERR_NONFINITE,
                       "iteration %u has zero variance (estimate %g): every weight was equal, so "
                       "no error can be given; use more events per iteration",
                       v->index - 1, estimate);
      v->estimates[v->combined] = estimate;
      v->variances[v->combined] = variance;
      const unsigned k = ++v->combined;
      v->inv_sum += 1.0 / variance;
      v->weighted += estimate / variance;
      const double combined = v->weighted / v->inv_sum;
      double chi2 = 0.0;
      for (unsigned i = 0; i < k; ++i)
        chi2 += (v->estimates[i] - combined) * (v->estimates[i] - combined) / v->variances[i];
      r->estimate = combined;
      r->error = sqrt(1.0 / v->inv_sum);
      r->chi2_per_dof = k > 1 ? chi2 / (k - 1) : 0.0;
      r->iterations = k;
      r->events += n_events;
      r->events_nonzero += nonzero;
      it.combined = combined;
      it.combined_error = r->error;
      it.chi2_per_dof = r->chi2_per_dof;
      it.combined_iterations = k;
      if (k >= s->min_iterations && r->error <= s->target_rel_error * fabs(combined)) {
        r->reached_target = 1;
        v->done = 1;
      }
    }
    it.seconds = hg_now_seconds() - t0;
    status = keep_iteration(v, &it);
    if (status != HEGETCL_OK) return status;
    if (progress) progress(&it, progress_user);
    r->wall_seconds = before + (hg_now_seconds() - start);
    if (v->checkpoint) {
      status = v->checkpoint(v->checkpoint_user);
      if (status != HEGETCL_OK) return status;
    }
  }
  r->wall_seconds = before + (hg_now_seconds() - start);
  r->max_weight = v->last_max_weight;
  *result = *r;
  if (v->stopped) return HEGETCL_OK;
  if (v->combined == 0)
    return hg_fail(v->ctx, HEGETCL_ERR_INPUT,
                   "max events %llu is below events per iteration %llu: no iteration could run",
                   (unsigned long long)s->max_events, (unsigned long long)s->events_per_iteration);
  if (hg_vegas_chi2_unreliable(r->chi2_per_dof, r->iterations))
    return hg_fail(v->ctx, HEGETCL_ERR_INPUT,
                   "the integration is unreliable: its %u combined iterations disagree, chi2/dof "
                   "= %.2f (iterations that agree within their errors go so far with a "
                   "probability below 1e-6), so sigma = %.6g +- %.2g fb cannot be trusted: the "
                   "VEGAS grid did not settle (grid damping --vegas-alpha %g); adapt with more "
                   "events (--adapt-events, --adapt-iterations), take more events per iteration, "
                   "or lower --vegas-alpha",
                   r->iterations, r->chi2_per_dof, r->estimate, r->error, s->alpha);
  return HEGETCL_OK;
}

int hg_vegas_chi2_unreliable(double chi2_per_dof, unsigned iterations) {
  if (iterations < 3 || !(chi2_per_dof >= 0.0)) return 0;
  /* Wilson and Hilferty (1931): (chi2 / k)^(1/3) is close to normal with mean 1 - 2/(9k) and
   * variance 2/(9k); z > 4.75 is a tail probability below about 1e-6 */
  const double k = (double)(iterations - 1), v = 2.0 / (9.0 * k);
  const double z = (cbrt(chi2_per_dof) - (1.0 - v)) / sqrt(v);
  return z > 4.75;
}

void hg_vegas_save(const hg_vegas *v, hg_ckpt_writer *w) {
  const hegetcl_vegas_result *r = &v->result;
  const size_t n_edges = (size_t)v->dims * (v->bins + 1);
  hg_ckpt_put(w, "vegas.grid", "%u %u", v->dims, v->bins);
  hg_ckpt_put(w, "vegas.progress", "%u %u %d %llu %llu %llu %d", (unsigned)v->index, v->combined,
              v->done, (unsigned long long)r->events, (unsigned long long)r->events_total,
              (unsigned long long)r->events_nonzero, r->reached_target);
  const double sums[] = {v->inv_sum,      v->weighted,     r->estimate,       r->error,
                         r->chi2_per_dof, r->wall_seconds, v->last_max_weight};
  hg_ckpt_put_reals(w, "vegas.sums", sums, sizeof sums / sizeof *sums);
  hg_ckpt_put_reals(w, "vegas.edges", v->edges, n_edges);
  hg_ckpt_put_reals(w, "vegas.last_edges", v->last_edges, n_edges);
  hg_ckpt_put_reals(w, "vegas.estimates", v->estimates, v->combined);
  hg_ckpt_put_reals(w, "vegas.variances", v->variances, v->combined);
  for (uint32_t i = 0; i < v->index; ++i) {
    const hegetcl_vegas_iteration *it = &v->its[i];
    hg_ckpt_put(w, "vegas.iteration", "%u %d %llu %llu %u %a %a %a %a %a %a %a %a", it->index,
                it->adapting, (unsigned long long)it->events,
                (unsigned long long)it->events_nonzero, it->combined_iterations, it->estimate,
                it->error, it->variance, it->combined, it->combined_error, it->chi2_per_dof,
                it->max_weight, it->seconds);
  }
}

hegetcl_status hg_vegas_load(hg_vegas *v, hg_ckpt *c) {
  const hegetcl_vegas_settings *s = &v->settings;
  hegetcl_vegas_result *r = &v->result;
  uint64_t dims = 0, bins = 0, index = 0, combined = 0, done = 0, reached = 0;
  double sums[7];
  int status = hg_ckpt_scan(c, "vegas.grid", 0, "uu", &dims, &bins);
  if (status == 0 && (dims != v->dims || bins != v->bins))
    return hg_fail(v->ctx, HEGETCL_ERR_INPUT,
                   "%s: its VEGAS grid has %llu dimensions of %llu bins, this run's %u of %u: it "
                   "is another run's checkpoint",
                   c->path, (unsigned long long)dims, (unsigned long long)bins, v->dims, v->bins);
  if (status == 0)
    status = hg_ckpt_scan(c, "vegas.progress", 0, "uuuuuuu", &index, &combined, &done, &r->events,
                          &r->events_total, &r->events_nonzero, &reached);
  if (status == 0 && (combined > s->max_iterations || combined > index || index > UINT32_MAX / 2 ||
                      done > 1 || reached > 1 || hg_ckpt_count(c, "vegas.iteration") != index))
    return hg_fail(v->ctx, HEGETCL_ERR_INPUT,
                   "%s: its VEGAS progress (%llu iterations, %llu combined, %zu records) does not "
                   "fit this run's settings (at most %u combined): the checkpoint is corrupt",
                   c->path, (unsigned long long)index, (unsigned long long)combined,
                   hg_ckpt_count(c, "vegas.iteration"), s->max_iterations);
  const size_t n_edges = (size_t)v->dims * (v->bins + 1);
  if (status == 0) status = hg_ckpt_get_reals(c, "vegas.sums", 0, sums, 7);
  if (status == 0) status = hg_ckpt_get_reals(c, "vegas.edges", 0, v->edges, n_edges);
  if (status == 0) status = hg_ckpt_get_reals(c, "vegas.last_edges", 0, v->last_edges, n_edges);
  if (status == 0)
    status = hg_ckpt_get_reals(c, "vegas.estimates", 0, v->estimates, (size_t)combined);
  if (status == 0)
    status = hg_ckpt_get_reals(c, "vegas.variances", 0, v->variances, (size_t)combined);
  if (status != 0) return hg_fail(v->ctx, (hegetcl_status)status, "%s", c->message);
  v->index = (uint32_t)index;
  v->combined = (unsigned)combined;
  v->done = (int)done;
  r->reached_target = (int)reached;
  r->iterations = v->combined;
  v->inv_sum = sums[0];
  v->weighted = sums[1];
  r->estimate = sums[2];
  r->error = sums[3];
  r->chi2_per_dof = sums[4];
  r->wall_seconds = sums[5];
  v->last_max_weight = sums[6];
  for (uint32_t i = 0; i < v->index; ++i) {
    hegetcl_vegas_iteration it;
    memset(&it, 0, sizeof it);
    uint64_t at = 0, adapting = 0, combined_iterations = 0;
    status = hg_ckpt_scan(c, "vegas.iteration", i, "uuuuurrrrrrrr", &at, &adapting, &it.events,
                          &it.events_nonzero, &combined_iterations, &it.estimate, &it.error,
                          &it.variance, &it.combined, &it.combined_error, &it.chi2_per_dof,
                          &it.max_weight, &it.seconds);
    if (status == 0 && (at != i || adapting > 1))
      return hg_fail(v->ctx, HEGETCL_ERR_INPUT,
                     "%s: the record of iteration %u says %llu: the checkpoint is corrupt", c->path,
                     (unsigned)i, (unsigned long long)at);
    if (status != 0) return hg_fail(v->ctx, (hegetcl_status)status, "%s", c->message);
    it.index = i;
    it.adapting = (int)adapting;
    it.combined_iterations = (unsigned)combined_iterations;
    status = keep_iteration(v, &it);
    if (status != HEGETCL_OK) return (hegetcl_status)status;
  }
  return HEGETCL_OK;
}

/* hg_vegas_integrate's one worker: the sampler and a reducer on the VEGAS context. */
typedef struct {
  hg_vegas_reducer *reducer;
  hg_vegas_sampler sampler;
  void *user;
} single_device;

static hegetcl_status single_grid(void *user, unsigned worker, const double *edges) {
  (void)worker;
  const single_device *one = user;
  return hg_vegas_reducer_upload(one->reducer, edges);
}

static hegetcl_status single_batch(void *user, unsigned worker, uint32_t iteration,
                                   uint64_t first_event, size_t n_events, double *out) {
  (void)worker;
  const single_device *one = user;
  hegetcl_status status = one->sampler(one->user, iteration, first_event, n_events,
                                       hg_vegas_reducer_grid(one->reducer));
  if (status == HEGETCL_OK) status = hg_vegas_reducer_run(one->reducer, n_events, out);
  return status;
}

hegetcl_status hg_vegas_integrate(hg_vegas *v, hg_vegas_sampler sampler, void *user,
                                  const hg_vegas_buffers *buffers, hegetcl_vegas_progress progress,
                                  void *progress_user, hegetcl_vegas_result *result) {
  single_device one = {.sampler = sampler, .user = user};
  hegetcl_status status = hg_vegas_reducer_create(v->ctx, v->program, v->dims, v->bins,
                                                  v->settings.batch_size, &one.reducer);
  if (status == HEGETCL_OK) status = hg_vegas_reducer_set_buffers(one.reducer, buffers);
  hegetcl_context *const contexts[1] = {v->ctx};
  const hg_vegas_work work = {.workers = 1,
                              .contexts = contexts,
                              .grid = single_grid,
                              .batch = single_batch,
                              .user = &one};
  if (status == HEGETCL_OK) status = hg_vegas_run(v, &work, progress, progress_user, result);
  hg_vegas_reducer_destroy(one.reducer);
  return status;
}
