#!/bin/sh
# SPDX-License-Identifier: MIT
# Counts the TAP lines Meson logged and prints the closing line; a failed run with no 'not ok'
# line (a crash before any output) counts as one failure. usage: summary.sh BUILD_DIR STATUS
awk -v status="$2" '/^(not )?ok [0-9]+ # SKIP/ {s++; next} /^ok [0-9]/ {p++; next} /^not ok [0-9]/ {f++}
  END { if (status != 0 && f == 0) f = 1; printf "%d passed, %d failed, %d skipped\n", p, f, s }' \
  "$1/meson-logs/testlog.txt"
exit "$2"
