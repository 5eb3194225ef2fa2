/* SPDX-License-Identifier: MIT */
/* Users' own OpenCL C built with the HEGET headers inlined from the embedded sources. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "embedded.h"
#include "hegetcl/user_program.h"
#include "program.h"
#include "strbuf.h"

/* The embedded text of a kernel header a user may include ("helas/ffv.cl"), or NULL. */
static const hg_embedded_file *find_header(const char *path, size_t length) {
  for (size_t i = 0; i < hg_embedded_count; ++i)
    if (strlen(hg_embedded_files[i].path) == length &&
        strncmp(hg_embedded_files[i].path, path, length) == 0)
      return &hg_embedded_files[i];
  return NULL;
}

/* source with every `#include "X"` of an embedded file replaced by its text (include guards make
 * repeats harmless), and #line directives so that compiler messages name the user's file. */
static char *inline_headers(const char *source, const char *name) {
  hg_strbuf out = {0};
  hg_strbuf_printf(&out, "#line 1 \"%s\"\n", name);
  unsigned long line = 1;
  for (const char *at = source; *at != '\0'; ++line) {
    const char *end = strchr(at, '\n');
    const size_t length = end != NULL ? (size_t)(end - at) : strlen(at);
    const char *p = at;
    while (p < at + length && (*p == ' ' || *p == '\t')) ++p;
    const hg_embedded_file *header = NULL;
    if (p < at + length && *p == '#') {
      ++p;
      while (p < at + length && (*p == ' ' || *p == '\t')) ++p;
      if ((size_t)(at + length - p) > 9 && strncmp(p, "include", 7) == 0) {
        p += 7;
        while (p < at + length && (*p == ' ' || *p == '\t')) ++p;
        const char *close = *p == '"' ? memchr(p + 1, '"', (size_t)(at + length - p - 1)) : NULL;
        if (close != NULL) header = find_header(p + 1, (size_t)(close - p - 1));
      }
    }
    if (header != NULL)
      hg_strbuf_printf(&out, "%.*s\n#line %lu \"%s\"\n", (int)header->size,
                       (const char *)header->data, line + 1, name);
    else
      hg_strbuf_printf(&out, "%.*s\n", (int)length, at);
    at += length + (end != NULL);
  }
  return out.failed ? NULL : out.data;
}

hegetcl_status hegetcl_user_program_build(hegetcl_context *ctx, const char *source,
                                          const char *name, hegetcl_precision precision,
                                          const char *options, cl_program *out) {
  if (ctx == NULL || ctx->context == NULL || out == NULL) return HEGETCL_ERR_INPUT;
  *out = NULL;
  if (source == NULL) return hg_fail(ctx, HEGETCL_ERR_INPUT, "the user program's source is NULL");
  if (name == NULL || name[0] == '\0') name = "user source";
  if (strchr(name, '"') != NULL || strchr(name, '\n') != NULL)
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "the source name '%s' holds a quote or a newline: #line cannot carry it", name);
  char base[512], all[2048];
  hegetcl_status status = hg_build_options(ctx, precision, 0, base, sizeof base);
  if (status != HEGETCL_OK) return status;
  /* the process size is the library's business, not the user's */
  char *photons = strstr(base, " -D N_PHOTONS=0");
  if (photons != NULL) memmove(photons, photons + 15, strlen(photons + 15) + 1);
  const int n = snprintf(all, sizeof all, "%s%s%s", base, options != NULL && options[0] ? " " : "",
                         options != NULL ? options : "");
  if (n < 0 || (size_t)n >= sizeof all)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "the user program's options are longer than %zu bytes",
                   sizeof all - sizeof base);
  char *text = inline_headers(source, name);
  if (text == NULL) return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the user program");
  const hg_source_part part = {NULL, text};
  cl_program program = NULL;
  status = hg_program_get(ctx, &part, 1, all, &program, NULL);
  free(text);
  if (status != HEGETCL_OK) return status;
  status = hg_cl_check(ctx, clRetainProgram(program), "clRetainProgram",
                       "keeping the user program %s", name);
  if (status == HEGETCL_OK) *out = program;
  return status;
}
