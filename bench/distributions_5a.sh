#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The HEGET paper's distributions for u ubar -> 5 photons at 14 TeV (largest photon pT and Delta R
# between photons), with 10^6 unweighted events:
#   bash bench/distributions_5a.sh OUT_DIR [DEVICE] [EVENTS]
# writes OUT_DIR/5a_double.{yoda,csv,json} and 5a_events.lhe (EVENTS unweighted events, default
# 1e6; helicities sampled, double precision), OUT_DIR/5a_float.{yoda,json} (the same run with float
# amplitudes and no events, for the ratio), OUT_DIR/5a_events_first50k.lhe.gz (the file's first
# 50000 events, a valid LHE file to carry away) and, where matplotlib and mplhep are installed,
# the plots in OUT_DIR/plots. docs/validation.md ("Distributions and unweighted events") shows them.
set -euo pipefail
out=${1:?usage: distributions_5a.sh OUT_DIR [DEVICE] [EVENTS]}
device=${2:-gpu}
events=${3:-1000000}
root=$(cd "$(dirname "$0")/.." && pwd)
hegetcl=${HEGETCL:-$root/build/hegetcl}
mkdir -p "$out"
common=(--n 5 --device "$device" --helicity sampled --seed 5 --adapt-iterations 8
        --adapt-events 2e7 --events 1e8 --min-iterations 5 --max-iterations 5 --target-error 0
        --pt-bins 40:0:400 --dr-bins 40:0:6 --mass-bins 40:0:2000)
"$hegetcl" xsec "${common[@]}" --precision double --yoda "$out/5a_double.yoda" \
  --csv "$out/5a_double.csv" --json "$out/5a_double.json" \
  --unweighted-events "$events" --lhe "$out/5a_events.lhe" | tail -2
"$hegetcl" xsec "${common[@]}" --precision float --quiet --yoda "$out/5a_float.yoda" \
  --json "$out/5a_float.json"
# the first 50000 events as a file of their own (header, init, events, closing tag); their
# weights scaled by N / 50000 so that they still add up to sigma
python3 - "$out/5a_events.lhe" "$out/5a_events_first50k.lhe.gz" 50000 <<'PY'
import gzip, sys
source, target, keep = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(source) as f, gzip.open(target, "wt") as g:
    count, total, after_event = 0, None, False
    for line in f:
        if line.startswith("<xsecinfo"):
            total = int(line.split('"')[1])
            line = line.replace('neve="%d"' % total, 'neve="%d"' % keep)
        if line.startswith("</LesHouchesEvents>"):
            break
        if after_event:
            fields = line.split()
            fields[2] = "%+.16e" % (float(fields[2]) * total / keep)
            line = " " + " ".join(fields) + "\n"
        after_event = line.startswith("<event>")
        g.write(line)
        if line.startswith("</event>"):
            count += 1
            if count == keep:
                break
    g.write("</LesHouchesEvents>\n")
PY
if python3 -c 'import matplotlib, mplhep, pylhe' 2>/dev/null; then
  python3 "$root/plot/hegetcl_plot.py" "$out/5a_double.yoda:double" "$out/5a_float.yoda:float" \
    --events "$out/5a_events_first50k.lhe.gz:unweighted events (first 5e4)" \
    --histograms pt_1,dr_min,dr_pairs,eta_1,m_photons --format png,pdf --out "$out/plots"
fi
