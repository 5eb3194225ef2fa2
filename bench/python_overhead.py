#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The overhead of a Python call against the C call: |M|^2 of one batch (10^6 events by default)
on one device, through the C API and through the Python package, same momenta, same device.

For each process and precision it runs the C half (``bench/python-overhead-c`` in the build
folder: ``hegetcl_amplitude_evaluate_events``, the function ``bindings/python/_core.c`` calls), which
writes its RAMBO points and its |M|^2 to temporary files, then times in this interpreter, on
those points and with the engine the C half used (the C library's choice for the process
unless ``--engine`` names one):

- ``hegetcl.matrix_element(process, momenta)``: the public API (numpy momenta of shape
  (events, particles, 4), a new output array each call, the momenta checked as ``hegetcl me``
  checks them), and the same with ``check=False``; needs numpy;
- ``_core.evaluate(amplitude, momenta, None, me)``: the extension alone, with stdlib
  ``array('d')`` buffers made once (what the public API does minus its checks and allocation);
- or, where the extension could not be built (no Python.h) or not loaded (another
  interpreter's), the same C function through ctypes on libhegetcl.so, reported as such.

Each variant's values are compared with the C call's bit for bit. Program build, context
creation and the first call (device buffers) are timed apart; the timed calls are ``--repeats``
after it, the Python variants interleaved. Prints a table and writes JSON.

Usage (bench/python_overhead.sh builds the folder and calls this)::

    python3 bench/python_overhead.py --build build-overhead --device gpu --events 1000000
"""
from __future__ import annotations

import argparse
import array
import ctypes
import glob
import importlib.machinery
import importlib.util
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE_SOURCE = os.path.join(ROOT, "bindings", "python", "hegetcl")
DEFAULT_PROCESSES = ["u u~ > a a a a", "g g > t t~ g"]
DEFAULT_ALPHA = 1.0 / 132.507  # as hegetcl.matrix_element's default and the C default


def load_module(name: str, path: str, search: Optional[List[str]] = None):
    """Imports the file at path as module name (a package when search lists its folders)."""
    spec = importlib.util.spec_from_file_location(name, path, submodule_search_locations=search)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


class Bindings:
    """What this interpreter can call: the extension _core (or ctypes), and the package."""

    def __init__(self, build: str, binding: str, use_numpy: bool):
        self.notes: List[str] = []
        self.kind = ""
        self.core: Any = None
        self.package: Any = None
        self.numpy: Any = None
        # _process.py needs nothing but the standard library: the same process mapping as
        # hegetcl.matrix_element's
        self.process_module = load_module("hegetcl_overhead_process",
                                          os.path.join(PACKAGE_SOURCE, "_process.py"))
        cores = sorted(glob.glob(os.path.join(build, "bindings", "python", "_core*.so")))
        suffixes = importlib.machinery.EXTENSION_SUFFIXES
        loadable = [c for c in cores if any(c.endswith(s) for s in suffixes)]
        if binding in ("auto", "extension"):
            if not cores:
                self.notes.append(f"no extension in {build}/python (configured with "
                                  f"-Dpython=false, e.g. for want of Python.h)")
            elif not loadable:
                self.notes.append(f"{os.path.basename(cores[0])} is for another interpreter "
                                  f"than {sys.executable} (suffixes {suffixes})")
            else:
                self._load_extension(loadable[0], use_numpy)
        if self.core is None:
            if binding == "extension":
                raise SystemExit("python_overhead.py: error: --binding extension: "
                                 + "; ".join(self.notes))
            self.core = CtypesCore(build)
            self.kind = "ctypes"
            self.notes.append("the C function called through ctypes on libhegetcl.so instead "
                              "of the extension: not the package's path")

    def _load_extension(self, path: str, use_numpy: bool) -> None:
        if use_numpy:
            try:
                import numpy
                self.numpy = numpy
            except ImportError as failure:
                self.notes.append(f"numpy is not importable ({failure}): "
                                  f"hegetcl.matrix_element not timed")
        else:
            self.notes.append("--no-numpy: hegetcl.matrix_element not timed")
        if self.numpy is not None:
            # the package from the source tree with the built extension: hegetcl.__path__ holds
            # both folders, so its `from . import _core` finds the build's file
            self.package = load_module("hegetcl", os.path.join(PACKAGE_SOURCE, "__init__.py"),
                                       [PACKAGE_SOURCE, os.path.dirname(path)])
            self.core = self.package._core
        else:
            self.core = load_module("hegetcl._core", path)
        self.kind = "extension"
        self.core_path = path


class CtypesCore:
    """_core's three calls on libhegetcl.so through ctypes, for a machine where the extension
    cannot be built. hegetcl_process mirrors include/hegetcl/amplitude.h by hand."""

    class Process(ctypes.Structure):
        _fields_ = [("n_photons", ctypes.c_uint), ("engine", ctypes.c_int),
                    ("precision", ctypes.c_int), ("alpha", ctypes.c_double),
                    ("quark_charge", ctypes.c_double), ("text", ctypes.c_char_p),
                    ("alpha_s", ctypes.c_double), ("top_mass", ctypes.c_double),
                    ("top_width", ctypes.c_double), ("width_scheme", ctypes.c_int)]

    def __init__(self, build: str):
        libs = sorted(glob.glob(os.path.join(build, "libhegetcl.so.*.*")))
        if not libs:
            raise SystemExit(f"python_overhead.py: error: no libhegetcl.so in {build}: build it "
                             f"(ninja -C {build} libhegetcl.so.<version>)")
        lib = self.lib = ctypes.CDLL(libs[0])
        vp, sz = ctypes.c_void_p, ctypes.c_size_t
        lib.hegetcl_context_create.argtypes = [ctypes.c_char_p, ctypes.POINTER(vp)]
        lib.hegetcl_last_error.argtypes = [vp]
        lib.hegetcl_last_error.restype = ctypes.c_char_p
        lib.hegetcl_status_name.argtypes = [ctypes.c_int]
        lib.hegetcl_status_name.restype = ctypes.c_char_p
        lib.hegetcl_process_from_text.argtypes = [ctypes.POINTER(self.Process), ctypes.c_char_p,
                                                  ctypes.c_char_p, sz]
        lib.hegetcl_precision_parse.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)]
        lib.hegetcl_engine_parse.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)]
        lib.hegetcl_amplitude_create.argtypes = [vp, ctypes.POINTER(self.Process),
                                                 ctypes.POINTER(vp)]
        lib.hegetcl_amplitude_evaluate_events.argtypes = [vp, sz, vp, vp, vp]
        lib.hegetcl_amplitude_destroy.argtypes = [vp]
        lib.hegetcl_context_destroy.argtypes = [vp]
        self._keep: List[Any] = []  # process texts and structs the amplitudes point to

    def _check(self, status: int, ctx: Any) -> None:
        if status != 0:
            raise RuntimeError(f"{self.lib.hegetcl_last_error(ctx).decode()} "
                               f"({self.lib.hegetcl_status_name(status).decode()})")

    def context(self, spec: Optional[str]) -> Any:
        ctx = ctypes.c_void_p()
        status = self.lib.hegetcl_context_create(spec.encode() if spec else None,
                                                 ctypes.byref(ctx))
        self._check(status, ctx)
        return ctx

    def amplitude_from_text(self, ctx: Any, text: str, engine: str,
                            precision: str) -> Tuple[Any, Any]:
        p = self.Process()
        encoded = ctypes.c_char_p(text.encode())
        message = ctypes.create_string_buffer(1024)
        if self.lib.hegetcl_process_from_text(ctypes.byref(p), encoded, message, 1024) != 0:
            raise RuntimeError(message.value.decode())
        field = ctypes.c_int()
        if self.lib.hegetcl_precision_parse(precision.encode(), ctypes.byref(field)) != 0:
            raise RuntimeError(f"precision {precision!r}: use double or float")
        p.precision = field.value
        if self.lib.hegetcl_engine_parse(engine.encode(), ctypes.byref(field)) != 0:
            raise RuntimeError(f"engine {engine!r}: use recursive, diagrams, ...")
        p.engine = field.value
        self._keep += [encoded, p]
        amp = ctypes.c_void_p()
        self._check(self.lib.hegetcl_amplitude_create(ctx, ctypes.byref(p), ctypes.byref(amp)),
                    ctx)
        return amp, ctx

    def destroy(self, handle: Tuple[Any, Any]) -> None:
        amp, ctx = handle
        self.lib.hegetcl_amplitude_destroy(amp)
        self.lib.hegetcl_context_destroy(ctx)
        self._keep.clear()

    def evaluate(self, handle: Tuple[Any, Any], momenta: array.array, helicity: None,
                 me: array.array) -> None:
        amp, ctx = handle
        status = self.lib.hegetcl_amplitude_evaluate_events(
            amp, len(me), momenta.buffer_info()[0], None, me.buffer_info()[0])
        self._check(status, ctx)


def spread(values: List[float]) -> Dict[str, Any]:
    return {"median_s": statistics.median(values), "min_s": min(values), "max_s": max(values),
            "calls_s": values}


def compare(reference: bytes, values: bytes, name: str) -> Dict[str, Any]:
    """Bit for bit: the number of events whose 8 bytes differ, and the largest relative
    difference among them."""
    a = array.array("d")
    a.frombytes(reference)
    b = array.array("d")
    b.frombytes(values)
    if reference == values:
        return {"variant": name, "identical": True, "events_differing": 0}
    if len(a) != len(b):
        return {"variant": name, "identical": False, "events_differing": abs(len(a) - len(b)),
                "note": f"{len(b)} values against the C call's {len(a)}"}
    differing = [i for i in range(len(a)) if a[i] != b[i]]
    largest = max((abs(a[i] - b[i]) / abs(a[i]) if a[i] else float("inf")) for i in differing)
    return {"variant": name, "identical": False, "events_differing": len(differing),
            "first_differing_event": differing[0], "largest_relative_difference": largest}


def run_c(args: argparse.Namespace, process: str, precision: str, engine: Optional[str],
          work: str, label: str) -> Tuple[Dict[str, Any], bytes, str]:
    """Runs the C half; returns its JSON, its |M|^2 bytes and the path of its momenta."""
    momenta_path = os.path.join(work, f"momenta_{label}.bin")
    me_path = os.path.join(work, f"me_{label}.bin")
    c_json = os.path.join(work, f"c_{label}.json")
    command = [os.path.join(args.build, "bench", "python-overhead-c"), "--process", process,
               "--precision", precision, "--events", str(args.events), "--repeats",
               str(args.repeats), "--momenta", momenta_path, "--me", me_path, "--json", c_json,
               "--sqrt-s", repr(args.sqrt_s), "--seed", str(args.seed)]
    if args.device:
        command += ["--device", args.device]
    if engine:
        command += ["--engine", engine]
    print(f"python_overhead.py: {' '.join(command)}", flush=True)
    subprocess.run(command, check=True)
    with open(c_json, encoding="utf-8") as f:
        c = json.load(f)
    with open(me_path, "rb") as f:
        me = f.read()
    os.unlink(me_path)
    return c, me, momenta_path


def run_case(args: argparse.Namespace, b: Bindings, process: str, precision: str,
             work: str) -> Dict[str, Any]:
    # The C half runs before and after the Python half (each its own process): the C calls of
    # both runs are the reference, and the difference of their medians is the drift between
    # processes, below which an overhead is not resolved.
    c, me_c, momenta_path = run_c(args, process, precision, args.engine, work, "before")
    # the engine the C library picks for the process (hegetcl_process_from_text), unless
    # --engine names one: passed to every Python variant, so that all evaluate the same code
    engine = c["engine"]
    n = c["particles"]
    momenta = array.array("d")
    with open(momenta_path, "rb") as f:
        momenta.fromfile(f, args.events * n * 4)
    os.unlink(momenta_path)

    # the arguments hegetcl.matrix_element passes to _core.amplitude for this process
    try:
        photon = b.process_module.photon_process(process)
        amplitude_args: tuple = (photon.n_photons, engine, precision, DEFAULT_ALPHA,
                                 photon.charge, "")
    except ValueError:
        amplitude_args = (2, engine, precision, DEFAULT_ALPHA, 0.0, process)

    py: Dict[str, Any] = {"binding": b.kind}
    t = time.perf_counter()
    if b.package is not None:
        ctx = b.package._context(args.device)  # the package's own cached context
    else:
        ctx = b.core.context(args.device)
    py["context_seconds"] = time.perf_counter() - t
    t = time.perf_counter()
    if b.kind == "ctypes":
        amp = b.core.amplitude_from_text(ctx, process, engine, precision)
    else:
        amp = b.core.amplitude(ctx, *amplitude_args)
    py["build_seconds"] = time.perf_counter() - t

    me_core = array.array("d", bytes(8 * args.events))
    core_name = "_core.evaluate (array('d'))" if b.kind == "extension" else \
        "ctypes hegetcl_amplitude_evaluate_events"
    variants: List[Tuple[str, Callable[[], Any]]] = [
        (core_name, lambda: b.core.evaluate(amp, momenta, None, me_core))]
    if b.package is not None:
        np = b.numpy
        p_np = np.frombuffer(momenta, dtype=np.float64).reshape(args.events, n, 4)  # no copy
        variants.insert(0, ("hegetcl.matrix_element", lambda: b.package.matrix_element(
            process, p_np, precision=precision, device=args.device, engine=engine)))
        # the momentum checks (E > 0, on shell, conserved) left out, where the package has them
        if "check" in b.package.matrix_element.__code__.co_varnames:
            variants.insert(1, ("hegetcl.matrix_element(check=False)",
                                lambda: b.package.matrix_element(
                                    process, p_np, precision=precision, device=args.device,
                                    engine=engine, check=False)))
    first: Dict[str, float] = {}
    results: Dict[str, Any] = {}
    for name, call in variants:
        t = time.perf_counter()
        results[name] = call()
        first[name] = time.perf_counter() - t
    py["first_call_seconds"] = first
    times: Dict[str, List[float]] = {name: [] for name, _ in variants}
    for _ in range(args.repeats):
        for name, call in variants:
            t = time.perf_counter()
            results[name] = call()
            times[name].append(time.perf_counter() - t)
    me_package = results["hegetcl.matrix_element"].tobytes() if b.package is not None else None
    names = [name for name, _ in variants]
    # release this case's context, programs and device buffers before the next case
    variants.clear()
    results.clear()
    if b.package is not None:
        b.package.close()
    elif b.kind == "ctypes":
        b.core.destroy(amp)
    del amp, ctx
    checks = [compare(me_c, me_core.tobytes(), core_name)]
    if me_package is not None:
        checks.insert(0, compare(me_c, me_package, "hegetcl.matrix_element"))
    c_after, me_c_after, momenta_path = run_c(args, process, precision, engine, work, "after")
    os.unlink(momenta_path)
    checks.append(compare(me_c, me_c_after, "C, second run"))
    c_stats = spread(c["call_seconds"] + c_after["call_seconds"])
    c_stats["median_first_run_s"] = statistics.median(c["call_seconds"])
    c_stats["median_second_run_s"] = statistics.median(c_after["call_seconds"])
    c_stats["drift_s"] = c_stats["median_second_run_s"] - c_stats["median_first_run_s"]
    rows = [dict(variant="C hegetcl_amplitude_evaluate_events", **c_stats)]
    for name in names:
        s = spread(times[name])
        s["overhead_median_s"] = s["median_s"] - c_stats["median_s"]
        s["overhead_min_s"] = s["min_s"] - c_stats["min_s"]
        s["overhead_relative"] = s["overhead_median_s"] / c_stats["median_s"]
        rows.append(dict(variant=name, **s))
    py["calls"] = rows
    py["bit_for_bit"] = checks
    return {"process": process, "engine": engine, "precision": precision,
            "events": args.events, "repeats": args.repeats, "c": c, "c_second_run": c_after,
            "python": py}


def table(cases: List[Dict[str, Any]]) -> str:
    head = (f"{'process':<16} {'engine, precision':<17} {'variant':<41} {'median s':>9} "
            f"{'min s':>9} {'max s':>9} {'overhead s':>10} {'relative':>9} {'ns/event':>9} "
            f"{'by min s':>10}  values")
    lines = [head, "-" * len(head)]
    for case in cases:
        same = {c["variant"]: c for c in case["python"]["bit_for_bit"]}
        for row in case["python"]["calls"]:
            over = row.get("overhead_median_s")
            check = same.get(row["variant"])
            how = f"{case['engine']} {case['precision']}"
            text = (f"{case['process']:<16} {how:<17} {row['variant']:<41} "
                    f"{row['median_s']:>9.5f} {row['min_s']:>9.5f} {row['max_s']:>9.5f} ")
            if over is None:
                text += f"{'(reference: the C call, both runs)':>51}"
            else:
                text += (f"{over:>+10.5f} {row['overhead_relative']:>+9.2%} "
                         f"{over / case['events'] * 1e9:>+9.1f} {row['overhead_min_s']:>+10.5f}"
                         + ("  identical" if check["identical"] else
                            f"  {check['events_differing']} events DIFFER"))
            lines.append(text)
        c, c2, py = case["c"], case["c_second_run"], case["python"]
        ref = py["calls"][0]
        second = same["C, second run"]
        lines.append(f"{'':<34} C medians of the runs before and after Python: "
                     f"{ref['median_first_run_s']:.5f} s, {ref['median_second_run_s']:.5f} s "
                     f"(drift {ref['drift_s']:+.5f} s: smaller overheads are not resolved); "
                     f"their values {'identical' if second['identical'] else 'DIFFER'}")
        lines.append(f"{'':<34} warm-up, not timed above: build C {c['build_seconds']:.3f} s / "
                     f"{c2['build_seconds']:.3f} s, Python {py['build_seconds']:.3f} s (the "
                     f"device compiler's own cache may serve the later ones); context C "
                     f"{c['context_seconds']:.3f} s, Python {py['context_seconds']:.3f} s")
        first = ", ".join(f"{k} {v:.4f} s" for k, v in py["first_call_seconds"].items())
        lines.append(f"{'':<34} first call (device buffers): C {c['first_call_seconds']:.4f} s, "
                     f"{first}")
    return "\n".join(lines)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", required=True,
                        help="meson build folder with bench/python-overhead-c and bindings/python/_core*")
    parser.add_argument("--device", default=None,
                        help="gpu, cpu, P:D or part of a name (default: HEGETCL_DEVICE, else auto)")
    parser.add_argument("--process", action="append", default=None,
                        help="process text, repeatable (default: "
                        + " and ".join(DEFAULT_PROCESSES) + ")")
    parser.add_argument("--precision", default="double", help="double, float or double,float")
    parser.add_argument("--engine", default=None,
                        help="recursive, diagrams, ... (default: the C library's choice for "
                        "each process, passed to the Python calls too)")
    parser.add_argument("--events", type=int, default=1000000, help="batch size (default 10^6)")
    parser.add_argument("--repeats", type=int, default=20,
                        help="timed calls of each variant after its first (default 20)")
    parser.add_argument("--sqrt-s", type=float, default=1000.0, help="GeV (default 1000)")
    parser.add_argument("--seed", type=int, default=20261124)
    parser.add_argument("--binding", choices=["auto", "extension", "ctypes"], default="auto",
                        help="auto: the extension where it loads, else ctypes")
    parser.add_argument("--no-numpy", action="store_true",
                        help="leave hegetcl.matrix_element out, as where numpy is absent")
    parser.add_argument("--json", default=None, help="write the results here")
    args = parser.parse_args(argv)
    if not 1 <= args.events <= 0xFFFFFFFF or not 1 <= args.repeats <= 100:
        parser.error("--events: 1 to 4294967295; --repeats: 1 to 100")
    processes = args.process or DEFAULT_PROCESSES
    precisions = [p for p in args.precision.split(",") if p]
    b = Bindings(args.build, args.binding, not args.no_numpy)
    for note in b.notes:
        print(f"python_overhead.py: note: {note}", flush=True)
    cases = []
    with tempfile.TemporaryDirectory(prefix="hegetcl-overhead-") as work:
        for process in processes:
            for precision in precisions:
                cases.append(run_case(args, b, process, precision, work))
    c0 = cases[0]["c"]
    print(f"\n|M|^2 of {args.events} events, {args.repeats} timed calls each after the first; "
          f"device {c0['device']} ({c0['platform']}, driver {c0['driver']}); commit "
          f"{c0['commit']}; Python {platform.python_version()}, binding {b.kind}"
          + (f", numpy {b.numpy.__version__}" if b.numpy is not None else ", no numpy"))
    print(table(cases))
    identical = all(c["identical"] for case in cases for c in case["python"]["bit_for_bit"])
    print(f"values: {'identical to the C call, bit for bit' if identical else 'DIFFER (see JSON)'}")
    if args.json:
        summary = {"events": args.events, "repeats": args.repeats, "device": args.device,
                   "python": platform.python_version(), "python_executable": sys.executable,
                   "numpy": b.numpy.__version__ if b.numpy is not None else None,
                   "binding": b.kind, "notes": b.notes, "all_identical": identical,
                   "cases": cases}
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(summary, f, indent=1)
        print(f"python_overhead.py: wrote {args.json}")
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
