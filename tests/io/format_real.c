/* SPDX-License-Identifier: MIT */
/* hg_format_e16 against glibc's printf, character for character: random doubles over the whole
 * range, the event files' ranges, numbers with few mantissa bits (whose 18th digit can be an
 * exact tie, rounded to even), powers of ten and their neighbours, signed zeros, subnormals,
 * infinities and NaN. Prints TAP. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "io/format_real.h"

static uint64_t state = 0x2545F4914F6CDD1Dull;
static uint64_t next(void) {
  state ^= state >> 12;
  state ^= state << 25;
  state ^= state >> 27;
  return state * 2685821657736338717ull;
}

static long failures;
static char first[256];

static void check(double x) {
  for (int plus = 0; plus < 2; ++plus) {
    char a[64], b[HG_FORMAT_E16_SIZE];
    snprintf(a, sizeof a, plus ? "%+.16e" : "%.16e", x);
    const size_t n = hg_format_e16(b, x, plus);
    if (strcmp(a, b) != 0 || n != strlen(a)) {
      if (failures++ == 0) snprintf(first, sizeof first, "%a: printf %s, ours %s", x, a, b);
    }
  }
}

int main(void) {
  int test = 0;
  printf("1..4\n");
  /* 1: random bit patterns (every exponent) */
  for (long i = 0; i < 200000; ++i) {
    uint64_t bits = next();
    double x;
    memcpy(&x, &bits, sizeof x);
    check(x);
  }
  printf("%s %d - 2e5 random bit patterns as printf writes them%s%s\n", failures ? "not ok" : "ok",
         ++test, failures ? ": " : "", failures ? first : "");
  long before = failures;
  /* 2: the event files' ranges: 1e-7 .. 1e17, both signs */
  for (long i = 0; i < 300000; ++i) {
    const double u = (double)(next() >> 11) * 0x1.0p-53;
    const double x = pow(10.0, -7.0 + 24.0 * u) * ((next() & 1) ? -1.0 : 1.0);
    check(x);
  }
  printf("%s %d - 3e5 numbers from 1e-7 to 1e17%s%s\n", failures > before ? "not ok" : "ok", ++test,
         failures > before ? ": " : "", failures > before ? first : "");
  before = failures;
  /* 3: few mantissa bits: exact decimals, ties at the 18th digit (x = odd 2^-j) */
  long ties = 0;
  for (int j = 0; j <= 80; ++j)
    for (uint64_t odd = 1; odd < 1u << 17; odd += 2 + (next() % 7) * 2) {
      const double x = ldexp((double)odd, -j);
      char long_form[80];
      snprintf(long_form, sizeof long_form, "%.30e", x);
      ties +=
          strlen(long_form) > 19 && long_form[18] == '5' && strspn(long_form + 19, "0") == 30 - 17;
      check(x);
    }
  printf("%s %d - odd numbers times 2^-j, %ld of them exact ties at the 18th digit%s%s\n",
         failures > before || ties == 0 ? "not ok" : "ok", ++test, ties,
         failures > before ? ": " : "", failures > before ? first : "");
  before = failures;
  /* 4: powers of ten and their neighbours, zeros, subnormals, infinities, NaN */
  for (int e = -320; e <= 308; ++e) {
    const double x = pow(10.0, e);
    check(x);
    check(nextafter(x, 0.0));
    check(nextafter(x, INFINITY));
    check(-x);
  }
  const double specials[] = {0.0,
                             -0.0,
                             5e-324,
                             2.2250738585072014e-308,
                             INFINITY,
                             -INFINITY,
                             NAN,
                             4503599627370496.0,
                             4503599627370495.5,
                             9007199254740993.0,
                             1.0,
                             9.99999999999999999e-7,
                             1e-6,
                             0.5,
                             20.0,
                             7000.0};
  for (size_t i = 0; i < sizeof specials / sizeof *specials; ++i) check(specials[i]);
  printf("%s %d - powers of ten and neighbours, signed zeros, subnormals, infinities, NaN%s%s\n",
         failures > before ? "not ok" : "ok", ++test, failures > before ? ": " : "",
         failures > before ? first : "");
  return failures != 0;
}
