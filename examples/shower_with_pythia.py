#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Showers and hadronises a hegetcl Les Houches event file with Pythia 8 (the pythia8mc wheel of
PyPI, which bash setup.sh installs), with Pythia's event check on, and compares the cross section
Pythia reports with the one the file states.

usage: shower_with_pythia.py EVENTS.lhe[.gz] [--events N] [--verbose]

  EVENTS     a file `hegetcl xsec --unweighted-events N --lhe EVENTS` wrote (plain or gzip'd)
  --events   how many events to shower (default: all of them)
  --verbose  also print Pythia's own output (banner, first event listings, statistics)

Pythia reads the file's <init> block (IDWTUP = 3: events of unit weight, sigma = XSECUP) and each
event with its colour flow, runs initial- and final-state showers, multiparton interactions and
hadronisation, and checks every event (Check:event = on: momentum and charge conservation,
colours, mothers and daughters, status codes). With unit-weight events Pythia's sigma_gen is
XSECUP times the fraction of the file's events it accepted, and its error XERRUP likewise: every
event accepted, they equal the file's numbers to the digits Pythia computes with (the comparison
allows 1e-9, relative). Prints the events showered and aborted, Pythia's error and warning
messages with their counts, the final-state particles per event and sigma_gen against the file.
Exit status 0 when every event asked for was showered, none aborted, Pythia printed no error
message and sigma_gen and its error equal the file's; 1 otherwise; 2 for bad usage.

PYTHIA8DATA: Pythia's settings (share/Pythia8/xmldoc); found in the installed wheel when unset.
example:  python3 examples/shower_with_pythia.py build/events_n3.lhe.gz --events 2000
"""
import argparse
import gzip
import importlib.metadata
import os
import re
import sys
import tempfile

SIGMA_TOLERANCE = 1e-9  # relative; sigma_gen = XSECUP * accepted / tried, both counts exact
MB_TO_PB = 1e9


def pythia_data():
    """PYTHIA8DATA, else the pythia8mc wheel's share/Pythia8/xmldoc."""
    if os.environ.get("PYTHIA8DATA"):
        return os.environ["PYTHIA8DATA"]
    try:
        files = importlib.metadata.files("pythia8mc") or []
    except importlib.metadata.PackageNotFoundError:
        files = []
    for f in files:
        if str(f).endswith("xmldoc/Index.xml"):
            return str(f.locate().parent)
    raise RuntimeError("Pythia 8 is not installed (python3 -m pip install pythia8mc==8.317.2, "
                       "or bash setup.sh --deps-only), or set PYTHIA8DATA to its xmldoc folder")


def file_cross_section(path):
    """(XSECUP, XERRUP) in pb, summed over the process lines (errors in quadrature), and the
    <xsecinfo neve=...> count (None if absent)."""
    opener = gzip.open if path.endswith(".gz") else open
    head = []
    with opener(path, "rt") as f:
        for line in f:
            head.append(line)
            if "</init>" in line:
                break
    text = "".join(head)
    if "<init>" not in text:
        raise RuntimeError(f"{path}: no <init> block: not a Les Houches event file")
    init = text[text.index("<init>") + len("<init>"):].strip().splitlines()
    # NPRUP process lines (one per channel group of a run over a process): sigma adds up
    nprup = int(init[0].split()[9])
    lines = [init[1 + k].split() for k in range(nprup)]
    xsecup = sum(float(x[0]) for x in lines)
    xerrup = sum(float(x[1]) ** 2 for x in lines) ** 0.5
    neve = re.search(r'neve="(\d+)"', text)
    return xsecup, xerrup, int(neve.group(1)) if neve else None


