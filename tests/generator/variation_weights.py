#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Scale and PDF variation weights of a process run, computed on the device, against reruns with
the varied settings, closed forms and an independent PDF reader. Prints TAP.

The PDF sets are assembled here, in a temporary folder, from the cteq6l1 grid
(tests/support/pdf_test_sets.py): they are NOT physical sets, only tests of the machinery. The
5-member hessian set hgtest_cteq6l1_var (members 1/2 move the gluon against the quarks, members
3/4 carry their own alpha_s, 1.01 and 0.99 times cteq6l1's), and hgtest_cteq6l1_alt, cteq6l1's
grid times 1.1 with alpha_s times 1.02, as an alternative central set.

Every run integrates with the grid frozen (--vegas-alpha 0) and one combined iteration, so that a
rerun with a varied setting sees the same points with the same seed.
  1  the variation run (9-point scales, all members) writes JSON, LHE and the printed bands
  2  the central variation's sigma equals sigma; its per-event ratio is 1
  3  sigma for mu_R x 2, mu_F x 1/2 equals a rerun's with --mu-r-factor 2 --mu-f-factor 0.5, and
     mu_R x 1/2, mu_F x 2 likewise (9-point only)
  4  sigma for member 1 equals a rerun's with --pdf-member 1, member 3's (its own alpha_s) a
     rerun's with --pdf-member 3
  5  members 3 and 4: sigma and every event's ratio are 1.01^2 and 0.99^2 (u u~ > t t~ goes as
     alpha_s^2; their grids are the central one)
  6  the PDF uncertainty in the JSON is the Hessian formula on its members' sigma, by hand
  7  per-event ratios read back with pylhe: for mu_F x 2 (mu_R x 1) the ratio is
     f_u(x1, 2 mu_F) f_ubar(x2, 2 mu_F) / (f_u f_ubar at mu_F), computed here with the `parton`
     package's reader of the grid (to 2e-3: its interpolation is not LHAPDF's); the mean ratio
     over the events agrees with sigma_v / sigma within 5 standard errors
  8  sigma is the same with and without variations, to the last digit
  9  the 7-point default of an event run has 7 scale weights and 5 PDF weights, named in
     <initrwgt> as MadGraph does; --no-variation-weights leaves them out
 10  the alternative central set (--alt-pdf): sigma equals a rerun's with --pdf set to it, and
     sigma and every event's ratio are 1.1^2 1.02^2 times the nominal's (the set's grid and its
     own alpha_s; u u~ > t t~ goes as alpha_s^2)

