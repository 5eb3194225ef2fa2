#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The recursive colour engine's work-group kernels (cl/amplitudes/colour_group.cl) against its
# one-event-per-work-item kernels on a GPU, from the project root:
#   bash bench/colour_group_gpu.sh BUILD_DIR OUT_DIR [PARTS] [SHARED_DIR]
# PARTS, run in this order (default speed,cudacpp,large,check):
#   speed     g g > t t~ g g and t t~ g g g with both kernels, double and float (table, JSON)
#   cudacpp   MadGraph's CUDACPP standalone g g > t t~ g g, double and float, in the same call:
#             .cudacpp/gg_ttgg.sa beside the tree (docs/performance.md, "QCD processes", says
#             which one), built detached at the start
#   large     g g > t t~ g g g g with the work-group kernels (tables in global memory), double
#             and float, with NVIDIA's verbose build log; both kernels with LARGE_ITEM=1
#   check     the two kernels agree on the GPU (colour_group_equals_item, exhaustive)
#   registers NVIDIA's verbose build log of both kernels for t t~ g g and t t~ g g g
#   shapes    events per work-group for t t~ g g
# Each part writes OUT_DIR/<part>*.txt; the last lines printed are the table.
set -u
build=$1
out=$2
parts=${3:-speed,cudacpp,large,check}
shared=${4:-$PWD/../shared}
mkdir -p "$out"
has() { [[ ",$parts," == *",$1,"* ]]; }

if has cudacpp && [ -d .cudacpp/gg_ttgg.sa ]; then
  # about 35 s for d and f, while hegetcl builds and runs (nvcc from the CUDA toolkit)
  export PATH=$PATH:/usr/local/cuda/bin
  (cd .cudacpp/gg_ttgg.sa/SubProcesses/P1_*/ &&
    for f in d f; do
      MADGRAPH_CUDA_ARCHITECTURE=90 make -j6 USEBUILDDIR=1 BACKEND=cuda FPTYPE=$f gpu_fcheckmain= \
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
{ cat COMMIT 2>/dev/null || git log -1 --format='%h %cd'; } | tee "$out/commit.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"

if has speed; then
  for kernel in item group; do
    HEGETCL_CO_KERNEL=$kernel "${bench[@]}" --process "g g > t t~ g g" --process "g g > t t~ g g g" \
      --precision double,float --max-seconds 2 --json "$out/speed-$kernel.json" \
      > "$out/speed-$kernel.txt" 2>&1
  done
fi
if has cudacpp && [ -n "${cudacpp_build:-}" ]; then
  wait "$cudacpp_build"
  for f in d f; do
    exe=$(ls -d .cudacpp/gg_ttgg.sa/SubProcesses/P1_*/build.cuda_${f}_*/check_cuda.exe 2>/dev/null | head -1)
    if [ -z "$exe" ]; then
      echo "cudacpp $f: no check_cuda.exe" > "$out/cudacpp-ttgg-$f.txt"
      tail -5 "$out/cudacpp-build-$f.txt" >> "$out/cudacpp-ttgg-$f.txt"
      continue
    fi
    "$exe" -p 2048 256 40 > "$out/cudacpp-ttgg-$f.txt" 2>&1
  done
fi
if has large; then
  kernels=group
  [ "${LARGE_ITEM:-0}" = 1 ] && kernels="item group"
  for kernel in $kernels; do
    HEGETCL_CO_KERNEL=$kernel HEGETCL_BUILD_LOG=1 HEGETCL_CL_OPTIONS=-cl-nv-verbose \
      HEGETCL_PROGRAM_CACHE=/tmp/hg-large-$kernel "${bench[@]}" --process "g g > t t~ g g g g" \
      --precision double,float --max-events 16384 --max-seconds 2 \
      --json "$out/large-$kernel.json" > "$out/large-$kernel.txt" 2>&1
  done
fi
if has check; then
  HEGETCL_TEST_DEVICE=gpu HEGETCL_TEST_EXHAUSTIVE=1 \
    "$build/tests/amplitudes/colour_group_equals_item" > "$out/check.txt" 2>&1
  echo "check exit $?" >> "$out/check.txt"
fi
if has registers; then
  for kernel in item group; do
    echo "== $kernel"
    HEGETCL_CO_KERNEL=$kernel HEGETCL_BUILD_LOG=1 HEGETCL_CL_OPTIONS=-cl-nv-verbose \
      HEGETCL_PROGRAM_CACHE=/tmp/hg-regs-$kernel "${bench[@]}" --process "g g > t t~ g g" \
      --process "g g > t t~ g g g" --precision double,float --max-events 1024 --max-seconds 1 2>&1 |
      grep -E "Compiling entry|Function properties|spill|Used [0-9]+ registers|^g g"
  done > "$out/registers.txt" 2>&1
fi
if has shapes; then
  for shape in 2 4 8 2,64 4,128; do
    echo "HEGETCL_CO_GROUP=$shape"
    HEGETCL_CO_GROUP=$shape "${bench[@]}" --process "g g > t t~ g g" --precision double,float \
      --max-seconds 2 2>&1 | grep -E "^g g"
  done > "$out/shapes.txt" 2>&1
fi

# the summary: the table rows, CUDACPP's rates, the large cases' registers, the check
echo "== $(cat "$out/commit.txt") on $(cat "$out/gpu.txt")"
grep -hE "^g g" "$out"/speed-*.txt "$out"/large-*.txt 2>/dev/null
for f in d f; do
  [ -f "$out/cudacpp-ttgg-$f.txt" ] &&
    echo "cudacpp g g > t t~ g g $f: $(grep -E 'EvtsPerSec\[MECalcOnly\]|no check_cuda' "$out/cudacpp-ttgg-$f.txt")"
done
[ -f .cudacpp/COMMIT ] && echo "cudacpp source: $(cat .cudacpp/COMMIT)"
grep -hE "Function properties for amplitude_(summed|helicity)" -A2 "$out"/large-*.txt 2>/dev/null
[ -f "$out/check.txt" ] && grep -E "^#|^not ok|check exit|FAILED|PASSED" "$out/check.txt"
[ -f "$out/registers.txt" ] && cat "$out/registers.txt"
[ -f "$out/shapes.txt" ] && cat "$out/shapes.txt"
exit 0
