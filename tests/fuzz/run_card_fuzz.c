/* SPDX-License-Identifier: MIT */
/* libFuzzer target: hg_run_card_parse on any bytes, its error contract, and every value it accepts
 * written back by hg_yaml_write_scalar reading again as the same text. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/run_card.h"
#include "hegetcl/status.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Prints why the input broke a promise of run_card.h and aborts, which libFuzzer reports as a
 * crash with the input saved. */
static void broken(const char *what, const char *detail) {
  fprintf(stderr, "run_card_fuzz: %s: %s\n", what, detail);
  abort();
}

/* A failed parse leaves the card empty and says why in a NUL-terminated message, whatever the
 * message buffer's size; the status does not depend on that size. */
static void check_failure(const uint8_t *data, size_t size, int status, const hg_run_card *card,
                          const char *message) {
  if (status != HEGETCL_ERR_INPUT && status != HEGETCL_ERR_NO_MEMORY)
    broken("status is neither HEGETCL_ERR_INPUT nor _NO_MEMORY", message);
  if (card->entries != NULL || card->count != 0 || card->path != NULL)
    broken("a failed parse left entries in the card", message);
  if (message[0] == '\0') broken("a failed parse wrote no message", "(empty)");
  /* 8 bytes: shorter than every "path:line:column: " prefix, so fail_at's truncation runs */
  char small[8];
  memset(small, 'x', sizeof small);
  hg_run_card again;
  if (hg_run_card_parse((const char *)data, size, "fuzz.yaml", &again, small, sizeof small) !=
      status)
    broken("the status changed with an 8-byte message buffer", message);
  if (memchr(small, '\0', sizeof small) == NULL) broken("an 8-byte message is not terminated", "");
  if (hg_run_card_parse((const char *)data, size, NULL, &again, NULL, 0) != status)
    broken("the status changed with no message buffer", message);
}

/* "key: <value as hg_yaml_write_scalar writes it>" parses back to one entry holding value. */
static void check_round_trip(const char *value) {
  char *text = NULL;
  size_t length = 0;
  FILE *out = open_memstream(&text, &length);
  if (out == NULL) broken("open_memstream failed", value);
  fputs("key: ", out);
  hg_yaml_write_scalar(out, value);
  fputc('\n', out);
  if (fclose(out) != 0) broken("writing to the memory stream failed", value);
  hg_run_card card;
  char message[512];
  const int status =
      hg_run_card_parse(text, length, "round-trip.yaml", &card, message, sizeof message);
  if (status != HEGETCL_OK) {
    fprintf(stderr, "run_card_fuzz: written as: %s", text);
    broken("a written scalar does not parse", message);
  }
  if (card.count != 1 || strcmp(card.entries[0].value, value) != 0) {
    fprintf(stderr, "run_card_fuzz: written as: %s", text);
    broken("a written scalar reads back as other text", card.count ? card.entries[0].value : "");
  }
  hg_run_card_free(&card);
  free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hg_run_card card;
  char message[512];
  const int status =
      hg_run_card_parse((const char *)data, size, "fuzz.yaml", &card, message, sizeof message);
  if (status != HEGETCL_OK) {
    check_failure(data, size, status, &card, message);
    return 0;
  }
  if (card.path == NULL || strcmp(card.path, "fuzz.yaml") != 0)
    broken("the card does not keep its path", card.path ? card.path : "(NULL)");
  for (size_t i = 0; i < card.count; ++i) {
    const hg_card_entry *e = &card.entries[i];
    if (e->key == NULL || e->key[0] == '\0' || e->value == NULL || e->line < 1 || e->column < 1)
      broken("an entry lacks its key, value or position", e->key ? e->key : "(NULL)");
    for (size_t j = 0; j < i; ++j)
      if (strcmp(card.entries[j].key, e->key) == 0) broken("an option appears twice", e->key);
    check_round_trip(e->value);
  }
  hg_run_card_free(&card);
  return 0;
}
