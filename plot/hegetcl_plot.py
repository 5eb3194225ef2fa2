#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Plots hegetcl's histograms (YODA or CSV) and unweighted events (LHE), with ratios to the first.

usage: hegetcl_plot.py FILE[:LABEL] [FILE[:LABEL] ...] --out DIR [--events LHE[:LABEL] ...]
                       [--histograms pt_1,dr_pairs] [--format png,pdf] [--density]
                       [--logy auto|yes|no] [--title TEXT]

  FILE            histograms hegetcl wrote: .yoda or .yoda.gz (YODA 1 text, Histo1D V2 objects)
                  or .csv or .csv.gz; LABEL (default: the file name without extension) names it
                  in the legend. The first FILE is the reference: its histograms are the ones
                  drawn, its binning the one every other input must have, and the ratio panel
                  divides by it.
  --out DIR       writes DIR/<histogram>.<format> (DIR is created) and prints each file written.
  --events LHE    unweighted events (.lhe or .lhe.gz, Les Houches 3.0, read with pylhe) filled
                  into the first FILE's binning, with weight XWGTUP converted from pb to fb, and
                  errors sqrt(sum w^2); drawn as points. May be given several times. The
                  observables are those of hegetcl_observables.py.
  --histograms    comma-separated names to draw (default: every histogram in the first FILE):
                  pt_1 .. pt_n, eta_1 .. eta_n, dr_min, dr_pairs, m_photons.
  --format        comma-separated matplotlib formats (default png).
  --density       draws (1/sigma) dsigma/dx, sigma being the histogram's total including
                  underflow and overflow (for dr_pairs, n (n - 1) / 2 times the cross section);
                  the errors leave out the total's own uncertainty.
  --logy          log y axis: yes, no, or auto (default: log where the drawn values span more
                  than two decades).
  --title TEXT    text above the upper left of every figure (default: the hadronic process,
                  "hegetcl: p p -> n gamma via q qbar (q = u, q from either proton), sqrt(s) =
                  14 TeV", and the photon cuts, "pT > 20 GeV, |eta| < 2.5, Delta R > 0.4", all
                  from the run card in the first file's header: n, flavours, orientation,
                  sqrt-s, pt-min, eta-max, dr-min; n from the pt_k histograms without one).

Each figure shows dsigma/dx in fb per unit of x (sumw / bin width, error bars sqrt(sumw2) /
width) for every input, and below it the ratio of each input to the first with the errors of
both added in quadrature and a dashed line at 1. The x axis runs over the bins that hold events
in any input; the ratio panel's range fits the ratios but stays within 0.5 to 1.5, and a ratio
beyond it is marked by a triangle at the frame's edge pointing the way it went. The title names
the process, sqrt(s), the cuts and the events behind each input. Underflow and overflow are not
drawn.

Exit status 0 on success, 2 with "hegetcl_plot.py: error: ..." on stderr for a missing file, an
unknown format, a histogram absent from some input, or binnings that differ.

example:  plot/hegetcl_plot.py build/run/histograms.yoda:hegetcl run.csv:"same run, CSV" \\
              --events build/run/events.lhe.gz:events --out plots --format png,pdf
