#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""plot/hegetcl_plot.py's annotations: the title names the hadronic process and the cuts from the
run card in a file's header, and the ratio panel's range holds every ratio drawn. Prints TAP.

  1  a YODA header of a run over every flavour, both orientations: the title says p p -> 3 photons,
     sqrt(s) = 13 TeV, the quarks d, u, s, c, b from either proton and the cuts pT > 25 GeV,
     |eta| < 2, Delta R > 0.5, each value the card's
  2  the paper's process, quark from proton 1: "q = u", "from proton 1 only"
  3  a file without a run card: n from the pt_k histograms, 14 TeV, no cuts line
  4  ratios of 12.5 in one bin and 0.3 in another: the ratio panel's range holds both (the old
     fixed 0..3 range clipped the first), never below 0

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
    ratios = [np.array([1.0, 0.3, np.nan, 12.5, 1.1])]
    axis.plot(np.arange(5), ratios[0])
    plot._set_ratio_limits(axis, ratios)  # pylint: disable=protected-access
    low, high = axis.get_ylim()
    plt.close(figure)
    report(low <= 0.3 and high >= 12.5 and low >= 0, "the ratio panel holds every ratio drawn "
           "(0.3 to 12.5), never below 0", f"range {low:g} to {high:g}")
    print(f"1..{len(results)}")
    for i, (ok, what, detail) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {what}" + ("" if ok or not detail else f": {detail}"))
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
