/* SPDX-License-Identifier: MIT */
/* Program sources, build options, builds with their logs, and the per-context program cache
 * (the on-disk cache of binaries across processes is program_cache.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "embedded.h"
#include "program.h"
#include "program_cache.h"
#include "strbuf.h"

hegetcl_status hg_build_options(hegetcl_context *ctx, hegetcl_precision precision,
                                unsigned n_photons, char *buf, size_t size) {
  const int is_double = precision == HEGETCL_PRECISION_DOUBLE;
  if (is_double && !ctx->info.has_fp64)
    return hg_fail(ctx, HEGETCL_ERR_UNSUPPORTED,
                   "double precision was asked for, but %s does not offer cl_khr_fp64: use "
                   "--precision float or another --device",
                   ctx->info.name);
  const char *werror = getenv("HEGETCL_WERROR");
  const char *dir = getenv("HEGETCL_CL_DIR");
  const char *extra = getenv("HEGETCL_CL_OPTIONS"); /* vendor options, e.g. a register cap */
  const int n = snprintf(buf, size, "-cl-std=CL1.2 -D REAL=%s -D REAL_IS_DOUBLE=%d -D N_PHOTONS=%u%s%s%s%s%s%s",
                         is_double ? "double" : "float", is_double, n_photons,
                         is_double ? "" : " -cl-single-precision-constant",
                         werror != NULL && strcmp(werror, "1") == 0 ? " -Werror" : "",
                         dir != NULL && dir[0] ? " -I " : "", dir != NULL ? dir : "",
                         extra != NULL && extra[0] ? " " : "", extra != NULL ? extra : "");
  if (n < 0 || (size_t)n >= size)
    return hg_fail(ctx, HEGETCL_ERR_INPUT, "build options do not fit in %zu bytes", size);
  return HEGETCL_OK;
}

static const hg_embedded_file *find_embedded(const char *path) {
  for (size_t i = 0; i < hg_embedded_count; ++i)
    if (strcmp(hg_embedded_files[i].path, path) == 0) return &hg_embedded_files[i];
  return NULL;
}

/* The context cache's key: the options, then each part's cl/ file, or a generated part's FNV-1a
 * 64 (keyed without keeping the text). */
static char *make_key(const hg_source_part *parts, size_t n_parts, const char *options) {
  size_t size = strlen(options) + 1;
  for (size_t i = 0; i < n_parts; ++i)
    size += (parts[i].cl_file ? strlen(parts[i].cl_file) : 20) + 2;
  char *key = malloc(size);
  if (key == NULL) return NULL;
  size_t used = (size_t)snprintf(key, size, "%s", options);
  for (size_t i = 0; i < n_parts; ++i) {
    if (parts[i].cl_file)
      used += (size_t)snprintf(key + used, size - used, "|%s", parts[i].cl_file);
    else
      used += (size_t)snprintf(
          key + used, size - used, "|%016llx",
          (unsigned long long)hg_fnv1a64(parts[i].generated, strlen(parts[i].generated)));
  }
  return key;
}

/* The file and line that line `line` (1-based) of the concatenated sources came from, following
 * the #line directives embed_cl.py and the code generator insert. */
static void source_position(const char *const *strings, const size_t *lengths, size_t n_parts,
                            unsigned long line, char *out, size_t size) {
  unsigned long current = 1, file_line = 1;
  char file[256] = "(source)";
  for (size_t part = 0; part < n_parts; ++part) {
    const char *text = strings[part];
    for (size_t i = 0; i < lengths[part];) {
      const char *end = memchr(text + i, '\n', lengths[part] - i);
      const size_t stop = end != NULL ? (size_t)(end - text) : lengths[part];
      if (current == line) {
        snprintf(out, size, "%s:%lu", file, file_line);
        return;
      }
      unsigned long directive = 0;
      char name[256];
      if (sscanf(text + i, "#line %lu \"%255[^\"]\"", &directive, name) == 2 && directive > 0) {
        file_line = directive;
        snprintf(file, sizeof file, "%s", name);
      } else {
        ++file_line;
      }
      ++current;
      i = stop + 1;
    }
  }
  snprintf(out, size, "line %lu", line);
}

