#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The event files `hegetcl xsec` writes meet a real shower: Pythia 8 (pythia8mc 8.317.2, PyPI)
reads each, showers and hadronises every event with its event check on (Check:event = on), aborts
none, prints no error, and reports sigma_gen equal to the file's sigma: with unit-weight events
(IDWTUP = 3) sigma_gen is XSECUP times the fraction of events accepted, so all accepted it is
XSECUP itself, as is its error XERRUP (compared to 1e-9, relative; examples/shower_with_pythia.py
does the showering). Prints TAP.

  1  2 photons, helicities summed, u ubar with the quark from either proton, a plain .lhe file
  2  3 photons, one helicity configuration per event (the file carries helicities), every light
     flavour (d, u, s, c, b, each its own channel), the quark from proton 1, a gzip'd file
  3  the check bites: file 1 with one photon's momentum changed is flagged (an aborted event,
     Pythia::check's error, sigma_gen below the file's)

Pythia missing: every case is skipped, naming the fix (bash setup.sh --deps-only installs it).
usage: pythia_shower.py HEGETCL_EXE SHOWER_WITH_PYTHIA_PY
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
QUICK = ["--adapt-iterations", "2", "--adapt-events", "20000", "--events", "50000",
         "--min-iterations", "2", "--max-iterations", "2", "--target-error", "0", "--batch",
         "16384", "--seed", "5", "--device", DEVICE, "--quiet"]
N_EVENTS = 400
FILES = [
    ("2 photons, helicities summed, the quark from either proton, plain LHE", "n2.lhe",
     ["--n", "2", "--orientation", "both"]),
    ("3 photons, sampled helicities, every light flavour, the quark from proton 1, gzip'd LHE",
     "n3.lhe.gz", ["--n", "3", "--helicity", "sampled", "--flavours", "all",
                   "--orientation", "u-first"]),
]


def load(path):
    spec = importlib.util.spec_from_file_location("shower_with_pythia", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def verdict(shower, path):
    """The example's verdict, its summary lines printed as TAP comments."""
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        problems = shower.verdict(path)
    for line in said.getvalue().splitlines():
        print(f"# {line}")
    return problems


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    exe, shower = os.path.abspath(sys.argv[1]), load(sys.argv[2])
    try:
        shower.pythia_data()
    except RuntimeError as e:
        print(f"1..{len(FILES) + 1}")
        for i in range(len(FILES) + 1):
            print(f"ok {i + 1} # SKIP {e}")
        return 0
    tmp = tempfile.mkdtemp(prefix="hegetcl-pythia-")
    results = []
    for what, name, args in FILES:
        path = os.path.join(tmp, name)
        p = subprocess.run([exe, "xsec"] + args + QUICK +
                           ["--unweighted-events", str(N_EVENTS), "--lhe", path],
                           capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            results.append((False, what, f"hegetcl exit {p.returncode}: {p.stderr.strip()[-500:]}"))
            continue
        problems = verdict(shower, path)
        results.append((not problems, f"{what}: Pythia showers every event, aborts none, "
                        "reports no error and sigma_gen equal to the file's", "; ".join(problems)))
    # 3: one photon's px changed in the first event: momentum no longer conserved
    good = os.path.join(tmp, FILES[0][1])
    if os.path.exists(good):
        text = open(good).read()
        at = text.index("<event>")
        line_start = text.index("\n       22", at) + 1
        line_end = text.index("\n", line_start)
        fields = text[line_start:line_end].split()
        fields[6] = f"{float(fields[6]) + 10.0:+.16e}"
        bad = os.path.join(tmp, "bad.lhe")
        with open(bad, "w") as f:
            f.write(text[:line_start] + " ".join(fields) + text[line_end:])
        problems = verdict(shower, bad)
        flagged = (any("aborted" in p for p in problems)
                   and any("Pythia::check" in p for p in problems)
                   and any(p.startswith("sigma_gen") for p in problems))
        results.append((flagged, "the check bites: an event whose momentum is not conserved is "
                        "aborted, named by Pythia::check, and lowers sigma_gen",
                        "; ".join(problems) or "no problem found"))
    else:
        results.append((False, "the check bites", "file 1 was not written"))
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
