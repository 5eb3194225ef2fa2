/* SPDX-License-Identifier: MIT */
/* "%.16e" by exact integer arithmetic: x = m 2^-s, D = round(x 10^q) with 10^16 <= D < 10^17, all
 * in 128-bit integers (m < 2^53, 10^q <= 10^22 < 2^74: the product fits), ties to even. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hegetcl/status.h"

#include "io/format_real.h"

#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 u128; /* GCC and clang: 128-bit integers */
#define HG_HAVE_U128 1
#endif

static const uint64_t pow10_u64[20] = {1ull,
                                       10ull,
                                       100ull,
                                       1000ull,
                                       10000ull,
                                       100000ull,
                                       1000000ull,
                                       10000000ull,
                                       100000000ull,
                                       1000000000ull,
                                       10000000000ull,
                                       100000000000ull,
                                       1000000000000ull,
                                       10000000000000ull,
                                       100000000000000ull,
                                       1000000000000000ull,
                                       10000000000000000ull,
                                       100000000000000000ull,
                                       1000000000000000000ull,
                                       10000000000000000000ull};

static size_t with_printf(char *out, double x, int plus) {
  const int n = snprintf(out, HG_FORMAT_E16_SIZE, plus ? "%+.16e" : "%.16e", x);
  return n > 0 ? (size_t)n : 0;
}

static const char digit_pairs[201] = "00010203040506070809101112131415161718192021222324"
                                     "25262728293031323334353637383940414243444546474849"
                                     "50515253545556575859606162636465666768697071727374"
                                     "75767778798081828384858687888990919293949596979899";

size_t hg_format_e16(char *out, double x, int plus) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  const int negative = (int)(bits >> 63);
  const int biased = (int)((bits >> 52) & 0x7ff);
  const uint64_t fraction = bits & ((1ull << 52) - 1);
  char *p = out;
  if (negative)
    *p++ = '-';
  else if (plus)
    *p++ = '+';
  if (biased == 0 && fraction == 0) {
    memcpy(p, "0.0000000000000000e+00", 23);
    return (size_t)(p - out) + 22;
  }
  if (biased == 0 || biased == 0x7ff) return with_printf(out, x, plus); /* subnormal, inf, NaN */
#if !defined(HG_HAVE_U128)
  return with_printf(out, x, plus);
#else
  const uint64_t m = fraction | (1ull << 52);
  const int e2 = biased - 1075; /* x = m 2^e2 */
  if (e2 >= 0) return with_printf(out, x, plus);
  const int s = -e2;
  int k = (int)floor(log10(fabs(x))); /* the decimal exponent, corrected below if off by one */
  uint64_t d = 0;
  for (int tries = 0;; ++tries) {
    const int q = 16 - k;
    if (tries > 2 || q < 0 || q > 22 || s > 126) return with_printf(out, x, plus);
    const u128 scale = q <= 19 ? (u128)pow10_u64[q] : (u128)pow10_u64[q - 19] * pow10_u64[19];
    const u128 n = (u128)m * scale;
    const u128 whole = n >> s;
    if (whole < pow10_u64[16]) {
      --k;
      continue;
    }
    if (whole >= pow10_u64[17]) {
      ++k;
      continue;
    }
    const u128 rest = n - (whole << s), half = (u128)1 << (s - 1);
    d = (uint64_t)whole;
    if (rest > half || (rest == half && (d & 1u))) ++d;
    if (d == pow10_u64[17]) {
      d = pow10_u64[16];
      ++k;
    }
    break;
  }
  /* 17 digits: d0 '.' d1..d16 */
  char digits[18];
  for (int i = 16; i > 0; i -= 2) {
    const unsigned pair = (unsigned)(d % 100u);
    d /= 100u;
    digits[i] = digit_pairs[2 * pair + 1];
    digits[i - 1] = digit_pairs[2 * pair];
  }
  digits[0] = (char)('0' + d);
  *p++ = digits[0];
  *p++ = '.';
  memcpy(p, digits + 1, 16);
  p += 16;
  *p++ = 'e';
  *p++ = k < 0 ? '-' : '+';
  const unsigned e = (unsigned)(k < 0 ? -k : k);
  if (e >= 100) *p++ = (char)('0' + e / 100);
  *p++ = digit_pairs[2 * (e % 100)];
  *p++ = digit_pairs[2 * (e % 100) + 1];
  *p = '\0';
  return (size_t)(p - out);
#endif
}

void hg_text_put(hg_text *t, const char *s, size_t length) {
  if (t->used + length > sizeof t->text) hg_text_flush(t);
  if (length > sizeof t->text) {
    while (length > 0) { /* in pieces that fit */
      const size_t piece = length < sizeof t->text ? length : sizeof t->text;
      memcpy(t->text, s, piece);
      t->used = piece;
      hg_text_flush(t);
      s += piece;
      length -= piece;
    }
    return;
  }
  memcpy(t->text + t->used, s, length);
  t->used += length;
}

void hg_text_real(hg_text *t, double x, int plus) {
  if (t->used + HG_FORMAT_E16_SIZE + 1 > sizeof t->text) hg_text_flush(t);
  t->text[t->used++] = ' ';
  t->used += hg_format_e16(t->text + t->used, x, plus);
}

void hg_text_int(hg_text *t, long long value, int width) {
  char digits[24];
  int n = 0;
  unsigned long long v = value < 0 ? 0ull - (unsigned long long)value : (unsigned long long)value;
  do {
    digits[n++] = (char)('0' + v % 10u);
    v /= 10u;
  } while (v > 0);
  if (value < 0) digits[n++] = '-';
  if (t->used + (size_t)(width > n ? width : n) > sizeof t->text) hg_text_flush(t);
  for (int i = n; i < width; ++i) t->text[t->used++] = ' ';
  while (n > 0) t->text[t->used++] = digits[--n];
}

int hg_text_flush(hg_text *t) {
  if (t->out == NULL) {
    int status = 0;
    if (*t->mem_length + t->used > *t->mem_capacity) {
      size_t capacity = *t->mem_capacity ? *t->mem_capacity : 1u << 16;
      while (capacity < *t->mem_length + t->used) capacity *= 2;
      char *grown = realloc(*t->mem, capacity);
      if (grown == NULL) {
        status = HEGETCL_ERR_NO_MEMORY;
      } else {
        *t->mem = grown;
        *t->mem_capacity = capacity;
      }
    }
    if (status == 0) {
      memcpy(*t->mem + *t->mem_length, t->text, t->used);
      *t->mem_length += t->used;
    }
    t->used = 0;
    return status;
  }
  if (t->used > 0) hg_output_write(t->out, t->text, t->used);
  t->used = 0;
  return hg_output_status(t->out);
}
