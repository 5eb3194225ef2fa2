#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The recursive colour engine's work-group kernels against its one-event-per-work-item kernels on
# a GPU, from the project root:
#   bash bench/colour_group_gpu.sh BUILD_DIR OUT_DIR [PARTS] [SHARED_DIR]
# PARTS (default check,speed,registers): check (the two kernels agree on the GPU,
# colour_group_equals_item), speed (g g > t t~ g g, t t~ g g g with both kernels, t t~ g g g g,
# double and float, table and JSON), registers (NVIDIA's verbose build log of both kernels),
# shapes (events per work-group for t t~ g g), cudacpp (MadGraph's CUDACPP standalone
# g g > t t~ g g, double and float, from .cudacpp/gg_ttgg.sa: docs/performance.md says how to
# get it). Each part writes OUT_DIR/<part>.txt.
set -u
build=$1
out=$2
parts=${3:-check,speed,registers}
shared=${4:-$PWD/../shared}
mkdir -p "$out"
has() { [[ ",$parts," == *",$1,"* ]]; }
root=$PWD

if has cudacpp && [ -d .cudacpp/gg_ttgg.sa ]; then
  # built first, detached, while hegetcl builds and runs (about 35 s for d and f)
  (cd .cudacpp/gg_ttgg.sa/SubProcesses/P1_*/ &&
    for f in d f; do
      MADGRAPH_CUDA_ARCHITECTURE=90 make -j8 USEBUILDDIR=1 BACKEND=cuda FPTYPE=$f gpu_fcheckmain= \
        > "$out/cudacpp-build-$f.txt" 2>&1 &
    done
    wait) &
  cudacpp_build=$!
fi

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" -Dshared_dir="$shared" -Dmpi=disabled > "$out/setup.txt" 2>&1 ||
    { tail -30 "$out/setup.txt"; exit 1; }
fi
ninja -C "$build" bench/hegetcl-bench tests/amplitudes/colour_group_equals_item \
  > "$out/build.txt" 2>&1 || { tail -40 "$out/build.txt"; exit 1; }
bench=("$build/bench/hegetcl-bench" --device gpu)
# the commit: COMMIT beside the tree where it was copied without its .git, else git's
{ cat COMMIT 2>/dev/null || git -C "$root" log -1 --format='%h %cd'; } | tee "$out/commit.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv | tee "$out/gpu.txt"

if has check; then
  HEGETCL_TEST_DEVICE=gpu "$build/tests/amplitudes/colour_group_equals_item" > "$out/check.txt" 2>&1
  echo "check exit $?"
  grep -E "^#|^ok|^not ok" "$out/check.txt"
fi
if has speed; then
  for kernel in item group; do
    HEGETCL_CO_KERNEL=$kernel "${bench[@]}" --process "g g > t t~ g g" --process "g g > t t~ g g g" \
      --precision double,float --max-seconds 3 --json "$out/speed-$kernel.json" \
      > "$out/speed-$kernel.txt" 2>&1
  done
  # t t~ + 4 g: an event's words do not fit in 48 KB of local memory (the work-item kernels)
  "${bench[@]}" --process "g g > t t~ g g g g" --precision double,float --max-events 16384 \
    --max-seconds 3 --json "$out/speed-ttgggg.json" > "$out/speed-ttgggg.txt" 2>&1
  grep -hE "^g g" "$out"/speed-*.txt
fi
if has shapes; then
  for shape in 2 4 8 2,64 4,128; do
    echo "HEGETCL_CO_GROUP=$shape"
    HEGETCL_CO_GROUP=$shape "${bench[@]}" --process "g g > t t~ g g" --precision double,float \
      --max-seconds 2 2>&1 | grep -E "^g g"
  done > "$out/shapes.txt" 2>&1
  cat "$out/shapes.txt"
fi
if has registers; then
  for kernel in item group; do
    echo "== $kernel"
    HEGETCL_CO_KERNEL=$kernel HEGETCL_BUILD_LOG=1 HEGETCL_CL_OPTIONS=-cl-nv-verbose \
      HEGETCL_PROGRAM_CACHE=/tmp/hg-regs-$kernel "${bench[@]}" --process "g g > t t~ g g" \
      --process "g g > t t~ g g g" --precision double,float --max-events 1024 --max-seconds 1 2>&1 |
      grep -E "Compiling entry|Function properties|spill|Used [0-9]+ registers"
  done > "$out/registers.txt" 2>&1
  head -80 "$out/registers.txt"
fi
if has cudacpp && [ -n "${cudacpp_build:-}" ]; then
  wait "$cudacpp_build"
  for f in d f; do
    exe=$(ls -d .cudacpp/gg_ttgg.sa/SubProcesses/P1_*/build.cuda_${f}_*/check_cuda.exe 2>/dev/null | head -1)
    if [ -z "$exe" ]; then
      echo "cudacpp $f: no check_cuda.exe"; tail -5 "$out/cudacpp-build-$f.txt"; continue
    fi
    "$exe" -p 2048 256 40 > "$out/cudacpp-ttgg-$f.txt" 2>&1
    echo "cudacpp g g > t t~ g g $f: $(grep -E 'EvtsPerSec\[MECalcOnly\]' "$out/cudacpp-ttgg-$f.txt")"
  done
  git -C .cudacpp log -1 --format=%h 2>/dev/null
  cat .cudacpp/COMMIT 2>/dev/null
fi
