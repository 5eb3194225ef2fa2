#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`hegetcl xsec --compare REF` prints sigma beside another program's with the pull, and writes
the comparison into the JSON. REF is typed ("603.17 +- 0.30", pb; "fb" after it for fb) or a Les
Houches file whose <init> block gives it (XSECUP summed over its processes, XERRUP added in
quadrature), whose beams and energy must be the run's. Prints TAP.

part "host" (refused before any device is chosen): a text that is no number, a cross section that
  is not positive, a negative error, a missing file, a file without <init>, a file of other beams
  or another energy: each named with its fix.
part "device": a small p p > t t~ run against a Les Houches file made here (two process lines)
  and against MadEvent's own event file in ../shared (its <init> read here independently): the
  printed and the JSON's reference, difference and pull equal what this script computes from the
  JSON's sigma and error; typed pb and fb give the same comparison.

usage: compare_with_reference.py HEGETCL_EXE host|device [MADEVENT_LHE]
"""
import gzip
import json
import math
import os
import re
import subprocess
import sys
import tempfile

QUICK = ["--process", "p p > t t~", "--scale", "173", "--alpha-s-running", "madgraph",
         "--events", "20000", "--adapt-events", "10000", "--adapt-iterations", "2",
         "--min-iterations", "2", "--max-iterations", "2", "--batch", "16384",
         "--checkpoint", "none"]
results = []


def report(ok, what, detail=""):
    results.append((ok, what, detail))


def run(exe, args, cwd):
    env = dict(os.environ)
    return subprocess.run([exe, "xsec"] + args, capture_output=True, text=True, timeout=600,
                          env=env, cwd=cwd)


def lhe(path, beams, energies, processes, compress=False):
    """A Les Houches file's header and one event: processes are (XSECUP, XERRUP) pairs."""
    lines = ["<LesHouchesEvents version=\"3.0\">", "<header>", "</header>", "<init>",
             "%d %d %.6e %.6e 0 0 10042 10042 3 %d" % (beams[0], beams[1], energies[0],
                                                      energies[1], len(processes))]
    lines += ["%.7e %.7e %.7e %d" % (s, e, s, k + 1) for k, (s, e) in enumerate(processes)]
    lines += ["<generator name='TestGen' version='1.2'>made by the test</generator>", "</init>",
              "<event>", "</event>", "</LesHouchesEvents>"]
    text = "\n".join(lines) + "\n"
    if compress:
        with gzip.open(path, "wt") as f:
            f.write(text)
    else:
        with open(path, "w") as f:
            f.write(text)


def host_part(exe, tmp):
    lhe(os.path.join(tmp, "lhc13.lhe"), (2212, 2212), (6500, 6500), [(600.0, 0.5)])
    lhe(os.path.join(tmp, "tevatron.lhe"), (2212, -2212), (7000, 7000), [(600.0, 0.5)])
    with open(os.path.join(tmp, "notes.lhe"), "w") as f:
        f.write("no init block here\n")
    cases = [
        ("a word", ["--compare", "sigma"], ["not a cross section", "SIGMA +- ERROR"]),
        ("zero", ["--compare", "0 +- 1"], ["must be positive"]),
        ("negative error", ["--compare", "603,-0.3"], ["error not negative"]),
        ("trailing text", ["--compare", "603 +- 0.3 nb"], ["not a cross section"]),
        ("missing file", ["--compare", "missing.lhe.gz"], ["cannot open missing.lhe.gz"]),
        ("no <init>", ["--compare", "notes.lhe"], ["no complete Les Houches <init>"]),
        ("another energy", ["--compare", "lhc13.lhe"], ["sqrt(s) = 13000 GeV", "--sqrt-s 13000"]),
        ("other beams", ["--compare", "tevatron.lhe"], ["--beams p-pbar"]),
    ]
    for label, args, parts in cases:
        p = run(exe, QUICK + args, tmp)
        first = (p.stderr.strip().splitlines() or [""])[0]
        print("# %s: %s" % (label, first))
        missing = [part for part in parts if part not in p.stderr]
        report(p.returncode == 2 and not missing and p.stdout == "",
               "--compare refuses %s before any work" % label,
               "exit %d, missing %s: %s" % (p.returncode, missing, p.stderr.strip()[:300]))


