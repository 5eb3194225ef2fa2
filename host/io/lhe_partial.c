/* SPDX-License-Identifier: MIT */
/* FILE.partial from a stopped run's event stream: lhe_partial.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "hegetcl/status.h"
#include "io/lhe_partial.h"
#include "io/output_file.h"
#include "io/text_lines.h"

/* Where a line of the stream stands. */
typedef enum {
  BEFORE_INIT,    /* the root element, comment, header */
  INIT_BEAMS,     /* the line after <init>: IDBMUP ... NPRUP */
  INIT_PROCESS,   /* XSECUP XERRUP XMAXUP LPRUP */
  INIT_REST,      /* <generator>, <xsecinfo>, up to </init> */
  BETWEEN_EVENTS, /* after </init> or </event> */
  EVENT_FIRST,    /* the line after <event>: NUP IDPRUP XWGTUP SCALUP AQEDUP AQCDUP */
  EVENT_REST,     /* the particles, up to </event> */
  AT_END          /* </LesHouchesEvents> seen */
} place;

/* One pass over the stream: counting (out == NULL) or writing. */
typedef struct {
  hg_output *out;
  place at;
  double sigma_pb;  /* XSECUP */
  double weight_pb; /* XSECUP / k, while writing */
  long long events; /* complete events */
  long long neve;   /* what <xsecinfo> says, while writing: the first pass's count */
  hg_strbuf event;  /* the open event's lines, written once it is complete */
} pass;

/* text after leading blanks */
static const char *skip_blanks(const char *text) {
  while (*text == ' ' || *text == '\t') ++text;
  return text;
}

/* Whether line, after leading blanks, opens tag ("<init", "</event"): the name ends there. */
static int starts_tag(const char *line, const char *tag) {
  const char *text = skip_blanks(line);
  const size_t n = strlen(tag);
  if (strncmp(text, tag, n) != 0) return 0;
  const char next = text[n];
  return next == '>' || next == '/' || next == ' ' || next == '\t' || next == '\r' ||
         next == '\n' || next == '\0';
}

/* The bounds [*start, *end) of line's token number index (from 0; tokens are separated by
 * blanks); 0, or -1 when the line has fewer tokens. */
static int find_token(const char *line, int index, size_t *start, size_t *end) {
  size_t i = 0;
  for (int k = 0;; ++k) {
    while (line[i] == ' ' || line[i] == '\t') ++i;
    if (line[i] == '\0' || line[i] == '\n' || line[i] == '\r') return -1;
    const size_t from = i;
    while (line[i] != '\0' && line[i] != ' ' && line[i] != '\t' && line[i] != '\n' &&
           line[i] != '\r')
      ++i;
    if (k == index) {
      *start = from;
      *end = i;
      return 0;
    }
  }
}

/* line with token index replaced by value (%+.16e, the writer's column format) appended to s. */
static int replace_token(hg_strbuf *s, const char *line, int index, double value) {
  size_t start = 0, end = 0;
  if (find_token(line, index, &start, &end) != 0) return -1;
  hg_strbuf_printf(s, "%.*s%+.16e%s", (int)start, line, value, line + end);
  return 0;
}

/* Writes what s holds to p->out and empties s. */
static int flush_text(pass *p, hg_strbuf *s) {
  if (s->failed) return HEGETCL_ERR_NO_MEMORY;
  if (s->length > 0) hg_output_write(p->out, s->data, s->length);
  s->length = 0;
  return hg_output_status(p->out);
}

/* The message for a line that is not where a stopped run's stream has it. */
static int not_a_stream(const hg_text_lines *r, const char *what, char *message,
                        size_t message_size) {
  hg_put_message(message, message_size,
                 "%s line %lld: %s: it is not the event stream of a stopped hegetcl run", r->path,
                 r->number, what);
  return HEGETCL_ERR_INPUT;
}

