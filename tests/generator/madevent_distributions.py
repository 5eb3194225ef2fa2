#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Unweighted p p > t t~ events against MadEvent's own: distributions and the g g share. Prints TAP.

The reference is ../shared/refs/mg5-next/lhe_B1_ttx_fixed173_50k.lhe.gz: 50 000 unweighted
MadEvent events (MG5 3.5.7) of p p > t t~ at 14 TeV, CTEQ6L1, fixed mu_R = mu_F = 173 GeV,
MadGraph's alpha_s running, no cuts (sigma 603.17 +- 0.30 pb, the g g group 524.1 pb). hegetcl
makes the same sample with the same settings and both files are read here, <event> block by block.
  1  the run writes N unweighted events
  2-5  normalised histograms of the top's pT, the top's rapidity, the t t~ mass and the pair's
     rapidity: a two-sample chi^2 (both samples' Poisson errors, bins with at least 25 entries
     in each sample, ndf = bins - 1) with a chi^2 probability above 0.001 each
  6  the share of g g-initiated events (incoming PDG ids) agrees with MadEvent's within 3.29
     standard errors of the difference (both binomial errors; probability 0.001, two-sided)

The test can fail: the same comparison against samples made with the wrong scale rejects.
Measured against this reference file with N = 30 000 (seed 11), chi^2/ndf (probability):
  --scale 346 (alpha_s and the PDFs at twice the scale): the shapes pass (pT 23.96/21, y_t
      20.23/23, m_tt 22.00/19, y_tt 11.75/19) but the g g share, 0.8590 +- 0.0020 against
      0.8696 +- 0.0015, is rejected (pull -4.20)
  --dynamical-scale-choice 3 (mu = m_T of the top): the top's pT 130.53/21 (P 8e-18) and the
      t t~ mass 85.72/19 (P 2e-10) are rejected (the rapidities pass; g g share pull -1.19)
  a wrong alpha_s at a fixed scale (--alpha-s-running pdf: 0.1178 for 0.1180) scales every event
      alike: the shapes and the share cannot see it; madevent_cross_sections checks sigma
Set HEGETCL_DISTS_EXTRA="--scale 346" (options replacing --scale 173) to rerun such a variant.

usage: madevent_distributions.py HEGETCL_EXE
"""
import gzip
import math
import os
import shlex
import subprocess
import sys
import tempfile

import numpy as np

EVENTS = 30000
DEVICE = os.environ.get("HEGETCL_TEST_DEVICE") or os.environ.get("HEGETCL_DEVICE") or "auto"
SETTINGS = ["--scale", "173"]
RUN = ["xsec", "--process", "p p > t t~", "--alpha-s-running", "madgraph", "--device", DEVICE,
       "--events", "300000", "--adapt-events", "50000", "--adapt-iterations", "3",
       "--min-iterations", "1", "--max-iterations", "1", "--target-error", "0",
       "--batch", "65536", "--seed", "11", "--checkpoint", "none", "--quiet",
       "--scale-variations", "off", "--pdf-variations", "off",
       "--unweighted-events", str(EVENTS)]
MIN_ENTRIES = 25
P_MIN = 1e-3
Z_MAX = 3.29  # two-sided probability 0.001
# bin edges: the last bin of pT and m_tt takes everything above it
OBSERVABLES = [
    ("top pT", "GeV", np.concatenate([np.arange(0.0, 500.0, 25.0), [500, 600, 800, 1e9]])),
    ("top rapidity", "", np.linspace(-3.0, 3.0, 25)),
    ("t t~ mass", "GeV", np.concatenate([[346.0], np.arange(360.0, 1000.0, 40.0),
                                         [1000, 1200, 1500, 1e9]])),
    ("t t~ rapidity", "", np.linspace(-2.5, 2.5, 21)),
]

results = []


def check(ok, name, detail=""):
    results.append((bool(ok), name, detail))


def read_lhe(path):
    """Per event: the incoming partons' ids, the top's and the anti-top's four-momenta."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        text = f.read()
    incoming, top, antitop = [], [], []
    start = 0
    while True:
        a = text.find("<event>", start)
        if a < 0:
            break
        b = text.find("</event>", a)
        lines = text[a + 7:b].strip().split("\n")
        n = int(lines[0].split()[0])
        ids, t, tb = [], None, None
        for line in lines[1:1 + n]:
            v = line.split()
            pid, status = int(v[0]), int(v[1])
            p = [float(x) for x in v[6:10]]
            if status == -1:
                ids.append(pid)
            elif pid == 6:
                t = p
            elif pid == -6:
                tb = p
        incoming.append(ids)
        top.append(t)
        antitop.append(tb)
        start = b
    return incoming, np.array(top), np.array(antitop)