def shower(path, events=None):
    """Showers up to `events` events of the file (all when None); returns what happened, with
    Pythia's own output (which it writes to the process's stdout) under "log"."""
    os.environ["PYTHIA8DATA"] = pythia_data()
    import pythia8mc  # pylint: disable=import-outside-toplevel
    sys.stdout.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile(mode="w+") as log:
        os.dup2(log.fileno(), 1)
        try:
            pythia = pythia8mc.Pythia("", True)
            settings = ("Beams:frameType = 4", f"Beams:LHEF = {path}", "Check:event = on",
                        "Next:numberCount = 0", "Next:numberShowEvent = 0",
                        "Next:numberShowProcess = 0", "Next:numberShowInfo = 0")
            refused = [s for s in settings if not pythia.readString(s)]
            ok = not refused and pythia.init()
            showered = aborted = particles = 0
            while ok and (events is None or showered + aborted < events):
                if pythia.next():
                    showered += 1
                    particles += sum(1 for k in range(pythia.event.size())
                                     if pythia.event[k].isFinal())
                elif pythia.infoPython().atEndOfFile():
                    break
                else:
                    aborted += 1
            info = pythia.infoPython()
            if ok:
                pythia.stat()
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)
        log.seek(0)
        text = log.read()
    if not ok:
        raise RuntimeError(f"Pythia could not initialise from {path}"
                           + (f" (it refused {refused})" if refused else "") + ":\n" + text[-3000:])
    # the statistics block lists each message once with its count: "|  times   message |"
    messages = re.findall(r"^\s*\|\s+(\d+)\s+((?:Error|Warning|Abort) in [^|]*?)\s*\|\s*$", text,
                          re.M)
    return {"showered": showered, "aborted": aborted,
            "messages": [(int(n), m) for n, m in messages],
            "sigma_gen_pb": info.sigmaGen() * MB_TO_PB, "sigma_err_pb": info.sigmaErr() * MB_TO_PB,
            "final_particles": particles / showered if showered else 0.0, "log": text}


def verdict(path, events=None, verbose=False):
    """Showers, prints the summary; returns the problems found ([] when none)."""
    sigma, error, neve = file_cross_section(path)
    r = shower(os.path.abspath(path), events)
    if verbose:
        print(r["log"])
    wanted = events if events is not None else neve
    problems = []
    if wanted is not None and r["showered"] + r["aborted"] != wanted:
        problems.append(f"{r['showered'] + r['aborted']} events read, {wanted} wanted")
    if r["aborted"]:
        problems.append(f"{r['aborted']} events aborted")
    errors = [f"{n} x {m}" for n, m in r["messages"] if not m.startswith("Warning")]
    if errors:
        problems.append("Pythia's errors: " + "; ".join(errors))
    for what, mine, theirs in (("sigma_gen", r["sigma_gen_pb"], sigma),
                               ("its error", r["sigma_err_pb"], error)):
        if not abs(mine - theirs) <= SIGMA_TOLERANCE * abs(theirs):
            problems.append(f"{what} {mine:.10e} pb, the file's {theirs:.10e} pb")
    warnings = [f"{n} x {m}" for n, m in r["messages"] if m.startswith("Warning")]
    print(f"{path}: {r['showered']} events showered and hadronised, {r['aborted']} aborted, "
          f"{r['final_particles']:.0f} final-state particles per event; Pythia's messages: "
          f"{'; '.join(f'{n} x {m}' for n, m in r['messages']) or 'none'}")
    print(f"sigma_gen = {r['sigma_gen_pb'] * 1e3:.6e} +- {r['sigma_err_pb'] * 1e3:.2e} fb, the "
          f"file's sigma {sigma * 1e3:.6e} +- {error * 1e3:.2e} fb: "
          f"{'equal' if not any(p.startswith(('sigma', 'its')) for p in problems) else 'DIFFERENT'}"
          + (f" ({len(warnings)} kinds of warning, which do not fail)" if warnings else ""))
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("events_file")
    parser.add_argument("--events", type=int, default=None)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    if not os.path.exists(args.events_file):
        parser.error(f"{args.events_file}: no such file")
    if args.events is not None and args.events < 1:
        parser.error(f"--events {args.events}: give 1 or more")
    try:
        problems = verdict(args.events_file, args.events, args.verbose)
    except RuntimeError as e:
        print(f"shower_with_pythia.py: error: {e}", file=sys.stderr)
        return 1
    for p in problems:
        print(f"shower_with_pythia.py: problem: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
