/* SPDX-License-Identifier: MIT */
/* The photon family: its checks, its data and devices, and the VEGAS callbacks that run its
 * kernels (xsec/photon_family.h). */
#include "xsec/photon_family.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/histograms.h"
#include "hegetcl/pdf.h"
#include "pdf/lhapdf6_grid.h"
#include "xsec/channels.h"
#include "xsec/params.h"
#include "xsec/precision_check.h"
#include "xsec/variations.h"

void hg_photon_family_resolve(const hegetcl_xsec_config *config, hegetcl_xsec_config *out) {
  /* HEGETCL_PHASE_SPACE_AUTO becomes the map it stands for before anything reads it: the
   * checkpoint, the build options and the sampler all see that map */
  *out = *config;
  out->phase_space = hegetcl_phase_space_for(config->phase_space, config->process.n_photons);
}

unsigned hg_photon_family_dims(const hegetcl_xsec_config *c) {
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
  const unsigned n = c->process.n_photons, dims = hg_photon_family_dims(c);
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
  if (strcmp(hegetcl_phase_space_name(c->phase_space), "unknown") == 0 ||
      strcmp(hegetcl_orientation_name(c->orientation), "unknown") == 0 ||
      strcmp(hegetcl_helicity_mode_name(c->helicity), "unknown") == 0)
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

hegetcl_status hg_photon_family_check(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                                      const hegetcl_xsec_sharing *sharing) {
  hegetcl_status status = validate(ctx, config);
  if (status != HEGETCL_OK) return status;
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
  if (team != NULL &&
      (team->size < 1 || team->rank < 0 || team->rank >= team->size || team->allreduce_sum == NULL))
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "a team of %d processes with rank %d: not a team",
                   team->size, team->rank);
  return HEGETCL_OK;
}

