/* SPDX-License-Identifier: MIT */
/* Example: a user's own kernel (uu_aa.cl, u u~ -> gamma gamma by hand with ixxxx1, oxxxx2, vxxxx0,
 * fvixx0, iovxxx) built by hegetcl_user_program_build and checked against the analytic formula
 *
 *   |M|^2 = (e Q)^4 / 3 * (t/u + u/t)   (spins and colours averaged, 1/2! for the photons)
 *
 *   cc -std=c17 user_kernel.c $(pkg-config --cflags --libs hegetcl) -lm -o user_kernel
 *   ./user_kernel uu_aa.cl
 *
 * Exits 1 if any angle differs by more than 1e-12 (relative) in double precision. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <hegetcl/hegetcl.h>

#define N_EVENTS 16

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  char *text = NULL;
  long size = -1;
  if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
      (text = malloc((size_t)size + 1)) != NULL) {
    if (fread(text, 1, (size_t)size, f) != (size_t)size) {
      free(text);
      text = NULL;
    } else {
      text[size] = '\0';
    }
  }
  fclose(f);
  return text;
}

/* The name of an OpenCL error code the calls below can return. */
static const char *cl_error_name(cl_int err) {
  switch (err) {
  case CL_INVALID_KERNEL_NAME:
    return "CL_INVALID_KERNEL_NAME";
  case CL_INVALID_PROGRAM_EXECUTABLE:
    return "CL_INVALID_PROGRAM_EXECUTABLE";
  case CL_INVALID_KERNEL_DEFINITION:
    return "CL_INVALID_KERNEL_DEFINITION";
  case CL_INVALID_KERNEL_ARGS:
    return "CL_INVALID_KERNEL_ARGS";
  case CL_INVALID_ARG_INDEX:
    return "CL_INVALID_ARG_INDEX";
  case CL_INVALID_ARG_SIZE:
    return "CL_INVALID_ARG_SIZE";
  case CL_INVALID_ARG_VALUE:
    return "CL_INVALID_ARG_VALUE";
  case CL_INVALID_MEM_OBJECT:
    return "CL_INVALID_MEM_OBJECT";
  case CL_INVALID_BUFFER_SIZE:
    return "CL_INVALID_BUFFER_SIZE";
  case CL_INVALID_WORK_GROUP_SIZE:
    return "CL_INVALID_WORK_GROUP_SIZE";
  case CL_MEM_OBJECT_ALLOCATION_FAILURE:
    return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
  case CL_OUT_OF_RESOURCES:
    return "CL_OUT_OF_RESOURCES";
  case CL_OUT_OF_HOST_MEMORY:
    return "CL_OUT_OF_HOST_MEMORY";
  default:
    return "an OpenCL error";
  }
}

/* Every OpenCL call is checked as the library checks its own: the call, the code's name, what
 * was being done; the first failure ends the run (exit 1) before anything uses its result. */
static int cl_ok(cl_int err, const char *call, const char *doing) {
  if (err == CL_SUCCESS) return 1;
  fprintf(stderr, "user_kernel: %s failed with %s (%d) %s\n", call, cl_error_name(err), err, doing);
  return 0;
}

