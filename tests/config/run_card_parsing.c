/* SPDX-License-Identifier: MIT */
/* Run cards: what a card reads back as, the message for each kind of bad card, and scalars that
 * hg_yaml_write_scalar writes reading back as the same text. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "config/run_card.h"
#include "hegetcl/status.h"
#include "hegetcl/xsec.h"

/* A temporary folder for the cards that are read from files. */
typedef struct {
  char dir[1024];
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  *state = f;
  if (f == NULL) return -1;
  const char *tmp = getenv("TMPDIR");
  snprintf(f->dir, sizeof f->dir, "%s/run_card_parsing.XXXXXX",
           tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
  return mkdtemp(f->dir) != NULL ? 0 : -1;
}

static int teardown(void **state) {
  fixture *f = *state;
  if (f == NULL) return 0;
  rmdir(f->dir);
  free(f);
  return 0;
}

static void assert_message_has(const char *message, const char *part) {
  if (strstr(message, part) == NULL) fail_msg("message lacks '%s': %s", part, message);
}

/* text (NUL-terminated) parsed as card.yaml. */
static int parse(const char *text, hg_run_card *card, char *message, size_t size) {
  return hg_run_card_parse(text, strlen(text), "card.yaml", card, message, size);
}

static void expect_entry(const hg_run_card *card, size_t i, const char *key, const char *value,
                         int line, int column) {
  if (i >= card->count) fail_msg("entry %zu of %zu: want %s: %s", i, card->count, key, value);
  const hg_card_entry *e = &card->entries[i];
  if (strcmp(e->key, key) != 0 || strcmp(e->value, value) != 0 || e->line != line ||
      e->column != column)
    fail_msg("entry %zu is [%s] = [%s] at %d:%d, want [%s] = [%s] at %d:%d", i, e->key, e->value,
             e->line, e->column, key, value, line, column);
}

/* Comments, a block group, a flow group, quoted text and numbers as written, in file order. */
static void a_commented_card_with_groups_reads_back_in_order(void **state) {
  (void)state;
  static const char text[] = "# hegetcl xsec: the paper's set-up with 5 photons\n"
                             "n: 5                     # photons\n"
                             "engine: recursive\n"
                             "seed: 7\n"
                             "events: 1e6              # e-notation stays text\n"
                             "target-error: 2.5E-3\n"
                             "quiet: true\n"
                             "pdf: \"cteq6l1\"\n"
                             "json: 'out dir/result #1.json'\n"
                             "\n"
                             "cuts:                    # a group, for reading only\n"
                             "  pt-min: 20\n"
                             "  eta-max: 2.5\n"
                             "  # a comment inside the group\n"
                             "  dr-min: .4\n"
                             "vegas: {vegas-bins: 64, vegas-alpha: 1.5}\n"
                             "charge: -0.6666666666666666\n"
                             "device: \"NVIDIA \\\"H100\\\"\\tx1\"\n"
                             "helicity: yes            # YAML 1.1 boolean: the text as written\n";
  hg_run_card card;
  char message[512];
  const int status = parse(text, &card, message, sizeof message);
  if (status != 0) fail_msg("status %d: %s", status, message);
  assert_string_equal(card.path, "card.yaml");
  assert_int_equal(card.count, 16);
  expect_entry(&card, 0, "n", "5", 2, 4);
  expect_entry(&card, 1, "engine", "recursive", 3, 9);
  expect_entry(&card, 2, "seed", "7", 4, 7);
  expect_entry(&card, 3, "events", "1e6", 5, 9);
  expect_entry(&card, 4, "target-error", "2.5E-3", 6, 15);
  expect_entry(&card, 5, "quiet", "true", 7, 8);
  expect_entry(&card, 6, "pdf", "cteq6l1", 8, 6);
  expect_entry(&card, 7, "json", "out dir/result #1.json", 9, 7);
  expect_entry(&card, 8, "pt-min", "20", 12, 11);
  expect_entry(&card, 9, "eta-max", "2.5", 13, 12);
  expect_entry(&card, 10, "dr-min", ".4", 15, 11);
  expect_entry(&card, 11, "vegas-bins", "64", 16, 21);
  expect_entry(&card, 12, "vegas-alpha", "1.5", 16, 38);
  expect_entry(&card, 13, "charge", "-0.6666666666666666", 17, 9);
  expect_entry(&card, 14, "device", "NVIDIA \"H100\"\tx1", 18, 9);
  expect_entry(&card, 15, "helicity", "yes", 19, 11);
  hg_run_card_free(&card);
  assert_null(card.entries);
  assert_int_equal(card.count, 0);
  hg_run_card_free(&card); /* twice, and NULL: no-ops */
  hg_run_card_free(NULL);
}

/* Block scalars, folded lines and single-quoted text are values like any other. */
static void multi_line_values_read_as_yaml_defines_them(void **state) {
  (void)state;
  hg_run_card card;
  char message[512];
  const int status = parse("pdf: |\n  line one\n  line two\n"
                           "json: >\n  folded\n  text\n"
                           "device: 'it''s'\n"
                           "engine: plain text\n  folded on\n",
                           &card, message, sizeof message);
  if (status != 0) fail_msg("status %d: %s", status, message);
  expect_entry(&card, 0, "pdf", "line one\nline two\n", 1, 6);
  expect_entry(&card, 1, "json", "folded text\n", 4, 7);
  expect_entry(&card, 2, "device", "it's", 7, 9);
  expect_entry(&card, 3, "engine", "plain text folded on", 8, 9);
  assert_int_equal(card.count, 4);
  hg_run_card_free(&card);
}

/* No document, comments only, {} and a bare '---' are cards without entries. */
static void empty_cards_have_no_entries(void **state) {
  (void)state;
  static const char *const texts[] = {"", "# nothing yet\n\n", "{}\n", "---\n", "---\n...\n"};
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; ++i) {
    hg_run_card card;
    char message[512];
    const int status = parse(texts[i], &card, message, sizeof message);
    if (status != 0) fail_msg("'%s': status %d: %s", texts[i], status, message);
    assert_int_equal(card.count, 0);
    hg_run_card_free(&card);
  }
}

