/* SPDX-License-Identifier: MIT */
/* Merging the LHE files of one run (one per MPI rank) into one: lhe_merge.h. */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/strbuf.h"
#include "hegetcl/status.h"
#include "io/lhe_merge.h"
#include "io/output_claim.h"
#include "io/output_file.h"
#include "io/text_lines.h"

/* What the merge needs of a file before its events. */
typedef struct {
  hg_strbuf prelude;   /* the lines before <init> (kept for the first input only) */
  char **init;         /* the <init> block's lines, from <init> to </init>, newlines kept */
  size_t n_init;       /* how many */
  long long init_line; /* the number of the <init> line */
  size_t xsecinfo;     /* index in init of the <xsecinfo> line */
  size_t neve_at;      /* offset of neve's value in that line */
  size_t neve_length;  /* its length */
  long long neve;      /* its value */
} lhe_head;

static void head_free(lhe_head *h) {
  hg_strbuf_free(&h->prelude);
  for (size_t i = 0; i < h->n_init; ++i) free(h->init[i]);
  free(h->init);
  memset(h, 0, sizeof *h);
}

/* text after leading blanks */
static const char *skip_blanks(const char *text) {
  while (*text == ' ' || *text == '\t' || *text == '\r' || *text == '\n') ++text;
  return text;
}

/* Whether the line, after leading blanks, opens tag ("<init", "</event", ...): the name is not
 * followed by more name characters (so "<event" is not "<eventgroup"). */
static int starts_tag(const char *line, const char *tag) {
  const char *text = skip_blanks(line);
  const size_t n = strlen(tag);
  if (strncmp(text, tag, n) != 0) return 0;
  const char next = text[n];
  return next == '>' || next == '/' || next == ' ' || next == '\t' || next == '\r' ||
         next == '\n' || next == '\0';
}

/* The length of line without its line end, at most 160: what a message quotes. */
static int shown(const char *line) {
  size_t n = strcspn(line, "\r\n");
  return n > 160 ? 160 : (int)n;
}

/* Finds the neve="N" attribute of the <xsecinfo line: its value's offset and length; 0, or -1
 * when there is none. */
static int find_neve(const char *line, size_t *at, size_t *length) {
  const char *p = strstr(line, "<xsecinfo");
  if (p == NULL) return -1;
  for (p += 9; (p = strstr(p, "neve")) != NULL; p += 4) {
    if (p[-1] != ' ' && p[-1] != '\t') continue;
    const char *q = p + 4;
    while (*q == ' ' || *q == '\t') ++q;
    if (*q++ != '=') continue;
    while (*q == ' ' || *q == '\t') ++q;
    const char quote = *q;
    if (quote != '"' && quote != '\'') continue;
    const char *end = strchr(q + 1, quote);
    if (end == NULL) return -1;
    *at = (size_t)(q + 1 - line);
    *length = (size_t)(end - (q + 1));
    return 0;
  }
  return -1;
}

/* Reads the <xsecinfo> line's neve into h; 0 or HEGETCL_ERR_INPUT with message. */
static int read_neve(lhe_head *h, const char *path, long long line_number, char *message,
                     size_t message_size) {
  const char *line = h->init[h->xsecinfo];
  if (find_neve(line, &h->neve_at, &h->neve_length) != 0) {
    hg_put_message(message, message_size,
                   "%s line %lld: <xsecinfo> has no neve=\"...\" attribute (\"%.*s\"): the merge "
                   "needs each file's event count; use the files hegetcl xsec --lhe wrote",
                   path, line_number, shown(line), line);
    return HEGETCL_ERR_INPUT;
  }
  const char *value = line + h->neve_at;
  int digits = h->neve_length > 0 && h->neve_length <= 18;
  for (size_t i = 0; digits && i < h->neve_length; ++i) digits = isdigit((unsigned char)value[i]);
  if (!digits) {
    hg_put_message(message, message_size,
                   "%s line %lld: <xsecinfo neve=\"%.*s\"> is not a whole number of events from 0 "
                   "to 10^18: the file's event count is unreadable; use the file hegetcl wrote",
                   path, line_number, (int)(h->neve_length > 40 ? 40 : h->neve_length), value);
    return HEGETCL_ERR_INPUT;
  }
  h->neve = strtoll(value, NULL, 10);
  return 0;
}

