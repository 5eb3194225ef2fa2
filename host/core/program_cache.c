/* SPDX-License-Identifier: MIT */
/* The on-disk cache of built program binaries: key, folder, load with every check, atomic store. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hegetcl/version.h"
#include "program.h"
#include "program_cache.h"
#include "strbuf.h"

/* The first line of every cache file; a new layout gets a new number, so old files miss. */
#define HG_CACHE_MAGIC "hegetcl program cache 1\n"

void hg_fnv1a128_init(hg_fnv1a128 *h) {
  h->hi = 0x6c62272e07bb0142ull; /* the FNV-1a 128 offset basis */
  h->lo = 0x62b821756295c58dull;
}

void hg_fnv1a128_add(hg_fnv1a128 *h, const void *data, size_t size) {
  const unsigned char *bytes = data;
  uint64_t hi = h->hi, lo = h->lo;
  for (size_t i = 0; i < size; ++i) {
    lo ^= bytes[i];
    /* h * (2^88 + 0x13b) mod 2^128 in two 64-bit halves: lo * 0x13b carries into hi through
     * its 32-bit halves; h << 88 adds lo << 24 to hi */
    const uint64_t a = (lo & 0xffffffffu) * 0x13bu, b = (lo >> 32) * 0x13bu;
    const uint64_t mid = (a >> 32) + (b & 0xffffffffu);
    const uint64_t new_lo = (mid << 32) | (a & 0xffffffffu);
    hi = hi * 0x13bu + (b >> 32) + (mid >> 32) + (lo << 24);
    lo = new_lo;
  }
  h->hi = hi;
  h->lo = lo;
}

void hg_fnv1a128_hex(const hg_fnv1a128 *h, char out[33]) {
  snprintf(out, 33, "%016llx%016llx", (unsigned long long)h->hi, (unsigned long long)h->lo);
}

/* On a binary it tells a damaged file from a good one, not one program from another (the header
 * does that), and is faster than the 128-bit one on binaries of many megabytes. */
uint64_t hg_fnv1a64(const void *data, size_t size) {
  const unsigned char *bytes = data;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < size; ++i) h = (h ^ bytes[i]) * 1099511628211ull;
  return h;
}

