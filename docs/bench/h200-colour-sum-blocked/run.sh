#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The blocked colour sum and the amplitudes in local memory (cl/amplitudes/colour_group.cl)
# against the tree before them, in one device command. Run from the checkout's root with the tree
# before at OLD and the tree after at NEW (each a copy without .git; COMMIT files name them):
#   OLD=$PWD NEW=$PWD/.wt/x SHARED=$PWD/.shared-copy bash NEW/docs/bench/h200-colour-sum-blocked/run.sh
# Logs under $OUT: build logs, bench-<tree>-<part>.txt (with NVIDIA's verbose build log, the
# registers and spills), test-new-*.txt; a step is left out once LIMIT seconds have passed.
# PARTS (default large,speed,tests,amps-global,nosum) picks the steps.
set -u
parts=${PARTS:-large,speed,tests,amps-global,nosum}
has() { [[ ",$parts," == *",$1,"* ]]; }
start=$SECONDS
limit=${LIMIT:-290}
left() { [ $((SECONDS - start)) -lt "$limit" ] || { echo "skipped (time): $*" | tee -a "$OUT/skipped.txt"; return 1; }; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
for t in old new; do
  dir=$OLD; [ $t = new ] && dir=$NEW
  (cd "$dir" && meson setup /tmp/$t -Dshared_dir="$SHARED" -Dmpi=disabled > "$OUT/setup-$t.txt" 2>&1 &&
    ninja -C /tmp/$t bench/hegetcl-bench tests/amplitudes/colour_group_equals_item \
      tests/amplitudes/qcd_agreement_with_madgraph > "$OUT/build-$t.txt" 2>&1; echo "build $t: $?") &
done
wait
echo "built at $((SECONDS - start)) s"
bench() { # tree part args...
  local t=$1 part=$2; shift 2
  left "$t $part" || return
  HEGETCL_BUILD_LOG=1 HEGETCL_CL_OPTIONS=-cl-nv-verbose HEGETCL_PROGRAM_CACHE=/tmp/hgpc-$t-$part \
    /tmp/$t/bench/hegetcl-bench --device gpu --engines recursive "$@" > "$OUT/bench-$t-$part.txt" 2>&1
  grep -E "^g g|^process" "$OUT/bench-$t-$part.txt" | sed "s/^/$t $part: /"
}
large=(--process "g g > t t~ g g g g" --precision double,float --max-events 16384 --max-seconds 2)
speed=(--process "g g > t t~ g g" --process "g g > t t~ g g g" --precision double,float --max-seconds 2)
has large && bench new large "${large[@]}"
has large && bench old large "${large[@]}"
has speed && bench new speed "${speed[@]}"
has speed && bench old speed "${speed[@]}"
if has tests && left tests; then
  for t in colour_group_equals_item qcd_agreement_with_madgraph; do
    # every configuration of the work-group kernels; MadGraph's points as the default suite has them
    exhaustive=0; [ $t = colour_group_equals_item ] && exhaustive=1
    HEGETCL_TEST_DEVICE=gpu HEGETCL_TEST_EXHAUSTIVE=$exhaustive HEGETCL_PROGRAM_CACHE=/tmp/hgpc-test \
      HEGETCL_QCD_REFS_DIR="$SHARED/refs/mg5-qcd" \
      /tmp/new/tests/amplitudes/$t > "$OUT/test-new-$t.txt" 2>&1
    echo "test $t exit $?" | tee -a "$OUT/test-new-$t.txt"
    grep -E "^#|^not ok|FAIL|differ|error" "$OUT/test-new-$t.txt" | head -20
  done
fi
# the changes apart on t t~ + 4 g double: the amplitudes in global memory again (HEGETCL_CO_A_LOCAL=0)
has amps-global && HEGETCL_CO_A_LOCAL=0 bench new amps-global --process "g g > t t~ g g g g" --precision double \
  --max-events 16384 --max-seconds 2
# the colour sum's share: a copy of NEW whose blocked colour sum has no terms (timing only)
if has nosum && left nosum; then
  rm -rf /tmp/nosum-src && cp -r "$NEW" /tmp/nosum-src &&
    sed -i '0,/for (int b = 0; b < (int)CO_ORDERINGS; ++b) {/s//for (int b = 0; b < 0; ++b) {/' \
      /tmp/nosum-src/cl/amplitudes/colour_group.cl &&
    (cd /tmp/nosum-src && meson setup /tmp/nosum -Dshared_dir="$SHARED" -Dmpi=disabled > /dev/null &&
      ninja -C /tmp/nosum bench/hegetcl-bench > "$OUT/build-nosum.txt" 2>&1) &&
    bench nosum large --process "g g > t t~ g g g g" --precision double --max-events 16384 \
      --max-seconds 2
fi
echo "done at $((SECONDS - start)) s"
