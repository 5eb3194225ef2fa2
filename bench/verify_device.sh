#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the test suite and the benchmark against one OpenCL device, keeping every log:
#   bash bench/verify_device.sh DEVICE OUT_DIR [SHARED_DIR]
# DEVICE is a --device spec (gpu, cpu, P:D, a name part); OUT_DIR receives testlog.txt,
# tests.txt (the closing count), bench.json and bench.txt. SHARED_DIR holds refs/ (default
# ../shared). The build goes to a temporary folder.
set -uo pipefail
device=${1:?usage: verify_device.sh DEVICE OUT_DIR [SHARED_DIR]}
out=${2:?usage: verify_device.sh DEVICE OUT_DIR [SHARED_DIR]}
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${3:-$root/../shared}
build=$(mktemp -d /tmp/hegetcl-verify.XXXXXX)
mkdir -p "$out"
meson setup "$build" "$root" -Dshared_dir="$shared" > "$out/setup.txt" 2>&1 || { cat "$out/setup.txt"; exit 1; }
ninja -C "$build" > "$out/build.txt" 2>&1 || { tail -40 "$out/build.txt"; exit 1; }
"$build/hegetcl" devices | tee "$out/devices.txt"
# The PDF comparison with the Python package parton runs where parton is installed (CI, setup.sh);
# a GPU machine without it leaves that host-only test out and says so.
exclude=()
if ! python3 -c 'import parton' 2>/dev/null; then
  exclude=(--no-suite parton)
  echo "verify_device.sh: python3 cannot import parton: the host-only test agrees_with_parton is left out" | tee "$out/excluded.txt"
fi
# The tests that read outputs back with pylhe (suite python) need it too.
if ! python3 -c 'import pylhe' 2>/dev/null; then
  exclude+=(--no-suite python)
  echo "verify_device.sh: python3 cannot import pylhe: the suite python is left out" | tee -a "$out/excluded.txt"
fi
# HEGETCL_VERIFY_SKIP_SUITES (e.g. "host") leaves suites out, where the device time is short
for suite in ${HEGETCL_VERIFY_SKIP_SUITES:-}; do
  exclude+=(--no-suite "$suite")
  echo "verify_device.sh: HEGETCL_VERIFY_SKIP_SUITES leaves the suite $suite out" | tee -a "$out/excluded.txt"
done
# --setup exhaustive: the suite exhaustive too (every point of the property tests)
HEGETCL_TEST_DEVICE=$device meson test -C "$build" --setup exhaustive --print-errorlogs --num-processes 1 \
  --timeout-multiplier "${HEGETCL_TIMEOUT_MULTIPLIER:-1}" "${exclude[@]}" > "$out/tests.txt" 2>&1
status=$?
cp "$build/meson-logs/testlog-exhaustive.txt" "$out/testlog.txt" # named after the setup
cp "$out/testlog.txt" "$build/meson-logs/testlog.txt"                # where summary.sh reads it
grep -E '^ *[0-9]+/[0-9]+ ' "$out/tests.txt"
sh "$root/tests/support/summary.sh" "$build" "$status" | tee -a "$out/tests.txt"
if [ -n "${HEGETCL_BENCH_ARGS:-}" ]; then
  # shellcheck disable=SC2086
  "$build/bench/hegetcl-bench" --device "$device" $HEGETCL_BENCH_ARGS --json "$out/bench.json" \
    > "$out/bench.txt" 2>&1
  cat "$out/bench.txt"
fi
exit "$status"
