#!/bin/sh
# SPDX-License-Identifier: MIT
# p p > t t~ at 14 TeV (CTEQ6L1, MadGraph's alpha_s, no cuts) to 0.03 % against MadEvent's
# recommended cross sections and subprocess groups in ../shared/refs/mg5-next/xsec.txt: fixed
# mu = 173 GeV and dynamical_scale_choice 3. Prints sigma, the groups and the pulls; writes the
# JSON of each run into OUT (default /tmp/hegetcl-generator-madevent).
# Usage: bench/generator_madevent.sh [BUILD_DIR] [--device SPEC] [--seed S]
set -eu
build=${1:-build}
[ $# -gt 0 ] && shift
out=${OUT:-/tmp/hegetcl-generator-madevent}
refs=${HEGETCL_REFS_NEXT_DIR:-$(dirname "$0")/../../shared/refs/mg5-next}
mkdir -p "$out"
export LHAPDF_DATA_PATH=${LHAPDF_DATA_PATH:-$(dirname "$0")/../../shared/pdfsets}
for run in fixed dyn3; do
  if [ "$run" = fixed ]; then scale="--scale 173"; else scale="--dynamical-scale-choice 3"; fi
  # shellcheck disable=SC2086
  "$build/hegetcl" xsec --process "p p > t t~" $scale --alpha-s-running madgraph \
    --target-error 0.0003 --events 2e6 --adapt-events 2e5 --quiet --json "$out/$run.json" "$@" \
    >/dev/null
done
python3 - "$out" "$refs/xsec.txt" <<'PY'
import json, math, re, sys
out, refs = sys.argv[1], open(sys.argv[2]).read()
def combined(run_id):
    m = re.search(r"^%s\s+p p > t t~\s+combined\s+(\S+)\s+(\S+)" % run_id, refs, re.M)
    return float(m.group(1)), float(m.group(2))
def groups(section):
    part = refs[refs.index("---- %s" % section):]
    line = re.search(r"subprocess groups \(50k run\):(.*)", part).group(1)
    return {k: (float(v), float(e)) for k, v, e in re.findall(r"(P1_\w+) (\S+) \+- (\S+)", line)}
def semi_analytic(run_id):
    m = re.search(r"^%s\s+p p > t t~\s+semi-analytic check \(own code\)\s+(\S+)\s+\(gg (\S+) \+ qq~ (\S+)\)" % run_id, refs, re.M)
    return [float(x) for x in m.groups()]
def pull(name, s, e, ref):
    p = (s - ref[0]) / math.hypot(e, ref[1])
    print("  %-22s %10.4f +- %.4f pb   MadEvent %10.4f +- %.4f pb   pull %+.2f" % (name, s, e, ref[0], ref[1], p))
for run, rid in (("fixed", "B1a"), ("dyn3", "B1b")):
    d = json.load(open("%s/%s.json" % (out, run)))
    r = d["result"]
    print("p p > t t~, %s (%s): %s" % (run, rid, d["device"]["name"]))
    pull("sigma", r["sigma_fb"] / 1e3, r["error_fb"] / 1e3, combined(rid))
    g = groups(rid)
    gg = [x for x in d["groups"] if x["process"] == "g g > t t~"][0]
    qq = [x for x in d["groups"] if x["process"] != "g g > t t~"]
    pull("group g g", gg["sigma_fb"] / 1e3, gg["error_fb"] / 1e3, g["P1_gg_ttx"])
    qq_s = sum(x["sigma_fb"] for x in qq) / 1e3
    qq_e = math.sqrt(sum(x["error_fb"] ** 2 for x in qq)) / 1e3
    pull("groups q q~", qq_s, qq_e, g["P1_qq_ttx"])
    # the file's deterministic semi-analytic integrals (no error of their own)
    sa = semi_analytic(rid)
    for name, s, e, ref in (("sigma", r["sigma_fb"] / 1e3, r["error_fb"] / 1e3, sa[0]),
                            ("group g g", gg["sigma_fb"] / 1e3, gg["error_fb"] / 1e3, sa[1]),
                            ("groups q q~", qq_s, qq_e, sa[2])):
        print("  %-22s %10.4f +- %.4f pb   semi-analytic %10.4f pb      pull %+.2f" % (name, s, e, ref, (s - ref) / e))
PY
