#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The performance study of docs/performance.md ("Speed"), one part at a time so that each fits a limited GPU booking:
#   bash bench/speed_study.sh PART DEVICE OUT_DIR [BUILD_DIR]
# PART is one of
#   me      matrix elements per second: permutation, unrolled, recursive, n = 2..8 (recursive
#           2..12), float and double, helicity-summed (recursive: shared and private sums) and one
#           configuration per event
#   diagrams  the same for the diagram engine, n = 2..6
#   cpu     the permutation and recursive engines, n = 2..8, for a CPU device (PoCL)
#   full    the whole cross-section pipeline of the paper's set-up, double and mixed, summed and
#           sampled, n = 2..8 (needs LHAPDF_DATA_PATH with cteq6l1)
#   scan    the paper's work-group study for 5 photons (double, one configuration per event):
#           local sizes 32..1024, register caps
#           0, 64, 128 (the caps on NVIDIA only)
#   tune    the recursive engine's work-group-shared helicity sum, n = 5..10, under layout variants:
#           work-items per event (HEGETCL_RS_THREADS 32, 64, 128), chunk items per work-item
#           (HEGETCL_RS_CHUNK_ITEMS 2, 4), events per work-group (HEGETCL_RS_EVENTS 1, 4) and
#           the contraction without shared reads (-DHG_RS_PLAIN_CONTRACTION); tune-VARIANT.json
#           and .txt
#   large   the recursive engine's helicity sum for n = 7..12, shared (tables in global memory
#           where local memory is too small: n >= 9 on NVIDIA) and per work-item (n = 9..12), and
#           the global-table layout's variants at n = 10 and 12: work-items per event
#           (HEGETCL_RS_THREADS 128, 512, 1024), chunk items per work-item
#           (HEGETCL_RS_CHUNK_ITEMS 8), work-groups per compute unit (HEGETCL_RS_GLOBAL_GROUPS 1)
#           and the plain contraction; large.json and .txt, large-private.json and .txt,
#           large-tune.txt
#   serial  the single-threaded C build on one core of this machine (hegetcl-serial-bench)
# DEVICE is a --device spec (gpu, cpu, a name part). OUT_DIR receives PART.json and PART.txt.
# BUILD_DIR (default: a temporary folder) is configured and built when it has no build.ninja.
# Draw the figures with: python3 bench/plot_bench.py --out DIR OUT_DIR/*.json
set -uo pipefail
usage="usage: speed_study.sh me|diagrams|cpu|full|scan|tune|large|serial DEVICE OUT_DIR [BUILD_DIR]"
part=${1:?$usage}
device=${2:?$usage}
out=${3:?$usage}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${4:-$(mktemp -d /tmp/hegetcl-speed.XXXXXX)}
mkdir -p "$out"
if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" "$root" --buildtype=release > "$out/setup-$part.txt" 2>&1 ||
    { cat "$out/setup-$part.txt"; exit 1; }
fi
targets=(hegetcl bench/hegetcl-bench)
[ "$part" = serial ] && targets+=(bench/serial/hegetcl-serial-bench)
ninja -C "$build" "${targets[@]}" > "$out/build-$part.txt" 2>&1 ||
  { tail -40 "$out/build-$part.txt"; exit 1; }