/* hg_run_card_read: the file's entries, its path, and no limit of ours on the length of a key or
 * value (YAML itself allows implicit keys of 1024 characters at most). */
static void a_card_file_is_read_with_its_path(void **state) {
  const fixture *f = *state;
  char path[2048];
  snprintf(path, sizeof path, "%s/long.yaml", f->dir);
  const size_t key_length = 1000, value_length = 100000;
  char *long_key = malloc(key_length + 1), *long_value = malloc(value_length + 1);
  assert_non_null(long_key);
  assert_non_null(long_value);
  for (size_t i = 0; i < key_length; ++i) long_key[i] = (char)('a' + i % 26);
  for (size_t i = 0; i < value_length; ++i) long_value[i] = (char)('0' + i % 10);
  long_key[key_length] = long_value[value_length] = '\0';
  FILE *file = fopen(path, "w");
  assert_non_null(file);
  fprintf(file, "# written by run_card_parsing\nn: 6\n%s: %s\n", long_key, long_value);
  assert_int_equal(fclose(file), 0);

  hg_run_card card;
  char message[512];
  const int status = hg_run_card_read(path, &card, message, sizeof message);
  if (status != 0) fail_msg("status %d: %s", status, message);
  assert_string_equal(card.path, path);
  assert_int_equal(card.count, 2);
  expect_entry(&card, 0, "n", "6", 2, 4);
  assert_string_equal(card.entries[1].key, long_key);
  assert_string_equal(card.entries[1].value, long_value);
  assert_int_equal(card.entries[1].line, 3);
  hg_run_card_free(&card);
  free(long_key);
  free(long_value);
  assert_int_equal(remove(path), 0);
}

/* A file that cannot be opened or read: HEGETCL_ERR_IO naming the path and the system's reason. */
static void an_unreadable_file_names_the_path_and_reason(void **state) {
  const fixture *f = *state;
  char path[2048], message[4096];
  hg_run_card card;
  snprintf(path, sizeof path, "%s/no_such_card.yaml", f->dir);
  assert_int_equal(hg_run_card_read(path, &card, message, sizeof message), HEGETCL_ERR_IO);
  assert_message_has(message, path);
  assert_message_has(message, strerror(ENOENT));
  assert_message_has(message, "check the path");
  assert_int_equal(card.count, 0);
  assert_null(card.entries);

  assert_int_equal(hg_run_card_read(f->dir, &card, message, sizeof message), HEGETCL_ERR_IO);
  assert_message_has(message, f->dir);
  assert_message_has(message, strerror(EISDIR));
}

