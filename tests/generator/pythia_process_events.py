#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Events of a run over a process meet a real shower: Pythia 8 (pythia8mc, PyPI) with its event
check on (Check:event = on) reads p p > t t~, p p > t t~ j (ptj 50, etaj 5), W+ + jet
(p p > e+ ve j, ptj 20), two jets (p p > j j, ptj 50, etaj 5, drjj 0.4: 29 groups, quarks of
every flavour and gluons) and Drell-Yan (p p > e+ e-, 66 < m_ll < 116 GeV) files that
`hegetcl xsec --process` writes, showers and hadronises every event (colour flows, ICOLUP, from
the flows' leading-colour weights; one <init> process line per channel group), aborts none,
prints no error, and reports sigma_gen equal to the file's sigma (the sum of its process lines).
Prints TAP; every case is skipped, naming the fix, when Pythia is missing.
usage: pythia_process_events.py HEGETCL_EXE SHOWER_WITH_PYTHIA_PY
"""
import contextlib
import importlib.util
import io
import os
import shutil
import subprocess
import sys
import tempfile

DEVICE = os.environ.get("HEGETCL_TEST_DEVICE") or os.environ.get("HEGETCL_DEVICE") or "auto"
QUICK = ["--adapt-iterations", "2", "--adapt-events", "20000", "--events",
         "40000", "--min-iterations", "2", "--max-iterations", "2", "--target-error", "0",
         "--batch", "16384", "--seed", "9", "--device", DEVICE, "--quiet"]
N_EVENTS = 300
FILES = [
    ("p p > t t~, plain LHE", "tt.lhe", ["--process", "p p > t t~", "--scale", "173"]),
    ("p p > t t~ j with ptj 50, etaj 5, gzip'd LHE", "ttj.lhe.gz",
     ["--process", "p p > t t~ j", "--ptj", "50", "--etaj", "5", "--scale", "173"]),
    ("p p > j j with ptj 50, etaj 5, drjj 0.4", "jj.lhe.gz",
     ["--process", "p p > j j", "--ptj", "50", "--etaj", "5", "--drjj", "0.4", "--scale",
      "91.188"]),
    ("W+ and a jet, p p > e+ ve j with ptj 20", "wj.lhe.gz",
     ["--process", "p p > e+ ve j", "--ptj", "20", "--scale", "80.419"]),
    ("Drell-Yan, p p > e+ e- with 66 < m_ll < 116 GeV", "dy.lhe",
     ["--process", "p p > e+ e-", "--mmll", "66", "--mmllmax", "116", "--scale", "91.188"]),
]


def load(path):
    spec = importlib.util.spec_from_file_location("shower_with_pythia", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    exe, shower = os.path.abspath(sys.argv[1]), load(sys.argv[2])
    try:
        shower.pythia_data()
    except RuntimeError as e:
        print(f"1..{len(FILES)}")
        for i in range(len(FILES)):
            print(f"ok {i + 1} # SKIP {e}")
        return 0
    tmp = tempfile.mkdtemp(prefix="hegetcl-pythia-process-")
    results = []
    for what, name, args in FILES:
        path = os.path.join(tmp, name)
        p = subprocess.run([exe, "xsec"] + args + QUICK +
                           ["--unweighted-events", str(N_EVENTS), "--lhe", path],
                           capture_output=True, text=True, timeout=900, cwd=tmp)
        if p.returncode != 0:
            results.append((False, what, f"hegetcl exit {p.returncode}: {p.stderr.strip()[-500:]}"))
            continue
        said = io.StringIO()
        cwd = os.getcwd()
        os.chdir(tmp)  # pythia8mc will not start from a folder holding the sources
        try:
            with contextlib.redirect_stdout(said):
                problems = shower.verdict(path)
        finally:
            os.chdir(cwd)
        for line in said.getvalue().splitlines():
            print(f"# {line}")
        results.append((not problems, f"{what}: Pythia showers every event, aborts none, reports "
                        "no error and sigma_gen equal to the file's", "; ".join(problems)))
    print(f"1..{len(results)}")
    for i, (ok, what, detail) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {what}" + ("" if ok or not detail else f": {detail}"))
    if all(ok for ok, _, _ in results):
        shutil.rmtree(tmp, ignore_errors=True)
    else:
        print(f"# the files are kept in {tmp}")
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
