/* SPDX-License-Identifier: MIT */
/* hegetcl-bench --write-rates: how fast each event format is written (write_rates.c). */
#ifndef HG_BENCH_WRITE_RATES_H
#define HG_BENCH_WRITE_RATES_H

int hg_bench_write_rates(int argc, char **argv);

#endif
