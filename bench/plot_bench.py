#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Plots and tabulates hegetcl-bench (OpenCL) and hegetcl-serial-bench (one CPU core) results.

usage: plot_bench.py --out DIR [--mode summed|helicity] [--rate kernel|end-to-end]
                     [--scan-n N] [--markdown FILE] FILE.json [FILE.json ...]

  FILE.json       written by `hegetcl-bench --json` ("tool": "hegetcl-bench", one file per OpenCL
                  device) or by the serial C build ("tool": "hegetcl-serial-bench", one CPU core).
                  An OpenCL file is labelled by its "device"; a PoCL CPU device (platform
                  "Portable Computing Language", name "pthread-<arch>-<cpu>" or "cpu-<arch>-<cpu>")
                  as "PoCL: <cpu>", the serial file as "1 core: <cpu>". Files older than the
                  pipeline and register-cap fields count as pipeline "me", register_limit 0.
  --out DIR       writes the figures DIR/<name>.png (DIR is created); a figure whose inputs are
                  missing is skipped, saying why on stderr.
  --mode          the helicity mode the per-n figures draw (default summed); tables cover every
                  mode present, this one first.
  --rate          which OpenCL rate the figures use for the matrix element alone: kernel
                  (profiling events, default) or end-to-end (wall clock, with the transfers).
                  The full pipeline has only an end-to-end rate, the serial build one rate.
  --scan-n N      the photon count of the work-group-size figure (default 5).
  --markdown FILE also writes the tables as Markdown to FILE.

Where a file holds several results for one case (pipeline, engine, n, precision, mode) that
differ in local_size or register_limit, the per-n figures and tables use the highest rate.
Time per event is 1 / rate. Results not "ok" are left out of the figures and listed in the
report with their reason.

Figures:
  time_per_event.png     time per event vs n, a panel per precision, a line per (device, engine);
                         serial lines dashed, PoCL dash-dotted.
  speedup_over_cpu.png   (CPU time) / (GPU time) vs n for the same engine, precision and mode: a
                         row per CPU reference (the serial core, each PoCL device), a column per
                         precision; the HEGET paper's 40-150x band shaded in the one-core rows.
  double_over_single.png (double time) / (float time) vs n per (device, engine).
  unrolling.png          (permutation time) / (unrolled time) vs n per device, per precision.
  local_size_scan.png    time per event vs work-group size at n = --scan-n, a panel per device,
                         a line per (engine, precision, register_limit) scanned (ME only).
  devices.png            (rate on the first GPU file) / (rate on each other GPU file) vs n per
                         engine, per precision (needs two GPU files).
  pipeline_over_me.png   (full-pipeline end-to-end time) / (ME kernel time) vs n per (engine,
                         precision, mode), a panel per device; "mixed" is compared with the float
                         ME; a line at 1.3.

The report (stdout) and the Markdown tables: per device n x (engine precision) events/s (kernel,
end-to-end in brackets); per GPU the speed-up over the serial core (over PoCL in brackets); the
full pipeline (events/s, time ratio to the ME kernel); FLOPs per event, TFLOP/s and % of peak
where the file has them (TFLOP/s derived from flops_per_event and the kernel rate when only the
former is there); best work-group sizes of scanned cases; results not ok. Numbers are given to
two significant digits as x.xe+yy.

Exit status 0 on success, 2 with "plot_bench.py: error: ..." on stderr for a missing file, bad
JSON, an unknown "tool", or a result lacking a field its status needs.

example:  python3 bench/plot_bench.py --out plots --markdown plots/bench.md \\
              h200.json h100.json pocl.json serial.json
"""
import argparse
import json
import math
import os
import re
import sys
from dataclasses import dataclass, field

PROG = "plot_bench.py"
OPENCL_TOOL = "hegetcl-bench"
SERIAL_TOOL = "hegetcl-serial-bench"
POCL_PLATFORM = "Portable Computing Language"
PRECISIONS = ("float", "double", "mixed")
MODES = ("summed", "helicity")
PIPELINES = ("me", "full")
STATUSES = ("ok", "skipped", "failed")
ENGINE_ORDER = ("permutation", "unrolled", "diagrams", "recursive")
# HEGET paper (Hagiwara et al.): its GPU code ran 40 to 150 times faster than one CPU core.
PAPER_SPEEDUP = (40.0, 150.0)
# Target of the full pipeline (phase space, ME, weights): at most 1.3 times the ME kernel time.
PIPELINE_TARGET = 1.3
# PoCL names its CPU device "<driver>-<llvm cpu>-<model>", e.g. pthread-skylake-avx512-AMD EPYC.
POCL_CPU_NAME = re.compile(r"^(?:pthread|basic|cpu|tbb)(?:-[a-z0-9_.\-]+?)?-(?=[A-Z0-9])(.+)$")


class InputError(Exception):
    """Bad input, reported as "plot_bench.py: error: <message>" with exit status 2."""


@dataclass
class Result:
    """One benchmark case as read; rates in events per second, None where absent."""
    pipeline: str
    engine: str
    n: int
    precision: str
    mode: str
    status: str
    reason: str = ""
    local_size: int = None
    register_limit: int = 0
    kernel_rate: float = None
    end_to_end_rate: float = None
    flops_per_event: float = None
    kernel_tflops: float = None
    peak_fraction: float = None

    def rate(self, kind):
        """Events per second: the kernel rate for kind 'kernel' where there is one, else the
        end-to-end rate."""
        if kind == "kernel" and self.kernel_rate is not None:
            return self.kernel_rate
        return self.end_to_end_rate


@dataclass
class Source:
    """One input file."""
    path: str
    tool: str
    label: str
    is_cpu: bool  # the PoCL CPU device or the serial build
    is_serial: bool
    description: str  # platform, driver, compiler: a line for the report
    peak_tflops: dict = field(default_factory=dict)
    results: list = field(default_factory=list)

    @property
    def is_gpu(self):
        return not self.is_cpu

    def best(self, pipeline, engine, n, precision, mode, kind):
        """The ok result of the case with the highest rate of kind, or None."""
        best = None
        for r in self.results:
            if (r.status == "ok" and r.pipeline == pipeline and r.engine == engine and r.n == n
                    and r.precision == precision and r.mode == mode):
                if best is None or r.rate(kind) > best.rate(kind):
                    best = r
        return best

    def rates(self, pipeline, engine, precision, mode, kind):
        """dict n -> best rate of kind for the case."""
        out = {}
        for n in sorted({r.n for r in self.results}):
            r = self.best(pipeline, engine, n, precision, mode, kind)
            if r is not None:
                out[n] = r.rate(kind)
        return out

    def engines(self):
        return order_engines({r.engine for r in self.results})


def order_engines(names):
    """The engines in the paper's order, unknown ones after them alphabetically."""
    known = [e for e in ENGINE_ORDER if e in names]
    return known + sorted(set(names) - set(ENGINE_ORDER))