typedef struct {
  const char *text;
  int line;         /* of "card.yaml:<line>:" */
  const char *what; /* part of what is wrong */
  const char *fix;  /* part of the fix */
} bad_card;

/* Each kind of bad card: HEGETCL_ERR_INPUT, "card.yaml:<line>:<column>: ", what and how to fix. */
static void each_bad_card_names_file_line_and_fix(void **state) {
  (void)state;
  static const bad_card cases[] = {
      /* YAML syntax, in libyaml's words */
      {"n: 5\npdf: \"cteq6l1\n", 3, "quoted scalar from line 2", "close the quote"},
      {"n: 5\npdf: a: b\n", 2, "mapping values are not allowed", "quote a value that holds ': '"},
      {"n: 5\ncuts:\n\tpt-min: 20\n", 3, "cannot start any token", "not tabs"},
      {"n: 5\nseed 7\nquiet: true\n", 3, "could not find expected ':'", "'key: value'"},
      {"n: 5\ncuts:\n    pt-min: 20\n  eta-max: 2.5\n", 4, "did not find expected key",
       "indent the entries of a group alike"},
      {"n: 5\nvegas: {vegas-bins: 64\nseed: 2\n", 3, "expected ',' or '}'", "close the {"},
      {"pdf: \"C:\\data\"\n", 1, "unknown escape", "\\\\ for a backslash"},
      {"n: 5\npdf: a\x01"
       "b\n",
       2, "control characters", "remove it"},
      {"n: 5\npdf: \xff\n", 2, "invalid leading UTF-8 octet (0xFF)", "UTF-8 text"},
      /* the top level */
      {"- n: 5\n- seed: 7\n", 1, "the run card is a list", "'key: value' per line"},
      {"n 5\n", 1, "the run card is the text 'n 5', not a mapping", "'key: value' per line"},
      /* values */
      {"n: 5\nseed: [1, 2]\n", 2, "seed: a list is not a value", "one value (seed: 5)"},
      {"n: 5\nseed:\n  - 1\n", 3, "a list is not a value", "one value"},
      {"cuts:\n  pt:\n    min: 20\n", 2, "pt (in group cuts): groups nest one level only",
       "move the entries of pt up into group cuts"},
      {"n: 5\nseed:\n", 2, "seed has no value", "write one (seed: 5)"},
      {"n: 5\ncuts:\npt-min: 20\n", 2, "cuts has no value", "indent them"},
      {"seed: null\n", 1, "null is YAML's null", "\"null\" for the text"},
      {"n: 5\nseed: ~\n", 2, "~ is YAML's null", "\"~\" for the text"},
      {"pdf: \"cteq\\0\"\n", 1, "NUL character", "remove it"},
      /* keys */
      {"n: 5\n\"seed\": 7\n", 2, "the key 'seed' is quoted", "without quotes"},
      {"n: 5\n? [a, b]\n: 5\n", 2, "a key must be an option name", "'key: value'"},
      {"n: 5\n?\n: 7\n", 2, "an entry has no key", "'key: value'"},
      {"n: 5\nseed: 1\n\nn: 6\n", 4, "n appears again (first on line 1)", "keep one"},
      {"pt-min: 20\ncuts:\n  eta-max: 2.5\n  pt-min: 25\n", 4,
       "pt-min (in group cuts) appears again (first on line 1)", "keep one"},
      {"cuts:\n  pt-min: 20\nother:\n  pt-min: 25\n", 4, "first on line 2, in group cuts",
       "keep one"},
      {"cuts: {pt-min: 20}\ncuts: {eta-max: 2}\n", 2, "group cuts appears again (first on line 1)",
       "merge"},
      {"cuts: 5\ncuts: {eta-max: 2}\n", 2, "cuts appears again (first on line 1, as an option)",
       "rename the group"},
      {"cuts: {eta-max: 2}\ncuts: 5\n", 2, "cuts appears again (first on line 1, as a group)",
       "rename the group"},
      /* anchors, aliases, tags, documents */
      {"n: &photons 5\nseed: *photons\n", 1, "anchors (&photons) are not supported",
       "write the values out"},
      {"n: 5\nseed: *photons\n", 2, "aliases (*photons) are not supported", "write the value out"},
      {"n: !!int 5\n", 1, "tags (!!int) are not supported", "remove the tag"},
      {"n: 5\npdf: !local cteq\n", 2, "tags (!local) are not supported", "remove the tag"},
      {"n: 5\n---\nn: 6\n", 2, "a second YAML document", "one document"},
      {"n: 5\n...\nn: 6\n", 3, "expected <document start>", "one document"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    const bad_card *c = &cases[i];
    hg_run_card card;
    char message[1024], where[64];
    const int status = parse(c->text, &card, message, sizeof message);
    if (status != HEGETCL_ERR_INPUT)
      fail_msg("case %zu (%s): status %d, want HEGETCL_ERR_INPUT; message: %s", i, c->text, status,
               status != 0 ? message : "none");
    snprintf(where, sizeof where, "card.yaml:%d:", c->line);
    if (strncmp(message, where, strlen(where)) != 0)
      fail_msg("case %zu: message does not start with %s: %s", i, where, message);
    if (strstr(message, c->what) == NULL || strstr(message, c->fix) == NULL)
      fail_msg("case %zu: message lacks '%s' or '%s': %s", i, c->what, c->fix, message);
    if (card.count != 0 || card.entries != NULL || card.path != NULL)
      fail_msg("case %zu: a refused card still holds %zu entries", i, card.count);
  }
}

/* Messages are cut to the caller's buffer and always end in NUL; a NULL buffer is allowed. */
static void messages_fit_the_buffer_given(void **state) {
  (void)state;
  hg_run_card card;
  char message[16];
  memset(message, 'x', sizeof message);
  assert_int_equal(hg_run_card_parse("n:\n", 3, "a/long/path/to/card.yaml", &card, message, 12),
                   HEGETCL_ERR_INPUT);
  assert_string_equal(message, "a/long/path");
  assert_int_equal(message[12], 'x');
  assert_int_equal(hg_run_card_parse("n: [\n", 5, NULL, &card, NULL, 0), HEGETCL_ERR_INPUT);
  char full[256];
  assert_int_equal(hg_run_card_parse("n:\n", 3, NULL, &card, full, sizeof full), HEGETCL_ERR_INPUT);
  assert_message_has(full, "<run card>:1:1: n has no value");
  /* The length, not a NUL, ends the text. */
  assert_int_equal(hg_run_card_parse("n: 5\nseed: [", 4, "card.yaml", &card, full, sizeof full), 0);
  expect_entry(&card, 0, "n", "5", 1, 4);
  hg_run_card_free(&card);
}

/* Every prefix of a card, and the card with each byte replaced by a character YAML treats
 * specially, is read or refused with a message: nothing crashes or leaks (run under sanitizers). */
static void damaged_cards_are_read_or_refused_cleanly(void **state) {
  (void)state;
  static const char text[] = "%YAML 1.1\n---\nn: 5 # photons\ncuts:\n  pt-min: 2e1\n"
                             "  eta-max: '2.5'\nvegas: {vegas-bins: 64, vegas-alpha: \"1.5\\t\"}\n"
                             "pdf: |\n  cteq6l1\nseed: 7\n...\n";
  static const char specials[] = "\"':#[]{},&*!|>-?\t\n\\%@`\x01\x80\xff";
  const size_t length = sizeof text - 1;
  size_t accepted = 0, refused = 0;
  char *copy = malloc(length);
  assert_non_null(copy);
  hg_run_card whole;
  assert_int_equal(hg_run_card_parse(text, length, "card.yaml", &whole, NULL, 0), 0);
  assert_int_equal(whole.count, 7);
  hg_run_card_free(&whole);
  for (size_t n = 0; n <= length; ++n) {
    hg_run_card card;
    char message[512];
    const int status = hg_run_card_parse(text, n, "card.yaml", &card, message, sizeof message);
    if (status != 0 && strncmp(message, "card.yaml:", 10) != 0)
      fail_msg("prefix of %zu bytes: status %d with message '%s'", n, status, message);
    status == 0 ? ++accepted : ++refused;
    hg_run_card_free(&card);
  }
  for (size_t at = 0; at < length; ++at)
    for (size_t s = 0; s < sizeof specials; ++s) { /* the NUL that ends specials too */
      memcpy(copy, text, length);
      copy[at] = specials[s];
      hg_run_card card;
      char message[512];
      const int status =
          hg_run_card_parse(copy, length, "card.yaml", &card, message, sizeof message);
      if (status != 0 && strncmp(message, "card.yaml:", 10) != 0)
        fail_msg("byte %zu as 0x%02x: status %d with message '%s'", at, (unsigned char)specials[s],
                 status, message);
      for (size_t i = 0; i < card.count; ++i)
        assert_true(card.entries[i].line >= 1 && card.entries[i].column >= 1);
      status == 0 ? ++accepted : ++refused;
      hg_run_card_free(&card);
    }
  free(copy);
  assert_true(accepted > 0 && refused > 0);
  print_message("# %zu damaged cards read, %zu refused\n", accepted, refused);
}

/* Text that YAML reserves or would read as something else. */
static const char *const tricky[] = {"a: b",
                                     "#x",
                                     "x #y",
                                     " lead",
                                     "trail ",
                                     "yes",
                                     "No",
                                     "ON",
                                     "off",
                                     "y",
                                     "n",
                                     "true",
                                     "False",
                                     "null",
                                     "NULL",
                                     "~",
                                     "\"q\"",
                                     "it's",
                                     "back\\slash",
                                     "line\nbreak",
                                     "cr\r\nlf",
                                     "tab\there",
                                     "",
                                     " ",
                                     "-5",
                                     "1e6",
                                     "-",
                                     "- item",
                                     "---",
                                     "...",
                                     "--x",
                                     "-.5",
                                     ".4",
                                     "0x1F",
                                     "012",
                                     "1_000",
                                     "+3",
                                     "[a]",
                                     "{a: 1}",
                                     "a, b",
                                     "&anchor",
                                     "*alias",
                                     "!tag",
                                     "|",
                                     ">",
                                     "%percent",
                                     "@at",
                                     "`tick",
                                     "?",
                                     "? x",
                                     ":",
                                     "=",
                                     "<<",
                                     "a  two  spaces",
                                     "\x01\x1b\x7f",
                                     "caf\xc3\xa9",
                                     "\xcf\x80 \xe2\x89\x88 3.14",
                                     "c1\xc2\x80\xc2\x85",
                                     "ls\xe2\x80\xa8ps\xe2\x80\xa9",
                                     "bom\xef\xbb\xbf",
                                     "nonchar\xef\xbf\xbe\xef\xbf\xbf",
                                     "emoji \xf0\x9f\x98\x80",
                                     "/path/to/cteq6l1",
                                     "C:\\data\\pdf",
                                     "10.5281/zenodo.1",
                                     "NVIDIA H100 80GB HBM3"};

/* What hg_yaml_write_scalar writes, as a string. */
static char *written(const char *value) {
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  if (out == NULL) return NULL;
  hg_yaml_write_scalar(out, value);
  fclose(out);
  return text;
}

/* Each tricky text written as a scalar reads back as itself: at the top level, in a block group
 * and in a flow group. */
static void written_scalars_read_back_as_the_same_text(void **state) {
  (void)state;
  static const char *const layouts[] = {"%s%s\n", "cuts:\n  %s%s\n", "cuts: {%s%s}\n"};
  for (size_t i = 0; i < sizeof tricky / sizeof tricky[0]; ++i) {
    char *scalar = written(tricky[i]);
    assert_non_null(scalar);
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; ++l) {
      char text[512];
      snprintf(text, sizeof text, layouts[l], "pdf: ", scalar);
      hg_run_card card;
      char message[512];
      const int status = parse(text, &card, message, sizeof message);
      if (status != 0)
        fail_msg("'%s' written as %s does not read back (layout %zu): %s", tricky[i], scalar, l,
                 message);
      if (card.count != 1 || strcmp(card.entries[0].value, tricky[i]) != 0)
        fail_msg("'%s' written as %s reads back as '%s' (layout %zu)", tricky[i], scalar,
                 card.count == 1 ? card.entries[0].value : "(no entry)", l);
      hg_run_card_free(&card);
    }
    free(scalar);
  }
}