hegetcl_status hg_photon_family_open(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                                     const hegetcl_xsec_sharing *sharing,
                                     hegetcl_xsec_result *result, hg_photon_family *f) {
  memset(f, 0, sizeof *f);
  const unsigned more = sharing ? sharing->n_devices : 0;
  f->ctx = ctx;
  f->config = *config;
  config = &f->config;
  f->n_devices = 1 + more;
  f->adapt_iterations = config->vegas.adapt_iterations;
  f->team = sharing ? sharing->team : NULL;
  f->contexts[0] = ctx;
  for (unsigned k = 0; k < more; ++k) f->contexts[1 + k] = sharing->devices[k];
  char message[2048];
  hegetcl_status status =
      hegetcl_pdf_open(config->pdf_set, config->pdf_member, &f->pdf, message, sizeof message);
  if (status != HEGETCL_OK) return hg_fail(ctx, status, "%s", message);
  status = check_pdf_range(ctx, config, f->pdf);
  if (status != HEGETCL_OK) return status;
  result->pdf_lhapdf_id = hegetcl_pdf_lhapdf_id(f->pdf);
  result->alpha_s = hegetcl_pdf_alpha_s_one_loop(f->pdf, config->mu_f_gev);
  snprintf(result->pdf_path, sizeof result->pdf_path, "%s", hegetcl_pdf_directory(f->pdf));
  /* one flavour: quark and antiquark in slots 0 and 1; flavour channels: flavour k's in 2k and
   * 2k + 1 */
  int pids[10] = {config->quark_pid, -config->quark_pid};
  int flavour_pids[5] = {0, 0, 0, 0, 0};
  if (config->flavours != 0) {
    f->n_channels = hg_xsec_channels_of(config, result->channels, flavour_pids, &f->n_flavours);
    result->n_channels = f->n_channels;
    for (unsigned k = 0; k < f->n_flavours; ++k) {
      pids[2 * k] = flavour_pids[k];
      pids[2 * k + 1] = -flavour_pids[k];
    }
  }
  const size_t n_pids = f->n_flavours > 0 ? 2 * f->n_flavours : 2;
  status = hg_pdf_pack(f->pdf, pids, n_pids, &f->grid, &f->n_grid, message, sizeof message);
  if (status != HEGETCL_OK) return hg_fail(ctx, status, "%s", message);
  status = hg_xsec_var_setup_make(ctx, config, f->pdf, pids, n_pids, &f->var_setup);
  if (status != HEGETCL_OK) return status;

  const unsigned n = config->process.n_photons;
  double *params = f->params;
  params[HG_XSEC_SQRT_S] = config->sqrt_s_gev;
  params[HG_XSEC_PT_MIN] = config->pt_min_gev;
  params[HG_XSEC_ETA_MAX] = config->eta_max;
  params[HG_XSEC_DR_MIN] = config->delta_r_min;
  params[HG_XSEC_MU_F2] = config->mu_f_gev * config->mu_f_gev;
  /* one flavour with both orientations: twice the quark from proton 1 (CONVENTIONS.md); flavour
   * channels count the antiquark from proton 1 as channels of their own */
  f->doubled = config->orientation == HEGETCL_ORIENTATION_BOTH && f->n_channels == 0;
  params[HG_XSEC_NORMALISATION] = HEGETCL_GEV2_TO_FB * (f->doubled ? 2.0 : 1.0);
  params[HG_XSEC_MIRROR] = f->doubled ? 1.0 : 0.0;
  /* (Q_q / Q_u)^(2n): 1 for u and c, (1/2)^(2n) for d, s and b (exact: a power of two) */
  for (unsigned k = 0; k < 5; ++k)
    params[HG_XSEC_CHANNEL_NORM(k)] = k < f->n_flavours && flavour_pids[k] % 2 != 0
                                          ? ldexp(HEGETCL_GEV2_TO_FB, -2 * (int)n)
                                          : HEGETCL_GEV2_TO_FB;
  const hegetcl_bins *families[4] = {&config->binning.pt_gev, &config->binning.eta,
                                     &config->binning.delta_r, &config->binning.mass_gev};
  for (int k = 0; k < 4; ++k) {
    params[HG_XSEC_HIST_BINS(k)] = (double)families[k]->bins;
    params[HG_XSEC_HIST_LO(k)] = families[k]->lo;
    params[HG_XSEC_HIST_HI(k)] = families[k]->hi;
  }
  f->setup = (hg_xsec_setup){.config = config,
                             .params = params,
                             .pdf_grid = f->grid,
                             .n_grid = f->n_grid,
                             .dims = hg_photon_family_dims(config),
                             .n_flavours = f->n_flavours,
                             .n_channels = f->n_channels,
                             .per_helicity = config->helicity != HEGETCL_HELICITY_SUMMED,
                             .seed = config->vegas.seed,
                             .variations = &f->var_setup};
  for (unsigned k = 0; k < f->n_devices && status == HEGETCL_OK; ++k) {
    status = hg_xsec_device_open(&f->devices[k], f->contexts[k], &f->setup);
    if (status != HEGETCL_OK && k > 0)
      hg_fail(ctx, status, "%s", hegetcl_last_error(f->contexts[k]));
  }
  if (status != HEGETCL_OK) return status;
  hg_xsec_device *first = &f->devices[0];
  result->build_seconds += first->build_seconds;
  snprintf(result->amplitude_options, sizeof result->amplitude_options, "%s", first->amp->options);
  snprintf(result->sampler_options, sizeof result->sampler_options, "%s", first->sampler_options);
  f->histograms = first->histograms;
  f->channels = first->channels;
  f->variations = first->variations;
  f->sampling = hg_sampling_create(config);
  if (f->sampling == NULL)
    return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the adaptive sampling's tables");
  return HEGETCL_OK;
}

void hg_photon_family_close(hg_photon_family *f) {
  hg_sampling_destroy(f->sampling);
  f->sampling = NULL;
  for (unsigned k = 0; k < f->n_devices; ++k) hg_xsec_device_close(&f->devices[k]);
  f->n_devices = 0;
  free(f->grid);
  f->grid = NULL;
  hg_xsec_var_setup_free(&f->var_setup);
  hegetcl_pdf_close(f->pdf);
  f->pdf = NULL;
}

hegetcl_status hg_photon_family_sample(void *user, uint32_t iteration, uint64_t first_event,
                                       size_t n_events, cl_mem grid) {
  hg_photon_family *f = user;
  return hg_xsec_device_sample(&f->devices[0], iteration, first_event, n_events, grid, 0);
}

