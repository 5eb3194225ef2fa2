/* SPDX-License-Identifier: MIT */
/* LHAPDF 6 sets read into the packed grid of cl/pdf/lhapdf6_interp.h: the set's search path, the
 * .info YAML subset, the lhagrid1 .dat blocks, and the host's x f(x, Q) through the same code. */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "lhapdf6_grid.h"
#include "pdf/lhapdf6_interp.h"

struct hegetcl_pdf {
  char *set_name, *directory, *description;
  int member, set_index, extrapolator;
  double x_min, x_max, q_min, q_max;
  double alpha_s_mz, mz; /* AlphaS_MZ and MZ, 0 when the set does not give them */
  int *flavours;
  size_t n_flavours;
  double *grid; /* every flavour, slot i for flavours[i] */
  size_t n_doubles;
  char **negative; /* per slot: "file:line: x f = V", its first negative knot value, or NULL */
};

/* Writes a formatted message into message (when it has room) and returns status. */
static hegetcl_status say(char *message, size_t size, hegetcl_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static hegetcl_status say(char *message, size_t size, hegetcl_status status, const char *fmt, ...) {
  if (message != NULL && size > 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, size, fmt, ap);
    va_end(ap);
  }
  return status;
}

/* A copy of s, NULL when memory runs out. */
static char *copy_string(const char *s) {
  const size_t n = strlen(s) + 1;
  char *c = malloc(n);
  if (c != NULL) memcpy(c, s, n);
  return c;
}

/* s without leading and trailing white space (modified in place). */
static char *trim(char *s) {
  while (*s == ' ' || *s == '\t') ++s;
  size_t n = strlen(s);
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
    s[--n] = '\0';
  return s;
}

/* ---- metadata: the YAML subset of .info files and .dat headers ---- */

/* One "Key: value" line (continuation lines appended to value), and where it was. */
typedef struct {
  char *key, *value;
  const char *path;
  int line;
} meta_entry;

typedef struct {
  meta_entry *items;
  size_t count, capacity;
} meta_list;

/* Frees every entry. */
static void meta_free(meta_list *m) {
  for (size_t i = 0; i < m->count; ++i) {
    free(m->items[i].key);
    free(m->items[i].value);
  }
  free(m->items);
  m->items = NULL;
  m->count = m->capacity = 0;
}

/* Adds one line of a YAML map: "Key: value", an indented continuation of the previous value, a
 * comment or a blank line; anything else, or a key repeated in one file, is an error. */
static hegetcl_status meta_add_line(meta_list *m, const char *path, int line, char *raw,
                                    char *message, size_t size) {
  const int indented = raw[0] == ' ' || raw[0] == '\t';
  char *text = trim(raw);
  if (text[0] == '\0' || text[0] == '#') return HEGETCL_OK;
  if (indented) {
    if (m->count == 0 || m->items[m->count - 1].path != path)
      return say(message, size, HEGETCL_ERR_INPUT,
                 "%s:%d: indented line '%s' continues no key: expected 'Key: value'", path, line,
                 text);
    meta_entry *last = &m->items[m->count - 1];
    const size_t old = strlen(last->value), add = strlen(text);
    char *grown = realloc(last->value, old + add + 2);
    if (grown == NULL)
      return say(message, size, HEGETCL_ERR_NO_MEMORY, "no memory to read %s", path);
    grown[old] = ' ';
    memcpy(grown + old + 1, text, add + 1);
    last->value = grown;
    return HEGETCL_OK;
  }
  size_t key_length = 0;
  while (text[key_length] == '_' || (text[key_length] >= 'A' && text[key_length] <= 'Z') ||
         (text[key_length] >= 'a' && text[key_length] <= 'z') ||
         (text[key_length] >= '0' && text[key_length] <= '9'))
    ++key_length;
  if (key_length == 0 || text[key_length] != ':' ||
      (text[key_length + 1] != '\0' && text[key_length + 1] != ' ' && text[key_length + 1] != '\t'))
    return say(message, size, HEGETCL_ERR_INPUT,
               "%s:%d: '%s' is not a 'Key: value' line (the YAML that LHAPDF metadata uses)", path,
               line, text);
  text[key_length] = '\0';
  for (size_t i = 0; i < m->count; ++i)
    if (m->items[i].path == path && strcmp(m->items[i].key, text) == 0)
      return say(message, size, HEGETCL_ERR_INPUT, "%s:%d: key %s appears again (first on line %d)",
                 path, line, text, m->items[i].line);
  if (m->count == m->capacity) {
    const size_t capacity = m->capacity ? 2 * m->capacity : 32;
    meta_entry *grown = realloc(m->items, capacity * sizeof *grown);
    if (grown == NULL)
      return say(message, size, HEGETCL_ERR_NO_MEMORY, "no memory to read %s", path);
    m->items = grown;
    m->capacity = capacity;
  }
  meta_entry *e = &m->items[m->count];
  e->key = copy_string(text);
  e->value = copy_string(trim(text + key_length + 1));
  e->path = path;
  e->line = line;
  if (e->key == NULL || e->value == NULL) {
    free(e->key);
    free(e->value);
    return say(message, size, HEGETCL_ERR_NO_MEMORY, "no memory to read %s", path);
  }
  m->count++;
  return HEGETCL_OK;
}

/* The entry of key, the member header's over the .info's (the last one added), or NULL. */
static const meta_entry *meta_find(const meta_list *m, const char *key) {
  for (size_t i = m->count; i-- > 0;)
    if (strcmp(m->items[i].key, key) == 0) return &m->items[i];
  return NULL;
}

/* An integer value. */
static hegetcl_status meta_int(const meta_entry *e, int *out, char *message, size_t size) {
  char *end = NULL;
  const long v = strtol(e->value, &end, 10);
  if (end == e->value || *end != '\0' || v < INT_MIN || v > INT_MAX)
    return say(message, size, HEGETCL_ERR_INPUT, "%s:%d: %s: '%s' is not an integer", e->path,
               e->line, e->key, e->value);
  *out = (int)v;
  return HEGETCL_OK;
}

/* A finite real value. */
static hegetcl_status meta_double(const meta_entry *e, double *out, char *message, size_t size) {
  char *end = NULL;
  const double v = strtod(e->value, &end);
  if (end == e->value || *end != '\0' || !isfinite(v))
    return say(message, size, HEGETCL_ERR_INPUT, "%s:%d: %s: '%s' is not a finite number", e->path,
               e->line, e->key, e->value);
  *out = v;
  return HEGETCL_OK;
}

/* A string value without its quotes, copied into a new string. */
static hegetcl_status meta_string(const meta_entry *e, char **out, char *message, size_t size) {
  const char *v = e->value;
  size_t n = strlen(v);
  if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
    ++v;
    n -= 2;
  }
  *out = malloc(n + 1);
  if (*out == NULL)
    return say(message, size, HEGETCL_ERR_NO_MEMORY, "no memory to read %s", e->path);
  memcpy(*out, v, n);
  (*out)[n] = '\0';
  return HEGETCL_OK;
}

