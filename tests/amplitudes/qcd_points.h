/* SPDX-License-Identifier: MIT */
/* What the recursive colour engine's tests share: a process given as text and seeded RAMBO
 * points of it at sqrt(s) = QCD_POINTS_SQRT_S. */
#ifndef HG_TESTS_QCD_POINTS_H
#define HG_TESTS_QCD_POINTS_H

#include <stddef.h>
#include <stdint.h>

#include "hegetcl/hegetcl.h"

#define QCD_POINTS_SQRT_S 1500.0

/* The process of text with its default engine; a text that does not parse fails the test. */
hegetcl_process qcd_process_of(const char *text);

/* n_points seeded RAMBO points of the process (tops at their mass), structure of arrays; the
 * caller frees them. */
double *qcd_points_of(const hegetcl_process *process, size_t n_points, uint64_t seed);

#endif
