#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`hegetcl xsec` end to end on the device under test: the outputs of one run, read back by
independent readers, and the run card they carry. Prints TAP.

  1  a 2-photon run with histograms and 20000 unweighted events writes JSON, YODA, CSV and a
     gzip'd LHE file, and leaves no temporary file
  2  tests/events/check_events.py (pylhe) passes on the LHE file against the YODA histograms:
     event count, particles and colour flow, momentum conservation, cuts, sigma in <init>, and the
     unweighted events' distributions against the weighted histograms (chi^2)
  3  the CSV and YODA files hold the same numbers
  4  the run card echoed in the JSON, the YODA header and the LHE header is one text
  5  `hegetcl xsec --card <the echoed card>` repeats the run: the same sigma to the last digit
  6  a flag after --card overrides the card (another seed: another sigma, and the new card says so)
  7  bad input is refused with exit status 2 and a message naming the file, line and key: an
     unknown key, a value of the wrong kind, --lhe without --unweighted-events, --flavours lists
     of other than d, u, s, c, b
  8  the default phase space (auto) is named in the JSON, its run card and the header as the map
     it took: collider for n = 4, multichannel for n = 5

usage: outputs_of_a_run.py HEGETCL_EXE CHECK_EVENTS_PY
"""
import gzip
import json
import math
import os
import re
import subprocess
import sys
import tempfile

DEVICE = os.environ.get("HEGETCL_TEST_DEVICE") or os.environ.get("HEGETCL_DEVICE") or "auto"
SMALL = ["--n", "2", "--orientation", "both", "--adapt-iterations", "3", "--adapt-events",
         "50000", "--events", "200000", "--min-iterations", "2", "--max-iterations", "2",
         "--target-error", "0", "--batch", "65536", "--seed", "11", "--helicity", "sampled",
         "--device", DEVICE, "--quiet"]
N_EVENTS = 20000

results = []


def report(ok, what, detail=""):
    results.append((ok, what, detail))


def run(exe, args):
    return subprocess.run([exe, "xsec"] + args, capture_output=True, text=True, timeout=900)


def yoda_header(path):
    lines = []
    with open(path) as f:
        for line in f:
            if line.startswith("BEGIN"):
                break
            if line.startswith("# "):
                lines.append(line[2:])
    card = "".join(lines)
    m = re.search(r"^# hegetcl [0-9]", card, re.M)  # the run's own lines follow the card
    return card[:m.start()] if m else card


def lhe_header(path):
    with gzip.open(path, "rt") as f:
        text = f.read(200000)
    m = re.search(r"<hegetcl_run_card>\n(.*?)</hegetcl_run_card>", text, re.S)
    return m.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&") if m else None


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    exe, check_events = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        out = {k: os.path.join(tmp, "a." + k) for k in ("json", "yoda", "csv")}
        out["lhe"] = os.path.join(tmp, "a.lhe.gz")
        a = run(exe, SMALL + ["--json", out["json"], "--yoda", out["yoda"], "--csv", out["csv"],
                              "--lhe", out["lhe"], "--unweighted-events", str(N_EVENTS)])
        written = a.returncode == 0 and all(os.path.exists(p) for p in out.values())
        leftovers = [f for f in os.listdir(tmp) if f.endswith(".tmp")]
        report(written and not leftovers, "the run writes JSON, YODA, CSV and LHE",
               f"exit {a.returncode}: {a.stderr.strip()} {a.stdout.strip()} {leftovers}")
        if not written:
            return finish()
        record = json.load(open(out["json"]))
        sigma, error = record["result"]["sigma_fb"], record["result"]["error_fb"]

        c = subprocess.run([sys.executable, check_events, out["lhe"], out["yoda"], "--events",
                            str(N_EVENTS), "--photons", "2", "--pt-min", "20", "--eta-max", "2.5",
                            "--dr-min", "0.4", "--sqrt-s", "14000", "--sigma-fb", repr(sigma),
                            "--sigma-error-fb", repr(error)],
                           capture_output=True, text=True, timeout=600)
        bad = [line for line in c.stdout.splitlines() if line.startswith("not ok")]
        for line in c.stdout.splitlines():
            if line.startswith("ok") or line.startswith("not ok"):
                print("# check_events: " + line)
        report(c.returncode == 0 and not bad, "pylhe reads the events back and they pass",
               "; ".join(bad) + c.stderr[-500:])

        # 3: CSV against YODA, bin by bin
        yoda_rows = {}
        name = None
        for line in open(out["yoda"]):
            if line.startswith("BEGIN"):
                name = line.split()[-1].split("/")[-1]
            elif name and re.match(r"^-?[0-9]", line):
                lo, hi, sumw, sumw2 = map(float, line.split()[:4])
                yoda_rows[(name, lo)] = (sumw, sumw2)
        worst, count = 0.0, 0
        for line in open(out["csv"]):
            if line.startswith("#") or line.startswith("histogram,"):
                continue
            h, b, lo, hi, sumw, err = line.split(",")[:6]
            if b in ("underflow", "overflow"):
                continue
            ref = yoda_rows.get((h, float(lo)))
            if ref is None:
                worst = math.inf
                continue
            count += 1
            worst = max(worst, abs(float(sumw) - ref[0]), abs(float(err) ** 2 - ref[1]) / max(ref[1], 1e-300) * abs(ref[0]))
        report(count > 0 and worst <= 1e-12 * sigma, "CSV and YODA hold the same bins",
               f"{count} bins, worst difference {worst}")

        card = record["run_card"]
        same = card == yoda_header(out["yoda"]) == lhe_header(out["lhe"])
        report(same, "the JSON, YODA and LHE files carry the same run card")

        card_path = os.path.join(tmp, "echoed.yaml")
        with open(card_path, "w") as f:
            f.write(card)
        b_json = os.path.join(tmp, "b.json")
        b = run(exe, ["--card", card_path, "--json", b_json, "--yoda", os.path.join(tmp, "b.yoda"),
                      "--csv", os.path.join(tmp, "b.csv"), "--lhe", os.path.join(tmp, "b.lhe.gz")])
        again = json.load(open(b_json))["result"]["sigma_fb"] if b.returncode == 0 else None
        report(again == sigma, "the echoed card repeats the run exactly",
               f"{again!r} vs {sigma!r}: {b.stderr.strip()}")

        c_json = os.path.join(tmp, "c.json")
        r = run(exe, ["--card", card_path, "--seed", "12", "--json", c_json, "--unweighted-events",
                      "0", "--lhe", "", "--yoda", "", "--csv", ""])
        other = json.load(open(c_json)) if r.returncode == 0 else None
        report(other is not None and other["result"]["sigma_fb"] != sigma
               and "\nseed: 12\n" in other["run_card"], "a flag overrides the card",
               r.stderr.strip())

        bad_cases = [
            ("n: 2\nptmin: 20\n", "bad.yaml:2:8: unknown key 'ptmin'"),
            ("n: 2\ncuts:\n  pt-min: twenty\n", "bad.yaml:3:11: pt-min twenty: not a finite number"),
        ]
        messages = []
        ok = True
        for text, expected in bad_cases:
            path = os.path.join(tmp, "bad.yaml")
            with open(path, "w") as f:
                f.write(text)
            p = run(exe, ["--card", path, "--device", DEVICE])
            got = p.stderr.replace(tmp + "/", "")
            ok &= p.returncode == 2 and expected in got
            messages.append(got.strip())
        p = run(exe, SMALL + ["--lhe", os.path.join(tmp, "x.lhe")])
        ok &= p.returncode == 2 and "--lhe without --unweighted-events" in p.stderr
        messages.append(p.stderr.strip())
        for flavours in ["u,t", "u,u", "u d"]:
            p = run(exe, SMALL + ["--flavours", flavours])
            ok &= p.returncode == 2 and (f"--flavours {flavours}: must be a comma-separated list "
                                         "of the quarks d, u, s, c, b") in p.stderr
            messages.append(p.stderr.strip())
        for m in messages:
            print("# " + m)
        report(ok, "bad input is refused with the file, line and key", " | ".join(messages))

        # the default map, auto, is named in every output as the map it took
        named, details = True, []
        for n, want in ((4, "collider"), (5, "multichannel")):
            path = os.path.join(tmp, f"auto{n}.json")
            p = run(exe, ["--n", str(n), "--adapt-iterations", "1", "--adapt-events", "1000",
                          "--events", "2000", "--min-iterations", "1", "--max-iterations", "1",
                          "--target-error", "0", "--device", DEVICE, "--checkpoint", "none",
                          "--json", path])
            d = json.load(open(path)) if p.returncode == 0 else {}
            got = (d.get("method", {}).get("phase_space"),
                   f"\nphase-space: {want}\n" in d.get("run_card", ""),
                   f"{want} phase space" in p.stdout)
            named &= got == (want, True, True)
            details.append(f"n = {n}: {got} {p.stderr.strip()}")
        report(named, "the default map is named as the one taken: collider to n = 4, then "
               "multichannel", " | ".join(details))
    return finish()


def finish():
    print(f"1..{len(results)}")
    for i, (ok, what, detail) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {what}" + ("" if ok or not detail else f": {detail}"))
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
