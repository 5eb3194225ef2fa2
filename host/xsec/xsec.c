/* SPDX-License-Identifier: MIT */
/* p p -> n photons cross sections: configuration checks, the sampler program, VEGAS, unweighted
 * events, and the checkpoints that let a long run stop and go on (docs/user-guide.md, "Long runs").
*/ #include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "amplitude/amplitude_internal.h"
#include "analysis/histograms.h"
#include "core/program.h"
#include "events/unweight.h"
#include "generator/run.h"
#include "hegetcl/pdf.h"
#include "hegetcl/xsec.h"
#include "integrate/vegas.h"
#include "pdf/lhapdf6_grid.h"
#include "phasespace/mg_cuts.h"
#include "shared/kernel_names.h"
#include "xsec/channels.h"
#include "xsec/checkpoint.h"
#include "xsec/params.h"
#include "xsec/precision_check.h"
#include "xsec/sampling.h"
#include "xsec/variations.h"
#include "xsec/xsec_device.h"

static const char *const phase_space_names[] = {"collider", "rambo", "multichannel", "auto"};
static const char *const orientation_names[] = {"both", "u-first"};
static const char *const helicity_names[] = {"summed", "sampled", "adaptive"};
/* how many values each enum has: its names, so that a new value is one entry above */
#define N_NAMES(names) ((int)(sizeof names / sizeof names[0]))

static hegetcl_status parse_name(const char *name, const char *const *names, int count, int *out) {
  for (int i = 0; i < count; ++i)
    if (name != NULL && strcmp(name, names[i]) == 0) {
      *out = i;
      return HEGETCL_OK;
    }
  return HEGETCL_ERR_INPUT;
}

const char *hegetcl_phase_space_name(hegetcl_phase_space p) {
  return (unsigned)p < (unsigned)N_NAMES(phase_space_names) ? phase_space_names[p] : "unknown";
}
hegetcl_status hegetcl_phase_space_parse(const char *name, hegetcl_phase_space *out) {
  int v = 0;
  const hegetcl_status s = parse_name(name, phase_space_names, N_NAMES(phase_space_names), &v);
  if (s == HEGETCL_OK) *out = (hegetcl_phase_space)v;
  return s;
}
hegetcl_phase_space hegetcl_phase_space_for(hegetcl_phase_space p, unsigned n_photons) {
  if (p != HEGETCL_PHASE_SPACE_AUTO) return p;
  return n_photons >= HEGETCL_MULTICHANNEL_FROM ? HEGETCL_PHASE_SPACE_MULTICHANNEL
                                                : HEGETCL_PHASE_SPACE_COLLIDER;
}
const char *hegetcl_orientation_name(hegetcl_orientation o) {
  return (unsigned)o < (unsigned)N_NAMES(orientation_names) ? orientation_names[o] : "unknown";
}
hegetcl_status hegetcl_orientation_parse(const char *name, hegetcl_orientation *out) {
  int v = 0;
  const hegetcl_status s = parse_name(name, orientation_names, N_NAMES(orientation_names), &v);
  if (s == HEGETCL_OK) *out = (hegetcl_orientation)v;
  return s;
}
const char *hegetcl_helicity_mode_name(hegetcl_helicity_mode h) {
  return (unsigned)h < (unsigned)N_NAMES(helicity_names) ? helicity_names[h] : "unknown";
}
hegetcl_status hegetcl_helicity_mode_parse(const char *name, hegetcl_helicity_mode *out) {
  int v = 0;
  const hegetcl_status s = parse_name(name, helicity_names, N_NAMES(helicity_names), &v);
  if (s == HEGETCL_OK) *out = (hegetcl_helicity_mode)v;
  return s;
}

static const char *const flavour_names[5] = {"d", "u", "s", "c", "b"};

hegetcl_status hegetcl_flavours_parse(const char *list, unsigned *out) {
  if (list == NULL || list[0] == '\0') return HEGETCL_ERR_INPUT;
  if (strcmp(list, "all") == 0) {
    *out = HEGETCL_ALL_FLAVOURS;
    return HEGETCL_OK;
  }
  unsigned set = 0;
  for (const char *p = list;;) {
    const size_t length = strcspn(p, ",");
    int pid = 0;
    for (int q = 1; q <= 5; ++q)
      if (length == 1 && p[0] == flavour_names[q - 1][0]) pid = q;
    if (pid == 0 || (set & HEGETCL_FLAVOUR_BIT(pid))) return HEGETCL_ERR_INPUT;
    set |= HEGETCL_FLAVOUR_BIT(pid);
    if (p[length] == '\0') break;
    p += length + 1;
  }
  *out = set;
  return HEGETCL_OK;
}

void hegetcl_flavours_name(unsigned flavours, char *out, size_t size) {
  size_t used = 0;
  out[0] = '\0';
  for (int q = 1; q <= 5; ++q)
    if (flavours & HEGETCL_FLAVOUR_BIT(q))
      used += (size_t)snprintf(out + used, used < size ? size - used : 0, "%s%s",
                               used > 0 ? "," : "", flavour_names[q - 1]);
  if (flavours == 0) snprintf(out, size, "%s", "none");
}

void hegetcl_xsec_defaults(hegetcl_xsec_config *c, unsigned n_photons) {
  memset(c, 0, sizeof *c);
  hegetcl_process_defaults(&c->process, n_photons);
  c->quark_pid = 2;
  c->sqrt_s_gev = 14000.0;
  c->mu_f_gev = 20.0;
  c->pt_min_gev = 20.0;
  c->eta_max = 2.5;
  c->delta_r_min = 0.4;
  snprintf(c->pdf_set, sizeof c->pdf_set, "%s", "cteq6l1");
  c->pdf_member = 0;
  c->phase_space = HEGETCL_PHASE_SPACE_AUTO;
  c->orientation = HEGETCL_ORIENTATION_BOTH;
  c->helicity = HEGETCL_HELICITY_SUMMED;
  hegetcl_vegas_settings_defaults(&c->vegas);
  hegetcl_histogram_binning_defaults(&c->binning);
  c->max_unweighting_tries = 1000000000000ull;
  c->mu_r_gev = c->mu_f_gev;
  c->dynamical_scale_choice = 3;
  c->group_engine = -1;
  hg_mg_cuts_off(c->cuts);
  c->mu_r_factor = 1.0;
  c->mu_f_factor = 1.0;
}

