/* SPDX-License-Identifier: MIT */
/* Every OpenCL 1.2 error code and every hegetcl status has a name; unknown ones are said so. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "core/context.h"
#include "core/program.h"

static void every_opencl_1_2_code_has_its_name(void **state) {
  (void)state;
  /* 0..-19 and -30..-68 are OpenCL 1.2's codes; -20..-29 are unassigned */
  for (int code = 0; code >= -68; --code) {
    const char *name = hg_cl_error_name(code);
    if (code < -19 && code > -30) {
      assert_null(name);
      continue;
    }
    if (name == NULL) fail_msg("OpenCL code %d has no name", code);
    assert_true(strncmp(name, "CL_", 3) == 0);
  }
  assert_string_equal(hg_cl_error_name(CL_INVALID_WORK_GROUP_SIZE), "CL_INVALID_WORK_GROUP_SIZE");
  assert_string_equal(hg_cl_error_name(-1001), "CL_PLATFORM_NOT_FOUND_KHR");
  assert_null(hg_cl_error_name(-9999));
}

static void an_opencl_failure_names_call_code_and_action(void **state) {
  (void)state;
  hegetcl_context ctx;
  memset(&ctx, 0, sizeof ctx);
  strcpy(ctx.info.name, "Test Device");
  const hegetcl_status status = hg_cl_check(&ctx, CL_INVALID_WORK_GROUP_SIZE,
                                            "clEnqueueNDRangeKernel", "launching %s", "k");
  assert_int_equal(status, HEGETCL_ERR_OPENCL);
  assert_non_null(strstr(ctx.message, "clEnqueueNDRangeKernel"));
  assert_non_null(strstr(ctx.message, "CL_INVALID_WORK_GROUP_SIZE (-54)"));
  assert_non_null(strstr(ctx.message, "launching k"));
  assert_non_null(strstr(ctx.message, "Test Device"));
  assert_int_equal(hg_cl_check(&ctx, -4242, "clFoo", "doing %d", 1), HEGETCL_ERR_OPENCL);
  assert_non_null(strstr(ctx.message, "unknown OpenCL error -4242"));
  /* the device's memory: a device-memory error whose fix is a smaller batch */
  const cl_int device_memory[] = {CL_MEM_OBJECT_ALLOCATION_FAILURE, CL_OUT_OF_RESOURCES,
                                  CL_INVALID_BUFFER_SIZE};
  for (size_t i = 0; i < sizeof device_memory / sizeof device_memory[0]; ++i) {
    assert_int_equal(hg_cl_check(&ctx, device_memory[i], "clCreateBuffer", "x"),
                     HEGETCL_ERR_DEVICE_MEMORY);
    assert_non_null(strstr(ctx.message, "lower the batch (hegetcl xsec --batch"));
  }
  assert_int_equal(hg_cl_check(&ctx, CL_OUT_OF_HOST_MEMORY, "clCreateBuffer", "x"),
                   HEGETCL_ERR_NO_MEMORY);
  assert_non_null(strstr(ctx.message, "the host ran out of memory"));
  free(ctx.message);
}

static void every_status_has_a_name_and_a_meaning(void **state) {
  (void)state;
#define CHECK_STATUS(name, value, meaning)                                                         \
  assert_string_equal(hegetcl_status_name(name), #name);                                           \
  assert_string_equal(hegetcl_status_meaning(name), meaning);                                      \
  assert_int_equal((int)name, value);
  HEGETCL_STATUS_LIST(CHECK_STATUS)
#undef CHECK_STATUS
  assert_string_equal(hegetcl_status_name((hegetcl_status)-77), "HEGETCL_UNKNOWN_STATUS");
}

/* NVIDIA's compiler reports "<kernel>:LINE:COL"; the log then names the cl/ file and line. */
static void build_logs_name_the_cl_file_and_line(void **state) {
  (void)state;
  const char *const parts[] = {"#line 1 \"cl/a.cl\"\nx\ny\n", "#line 5 \"cl/b.cl\"\nz\n"};
  const size_t lengths[] = {strlen(parts[0]), strlen(parts[1])};
  char *log = hg_annotate_build_log("<kernel>:3:1: error: y\n<kernel>:5:2: error: z\n", parts,
                                    lengths, 2);
  assert_non_null(log);
  assert_string_equal(log, "<kernel>:3 [cl/a.cl:2]:1: error: y\n<kernel>:5 [cl/b.cl:5]:2: error: z\n");
  free(log);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_opencl_1_2_code_has_its_name),
      cmocka_unit_test(an_opencl_failure_names_call_code_and_action),
      cmocka_unit_test(every_status_has_a_name_and_a_meaning),
      cmocka_unit_test(build_logs_name_the_cl_file_and_line),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