/* With HEGETCL_BUILD_LOG=1 (hg_build_log_wanted): one line on stderr. */
static void note(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static void note(const char *fmt, ...) {
  if (!hg_build_log_wanted()) return;
  va_list ap;
  va_start(ap, fmt);
  fputs("hegetcl: program cache: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

/* The cache folder (a new string), or NULL with *why when the disk cache is off. */
static char *cache_folder(const char **why) {
  const char *chosen = getenv("HEGETCL_PROGRAM_CACHE");
  hg_strbuf folder = {0};
  if (chosen != NULL && strcmp(chosen, "off") == 0) {
    *why = "HEGETCL_PROGRAM_CACHE=off";
    return NULL;
  }
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  if (chosen != NULL && chosen[0] != '\0')
    hg_strbuf_printf(&folder, "%s", chosen);
  else if (xdg != NULL && xdg[0] != '\0')
    hg_strbuf_printf(&folder, "%s/hegetcl/programs", xdg);
  else if (home != NULL && home[0] != '\0')
    hg_strbuf_printf(&folder, "%s/.cache/hegetcl/programs", home);
  else {
    *why = "neither HEGETCL_PROGRAM_CACHE, XDG_CACHE_HOME nor HOME names a folder";
    return NULL;
  }
  if (folder.failed) *why = "no memory for the cache folder's name";
  return folder.failed ? NULL : folder.data;
}

/* Whether the compiler may read a file the key does not see: an -I option, or a line
 * `#include "file"` (embed_cl.py and the user-program path inline every file they know; an
 * `#include <...>` needs an -I folder to find anything, portable.h's host-only ones included). */
static const char *reads_other_files(const char *const *strings, const size_t *lengths,
                                     size_t n_parts, const char *options) {
  for (const char *at = strstr(options, "-I"); at != NULL; at = strstr(at + 2, "-I"))
    if (at == options || at[-1] == ' ' || at[-1] == '\t')
      return "the options name an include folder (-I), whose files the key cannot see";
  for (size_t part = 0; part < n_parts; ++part) {
    const char *text = strings[part];
    const size_t size = lengths[part];
    for (size_t i = 0; i < size;) {
      size_t j = i;
      while (j < size && (text[j] == ' ' || text[j] == '\t')) ++j;
      if (j < size && text[j] == '#') {
        ++j;
        while (j < size && (text[j] == ' ' || text[j] == '\t')) ++j;
        if (size - j > 7 && memcmp(text + j, "include", 7) == 0) {
          j += 7;
          while (j < size && (text[j] == ' ' || text[j] == '\t')) ++j;
          if (j < size && text[j] == '"')
            return "the source includes a file (#include \"...\"), whose text the key cannot see";
        }
      }
      const char *end = memchr(text + i, '\n', size - i);
      i = end != NULL ? (size_t)(end - text) + 1 : size;
    }
  }
  return NULL;
}

/* Appends "name LENGTH\nVALUE\n": any byte may appear in a value (options from the environment
 * may hold newlines), and the length keeps one field from running into the next. */
static void put_field(hg_strbuf *s, const char *name, const char *value) {
  hg_strbuf_printf(s, "%s %zu\n%s\n", name, strlen(value), value);
}

/* Appends a platform (device NULL) or device string property as a field; 0 when it cannot be
 * read, so that an unnamed device never shares files with another. */
static int put_cl_field(hg_strbuf *s, const char *name, cl_platform_id platform,
                        cl_device_id device, cl_uint param) {
  size_t size = 0;
  cl_int err = device != NULL ? clGetDeviceInfo(device, param, 0, NULL, &size)
                              : clGetPlatformInfo(platform, param, 0, NULL, &size);
  char *value = err == CL_SUCCESS && size > 0 ? malloc(size) : NULL;
  if (value == NULL) return 0;
  err = device != NULL ? clGetDeviceInfo(device, param, size, value, NULL)
                       : clGetPlatformInfo(platform, param, size, value, NULL);
  value[size - 1] = '\0';
  if (err == CL_SUCCESS) put_field(s, name, value);
  free(value);
  return err == CL_SUCCESS;
}

int hg_program_cache_entry_make(hegetcl_context *ctx, const char *const *strings,
                                const size_t *lengths, size_t n_parts, const char *options,
                                hg_program_cache_entry *entry, const char **why) {
  memset(entry, 0, sizeof *entry);
  char *folder = cache_folder(why); /* first: off costs no scan of the sources */
  if (folder == NULL) return 0;
  const char *dir = getenv("HEGETCL_CL_DIR");
  *why = dir != NULL && dir[0] != '\0'
             ? "HEGETCL_CL_DIR is set: the sources are #include lines whose files the key cannot "
               "see"
             : reads_other_files(strings, lengths, n_parts, options);
  if (*why != NULL) {
    free(folder);
    return 0;
  }
  hg_strbuf header = {0};
  hg_strbuf_printf(&header, "%s", HG_CACHE_MAGIC);
  put_field(&header, "hegetcl_version", HEGETCL_VERSION);
  put_field(&header, "options", options);
  const int named =
      put_cl_field(&header, "platform_name", ctx->platform, NULL, CL_PLATFORM_NAME) &&
      put_cl_field(&header, "platform_version", ctx->platform, NULL, CL_PLATFORM_VERSION) &&
      put_cl_field(&header, "device_name", NULL, ctx->device, CL_DEVICE_NAME) &&
      put_cl_field(&header, "device_version", NULL, ctx->device, CL_DEVICE_VERSION) &&
      put_cl_field(&header, "driver_version", NULL, ctx->device, CL_DRIVER_VERSION) &&
      put_cl_field(&header, "device_vendor", NULL, ctx->device, CL_DEVICE_VENDOR);
  hg_fnv1a128 source;
  hg_fnv1a128_init(&source);
  size_t source_length = 0;
  for (size_t i = 0; i < n_parts; ++i) {
    hg_fnv1a128_add(&source, strings[i], lengths[i]);
    source_length += lengths[i];
  }
  char digest[33];
  hg_fnv1a128_hex(&source, digest);
  hg_strbuf_printf(&header, "source_length %zu\nsource_fnv1a128 %s\n", source_length, digest);
  hg_fnv1a128 name;
  hg_fnv1a128_init(&name);
  if (!header.failed) hg_fnv1a128_add(&name, header.data, header.length);
  hg_fnv1a128_hex(&name, digest);
  hg_strbuf path = {0};
  hg_strbuf_printf(&path, "%s/%s.bin", folder, digest);
  if (!named || header.failed || path.failed) {
    *why = named ? "no memory for the cache key" : "the device does not say its name or driver";
    free(folder);
    hg_strbuf_free(&header);
    hg_strbuf_free(&path);
    return 0;
  }
  entry->folder = folder;
  entry->path = path.data;
  entry->header = header.data;
  entry->header_size = header.length;
  return 1;
}

void hg_program_cache_entry_free(hg_program_cache_entry *entry) {
  free(entry->folder);
  free(entry->path);
  free(entry->header);
  memset(entry, 0, sizeof *entry);
}

/* read_file's answer for something that is not a regular file (a FIFO, a device, a folder). */
#define HG_NOT_REGULAR (-1)

/* Reads a whole regular file into a new buffer; 0, HG_NOT_REGULAR, or the errno of what failed.
 * Opened without blocking (a FIFO planted under an entry's name would block open() until a writer
 * came, and a run with it) and checked with fstat on the open file before a byte is read. */
static int read_file(const char *path, unsigned char **out, size_t *size) {
  *out = NULL;
  *size = 0;
  const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return errno;
  struct stat st;
  const int flags = fcntl(fd, F_GETFL);
  int err = fstat(fd, &st) != 0                                         ? errno
            : !S_ISREG(st.st_mode)                                      ? HG_NOT_REGULAR
            : flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0 ? errno
                                                                        : 0;
  unsigned char *data = err == 0 ? malloc(st.st_size > 0 ? (size_t)st.st_size : 1) : NULL;
  if (err == 0 && data == NULL) err = ENOMEM;
  size_t done = 0;
  while (err == 0 && done < (size_t)st.st_size) {
    const ssize_t n = read(fd, data + done, (size_t)st.st_size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) err = errno;
    if (n <= 0) break; /* a file cut short while read: the size check below sees it */
    done += (size_t)n;
  }
  close(fd);
  if (err != 0) {
    free(data);
    return err;
  }
  *out = data;
  *size = done;
  return 0;
}

/* Why a file's bytes are not the entry's binary, or NULL with the binary found in them. */
static const char *check_file(const hg_program_cache_entry *entry, const unsigned char *data,
                              size_t size, const unsigned char **binary, size_t *binary_size) {
  if (size < entry->header_size || memcmp(data, entry->header, entry->header_size) != 0)
    return size >= sizeof HG_CACHE_MAGIC - 1 &&
                   memcmp(data, HG_CACHE_MAGIC, sizeof HG_CACHE_MAGIC - 1) == 0
               ? "its header does not match this program, options and device"
               : "it is not a hegetcl program cache file of this version";
  /* "binary_size N\nbinary_fnv1a64 HEX\n" as the store writes it, then exactly N bytes */
  const char *rest = (const char *)data + entry->header_size;
  const size_t rest_size = size - entry->header_size;
  char line[128];
  size_t line_size = 0;
  int newlines = 0;
  while (newlines < 2 && line_size < rest_size && line_size < sizeof line - 1) {
    line[line_size] = rest[line_size];
    if (line[line_size++] == '\n') ++newlines;
  }
  line[line_size] = '\0';
  unsigned long long expected_size = 0, expected_digest = 0;
  char canonical[128];
  if (sscanf(line, "binary_size %llu binary_fnv1a64 %llx", &expected_size, &expected_digest) != 2 ||
      expected_size == 0 ||
      snprintf(canonical, sizeof canonical, "binary_size %llu\nbinary_fnv1a64 %016llx\n",
               expected_size, expected_digest) != (int)line_size ||
      memcmp(canonical, line, line_size) != 0)
    return line_size == rest_size ? "it is cut short before the binary"
                                  : "its binary size lines are malformed";
  if (rest_size - line_size != expected_size)
    return rest_size - line_size < expected_size ? "its binary is cut short"
                                                 : "it holds more bytes than its binary";
  *binary = data + entry->header_size + line_size;
  *binary_size = (size_t)expected_size;
  if (hg_fnv1a64(*binary, *binary_size) != (uint64_t)expected_digest)
    return "its binary does not match its digest (damaged)";
  return NULL;
}

cl_program hg_program_cache_load(hegetcl_context *ctx, const hg_program_cache_entry *entry,
                                 const char *options) {
  unsigned char *data = NULL;
  size_t size = 0;
  const int err = read_file(entry->path, &data, &size);
  if (err == ENOENT || err == ENOTDIR) {
    note("%s: not there yet; building from source", entry->path);
    return NULL;
  }
  if (err == HG_NOT_REGULAR) {
    note("%s: not a regular file (a FIFO, device or folder in the cache's place); building from "
         "source",
         entry->path);
    return NULL;
  }
  if (err != 0) { /* not ours to delete: another user's file, or a folder in the way */
    note("%s: cannot be read (%s); building from source", entry->path, strerror(err));
    return NULL;
  }
  const unsigned char *binary = NULL;
  size_t binary_size = 0;
  const char *bad = check_file(entry, data, size, &binary, &binary_size);
  cl_program program = NULL;
  if (bad == NULL) {
    cl_int binary_status = CL_SUCCESS, cl_err = CL_SUCCESS;
    program = clCreateProgramWithBinary(ctx->context, 1, &ctx->device, &binary_size, &binary,
                                        &binary_status, &cl_err);
    if (cl_err != CL_SUCCESS || binary_status != CL_SUCCESS) {
      const cl_int code = cl_err != CL_SUCCESS ? cl_err : binary_status;
      bad = code == CL_INVALID_BINARY ? "the driver rejects its binary (CL_INVALID_BINARY)"
                                      : "clCreateProgramWithBinary failed on it";
    } else if (clBuildProgram(program, 1, &ctx->device, options, NULL, NULL) != CL_SUCCESS) {
      bad = "its binary does not build (clBuildProgram failed)";
    }
    if (bad != NULL && program != NULL) {
      clReleaseProgram(program);
      program = NULL;
    }
  }
  free(data);
  if (bad != NULL) {
    /* this name belongs to this key alone: a bad file under it only stands in the way */
    unlink(entry->path);
    note("%s: not used, deleted: %s; building from source", entry->path, bad);
    return NULL;
  }
  pthread_mutex_lock(&ctx->lock);
  ++ctx->programs_loaded;
  pthread_mutex_unlock(&ctx->lock);
  return program;
}

/* Creates folder and any missing parents with mode 0700 (a user's compiled programs are theirs
 * alone); 0, or the errno of what failed. */
static int make_folders(const char *folder) {
  char *path = malloc(strlen(folder) + 1);
  if (path == NULL) return ENOMEM;
  strcpy(path, folder);
  int err = 0;
  for (char *at = path + 1; err == 0; ++at) {
    if (*at != '/' && *at != '\0') continue;
    const char saved = *at;
    *at = '\0';
    if (mkdir(path, 0700) != 0) { /* EEXIST, or EACCES for a parent that exists: fine if a folder */
      const int mkdir_err = errno;
      struct stat st;
      if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        err = mkdir_err == EEXIST ? ENOTDIR : mkdir_err;
    }
    *at = saved;
    if (saved == '\0') break;
  }
  free(path);
  struct stat st;
  if (err == 0 && stat(folder, &st) != 0) err = errno;
  if (err == 0 && !S_ISDIR(st.st_mode)) err = ENOTDIR;
  return err;
}

static int write_all(int fd, const void *data, size_t size) {
  const unsigned char *bytes = data;
  while (size > 0) {
    const ssize_t n = write(fd, bytes, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : EIO;
    bytes += n;
    size -= (size_t)n;
  }
  return 0;
}

/* The binary of a program built for one device (a new buffer), or NULL with why. */
static unsigned char *program_binary(cl_program program, size_t *size, const char **why) {
  cl_uint n_devices = 0;
  *size = 0;
  if (clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES, sizeof n_devices, &n_devices, NULL) !=
          CL_SUCCESS ||
      n_devices != 1) {
    *why = "the program does not say it is for one device";
    return NULL;
  }
  if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof *size, size, NULL) != CL_SUCCESS ||
      *size == 0) {
    *why = "the driver gives no binary for the program";
    return NULL;
  }
  unsigned char *binary = malloc(*size);
  unsigned char *binaries[1] = {binary};
  if (binary == NULL || clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binaries, binaries,
                                         NULL) != CL_SUCCESS) {
    *why = binary == NULL ? "no memory for the binary" : "the driver would not hand the binary";
    free(binary);
    return NULL;
  }
  return binary;
}