void hegetcl_xsec_result_free(hegetcl_xsec_result *result) {
  if (result->variation_histograms != NULL && result->variations != NULL)
    hegetcl_histograms_free(result->variation_histograms,
                            result->variations->list.n * result->n_histograms);
  result->variation_histograms = NULL;
  hegetcl_histograms_free(result->histograms, result->n_histograms);
  result->histograms = NULL;
  result->n_histograms = 0;
  free(result->helicity_probabilities);
  result->helicity_probabilities = NULL;
  result->n_helicity_probabilities = 0;
  free(result->groups);
  result->groups = NULL;
  result->n_groups = 0;
  free(result->process_channels);
  result->process_channels = NULL;
  result->n_process_channels = 0;
  free(result->variations);
  result->variations = NULL;
}

static unsigned dims_of(const hegetcl_xsec_config *c) {
  const unsigned n = c->process.n_photons;
  return c->phase_space == HEGETCL_PHASE_SPACE_RAMBO ? 4 * n + 2 : 3 * n - 2;
}

/* Whether n photons fit in |eta| < eta_max with every pair Delta R > dr apart (a necessary
 * condition; 0 means no event can pass the cuts). On the (eta, phi) cylinder of circumference 2 pi,
 * disks of radius dr / 2 around the photons are disjoint and lie in the band |eta| < eta_max +
 * dr / 2: for dr <= pi (disks that do not wrap) their area n pi dr^2 / 4 is at most the band's
 * 2 pi (2 eta_max + dr). For dr > pi, Delta phi <= pi leaves every pair Delta eta >
 * sqrt(dr^2 - pi^2), and n photons need n - 1 such gaps inside 2 eta_max. */
static int photons_fit(unsigned n, double eta_max, double dr) {
  const double pi = 3.14159265358979323846;
  if (n < 2 || !(dr > 0.0)) return 1;
  if (dr <= pi) return n * dr * dr / 8.0 <= 2.0 * eta_max + dr;
  return (n - 1) * sqrt(dr * dr - pi * pi) < 2.0 * eta_max;
}

/* The device memory a batch of events needs, per event: every buffer whose size grows with the
 * batch (amplitude, sampler, VEGAS and histogram partial sums, unweighting flags), and the largest
 * of them with its name. */
static double batch_bytes_per_event(const hegetcl_xsec_config *c, double *largest,
                                    const char **largest_name) {
  const unsigned n = c->process.n_photons, dims = dims_of(c);
  const double real = c->process.precision == HEGETCL_PRECISION_DOUBLE ? 8.0 : 4.0;
  const double pairs = n * (n - 1) / 2.0, fills = (double)hg_histograms_fills(n);
  const hegetcl_histogram_binning *b = &c->binning;
  const double histogram_bins = n * (b->pt_gev.bins + 2.0) + n * (b->eta.bins + 2.0) +
                                (1.0 + pairs) * (b->delta_r.bins + 2.0) + (b->mass_gev.bins + 2.0);
  const struct {
    const char *name;
    double bytes;
  } buffers[] = {
      {"the momenta", 4.0 * (n + 2) * real},
      {"the helicities", 4.0},
      {"|M|^2", real},
      {"partial amplitudes", c->process.engine == HEGETCL_ENGINE_DIAGRAMS ? 2.0 * real : 0.0},
      {"the weight factors", 8.0},
      {"the VEGAS bin indices", dims},
      {"the VEGAS partial sums", (5.0 + (double)dims * c->vegas.bins) * 8.0 / 1024.0},
      {"the observable values", c->histograms ? 4.0 * fills : 0.0},
      {"the observable bins", c->histograms ? 2.0 * fills : 0.0},
      {"the partial histograms", c->histograms ? histogram_bins * 5.0 * 8.0 / 2048.0 : 0.0},
      {"the unweighting flags", c->unweighted_events > 0 ? 1.0 : 0.0},
  };
  double total = 0.0;
  *largest = 0.0;
  for (size_t i = 0; i < sizeof buffers / sizeof buffers[0]; ++i) {
    total += buffers[i].bytes;
    if (buffers[i].bytes > *largest) {
      *largest = buffers[i].bytes;
      *largest_name = buffers[i].name;
    }
  }
  return total;
}

/* The batch against the device's memory, before anything is allocated: the largest buffer against
 * CL_DEVICE_MAX_MEM_ALLOC_SIZE and all of them against CL_DEVICE_GLOBAL_MEM_SIZE. The message
 * names the largest power-of-two batch that fits. */
static hegetcl_status check_batch_memory(hegetcl_context *ctx, const hegetcl_xsec_config *c) {
  const double batch = (double)c->vegas.batch_size, gib = 1073741824.0;
  const double max_buffer = (double)ctx->info.max_buffer_bytes;
  const double global = (double)ctx->info.global_memory_bytes;
  double largest = 0.0;
  const char *largest_name = "";
  const double total = batch_bytes_per_event(c, &largest, &largest_name);
  const int buffer_too_big = max_buffer > 0 && batch * largest > max_buffer;
  const int total_too_big = global > 0 && batch * total > global;
  if (!buffer_too_big && !total_too_big) return HEGETCL_OK;
  double fits = max_buffer > 0 ? floor(max_buffer / largest) : batch;
  if (global > 0 && floor(global / total) < fits) fits = floor(global / total);
  double suggestion = 128.0;
  while (2.0 * suggestion <= fits) suggestion *= 2.0;
  char fix[160];
  if (fits >= 128.0)
    snprintf(fix, sizeof fix, "use --batch %.0f or less", suggestion);
  else
    snprintf(fix, sizeof fix,
             "not even the smallest batch (128 events) fits: use fewer photons, "
             "float precision or another --device");
  if (buffer_too_big)
    return hg_fail(ctx, HEGETCL_ERR_DEVICE_MEMORY,
                   "batch = %zu events per launch: %s alone would take %.3g GiB (%.0f bytes an "
                   "event), more than %s allows in one buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE = "
                   "%.3g GiB); %s",
                   c->vegas.batch_size, largest_name, batch * largest / gib, largest,
                   ctx->info.name, max_buffer / gib, fix);
  return hg_fail(ctx, HEGETCL_ERR_DEVICE_MEMORY,
                 "batch = %zu events per launch needs %.3g GiB of device memory (%.0f bytes an "
                 "event), more than %s has (CL_DEVICE_GLOBAL_MEM_SIZE = %.3g GiB); %s",
                 c->vegas.batch_size, batch * total / gib, total, ctx->info.name, global / gib,
                 fix);
}

/* The configuration's own checks (the PDF's are in check_pdf_range, once the set is read). The
 * messages name the `hegetcl xsec` options, which are also the run card's keys. */