def clean_name(text):
    """A device or CPU name without trademark marks and repeated blanks."""
    text = re.sub(r"\((?:R|TM|C)\)", "", text or "", flags=re.IGNORECASE)
    return re.sub(r"\s+", " ", text).strip()


# ---- reading ------------------------------------------------------------------------------


def _field(entry, key, kinds, where, required=True, default=None):
    """entry[key] checked against kinds (a type or tuple), or InputError naming where."""
    if key not in entry or entry[key] is None:
        if required:
            raise InputError(f"{where}: no \"{key}\"")
        return default
    value = entry[key]
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise InputError(f"{where}: \"{key}\" is {json.dumps(value)[:40]}: expected "
                         f"{_kind_name(kinds)}")
    return value


def _kind_name(kinds):
    """'an integer', 'a number', 'a string' for the types _field accepts."""
    if kinds in (float, (int, float)):
        return "a number"
    return {int: "an integer", str: "a string"}[kinds]


def _choice(entry, key, choices, where, default=None):
    value = _field(entry, key, str, where, required=default is None, default=default)
    if value not in choices:
        raise InputError(f"{where}: \"{key}\" is \"{value}\": expected one of "
                         f"{', '.join(choices)}")
    return value


def _rate(entry, key, where, required):
    """A positive finite rate, or InputError; required: an ok result needs it."""
    if required and entry.get(key) is None:
        raise InputError(f"{where}: no \"{key}\", which a result with status \"ok\" "
                         f"(pipeline \"{entry.get('pipeline', 'me')}\") must have")
    value = _field(entry, key, (int, float), where, required=required)
    if value is not None and not (math.isfinite(value) and value > 0):
        raise InputError(f"{where}: \"{key}\" is {value!r}: must be a positive number")
    return None if value is None else float(value)


def _number(entry, key, where):
    value = _field(entry, key, (int, float), where, required=False)
    return None if value is None or not math.isfinite(value) else float(value)


def read_opencl(path, data):
    """A Source from a hegetcl-bench file."""
    device = _field(data, "device", str, path)
    platform = _field(data, "platform", str, path, required=False, default="")
    device_type = str(data.get("device_type", "")).lower()
    pocl_cpu = platform == POCL_PLATFORM and POCL_CPU_NAME.match(device)
    is_cpu = ("cpu" in device_type or bool(pocl_cpu)
              or (not device_type and "CPU" in (platform + " " + device).upper()))
    if platform == POCL_PLATFORM:
        label = "PoCL: " + clean_name(pocl_cpu.group(1) if pocl_cpu else device)
    else:
        label = clean_name(device)
    details = [platform, f"driver {data['driver']}" if data.get("driver") else "",
               f"{data['compute_units']} compute units" if data.get("compute_units") else "",
               f"commit {data['commit']}" if data.get("commit") else ""]
    peak = data.get("peak_tflops") or {}
    if not isinstance(peak, dict):
        raise InputError(f"{path}: \"peak_tflops\" must be an object "
                         "{\"float\": TFLOPS, \"double\": TFLOPS} or null")
    peak = {k: float(v) for k, v in peak.items()
            if isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0}
    source = Source(path, OPENCL_TOOL, label, is_cpu, False,
                    ", ".join(d for d in details if d), peak)
    for i, entry in enumerate(_results(path, data)):
        where = f"{path}: results[{i}]"
        pipeline = _choice(entry, "pipeline", PIPELINES, where, default="me")
        status = _choice(entry, "status", STATUSES, where)
        ok = status == "ok"
        r = Result(pipeline=pipeline, engine=_field(entry, "engine", str, where),
                   n=_field(entry, "n", int, where),
                   precision=_choice(entry, "precision", PRECISIONS, where),
                   mode=_choice(entry, "mode", MODES, where), status=status,
                   reason=str(entry.get("reason", "")),
                   local_size=_field(entry, "local_size", int, where, required=False),
                   register_limit=_field(entry, "register_limit", int, where, required=False,
                                         default=0),
                   kernel_rate=_rate(entry, "kernel_events_per_s", where,
                                     required=ok and pipeline == "me"),
                   end_to_end_rate=_rate(entry, "end_to_end_events_per_s", where, required=ok),
                   flops_per_event=_number(entry, "flops_per_event", where),
                   kernel_tflops=_number(entry, "kernel_tflops", where),
                   peak_fraction=_number(entry, "peak_fraction", where))
        if r.precision == "mixed" and r.pipeline != "full":
            raise InputError(f"{where}: precision \"mixed\" with pipeline \"{r.pipeline}\": "
                             "mixed precision exists only in the full pipeline")
        if r.kernel_tflops is None and r.flops_per_event is not None and r.kernel_rate:
            r.kernel_tflops = r.flops_per_event * r.kernel_rate / 1e12
        if (r.peak_fraction is None and r.kernel_tflops is not None
                and peak.get(r.precision)):
            r.peak_fraction = r.kernel_tflops / peak[r.precision]
        source.results.append(r)
    return source