/* Adds r's current line to h's <init> block; 0 or HEGETCL_ERR_NO_MEMORY. */
static int add_init_line(lhe_head *h, const hg_text_lines *r, char *message, size_t message_size) {
  char **grown = realloc(h->init, (h->n_init + 1) * sizeof *grown);
  char *copy = malloc(r->length + 1);
  if (grown != NULL) h->init = grown;
  if (grown == NULL || copy == NULL) {
    free(copy);
    hg_put_message(message, message_size, "no memory for line %lld of %s", r->number, r->path);
    return HEGETCL_ERR_NO_MEMORY;
  }
  memcpy(copy, r->line, r->length + 1);
  h->init[h->n_init++] = copy;
  return 0;
}

/* The message for a file that ended at line r->number, in the middle of what where names. */
static int cut_off(const hg_text_lines *r, const char *where, char *message, size_t message_size) {
  hg_put_message(message, message_size,
                 "%s ends at line %lld %s, without </LesHouchesEvents>: the file was cut off (an "
                 "interrupted run or an incomplete copy); rerun that rank or use its complete file",
                 r->path, r->number, where);
  return HEGETCL_ERR_INPUT;
}

/* Reads r's lines up to and including </init> into h (the lines before <init> into h->prelude
 * when keep_prelude); 0 or a status with message. */
static int read_head(hg_text_lines *r, int keep_prelude, lhe_head *h, char *message,
                     size_t message_size) {
  int seen_root = 0, got;
  while ((got = hg_text_lines_next(r, message, message_size)) == 1) {
    if (starts_tag(r->line, "<LesHouchesEvents")) seen_root = 1;
    if (starts_tag(r->line, "<init") || starts_tag(r->line, "<event")) break;
    if (keep_prelude) hg_strbuf_printf(&h->prelude, "%s", r->line);
    if (h->prelude.failed) {
      hg_put_message(message, message_size, "no memory for the header of %s", r->path);
      return HEGETCL_ERR_NO_MEMORY;
    }
  }
  if (got < 0) return got;
  if (got == 0 && r->number == 0) {
    hg_put_message(message, message_size,
                   "%s is empty, not an LHE file: give the event files that hegetcl xsec --lhe "
                   "wrote",
                   r->path);
    return HEGETCL_ERR_INPUT;
  }
  if (!seen_root) {
    hg_put_message(message, message_size,
                   "%s is not an LHE file: no <LesHouchesEvents> root element before %s %lld: "
                   "give the event files that hegetcl xsec --lhe wrote",
                   r->path, got == 0 ? "its end at line" : "line", r->number);
    return HEGETCL_ERR_INPUT;
  }
  if (got == 0) return cut_off(r, "before its <init> block", message, message_size);
  if (starts_tag(r->line, "<event")) {
    hg_put_message(message, message_size,
                   "%s line %lld: an <event> comes before any <init> block, which an LHE file "
                   "needs first: give the event files that hegetcl xsec --lhe wrote",
                   r->path, r->number);
    return HEGETCL_ERR_INPUT;
  }
  h->init_line = r->number;
  long long xsecinfo_line = 0;
  for (;;) {
    const int status = add_init_line(h, r, message, message_size);
    if (status != 0) return status;
    if (strstr(r->line, "<xsecinfo") != NULL) {
      if (xsecinfo_line != 0) {
        hg_put_message(message, message_size,
                       "%s line %lld: a second <xsecinfo> in <init> (the first is on line %lld): "
                       "LHEF 3.0 allows one; use the file hegetcl wrote",
                       r->path, r->number, xsecinfo_line);
        return HEGETCL_ERR_INPUT;
      }
      xsecinfo_line = r->number;
      h->xsecinfo = h->n_init - 1;
    }
    if (strstr(r->line, "</init>") != NULL) break;
    got = hg_text_lines_next(r, message, message_size);
    if (got < 0) return got;
    if (got == 0) return cut_off(r, "inside its <init> block", message, message_size);
    if (starts_tag(r->line, "<event") || starts_tag(r->line, "</LesHouchesEvents")) {
      hg_put_message(message, message_size,
                     "%s line %lld: the <init> block opened at line %lld is not closed by "
                     "</init>: the file is damaged; use the file hegetcl wrote",
                     r->path, r->number, h->init_line);
      return HEGETCL_ERR_INPUT;
    }
  }
  if (xsecinfo_line == 0) {
    hg_put_message(message, message_size,
                   "%s: its <init> block (lines %lld to %lld) has no <xsecinfo neve=\"...\"/>: the "
                   "merge needs each file's event count; use the files hegetcl xsec --lhe wrote",
                   r->path, h->init_line, r->number);
    return HEGETCL_ERR_INPUT;
  }
  return read_neve(h, r->path, xsecinfo_line, message, message_size);
}

