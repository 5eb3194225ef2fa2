#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""examples/analyse_events.py, the documented analysis path, on the event formats: the same
made-up events with 12 variation weights as Les Houches, HepMC3 and LHEH5 give one histogram and
one scale band (its checks passing), a file without variations gives the nominal alone and says
so, and a file whose weights do not add up to its sigma fails the check. Prints TAP.

usage: analysis_example.py EVENT_FORMATS_EXAMPLE_EXE ANALYSE_EVENTS_PY
"""
import contextlib
import importlib.util
import io
import json
import os
import subprocess
import sys
import tempfile

results = []


def check(name, problems):
    results.append((name, problems))


class Run:
    def __init__(self, returncode, stdout, stderr):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def analyse(module, path, tmp):
    """The example's main() in this process (one Python start, one matplotlib import)."""
    out = os.path.join(tmp, os.path.basename(path) + ".json")
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        code = module.main([path, "--json", out,
                            "--out", os.path.join(tmp, os.path.basename(path) + ".png")])
    result = json.load(open(out)) if os.path.exists(out) else None
    return Run(code, stdout.getvalue(), stderr.getvalue()), result


def main():
    example, script = sys.argv[1], sys.argv[2]
    spec = importlib.util.spec_from_file_location("analyse_events", script)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    with tempfile.TemporaryDirectory() as tmp:
        got = {}
        for name in ("v.lhe.gz", "v.hepmc.gz", "v.hdf5"):
            path = os.path.join(tmp, name)
            subprocess.run([example, path, "200", "variations"], check=True)
            run, result = analyse(script, path, tmp)
            got[name] = result
            problems = [] if run.returncode == 0 and "checks: all passed" in run.stdout else \
                [f"exit {run.returncode}: {run.stderr.strip()[-300:]}"]
            if result is not None and (result["n_scale_variations"] != 9 or not result["band"]):
                problems.append(f"{result['n_scale_variations']} scale variations, band "
                                f"{bool(result['band'])}")
            check(f"{name}: the analysis reads 200 events with 12 variations, checks pass",
                  problems)
        keys = ("dsigma_pb_per_gev", "errors_pb_per_gev", "band", "weights_sum_pb")
        a = got["v.lhe.gz"]
        problems = [f"{name} {k} differs" for name in ("v.hepmc.gz", "v.hdf5") for k in keys
                    if a is None or got[name] is None or got[name][k] != a[k]]
        check("the three formats give the same histogram and band, number for number", problems)
        plain = os.path.join(tmp, "n.lhe")
        subprocess.run([example, plain, "50"], check=True)
        run, result = analyse(script, plain, tmp)
        check("a file without variation weights: the nominal alone, said so",
              [] if run.returncode == 0 and "no variation weights in this file" in run.stdout
              and result["band"] is None else [f"exit {run.returncode}: {run.stdout[-300:]}"])
        # the file's sigma doubled: its weights no longer add up to it
        text = open(plain).read()
        init = text.index("<init>")
        lines = text[init:].split("\n")
        fields = lines[2].split()
        fields[0] = "%+.16e" % (2 * float(fields[0]))
        lines[2] = " " + " ".join(fields[:3]) + " " + fields[3].rjust(6)
        bad = os.path.join(tmp, "bad.lhe")
        open(bad, "w").write(text[:init] + "\n".join(lines))
        run, _ = analyse(script, bad, tmp)
        check("a file whose weights do not add up to its sigma fails the check",
              [] if run.returncode == 1 and "add up to" in run.stderr else
              [f"exit {run.returncode}: {run.stderr.strip()[-300:]}"])
    print(f"1..{len(results)}")
    for i, (name, problems) in enumerate(results, 1):
        print(("ok" if not problems else "not ok") + f" {i} - {name}")
        for p in problems[:6]:
            print(f"#   {p}")
    return 0 if all(not p for _, p in results) else 1


if __name__ == "__main__":
    sys.exit(main())