def read_serial(path, data):
    """A Source from a hegetcl-serial-bench file; its one rate serves as kernel and end-to-end."""
    cpu = _field(data, "cpu", str, path, required=False, default="unknown CPU")
    details = [f"{data['compiler']}" if data.get("compiler") else "",
               f"{data['flags']}" if data.get("flags") else ""]
    source = Source(path, SERIAL_TOOL, "1 core: " + clean_name(cpu), True, True,
                    "one core, " + " ".join(d for d in details if d))
    for i, entry in enumerate(_results(path, data)):
        where = f"{path}: results[{i}]"
        status = _choice(entry, "status", STATUSES, where)
        rate = _rate(entry, "events_per_s", where, required=False)
        if status == "ok" and rate is None:
            events = _rate(entry, "events", where, required=True)
            seconds = _rate(entry, "seconds", where, required=True)
            rate = events / seconds
        precision = _choice(entry, "precision", PRECISIONS, where)
        source.results.append(Result(
            pipeline="me", engine=_field(entry, "engine", str, where),
            n=_field(entry, "n", int, where), precision=precision,
            mode=_choice(entry, "mode", MODES, where), status=status,
            reason=str(entry.get("reason", "")), kernel_rate=rate, end_to_end_rate=rate))
    return source


def _results(path, data):
    results = data.get("results")
    if not isinstance(results, list):
        raise InputError(f"{path}: no \"results\" list")
    for i, entry in enumerate(results):
        if not isinstance(entry, dict):
            raise InputError(f"{path}: results[{i}] is not an object")
    return results