char *hg_annotate_build_log(const char *log, const char *const *strings, const size_t *lengths,
                          size_t n_parts) {
  static const char tag[] = "<kernel>:";
  hg_strbuf out = {0};
  const char *at = log;
  for (;;) {
    const char *hit = strstr(at, tag);
    if (hit == NULL) break;
    char *after = NULL;
    const unsigned long line = strtoul(hit + sizeof tag - 1, &after, 10);
    hg_strbuf_printf(&out, "%.*s", (int)(after - at), at);
    if (after != hit + sizeof tag - 1) {
      char where[300];
      source_position(strings, lengths, n_parts, line, where, sizeof where);
      hg_strbuf_printf(&out, " [%s]", where);
    }
    at = after;
  }
  hg_strbuf_printf(&out, "%s", at);
  return out.failed ? NULL : out.data;
}

/* Reads the build log (its size first, then exactly that many bytes) into a new string. */
static char *build_log(hegetcl_context *ctx, cl_program program) {
  size_t size = 0;
  if (clGetProgramBuildInfo(program, ctx->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) !=
          CL_SUCCESS ||
      size == 0)
    return NULL;
  char *log = malloc(size);
  if (log == NULL) return NULL;
  if (clGetProgramBuildInfo(program, ctx->device, CL_PROGRAM_BUILD_LOG, size, log, NULL) !=
      CL_SUCCESS) {
    free(log);
    return NULL;
  }
  log[size - 1] = '\0';
  return log;
}

/* What to do about a failed build: the user's own options or sources first, else a bug. */
static void build_fix(char *out, size_t size, int user_source) {
  if (user_source) { /* hegetcl_user_program_build: one generated part, the user's text */
    snprintf(out, size, "fix the user program at the lines the log names");
    return;
  }
  const char *extra = getenv("HEGETCL_CL_OPTIONS"), *dir = getenv("HEGETCL_CL_DIR");
  const int has_extra = extra != NULL && extra[0] != '\0', has_dir = dir != NULL && dir[0] != '\0';
  if (has_extra && has_dir)
    snprintf(out, size,
             "HEGETCL_CL_OPTIONS='%s' adds options and HEGETCL_CL_DIR=%s gives the sources: "
             "check them, or unset both for the embedded sources and options",
             extra, dir);
  else if (has_extra)
    snprintf(out, size,
             "HEGETCL_CL_OPTIONS='%s' adds options to every build: check them, or unset it", extra);
  else if (has_dir)
    snprintf(out, size,
             "the sources come from HEGETCL_CL_DIR=%s: fix the file the log names, or unset it "
             "for the embedded sources",
             dir);
  else
    snprintf(out, size,
             "hegetcl's own sources failed on this device's compiler: please report it with "
             "this whole message");
}

