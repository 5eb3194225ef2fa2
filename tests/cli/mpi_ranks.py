#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A run shared by MPI ranks (`mpirun -np 2 hegetcl-mpi xsec`, docs/user-guide.md "Several GPUs and
machines") on the device under test, against the same run in one process. Prints TAP.

  1  two ranks: exit 0; sigma, its error, chi2, every iteration, the channels and the whole JSON
     "result" but its timings are identical to the one-process run's, and the YODA histograms
     are identical byte for byte
  2  the merged event file: pylhe reads it; it holds the 501 events asked for, <xsecinfo neve>
     says 501, every weight is sigma / 501 pb, its <init> block is the one-process file's, and
     rank 0's 251 events are the one-process run's first 251, line for line; no rank file is left
  3  two ranks of two devices each (the device under test twice): the same sigma and error
  4  a process run (p p > t t~, three groups with VEGAS grids of their own, 7 scale variations)
     on two ranks of two devices each: the whole JSON "result" but its timings and unweighting
     counts (every group, channel and variation) identical to one process on one device; the
     merged event file holds the 301 events asked for, pylhe reads them, no event twice
  5  --checkpoint with two ranks: exit 1, the message says checkpoints of a run shared by 2
     processes are not supported and names --checkpoint; --device per-rank in one process: exit
     1, the message names hegetcl-mpi