"""
import argparse
import csv
import gzip
import math
import os
import re
import sys
import warnings
from dataclasses import dataclass

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hegetcl_observables  # noqa: E402  (found beside this file)

PROG = "hegetcl_plot.py"
CSV_COLUMNS = ["histogram", "bin", "xlow", "xhigh", "sumw_fb", "error_fb", "sumwx", "sumwx2",
               "entries"]
# Edges read from two files agree when they differ by less than this fraction of the narrowest
# bin: writers may print edges with different precision (YODA with %e, CSV with %.17g).
EDGE_TOLERANCE = 1e-6


class InputError(Exception):
    """Bad input, reported as "hegetcl_plot.py: error: <message>" with exit status 2."""


@dataclass
class Histogram:
    """One histogram; sumw, sumw2, sumwx, sumwx2, entries have bins + 2 entries (underflow first,
    overflow last), sumw in fb and sumw2 its squared error in fb^2, as in histogram.h."""
    name: str
    title: str
    x_label: str
    edges: np.ndarray
    sumw: np.ndarray
    sumw2: np.ndarray
    sumwx: np.ndarray
    sumwx2: np.ndarray
    entries: np.ndarray
    origin: str  # the file it was read from


def _open_text(path):
    """Opens a text file, gunzipping a .gz one."""
    if path.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8")
    return open(path, encoding="utf-8")


def _number(text, where):
    """A float from text, or InputError naming where it was."""
    try:
        return float(text)
    except ValueError:
        raise InputError(f"{where}: '{text}' is not a number") from None


def _histogram_from_rows(name, title, x_label, rows, flows, where):
    """A Histogram from bin rows (xlow, xhigh, sumw, sumw2, sumwx, sumwx2, entries) and the
    underflow and overflow rows (the same without xlow, xhigh), checking the bins are contiguous."""
    if not rows:
        raise InputError(f"{where}: histogram {name} has no bins")
    rows = np.array(rows, dtype=float)
    low, high = rows[:, 0], rows[:, 1]
    if not (np.isfinite(low).all() and np.isfinite(high).all() and (high > low).all()):
        raise InputError(f"{where}: histogram {name} has a bin with non-finite or empty edges")
    gap = np.abs(low[1:] - high[:-1])
    if (gap > EDGE_TOLERANCE * np.min(high - low)).any():
        i = int(np.argmax(gap))
        raise InputError(f"{where}: histogram {name}: bin {i} ends at {float(high[i])!r} but "
                         f"bin {i + 1} starts at {float(low[i + 1])!r}: bins must be contiguous "
                         "and ordered")
    edges = np.append(low, high[-1])
    table = np.vstack([flows["underflow"], rows[:, 2:], flows["overflow"]])
    if not np.isfinite(table).all():
        raise InputError(f"{where}: histogram {name} has a non-finite sumw, sumw2, sumwx, sumwx2 "
                         "or entries")
    if (table[:, 1] < 0).any():
        raise InputError(f"{where}: histogram {name} has a negative sumw2 (a squared error)")
    return Histogram(name, title, x_label, edges, table[:, 0].copy(), table[:, 1].copy(),
                     table[:, 2].copy(), table[:, 3].copy(), table[:, 4].copy(), where)


def read_yoda(path):
    """Histo1D objects of a YODA 1 text file: (dict name -> Histogram, header lines).

    The name is the last part of the object's path (/hegetcl/pt_1 -> pt_1); '#' lines outside
    BEGIN/END blocks are the header (hegetcl writes its run card there). Objects of other types
    are skipped, except a YODA 2 histogram (Histo1D V3), which this reader cannot read.
    """
    histograms, header = {}, []
    with _open_text(path) as lines:
        block = None  # the object being read
        for number, line in enumerate(lines, 1):
            where = f"{path}:{number}"
            text = line.strip()
            if block is None:
                if not text:
                    continue
                if text.startswith("#"):
                    header.append(text)
                    continue
                begin = re.match(r"^BEGIN\s+(\S+)\s+(\S+)\s*$", text)
                if not begin:
                    raise InputError(f"{where}: expected a '#' header line or 'BEGIN YODA_...', "
                                     f"found '{text[:60]}'")
                kind, object_path = begin.groups()
                if kind.startswith("YODA_HISTO1D") and kind != "YODA_HISTO1D_V2":
                    raise InputError(f"{where}: {kind} is not supported: only YODA 1 text "
                                     "(YODA_HISTO1D_V2) is read")
                block = {"kind": kind, "path": object_path, "meta": {}, "data": False,
                         "rows": [], "flows": {}, "start": number}
                continue
            if text.startswith("END "):
                if text.split()[1] != block["kind"]:
                    raise InputError(f"{where}: '{text}' closes {block['kind']} opened at line "
                                     f"{block['start']}")
                if block["kind"] == "YODA_HISTO1D_V2":
                    name = block["path"].rstrip("/").rsplit("/", 1)[-1]
                    start = f"{path}:{block['start']}"
                    for flow in ("total", "underflow", "overflow"):
                        if flow not in block["flows"]:
                            raise InputError(f"{start}: histogram {name} has no "
                                             f"{flow.capitalize()} row")
                    if name in histograms:
                        raise InputError(f"{start}: a second histogram named {name}")
                    histograms[name] = _histogram_from_rows(
                        name, block["meta"].get("Title", ""), block["meta"].get("XLabel", ""),
                        block["rows"], block["flows"], path)
                block = None
                continue
            if block["kind"] != "YODA_HISTO1D_V2" or not text or text.startswith("#"):
                continue
            if not block["data"]:
                if text == "---":
                    block["data"] = True
                elif ":" in text:
                    key, value = text.split(":", 1)
                    block["meta"][key.strip()] = value.strip()
                    if key.strip() == "Type" and value.strip() != "Histo1D":
                        raise InputError(f"{where}: Type {value.strip()} in a YODA_HISTO1D_V2 "
                                         "block: expected Histo1D")
                else:
                    raise InputError(f"{where}: expected 'Key: value' or '---', found "
                                     f"'{text[:60]}'")
                continue
            fields = text.split()
            if len(fields) != 7:
                raise InputError(f"{where}: expected 7 columns (xlow xhigh sumw sumw2 sumwx "
                                 f"sumwx2 numEntries), found {len(fields)}")
            if fields[0] in ("Total", "Underflow", "Overflow"):
                if fields[1] != fields[0]:
                    raise InputError(f"{where}: '{fields[0]}' row with '{fields[1]}' in column 2")
                block["flows"][fields[0].lower()] = [_number(f, where) for f in fields[2:]]
            else:
                block["rows"].append([_number(f, where) for f in fields])
        if block is not None:
            raise InputError(f"{path}:{block['start']}: {block['kind']} {block['path']} has no END "
                             "line (truncated file?)")
    return histograms, header


def read_csv(path):
    """Histograms of hegetcl's CSV file: (dict name -> Histogram, header lines).

    After '#' header lines, the column line histogram,bin,xlow,xhigh,sumw_fb,error_fb,sumwx,sumwx2,
    entries, then per histogram the rows underflow (xlow -inf), 0 .. bins - 1, overflow (xhigh
    inf) in that order. sumw2 is error_fb squared.
    """
    with _open_text(path) as handle:
        lines = handle.read().splitlines()
    header, first = [], 0
    while first < len(lines) and lines[first].startswith("#"):
        header.append(lines[first].strip())
        first += 1
    if first == len(lines):
        raise InputError(f"{path}: no column line '{','.join(CSV_COLUMNS)}'")
    if [c.strip() for c in lines[first].split(",")] != CSV_COLUMNS:
        raise InputError(f"{path}:{first + 1}: expected the column line "
                         f"'{','.join(CSV_COLUMNS)}', found '{lines[first].strip()[:80]}'")
    groups, order = {}, []
    for number, fields in enumerate(csv.reader(lines[first + 1:]), first + 2):
        where = f"{path}:{number}"
        if not "".join(fields).strip():
            continue
        if len(fields) != len(CSV_COLUMNS):
            raise InputError(f"{where}: expected {len(CSV_COLUMNS)} columns, found {len(fields)}")
        name, label = fields[0].strip(), fields[1].strip()
        if name not in groups:
            if order and groups[order[-1]]["state"] != "done":
                raise InputError(f"{where}: histogram {name} starts before {order[-1]} reached "
                                 "its overflow row")
            groups[name] = {"rows": [], "flows": {}, "state": "start", "line": number}
            order.append(name)
        group = groups[name]
        xlow, xhigh, sumw, error, sumwx, sumwx2, entries = (_number(f, where) for f in fields[2:])
        if error < 0:
            raise InputError(f"{where}: negative error_fb {error!r}")
        content = [sumw, error * error, sumwx, sumwx2, entries]
        expected = {"start": "underflow", "bins": str(len(group["rows"])),
                    "done": "no more rows"}[group["state"]]
        if group["state"] == "start" and label == "underflow":
            if xlow != -math.inf:
                raise InputError(f"{where}: the underflow row's xlow must be -inf, not {xlow!r}")
            group["flows"]["underflow"] = content
            group["underflow_high"] = xhigh
            group["state"] = "bins"
        elif group["state"] == "bins" and label == "overflow" and group["rows"]:
            if xhigh != math.inf:
                raise InputError(f"{where}: the overflow row's xhigh must be inf, not {xhigh!r}")
            group["flows"]["overflow"] = content
            group["overflow_low"] = xlow
            group["state"] = "done"
        elif group["state"] == "bins" and label == expected:
            group["rows"].append([xlow, xhigh] + content)
        else:
            raise InputError(f"{where}: histogram {name}: expected bin '{expected}', found "
                             f"'{label}'")
    histograms = {}
    for name in order:
        group = groups[name]
        where = f"{path}:{group['line']}"
        if group["state"] != "done":
            raise InputError(f"{where}: histogram {name} has no overflow row (truncated file?)")
        rows = group["rows"]
        width = min(r[1] - r[0] for r in rows)
        if (abs(group["underflow_high"] - rows[0][0]) > EDGE_TOLERANCE * width
                or abs(group["overflow_low"] - rows[-1][1]) > EDGE_TOLERANCE * width):
            raise InputError(f"{where}: histogram {name}: the underflow must end at the first "
                             "bin's xlow and the overflow start at the last bin's xhigh")
        histograms[name] = _histogram_from_rows(name, "", "", rows, group["flows"], path)
    return histograms, header


def read_histogram_file(path):
    """(dict name -> Histogram, header lines) from a .yoda, .yoda.gz, .csv or .csv.gz file."""
    if not os.path.isfile(path):
        raise InputError(f"{path}: no such file")
    if path.endswith((".yoda", ".yoda.gz")):
        reader = read_yoda
    elif path.endswith((".csv", ".csv.gz")):
        reader = read_csv
    else:
        raise InputError(f"{path}: unknown format: expected .yoda, .yoda.gz, .csv or .csv.gz")
    try:
        return reader(path)
    except (OSError, UnicodeDecodeError, EOFError) as error:
        raise InputError(f"{path}: cannot be read: {error}") from None


def read_lhe_photons(path):
    """Photon momenta and weights of an LHE file: (events, n, 4) array of px, py, pz, E in GeV and
    weights in fb (XWGTUP in pb times 1000). Photons are the IDUP 22, ISTUP 1 particles; every
    event must have the same number n >= 2 of them."""
    try:
        import pylhe
    except ImportError as error:
        raise InputError(f"--events needs pylhe ({error}): pip install pylhe") from None
    if not os.path.isfile(path):
        raise InputError(f"{path}: no such file")
    momenta, weights = [], []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # pylhe reports an XML error as a warning and stops
        try:
            for number, event in enumerate(pylhe.LHEFile.fromfile(path).events, 1):
                photons = [(p.px, p.py, p.pz, p.e) for p in event.particles
                           if p.id == 22 and p.status == 1]
                if momenta and len(photons) != len(momenta[0]):
                    raise InputError(f"{path}: event {number} has {len(photons)} photons, event 1 "
                                     f"has {len(momenta[0])}")
                momenta.append(photons)
                weights.append(event.eventinfo.weight * 1000.0)
            error = None
        except InputError:
            raise
        except Exception as caught_error:  # pylhe raises ValueError, IndexError, ... on bad text
            error = f"{type(caught_error).__name__}: {caught_error}"
    parse_errors = [str(w.message) for w in caught if str(w.message).startswith("Parse Error")]
    if error or parse_errors:
        raise InputError(f"{path}: not a readable Les Houches file after {len(momenta)} events: "
                         + "; ".join(([error] if error else []) + parse_errors))
    if not momenta:
        raise InputError(f"{path}: no events")
    if len(momenta[0]) < 2:
        raise InputError(f"{path}: events have {len(momenta[0])} photons: at least 2 needed")
    return np.array(momenta, dtype=float), np.array(weights, dtype=float)


def histograms_from_events(path, references, photons, reference_path):
    """Histograms of an LHE file's events in the binning of references (dict name -> Histogram),
    whose file reference_path has pt_1 .. pt_photons (photons None: no pt_k to compare with),
    and the number of events."""
    momenta, weights = read_lhe_photons(path)
    n = momenta.shape[1]
    if photons is not None and n != photons:
        raise InputError(f"{path} has {n} photons per event but {reference_path} has histograms "
                         f"for {photons} (pt_1 .. pt_{photons}): not the same process")
    values = hegetcl_observables.photon_observables(momenta)
    result = {}
    for name, reference in references.items():
        if name not in values:
            need = (f"its events have {n} photons" if hegetcl_observables.is_known(name)
                    else "it is not an observable hegetcl_observables.py knows")
            raise InputError(f"histogram {name} cannot be filled from {path}: {need}")
        try:
            filled = hegetcl_observables.fill(values[name], weights, reference.edges)
        except ValueError as error:
            raise InputError(f"{path}: histogram {name}: {error} (a non-finite momentum?)") \
                from None
        result[name] = Histogram(name, reference.title, reference.x_label, reference.edges.copy(),
                                 *filled, path)
    return result, len(weights)


def parse_source(argument):
    """(path, label) from FILE[:LABEL]; the label defaults to the file name without extensions.

    A path that itself contains ':' is taken whole when such a file exists."""
    path, label = argument, None
    if not os.path.exists(argument) and ":" in argument:
        for i, char in enumerate(argument):
            if char == ":" and os.path.exists(argument[:i]):
                path, label = argument[:i], argument[i + 1:]
                break
        else:
            path, label = argument.split(":", 1)
    if not label:
        label = os.path.basename(path)
        for extension in (".gz", ".yoda", ".csv", ".lhe"):
            label = label[:-len(extension)] if label.endswith(extension) else label
    return path, label


def axis_symbols(name, x_label):
    """(symbol of x in mathtext, unit or None) for a histogram name; unknown names fall back
    to the file's XLabel, its unit taken from '[...]'."""
    ranked = re.match(r"^(pt|eta)_([0-9]+)$", name)
    if ranked and ranked.group(1) == "pt":
        return rf"p_{{\mathrm{{T}},{ranked.group(2)}}}", "GeV"
    if ranked:
        return rf"\eta_{{{ranked.group(2)}}}", None
    known = {"dr_min": (r"\Delta R_{\mathrm{min}}", None),
             "dr_pairs": (r"\Delta R_{\gamma\gamma}", None),
             "m_photons": (r"m_{\gamma\ldots\gamma}", "GeV")}
    if name in known:
        return known[name]
    unit = re.search(r"\[([^]]+)\]", x_label)
    return "x", unit.group(1) if unit else None