static hegetcl_status validate(hegetcl_context *ctx, const hegetcl_xsec_config *c) {
  const unsigned n = c->process.n_photons;
  if (n < 2 || n > HEGETCL_MAX_XSEC_PHOTONS)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "n = %u photons: the cross section supports 2..%d", n,
                   HEGETCL_MAX_XSEC_PHOTONS);
  if (!(c->sqrt_s_gev > 0.0) || !isfinite(c->sqrt_s_gev))
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "sqrt-s = %g GeV: must be a positive number",
                   c->sqrt_s_gev);
  if (!(c->pt_min_gev > 0.0) || !isfinite(c->pt_min_gev))
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "pt-min = %g GeV (the photon pT cut): must be > 0 (it keeps the photons away "
                   "from the soft and collinear singularities, where sigma is infinite)",
                   c->pt_min_gev);
  if (n * c->pt_min_gev >= c->sqrt_s_gev)
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "sqrt-s = %g GeV is below the threshold n * pt-min = %u * %g GeV = %g GeV: no "
                   "photon configuration passes the cuts; raise --sqrt-s, or lower --pt-min or --n",
                   c->sqrt_s_gev, n, c->pt_min_gev, n * c->pt_min_gev);
  if (!(c->eta_max > 0.0) || !isfinite(c->eta_max))
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "eta-max = %g (the photon |eta| cut): must be a positive number (the collider "
                   "phase space samples eta inside it)",
                   c->eta_max);
  if (!(c->delta_r_min >= 0.0) || !isfinite(c->delta_r_min))
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "dr-min = %g (the photon pair Delta R cut): must be >= 0 (0: no cut)",
                   c->delta_r_min);
  if (!photons_fit(n, c->eta_max, c->delta_r_min))
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "dr-min = %g with eta-max = %g: %u photons cannot all lie in |eta| < %g with "
                   "every pair Delta R > %g apart, so no event can pass the cuts; lower --dr-min, "
                   "raise --eta-max or ask for fewer photons",
                   c->delta_r_min, c->eta_max, n, c->eta_max, c->delta_r_min);
  if (!(c->mu_f_gev > 0.0) || !isfinite(c->mu_f_gev))
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "scale = %g GeV (the factorisation scale): must be > 0",
                   c->mu_f_gev);
  if (c->quark_pid < 1 || c->quark_pid > 5)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "quark PDG id %d: must be 1..5 (d u s c b)",
                   c->quark_pid);
  if (c->flavours & ~HEGETCL_ALL_FLAVOURS)
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "flavour set 0x%x: only bits 0..4 (PDG ids 1..5, d u s c b) may be set",
                   c->flavours);
  if (c->flavours != 0 && c->process.quark_charge != 2.0 / 3.0) {
    char names[32], charge[32];
    hegetcl_flavours_name(c->flavours, names, sizeof names);
    for (int digits = 6; digits <= 17; ++digits) { /* the shortest text that reads back */
      snprintf(charge, sizeof charge, "%.*g", digits, c->process.quark_charge);
      if (strtod(charge, NULL) == c->process.quark_charge) break;
    }
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "quark charge %s with the flavours %s: each flavour has its own charge "
                   "(d s b -1/3, u c 2/3) and |M|^2 is evaluated with u's; leave the charge at 2/3",
                   charge, names);
  }
  if ((unsigned)c->phase_space >= (unsigned)N_NAMES(phase_space_names) ||
      (unsigned)c->orientation >= (unsigned)N_NAMES(orientation_names) ||
      (unsigned)c->helicity >= (unsigned)N_NAMES(helicity_names))
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "phase space %d, orientation %d or helicity mode %d unknown: use the "
                   "HEGETCL_PHASE_SPACE_, HEGETCL_ORIENTATION_ and HEGETCL_HELICITY_ values",
                   (int)c->phase_space, (int)c->orientation, (int)c->helicity);
  /* measured (CONVENTIONS.md, "Phase space"): 20 seeds give pulls of standard deviation 0.98
   * and 1.03 for n = 2 and 3, 2.2 for n = 4 and 3800 for n = 5 */
  if (c->phase_space == HEGETCL_PHASE_SPACE_RAMBO && n > HEGETCL_RAMBO_MAX_PHOTONS)
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "phase-space rambo with n = %u photons: RAMBO spreads its points evenly over "
                   "phase space, so for n > %d the few points near the cuts' soft and collinear "
                   "edges carry most of sigma and its quoted error is no honest error (20 seeds "
                   "scatter 2 to 4000 times their errors, and sigma comes out low); use "
                   "--phase-space multichannel (or collider)",
                   n, HEGETCL_RAMBO_MAX_PHOTONS);
  if (c->helicity != HEGETCL_HELICITY_SUMMED && n > HEGETCL_SAMPLED_HELICITY_MAX_PHOTONS)
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "helicity mode %s with n = %u photons: one helicity configuration per event "
                   "gives no honest error beyond %d photons (its weights have a tail so heavy "
                   "that 10^8 events came out 12 %% to 4.7 times low with 1-4 %% errors at n = "
                   "10..12); use --helicity summed (the work-group-shared sum runs to n = 12)",
                   hegetcl_helicity_mode_name(c->helicity), n,
                   HEGETCL_SAMPLED_HELICITY_MAX_PHOTONS);
  if (c->histograms) {
    const hegetcl_status status = hg_histograms_check(ctx, &c->binning);
    if (status != HEGETCL_OK) return status;
  }
  /* the sampler is built in double whatever the amplitude's precision (CONVENTIONS.md, Cross
   * sections): --precision float is no way round a device without it */
  if (!ctx->info.has_fp64)
    return hg_fail(ctx, HEGETCL_ERR_UNSUPPORTED,
                   "%s does not offer double precision (cl_khr_fp64), which the cross section's "
                   "phase space, PDFs and sums need even with --precision float (that is |M|^2's "
                   "only): choose another --device (`hegetcl devices` lists fp64 for each)",
                   ctx->info.name);
  return check_batch_memory(ctx, c);
}

/* The PDF set's grid must hold every point the cuts allow: the sampler drops a point outside it
 * (cl/xsec/event.h), which would lower sigma unseen, so hegetcl never extrapolates a PDF in a
 * cross section. mu_F is fixed, so it lies inside Q's knots or not at all; x1 = sum of pT e^eta
 * / sqrt(s) (likewise x2 with -eta) is at least n pt-min e^-eta-max / sqrt(s). */