/* A flow list of integers, "[-5, -4, 21]", into a new array. */
static hegetcl_status meta_int_list(const meta_entry *e, int **out, size_t *count, char *message,
                                    size_t size) {
  const char *p = e->value;
  const size_t n = strlen(p);
  if (n < 2 || p[0] != '[' || p[n - 1] != ']')
    return say(message, size, HEGETCL_ERR_INPUT, "%s:%d: %s: '%s' is not a list like [1, 2, 21]",
               e->path, e->line, e->key, e->value);
  size_t commas = 0;
  for (size_t i = 0; i < n; ++i) commas += p[i] == ',';
  *out = malloc((commas + 1) * sizeof **out);
  if (*out == NULL)
    return say(message, size, HEGETCL_ERR_NO_MEMORY, "no memory to read %s", e->path);
  *count = 0;
  ++p;
  for (;;) {
    char *end = NULL;
    const long v = strtol(p, &end, 10);
    if (end == p || v < INT_MIN || v > INT_MAX) break;
    (*out)[(*count)++] = (int)v;
    while (*end == ' ' || *end == '\t') ++end;
    if (*end == ']' && end[1] == '\0') return HEGETCL_OK;
    if (*end != ',') break;
    p = end + 1;
  }
  free(*out);
  *out = NULL;
  return say(message, size, HEGETCL_ERR_INPUT, "%s:%d: %s: '%s' is not a list of integers", e->path,
             e->line, e->key, e->value);
}

/* Reads a whole .info file into m. */
static hegetcl_status meta_read_file(meta_list *m, const char *path, char *message, size_t size) {
  FILE *f = fopen(path, "r");
  if (f == NULL)
    return say(message, size, HEGETCL_ERR_IO, "cannot open %s: check its permissions", path);
  char *line = NULL;
  size_t capacity = 0;
  int line_no = 0;
  hegetcl_status status = HEGETCL_OK;
  while (status == HEGETCL_OK && getline(&line, &capacity, f) >= 0)
    status = meta_add_line(m, path, ++line_no, line, message, size);
  if (status == HEGETCL_OK && ferror(f))
    status = say(message, size, HEGETCL_ERR_IO, "reading %s failed after line %d", path, line_no);
  free(line);
  fclose(f);
  return status;
}

/* ---- finding the set ---- */

/* Whether path names a file that can be opened for reading. */
static int readable(const char *path) {
  FILE *f = fopen(path, "r");
  if (f == NULL) return 0;
  fclose(f);
  return 1;
}

/* Looks for <dir>/<name>/<name>.info in each folder of a colon-separated list, appending each
 * folder tried to *tried with its origin; *found gets the set's folder when one has it. */
static void search_list(const char *list, const char *origin, const char *name, hg_strbuf *tried,
                        char **found) {
  const char *p = list;
  while (*found == NULL && p != NULL && *p != '\0') {
    const char *colon = strchr(p, ':');
    const size_t n = colon ? (size_t)(colon - p) : strlen(p);
    if (n > 0) {
      hg_strbuf info = {0};
      hg_strbuf_printf(&info, "%.*s/%s/%s.info", (int)n, p, name, name);
      hg_strbuf_printf(tried, "%s  %.*s (%s)", tried->length ? "\n" : "", (int)n, p, origin);
      if (!info.failed && readable(info.data)) {
        hg_strbuf dir = {0};
        hg_strbuf_printf(&dir, "%.*s/%s", (int)n, p, name);
        if (!dir.failed) *found = dir.data;
      }
      hg_strbuf_free(&info);
    }
    p = colon ? colon + 1 : NULL;
  }
}

/* The set's folder (new string) and its name (points into set_name or the folder). */
static hegetcl_status find_set(const char *set_name, char **directory, const char **name,
                               char *message, size_t size) {
  *directory = NULL;
  if (strchr(set_name, '/') != NULL) {
    char *dir = copy_string(set_name);
    if (dir == NULL) return say(message, size, HEGETCL_ERR_NO_MEMORY, "no memory");
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/') dir[--n] = '\0';
    const char *slash = strrchr(dir, '/');
    *name = slash ? slash + 1 : dir;
    if (**name == '\0' || strcmp(*name, ".") == 0 || strcmp(*name, "..") == 0) {
      free(dir);
      return say(message, size, HEGETCL_ERR_INPUT,
                 "PDF set path '%s' does not end in the set's folder name (as in "
                 "../shared/pdfsets/cteq6l1)",
                 set_name);
    }
    *directory = dir;
    return HEGETCL_OK;
  }
  *name = set_name;
  hg_strbuf tried = {0};
  char *found = NULL;
  search_list(getenv("LHAPDF_DATA_PATH"), "LHAPDF_DATA_PATH", set_name, &tried, &found);
  search_list(getenv("LHAPATH"), "LHAPATH", set_name, &tried, &found);
  const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
  hg_strbuf user = {0};
  if (xdg != NULL && *xdg != '\0')
    hg_strbuf_printf(&user, "%s/LHAPDF", xdg);
  else if (home != NULL && *home != '\0')
    hg_strbuf_printf(&user, "%s/.local/share/LHAPDF", home);
  if (user.data != NULL)
    search_list(user.data, xdg && *xdg ? "XDG_DATA_HOME" : "HOME", set_name, &tried, &found);
  hg_strbuf_free(&user);
  search_list("/usr/local/share/LHAPDF:/usr/share/LHAPDF", "system", set_name, &tried, &found);
  hegetcl_status status = HEGETCL_OK;
  if (tried.failed)
    status = say(message, size, HEGETCL_ERR_NO_MEMORY, "no memory");
  else if (found == NULL)
    status = say(message, size, HEGETCL_ERR_IO,
                 "PDF set '%s' not found: no %s/%s.info in any of these folders:\n%s\nset "
                 "LHAPDF_DATA_PATH to the folder that holds %s/ (this checkout's sets are in "
                 "../shared/pdfsets), or run `bash setup.sh`",
                 set_name, set_name, set_name, tried.data, set_name);
  hg_strbuf_free(&tried);
  *directory = found;
  return status;
}

/* ---- the .dat grid blocks ---- */

/* One subgrid block as read: knots as in the file (Q in GeV), x f per flavour slot. */
typedef struct {
  size_t nx, nq, rows;
  double *x, *q;
  double *values; /* values[(slot * nx + ix) * nq + iq] */
  int x_line, q_line;
} dat_block;

