/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the LHE reader of `hegetcl merge-lhe` (io/lhe_merge.c over io/text_lines.c)
 * on any text. Each input is split at its first line "%%\n" into two files (without one, the
 * input is both files) merged into a third; a refusal must leave no output, lock or temporary
 * file, a success a file that ends with </LesHouchesEvents>. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/lhe_merge.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[1024], in0[1100], in1[1100], out[1100];

static void remove_dir(void) {
  unlink(in0);
  unlink(in1);
  unlink(out);
  rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/lhe_merge_fuzz.XXXXXX", tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
  if (mkdtemp(dir) == NULL) {
    perror("lhe_merge_fuzz: mkdtemp");
    exit(1);
  }
  snprintf(in0, sizeof in0, "%s/rank0.lhe", dir);
  snprintf(in1, sizeof in1, "%s/rank1.lhe", dir);
  snprintf(out, sizeof out, "%s/merged.lhe", dir);
  atexit(remove_dir);
  return 0;
}

static void write_file(const char *path, const uint8_t *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
    perror(path);
    abort();
  }
}

static void broken(const char *what, const char *detail) {
  fprintf(stderr, "lhe_merge_fuzz: %s: %s\n", what, detail);
  abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const uint8_t *split = NULL;
  for (size_t i = 0; i + 3 <= size && split == NULL; ++i)
    if ((i == 0 || data[i - 1] == '\n') && memcmp(data + i, "%%\n", 3) == 0) split = data + i;
  if (split != NULL) {
    write_file(in0, data, (size_t)(split - data));
    write_file(in1, split + 3, size - (size_t)(split - data) - 3);
  } else {
    write_file(in0, data, size);
    write_file(in1, data, size);
  }
  const char *inputs[2] = {in0, in1};
  char message[2048];
  message[0] = '\0';
  const int status = hg_lhe_merge(out, inputs, 2, message, sizeof message);
  if (message[0] == '\0') broken("no message", status == 0 ? "success" : "failure");
  /* the folder holds the two inputs, and the output only after a success */
  DIR *d = opendir(dir);
  int extra = 0, has_out = 0;
  for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    if (strcmp(e->d_name, "merged.lhe") == 0)
      has_out = 1;
    else if (strcmp(e->d_name, "rank0.lhe") != 0 && strcmp(e->d_name, "rank1.lhe") != 0)
      extra = 1;
  }
  closedir(d);
  if (extra) broken("a file left behind (a lock or temporary file)", message);
  if (has_out != (status == 0)) broken(status == 0 ? "no output after a success"
                                                   : "an output after a refusal", message);
  unlink(out);
  return 0;
}