static hegetcl_status check_pdf_range(hegetcl_context *ctx, const hegetcl_xsec_config *c,
                                      const hegetcl_pdf *pdf) {
  double x_min = 0, x_max = 0, q_min = 0, q_max = 0;
  hg_pdf_grid_range(pdf, &x_min, &x_max, &q_min, &q_max);
  const char *set = hegetcl_pdf_set_name(pdf);
  if (!hg_pdf_grid_covers(pdf, x_max, c->mu_f_gev))
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "scale = %g GeV lies outside PDF set %s's grid, which spans Q = %g to %g GeV: "
                   "hegetcl does not extrapolate PDFs in a cross section; give a --scale inside "
                   "the grid, or a --pdf set whose grid covers %g GeV",
                   c->mu_f_gev, set, q_min, q_max, c->mu_f_gev);
  const unsigned n = c->process.n_photons;
  const double x_lowest = n * c->pt_min_gev * exp(-c->eta_max) / c->sqrt_s_gev;
  if (!hg_pdf_grid_covers(pdf, x_lowest, c->mu_f_gev))
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "the cuts reach x = %.3g (n * pt-min * e^-eta-max / sqrt-s = %u * %g GeV * "
                   "e^-%g / %g GeV), below PDF set %s's grid, which starts at x = %g: hegetcl "
                   "does not extrapolate PDFs in a cross section; raise --pt-min, lower "
                   "--eta-max or --sqrt-s, or give a --pdf set whose grid reaches lower x",
                   x_lowest, n, c->pt_min_gev, c->eta_max, c->sqrt_s_gev, set, x_min);
  return HEGETCL_OK;
}

/* The run's devices and state, passed to the callbacks. */
typedef struct {
  hegetcl_context *ctx;
  hg_xsec_device devices[HEGETCL_XSEC_MAX_DEVICES]; /* the context's first */
  hegetcl_context *contexts[HEGETCL_XSEC_MAX_DEVICES];
  unsigned n_devices;
  unsigned adapt_iterations;
  hg_histograms *histograms; /* the first device's, which holds the combination; NULL: none */
  hg_channels *channels;     /* likewise; NULL unless the run is over flavour channels */
  hg_xsec_variations *variations; /* likewise; NULL unless the run has variation weights */
  hg_sampling *sampling;     /* the adaptive helicity probabilities and channel weights */
  /* checkpoints */
  const hegetcl_xsec_config *config;
  const hegetcl_xsec_hooks *hooks;
  const hegetcl_xsec_checkpointing *cp; /* NULL: none */
  hg_vegas *vegas;
  hegetcl_xsec_result *result;
} xsec_run;

/* The sampler of the unweighting and the float check, on the first device (no histograms). */
static hegetcl_status sample_batch(void *user, uint32_t iteration, uint64_t first_event,
                                   size_t n_events, cl_mem grid) {
  xsec_run *r = user;
  return hg_xsec_device_sample(&r->devices[0], iteration, first_event, n_events, grid, 0);
}

/* The unweighting's kept events' variation ratios, on the first device with the final grid. */
static hegetcl_status variation_ratios(void *user, uint64_t first, const uint32_t *index, size_t n,
                                       double *ratios) {
  xsec_run *r = user;
  return hg_xsec_variations_ratios(r->variations, hg_vegas_reducer_grid(r->devices[0].reducer),
                                   first, index, n, ratios);
}

/* A VEGAS iteration's start on a device: the grid and the adaptive sampling's table. */
static hegetcl_status device_grid(void *user, unsigned worker, const double *edges) {
  xsec_run *r = user;
  hegetcl_status status = hg_vegas_reducer_upload(r->devices[worker].reducer, edges);
  if (status == HEGETCL_OK)
    status = hg_xsec_device_upload_sampling(&r->devices[worker], hg_sampling_table(r->sampling));
  return status;
}

/* A batch of an integration iteration on a device: its sums. */
static hegetcl_status device_batch(void *user, unsigned worker, uint32_t iteration,
                                   uint64_t first_event, size_t n_events, double *out) {
  xsec_run *r = user;
  const int combined = iteration >= r->adapt_iterations && iteration < HG_ITERATION_EVENTS;
  return hg_xsec_device_batch(&r->devices[worker], iteration, combined, first_event, n_events,
                              out);
}

/* After each VEGAS iteration: the combined ones' sums (extra: the histograms', then the
 * channels') go into the histograms and the channels; the adapting ones' (after those, the
 * adaptive sampling's) into the helicity probabilities and channel weights. */
static hegetcl_status end_iteration(void *user, uint32_t index, int adapting, uint64_t n_events,
                                    double estimate, double variance, const double *extra) {
  (void)index;
  (void)estimate;
  xsec_run *r = user;
  const size_t histogram_sums = r->histograms ? hg_histograms_batch_sums(r->histograms) : 0;
  const size_t channel_sums = r->channels ? hg_channels_batch_sums(r->channels) : 0;
  if (adapting) {
    if (hg_sampling_adapts(r->sampling))
      hg_sampling_learn(r->sampling, n_events, extra + histogram_sums + channel_sums);
    return HEGETCL_OK;
  }
  if (r->histograms != NULL) hg_histograms_end_iteration(r->histograms, n_events, variance, extra);
  if (r->channels != NULL)
    hg_channels_end_iteration(r->channels, n_events, variance, extra + histogram_sums);
  /* the variations' sums follow the adaptive sampling's (zeros in a combined iteration) */
  if (r->variations != NULL)
    hg_xsec_variations_end_iteration(r->variations, n_events, variance,
                                     extra + histogram_sums + channel_sums +
                                         r->devices[0].sampling_sums_count);
  return HEGETCL_OK;
}

/* Writes the run's state as the checkpoint (the histograms once the integration is complete, the
 * unweighting's state and the event sink's description when given). */