/* The numbers of a knot line, into a new array; the message names a token that is not one. */
static hegetcl_status parse_reals(const char *path, int line, const char *what, const char *text,
                                  double **out, size_t *count, char *message, size_t size) {
  size_t capacity = 64;
  *count = 0;
  *out = malloc(capacity * sizeof **out);
  if (*out == NULL) return say(message, size, HEGETCL_ERR_NO_MEMORY, "no memory to read %s", path);
  const char *p = text;
  for (;;) {
    while (*p == ' ' || *p == '\t') ++p;
    if (*p == '\0') return HEGETCL_OK;
    char *end = NULL;
    const double v = strtod(p, &end);
    if (end == p || (*end != '\0' && *end != ' ' && *end != '\t') || !isfinite(v)) {
      const int n = (int)strcspn(p, " \t");
      free(*out);
      *out = NULL;
      return say(message, size, HEGETCL_ERR_INPUT, "%s:%d: %s %zu is '%.*s', not a finite number",
                 path, line, what, *count + 1, n, p);
    }
    if (*count == capacity) {
      capacity *= 2;
      double *grown = realloc(*out, capacity * sizeof *grown);
      if (grown == NULL) {
        free(*out);
        *out = NULL;
        return say(message, size, HEGETCL_ERR_NO_MEMORY, "no memory to read %s", path);
      }
      *out = grown;
    }
    (*out)[(*count)++] = v;
    p = end;
  }
}

/* Checks a knot line: enough knots, each positive (x at most 1), strictly increasing. */
static hegetcl_status check_knots(const char *path, int line, const char *what, const double *k,
                                  size_t n, size_t n_min, double upper, char *message,
                                  size_t size) {
  if (n < n_min)
    return say(message, size, HEGETCL_ERR_INPUT,
               "%s:%d: %zu %s knots, but LHAPDF's log-bicubic interpolation needs at least %zu",
               path, line, n, what, n_min);
  for (size_t i = 0; i < n; ++i) {
    if (!(k[i] > 0 && k[i] <= upper))
      return say(message, size, HEGETCL_ERR_INPUT,
                 "%s:%d: %s knot %zu is %g: it must be in (0, %g]", path, line, what, i + 1, k[i],
                 upper);
    if (i > 0 && !(k[i] > k[i - 1]))
      return say(message, size, HEGETCL_ERR_INPUT,
                 "%s:%d: %s knot %zu (%.17g) is not above knot %zu (%.17g): knots must increase",
                 path, line, what, i + 1, k[i], i, k[i - 1]);
  }
  return HEGETCL_OK;
}

/* Frees the blocks and their arrays. */
static void blocks_free(dat_block *blocks, size_t n) {
  for (size_t b = 0; blocks != NULL && b < n; ++b) {
    free(blocks[b].x);
    free(blocks[b].q);
    free(blocks[b].values);
  }
  free(blocks);
}

/* What the .dat reader keeps between lines. */
typedef struct {
  const char *path;
  const int *flavours; /* the .info's Flavors */
  size_t n_flavours;
  int *columns;    /* slot of each column, from the first block's flavour line */
  int *first_pids; /* the first block's flavour line */
  dat_block *blocks;
  size_t n_blocks, capacity;
  size_t block_line; /* non-comment lines since the last --- */
  double *row;
  char **negative; /* per slot: where its first negative value is (hegetcl_pdf.negative) */
} dat_reader;

/* The flavour line of a block: the .info's flavours, each once; later blocks repeat the first. */
static hegetcl_status read_flavour_line(dat_reader *r, int line, const char *text, char *message,
                                        size_t size) {
  int *pids = malloc(r->n_flavours * sizeof *pids);
  if (pids == NULL) return say(message, size, HEGETCL_ERR_NO_MEMORY, "no memory");
  size_t n = 0;
  const char *p = text;
  hegetcl_status status = HEGETCL_OK;
  for (;;) {
    while (*p == ' ' || *p == '\t') ++p;
    if (*p == '\0') break;
    char *end = NULL;
    const long v = strtol(p, &end, 10);
    if (end == p || (*end != '\0' && *end != ' ' && *end != '\t') || v < INT_MIN || v > INT_MAX) {
      status = say(message, size, HEGETCL_ERR_INPUT, "%s:%d: flavour %zu is '%.*s', not a PDG code",
                   r->path, line, n + 1, (int)strcspn(p, " \t"), p);
      break;
    }
    if (n == r->n_flavours) {
      status = say(message, size, HEGETCL_ERR_INPUT,
                   "%s:%d: more flavours than the %zu of the .info's Flavors", r->path, line,
                   r->n_flavours);
      break;
    }
    pids[n++] = (int)v;
    p = end;
  }
  for (size_t f = 0; status == HEGETCL_OK && f < r->n_flavours; ++f) {
    size_t found = 0;
    for (size_t c = 0; c < n; ++c) found += pids[c] == r->flavours[f];
    if (found != 1)
      status = say(message, size, HEGETCL_ERR_INPUT,
                   "%s:%d: flavour %d of the .info's Flavors appears %zu times on this block's "
                   "flavour line (it must appear once)",
                   r->path, line, r->flavours[f], found);
  }
  if (status == HEGETCL_OK && n != r->n_flavours)
    status = say(message, size, HEGETCL_ERR_INPUT,
                 "%s:%d: %zu flavours, but the .info's Flavors lists %zu", r->path, line, n,
                 r->n_flavours);
  if (status == HEGETCL_OK && r->first_pids == NULL) {
    for (size_t c = 0; c < n; ++c)
      for (size_t f = 0; f < r->n_flavours; ++f)
        if (pids[c] == r->flavours[f]) r->columns[c] = (int)f;
    r->first_pids = pids;
    return HEGETCL_OK;
  }
  if (status == HEGETCL_OK && memcmp(pids, r->first_pids, n * sizeof *pids) != 0)
    status = say(message, size, HEGETCL_ERR_INPUT,
                 "%s:%d: the flavours are not in the first block's order (LHAPDF 6 needs the "
                 "same order in every block)",
                 r->path, line);
  free(pids);
  return status;
}

