#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What the helicity sampling and the phase-space map do to the error per event:
sigma(p p -> n photons, u-first) with each --helicity and --phase-space for the same events, the
relative weight spread sqrt(N) * error / sigma per combined iteration (its median: the error one
event carries) and the quoted result. Optionally several seeds per setting, with the spread of the
results against their quoted errors (the pulls' standard deviation).

  python3 bench/sampling_study.py --n 5,6 --device cpu --events 100000 --seeds 1
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

SETTINGS = [("collider", "summed"), ("collider", "sampled"), ("collider", "adaptive"),
            ("multichannel", "summed"), ("multichannel", "sampled"),
            ("multichannel", "adaptive")]


def run(hegetcl, n, ps, hel, seed, args):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.json")
        cmd = [hegetcl, "xsec", "--n", str(n), "--orientation", "u-first", "--device", args.device,
               "--phase-space", ps, "--helicity", hel, "--seed", str(seed), "--json", out,
               "--quiet", "--checkpoint", "none",
               # every combined iteration --events, as when the studies were made
               "--iteration-events", "fixed"]
        if not args.defaults:
            cmd += ["--events", str(args.events), "--adapt-events", str(args.adapt_events),
                    "--adapt-iterations", str(args.adapt_iterations), "--min-iterations",
                    str(args.iterations), "--max-iterations", str(args.iterations),
                    "--target-error", "0", "--batch", str(args.batch)]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        with open(out) as f:
            return json.load(f)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hegetcl", default="build/hegetcl")
    p.add_argument("--n", default="5")
    p.add_argument("--device", default="cpu")
    p.add_argument("--events", type=int, default=100000)
    p.add_argument("--adapt-events", type=int, default=50000)
    p.add_argument("--adapt-iterations", type=int, default=4)
    p.add_argument("--iterations", type=int, default=3)
    p.add_argument("--batch", type=int, default=65536)
    p.add_argument("--seeds", type=int, default=1)
    p.add_argument("--defaults", action="store_true",
                   help="hegetcl xsec's default VEGAS settings (ignore --events ... --batch)")
    p.add_argument("--settings", default=",".join(f"{a}:{b}" for a, b in SETTINGS),
                   help="phase-space:helicity pairs; auto:summed is hegetcl xsec's default")
    p.add_argument("--per-seed", action="store_true",
                   help="print every seed's sigma, error and chi2/dof too")
    args = p.parse_args()
    settings = [tuple(s.split(":")) for s in args.settings.split(",")]
    print("n  phase-space   helicity  sigma_fb        error_fb   rel_err  chi2  spread/event"
          "  events/s  pull_sd  chi2_mean  chi2>1.5")
    for n in [int(x) for x in args.n.split(",")]:
        for ps, hel in settings:
            results = [run(args.hegetcl, n, ps, hel, 1 + s, args) for s in range(args.seeds)]
            spreads, sigmas, errors, rates = [], [], [], []
            for d in results:
                its = [i for i in d["iterations"] if not i["adapting"]]
                spreads.append(statistics.median(
                    i["error_fb"] * i["events"] ** 0.5 / i["sigma_fb"] for i in its))
                sigmas.append(d["result"]["sigma_fb"])
                errors.append(d["result"]["error_fb"])
                rates.append(d["result"]["events_including_adaptation"] /
                             d["result"]["integration_seconds"])
            d = results[0]["result"]
            chi2 = [r["result"]["chi2_per_dof"] for r in results]
            pull_sd = chi2_mean = chi2_above = ""
            if len(results) > 2:
                mean = statistics.fmean(sigmas)
                pull_sd = "%.2f" % statistics.pstdev((s - mean) / e for s, e in zip(sigmas, errors))
                # chi2/dof of honest runs averages 1; with k dof it exceeds 1.5 with
                # probability P(chi2_k > 1.5 k): 0.22 for 2, 0.14 for 9
                chi2_mean = "%.2f" % statistics.fmean(chi2)
                chi2_above = "%d/%d" % (sum(c > 1.5 for c in chi2), len(chi2))
            if args.per_seed:
                for seed, (sg, e, c) in enumerate(zip(sigmas, errors, chi2), start=1):
                    print("   seed %-3d %.6e +- %.2e fb  chi2/dof %.2f" % (seed, sg, e, c))
            print("%-2d %-13s %-9s %.6e  %.2e  %6.3f%% %5.2f  %10.2f  %9.3g  %s  %s  %s" % (
                n, ps, hel, statistics.fmean(sigmas), statistics.fmean(errors),
                100 * statistics.fmean(errors) / statistics.fmean(sigmas), d["chi2_per_dof"],
                statistics.median(spreads), statistics.median(rates), pull_sd, chi2_mean,
                chi2_above), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
