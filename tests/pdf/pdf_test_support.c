/* SPDX-License-Identifier: MIT */
/* What the PDF tests share: their own minimal lhagrid1 reader, temporary sets, subgrid copies. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pdf_test_support.h"

/* Appends the numbers of one line to a new array. */
static double *numbers_of(char *line, size_t *count) {
  size_t capacity = 16;
  double *v = malloc(capacity * sizeof *v);
  *count = 0;
  char *p = line, *end = NULL;
  while (v != NULL) {
    const double d = strtod(p, &end);
    if (end == p) break;
    if (*count == capacity) {
      capacity *= 2;
      double *grown = realloc(v, capacity * sizeof *v);
      if (grown == NULL) {
        free(v);
        return NULL;
      }
      v = grown;
    }
    v[(*count)++] = d;
    p = end;
  }
  return v;
}

int pt_grid_read(const char *path, pt_grid *out) {
  memset(out, 0, sizeof *out);
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    fprintf(stderr, "pt_grid_read: cannot open %s\n", path);
    return 0;
  }
  char *line = NULL;
  size_t capacity = 0, row = 0, n_pids = 0;
  int part = 0, ok = 1; /* 0 header, 1 x, 2 Q, 3 flavours, 4 values, 5 done */
  double *pids = NULL;
  while (ok && part < 5 && getline(&line, &capacity, f) >= 0) {
    if (line[0] == '#') continue;
    if (strncmp(line, "---", 3) == 0) {
      part = part == 0 ? 1 : 5;
      continue;
    }
    if (part == 0) continue;
    if (part == 1) {
      out->x = numbers_of(line, &out->nx);
    } else if (part == 2) {
      out->q = numbers_of(line, &out->nq);
    } else if (part == 3) {
      pids = numbers_of(line, &n_pids);
      out->n_flavours = n_pids;
      out->pids = malloc(n_pids * sizeof *out->pids);
      out->values = malloc(out->nx * out->nq * n_pids * sizeof *out->values);
      ok = pids && out->pids && out->values && out->x && out->q;
      for (size_t i = 0; ok && i < n_pids; ++i) out->pids[i] = (int)pids[i];
    } else {
      size_t n = 0;
      double *v = numbers_of(line, &n);
      ok = v != NULL && n == n_pids && row < out->nx * out->nq;
      if (ok) memcpy(out->values + row * n_pids, v, n * sizeof *v);
      free(v);
      ++row;
      continue;
    }
    ++part;
  }
  free(line);
  free(pids);
  fclose(f);
  if (!ok || part != 5 || row != out->nx * out->nq) {
    fprintf(stderr, "pt_grid_read: %s is not a single-block lhagrid1 file (read %zu rows)\n", path,
            row);
    pt_grid_free(out);
    return 0;
  }
  return 1;
}

void pt_grid_free(pt_grid *g) {
  free(g->x);
  free(g->q);
  free(g->values);
  free(g->pids);
  memset(g, 0, sizeof *g);
}

int pt_pdfsets_dir(char *buf, size_t size) {
  const char *path = getenv("LHAPDF_DATA_PATH");
  if (path == NULL || *path == '\0') {
    fprintf(stderr, "LHAPDF_DATA_PATH is unset: run the tests through meson test, which sets it\n");
    return 0;
  }
  snprintf(buf, size, "%.*s", (int)strcspn(path, ":"), path);
  return 1;
}

int pt_make_temp_dir(char *buf, size_t size) {
  const char *tmp = getenv("TMPDIR");
  snprintf(buf, size, "%s/hegetcl-pdf-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  return mkdtemp(buf) != NULL;
}

void pt_remove_tree(const char *path) {
  DIR *dir = opendir(path);
  if (dir != NULL) {
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
      if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
      char child[4096];
      snprintf(child, sizeof child, "%s/%s", path, entry->d_name);
      struct stat st;
      if (lstat(child, &st) == 0 && S_ISDIR(st.st_mode))
        pt_remove_tree(child);
      else
        unlink(child);
    }
    closedir(dir);
  }
  rmdir(path);
}

int pt_write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (f == NULL) return 0;
  const int ok = fputs(text, f) >= 0;
  return fclose(f) == 0 && ok;
}

char *pt_read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  char *text = NULL;
  if (fseek(f, 0, SEEK_END) == 0) {
    const long n = ftell(f);
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (text = malloc((size_t)n + 1)) != NULL) {
      if (fread(text, 1, (size_t)n, f) == (size_t)n) {
        text[n] = '\0';
      } else {
        free(text);
        text = NULL;
      }
    }
  }
  fclose(f);
  return text;
}

int pt_write_split_set(const char *dir, const char *name, const char *info_text, const pt_grid *g,
                       const size_t *cuts, size_t n_cuts, double boundary_scale) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  if (mkdir(path, 0700) != 0) return 0;
  snprintf(path, sizeof path, "%s/%s/%s.info", dir, name, name);
  if (!pt_write_text(path, info_text)) return 0;
  snprintf(path, sizeof path, "%s/%s/%s_0000.dat", dir, name, name);
  FILE *f = fopen(path, "w");
  if (f == NULL) return 0;
  fprintf(f, "PdfType: central\nFormat: lhagrid1\n---\n");
  for (size_t b = 0; b <= n_cuts; ++b) {
    const size_t q_first = b == 0 ? 0 : cuts[b - 1], q_last = b == n_cuts ? g->nq - 1 : cuts[b];
    for (size_t ix = 0; ix < g->nx; ++ix) fprintf(f, "%s%.17g", ix ? " " : "", g->x[ix]);
    fprintf(f, "\n");
    for (size_t iq = q_first; iq <= q_last; ++iq)
      fprintf(f, "%s%.17g", iq > q_first ? " " : "", g->q[iq]);
    fprintf(f, "\n");
    for (size_t i = 0; i < g->n_flavours; ++i) fprintf(f, "%s%d", i ? " " : "", g->pids[i]);
    fprintf(f, "\n");
    for (size_t ix = 0; ix < g->nx; ++ix)
      for (size_t iq = q_first; iq <= q_last; ++iq) {
        const double scale = b > 0 && iq == q_first ? boundary_scale : 1.0;
        for (size_t i = 0; i < g->n_flavours; ++i)
          fprintf(f, "%s%.17g", i ? " " : "",
                  scale * g->values[(ix * g->nq + iq) * g->n_flavours + i]);
        fprintf(f, "\n");
      }
    fprintf(f, "---\n");
  }
  return fclose(f) == 0;
}