static hegetcl_status build(hegetcl_context *ctx, const hg_source_part *parts, size_t n_parts,
                            const char *options, cl_program *out) {
  const char **strings = calloc(n_parts, sizeof *strings);
  size_t *lengths = calloc(n_parts, sizeof *lengths);
  char **includes = calloc(n_parts, sizeof *includes);
  char files[1024] = "";
  hegetcl_status status = HEGETCL_OK;
  cl_program program = NULL;
  hg_program_cache_entry entry = {0};
  int on_disk = 0;
  const int show_log = hg_build_log_wanted();
  if (strings == NULL || lengths == NULL || includes == NULL) {
    status = hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for program sources");
    goto fail;
  }
  const char *dir = getenv("HEGETCL_CL_DIR");
  const int from_dir = dir != NULL && dir[0] != '\0';
  for (size_t i = 0; i < n_parts; ++i) {
    const size_t used = strlen(files);
    snprintf(files + used, sizeof files - used, "%s%s", used ? ", " : "",
             parts[i].cl_file ? parts[i].cl_file : "(generated source)");
    if (parts[i].generated != NULL) {
      strings[i] = parts[i].generated;
      lengths[i] = strlen(parts[i].generated);
    } else if (from_dir) {
      const size_t size = strlen(parts[i].cl_file) + 16;
      includes[i] = malloc(size);
      if (includes[i] == NULL) {
        status = hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for program sources");
        goto fail;
      }
      snprintf(includes[i], size, "#include \"%s\"\n", parts[i].cl_file);
      strings[i] = includes[i];
      lengths[i] = strlen(includes[i]);
    } else {
      const hg_embedded_file *file = find_embedded(parts[i].cl_file);
      if (file == NULL) {
        status = hg_fail(ctx, HEGETCL_ERR_INPUT,
                         "cl/%s is not among the embedded sources: add it to the embed list in "
                         "meson.build, or set HEGETCL_CL_DIR to the cl/ folder",
                         parts[i].cl_file);
        goto fail;
      }
      strings[i] = (const char *)file->data;
      lengths[i] = file->size;
    }
  }
  const char *why = NULL;
  on_disk = hg_program_cache_entry_make(ctx, strings, lengths, n_parts, options, &entry, &why);
  if (!on_disk && show_log)
    fprintf(stderr, "hegetcl: program cache: not used for %s: %s\n", files, why);
  if (on_disk) {
    program = hg_program_cache_load(ctx, &entry, options);
    if (program != NULL) {
      if (show_log) /* a binary's build leaves no compiler log worth reading */
        fprintf(stderr,
                "hegetcl: program of %s with '%s' on %s loaded from the disk cache %s (no "
                "compiler log: HEGETCL_PROGRAM_CACHE=off builds from source)\n",
                files, options, ctx->info.name, entry.path);
      *out = program;
      program = NULL;
      goto fail; /* not a failure: status is HEGETCL_OK, and the cleanup is the same */
    }
  }
  cl_int err = CL_SUCCESS;
  program = clCreateProgramWithSource(ctx->context, (cl_uint)n_parts, strings, lengths, &err);
  status = hg_cl_check(ctx, err, "clCreateProgramWithSource", "for %s", files);
  if (status != HEGETCL_OK) goto fail;
  err = clBuildProgram(program, 1, &ctx->device, options, NULL, NULL);
  if (err != CL_SUCCESS) {
    char *raw = build_log(ctx, program);
    char *log = raw != NULL ? hg_annotate_build_log(raw, strings, lengths, n_parts) : NULL;
    if (log == NULL) {
      log = raw;
      raw = NULL;
    }
    free(raw);
    if (log != NULL) { /* the message ends with the log's last line, not an empty one */
      size_t n = strlen(log);
      while (n > 0 && (log[n - 1] == '\n' || log[n - 1] == ' ' || log[n - 1] == '\r')) --n;
      log[n] = '\0';
    }
    char fix[600];
    build_fix(fix, sizeof fix, n_parts == 1 && parts[0].cl_file == NULL);
    /* CL_INVALID_BUILD_OPTIONS is a build that failed as well: its log names the option */
    const int failed_build = err == CL_BUILD_PROGRAM_FAILURE || err == CL_INVALID_BUILD_OPTIONS;
    status = hg_fail(ctx, failed_build ? HEGETCL_ERR_PROGRAM_BUILD : HEGETCL_ERR_OPENCL,
                     "clBuildProgram: %s (%d) building %s with options '%s' on %s; %s; compiler "
                     "log:\n%s",
                     hg_cl_error_name(err) ? hg_cl_error_name(err) : "unknown OpenCL error",
                     (int)err, files, options, ctx->info.name, fix,
                     log != NULL && log[0] != '\0' ? log : "(the compiler left no log)");
    free(log);
    goto fail;
  }
  /* studies: HEGETCL_BUILD_LOG=1 prints a successful build's log to stderr (with
   * HEGETCL_CL_OPTIONS=-cl-nv-verbose NVIDIA's gives each kernel's registers and spills) */
  if (show_log) {
    char *log = build_log(ctx, program);
    fprintf(stderr, "hegetcl: build log of %s with '%s' on %s:\n%s\n", files, options,
            ctx->info.name, log != NULL ? log : "(none)");
    free(log);
  }
  if (on_disk) hg_program_cache_store(ctx, &entry, program); /* only a build that succeeded */
  *out = program;
  program = NULL;
fail:
  hg_program_cache_entry_free(&entry);
  if (program != NULL) clReleaseProgram(program);
  for (size_t i = 0; includes != NULL && i < n_parts; ++i) free(includes[i]);
  free(includes);
  free(lengths);
  free(strings);
  return status;
}

