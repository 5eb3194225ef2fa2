/* SPDX-License-Identifier: MIT */
/* Output files, LHE (and a stopped run's FILE.partial), YODA and CSV: temporary names and renames,
 * gzip, XML escaping, refused values and the messages that name them, totals and row counts
 * against hand-made numbers. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <zlib.h>

#include "hegetcl/status.h"
#include "io/histogram_writer.h"
#include "io/lhe_partial.h"
#include "io/lhef_writer.h"
#include "io/output_file.h"

typedef struct {
  char dir[512]; /* a temporary folder for every file the tests write */
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  *state = f;
  if (f == NULL) return -1;
  const char *tmp = getenv("TMPDIR");
  snprintf(f->dir, sizeof f->dir, "%s/hegetcl_io_XXXXXX", tmp != NULL && *tmp ? tmp : "/tmp");
  return mkdtemp(f->dir) != NULL ? 0 : -1;
}

static void remove_tree(const char *path) {
  DIR *dir = opendir(path);
  if (dir != NULL) {
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
      if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
      char child[1024];
      snprintf(child, sizeof child, "%s/%s", path, entry->d_name);
      remove_tree(child);
    }
    closedir(dir);
    rmdir(path);
  } else {
    unlink(path);
  }
}

static int teardown(void **state) {
  fixture *f = *state;
  if (f == NULL) return 0;
  if (f->dir[0] != '\0') remove_tree(f->dir);
  free(f);
  return 0;
}

/* f->dir/name in path. */
static const char *in_dir(const fixture *f, const char *name, char *path, size_t size) {
  snprintf(path, size, "%s/%s", f->dir, name);
  return path;
}

static int exists(const char *path) {
  struct stat s;
  return stat(path, &s) == 0;
}

/* Whether a temporary file of path is there: path.tmp, or a run's own path.tmp.<pid>.<x>. */
static int temp_exists(const char *path) {
  char folder[4200];
  snprintf(folder, sizeof folder, "%s", path);
  char *slash = strrchr(folder, '/');
  const char *name = slash != NULL ? slash + 1 : path;
  if (slash != NULL) *slash = '\0';
  char prefix[4200];
  snprintf(prefix, sizeof prefix, "%s.tmp", name);
  DIR *dir = opendir(slash != NULL ? folder : ".");
  if (dir == NULL) return 0;
  int found = 0;
  for (struct dirent *e = readdir(dir); e != NULL && !found; e = readdir(dir))
    found = strncmp(e->d_name, prefix, strlen(prefix)) == 0;
  closedir(dir);
  return found;
}

/* The whole file, NUL-terminated; gzip != 0 decompresses it with zlib's reader. */
static char *read_all(const char *path, int gzip, size_t *size) {
  gzFile in = gzip ? gzopen(path, "rb") : NULL;
  FILE *plain = gzip ? NULL : fopen(path, "rb");
  if (in == NULL && plain == NULL) fail_msg("cannot open %s: %s", path, strerror(errno));
  size_t capacity = 1 << 16, n = 0;
  char *data = malloc(capacity + 1);
  for (;;) {
    if (n == capacity) data = realloc(data, (capacity *= 2) + 1);
    const size_t want = capacity - n;
    const int got =
        gzip ? gzread(in, data + n, (unsigned)want) : (int)fread(data + n, 1, want, plain);
    if (got < 0) fail_msg("cannot read %s", path);
    if (got == 0) break;
    n += (size_t)got;
  }
  if (gzip)
    gzclose(in);
  else
    fclose(plain);
  data[n] = '\0';
  if (size != NULL) *size = n;
  return data;
}

static void assert_has(const char *text, const char *part) {
  if (strstr(text, part) == NULL) fail_msg("lacks '%s' in:\n%s", part, text);
}

static int count_lines(const char *text) {
  int n = 0;
  for (const char *p = text; *p != '\0'; ++p) n += *p == '\n';
  return n;
}

/* One event u ubar -> gamma gamma; momenta that need all 17 digits (1/3, 0.1) to read back. */
typedef struct {
  int pid[4], status[4], mothers[4][2], colours[4][2];
  double momentum[4][5], lifetime[4], spin[4];
  hg_lhef_event event;
} sample_event;

static void make_sample_event(sample_event *s) {
  const double third = 1.0 / 3.0, e = 50.1;
  const double p[4][5] = {{0, 0, e, e, 0},
                          {0, 0, -e, e, 0},
                          {third, 0.1, sqrt(e * e - third * third - 0.01), e, 0},
                          {-third, -0.1, -sqrt(e * e - third * third - 0.01), e, 0}};
  const int pid[4] = {2, -2, 22, 22}, status[4] = {-1, -1, 1, 1};
  const int mothers[4][2] = {{0, 0}, {0, 0}, {1, 2}, {1, 2}};
  const int colours[4][2] = {{501, 0}, {0, 501}, {0, 0}, {0, 0}};
  memcpy(s->pid, pid, sizeof pid);
  memcpy(s->status, status, sizeof status);
  memcpy(s->mothers, mothers, sizeof mothers);
  memcpy(s->colours, colours, sizeof colours);
  memcpy(s->momentum, p, sizeof p);
  for (int i = 0; i < 4; ++i) s->lifetime[i] = 0, s->spin[i] = 9;
  s->event = (hg_lhef_event){.n_particles = 4,
                             .process_id = 1,
                             .weight = 0.1,
                             .scale_gev = 2 * e,
                             .alpha_qed = 1 / 137.035999084,
                             .alpha_qcd = 0.118,
                             .pid = s->pid,
                             .status = s->status,
                             .mothers = (const int(*)[2])s->mothers,
                             .colours = (const int(*)[2])s->colours,
                             .momentum = (const double(*)[5])s->momentum,
                             .lifetime = s->lifetime,
                             .spin = s->spin};
}

