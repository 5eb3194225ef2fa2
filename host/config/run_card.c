/* SPDX-License-Identifier: MIT */
/* Run cards: libyaml's events checked into a flat list of options, and a YAML scalar writer. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "config/run_card.h"
#include "hegetcl/status.h"

/* What the reader keeps beside each entry: where its key is and which group holds it. */
typedef struct {
  int key_line;
  int group; /* index into reader.groups, -1 at the top level */
} entry_place;

typedef struct {
  char *name;
  int line;
} group_name;

typedef struct {
  yaml_parser_t parser;
  yaml_event_t event;
  int has_event;
  const char *text; /* the input, for the position of reader (encoding) errors */
  size_t length;
  const char *path;
  char *message;
  size_t message_size;
  hg_card_entry *entries;
  entry_place *places;
  size_t count, capacity;
  group_name *groups;
  size_t n_groups, groups_capacity;
} reader;

/* Writes a formatted message into message (when it has room) and returns status. */
static int say(char *message, size_t size, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static int say(char *message, size_t size, int status, const char *fmt, ...) {
  if (message != NULL && size > 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, size, fmt, ap);
    va_end(ap);
  }
  return status;
}

/* A 0-based libyaml line or column as the 1-based int of messages and entries. */
static int one_based(size_t zero_based) {
  return zero_based < (size_t)INT_MAX ? (int)zero_based + 1 : INT_MAX;
}

/* "<path>:<line>:<column>: " and the formatted text; returns HEGETCL_ERR_INPUT. */
static int fail_at(reader *r, yaml_mark_t mark, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int fail_at(reader *r, yaml_mark_t mark, const char *fmt, ...) {
  if (r->message != NULL && r->message_size > 0) {
    const int n = snprintf(r->message, r->message_size, "%s:%d:%d: ", r->path, one_based(mark.line),
                           one_based(mark.column));
    if (n >= 0 && (size_t)n < r->message_size) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(r->message + n, r->message_size - (size_t)n, fmt, ap);
      va_end(ap);
    }
  }
  return HEGETCL_ERR_INPUT;
}

static int no_memory(reader *r) {
  return say(r->message, r->message_size, HEGETCL_ERR_NO_MEMORY,
             "%s: no memory to read the run card", r->path);
}

/* The line and column of a byte offset into the input (libyaml gives encoding errors as one). */
static yaml_mark_t mark_at_offset(const reader *r, size_t offset) {
  yaml_mark_t mark = {0, 0, 0};
  if (offset > r->length) offset = r->length;
  for (size_t i = 0; i < offset; ++i) {
    const unsigned char c = (unsigned char)r->text[i];
    if (c == '\n') {
      ++mark.line;
      mark.column = 0;
    } else if ((c & 0xC0) != 0x80) { /* count characters, not UTF-8 continuation bytes */
      ++mark.column;
    }
  }
  mark.index = offset;
  return mark;
}

/* Whether line (0-based) of the input holds a tab. */
static int line_has_tab(const reader *r, size_t line) {
  size_t i = 0;
  for (size_t l = 0; l < line && i < r->length; ++i)
    if (r->text[i] == '\n') ++l;
  for (; i < r->length && r->text[i] != '\n'; ++i)
    if (r->text[i] == '\t') return 1;
  return 0;
}

/* A fix for libyaml's problem text. */
static const char *syntax_hint(const reader *r) {
  const char *problem = r->parser.problem != NULL ? r->parser.problem : "";
  if (strstr(problem, "tab character") != NULL)
    return "YAML indents with spaces, not tabs: replace the tabs on this line";
  if (strstr(problem, "expected <document start>") != NULL)
    return "a run card is one document: remove the '...' and what follows it";
  if (strstr(problem, "cannot start any token") != NULL)
    return line_has_tab(r, r->parser.problem_mark.line)
               ? "YAML indents with spaces, not tabs: replace the tabs on this line"
               : "quote a value that starts with a character YAML reserves (@ ` % and others)";
  if (strstr(problem, "mapping values are not allowed") != NULL)
    return "quote a value that holds ': ' (pdf: \"a: b\"), and indent the entries of a group "
           "alike";
  if (strstr(problem, "could not find expected ':'") != NULL)
    return "write each entry as 'key: value', with a space after the colon";
  if (strstr(problem, "unknown escape") != NULL)
    return "in double quotes a backslash starts an escape: write \\\\ for a backslash, or use "
           "single quotes";
  if (strstr(problem, "expected ',' or") != NULL)
    return "close the { or [ that is still open and separate its entries with ', '";
  if (strstr(problem, "unexpected end of stream") != NULL)
    return "close the quote or bracket that is still open";
  if (strstr(problem, "did not find expected key") != NULL)
    return "start top-level keys in column 1 and indent the entries of a group alike";
  if (strstr(problem, "block sequence entries are not allowed") != NULL)
    return "lists are not run card values: give one value";
  return "write each entry as 'key: value', and quote values that hold characters YAML reserves "
         "(: # { } [ ] , & * ! | > ' \" % @ `)";
}