int hg_build_log_wanted(void) {
  const char *show = getenv("HEGETCL_BUILD_LOG");
  return show != NULL && strcmp(show, "1") == 0;
}

/* The index of key in ctx's list, or ctx->n_programs (call with ctx->lock held). An entry whose
 * program is NULL is being built by another thread. */
static size_t find_program(const hegetcl_context *ctx, const char *key) {
  size_t i = 0;
  while (i < ctx->n_programs && strcmp(ctx->programs[i].key, key) != 0) ++i;
  return i;
}

hegetcl_status hg_program_get(hegetcl_context *ctx, const hg_source_part *parts, size_t n_parts,
                              const char *options, cl_program *out, double *build_seconds) {
  if (build_seconds != NULL) *build_seconds = 0;
  char *key = make_key(parts, n_parts, options);
  if (key == NULL) return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for a program key");
  pthread_mutex_lock(&ctx->lock);
  size_t i = find_program(ctx, key);
  /* another thread builds it: wait for its program (or, if that build failed, build it here) */
  while (i < ctx->n_programs && ctx->programs[i].program == NULL) {
    pthread_cond_wait(&ctx->built, &ctx->lock);
    i = find_program(ctx, key);
  }
  if (i < ctx->n_programs) {
    *out = ctx->programs[i].program;
    pthread_mutex_unlock(&ctx->lock);
    free(key);
    return HEGETCL_OK;
  }
  /* claim it (program NULL: being built), then build outside the lock so that other threads
   * build theirs meanwhile */
  if (ctx->n_programs == ctx->programs_capacity) {
    const size_t capacity = ctx->programs_capacity ? 2 * ctx->programs_capacity : 8;
    hg_program_entry *grown = realloc(ctx->programs, capacity * sizeof *grown);
    if (grown == NULL) {
      pthread_mutex_unlock(&ctx->lock);
      free(key);
      return hg_fail(ctx, HEGETCL_ERR_NO_MEMORY, "no memory for the program cache");
    }
    ctx->programs = grown;
    ctx->programs_capacity = capacity;
  }
  ctx->programs[ctx->n_programs++] = (hg_program_entry){key, NULL, 0.0};
  pthread_mutex_unlock(&ctx->lock);
  const double start = hg_now_seconds();
  cl_program program = NULL;
  const hegetcl_status status = build(ctx, parts, n_parts, options, &program);
  const double seconds = hg_now_seconds() - start;
  if (status == HEGETCL_OK && hg_build_log_wanted()) /* studies: where the build time goes */
    fprintf(stderr, "hegetcl: program of %s (and %zu more parts) ready in %.3f s\n",
            parts[n_parts - 1].cl_file ? parts[n_parts - 1].cl_file : "generated source",
            n_parts - 1, seconds);
  pthread_mutex_lock(&ctx->lock);
  i = find_program(ctx, key);
  if (status == HEGETCL_OK) {
    ctx->programs[i].program = program;
    ctx->programs[i].build_seconds = seconds;
  } else { /* unclaimed: a waiting thread tries itself (and reports its own failure) */
    free(ctx->programs[i].key);
    memmove(&ctx->programs[i], &ctx->programs[i + 1],
            (ctx->n_programs - i - 1) * sizeof *ctx->programs);
    --ctx->n_programs;
  }
  pthread_cond_broadcast(&ctx->built);
  pthread_mutex_unlock(&ctx->lock);
  if (status != HEGETCL_OK) return status;
  if (build_seconds != NULL) *build_seconds = seconds;
  *out = program;
  return HEGETCL_OK;
}

hegetcl_status hg_kernel_create(hegetcl_context *ctx, cl_program program, const char *name,
                                cl_kernel *out) {
  cl_int err = CL_SUCCESS;
  *out = clCreateKernel(program, name, &err);
  return hg_cl_check(ctx, err, "clCreateKernel", "creating kernel %s", name);
}
