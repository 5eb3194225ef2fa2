#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Outputs that cannot destroy, and `hegetcl me` as a check tool. Each
case runs the real command and checks its exit status, the words of its message and what is left
in the folder. Prints TAP.

part "host" (refused before an OpenCL device is chosen):
  1  outputs that are not new paths or regular files: a device node (/dev/null, as root too), a
     FIFO, a directory, a symbolic link, a read-only (0444) file; nothing written or left behind
  2  one file named by two outputs (--lhe X --json X, ./X, a checkpoint or X.partial named so)
  3  a live run's lock refuses a second run naming its process; a dead run's lock is taken over
  4  merge-lhe: one input twice (the same name, another name, a hard link)
  5  --pt-bins above 254 (the device reduction's limit) refused up front, as --help states
  6  --help for every command exits 0 with its usage
  7  PATH.partial is claimed with --lhe PATH: another run's lock on it refuses the run; a
     PATH.partial already there (an earlier stopped run's, or any file) is refused, untouched
  8  --checkpoint-every below the batch refused with the reason (checkpoints fall between batches)
part "device":
  1  me: the shipped points agree within the default tolerance (exit 0); a reference off by 95 %
     fails (exit 1) naming the engine, the count and the tolerance; --tolerance loosens it
  2  me: a value that is not finite (--alpha 1e200 overflows |M|^2) is counted and fails
  3  me: momenta not conserved, off the mass shell, E <= 0: the point and particle named, exit 1
  4  me: a reference file with NaN, a POINT without ME, a stray line: file:line named
  5  --vegas-alpha above 2 (it collapses the grid: sigma 23 % low at 10) refused with the range
  6  a running --lhe y.lhe holds y.lhe.partial: a second run's --json y.lhe.partial is refused
  7  --resume ../k.lhe.gz.ckpt from another folder: refused naming the folder to run from,
     nothing written here or there
  8  --max-unweighting-tries 1 tries exactly one event (not a whole batch) and fails saying so
  9  me: MadGraph's photon points rotated (by pi about x: the quark along -z; and about a tilted
     axis) agree with MadGraph's values for every engine
  10 a negative PDF grid value in a flavour the run uses: refused naming file, line and value

part "bench" (hegetcl-bench, given as a third argument):
  1  --json claimed before any work: /dev/null, /dev/full, a FIFO, a symbolic link, a read-only
     file, a directory refused (exit 2) with the reason, nothing replaced or left behind
  2  a bench that measures nothing (every case skipped: beyond an engine's limit; --colour
     sampled or --precision mixed with the diagrams engine) says so and exits 1
  3  a bench that measures writes valid JSON and leaves no lock or temporary file

usage: trust.py HEGETCL_EXE host|device
       trust.py HEGETCL_EXE bench HEGETCL_BENCH_EXE
"""
import os
import shutil
import subprocess
import sys
import tempfile

DEVICE = os.environ.get("HEGETCL_TEST_DEVICE") or os.environ.get("HEGETCL_DEVICE") or "auto"
REFS = os.environ.get("HEGETCL_REFS_DIR", "")
QUICK = ["--n", "2", "--events", "2000", "--adapt-events", "1000", "--adapt-iterations", "1",
         "--min-iterations", "1", "--max-iterations", "1", "--batch", "1024", "--quiet"]
results = []


def report(ok, what, detail=""):
    results.append((ok, what, detail))


def run(exe, args, cwd):
    env = dict(os.environ)
    env.pop("HEGETCL_DEVICE", None)
    return subprocess.run([exe] + args, capture_output=True, text=True, timeout=600, env=env,
                          cwd=cwd)


def check(exe, cases, folder, keep=None):
    """(label, args, status, [parts]) cases run in folder; afterwards the folder holds only keep
    (when given). Returns (ok, detail)."""
    bad = []
    for label, args, status, parts in cases:
        p = run(exe, args, folder)
        text = (p.stderr + p.stdout).replace(folder + "/", "")
        first = next((l for l in p.stderr.splitlines() if "error" in l), "")[:300]
        print(f"# {label}: {first}")
        missing = [part for part in parts if part not in text]
        if p.returncode != status or missing:
            bad.append(f"{label}: exit {p.returncode} (expected {status}), missing {missing}: "
                       f"{text.strip()[-800:]}")
    if keep is not None:
        left = sorted(set(os.listdir(folder)) - set(keep))
        if left:
            bad.append(f"left behind: {left}")
    return not bad, "; ".join(bad).replace("\n", " | ")


def host_part(exe, tmp):
    x = ["xsec", "--device", DEVICE] + QUICK
    os.mkfifo(os.path.join(tmp, "fifo"))
    os.mkdir(os.path.join(tmp, "folder"))
    os.symlink("elsewhere.json", os.path.join(tmp, "link.json"))
    with open(os.path.join(tmp, "kept.yoda"), "w") as f:
        f.write("precious\n")
    os.chmod(os.path.join(tmp, "kept.yoda"), 0o444)
    keep = ["fifo", "folder", "link.json", "kept.yoda"]
    ok, detail = check(exe, [
        ("a device node", x + ["--unweighted-events", "10", "--lhe", "/dev/null"], 2,
         ["--lhe /dev/null is a device node, not a regular file: an output is a new or regular "
          "file, which hegetcl would put in the device's place; to do without an output, leave "
          "out its option"]),
        ("a FIFO", x + ["--json", "fifo"], 2, ["--json fifo is a FIFO (named pipe), not a regular "
                                              "file"]),
        ("a directory", x + ["--csv", "folder"], 2,
         ["--csv folder is a directory, not a regular file: give a file name inside it"]),
        ("a symbolic link", x + ["--json", "link.json"], 2,
         ["--json link.json is a symbolic link (to elsewhere.json): hegetcl does not write "
          "through links", "give the path it points to, or remove the link"]),
        ("a read-only file", x + ["--yoda", "kept.yoda"], 2,
         ["--yoda kept.yoda is read-only (mode 0444): hegetcl does not replace a file you may not "
          "write; make it writable (chmod u+w kept.yoda)"]),
    ], tmp, keep)
    with open(os.path.join(tmp, "kept.yoda")) as f:
        ok = ok and f.read() == "precious\n"
    ok = ok and os.path.exists("/dev/null") and not os.path.isfile("/dev/null") \
        and not os.path.exists("/dev/null.ckpt")
    report(ok, "outputs that are not new paths or regular files are refused by kind, nothing "
           "left behind, /dev/null stays a device", detail)

    ok, detail = check(exe, [
        ("--lhe X --json X", x + ["--unweighted-events", "10", "--lhe", "X", "--json", "X"], 2,
         ["--lhe X and --json X are the same file: one output would replace the other; give "
          "each output its own name"]),
        ("./X", x + ["--yoda", "X", "--csv", "./X"], 2, ["--yoda X and --csv ./X are the same "
                                                        "file"]),
        ("the default checkpoint", x + ["--json", "r", "--yoda", "r.ckpt"], 2,
         ["--yoda r.ckpt and the checkpoint (named after the first output) r.ckpt are the same "
          "file"]),
        ("X.partial", x + ["--unweighted-events", "10", "--lhe", "e", "--json", "e.partial"], 2,
         ["--json e.partial is the name --lhe e uses for its stopped run's part (e.partial)"]),
        ("a lock's name", x + ["--json", "r", "--csv", "r.lock"], 2,
         ["--csv r.lock is the name --json r uses for its lock (r.lock)"]),
        ("the stopped part's lock", x + ["--unweighted-events", "10", "--lhe", "e", "--json",
                                         "e.partial.lock"], 2,
         ["--json e.partial.lock is the name --lhe e uses for its stopped part's lock "
          "(e.partial.lock)"]),
    ], tmp, keep)
    report(ok, "one file named by two outputs (derived names included) is refused", detail)

    # a live process's lock: this script's own pid
    with open(os.path.join(tmp, "busy.json.lock"), "w") as f:
        f.write(f"{os.getpid()}\nbusy.json.tmp.{os.getpid()}.0\n")
    ok, detail = check(exe, [
        ("a running run's output", x + ["--json", "busy.json"], 2,
         [f"--json busy.json is being written by another run, process {os.getpid()} (its lock is "
          "busy.json.lock): wait for that run to end, or write to another name"]),
    ], tmp, keep + ["busy.json.lock"])
    report(ok, "a second run writing the same output is refused, naming the first run's process",
           detail)

    with open(os.path.join(tmp, "a.lhe"), "w") as f:
        f.write("<LesHouchesEvents version=\"3.0\">\n</LesHouchesEvents>\n")
    os.link(os.path.join(tmp, "a.lhe"), os.path.join(tmp, "b.lhe"))
    ok, detail = check(exe, [
        ("one input twice", ["merge-lhe", "-o", "o.lhe", "a.lhe", "a.lhe"], 1,
         ["input 2 (a.lhe) is the same file as input 1 (a.lhe): its events would be merged "
          "twice; give each file once"]),
        ("another name", ["merge-lhe", "-o", "o.lhe", "a.lhe", "./a.lhe"], 1,
         ["input 2 (./a.lhe) is the same file as input 1 (a.lhe)"]),
        ("a hard link", ["merge-lhe", "-o", "o.lhe", "a.lhe", "b.lhe"], 1,
         ["input 2 (b.lhe) is the same file as input 1 (a.lhe)"]),
        ("merge into a device", ["merge-lhe", "-o", "/dev/null", "a.lhe"], 1,
         ["the merged file /dev/null is a device node, not a regular file"]),
    ], tmp, keep + ["busy.json.lock", "a.lhe", "b.lhe"])
    report(ok, "merge-lhe refuses one input twice (by inode) and a device as output", detail)

    ok, detail = check(exe, [
        ("--pt-bins above the limit", x + ["--pt-bins", "300:0:500"], 2,
         ["--pt-bins 300:0:500: must be BINS:LO:HI, e.g. 50:0:500 (1 to 254 bins"]),
    ], tmp)
    p = run(exe, ["xsec", "--help"], tmp)
    ok = ok and "100000" not in p.stdout.split("pt-bins")[1].split("\n")[0]
    report(ok, "--pt-bins is refused above the device's 254 bins before a device is chosen",
           detail)

    # the stopped part's name is claimed like every output
    with open(os.path.join(tmp, "y.lhe.partial.lock"), "w") as f:
        f.write(f"{os.getpid()}\ny.lhe.partial.tmp.{os.getpid()}.0\n")
    with open(os.path.join(tmp, "p.lhe.partial"), "w") as f:
        f.write("an earlier stopped run's events\n")
    ok, detail = check(exe, [
        ("another run's lock on PATH.partial", x + ["--unweighted-events", "10", "--lhe",
                                                     "y.lhe"], 2,
         [f"--lhe's stopped part y.lhe.partial is being written by another run, process "
          f"{os.getpid()}"]),
        ("PATH.partial already there", x + ["--unweighted-events", "10", "--lhe", "p.lhe"], 2,
         ["--lhe p.lhe: p.lhe.partial is already there (what an earlier run stopped with, or "
          "another file): this run would replace it if it stopped, and remove it when complete; "
          "continue that run (hegetcl xsec --resume with its checkpoint), or move p.lhe.partial "
          "away first"]),
    ], tmp, keep + ["busy.json.lock", "a.lhe", "b.lhe", "y.lhe.partial.lock", "p.lhe.partial"])
    with open(os.path.join(tmp, "p.lhe.partial")) as f:
        ok = ok and f.read() == "an earlier stopped run's events\n"
    report(ok, "an event file's PATH.partial is claimed with it: locked by another run or already "
           "there, the run is refused and the file left as it was", detail)

    ok, detail = check(exe, [
        ("--checkpoint-every below the batch", ["xsec", "--n", "2", "--checkpoint-every",
                                                "10000", "--json", "c.json"], 2,
         ["--checkpoint-every 10000: below one batch (--batch 1048576): the unweighting saves "
          "its checkpoint between batches, and one batch can write up to 1048576 events, so "
          "checkpoints cannot be closer; give at least 1048576, a smaller --batch, or 0"]),
    ], tmp, keep + ["busy.json.lock", "a.lhe", "b.lhe", "y.lhe.partial.lock", "p.lhe.partial"])
    report(ok, "--checkpoint-every below one batch is refused, saying why", detail)

    bad = []
    for command in (["me"], ["diagrams"], ["xsec"], ["devices"], ["merge-lhe"]):
        p = run(exe, command + ["--help"], tmp)
        if p.returncode != 0 or not p.stdout.startswith(f"usage: hegetcl {command[0]}"):
            bad.append(f"{command[0]} --help: exit {p.returncode}: {p.stdout[:100]}{p.stderr[:200]}")
    report(not bad, "--help for every command prints its usage and exits 0", "; ".join(bad))


def write_points(path, me_scale=1.0, edit=None):
    """The n = 2 reference points with ME times me_scale; edit(lines) may change the lines."""
    with open(os.path.join(REFS, "me_points_n2.txt")) as f:
        lines = f.read().splitlines()
    out = []
    for line in lines:
        if line.startswith("ME "):
            line = f"ME {float(line.split()[1]) * me_scale!r}"
        out.append(line)
    if edit:
        out = edit(out)
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def write_rotated(path, n):
    """The n-photon reference points, each given twice: rotated by pi about the x axis (the quark
    along -z) and by 1 rad about the axis (1, 2, 2)/3; the ME lines as they are."""
    import math
    c, s = math.cos(1.0), math.sin(1.0)
    a = (1 / 3, 2 / 3, 2 / 3)
    # Rodrigues: R = c I + s [a]x + (1 - c) a a^T
    r = [[c * (i == j) + (1 - c) * a[i] * a[j] for j in range(3)] for i in range(3)]
    r[0][1] -= s * a[2]; r[0][2] += s * a[1]; r[1][0] += s * a[2]
    r[1][2] -= s * a[0]; r[2][0] -= s * a[1]; r[2][1] += s * a[0]
    flip = [[1, 0, 0], [0, -1, 0], [0, 0, -1]]
    with open(os.path.join(REFS, f"me_points_n{n}.txt")) as f:
        lines = f.read().splitlines()
    out = []
    for m in (flip, r):
        for line in lines:
            if line.startswith(" "):
                e, *v = (float(x) for x in line.split())
                v = [sum(m[i][j] * v[j] for j in range(3)) for i in range(3)]
                line = " " + " ".join(f"{x:.17e}" for x in [e] + v)
            out.append(line)
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def device_part(exe, tmp):
    me = ["me", "--device", DEVICE, "--engine", "recursive"]
    write_points(os.path.join(tmp, "off.txt"), 1 / 0.05)  # the engine is 95 % below

    def momentum(index, value):
        def edit(lines):
            rows = [i for i, l in enumerate(lines) if l.startswith(" ")]
            lines[rows[index]] = value
            return lines
        return edit
    write_points(os.path.join(tmp, "unconserved.txt"),
                 edit=momentum(2, " 2.5e+02 -1.1858311547376567e+02 2.1957457643756570e+02 "
                                  "1.6e+01"))
    write_points(os.path.join(tmp, "negative.txt"),
                 edit=momentum(7, " -2.5e+02 0 0 2.5e+02"))
    write_points(os.path.join(tmp, "nan.txt"), edit=momentum(5, " nan 0 0 1"))
    write_points(os.path.join(tmp, "no_me.txt"), edit=lambda l: l[:-1])
    write_points(os.path.join(tmp, "stray.txt"), edit=lambda l: l[:18] + ["hello"] + l[18:])
    ref = os.path.join(REFS, "me_points_n2.txt")
    ok, detail = check(exe, [
        ("the shipped points", me + [ref], 0,
         ["largest relative difference to MadGraph", "tolerance 1.0e-10: ok"]),
        ("95 % off", me + ["off.txt"], 1,
         ["tolerance 1.0e-10: FAILED", "[ABOVE TOLERANCE]",
          "n=2 recursive double: 4 of 4 values differ from the reference by more than the "
          "tolerance 1.0e-10"]),
        ("95 % off, --tolerance 0.99", ["me", "--tolerance", "0.99", "--device", DEVICE,
                                        "--engine", "recursive", "off.txt"], 0,
         ["tolerance 9.9e-01: ok"]),
        ("a bad tolerance", me + ["--tolerance", "-1", ref], 2,
         ["me: --tolerance -1: must be a finite number above 0"]),
    ], tmp)
    report(ok, "me fails (exit 1) when a value differs from the reference by more than "
           "--tolerance (default 1e-10 in double)", detail)
    ok, detail = check(exe, [
        ("|M|^2 overflows", me + ["--alpha", "1e200", ref], 1,
         ["over 4 points, 4 not finite", "[NOT FINITE]",
          "4 of 4 values are not finite, unlike the reference"]),
    ], tmp)
    report(ok, "me counts values that are not finite and fails on them", detail)
    ok, detail = check(exe, [
        ("not conserved", me + ["unconserved.txt"], 1,
         ["unconserved.txt: point 1, particle 3: off the mass shell"]),
        ("E < 0", me + ["negative.txt"], 1,
         ["negative.txt: point 2, particle 4: energy -250 is not positive"]),
    ], tmp)
    # conservation alone: a photon moved along its own direction stays on shell
    write_points(os.path.join(tmp, "scaled.txt"),
                 edit=momentum(2, " 5.0000000000000006e+02 -2.3716623094753134e+02 "
                                  "4.3914915287513140e+02 3.0003340267315452e+01"))
    ok2, detail2 = check(exe, [
        ("only conservation", me + ["scaled.txt"], 1,
         ["scaled.txt: point 1: momentum not conserved: incoming minus outgoing E = -2.500e+02"]),
    ], tmp)
    report(ok and ok2, "me checks every point's momenta and names the point and particle",
           "; ".join(d for d in (detail, detail2) if d))
    ok, detail = check(exe, [
        ("NaN", me + ["nan.txt"], 1, ["nan.txt:26: momentum component 1 is not finite"]),
        ("no ME", me + ["no_me.txt"], 1,
         ["no_me.txt:36: the file ends inside this POINT block: its 'ME' line is missing"]),
        ("a stray line", me + ["stray.txt"], 1, ["stray.txt:19: expected a momentum line 'E px py "
                                                 "pz' (four numbers) inside a POINT block"]),
    ], tmp)
    report(ok, "me refuses a malformed reference file naming file and line", detail)

    ok, detail = check(exe, [
        ("--vegas-alpha 10", ["xsec", "--device", DEVICE] + QUICK +
         ["--checkpoint", "none", "--vegas-alpha", "10", "--json", "r.json"], 2,
         ["--vegas-alpha 10: must lie in 0 to 2 (the grid damping exponent; the usual range is "
          "0.5 to 2): larger values collapse the VEGAS grid onto a few bins"]),
    ], tmp)
    ok = ok and not os.path.exists(os.path.join(tmp, "r.json"))
    report(ok, "--vegas-alpha beyond the range that works is refused, saying why", detail)

    # a run writing y.lhe holds y.lhe.partial, where its SIGTERM would put its events
    first = subprocess.Popen([exe, "xsec", "--device", DEVICE, "--n", "2", "--events", "2000",
                              "--adapt-events", "1000", "--adapt-iterations", "1",
                              "--min-iterations", "1", "--max-iterations", "1", "--batch",
                              "1024", "--quiet", "--checkpoint", "none", "--unweighted-events",
                              "100000000", "--lhe", "y.lhe"], cwd=tmp,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    import time
    for _ in range(600):
        # the event file's temporary name: opened just before the run catches SIGTERM
        if any(n.startswith("y.lhe.tmp.") for n in os.listdir(tmp)) or first.poll() is not None:
            break
        time.sleep(0.05)
    time.sleep(0.5)
    ok, detail = check(exe, [
        ("--json on a running run's PATH.partial", ["xsec", "--device", DEVICE] + QUICK +
         ["--checkpoint", "none", "--json", "y.lhe.partial"], 2,
         [f"--json y.lhe.partial is being written by another run, process {first.pid}"]),
    ], tmp)
    first.terminate()
    first.communicate(timeout=300)
    # what the stopped run keeps is its own events (y.lhe.partial, when it got to write any)
    left = sorted(n for n in os.listdir(tmp) if n.startswith("y.lhe"))
    ok = ok and left in ([], ["y.lhe.partial"])
    if "y.lhe.partial" in left:
        with open(os.path.join(tmp, "y.lhe.partial")) as f:
            ok = ok and f.read(18) == "<LesHouchesEvents "
    detail += f" left: {left}" if not ok else ""
    for name in os.listdir(tmp):
        if name.startswith("y.lhe"):
            os.remove(os.path.join(tmp, name))
    report(ok, "a running --lhe y.lhe holds y.lhe.partial: --json y.lhe.partial is refused",
           detail)

    # a checkpoint in another folder, its outputs named relative to it
    os.mkdir(os.path.join(tmp, "started"))
    os.mkdir(os.path.join(tmp, "elsewhere"))
    env = dict(os.environ, HEGETCL_TEST_INTERRUPT_AFTER="iterations:1")
    env.pop("HEGETCL_DEVICE", None)
    subprocess.run([exe, "xsec", "--device", DEVICE, "--n", "2", "--events", "2000",
                    "--adapt-events", "1000", "--adapt-iterations", "2", "--min-iterations", "1",
                    "--max-iterations", "2", "--batch", "1024", "--quiet", "--unweighted-events",
                    "100", "--lhe", "k.lhe.gz"], cwd=os.path.join(tmp, "started"), env=env,
                   capture_output=True, timeout=600)
    started = sorted(os.listdir(os.path.join(tmp, "started")))
    ok, detail = check(exe, [
        ("--resume from another folder", ["xsec", "--resume", "../started/k.lhe.gz.ckpt"], 2,
         ["--resume ../started/k.lhe.gz.ckpt: the run started in ../started, where its checkpoint "
          "is, and names its outputs relative to that folder (--lhe k.lhe.gz)",
          "run `cd ../started && hegetcl xsec --resume k.lhe.gz.ckpt` instead"]),
    ], os.path.join(tmp, "elsewhere"), [])
    ok = ok and started == ["k.lhe.gz.ckpt"] and \
        sorted(os.listdir(os.path.join(tmp, "started"))) == started
    report(ok, "--resume of a checkpoint in another folder is refused, naming the folder to run "
           "from; nothing is written in either", detail + f" (started: {started})")

    ok, detail = check(exe, [
        ("--max-unweighting-tries 1", ["xsec", "--device", DEVICE] + QUICK +
         ["--checkpoint", "none", "--unweighted-events", "10", "--lhe", "t.lhe",
          "--max-unweighting-tries", "1"], 1,
         ["unweighting: 0 of 10 events after 1 tries"]),
    ], tmp)
    ok = ok and not os.path.exists(os.path.join(tmp, "t.lhe"))
    report(ok, "--max-unweighting-tries holds to the event (1 try, not a batch of 1024)", detail)

    write_rotated(os.path.join(tmp, "rotated3.txt"), 3)
    ok, detail = check(exe, [
        (f"rotated points, {engine}", ["me", "--device", DEVICE, "--engine", engine,
                                       "rotated3.txt"], 0,
         ["over 8 points", "tolerance 1.0e-10: ok"])
        for engine in ("permutation", "unrolled", "diagrams", "recursive")], tmp)
    report(ok, "me: photon points in any frame (quark along -z, a tilted rotation) agree with "
           "MadGraph for every engine", detail)

    # a negative quark density at one knot of a copy of the shipped set
    source = os.path.join(os.environ.get("LHAPDF_DATA_PATH", "").split(":")[0], "cteq6l1")
    if not os.path.isdir(source):
        report(True, "a negative PDF grid value is named with file and line # SKIP no cteq6l1 in "
               "LHAPDF_DATA_PATH")
        return
    shutil.copytree(source, os.path.join(tmp, "neg_sets", "cteq6l1"))
    dat = os.path.join(tmp, "neg_sets", "cteq6l1", "cteq6l1_0000.dat")
    with open(dat) as f:
        lines = f.read().split("\n")
    fields = lines[19].split()
    fields[6] = "-1.0e-03"  # column 7: flavour 2, the u quark
    lines[19] = " ".join(fields)
    with open(dat, "w") as f:
        f.write("\n".join(lines))
    ok, detail = check(exe, [
        ("a negative u density", ["xsec", "--device", DEVICE] + QUICK +
         ["--checkpoint", "none", "--pdf", "neg_sets/cteq6l1", "--json", "n.json"], 1,
         ["PDF set cteq6l1, flavour 2: neg_sets/cteq6l1/cteq6l1_0000.dat:20: x f = -0.001 "
          "(value 7) is negative", "use a set (or member) whose quark densities are not "
          "negative"]),
    ], tmp)
    ok = ok and not os.path.exists(os.path.join(tmp, "n.json"))
    report(ok, "a negative PDF grid value is named with file and line", detail)


def bench_part(bench, tmp):
    os.mkfifo(os.path.join(tmp, "fifo"))
    os.mkdir(os.path.join(tmp, "folder"))
    os.symlink("elsewhere.json", os.path.join(tmp, "link.json"))
    with open(os.path.join(tmp, "kept.json"), "w") as f:
        f.write("precious\n")
    os.chmod(os.path.join(tmp, "kept.json"), 0o444)
    keep = ["fifo", "folder", "link.json", "kept.json"]
    b = ["--device", DEVICE, "--engines", "recursive", "--n", "2", "--precision", "float",
         "--mode", "summed", "--events", "256", "--max-seconds", "2"]
    e = "hegetcl-bench: error: --json "
    ok, detail = check(bench, [
        ("/dev/null", b + ["--json", "/dev/null"], 2,
         [e + "/dev/null is a device node, not a regular file"]),
        ("/dev/full", b + ["--json", "/dev/full"], 2,
         [e + "/dev/full is a device node, not a regular file"]),
        ("a FIFO", b + ["--json", "fifo"], 2, [e + "fifo is a FIFO (named pipe)"]),
        ("a symbolic link", b + ["--json", "link.json"], 2,
         [e + "link.json is a symbolic link (to elsewhere.json)"]),
        ("a read-only file", b + ["--json", "kept.json"], 2,
         [e + "kept.json is read-only (mode 0444)"]),
        ("a directory", b + ["--json", "folder"], 2,
         [e + "folder is a directory, not a regular file"]),
    ], tmp, keep)
    with open(os.path.join(tmp, "kept.json")) as f:
        ok = ok and f.read() == "precious\n"
    ok = ok and os.path.exists("/dev/null") and not os.path.isfile("/dev/null") \
        and not os.path.isfile("/dev/full")
    report(ok, "hegetcl-bench --json is claimed before any work: devices, FIFOs, links, read-only "
           "files and directories refused, nothing replaced", detail)

    nothing = "hegetcl-bench: error: nothing was measured: every case was skipped"
    ok, detail = check(bench, [
        ("beyond the engine's limit", ["--device", DEVICE, "--engines", "permutation", "--n",
                                       "12", "--json", "none.json"], 1,
         ["skipped: n = 12 is beyond the permutation engine's limit of 8", nothing]),
        ("sampled colours, diagrams", ["--device", DEVICE, "--process", "g g > g g", "--colour",
                                       "sampled", "--engines", "diagrams"], 1,
         ["--colour sampled is for the recursive engine", nothing]),
        ("mixed, diagrams", ["--device", DEVICE, "--process", "g g > g g", "--precision",
                             "mixed", "--engines", "diagrams"], 1,
         ["--precision mixed (the colour sum in double) is for the recursive colour engine",
          nothing]),
        ("the photon family, sampled colours", ["--device", DEVICE, "--process", "u u~ > a a a",
                                                "--colour", "sampled"], 1,
         ["sampled colours and helicities are benchmarked for the recursive engine", nothing]),
    ], tmp, keep + ["none.json"])
    report(ok, "a bench that measures nothing lists the skipped cases with their reasons and "
           "exits 1", detail)

    env = dict(os.environ)
    p = subprocess.run([bench] + b + ["--json", "out.json"], capture_output=True, text=True,
                       timeout=600, cwd=tmp, env=env)
    import json
    try:
        with open(os.path.join(tmp, "out.json")) as f:
            results = json.load(f)["results"]
        ok = p.returncode == 0 and any(r.get("status") == "ok" for r in results)
        detail = "" if ok else f"exit {p.returncode}: {p.stderr[-500:]}"
    except (OSError, ValueError, KeyError) as error:
        ok, detail = False, f"exit {p.returncode}, {error}: {p.stderr[-500:]}"
    left = sorted(set(os.listdir(tmp)) - set(keep) - {"none.json", "out.json"})
    ok = ok and not left
    report(ok, "a bench that measures writes its JSON and leaves no lock or temporary file",
           detail + (f" left: {left}" if left else ""))


def main():
    if not (len(sys.argv) == 3 and sys.argv[2] in ("host", "device") or
            len(sys.argv) == 4 and sys.argv[2] == "bench"):
        sys.exit(__doc__)
    exe = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        if sys.argv[2] == "bench":
            bench_part(os.path.abspath(sys.argv[3]), tmp)
        else:
            (host_part if sys.argv[2] == "host" else device_part)(exe, tmp)
    print(f"1..{len(results)}")
    for i, (ok, what, detail) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {what}" + ("" if ok else f": {detail}"))
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