static hg_lhef_init sample_init(void) {
  return (hg_lhef_init){.beam_pid = {2212, 2212},
                        .beam_energy_gev = {6500, 6500},
                        .pdf_group = {0, 0},
                        .pdf_set = {10042, 10042},
                        .weight_strategy = 3,
                        .xsec_pb = 0.3,
                        .xsec_error_pb = 0.01,
                        .max_weight_pb = 0.1,
                        .process_id = 1,
                        .generator_name = "hegetcl",
                        .generator_version = "0.1.0",
                        .n_events = 3,
                        .total_xsec_pb = 0.3,
                        .header_name = "hegetcl_run_card",
                        .header_text = "photons = 2\n",
                        .comment = "output_formats test"};
}

/* Writes the sample init, three sample events and the end to path; returns close's status. */
static int write_sample_lhe(const char *path, int gzip, char *message, size_t size) {
  hg_output *o = NULL;
  if (hg_output_open(path, gzip, &o, message, size) != 0) return -100;
  const hg_lhef_init init = sample_init();
  sample_event s;
  make_sample_event(&s);
  assert_int_equal(hg_lhef_write_init(o, &init), 0);
  for (int k = 0; k < 3; ++k) assert_int_equal(hg_lhef_write_event(o, &s.event), 0);
  assert_int_equal(hg_lhef_write_end(o), 0);
  return hg_output_close(o, 1, message, size);
}

/* gzip-compressed output, gunzipped by zlib's reader, is byte for byte the plain output. */
static void lhe_plain_and_gzip_hold_the_same_bytes(void **state) {
  const fixture *f = *state;
  char plain[1024], packed[1024], message[2048];
  in_dir(f, "same.lhe", plain, sizeof plain);
  in_dir(f, "same.lhe.gz", packed, sizeof packed);
  assert_int_equal(write_sample_lhe(plain, 0, message, sizeof message), 0);
  assert_int_equal(write_sample_lhe(packed, 1, message, sizeof message), 0);
  size_t n_plain = 0, n_packed = 0, n_raw = 0;
  char *a = read_all(plain, 0, &n_plain), *b = read_all(packed, 1, &n_packed);
  char *raw = read_all(packed, 0, &n_raw);
  assert_true(n_raw > 2 && (unsigned char)raw[0] == 0x1f && (unsigned char)raw[1] == 0x8b);
  assert_int_equal(n_plain, n_packed);
  assert_memory_equal(a, b, n_plain);
  assert_int_equal(strncmp(a, "<LesHouchesEvents version=\"3.0\">\n", 33), 0);
  assert_has(a, "</LesHouchesEvents>\n");
  assert_false(temp_exists(plain) || temp_exists(packed));
  assert_true(hg_output_path_is_gzip(packed) && !hg_output_path_is_gzip(plain));
  free(a);
  free(b);
  free(raw);
}

/* Every real reads back as the same double; the integer columns as written. */
static void lhe_numbers_read_back_exactly(void **state) {
  const fixture *f = *state;
  char path[1024], message[2048];
  in_dir(f, "numbers.lhe", path, sizeof path);
  assert_int_equal(write_sample_lhe(path, 0, message, sizeof message), 0);
  char *text = read_all(path, 0, NULL);
  sample_event s;
  make_sample_event(&s);
  const char *line = strstr(text, "<event>\n");
  assert_non_null(line);
  line += 8;
  char *end;
  assert_int_equal(strtol(line, &end, 10), 4);
  assert_int_equal(strtol(end, &end, 10), 1);
  const double head[4] = {s.event.weight, s.event.scale_gev, s.event.alpha_qed, s.event.alpha_qcd};
  for (int k = 0; k < 4; ++k) {
    const double got = strtod(end, &end);
    if (got != head[k]) fail_msg("event line value %d: %.17g, written %.17g", k, got, head[k]);
  }
  for (int i = 0; i < 4; ++i) {
    const long ints[6] = {s.pid[i],        s.status[i],     s.mothers[i][0],
                          s.mothers[i][1], s.colours[i][0], s.colours[i][1]};
    for (int k = 0; k < 6; ++k) assert_int_equal(strtol(end, &end, 10), ints[k]);
    for (int c = 0; c < 5; ++c) {
      const double got = strtod(end, &end);
      if (got != s.momentum[i][c])
        fail_msg("particle %d component %d: %.17g, written %.17g", i + 1, c, got, s.momentum[i][c]);
    }
    assert_true(strtod(end, &end) == 0.0);
    assert_true(strtod(end, &end) == 9.0);
  }
  assert_has(text, "<xsecinfo neve=\"3\" totxsec=\"0.29999999999999999\"/>\n");
  assert_has(text, "<generator name=\"hegetcl\" version=\"0.1.0\"></generator>\n");
  free(text);
}

/* The header text keeps <, &, > and "]]>" as entities, "--" in the comment is broken up, and the
 * text reads back: the file's start is spelled out here in full. */
