#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A short scikit-hep analysis of a hegetcl event file: the leading photon's pT, weighted, with a
band from the file's scale-variation weights when it has them, drawn and checked.

usage: analyse_events.py EVENTS [--out PNG] [--bins B:LO:HI] [--json FILE] [--quiet]

  EVENTS   an event file hegetcl wrote: .lhe or .lhe.gz (read with pylhe), .hepmc or .hepmc.gz
           (pyhepmc), .hdf5 or .h5 (LHEH5, h5py)
  --out    the plot (default: leading_photon_pt.png beside the file)
  --bins   the pT binning (default 40:0:400, GeV)
  --json   also write the histogram and the band as JSON
  --quiet  print the checks' summary alone

Each event carries its nominal weight (sigma / N in pb for unweighted events) and, when the run
listed variations (MadGraph's systematics: the 9 or 7 scale points mu_R, mu_F in {1/2, 1, 2}, then
PDF members), one weight per variation. The histogram (hist, with the sum of squared weights for
its errors) is dsigma/dpT in pb/GeV; the band is, bin by bin, the envelope of the scale variations
(the "Central scale variation" group in a Les Houches file, the MUR*_MUF*_PDF<central> names in
LHEH5 and HepMC3 files). A file without variation weights (today's photon runs) gives the nominal
alone, and says so.

Checks (exit status 1 when one fails): the nominal weights add up to the sigma the file states
(1e-9, relative); the histogram with its under- and overflow holds them all; each variation's
weights are finite; the variation with mu_R = mu_F = 1 and the central PDF equals the nominal
weight, event by event (1e-12); the band holds the nominal in every bin.
"""
import argparse
import json
import math
import os
import re
import sys

SIGMA_TOLERANCE = 1e-9
SCALE_NAME = re.compile(r"^MUR([0-9.]+)_MUF([0-9.]+)_PDF(-?\d+)$")


def read_lhe(path):
    """Events from a Les Houches file with pylhe, and the scale variations from <initrwgt>."""
    import gzip
    import pylhe
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:  # the header: <initrwgt> names the variations
        head = f.read(1 << 20)
    head = head[:head.find("<event>")] if "<event>" in head else head
    variations = []  # (id, muR, muF, pdf, group)
    for group, body in re.findall(r"<weightgroup name=\"([^\"]*)\"[^>]*>(.*?)</weightgroup>", head,
                                  re.S):
        for m in re.finditer(r"<weight id=\"([^\"]+)\" MUR=\"([^\"]+)\" MUF=\"([^\"]+)\" "
                             r"PDF=\"(-?\d+)\"", body):
            variations.append((m.group(1), float(m.group(2)), float(m.group(3)), int(m.group(4)),
                               group))
    lhe = pylhe.LHEFile.fromfile(path)
    sigma = sum(p.xSection for p in lhe.init.procInfo)
    central_pdf = int(lhe.init.initInfo.PDFsetA)
    events = []
    for e in lhe.events:
        pts = [math.hypot(p.px, p.py) for p in e.particles if p.status == 1 and p.id == 22]
        weights = [e.eventinfo.weight] + [e.weights[v[0]] for v in variations] \
            if variations else [e.eventinfo.weight]
        events.append((pts, weights))
    names = [(v[1], v[2], v[3], v[4] == "Central scale variation") for v in variations]
    return sigma, central_pdf, names, events


def read_hepmc(path):
    """Events from a HepMC3 ASCII file with pyhepmc; variations named MUR*_MUF*_PDF*."""
    import pyhepmc
    events, names, sigma, central_pdf = [], None, None, None
    with pyhepmc.open(path) as reader:
        for e in reader:
            if names is None:
                names = list(e.run_info.weight_names)[1:]
                sigma = e.cross_section.xsec(0)
                central_pdf = e.pdf_info.pdf_id1
            pts = [math.hypot(p.momentum.px, p.momentum.py) for p in e.particles
                   if p.status == 1 and p.pid == 22]
            events.append((pts, list(e.weights)))
    return sigma, central_pdf, [scale_of(n, central_pdf) for n in names or []], events


def read_lheh5(path):
    """Events from an LHEH5 file with h5py: rows of "events", their particles."""
    import h5py
    with h5py.File(path, "r") as f:
        columns = [c.decode() if isinstance(c, bytes) else str(c)
                   for c in f["events"].attrs["properties"]]
        rows, parts = f["events"][:], f["particles"][:]
        sigma = float(sum(f["procInfo"][:, 3]))
        central_pdf = int(f["init"][6])
    events = []
    for row in rows:
        start, n = int(row[2]), int(row[1])
        p = parts[start:start + n]
        pts = [math.hypot(q[6], q[7]) for q in p if q[1] == 1 and q[0] == 22]
        events.append((pts, [float(w) for w in row[9:]]))
    return sigma, central_pdf, [scale_of(n, central_pdf) for n in columns[10:]], events


def scale_of(name, central_pdf):
    """(muR, muF, pdf, is a scale variation) from a name MUR1.0_MUF2.0_PDF10042."""
    m = SCALE_NAME.match(name)
    if not m:
        return (None, None, None, False)
    pdf = int(m.group(3))
    return (float(m.group(1)), float(m.group(2)), pdf, pdf == central_pdf)


def read(path):
    if path.endswith((".lhe", ".lhe.gz")):
        return read_lhe(path)
    if path.endswith((".hepmc", ".hepmc.gz")):
        return read_hepmc(path)
    if path.endswith((".hdf5", ".h5")):
        return read_lheh5(path)
    raise SystemExit(f"analyse_events.py: {path}: not .lhe, .lhe.gz, .hepmc, .hepmc.gz, .hdf5 "
                     "or .h5")


def analyse(path, bins="40:0:400"):
    """The histograms and the checks: a dict (see main)."""
    import hist
    n_bins, lo, hi = bins.split(":")
    sigma, central_pdf, names, events = read(path)
    axis = hist.axis.Regular(int(n_bins), float(lo), float(hi), name="pt",
                             label=r"leading photon $p_\mathrm{T}$ [GeV]")
    nominal = hist.Hist(axis, storage=hist.storage.Weight())
    n_var = len(names)
    variation = hist.Hist(axis, hist.axis.Integer(0, max(n_var, 1), name="variation"))
    problems = []
    total = 0.0
    central = [i for i, (mur, muf, _, scale) in enumerate(names)
               if scale and mur == 1.0 and muf == 1.0]
    for k, (pts, weights) in enumerate(events):
        lead = max(pts) if pts else -1.0
        w = weights[0]
        total += w
        nominal.fill(pt=lead, weight=w)
        if len(weights) != 1 + n_var:
            problems.append(f"event {k}: {len(weights)} weights, the file names {1 + n_var}")
            break
        for i in range(n_var):
            if not math.isfinite(weights[1 + i]) and len(problems) < 5:
                problems.append(f"event {k}: variation {i + 1} is {weights[1 + i]}")
            variation.fill(pt=lead, variation=i, weight=weights[1 + i])
        for i in central:
            if abs(weights[1 + i] - w) > 1e-12 * abs(w) and len(problems) < 5:
                problems.append(f"event {k}: the central variation's weight {weights[1 + i]} is "
                                f"not the nominal {w}")
    if abs(total - sigma) > SIGMA_TOLERANCE * abs(sigma):
        problems.append(f"the nominal weights add up to {total!r} pb, the file states {sigma!r}")
    held = nominal.sum(flow=True).value
    if abs(held - total) > 1e-12 * abs(total):
        problems.append(f"the histogram holds {held!r} of {total!r} pb")
    widths = axis.widths
    dsigma = nominal.values() / widths
    errors = (nominal.variances() ** 0.5) / widths
    scales = [i for i, (_, _, _, scale) in enumerate(names) if scale]
    band = None
    if scales:
        each = [variation[:, i].values() / widths for i in scales]
        band = ([min(v[b] for v in each) for b in range(len(dsigma))],
                [max(v[b] for v in each) for b in range(len(dsigma))])
        for b in range(len(dsigma)):
            if not band[0][b] - 1e-12 * abs(dsigma[b]) <= dsigma[b] <= \
                    band[1][b] + 1e-12 * abs(dsigma[b]):
                problems.append(f"bin {b}: the band [{band[0][b]}, {band[1][b]}] misses the "
                                f"nominal {dsigma[b]}")
                break
    return dict(path=path, sigma_pb=sigma, events=len(events), weights_sum_pb=total,
                edges=list(axis.edges), dsigma_pb_per_gev=list(dsigma),
                errors_pb_per_gev=list(errors), n_variations=n_var, n_scale_variations=len(scales),
                band=None if band is None else dict(low=band[0], high=band[1]),
                problems=problems)


def draw(result, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    edges, y = result["edges"], result["dsigma_pb_per_gev"]
    fig, ax = plt.subplots(figsize=(6, 4.2))
    if result["band"] is not None:
        ax.fill_between(edges, result["band"]["low"] + result["band"]["low"][-1:],
                        result["band"]["high"] + result["band"]["high"][-1:], step="post",
                        alpha=0.35, color="tab:orange",
                        label=f"scale envelope ({result['n_scale_variations']} variations)")
    ax.stairs(y, edges, color="tab:blue", label="nominal")
    centres = [(a + b) / 2 for a, b in zip(edges[:-1], edges[1:])]
    ax.errorbar(centres, y, yerr=result["errors_pb_per_gev"], fmt="none", color="tab:blue", lw=1)
    ax.set_xlabel(r"leading photon $p_\mathrm{T}$ [GeV]")
    ax.set_ylabel(r"$d\sigma/dp_\mathrm{T}$ [pb/GeV]")
    ax.set_yscale("log")
    title = os.path.basename(result["path"])
    if result["band"] is None:
        title += " (no variation weights: nominal only)"
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("events")
    parser.add_argument("--out")
    parser.add_argument("--bins", default="40:0:400")
    parser.add_argument("--json")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    result = analyse(args.events, args.bins)
    out = args.out or os.path.join(os.path.dirname(os.path.abspath(args.events)),
                                   "leading_photon_pt.png")
    draw(result, out)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    if not args.quiet:
        print(f"{result['path']}: {result['events']} events, sigma {result['sigma_pb']:.6e} pb, "
              f"weights adding up to {result['weights_sum_pb']:.6e} pb")
        if result["band"] is None:
            print("no variation weights in this file: the histogram is the nominal alone"
                  + (f" ({result['n_variations']} weights, none a scale variation)"
                     if result["n_variations"] else ""))
        print(f"{'pT bin [GeV]':>16} {'dsigma/dpT [pb/GeV]':>20} {'error':>10}"
              + (f" {'scale band':>24}" if result["band"] else ""))
        edges = result["edges"]
        for b, y in enumerate(result["dsigma_pb_per_gev"]):
            if y == 0:
                continue
            line = f"{edges[b]:7.1f} - {edges[b + 1]:6.1f} {y:20.4e} {result['errors_pb_per_gev'][b]:10.2e}"
            if result["band"]:
                line += f" [{result['band']['low'][b]:.4e}, {result['band']['high'][b]:.4e}]"
            print(line)
        print(f"plot: {out}")
    for p in result["problems"]:
        print(f"analyse_events.py: check failed: {p}", file=sys.stderr)
    print("checks: " + ("all passed" if not result["problems"] else
                        f"{len(result['problems'])} failed"))
    return 0 if not result["problems"] else 1


if __name__ == "__main__":
    sys.exit(main())
