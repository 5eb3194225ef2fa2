#!/bin/sh
# SPDX-License-Identifier: MIT
# Counts the TAP lines Meson logged in one or more builds (BUILD_DIR/meson-logs/testlog.txt) or
# log files (a LOG given as a .txt file: tests/run --intel and --oclgrind log apart) and prints the
# closing line with their sums; a failed run with no 'not ok' line (a crash before any output, a
# build that failed and left no log) counts as one failure. Exits with the first non-zero STATUS.
# usage: summary.sh BUILD_DIR|LOG.txt STATUS [BUILD_DIR|LOG.txt STATUS]...
if [ $# -lt 2 ] || [ $(($# % 2)) -ne 0 ]; then
  echo "usage: summary.sh BUILD_DIR|LOG.txt STATUS [BUILD_DIR|LOG.txt STATUS]..." >&2
  exit 2
fi
passed=0 failed=0 skipped=0 exit_status=0
while [ $# -ge 2 ]; do
  case "$1" in
    *.txt) log=$1 ;;
    *) log=$1/meson-logs/testlog.txt ;;
  esac
  [ -f "$log" ] || log=/dev/null
  read -r p f s <<EOF_COUNTS
$(awk -v status="$2" '/^(not )?ok [0-9]+ # SKIP/ {s++; next} /^ok [0-9]/ {p++; next}
  /^not ok [0-9]/ {f++} END { if (status != 0 && f == 0) f = 1; printf "%d %d %d\n", p, f, s }' \
  "$log")
EOF_COUNTS
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
  [ "$exit_status" -eq 0 ] && exit_status=$2
  shift 2
done
printf "%d passed, %d failed, %d skipped\n" "$passed" "$failed" "$skipped"
exit "$exit_status"