def read_source(path):
    """A Source from a JSON file, or InputError naming the file and the problem."""
    if not os.path.isfile(path):
        raise InputError(f"{path}: no such file")
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except json.JSONDecodeError as error:
        raise InputError(f"{path}:{error.lineno}:{error.colno}: not valid JSON: "
                         f"{error.msg}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"{path}: cannot be read: {error}") from None
    if not isinstance(data, dict):
        raise InputError(f"{path}: the top level is not a JSON object")
    tool = data.get("tool")
    if tool == OPENCL_TOOL:
        return read_opencl(path, data)
    if tool == SERIAL_TOOL:
        return read_serial(path, data)
    found = "no \"tool\"" if tool is None else f"unknown \"tool\": {json.dumps(tool)[:60]}"
    raise InputError(f"{path}: {found}: expected \"{OPENCL_TOOL}\" or \"{SERIAL_TOOL}\"")


def unique_labels(sources):
    """Appends the file name to labels that two inputs share, the whole path where the names
    are the same too."""
    shared = [s for s in sources if sum(t.label == s.label for t in sources) > 1]
    for s in shared:
        name = os.path.basename(s.path)
        same_name = sum(os.path.basename(t.path) == name and t.label == s.label for t in shared)
        s.label = f"{s.label} [{s.path if same_name > 1 else name}]"


# ---- numbers and tables -------------------------------------------------------------------


def fmt(value):
    """Two significant digits, x.xe+yy; '—' for None."""
    return "—" if value is None else f"{value:.1e}"


def fmt_percent(fraction):
    """A fraction as a percentage to two significant digits without an exponent (4.7 %, 47 %,
    150 %); '—' for None."""
    if fraction is None:
        return "—"
    percent = 100 * fraction
    if percent == 0:
        return "0 %"
    digits = 1 - math.floor(math.log10(abs(percent)))
    return f"{round(percent, digits):.{max(0, digits)}f} %"


@dataclass
class Table:
    title: str
    header: list
    rows: list
    note: str = ""


def render_text(table):
    widths = [max(len(str(row[i])) for row in [table.header] + table.rows)
              for i in range(len(table.header))]
    lines = [table.title]
    if table.note:
        lines.append(table.note)
    for k, row in enumerate([table.header] + table.rows):
        lines.append("  ".join(str(c).rjust(w) if i else str(c).ljust(w)
                               for i, (c, w) in enumerate(zip(row, widths))).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def render_markdown(table):
    lines = [f"**{table.title}**", ""]
    if table.note:
        lines += [table.note, ""]
    lines.append("| " + " | ".join(table.header) + " |")
    lines.append("|" + "---|" * len(table.header))
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in table.rows]
    return "\n".join(lines)


def modes_in_order(sources, first):
    present = {r.mode for s in sources for r in s.results}
    return [m for m in [first] + [m for m in MODES if m != first] if m in present]


def columns_of(source, pipeline, mode, precisions):
    """(engine, precision) pairs with at least one result of the pipeline and mode."""
    have = {(r.engine, r.precision) for r in source.results
            if r.pipeline == pipeline and r.mode == mode}
    return [(e, p) for e in source.engines() for p in precisions if (e, p) in have]


def cell_status(source, pipeline, engine, n, precision, mode):
    """'skipped'/'failed' when the case has results but none ok, else None."""
    statuses = {r.status for r in source.results
                if (r.pipeline, r.engine, r.n, r.precision, r.mode)
                == (pipeline, engine, n, precision, mode)}
    if not statuses:
        return "—"
    return "failed" if "failed" in statuses else "skipped"


def rate_tables(sources, modes):
    tables = []
    for mode in modes:
        for s in sources:
            columns = columns_of(s, "me", mode, ("float", "double"))
            if not columns:
                continue
            ns = sorted({r.n for r in s.results if r.pipeline == "me" and r.mode == mode})
            rows = []
            for n in ns:
                row = [str(n)]
                for e, p in columns:
                    r = s.best("me", e, n, p, mode, "kernel")
                    if r is None:
                        row.append(cell_status(s, "me", e, n, p, mode))
                    elif s.is_serial:
                        row.append(fmt(r.kernel_rate))
                    else:
                        row.append(f"{fmt(r.kernel_rate)} ({fmt(r.end_to_end_rate)})")
                rows.append(row)
            what = "events/s" if s.is_serial else "events/s, kernel (end-to-end)"
            tables.append(Table(f"{s.label}: {mode} |M|^2 {what}",
                                ["n"] + [f"{e} {p}" for e, p in columns], rows,
                                f"{s.path}; {s.description}"))
    return tables


def speedup_tables(sources, modes):
    """Per GPU and mode: speed-up over the serial core (over each PoCL device in brackets)."""
    serial = [s for s in sources if s.is_serial]
    pocl = [s for s in sources if s.is_cpu and not s.is_serial]
    if not serial and not pocl:
        return []
    tables = []
    for mode in modes:
        for g in (s for s in sources if s.is_gpu):
            columns = columns_of(g, "me", mode, ("float", "double"))
            ns = sorted({r.n for r in g.results if r.mode == mode and r.pipeline == "me"})
            rows = []
            for n in ns:
                row = [str(n)]
                for e, p in columns:
                    r = g.best("me", e, n, p, mode, "kernel")
                    parts = []
                    for refs in (serial, pocl):
                        for c in refs:
                            ref = c.best("me", e, n, p, mode, "kernel")
                            parts.append(fmt(r.kernel_rate / ref.kernel_rate)
                                         if r and ref else "—")
                    main = parts[:len(serial)]
                    bracket = parts[len(serial):]
                    text = " ".join(main)
                    if bracket:
                        text += (" " if main else "") + "(" + " ".join(bracket) + ")"
                    row.append("—" if set(parts) == {"—"} else text)
                if any(c != "—" for c in row[1:]):
                    rows.append(row)
            if not rows:
                continue
            refs = ([f"over {c.label}" for c in serial]
                    + [f"(over {c.label})" for c in pocl])
            tables.append(Table(f"{g.label}: {mode} speed-up, kernel time",
                                ["n"] + [f"{e} {p}" for e, p in columns], rows,
                                "cells: " + " ".join(refs)
                                + "; same engine, precision and mode"))
    return tables


def pipeline_tables(sources):
    tables = []
    for s in sources:
        full = [r for r in s.results if r.pipeline == "full"]
        if not full:
            continue
        keys = sorted({(r.engine, r.precision, r.mode) for r in full},
                      key=lambda k: (order_engines({r.engine for r in full}).index(k[0]),
                                     PRECISIONS.index(k[1]), MODES.index(k[2])))
        rows = []
        for n in sorted({r.n for r in full}):
            row = [str(n)]
            for e, p, m in keys:
                r = s.best("full", e, n, p, m, "end-to-end")
                if r is None:
                    row.append(cell_status(s, "full", e, n, p, m))
                    continue
                me = s.best("me", e, n, "float" if p == "mixed" else p, m, "kernel")
                ratio = me.kernel_rate / r.end_to_end_rate if me else None
                row.append(f"{fmt(r.end_to_end_rate)} ({fmt(ratio)})")
            rows.append(row)
        tables.append(Table(f"{s.label}: full pipeline, events/s end-to-end (time / ME kernel "
                            "time)", ["n"] + [f"{e} {p} {m}" for e, p, m in keys], rows,
                            "mixed is compared with the float ME kernel"))
    return tables


def flop_tables(sources):
    tables = []
    for s in sources:
        flop = [r for r in s.results if r.status == "ok" and r.flops_per_event is not None]
        if not flop:
            continue
        rows = []
        seen = set()
        for r in sorted(flop, key=lambda r: (MODES.index(r.mode),
                                             order_engines({x.engine for x in flop})
                                             .index(r.engine), r.n, PRECISIONS.index(r.precision))):
            key = (r.pipeline, r.engine, r.n, r.precision, r.mode)
            if key in seen:
                continue
            seen.add(key)
            best = s.best(*key, "kernel")
            rows.append([r.mode, r.engine, str(r.n), r.precision, fmt(best.flops_per_event),
                         fmt(best.kernel_tflops), fmt_percent(best.peak_fraction)])
        peak = ", ".join(f"{k} {fmt(v)}" for k, v in s.peak_tflops.items()) or "unknown"
        tables.append(Table(f"{s.label}: floating-point operations (ME kernel)",
                            ["mode", "engine", "n", "precision", "FLOP/event", "TFLOP/s",
                             "% of peak"], rows, f"peak TFLOP/s: {peak}"))
    return tables


def scan_tables(sources):
    """Per device, the cases run at several work-group sizes: sizes tried and the best one."""
    tables = []
    for s in sources:
        groups = {}
        for r in s.results:
            if r.status == "ok" and r.local_size is not None:
                key = (r.pipeline, r.engine, r.n, r.precision, r.mode)
                groups.setdefault(key, []).append(r)
        rows = []
        for key, rs in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][4], kv[0][1],
                                                              kv[0][2], kv[0][3])):
            if len({(r.local_size, r.register_limit) for r in rs}) < 2:
                continue
            kind = "kernel" if key[0] == "me" else "end-to-end"
            best = max(rs, key=lambda r: r.rate(kind))
            worst = min(rs, key=lambda r: r.rate(kind))
            sizes = sorted({r.local_size for r in rs})
            limits = sorted({r.register_limit for r in rs})
            rows.append([key[0], key[4], key[1], str(key[2]), key[3],
                         ",".join(map(str, sizes)), ",".join(map(str, limits)),
                         str(best.local_size), str(best.register_limit),
                         fmt(best.rate(kind)), fmt(best.rate(kind) / worst.rate(kind))])
        if rows:
            tables.append(Table(f"{s.label}: work-group-size scans",
                                ["pipeline", "mode", "engine", "n", "precision", "local sizes",
                                 "register caps", "best size", "best cap", "best events/s",
                                 "best / worst"], rows,
                                "register cap 0 = compiler default; events/s kernel (ME) or "
                                "end-to-end (full)"))
    return tables