/* One non-comment line of a data block: x knots, Q knots, flavours, then nx * nq rows. */
static hegetcl_status read_block_line(dat_reader *r, int line, const char *text, char *message,
                                      size_t size) {
  const char *path = r->path;
  hegetcl_status status = HEGETCL_OK;
  if (r->block_line == 1) {
    if (r->n_blocks == r->capacity) {
      const size_t capacity = r->capacity ? 2 * r->capacity : 4;
      dat_block *grown = realloc(r->blocks, capacity * sizeof *grown);
      if (grown == NULL) return say(message, size, HEGETCL_ERR_NO_MEMORY, "no memory");
      r->blocks = grown;
      r->capacity = capacity;
    }
    dat_block *b = &r->blocks[r->n_blocks++];
    memset(b, 0, sizeof *b);
    b->x_line = line;
    status = parse_reals(path, line, "x knot", text, &b->x, &b->nx, message, size);
    if (status == HEGETCL_OK)
      status = check_knots(path, line, "x", b->x, b->nx, 4, 1, message, size);
    if (status == HEGETCL_OK && r->n_blocks > 1) {
      const dat_block *first = &r->blocks[0];
      if (b->nx != first->nx || memcmp(b->x, first->x, b->nx * sizeof *b->x) != 0)
        status = say(message, size, HEGETCL_ERR_INPUT,
                     "%s:%d: block %zu's x knots differ from block 1's (line %d): LHAPDF 6 needs "
                     "the same x knots in every block",
                     path, line, r->n_blocks, first->x_line);
    }
    return status;
  }
  dat_block *b = &r->blocks[r->n_blocks - 1];
  if (r->block_line == 2) {
    b->q_line = line;
    status = parse_reals(path, line, "Q knot", text, &b->q, &b->nq, message, size);
    if (status == HEGETCL_OK)
      status = check_knots(path, line, "Q", b->q, b->nq, 2, INFINITY, message, size);
    if (status == HEGETCL_OK && r->n_blocks > 1 && b->q[0] != b[-1].q[b[-1].nq - 1])
      status = say(message, size, HEGETCL_ERR_INPUT,
                   "%s:%d: block %zu starts at Q = %.17g GeV but block %zu ends at Q = %.17g GeV "
                   "(line %d): a subgrid must start at the previous one's last Q knot",
                   path, line, r->n_blocks, b->q[0], r->n_blocks - 1, b[-1].q[b[-1].nq - 1],
                   b[-1].q_line);
    return status;
  }
  if (r->block_line == 3) {
    status = read_flavour_line(r, line, text, message, size);
    if (status != HEGETCL_OK) return status;
    const size_t per_slot = b->nx * b->nq;
    if (per_slot / b->nq != b->nx || per_slot > (size_t)INT_MAX / r->n_flavours)
      return say(message, size, HEGETCL_ERR_INPUT, "%s:%d: the block is too large (%zu x %zu)",
                 path, line, b->nx, b->nq);
    b->values = malloc(per_slot * r->n_flavours * sizeof *b->values);
    if (b->values == NULL)
      return say(message, size, HEGETCL_ERR_NO_MEMORY, "no memory for %zu x %zu knots of %s", b->nx,
                 b->nq, path);
    return HEGETCL_OK;
  }
  const size_t row = r->block_line - 4;
  if (row >= b->nx * b->nq)
    return say(message, size, HEGETCL_ERR_INPUT,
               "%s:%d: block %zu has %zu x knots (line %d) and %zu Q knots (line %d), so %zu value "
               "lines, but this is value line %zu: knot counts and values do not match",
               path, line, r->n_blocks, b->nx, b->x_line, b->nq, b->q_line, b->nx * b->nq, row + 1);
  const char *p = text;
  size_t n = 0;
  for (;;) {
    while (*p == ' ' || *p == '\t') ++p;
    if (*p == '\0') break;
    char *end = NULL;
    const double v = strtod(p, &end);
    if (end == p || (*end != '\0' && *end != ' ' && *end != '\t') || !isfinite(v))
      return say(message, size, HEGETCL_ERR_INPUT,
                 "%s:%d: value %zu is '%.*s', not a finite number (x f of flavour %d)", path, line,
                 n + 1, (int)strcspn(p, " \t"), p, n < r->n_flavours ? r->first_pids[n] : 0);
    if (n == r->n_flavours) break;
    if (v < 0 && r->negative[r->columns[n]] == NULL) {
      hg_strbuf where = {0};
      hg_strbuf_printf(&where, "%s:%d: x f = %.6g (value %zu)", path, line, v, n + 1);
      if (where.failed) return say(message, size, HEGETCL_ERR_NO_MEMORY, "no memory");
      r->negative[r->columns[n]] = where.data;
    }
    r->row[n++] = v;
    p = end;
  }
  if (n != r->n_flavours || *p != '\0')
    return say(message, size, HEGETCL_ERR_INPUT,
               "%s:%d: %s values, but the block has %zu flavours: knot counts and values do not "
               "match",
               path, line, n == r->n_flavours ? "more" : "fewer", r->n_flavours);
  const size_t ix = row / b->nq, iq = row % b->nq;
  for (size_t c = 0; c < n; ++c)
    b->values[((size_t)r->columns[c] * b->nx + ix) * b->nq + iq] = r->row[c];
  b->rows = row + 1;
  return HEGETCL_OK;
}

/* Closes a block at a --- line: it must have had all its value lines. */
static hegetcl_status end_block(dat_reader *r, int line, char *message, size_t size) {
  if (r->block_line == 0)
    return say(message, size, HEGETCL_ERR_INPUT, "%s:%d: an empty block (--- follows ---)", r->path,
               line);
  const dat_block *b = &r->blocks[r->n_blocks - 1];
  if (r->block_line < 3 || b->rows != b->nx * b->nq)
    return say(message, size, HEGETCL_ERR_INPUT,
               "%s:%d: block %zu ends after %zu value lines, but its %zu x knots (line %d) and %zu "
               "Q knots (line %d) need %zu: knot counts and values do not match",
               r->path, line, r->n_blocks, b->rows, b->nx, b->x_line, b->nq, b->q_line,
               b->nx * b->nq);
  return HEGETCL_OK;
}

/* ---- the packed grid ---- */

/* d(x f)/d(log x) at knot ix of one Q column, as LHAPDF 6 computes it (GridPDF's _ddx): the mean
 * of the left and right difference quotients, one-sided at the ends. v has stride nq. */
static double slope_in_log_x(const double *v, const double *log_x, size_t nx, size_t nq,
                             size_t ix) {
  if (ix == 0) return (v[nq] - v[0]) / (log_x[1] - log_x[0]);
  if (ix == nx - 1) return (v[ix * nq] - v[(ix - 1) * nq]) / (log_x[ix] - log_x[ix - 1]);
  const double left = (v[ix * nq] - v[(ix - 1) * nq]) / (log_x[ix] - log_x[ix - 1]);
  const double right = (v[(ix + 1) * nq] - v[ix * nq]) / (log_x[ix + 1] - log_x[ix]);
  return (left + right) / 2.0;
}

/* The doubles a grid of these blocks and n_slots slots takes. */
static size_t grid_size(const size_t *nx, const size_t *nq, size_t n_blocks, size_t n_slots) {
  size_t total = HG_PDF_HEADER_SIZE + HG_PDF_BLOCK_FIELDS * n_blocks;
  for (size_t b = 0; b < n_blocks; ++b) total += 2 * (nx[b] + nq[b]) + 2 * n_slots * nx[b] * nq[b];
  return total;
}

/* Writes the header and the block records (counts and offsets) of a grid. */
static void grid_write_layout(double *g, size_t total, const size_t *nx, const size_t *nq,
                              size_t n_blocks, size_t n_slots, int extrapolator) {
  memset(g, 0, HG_PDF_HEADER_SIZE * sizeof *g);
  g[0] = HG_PDF_TAG;
  g[HG_PDF_H_SLOTS] = (double)n_slots;
  g[HG_PDF_H_BLOCKS] = (double)n_blocks;
  g[HG_PDF_H_EXTRAPOLATOR] = extrapolator;
  g[HG_PDF_H_SIZE] = (double)total;
  size_t offset = HG_PDF_HEADER_SIZE + HG_PDF_BLOCK_FIELDS * n_blocks;
  for (size_t b = 0; b < n_blocks; ++b) {
    double *record = g + HG_PDF_HEADER_SIZE + HG_PDF_BLOCK_FIELDS * b;
    const size_t per_slot = n_slots * nx[b] * nq[b];
    record[HG_PDF_B_NX] = (double)nx[b];
    record[HG_PDF_B_NQ] = (double)nq[b];
    record[HG_PDF_B_X] = (double)offset;
    record[HG_PDF_B_LOG_X] = (double)(offset + nx[b]);
    record[HG_PDF_B_Q2] = (double)(offset + 2 * nx[b]);
    record[HG_PDF_B_LOG_Q2] = (double)(offset + 2 * nx[b] + nq[b]);
    record[HG_PDF_B_VALUES] = (double)(offset + 2 * (nx[b] + nq[b]));
    record[HG_PDF_B_DXF] = (double)(offset + 2 * (nx[b] + nq[b]) + per_slot);
    offset += 2 * (nx[b] + nq[b]) + 2 * per_slot;
  }
}