X_TITLES = {"dr_min": "smallest $\\Delta R$ between two photons",
            "dr_pairs": "$\\Delta R$ of every photon pair",
            "m_photons": "invariant mass of the photons"}


def x_title(name, x_label):
    """The x axis title: a description of the observable with its unit."""
    unit = axis_symbols(name, x_label)[1]
    ranked = re.match(r"^(pt|eta)_([0-9]+)$", name)
    if ranked:
        what = "$p_\\mathrm{T}$" if ranked.group(1) == "pt" else "$\\eta$"
        text = f"{what} of the photon ranked {ranked.group(2)} in $p_\\mathrm{{T}}$"
    else:
        text = X_TITLES.get(name, x_label or name)
    return text + (f" [{unit}]" if unit else "")


def y_title(name, x_label, density):
    """The y axis title, dsigma/dx or (1/sigma) dsigma/dx with its unit."""
    symbol, unit = axis_symbols(name, x_label)
    if density:
        return (f"$1/\\sigma\\; d\\sigma/d{symbol}$" + (f" [1/{unit}]" if unit else ""))
    return f"$d\\sigma/d{symbol}$ [fb" + (f"/{unit}]" if unit else "]")


def run_card(header):
    """The run card echoed in a file's header ("# key: value" lines) as a dict of strings."""
    card = {}
    for line in header:
        found = re.match(r"^#\s*([a-z][a-z0-9-]*):\s*(.*?)\s*$", line)
        if found:
            card.setdefault(found.group(1), found.group(2).strip("\"'"))
    return card


