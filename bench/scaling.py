#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Scaling of one `hegetcl xsec` run over GPUs (docs/user-guide.md, "Several GPUs and machines"):
the same run on one GPU, on every GPU of the node in one process (--device all-gpus) and, when
hegetcl-mpi is there, as one MPI rank per GPU (--device per-rank). Prints a markdown table (events
per second in the combined iterations, speed-up, efficiency = speed-up / GPUs, and whether sigma and
its error are identical to the one-GPU run's, bit for bit) and writes every run's JSON and a summary
JSON.

usage: scaling.py [--build DIR] [--out DIR] [--n 6,8] [--gpus 0:0,0:1] [-- EXTRA xsec ARGS]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

SETTINGS = {  # events per combined iteration: 32 batches of 2^20 or more per GPU pair
    6: ["--events", "134217728", "--adapt-events", "8388608"],
    8: ["--events", "33554432", "--adapt-events", "4194304"],
    9: ["--events", "8388608", "--adapt-events", "2097152", "--helicity", "sampled"],
}
COMMON = ["--flavours", "all", "--engine", "recursive", "--batch", "1048576",
          "--adapt-iterations", "3", "--min-iterations", "3", "--max-iterations", "3",
          "--target-error", "0", "--checkpoint", "none", "--quiet"]


def run(command, json_path):
    started = subprocess.run(command, capture_output=True, text=True)
    if started.returncode != 0:
        print(f"# failed ({started.returncode}): {' '.join(command)}\n# {started.stderr[-1500:]}",
              file=sys.stderr)
        return None
    with open(json_path) as f:
        record = json.load(f)
    combined = [it for it in record["iterations"] if not it["adapting"]]
    events = sum(it["events"] for it in combined)
    seconds = sum(it["seconds"] for it in combined)
    return {"sigma_fb": record["result"]["sigma_fb"], "error_fb": record["result"]["error_fb"],
            "events": events, "seconds": seconds, "rate": events / seconds,
            "devices": [d["name"] for d in record.get("devices", [])] or [record["device"]["name"]],
            "processes": record.get("processes", 1), "json": json_path}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--out", default="scaling")
    ap.add_argument("--n", default="6,8")
    ap.add_argument("--gpus", default="", help="P:D list (default: every GPU `hegetcl devices` shows)")
    ap.add_argument("extra", nargs="*")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    hegetcl = os.path.join(args.build, "hegetcl")
    mpi = os.path.join(args.build, "hegetcl-mpi")
    gpus = args.gpus.split(",") if args.gpus else []
    if not gpus:
        listing = subprocess.run([hegetcl, "devices"], capture_output=True, text=True).stdout
        gpus = [line.split()[0] for line in listing.splitlines()
                if line.rstrip().endswith("; GPU]") and ":" in line.split()[0]]
    if not gpus:
        sys.exit("no GPU found: give --gpus P:D,P:D")
    mpirun = shutil.which("mpirun") if os.path.exists(mpi) else None
    rows, summary = [], []
    for n in [int(x) for x in args.n.split(",")]:
        base = ["--n", str(n)] + SETTINGS.get(n, SETTINGS[8]) + COMMON + args.extra
        layouts = [("1 GPU", 1, [hegetcl, "xsec"] + base + ["--device", gpus[0]])]
        if len(gpus) > 1:
            layouts.append((f"{len(gpus)} GPUs, one process", len(gpus),
                            [hegetcl, "xsec"] + base + ["--device", ",".join(gpus)]))
            if mpirun:
                layouts.append((f"{len(gpus)} MPI ranks, a GPU each", len(gpus),
                                [mpirun, "--oversubscribe", "-np", str(len(gpus)), mpi, "xsec"] +
                                base + ["--device", "per-rank"]))
        reference = None
        for label, count, command in layouts:
            path = os.path.join(args.out, f"n{n}-{label.split(',')[0].replace(' ', '')}.json")
            result = run(command + ["--json", path], path)
            if result is None:
                continue
            reference = reference or result
            speedup = result["rate"] / reference["rate"]
            identical = (result["sigma_fb"] == reference["sigma_fb"]
                         and result["error_fb"] == reference["error_fb"])
            result.update(n=n, layout=label, gpus=count, speedup=speedup,
                          efficiency=speedup / count, identical=identical)
            summary.append(result)
            rows.append(f"| {n} | {label} | {result['rate']:.3g} | {speedup:.2f} | "
                        f"{100 * speedup / count:.0f} % | {result['sigma_fb']:.6e} ± "
                        f"{result['error_fb']:.2e} | {'yes' if identical else 'NO'} |")
    print("| n | layout | events/s | speed-up | efficiency | sigma [fb] | identical |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    if summary:
        print(f"\ndevices: {', '.join(sorted(set(d for r in summary for d in r['devices'])))}")
    with open(os.path.join(args.out, "scaling.json"), "w") as f:
        json.dump(summary, f, indent=1)


if __name__ == "__main__":
    main()