bench=("$build/bench/hegetcl-bench" --device "$device" --json "$out/$part.json")
case "$part" in
  me)
    "${bench[@]}" --engines permutation,unrolled,recursive --n 2-12 --summed-kernel shared,private \
      --max-seconds 4 > "$out/$part.txt" 2>&1 || true
    cat "$out/$part.txt" ;;
  diagrams)
    # the diagram engine's build takes ~1 min at n = 7 and ~14 at n = 8 on NVIDIA (docs/performance.md)
    "${bench[@]}" --engines diagrams --n 2-6 --max-seconds 4 > "$out/$part.txt" 2>&1 || true
    cat "$out/$part.txt" ;;
  cpu)
    # PoCL on every core: the HEGET engine and the recursive one
    "${bench[@]}" --engines permutation,recursive --n 2-8 --max-seconds 4 \
      > "$out/$part.txt" 2>&1 || true
    cat "$out/$part.txt" ;;
  full)
    "${bench[@]}" --pipeline full --engines recursive --n 2-8 --max-seconds 6 \
      > "$out/$part.txt" 2>&1 || true
    cat "$out/$part.txt" ;;
  scan)
    limits=0
    "$build/hegetcl" devices 2>/dev/null | grep -q NVIDIA && limits=0,64,128
    "${bench[@]}" --engines permutation,unrolled,diagrams,recursive --n 5 --mode helicity --precision double \
      --scan-local-size --register-limit "$limits" --max-seconds 6 > "$out/$part.txt" 2>&1 || true
    cat "$out/$part.txt" ;;
  tune)
    for variant in default plain t32 t64 t128 t128c2 e1 e4; do
      case "$variant" in
        default) vars=() ;;
        plain) vars=(HEGETCL_CL_OPTIONS=-DHG_RS_PLAIN_CONTRACTION) ;;
        t32) vars=(HEGETCL_RS_THREADS=32) ;;
        t64) vars=(HEGETCL_RS_THREADS=64) ;;
        t128) vars=(HEGETCL_RS_THREADS=128 HEGETCL_RS_CHUNK_ITEMS=4) ;;
        t128c2) vars=(HEGETCL_RS_THREADS=128 HEGETCL_RS_CHUNK_ITEMS=2) ;;
        e1) vars=(HEGETCL_RS_EVENTS=1) ;;
        e4) vars=(HEGETCL_RS_EVENTS=4) ;;
      esac
      env "${vars[@]}" "$build/bench/hegetcl-bench" --device "$device" --engines recursive --n 5-10 \
        --mode summed --max-seconds 3 --json "$out/tune-$variant.json" > "$out/tune-$variant.txt" 2>&1
      echo "== $variant: ${vars[*]}"
      grep recursive "$out/tune-$variant.txt" || tail -3 "$out/tune-$variant.txt"
    done ;;
  large)
    "${bench[@]}" --engines recursive --n 7-12 --mode summed --max-seconds 3 > "$out/$part.txt" 2>&1
    cat "$out/$part.txt"
    "$build/bench/hegetcl-bench" --device "$device" --engines recursive --n 9-12 --mode summed \
      --summed-kernel private --max-seconds 3 --json "$out/$part-private.json" \
      > "$out/$part-private.txt" 2>&1
    cat "$out/$part-private.txt"
    : > "$out/$part-tune.txt"
    for variant in t128 t512 t1024 c8 g1 plain; do
      case "$variant" in
        t128) vars=(HEGETCL_RS_THREADS=128) ;;
        t512) vars=(HEGETCL_RS_THREADS=512) ;;
        t1024) vars=(HEGETCL_RS_THREADS=1024) ;;
        c8) vars=(HEGETCL_RS_CHUNK_ITEMS=8) ;;
        g1) vars=(HEGETCL_RS_GLOBAL_GROUPS=1) ;;
        plain) vars=(HEGETCL_CL_OPTIONS=-DHG_RS_PLAIN_CONTRACTION) ;;
      esac
      echo "== $variant: ${vars[*]}" >> "$out/$part-tune.txt"
      env "${vars[@]}" "$build/bench/hegetcl-bench" --device "$device" --engines recursive \
        --n 10,12 --mode summed --max-seconds 2 2>&1 | grep -E "^me |error" \
        >> "$out/$part-tune.txt"
    done
    cat "$out/$part-tune.txt" ;;
  serial)
    "$build/bench/serial/hegetcl-serial-bench" --n 2-8 --max-seconds 2 --json "$out/$part.json" \
      > "$out/$part.txt" 2>&1 || true
    cat "$out/$part.txt" ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
