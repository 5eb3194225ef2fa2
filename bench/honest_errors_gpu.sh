#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The GPU checks of honest errors behind docs/validation.md, "Cross sections to n = 12", in one call:
#   bash bench/honest_errors_gpu.sh HEGETCL OUT_DIR [DEVICE]
# 1. n = 8, every default (auto: multichannel), 20 seeds: the pulls' spread and chi2/dof;
# 2. n = 10 at the table's settings, 20 seeds: is chi2/dof = 2.26 of the table a fluctuation?
#    (chi2/dof of honest runs averages 1; with 2 dof it exceeds 1.5 in 22 % of runs);
# 3. adaptive helicities against summed ones at n = 6, 7, both maps (the n = 3..7 check;
#    n <= 5 runs in CI on PoCL);
# 4. the u-first table n = 2..12 with 10 combined iterations of 3e5 events (9 dof for chi2/dof);
# 5. n = 8 to 0.1 % twice with a fresh hegetcl program cache: the first run compiles unless the
#    driver kept the program itself (NVIDIA's compute cache does, unless CUDA_CACHE_DISABLE=1:
#    docs/user-guide.md, "Program cache"), the second loads it.
# STEPS picks some (default "1 2 3 4 5"; one call of the device tool fits about 3 of them).
set -u
hegetcl=$1
out=$2
device=${3:-gpu}
mkdir -p "$out"
steps=" ${STEPS:-1 2 3 4 5} "
on() { [[ "$steps" == *" $1 "* ]]; }
study="python3 bench/sampling_study.py --hegetcl $hegetcl --device $device --per-seed"
on 1 && $study --n 8 --seeds 20 --defaults --settings auto:summed >"$out/pull_n8_auto.txt" 2>&1
on 2 && $study --n 10 --seeds 20 --defaults --settings multichannel:summed >"$out/pull_n10.txt" 2>&1
on 3 && $study --n 6,7 --seeds 1 --events 1000000 --adapt-events 200000 --adapt-iterations 5 \
  --iterations 3 --batch 1048576 \
  --settings multichannel:summed,multichannel:adaptive,collider:summed,collider:adaptive \
  >"$out/adaptive_n6_n7.txt" 2>&1
on 4 && NS="2 3 4 5 6 7 8 9 10 11 12" EXTRA="--events 3e5 --min-iterations 10" \
  bash bench/sigma_table.sh "$hegetcl" "$out/table" "$device" u-first >"$out/table.txt" 2>&1
fresh=$(mktemp -d) # step 5's own program cache
on 5 && for k in 1 2; do
  start=$(date +%s%N)
  line=$(HEGETCL_PROGRAM_CACHE=$fresh "$hegetcl" xsec --n 8 --orientation u-first --target-error 0.001 --iteration-events fixed --device "$device" \
    --checkpoint none --quiet 2>&1 | grep -m1 "^sigma")
  echo "n=8 run $k wall $(( ($(date +%s%N) - start) / 1000000 )) ms: $line"
done >"$out/n8_wall.txt"
rm -rf "$fresh"