def _gev(text):
    """'14 TeV' from '14000' (GeV; a value under 100 can only be TeV), or None."""
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return f"{value / 1000:g} TeV" if value >= 100 else f"{value:g} TeV"


def event_count(header):
    """The weighted events a histogram file was filled from, from its header's line "... from K
    combined iterations, N events in all" (or, in older files, "of N events" each), or None."""
    for line in header:
        found = re.search(r"from ([0-9]+) combined iterations(?:, ([0-9]+) events in all| of "
                          r"([0-9]+) events)", line)
        if found:
            if found.group(2):
                return int(found.group(2))
            return int(found.group(1)) * int(found.group(3))
    return None


def events_line(sources_info):
    """'events: 6.0e5 weighted (hegetcl), 2000 unweighted (LHE)' from (label, count, kind) triples
    (count None: not known, left out)."""
    parts = []
    for label, count, kind in sources_info:
        if count is None:
            continue
        amount = f"{count:.1e}".replace("e+0", "e") if count >= 100000 else f"{count}"
        parts.append(f"{amount} {kind}" + ("" if kind in label else f" ({label})"))
    return "events: " + ", ".join(parts) if parts else ""


def default_title(histograms, header):
    """Three lines: the hadronic process (p p -> n photons) with sqrt(s); through q qbar, which
    quarks and which beam orientation; the photon cuts; from the run card in the first file's header
    (n from the number of pt_k histograms and sqrt(s) = 14 TeV without one)."""
    card = run_card(header)
    ranks = [int(m.group(1)) for m in (re.match(r"^pt_([0-9]+)$", k) for k in histograms) if m]
    n = card.get("n") or (str(max(ranks)) if ranks else "n")
    energy = _gev(card.get("sqrt-s")) or "14 TeV"
    quarks = card.get("flavours", "u").replace(",", ", ")
    orientation = {"both": ", the quark from either proton",
                   "u-first": ", the quark from proton 1 only"}.get(card.get("orientation", ""), "")
    # √ as text: mathtext's \sqrt has no glyph the PDF backend can map in the ROOT style's font.
    first = (f"hegetcl: $pp \\to {n}\\gamma$, \u221as = {energy}\n"
             f"through $q\\bar{{q}}$, q = {quarks}{orientation}")
    cuts = []
    if "pt-min" in card:
        cuts.append(f"$p_\\mathrm{{T}}^\\gamma > {card['pt-min']}$ GeV")
    if "eta-max" in card:
        cuts.append(f"$|\\eta^\\gamma| < {card['eta-max']}$")
    if "dr-min" in card:
        cuts.append(f"$\\Delta R_{{\\gamma\\gamma}} > {card['dr-min']}$")
    return first + ("\ncuts: " + ", ".join(cuts) if cuts else "")


