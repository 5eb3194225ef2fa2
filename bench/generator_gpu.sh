#!/bin/sh
# SPDX-License-Identifier: MIT
# The generator benchmark on a GPU from a cold and then a warm program cache: builds hegetcl,
# runs bench/generator_bench.sh for the processes given (default tt,ttj) with an empty program
# cache, then p p > t t~ j again with the cache the first run filled, and keeps each program's
# build seconds (HEGETCL_BUILD_LOG=1, the "ready in" lines in OUT/*/KEY.log.builds). With
# THREADS_COMPARE=N it first builds p p > t t~ j cold with HEGETCL_BUILD_THREADS=N (N programs at
# once; the runs after it build one after another), so the two cold build times compare. Everything ends up in OUT/generator.tgz
# too (event files left out).
# Usage: bench/generator_gpu.sh OUT [PROCESSES] [EVENTS]   (SHARED_DIR: meson's shared_dir)
set -u
out=$1 processes=${2:-tt,ttj} events=${3:-100000}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
b=${BUILD:-/tmp/hegetcl-gpu-build}
[ -d "$b" ] || meson setup "$b" -Dmpi=disabled ${SHARED_DIR:+-Dshared_dir=$SHARED_DIR} > "$out/setup.log" 2>&1
ninja -C "$b" hegetcl > "$out/ninja.log" 2>&1 || { tail -20 "$out/ninja.log"; exit 1; }
export HEGETCL_PROGRAM_CACHE=/tmp/hegetcl-gpu-program-cache
export HEGETCL_BUILD_LOG=1
pack() {
  for f in "$out"/*/*.log; do
    [ -f "$f" ] || continue
    grep "ready in" "$f" > "$f.builds" 2>/dev/null
    grep -v "build log of\|^$\|^(): Warning\|ready in\|program cache" "$f" > "$f.short" 2>/dev/null
  done
  (cd "$out" && tar czf generator.tgz --exclude='*.lhe' --exclude='*.tgz' --exclude='*/*.log' .)
}
trap pack EXIT
trap 'exit 1' TERM INT
if [ "${THREADS_COMPARE:-0}" -gt 1 ]; then
  rm -rf "$HEGETCL_PROGRAM_CACHE"
  HEGETCL_BUILD_THREADS=$THREADS_COMPARE OUT="$out/cold-threads" sh "$root/bench/generator_bench.sh" \
    "$b" --device gpu --events "$events" --processes ttj 2>&1 | tee "$out/cold-threads.txt"
fi
rm -rf "$HEGETCL_PROGRAM_CACHE"
OUT="$out/cold" sh "$root/bench/generator_bench.sh" "$b" --device gpu --events "$events" \
  --processes "$processes" 2>&1 | tee "$out/cold.txt"
OUT="$out/warm" sh "$root/bench/generator_bench.sh" "$b" --device gpu --events "$events" \
  --processes ttj 2>&1 | tee "$out/warm.txt"