/* The message for a failed yaml_parser_parse. */
static int syntax_error(reader *r) {
  const yaml_parser_t *p = &r->parser;
  const char *problem = p->problem != NULL ? p->problem : "unknown error";
  switch (p->error) {
  case YAML_MEMORY_ERROR:
    return no_memory(r);
  case YAML_READER_ERROR: {
    const char *fix = strstr(problem, "control characters") != NULL
                          ? "remove it (write \\t, \\n or \\xNN in a double-quoted value)"
                          : "save the run card as UTF-8 text";
    if (p->problem_value != -1)
      return fail_at(r, mark_at_offset(r, p->problem_offset), "%s (0x%02X); %s", problem,
                     (unsigned)p->problem_value, fix);
    return fail_at(r, mark_at_offset(r, p->problem_offset), "%s; %s", problem, fix);
  }
  default:
    if (p->context != NULL)
      return fail_at(r, p->problem_mark, "YAML syntax: %s (%s from line %d column %d); %s", problem,
                     p->context, one_based(p->context_mark.line), one_based(p->context_mark.column),
                     syntax_hint(r));
    return fail_at(r, p->problem_mark, "YAML syntax: %s; %s", problem, syntax_hint(r));
  }
}

/* Tags as written when they are YAML's own ("!!str"), else libyaml's full text. */
static int tag_error(reader *r, const yaml_char_t *tag) {
  static const char yaml_prefix[] = "tag:yaml.org,2002:";
  const char *text = (const char *)tag;
  const int own = strncmp(text, yaml_prefix, sizeof yaml_prefix - 1) == 0;
  return fail_at(r, r->event.start_mark,
                 "tags (%s%s) are not supported in a run card; remove the tag (quote a value to "
                 "keep it text)",
                 own ? "!!" : "", own ? text + sizeof yaml_prefix - 1 : text);
}

/* The next event into r->event; syntax errors, aliases, anchors and tags are errors. */
static int next_event(reader *r) {
  if (r->has_event) {
    yaml_event_delete(&r->event);
    r->has_event = 0;
  }
  if (!yaml_parser_parse(&r->parser, &r->event)) return syntax_error(r);
  r->has_event = 1;
  const yaml_event_t *e = &r->event;
  const yaml_char_t *anchor = NULL, *tag = NULL;
  switch (e->type) {
  case YAML_ALIAS_EVENT:
    return fail_at(r, e->start_mark,
                   "aliases (*%s) are not supported in a run card; write the value out here",
                   (const char *)e->data.alias.anchor);
  case YAML_SCALAR_EVENT:
    anchor = e->data.scalar.anchor;
    tag = e->data.scalar.tag;
    break;
  case YAML_SEQUENCE_START_EVENT:
    anchor = e->data.sequence_start.anchor;
    tag = e->data.sequence_start.tag;
    break;
  case YAML_MAPPING_START_EVENT:
    anchor = e->data.mapping_start.anchor;
    tag = e->data.mapping_start.tag;
    break;
  default:
    break;
  }
  if (anchor != NULL)
    return fail_at(r, e->start_mark,
                   "anchors (&%s) are not supported in a run card; remove it and write the "
                   "values out",
                   (const char *)anchor);
  if (tag != NULL) return tag_error(r, tag);
  return 0;
}