static void header_and_comment_stay_well_formed(void **state) {
  const fixture *f = *state;
  char path[1024], message[2048];
  in_dir(f, "escaped.lhe", path, sizeof path);
  hg_output *o = NULL;
  assert_int_equal(hg_output_open(path, 0, &o, message, sizeof message), 0);
  hg_lhef_init init = sample_init();
  init.header_text = "a < b && c > d ]]> e\r\n<!-- not a comment -->";
  init.comment = "x -- y --> z -";
  init.generator_version = "1.0 \"quoted\" & <tagged>";
  assert_int_equal(hg_lhef_write_init(o, &init), 0);
  assert_int_equal(hg_lhef_write_end(o), 0);
  assert_int_equal(hg_output_close(o, 1, message, sizeof message), 0);
  char *text = read_all(path, 0, NULL);
  const char *want = "<LesHouchesEvents version=\"3.0\">\n"
                     "<!--\n"
                     "x - - y - -> z -\n"
                     "-->\n"
                     "<header>\n"
                     "<hegetcl_run_card>\n"
                     "a &lt; b &amp;&amp; c &gt; d ]]&gt; e&#13;\n"
                     "&lt;!-- not a comment --&gt;\n"
                     "</hegetcl_run_card>\n"
                     "</header>\n"
                     "<init>\n";
  if (strncmp(text, want, strlen(want)) != 0) fail_msg("the file starts\n%s\nnot\n%s", text, want);
  assert_has(text, "version=\"1.0 &quot;quoted&quot; &amp; &lt;tagged&gt;\"");
  /* Well-formedness of the comment: no "--" between "<!--" and the first "-->". */
  const char *open = strstr(text, "<!--"), *close = strstr(open + 4, "-->");
  for (const char *p = open + 4; p < close; ++p) assert_false(p[0] == '-' && p[1] == '-');
  /* Character data: every '&' starts one of the entities written, and no '<' but tags. */
  const char *body = strstr(text, "<hegetcl_run_card>\n") + 19;
  const char *body_end = strstr(body, "</hegetcl_run_card>");
  char unescaped[256];
  size_t n = 0;
  static const char *const entities[][2] = {
      {"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}, {"&#13;", "\r"}};
  for (const char *p = body; p < body_end;) {
    assert_true(*p != '<');
    int matched = 0;
    for (size_t k = 0; k < 4 && *p == '&'; ++k)
      if (strncmp(p, entities[k][0], strlen(entities[k][0])) == 0) {
        unescaped[n++] = entities[k][1][0];
        p += strlen(entities[k][0]);
        matched = 1;
        break;
      }
    if (*p == '&' && !matched) fail_msg("a bare '&' in the header: %s", p);
    if (!matched) unescaped[n++] = *p++;
  }
  unescaped[n] = '\0';
  assert_string_equal(unescaped, "a < b && c > d ]]> e\r\n<!-- not a comment -->\n");
  free(text);
}

/* Element names that are not XML names, and text XML cannot carry, are refused by name. */
static void bad_names_and_text_are_refused(void **state) {
  const fixture *f = *state;
  static const char *const names[] = {"1card", "run card", "xml_card", "", "card>", "a:b"};
  char path[1024], message[2048];
  in_dir(f, "refused.lhe", path, sizeof path);
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
    hg_output *o = NULL;
    assert_int_equal(hg_output_open(path, 0, &o, message, sizeof message), 0);
    hg_lhef_init init = sample_init();
    init.header_name = names[i];
    assert_int_equal(hg_lhef_write_init(o, &init), HEGETCL_ERR_INPUT);
    assert_has(hg_output_message(o), "header_name");
    char quoted[64];
    snprintf(quoted, sizeof quoted, "\"%s\"", names[i]);
    assert_has(hg_output_message(o), quoted);
    assert_int_equal(hg_output_close(o, 1, message, sizeof message), HEGETCL_ERR_INPUT);
    assert_has(message, path);
    assert_false(exists(path) || temp_exists(path));
  }
  hg_output *o = NULL;
  assert_int_equal(hg_output_open(path, 0, &o, message, sizeof message), 0);
  hg_lhef_init init = sample_init();
  init.comment = "a bell \a in the comment";
  assert_int_equal(hg_lhef_write_init(o, &init), HEGETCL_ERR_INPUT);
  assert_has(hg_output_message(o), "comment holds the character U+0007 at byte 7");
  assert_int_not_equal(hg_output_close(o, 1, message, sizeof message), 0);
  assert_int_equal(hg_output_open(path, 0, &o, message, sizeof message), 0);
  init = sample_init();
  init.comment = "see the <init> block";
  assert_int_equal(hg_lhef_write_init(o, &init), HEGETCL_ERR_INPUT);
  assert_has(hg_output_message(o), "comment holds \"<init\"");
  assert_int_not_equal(hg_output_close(o, 1, message, sizeof message), 0);
  assert_int_equal(hg_output_open(path, 0, &o, message, sizeof message), 0);
  init = sample_init();
  init.header_text = "caf\xc3";
  assert_int_equal(hg_lhef_write_init(o, &init), HEGETCL_ERR_INPUT);
  assert_has(hg_output_message(o), "header_text is not valid UTF-8");
  assert_int_not_equal(hg_output_close(o, 1, message, sizeof message), 0);
  assert_false(exists(path) || temp_exists(path));
}

/* A NaN or infinity anywhere is refused with the field's name; the refusal is sticky and a
 * commit then leaves no file. */
static void non_finite_numbers_are_refused_by_name(void **state) {
  const fixture *f = *state;
  char path[1024], message[2048];
  in_dir(f, "nonfinite.lhe", path, sizeof path);
  hg_output *o = NULL;
  assert_int_equal(hg_output_open(path, 0, &o, message, sizeof message), 0);
  const hg_lhef_init init = sample_init();
  assert_int_equal(hg_lhef_write_init(o, &init), 0);
  sample_event s;
  make_sample_event(&s);
  assert_int_equal(hg_lhef_write_event(o, &s.event), 0);
  s.momentum[1][2] = NAN;
  assert_int_equal(hg_lhef_write_event(o, &s.event), HEGETCL_ERR_NONFINITE);
  assert_has(hg_output_message(o), path);
  assert_has(hg_output_message(o), "momentum[1][2] (pz of particle 2, PUP(3,2)) is nan");
  s.momentum[1][2] = -50.1;
  assert_int_equal(hg_lhef_write_event(o, &s.event), HEGETCL_ERR_NONFINITE); /* sticky */
  assert_int_equal(hg_output_printf(o, "more"), HEGETCL_ERR_NONFINITE);
  assert_int_equal(hg_output_close(o, 1, message, sizeof message), HEGETCL_ERR_NONFINITE);
  assert_has(message, "pz of particle 2");
  assert_false(exists(path) || temp_exists(path));

  struct {
    const char *field;
    double *value;
  } cases[3];
  hg_lhef_init bad = sample_init();
  cases[0].field = "init xsec_pb (XSECUP) is inf";
  cases[0].value = &bad.xsec_pb;
  cases[1].field = "init beam_energy_gev[1] (EBMUP(2)) is -inf";
  cases[1].value = &bad.beam_energy_gev[1];
  cases[2].field = "init total_xsec_pb (xsecinfo totxsec) is inf";
  cases[2].value = &bad.total_xsec_pb;
  for (int k = 0; k < 3; ++k) {
    bad = sample_init();
    *cases[k].value = k == 1 ? -INFINITY : INFINITY;
    assert_int_equal(hg_output_open(path, 0, &o, message, sizeof message), 0);
    assert_int_equal(hg_lhef_write_init(o, &bad), HEGETCL_ERR_NONFINITE);
    assert_has(hg_output_message(o), cases[k].field);
    assert_int_not_equal(hg_output_close(o, 1, message, sizeof message), 0);
  }
  make_sample_event(&s);
  s.event.weight = NAN;
  assert_int_equal(hg_output_open(path, 0, &o, message, sizeof message), 0);
  assert_int_equal(hg_lhef_write_event(o, &s.event), HEGETCL_ERR_NONFINITE);
  assert_has(hg_output_message(o), "event weight (XWGTUP) is nan");
  assert_int_not_equal(hg_output_close(o, 1, message, sizeof message), 0);
  make_sample_event(&s);
  s.mothers[3][1] = 5;
  assert_int_equal(hg_output_open(path, 0, &o, message, sizeof message), 0);
  assert_int_equal(hg_lhef_write_event(o, &s.event), HEGETCL_ERR_INPUT);
  assert_has(hg_output_message(o), "mothers[3][1] (MOTHUP(2,4)) is 5");
  assert_int_not_equal(hg_output_close(o, 1, message, sizeof message), 0);
  assert_false(exists(path) || temp_exists(path));
}

/* A folder that does not exist: refused at open, naming the folder and the fix. */
static void an_unwritable_path_is_named(void **state) {
  const fixture *f = *state;
  char path[1024], message[2048], want[1200];
  in_dir(f, "no/such/folder/events.lhe", path, sizeof path);
  hg_output *o = (hg_output *)&o;
  assert_int_equal(hg_output_open(path, 1, &o, message, sizeof message), HEGETCL_ERR_INPUT);
  assert_null(o);
  snprintf(want, sizeof want, "the folder %s/no/such/folder does not exist: create it", f->dir);
  assert_has(message, want);
}

/* A rename onto an existing folder fails: the message names both paths and the OS error (the one
 * rename(2) gives here for the same move), the temporary file is gone and the folder stays. */
static void a_failed_rename_is_named(void **state) {
  const fixture *f = *state;
  char path[1024], inside[1100], other[1024], message[2048];
  in_dir(f, "occupied.yoda", path, sizeof path);
  FILE *probe = fopen(in_dir(f, "probe", other, sizeof other), "w");
  fclose(probe);
  /* a folder at the path is refused at open; one made while the output is open fails the rename */
  hg_output *o = NULL;
  assert_int_equal(hg_output_open(path, 0, &o, message, sizeof message), 0);
  assert_int_equal(mkdir(path, 0777), 0);
  snprintf(inside, sizeof inside, "%s/keep", path);
  fclose(fopen(inside, "w"));
  assert_int_not_equal(rename(other, path), 0);
  const int expected_errno = errno;
  unlink(other);
  assert_int_equal(hg_output_printf(o, "BEGIN nothing\n"), 0);
  assert_int_equal(hg_output_close(o, 1, message, sizeof message), HEGETCL_ERR_IO);
  char want[2600];
  snprintf(want, sizeof want, "cannot rename %s.tmp.", path);
  assert_has(message, want);
  snprintf(want, sizeof want, " to %s: %s", path, strerror(expected_errno));
  assert_has(message, want);
  assert_false(temp_exists(path));
  assert_true(exists(inside));
}

/* Writes past RLIMIT_FSIZE (with SIGXFSZ ignored) fail with EFBIG: the failure is reported at
 * the write or at close, naming the temporary file, and nothing is left behind. */
static void a_failed_write_is_named(void **state) {
  const fixture *f = *state;
  struct rlimit old;
  assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
  if (old.rlim_max != RLIM_INFINITY && old.rlim_max < 4096) skip();
  char path[2][1024], message[2][2048], line[128];
  int opened[2] = {-1, -1}, closed[2] = {-1, -1};
  memset(line, 'x', sizeof line - 2);
  line[sizeof line - 2] = '\n';
  line[sizeof line - 1] = '\0';
  /* Nothing may fail between lowering the limit and restoring it: results are checked after. */
  void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = old;
  small.rlim_cur = 4096;
  const int limited = setrlimit(RLIMIT_FSIZE, &small);
  for (int gzip = 0; gzip < 2 && limited == 0; ++gzip) {
    in_dir(f, gzip ? "too_big.csv.gz" : "too_big.csv", path[gzip], sizeof path[gzip]);
    hg_output *o = NULL;
    opened[gzip] = hg_output_open(path[gzip], gzip, &o, message[gzip], sizeof message[gzip]);
    if (opened[gzip] != 0) continue;
    /* gzip: the numbers keep the text from compressing below the limit */
    for (int k = 0; k < 4000; ++k) hg_output_printf(o, "%d %s", k * 7919 % 10007, line);
    closed[gzip] = hg_output_close(o, 1, message[gzip], sizeof message[gzip]);
  }
  const int restored = setrlimit(RLIMIT_FSIZE, &old);
  signal(SIGXFSZ, old_handler);
  assert_int_equal(limited, 0);
  assert_int_equal(restored, 0);
  for (int gzip = 0; gzip < 2; ++gzip) {
    assert_int_equal(opened[gzip], 0);
    assert_int_equal(closed[gzip], HEGETCL_ERR_IO);
    char want[4200];
    snprintf(want, sizeof want, "%s.tmp.", path[gzip]);
    assert_has(message[gzip], want);
    assert_has(message[gzip], strerror(EFBIG));
    assert_false(exists(path[gzip]) || temp_exists(path[gzip]));
  }
}

/* close(commit = 0) removes the temporary file and leaves an older file at the path untouched;
 * a commit replaces it. */
static void close_without_commit_leaves_no_file(void **state) {
  const fixture *f = *state;
  char path[1024], message[2048];
  in_dir(f, "abandoned.csv", path, sizeof path);
  hg_output *o = NULL;
  assert_int_equal(hg_output_open(path, 0, &o, message, sizeof message), 0);
  assert_true(temp_exists(path));
  assert_int_equal(hg_output_printf(o, "half a file\n"), 0);
  assert_int_equal(hg_output_close(o, 0, message, sizeof message), 0);
  assert_false(exists(path) || temp_exists(path));

  FILE *old = fopen(path, "w");
  fputs("old\n", old);
  fclose(old);
  assert_int_equal(hg_output_open(path, 1, &o, message, sizeof message), 0);
  assert_int_equal(hg_output_printf(o, "new\n"), 0);
  assert_int_equal(hg_output_close(o, 0, message, sizeof message), 0);
  char *text = read_all(path, 0, NULL);
  assert_string_equal(text, "old\n");
  free(text);
  assert_int_equal(hg_output_open(path, 0, &o, message, sizeof message), 0);
  assert_int_equal(hg_output_printf(o, "new\n"), 0);
  assert_int_equal(hg_output_close(o, 1, message, sizeof message), 0);
  text = read_all(path, 0, NULL);
  assert_string_equal(text, "new\n");
  free(text);
  assert_int_equal(hg_output_close(NULL, 1, message, sizeof message), 0);
}

/* printf has no length limit through zlib (gzprintf's is 8 KB). */
static void long_printf_through_gzip_is_whole(void **state) {
  const fixture *f = *state;
  char path[1024], message[2048];
  in_dir(f, "long.txt.gz", path, sizeof path);
  const size_t n = 100000;
  char *text = malloc(n + 1);
  for (size_t i = 0; i < n; ++i) text[i] = (char)('a' + (i * 31 + i / 97) % 26);
  text[n] = '\0';
  hg_output *o = NULL;
  assert_int_equal(hg_output_open(path, 1, &o, message, sizeof message), 0);
  assert_int_equal(hg_output_printf(o, "[%s]%d", text, 42), 0);
  assert_int_equal(hg_output_close(o, 1, message, sizeof message), 0);
  size_t size = 0;
  char *back = read_all(path, 1, &size);
  assert_int_equal(size, n + 4);
  assert_true(back[0] == '[' && back[n + 1] == ']' && strcmp(back + n + 2, "42") == 0);
  assert_memory_equal(back + 1, text, n);
  free(back);
  free(text);
}

/* Two histograms whose sums are exact in binary (multiples of 1/8), so that their totals are
 * exact too; values[k][b] for the five arrays. */
typedef struct {
  hegetcl_histogram h[2];
  double values[2][5][16];
} sample_histograms;

static void make_sample_histograms(sample_histograms *s) {
  memset(s, 0, sizeof *s);
  static const unsigned bins[2] = {4, 3};
  static const char *const names[2] = {"pt_1", "m_photons"};
  static const char *const titles[2] = {"#1 photon: pT", "photon pair mass"};
  static const char *const labels[2] = {"pT [GeV]", "m [GeV]"};
  for (int i = 0; i < 2; ++i) {
    hegetcl_histogram *h = &s->h[i];
    snprintf(h->name, sizeof h->name, "%s", names[i]);
    snprintf(h->title, sizeof h->title, "%s", titles[i]);
    snprintf(h->x_label, sizeof h->x_label, "%s", labels[i]);
    h->bins = bins[i];
    h->lo = i == 0 ? 20 : 0.5;
    h->hi = i == 0 ? 100 : 2;
    for (int k = 0; k < 5; ++k)
      for (unsigned b = 0; b < h->bins + 2; ++b)
        s->values[i][k][b] = (double)((b + 1) * (k + 2) * (i + 1)) * 0.125 * (k == 2 ? -1 : 1);
    for (unsigned b = 0; b < h->bins + 2; ++b) s->values[i][4][b] = (double)(3 * b + i);
    h->sumw = s->values[i][0];
    h->sumw2 = s->values[i][1];
    h->sumwx = s->values[i][2];
    h->sumwx2 = s->values[i][3];
    h->entries = s->values[i][4];
  }
}

/* Reads five numbers after skip tab-separated fields of line. */
static void read_sums(const char *line, int skip, double sums[5]) {
  const char *p = line;
  for (int k = 0; k < skip; ++k) p = strchr(p, '\t') + 1;
  char *end = (char *)p;
  for (int k = 0; k < 5; ++k) sums[k] = strtod(end, &end);
  assert_true(*end == '\n');
}

/* YODA: the block layout, Total = the sum of every bin with under- and overflow, each bin's
 * numbers and edges as given, the header as comments with BEGIN and END defused. */
static void yoda_totals_equal_the_sum_of_the_bins(void **state) {
  const fixture *f = *state;
  char path[1024], message[2048];
  in_dir(f, "histograms.yoda", path, sizeof path);
  sample_histograms s;
  make_sample_histograms(&s);
  hg_output *o = NULL;
  assert_int_equal(hg_output_open(path, 0, &o, message, sizeof message), 0);
  assert_int_equal(hg_yoda_write(o, "hegetcl", s.h, 2, "run 1\nBACKEND = OpenCL\n\nBEGIN here"), 0);
  assert_int_equal(hg_output_close(o, 1, message, sizeof message), 0);
  char *text = read_all(path, 0, NULL);
  const char *want_start = "# run 1\n# BACKend = OpenCL\n#\n# begin here\n\n"
                           "BEGIN YODA_HISTO1D_V2 /hegetcl/pt_1\n"
                           "Path: /hegetcl/pt_1\n"
                           "Title: '#1 photon: pT'\n"
                           "Type: Histo1D\n"
                           "XLabel: $p_\\mathrm{T}$ [GeV]\n"
                           "YLabel: $\\mathrm{d}\\sigma/\\mathrm{d}p_\\mathrm{T}$ [fb/GeV]\n"
                           "---\n";
  if (strncmp(text, want_start, strlen(want_start)) != 0)
    fail_msg("the file starts\n%s\nnot\n%s", text, want_start);
  assert_has(text, "BEGIN YODA_HISTO1D_V2 /hegetcl/m_photons\nPath: /hegetcl/m_photons\n"
                   "Title: photon pair mass\nType: Histo1D\nXLabel: $m$ [GeV]\n"
                   "YLabel: $\\mathrm{d}\\sigma/\\mathrm{d}m$ [fb/GeV]\n---\n");
  const char *block = text;
  for (int i = 0; i < 2; ++i) {
    const hegetcl_histogram *h = &s.h[i];
    block = strstr(block, "BEGIN YODA_HISTO1D_V2");
    const char *end = strstr(block, "END YODA_HISTO1D_V2\n");
    assert_non_null(end);
    double want[5] = {0, 0, 0, 0, 0}, got[5];
    for (int k = 0; k < 5; ++k)
      for (unsigned b = 0; b < h->bins + 2; ++b) want[k] += s.values[i][k][b];
    const char *total = strstr(block, "\nTotal   \tTotal   \t") + 1;
    read_sums(total, 2, got);
    for (int k = 0; k < 5; ++k)
      if (got[k] != want[k])
        fail_msg("%s Total column %d: %.17g, the bins sum to %.17g", h->name, k, got[k], want[k]);
    char area[64];
    snprintf(area, sizeof area, "# Area: %.17g\n", want[0]);
    assert_has(block, area);
    read_sums(strstr(block, "\nUnderflow\tUnderflow\t") + 1, 2, got);
    for (int k = 0; k < 5; ++k) assert_true(got[k] == s.values[i][k][0]);
    read_sums(strstr(block, "\nOverflow\tOverflow\t") + 1, 2, got);
    for (int k = 0; k < 5; ++k) assert_true(got[k] == s.values[i][k][h->bins + 1]);
    const char *line =
        strstr(block, "# xlow\t xhigh\t sumw\t sumw2\t sumwx\t sumwx2\t numEntries\n");
    assert_non_null(line);
    line = strchr(line, '\n') + 1;
    const double width = (h->hi - h->lo) / h->bins; /* exact for these ranges */
    for (unsigned b = 0; b < h->bins; ++b) {
      char *p;
      const double xlow = strtod(line, &p), xhigh = strtod(p, &p);
      assert_true(xlow == h->lo + b * width && xhigh == h->lo + (b + 1) * width);
      read_sums(line, 2, got);
      for (int k = 0; k < 5; ++k) assert_true(got[k] == s.values[i][k][b + 1]);
      line = strchr(line, '\n') + 1;
    }
    assert_ptr_equal(line, end);
    block = end;
  }
  assert_has(text, "END YODA_HISTO1D_V2\n\n");
  free(text);
}

/* YODA annotations as Rivet writes them for make-plots: Title, Type, XLabel, YLabel in
 * alphabetical order, LaTeX labels, YLabel dsigma/dx in fb per the x unit; hegetcl's plain labels
 * become symbols, any other "WHAT [UNIT]" label is kept with a generic YLabel, and no label
 * writes neither. */
static void yoda_labels_as_rivet_writes_them(void **state) {
  const fixture *f = *state;
  char path[1024], message[2048];
  in_dir(f, "labels.yoda", path, sizeof path);
  sample_histograms s;
  make_sample_histograms(&s);
  snprintf(s.h[0].x_label, sizeof s.h[0].x_label, "%s", "eta");
  snprintf(s.h[1].x_label, sizeof s.h[1].x_label, "%s", "photon pair mass [TeV]");
  hg_output *o = NULL;
  assert_int_equal(hg_output_open(path, 0, &o, message, sizeof message), 0);
  assert_int_equal(hg_yoda_write(o, "hegetcl", s.h, 2, NULL), 0);
  assert_int_equal(hg_output_close(o, 1, message, sizeof message), 0);
  char *text = read_all(path, 0, NULL);
  assert_has(text, "Path: /hegetcl/pt_1\nTitle: '#1 photon: pT'\nType: Histo1D\n"
                   "XLabel: $\\eta$\nYLabel: $\\mathrm{d}\\sigma/\\mathrm{d}\\eta$ [fb]\n---\n");
  assert_has(text, "Type: Histo1D\nXLabel: photon pair mass [TeV]\n"
                   "YLabel: $\\mathrm{d}\\sigma/\\mathrm{d}$(photon pair mass) [fb/TeV]\n---\n");
  free(text);
  s.h[0].x_label[0] = '\0';
  in_dir(f, "unlabelled.yoda", path, sizeof path);
  assert_int_equal(hg_output_open(path, 0, &o, message, sizeof message), 0);
  assert_int_equal(hg_yoda_write(o, "hegetcl", s.h, 1, NULL), 0);
  assert_int_equal(hg_output_close(o, 1, message, sizeof message), 0);
  text = read_all(path, 0, NULL);
  assert_has(text, "Type: Histo1D\n---\n");
  assert_null(strstr(text, "Label"));
  free(text);
}

/* CSV: the header lines, the column line, then bins + 2 rows per histogram, -inf and inf at the
 * outer edges, error_fb = sqrt(sumw2). */
static void csv_has_a_row_per_bin(void **state) {
  const fixture *f = *state;
  char path[1024], message[2048];
  in_dir(f, "histograms.csv", path, sizeof path);
  sample_histograms s;
  make_sample_histograms(&s);
  s.values[0][1][0] = 6.25; /* sumw2 of pt_1's underflow: error 2.5 */
  hg_output *o = NULL;
  assert_int_equal(hg_output_open(path, 0, &o, message, sizeof message), 0);
  assert_int_equal(hg_histogram_csv_write(o, s.h, 2, "hegetcl test\nseed = 7\n"), 0);
  assert_int_equal(hg_output_close(o, 1, message, sizeof message), 0);
  char *text = read_all(path, 0, NULL);
  assert_int_equal(count_lines(text), 2 + 1 + (4 + 2) + (3 + 2));
  const char *want = "# hegetcl test\n# seed = 7\n"
                     "histogram,bin,xlow,xhigh,sumw_fb,error_fb,sumwx,sumwx2,entries\n"
                     "pt_1,underflow,-inf,20,0.25,2.5,-0.5,0.625,0\n"
                     "pt_1,0,20,40,0.5,";
  if (strncmp(text, want, strlen(want)) != 0) fail_msg("the file starts\n%s\nnot\n%s", text, want);
  assert_has(text, "pt_1,3,80,100,");
  assert_has(text, "pt_1,overflow,100,inf,");
  assert_has(text, "m_photons,underflow,-inf,0.5,");
  assert_has(text, "m_photons,2,1.5,2,");
  assert_has(text, "m_photons,overflow,2,inf,");
  free(text);
}

/* A non-finite sum, a title YODA would take for a block end, or a bad range is refused by name
 * and nothing is written. */
static void bad_histograms_are_refused_by_name(void **state) {
  const fixture *f = *state;
  char path[1024], message[2048];
  in_dir(f, "refused.yoda", path, sizeof path);
  sample_histograms s;
  hg_output *o = NULL;
  struct {
    int array, bin;
    double value;
    const char *part;
  } cases[] = {{2, 3, NAN, "histogram pt_1 bin 2: sumwx[3] is nan"},
               {0, 5, INFINITY, "histogram pt_1 overflow: sumw[5] is inf"},
               {1, 0, -1, "histogram pt_1: sumw2[0] is -1"}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    make_sample_histograms(&s);
    s.values[0][cases[k].array][cases[k].bin] = cases[k].value;
    for (int csv = 0; csv < 2; ++csv) {
      assert_int_equal(hg_output_open(path, 0, &o, message, sizeof message), 0);
      const int status =
          csv ? hg_histogram_csv_write(o, s.h, 2, NULL) : hg_yoda_write(o, "hegetcl", s.h, 2, NULL);
      assert_int_not_equal(status, 0);
      assert_has(hg_output_message(o), cases[k].part);
      assert_int_not_equal(hg_output_close(o, 1, message, sizeof message), 0);
      assert_false(exists(path) || temp_exists(path));
    }
  }
  make_sample_histograms(&s);
  snprintf(s.h[1].title, sizeof s.h[1].title, "THE END OF IT");
  assert_int_equal(hg_output_open(path, 0, &o, message, sizeof message), 0);
  assert_int_equal(hg_yoda_write(o, NULL, s.h, 2, NULL), HEGETCL_ERR_INPUT);
  assert_has(hg_output_message(o), "histogram m_photons title \"THE END OF IT\" holds");
  assert_int_not_equal(hg_output_close(o, 1, message, sizeof message), 0);
  make_sample_histograms(&s);
  s.h[0].hi = s.h[0].lo;
  assert_int_equal(hg_output_open(path, 0, &o, message, sizeof message), 0);
  assert_int_equal(hg_histogram_csv_write(o, s.h, 2, NULL), HEGETCL_ERR_INPUT);
  assert_has(hg_output_message(o), "histogram pt_1 range [20, 20): lo must be below hi");
  assert_int_not_equal(hg_output_close(o, 1, message, sizeof message), 0);
  assert_false(exists(path) || temp_exists(path));
}

/* An LHE file of sample events: neve = declared, XMAXUP and every XWGTUP = weight, n whole
 * events, then (cut != 0) a last event cut off inside its particles, and the end tag unless
 * end == 0: a run's event stream as it stopped, or the file a stopped run's part should be. */
static void write_events(const char *path, int gzip, long long declared, double weight, int n,
                         int cut, int end) {
  char message[2048];
  hg_output *o = NULL;
  assert_int_equal(hg_output_open(path, gzip, &o, message, sizeof message), 0);
  hg_lhef_init init = sample_init();
  init.n_events = declared;
  init.max_weight_pb = weight;
  sample_event s;
  make_sample_event(&s);
  s.event.weight = weight;
  assert_int_equal(hg_lhef_write_init(o, &init), 0);
  for (int k = 0; k < n; ++k) assert_int_equal(hg_lhef_write_event(o, &s.event), 0);
  if (cut) hg_output_printf(o, "<event>\n  4      1 +1.0000000000000000e-01 +1.0");
  if (end) assert_int_equal(hg_lhef_write_end(o), 0);
  assert_int_equal(hg_output_close(o, 1, message, sizeof message), 0);
}

/* A stopped run's event stream (<init> for 10 events of weight sigma/10, 3 complete, a fourth
 * cut off) becomes FILE.partial, a Les Houches file of those 3 alone: byte for byte the file of 3
 * events with neve 3 and XMAXUP and XWGTUP sigma/3, whose weights add up to sigma; plain or
 * gzip. A stream without a complete event gives no file; a file that is no stream is named. */
static void a_stopped_runs_stream_becomes_a_file_of_its_events(void **state) {
  const fixture *f = *state;
  const double sigma = sample_init().xsec_pb;
  char stream[1024], partial[1024], expected[1024], message[2048];
  for (int gzip = 0; gzip < 2; ++gzip) {
    in_dir(f, gzip ? "stream.lhe.gz" : "stream.lhe", stream, sizeof stream);
    in_dir(f, gzip ? "stream.lhe.gz.partial" : "stream.lhe.partial", partial, sizeof partial);
    in_dir(f, "expected.lhe", expected, sizeof expected);
    write_events(stream, gzip, 10, sigma / 10, 3, 1, 0);
    write_events(expected, 0, 3, sigma / 3, 3, 0, 1);
    long long kept = -1;
    assert_int_equal(hg_lhe_partial_write(stream, partial, gzip, &kept, message, sizeof message),
                     0);
    assert_int_equal(kept, 3);
    size_t n_got = 0, n_want = 0;
    char *got = read_all(partial, gzip, &n_got), *want = read_all(expected, 0, &n_want);
    if (n_got != n_want || memcmp(got, want, n_want) != 0)
      fail_msg("the partial file (gzip %d) is not the file of its 3 events:\n%s\nwant\n%s", gzip,
               got, want);
    /* the weights as a reader adds them */
    double sum = 0.0;
    for (const char *e = strstr(got, "<event>\n"); e != NULL; e = strstr(e + 1, "<event>\n")) {
      char *end = NULL;
      strtol(e + 8, &end, 10);
      strtol(end, &end, 10);
      sum += strtod(end, NULL);
    }
    if (fabs(sum / sigma - 1.0) > 1e-9)
      fail_msg("the weights add up to %.17g, sigma %.17g", sum, sigma);
    assert_has(got, "<xsecinfo neve=\"3\" totxsec=\"0.29999999999999999\"/>\n");
    assert_false(temp_exists(partial));
    free(got);
    free(want);
    unlink(partial);
  }
  /* stopped before its first event: nothing to describe */
  write_events(stream, 0, 10, sigma / 10, 0, 1, 0);
  long long kept = -1;
  assert_int_equal(hg_lhe_partial_write(stream, partial, 0, &kept, message, sizeof message), 0);
  assert_int_equal(kept, 0);
  assert_false(exists(partial) || temp_exists(partial));
  /* not a stream: no <init> */
  FILE *other = fopen(stream, "w");
  fputs("<LesHouchesEvents version=\"3.0\">\n<header>\n</header>\n", other);
  fclose(other);
  assert_int_equal(hg_lhe_partial_write(stream, partial, 0, &kept, message, sizeof message),
                   HEGETCL_ERR_INPUT);
  assert_has(message, "the stream ends before its <init> block is complete: it is not the event "
                      "stream of a stopped hegetcl run");
  assert_false(exists(partial) || temp_exists(partial));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(lhe_plain_and_gzip_hold_the_same_bytes),
      cmocka_unit_test(lhe_numbers_read_back_exactly),
      cmocka_unit_test(header_and_comment_stay_well_formed),
      cmocka_unit_test(bad_names_and_text_are_refused),
      cmocka_unit_test(non_finite_numbers_are_refused_by_name),
      cmocka_unit_test(an_unwritable_path_is_named),
      cmocka_unit_test(a_failed_rename_is_named),
      cmocka_unit_test(a_failed_write_is_named),
      cmocka_unit_test(close_without_commit_leaves_no_file),
      cmocka_unit_test(long_printf_through_gzip_is_whole),
      cmocka_unit_test(yoda_totals_equal_the_sum_of_the_bins),
      cmocka_unit_test(yoda_labels_as_rivet_writes_them),
      cmocka_unit_test(csv_has_a_row_per_bin),
      cmocka_unit_test(bad_histograms_are_refused_by_name),
      cmocka_unit_test(a_stopped_runs_stream_becomes_a_file_of_its_events),
  };
  return cmocka_run_group_tests_name("output_formats", tests, setup, teardown);
}