/* Whether line i of a's and b's <init> blocks agree, neve's value aside. */
static int init_line_equal(const lhe_head *a, const lhe_head *b, size_t i) {
  const char *x = a->init[i], *y = b->init[i];
  if (i != a->xsecinfo || i != b->xsecinfo) return strcmp(x, y) == 0;
  return a->neve_at == b->neve_at && memcmp(x, y, a->neve_at) == 0 &&
         strcmp(x + a->neve_at + a->neve_length, y + b->neve_at + b->neve_length) == 0;
}

/* 0 when h's <init> block equals first's (neve aside), else HEGETCL_ERR_INPUT naming the first
 * line that differs. Both blocks end with their </init> line, so a shorter block differs from
 * the longer one on a line both have. */
static int compare_init(const lhe_head *first, const char *first_path, const lhe_head *h,
                        const char *path, char *message, size_t message_size) {
  const size_t n = first->n_init < h->n_init ? first->n_init : h->n_init;
  for (size_t i = 0; i < n; ++i) {
    if (init_line_equal(first, h, i)) continue;
    hg_put_message(message, message_size,
                   "the <init> block of %s differs from that of %s: %s line %lld is \"%.*s\", "
                   "%s line %lld is \"%.*s\"; only <xsecinfo neve> may differ between the files "
                   "of one run: these come from different runs (or were edited) and cannot be "
                   "merged",
                   path, first_path, path, h->init_line + (long long)i, shown(h->init[i]),
                   h->init[i], first_path, first->init_line + (long long)i, shown(first->init[i]),
                   first->init[i]);
    return HEGETCL_ERR_INPUT;
  }
  return 0;
}

/* Opens input and reads its head into h, checked against first's unless h is first; on
 * success r is left open after </init>, else it is closed. */
static int open_input(hg_text_lines *r, const char *input, const lhe_head *first,
                      const char *first_path, lhe_head *h, char *message, size_t message_size) {
  int status = hg_text_lines_open(r, input, message, message_size);
  if (status != 0) return status;
  status = read_head(r, first == NULL, h, message, message_size);
  if (status == 0 && first != NULL)
    status = compare_init(first, first_path, h, input, message, message_size);
  if (status != 0) hg_text_lines_close(r);
  return status;
}

/* The output's failure as this merge's. */
static int output_failure(const hg_output *o, char *message, size_t message_size) {
  hg_put_message(message, message_size, "%s", hg_output_message(o));
  return hg_output_status(o);
}

/* Copies r's <event> blocks to o up to </LesHouchesEvents>, reads the rest of r (blank lines
 * only), counts the blocks into *n_events and checks them against neve. */