usage: variation_weights.py HEGETCL_EXE
"""
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from pdf_test_sets import (ALT_ALPHA_S_FACTOR, ALT_PDF_FACTOR, ALT_SET, SET, SOURCE,  # noqa: E402
                           make_alt_set, make_set)

DEVICE = os.environ.get("HEGETCL_TEST_DEVICE") or os.environ.get("HEGETCL_DEVICE") or "auto"
RUN = ["xsec", "--process", "u u~ > t t~", "--device", DEVICE, "--events", "20000",
       "--adapt-events", "4000", "--adapt-iterations", "1", "--min-iterations", "1",
       "--max-iterations", "1", "--target-error", "0", "--batch", "8192", "--vegas-alpha", "0",
       "--seed", "5", "--checkpoint", "none", "--quiet", "--pdf", SET]

results = []


def check(ok, name, detail=""):
    results.append((bool(ok), name, detail))


def run(exe, args, env):
    return subprocess.run([exe] + args, capture_output=True, text=True, env=env)


def sigma(path):
    with open(path) as f:
        return json.load(f)["result"]


def main():
    exe = sys.argv[1]
    work = tempfile.mkdtemp(prefix="hegetcl-variations-")
    env = dict(os.environ)
    env["LHAPDF_DATA_PATH"] = work + ":" + env.get("LHAPDF_DATA_PATH", "")
    make_set(work)
    make_alt_set(work)
    j, lhe = os.path.join(work, "v.json"), os.path.join(work, "v.lhe")
    yoda = os.path.join(work, "v.yoda")
    p = run(exe, RUN + ["--scale-variations", "9", "--pdf-variations", "on", "--alt-pdf", ALT_SET,
                        "--json", j, "--unweighted-events", "300", "--lhe", lhe, "--yoda", yoda],
            env)
    check(p.returncode == 0 and os.path.exists(j) and os.path.exists(lhe),
          "the variation run writes JSON and LHE", p.stderr[-2000:])
    if p.returncode != 0:
        return finish()
    r = sigma(j)
    var = r["variations"]
    by = lambda f_r, f_f, member=0: [v for v in var if v["mu_r_factor"] == f_r and
                                     v["mu_f_factor"] == f_f and v["pdf_member"] == member and
                                     v["group"] == "Central scale variation"]
    central = by(1, 1)[0]
    check(len(var) == 9 + 5 + 1 and abs(central["sigma_fb"] / r["sigma_fb"] - 1) < 1e-13,
          "the central variation's sigma is sigma",
          "%d variations, %.17g vs %.17g" % (len(var), central["sigma_fb"], r["sigma_fb"]))
    for f_r, f_f in ((2, 0.5), (0.5, 2)):
        jr = os.path.join(work, "r.json")
        p = run(exe, RUN + ["--mu-r-factor", str(f_r), "--mu-f-factor", str(f_f), "--json", jr],
                env)
        rerun = sigma(jr)["sigma_fb"] if p.returncode == 0 else float("nan")
        v = by(f_r, f_f)[0]["sigma_fb"]
        check(abs(v / rerun - 1) < 1e-12,
              "sigma(mu_R x %g, mu_F x %g) equals a rerun's" % (f_r, f_f),
              "variation %.17g, rerun %.17g" % (v, rerun))
    pdf = [v for v in var if v["group"] == SET]
    alt = [v for v in var if v["group"] == ALT_SET]
    jr = os.path.join(work, "m.json")
    p = run(exe, RUN + ["--pdf-member", "1", "--json", jr], env)
    rerun = sigma(jr)["sigma_fb"] if p.returncode == 0 else float("nan")
    check(abs(pdf[1]["sigma_fb"] / rerun - 1) < 1e-12, "sigma(member 1) equals a rerun's",
          "variation %.17g, rerun %.17g (%s)" % (pdf[1]["sigma_fb"], rerun, p.stderr[-300:]))
    jr = os.path.join(work, "a.json")
    p = run(exe, RUN + ["--pdf-member", "3", "--json", jr], env)
    rerun = sigma(jr)["sigma_fb"] if p.returncode == 0 else float("nan")
    check(abs(pdf[3]["sigma_fb"] / rerun - 1) < 1e-12,
          "sigma(member 3, its own alpha_s) equals a rerun's with --pdf-member 3",
          "variation %.17g, rerun %.17g (%s)" % (pdf[3]["sigma_fb"], rerun, p.stderr[-300:]))
    s0 = pdf[0]["sigma_fb"]
    check(abs(s0 / r["sigma_fb"] - 1) < 1e-13 and
          abs(pdf[3]["sigma_fb"] / s0 - 1.01 ** 2) < 1e-9 and
          abs(pdf[4]["sigma_fb"] / s0 - 0.99 ** 2) < 1e-9,
          "members with their own alpha_s: sigma x 1.01^2 and 0.99^2",
          "%.15g %.15g" % (pdf[3]["sigma_fb"] / s0, pdf[4]["sigma_fb"] / s0))
    s = [v["sigma_fb"] for v in pdf]
    hand = 0.5 * math.sqrt((s[1] - s[2]) ** 2 + (s[3] - s[4]) ** 2)
    check(r["pdf_error_type"] == "hessian" and abs(r["pdf_error_fb"] / hand - 1) < 1e-12,
          "the PDF uncertainty is the Hessian formula", "%.17g vs %.17g" % (r["pdf_error_fb"], hand))
    # the events
    import pylhe
    from parton import mkPDF
    events = list(pylhe.LHEFile.fromfile(lhe).events)
    pdfs = mkPDF("cteq6l1", 0, pdfdir=SOURCE.rsplit("/", 1)[0])
    index = {v["id"]: k for k, v in enumerate(var)}
    muf2 = [v["id"] for v in var if v["mu_r_factor"] == 1 and v["mu_f_factor"] == 2 and
            v["group"] == "Central scale variation"][0]
    worst_one = worst_alpha = worst_pdf = worst_alt = 0.0
    alt_factor = (ALT_PDF_FACTOR * ALT_ALPHA_S_FACTOR) ** 2
    sums = np.zeros(len(var))
    sums2 = np.zeros(len(var))
    kin = []
    for e in events:
        w0 = e.eventinfo.weight
        ratios = np.array([e.weights[v["id"]] / w0 for v in var])
        sums += ratios
        sums2 += ratios ** 2
        worst_one = max(worst_one, abs(ratios[index[central["id"]]] - 1))
        worst_alpha = max(worst_alpha, abs(ratios[index[pdf[3]["id"]]] / 1.01 ** 2 - 1),
                          abs(ratios[index[pdf[4]["id"]]] / 0.99 ** 2 - 1))
        worst_alt = max(worst_alt, abs(ratios[index[alt[0]["id"]]] / alt_factor - 1))
        a, b = e.particles[0], e.particles[1]
        kin.append((a.id, b.id, 2 * a.e / 14000, 2 * b.e / 14000, e.eventinfo.scale ** 2,
                    ratios[index[muf2]]))
    n = len(events)
    # the parton package, vectorised over the events (its scalar path needs numpy < 2)
    ida, idb, x1, x2, q2, got = (np.array(c, float) for c in zip(*kin))
    f = lambda pid, x, scale: pdfs.xfxQ2(pid.astype(int), x, scale, grid=False)
    expected = (f(ida, x1, 4 * q2) * f(idb, x2, 4 * q2)) / (f(ida, x1, q2) * f(idb, x2, q2))
    worst_pdf = float(np.max(np.abs(got / expected - 1)))
    check(n == 300 and worst_one < 1e-14 and worst_alpha < 1e-9,
          "per-event ratios read back with pylhe: the central's 1, members 3/4's 1.01^2, 0.99^2",
          "%d events, |r - 1| <= %.2g, alpha_s members %.2g" % (n, worst_one, worst_alpha))
    mean = sums / n
    spread = np.sqrt(np.maximum(sums2 / n - mean ** 2, 0) / n) + 1e-12  # constant ratios: 0
    pulls = [(mean[k] - var[k]["sigma_fb"] / r["sigma_fb"]) / spread[k] for k in range(len(var))]
    check(worst_pdf < 2e-3 and max(abs(t) for t in pulls) < 5,
          "mu_F x 2 ratios against the parton package's PDFs; mean ratios against sigma_v/sigma",
          "largest deviation %.2g, pulls %s" % (worst_pdf, " ".join("%.2f" % t for t in pulls)))
    check_histograms(yoda, var, r["sigma_fb"], events)
    # defaults and switches
    l7, l0 = os.path.join(work, "d.lhe"), os.path.join(work, "n.lhe")
    base = RUN + ["--unweighted-events", "20"]
    p7 = run(exe, base + ["--lhe", l7], env)
    j0 = os.path.join(work, "n.json")
    p0 = run(exe, base + ["--lhe", l0, "--no-variation-weights", "--json", j0], env)
    plain = sigma(j0)["sigma_fb"] if p0.returncode == 0 else float("nan")
    check(plain == r["sigma_fb"], "sigma without variations is sigma with them, to the last digit",
          "%.17g vs %.17g" % (plain, r["sigma_fb"]))
    # the alternative central set against a rerun with it as the central set
    ja = os.path.join(work, "alt.json")
    p = run(exe, RUN[:-1] + [ALT_SET, "--json", ja], env)
    rerun = sigma(ja)["sigma_fb"] if p.returncode == 0 else float("nan")
    a = alt[0] if len(alt) == 1 else {"sigma_fb": float("nan"), "pdf_lhapdf_id": 0}
    check(abs(a["sigma_fb"] / rerun - 1) < 1e-12 and
          abs(a["sigma_fb"] / r["sigma_fb"] / alt_factor - 1) < 1e-12 and worst_alt < 1e-12 and
          a["pdf_lhapdf_id"] == 990100 and 'combine="none"' in open(lhe).read(),
          "--alt-pdf: sigma equals a rerun's with --pdf %s; sigma and every event x 1.1^2 1.02^2"
          % ALT_SET, "variation %.17g, rerun %.17g, ratio/expected - 1 = %.2g, events %.2g (%s)"
          % (a["sigma_fb"], rerun, a["sigma_fb"] / r["sigma_fb"] / alt_factor - 1, worst_alt,
             p.stderr[-300:]))
    text7 = open(l7).read() if p7.returncode == 0 else ""
    text0 = open(l0).read() if p0.returncode == 0 else ""
    ok = (text7.count("<weight id=") == 12 and 'combine="envelope"' in text7 and
          'combine="hessian"' in text7 and text7.count("<wgt id=") == 20 * 12 and
          "<rwgt>" not in text0 and "<initrwgt>" not in text0)
    check(ok, "7-point and all members by default with events; --no-variation-weights",
          "%d weights" % text7.count("<weight id="))
    shutil.rmtree(work)
    return finish()


def check_histograms(path, var, sigma, events):
    """The process run's histograms (babyyoda's pure-Python YODA reader): every histogram once
    per variation under Rivet's multiweight names; each variation's pt_1 and m_final (one fill
    per event) sum to its sigma; the central variation's equal the nominal's bin for bin; the
    weighted means of pt_1 and eta_1 (exact: sumwx / sumw) against the unweighted events'
    within 5 standard errors (eta_1's tells whether the members with the incoming pair swapped
    fill -eta as their events do)."""
    from babyyoda import grogu
    problems = []
    try:
        h = grogu.read(path)
    except (OSError, ValueError) as error:
        check(False, "process-run histograms read back", str(error))
        return
    total = lambda x: sum(b.sumW() for b in x.bins()) + x.underflow().sumW() + x.overflow().sumW()
    names = ["MUR%.1f_MUF%.1f_PDF%d" % (v["mu_r_factor"], v["mu_f_factor"], v["pdf_lhapdf_id"])
             for v in var]
    nominal = [k for k in h if "[" not in k]
    if sorted(nominal) != sorted("/hegetcl/" + n for n in ("pt_1", "pt_2", "eta_1", "eta_2",
                                                         "dr_min", "dr_pairs", "m_final")):
        problems.append("nominal histograms %s" % nominal)
    if len(h) != len(nominal) * (1 + len(var)):
        problems.append("%d histograms for %d variations" % (len(h), len(var)))
    for v, name in zip(var, names):
        for x in ("pt_1", "m_final"):
            got = h.get("/hegetcl/%s[%s]" % (x, name))
            if got is None or abs(total(got) / v["sigma_fb"] - 1) > 1e-12:
                problems.append("%s[%s] sums to %r, sigma %r" % (
                    x, name, total(got) if got else None, v["sigma_fb"]))
    for x in nominal:
        a, b = h[x], h.get("%s[%s]" % (x, names[0]))
        if b is None or [c.sumW() for c in a.bins()] != [c.sumW() for c in b.bins()]:
            problems.append("%s: the central variation differs from the nominal" % x)
    if abs(total(h["/hegetcl/pt_1"]) / sigma - 1) > 1e-12:
        problems.append("pt_1 sums to %r, sigma %r" % (total(h["/hegetcl/pt_1"]), sigma))
    # the hardest final-state particle of each unweighted event
    hardest = []
    for e in events:
        final = [p for p in e.particles if p.status == 1]
        p = max(final, key=lambda q: math.hypot(q.px, q.py))
        pt = math.hypot(p.px, p.py)
        hardest.append((pt, math.asinh(p.pz / pt)))
    pulls = []
    for k, x in enumerate(("pt_1", "eta_1")):
        hist = h["/hegetcl/" + x]
        sumw = total(hist)
        sumwx = sum(b.sumWX() for b in hist.bins()) + hist.underflow().sumWX() + \
            hist.overflow().sumWX()
        values = np.array([t[k] for t in hardest])
        pulls.append((sumwx / sumw - values.mean()) / (values.std() / math.sqrt(len(values))))
    if max(abs(t) for t in pulls) > 5:
        problems.append("mean pT_1 and eta_1 against the events: pulls %.2f %.2f" % tuple(pulls))
    check(not problems, "process-run histograms per variation (YODA, Rivet's names): sums are sigma "
          "per variation; the central is the nominal; pT_1 and eta_1 means as the events'",
          "; ".join(problems[:8]) + " pulls %s" % " ".join("%.2f" % t for t in pulls))


def finish():
    print("1..%d" % len(results))
    for k, (ok, name, detail) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", k, name))
        if detail:
            print("# " + detail.replace("\n", "\n# "))
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