/* The grid of every flavour from the blocks read: knots, their logarithms (Q^2 = Q * Q, as
 * LHAPDF), values and LHAPDF's x slopes. */
static hegetcl_status grid_from_blocks(const dat_block *blocks, size_t n_blocks, size_t n_slots,
                                       int extrapolator, const char *path, double **out,
                                       size_t *n_doubles, char *message, size_t size) {
  size_t *nx = calloc(2 * n_blocks, sizeof *nx);
  if (nx == NULL) return say(message, size, HEGETCL_ERR_NO_MEMORY, "no memory");
  size_t *nq = nx + n_blocks;
  for (size_t b = 0; b < n_blocks; ++b) {
    nx[b] = blocks[b].nx;
    nq[b] = blocks[b].nq;
  }
  const size_t total = grid_size(nx, nq, n_blocks, n_slots);
  if (total > (size_t)INT_MAX) {
    free(nx);
    return say(message, size, HEGETCL_ERR_INPUT,
               "%s: the grid needs %zu doubles, more than the %d a device kernel can index", path,
               total, INT_MAX);
  }
  double *g = malloc(total * sizeof *g);
  if (g == NULL) {
    free(nx);
    return say(message, size, HEGETCL_ERR_NO_MEMORY, "no memory for the %zu doubles of %s's grid",
               total, path);
  }
  grid_write_layout(g, total, nx, nq, n_blocks, n_slots, extrapolator);
  for (size_t b = 0; b < n_blocks; ++b) {
    const dat_block *d = &blocks[b];
    const double *record = g + HG_PDF_HEADER_SIZE + HG_PDF_BLOCK_FIELDS * b;
    double *x = g + (size_t)record[HG_PDF_B_X], *log_x = g + (size_t)record[HG_PDF_B_LOG_X];
    double *q2 = g + (size_t)record[HG_PDF_B_Q2], *log_q2 = g + (size_t)record[HG_PDF_B_LOG_Q2];
    double *values = g + (size_t)record[HG_PDF_B_VALUES], *dxf = g + (size_t)record[HG_PDF_B_DXF];
    for (size_t i = 0; i < d->nx; ++i) {
      x[i] = d->x[i];
      log_x[i] = log(d->x[i]);
    }
    for (size_t i = 0; i < d->nq; ++i) {
      q2[i] = d->q[i] * d->q[i];
      log_q2[i] = log(q2[i]);
    }
    const size_t per_slot = d->nx * d->nq;
    memcpy(values, d->values, n_slots * per_slot * sizeof *values);
    for (size_t s = 0; s < n_slots; ++s)
      for (size_t ix = 0; ix < d->nx; ++ix)
        for (size_t iq = 0; iq < d->nq; ++iq)
          dxf[s * per_slot + ix * d->nq + iq] =
              slope_in_log_x(values + s * per_slot + iq, log_x, d->nx, d->nq, ix);
  }
  free(nx);
  *out = g;
  *n_doubles = total;
  return HEGETCL_OK;
}

/* ---- the public API ---- */

/* Reads the member's .dat: the header's metadata into meta, the blocks into *blocks. */
static hegetcl_status read_dat(const char *path, meta_list *meta, const int *flavours,
                               size_t n_flavours, dat_block **blocks, size_t *n_blocks,
                               char ***negative, char *message, size_t size) {
  FILE *f = fopen(path, "r");
  if (f == NULL)
    return say(message, size, HEGETCL_ERR_IO,
               "cannot open %s: the member's grid file is missing or unreadable (is the set "
               "complete? re-install it, or run `bash setup.sh`)",
               path);
  dat_reader r = {0};
  r.path = path;
  r.flavours = flavours;
  r.n_flavours = n_flavours;
  r.columns = malloc(n_flavours * sizeof *r.columns);
  r.row = malloc(n_flavours * sizeof *r.row);
  r.negative = calloc(n_flavours, sizeof *r.negative);
  hegetcl_status status = HEGETCL_OK;
  if (r.columns == NULL || r.row == NULL || r.negative == NULL)
    status = say(message, size, HEGETCL_ERR_NO_MEMORY, "no memory");
  char *line = NULL;
  size_t capacity = 0;
  int line_no = 0, in_header = 1, after_separator = 0, blank_line = 0;
  while (status == HEGETCL_OK && getline(&line, &capacity, f) >= 0) {
    ++line_no;
    if (in_header) { /* trim() keeps the leading blanks that mark a continuation line */
      if (strcmp(trim(line), "---") == 0) {
        in_header = 0;
        after_separator = 1;
        continue;
      }
      status = meta_add_line(meta, path, line_no, line, message, size);
      continue;
    }
    char *text = trim(line);
    if (text[0] == '#') continue;
    if (text[0] == '\0') {
      if (blank_line == 0) blank_line = line_no;
      continue;
    }
    if (blank_line != 0) {
      status =
          say(message, size, HEGETCL_ERR_INPUT,
              "%s:%d: a blank line inside the grid data (lhagrid1 has none)", path, blank_line);
      break;
    }
    if (strcmp(text, "---") == 0) {
      status = end_block(&r, line_no, message, size);
      r.block_line = 0;
      after_separator = 1;
      continue;
    }
    after_separator = 0;
    ++r.block_line;
    status = read_block_line(&r, line_no, text, message, size);
  }
  if (status == HEGETCL_OK && ferror(f))
    status = say(message, size, HEGETCL_ERR_IO, "reading %s failed after line %d", path, line_no);
  if (status == HEGETCL_OK && in_header)
    status =
        say(message, size, HEGETCL_ERR_INPUT,
            "%s:%d: the file ends inside its header: no '---' line before the grid", path, line_no);
  if (status == HEGETCL_OK && r.n_blocks == 0)
    status = say(message, size, HEGETCL_ERR_INPUT, "%s:%d: no grid block after the header", path,
                 line_no);
  if (status == HEGETCL_OK && !after_separator)
    status = say(message, size, HEGETCL_ERR_INPUT,
                 "%s:%d: the file ends inside block %zu: an lhagrid1 file ends with a '---' line "
                 "(truncated file?)",
                 path, line_no, r.n_blocks);
  free(line);
  fclose(f);
  free(r.columns);
  free(r.row);
  free(r.first_pids);
  if (status != HEGETCL_OK) {
    for (size_t i = 0; r.negative != NULL && i < n_flavours; ++i) free(r.negative[i]);
    free(r.negative);
    blocks_free(r.blocks, r.n_blocks);
    return status;
  }
  *negative = r.negative;
  *blocks = r.blocks;
  *n_blocks = r.n_blocks;
  return HEGETCL_OK;
}