/* A copy of the scalar's text, NUL-terminated. */
static char *scalar_copy(const yaml_event_t *e) {
  const size_t n = e->data.scalar.length;
  char *s = malloc(n + 1);
  if (s == NULL) return NULL;
  if (n > 0) memcpy(s, e->data.scalar.value, n);
  s[n] = '\0';
  return s;
}

/* Plain "", "~" and "null" in its three spellings: YAML's null, which no option takes. */
static int is_null(const yaml_event_t *e) {
  if (e->data.scalar.style != YAML_PLAIN_SCALAR_STYLE) return 0;
  const char *s = (const char *)e->data.scalar.value;
  const size_t n = e->data.scalar.length;
  return n == 0 || (n == 1 && s[0] == '~') ||
         (n == 4 &&
          (memcmp(s, "null", 4) == 0 || memcmp(s, "Null", 4) == 0 || memcmp(s, "NULL", 4) == 0));
}

/* " (in group NAME)" or "". */
static const char *group_of(const reader *r, int group, char *buffer, size_t size) {
  if (group < 0) return "";
  snprintf(buffer, size, " (in group %s)", r->groups[group].name);
  return buffer;
}

/* ", in group NAME" or "". */
static const char *comma_group_of(const reader *r, int group, char *buffer, size_t size) {
  if (group < 0) return "";
  snprintf(buffer, size, ", in group %s", r->groups[group].name);
  return buffer;
}

/* An error if key may not appear here: an option met before, anywhere, or at the top level the
 * name of a group. */
static int check_new_option(reader *r, const char *key, yaml_mark_t key_mark, int group) {
  char here[256], there[256];
  for (size_t i = 0; i < r->count; ++i)
    if (strcmp(r->entries[i].key, key) == 0)
      return fail_at(r, key_mark, "%s%s appears again (first on line %d%s); keep one of them", key,
                     group_of(r, group, here, sizeof here), r->places[i].key_line,
                     comma_group_of(r, r->places[i].group, there, sizeof there));
  if (group < 0)
    for (size_t g = 0; g < r->n_groups; ++g)
      if (strcmp(r->groups[g].name, key) == 0)
        return fail_at(r, key_mark,
                       "%s appears again (first on line %d, as a group); rename the group", key,
                       r->groups[g].line);
  return 0;
}

/* An error if a group may not be named key: a group or top-level option of that name. */
static int check_new_group(reader *r, const char *key, yaml_mark_t key_mark) {
  for (size_t g = 0; g < r->n_groups; ++g)
    if (strcmp(r->groups[g].name, key) == 0)
      return fail_at(r, key_mark,
                     "group %s appears again (first on line %d); merge the two into one", key,
                     r->groups[g].line);
  for (size_t i = 0; i < r->count; ++i)
    if (r->places[i].group < 0 && strcmp(r->entries[i].key, key) == 0)
      return fail_at(r, key_mark,
                     "%s appears again (first on line %d, as an option); rename the group", key,
                     r->places[i].key_line);
  return 0;
}

/* Appends an entry, taking key and value; frees them when it fails. */
static int add_entry(reader *r, char *key, char *value, yaml_mark_t value_mark, int key_line,
                     int group) {
  if (r->count == r->capacity) {
    const size_t capacity = r->capacity ? 2 * r->capacity : 16;
    hg_card_entry *entries = realloc(r->entries, capacity * sizeof *entries);
    if (entries != NULL) r->entries = entries;
    entry_place *places = realloc(r->places, capacity * sizeof *places);
    if (places != NULL) r->places = places;
    if (entries == NULL || places == NULL) {
      free(key);
      free(value);
      return no_memory(r);
    }
    r->capacity = capacity;
  }
  r->entries[r->count] =
      (hg_card_entry){key, value, one_based(value_mark.line), one_based(value_mark.column)};
  r->places[r->count] = (entry_place){key_line, group};
  ++r->count;
  return 0;
}

/* Appends a group, taking name; frees it when it fails. */
static int add_group(reader *r, char *name, int line) {
  if (r->n_groups == r->groups_capacity) {
    const size_t capacity = r->groups_capacity ? 2 * r->groups_capacity : 8;
    group_name *groups = realloc(r->groups, capacity * sizeof *groups);
    if (groups == NULL) {
      free(name);
      return no_memory(r);
    }
    r->groups = groups;
    r->groups_capacity = capacity;
  }
  r->groups[r->n_groups++] = (group_name){name, line};
  return 0;
}

