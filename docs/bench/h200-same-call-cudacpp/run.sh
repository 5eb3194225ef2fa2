#!/usr/bin/env bash
# GPU call B/C: PART=speed: CUDACPP and hegetcl side by side (kernel |M|^2/s, exact colour, summed
# helicities), quark-line processes, the colour-kernel fix on NVIDIA; then the generator end to
# end from a cold program cache for PROCS. Few files under $OUT: summary.txt, raw.tgz, events.tar.
set -uo pipefail
T0=$SECONDS; el() { echo $((SECONDS - T0)); }
R=$PWD
W=/tmp/work-$$; mkdir -p $W
exec > >(tee $OUT/summary.txt) 2>&1
source .opencl-device/opencl-env.sh > $W/env.txt 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
cat .gpu/COMMIT
export LHAPDF_DATA_PATH=$R/.shared-copy/pdfsets
B=/tmp/b
[ -f $B/build.ninja ] || meson setup $B -Dshared_dir=$R/.shared-copy -Dmpi=disabled > $W/setup.txt 2>&1 || { tail -30 $W/setup.txt; exit 1; }
ninja -C $B > $W/build.txt 2>&1 || { tail -40 $W/build.txt; exit 1; }
echo "built at $(el) s"
if [[ ",${PART:-}," == *",speed,"* ]]; then
  cc() { # dir precision args
    (cd .cudacpp-bin/$1/SubProcesses/P1_* && ./build.cuda_$2_inl0_hrd0/check_cuda.exe -p $3 $4 $5 2>&1 |
      grep -E "EvtsPerSec\[MECalcOnly\]|ERROR|Error" | head -3 | sed "s|^|cudacpp $1 $2: |")
  }
  cc gg_ttgg.sa d 2048 256 40; cc gg_ttgg.sa f 2048 256 40
  cc gg_ttggg.sa d 1024 256 4; cc gg_ttggg.sa f 1024 256 4
  echo "cudacpp at $(el) s"
  hb() { $B/bench/hegetcl-bench --device gpu --engines recursive --precision double,float "$@"; }
  hb --process "g g > t t~ g g" --process "g g > t t~ g g g" --max-seconds 3 > $W/hegetcl_gluons.txt 2>&1
  hb --process "g g > t t~ g g g g" --max-events 16384 --max-seconds 3 >> $W/hegetcl_gluons.txt 2>&1
  grep -vE "^\s*$" $W/hegetcl_gluons.txt | tail -25
  echo "gluons at $(el) s"
  hb --process "u u~ > t t~ g g" --process "u u > u u g g" --process "u u~ > d d~ g g g" \
    --process "g u > t t~ u g g" --max-seconds 2 > $W/hegetcl_quarks.txt 2>&1
  grep -vE "^\s*$" $W/hegetcl_quarks.txt | tail -25
  echo "quark lines at $(el) s"
  cc gg_ttgg.sa d 2048 256 40; cc gg_ttggg.sa d 1024 256 4
  echo "cudacpp again at $(el) s"
  HEGETCL_CO_GLOBAL_TABLES=1 HEGETCL_CO_GROUP=4 $B/hegetcl me --device gpu --engine recursive --process "g g > g g g g" $R/.shared-copy/refs/mg5-qcd/me_gg_gggg.txt 2>&1 | tail -3
  HEGETCL_TEST_DEVICE=gpu HEGETCL_PROGRAM_CACHE=/tmp/hgpc timeout 120 meson test -C $B colour_group_equals_item recursive_flow_weights five_flavours --print-errorlogs > $W/tests.txt 2>&1
  grep -E "^ *[0-9]+/|^(Ok|Fail):" $W/tests.txt
  echo "tests at $(el) s"
fi
export HEGETCL_PROGRAM_CACHE=/tmp/gen-cache HEGETCL_BUILD_LOG=1
[ -n "${KEEP_CACHE:-}" ] || rm -rf $HEGETCL_PROGRAM_CACHE
G=/tmp/gen; mkdir -p $G
for key in ${PROCS:-}; do
  left=$(( ${LIMIT:-575} - $(el) )); [ $left -lt 40 ] && { echo "skipped $key (time)"; continue; }
  OUT=$G/cold timeout $left sh bench/generator_bench.sh $B --device gpu --events ${EVENTS:-10000} --processes $key > $G/cold-$key.txt 2>&1
  echo "$key: exit $? at $(el) s"; grep -A3 "^process" $G/cold-$key.txt | head -4
  grep -h "ready in" $G/cold/$key.log | awk '{for(i=1;i<=NF;i++) if($i=="in") s+=$(i+1)} END {print "  programs built:", NR, "compile seconds summed:", s}'
done
if [ -n "${WARM:-}" ]; then
  left=$(( ${LIMIT:-575} - $(el) ))
  [ $left -gt 30 ] && OUT=$G/warm timeout $left sh bench/generator_bench.sh $B --device gpu --events ${EVENTS:-10000} --processes $WARM > $G/warm.txt 2>&1 && grep -A2 "^process" $G/warm.txt
fi
for key in ttjj ttjjj jjj jjjj; do
  [ -f $G/cold/$key.lhe ] && awk '{print} /^<\/event>/ {n++; if (n == 2000) {print "</LesHouchesEvents>"; exit}}' $G/cold/$key.lhe | gzip > $W/$key.lhe.gz
done
(cd $W && ls *.lhe.gz > /dev/null 2>&1 && tar cf $OUT/events.tar *.lhe.gz)
mkdir -p $W/gen; cp $G/*.txt $W/gen/ 2>/dev/null; for d in cold warm; do [ -d $G/$d ] && { mkdir -p $W/gen/$d; cp $G/$d/*.json $G/$d/*.log $W/gen/$d/ 2>/dev/null; }; done
(cd $W && tar czf $OUT/raw.tgz --exclude='*.lhe.gz' .)
echo "done at $(el) s"
