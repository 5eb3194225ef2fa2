#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The quark-line recursion on a GPU: its sampled colours against the exact colour sum (tests
# flow_colour_sampling and flow_recursion_flops on the GPU), then hegetcl-bench's speed and
# counted TFLOP/s for three quark-line processes with the exact colour sum and with one sampled
# assignment per event, double and float. From the project root:
#   bash bench/quark_line_colour_gpu.sh BUILD_DIR OUT_DIR [SHARED_DIR]
# Writes OUT_DIR/{commit,gpu,tests,speed}.txt and speed.json; prints the tests' summary and the
# speed table.
set -u
build=$1
out=$2
shared=${3:-$PWD/../shared}
mkdir -p "$out"
if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" -Dshared_dir="$shared" -Dmpi=disabled > "$out/setup.txt" 2>&1 ||
    { tail -30 "$out/setup.txt"; exit 1; }
fi
ninja -C "$build" bench/hegetcl-bench tests/amplitudes/flow_colour_sampling \
  tests/amplitudes/flow_recursion_flops > "$out/build.txt" 2>&1 ||
  { tail -40 "$out/build.txt"; exit 1; }
# the commit: COMMIT beside the tree where it was copied without its .git, else git's
{ cat COMMIT 2>/dev/null || git log -1 --format='%h %cd'; } | tee "$out/commit.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
HEGETCL_TEST_DEVICE=gpu meson test -C "$build" --print-errorlogs flow_colour_sampling \
  flow_recursion_flops > "$out/tests.txt" 2>&1
status=$?
cp "$build/meson-logs/testlog.txt" "$out/testlog.txt" 2>/dev/null
grep -E "^ *[0-9]+/[0-9]+ |^(Ok|Fail):" "$out/tests.txt"
"$build/bench/hegetcl-bench" --device gpu --process "u u~ > d d~ g g g" \
  --process "u u > u u g g" --process "u u~ > t t~ g g" --colour full,sampled \
  --precision double,float --max-seconds 2 --json "$out/speed.json" > "$out/speed.txt" 2>&1 ||
  status=1
tail -14 "$out/speed.txt"
exit $status