static int read_mapping(reader *r, int group);

/* One entry whose key event was just read and checked: an option, or at the top level a group. */
static int read_entry(reader *r, int group) {
  char here[256];
  char *key = scalar_copy(&r->event);
  if (key == NULL) return no_memory(r);
  const yaml_mark_t key_mark = r->event.start_mark;
  int status = next_event(r);
  if (status != 0) goto fail;
  const yaml_event_t *e = &r->event;
  if (e->type == YAML_SCALAR_EVENT) {
    if (is_null(e)) {
      status =
          e->data.scalar.length == 0
              ? fail_at(r, key_mark,
                        "%s%s has no value; write one (%s: 5), \"\" for empty text, or, if "
                        "the lines below belong to it as a group, indent them",
                        key, group_of(r, group, here, sizeof here), key)
              : fail_at(r, e->start_mark,
                        "%s%s: %s is YAML's null, not a value; write a value, or \"%s\" "
                        "for the text",
                        key, group_of(r, group, here, sizeof here),
                        (const char *)e->data.scalar.value, (const char *)e->data.scalar.value);
      goto fail;
    }
    if (memchr(e->data.scalar.value, '\0', e->data.scalar.length) != NULL) {
      status = fail_at(r, e->start_mark,
                       "%s%s: the value holds a NUL character (\\0), which no option takes; "
                       "remove it",
                       key, group_of(r, group, here, sizeof here));
      goto fail;
    }
    status = check_new_option(r, key, key_mark, group);
    if (status != 0) goto fail;
    char *value = scalar_copy(e);
    if (value == NULL) {
      status = no_memory(r);
      goto fail;
    }
    return add_entry(r, key, value, e->start_mark, one_based(key_mark.line), group);
  }
  if (e->type == YAML_MAPPING_START_EVENT) {
    if (group >= 0) {
      status = fail_at(r, key_mark,
                       "%s%s: groups nest one level only; move the entries of %s up into group %s",
                       key, group_of(r, group, here, sizeof here), key, r->groups[group].name);
      goto fail;
    }
    status = check_new_group(r, key, key_mark);
    if (status != 0) goto fail;
    status = add_group(r, key, one_based(key_mark.line));
    return status != 0 ? status : read_mapping(r, (int)r->n_groups - 1);
  }
  /* a sequence: next_event refused aliases */
  status =
      fail_at(r, e->start_mark, "%s%s: a list is not a value; an option takes one value (%s: 5)",
              key, group_of(r, group, here, sizeof here), key);
fail:
  free(key);
  return status;
}

