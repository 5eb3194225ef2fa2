#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Prints each `hegetcl xsec --json` result beside the HEGET paper's value with the pull, saying in
words which beam orientation the run counts (the paper's table counts the u quark from proton 1
only; the p p cross section, both orientations, is twice that: the paper's value is doubled for
it). The paper's numbers are PAPER in bench/xsec_table.py.

usage: compare_with_paper.py RUN.json [RUN.json ...]
Exit status 1 when a file cannot be read; the pulls are reported, not judged (the tests judge).
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xsec_table import PAPER  # noqa: E402  pylint: disable=wrong-import-position

WORDS = {
    "u-first": "the u quark from proton 1 and the anti-u from proton 2 only, as the paper's "
               "table counts it",
    "both": "the u quark from either proton: the p p cross section, twice the paper's "
            "one-orientation value",
}


def line_for(run):
    process, result = run["process"], run["result"]
    n, orientation = process["n_photons"], process["orientation"]
    sigma, error = result["sigma_fb"], result["error_fb"]
    lines = [f"sigma(p p -> {n} photons) = {sigma:.5e} +- {error:.1e} fb "
             f"({100 * error / sigma:.2f} %), counting {WORDS.get(orientation, orientation)}"]
    paper = PAPER.get(n, (None,))[0]
    if paper is None or process.get("flavours") or process.get("quark_pid", 2) != 2:
        lines.append("  (no value of the paper's table for this process)")
        return lines
    factor = 2.0 if orientation == "both" else 1.0
    value, paper_error = factor * paper[0], factor * paper[1]
    pull = (sigma - value) / math.hypot(error, paper_error)
    doubled = " (twice its table's)" if factor == 2.0 else ""
    lines.append(f"  HEGET paper{doubled}: {value:.5e} +- {paper_error:.1e} fb; "
                 f"hegetcl / paper = {sigma / value:.4f}, pull {pull:+.1f} sigma")
    return lines


def main(paths):
    if not paths:
        sys.exit(__doc__)
    for path in paths:
        try:
            with open(path, encoding="utf-8") as handle:
                run = json.load(handle)
        except (OSError, ValueError) as e:
            sys.exit(f"compare_with_paper.py: cannot read {path}: {e}")
        print("\n".join(line_for(run)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
