#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Bad input to `hegetcl` is refused with a message that names the problem and the fix, and leaves
no output behind that looks complete. Each case runs the real command and checks the exit status
and the words of the message (the first line of each is printed as a TAP comment: the list of bad
inputs and their messages). Prints TAP.

part "host" (no OpenCL device needed: refused before one is chosen):
  1  flags: an unknown option (with the nearest one suggested), a value of the wrong kind, n
     outside 2..12, negative or zero cuts, energies and couplings, min > max iterations, a missing
     output folder, --lhe without --unweighted-events, histogram ranges upside down or without
     bins, `me` options after its files
  2  run cards: a missing file, an unknown key, a value of the wrong kind or out of range (with
     file:line:column), a tab, a duplicate key
  3  no OpenCL platform (OCL_ICD_VENDORS pointed at an empty folder): `devices`, `xsec` and `me`
     say so and name the fix (skipped when the ICD loader ignores OCL_ICD_VENDORS)
part "device" (on the device under test):
  1  a device spec that matches nothing lists the devices found; HEGETCL_DEVICE is the default
  2  --device auto on a machine without a GPU says it falls back to the CPU (skipped with a GPU)
  3  cuts: sqrt(s) below n pT_min; n photons that cannot fit in |eta| < eta-max pairwise Delta R
     apart (refused up front); cuts that pass that bound but leave no event (refused at run time,
     and no JSON or YODA file left)
  4  PDFs: a missing set names every folder searched; a corrupt file names file and line; a member
     the set lacks; a scale outside the grid's Q; cuts that reach x below the grid
  5  an engine asked for more photons than it takes
  6  kernel builds broken by HEGETCL_CL_OPTIONS and by an edited source in HEGETCL_CL_DIR: the
     message names the variable and carries the compiler's log naming the file
  7  a batch whose buffers the device cannot hold: refused up front with the batch that fits

usage: bad_input.py HEGETCL_EXE host|device
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

DEVICE = os.environ.get("HEGETCL_TEST_DEVICE") or os.environ.get("HEGETCL_DEVICE") or "auto"
# a run that would take a moment if it ever started: the refusals come before it
QUICK = ["--events", "2000", "--adapt-events", "1000", "--adapt-iterations", "1",
         "--min-iterations", "1", "--max-iterations", "1", "--batch", "1024", "--quiet",
         "--checkpoint", "none"]

results = []


def report(ok, what, detail="", skip=None):
    results.append((ok, what, detail, skip))


def run(exe, args, env=None, cwd=None):
    full_env = dict(os.environ)
    full_env.pop("HEGETCL_DEVICE", None)
    full_env.update(env or {})
    return subprocess.run([exe] + args, capture_output=True, text=True, timeout=600, env=full_env,
                          cwd=cwd)


