#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Variation weights of a photon run (p p -> 2 photons, the paper's set-up: mu_F = 20 GeV, alpha
fixed), computed on the device, against reruns with the varied settings, closed forms and an
independent PDF reader. Prints TAP.

The PDF sets are assembled in a temporary folder from the cteq6l1 grid
(tests/support/pdf_test_sets.py); they are NOT physical sets: hgtest_cteq6l1_var (5 members,
hessian: 1/2 move the gluon against the quarks, 3/4 are cteq6l1's grid with their own alpha_s)
and hgtest_cteq6l1_alt (cteq6l1's grid times 1.1), the alternative central set.

Every run integrates with the grid frozen (--vegas-alpha 0) and one combined iteration, so that a
rerun with a varied setting sees the same points with the same seed.
  1  the variation run (9-point scales, all members, the alternative set) writes JSON and LHE,
     and prints sigma with its scale envelope and PDF uncertainty
  2  the central variation's sigma is sigma; alpha is fixed, so every mu_R variation's sigma is
     that of its mu_F alone, to the last digit
  3  sigma(mu_F x 2) equals a rerun's with --scale 40 (x 1/2 with --scale 10 in the exhaustive
     run)
  4  sigma(member 1) equals a rerun's with --pdf-member 1; members 3/4 (cteq6l1's grid, only
     alpha_s differs) give sigma itself; the PDF uncertainty is the Hessian formula by hand
  5  the alternative set: sigma equals a rerun's with --pdf set to it, and sigma and every event's
     ratio are 1.1^2 times the nominal's
  6  per-event ratios read with pylhe: the central's is 1; mu_F x 2's is f_u(x1, 40 GeV)
     f_ubar(x2, 40 GeV) / (the same at 20 GeV), computed with the `parton` package's reader of the
     grid (to 2e-3: its interpolation is not LHAPDF's); the mean ratios agree with sigma_v / sigma
     within 5 standard errors
  7  with variations off, sigma and the events are the same to the last digit (the nominal weights
     and the event stream do not change), and the JSON and LHE carry none
  8  the YODA file, read with babyyoda's pure-Python reader (grogu), holds every histogram once
     per variation as Rivet names multiweight histograms (/hegetcl/pt_1[MUR2.0_MUF1.0_PDF990000]);
     each variation's pT and mass histograms (one fill per event) sum to its sigma, the central
     variation's equal the nominal's bin for bin, and the nominal histograms are those of the run
     without variations, character for character
The exhaustive run (HEGETCL_TEST_EXHAUSTIVE=1) adds mu_F x 1/2 against --scale 10, a run over the
flavours u and d against a rerun with --scale 40, and the 7-point default of an event run in
LHEH5 and HepMC3 (read back with h5py and pyhepmc: 1 + 7 + 5 weights named).

usage: photon_variation_weights.py HEGETCL_EXE
"""
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from pdf_test_sets import ALT_PDF_FACTOR, ALT_SET, SET, SOURCE, make_alt_set, make_set  # noqa: E402

DEVICE = os.environ.get("HEGETCL_TEST_DEVICE") or os.environ.get("HEGETCL_DEVICE") or "auto"
EXHAUSTIVE = os.environ.get("HEGETCL_TEST_EXHAUSTIVE") == "1"
RUN = ["xsec", "--n", "2", "--device", DEVICE, "--events", "20000", "--adapt-events", "4000",
       "--adapt-iterations", "1", "--min-iterations", "1", "--max-iterations", "1",
       "--target-error", "0", "--batch", "8192", "--vegas-alpha", "0", "--seed", "7",
       "--checkpoint", "none", "--pdf", SET]
SCALES = "Central scale variation"

results = []


def check(ok, name, detail=""):
    results.append((bool(ok), name, detail))


def run(exe, args, env):
    return subprocess.run([exe] + args, capture_output=True, text=True, env=env)


def result(path):
    try:
        with open(path) as f:
            return json.load(f)["result"]
    except (OSError, ValueError, KeyError):
        return {"sigma_fb": float("nan")}


def rerun_sigma(exe, work, env, extra, name):
    path = os.path.join(work, name + ".json")
    p = run(exe, RUN + extra + ["--quiet", "--json", path], env)
    return result(path)["sigma_fb"] if p.returncode == 0 else float("nan"), p.stderr[-300:]


def events_without_weights(path):
    """The LHE file's <event> blocks without their <rwgt> lines."""
    with open(path) as f:
        text = f.read()
    blocks = re.findall(r"<event>.*?</event>", text, re.S)
    return [re.sub(r"<rwgt>.*?</rwgt>\n?", "", b, flags=re.S) for b in blocks]


def main():
    exe = sys.argv[1]
    work = tempfile.mkdtemp(prefix="hegetcl-photon-variations-")
    env = dict(os.environ)
    env["LHAPDF_DATA_PATH"] = work + ":" + env.get("LHAPDF_DATA_PATH", "")
    make_set(work)
    make_alt_set(work)
    j, lhe = os.path.join(work, "v.json"), os.path.join(work, "v.lhe")
    yv = os.path.join(work, "v.yoda")
    p = run(exe, RUN + ["--scale-variations", "9", "--pdf-variations", "on", "--alt-pdf", ALT_SET,
                        "--json", j, "--unweighted-events", "200", "--lhe", lhe, "--yoda", yv], env)
    printed = re.search(r"scale uncertainty \(9-point.*fb", p.stdout) and \
        re.search(r"PDF uncertainty \(%s, 5 members, hessian\): \+- \S+ fb" % SET, p.stdout)
    check(p.returncode == 0 and os.path.exists(j) and os.path.exists(lhe) and printed,
          "the variation run writes JSON and LHE and prints the scale and PDF uncertainty",
          (p.stdout + p.stderr)[-2000:])
    if p.returncode != 0:
        return finish(work)
    r = result(j)
    var = r["variations"]
    sigma = r["sigma_fb"]
    scale = lambda f_r, f_f: [v for v in var if v["group"] == SCALES and
                              v["mu_r_factor"] == f_r and v["mu_f_factor"] == f_f][0]
    central = scale(1, 1)
    same_mu_r = all(scale(f_r, f_f)["sigma_fb"] == scale(1, f_f)["sigma_fb"]
                    for f_r in (0.5, 2) for f_f in (0.5, 1, 2))
    check(len(var) == 9 + 5 + 1 and abs(central["sigma_fb"] / sigma - 1) < 1e-13 and same_mu_r,
          "the central variation's sigma is sigma; mu_R changes nothing (alpha is fixed)",
          "%d variations, %.17g vs %.17g" % (len(var), central["sigma_fb"], sigma))
    factors = ((2, "40"), (0.5, "10")) if EXHAUSTIVE else ((2, "40"),)
    for f_f, q in factors:
        rerun, err = rerun_sigma(exe, work, env, ["--scale", q], "s" + q)
        v = scale(1, f_f)["sigma_fb"]
        check(abs(v / rerun - 1) < 1e-12, "sigma(mu_F x %g) equals a rerun's with --scale %s"
              % (f_f, q), "variation %.17g, rerun %.17g %s" % (v, rerun, err))
    pdf = [v for v in var if v["group"] == SET]
    rerun, err = rerun_sigma(exe, work, env, ["--pdf-member", "1"], "m1")
    s = [v["sigma_fb"] for v in pdf]
    hand = 0.5 * math.sqrt((s[1] - s[2]) ** 2 + (s[3] - s[4]) ** 2)
    check(len(pdf) == 5 and abs(s[1] / rerun - 1) < 1e-12 and
          abs(s[3] / sigma - 1) < 1e-13 and abs(s[4] / sigma - 1) < 1e-13 and
          r["pdf_error_type"] == "hessian" and abs(r["pdf_error_fb"] / hand - 1) < 1e-12,
          "sigma(member 1) equals a rerun's; members 3/4 (alpha_s only) give sigma; Hessian "
          "uncertainty", "member 1 %.17g, rerun %.17g; 3/4: %.17g %.17g; %.17g vs %.17g %s"
          % (s[1], rerun, s[3], s[4], r["pdf_error_fb"], hand, err))
    alt = [v for v in var if v["group"] == ALT_SET]
    rerun, err = rerun_sigma(exe, work, env, ["--pdf", ALT_SET], "alt")
    a = alt[0]["sigma_fb"] if len(alt) == 1 else float("nan")
    check(abs(a / rerun - 1) < 1e-12 and abs(a / sigma / ALT_PDF_FACTOR ** 2 - 1) < 1e-12 and
          alt[0]["alternative_set"] and alt[0]["pdf_lhapdf_id"] == 990100,
          "--alt-pdf: sigma equals a rerun's with --pdf %s, and 1.1^2 sigma" % ALT_SET,
          "variation %.17g, rerun %.17g, 1.1^2 sigma %.17g %s"
          % (a, rerun, ALT_PDF_FACTOR ** 2 * sigma, err))
    # the events
    import pylhe
    from parton import mkPDF
    events = list(pylhe.LHEFile.fromfile(lhe).events)
    pdfs = mkPDF("cteq6l1", 0, pdfdir=SOURCE.rsplit("/", 1)[0])
    ratios = np.array([[e.weights[v["id"]] / e.eventinfo.weight for v in var] for e in events])
    col = {v["id"]: k for k, v in enumerate(var)}
    worst_one = float(np.max(np.abs(ratios[:, col[central["id"]]] - 1)))
    worst_alt = float(np.max(np.abs(ratios[:, col[alt[0]["id"]]] / ALT_PDF_FACTOR ** 2 - 1)))
    ida = np.array([e.particles[0].id for e in events])
    idb = np.array([e.particles[1].id for e in events])
    x1 = np.array([2 * e.particles[0].e / 14000 for e in events])
    x2 = np.array([2 * e.particles[1].e / 14000 for e in events])
    f = lambda pid, x, q2: pdfs.xfxQ2(pid, x, q2, grid=False)
    expected = (f(ida, x1, 1600.0) * f(idb, x2, 1600.0)) / (f(ida, x1, 400.0) * f(idb, x2, 400.0))
    worst_pdf = float(np.max(np.abs(ratios[:, col[scale(1, 2)["id"]]] / expected - 1)))
    n = len(events)
    mean = ratios.mean(axis=0)
    spread = ratios.std(axis=0) / math.sqrt(n) + 1e-12  # constant ratios: 0
    pulls = [(mean[k] - var[k]["sigma_fb"] / sigma) / spread[k] for k in range(len(var))]
    check(n == 200 and worst_one == 0 and worst_alt < 1e-12 and worst_pdf < 2e-3 and
          max(abs(t) for t in pulls) < 5,
          "per-event ratios read with pylhe: the central's 1, the alternative set's 1.1^2, mu_F x 2 "
          "against the parton package; mean ratios against sigma_v / sigma",
          "%d events, central %.2g, alternative %.2g, mu_F x 2 %.2g, pulls %s"
          % (n, worst_one, worst_alt, worst_pdf, " ".join("%.2f" % t for t in pulls)))
    # variations off: the same sigma and events
    j0, l0, y0 = (os.path.join(work, "n." + e) for e in ("json", "lhe", "yoda"))
    p0 = run(exe, RUN + ["--quiet", "--json", j0, "--unweighted-events", "200", "--lhe", l0,
                         "--no-variation-weights", "--yoda", y0], env)
    r0 = result(j0)
    text0 = open(l0).read() if p0.returncode == 0 else ""
    same = events_without_weights(lhe) == events_without_weights(l0) if text0 else False
    check(r0["sigma_fb"] == sigma and same and "variations" not in r0 and "<rwgt>" not in text0,
          "variations off: sigma and the events to the last digit, no weights",
          "%.17g vs %.17g, events the same: %s %s" % (r0["sigma_fb"], sigma, same,
                                                      p0.stderr[-300:]))
    check_yoda(yv, y0, var, sigma)
    if EXHAUSTIVE:
        exhaustive(exe, work, env)
    return finish(work)


def yoda_blocks(path):
    """The file's histogram blocks by path, as text."""
    with open(path) as f:
        text = f.read()
    return dict(re.findall(r"BEGIN YODA_HISTO1D_V2 (\S+)\n(.*?)END YODA_HISTO1D_V2", text, re.S))


def check_yoda(varied_path, plain_path, var, sigma):
    from babyyoda import grogu
    problems = []
    try:
        histograms = grogu.read(varied_path)
        plain = yoda_blocks(plain_path)
        varied = yoda_blocks(varied_path)
    except (OSError, ValueError) as error:
        check(False, "the YODA files read back", str(error))
        return
    total = lambda h: sum(b.sumW() for b in h.bins()) + h.underflow().sumW() + h.overflow().sumW()
    names = ["MUR%.1f_MUF%.1f_PDF%d" % (v["mu_r_factor"], v["mu_f_factor"], v["pdf_lhapdf_id"])
             for v in var]
    central = names[0]  # the scale group's nominal first
    nominal = [p for p in plain]
    for p in nominal:
        for name in names:
            if "%s[%s]" % (p, name) not in histograms:
                problems.append("%s[%s] missing" % (p, name))
    if len(histograms) != len(nominal) * (1 + len(var)):
        problems.append("%d histograms, want %d x %d" % (len(histograms), len(nominal),
                                                         1 + len(var)))
    for v, name in zip(var, names):
        for h in ("pt_1", "m_photons"):
            got = histograms.get("/hegetcl/%s[%s]" % (h, name))
            if got is None or abs(total(got) / v["sigma_fb"] - 1) > 1e-12:
                problems.append("%s[%s]: sum %r, sigma %r" % (
                    h, name, total(got) if got else None, v["sigma_fb"]))
    for p in nominal:
        a, b = histograms.get(p), histograms.get("%s[%s]" % (p, central))
        if a is None or b is None or [x.sumW() for x in a.bins()] != [x.sumW() for x in b.bins()]:
            problems.append("%s: the central variation's bins differ from the nominal's" % p)
        if varied.get(p) != plain.get(p):
            problems.append("%s: the nominal histogram differs from the run without variations" % p)
    check(not problems, "YODA (babyyoda's reader): every histogram per variation, Rivet's names; "
          "sums are sigma per variation; the nominal histograms unchanged", "; ".join(problems[:8]))


def exhaustive(exe, work, env):
    flavours = ["--flavours", "u,d"]
    jf = os.path.join(work, "f.json")
    p = run(exe, RUN + flavours + ["--quiet", "--scale-variations", "7", "--json", jf], env)
    v = [x for x in result(jf).get("variations", []) if x["mu_r_factor"] == 1 and
         x["mu_f_factor"] == 2] if p.returncode == 0 else []
    rerun, err = rerun_sigma(exe, work, env, flavours + ["--scale", "40"], "f40")
    got = v[0]["sigma_fb"] if v else float("nan")
    check(abs(got / rerun - 1) < 1e-12, "flavours u, d: sigma(mu_F x 2) equals a rerun's",
          "variation %.17g, rerun %.17g %s %s" % (got, rerun, p.stderr[-300:], err))
    import h5py
    import pyhepmc
    h5, hepmc = os.path.join(work, "d.hdf5"), os.path.join(work, "d.hepmc")
    names = {}
    for path in (h5, hepmc):
        p = run(exe, RUN + ["--quiet", "--unweighted-events", "20", "--lhe", path], env)
        if p.returncode != 0:
            names[path] = p.stderr[-300:]
    if not names:
        with h5py.File(h5, "r") as f:
            columns = [c.decode() if isinstance(c, bytes) else c
                       for c in f["events"].attrs["properties"]]
            names[h5] = columns[9:]
        with pyhepmc.open(hepmc) as reader:
            names[hepmc] = list(next(iter(reader)).run_info.weight_names)
    ok = all(isinstance(v, list) and len(v) == 1 + 7 + 5 and v[0] == "Default"
             for v in names.values())
    check(ok, "the 7-point and all members by default in LHEH5 and HepMC3", str(names)[:600])


def finish(work):
    shutil.rmtree(work, ignore_errors=True)
    print("1..%d" % len(results))
    for k, (ok, name, detail) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", k, name))
        if detail:
            print("# " + detail.replace("\n", "\n# "))
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