def compared(exe, tmp, name, ref_args):
    out = os.path.join(tmp, name + ".json")
    p = run(exe, QUICK + ["--quiet", "--json", out] + ref_args, tmp)
    if p.returncode != 0:
        return None, None, p.stderr
    with open(out) as f:
        return json.load(f), p.stdout, ""


def check_comparison(label, data, stdout, sigma_pb, error_pb, generator):
    if data is None:
        report(False, label, stdout)
        return
    s = data["result"]["sigma_fb"] * 1e-3
    e = data["result"]["error_fb"] * 1e-3
    pull = (s - sigma_pb) / math.hypot(e, error_pb)
    c = data.get("compared_with", {})
    line = next((l for l in stdout.splitlines() if "compared with" in l), "")
    printed = re.search(r"pull ([+-][0-9.]+)", line)
    ok = (abs(c.get("sigma_pb", 0) - sigma_pb) <= 1e-9 * sigma_pb and
          abs(c.get("error_pb", -1) - error_pb) <= 1e-9 * max(error_pb, 1e-30) and
          abs(c.get("pull", 1e9) - pull) <= 1e-9 * max(1.0, abs(pull)) and
          c.get("generator") == generator and printed is not None and
          abs(float(printed.group(1)) - pull) <= 0.006)
    print("# %s: %s" % (label, line.strip()))
    report(ok, label, "expected %.6g +- %.4g pb, pull %+.4f; JSON %s; printed %r" %
           (sigma_pb, error_pb, pull, c, line))


def device_part(exe, tmp, madevent):
    # two process lines: their sum and their errors in quadrature
    lhe(os.path.join(tmp, "two.lhe.gz"), (2212, 2212), (7000, 7000),
        [(500.25, 0.3), (103.0, 0.4)], compress=True)
    data, out, err = compared(exe, tmp, "two", ["--compare", "two.lhe.gz"])
    check_comparison("a Les Houches file's two processes: sigma 603.25 +- 0.5 pb", data,
                     out or err, 603.25, 0.5, "TestGen 1.2")
    data, out, err = compared(exe, tmp, "typed", ["--compare", "603.25 +- 0.5"])
    check_comparison("typed in pb", data, out or err, 603.25, 0.5, "")
    data, out, err = compared(exe, tmp, "typed_fb", ["--compare", "6.0325e5,500 fb"])
    check_comparison("typed in fb", data, out or err, 603.25, 0.5, "")
    if madevent and os.path.exists(madevent):
        # MadEvent's <init>, read here: the beam line, then XSECUP XERRUP XMAXUP LPRUP lines
        with gzip.open(madevent, "rt") as f:
            text = f.read(200000)
        block = text[text.index("<init>"):text.index("</init>")].splitlines()[1:]
        n = int(block[0].split()[9])
        procs = [tuple(map(float, l.split()[:2])) for l in block[1:1 + n]]
        sigma = sum(s for s, _ in procs)
        error = math.sqrt(sum(e * e for _, e in procs))
        data, out, err = compared(exe, tmp, "madevent", ["--compare", madevent])
        check_comparison("MadEvent's p p > t t~ event file (%.6g +- %.4g pb)" % (sigma, error),
                         data, out or err, sigma, error, "MadGraph5_aMC@NLO 3.5.7")
    else:
        report(True, "MadEvent's event file: not found, skipped")


def main():
    if len(sys.argv) < 3 or sys.argv[2] not in ("host", "device"):
        sys.exit(__doc__)
    exe = os.path.abspath(sys.argv[1])
    madevent = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 else None
    with tempfile.TemporaryDirectory() as tmp:
        (host_part(exe, tmp) if sys.argv[2] == "host" else device_part(exe, tmp, madevent))
    print("1..%d" % len(results))
    for k, (ok, what, detail) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", k, what))
        if not ok:
            print("# " + detail.replace("\n", "\n# "))
    sys.exit(0 if all(ok for ok, _, _ in results) else 1)


main()