def check(exe, cases, tmp):
    """Runs (label, args, env, status, [parts]) cases; returns (all ok, details of failures)."""
    ok, bad = True, []
    for label, args, env, status, parts in cases:
        p = run(exe, args, env, cwd=tmp)
        message = p.stderr.replace(tmp + "/", "")
        first = next((line for line in message.splitlines() if "error:" in line or "note:" in line),
                     message.strip()[:200])
        print(f"# {label}: {first}")
        missing = [part for part in parts if part not in message]
        if p.returncode != status or missing:
            ok = False
            bad.append(f"{label}: exit {p.returncode} (expected {status}), missing {missing}: "
                       f"{message.strip()[:600]}")
    return ok, "; ".join(bad)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def host_part(exe, tmp):
    x = ["xsec"]
    flags = [
        ("unknown option", x + ["--n", "2", "--ptmin", "20"], None, 2,
         ["unknown option --ptmin (did you mean --pt-min?)"]),
        ("wrong kind", x + ["--n", "five"], None, 2,
         ["--n five: must be a whole number from 2 to 12"]),
        ("n above 12", x + ["--n", "13"], None, 2,
         ["--n 13: must be a whole number from 2 to 12"]),
        ("n below 2", x + ["--n", "1"], None, 2, ["--n 1: must be a whole number from 2 to 12"]),
        ("negative pT cut", x + ["--n", "2", "--pt-min", "-5"], None, 2,
         ["--pt-min -5: must be > 0 (GeV): the pT cut keeps the photons away from the soft"]),
        ("zero pT cut", x + ["--n", "2", "--pt-min", "0"], None, 2, ["--pt-min 0: must be > 0"]),
        ("negative Delta R cut", x + ["--n", "2", "--dr-min", "-0.4"], None, 2,
         ["--dr-min -0.4: must be >= 0 (every photon pair has Delta R > dr-min; 0: no cut)"]),
        ("zero eta cut", x + ["--n", "2", "--eta-max", "0"], None, 2,
         ["--eta-max 0: must be > 0 (every photon has |eta| < eta-max)"]),
        ("negative sqrt(s)", x + ["--n", "2", "--sqrt-s", "-14000"], None, 2,
         ["--sqrt-s -14000: must be > 0 (the collider energy in GeV)"]),
        ("units in a number", x + ["--n", "2", "--sqrt-s", "14TeV"], None, 2,
         ["--sqrt-s 14TeV: not a finite number: write a plain number such as 20 or 1.4e4 (no "
          "units)"]),
        ("zero scale", x + ["--n", "2", "--scale", "0"], None, 2,
         ["--scale 0: must be > 0 (the factorisation scale in GeV)"]),
        ("zero charge", x + ["--n", "2", "--charge", "0"], None, 2,
         ["--charge 0: must not be 0 (the quark charge in units of e"]),
        ("negative alpha", x + ["--n", "2", "--alpha", "-1"], None, 2, ["--alpha -1: must be > 0"]),
        ("negative target error", x + ["--n", "2", "--target-error", "-0.1"], None, 2,
         ["--target-error -0.1: must be >= 0"]),
        ("a batch below the work-group", x + ["--n", "2", "--batch", "100"], None, 2,
         ["--batch 100: must be a whole number from 128 to 2147483647"]),
        ("min above max iterations", x + ["--n", "2", "--min-iterations", "5",
                                          "--max-iterations", "2"], None, 2,
         ["min-iterations 5 is above max-iterations 2: give --max-iterations 5 or more"]),
        ("missing output folder", x + ["--n", "2", "--json", "no/such/folder/a.json"], None, 2,
         ["--json no/such/folder/a.json: the folder no/such/folder does not exist; create it"]),
        ("output folder is a file", x + ["--n", "2", "--yoda", "card.yaml/a.yoda"], None, 2,
         ["--yoda card.yaml/a.yoda: the folder card.yaml is not a folder"]),
        ("--lhe without events", x + ["--n", "2", "--lhe", "a.lhe"], None, 2,
         ["--lhe without --unweighted-events: unweighted events are written to an event file; "
          "give both --unweighted-events N and --lhe FILE (or --event-file FILE)"]),
        ("an event file of no known format", x + ["--n", "2", "--lhe", "a.root",
                                                  "--unweighted-events", "10"], None, 2,
         ["--lhe a.root: the file's ending names no event format: use .lhe or .lhe.gz (Les "
          "Houches 3.0), .hdf5 or .h5 (LHEH5), .hepmc or .hepmc.gz (HepMC3 ASCII)"]),
        ("no --n", x + ["--pt-min", "20"], None, 2, ["xsec needs --n N", "--process TEXT"]),
        ("MadGraph's default scale choice", x + ["--process", "p p > t t~",
                                                 "--dynamical-scale-choice", "-1"], None, 2,
         ["--dynamical-scale-choice -1: MadGraph's default", "is not implemented: use 1, 2, 3, 4 "
          "or 10", "--scale X"]),
        ("an unknown scale choice", x + ["--process", "p p > t t~",
                                         "--dynamical-scale-choice", "7"], None, 2,
         ["--dynamical-scale-choice 7: use 1, 2, 3, 4 (MadGraph's dynamical_scale_choice) or 10"]),
        ("a histogram range upside down", x + ["--n", "2", "--pt-bins", "10:5:1"], None, 2,
         ["--pt-bins 10:5:1: the upper edge HI must be above the lower LO"]),
        ("a histogram without bins", x + ["--n", "2", "--mass-bins", "0:0:10"], None, 2,
         ["--mass-bins 0:0:10: must be BINS:LO:HI, e.g. 50:0:500 (1 to 254 bins"]),
        ("me options after the files", ["me", "a.txt", "--engine", "diagrams"], None, 2,
         ["me: --engine after the reference file a.txt: options come first"]),
        ("diagrams n", ["diagrams", "9"], None, 2,
         ["diagrams N: N = '9' must be a whole number from 2 to 8"]),
    ]
    write(os.path.join(tmp, "card.yaml"), "n: 2\n")
    ok, detail = check(exe, flags, tmp)
    report(ok, "bad flags are refused with the option, the value and the fix", detail)

    cards = [
        ("missing card", "", x + ["--card", "nothing.yaml"], 2,
         ["nothing.yaml: cannot read the run card: No such file or directory; check the path"]),
        ("unknown key", "n: 2\ncuts:\n  ptmin: 20\n", None, 2,
         ["bad.yaml:3:10: unknown key 'ptmin' (did you mean pt-min?)"]),
        ("wrong kind", "n: 2\nsqrt-s: 14 TeV\n", None, 2,
         ["bad.yaml:2:9: sqrt-s 14 TeV: not a finite number"]),
        ("not a whole number", "n: 5.5\n", None, 2,
         ["bad.yaml:1:4: n 5.5: must be a whole number from 2 to 12"]),
        ("negative cut", "n: 3\ncuts:\n  dr-min: -0.4\n", None, 2,
         ["bad.yaml:3:11: dr-min -0.4: must be >= 0"]),
        ("a boolean not true or false", "n: 2\nquiet: yes\n", None, 2,
         ["bad.yaml:2:8: quiet yes: use true or false"]),
        ("a tab", "n: 2\ncuts:\n\tpt-min: 20\n", None, 2,
         ["bad.yaml:3:1: YAML syntax", "YAML indents with spaces, not tabs"]),
        ("a duplicate key", "n: 2\ncuts:\n  n: 3\n", None, 2,
         ["bad.yaml:3:3: n (in group cuts) appears again (first on line 1); keep one of them"]),
        ("a list", "n: [2, 3]\n", None, 2,
         ["bad.yaml:1:4: n: a list is not a value; an option takes one value"]),
    ]
    card_cases = []
    for label, text, args, status, parts in cards:
        if args is None:
            path = os.path.join(tmp, f"card{len(card_cases)}", "bad.yaml")
            os.makedirs(os.path.dirname(path))
            write(path, text)
            args = x + ["--card", os.path.relpath(path, tmp)]
            parts = [p.replace("bad.yaml", os.path.relpath(path, tmp)) for p in parts]
        card_cases.append((label, args, None, status, parts))
    ok, detail = check(exe, card_cases, tmp)
    report(ok, "bad run cards are refused with file:line:column, the value and the fix", detail)

    empty = os.path.join(tmp, "no_vendors")
    os.makedirs(empty)
    env = {"OCL_ICD_VENDORS": empty}
    listed = run(exe, ["devices"], env)
    if listed.returncode == 0:
        report(True, "no OpenCL platform is an error that names the fix", "",
               skip="the ICD loader ignores OCL_ICD_VENDORS (it listed devices)")
    else:
        fix = ["no OpenCL platform found: install an OpenCL driver",
               "check that /etc/OpenCL/vendors or OCL_ICD_VENDORS lists it"]
        ok, detail = check(exe, [
            ("no platform: devices", ["devices"], env, 1, fix + ["(HEGETCL_ERR_NO_DEVICE)"]),
            ("no platform: xsec", x + ["--n", "2"] + QUICK, env, 1,
             ["choosing the OpenCL device: no OpenCL platform found"] + fix[1:]),
            ("no platform: me", ["me", "a.txt"], env, 1,
             ["choosing the OpenCL device: no OpenCL platform found"]),
        ], tmp)
        report(ok, "no OpenCL platform is an error that names the fix", detail)