/* Plain where that is safe, double quotes with escapes otherwise. */
static void safe_text_is_written_plain_and_the_rest_quoted(void **state) {
  (void)state;
  static const char *const pairs[][2] = {
      {"recursive", "recursive"},
      {"1e6", "1e6"},
      {"-5", "-5"},
      {"2.5E-3", "2.5E-3"},
      {"/path/to/cteq6l1", "/path/to/cteq6l1"},
      {"NVIDIA H100", "NVIDIA H100"},
      {"", "\"\""},
      {"yes", "\"yes\""},
      {"Null", "\"Null\""},
      {"a: b", "\"a: b\""},
      {"\"q\"", "\"\\\"q\\\"\""},
      {"back\\slash", "\"back\\\\slash\""},
      {"line\nbreak\t\x01", "\"line\\nbreak\\t\\x01\""},
      {" lead", "\" lead\""},
      {"-", "\"-\""},
      {"ls\xe2\x80\xa8", "\"ls\\L\""},
      {"caf\xc3\xa9", "\"caf\xc3\xa9\""},
      {"bad\xff", "\"bad\\xFF\""},
  };
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; ++i) {
    char *scalar = written(pairs[i][0]);
    assert_non_null(scalar);
    if (strcmp(scalar, pairs[i][1]) != 0)
      fail_msg("'%s' is written %s, want %s", pairs[i][0], scalar, pairs[i][1]);
    free(scalar);
  }
  char *null_written = written(NULL);
  assert_string_equal(null_written, "\"\"");
  free(null_written);
}

