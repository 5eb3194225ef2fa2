/* SPDX-License-Identifier: MIT */
/* Prints hegetcl_pdf_xfxq for "pid x Q" lines on stdin, one value a line, for agrees_with_parton.
 */
#include <stdio.h>

#include "hegetcl/pdf.h"

/* usage: pdf_values SET MEMBER < points; exit 1 with the library's message when SET fails. */
int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: pdf_values SET MEMBER < lines of 'pid x Q'\n");
    return 2;
  }
  int member = 0;
  if (sscanf(argv[2], "%d", &member) != 1) {
    fprintf(stderr, "pdf_values: MEMBER '%s' is not an integer\n", argv[2]);
    return 2;
  }
  char message[4096];
  hegetcl_pdf *pdf = NULL;
  if (hegetcl_pdf_open(argv[1], member, &pdf, message, sizeof message) != HEGETCL_OK) {
    fprintf(stderr, "pdf_values: %s\n", message);
    return 1;
  }
  int pid = 0;
  double x = 0, q = 0;
  int n;
  while ((n = scanf("%d %lf %lf", &pid, &x, &q)) == 3)
    printf("%.17g\n", hegetcl_pdf_xfxq(pdf, pid, x, q));
  hegetcl_pdf_close(pdf);
  if (n != EOF) {
    fprintf(stderr, "pdf_values: a line of stdin is not 'pid x Q'\n");
    return 2;
  }
  return 0;
}
