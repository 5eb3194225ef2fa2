#!/usr/bin/env bash
# GPU: the device suite (exhaustive setup) against NVIDIA's OpenCL at the final commit
set -uo pipefail
T0=$SECONDS; el() { echo $((SECONDS - T0)); }
R=$PWD
exec > >(tee $OUT/summary.txt) 2>&1
source .opencl-device/opencl-env.sh > /dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/COMMIT
export LHAPDF_DATA_PATH=$R/.shared-copy/pdfsets
B=/tmp/b
[ -f $B/build.ninja ] || meson setup $B -Dshared_dir=$R/.shared-copy -Dmpi=disabled > /tmp/setup.txt 2>&1
ninja -C $B > /tmp/build.txt 2>&1 || { tail -40 /tmp/build.txt; exit 1; }
echo "built at $(el) s"
export HEGETCL_TEST_DEVICE=gpu HEGETCL_PROGRAM_CACHE=/tmp/hgpc
timeout 560 meson test -C $B --setup exhaustive --print-errorlogs --num-processes 10 \
  --suite device --no-suite python --no-suite library > /tmp/suite.txt 2>&1
status=$?
echo "suite status $status at $(el) s"
grep -E "^ *[0-9]+/[0-9]+ " /tmp/suite.txt | sed 's/  */ /g' | cut -c1-120
grep -E "^(Ok|Fail|Timeout|Skipped):" /tmp/suite.txt
gzip -c $B/meson-logs/testlog-exhaustive.txt > $OUT/testlog.txt.gz
echo "done at $(el) s"