/* Reads key as a finite real when present, else leaves *out. */
static hegetcl_status optional_double(const meta_list *meta, const char *key, double *out,
                                      char *message, size_t size) {
  const meta_entry *e = meta_find(meta, key);
  return e ? meta_double(e, out, message, size) : HEGETCL_OK;
}

/* The metadata a set needs: Format lhagrid1, SetIndex, NumMembers above member, Flavors, an
 * Extrapolator LHAPDF knows, the logcubic Interpolator. */
static hegetcl_status check_meta(const meta_list *meta, const char *info_path, int member,
                                 hegetcl_pdf *pdf, char *message, size_t size) {
  static const char *const required[] = {"Format", "SetIndex", "NumMembers", "Flavors"};
  for (size_t i = 0; i < sizeof required / sizeof required[0]; ++i)
    if (meta_find(meta, required[i]) == NULL)
      return say(message, size, HEGETCL_ERR_INPUT,
                 "%s: no %s key: every LHAPDF 6 set's .info has one (a damaged or foreign file?)",
                 info_path, required[i]);
  const meta_entry *format = meta_find(meta, "Format");
  if (strcmp(format->value, "lhagrid1") != 0)
    return say(message, size, HEGETCL_ERR_INPUT,
               "%s:%d: Format: %s, but hegetcl reads LHAPDF 6's lhagrid1 grids only", format->path,
               format->line, format->value);
  int num_members = 0;
  hegetcl_status status = meta_int(meta_find(meta, "SetIndex"), &pdf->set_index, message, size);
  if (status == HEGETCL_OK)
    status = meta_int(meta_find(meta, "NumMembers"), &num_members, message, size);
  if (status != HEGETCL_OK) return status;
  if (member >= num_members)
    return say(message, size, HEGETCL_ERR_INPUT,
               "member %d of %s does not exist: the set has NumMembers: %d (members 0 to %d)",
               member, info_path, num_members, num_members - 1);
  const meta_entry *flavors = meta_find(meta, "Flavors");
  status = meta_int_list(flavors, &pdf->flavours, &pdf->n_flavours, message, size);
  if (status != HEGETCL_OK) return status;
  for (size_t i = 0; i < pdf->n_flavours; ++i)
    for (size_t j = 0; j < i; ++j)
      if (pdf->flavours[i] == pdf->flavours[j])
        return say(message, size, HEGETCL_ERR_INPUT, "%s:%d: Flavors lists %d twice", flavors->path,
                   flavors->line, pdf->flavours[i]);
  const meta_entry *interpolator = meta_find(meta, "Interpolator");
  if (interpolator != NULL && strcmp(interpolator->value, "logcubic") != 0)
    return say(message, size, HEGETCL_ERR_INPUT,
               "%s:%d: Interpolator: %s, but hegetcl implements LHAPDF's logcubic only",
               interpolator->path, interpolator->line, interpolator->value);
  const meta_entry *extrapolator = meta_find(meta, "Extrapolator");
  pdf->extrapolator = HG_PDF_EXTRAPOLATE_CONTINUATION;
  if (extrapolator != NULL) {
    if (strcmp(extrapolator->value, "nearest") == 0)
      pdf->extrapolator = HG_PDF_EXTRAPOLATE_NEAREST;
    else if (strcmp(extrapolator->value, "error") == 0)
      pdf->extrapolator = HG_PDF_EXTRAPOLATE_ERROR;
    else if (strcmp(extrapolator->value, "continuation") != 0)
      return say(message, size, HEGETCL_ERR_INPUT,
                 "%s:%d: Extrapolator: %s is not one of LHAPDF's continuation, nearest, error",
                 extrapolator->path, extrapolator->line, extrapolator->value);
  }
  const meta_entry *description = meta_find(meta, "SetDesc");
  free(pdf->description);
  pdf->description = NULL;
  if (description != NULL) return meta_string(description, &pdf->description, message, size);
  pdf->description = copy_string("");
  return pdf->description ? HEGETCL_OK : say(message, size, HEGETCL_ERR_NO_MEMORY, "no memory");
}

hegetcl_status hegetcl_pdf_open(const char *set_name, int member, hegetcl_pdf **out, char *message,
                                size_t message_size) {
  if (out == NULL)
    return say(message, message_size, HEGETCL_ERR_INPUT, "hegetcl_pdf_open: out is NULL");
  *out = NULL;
  if (set_name == NULL || *set_name == '\0')
    return say(message, message_size, HEGETCL_ERR_INPUT,
               "hegetcl_pdf_open: no PDF set name (give one such as cteq6l1)");
  if (member < 0)
    return say(message, message_size, HEGETCL_ERR_INPUT,
               "PDF member %d of %s: members are numbered from 0", member, set_name);
  hegetcl_pdf *pdf = calloc(1, sizeof *pdf);
  if (pdf == NULL) return say(message, message_size, HEGETCL_ERR_NO_MEMORY, "no memory");
  meta_list meta = {0};
  hg_strbuf info_path = {0}, dat_path = {0};
  dat_block *blocks = NULL;
  size_t n_blocks = 0;
  char **negative = NULL;
  size_t negative_slots = 0;
  const char *name = NULL;
  hegetcl_status status = find_set(set_name, &pdf->directory, &name, message, message_size);
  if (status != HEGETCL_OK) goto fail;
  pdf->set_name = copy_string(name);
  pdf->member = member;
  hg_strbuf_printf(&info_path, "%s/%s.info", pdf->directory, name);
  hg_strbuf_printf(&dat_path, "%s/%s_%04d.dat", pdf->directory, name, member);
  if (pdf->set_name == NULL || info_path.failed || dat_path.failed) {
    status = say(message, message_size, HEGETCL_ERR_NO_MEMORY, "no memory");
    goto fail;
  }
  if (!readable(info_path.data)) {
    status = say(message, message_size, HEGETCL_ERR_IO,
                 "PDF set folder %s has no readable %s.info: give the folder of an LHAPDF 6 set, "
                 "or a set name found through LHAPDF_DATA_PATH",
                 pdf->directory, name);
    goto fail;
  }
  status = meta_read_file(&meta, info_path.data, message, message_size);
  if (status == HEGETCL_OK)
    status = check_meta(&meta, info_path.data, member, pdf, message, message_size);
  if (status == HEGETCL_OK)
    status = read_dat(dat_path.data, &meta, pdf->flavours, pdf->n_flavours, &blocks, &n_blocks,
                      &negative, message, message_size);
  if (status == HEGETCL_OK) { /* kept by slot: the flavours read are pdf's at this point */
    pdf->negative = negative;
    negative_slots = pdf->n_flavours;
  }
  /* A member header may override the .info (LHAPDF merges them): check the merged keys again. */
  if (status == HEGETCL_OK) {
    const size_t n_flavours = pdf->n_flavours;
    int *flavours = pdf->flavours;
    pdf->flavours = NULL;
    status = check_meta(&meta, info_path.data, member, pdf, message, message_size);
    if (status == HEGETCL_OK &&
        (n_flavours != pdf->n_flavours ||
         memcmp(flavours, pdf->flavours, n_flavours * sizeof *flavours) != 0))
      status = say(message, message_size, HEGETCL_ERR_INPUT,
                   "%s: its header's Flavors differ from %s's", dat_path.data, info_path.data);
    free(flavours);
  }
  if (status != HEGETCL_OK) goto fail;
  pdf->x_min = blocks[0].x[0];
  pdf->x_max = blocks[0].x[blocks[0].nx - 1];
  pdf->q_min = blocks[0].q[0];
  pdf->q_max = blocks[n_blocks - 1].q[blocks[n_blocks - 1].nq - 1];
  status = optional_double(&meta, "XMin", &pdf->x_min, message, message_size);
  if (status == HEGETCL_OK)
    status = optional_double(&meta, "XMax", &pdf->x_max, message, message_size);
  if (status == HEGETCL_OK)
    status = optional_double(&meta, "QMin", &pdf->q_min, message, message_size);
  if (status == HEGETCL_OK)
    status = optional_double(&meta, "QMax", &pdf->q_max, message, message_size);
  if (status == HEGETCL_OK)
    status = optional_double(&meta, "AlphaS_MZ", &pdf->alpha_s_mz, message, message_size);
  if (status == HEGETCL_OK)
    status = optional_double(&meta, "MZ", &pdf->mz, message, message_size);
  if (status == HEGETCL_OK)
    status = grid_from_blocks(blocks, n_blocks, pdf->n_flavours, pdf->extrapolator, dat_path.data,
                              &pdf->grid, &pdf->n_doubles, message, message_size);
  if (status != HEGETCL_OK) goto fail;
  blocks_free(blocks, n_blocks);
  meta_free(&meta);
  hg_strbuf_free(&info_path);
  hg_strbuf_free(&dat_path);
  *out = pdf;
  return HEGETCL_OK;
fail:
  blocks_free(blocks, n_blocks);
  meta_free(&meta);
  hg_strbuf_free(&info_path);
  hg_strbuf_free(&dat_path);
  for (size_t i = 0; pdf->negative != NULL && i < negative_slots; ++i) free(pdf->negative[i]);
  free(pdf->negative);
  pdf->negative = NULL; /* freed by its own count: the flavours may have changed since */
  hegetcl_pdf_close(pdf);
  return status;
}

