/* SPDX-License-Identifier: MIT */
/* Example: |M|^2 of u u~ -> n photons with the installed library, at MadGraph's reference points.
 *
 *   cc -std=c17 amplitude.c $(pkg-config --cflags --libs hegetcl) -o amplitude
 *   ./amplitude me_points_n3.txt          (a file of ../shared/refs/mg5; HEGETCL_DEVICE picks)
 *
 * Reads the points (POINT i sqrt_s, n + 2 momentum lines E px py pz, ME value), evaluates them on
 * the device with host arrays and again on the caller's own OpenCL buffers (zero copy), prints
 * both beside MadGraph's value and exits 1 if any differs by more than 1e-10 (relative). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hegetcl/hegetcl.h>

#define MAX_POINTS 64
#define MAX_PARTICLES 14

/* The MadGraph points of path: momenta event by event [point][particle][4], reference values. */
static int read_points(const char *path, double *momenta, double *reference, size_t *n_points,
                       unsigned *n_particles) {
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    fprintf(stderr, "amplitude: cannot open %s\n", path);
    return 1;
  }
  char line[512];
  size_t point = 0;
  unsigned particle = 0;
  *n_particles = 0;
  while (fgets(line, sizeof line, f) != NULL && point < MAX_POINTS) {
    double p[4];
    if (line[0] == '#') continue;
    if (strncmp(line, "POINT", 5) == 0) {
      particle = 0;
    } else if (strncmp(line, "ME", 2) == 0) {
      reference[point] = strtod(line + 2, NULL);
      *n_particles = particle;
      ++point;
    } else if (particle < MAX_PARTICLES &&
               sscanf(line, "%lf %lf %lf %lf", &p[0], &p[1], &p[2], &p[3]) == 4) {
      memcpy(&momenta[(point * MAX_PARTICLES + particle) * 4], p, sizeof p);
      ++particle;
    }
  }
  fclose(f);
  *n_points = point;
  return point == 0 || *n_particles < 4;
}

static int fail(hegetcl_context *ctx, const char *what, hegetcl_status status) {
  fprintf(stderr, "amplitude: %s: %s (%s)\n", what, hegetcl_last_error(ctx),
          hegetcl_status_name(status));
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: amplitude MG5_POINTS_FILE\n");
    return 2;
  }
  static double read[MAX_POINTS * MAX_PARTICLES * 4], reference[MAX_POINTS];
  size_t n_events = 0;
  unsigned n_particles = 0;
  if (read_points(argv[1], read, reference, &n_events, &n_particles) != 0) {
    fprintf(stderr, "amplitude: %s holds no complete point\n", argv[1]);
    return 1;
  }
  /* the library takes event-major momenta [event][particle][component] */
  double *momenta = malloc(n_events * n_particles * 4 * sizeof *momenta);
  double *me = malloc(n_events * sizeof *me), *me_device = malloc(n_events * sizeof *me_device);
  for (size_t e = 0; e < n_events; ++e)
    memcpy(&momenta[e * n_particles * 4], &read[e * MAX_PARTICLES * 4],
           n_particles * 4 * sizeof(double));

  hegetcl_context *ctx = NULL;
  hegetcl_status status = hegetcl_context_create(NULL, &ctx); /* HEGETCL_DEVICE, else auto */
  if (status != HEGETCL_OK) return fail(ctx, "creating a context", status);
  hegetcl_device_info info;
  hegetcl_context_device(ctx, &info);
  printf("hegetcl %s on %s (%s)\n", hegetcl_version(), info.name, info.platform);

  hegetcl_process process;
  hegetcl_process_defaults(&process, n_particles - 2); /* u u~ -> n a, double, recursive */
  hegetcl_amplitude *amp = NULL;
  status = hegetcl_amplitude_create(ctx, &process, &amp);
  if (status != HEGETCL_OK) return fail(ctx, "creating the amplitude", status);
  status = hegetcl_amplitude_evaluate_events(amp, n_events, momenta, NULL, me);
  if (status != HEGETCL_OK) return fail(ctx, "evaluating", status);

  /* zero copy: the momenta are already on the device in the caller's buffer (structure of
   * arrays, the program's precision: double here) */
  cl_context cl_ctx;
  cl_command_queue queue;
  hegetcl_context_opencl(ctx, &cl_ctx, NULL, &queue);
  const size_t count = 4 * n_particles * n_events;
  double *soa = malloc(count * sizeof *soa);
  for (size_t e = 0; e < n_events; ++e)
    for (unsigned i = 0; i < n_particles; ++i)
      for (unsigned c = 0; c < 4; ++c)
        soa[(c * n_particles + i) * n_events + e] = momenta[(e * n_particles + i) * 4 + c];
  cl_int err = CL_SUCCESS, err2 = CL_SUCCESS;
  cl_mem p_buf = clCreateBuffer(cl_ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                count * sizeof(double), soa, &err);
  cl_mem me_buf = clCreateBuffer(cl_ctx, CL_MEM_WRITE_ONLY, n_events * sizeof(double), NULL, &err2);
  if (err != CL_SUCCESS || err2 != CL_SUCCESS) {
    fprintf(stderr, "amplitude: clCreateBuffer failed (%d, %d)\n", err, err2);
    return 1;
  }
  status = hegetcl_amplitude_evaluate_buffers(amp, n_events, p_buf, NULL, me_buf);
  if (status != HEGETCL_OK) return fail(ctx, "evaluating on buffers", status);
  /* a blocking read on the same in-order queue waits for the kernels */
  err = clEnqueueReadBuffer(queue, me_buf, CL_TRUE, 0, n_events * sizeof(double), me_device, 0,
                            NULL, NULL);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "amplitude: clEnqueueReadBuffer failed (%d)\n", err);
    return 1;
  }

  int bad = 0;
  printf("u u~ -> %u photons: |M|^2 (host arrays, device buffers, MadGraph)\n", n_particles - 2);
  for (size_t e = 0; e < n_events; ++e) {
    const double d1 = fabs(me[e] / reference[e] - 1), d2 = fabs(me_device[e] / reference[e] - 1);
    const int ok = d1 < 1e-10 && d2 < 1e-10;
    bad += !ok;
    printf("  %zu  %.16e  %.16e  %.16e  %s\n", e + 1, me[e], me_device[e], reference[e],
           ok ? "ok" : "DIFFERS");
  }
  clReleaseMemObject(p_buf);
  clReleaseMemObject(me_buf);
  free(soa);
  hegetcl_amplitude_destroy(amp);
  hegetcl_context_destroy(ctx);
  free(momenta);
  free(me);
  free(me_device);
  printf("%s\n", bad ? "FAILED" : "all points agree with MadGraph to 1e-10");
  return bad != 0;
}