static hegetcl_status save_checkpoint(xsec_run *r, hegetcl_xsec_phase phase,
                                      const hg_unweight_state *events, const char *sink) {
  const hegetcl_xsec_checkpointing *cp = r->cp;
  hg_ckpt_writer *w = hg_ckpt_writer_create(HG_XSEC_CKPT_KIND, HG_XSEC_CKPT_VERSION);
  if (w == NULL) return hg_fail(r->ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the checkpoint");
  hg_ckpt_comment(w, "hegetcl xsec checkpoint: `hegetcl xsec --resume FILE`, run in the folder the "
                     "run started in, continues it");
  hg_ckpt_comment(w, "reals are C99 hexadecimal floating point (%%a): they read back bit for bit");
  hg_ckpt_comment(w, "%s after %u VEGAS iterations%s", hegetcl_xsec_phase_name(phase),
                  (unsigned)hg_vegas_iterations_done(r->vegas),
                  events ? "; the unweighting's progress is below" : "");
  hg_ckpt_put_text(w, "writer", cp->writer ? cp->writer : "");
  hg_ckpt_put(w, "phase", "%s", hegetcl_xsec_phase_name(phase));
  hg_ckpt_put_text(w, "device", r->ctx->info.name);
  hg_ckpt_put_text(w, "run_card", cp->run_card ? cp->run_card : "");
  hg_xsec_ckpt_put_config(w, r->config, cp->every_events);
  hg_vegas_save(r->vegas, w);
  hg_sampling_save(r->sampling, w);
  if (r->channels != NULL) hg_channels_save(r->channels, w);
  hg_xsec_variations_save(r->variations, w);
  if (phase != HEGETCL_XSEC_INTEGRATING && r->result->histograms != NULL)
    hg_xsec_ckpt_put_histograms(w, r->result->histograms, r->result->n_histograms);
  if (phase == HEGETCL_XSEC_INTEGRATING && r->histograms != NULL &&
      hg_vegas_iterations_done(r->vegas) > r->adapt_iterations) {
    /* the combined iterations' histogram sums so far */
    const size_t count = hg_histograms_state_size(r->histograms);
    double *state = malloc(count * sizeof *state);
    if (state == NULL) {
      hg_ckpt_writer_discard(w);
      return hg_fail(r->ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the histograms' checkpoint");
    }
    hg_histograms_save_state(r->histograms, state);
    hg_ckpt_put_reals(w, "histograms.state", state, count);
    free(state);
  }
  if (events != NULL) hg_unweight_save(events, w);
  if (sink != NULL) hg_ckpt_put_text(w, "sink", sink);
  char message[2048];
  const int status = hg_ckpt_writer_commit(w, cp->path, message, sizeof message);
  if (status != 0)
    return hg_fail(r->ctx, (hegetcl_status)status, "writing the checkpoint: %s", message);
  r->result->saved_iterations = hg_vegas_iterations_done(r->vegas);
  return HEGETCL_OK;
}

/* After every VEGAS iteration (with the histograms' sums of the combined ones). */
static hegetcl_status after_iteration(void *user) {
  return save_checkpoint(user, HEGETCL_XSEC_INTEGRATING, NULL, NULL);
}

/* During the unweighting: the event sink makes its events durable and describes them. */
static hegetcl_status during_unweighting(void *user, const hg_unweight_state *state, int stopping) {
  xsec_run *r = user;
  char *sink = NULL;
  hegetcl_status status = r->hooks->events_checkpoint(r->hooks->sink_user, stopping, &sink);
  if (status == HEGETCL_OK && sink == NULL)
    status = hg_fail(r->ctx, HEGETCL_ERR_NO_MEMORY, "the event sink gave no state to checkpoint");
  if (status == HEGETCL_OK) status = save_checkpoint(r, HEGETCL_XSEC_UNWEIGHTING, state, sink);
  free(sink);
  return status;
}

hegetcl_status hg_xsec_ckpt_check_fresh(hegetcl_context *ctx, const char *path) {
  if (access(path, F_OK) != 0 && errno == ENOENT) return HEGETCL_OK;
  hegetcl_xsec_checkpoint_info info;
  char message[2048];
  const hegetcl_status status = hegetcl_xsec_checkpoint_read(path, &info, message, sizeof message);
  const hegetcl_xsec_phase phase = info.phase;
  const unsigned iterations = info.iterations;
  hegetcl_xsec_checkpoint_info_free(&info);
  if (status == HEGETCL_OK && phase == HEGETCL_XSEC_FINISHED) return HEGETCL_OK;
  if (status == HEGETCL_OK)
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "checkpoint %s holds an unfinished run (%s, %u VEGAS iterations done): resume "
                   "it, or remove the file to start afresh",
                   path, hegetcl_xsec_phase_name(phase), iterations);
  return hg_fail(ctx, HEGETCL_ERR_INPUT,
                 "checkpoint %s exists and is not a finished run's checkpoint (%s): remove it or "
                 "choose another file",
                 path, message);
}

hegetcl_status hg_xsec_ckpt_open_resume(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                                        const hegetcl_xsec_checkpointing *cp, hg_ckpt *c,
                                        hegetcl_xsec_phase *phase) {
  hegetcl_xsec_checkpoint_info info;
  char message[2048];
  hegetcl_status status = hegetcl_xsec_checkpoint_read(cp->path, &info, message, sizeof message);
  *phase = info.phase;
  if (status == HEGETCL_OK && info.phase == HEGETCL_XSEC_FINISHED) {
    char events[96] = "";
    if (config->unweighted_events > 0)
      snprintf(events, sizeof events, ", %llu unweighted events",
               (unsigned long long)info.events_written);
    status = hg_fail(ctx, HEGETCL_ERR_INPUT,
                     "checkpoint %s: the run finished (sigma = %.6e +- %.2e fb%s): there is "
                     "nothing to resume",
                     cp->path, info.sigma_fb, info.error_fb, events);
  } else if (status != HEGETCL_OK) {
    hg_fail(ctx, status, "%s", message);
  }
  hegetcl_xsec_checkpoint_info_free(&info);
  if (status != HEGETCL_OK) return status;
  status = (hegetcl_status)hg_ckpt_read(cp->path, HG_XSEC_CKPT_KIND, HG_XSEC_CKPT_VERSION, c);
  if (status != HEGETCL_OK) return hg_fail(ctx, status, "%s", c->message);
  if (hg_xsec_ckpt_check_config(c, config, cp->every_events, message, sizeof message) != 0)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", message);
  return HEGETCL_OK;
}

/* A process's share of n events: the first n % size ranks make one more. */
static uint64_t share_of(uint64_t n, const hegetcl_team *team) {
  if (team == NULL || team->size <= 1) return n;
  const uint64_t size = (uint64_t)team->size, rank = (uint64_t)team->rank;
  return n / size + (rank < n % size ? 1 : 0);
}

/* The ranks' unweighting statistics added up (every rank calls it, whatever its status, so none
 * waits for a rank that failed), into every rank's result. */
static hegetcl_status combine_unweighting(hegetcl_context *ctx, const hegetcl_team *team,
                                          hegetcl_status status, const hg_unweight_state *mine,
                                          uint64_t requested, hegetcl_unweighting_result *result) {
  double sums[5 + HG_EVENT_STATS];
  sums[0] = (double)mine->written;
  sums[1] = (double)mine->tried;
  sums[2] = (double)mine->kept;
  sums[3] = mine->seconds;
  sums[4] = status != HEGETCL_OK ? team->rank + 1.0 : 0.0;
  memcpy(sums + 5, mine->stats, sizeof mine->stats);
  char message[512];
  if (team->allreduce_sum(team->user, sums, sizeof sums / sizeof *sums, message, sizeof message))
    return hg_fail(ctx, HEGETCL_ERR_IO, "combining the ranks' unweighting: %s", message);
  if (status != HEGETCL_OK) return status;
  if (sums[4] != 0.0)
    return hg_fail(ctx, HEGETCL_ERR_IO,
                   "another rank failed in the unweighting (rank number sum %.0f, counted from "
                   "1); its own error is in its output",
                   sums[4]);
  hg_unweight_state all = *mine;
  all.written = (uint64_t)sums[0];
  all.tried = (uint64_t)sums[1];
  all.kept = (uint64_t)sums[2];
  all.seconds = sums[3] / team->size; /* the ranks ran side by side */
  memcpy(all.stats, sums + 5, sizeof all.stats);
  const double max_weight = result->max_weight_fb;
  hg_unweight_summarise(&all, result);
  result->requested = requested;
  result->max_weight_fb = max_weight;
  return HEGETCL_OK;
}

hegetcl_status hegetcl_xsec_run(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                                hegetcl_vegas_progress progress, void *progress_user,
                                hegetcl_xsec_result *result) {
  const hegetcl_xsec_hooks hooks = {.progress = progress, .progress_user = progress_user};
  return hegetcl_xsec_generate(ctx, config, &hooks, result);
}

hegetcl_status hegetcl_xsec_generate(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                                     const hegetcl_xsec_hooks *hooks, hegetcl_xsec_result *result) {
  memset(result, 0, sizeof *result);
  if (config->process_text[0] != '\0') return hg_gen_generate(ctx, config, hooks, result);
  /* HEGETCL_PHASE_SPACE_AUTO becomes the map it stands for before anything reads it: the
   * checkpoint, the build options and the sampler all see that map */
  hegetcl_xsec_config resolved = *config;
  resolved.phase_space = hegetcl_phase_space_for(config->phase_space, config->process.n_photons);
  config = &resolved;
  if (config->unweighted_events > 0 && (hooks == NULL || hooks->sink == NULL))
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "%llu unweighted events asked for but no event sink given",
                   (unsigned long long)config->unweighted_events);
  hegetcl_status status = validate(ctx, config);
  if (status != HEGETCL_OK) return status;
  const hegetcl_xsec_sharing *sharing = hooks ? hooks->sharing : NULL;
  const hegetcl_team *team = sharing ? sharing->team : NULL;
  const unsigned more = sharing ? sharing->n_devices : 0;
  if (more + 1 > HEGETCL_XSEC_MAX_DEVICES)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "%u devices: a process runs on at most %d", more + 1,
                   HEGETCL_XSEC_MAX_DEVICES);
  for (unsigned k = 0; k < more; ++k) {
    status = validate(sharing->devices[k], config);
    if (status != HEGETCL_OK)
      return hg_fail(ctx, status, "%s", hegetcl_last_error(sharing->devices[k]));
  }
  if (team != NULL && (team->size < 1 || team->rank < 0 || team->rank >= team->size ||
                       team->allreduce_sum == NULL))
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "a team of %d processes with rank %d: not a team",
                   team->size, team->rank);
  if (team != NULL && team->size > 1 && hooks->checkpointing != NULL &&
      hooks->checkpointing->path != NULL && hooks->checkpointing->path[0] != '\0')
    return hg_fail(ctx, HEGETCL_ERR_UNSUPPORTED,
                   "checkpoints of a run shared by %d processes are not supported: run without "
                   "--checkpoint, or in one process, which may use several GPUs (--device all-gpus, or a list)",
                   team->size);
  const hegetcl_xsec_checkpointing *cp = hooks ? hooks->checkpointing : NULL;
  const int checkpoints = cp != NULL && cp->path != NULL && cp->path[0] != '\0';
  if (cp != NULL && cp->resume && !checkpoints)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "resuming needs the checkpoint's path");
  if (checkpoints && config->unweighted_events > 0 &&
      (hooks->events_checkpoint == NULL || hooks->events_resume == NULL))
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "checkpoints of a run with unweighted events need the events_checkpoint and "
                   "events_resume hooks (the event file must continue where it stopped)");
  hg_ckpt saved;
  memset(&saved, 0, sizeof saved);
  hegetcl_xsec_phase resume_phase = 0;
  if (checkpoints && cp->resume) {
    status = hg_xsec_ckpt_open_resume(ctx, config, cp, &saved, &resume_phase);
    if (status != HEGETCL_OK) {
      hg_ckpt_free(&saved);
      return status;
    }
    result->resumed = (int)resume_phase;
  } else if (checkpoints) {
    status = hg_xsec_ckpt_check_fresh(ctx, cp->path);
    if (status != HEGETCL_OK) return status;
  }
  const unsigned n = config->process.n_photons, dims = dims_of(config);
  const size_t batch = config->vegas.batch_size;
  const int per_helicity = config->helicity != HEGETCL_HELICITY_SUMMED;
  xsec_run run = {.ctx = ctx,
                  .n_devices = 1 + more,
                  .adapt_iterations = config->vegas.adapt_iterations,
                  .config = config,
                  .hooks = hooks,
                  .cp = checkpoints ? cp : NULL,
                  .result = result};
  run.contexts[0] = ctx;
  for (unsigned k = 0; k < more; ++k) run.contexts[1 + k] = sharing->devices[k];
  hegetcl_pdf *pdf = NULL;
  double *grid = NULL;
  hg_vegas *vegas = NULL;
  hg_xsec_var_setup var_setup;
  memset(&var_setup, 0, sizeof var_setup);
  char message[2048];
  char *sink_state = NULL;
  hg_unweight_state events_state;
  memset(&events_state, 0, sizeof events_state);
  status = hegetcl_pdf_open(config->pdf_set, config->pdf_member, &pdf, message, sizeof message);
  if (status != HEGETCL_OK) {
    hg_fail(ctx, status, "%s", message);
    goto done;
  }
  status = check_pdf_range(ctx, config, pdf);
  if (status != HEGETCL_OK) goto done;
  result->pdf_lhapdf_id = hegetcl_pdf_lhapdf_id(pdf);
  result->alpha_s = hegetcl_pdf_alpha_s_one_loop(pdf, config->mu_f_gev);
  snprintf(result->pdf_path, sizeof result->pdf_path, "%s", hegetcl_pdf_directory(pdf));
  /* one flavour: quark and antiquark in slots 0 and 1; flavour channels: flavour k's in 2k and
   * 2k + 1 */
  int pids[10] = {config->quark_pid, -config->quark_pid};
  int flavour_pids[5] = {0, 0, 0, 0, 0};
  unsigned n_flavours = 0, n_channels = 0;
  if (config->flavours != 0) {
    n_channels = hg_xsec_channels_of(config, result->channels, flavour_pids, &n_flavours);
    result->n_channels = n_channels;
    for (unsigned k = 0; k < n_flavours; ++k) {
      pids[2 * k] = flavour_pids[k];
      pids[2 * k + 1] = -flavour_pids[k];
    }
  }
  size_t n_grid = 0;
  status = hg_pdf_pack(pdf, pids, n_flavours > 0 ? 2 * n_flavours : 2, &grid, &n_grid, message,
                       sizeof message);
  if (status != HEGETCL_OK) {
    hg_fail(ctx, status, "%s", message);
    goto done;
  }

  status = hg_xsec_var_setup_make(ctx, config, pdf, pids, n_flavours > 0 ? 2 * n_flavours : 2,
                                  &var_setup);
  if (status != HEGETCL_OK) goto done;

  double params[HG_XSEC_PARAM_COUNT];
  params[HG_XSEC_SQRT_S] = config->sqrt_s_gev;
  params[HG_XSEC_PT_MIN] = config->pt_min_gev;
  params[HG_XSEC_ETA_MAX] = config->eta_max;
  params[HG_XSEC_DR_MIN] = config->delta_r_min;
  params[HG_XSEC_MU_F2] = config->mu_f_gev * config->mu_f_gev;
  /* one flavour with both orientations: twice the quark from proton 1 (CONVENTIONS.md); flavour
   * channels count the antiquark from proton 1 as channels of their own */
  const int doubled = config->orientation == HEGETCL_ORIENTATION_BOTH && n_channels == 0;
  params[HG_XSEC_NORMALISATION] = HEGETCL_GEV2_TO_FB * (doubled ? 2.0 : 1.0);
  params[HG_XSEC_MIRROR] = doubled ? 1.0 : 0.0;
  /* (Q_q / Q_u)^(2n): 1 for u and c, (1/2)^(2n) for d, s and b (exact: a power of two) */
  for (unsigned k = 0; k < 5; ++k)
    params[HG_XSEC_CHANNEL_NORM(k)] = k < n_flavours && flavour_pids[k] % 2 != 0
                                          ? ldexp(HEGETCL_GEV2_TO_FB, -2 * (int)n)
                                          : HEGETCL_GEV2_TO_FB;
  const hegetcl_bins *families[4] = {&config->binning.pt_gev, &config->binning.eta,
                                     &config->binning.delta_r, &config->binning.mass_gev};
  for (int f = 0; f < 4; ++f) {
    params[HG_XSEC_HIST_BINS(f)] = (double)families[f]->bins;
    params[HG_XSEC_HIST_LO(f)] = families[f]->lo;
    params[HG_XSEC_HIST_HI(f)] = families[f]->hi;
  }
  const hg_xsec_setup setup = {.config = config,
                               .params = params,
                               .pdf_grid = grid,
                               .n_grid = n_grid,
                               .dims = dims,
                               .n_flavours = n_flavours,
                               .n_channels = n_channels,
                               .per_helicity = per_helicity,
                               .seed = config->vegas.seed,
                               .variations = &var_setup};
  for (unsigned k = 0; k < run.n_devices && status == HEGETCL_OK; ++k) {
    status = hg_xsec_device_open(&run.devices[k], run.contexts[k], &setup);
    if (status != HEGETCL_OK && k > 0)
      hg_fail(ctx, status, "%s", hegetcl_last_error(run.contexts[k]));
  }
  if (status != HEGETCL_OK) goto done;
  hg_xsec_device *first = &run.devices[0];
  result->build_seconds += first->build_seconds;
  snprintf(result->amplitude_options, sizeof result->amplitude_options, "%s", first->amp->options);
  snprintf(result->sampler_options, sizeof result->sampler_options, "%s",
           first->sampler_options);
  cl_program program = first->program;
  run.histograms = first->histograms;
  run.channels = first->channels;
  run.variations = first->variations;

  status = hg_vegas_create(ctx, program, dims, &config->vegas, &vegas);
  if (status != HEGETCL_OK) goto done;
  run.sampling = hg_sampling_create(config);
  if (run.sampling == NULL) {
    status = hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the adaptive sampling's tables");
    goto done;
  }
  run.vegas = vegas;
  /* adaptive helicities: the grid, like the learnt probabilities, stays fixed once adapted (with
   * refinement after every iteration the grid collapsed onto the sampled configurations' few
   * heaviest events at n = 12: docs/validation.md, "Cross sections to n = 12") */
  hg_vegas_freeze_after_adaptation(vegas, config->helicity == HEGETCL_HELICITY_ADAPTIVE);
  hg_vegas_set_observer(vegas, end_iteration, &run);
  if (cp != NULL) hg_vegas_set_stop(vegas, cp->stop);
  if (resume_phase != 0) {
    status = hg_vegas_load(vegas, &saved);
    if (status == HEGETCL_OK && run.histograms != NULL &&
        resume_phase == HEGETCL_XSEC_INTEGRATING &&
        hg_vegas_iterations_done(vegas) > run.adapt_iterations) {
      const size_t count = hg_histograms_state_size(run.histograms);
      double *state = malloc(count * sizeof *state);
      if (state == NULL)
        status = hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the histograms' checkpoint");
      else if (hg_ckpt_get_reals(&saved, "histograms.state", 0, state, count) != 0)
        status = hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", saved.message);
      else
        hg_histograms_load_state(run.histograms, state);
      free(state);
    }
    if (status == HEGETCL_OK && run.channels != NULL && hg_channels_load(run.channels, &saved) != 0)
      status = hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", saved.message);
    if (status == HEGETCL_OK && hg_xsec_variations_load(run.variations, &saved) != 0)
      status = hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", saved.message);
    if (status == HEGETCL_OK && hg_sampling_load(run.sampling, &saved) != 0)
      status = hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", saved.message);
    if (status == HEGETCL_OK && resume_phase == HEGETCL_XSEC_UNWEIGHTING) {
      const int loaded = hg_unweight_load(&events_state, &saved) == 0 &&
                         hg_ckpt_get_text(&saved, "sink", &sink_state) == 0;
      if (!loaded) status = hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", saved.message);
    }
    if (status != HEGETCL_OK) goto done;
    result->saved_iterations = hg_vegas_iterations_done(vegas);
  } else if (run.cp != NULL) {
    status = save_checkpoint(&run, HEGETCL_XSEC_INTEGRATING, NULL, NULL); /* claims the path */
    if (status != HEGETCL_OK) goto done;
  }
  if (run.cp != NULL) hg_vegas_set_checkpoint(vegas, after_iteration, &run);
  const hg_vegas_work work = {.workers = run.n_devices,
                              .contexts = run.contexts,
                              .extra = hg_xsec_device_extra_sums(first),
                              .grid = device_grid,
                              .batch = device_batch,
                              .user = &run,
                              .team = team};
  status = hg_vegas_run(vegas, &work, hooks ? hooks->progress : NULL,
                        hooks ? hooks->progress_user : NULL, &result->vegas);
  if (run.channels != NULL) hg_channels_result(run.channels, result->channels);
  if (status == HEGETCL_OK) status = hg_xsec_variations_result(run.variations, result);
  if (status != HEGETCL_OK) goto done;
  hg_sampling_report(run.sampling, result);
  /* the sampler of the float check and the unweighting draws from the learnt table (a run resumed
   * after its integration has not uploaded it yet) */
  status = hg_xsec_device_upload_sampling(first, hg_sampling_table(run.sampling));
  if (status != HEGETCL_OK) goto done;
  if (hg_vegas_stopped(vegas)) {
    result->stopped = HEGETCL_XSEC_INTEGRATING; /* the checkpoint holds the last saved iteration */
    goto done;
  }
  if (config->process.precision == HEGETCL_PRECISION_FLOAT) {
    /* how far the float amplitudes stray: a sample of events from the final grid, again in double */
    const size_t k = batch < HG_PRECISION_CHECK_EVENTS ? batch : HG_PRECISION_CHECK_EVENTS;
    size_t checked = 0;
    status = hg_vegas_reducer_upload(first->reducer, hg_vegas_last_edges(vegas));
    if (status == HEGETCL_OK)
      status = sample_batch(&run, HG_ITERATION_PRECISION_CHECK, 0, k,
                            hg_vegas_reducer_grid(first->reducer));
    if (status == HEGETCL_OK)
      status = hg_precision_check(ctx, first->amp, first->factor, k, per_helicity, &checked,
                                  &result->float_max_deviation, &result->float_mean_deviation,
                                  &result->float_sigma_deviation);
    if (status != HEGETCL_OK) goto done;
    result->float_checked = checked;
  }
  if (run.histograms != NULL && run.variations != NULL) {
    size_t per = 0;
    result->variation_histograms = hg_xsec_variations_take_histograms(run.variations, &per);
    if (result->variation_histograms == NULL) {
      status = hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the variations' histograms");
      goto done;
    }
  }
  if (run.histograms != NULL) {
    result->histograms = hg_histograms_take(run.histograms, &result->n_histograms);
    if (resume_phase == HEGETCL_XSEC_UNWEIGHTING) {
      const int loaded =
          hg_xsec_ckpt_get_histograms(&saved, result->histograms, result->n_histograms) == 0;
      if (!loaded) status = hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", saved.message);
      if (status != HEGETCL_OK) goto done;
    }
  }
  if (config->unweighted_events > 0) {
    /* a resumed unweighting goes on in the event file where its checkpoint left it */
    const int go_on = resume_phase == HEGETCL_XSEC_UNWEIGHTING && sink_state[0] != '\0';
    if (go_on)
      status = hooks->events_resume(result, sink_state, hooks->sink_user);
    else if (hooks->events_begin)
      status = hooks->events_begin(result, hooks->sink_user);
    if (status == HEGETCL_OK && run.cp != NULL && !go_on) {
      memset(&events_state, 0, sizeof events_state);
      status = save_checkpoint(&run, HEGETCL_XSEC_UNWEIGHTING, &events_state, "");
    }
    hg_unweight_inputs in = {.program = program,
                             .n_photons = n,
                             .quark_pid = config->quark_pid,
                             .both_orientations = doubled,
                             .n_channels = n_channels,
                             .helicity_sampled = per_helicity,
                             .mu_f_gev = config->mu_f_gev,
                             .mu_r_gev = config->mu_f_gev,
                             .alpha_s = result->alpha_s,
                             .alpha_qed = config->process.alpha,
                             .process_id = 1,
                             .seed = config->vegas.seed,
                             .batch = batch,
                             .max_weight = hg_vegas_last_max_weight(vegas),
                             .requested = share_of(config->unweighted_events, team),
                             .first_event = team != NULL ? (uint64_t)team->rank << 40 : 0,
                             .max_tries = config->max_unweighting_tries,
                             .sampler = sample_batch,
                             .sampler_user = &run,
                             .params = first->params,
                             .pdf = first->pdf,
                             .sampling = first->sampling,
                             .factor = first->factor,
                             .me = first->amp->me,
                             .n_variations = hg_xsec_variations_count(run.variations),
                             .ratios = variation_ratios,
                             .ratios_user = &run,
                             .resume = go_on ? &events_state : NULL,
                             .checkpoint_every = run.cp != NULL ? cp->every_events : 0,
                             .checkpoint = run.cp != NULL ? during_unweighting : NULL,
                             .checkpoint_user = &run,
                             .stop = cp != NULL ? cp->stop : NULL};
    for (unsigned c = 0; c < n_channels; ++c) in.channel_pid[c] = result->channels[c].pid[0];
    int stopped = 0;
    in.grid = hg_vegas_reducer_grid(first->reducer);
    if (status == HEGETCL_OK)
      status = hg_vegas_reducer_upload(first->reducer, hg_vegas_last_edges(vegas));
    if (status == HEGETCL_OK)
      status = hg_unweight_run(ctx, &in, hooks->sink, hooks->sink_user, hooks->events_progress,
                               hooks->events_progress_user, &result->unweighting, &stopped,
                               &events_state);
    if (team != NULL && team->size > 1)
      status = combine_unweighting(ctx, team, status, &events_state, config->unweighted_events,
                                   &result->unweighting);
    if (status != HEGETCL_OK) goto done;
    if (stopped) {
      result->stopped = HEGETCL_XSEC_UNWEIGHTING;
      goto done;
    }
  }
  if (run.cp != NULL)
    status = save_checkpoint(&run, HEGETCL_XSEC_FINISHED,
                             config->unweighted_events > 0 ? &events_state : NULL, NULL);
done:
  hg_sampling_destroy(run.sampling);
  hg_vegas_destroy(vegas);
  for (unsigned k = 0; k < run.n_devices; ++k) hg_xsec_device_close(&run.devices[k]);
  free(grid);
  hg_xsec_var_setup_free(&var_setup);
  free(sink_state);
  hg_ckpt_free(&saved);
  hegetcl_pdf_close(pdf);
  return status;
}
