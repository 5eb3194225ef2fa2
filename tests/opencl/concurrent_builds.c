/* SPDX-License-Identifier: MIT */
/* Programs built from several host threads at once (hg_parallel_for, hg_program_get): every item
 * runs once, the lowest failing item's status comes back; threads asking for one program get one
 * program object, built once (the others wait for it), and the context keeps one entry; threads
 * asking for different programs get each its own, and each kernel writes its own number. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/context.h"
#include "core/parallel.h"
#include "core/program.h"
#include "test_support.h"

static hegetcl_context *ctx;

static int setup(void **state) {
  (void)state;
  setenv("HEGETCL_PROGRAM_CACHE", "off", 1); /* built here, not loaded */
  setenv("HEGETCL_BUILD_THREADS", "4", 1);
  ctx = ts_context_create();
  return ctx == NULL;
}

static int teardown(void **state) {
  (void)state;
  hegetcl_context_destroy(ctx);
  return 0;
}

#define N_ITEMS 37

static hegetcl_status count_item(size_t i, void *user) {
  int *runs = user;
  ++runs[i]; /* each item its own slot */
  return i == 5 || i == 20 ? (i == 5 ? HEGETCL_ERR_INPUT : HEGETCL_ERR_OPENCL) : HEGETCL_OK;
}

static void every_item_once_and_the_lowest_failure(void **state) {
  (void)state;
  assert_int_equal(hg_build_threads(), 4);
  int runs[N_ITEMS] = {0};
  assert_int_equal(hg_parallel_for(N_ITEMS, count_item, runs), HEGETCL_ERR_INPUT);
  for (int i = 0; i < N_ITEMS; ++i) assert_int_equal(runs[i], 1);
}

#define N_THREADS 4
static const char source[] = "__kernel void write_number(__global int *out) { out[0] = NUMBER; }\n";

typedef struct {
  int same; /* all items ask for NUMBER 7 */
  cl_program program[N_THREADS];
  double seconds[N_THREADS]; /* > 0: this item built the program */
} builds;

static hegetcl_status build_item(size_t i, void *user) {
  builds *b = user;
  char options[64];
  snprintf(options, sizeof options, "-D NUMBER=%d", b->same ? 7 : (int)(100 + i));
  const hg_source_part part = {NULL, source};
  return hg_program_get(ctx, &part, 1, options, &b->program[i], &b->seconds[i]);
}

static int run_number(cl_program program) {
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(program, "write_number", &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_mem out = clCreateBuffer(ctx->context, CL_MEM_WRITE_ONLY, sizeof(cl_int), NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  err = clSetKernelArg(k, 0, sizeof out, &out);
  const size_t one = 1;
  err |= clEnqueueNDRangeKernel(ctx->queue, k, 1, NULL, &one, &one, 0, NULL, NULL);
  cl_int value = -1;
  err |= clEnqueueReadBuffer(ctx->queue, out, CL_TRUE, 0, sizeof value, &value, 0, NULL, NULL);
  assert_int_equal(err, CL_SUCCESS);
  clReleaseMemObject(out);
  clReleaseKernel(k);
  return value;
}

static void one_program_for_one_key(void **state) {
  (void)state;
  const size_t before = ctx->n_programs;
  builds b = {.same = 1};
  assert_int_equal(hg_parallel_for(N_THREADS, build_item, &b), HEGETCL_OK);
  assert_int_equal(ctx->n_programs, before + 1);
  int built = 0;
  for (int i = 0; i < N_THREADS; ++i) {
    assert_ptr_equal(b.program[i], b.program[0]);
    built += b.seconds[i] > 0.0;
  }
  assert_int_equal(built, 1); /* the others waited for it */
  assert_int_equal(run_number(b.program[0]), 7);
}

static void each_key_its_own_program(void **state) {
  (void)state;
  const size_t before = ctx->n_programs;
  builds b = {.same = 0};
  assert_int_equal(hg_parallel_for(N_THREADS, build_item, &b), HEGETCL_OK);
  assert_int_equal(ctx->n_programs, before + N_THREADS);
  for (int i = 0; i < N_THREADS; ++i) {
    assert_true(b.seconds[i] > 0.0);
    assert_int_equal(run_number(b.program[i]), 100 + i);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_item_once_and_the_lowest_failure),
      cmocka_unit_test(one_program_for_one_key),
      cmocka_unit_test(each_key_its_own_program),
  };
  return cmocka_run_group_tests_name("concurrent_builds", tests, setup, teardown);
}
