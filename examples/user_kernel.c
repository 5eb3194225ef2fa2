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
  if (status != HEGETCL_OK) {
    fprintf(stderr, "user_kernel: %s (%s)\n", hegetcl_last_error(ctx), hegetcl_status_name(status));
    hegetcl_context_destroy(ctx);
    return 1;
  }
  cl_context cl_ctx;
  cl_command_queue queue;
  hegetcl_context_opencl(ctx, &cl_ctx, NULL, &queue);

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
  cl_kernel kernel = clCreateKernel(program, "uu_aa", &err);
  cl_mem p_buf = clCreateBuffer(cl_ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof momenta,
                                momenta, &err);
  cl_mem me_buf = clCreateBuffer(cl_ctx, CL_MEM_WRITE_ONLY, sizeof me, NULL, &err);
  const cl_uint n = N_EVENTS;
  err |= clSetKernelArg(kernel, 0, sizeof p_buf, &p_buf);
  err |= clSetKernelArg(kernel, 1, sizeof n, &n);
  err |= clSetKernelArg(kernel, 2, sizeof coupling, &coupling);
  err |= clSetKernelArg(kernel, 3, sizeof me_buf, &me_buf);
  const size_t global = N_EVENTS;
  err |= clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL);
  err |= clEnqueueReadBuffer(queue, me_buf, CL_TRUE, 0, sizeof me, me, 0, NULL, NULL);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "user_kernel: an OpenCL call failed (%d)\n", err);
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
