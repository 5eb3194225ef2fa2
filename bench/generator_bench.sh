#!/bin/sh
# SPDX-License-Identifier: MIT
# Unweighted events per second end to end (sampling, PDFs, |M|^2, unweighting, colour flows,
# writing the Les Houches file) and the unweighting efficiency of process runs: p p > t t~ + 0..3
# jets and p p > 2..4 jets at 14 TeV (CTEQ6L1, dynamical_scale_choice 3, ptj 50, etaj 5, drjj
# 0.4), with a table of where the time goes per stage (builds, pilot, integration, and in the
# unweighting: sampling and |M|^2 on the device, hit-or-miss, transfer of the kept events, colour
# flows, records, writing). Prints the table and writes
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
# the unweighting's stages (stage_seconds of `hegetcl xsec --json`); older JSON lacks some
STAGES = ["unweighting_device", "hit_or_miss", "kept_transfer",
          "colour_flows", "variation_weights", "records", "writing", "unweighting_host"]
rows = []
for key in keys:
    path = os.path.join(out, key + ".json")
    if not os.path.exists(path):
        continue
    d = json.load(open(path))
    start, end = (float(x) for x in open(os.path.join(out, key + ".wall")).read().split())
    st, u, r = d["stage_seconds"], d["unweighting"], d["result"]
    generate = sum(st.get(k, 0.0) for k in STAGES)
    wall = end - start
    after = wall - st["build"]
    rows.append({"process": d["process"]["name"], "device": d["device"]["name"],
                 "commit": d.get("commit", ""),
                 "sigma_fb": r["sigma_fb"], "error_fb": r["error_fb"], "groups": len(d["groups"]),
                 "events": u["written"], "tried": u["tried"], "efficiency": u["efficiency"],
                 "sampled": u.get("sampled", 0), "batches": u.get("batches", 0),
                 "sampled_per_second": (u.get("sampled", 0) / st["unweighting_device"]
                                        if st.get("unweighting_device") else 0),
                 "events_per_second_unweighting": u["written"] / generate if generate else 0,
                 "events_per_second_after_build": u["written"] / after if after > 0 else 0,
                 "events_per_second_wall": u["written"] / wall if wall else 0,
                 "wall_seconds": wall, "stage_seconds": st,
                 "group_flows_seconds": {gr["process"]: gr.get("colour_flows_seconds", 0.0)
                                         for gr in d["groups"]},
                 "overweight_sigma_fraction": u["overweight_sigma_fraction"]})
print("%-20s %6s %8s %8s %10s %10s %10s %10s %10s %8s %10s" % (
    "process", "groups", "events", "eff", "ev/s unw", "ev/s run", "ev/s wall", "tried",
    "sampled", "batches", "sampled/s"))
for x in rows:
    print("%-20s %6d %8d %8.2e %10.3g %10.3g %10.3g %10d %10d %8d %10.3g" % (
        x["process"], x["groups"], x["events"], x["efficiency"],
        x["events_per_second_unweighting"], x["events_per_second_after_build"],
        x["events_per_second_wall"], x["tried"], x["sampled"], x["batches"],
        x["sampled_per_second"]))
print()
cols = [("build", "build"), ("pilot", "pilot"), ("integration", "integr"),
        ("unweighting_device", "sample+ME"),
        ("hit_or_miss", "hit/miss"), ("kept_transfer", "transfer"), ("colour_flows", "flows"),
        ("variation_weights", "variations"), ("records", "records"), ("writing", "write"),
        ("unweighting_host", "host rest")]
print("%-20s " % "seconds per stage" + " ".join("%9s" % c[1] for c in cols) + " %9s" % "wall")
for x in rows:
    s = x["stage_seconds"]
    print("%-20s " % x["process"] + " ".join(
        "%9.3f" % s[c[0]] if c[0] in s else "%9s" % "-" for c in cols) +
        " %9.2f" % x["wall_seconds"])
print()
print("colour-flow weights of the kept events per group (seconds; the helicities' left out):")
for x in rows:
    print("  " + x["process"] + ": " + ", ".join(
        "%s %.3f" % (k, v) for k, v in x["group_flows_seconds"].items()))
print("ev/s unw: the unweighting stage alone; ev/s run: the whole command less program builds; "
      "ev/s wall: the whole command. sample+ME: sampling, PDFs and |M|^2 of the unweighting's "
      "batches on the device; hit/miss: the device's decision and its counts read back; "
      "transfer: the kept events' compaction and read; flows: their colour-flow and helicity "
      "weights; variations: their scale and PDF weights; "
      "records: the host's Les Houches records; "
      "write: the file. tried: the trial events up to each group's last kept one; sampled: "
      "those the device sampled and evaluated (each group's batches in full), in batches; "
      "sampled/s: sampled over sample+ME.")
json.dump({"runs": rows}, open(os.path.join(out, "generator_bench.json"), "w"), indent=1)
print("written", os.path.join(out, "generator_bench.json"))
PY