def check_binning(name, reference, other):
    """InputError when other's bins are not reference's (same count, edges within tolerance)."""
    a, b = reference.edges, other.edges
    if len(a) != len(b):
        raise InputError(f"histogram {name}: {other.origin} has {len(b) - 1} bins on "
                         f"[{b[0]:g}, {b[-1]:g}], {reference.origin} has {len(a) - 1} on "
                         f"[{a[0]:g}, {a[-1]:g}]: incompatible binning")
    worst = int(np.argmax(np.abs(a - b)))
    if abs(a[worst] - b[worst]) > EDGE_TOLERANCE * np.min(np.diff(a)):
        raise InputError(f"histogram {name}: edge {worst} is {float(b[worst])!r} in "
                         f"{other.origin} but {float(a[worst])!r} in {reference.origin}: "
                         "incompatible binning")


def differential(histogram, density):
    """(values, errors) per bin of dsigma/dx, or of (1/sigma) dsigma/dx with density."""
    width = np.diff(histogram.edges)
    values = histogram.sumw[1:-1] / width
    errors = np.sqrt(histogram.sumw2[1:-1]) / width
    if density:
        total = histogram.sumw.sum()
        if total == 0:
            raise InputError(f"histogram {histogram.name} of {histogram.origin} sums to 0: "
                             "--density cannot normalise it")
        values, errors = values / total, errors / abs(total)
    return values, errors