void hg_program_cache_store(hegetcl_context *ctx, const hg_program_cache_entry *entry,
                            cl_program program) {
  size_t size = 0;
  const char *why = NULL;
  unsigned char *binary = program_binary(program, &size, &why);
  if (binary == NULL) {
    note("%s: not stored: %s", entry->path, why);
    return;
  }
  int err = make_folders(entry->folder);
  hg_strbuf temp = {0};
  /* beside the final name, so that rename() stays in one file system and is atomic */
  hg_strbuf_printf(&temp, "%.*s.tmp.XXXXXX", (int)(strlen(entry->path) - 4), entry->path);
  if (err == 0 && temp.failed) err = ENOMEM;
  const int fd = err == 0 ? mkstemp(temp.data) : -1;
  if (err == 0 && fd < 0) err = errno;
  if (err == 0) {
    char line[128];
    const int n = snprintf(line, sizeof line, "binary_size %zu\nbinary_fnv1a64 %016llx\n", size,
                           (unsigned long long)hg_fnv1a64(binary, size));
    err = write_all(fd, entry->header, entry->header_size);
    if (err == 0) err = write_all(fd, line, (size_t)n);
    if (err == 0) err = write_all(fd, binary, size);
    if (close(fd) != 0 && err == 0) err = errno; /* some file systems report a full disk here */
    if (err == 0 && rename(temp.data, entry->path) != 0) err = errno;
    if (err != 0) unlink(temp.data);
  }
  if (err == 0) {
    pthread_mutex_lock(&ctx->lock);
    ++ctx->programs_stored;
    pthread_mutex_unlock(&ctx->lock);
    note("stored %s (%zu bytes of binary)", entry->path, size);
  } else {
    note("%s: not stored: %s (the run goes on without it)", entry->path, strerror(err));
  }
  hg_strbuf_free(&temp);
  free(binary);
}

void hg_program_cache_counts(const hegetcl_context *ctx, unsigned long *loaded,
                             unsigned long *stored) {
  *loaded = ctx->programs_loaded;
  *stored = ctx->programs_stored;
}