static int copy_events(hg_text_lines *r, hg_output *o, const lhe_head *h, long long *n_events,
                       char *message, size_t message_size) {
  const long long neve = h->neve;
  long long count = 0, opened_at = 0; /* the line of the open <event>; 0 between events */
  int got;
  while ((got = hg_text_lines_next(r, message, message_size)) == 1) {
    const int opens = starts_tag(r->line, "<event");
    const int ends_file = starts_tag(r->line, "</LesHouchesEvents");
    if (opened_at != 0 && (opens || ends_file)) {
      hg_put_message(message, message_size,
                     "%s line %lld: \"%.*s\" inside the <event> opened at line %lld, which has no "
                     "</event>: the file is damaged; use the file hegetcl wrote",
                     r->path, r->number, shown(r->line), r->line, opened_at);
      return HEGETCL_ERR_INPUT;
    }
    if (opened_at == 0 && !opens) {
      if (ends_file) break;
      if (*skip_blanks(r->line) == '\0') continue;
      hg_put_message(message, message_size,
                     "%s line %lld: \"%.*s\" between <event> blocks, where the merge takes only "
                     "<event> blocks: use the files hegetcl xsec --lhe wrote",
                     r->path, r->number, shown(r->line), r->line);
      return HEGETCL_ERR_INPUT;
    }
    if (opens) opened_at = r->number;
    if (hg_output_write(o, r->line, r->length) != 0)
      return output_failure(o, message, message_size);
    if (strstr(r->line, "</event>") != NULL) {
      opened_at = 0;
      ++count;
    }
  }
  if (got < 0) return got;
  if (got == 0) {
    char where[160];
    hg_put_message(where, sizeof where,
                   "%s, after %lld complete <event> blocks of the %lld its neve announces",
                   opened_at != 0 ? "inside an <event>" : "between events", count, neve);
    return cut_off(r, where, message, message_size);
  }
  const long long end_line = r->number;
  while ((got = hg_text_lines_next(r, message, message_size)) == 1)
    if (*skip_blanks(r->line) != '\0') {
      hg_put_message(message, message_size,
                     "%s line %lld: \"%.*s\" after </LesHouchesEvents> (line %lld), where an LHE "
                     "file ends: remove it, or use the file hegetcl wrote",
                     r->path, r->number, shown(r->line), r->line, end_line);
      return HEGETCL_ERR_INPUT;
    }
  if (got < 0) return got;
  if (count != neve) {
    hg_put_message(message, message_size,
                   "%s holds %lld <event> blocks but its <xsecinfo> on line %lld announces "
                   "neve=\"%lld\": the file is partial (its run stopped early, or events were "
                   "removed or added); merge only complete files: rerun that rank or use its "
                   "complete file",
                   r->path, count, h->init_line + (long long)h->xsecinfo, neve);
    return HEGETCL_ERR_INPUT;
  }
  *n_events = count;
  return 0;
}

