#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs one libFuzzer target for a bounded time from its checked-in seed corpus and reports it as
# one TAP test: ok with the number of executions, not ok on a crash, leak, UB report, timeout or
# out-of-memory, with the log's end and where libFuzzer saved the input.
# usage: run_fuzzer.sh FUZZER SEED_CORPUS DICTIONARY WORK_DIR
# HEGETCL_FUZZ_SECONDS: fuzzing time per target (default 120).
set -u
fuzzer=$1 seeds=$2 dict=$3 work=$4
seconds=${HEGETCL_FUZZ_SECONDS:-120}
name=$(basename "$fuzzer")
echo "1..1"
case $seconds in
  '' | *[!0-9]*)
    echo "not ok 1 - $name: HEGETCL_FUZZ_SECONDS='$seconds' is not a whole number of seconds"
    exit 1 ;;
esac
# A fresh work folder each run: the inputs libFuzzer finds go there, in the build tree; the seed
# folder is only read, so the checkout never changes. TMPDIR keeps the targets' files there too.
rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts" || { echo "not ok 1 - $name: cannot make $work"; exit 1; }
log=$work/fuzz.log
# -timeout: an input taking 10 s is a hang; -max_len 4096 bounds what the LHAPDF reader may
# allocate from a header's knot counts well below -rss_limit_mb; timeout(1) stops a fuzzer that
# overruns its own limit (the final leak check included) after a 120 s margin.
TMPDIR=$work UBSAN_OPTIONS=print_stacktrace=1 \
  timeout $((seconds + 120)) "$fuzzer" -max_total_time="$seconds" -timeout=10 -max_len=4096 \
  -rss_limit_mb=2560 -dict="$dict" -artifact_prefix="$work/artifacts/" -print_final_stats=1 \
  "$work/corpus" "$seeds" >"$log" 2>&1
status=$?
n_seeds=$(find "$seeds" -type f | wc -l)
n_new=$(find "$work/corpus" -type f | wc -l)
# libFuzzer's last lines: "#N DONE cov: C ft: F corp: K/SIZE ..." and "Done N runs in S second(s)"
runs=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1/p' "$log")
took=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\2/p' "$log")
cov=$(sed -n 's/^#[0-9]*[[:space:]]*DONE .*cov: \([0-9]*\).*/\1/p' "$log")
if [ "$status" -eq 0 ] && [ -n "$runs" ]; then
  echo "ok 1 - $name: $runs executions in $took s from $n_seeds seed inputs, $n_new new inputs," \
    "${cov:-?} coverage points; no crash, leak, hang or undefined behaviour"
  exit 0
fi
# After a crash only the status lines ("#N NEW ...") give the count.
[ -n "$runs" ] || runs=$(sed -n 's/^#\([0-9]*\)[[:space:]].*/\1/p' "$log" | tail -n 1)
artifact=$(find "$work/artifacts" -type f | head -n 1)
echo "not ok 1 - $name: exit status $status after ${runs:-an unknown number of} executions from" \
  "$n_seeds seed inputs; input saved as ${artifact:-(none)} (once fixed, add it to $seeds as a" \
  "regression case)"
tail -n 80 "$log" | sed 's/^/# /'
exit 1
