#!/usr/bin/env bash
# The recursive colour engine's measurements on a GPU machine, from the project root:
#   bash bench/colour_engine_study.sh BUILD_DIR OUT_DIR [PARTS]
# PARTS (default all): tests, speed, large, registers, cpu. Each writes OUT_DIR/<part>.txt and,
# for the benchmarks, OUT_DIR/<part>.json. cpu needs PoCL (bench/pocl_bundle.sh on a machine
# without it) and pins it to one core.
set -u
build=$1
out=$2
parts=${3:-tests,speed,large,registers,cpu}
bench=("$build/bench/hegetcl-bench" --device gpu)
mkdir -p "$out"
has() { [[ ",$parts," == *",$1,"* ]]; }

if has tests; then
  # the colour engine's tests on the GPU (the whole device suite: bench/verify_device.sh)
  HEGETCL_TEST_DEVICE=gpu meson test -C "$build" --num-processes 4 recursive_colour colour_sampling \
    qcd_agreement_with_madgraph > "$out/tests.txt" 2>&1
  tail -12 "$out/tests.txt"
fi
if has speed; then
  # t t~ g g and t t~ g g g against CUDACPP: exact colour and sampled colours, every precision
  "${bench[@]}" --process "g g > t t~ g g" --process "g g > t t~ g g g" \
    --precision double,float,mixed --colour full,sampled --max-seconds 15 \
    --json "$out/speed.json" > "$out/speed.txt" 2>&1
  cat "$out/speed.txt"
fi
if has large; then
  # t t~ + 4 g and 6..8 gluons: few repeats, batches capped to keep each case under a minute
  "${bench[@]}" --process "g g > t t~ g g g g" --precision double,float --colour full,sampled \
    --max-events 16384 --max-seconds 15 --json "$out/large-ttx4g.json" > "$out/large.txt" 2>&1
  "${bench[@]}" --process "g g > g g g g g g" --process "g g > g g g g g g g" \
    --process "g g > g g g g g g g g" --precision double,float --colour sampled \
    --helicity sampled --max-events 16384 --max-seconds 15 --json "$out/large-gluons.json" \
    >> "$out/large.txt" 2>&1
  cat "$out/large.txt"
fi
if has registers; then
  # registers and spills per kernel (NVIDIA's verbose build log), t t~ g g g double and float
  HEGETCL_BUILD_LOG=1 HEGETCL_CL_OPTIONS=-cl-nv-verbose "${bench[@]}" \
    --process "g g > t t~ g g g" --precision double,float --colour full --max-events 1024 \
    --max-seconds 1 2>&1 | grep -E "ptxas|Function properties|spill|registers|build log" \
    > "$out/registers.txt"
  cat "$out/registers.txt"
fi
if has cpu; then
  # one CPU core of the same machine through PoCL (the HEGET paper's GPU/CPU ratio)
  POCL_MAX_PTHREAD_COUNT=1 taskset -c 0 "$build/bench/hegetcl-bench" --device cpu \
    --process "g g > t t~ g g" --process "g g > t t~ g g g" --precision double,float \
    --max-events 256 --max-seconds 20 --json "$out/cpu-one-core.json" > "$out/cpu.txt" 2>&1
  cat "$out/cpu.txt"
fi