/* One line of the stream; 0 or a negative status with message. */
static int take_line(pass *p, const hg_text_lines *r, char *message, size_t message_size) {
  const char *line = r->line;
  hg_strbuf text = {0};
  int status = 0;
  switch (p->at) {
  case BEFORE_INIT:
    if (starts_tag(line, "<event"))
      return not_a_stream(r, "an <event> before <init>", message, message_size);
    if (starts_tag(line, "<init")) p->at = INIT_BEAMS;
    if (p->out != NULL) hg_output_write(p->out, line, r->length);
    break;
  case INIT_BEAMS:
    p->at = INIT_PROCESS;
    if (p->out != NULL) hg_output_write(p->out, line, r->length);
    break;
  case INIT_PROCESS: {
    size_t start = 0, end = 0;
    char *after = NULL;
    if (find_token(line, 0, &start, &end) == 0) p->sigma_pb = strtod(line + start, &after);
    if (after != line + end || !isfinite(p->sigma_pb) || !(p->sigma_pb > 0))
      return not_a_stream(r, "the <init> block's second line has no positive XSECUP", message,
                          message_size);
    p->at = INIT_REST;
    if (p->out == NULL) break;
    if (replace_token(&text, line, 2, p->weight_pb) != 0)
      return not_a_stream(r, "the <init> block's second line has no XMAXUP", message, message_size);
    status = flush_text(p, &text);
    break;
  }
  case INIT_REST: {
    if (starts_tag(line, "</init")) p->at = BETWEEN_EVENTS;
    if (p->out == NULL) break;
    const char *neve = strstr(line, "<xsecinfo") != NULL ? strstr(line, " neve=\"") : NULL;
    if (neve == NULL) {
      hg_output_write(p->out, line, r->length);
      break;
    }
    const char *value = neve + 7, *close = strchr(value, '"');
    if (close == NULL)
      return not_a_stream(r, "<xsecinfo neve=\"...\"> is not closed", message, message_size);
    hg_strbuf_printf(&text, "%.*s%lld%s", (int)(value - line), line, p->neve, close);
    status = flush_text(p, &text);
    break;
  }
  case BETWEEN_EVENTS:
    if (starts_tag(line, "</LesHouchesEvents")) {
      p->at = AT_END;
      break;
    }
    if (starts_tag(line, "<event")) {
      p->at = EVENT_FIRST;
      p->event.length = 0;
      if (p->out != NULL) hg_strbuf_printf(&p->event, "%s", line);
      break;
    }
    if (*skip_blanks(line) != '\n' && *skip_blanks(line) != '\0')
      return not_a_stream(r, "text between events", message, message_size);
    break;
  case EVENT_FIRST:
    p->at = EVENT_REST;
    if (p->out != NULL && replace_token(&p->event, line, 2, p->weight_pb) != 0)
      return not_a_stream(r, "an event's first line has no XWGTUP", message, message_size);
    break;
  case EVENT_REST:
    if (starts_tag(line, "<event") || starts_tag(line, "</LesHouchesEvents"))
      return not_a_stream(r, "an <event> without its </event>", message, message_size);
    if (p->out != NULL) hg_strbuf_printf(&p->event, "%s", line);
    if (starts_tag(line, "</event")) {
      p->at = BETWEEN_EVENTS;
      ++p->events;
      if (p->out != NULL) status = flush_text(p, &p->event);
    }
    break;
  case AT_END:
    break;
  }
  hg_strbuf_free(&text);
  if (status == 0 && p->out != NULL && hg_output_status(p->out) != 0)
    status = hg_output_status(p->out);
  if (status == 0 && p->event.failed) status = HEGETCL_ERR_NO_MEMORY;
  if (status != 0 && p->out != NULL && hg_output_status(p->out) != 0)
    hg_put_message(message, message_size, "%s", hg_output_message(p->out));
  else if (status != 0)
    hg_put_message(message, message_size, "no memory for line %lld of %s", r->number, r->path);
  return status;
}

/* Reads the whole stream through p; 0 or a negative status with message. A stream cut off inside
 * its gzip data (a killed run's) ends where it can be read. */
static int run_pass(pass *p, const char *stream, char *message, size_t message_size) {
  hg_text_lines r;
  int status = hg_text_lines_open(&r, stream, message, message_size);
  if (status != 0) return status;
  int got;
  while (status == 0 && p->at != AT_END &&
         (got = hg_text_lines_next(&r, message, message_size)) != 0) {
    if (got < 0) {
      /* cut off after <init> (a gzip stream that ends early): the events before it count */
      status = got == HEGETCL_ERR_INPUT && p->at >= BETWEEN_EVENTS ? 0 : got;
      if (status == 0) hg_put_message(message, message_size, "%s", "");
      break;
    }
    status = take_line(p, &r, message, message_size);
  }
  if (status == 0 && p->at < BETWEEN_EVENTS)
    status = not_a_stream(&r, "the stream ends before its <init> block is complete", message,
                          message_size);
  hg_text_lines_close(&r);
  return status;
}

int hg_lhe_partial_write(const char *stream, const char *partial_path, int gzip,
                         long long *n_events, char *message, size_t message_size) {
  *n_events = 0;
  hg_put_message(message, message_size, "%s", "");
  pass count = {.at = BEFORE_INIT};
  int status = run_pass(&count, stream, message, message_size);
  hg_strbuf_free(&count.event);
  if (status != 0 || count.events == 0) return status;

  const long long k = count.events;
  pass write = {.at = BEFORE_INIT, .neve = k, .weight_pb = count.sigma_pb / (double)k};
  status = hg_output_open(partial_path, gzip, &write.out, message, message_size);
  if (status != 0) return status;
  status = run_pass(&write, stream, message, message_size);
  hg_strbuf_free(&write.event);
  if (status == 0) status = hg_output_printf(write.out, "</LesHouchesEvents>\n");
  if (status == 0 && write.events != k) {
    hg_put_message(message, message_size,
                   "%s changed while it was copied to %s (%lld complete events, then %lld)", stream,
                   partial_path, k, write.events);
    status = HEGETCL_ERR_IO;
  }
  char close_message[1024];
  if (hg_output_close(write.out, status == 0, close_message, sizeof close_message) != 0 &&
      status == 0) {
    hg_put_message(message, message_size, "%s", close_message);
    status = HEGETCL_ERR_IO;
  }
  if (status == 0) *n_events = k;
  return status;
}
