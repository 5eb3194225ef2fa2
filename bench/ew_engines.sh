#!/usr/bin/env bash
# |M|^2 per second of W + jets and Z/gamma* + jets, u d~ > e+ ve + 1..4 g and u u~ > e+ e- + 1..4 g,
# through the recursive engine (the quark-line recursion) and the diagrams engine, in double and
# float, with each program's build time, from the project root:
#   bash bench/ew_engines.sh BUILD_DIR OUT_DIR
# writes OUT_DIR/ew_engines.txt (the table), OUT_DIR/ew_engines.json (every case) and the raw
# hegetcl-bench logs and JSON under OUT_DIR/cases/. Each (process, engine) runs as one
# hegetcl-bench call (both precisions) under a time limit: a call that does not finish (a
# diagrams program of 4 gluons can take long to build on NVIDIA) is killed and its cases without
# a result are reported as "> N s" (build and measurement together), never as zero. Settings from
# the environment:
#   EW_BENCH_DEVICE      --device (default gpu)
#   EW_BENCH_EVENTS      largest batch, --max-events (default 1048576; 64 for a PoCL smoke run)
#   EW_BENCH_SECONDS     time budget of one measurement, --max-seconds (default 2)
#   EW_BENCH_LIMIT_S     time limit of one hegetcl-bench call (default 40)
#   EW_BENCH_LIMIT_4G_S  ... of the diagrams engine with 4 gluons, whose programs are the
#                        largest (default 15: enough to say "> 15 s", not to build them)
#   EW_BENCH_BUDGET_S    total; calls that would start after it are reported as not run, the
#                        last one's limit cut to what is left (default 220: the whole script
#                        stays under 4 minutes)
#   EW_BENCH_GLUONS      gluon counts (default "1 2 3 4")
set -u
build=$1
out=$2
device=${EW_BENCH_DEVICE:-gpu}
events=${EW_BENCH_EVENTS:-1048576}
seconds=${EW_BENCH_SECONDS:-2}
limit=${EW_BENCH_LIMIT_S:-40}
limit_4g=${EW_BENCH_LIMIT_4G_S:-15}
budget=${EW_BENCH_BUDGET_S:-220}
gluons=${EW_BENCH_GLUONS:-1 2 3 4}
bench="$build/bench/hegetcl-bench"
# build times from source: no driver's cache of compiled programs (NVIDIA's, PoCL's)
export CUDA_CACHE_DISABLE=1 POCL_KERNEL_CACHE=0
mkdir -p "$out/cases"
start=$(date +%s)
status_file="$out/cases/status.txt"
: > "$status_file"

process_of() { # family, gluon count
  local p
  if [ "$1" = W ]; then p="u d~ > e+ ve"; else p="u u~ > e+ e-"; fi
  for ((k = 0; k < $2; ++k)); do p="$p g"; done
  echo "$p"
}

# the recursive engine first (every case), then the diagrams engine by growing size, so that a
# budget cut falls on the largest diagrams programs
for engine in recursive diagrams; do
  for n in $gluons; do
    for family in W Z; do
      process=$(process_of $family "$n")
      name="${family}${n}g_${engine}"
      now=$(date +%s)
      if ((now - start + 5 > budget)); then
        echo "$name|$process|$engine|not run: the script's budget of $budget s was spent" >> "$status_file"
        continue
      fi
      left=$((budget - (now - start)))
      this_limit=$limit
      if [ "$engine" = diagrams ] && [ "$n" -ge 4 ]; then this_limit=$limit_4g; fi
      this_limit=$((this_limit < left ? this_limit : left))
      timeout -k 5 "$this_limit" "$bench" --device "$device" --process "$process" \
        --engines "$engine" --precision double,float --max-events "$events" \
        --max-seconds "$seconds" --json "$out/cases/$name.json" > "$out/cases/$name.txt" 2>&1
      rc=$?
      if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        echo "$name|$process|$engine|> $this_limit s (killed: program build and measurement)" >> "$status_file"
      elif [ $rc -ne 0 ]; then
        echo "$name|$process|$engine|failed (exit $rc): see cases/$name.txt" >> "$status_file"
      else
        echo "$name|$process|$engine|ok" >> "$status_file"
      fi
      tail -3 "$out/cases/$name.txt"
    done
  done
done

python3 - "$out" <<'EOF'
import json, os, sys
out = sys.argv[1]
cases = os.path.join(out, "cases")
rows, meta = [], {}
for line in open(os.path.join(cases, "status.txt")):
    name, process, engine, status = line.rstrip("\n").split("|", 3)
    results = {}
    path = os.path.join(cases, name + ".json")
    if os.path.exists(path):
        doc = json.load(open(path))
        for key in ("commit", "device", "platform", "driver"):
            meta.setdefault(key, doc.get(key))
        for r in doc["results"]:
            results[r["precision"]] = r
    for precision in ("double", "float"):
        r = results.get(precision)
        row = {"process": process, "engine": engine, "precision": precision}
        if r is None:
            row["status"] = status if status != "ok" else "no result"
        elif "skipped" in r:
            row["status"] = "skipped: " + r["skipped"]
            row["build_s"] = r.get("build_s")
        else:
            row.update({k: r[k] for k in ("build_s", "events", "kernel_per_s", "e2e_per_s")})
            row["status"] = "ok"
        rows.append(row)
doc = dict(meta, benchmark="ew_engines", results=rows)
json.dump(doc, open(os.path.join(out, "ew_engines.json"), "w"), indent=1)
lines = ["device: %s (%s, driver %s), commit %s" % (meta.get("device"), meta.get("platform"),
                                                     meta.get("driver"), meta.get("commit"))]
lines.append("%-26s %-9s %-6s %9s %8s %12s %12s" % ("process", "engine", "prec", "build s", "events",
                                                   "kernel ev/s", "e2e ev/s"))
order = lambda r: (r["process"].startswith("u u~"), len(r["process"]), r["precision"], r["engine"])
for r in sorted(rows, key=order):
    if r["status"] == "ok":
        lines.append("%-26s %-9s %-6s %9.2f %8d %12.3e %12.3e" % (r["process"], r["engine"],
                     r["precision"], r["build_s"], r["events"], r["kernel_per_s"], r["e2e_per_s"]))
    else:
        lines.append("%-26s %-9s %-6s  %s" % (r["process"], r["engine"], r["precision"], r["status"]))
open(os.path.join(out, "ew_engines.txt"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
EOF
echo "ew_engines.sh: $(($(date +%s) - start)) s"
