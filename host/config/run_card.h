/* SPDX-License-Identifier: MIT */
/* Run cards: YAML files of command options (`n: 5`), read as text for the CLI to interpret. */
#ifndef HG_CONFIG_RUN_CARD_H
#define HG_CONFIG_RUN_CARD_H

#include <stddef.h>
#include <stdio.h>

/* One option of a card: its key and value as text. line and column (1-based) are the value's
 * start, where a message about a bad value should point. */
typedef struct {
  char *key;   /* the option's long name without dashes ("pt-min"); a group's name is not in it */
  char *value; /* the scalar's text as YAML reads it: quotes and escapes resolved, a number or a
                  boolean exactly as written ("1e6", "true", "yes"); never NULL, "" only if
                  written "" or '' */
  int line;
  int column;
} hg_card_entry;

/* The entries in the order of the file; path as given to the reader (messages only). */
typedef struct {
  hg_card_entry *entries;
  size_t count;
  char *path;
} hg_run_card;

/* Reads the run card at path. Its one YAML document is a mapping from option names to scalars:
 *
 *   n: 5
 *   engine: recursive
 *   cuts:             # a group: one level of nesting, for readability only; the name is
 *     pt-min: 20      # ignored (except in messages), so this is the option pt-min
 *     eta-max: 2.5
 *
 * Each option may appear once, in a group or not. Not accepted, each with a message
 * "<path>:<line>:<column>: <what is wrong>; <the fix>": YAML syntax errors (libyaml's words), a
 * top level that is not a mapping, lists, groups inside groups, keys that are quoted, empty or
 * not scalars, values that are null (empty, ~, null), text holding a NUL character, duplicate
 * keys (naming the first one's line), anchors, aliases, tags and a second document. A file that
 * cannot be read gives "<path>: cannot read the run card: <strerror>". An empty file (or one of
 * comments only) is a card with no entries.
 * Returns 0 with card filled (free it with hg_run_card_free), or a hegetcl_status error code
 * (HEGETCL_ERR_INPUT, HEGETCL_ERR_IO, HEGETCL_ERR_NO_MEMORY) with message written (truncated to
 * message_size; none when message is NULL) and card empty. */
int hg_run_card_read(const char *path, hg_run_card *card, char *message, size_t message_size);

/* As hg_run_card_read for the length bytes at text (need not end in NUL; path is for messages
 * only and may be NULL). Safe on any input: the fuzzing target. */
int hg_run_card_parse(const char *text, size_t length, const char *path, hg_run_card *card,
                      char *message, size_t message_size);

/* Frees what a card holds and empties it; NULL or an empty card is a no-op. */
void hg_run_card_free(hg_run_card *card);

/* Writes value as a YAML scalar that hg_run_card_parse reads back as the same text: plain where
 * that is certain (letters, digits, "._/+-" and inner spaces, not a YAML null or boolean word such
 * as yes, no, on, null), else double-quoted with escapes. YAML text is Unicode: value should be
 * UTF-8; a byte that is not is written as \xNN, which reads back as the character U+00NN. */
void hg_yaml_write_scalar(FILE *out, const char *value);

#endif
