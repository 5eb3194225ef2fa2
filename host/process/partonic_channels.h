/* SPDX-License-Identifier: MIT */
/* A process with multiparticle labels ("p p > t t~ j") expanded into its partonic channels, and
 * the channels grouped by equal |M|^2 (CONVENTIONS.md, "Partonic channels and groups"). */
#ifndef HG_PARTONIC_CHANNELS_H
#define HG_PARTONIC_CHANNELS_H

#include <stddef.h>

#include "process_spec.h"

#define HG_MAX_PARTONIC_CHANNELS 1024
#define HG_MAX_CHANNEL_GROUPS 256

typedef struct {
  int five_flavour; /* 0: p = j = g u c d s and antiquarks (MadGraph's default, 4 flavours);
                       1: adds b b~ */
} hg_channel_options;

typedef struct {
  char text[160]; /* the partonic process as MadGraph writes it: "u~ u > t t~ g" */
  int n;          /* external particles, incoming first */
  int pdg[HG_PROCESS_MAX_EXTERNAL];   /* PDG ids in that order */
  unsigned group;                     /* its group */
  int order[HG_PROCESS_MAX_EXTERNAL]; /* member particle i is the group process's particle order[i]
                                       */
} hg_partonic_channel;

typedef struct {
  char text[160];        /* the process whose |M|^2 the group evaluates once per event */
  unsigned first, count; /* its members: channels[first .. first + count) */
  unsigned n_diagrams;   /* tree diagrams of the group's process (each member has as many) */
} hg_channel_group;

typedef struct {
  unsigned n_channels, n_groups;
  hg_partonic_channel channels[HG_MAX_PARTONIC_CHANNELS];
  hg_channel_group groups[HG_MAX_CHANNEL_GROUPS];
} hg_channel_list;

/* Every partonic channel of process (labels p, j, l+, l-, vl, vl~ expanded), each with at least
 * one tree diagram, grouped; groups[0] holds channels[0 .. groups[0].count) and so on. 0, or -1
 * with a message naming the problem and the fix in error (unknown label, no partonic channel,
 * too many channels or groups). out is large (about 250 kB): allocate it, don't put it on a
 * small stack. */
int hg_partonic_channels(const char *process, const hg_channel_options *options,
                         hg_channel_list *out, char *error, size_t error_size);

/* The labels the expansion knows with their particles under options, space separated lines
 * "p = g u c d s u~ c~ d~ s~" joined by "; " (for messages and the documentation). */
void hg_partonic_labels(const hg_channel_options *options, char *text, size_t size);

#endif