def not_ok_table(sources):
    rows = []
    for s in sources:
        for r in s.results:
            if r.status != "ok":
                # The launch settings matter only where the case was run with several.
                settings = {(x.local_size, x.register_limit) for x in s.results
                            if (x.pipeline, x.engine, x.n, x.precision, x.mode)
                            == (r.pipeline, r.engine, r.n, r.precision, r.mode)}
                extra = []
                if len(settings) > 1 and r.local_size is not None:
                    extra.append(f"local size {r.local_size}")
                if len(settings) > 1 or r.register_limit:
                    extra.append(f"register cap {r.register_limit or 'default'}")
                rows.append([s.label, r.pipeline, r.engine, str(r.n), r.precision, r.mode,
                             r.status, (r.reason or "no reason given")
                             + (f" ({', '.join(extra)})" if extra else "")])
    if not rows:
        return []
    return [Table("results not ok (left out of the figures)",
                  ["device", "pipeline", "engine", "n", "precision", "mode", "status",
                   "reason"], rows)]


# ---- figures ------------------------------------------------------------------------------


class Figures:
    """Draws the figures; each method returns the path written, or None with a reason given by
    skip()."""

    def __init__(self, sources, args):
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import mplhep

        plt.style.use(mplhep.style.ROOT)
        self.plt = plt
        self.sources = sources
        self.args = args
        self.kind = "kernel" if args.rate == "kernel" else "end-to-end"
        self.rate_word = "kernel" if args.rate == "kernel" else "end-to-end"
        # Known engines keep their colour whichever are present, so figures compare across runs.
        engines = order_engines(set(ENGINE_ORDER) | {r.engine for s in sources for r in s.results})
        palette = plt.rcParams["axes.prop_cycle"].by_key()["color"]
        self.engine_colour = {e: palette[i % len(palette)] for i, e in enumerate(engines)}
        device_palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2",
                          "#ff7f0e", "#17becf"]
        # (line styles, markers) per kind of device, cycled over the files of that kind: GPUs
        # solid or dotted, OpenCL CPU devices (PoCL) dash-dotted, the serial core dashed.
        kinds = {"gpu": (["-", ":", (0, (5, 1, 1, 1)), (0, (1, 3))], ["o", "s", "D", "v", "P"]),
                 "cpu": (["-.", (0, (3, 1, 1, 1, 1, 1))], ["x", "+", "*"]),
                 "serial": (["--", (0, (6, 2))], ["^", "v", "<"])}
        counts = {kind: 0 for kind in kinds}
        self.style = {}  # id(source) -> dict(linestyle, marker, colour)
        for i, s in enumerate(sources):
            kind = "serial" if s.is_serial else "cpu" if s.is_cpu else "gpu"
            lines, markers = kinds[kind]
            k = counts[kind]
            counts[kind] += 1
            style = dict(linestyle=lines[k % len(lines)], marker=markers[k % len(markers)],
                         colour=device_palette[i % len(device_palette)])
            self.style[id(s)] = style

    # -- helpers --

    def skip(self, name, why):
        print(f"{PROG}: skipping {name}: {why}", file=sys.stderr)

    def new(self, rows, columns, width=7.5, height=6.0, sharey=False):
        figure, axes = self.plt.subplots(rows, columns, figsize=(width * columns, height * rows),
                                         squeeze=False, sharey=sharey)
        figure.subplots_adjust(wspace=0.12 if sharey else 0.32, hspace=0.38)
        return figure, axes

    def plain_log_labels(self, axis):
        """On a log y axis spanning less than two decades, labels as plain numbers (30, 40)
        instead of matplotlib's 3 x 10^1 on the minor ticks."""
        from matplotlib.ticker import FuncFormatter

        low, high = axis.get_ylim()
        if axis.get_yscale() != "log" or not 0 < low < high < 100 * low:
            return
        every = high < 3 * low  # narrow: label every minor tick, else 1, 2, 3, 5 times 10^k

        def label(value, _):
            mantissa = value / 10 ** math.floor(math.log10(value) + 1e-9)
            if every or min(abs(mantissa - m) for m in (1, 2, 3, 5)) < 1e-6:
                return f"{value:g}"
            return ""

        axis.yaxis.set_major_formatter(FuncFormatter(label))
        axis.yaxis.set_minor_formatter(FuncFormatter(label))

    def save(self, figure, name):
        target = os.path.join(self.args.out, name)
        temporary = os.path.join(self.args.out, f".{name}.{os.getpid()}.tmp")
        try:
            figure.savefig(temporary, format="png", bbox_inches="tight", dpi=100)
            os.replace(temporary, target)
        except OSError as error:
            raise InputError(f"{target}: cannot be written: {error}") from None
        finally:
            self.plt.close(figure)
        return target

    def line(self, axis, xs, ys, colour, linestyle, marker, label=None):
        axis.plot(xs, ys, color=colour, linestyle=linestyle, marker=marker, markersize=6,
                  linewidth=1.6, label=label, fillstyle="none" if marker not in "x+" else "full")

    def proxy(self, label, colour="black", linestyle="-", marker=None):
        from matplotlib.lines import Line2D

        return Line2D([], [], color=colour, linestyle=linestyle, marker=marker,
                      fillstyle="none", label=label)

    def legend(self, figure, sections):
        """A figure legend right of the panels: sections = [(heading, [handles])]."""
        handles, headings = [], []
        for heading, entries in sections:
            if not entries:
                continue
            if heading:
                headings.append(len(handles))
                handles.append(self.proxy(heading, colour="none"))
            handles.extend(entries)
        leg = figure.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 0.95),
                            fontsize="x-small", frameon=False, handlelength=2.6)
        for i in headings:
            leg.get_texts()[i].set_fontweight("bold")

    def device_handle(self, s, with_colour=False):
        st = self.style[id(s)]
        return self.proxy(s.label, st["colour"] if with_colour else "black", st["linestyle"],
                          st["marker"])

    def engine_handles(self, engines):
        return [self.proxy(e, self.engine_colour[e]) for e in engines]

    def n_axis(self, axis):
        from matplotlib.ticker import MaxNLocator

        axis.xaxis.set_major_locator(MaxNLocator(integer=True))
        axis.xaxis.set_minor_locator(MaxNLocator(integer=True, nbins=40))
        axis.set_xlabel("number of photons $n$")

    def ratio_scale(self, axis, values):
        """Log y when the ratios span more than a decade."""
        positive = [v for v in values if v > 0]
        if positive and max(positive) > 10 * min(positive):
            axis.set_yscale("log")
            self.plain_log_labels(axis)

    def ratio_panel(self, axis, title):
        """A panel of ratios over n: the line at 1, its title, the n axis and the grid."""
        axis.axhline(1.0, color="black", linewidth=1, linestyle="--")
        axis.set_title(title, fontsize="small")
        self.n_axis(axis)
        axis.grid(True, which="major", alpha=0.3)

    def ratio_panels_done(self, figure, axes, values, ylabel, title_extra):
        """A row of ratio panels sharing their y scale, labelled and titled."""
        for axis in axes[0]:
            self.ratio_scale(axis, values)
        axes[0][0].set_ylabel(ylabel)
        self.suptitle(figure, self.title(title_extra))

    def skip_figure(self, figure, name, why):
        """Drops a figure nothing was drawn in, and says why."""
        self.plt.close(figure)
        return self.skip(name, why)

    def suptitle(self, figure, text):
        """The figure's title, above the panels at the left."""
        figure.suptitle(text, x=0.06, y=1.0, ha="left", va="bottom", fontsize="medium")

    def title(self, extra=""):
        return (f"hegetcl, $u\\bar{{u}} \\to n\\gamma$, {self.args.mode} |M|$^2$"
                + (f", {extra}" if extra else ""))

    # -- figures --

    def time_per_event(self):
        name, mode = "time_per_event.png", self.args.mode
        figure, axes = self.new(1, 2, sharey=True)
        drawn, engines, devices = False, set(), []
        for axis, precision in zip(axes[0], ("float", "double")):
            for s in self.sources:
                st = self.style[id(s)]
                for e in s.engines():
                    rates = s.rates("me", e, precision, mode, self.kind)
                    if not rates:
                        continue
                    self.line(axis, list(rates), [1 / v for v in rates.values()],
                              self.engine_colour[e], st["linestyle"], st["marker"])
                    drawn = True
                    engines.add(e)
                    if s not in devices:
                        devices.append(s)
            axis.set_yscale("log")
            axis.set_title(f"{precision}", fontsize="small")
            self.n_axis(axis)
            axis.grid(True, which="major", alpha=0.3)
        if not drawn:
            self.plt.close(figure)
            return self.skip(name, f"no ok float or double ME results in mode {mode}")
        axes[0][0].set_ylabel("time per event [s]")
        self.suptitle(figure, self.title(f"{self.rate_word} time"))
        self.legend(figure, [("engine", self.engine_handles(order_engines(engines))),
                             ("device", [self.device_handle(s) for s in devices])])
        return self.save(figure, name)

    def speedup_over_cpu(self):
        name, mode = "speedup_over_cpu.png", self.args.mode
        gpus = [s for s in self.sources if s.is_gpu]
        references = ([s for s in self.sources if s.is_serial]
                      + [s for s in self.sources if s.is_cpu and not s.is_serial])
        if not gpus or not references:
            return self.skip(name, "needs a GPU file and a serial or PoCL CPU file")
        precisions = ("float", "double")
        figure, axes = self.new(len(references), 2, height=5.5)
        drawn, engines, devices = False, set(), []
        for row, ref in enumerate(references):
            for column, precision in enumerate(precisions):
                axis = axes[row][column]
                here = False
                for g in gpus:
                    st = self.style[id(g)]
                    for e in g.engines():
                        mine = g.rates("me", e, precision, mode, self.kind)
                        theirs = ref.rates("me", e, precision, mode, self.kind)
                        ns = [n for n in mine if n in theirs]
                        if not ns:
                            continue
                        self.line(axis, ns, [mine[n] / theirs[n] for n in ns],
                                  self.engine_colour[e], st["linestyle"], st["marker"])
                        here = drawn = True
                        engines.add(e)
                        if g not in devices:
                            devices.append(g)
                if ref.is_serial:
                    axis.axhspan(*PAPER_SPEEDUP, color="gold", alpha=0.3, zorder=0)
                if not here:
                    axis.text(0.5, 0.5, f"no {precision} results\nin common with\n{ref.label}",
                              transform=axis.transAxes, ha="center", va="center",
                              fontsize="x-small")
                axis.set_yscale("log")
                self.plain_log_labels(axis)
                axis.set_title(f"{precision}, GPU vs {ref.label}", fontsize="xx-small")
                if column == 0:
                    what = "1 core" if ref.is_serial else "PoCL"
                    axis.set_ylabel(f"speed-up over {what}")
                self.n_axis(axis)
                axis.grid(True, which="major", alpha=0.3)
        if not drawn:
            self.plt.close(figure)
            return self.skip(name, f"no (engine, n, precision, mode {mode}) case run both on a "
                             "GPU and on a CPU")
        self.suptitle(figure, self.title(f"{self.rate_word} time, same engine"))
        from matplotlib.patches import Patch

        band = ([Patch(color="gold", alpha=0.3, label="HEGET paper: 40–150× over one core")]
                if any(r.is_serial for r in references) else [])
        self.legend(figure, [("engine", self.engine_handles(order_engines(engines))),
                             ("GPU", [self.device_handle(g) for g in devices]),
                             ("", band)])
        return self.save(figure, name)

    def double_over_single(self):
        name, mode = "double_over_single.png", self.args.mode
        figure, axes = self.new(1, 1, width=9)
        axis = axes[0][0]
        values, engines, devices = [], set(), []
        for s in self.sources:
            st = self.style[id(s)]
            for e in s.engines():
                single = s.rates("me", e, "float", mode, self.kind)
                double = s.rates("me", e, "double", mode, self.kind)
                ns = [n for n in single if n in double]
                if not ns:
                    continue
                ratio = [single[n] / double[n] for n in ns]
                self.line(axis, ns, ratio, self.engine_colour[e], st["linestyle"], st["marker"])
                values += ratio
                engines.add(e)
                if s not in devices:
                    devices.append(s)
        if not values:
            self.plt.close(figure)
            return self.skip(name, f"no case run in both float and double (mode {mode})")
        axis.axhline(1.0, color="black", linewidth=1, linestyle="--")
        self.ratio_scale(axis, values)
        axis.set_ylabel("time per event, double / float")
        self.suptitle(figure, self.title(f"{self.rate_word} time"))
        self.n_axis(axis)
        axis.grid(True, which="major", alpha=0.3)
        self.legend(figure, [("engine", self.engine_handles(order_engines(engines))),
                             ("device", [self.device_handle(s) for s in devices])])
        return self.save(figure, name)

    def unrolling(self):
        name, mode = "unrolling.png", self.args.mode
        figure, axes = self.new(1, 2, sharey=True)
        values, devices = [], []
        for axis, precision in zip(axes[0], ("float", "double")):
            for s in self.sources:
                st = self.style[id(s)]
                permutation = s.rates("me", "permutation", precision, mode, self.kind)
                unrolled = s.rates("me", "unrolled", precision, mode, self.kind)
                ns = [n for n in permutation if n in unrolled]
                if not ns:
                    continue
                ratio = [unrolled[n] / permutation[n] for n in ns]
                self.line(axis, ns, ratio, st["colour"], st["linestyle"], st["marker"])
                values += ratio
                if s not in devices:
                    devices.append(s)
            self.ratio_panel(axis, precision)
        if not values:
            return self.skip_figure(figure, name, f"no case run with both the permutation and "
                                    f"the unrolled engine (mode {mode})")
        self.ratio_panels_done(figure, axes, values, "time, permutation / unrolled",
                               f"{self.rate_word} time")
        self.legend(figure, [("device", [self.device_handle(s, True) for s in devices])])
        return self.save(figure, name)

    def local_size_scan(self):
        name, mode, scan_n = "local_size_scan.png", self.args.mode, self.args.scan_n
        panels = []  # (source, {(engine, precision, register_limit): {local_size: rate}})
        for s in self.sources:
            if s.is_serial:
                continue
            lines = {}
            for r in s.results:
                if (r.status == "ok" and r.pipeline == "me" and r.n == scan_n and r.mode == mode
                        and r.local_size is not None):
                    key = (r.engine, r.precision, r.register_limit)
                    rate = r.rate(self.kind)
                    sizes = lines.setdefault(key, {})
                    sizes[r.local_size] = max(rate, sizes.get(r.local_size, 0))
            lines = {k: v for k, v in lines.items() if len(v) > 1}
            if lines:
                panels.append((s, lines))
        if not panels:
            return self.skip(name, f"no file holds ME results at n = {scan_n} (mode {mode}) for "
                             "more than one local size")
        figure, axes = self.new(1, len(panels))
        engines, limits, sizes_all = set(), set(), set()
        precision_style = {"float": "-", "double": "--"}
        markers = ["o", "s", "^", "D", "v", "P"]
        all_limits = sorted({k[2] for _, lines in panels for k in lines})
        limit_marker = {lim: markers[i % len(markers)] for i, lim in enumerate(all_limits)}
        for axis, (s, lines) in zip(axes[0], panels):
            for (e, p, lim), by_size in sorted(lines.items(), key=lambda kv: (
                    order_engines(set(k[0] for k in lines)).index(kv[0][0]), kv[0][1], kv[0][2])):
                xs = sorted(by_size)
                self.line(axis, xs, [1 / by_size[x] for x in xs], self.engine_colour[e],
                          precision_style.get(p, ":"), limit_marker[lim])
                engines.add(e)
                limits.add(lim)
                sizes_all.update(xs)
            axis.set_xscale("log", base=2)
            axis.set_yscale("log")
            axis.set_xlabel("work-group size (local size)")
            axis.set_title(s.label, fontsize="x-small")
            axis.grid(True, which="major", alpha=0.3)
        from matplotlib.ticker import FixedLocator, NullLocator, ScalarFormatter

        for axis in axes[0]:
            axis.xaxis.set_major_locator(FixedLocator(sorted(sizes_all)))
            axis.xaxis.set_minor_locator(NullLocator())
            axis.xaxis.set_major_formatter(ScalarFormatter())
            axis.tick_params(axis="x", labelsize="x-small")
        axes[0][0].set_ylabel("time per event [s]")
        self.suptitle(figure, self.title(f"$n = {scan_n}$, {self.rate_word} time"))
        self.legend(figure, [
            ("engine", self.engine_handles(order_engines(engines))),
            ("precision", [self.proxy(p, linestyle=st) for p, st in precision_style.items()]),
            ("register cap", [self.proxy("compiler default" if lim == 0 else f"{lim} registers",
                                         linestyle="none", marker=limit_marker[lim])
                              for lim in sorted(limits)])])
        return self.save(figure, name)

    def devices(self):
        name, mode = "devices.png", self.args.mode
        gpus = [s for s in self.sources if s.is_gpu]
        if len(gpus) < 2:
            return self.skip(name, "needs two or more GPU files")
        first, others = gpus[0], gpus[1:]
        figure, axes = self.new(1, 2, sharey=True)
        values, engines, pairs = [], set(), []
        for axis, precision in zip(axes[0], ("float", "double")):
            for other in others:
                st = self.style[id(other)]
                for e in order_engines(set(first.engines()) & set(other.engines())):
                    mine = first.rates("me", e, precision, mode, self.kind)
                    theirs = other.rates("me", e, precision, mode, self.kind)
                    ns = [n for n in mine if n in theirs]
                    if not ns:
                        continue
                    ratio = [mine[n] / theirs[n] for n in ns]
                    self.line(axis, ns, ratio, self.engine_colour[e], st["linestyle"],
                              st["marker"])
                    values += ratio
                    engines.add(e)
                    if other not in pairs:
                        pairs.append(other)
            self.ratio_panel(axis, precision)
        if not values:
            return self.skip_figure(figure, name, f"the GPU files have no (engine, n, precision) "
                                    f"case in common (mode {mode})")
        self.ratio_panels_done(figure, axes, values, f"events/s: {first.label} / other",
                               f"{self.rate_word} rate")
        st = self.style
        self.legend(figure, [
            ("engine", self.engine_handles(order_engines(engines))),
            ("ratio", [self.proxy(f"{first.label} / {o.label}", "black",
                                  st[id(o)]["linestyle"], st[id(o)]["marker"])
                       for o in pairs])])
        return self.save(figure, name)

    def pipeline_over_me(self):
        name = "pipeline_over_me.png"
        panels = []
        for s in self.sources:
            lines = {}
            for r in s.results:
                if r.pipeline != "full" or r.status != "ok":
                    continue
                key = (r.engine, r.precision, r.mode)
                if key in lines:
                    continue
                full = s.rates("full", *key, "end-to-end")
                me = s.rates("me", r.engine, "float" if r.precision == "mixed" else r.precision,
                             r.mode, "kernel")
                ns = [n for n in full if n in me]
                if ns:
                    lines[key] = (ns, [me[n] / full[n] for n in ns])
            if lines:
                panels.append((s, lines))
        if not panels:
            return self.skip(name, "no file holds full-pipeline results with the matching ME "
                             "kernel results")
        figure, axes = self.new(1, len(panels), sharey=True)
        precision_style = {"float": "-", "double": "--", "mixed": "-."}
        mode_marker = {"summed": "o", "helicity": "s"}
        engines, precisions, modes, values = set(), set(), set(), []
        for axis, (s, lines) in zip(axes[0], panels):
            for (e, p, m), (ns, ratio) in lines.items():
                self.line(axis, ns, ratio, self.engine_colour[e], precision_style[p],
                          mode_marker[m])
                engines.add(e)
                precisions.add(p)
                modes.add(m)
                values += ratio
            axis.axhline(PIPELINE_TARGET, color="black", linewidth=1.2, linestyle=(0, (2, 2)))
            axis.set_title(s.label, fontsize="x-small")
            self.n_axis(axis)
            axis.grid(True, which="major", alpha=0.3)
        for axis in axes[0]:
            self.ratio_scale(axis, values + [PIPELINE_TARGET])
            if axis.get_yscale() == "linear":
                axis.set_ylim(bottom=min(0.9, min(values) * 0.95))
        axes[0][0].set_ylabel("time, full pipeline / ME kernel")
        self.suptitle(figure, "hegetcl, $u\\bar{u} \\to n\\gamma$, end-to-end full pipeline over "
                             "ME kernel")
        self.legend(figure, [
            ("engine", self.engine_handles(order_engines(engines))),
            ("precision", [self.proxy(p + (" (vs float ME)" if p == "mixed" else ""),
                                      linestyle=precision_style[p])
                           for p in PRECISIONS if p in precisions]),
            ("mode", [self.proxy(m, linestyle="none", marker=mode_marker[m])
                      for m in MODES if m in modes]),
            ("", [self.proxy(f"{PIPELINE_TARGET} (target)", linestyle=(0, (2, 2)))])])
        return self.save(figure, name)


