/* SPDX-License-Identifier: MIT */
/* hegetcl-bench --process: helicity-summed |M|^2 per second of processes given as text. */
#ifndef HG_BENCH_PROCESS_H
#define HG_BENCH_PROCESS_H

/* Runs the process benchmark with hegetcl-bench's arguments (argv[0] is the first option);
 * returns the exit status. */
int hg_bench_processes(int argc, char **argv);

#endif