#define KERNEL_NAME "uu_aa"

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: user_kernel uu_aa.cl\n");
    return 2;
  }
  char *source = read_file(argv[1]);
  if (source == NULL) {
    fprintf(stderr, "user_kernel: cannot read %s\n", argv[1]);
    return 1;
  }
  hegetcl_context *ctx = NULL;
  hegetcl_status status = hegetcl_context_create(NULL, &ctx);
  cl_program program = NULL;
  if (status == HEGETCL_OK)
    status =
        hegetcl_user_program_build(ctx, source, argv[1], HEGETCL_PRECISION_DOUBLE, NULL, &program);
  free(source);
  cl_context cl_ctx = NULL;
  cl_command_queue queue = NULL;
  if (status == HEGETCL_OK) status = hegetcl_context_opencl(ctx, &cl_ctx, NULL, &queue);
  if (status != HEGETCL_OK) {
    fprintf(stderr, "user_kernel: %s (%s)\n", hegetcl_last_error(ctx), hegetcl_status_name(status));
    if (program != NULL) clReleaseProgram(program);
    hegetcl_context_destroy(ctx);
    return 1;
  }

  /* 2 -> 2 at sqrt(s) = 500 GeV, the photons at angles theta, azimuth 0.3 */
  const double energy = 250, pi = 3.14159265358979323846;
  double momenta[4 * 4 * N_EVENTS], expected[N_EVENTS], me[N_EVENTS];
  const double alpha = 1 / 132.507, charge = 2.0 / 3.0;
  const double coupling = sqrt(4 * pi * alpha) * charge;
  for (int e = 0; e < N_EVENTS; ++e) {
    const double theta = 0.1 + (pi - 0.2) * e / (N_EVENTS - 1), phi = 0.3;
    const double p[4][4] = {{energy, 0, 0, energy},
                            {energy, 0, 0, -energy},
                            {energy, energy * sin(theta) * cos(phi), energy * sin(theta) * sin(phi),
                             energy * cos(theta)},
                            {energy, -energy * sin(theta) * cos(phi),
                             -energy * sin(theta) * sin(phi), -energy * cos(theta)}};
    for (int i = 0; i < 4; ++i)
      for (int c = 0; c < 4; ++c) momenta[(c * 4 + i) * N_EVENTS + e] = p[i][c];
    const double t = -2 * energy * energy * (1 - cos(theta)),
                 u = -2 * energy * energy * (1 + cos(theta));
    expected[e] = pow(coupling, 4) / 3 * (t / u + u / t);
  }
  cl_int err = CL_SUCCESS;
  cl_mem p_buf = NULL, me_buf = NULL;
  cl_kernel kernel = clCreateKernel(program, KERNEL_NAME, &err);
  int ok = 0;
  if (err == CL_INVALID_KERNEL_NAME)
    fprintf(
        stderr,
        "user_kernel: %s has no kernel named " KERNEL_NAME
        " (clCreateKernel: CL_INVALID_KERNEL_NAME): this example runs __kernel void " KERNEL_NAME
        "(__global const REAL *momenta, uint n_events, REAL coupling, "
        "__global REAL *me), as uu_aa.cl defines it\n",
        argv[1]);
  else
    ok = cl_ok(err, "clCreateKernel", "making the kernel " KERNEL_NAME);
  if (ok) {
    p_buf = clCreateBuffer(cl_ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof momenta, momenta,
                           &err);
    ok = cl_ok(err, "clCreateBuffer", "allocating the momenta");
  }
  if (ok) {
    me_buf = clCreateBuffer(cl_ctx, CL_MEM_WRITE_ONLY, sizeof me, NULL, &err);
    ok = cl_ok(err, "clCreateBuffer", "allocating |M|^2");
  }
  const cl_uint n = N_EVENTS;
  if (ok)
    ok = cl_ok(clSetKernelArg(kernel, 0, sizeof p_buf, &p_buf), "clSetKernelArg",
               "setting argument 0 (the momenta buffer)");
  if (ok)
    ok = cl_ok(clSetKernelArg(kernel, 1, sizeof n, &n), "clSetKernelArg",
               "setting argument 1 (n_events, a uint)");
  if (ok)
    ok = cl_ok(clSetKernelArg(kernel, 2, sizeof coupling, &coupling), "clSetKernelArg",
               "setting argument 2 (the coupling, a double)");
  if (ok)
    ok = cl_ok(clSetKernelArg(kernel, 3, sizeof me_buf, &me_buf), "clSetKernelArg",
               "setting argument 3 (the |M|^2 buffer)");
  const size_t global = N_EVENTS;
  if (ok)
    ok = cl_ok(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL),
               "clEnqueueNDRangeKernel", "launching " KERNEL_NAME);
  if (ok)
    ok = cl_ok(clEnqueueReadBuffer(queue, me_buf, CL_TRUE, 0, sizeof me, me, 0, NULL, NULL),
               "clEnqueueReadBuffer", "reading |M|^2 back");
  if (!ok) {
    if (me_buf != NULL) clReleaseMemObject(me_buf);
    if (p_buf != NULL) clReleaseMemObject(p_buf);
    if (kernel != NULL) clReleaseKernel(kernel);
    clReleaseProgram(program);
    hegetcl_context_destroy(ctx);
    return 1;
  }
  int bad = 0;
  printf("u u~ -> a a by hand (%s): |M|^2 and (e Q)^4/3 (t/u + u/t)\n", argv[1]);
  for (int e = 0; e < N_EVENTS; ++e) {
    const int ok = fabs(me[e] / expected[e] - 1) < 1e-12;
    bad += !ok;
    printf("  %2d  %.16e  %.16e  %s\n", e, me[e], expected[e], ok ? "ok" : "DIFFERS");
  }
  clReleaseMemObject(p_buf);
  clReleaseMemObject(me_buf);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  hegetcl_context_destroy(ctx);
  printf("%s\n", bad ? "FAILED" : "the hand-written kernel agrees with the formula to 1e-12");
  return bad != 0;
}
