/* SPDX-License-Identifier: MIT */
/* A run over flavour channels (CONVENTIONS.md, "Flavour channels"): the channels of a
 * configuration, each channel's sums over a batch on the device (cl/xsec/channels.cl), their
 * combination over the iterations with the cross section's weights, and the checkpoint lines. */
#ifndef HG_XSEC_CHANNELS_H
#define HG_XSEC_CHANNELS_H

#include <stddef.h>
#include <stdint.h>

#include "core/context.h"
#include "hegetcl/xsec.h"
#include "io/checkpoint_file.h"

/* The channels of c (c->flavours != 0) in the sampler's order: flavours d u s c b that c holds,
 * per flavour q qbar and, with orientation both, qbar q; names, PDG ids and charges filled,
 * sigma 0. Returns how many; *flavour_pids gets the flavours' PDG ids in the same order
 * (flavour slot k), and their count in *n_flavours. */
unsigned hg_xsec_channels_of(const hegetcl_xsec_config *c,
                             hegetcl_xsec_channel channels[HEGETCL_XSEC_MAX_CHANNELS],
                             int flavour_pids[5], unsigned *n_flavours);

typedef struct hg_channels hg_channels;

/* Sums of n_channels channels over batches of up to batch events, from the sampler's
 * channel_factor buffer (channels x batch) and program's kernels. */
hegetcl_status hg_channels_create(hegetcl_context *ctx, cl_program program, unsigned n_channels,
                                  size_t batch, cl_mem channel_factor, hg_channels **out);
void hg_channels_destroy(hg_channels *ch);

/* Doubles a batch's channel sums take: sum w_c and sum w_c^2 per channel. */
size_t hg_channels_batch_sums(const hg_channels *ch);

/* Reduces a batch's n_events (weights channel_factor x me) into out (hg_channels_batch_sums
 * doubles, overwritten), which the caller adds up over the iteration in batch order. */
hegetcl_status hg_channels_add_batch(hg_channels *ch, cl_mem me, size_t n_events, double *out);

/* Ends a combined iteration of n_events whose cross section has the variance `variance`, with
 * its sums (the batches' added up): each channel's mean weight and the variance of that mean join
 * the combination with weight 1 / variance (as sigma's estimate does, so the channels add up to
 * sigma). */
void hg_channels_end_iteration(hg_channels *ch, uint64_t n_events, double variance,
                               const double *sums);

/* The combination so far into channels[0 .. n_channels): sigma_fb and error_fb. */
void hg_channels_result(const hg_channels *ch, hegetcl_xsec_channel *channels);

/* The combination as the checkpoint line "channels.sums", and back (HEGETCL_ERR_INPUT with
 * c->message when it is missing or of another number of channels). */
void hg_channels_save(const hg_channels *ch, hg_ckpt_writer *w);
int hg_channels_load(hg_channels *ch, hg_ckpt *c);
/* The combination itself (*count doubles), for a checkpoint of several reductions under keys
 * of its own. */
double *hg_channels_combination(hg_channels *ch, size_t *count);
/* The same under another key (the variation weights' sums keep one line per reduction). */
void hg_channels_save_as(const hg_channels *ch, hg_ckpt_writer *w, const char *key);
int hg_channels_load_as(hg_channels *ch, hg_ckpt *c, const char *key);

#endif