def device_part(exe, tmp):
    x = ["xsec", "--device", DEVICE]
    listed = run(exe, ["devices"])
    has_gpu = listed.returncode == 0 and "; GPU]" in listed.stdout
    ok, detail = check(exe, [
        ("a device that matches nothing", ["xsec", "--n", "2", "--device", "no-such-device-xyz"]
         + QUICK, None, 1,
         ["device 'no-such-device-xyz' matches no OpenCL device; give 'auto', 'gpu', 'cpu', P:D "
          "or a part of a name from:", "\n  0:0  "]),
        ("no such P:D", ["xsec", "--n", "2", "--device", "7:3"] + QUICK, None, 1,
         ["device '7:3': there is no platform 7 device 3; the devices are:", "\n  0:0  "]),
        ("HEGETCL_DEVICE is the default", ["xsec", "--n", "2"] + QUICK,
         {"HEGETCL_DEVICE": "no-such-device-xyz"}, 1,
         ["device 'no-such-device-xyz' matches no OpenCL device"]),
    ], tmp)
    report(ok, "a device spec that matches nothing lists the devices found", detail)

    refs = os.environ.get("HEGETCL_REFS_DIR", "")
    points = os.path.join(refs, "me_points_n2.txt")
    if has_gpu:
        report(True, "--device auto says when it falls back to the CPU", "",
               skip="this machine has a GPU, which auto takes")
    else:
        ok, detail = check(exe, [
            ("auto without a GPU", ["me", "--device", "auto", "--engine", "recursive",
                                    "--precision", "float", points], None, 0,
             ["hegetcl: note: --device auto found no GPU, so this runs on",
              "which is not a GPU; `hegetcl devices` lists what was found, --device gpu makes a "
              "missing GPU an error"]),
            ("auto without a GPU (xsec)", ["xsec", "--device", "auto", "--n", "2"] + QUICK, None,
             0, ["hegetcl: note: --device auto found no GPU, so this runs on",
                 "which is not a GPU; `hegetcl devices` lists what was found, --device gpu makes "
                 "a missing GPU an error"]),
        ], tmp)
        report(ok, "--device auto says when it falls back to the CPU", detail)

    cut_cases = [
        ("sqrt(s) below threshold", x + ["--n", "3", "--sqrt-s", "50"] + QUICK, None, 1,
         ["sqrt-s = 50 GeV is below the threshold n * pt-min = 3 * 20 GeV = 60 GeV: no photon "
          "configuration passes the cuts; raise --sqrt-s, or lower --pt-min or --n"]),
        ("photons that cannot fit", x + ["--n", "3", "--eta-max", "0.05", "--dr-min", "3"] + QUICK,
         None, 1,
         ["dr-min = 3 with eta-max = 0.05: 3 photons cannot all lie in |eta| < 0.05 with every "
          "pair Delta R > 3 apart, so no event can pass the cuts; lower --dr-min, raise "
          "--eta-max or ask for fewer photons"]),
    ]
    ok, detail = check(exe, cut_cases, tmp)
    # three photons in |eta| < 0.3 pairwise Delta R > 2.5 apart need Delta phi > 2.43 between
    # each pair, 7.3 > 2 pi round the ring: empty, though the area bound lets it pass
    out = os.path.join(tmp, "empty")
    os.makedirs(out)
    p = run(exe, x + ["--n", "3", "--eta-max", "0.3", "--dr-min", "2.5", "--json", "e.json",
                      "--yoda", "e.yoda"] + QUICK, cwd=out)
    print(f"# cuts that leave no event: {p.stderr.strip().splitlines()[-1] if p.stderr else ''}")
    left = sorted(os.listdir(out))
    if p.returncode != 1 or "none of 1000 events has a non-zero weight: the cuts leave no phase " \
            "space (loosen them or raise the collider energy)" not in p.stderr or left:
        ok = False
        detail += f"; empty cuts at run time: exit {p.returncode}, files left {left}: {p.stderr}"
    # with its default checkpoint the failed run leaves none (it holds no finished iteration), so
    # the same command runs again instead of being refused as an unfinished run's
    with_checkpoint = [a for a in QUICK if a not in ("--checkpoint", "none")]
    for attempt in (1, 2):
        p = run(exe, x + ["--n", "3", "--eta-max", "0.3", "--dr-min", "2.5", "--json", "e.json"] +
                with_checkpoint, cwd=out)
        left = sorted(os.listdir(out))
        if p.returncode != 1 or "the cuts leave no phase space" not in p.stderr or left:
            ok = False
            detail += (f"; empty cuts with a checkpoint, attempt {attempt}: exit {p.returncode}, "
                       f"files left {left}: {p.stderr}")
    report(ok, "cuts that leave no phase space are refused, up front where they can be", detail)

    sets = os.environ.get("LHAPDF_DATA_PATH", "").split(":")[0]
    broken = os.path.join(tmp, "broken_sets", "cteq6l1")
    os.makedirs(broken)
    shutil.copy(os.path.join(sets, "cteq6l1", "cteq6l1.info"), broken)
    with open(os.path.join(sets, "cteq6l1", "cteq6l1_0000.dat")) as f:
        lines = f.readlines()
    lines[9] = re.sub(r"\S+", "abc", lines[9], count=1)  # line 10: a value that is no number
    with open(os.path.join(broken, "cteq6l1_0000.dat"), "w") as f:
        f.writelines(lines)
    ok, detail = check(exe, [
        ("missing PDF set", x + ["--n", "2", "--pdf", "no_such_set"] + QUICK, None, 1,
         ["PDF set 'no_such_set' not found: no no_such_set/no_such_set.info in any of these "
          "folders:", f"\n  {sets} (LHAPDF_DATA_PATH)", "/usr/share/LHAPDF (system)",
          "set LHAPDF_DATA_PATH to the folder that holds no_such_set/"]),
        ("corrupt PDF file", x + ["--n", "2", "--pdf", "broken_sets/cteq6l1"] + QUICK, None, 1,
         ["broken_sets/cteq6l1/cteq6l1_0000.dat:10:", "'abc'"]),
        ("a member the set lacks", x + ["--n", "2", "--pdf-member", "7"] + QUICK, None, 1,
         ["member 7 of", "cteq6l1.info does not exist: the set has NumMembers: 1 (members 0 to "
          "0)"]),
        ("scale below the grid", x + ["--n", "2", "--scale", "0.5"] + QUICK, None, 1,
         ["scale = 0.5 GeV lies outside PDF set cteq6l1's grid, which spans Q = 1.3 to 10000 GeV: "
          "hegetcl does not extrapolate PDFs in a cross section; give a --scale inside the grid, "
          "or a --pdf set whose grid covers 0.5 GeV"]),
        ("scale above the grid", x + ["--n", "2", "--scale", "2e4"] + QUICK, None, 1,
         ["scale = 20000 GeV lies outside PDF set cteq6l1's grid"]),
        ("x below the grid", x + ["--n", "2", "--sqrt-s", "1e6", "--pt-min", "1", "--eta-max",
                                  "5"] + QUICK, None, 1,
         ["the cuts reach x = 1.35e-08 (n * pt-min * e^-eta-max / sqrt-s = 2 * 1 GeV * e^-5 / "
          "1e+06 GeV), below PDF set cteq6l1's grid, which starts at x = 1e-06: hegetcl does not "
          "extrapolate PDFs in a cross section; raise --pt-min, lower --eta-max or --sqrt-s, or "
          "give a --pdf set whose grid reaches lower x"]),
    ], tmp)
    report(ok, "PDF sets: missing, corrupt, or not covering the scale or the cuts' x", detail)

    ok, detail = check(exe, [
        ("n above the engine's", x + ["--n", "9", "--engine", "diagrams"] + QUICK, None, 1,
         ["n_photons = 9: the diagrams engine takes 2 to 8 photons; the recursive engine takes up "
          "to 12 (--engine recursive)"]),
    ], tmp)
    report(ok, "an engine asked for more photons than it takes names the one that can", detail)

    source = os.environ.get("HEGETCL_CL_SOURCE_DIR", "")
    edited = os.path.join(tmp, "cl")
    shutil.copytree(source, edited)
    kernels = os.path.join(edited, "amplitudes", "kernels.cl")
    with open(kernels) as f:
        lines = f.readlines()
    lines.insert(2, "#error hegetcl test: a deliberately broken kernel\n")  # line 3
    with open(kernels, "w") as f:
        f.writelines(lines)
    ok, detail = check(exe, [
        ("a bad HEGETCL_CL_OPTIONS", x + ["--n", "2"] + QUICK,
         {"HEGETCL_CL_OPTIONS": "-D N_PHOTONS=x"}, 1,
         ["clBuildProgram: CL_BUILD_PROGRAM_FAILURE (-11) building",
          "HEGETCL_CL_OPTIONS='-D N_PHOTONS=x' adds options to every build: check them, or "
          "unset it; compiler log:\n", "N_PHOTONS", "(HEGETCL_ERR_PROGRAM_BUILD)"]),
        ("a broken source in HEGETCL_CL_DIR", x + ["--n", "2"] + QUICK,
         {"HEGETCL_CL_DIR": edited}, 1,
         ["clBuildProgram: CL_BUILD_PROGRAM_FAILURE (-11) building",
          "the sources come from HEGETCL_CL_DIR=cl: fix the file the log names, or unset it",
          "compiler log:\n", "amplitudes/kernels.cl:3",
          "hegetcl test: a deliberately broken kernel", "(HEGETCL_ERR_PROGRAM_BUILD)"]),
    ], tmp)
    report(ok, "a kernel that does not build gives the compiler's log and what to check", detail)

    ok, detail = check(exe, [
        ("a batch the device cannot hold", x + ["--n", "12"] + QUICK + ["--batch", "2147483647"],
         None, 1,
         ["batch = 2147483647 events per launch: the momenta alone would take 896 GiB (448 bytes "
          "an event), more than", "allows in one buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE = ",
          "GiB); use --batch ", " or less (HEGETCL_ERR_DEVICE_MEMORY)"]),
    ], tmp)
    report(ok, "a batch the device cannot hold is refused up front with one that fits", detail)


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("host", "device"):
        sys.exit(__doc__)
    exe = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        (host_part if sys.argv[2] == "host" else device_part)(exe, tmp)
    print(f"1..{len(results)}")
    for i, (ok, what, detail, skip) in enumerate(results, 1):
        if skip:
            print(f"ok {i} - {what} # SKIP {skip}")
        else:
            print(f"{'ok' if ok else 'not ok'} {i} - {what}" + ("" if ok else f": {detail}"))
    return 0 if all(ok for ok, _, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