def use_log_scale(curves, logy):
    """The y scale: log for 'yes', linear for 'no', for 'auto' log when the positive values
    span more than two decades."""
    if logy != "auto":
        return logy == "yes"
    positive = np.concatenate([v[v > 0] for v, _ in curves]) if curves else np.array([])
    return positive.size > 0 and positive.max() > 100 * positive.min()


def plot_histogram(name, sources, args, title, formats):
    """Draws one figure (distribution and ratio) for histogram name and writes it in formats.

    sources: list of (label, Histogram, is_events). Returns the paths written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import mplhep

    plt.style.use(mplhep.style.ROOT)
    figure, (axis, ratio_axis) = plt.subplots(
        2, 1, sharex=True, figsize=(8, 8), gridspec_kw={"height_ratios": [3, 1], "hspace": 0.05})
    reference = sources[0][1]
    edges = reference.edges
    centres = 0.5 * (edges[1:] + edges[:-1])
    curves = [differential(h, args.density) for _, h, _ in sources]
    log = use_log_scale(curves, args.logy)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    ratios = []  # every ratio drawn, for the panel's range
    drawn = []  # (ratio, error, colour, marker) to draw once the range is known
    for i, ((label, _, is_events), (values, errors)) in enumerate(zip(sources, curves)):
        colour = colours[i % len(colours)]
        if is_events:
            mplhep.histplot(values, edges, yerr=errors, label=label, histtype="errorbar", ax=axis,
                            color=colour, flow="none", markersize=3)
        else:  # a weighted histogram: its steps and, at each bin's centre, its error bar
            mplhep.histplot(values, edges, label=label, histtype="step", ax=axis, color=colour,
                            flow="none")
            axis.errorbar(centres, values, yerr=errors, fmt="none", color=colour, linewidth=1)
        if i == 0:
            continue
        ref_values, ref_errors = curves[0]
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(ref_values != 0, values / ref_values, np.nan)
            # A zero over a non-zero reference has ratio 0 and error error / reference.
            ratio_error = np.where(
                values != 0,
                np.abs(ratio) * np.hypot(errors_over(errors, values),
                                         errors_over(ref_errors, ref_values)),
                errors / np.abs(ref_values))
        ratios.append(ratio)
        drawn.append((ratio, ratio_error, colour, "o" if is_events else "none"))
    if len(sources) == 1:  # nothing to divide: show the reference's relative error
        values, errors = curves[0]
        with np.errstate(divide="ignore", invalid="ignore"):
            relative = np.where(values != 0, errors / np.abs(values), np.nan)
        ratios += [1 + relative, 1 - relative]
        ratio_axis.stairs(1 + relative, edges, baseline=1 - relative, fill=True, alpha=0.3,
                          color=colours[0], label="relative error")
    ratio_axis.axhline(1.0, color="black", linestyle="--", linewidth=1)
    low, high = _set_ratio_limits(ratio_axis, ratios)
    for ratio, ratio_error, colour, marker in drawn:
        inside = (ratio >= low) & (ratio <= high)
        ratio_axis.errorbar(centres[inside], ratio[inside], yerr=ratio_error[inside],
                            xerr=np.diff(edges)[inside] / 2, fmt=marker, markersize=3,
                            color=colour)
        _mark_off_scale(ratio_axis, centres, ratio, low, high, colour)
    ratio_axis.set_ylabel(f"ratio to\n{sources[0][0]}"[:40], fontsize="small")
    ratio_axis.set_xlabel(x_title(name, reference.x_label))
    ratio_axis.set_xlim(*data_range(edges, [h for _, h, _ in sources]))
    axis.set_ylabel(y_title(name, reference.x_label, args.density))
    axis.set_xlabel("")
    _set_main_limits(axis, curves, log)
    axis.set_title(title, loc="left", fontsize="small")
    axis.legend(loc="upper right", fontsize="small")
    mplhep.yscale_legend(axis, soft_fail=True)  # raise the y range until the legend clears the data

    written = []
    for fmt in formats:
        target = os.path.join(args.out, f"{name}.{fmt}")
        temporary = os.path.join(args.out, f".{name}.{fmt}.{os.getpid()}.tmp")
        try:
            figure.savefig(temporary, format=fmt, bbox_inches="tight")
            os.replace(temporary, target)
        except OSError as error:
            raise InputError(f"{target}: cannot be written: {error}") from None
        written.append(target)
    plt.close(figure)
    return written


def errors_over(errors, values):
    """errors / |values|, 0 where values is 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(values != 0, errors / np.abs(values), 0.0)