void hegetcl_pdf_close(hegetcl_pdf *pdf) {
  if (pdf == NULL) return;
  free(pdf->set_name);
  free(pdf->directory);
  free(pdf->description);
  for (size_t i = 0; pdf->negative != NULL && i < pdf->n_flavours; ++i) free(pdf->negative[i]);
  free(pdf->negative);
  free(pdf->flavours);
  free(pdf->grid);
  free(pdf);
}

int hg_pdf_slot(const hegetcl_pdf *pdf, int pid) {
  if (pid == 0) pid = 21;
  for (size_t i = 0; i < pdf->n_flavours; ++i)
    if (pdf->flavours[i] == pid) return (int)i;
  return -1;
}

const double *hg_pdf_grid(const hegetcl_pdf *pdf, size_t *n_doubles) {
  *n_doubles = pdf->n_doubles;
  return pdf->grid;
}

void hg_pdf_grid_range(const hegetcl_pdf *pdf, double *x_min, double *x_max, double *q_min,
                       double *q_max) {
  const hg_pdf_block first = hg_pdf_block_get(pdf->grid, 0, 0);
  const hg_pdf_block last = hg_pdf_block_get(pdf->grid, (int)pdf->grid[HG_PDF_H_BLOCKS] - 1, 0);
  *x_min = first.x[0];
  *x_max = first.x[first.nx - 1];
  *q_min = sqrt(first.q2[0]);
  *q_max = sqrt(last.q2[last.nq - 1]);
}

int hg_pdf_grid_covers(const hegetcl_pdf *pdf, double x, double q) {
  int outside = 0;
  (void)hg_pdf_xfxq2(pdf->grid, 0, x, q * q, &outside);
  return !outside;
}

double hegetcl_pdf_xfxq(const hegetcl_pdf *pdf, int pid, double x, double q) {
  const int slot = hg_pdf_slot(pdf, pid);
  if (slot < 0) return 0;
  int outside = 0;
  return hg_pdf_xfxq2(pdf->grid, slot, x, q * q, &outside);
}

hegetcl_status hg_pdf_pack(const hegetcl_pdf *pdf, const int *pids, size_t n_pids, double **grid,
                           size_t *n_doubles, char *message, size_t size) {
  *grid = NULL;
  *n_doubles = 0;
  if (n_pids == 0 || n_pids > (size_t)INT_MAX)
    return say(message, size, HEGETCL_ERR_INPUT, "hg_pdf_pack: %zu flavours asked for", n_pids);
  int *source = malloc(n_pids * sizeof *source);
  if (source == NULL) return say(message, size, HEGETCL_ERR_NO_MEMORY, "no memory");
  for (size_t i = 0; i < n_pids; ++i) {
    source[i] = hg_pdf_slot(pdf, pids[i]);
    if (source[i] < 0) {
      hg_strbuf list = {0};
      for (size_t f = 0; f < pdf->n_flavours; ++f)
        hg_strbuf_printf(&list, "%s%d", f ? ", " : "", pdf->flavours[f]);
      say(message, size, HEGETCL_ERR_INPUT,
          "flavour %d is not in PDF set %s, whose flavours are %s (0 and 21 are the gluon)",
          pids[i], pdf->set_name, list.failed ? "(no memory to list them)" : list.data);
      hg_strbuf_free(&list);
      free(source);
      return HEGETCL_ERR_INPUT;
    }
    /* a negative density would make weights negative, or zero where they are clipped: say
     * where, instead of letting the run blame its cuts */
    if (pdf->negative != NULL && pdf->negative[source[i]] != NULL) {
      say(message, size, HEGETCL_ERR_INPUT,
          "PDF set %s, flavour %d: %s is negative; hegetcl's q qbar weights need x f >= 0 at "
          "every knot of the flavours a run uses: use a set (or member) whose quark densities "
          "are not negative",
          pdf->set_name, pids[i], pdf->negative[source[i]]);
      free(source);
      return HEGETCL_ERR_INPUT;
    }
  }
  const double *from = pdf->grid;
  const size_t n_blocks = (size_t)from[HG_PDF_H_BLOCKS];
  size_t *nx = calloc(2 * n_blocks, sizeof *nx);
  if (nx == NULL) {
    free(source);
    return say(message, size, HEGETCL_ERR_NO_MEMORY, "no memory");
  }
  size_t *nq = nx + n_blocks;
  for (size_t b = 0; b < n_blocks; ++b) {
    nx[b] = (size_t)hg_pdf_field(from, (int)b, HG_PDF_B_NX);
    nq[b] = (size_t)hg_pdf_field(from, (int)b, HG_PDF_B_NQ);
  }
  const size_t total = grid_size(nx, nq, n_blocks, n_pids);
  double *g = total <= (size_t)INT_MAX ? malloc(total * sizeof *g) : NULL;
  if (g == NULL) {
    free(nx);
    free(source);
    return say(message, size, total <= (size_t)INT_MAX ? HEGETCL_ERR_NO_MEMORY : HEGETCL_ERR_INPUT,
               "no room for a grid of %zu doubles (%zu flavours of %s)", total, n_pids,
               pdf->set_name);
  }
  grid_write_layout(g, total, nx, nq, n_blocks, n_pids, (int)from[HG_PDF_H_EXTRAPOLATOR]);
  for (size_t b = 0; b < n_blocks; ++b) {
    const int block = (int)b;
    const size_t per_slot = nx[b] * nq[b];
    memcpy(g + hg_pdf_field(g, block, HG_PDF_B_X), from + hg_pdf_field(from, block, HG_PDF_B_X),
           2 * (nx[b] + nq[b]) * sizeof *g); /* x, log x, Q^2, log Q^2 lie together */
    for (size_t s = 0; s < n_pids; ++s) {
      const size_t source_offset = (size_t)source[s] * per_slot;
      memcpy(g + hg_pdf_field(g, block, HG_PDF_B_VALUES) + s * per_slot,
             from + hg_pdf_field(from, block, HG_PDF_B_VALUES) + source_offset,
             per_slot * sizeof *g);
      memcpy(g + hg_pdf_field(g, block, HG_PDF_B_DXF) + s * per_slot,
             from + hg_pdf_field(from, block, HG_PDF_B_DXF) + source_offset, per_slot * sizeof *g);
    }
  }
  free(nx);
  free(source);
  *grid = g;
  *n_doubles = total;
  return HEGETCL_OK;
}

