/* SPDX-License-Identifier: MIT */
/* The scale choices of cl/phasespace/scales.h as a table: names, meanings, validation. */
#ifndef HG_HOST_SCALES_H
#define HG_HOST_SCALES_H

#include <stddef.h>

/* the device header of the same name: "phasespace/scales.h" would find this file */
#include "../../cl/phasespace/scales.h"

typedef struct {
  int choice;              /* HG_SCALE_* (MadGraph's dynamical_scale_choice for 1-4) */
  const char *name;        /* hegetcl's name: "fixed", "sum-et", "sum-mt", "half-sum-mt", ... */
  const char *description; /* one line for --help, outputs and the run card */
} hg_scale_choice_info;

/* The table's rows, in order; NULL past the end. */
const hg_scale_choice_info *hg_scale_choice_at(int index);
/* The row of a choice number or of a name ("3" or "half-sum-mt"), NULL when unknown. */
const hg_scale_choice_info *hg_scale_choice_find(int choice);
const hg_scale_choice_info *hg_scale_choice_by_name(const char *name);
/* 0 when choice is known and, for HG_SCALE_FIXED, fixed_gev > 0 and finite; else -1 with a
 * message naming the value, the choices and MadGraph's numbers hegetcl does not take (-1: CKKW
 * clustering, 0: user code, 5: decays). */
int hg_scale_choice_check(int choice, double fixed_gev, char *error, size_t error_size);

#endif
