/* SPDX-License-Identifier: MIT */
/* Philox4x32-10 counter-based random numbers (Salmon et al., SC11, "Parallel random numbers: as
 * easy as 1, 2, 3"), one source for host C and OpenCL C; tests check it against Random123. */
#ifndef HG_PHILOX_H
#define HG_PHILOX_H

#include "shared/portable.h"

/* Four 32-bit words: a counter or a result. */
typedef struct {
  hg_u32 v[4];
} hg_philox_words;

/* One Philox round: two 32x32 -> 64-bit products mix the counter with the round key. */
HG_INLINE hg_philox_words hg_philox_round(hg_philox_words c, hg_u32 k0, hg_u32 k1) {
  const hg_u64 p0 = (hg_u64)0xD2511F53u * (hg_u64)c.v[0];
  const hg_u64 p1 = (hg_u64)0xCD9E8D57u * (hg_u64)c.v[2];
  hg_philox_words r;
  r.v[0] = (hg_u32)(p1 >> 32) ^ c.v[1] ^ k0;
  r.v[1] = (hg_u32)p1;
  r.v[2] = (hg_u32)(p0 >> 32) ^ c.v[3] ^ k1;
  r.v[3] = (hg_u32)p0;
  return r;
}

/* Philox4x32 with 10 rounds: the key is bumped by the Weyl constants between rounds. */
HG_INLINE hg_philox_words hg_philox4x32_10(hg_philox_words counter, hg_u32 k0, hg_u32 k1) {
  for (int round = 0; round < 10; ++round) {
    counter = hg_philox_round(counter, k0, k1);
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return counter;
}

/* The counter of draw block `block` of event `event` in iteration `iteration` (CONVENTIONS.md,
 * "Random numbers"): an event's numbers depend on nothing but the seed and these three. */
HG_INLINE hg_philox_words hg_philox_counter(hg_u64 event, hg_u32 iteration, hg_u32 block) {
  hg_philox_words c;
  c.v[0] = (hg_u32)event;
  c.v[1] = (hg_u32)(event >> 32);
  c.v[2] = iteration;
  c.v[3] = block;
  return c;
}

/* A double uniform in (0, 1) from two words: 52 random bits, offset by half a step, so the
 * extremes 2^-53 and 1 - 2^-53 are exact (with 53 bits the top value would round to 1). */
HG_INLINE double hg_uniform_double(hg_u32 high, hg_u32 low) {
  const hg_u64 bits = (((hg_u64)high << 32) | (hg_u64)low) >> 12;
  return ((double)bits + 0.5) * 0x1p-52;
}

/* An integer uniform in [0, n) from one word (multiply-shift; bias below n / 2^32). */
HG_INLINE hg_u32 hg_uniform_index(hg_u32 word, hg_u32 n) {
  return (hg_u32)(((hg_u64)word * (hg_u64)n) >> 32);
}

#endif