int hegetcl_pdf_set_index(const hegetcl_pdf *pdf) { return pdf->set_index; }
int hegetcl_pdf_lhapdf_id(const hegetcl_pdf *pdf) { return pdf->set_index + pdf->member; }

double hegetcl_pdf_alpha_s_one_loop(const hegetcl_pdf *pdf, double q) {
  if (!(pdf->alpha_s_mz > 0.0) || !(pdf->mz > 0.0) || !(q > 0.0)) return -1.0;
  const double beta0 = (33.0 - 2.0 * 5.0) / (12.0 * 3.14159265358979323846);
  return pdf->alpha_s_mz / (1.0 + pdf->alpha_s_mz * beta0 * log(q * q / (pdf->mz * pdf->mz)));
}
double hg_pdf_alpha_s_mz(const hegetcl_pdf *pdf) {
  return pdf->alpha_s_mz > 0.0 ? pdf->alpha_s_mz : 0.0;
}
const char *hegetcl_pdf_set_name(const hegetcl_pdf *pdf) { return pdf->set_name; }
int hegetcl_pdf_member(const hegetcl_pdf *pdf) { return pdf->member; }
const char *hegetcl_pdf_directory(const hegetcl_pdf *pdf) { return pdf->directory; }
const char *hegetcl_pdf_description(const hegetcl_pdf *pdf) { return pdf->description; }

const int *hegetcl_pdf_flavours(const hegetcl_pdf *pdf, size_t *count) {
  *count = pdf->n_flavours;
  return pdf->flavours;
}

void hegetcl_pdf_x_range(const hegetcl_pdf *pdf, double *x_min, double *x_max) {
  *x_min = pdf->x_min;
  *x_max = pdf->x_max;
}

void hegetcl_pdf_q_range(const hegetcl_pdf *pdf, double *q_min, double *q_max) {
  *q_min = pdf->q_min;
  *q_max = pdf->q_max;
}

const char *hegetcl_pdf_extrapolator(const hegetcl_pdf *pdf) {
  return pdf->extrapolator == HG_PDF_EXTRAPOLATE_NEAREST ? "nearest"
         : pdf->extrapolator == HG_PDF_EXTRAPOLATE_ERROR ? "error"
                                                         : "continuation";
}

/* ---- .info entries for other modules ---- */

struct hg_pdf_info {
  char *path;
  meta_list meta;
};

hegetcl_status hg_pdf_info_open(const char *info_path, hg_pdf_info **out, char *message,
                                size_t size) {
  *out = NULL;
  hg_pdf_info *info = calloc(1, sizeof *info);
  if (info == NULL || (info->path = copy_string(info_path)) == NULL) {
    free(info);
    return say(message, size, HEGETCL_ERR_NO_MEMORY, "no memory to read %s", info_path);
  }
  const hegetcl_status status = meta_read_file(&info->meta, info->path, message, size);
  if (status != HEGETCL_OK) {
    hg_pdf_info_close(info);
    return status;
  }
  *out = info;
  return HEGETCL_OK;
}

void hg_pdf_info_close(hg_pdf_info *info) {
  if (info == NULL) return;
  meta_free(&info->meta);
  free(info->path);
  free(info);
}

int hg_pdf_info_double(const hg_pdf_info *info, const char *key, double *out, char *message,
                       size_t size) {
  const meta_entry *e = meta_find(&info->meta, key);
  if (e == NULL) return 0;
  return meta_double(e, out, message, size) == HEGETCL_OK ? 1 : -1;
}

int hg_pdf_info_string(const hg_pdf_info *info, const char *key, char **out, char *message,
                       size_t size) {
  const meta_entry *e = meta_find(&info->meta, key);
  if (e == NULL) return 0;
  return meta_string(e, out, message, size) == HEGETCL_OK ? 1 : -1;
}

int hg_pdf_info_reals(const hg_pdf_info *info, const char *key, double **out, size_t *count,
                      char *message, size_t size) {
  const meta_entry *e = meta_find(&info->meta, key);
  if (e == NULL) return 0;
  const char *v = e->value;
  const size_t n = strlen(v);
  if (n < 2 || v[0] != '[' || v[n - 1] != ']') {
    say(message, size, HEGETCL_ERR_INPUT, "%s:%d: %s: '%s' is not a list like [1.3, 2.5]", e->path,
        e->line, e->key, v);
    return -1;
  }
  char *inner = malloc(n);
  if (inner == NULL) {
    say(message, size, HEGETCL_ERR_NO_MEMORY, "no memory to read %s", e->path);
    return -1;
  }
  for (size_t i = 1; i + 1 < n; ++i) inner[i - 1] = v[i] == ',' ? ' ' : v[i];
  inner[n - 2] = '\0';
  const hegetcl_status status =
      parse_reals(e->path, e->line, e->key, inner, out, count, message, size);
  free(inner);
  return status == HEGETCL_OK ? 1 : -1;
}

void hg_pdf_info_where(const hg_pdf_info *info, const char *key, char *out, size_t size) {
  const meta_entry *e = meta_find(&info->meta, key);
  if (e == NULL)
    snprintf(out, size, "%s", "");
  else
    snprintf(out, size, "%s:%d", e->path, e->line);
}
