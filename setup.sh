#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Sets hegetcl up on a Debian machine and runs the main job:
#   1. installs the Debian packages it needs (OpenCL ICD loader and headers, PoCL for the CPU,
#      Meson, ninja, cmocka), unless they are there already;
#   2. configures and builds into build/;
#   3. runs the main job: lists the OpenCL devices, evaluates u ubar -> n photons with every
#      engine at MadGraph5_aMC@NLO's reference points (n = 2..6) and prints the agreement, then
#      times every engine with hegetcl-bench.
# usage: bash setup.sh [--deps-only] [--device SPEC]
set -euo pipefail
cd "$(dirname "$0")"

deps_only=0
device=auto
while [ $# -gt 0 ]; do
  case "$1" in
    --deps-only) deps_only=1 ;;
    --device) device="${2:?--device needs a value}"; shift ;;
    *) echo "setup.sh: unknown option $1 (use --deps-only or --device SPEC)" >&2; exit 2 ;;
  esac
  shift
done

packages=(ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd clinfo meson ninja-build
          pkg-config libcmocka-dev python3 gcc)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup.sh: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi
[ "$deps_only" -eq 1 ] && exit 0

[ -f build/build.ninja ] || meson setup build
ninja -C build

echo "== OpenCL devices"
./build/hegetcl devices
refs=../shared/refs/mg5
if [ -d "$refs" ]; then
  echo "== |M|^2 against MadGraph5_aMC@NLO ($refs)"
  ./build/hegetcl me --device "$device" "$refs"/me_points_n{2,3,4,5,6}.txt | grep largest
fi
echo "== matrix-element throughput (hegetcl-bench; JSON in build/bench.json)"
# n up to 7: the diagram engine's n = 8 program takes minutes to compile (README, "Throughput")
./build/bench/hegetcl-bench --device "$device" --n 2-7 --precision double --mode summed \
  --max-seconds 4 --json build/bench.json
