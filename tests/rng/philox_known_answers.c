/* SPDX-License-Identifier: MIT */
/* cl/shared/philox.h against Random123: its published known-answer vectors (kat_vectors) and its
 * own philox4x32 on random counters and keys; the uniform conversions' ranges. */
#include <math.h>
#include <stdio.h>

#include <Random123/philox.h>

#include "test_support.h"

#include "shared/philox.h"

static void known_answer_vectors_of_random123(void **state) {
  (void)state;
  /* Random123 1.14 examples/kat_vectors: "philox4x32 10 ctr[4] key[2] expected[4]" */
  static const uint32_t kat[3][10] = {
      {0, 0, 0, 0, 0, 0, 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
      {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0x408f276d,
       0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
      {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0, 0xd16cfe09,
       0x94fdcceb, 0x5001e420, 0x24126ea1},
  };
  for (int i = 0; i < 3; ++i) {
    hg_philox_words c = {{kat[i][0], kat[i][1], kat[i][2], kat[i][3]}};
    const hg_philox_words r = hg_philox4x32_10(c, kat[i][4], kat[i][5]);
    for (int w = 0; w < 4; ++w)
      if (r.v[w] != kat[i][6 + w])
        fail_msg("vector %d word %d: %08x, Random123 publishes %08x", i, w, r.v[w], kat[i][6 + w]);
  }
}

static void equals_random123_on_random_counters_and_keys(void **state) {
  (void)state;
  uint64_t rng = 5;
  for (int trial = 0; trial < 200000; ++trial) {
    const uint64_t a = ts_splitmix64(&rng), b = ts_splitmix64(&rng), k = ts_splitmix64(&rng);
    philox4x32_ctr_t ctr = {{(uint32_t)a, (uint32_t)(a >> 32), (uint32_t)b, (uint32_t)(b >> 32)}};
    philox4x32_key_t key = {{(uint32_t)k, (uint32_t)(k >> 32)}};
    const philox4x32_ctr_t expected = philox4x32_R(10, ctr, key);
    const hg_philox_words c = {{ctr.v[0], ctr.v[1], ctr.v[2], ctr.v[3]}};
    const hg_philox_words r = hg_philox4x32_10(c, key.v[0], key.v[1]);
    for (int w = 0; w < 4; ++w)
      if (r.v[w] != expected.v[w])
        fail_msg("trial %d word %d: %08x, Random123 %08x", trial, w, r.v[w], expected.v[w]);
  }
}

static void uniforms_stay_inside_the_open_interval(void **state) {
  (void)state;
  const double lowest = hg_uniform_double(0, 0), highest = hg_uniform_double(~0u, ~0u);
  if (!(lowest > 0.0) || !(highest < 1.0))
    fail_msg("uniform range [%.17g, %.17g] touches 0 or 1", lowest, highest);
  if (hg_uniform_index(~0u, 10) != 9 || hg_uniform_index(0, 10) != 0)
    fail_msg("index range wrong: %u %u", hg_uniform_index(~0u, 10), hg_uniform_index(0, 10));
  /* the counter layout: event low/high words, iteration, block */
  const hg_philox_words c = hg_philox_counter(0x123456789abcdefull, 7, 3);
  if (c.v[0] != 0x89abcdefu || c.v[1] != 0x01234567u || c.v[2] != 7 || c.v[3] != 3)
    fail_msg("counter words %08x %08x %08x %08x", c.v[0], c.v[1], c.v[2], c.v[3]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(known_answer_vectors_of_random123),
      cmocka_unit_test(equals_random123_on_random_counters_and_keys),
      cmocka_unit_test(uniforms_stay_inside_the_open_interval),
  };
  return cmocka_run_group_tests_name("philox_known_answers", tests, NULL, NULL);
}
