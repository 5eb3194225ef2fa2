/* SPDX-License-Identifier: MIT */
/* The checkpoint of a cross-section run (docs/user-guide.md, "Long runs"): its kind and version,
 * the configuration as named settings, the final histograms, and the lines the info reader
 * needs. */
#ifndef HG_XSEC_CHECKPOINT_H
#define HG_XSEC_CHECKPOINT_H

#include <stddef.h>
#include <stdint.h>

#include "hegetcl/xsec.h"
#include "io/checkpoint_file.h"

#define HG_XSEC_CKPT_KIND "xsec"
#define HG_XSEC_CKPT_VERSION 1

/* "config.NAME VALUE" for every setting the numbers or the events depend on; NAME is the long
 * option of `hegetcl xsec` (n, events, pt-min, ...), VALUE text that equals exactly when the
 * settings do (reals to 17 significant digits where fewer do not read back). */
void hg_xsec_ckpt_put_config(hg_ckpt_writer *w, const hegetcl_xsec_config *config,
                             uint64_t every_events);

/* 0 when c's settings equal config's; else HEGETCL_ERR_INPUT with message naming the first
 * setting that differs and both values (or the missing line). */
int hg_xsec_ckpt_check_config(const hg_ckpt *c, const hegetcl_xsec_config *config,
                              uint64_t every_events, char *message, size_t message_size);

/* The combined histograms as "histogram*" lines, and back into histograms booked the same way
 * (count and bins are checked). */
void hg_xsec_ckpt_put_histograms(hg_ckpt_writer *w, const hegetcl_histogram *h, size_t count);
int hg_xsec_ckpt_get_histograms(hg_ckpt *c, hegetcl_histogram *h, size_t count);

/* The "phase" line: a hegetcl_xsec_phase, or 0 with c->message. */
int hg_xsec_ckpt_phase(hg_ckpt *c);

/* A fresh run writes its checkpoint at path only when no unfinished run's is there
 * (HEGETCL_ERR_INPUT on ctx naming the file and what to do). */
hegetcl_status hg_xsec_ckpt_check_fresh(hegetcl_context *ctx, const char *path);
/* Reads the checkpoint a run resumes from into c (hg_ckpt_free it either way): checked against
 * the configuration, not finished; *phase the phase it holds. */
hegetcl_status hg_xsec_ckpt_open_resume(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                                        const hegetcl_xsec_checkpointing *cp, hg_ckpt *c,
                                        hegetcl_xsec_phase *phase);

#endif