usage: mpi_ranks.py HEGETCL_EXE HEGETCL_MPI_EXE
"""
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import warnings

DEVICE = os.environ.get("HEGETCL_TEST_DEVICE") or os.environ.get("HEGETCL_DEVICE") or "auto"
BASE = ["--n", "3", "--flavours", "all", "--adapt-iterations", "3", "--adapt-events", "30000",
        "--events", "90000", "--batch", "16384", "--min-iterations", "3", "--max-iterations", "3",
        "--target-error", "0", "--seed", "11", "--quiet", "--json", "run.json"]
TIMINGS = ("seconds", "per_second")
EVENTS = 501

results = []


def report(ok, what, detail=""):
    results.append((ok, what, detail))


def mpirun():
    exe = shutil.which("mpirun")
    if exe is None:
        sys.exit("mpirun not found: install OpenMPI (Debian: apt-get install openmpi-bin "
                 "libopenmpi-dev), as .ci/run does")
    # OpenMPI refuses root without these; --oversubscribe lets 2 ranks share fewer cores
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    return [exe, "--oversubscribe"]


def run(command, folder):
    os.makedirs(folder, exist_ok=True)
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=900)


def without_timings(value):
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items()
                if not any(t in k for t in TIMINGS)}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def result_of(folder):
    with open(os.path.join(folder, "run.json")) as f:
        return json.load(f)


def failed(p):
    return f"exit {p.returncode}: {p.stderr.strip()[-800:]}"


def lhe_text(path):
    with gzip.open(path, "rt") as f:
        return f.read()


def init_block(text):
    m = re.search(r"<init>.*?</init>", text, re.S)
    return re.sub(r'neve="\d+"', 'neve="N"', m.group(0)) if m else None


def events_of(text):
    return re.findall(r"<event>.*?</event>", text, re.S)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    exe, mpi_exe = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    launcher = mpirun()
    tmp = tempfile.mkdtemp(prefix="hegetcl-mpi-ranks-")
    one, two, four = (os.path.join(tmp, d) for d in ("one", "two", "four"))
    outputs = ["--yoda", "run.yoda", "--lhe", "ev.lhe.gz", "--unweighted-events", str(EVENTS)]
    a = run([exe, "xsec"] + BASE + outputs + ["--device", DEVICE], one)
    b = run(launcher + ["-np", "2", mpi_exe, "xsec"] + BASE + outputs + ["--device", DEVICE], two)
    try:
        if a.returncode != 0 or b.returncode != 0:
            report(False, "two ranks agree with one process",
                   f"one process: {failed(a)}; two ranks: {failed(b)}")
            report(False, "the merged event file", "no run")
        else:
            ja, jb = result_of(one), result_of(two)
            problems = []
            for key in ("sigma_fb", "error_fb", "chi2_per_dof"):
                if ja["result"][key] != jb["result"][key]:
                    problems.append(f"{key} {ja['result'][key]!r} vs {jb['result'][key]!r}")
            ra, rb = without_timings(ja["result"]), without_timings(jb["result"])
            ra.pop("unweighting", None)  # the ranks' own event streams: checked in 2
            rb.pop("unweighting", None)
            if ra != rb:
                diff = [k for k in ra if ra.get(k) != rb.get(k)]
                problems.append(f"JSON result differs in {diff}")
            if without_timings(ja["iterations"]) != without_timings(jb["iterations"]):
                problems.append("the iterations differ")
            if jb.get("processes") != 2 or ja.get("processes") != 1:
                problems.append(f"processes {ja.get('processes')} and {jb.get('processes')}")
            with open(os.path.join(one, "run.yoda"), "rb") as f, \
                    open(os.path.join(two, "run.yoda"), "rb") as g:
                if f.read() != g.read():
                    problems.append("run.yoda differs")
            report(not problems, "two ranks: sigma, error, iterations, channels and histograms "
                   f"identical to one process ({ja['result']['sigma_fb']!r} fb)",
                   "; ".join(problems))
            problems = []
            merged, single = lhe_text(os.path.join(two, "ev.lhe.gz")), \
                lhe_text(os.path.join(one, "ev.lhe.gz"))
            import pylhe
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                read = list(pylhe.LHEFile.fromfile(os.path.join(two, "ev.lhe.gz")).events)
            if len(read) != EVENTS:
                problems.append(f"pylhe reads {len(read)} events, not {EVENTS}")
            neve = re.search(r'<xsecinfo neve="(\d+)"', merged)
            if neve is None or int(neve.group(1)) != EVENTS:
                problems.append(f"neve {neve.group(1) if neve else None}")
            sigma_pb = jb["result"]["sigma_fb"] * 1e-3
            weights = {e.eventinfo.weight for e in read}
            if any(abs(w / (sigma_pb / EVENTS) - 1) > 1e-15 for w in weights):
                problems.append(f"weights {sorted(weights)[:3]} are not sigma / {EVENTS} pb")
            if init_block(merged) != init_block(single):
                problems.append("its <init> block is not the one-process file's")
            first = (EVENTS + 1) // 2
            if events_of(merged)[:first] != events_of(single)[:first]:
                problems.append(f"rank 0's {first} events are not the one-process run's first")
            if events_of(merged)[first:] == events_of(single)[first:]:
                problems.append("rank 1's events repeat the one-process stream")
            left = [f for f in os.listdir(two) if ".rank" in f or f.endswith(".tmp")]
            if left:
                problems.append(f"left behind: {left}")
            report(not problems, f"the merged event file: {EVENTS} events, valid, rank 0's the "
                   "one-process run's first", "; ".join(problems))
        c = run(launcher + ["-np", "2", mpi_exe, "xsec"] + BASE + ["--device", f"{DEVICE},{DEVICE}"],
                four)
        if c.returncode != 0 or a.returncode != 0:
            report(False, "two ranks of two devices", failed(c))
        else:
            ja, jc = result_of(one), result_of(four)
            same = all(ja["result"][k] == jc["result"][k] for k in ("sigma_fb", "error_fb"))
            devices = len(jc.get("devices", []))
            report(same and devices == 2, "two ranks of two devices each: the same sigma and error",
                   f"{jc['result']['sigma_fb']!r} +- {jc['result']['error_fb']!r} vs "
                   f"{ja['result']['sigma_fb']!r} +- {ja['result']['error_fb']!r}, {devices} "
                   "devices")
        process = ["--process", "p p > t t~", "--scale", "173", "--adapt-iterations", "2",
                   "--adapt-events", "12000", "--events", "30000", "--batch", "3000",
                   "--min-iterations", "2", "--max-iterations", "2", "--target-error", "0",
                   "--seed", "5", "--quiet", "--json", "run.json", "--scale-variations", "7",
                   "--lhe", "ev.lhe", "--unweighted-events", "301"]
        f = run([exe, "xsec"] + process + ["--device", DEVICE], os.path.join(tmp, "p1"))
        g = run(launcher + ["-np", "2", mpi_exe, "xsec"] + process +
                ["--device", f"{DEVICE},{DEVICE}"], os.path.join(tmp, "p4"))
        if f.returncode != 0 or g.returncode != 0:
            report(False, "a process run on two ranks of two devices",
                   f"one process: {failed(f)}; two ranks: {failed(g)}")
        else:
            jf, jg = result_of(os.path.join(tmp, "p1")), result_of(os.path.join(tmp, "p4"))
            rf, rg = without_timings(jf["result"]), without_timings(jg["result"])
            problems = []
            if rf != rg:
                problems.append(f"JSON result differs in {[k for k in rf if rf.get(k) != rg.get(k)]}")
            # each group's unweighting counts depend on how the run was split (every rank
            # samples its own batches): they are compared as sums, the rest as it is
            def plain(groups):
                return [{k: v for k, v in without_timings(x).items() if k != "unweighting"}
                        for x in groups or []]
            if plain(jf.get("groups")) != plain(jg.get("groups")):
                problems.append("the groups differ")
            for name, j in (("one process", jf), ("two ranks", jg)):
                counts = [x.get("unweighting", {}) for x in j.get("groups", [])]
                if sum(c.get("events", 0) for c in counts) != 301 or any(
                        not c.get("events", 0) <= c.get("tried", 0) <= c.get("sampled", 0)
                        for c in counts):
                    problems.append(f"{name}: the groups' unweighting counts {counts} do not add "
                                    "up to the 301 events (events <= tried <= sampled each)")
            import pylhe
            events = list(pylhe.LHEFile.fromfile(os.path.join(tmp, "p4", "ev.lhe")).events)
            keys = {tuple(round(x, 9) for p in e.particles for x in (p.px, p.py, p.pz))
                    for e in events}
            if len(events) != 301 or len(keys) != 301:
                problems.append(f"{len(events)} events, {len(keys)} different, 301 expected")
            left = [x for x in os.listdir(os.path.join(tmp, "p4")) if ".rank" in x]
            if left:
                problems.append(f"left behind: {left}")
            report(not problems, "a process run on two ranks of two devices: the one-process "
                   f"numbers ({jf['result']['sigma_fb']!r} fb) and 301 merged events",
                   "; ".join(problems))
        d = run(launcher + ["-np", "2", mpi_exe, "xsec"] + BASE +
                ["--device", DEVICE, "--checkpoint", "run.ckpt"], os.path.join(tmp, "ckpt"))
        e = run([exe, "xsec"] + BASE + ["--device", "per-rank"], os.path.join(tmp, "per-rank"))
        ok = (d.returncode != 0 and "checkpoints of a run shared by 2 processes are not supported"
              in d.stderr and "--checkpoint" in d.stderr and e.returncode == 1
              and "hegetcl-mpi" in e.stderr)
        report(ok, "checkpoints of two ranks and --device per-rank in one process are refused",
               f"{d.returncode}: {d.stderr.strip()[-300:]} | {e.returncode}: {e.stderr.strip()}")
    finally:
        if all(ok for ok, _, _ in results):
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"# the runs are kept in {tmp}")
    print(f"1..{len(results)}")
    for i, (ok, what, detail) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {what}" + ("" if ok or not detail else f": {detail}"))
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