def _set_main_limits(axis, curves, log):
    """y range with room above the data for the title and legend."""
    lows = np.concatenate([v - e for v, e in curves])
    highs = np.concatenate([v + e for v, e in curves])
    top = highs.max() if highs.size else 1.0
    if log:
        positive = np.concatenate([v[v > 0] for v, _ in curves])
        if positive.size == 0:
            axis.set_yscale("log")
            return
        bottom = positive.min() / 2
        top = max(top, positive.max())
        axis.set_yscale("log")
        axis.set_ylim(bottom, top * (top / bottom) ** 0.4)
    else:
        bottom = min(0.0, lows.min())
        axis.set_ylim(bottom, bottom + 1.4 * (top - bottom) if top > bottom else 1.0)


# The ratio panel shows at most this far from 1: beyond it a ratio is a triangle at the edge.
RATIO_REACH = 0.5


def _set_ratio_limits(ratio_axis, ratios):
    """Ratio range: the ratios drawn, at least 0.8 to 1.2 and at most 1 -+ RATIO_REACH (ratios
    beyond are marked at the edge by _mark_off_scale), with a margin. Returns (low, high), the
    range a ratio must be in to be drawn as a point."""
    finite = np.concatenate([r[np.isfinite(r)] for r in ratios]) if ratios else np.array([])
    low, high = (finite.min(), finite.max()) if finite.size else (1.0, 1.0)
    low = min(max(low, 1.0 - RATIO_REACH), 0.8)
    high = max(min(high, 1.0 + RATIO_REACH), 1.2)
    margin = 0.05 * (high - low)
    ratio_axis.set_ylim(low - margin, high + margin)
    return low - margin / 2, high + margin / 2


