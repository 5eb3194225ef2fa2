/* SPDX-License-Identifier: MIT */
/* The library's run-card reader (the `hegetcl xsec` option table) and its Les Houches event run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/xsec_options.h"
#include "core/context.h"
#include "hegetcl/version.h"
#include "hegetcl/xsec.h"
#include "io/event_sink.h"
#include "io/lhe_events.h"
#include "io/lhef_writer.h"
#include "io/output_file.h"

hegetcl_status hegetcl_run_card_read(const char *path, hegetcl_run_card *out, char *message,
                                     size_t message_size) {
  if (message_size > 0 && message != NULL) message[0] = '\0';
  if (path == NULL || out == NULL) {
    if (message != NULL && message_size > 0)
      snprintf(message, message_size, "hegetcl_run_card_read: path and out must not be NULL");
    return HEGETCL_ERR_INPUT;
  }
  hg_xsec_options *o = malloc(sizeof *o);
  if (o == NULL) return HEGETCL_ERR_NO_MEMORY;
  char *argv[] = {"--card", (char *)path};
  /* the whole message first, whatever the caller's buffer holds: the status is read from it */
  char full[4096] = "";
  const int rc = hg_xsec_options_parse_into(2, argv, o, full, sizeof full);
  if (message != NULL && message_size > 0) snprintf(message, message_size, "%s", full);
  hegetcl_status status = HEGETCL_OK;
  if (rc != 0) {
    /* a card that cannot be read is an I/O error, anything else a bad value */
    status = strstr(full, "cannot read") != NULL ? HEGETCL_ERR_IO : HEGETCL_ERR_INPUT;
  } else {
    memset(out, 0, sizeof *out);
    out->config = o->config;
    snprintf(out->device, sizeof out->device, "%s", o->device);
    snprintf(out->lhe, sizeof out->lhe, "%s", o->lhe);
  }
  hg_xsec_options_free(o);
  free(o);
  return status;
}

hegetcl_status hegetcl_xsec_write_lhe(hegetcl_context *ctx, const hegetcl_xsec_config *config,
                                      const char *path, hegetcl_xsec_result *result) {
  if (ctx == NULL || config == NULL || result == NULL) return HEGETCL_ERR_INPUT;
  memset(result, 0, sizeof *result);
  if (path == NULL || path[0] == '\0' || config->unweighted_events == 0)
    return hg_fail(ctx, HEGETCL_ERR_INPUT,
                   "hegetcl_xsec_write_lhe needs a path and config->unweighted_events > 0 (the "
                   "events to write)");
  char message[2048], comment[1024], what[256];
  if (config->process_text[0] != '\0')
    snprintf(what, sizeof what, "%s at LO", config->process_text);
  else
    snprintf(what, sizeof what, "p p -> %u photons via q qbar at LO", config->process.n_photons);
  snprintf(comment, sizeof comment,
           "hegetcl %s: %s, unweighted events; device %s (%s; driver %s)", HEGETCL_VERSION, what,
           ctx->info.name, ctx->info.platform, ctx->info.driver_version);
  hg_event_sink sink = {.lhe = {.config = config, .run_card = NULL, .comment = comment}};
  int rc =
      hg_event_format_of("hegetcl_xsec_write_lhe", path, &sink.format, message, sizeof message);
  if (rc != 0) return hg_fail(ctx, rc, "%s", message);
  if (hg_event_sink_open(&sink, path, message, sizeof message) != 0)
    return hg_fail(ctx, HEGETCL_ERR_IO, "%s", message);
  const hegetcl_xsec_hooks hooks = {
      .events_begin = hg_event_sink_begin, .sink = hg_event_sink_write, .sink_user = &sink};
  hegetcl_status status = hegetcl_xsec_generate(ctx, config, &hooks, result);
  if (status != HEGETCL_OK && sink.lhe.message[0] != '\0')
    status = hg_fail(ctx, status, "%s", sink.lhe.message);
  /* a failed run leaves no file behind: the temporary one is removed */
  if (hg_event_sink_close(&sink, status == HEGETCL_OK, message, sizeof message) != 0 &&
      status == HEGETCL_OK)
    status = hg_fail(ctx, HEGETCL_ERR_IO, "%s", message);
  return status;
}
