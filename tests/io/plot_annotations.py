#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""plot/hegetcl_plot.py's annotations: the title names the hadronic process, the cuts and the
events from a file's header, the ratio panel marks ratios beyond its range at the edge, and the
x axis follows the data. Prints TAP.

  1  a YODA header of a run over every flavour, both orientations: the title says p p -> 3 photons,
     sqrt(s) = 13 TeV, the quarks d, u, s, c, b from either proton and the cuts pT > 25 GeV,
     |eta| < 2, Delta R > 0.5, each value the card's
  2  the paper's process, quark from proton 1: "q = u", "from proton 1 only"
  3  a file without a run card: n from the pt_k histograms, 14 TeV, no cuts line
  4  ratios of 12.5 in one bin and 0.3 in another beside ratios near 1: the panel stays within
     0.5 to 1.5 (an autoscaled range hid the points near 1) and marks both off-scale ratios
     with a triangle at the edge, up for 12.5 and down for 0.3
  5  the event counts from the header's "N events in all" line (and from an older "of N events"
     one), named in the title line
  6  a histogram filled only in bins 2..5 of 10: the x axis runs over those bins alone

usage: plot_annotations.py HEGETCL_PLOT_PY
"""
import importlib.util
import os
import sys

import numpy as np

results = []


def report(ok, what, detail=""):
    results.append((ok, what, detail))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    path = os.path.abspath(sys.argv[1])
    sys.path.insert(0, os.path.dirname(path))
    spec = importlib.util.spec_from_file_location("hegetcl_plot", path)
    plot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plot)
    names = {"pt_1": None, "pt_2": None, "pt_3": None, "eta_1": None}
    card = ["# # hegetcl xsec run card", "# n: 3", "# orientation: both",
            '# flavours: "d,u,s,c,b"', "# sqrt-s: 13000", "# pt-min: 25", "# eta-max: 2",
            "# dr-min: 0.5", "# pt-bins: \"50:0:500\""]
    title = plot.default_title(names, card)
    want = ["$pp \\to 3\\gamma$", "\u221as = 13 TeV", "q = d, u, s, c, b",
            "the quark from either proton", "$p_\\mathrm{T}^\\gamma > 25$ GeV",
            "$|\\eta^\\gamma| < 2$", "$\\Delta R_{\\gamma\\gamma} > 0.5$"]
    missing = [w for w in want if w not in title]
    report(not missing, "the title names the hadronic process, sqrt(s), the quarks, the beam "
           "orientation and the cuts from the run card", f"{title!r} lacks {missing}")
    title = plot.default_title(names, ["# n: 3", "# orientation: u-first", "# sqrt-s: 14000"])
    ok = "q = u" in title and "from proton 1 only" in title and "14 TeV" in title
    report(ok, "the paper's process: u from proton 1 only", repr(title))
    title = plot.default_title({"pt_1": None, "pt_2": None}, [])
    ok = "2\\gamma" in title and "14 TeV" in title and "cuts" not in title
    report(ok, "without a run card: n from the histograms, 14 TeV, no cuts", repr(title))

    import matplotlib  # pylint: disable=import-outside-toplevel
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # pylint: disable=import-outside-toplevel
    figure, axis = plt.subplots()
    ratios = [np.array([1.0, 0.3, np.nan, 12.5, 1.1, 0.95])]
    low, high = plot._set_ratio_limits(axis, ratios)  # pylint: disable=protected-access
    shown = axis.get_ylim()
    marked = plot._mark_off_scale(axis, np.arange(6.0), ratios[0], low, high, "k")
    markers = sorted(line.get_marker() for line in axis.get_lines())
    plt.close(figure)
    ok = (0.45 <= shown[0] <= 0.8 and 1.2 <= shown[1] <= 1.55 and marked == 2
          and markers == ["^", "v"])
    report(ok, "ratios of 12.5 and 0.3 beside ratios near 1: the panel stays within 0.5 to 1.5 "
           "and marks both at its edge (up, down)",
           f"range {shown[0]:g} to {shown[1]:g}, {marked} marked, markers {markers}")

    header = ["# sigma(p p -> 3 a, both) = 1.3e+01 +- 6.6e-02 fb; sumw is sigma per bin in fb, "
              "sumw2 its", "# squared Monte Carlo error, from 3 combined iterations, 600000 "
              "events in all"]
    older = ["# squared Monte Carlo error, from 3 combined iterations of 1000000 events"]
    counts = (plot.event_count(header), plot.event_count(older), plot.event_count([]))
    line = plot.events_line([("hegetcl", counts[0], "weighted"),
                             ("LHE", 2000, "unweighted")])
    ok = counts == (600000, 3000000, None) and "6.0e5 weighted" in line and "2000 unweighted" \
        in line
    report(ok, "the events behind each input from the header (both spellings) and the events "
           "file, in the title's events line", f"{counts}, {line!r}")

    edges = np.linspace(0.0, 10.0, 11)
    sumw = np.zeros(12)
    sumw[3:7] = 1.0  # bins 2..5 (index 0 is the underflow)
    filled = plot.Histogram("dr_min", "", "", edges, sumw, sumw, sumw, sumw, sumw, "test")
    empty = plot.Histogram("dr_min", "", "", edges, *(np.zeros(12),) * 5, "test")
    span = plot.data_range(edges, [filled, empty])
    report(span == (2.0, 6.0), "the x axis runs over the bins that hold events (2 to 6 of 0 to 10)",
           f"{span}")
    print(f"1..{len(results)}")
    for i, (ok, what, detail) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {what}" + ("" if ok or not detail else f": {detail}"))
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
