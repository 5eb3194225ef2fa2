/* SPDX-License-Identifier: MIT */
/* The recursive engines' colour flows and their leading-colour weights: the basis elements whose
 * |J_k|^2 the amplitude_flow_weights kernel of the amplitude's own program gives, in the kernel's
 * order (CONVENTIONS.md, "Colour flows of the recursive engines"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amplitude_internal.h"
#include "core/program.h"
#include "kernel_names.h"
#include "process/colour_ordered.h"
#include "process/flow_recursion.h"

/* The colour-ordered engine's flows: every lexicographic ordering of its letters, a quark line's
 * string (T^s1 ... T^sk)_{o i} or, for gluons only, the trace Tr(T^s1 ... T^s(n-1) T^c) of the
 * closing gluon c, each in the colour algebra's canonical form (hg_colour_add_term). */
static int colour_ordered_flows(const hg_colour_ordered *co, hg_colour_term **out, size_t *n_out) {
  const int L = co->n_letters;
  size_t n = 1;
  for (int j = 2; j <= L; ++j) n *= (size_t)j;
  hg_colour_term *flows = malloc(n * sizeof *flows);
  if (flows == NULL) return -1;
  int perm[HG_PROCESS_MAX_EXTERNAL];
  for (int j = 0; j < L; ++j) perm[j] = j;
  for (size_t o = 0; o < n; ++o) {
    hg_colour_term t;
    memset(&t, 0, sizeof t);
    t.re = 1;
    t.n_strings = 1;
    hg_colour_string *s = &t.s[0];
    s->start = (unsigned char)(co->quark_line ? co->o_particle : HG_COLOUR_LABEL_TRACE);
    s->end = (unsigned char)(co->quark_line ? co->i_particle : HG_COLOUR_LABEL_TRACE);
    s->length = (unsigned char)(co->quark_line ? L : L + 1);
    for (int j = 0; j < L; ++j) s->word[j] = (unsigned char)co->letter_particle[perm[j]];
    if (!co->quark_line) s->word[L] = (unsigned char)co->closing;
    /* the canonical form: a trace rotated to its smallest gluon first */
    hg_colour_expr e = {NULL, 0, 0};
    if (s->length > HG_COLOUR_MAX_WORD || hg_colour_add_term(&e, &t, 1, 0) != 0 || e.n != 1) {
      hg_colour_free(&e);
      free(flows);
      return -1;
    }
    flows[o] = e.terms[0];
    hg_colour_free(&e);
    /* the next lexicographic ordering (the kernel's hg_next_permutation) */
    int i = L - 2;
    while (i >= 0 && perm[i] > perm[i + 1]) --i;
    if (i < 0) continue;
    int j = L - 1;
    while (perm[j] < perm[i]) --j;
    int tmp = perm[i];
    perm[i] = perm[j];
    perm[j] = tmp;
    for (int l = i + 1, r = L - 1; l < r; ++l, --r) {
      tmp = perm[l];
      perm[l] = perm[r];
      perm[r] = tmp;
    }
  }
  *out = flows;
  *n_out = n;
  return 0;
}

int hg_recursive_flows(const hg_process_spec *spec, int width_all, hg_colour_term **flows,
                       size_t *n_flows, char *error, size_t error_size) {
  *flows = NULL;
  *n_flows = 0;
  if (hg_recursive_uses_flows(spec)) {
    /* the same tape as the program's (the build is deterministic): its basis, in its order */
    hg_flow_recursion fr;
    if (hg_flow_recursion_build(spec, width_all, &fr, error, error_size) != 0) return -1;
    *flows = fr.flows;
    *n_flows = fr.n_flows;
    fr.flows = NULL;
    hg_flow_recursion_free(&fr);
    return 0;
  }
  hg_colour_ordered co;
  if (hg_colour_ordered_build(spec, &co, error, error_size) != 0) return -1;
  const int exact = co.colour != NULL;
  const int status = exact ? colour_ordered_flows(&co, flows, n_flows) : -1;
  hg_colour_ordered_free(&co);
  if (!exact)
    snprintf(error, error_size,
             "process \"%s\": more than %d colour orderings (sampled colours only): no "
             "colour-flow weights",
             spec->text, HG_CO_MAX_ORDERINGS);
  else if (status != 0)
    snprintf(error, error_size, "no memory for the colour flows of %s", spec->text);
  return status;
}

hegetcl_status hg_amplitude_flows(const hegetcl_amplitude *amp, hg_colour_term **flows,
                                  size_t *n_flows) {
  hegetcl_context *ctx = amp->ctx;
  *flows = NULL;
  *n_flows = 0;
  if (!amp->general || amp->process.engine != HEGETCL_ENGINE_RECURSIVE)
    return hg_fail(ctx, HEGETCL_ERR_UNSUPPORTED,
                   "process \"%s\": colour-flow weights come from the recursive engine's program "
                   "only (this amplitude is the %s engine's)",
                   amp->process_text, hegetcl_engine_name(amp->process.engine));
  hg_process_spec spec;
  char error[1024];
  if (hg_process_parse(amp->process_text, &spec, error, sizeof error) != 0 ||
      hg_recursive_flows(&spec, amp->process.width_scheme == HEGETCL_WIDTH_ALL, flows, n_flows,
                         error, sizeof error) != 0)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "%s", error);
  return HEGETCL_OK;
}

hegetcl_status hg_amplitude_flow_weights(hegetcl_amplitude *amp, cl_kernel kernel, cl_mem momenta,
                                         size_t n_events, cl_mem weights) {
  hegetcl_context *ctx = amp->ctx;
  if (n_events == 0) return HEGETCL_OK;
  size_t local = 0;
  hegetcl_status status = hg_amplitude_local_size(amp, kernel, &local);
  if (status != HEGETCL_OK) return status;
  const cl_uint n = (cl_uint)n_events;
  cl_int err = clSetKernelArg(kernel, 0, sizeof(cl_mem), &momenta);
  err |= clSetKernelArg(kernel, 1, sizeof(cl_uint), &n);
  err |= clSetKernelArg(kernel, 2, sizeof(cl_mem), &amp->params);
  err |= clSetKernelArg(kernel, 3, sizeof(cl_mem), &weights);
  if (amp->tape != NULL) { /* the quark-line recursion reads its tape (flow_recursion.cl) */
    err |= clSetKernelArg(kernel, 4, sizeof(cl_mem), &amp->tape);
    err |= clSetKernelArg(kernel, 5, sizeof(cl_mem), &amp->tape_reals);
  }
  const size_t global = (n_events + local - 1) / local * local;
  if (err == CL_SUCCESS)
    err = clEnqueueNDRangeKernel(ctx->queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL);
  return hg_cl_check(ctx, err, "clEnqueueNDRangeKernel", "launching %s of %s over %zu events",
                     HG_KERNEL_AMPLITUDE_FLOW_WEIGHTS, amp->process_text, n_events);
}
