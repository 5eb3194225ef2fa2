#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""LHE files written by hegetcl's LHEF writer, read by two independent readers: Python's
xml.etree (well-formed XML, the LHEF 3.0 tags) and pylhe (the HEPRUP and HEPEUP numbers).

lhef_example writes N events u ubar -> gamma gamma with beams 2212 2212 at 6500 GeV, PDF set
10042, IDWTUP 3, one process of 12.5 +- 0.25 pb; each file is written plain and gzip-compressed.
Prints TAP.

usage: lhef_reads_back.py LHEF_EXAMPLE_EXE
"""
import gzip
import math
import os
import subprocess
import sys
import tempfile
import warnings
import xml.etree.ElementTree as ET

N_EVENTS = 7


def xml_checks(path):
    """What xml.etree sees: the root, its version, the comment-free tags of an LHEF 3.0 file."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        root = ET.fromstring(f.read())
    problems = []
    if root.tag != "LesHouchesEvents" or root.get("version") != "3.0":
        problems.append(f"root <{root.tag} version={root.get('version')}>")
    header = root.find("header")
    card = header.find("hegetcl_run_card") if header is not None else None
    want_card = "\nprocess = u u~ > a a\ncuts: pt > 20 & |eta| < 2.5\n"
    if card is None or card.text != want_card:
        problems.append(f"header card text {card.text if card is not None else None!r}")
    init = root.find("init")
    generator = init.find("generator") if init is not None else None
    xsecinfo = init.find("xsecinfo") if init is not None else None
    if generator is None or generator.get("name") != "hegetcl":
        problems.append("no <generator name=\"hegetcl\"> in <init>")
    if xsecinfo is None or xsecinfo.get("neve") != str(N_EVENTS) or \
            float(xsecinfo.get("totxsec")) != 12.5:
        problems.append("<xsecinfo> lacks neve=%d totxsec=12.5" % N_EVENTS)
    events = root.findall("event")
    if len(events) != N_EVENTS:
        problems.append(f"{len(events)} <event> elements")
    return problems


def pylhe_checks(pylhe, path):
    """What pylhe reads: HEPRUP, the generator tag, every event's particles and conservation."""
    problems = []
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # pylhe reports an XML parse error as a warning and stops
        lhe = pylhe.LHEFile.fromfile(path, generator=False)
        events = list(lhe.events)
    info = lhe.init.initInfo
    got = (info.beamA, info.beamB, info.energyA, info.energyB, info.PDFgroupA, info.PDFgroupB,
           info.PDFsetA, info.PDFsetB, info.weightingStrategy, info.numProcesses)
    want = (2212, 2212, 6500.0, 6500.0, 0, 0, 10042, 10042, 3, 1)
    if got != want:
        problems.append(f"HEPRUP {got}, want {want}")
    proc = lhe.init.procInfo
    if len(proc) != 1 or (proc[0].xSection, proc[0].error, proc[0].unitWeight, proc[0].procId) \
            != (12.5, 0.25, 12.5, 1):
        problems.append(f"process lines {proc}")
    if [g.name for g in lhe.init.generators] != ["hegetcl"]:
        problems.append(f"generators {lhe.init.generators}")
    if lhe.comment is None or "--" in lhe.comment:
        problems.append(f"comment {lhe.comment!r}")
    if len(events) != N_EVENTS:
        problems.append(f"{len(events)} events, want {N_EVENTS}")
    for k, event in enumerate(events):
        ids = [p.id for p in event.particles]
        status = [p.status for p in event.particles]
        if event.eventinfo.nparticles != 4 or ids != [2, -2, 22, 22] or status != [-1, -1, 1, 1]:
            problems.append(f"event {k}: NUP {event.eventinfo.nparticles}, ids {ids}, "
                            f"status {status}")
            continue
        if event.eventinfo.weight != 12.5:
            problems.append(f"event {k}: weight {event.eventinfo.weight}")
        sums = [0.0] * 4
        for p in event.particles:
            sign = -1 if p.status == -1 else 1
            for c, value in enumerate((p.px, p.py, p.pz, p.e)):
                sums[c] += sign * value
        energy = sum(p.e for p in event.particles if p.status == -1)
        if max(abs(s) for s in sums) > 1e-12 * energy:
            problems.append(f"event {k}: momentum not conserved, sum out - in = {sums}")
        for p in event.particles[2:]:
            mass2 = p.e ** 2 - p.px ** 2 - p.py ** 2 - p.pz ** 2
            if abs(mass2) > 1e-10 * p.e ** 2 or p.m != 0:
                problems.append(f"event {k}: a photon has m^2 = {mass2}")
    return problems, [[(p.px, p.py, p.pz, p.e) for p in e.particles] for e in events]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    example = sys.argv[1]
    try:
        import pylhe
    except ImportError as error:
        print("1..1")
        print(f"not ok 1 - the independent reader pylhe can be imported ({error}): "
              "pip install pylhe")
        return 1

    results = []  # (ok, description, problems)
    momenta = {}
    with tempfile.TemporaryDirectory(prefix="hegetcl_lhef_") as tmp:
        for name in ("events.lhe", "events.lhe.gz"):
            path = os.path.join(tmp, name)
            run = subprocess.run([example, path, str(N_EVENTS)], capture_output=True, text=True)
            if run.returncode != 0:
                results.append((False, f"lhef_example writes {name}", [run.stderr.strip()]))
                continue
            try:
                problems = xml_checks(path)
            except ET.ParseError as error:
                problems = [f"not well-formed XML: {error}"]
            results.append((not problems, f"xml.etree parses {name} as LHEF 3.0", problems))
            try:
                problems, momenta[name] = pylhe_checks(pylhe, path)
            except Exception as error:  # pylint: disable=broad-except
                problems = [f"{type(error).__name__}: {error}"]
            results.append((not problems, f"pylhe {pylhe.__version__} reads {name}", problems))
    same = len(momenta) == 2 and momenta["events.lhe"] == momenta["events.lhe.gz"]
    results.append((same, "the plain and gzip files hold the same momenta", []))

    print(f"1..{len(results)}")
    for number, (ok, description, problems) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {number} - {description}")
        for problem in problems:
            print(f"# {problem}")
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
