#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A photon run (p p -> 3 photons, small) writes its unweighted events as Les Houches, LHEH5 and
HepMC3: the same seed gives the same events, so each file read back (pylhe, h5py, pyhepmc) equals
the Les Houches file event by event (ids, status, colours, momenta to the printed 17 digits,
weights, scales, couplings, sigma and its error; the default 7-point scale weights included),
and examples/analyse_events.py gives one histogram and one scale band from all three. A run stopped in its unweighting leaves no file
that looks complete in any format: LHEH5 none at all (it cannot be continued, so it takes no
checkpoint), HepMC3 the stream --resume continues under its temporary name, and the resumed
HepMC3 file equals the uninterrupted one byte for byte once decompressed. An explicit checkpoint
with LHEH5 is refused before any work. Prints TAP.

usage: event_formats_of_a_run.py HEGETCL_EXE EVENT_FORMATS_PY ANALYSE_EVENTS_PY
"""
import gzip
import importlib.util
import os
import subprocess
import sys
import tempfile

DEVICE = os.environ.get("HEGETCL_TEST_DEVICE") or os.environ.get("HEGETCL_DEVICE") or "auto"
BASE = ["--n", "3", "--adapt-iterations", "1", "--adapt-events", "10000", "--events", "20000",
        "--min-iterations", "2", "--max-iterations", "2", "--target-error", "0", "--batch", "1024",
        "--seed", "5", "--device", DEVICE, "--unweighted-events", "200",
        "--checkpoint-every", "1024", "--quiet"]  # checkpoints no closer than a batch

results = []


def check(name, problems):
    results.append((name, problems))


def run(exe, folder, args, interrupt=None):
    env = dict(os.environ)
    env.pop("HEGETCL_TEST_INTERRUPT_AFTER", None)
    if interrupt:
        env["HEGETCL_TEST_INTERRUPT_AFTER"] = interrupt
    os.makedirs(folder, exist_ok=True)
    return subprocess.run([exe, "xsec"] + args, cwd=folder, env=env, capture_output=True,
                          text=True, timeout=600)


def looks_complete(folder, name):
    """Files in folder a reader could take for the finished NAME."""
    return [f for f in os.listdir(folder) if f == name or f == name + ".partial"]


def main():
    exe, formats_py = os.path.abspath(sys.argv[1]), sys.argv[2]
    analysis_py = sys.argv[3]
    spec = importlib.util.spec_from_file_location("event_formats", formats_py)
    formats = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(formats)
    with tempfile.TemporaryDirectory() as tmp:
        runs = {}
        for name in ("ev.lhe", "ev.hdf5", "ev.hepmc.gz"):
            folder = os.path.join(tmp, name.replace(".", "_"))
            r = run(exe, folder, BASE + ["--lhe", name])
            runs[name] = os.path.join(folder, name)
            check(f"the run writes {name}",
                  [] if r.returncode == 0 and os.path.exists(runs[name]) else
                  [f"exit {r.returncode}: {r.stderr.strip()[-400:]}"])
        ref = formats.lhe_events(runs["ev.lhe"])
        check("pylhe reads 200 events of p p -> 3 photons",
              [] if len(ref[1]) == 200 and all(len(e["particles"]) == 5 for e in ref[1]) else
              [f"{len(ref[1])} events"])
        if os.path.exists(runs["ev.hdf5"]):
            check("h5py reads the run's LHEH5 file equal to its Les Houches file",
                  formats.compare(ref, formats.lheh5_events(runs["ev.hdf5"]), "hdf5"))
        if os.path.exists(runs["ev.hepmc.gz"]):
            check("pyhepmc reads the run's HepMC3 file equal to its Les Houches file",
                  formats.compare(ref, formats.hepmc_events(runs["ev.hepmc.gz"]), "hepmc"))
        # the documented analysis (examples/analyse_events.py) on each format: one histogram
        spec = importlib.util.spec_from_file_location("analyse_events", analysis_py)
        analysis = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(analysis)
        hists, problems = {}, []
        for name, path in runs.items():
            if os.path.exists(path):
                result = analysis.analyse(path)
                hists[name] = (result["dsigma_pb_per_gev"], result["errors_pb_per_gev"])
                problems += [f"{name}: {p}" for p in result["problems"]]
                if result["band"] is None:
                    problems.append(f"{name}: no band: the default 7-point scale weights are "
                                    "missing")
        if len(set(map(str, hists.values()))) != 1:
            problems.append("the formats give different histograms")
        check("examples/analyse_events.py on the run's three files: its checks pass, one histogram, "
              "a scale band (the default variation weights)", problems)
        # stopped in the unweighting
        for name in ("ev.hdf5", "ev.hepmc.gz"):
            folder = os.path.join(tmp, "stop_" + name.replace(".", "_"))
            r = run(exe, folder, BASE + ["--lhe", name], interrupt="events:60")
            problems = [] if r.returncode == 130 else [f"exit {r.returncode}: {r.stderr[-300:]}"]
            if looks_complete(folder, name):
                problems.append(f"left {os.listdir(folder)}")
            if name == "ev.hdf5" and os.listdir(folder):
                problems.append(f"an LHEH5 run leaves {os.listdir(folder)}")
            check(f"a run of {name} stopped after 60 events leaves no file looking complete",
                  problems)
            if name == "ev.hepmc.gz":
                resumed = run(exe, folder, ["--resume", name + ".ckpt", "--quiet"])
                problems = [] if resumed.returncode == 0 else \
                    [f"exit {resumed.returncode}: {resumed.stderr[-400:]}"]
                if not problems:
                    a = gzip.open(runs[name]).read()
                    b = gzip.open(os.path.join(folder, name)).read()
                    if a != b:
                        problems.append(f"resumed HepMC3 differs ({len(a)} vs {len(b)} bytes)")
                    left = [f for f in os.listdir(folder) if f != name]
                    if left:
                        problems.append(f"left {left}")
                check("the stopped HepMC3 run resumed equals the uninterrupted one", problems)
        folder = os.path.join(tmp, "refused")
        r = run(exe, folder, BASE + ["--lhe", "ev.h5", "--checkpoint", "run.ckpt"])
        problems = [] if r.returncode == 2 and "LHEH5 file cannot be continued" in r.stderr \
            else [f"exit {r.returncode}: {r.stderr.strip()!r}"]
        if os.listdir(folder):
            problems.append(f"left {os.listdir(folder)}")
        check("LHEH5 with --checkpoint is refused before any work", problems)
    print(f"1..{len(results)}")
    for i, (name, problems) in enumerate(results, 1):
        print(("ok" if not problems else "not ok") + f" {i} - {name}")
        for p in problems[:6]:
            print(f"#   {p}")
    return 0 if all(not p for _, p in results) else 1


if __name__ == "__main__":
    sys.exit(main())