# ---- main ---------------------------------------------------------------------------------


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog=PROG, description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.split("\n")[2:]))
    parser.add_argument("files", nargs="+", metavar="FILE.json")
    parser.add_argument("--out", required=True, metavar="DIR")
    parser.add_argument("--mode", choices=MODES, default="summed")
    parser.add_argument("--rate", choices=("kernel", "end-to-end"), default="kernel")
    parser.add_argument("--scan-n", type=int, default=5, metavar="N")
    parser.add_argument("--markdown", metavar="FILE")
    args = parser.parse_args(argv)
    try:
        run(args)
    except InputError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    return 0


def run(args):
    """Reads every input, prints the report, writes the tables and figures."""
    sources = [read_source(path) for path in args.files]
    unique_labels(sources)
    modes = modes_in_order(sources, args.mode)
    tables = (rate_tables(sources, modes) + speedup_tables(sources, modes)
              + pipeline_tables(sources) + flop_tables(sources) + scan_tables(sources)
              + not_ok_table(sources))
    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as error:
        raise InputError(f"--out {args.out}: cannot be created: {error}") from None
    print("\n\n".join(render_text(t) for t in tables))
    if args.markdown:
        write_atomically(args.markdown, "\n\n".join(render_markdown(t) for t in tables) + "\n")
        print(f"{PROG}: wrote {args.markdown}", file=sys.stderr)
    figures = Figures(sources, args)
    for draw in (figures.time_per_event, figures.speedup_over_cpu, figures.double_over_single,
                 figures.unrolling, figures.local_size_scan, figures.devices,
                 figures.pipeline_over_me):
        written = draw()
        if written:
            print(f"{PROG}: wrote {written}", file=sys.stderr)


def write_atomically(path, text):
    """Writes text to path through a temporary name renamed when complete."""
    directory = os.path.dirname(os.path.abspath(path))
    temporary = os.path.join(directory, f".{os.path.basename(path)}.{os.getpid()}.tmp")
    try:
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temporary, path)
    except OSError as error:
        try:
            os.remove(temporary)
        except OSError:
            pass
        raise InputError(f"--markdown {path}: cannot be written: {error}") from None


if __name__ == "__main__":
    sys.exit(main())