hegetcl_status hg_photon_family_ratios(void *user, uint64_t first, const uint32_t *index, size_t n,
                                       double *ratios) {
  hg_photon_family *f = user;
  return hg_xsec_variations_ratios(f->variations, hg_vegas_reducer_grid(f->devices[0].reducer),
                                   first, index, n, ratios);
}

/* A VEGAS iteration's start on a device: the grid and the adaptive sampling's table. */
static hegetcl_status device_grid(void *user, unsigned worker, const double *edges) {
  hg_photon_family *f = user;
  hegetcl_status status = hg_vegas_reducer_upload(f->devices[worker].reducer, edges);
  if (status == HEGETCL_OK)
    status = hg_xsec_device_upload_sampling(&f->devices[worker], hg_sampling_table(f->sampling));
  return status;
}

/* A batch of an integration iteration on a device: its sums. */
static hegetcl_status device_batch(void *user, unsigned worker, uint32_t iteration,
                                   uint64_t first_event, size_t n_events, double *out) {
  hg_photon_family *f = user;
  const int combined = iteration >= f->adapt_iterations && iteration < HG_ITERATION_EVENTS;
  return hg_xsec_device_batch(&f->devices[worker], iteration, combined, first_event, n_events, out);
}

/* After each VEGAS iteration: the combined ones' sums (extra: the histograms', then the
 * channels') go into the histograms and the channels; the adapting ones' (after those, the
 * adaptive sampling's) into the helicity probabilities and channel weights. */
static hegetcl_status end_iteration(void *user, uint32_t index, int adapting, uint64_t n_events,
                                    double estimate, double variance, const double *extra) {
  (void)index;
  (void)estimate;
  hg_photon_family *f = user;
  const size_t histogram_sums = f->histograms ? hg_histograms_batch_sums(f->histograms) : 0;
  const size_t channel_sums = f->channels ? hg_channels_batch_sums(f->channels) : 0;
  if (adapting) {
    if (hg_sampling_adapts(f->sampling))
      hg_sampling_learn(f->sampling, n_events, extra + histogram_sums + channel_sums);
    return HEGETCL_OK;
  }
  if (f->histograms != NULL) hg_histograms_end_iteration(f->histograms, n_events, variance, extra);
  if (f->channels != NULL)
    hg_channels_end_iteration(f->channels, n_events, variance, extra + histogram_sums);
  /* the variations' sums follow the adaptive sampling's (zeros in a combined iteration) */
  if (f->variations != NULL)
    hg_xsec_variations_end_iteration(f->variations, n_events, variance,
                                     extra + histogram_sums + channel_sums +
                                         f->devices[0].sampling_sums_count);
  return HEGETCL_OK;
}

void hg_photon_family_prepare(hg_photon_family *f, hg_vegas *v, hg_vegas_work *work) {
  /* adaptive helicities: the grid, like the learnt probabilities, stays fixed once adapted (with
   * refinement after every iteration the grid collapsed onto the sampled configurations' few
   * heaviest events at n = 12: docs/validation.md, "Cross sections to n = 12") */
  hg_vegas_freeze_after_adaptation(v, f->config.helicity == HEGETCL_HELICITY_ADAPTIVE);
  hg_vegas_set_observer(v, end_iteration, f);
  *work = (hg_vegas_work){.workers = f->n_devices,
                          .contexts = f->contexts,
                          .extra = hg_xsec_device_extra_sums(&f->devices[0]),
                          .grid = device_grid,
                          .batch = device_batch,
                          .user = f,
                          .team = f->team};
}

hegetcl_status hg_photon_family_integrated(hg_photon_family *f, hegetcl_xsec_result *result) {
  if (f->channels != NULL) hg_channels_result(f->channels, result->channels);
  hegetcl_status status = hg_xsec_variations_result(f->variations, result);
  if (status != HEGETCL_OK) return status;
  hg_sampling_report(f->sampling, result);
  /* the sampler of the float check and the unweighting draws from the learnt table (a run resumed
   * after its integration has not uploaded it yet) */
  return hg_xsec_device_upload_sampling(&f->devices[0], hg_sampling_table(f->sampling));
}