/* The entries of a mapping whose start event was just read: the top level (group -1) or a group. */
static int read_mapping(reader *r, int group) {
  char here[256];
  for (;;) {
    int status = next_event(r);
    if (status != 0) return status;
    const yaml_event_t *e = &r->event;
    if (e->type == YAML_MAPPING_END_EVENT) return 0;
    if (e->type != YAML_SCALAR_EVENT)
      return fail_at(r, e->start_mark,
                     "a key must be an option name such as pt-min, not a list or mapping%s; write "
                     "'key: value'",
                     group_of(r, group, here, sizeof here));
    if (e->data.scalar.length == 0)
      return fail_at(r, e->start_mark, "an entry has no key%s; write 'key: value'",
                     group_of(r, group, here, sizeof here));
    if (e->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
      return fail_at(r, e->start_mark,
                     "the key '%.*s' is quoted; write option names without quotes (pt-min: 20)",
                     e->data.scalar.length > 80 ? 80 : (int)e->data.scalar.length,
                     (const char *)e->data.scalar.value);
    status = read_entry(r, group);
    if (status != 0) return status;
  }
}

/* The stream: nothing, or one document whose node is a mapping or empty. */
static int read_stream(reader *r) {
  int status = next_event(r); /* the stream's start */
  if (status == 0) status = next_event(r);
  if (status != 0 || r->event.type == YAML_STREAM_END_EVENT) return status; /* or no document */
  status = next_event(r);                                                   /* the root node */
  if (status != 0) return status;
  const yaml_event_t *e = &r->event;
  if (e->type == YAML_MAPPING_START_EVENT) {
    status = read_mapping(r, -1);
    if (status != 0) return status;
  } else if (e->type == YAML_SEQUENCE_START_EVENT) {
    return fail_at(r, e->start_mark,
                   "the run card is a list; write a mapping instead, one 'key: value' per line "
                   "(n: 5)");
  } else if (e->type != YAML_SCALAR_EVENT || e->data.scalar.length != 0 ||
             e->data.scalar.style != YAML_PLAIN_SCALAR_STYLE) {
    const size_t n = e->type == YAML_SCALAR_EVENT ? e->data.scalar.length : 0;
    return fail_at(r, e->start_mark,
                   "the run card is the text '%.*s', not a mapping; write one 'key: value' per "
                   "line (n: 5)",
                   n > 60 ? 60 : (int)n, n > 0 ? (const char *)e->data.scalar.value : "");
  }
  status = next_event(r); /* the document's end */
  if (status == 0) status = next_event(r);
  if (status == 0 && r->event.type == YAML_DOCUMENT_START_EVENT)
    return fail_at(r, r->event.start_mark,
                   "a second YAML document starts here; a run card is one document: remove the "
                   "'---' or '...' before it, or split the cards into two files");
  return status;
}

int hg_run_card_parse(const char *text, size_t length, const char *path, hg_run_card *card,
                      char *message, size_t message_size) {
  *card = (hg_run_card){NULL, 0, NULL};
  reader r = {.text = text != NULL ? text : "",
              .length = text != NULL ? length : 0,
              .path = path != NULL ? path : "<run card>",
              .message = message,
              .message_size = message_size};
  if (message != NULL && message_size > 0) message[0] = '\0';
  if (!yaml_parser_initialize(&r.parser)) return no_memory(&r);
  yaml_parser_set_input_string(&r.parser, (const unsigned char *)r.text, r.length);
  int status = read_stream(&r);
  if (r.has_event) yaml_event_delete(&r.event);
  yaml_parser_delete(&r.parser);
  for (size_t g = 0; g < r.n_groups; ++g) free(r.groups[g].name);
  free(r.groups);
  free(r.places);
  card->entries = r.entries;
  card->count = r.count;
  if (status == 0) {
    const size_t n = strlen(r.path) + 1;
    card->path = malloc(n);
    if (card->path != NULL)
      memcpy(card->path, r.path, n);
    else
      status = no_memory(&r);
  }
  if (status != 0) hg_run_card_free(card);
  return status;
}

int hg_run_card_read(const char *path, hg_run_card *card, char *message, size_t message_size) {
  *card = (hg_run_card){NULL, 0, NULL};
  FILE *file = fopen(path, "rb");
  if (file == NULL)
    return say(message, message_size, HEGETCL_ERR_IO,
               "%s: cannot read the run card: %s; check the path", path, strerror(errno));
  char *text = NULL;
  size_t length = 0, capacity = 0;
  int status = 0;
  for (;;) {
    if (length == capacity) {
      const size_t grown = capacity ? 2 * capacity : 4096;
      char *bigger = grown > capacity ? realloc(text, grown) : NULL;
      if (bigger == NULL) {
        status = say(message, message_size, HEGETCL_ERR_NO_MEMORY,
                     "%s: no memory to read the run card", path);
        break;
      }
      text = bigger;
      capacity = grown;
    }
    length += fread(text + length, 1, capacity - length, file);
    if (ferror(file)) {
      status = say(message, message_size, HEGETCL_ERR_IO, "%s: cannot read the run card: %s", path,
                   strerror(errno));
      break;
    }
    if (feof(file)) break;
  }
  fclose(file);
  if (status == 0) status = hg_run_card_parse(text, length, path, card, message, message_size);
  free(text);
  return status;
}

void hg_run_card_free(hg_run_card *card) {
  if (card == NULL) return;
  for (size_t i = 0; i < card->count; ++i) {
    free(card->entries[i].key);
    free(card->entries[i].value);
  }
  free(card->entries);
  free(card->path);
  *card = (hg_run_card){NULL, 0, NULL};
}

/* ---- writing ---- */

static int ascii_letter_or_digit(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Whether s reads back as itself when written plain: a conservative subset of YAML's plain
 * scalars that no YAML 1.1 or 1.2 reader takes for a null or boolean. */
static int plain_is_safe(const char *s) {
  static const char *const words[] = {"y", "n", "yes", "no", "true", "false", "on", "off", "null"};
  const size_t n = strlen(s);
  if (n == 0 || s[0] == ' ' || s[n - 1] == ' ') return 0;
  for (size_t i = 0; i < n; ++i) {
    const unsigned char c = (unsigned char)s[i];
    if (!ascii_letter_or_digit(c) && strchr("._/+- ", c) == NULL) return 0;
  }
  /* "-" and "- x" start a list entry, "---" a document; "..." ends one. */
  if (s[0] == '-' && !ascii_letter_or_digit((unsigned char)s[1]) && s[1] != '.') return 0;
  if (s[0] == '.' && s[1] == '.') return 0;
  for (size_t w = 0; w < sizeof words / sizeof words[0]; ++w) {
    const char *word = words[w];
    if (strlen(word) != n) continue;
    size_t i = 0;
    while (i < n && (s[i] | 0x20) == word[i]) ++i; /* ASCII case-insensitive: YES, Yes, yEs */
    if (i == n) return 0;
  }
  return 1;
}

/* The length (1 to 4) of the well-formed UTF-8 sequence at p and its code point, or 0. */
static size_t utf8_decode(const unsigned char *p, unsigned long *code_point) {
  /* per sequence length: the lead byte's payload bits and the smallest code point it may hold */
  static const unsigned char lead_mask[5] = {0, 0x7F, 0x1F, 0x0F, 0x07};
  static const unsigned long smallest[5] = {0, 0, 0x80, 0x800, 0x10000};
  const size_t n = p[0] < 0x80             ? 1
                   : (p[0] & 0xE0) == 0xC0 ? 2
                   : (p[0] & 0xF0) == 0xE0 ? 3
                   : (p[0] & 0xF8) == 0xF0 ? 4
                                           : 0;
  if (n == 0) return 0;
  unsigned long c = p[0] & lead_mask[n];
  for (size_t i = 1; i < n; ++i) {
    if ((p[i] & 0xC0) != 0x80) return 0; /* also stops at the terminating NUL */
    c = (c << 6) | (p[i] & 0x3Fu);
  }
  if (c < smallest[n] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
  *code_point = c;
  return n;
}

/* s between double quotes. Escaped: what YAML would fold or reject raw (controls, line breaks
 * including U+0085, U+2028 and U+2029, U+FEFF, U+FFFE, U+FFFF) and the quote and backslash. */
static void write_double_quoted(FILE *out, const char *s) {
  fputc('"', out);
  const unsigned char *p = (const unsigned char *)s;
  while (*p != '\0') {
    unsigned long c;
    const size_t n = utf8_decode(p, &c);
    if (n == 0) { /* not UTF-8: no YAML text holds this byte */
      fprintf(out, "\\x%02X", *p);
      ++p;
      continue;
    }
    switch (c) {
    case '"':
      fputs("\\\"", out);
      break;
    case '\\':
      fputs("\\\\", out);
      break;
    case '\a':
      fputs("\\a", out);
      break;
    case '\b':
      fputs("\\b", out);
      break;
    case '\t':
      fputs("\\t", out);
      break;
    case '\n':
      fputs("\\n", out);
      break;
    case '\v':
      fputs("\\v", out);
      break;
    case '\f':
      fputs("\\f", out);
      break;
    case '\r':
      fputs("\\r", out);
      break;
    case 0x1B:
      fputs("\\e", out);
      break;
    case 0x2028:
      fputs("\\L", out);
      break;
    case 0x2029:
      fputs("\\P", out);
      break;
    default:
      if (c < 0x20 || (c >= 0x7F && c <= 0x9F))
        fprintf(out, "\\x%02lX", c);
      else if (c == 0xFEFF || c == 0xFFFE || c == 0xFFFF)
        fprintf(out, "\\u%04lX", c);
      else
        fwrite(p, 1, n, out);
    }
    p += n;
  }
  fputc('"', out);
}

void hg_yaml_write_scalar(FILE *out, const char *value) {
  if (value == NULL) value = "";
  if (plain_is_safe(value))
    fputs(value, out);
  else
    write_double_quoted(out, value);
}
