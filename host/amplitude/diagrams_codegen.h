/* SPDX-License-Identifier: MIT */
/* The diagram engine's code generator: straight-line OpenCL C for the n! diagrams. */
#ifndef HG_DIAGRAMS_CODEGEN_H
#define HG_DIAGRAMS_CODEGEN_H

#include "hegetcl/status.h"

/* Writes into *out (malloc'd, NUL-terminated; the caller frees) the definition of
 * hg_engine_amplitude for n photons: every off-shell quark line of the diagrams computed once,
 * then one iovxxx per diagram. HEGETCL_ERR_INPUT for n outside 1..12. */
hegetcl_status hg_diagrams_source(unsigned n_photons, char **out);

#endif