/* Whether a and b name the same existing file. */
static int same_file(const char *a, const char *b) {
  struct stat x, y;
  return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* Refuses no inputs, an empty path, and an output (or its temporary file) that is an input. */
static int check_paths(const char *out_path, const char *const *inputs, size_t n_inputs,
                       char *message, size_t message_size) {
  if (n_inputs == 0 || inputs == NULL) {
    hg_put_message(message, message_size,
                   "no input files: give the LHE files to merge (one per rank)");
    return HEGETCL_ERR_INPUT;
  }
  if (out_path == NULL || out_path[0] == '\0') {
    hg_put_message(message, message_size, "the output path is empty: name the merged file");
    return HEGETCL_ERR_INPUT;
  }
  int status = 0;
  for (size_t i = 0; i < n_inputs && status == 0; ++i) {
    const char *input = inputs[i];
    if (input == NULL || input[0] == '\0') {
      hg_put_message(message, message_size, "input %zu has an empty path: name an LHE file", i + 1);
      status = HEGETCL_ERR_INPUT;
    } else if (strcmp(input, out_path) == 0 || same_file(input, out_path)) {
      hg_put_message(message, message_size,
                     "the output %s is also input %zu (%s): the merge would replace it; write "
                     "the merged file under another name",
                     out_path, i + 1, input);
      status = HEGETCL_ERR_INPUT;
    }
    /* one file twice (by name, or by another name of the same inode) would double its events */
    for (size_t j = 0; j < i && status == 0; ++j)
      if (strcmp(input, inputs[j]) == 0 || same_file(input, inputs[j])) {
        hg_put_message(message, message_size,
                       "input %zu (%s) is the same file as input %zu (%s): its events would be "
                       "merged twice; give each file once",
                       i + 1, input, j + 1, inputs[j]);
        status = HEGETCL_ERR_INPUT;
      }
  }
  if (status == 0) status = hg_output_check_target("the merged file", out_path, message, message_size);
  return status;
}

/* Writes first's head with neve = total to o. */
static int write_head(hg_output *o, const lhe_head *first, long long total) {
  if (first->prelude.length > 0) hg_output_write(o, first->prelude.data, first->prelude.length);
  for (size_t i = 0; i < first->n_init; ++i) {
    const char *line = first->init[i];
    if (i != first->xsecinfo) {
      hg_output_write(o, line, strlen(line));
      continue;
    }
    hg_output_write(o, line, first->neve_at);
    hg_output_printf(o, "%lld", total);
    const char *rest = line + first->neve_at + first->neve_length;
    hg_output_write(o, rest, strlen(rest));
  }
  return hg_output_status(o);
}

int hg_lhe_merge(const char *out_path, const char *const *inputs, size_t n_inputs, char *message,
                 size_t message_size) {
  hg_put_message(message, message_size, "%s", "");
  int status = check_paths(out_path, inputs, n_inputs, message, message_size);
  if (status != 0) return status;

  /* Every head first, so that files of another run are refused before any output exists. */
  lhe_head first = {0}, h = {0};
  hg_text_lines r = {0};
  hg_output *o = NULL;
  long long total = 0, copied = 0;
  for (size_t i = 0; i < n_inputs; ++i) {
    status = open_input(&r, inputs[i], i == 0 ? NULL : &first, inputs[0], i == 0 ? &first : &h,
                        message, message_size);
    if (status != 0) goto fail;
    hg_text_lines_close(&r);
    const long long neve = i == 0 ? first.neve : h.neve;
    if (neve > LLONG_MAX - total) {
      hg_put_message(message, message_size, "%s: the files' neve add up to more than %lld events",
                     inputs[i], LLONG_MAX);
      status = HEGETCL_ERR_INPUT;
      goto fail;
    }
    total += neve;
    head_free(&h);
  }

  status = hg_output_open(out_path, hg_output_path_is_gzip(out_path), &o, message, message_size);
  if (status != 0) goto fail;
  if (write_head(o, &first, total) != 0) {
    status = output_failure(o, message, message_size);
    goto fail;
  }
  for (size_t i = 0; i < n_inputs; ++i) {
    /* read again: its head is checked once more, in case the file changed since */
    status = open_input(&r, inputs[i], &first, inputs[0], &h, message, message_size);
    long long n_events = 0;
    if (status == 0) status = copy_events(&r, o, &h, &n_events, message, message_size);
    hg_text_lines_close(&r);
    head_free(&h);
    if (status != 0) goto fail;
    copied += n_events;
  }
  if (copied != total) {
    hg_put_message(message, message_size,
                   "the inputs changed during the merge: their neve added up to %lld events, but "
                   "%lld were copied; merge again once the files are complete",
                   total, copied);
    status = HEGETCL_ERR_INPUT;
    goto fail;
  }
  if (hg_output_printf(o, "</LesHouchesEvents>\n") != 0) {
    status = output_failure(o, message, message_size);
    goto fail;
  }
  status = hg_output_close(o, 1, message, message_size);
  o = NULL;
  if (status != 0) goto fail;
  head_free(&first);
  hg_put_message(message, message_size, "merged %lld events from %zu file%s into %s", total,
                 n_inputs, n_inputs == 1 ? "" : "s", out_path);
  return 0;

fail:
  if (o != NULL) {
    char ignored[256]; /* the merge's own failure is the one reported */
    hg_output_close(o, 0, ignored, sizeof ignored);
  }
  hg_text_lines_close(&r);
  head_free(&h);
  head_free(&first);
  return status;
}
