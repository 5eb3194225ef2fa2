#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The five-flavour scheme of a process run, `--maxjetflavor 5` (MadGraph's run_card name): p
holds b and b~, so `p p > t t~` gains b b~ and b~ b, and each of its channels' sigma agrees
with a semi-analytic integral written here: sigma_hat(q q~ -> t t~) = 8 pi alpha_s^2 beta
(1 + rho/2) / (27 s-hat) (rho = 4 m_t^2 / s-hat, beta = sqrt(1 - rho)) over the cteq6l1 grid read
by the `parton` package (PyPI), at mu = 173 GeV with MadGraph's alpha_s (0.130 at M_Z, one loop,
five flavours). The integral is first checked against the q q~ groups' semi-analytic value in
../shared/refs/mg5-next/xsec.txt (79.0608 pb for u c d s), then compared with hegetcl's b b~
channels; the four-flavour default has none, and a value other than 4 or 5 is refused.
Prints TAP; skips, naming the fix, when `parton` is missing.
usage: five_flavours.py HEGETCL_EXE
"""
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

DEVICE = os.environ.get("HEGETCL_TEST_DEVICE") or os.environ.get("HEGETCL_DEVICE") or "auto"
MT, MZ, SQRT_S = 173.0, 91.188, 14000.0
GEV2_TO_PB = 0.3893793721e9
QQ_REFERENCE_PB = 79.0608  # xsec.txt, "B1a": u c d s and their mirrors, semi-analytic
RUN = ["--scale", "173", "--alpha-s-running", "madgraph", "--target-error", "0.002",
       "--seed", "7", "--device", DEVICE, "--quiet"]

results = []


def check(ok, what, detail=""):
    results.append((ok, what, detail))


def alpha_s(q):
    a = 0.130
    return a / (1 + a * 23 / (12 * math.pi) * math.log(q * q / (MZ * MZ)))


def semi_analytic_pb(pdfs, flavour):
    """sigma(q q~ -> t t~) + sigma(q~ q -> t t~) in pb for quark PDG id `flavour`."""
    s = SQRT_S ** 2
    tau0 = 4 * MT * MT / s
    # ln tau from ln tau0 to 0 (Gauss-Legendre, with a sqrt map at threshold where beta ~ sqrt),
    # y from ln(tau)/2 to -ln(tau)/2
    nodes, weights = np.polynomial.legendre.leggauss(160)
    u = 0.5 * (nodes + 1)
    wu = 0.5 * weights
    total = 0.0
    q2 = 173.0 ** 2
    a_s = alpha_s(173.0)
    for ui, wi in zip(u, wu):
        # tau = tau0^(1 - v), v = ui^2: d ln tau = -ln tau0 dv, dv = 2 ui dui
        v = ui * ui
        log_tau = (1 - v) * math.log(tau0)
        tau = math.exp(log_tau)
        jac_tau = -math.log(tau0) * 2 * ui * tau  # dtau per dui
        shat = tau * s
        rho = 4 * MT * MT / shat
        beta = math.sqrt(max(1 - rho, 0.0))
        sigma_hat = 8 * math.pi * a_s ** 2 * beta * (1 + rho / 2) / (27 * shat)
        ymax = -0.5 * log_tau
        y = ymax * nodes
        x1, x2 = np.sqrt(tau) * np.exp(y), np.sqrt(tau) * np.exp(-y)
        xf = lambda pid, x: pdfs.xfxQ2(np.full(x.shape, pid), x, np.full(x.shape, q2), grid=False)
        lum = (xf(flavour, x1) * xf(-flavour, x2) + xf(-flavour, x1) * xf(flavour, x2)) / tau
        total += wi * jac_tau * sigma_hat * ymax * float(np.dot(weights, lum))
    return total * GEV2_TO_PB


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    exe = os.path.abspath(sys.argv[1])
    try:
        from parton import mkPDF
    except ImportError:
        print("1..1\nok 1 # SKIP the parton package is missing (python3 -m pip install parton, "
              "or bash setup.sh)")
        return 0
    grid = os.path.join(os.environ.get("LHAPDF_DATA_PATH", "").split(":")[0], "cteq6l1")
    pdfs = mkPDF("cteq6l1", 0, pdfdir=os.path.dirname(grid))
    four = sum(semi_analytic_pb(pdfs, q) for q in (1, 2, 3, 4))
    check(abs(four / QQ_REFERENCE_PB - 1) < 2e-5,
          "this test's integral gives the q q~ groups' semi-analytic sigma of xsec.txt",
          "%.5f pb against %.4f" % (four, QQ_REFERENCE_PB))
    bb = semi_analytic_pb(pdfs, 5)
    tmp = tempfile.mkdtemp(prefix="hegetcl-five-flavours-")
    out = {}
    for scheme in ("4", "5"):
        path = os.path.join(tmp, "tt%s.json" % scheme)
        p = subprocess.run([exe, "xsec", "--process", "p p > t t~", "--maxjetflavor", scheme,
                            "--json", path] + RUN, capture_output=True, text=True, timeout=900)
        if p.returncode != 0:
            check(False, "--maxjetflavor %s runs" % scheme, p.stderr.strip()[-400:])
            continue
        with open(path, encoding="utf-8") as f:
            out[scheme] = json.load(f)
    if "5" in out:
        run = out["5"]
        channels = {c["process"]: c for c in run["channels"]}
        b = [channels.get(n) for n in ("b b~ > t t~", "b~ b > t t~")]
        if None in b:
            check(False, "five flavours: b b~ and b~ b channels", ", ".join(sorted(channels)))
        else:
            got = sum(c["sigma_fb"] for c in b) / 1e3
            err = math.sqrt(sum(c["error_fb"] ** 2 for c in b)) / 1e3
            pull = (got - bb) / err
            check(len(channels) == 11 and abs(pull) < 3,
                  "five flavours: 11 channels; sigma(b b~) + sigma(b~ b) against the "
                  "semi-analytic integral",
                  "%.4f +- %.4f pb against %.4f, pull %+.2f" % (got, err, bb, pull))
        check(run["process"].get("five_flavour") is True, "the JSON says five_flavour", "")
    if "4" in out:
        names = [c["process"] for c in out["4"]["channels"]]
        check(len(names) == 9 and not any("b" in n.split() or "b~" in n.split() for n in names),
              "four flavours (the default spelled out): 9 channels, no b", ", ".join(names))
    p = subprocess.run([exe, "xsec", "--process", "p p > t t~", "--maxjetflavor", "6"],
                       capture_output=True, text=True, timeout=60)
    check(p.returncode == 2 and "--maxjetflavor 6: use 4" in p.stderr,
          "--maxjetflavor 6 is refused with the values it takes", p.stderr.strip())
    print("1..%d" % len(results))
    for i, (ok, what, detail) in enumerate(results, 1):
        print("%s %d - %s%s" % ("ok" if ok else "not ok", i, what, ": " + detail if detail else ""))
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
