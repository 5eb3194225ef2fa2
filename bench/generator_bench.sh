#!/bin/sh
# SPDX-License-Identifier: MIT
# Unweighted events per second end to end (sampling, PDFs, |M|^2, unweighting, colour flows,
# writing the Les Houches file) and the unweighting efficiency of process runs: p p > t t~ + 0..3
# jets and p p > 2..4 jets at 14 TeV (CTEQ6L1, dynamical_scale_choice 3, ptj 50, etaj 5, drjj
# 0.4), with a table of where the time goes per stage. Prints the table and writes
# OUT/generator_bench.json (OUT default /tmp/hegetcl-generator-bench) with each run's JSON beside.
# Usage: bench/generator_bench.sh [BUILD_DIR] [--device gpu] [--events N] [--processes LIST]
#   --events N: unweighted events per process (default 10000)
#   --processes LIST: a comma list among tt,ttj,ttjj,ttjjj,jj,jjj,jjjj (default all)
#   other flags go to hegetcl xsec (e.g. --batch 1048576 --target-error 0.005)
set -eu
build=build
case "${1:-}" in -*|"") ;; *) build=$1; shift ;; esac
device=auto events=10000 processes=tt,ttj,ttjj,ttjjj,jj,jjj,jjjj
extra=""
while [ $# -gt 0 ]; do
  case "$1" in
    --device) device=$2; shift 2 ;;
    --events) events=$2; shift 2 ;;
    --processes) processes=$2; shift 2 ;;
    *) extra="$extra $1"; shift ;;
  esac
done
out=${OUT:-/tmp/hegetcl-generator-bench}
mkdir -p "$out"
export LHAPDF_DATA_PATH=${LHAPDF_DATA_PATH:-$(dirname "$0")/../../shared/pdfsets}
text_of() {
  case $1 in
    tt) echo "p p > t t~" ;; ttj) echo "p p > t t~ j" ;; ttjj) echo "p p > t t~ j j" ;;
    ttjjj) echo "p p > t t~ j j j" ;; jj) echo "p p > j j" ;; jjj) echo "p p > j j j" ;;
    jjjj) echo "p p > j j j j" ;; *) echo "unknown process key $1" >&2; exit 2 ;;
  esac
}
for key in $(echo "$processes" | tr , ' '); do
  text=$(text_of "$key")
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  "$build/hegetcl" xsec --process "$text" --dynamical-scale-choice 3 --ptj 50 --etaj 5 \
    --drjj 0.4 --device "$device" --target-error 0.01 --unweighted-events "$events" \
    --lhe "$out/$key.lhe" --json "$out/$key.json" --quiet $extra > "$out/$key.log" 2>&1 ||
    { echo "$text: failed, see $out/$key.log" >&2; continue; }
  end=$(date +%s.%N)
  echo "$start $end" > "$out/$key.wall"
done
python3 - "$out" "$processes" <<'PY'
import json, os, sys
out, keys = sys.argv[1], sys.argv[2].split(",")
rows = []
for key in keys:
    path = os.path.join(out, key + ".json")
    if not os.path.exists(path):
        continue
    d = json.load(open(path))
    start, end = (float(x) for x in open(os.path.join(out, key + ".wall")).read().split())
    st, u, r = d["stage_seconds"], d["unweighting"], d["result"]
    generate = st["unweighting_device"] + st["unweighting_host"] + st["colour_flows"] + st["writing"]
    rows.append({"process": d["process"]["name"], "device": d["device"]["name"],
                 "sigma_fb": r["sigma_fb"], "error_fb": r["error_fb"], "groups": len(d["groups"]),
                 "events": u["written"], "efficiency": u["efficiency"],
                 "events_per_second_unweighting": u["written"] / generate if generate else 0,
                 "events_per_second_after_build": u["written"] / (wall - st["build"]) if (wall := end - start) else 0,
                 "events_per_second_wall": u["written"] / wall, "wall_seconds": wall,
                 "stage_seconds": st, "overweight_sigma_fraction": u["overweight_sigma_fraction"]})
print("%-20s %6s %9s %10s %10s %10s | %7s %7s %8s %8s %8s %8s %7s" % (
    "process", "groups", "eff", "ev/s unw", "ev/s run", "ev/s wall", "build", "pilot", "integr",
    "unw dev", "unw host", "flows", "write"))
for x in rows:
    s = x["stage_seconds"]
    print("%-20s %6d %9.2e %10.1f %10.1f %10.1f | %7.2f %7.2f %8.2f %8.2f %8.2f %8.2f %7.2f" % (
        x["process"], x["groups"], x["efficiency"], x["events_per_second_unweighting"],
        x["events_per_second_after_build"], x["events_per_second_wall"], s["build"], s["pilot"],
        s["integration"], s["unweighting_device"], s["unweighting_host"], s["colour_flows"],
        s["writing"]))
print("ev/s unw: the unweighting stage alone; ev/s run: everything but building programs; "
      "ev/s wall: the whole command")
json.dump({"runs": rows}, open(os.path.join(out, "generator_bench.json"), "w"), indent=1)
print("written", os.path.join(out, "generator_bench.json"))
PY
