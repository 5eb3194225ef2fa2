#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The event formats read back by independent readers, equal event by event.

event_formats_example writes the same made-up p p -> 3 photon events through the event sink as a
Les Houches file (read by pylhe), an LHEH5 file (read by h5py) and a HepMC3 ASCII file (read by
pyhepmc), plain and gzip'd, with and without a run-level list of 12 variations (9 scales, 3 PDF
members). Every number the Les Houches file prints with 17 digits must come back as the same
double from the other two: ids, status, colours, momenta, masses, spins, scales, couplings, the
nominal weight and each variation's, sigma and its error. Prints TAP.

usage: event_formats.py EVENT_FORMATS_EXAMPLE_EXE
"""
import math
import os
import subprocess
import sys
import tempfile

N = 40
N_BIG = 2500  # about 4 MB of Les Houches text: several gzip members
results = []


def check(name, problems):
    results.append((name, problems))


def lhe_events(path):
    import pylhe
    lhe = pylhe.LHEFile.fromfile(path)
    info = lhe.init.initInfo
    proc = lhe.init.procInfo[0]
    init = dict(sigma=proc.xSection, error=proc.error, beams=(info.beamA, info.beamB),
                energies=(info.energyA, info.energyB), pdf=(info.PDFsetA, info.PDFsetB))
    events = []
    for e in lhe.events:
        i = e.eventinfo
        weights = [i.weight] + list(e.weights.values()) if e.weights else [i.weight]
        parts = [(p.id, p.status, p.color1, p.color2, p.px, p.py, p.pz, p.e, p.m, p.spin)
                 for p in e.particles]
        events.append(dict(pid=i.pid, scale=i.scale, aqed=i.aqed, aqcd=i.aqcd,
                           weights=weights, particles=parts))
    return init, events, None


def lheh5_events(path):
    import h5py
    with h5py.File(path, "r") as f:
        version = list(f["version"][:])
        init_row = f["init"][:]
        proc = f["procInfo"][:]
        columns = [c.decode() if isinstance(c, bytes) else c
                   for c in f["events"].attrs["properties"]]
        rows = f["events"][:]
        parts = f["particles"][:]
    init = dict(sigma=proc[0][3], error=proc[0][4], beams=(init_row[0], init_row[1]),
                energies=(init_row[2], init_row[3]), pdf=(init_row[6], init_row[7]),
                version=version)
    events = []
    for row in rows:
        start, n = int(row[2]), int(row[1])
        ps = [(int(p[0]), int(p[1]), int(p[4]), int(p[5]), p[6], p[7], p[8], p[9], p[10], p[12])
              for p in parts[start:start + n]]
        events.append(dict(pid=int(row[0]), scale=row[4], aqed=row[7], aqcd=row[8],
                           weights=list(row[9:]), particles=ps))
    return init, events, columns[9:]


def hepmc_events(path):
    import pyhepmc
    events = []
    init = None
    names = None
    with pyhepmc.open(path) as reader:
        for e in reader:
            xs = e.cross_section
            pdf = e.pdf_info
            beams = [p for p in e.particles if p.status == 4]
            if init is None:
                init = dict(sigma=xs.xsec(0), error=xs.xsec_err(0),
                            beams=tuple(p.pid for p in beams),
                            energies=tuple(p.momentum.e for p in beams),
                            pdf=(pdf.pdf_id1, pdf.pdf_id2))
                names = list(e.run_info.weight_names)
            ps = []
            for p in e.particles:
                if p.status == 4:
                    continue
                status = -1 if p.status == 21 else p.status
                ps.append((p.pid, status, None, None, p.momentum.px, p.momentum.py,
                           p.momentum.pz, p.momentum.e, p.generated_mass, None))
            attrs = e.attributes
            events.append(dict(pid=int(attrs["signal_process_id"].astype(int)), scale=pdf.scale,
                               aqed=attrs["alphaQED"].astype(float),
                               aqcd=attrs["alphaQCD"].astype(float),
                               weights=list(e.weights), particles=ps))
    return init, events, names


def pythia_count(path):
    """Events Pythia 8 reads from a Les Houches file (hard process only), or None without it."""
    try:
        import pythia8mc
    except ImportError:
        return None
    pythia = pythia8mc.Pythia("", False)
    for setting in ("Beams:frameType = 4", f"Beams:LHEF = {path}", "PartonLevel:all = off",
                    "HadronLevel:all = off", "ProcessLevel:resonanceDecays = off",
                    "Next:numberCount = 0", "Print:quiet = on"):
        pythia.readString(setting)
    if not pythia.init():
        return -1
    count = 0
    while pythia.next():
        count += 1
    return count if pythia.infoPython().atEndOfFile() else -count


def compare(reference, other, label):
    ref_init, ref_events, _ = reference
    init, events, _ = other
    problems = []
    for key in ("sigma", "error", "beams", "energies", "pdf"):
        a, b = ref_init[key], init[key]
        if (tuple(a) if isinstance(a, tuple) else a) != (tuple(b) if isinstance(b, tuple) else b):
            problems.append(f"{label}: init {key} {b} != {a}")
    if len(events) != len(ref_events):
        return problems + [f"{label}: {len(events)} events, the LHE file has {len(ref_events)}"]
    for k, (a, b) in enumerate(zip(ref_events, events)):
        for key in ("pid", "scale", "aqed", "aqcd", "weights"):
            if list(map(float, a[key] if key == "weights" else [a[key]])) != \
                    list(map(float, b[key] if key == "weights" else [b[key]])):
                problems.append(f"{label}: event {k} {key} {b[key]} != {a[key]}")
        if len(a["particles"]) != len(b["particles"]):
            problems.append(f"{label}: event {k} has {len(b['particles'])} particles")
            continue
        for pa, pb in zip(a["particles"], b["particles"]):
            for x, y in zip(pa, pb):
                if y is not None and float(x) != float(y):
                    problems.append(f"{label}: event {k} particle {pb} != {pa}")
                    break
        if len(problems) > 5:
            break
    return problems


def main():
    example = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        for variations in (False, True):
            tag = "with 12 variations" if variations else "nominal weight alone"
            files = {}
            for name in ("ev.lhe", "ev.lhe.gz", "ev.hdf5", "ev.h5", "ev.hepmc", "ev.hepmc.gz"):
                path = os.path.join(tmp, ("v" if variations else "n") + name)
                args = [example, path, str(N)] + (["variations"] if variations else [])
                run = subprocess.run(args, capture_output=True, text=True)
                files[name] = path
                check(f"{name} written ({tag})",
                      [] if run.returncode == 0 and os.path.exists(path) else
                      [f"exit {run.returncode}: {run.stderr.strip()}"])
            ref = lhe_events(files["ev.lhe"])
            n_weights = 1 + (12 if variations else 0)
            check(f"pylhe reads {N} events with {n_weights} weights each ({tag})",
                  [] if len(ref[1]) == N and all(len(e["weights"]) == n_weights for e in ref[1])
                  else [f"{len(ref[1])} events, weights {[len(e['weights']) for e in ref[1][:3]]}"])
            check(f"the gzip'd Les Houches file reads the same ({tag})",
                  compare(ref, lhe_events(files["ev.lhe.gz"]), "lhe.gz"))
            for name in ("ev.hdf5", "ev.h5"):
                h5 = lheh5_events(files[name])
                problems = compare(ref, h5, name)
                if h5[0]["version"] != [2, 0, 0]:
                    problems.append(f"version {h5[0]['version']}")
                want = ["Default"] + (["MUR1.0_MUF1.0_PDF10042"] if variations else [])
                if h5[2][:len(want)] != want or len(h5[2]) != n_weights:
                    problems.append(f"weight columns {h5[2]}")
                check(f"h5py reads {name} equal to the Les Houches file ({tag})", problems)
            for name in ("ev.hepmc", "ev.hepmc.gz"):
                hep = hepmc_events(files[name])
                problems = compare(ref, hep, name)
                if len(hep[2]) != n_weights or hep[2][0] != "Default":
                    problems.append(f"run info weight names {hep[2]}")
                check(f"pyhepmc reads {name} equal to the Les Houches file ({tag})", problems)
        # gzip files of several members (one per MiB of text, compressed by threads)
        big = {}
        for name in ("big.lhe.gz", "big.hepmc.gz"):
            big[name] = os.path.join(tmp, name)
            subprocess.run([example, big[name], str(N_BIG), "variations"], check=True)
        with open(big["big.lhe.gz"], "rb") as f:
            members = f.read().count(b"\x1f\x8b\x08\x00")
        a, b = lhe_events(big["big.lhe.gz"]), hepmc_events(big["big.hepmc.gz"])
        problems = [] if members >= 3 else [f"{members} gzip members"]
        if len(a[1]) != N_BIG:
            problems.append(f"pylhe read {len(a[1])} events")
        problems += compare(a, b, "big.hepmc.gz")
        check(f"{N_BIG} events in gzip files of {members} members: pylhe and pyhepmc read them all, "
              "equal", problems)
        # worker threads (formatting, gzip) change no byte: the same files from one thread
        problems = []
        for name in ("big.lhe.gz", "big.hepmc.gz"):
            one = os.path.join(tmp, "one_" + name)
            env = dict(os.environ, HEGETCL_FORMAT_THREADS="1", HEGETCL_GZIP_THREADS="1")
            many = dict(os.environ, HEGETCL_FORMAT_THREADS="4", HEGETCL_GZIP_THREADS="3")
            subprocess.run([example, one, str(N_BIG), "variations"], check=True, env=env)
            subprocess.run([example, big[name], str(N_BIG), "variations"], check=True, env=many)
            if open(one, "rb").read() != open(big[name], "rb").read():
                problems.append(f"{name} differs when written by one thread")
        check("4 formatting and 3 gzip threads write the bytes one thread writes", problems)
        pythia = pythia_count(big["big.lhe.gz"])
        check(f"Pythia 8 reads the {members}-member gzip'd Les Houches file to its end"
              + ("" if pythia is not None else " # SKIP no pythia8mc"),
              [] if pythia is None or pythia == N_BIG else [f"{pythia} events read"])
        bad = os.path.join(tmp, "ev.root")
        run = subprocess.run([example, bad, "3"], capture_output=True, text=True)
        problems = []
        if run.returncode == 0 or ".hepmc.gz" not in run.stderr or os.path.exists(bad):
            problems.append(f"exit {run.returncode}, {run.stderr.strip()!r}")
        if any(f.startswith("ev.root") for f in os.listdir(tmp)):
            problems.append(f"left {os.listdir(tmp)}")
        check("an unknown ending is refused with the list of formats, no file left", problems)
    try:
        import pythia8mc
        has_h5 = any("H5" in name for name in dir(pythia8mc))
    except ImportError:
        has_h5 = False
    print(f"1..{len(results) + 1}")
    for i, (name, problems) in enumerate(results, 1):
        print(("ok" if not problems else "not ok") + f" {i} - {name}")
        for p in problems[:6]:
            print(f"#   {p}")
    print(f"ok {len(results) + 1} - Pythia 8's LHEH5 reader # SKIP the pythia8mc wheel "
          f"{'has' if has_h5 else 'has no'} LHAupH5 (Pythia builds it only with HDF5 and HighFive)")
    return 0 if all(not p for _, p in results) else 1


if __name__ == "__main__":
    sys.exit(main())