hegetcl_status hg_photon_family_float_check(hg_photon_family *f, hg_vegas *v,
                                            hegetcl_xsec_result *result) {
  if (f->config.process.precision != HEGETCL_PRECISION_FLOAT) return HEGETCL_OK;
  /* how far the float amplitudes stray: a sample of events from the final grid, again in double */
  hg_xsec_device *first = &f->devices[0];
  const size_t batch = f->config.vegas.batch_size;
  const size_t k = batch < HG_PRECISION_CHECK_EVENTS ? batch : HG_PRECISION_CHECK_EVENTS;
  size_t checked = 0;
  hegetcl_status status = hg_vegas_reducer_upload(first->reducer, hg_vegas_last_edges(v));
  if (status == HEGETCL_OK)
    status = hg_photon_family_sample(f, HG_ITERATION_PRECISION_CHECK, 0, k,
                                     hg_vegas_reducer_grid(first->reducer));
  if (status == HEGETCL_OK)
    status = hg_precision_check(f->ctx, first->amp, first->factor, k, f->setup.per_helicity,
                                &checked, &result->float_max_deviation,
                                &result->float_mean_deviation, &result->float_sigma_deviation);
  if (status == HEGETCL_OK) result->float_checked = checked;
  return status;
}

hegetcl_status hg_photon_family_take_histograms(hg_photon_family *f, hegetcl_xsec_result *result) {
  if (f->histograms != NULL && f->variations != NULL) {
    size_t per = 0;
    result->variation_histograms = hg_xsec_variations_take_histograms(f->variations, &per);
    if (result->variation_histograms == NULL)
      return hg_fail(f->ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the variations' histograms");
  }
  if (f->histograms != NULL)
    result->histograms = hg_histograms_take(f->histograms, &result->n_histograms);
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

hegetcl_status hg_photon_family_unweight(hg_photon_family *f, const hg_photon_unweighting *u,
                                         hegetcl_status status, hegetcl_xsec_result *result,
                                         int *stopped, hg_unweight_state *state) {
  const hegetcl_xsec_config *config = &f->config;
  const hegetcl_xsec_hooks *hooks = u->hooks;
  const hegetcl_team *team = f->team;
  hg_xsec_device *first = &f->devices[0];
  hg_unweight_inputs in = {.program = first->program,
                           .n_photons = config->process.n_photons,
                           .quark_pid = config->quark_pid,
                           .both_orientations = f->doubled,
                           .n_channels = f->n_channels,
                           .helicity_sampled = f->setup.per_helicity,
                           .mu_f_gev = config->mu_f_gev,
                           .mu_r_gev = config->mu_f_gev,
                           .alpha_s = result->alpha_s,
                           .alpha_qed = config->process.alpha,
                           .process_id = 1,
                           .seed = config->vegas.seed,
                           .batch = config->vegas.batch_size,
                           .max_weight = hg_vegas_last_max_weight(u->vegas),
                           .requested = share_of(config->unweighted_events, team),
                           .first_event = team != NULL ? (uint64_t)team->rank << 40 : 0,
                           .max_tries = config->max_unweighting_tries,
                           .sampler = hg_photon_family_sample,
                           .sampler_user = f,
                           .params = first->params,
                           .pdf = first->pdf,
                           .sampling = first->sampling,
                           .factor = first->factor,
                           .me = first->amp->me,
                           .n_variations = hg_xsec_variations_count(f->variations),
                           .ratios = hg_photon_family_ratios,
                           .ratios_user = f,
                           .resume = u->resume,
                           .checkpoint_every = u->checkpoint_every,
                           .checkpoint = u->checkpoint,
                           .checkpoint_user = u->checkpoint_user,
                           .stop = u->stop};
  for (unsigned c = 0; c < f->n_channels; ++c) in.channel_pid[c] = result->channels[c].pid[0];
  in.grid = hg_vegas_reducer_grid(first->reducer);
  if (status == HEGETCL_OK)
    status = hg_vegas_reducer_upload(first->reducer, hg_vegas_last_edges(u->vegas));
  if (status == HEGETCL_OK)
    status = hg_unweight_run(f->ctx, &in, hooks->sink, hooks->sink_user, hooks->events_progress,
                             hooks->events_progress_user, &result->unweighting, stopped, state);
  if (team != NULL && team->size > 1)
    status = combine_unweighting(f->ctx, team, status, state, config->unweighted_events,
                                 &result->unweighting);
  return status;
}