def _mark_off_scale(ratio_axis, centres, ratio, low, high, colour):
    """Triangles at the ratio panel's edge for ratios beyond it: pointing up at the top for
    those above, down at the bottom for those below. Returns how many were marked."""
    above, below = ratio > high, ratio < low
    bottom, top = ratio_axis.get_ylim()
    if above.any():
        ratio_axis.plot(centres[above], np.full(above.sum(), top - 0.04 * (top - bottom)),
                        marker="^", linestyle="none", color=colour, markersize=7,
                        clip_on=False)
    if below.any():
        ratio_axis.plot(centres[below], np.full(below.sum(), bottom + 0.04 * (top - bottom)),
                        marker="v", linestyle="none", color=colour, markersize=7,
                        clip_on=False)
    return int(above.sum() + below.sum())


def data_range(edges, histograms):
    """(low, high) of the x axis: the bins that hold anything (sumw or entries non-zero) in any
    of the histograms, the whole range when none does."""
    filled = np.zeros(len(edges) - 1, dtype=bool)
    for histogram in histograms:
        filled |= (histogram.sumw[1:-1] != 0) | (histogram.entries[1:-1] != 0)
    if not filled.any():
        return edges[0], edges[-1]
    where = np.flatnonzero(filled)
    return edges[where[0]], edges[where[-1] + 1]


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog=PROG, description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.split("\n")[2:]))
    parser.add_argument("files", nargs="+", metavar="FILE[:LABEL]")
    parser.add_argument("--out", required=True, metavar="DIR")
    parser.add_argument("--events", action="append", default=[], metavar="LHE[:LABEL]")
    parser.add_argument("--histograms", metavar="NAMES")
    parser.add_argument("--format", default="png", metavar="FORMATS")
    parser.add_argument("--density", action="store_true")
    parser.add_argument("--logy", choices=("auto", "yes", "no"), default="auto")
    parser.add_argument("--title")
    args = parser.parse_args(argv)
    try:
        for written in run(args):
            print(written)
    except InputError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    return 0


def run(args):
    """Reads every input, checks them against the first, draws; yields each file written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    formats = [f.strip().lower() for f in args.format.split(",") if f.strip()]
    if not formats:
        raise InputError("--format lists no format")
    supported = plt.figure().canvas.get_supported_filetypes()
    plt.close("all")
    for fmt in formats:
        if fmt not in supported:
            raise InputError(f"--format {fmt}: unknown; matplotlib writes {', '.join(supported)}")

    sources = []  # (label, dict name -> Histogram, is_events)
    event_info = []  # (label, events behind it or None, "weighted" or "unweighted")
    paths = [parse_source(argument)[0] for argument in args.files]
    for path, argument in zip(paths, args.files):
        histograms, file_header = read_histogram_file(path)
        if not histograms:
            raise InputError(f"{path}: holds no histograms")
        if not sources:
            header = file_header
        sources.append((parse_source(argument)[1], histograms, False))
        event_info.append((parse_source(argument)[1], event_count(file_header), "weighted"))
    first = sources[0][1]
    if args.histograms:
        names = [n.strip() for n in args.histograms.split(",") if n.strip()]
    else:
        names = list(first)
    for (_, histograms, _), path in zip(sources, paths):
        for name in names:
            if name not in histograms:
                raise InputError(f"histogram {name} is absent from {path} (it has: "
                                 f"{', '.join(histograms)})")
            check_binning(name, first[name], histograms[name])
    ranks = [int(m.group(1)) for m in (re.match(r"^pt_([0-9]+)$", k) for k in first) if m]
    for argument in args.events:
        path, label = parse_source(argument)
        histograms, count = histograms_from_events(path, {name: first[name] for name in names},
                                                   max(ranks) if ranks else None, paths[0])
        sources.append((label, histograms, True))
        event_info.append((label, count, "unweighted"))

    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as error:
        raise InputError(f"--out {args.out}: cannot be created: {error}") from None
    title = args.title if args.title is not None else default_title(first, header)
    counts = events_line(info for info in event_info)
    if counts and args.title is None:
        title += "\n" + counts
    for name in names:
        per_name = [(label, histograms[name], is_events) for label, histograms, is_events
                    in sources]
        yield from plot_histogram(name, per_name, args, title, formats)


if __name__ == "__main__":
    sys.exit(main())
