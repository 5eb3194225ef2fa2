/* SPDX-License-Identifier: MIT */
/* libFuzzer target: hg_process_parse (the process strings users write, "g g > t t~ g") on any
 * bytes, and its promises: a refusal says why in a terminated message made of printable ASCII
 * (what a terminal would not show is written out), whatever the message buffer's size, with the
 * same status; an accepted process has two incoming particles, at least two outgoing ones and no
 * more than HG_PROCESS_MAX_EXTERNAL, and its normalised text parses again to the same process. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hegetcl/amplitude.h"
#include "process/process_spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The engines' photon limits quoted by a refusal: the library's table, which lives with the
 * OpenCL code (host/amplitude/amplitude.c) and is not what is fuzzed here. */
unsigned hegetcl_engine_max_photons(hegetcl_engine engine) {
  return engine == HEGETCL_ENGINE_RECURSIVE ? 12 : 8;
}

/* Prints why the input broke a promise of process_spec.h and aborts (a crash libFuzzer saves). */
static void broken(const char *what, const char *detail) {
  fprintf(stderr, "process_spec_fuzz: %s: %s\n", what, detail);
  abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (text == NULL) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  hg_process_spec spec;
  char message[2048];
  memset(message, 'x', sizeof message);
  const int status = hg_process_parse(text, &spec, message, sizeof message);
  if (status != 0 && status != -1) broken("status is neither 0 nor -1", message);
  /* the same answer with a small buffer and with none */
  char small[8];
  memset(small, 'x', sizeof small);
  hg_process_spec again;
  if (hg_process_parse(text, &again, small, sizeof small) != status)
    broken("the status changed with an 8-byte message buffer", message);
  if (status != 0 && memchr(small, '\0', sizeof small) == NULL)
    broken("an 8-byte message is not terminated", "");
  if (hg_process_parse(text, &again, NULL, 0) != status)
    broken("the status changed with no message buffer", message);
  if (status != 0) {
    if (memchr(message, '\0', sizeof message) == NULL) broken("the message is not terminated", "");
    if (message[0] == '\0') broken("a refusal wrote no message", "(empty)");
    for (const unsigned char *p = (const unsigned char *)message; *p != '\0'; ++p)
      if (*p < 0x20 || *p >= 0x7f) broken("the message holds a character it should escape", message);
    free(text);
    return 0;
  }
  if (spec.n_in != 2 || spec.n < 4 || spec.n > HG_PROCESS_MAX_EXTERNAL)
    broken("an accepted process has the wrong particle counts", spec.text);
  if (memchr(spec.text, '\0', sizeof spec.text) == NULL) broken("the text is not terminated", "");
  /* the normalised text is a process string too, the same one */
  if (hg_process_parse(spec.text, &again, message, sizeof message) != 0)
    broken("the normalised text does not parse", message);
  if (again.n != spec.n || again.n_in != spec.n_in ||
      memcmp(again.species, spec.species, (size_t)spec.n * sizeof spec.species[0]) != 0 ||
      strcmp(again.text, spec.text) != 0)
    broken("the normalised text parses to another process", spec.text);
  free(text);
  return 0;
}
