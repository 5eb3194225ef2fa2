/* SPDX-License-Identifier: MIT */
/* Oclgrind's uninitialised-value plugin keeps a released buffer's shadow for the next buffer that
 * gets its number (docs/opencl-implementations.md, "A second trap"). Each round makes five
 * buffers, a kernel writes x whole, another reads it, and the buffers are released in another
 * order than they were made: from the second round on, x gets a smaller buffer's number and
 *   cc -o released docs/oclgrind_released_buffer.c -lOpenCL
 *   oclgrind --uninitialized ./released
 * reports its reads as uninitialised, though every value was written (the program checks). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>

static const char *source =
    "__kernel void write_x(const uint n, __global double *x) {\n"
    "  const size_t e = get_global_id(0);\n"
    "  for (uint j = 0; j < 3; ++j) x[j * n + e] = (double)(j * n + e);\n"
    "}\n"
    "__kernel void read_x(const uint n, __global const double *x, __global double *y) {\n"
    "  const size_t e = get_global_id(0);\n"
    "  double f = 1.0;\n"
    "  for (uint j = 0; j < 3; ++j) f *= sin(x[j * n + e]);\n"
    "  y[e] = f;\n"
    "}\n";

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  cl_int err = clGetPlatformIDs(1, &platform, NULL);
  err |= clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
  cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
  if (err != CL_SUCCESS || clBuildProgram(program, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
    fprintf(stderr, "no OpenCL device, or the program did not build\n");
    return 1;
  }
  const cl_uint n = 64;
  const size_t global = n;
  int wrong = 0;
  for (int round = 0; round < 3; ++round) {
    cl_kernel writer = clCreateKernel(program, "write_x", &err);
    cl_kernel reader = clCreateKernel(program, "read_x", &err);
    /* x, y, then three small buffers the host writes (which gives them a shadow of their size);
     * released small ones first, so the next round's x takes a small one's number */
    cl_mem x = clCreateBuffer(context, CL_MEM_READ_WRITE, 3 * n * sizeof(double), NULL, &err);
    cl_mem y = clCreateBuffer(context, CL_MEM_READ_WRITE, n * sizeof(double), NULL, &err);
    const double eight[8] = {0};
    cl_mem small[3];
    for (int k = 0; k < 3; ++k)
      small[k] = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof eight,
                                (void *)eight, &err);
    err = clSetKernelArg(writer, 0, sizeof n, &n);
    err |= clSetKernelArg(writer, 1, sizeof x, &x);
    err |= clSetKernelArg(reader, 0, sizeof n, &n);
    err |= clSetKernelArg(reader, 1, sizeof x, &x);
    err |= clSetKernelArg(reader, 2, sizeof y, &y);
    err |= clEnqueueNDRangeKernel(queue, writer, 1, NULL, &global, NULL, 0, NULL, NULL);
    err |= clEnqueueNDRangeKernel(queue, reader, 1, NULL, &global, NULL, 0, NULL, NULL);
    double values[3 * 64];
    err |= clEnqueueReadBuffer(queue, x, CL_TRUE, 0, sizeof values, values, 0, NULL, NULL);
    int round_wrong = 0;
    for (cl_uint i = 0; i < 3 * n; ++i) round_wrong += values[i] != (double)i;
    printf("round %d: OpenCL status %d, %d of %u values of x wrong\n", round, err, round_wrong,
           3 * n);
    wrong += round_wrong + (err != CL_SUCCESS);
    for (int k = 0; k < 3; ++k) clReleaseMemObject(small[k]);
    clReleaseMemObject(x);
    clReleaseMemObject(y);
    clReleaseKernel(writer);
    clReleaseKernel(reader);
  }
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return wrong != 0;
}