def rapidity(p):
    return 0.5 * np.log((p[:, 3] + p[:, 2]) / (p[:, 3] - p[:, 2]))


def observables(top, antitop):
    pair = top + antitop
    mass = np.sqrt(np.maximum(pair[:, 3] ** 2 - np.sum(pair[:, :3] ** 2, axis=1), 0.0))
    return [np.hypot(top[:, 0], top[:, 1]), rapidity(top), mass, rapidity(pair)]


def chi2_probability(x, k):
    """P(chi^2_k > x) for an integer k, in closed form."""
    if k % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, k // 2):
            term *= (x / 2.0) / i
            total += term
        return math.exp(-x / 2.0) * total
    total = math.erfc(math.sqrt(x / 2.0))
    term = math.sqrt(2.0 * x / math.pi)
    for i in range(1, (k + 1) // 2):
        total += math.exp(-x / 2.0) * term
        term *= x / (2 * i + 1)
    return total


def two_sample_chi2(a, b):
    """chi^2 of two unweighted histograms with different totals (their shapes), ndf = bins - 1;
    bins with fewer than MIN_ENTRIES in either sample are left out."""
    keep = (a >= MIN_ENTRIES) & (b >= MIN_ENTRIES)
    a, b = a[keep].astype(float), b[keep].astype(float)
    na, nb = a.sum(), b.sum()
    chi2 = float(np.sum((math.sqrt(nb / na) * a - math.sqrt(na / nb) * b) ** 2 / (a + b)))
    ndf = int(keep.sum()) - 1
    return chi2, ndf, chi2_probability(chi2, ndf)


def gg_share(incoming):
    n = len(incoming)
    f = sum(1 for ids in incoming if ids == [21, 21]) / n
    return f, math.sqrt(f * (1.0 - f) / n)


def main():
    exe = sys.argv[1]
    refs = os.environ.get("HEGETCL_REFS_NEXT_DIR")
    reference = os.path.join(refs or "", "lhe_B1_ttx_fixed173_50k.lhe.gz")
    if not refs or not os.path.exists(reference):
        print("1..0 # SKIP no MadEvent reference events (HEGETCL_REFS_NEXT_DIR)")
        return 0
    extra = os.environ.get("HEGETCL_DISTS_EXTRA")
    settings = shlex.split(extra) if extra else SETTINGS
    with tempfile.TemporaryDirectory(prefix="hegetcl-dists-") as work:
        lhe = os.path.join(work, "ttx.lhe")
        r = subprocess.run([exe] + RUN + settings + ["--lhe", lhe], capture_output=True,
                           text=True)
        if r.returncode != 0:
            check(False, "the run writes %d unweighted events" % EVENTS,
                  (r.stdout + r.stderr)[-2000:])
            return finish()
        ours_in, ours_t, ours_tb = read_lhe(lhe)
    mg_in, mg_t, mg_tb = read_lhe(reference)
    check(len(ours_in) == EVENTS and len(mg_in) == 50000,
          "the run writes %d unweighted events (MadEvent's file %d)" % (EVENTS, 50000),
          "read %d and %d" % (len(ours_in), len(mg_in)))
    if len(ours_in) == 0:
        return finish()
    ours, mg = observables(ours_t, ours_tb), observables(mg_t, mg_tb)
    for (name, unit, edges), x, y in zip(OBSERVABLES, ours, mg):
        lo, hi = edges[0], edges[-1]
        a = np.histogram(np.clip(x, lo, hi), edges)[0]
        b = np.histogram(np.clip(y, lo, hi), edges)[0]
        chi2, ndf, prob = two_sample_chi2(a, b)
        check(prob > P_MIN, "%s: the shape agrees with MadEvent's (two-sample chi^2, P > %g)"
              % (name, P_MIN), "chi2/ndf = %.2f/%d = %.3f, P = %.3g; means %.4g and %.4g %s"
              % (chi2, ndf, chi2 / ndf, prob, np.mean(x), np.mean(y), unit))
    f, ef = gg_share(ours_in)
    g, eg = gg_share(mg_in)
    z = (f - g) / math.hypot(ef, eg)
    check(abs(z) < Z_MAX, "the g g share agrees with MadEvent's within %.2f sigma" % Z_MAX,
          "hegetcl %.4f +- %.4f, MadEvent's events %.4f +- %.4f (its sigma_gg / sigma "
          "524.1/603.17 = %.4f), pull %+.2f" % (f, ef, g, eg, 524.1 / 603.17, z))
    return finish()


def finish():
    print("1..%d" % len(results))
    for k, (ok, name, detail) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", k, name))
        if detail:
            print("# " + detail.replace("\n", "\n# "))
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
