#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every kernel family run under Oclgrind (an OpenCL device simulator that checks each access):
`oclgrind --data-races --uninitialized --check-api` reports out-of-bounds and uninitialised
accesses, data races, barrier divergence (always on) and API misuse. A case passes when its
command exits 0 and Oclgrind reported nothing (its reports go to a log file of their own, so the
program's own messages cannot hide one or be taken for one). Small batches and orders: Oclgrind
interprets every instruction. Kernels are built with -cl-opt-disable (HEGETCL_CL_OPTIONS): the
LLVM of Debian's Oclgrind 21.10 lacks an intrinsic that the optimiser emits. Prints TAP.

  1-4  hegetcl me, one engine each (permutation, unrolled, diagrams, recursive), double, at
       MadGraph's points for n = 2, 3 (amplitude_summed; the recursive engine's work-group
       helicity sum, recursive_shared.cl)
  5    hegetcl me, every engine in float at n = 2, 3
  6    hegetcl me, the recursive engine at n = 4 with the helicity sum's tables in global
       memory (HEGETCL_RS_GLOBAL_TABLES=1, as n >= 9 on NVIDIA) and 2 work-items per event, so
       that it takes the generated contraction (hg_rs_contract, as n >= 10 does); one file, so
       that the tables' buffer is made once in the process (a second one would inherit the
       first's shadow: docs/opencl-implementations.md, "A second trap")
  7    hegetcl me, the diagram engine at n = 6: its split form (amplitude_diagrams_part_*,
       amplitude_accumulate)
  8-11 hegetcl xsec --n 2, one engine each, 300 events: the cross-section pipeline
       (xsec_sample, PDFs, cuts, VEGAS), histograms (histogram_reduce, histogram_accumulate)
       and unweighting (events_mark, events_gather) into an event file, without variation
       weights (case 13 has them)
  12   hegetcl xsec --n 2, helicities sampled (amplitude_helicity), every flavour (the channel
       sums, xsec_channel_reduce), rambo phase space, float (n = 3 took 7 minutes or more)
  13   hegetcl xsec --n 2 with the default 7-point variation weights (xsec_variations: sums
       during the integration, ratios of the kept events) and their histograms (about 2
       minutes: the variations' program is built with -cl-opt-disable too)
  14-16 hegetcl me --process, QCD with the massive and gluon HELAS functions (cl/helas/qcd.cl)
       through the generated diagram code and, where it applies, the recursive colour engine, at
       MadGraph's points (../shared/refs/mg5-qcd, HEGETCL_QCD_REFS_DIR): g g > t t~ g (massive
       quarks, three-gluon vertex), u u~ > d d~ g (two quark lines: the recursive engine's tape), g g > g g g
       in float (four-gluon vertex); the colour engine's work-group kernels (colour_group.cl)
       by default
  17   hegetcl me --process "u d~ > e+ ve g g" (../shared/refs/mg5-next, HEGETCL_NEXT_REFS_DIR):
       the electroweak HELAS functions through the diagram code and the quark-line recursion's
       tape (a W off the lepton pair on the quark line; 4 s)
  18-19 hegetcl me --process "g g > t t~ g": the colour engine's work-group kernels with their
       tables in global memory (HEGETCL_CO_GLOBAL_TABLES=1, as t t~ + 4 g), one event per group
       so that each group goes over several; its one-event-per-work-item kernels
       (HEGETCL_CO_KERNEL=item)
  20   hegetcl xsec --process "p p > t t~", 1000 events a group, batches of 300 (the last
       work-group part-full): three groups of 1 and 4 members sharing one sampler program
       (generator_sample), their channel sums, the variation weights, the unweighting's
       hit-or-miss on the device (generator_mark, generator_compact), the colour flows
       (amplitude_flow_weights of the colour-ordered and the quark-line recursion's programs)
       and helicities into an event file (4 minutes)
  21-22 hegetcl-bench --process "u u~ > d d~ g" --colour sampled, 64 events: the quark-line
       recursion's sampled colours (amplitude_colour of its program: the flows' strings read from
       the tape), summed over the configurations (35 s) and one drawn per event (10 s)
  23-24 hegetcl me --process "u u~ > d d~ g" and "u d~ > e+ ve g g", the quark-line
       recursion's work-group kernels (HEGETCL_FR_KERNEL=group, flow_recursion_group.cl: the
       steps' temporaries, gathers and barriers; a second of Oclgrind each)
The VEGAS reduction (vegas_reduce) runs in every xsec case. Left out: the diagrams engine's
colour-flow kernel (generator_flows), which only groups run with --group-engine diagrams use
(another process run of several minutes here); the device test
known_integrals (its test-only kernel vegas_sample_points): over 8 minutes under Oclgrind, which
misreports it (its shadow of a released buffer outlives the buffer:
docs/opencl-implementations.md, "A second trap"). The whole suite took 4.3 minutes on 2 shared
cores before case 13 (cases 14-16 1 to 12 seconds each), with at most 1.5 GB of memory; case 13
took 118 s (case 11 without variations 16 s). Case 19 took 4 minutes.

usage: oclgrind_clean.py HEGETCL_EXE HEGETCL_BENCH
"""
import os
import subprocess
import sys
import tempfile

OCLGRIND = ["oclgrind", "--data-races", "--uninitialized", "--check-api"]
# xsec: 300 events per iteration, one of each kind, batches of 150 (two batches: the sums carry
# across a batch boundary), 20 unweighted events
XSEC = ["xsec", "--adapt-iterations", "1", "--adapt-events", "300", "--events", "300",
        "--min-iterations", "1", "--max-iterations", "1", "--batch", "150", "--target-error", "0",
        "--quiet", "--unweighted-events", "20", "--lhe", "ev.lhe", "--yoda", "h.yoda",
        "--json", "run.json", "--checkpoint", "none", "--no-variation-weights"]
ENGINES = ["permutation", "unrolled", "diagrams", "recursive"]
# QCD processes through the diagrams engine: (process, reference file, more options)
QCD = [("g g > t t~ g", "me_gg_ttxg_WT0.txt", []),
       ("u u~ > d d~ g", "me_uux_ddxg.txt", []),
       ("g g > g g g", "me_gg_ggg.txt", ["--precision", "float"])]


def cases(hegetcl, bench):
    refs = os.environ.get("HEGETCL_REFS_DIR", "")
    points = [os.path.join(refs, f"me_points_n{n}.txt") for n in (2, 3)]
    out = []
    for e in ENGINES:
        out.append((f"me --engine {e}, double, n = 2, 3",
                    [hegetcl, "me", "--engine", e] + points))
    out.append(("me, every engine, float, n = 2, 3",
                [hegetcl, "me", "--precision", "float"] + points))
    out.append(("me --engine recursive, n = 4, tables in global memory, 2 work-items per event",
                [hegetcl, "me", "--engine", "recursive", os.path.join(refs, "me_points_n4.txt")],
                {"HEGETCL_RS_GLOBAL_TABLES": "1", "HEGETCL_RS_THREADS": "2"}))
    out.append(("me --engine diagrams, n = 6 (split form)",
                [hegetcl, "me", "--engine", "diagrams", os.path.join(refs, "me_points_n6.txt")]))
    for e in ENGINES:
        out.append((f"xsec --n 2 --engine {e}: pipeline, histograms, unweighting",
                    [hegetcl] + XSEC + ["--n", "2", "--engine", e]))
    out.append(("xsec --n 2, sampled helicities, every flavour, rambo, float",
                [hegetcl] + XSEC + ["--n", "2", "--helicity", "sampled", "--flavours", "all",
                                    "--phase-space", "rambo", "--precision", "float"]))
    out.append(("xsec --n 2 with variation weights (7 scales) and their histograms",
                [hegetcl] + [a for a in XSEC if a != "--no-variation-weights"] + ["--n", "2"]))
    qcd = os.environ.get("HEGETCL_QCD_REFS_DIR", "")
    for process, file, more in QCD:
        out.append((f"me --process \"{process}\"{' ' + ' '.join(more) if more else ''}",
                    [hegetcl, "me", "--process", process] + more + [os.path.join(qcd, file)]))
    nxt = os.environ.get("HEGETCL_NEXT_REFS_DIR", "")
    out.append(("me --process \"u d~ > e+ ve g g\": the electroweak functions, both engines",
                [hegetcl, "me", "--process", "u d~ > e+ ve g g",
                 os.path.join(nxt, "me_udx_epvegg.txt")]))
    ttg = [hegetcl, "me", "--process", "g g > t t~ g", os.path.join(qcd, "me_gg_ttxg_WT0.txt")]
    out.append(("me --process \"g g > t t~ g\", the colour engine's work-group kernels with "
                "their tables in global memory, one event per group, groups over several events",
                ttg, {"HEGETCL_CO_GLOBAL_TABLES": "1", "HEGETCL_CO_GROUP": "1"}))
    out.append(("me --process \"g g > t t~ g\", the colour engine's one-event-per-work-item "
                "kernels", ttg, {"HEGETCL_CO_KERNEL": "item"}))
    out.append(("xsec --process \"p p > t t~\": process sampler, variations, unweighting on "
                "the device, colour flows, helicities",
                [hegetcl, "xsec", "--process", "p p > t t~", "--scale", "173",
                 "--adapt-iterations", "1", "--adapt-events", "1000", "--events", "1000",
                 "--min-iterations", "1", "--max-iterations", "1", "--batch", "300",
                 "--target-error", "0", "--quiet", "--unweighted-events", "20", "--lhe", "ev.lhe",
                 "--json", "run.json", "--checkpoint", "none"]))
    sampled = [bench, "--process", "u u~ > d d~ g", "--colour", "sampled", "--precision",
               "double", "--max-events", "64", "--repeats", "5", "--max-seconds", "1"]
    out.append(("hegetcl-bench --process \"u u~ > d d~ g\" --colour sampled: the quark-line "
                "recursion's sampled colours, summed helicities", sampled))
    out.append(("hegetcl-bench --process \"u u~ > d d~ g\" --colour sampled --helicity sampled",
                sampled + ["--helicity", "sampled"]))
    out.append(("me --process \"u u~ > d d~ g\", the quark-line recursion's work-group kernels",
                [hegetcl, "me", "--process", "u u~ > d d~ g", "--engine", "recursive",
                 os.path.join(qcd, "me_uux_ddxg.txt")], {"HEGETCL_FR_KERNEL": "group"}))
    out.append(("me --process \"u d~ > e+ ve g g\", the quark-line recursion's work-group "
                "kernels", [hegetcl, "me", "--process", "u d~ > e+ ve g g", "--engine",
                            "recursive", os.path.join(nxt, "me_udx_epvegg.txt")],
                {"HEGETCL_FR_KERNEL": "group"}))
    return out


def run_case(number, what, command, more_env):
    with tempfile.TemporaryDirectory(prefix="hegetcl-oclgrind-") as folder:
        log = os.path.join(folder, "oclgrind.log")
        env = dict(os.environ, HEGETCL_CL_OPTIONS="-cl-opt-disable", HEGETCL_DEVICE="auto",
                   **more_env)
        env.pop("HEGETCL_TEST_DEVICE", None)  # Oclgrind's device is the only one it shows
        try:
            p = subprocess.run(OCLGRIND + ["--log", log] + command, cwd=folder, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               timeout=int(os.environ.get("HEGETCL_OCLGRIND_CASE_SECONDS", "900")))
            output, status = p.stdout, p.returncode
        except subprocess.TimeoutExpired as e:
            output, status = (e.stdout or b"").decode(errors="replace"), "timeout"
        reports = open(log, errors="replace").read() if os.path.exists(log) else ""
    if status == 0 and not reports.strip():
        print(f"ok {number} - oclgrind clean: {what}")
        return True
    print(f"not ok {number} - oclgrind clean: {what}")
    if reports.strip():
        lines = reports.strip().splitlines()
        print(f"# Oclgrind reported ({len(lines)} lines; the first 40):")
        for line in lines[:40]:
            print("#   " + line)
    if status != 0:
        print(f"# exit status {status}; the output's last 30 lines:")
        for line in output.strip().splitlines()[-30:]:
            print("#   " + line)
    print("# command: " + " ".join(OCLGRIND + command))
    return False


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: oclgrind_clean.py HEGETCL_EXE HEGETCL_BENCH")
    # absolute: each case runs in a folder of its own
    todo = cases(os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]))
    print(f"1..{len(todo)}")
    try:
        subprocess.run(["oclgrind", "--version"], stdout=subprocess.DEVNULL, check=True)
    except (OSError, subprocess.CalledProcessError):
        for i, (what, *_) in enumerate(todo, 1):
            print(f"not ok {i} - oclgrind clean: {what}")
        print("# oclgrind is not installed: bash setup.sh --deps-only installs it (Debian "
              "package oclgrind)")
        return 1
    failed = 0
    for i, (what, command, *more_env) in enumerate(todo, 1):
        failed += not run_case(i, what, command, more_env[0] if more_env else {})
        sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
