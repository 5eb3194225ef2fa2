/* SPDX-License-Identifier: MIT */
/* What `hegetcl xsec --process` prints and writes to its JSON: the settings, the cuts in force,
 * sigma, and sigma per group and per channel. */
#ifndef HG_CLI_PROCESS_REPORT_H
#define HG_CLI_PROCESS_REPORT_H

#include "hegetcl/xsec.h"
#include "io/json_writer.h"
#include "io/xsec_reference.h"

/* The cuts in force as "ptj > 50 GeV, etaj < 5" ("none" without), in a static buffer. */
const char *hg_cli_cuts_text(const hegetcl_xsec_config *c);

/* The scales as "mu_R = mu_F = 173 GeV" or "mu_R = mu_F = half the sum of m_T (MadGraph's
 * dynamical_scale_choice 3) x 1, 1", in a static buffer. */
const char *hg_cli_scales_text(const hegetcl_xsec_config *c);

/* sigma, then sigma per group and (up to 40 of them) per channel, on stdout. */
/* Scale envelope and PDF uncertainty of sigma (nothing without variations). */
void hg_cli_print_variations(const hegetcl_xsec_result *r);
/* The result's members for the variations (scale_min_fb, ..., the "variations" array), inside
 * the "result" object; nothing without variations. */
void hg_cli_variations_json(hg_json *j, const hegetcl_xsec_result *r);
/* The result line, then (unless quiet) the variations, alpha_s, groups, unweighting and channels. */
void hg_cli_print_process_result(const hegetcl_xsec_config *c, const hegetcl_xsec_result *r,
                                 const char *device, int quiet);

/* The JSON's members for a process run (inside the top object): process, setup, cuts, device,
 * result (sigma_fb, error_fb), groups and channels. */
void hg_cli_process_json(hg_json *j, const hegetcl_xsec_config *c, const hegetcl_xsec_result *r,
                         const hegetcl_device_info *info);

/* sigma beside another program's (--compare): the difference and the pull, on stdout. */
void hg_cli_print_reference(const hg_xsec_reference *ref, double sigma_fb, double error_fb);
/* The same as the JSON's "compared_with" object. */
void hg_cli_reference_json(hg_json *j, const hg_xsec_reference *ref, double sigma_fb,
                           double error_fb);

#endif
