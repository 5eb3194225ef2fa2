#!/usr/bin/env bash
# sigma(p p -> n photons) for n = 2..12 on one device, the table of docs/validation.md ("Cross sections to
# n = 12"), from the project root:  bash bench/sigma_table.sh HEGETCL OUT_DIR DEVICE [SETUPS]
# SETUPS: u-first (the HEGET paper's: u from proton 1 only) and/or all (every light flavour, the
# quark from either proton). Multichannel phase space, helicity-summed |M|^2 (the work-group-shared
# sum to n = 12), target 0.1 % to n = 8 and 1 % beyond (at least 10 iterations there); each run's
# JSON in OUT_DIR. NS picks the n (default 2..12); EXTRA adds xsec flags after these (the later
# flag wins), e.g. EXTRA="--min-iterations 3" for the first table's n = 9..12 runs (baf4298).
set -u
hegetcl=$1
out=$2
device=$3
setups=${4:-u-first,all}
mkdir -p "$out"
for setup in ${setups//,/ }; do
  for n in ${NS:-2 3 4 5 6 7 8 9 10 11 12}; do
    target=0.001
    iterations=3
    # from n = 9 at least 10 combined iterations of 1e6 events: chi2/dof with 9 degrees of
    # freedom (with 3 iterations, 2: it exceeds 1.5 in 22 % of honest runs)
    [ "$n" -ge 9 ] && target=0.01 && iterations=10
    flags=(--orientation u-first)
    [ "$setup" = all ] && flags=(--orientation both --flavours all)
    start=$(date +%s%N)
    line=$(timeout 600 "$hegetcl" xsec --n "$n" "${flags[@]}" --device "$device" \
      --phase-space multichannel --helicity summed --target-error "$target" --checkpoint none \
      --iteration-events fixed \
      --min-iterations "$iterations" \
      ${EXTRA:-} --json "$out/sigma-$setup-n$n.json" --quiet 2>&1 | grep -m1 "^sigma")
    echo "$setup n=$n wall $(( ($(date +%s%N) - start) / 1000000 )) ms: $line"
  done
done