/* The public reader's status on a missing file does not depend on the message buffer: the
 * status came from the message's words, cut short by a small buffer (HEGETCL_ERR_INPUT for 1 to
 * 30 bytes, HEGETCL_ERR_IO from there on). */
static void a_missing_card_is_an_io_error_whatever_the_message_size(void **state) {
  (void)state;
  const char *path = "/nonexistent-folder/hegetcl-no-such-card.yaml";
  const size_t sizes[] = {0, 1, 2, 8, 20, 40, 64, 4096};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
    char message[4096];
    memset(message, 'x', sizeof message);
    hegetcl_run_card card;
    const hegetcl_status status = hegetcl_run_card_read(path, &card, message, sizes[i]);
    if (status != HEGETCL_ERR_IO)
      fail_msg("message size %zu: %s, expected HEGETCL_ERR_IO", sizes[i],
               hegetcl_status_name(status));
    if (sizes[i] > 0 && strlen(message) >= sizes[i])
      fail_msg("message size %zu: the message overruns it", sizes[i]);
    if (sizes[i] == 0 && message[0] != 'x') fail_msg("message size 0: the buffer was written");
  }
  hegetcl_run_card card;
  assert_int_equal(hegetcl_run_card_read(path, &card, NULL, 0), HEGETCL_ERR_IO);
  assert_int_equal(hegetcl_run_card_read(path, &card, NULL, 100), HEGETCL_ERR_IO);
  char message[4096];
  assert_int_equal(hegetcl_run_card_read(path, &card, message, sizeof message), HEGETCL_ERR_IO);
  if (strstr(message, "cannot read the run card") == NULL) fail_msg("message: %s", message);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_commented_card_with_groups_reads_back_in_order),
      cmocka_unit_test(multi_line_values_read_as_yaml_defines_them),
      cmocka_unit_test(empty_cards_have_no_entries),
      cmocka_unit_test(a_card_file_is_read_with_its_path),
      cmocka_unit_test(an_unreadable_file_names_the_path_and_reason),
      cmocka_unit_test(each_bad_card_names_file_line_and_fix),
      cmocka_unit_test(messages_fit_the_buffer_given),
      cmocka_unit_test(a_missing_card_is_an_io_error_whatever_the_message_size),
      cmocka_unit_test(damaged_cards_are_read_or_refused_cleanly),
      cmocka_unit_test(written_scalars_read_back_as_the_same_text),
      cmocka_unit_test(safe_text_is_written_plain_and_the_rest_quoted),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
