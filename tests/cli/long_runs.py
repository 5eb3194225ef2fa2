#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Long runs of `hegetcl xsec` on the device under test: a run stopped by a signal (raised at a
point fixed by HEGETCL_TEST_INTERRUPT_AFTER, so independent of timing) and resumed from its
checkpoint gives what a run never stopped gives, and bad checkpoints are refused with messages
that name the problem. Every run works in its own folder with the same relative paths, so that the
run cards the outputs carry are one text. Prints TAP.

part "resume" (each compared with an uninterrupted run of the same settings, which leaves its
outputs and no checkpoint; every resumed run that finishes removes its checkpoint too):
  1  SIGTERM in the adaptation: exit status 143, the checkpoint kept, no event file (not even a
     temporary one), no JSON or YODA; the resumed run's sigma and error (printed and in the JSON),
     every other JSON number but the timings, the YODA and CSV histograms and the gzip'd event
     file are identical, byte for byte
  2  SIGINT in the combined iterations of a run with histograms (the checkpoint holds them and
     the histograms' sums so far): the same identities
  3  SIGINT in the combined iterations of a run without histograms and a plain event file (the
     checkpoint holds the combined iterations): the same identities
  4  SIGINT in the unweighting: exit status 130, FILE.partial is a Les Houches file that pylhe
     reads, holding exactly the events the checkpoint counts, each identical (as text) to the same
     event of the uninterrupted run but for its weight; the stream --resume continues is kept as
     FILE.tmp.<pid>.<x>; resumed: the same identities, and FILE.partial and the stream are gone
  5  FILE.partial's header and weights describe its k events alone: <xsecinfo neve> = k, XSECUP
     and totxsec the uninterrupted run's sigma, XMAXUP and every XWGTUP sigma / k, so that the
     weights add up to sigma (to 1e-9 relative; IDWTUP 3)
  6  stopped twice in the unweighting (the second time in the resumed run), then resumed: the
     same identities; after the second stop one stream is left, the newer, and FILE.partial
     holds the events of both parts
  7  SIGKILL in the unweighting (no checkpoint on the way out): resumed from the last periodic
     checkpoint and the killed run's FILE.tmp.<pid>.<x>, the same identities
part "errors" (exit status 2 and the message, checked word for word where it names values):
  1  --resume of a file that is not there, of one that is no checkpoint, of another format
     version, of one cut short, of one whose contents were changed (CRC-32)
  2  --resume with a setting that differs from the checkpoint's names it and both values
  3  --resume of a finished run (kept by --keep-checkpoint) says so, with its sigma
  4  a fresh run refuses to replace the checkpoint of an unfinished run, naming --resume
  5  an event stream changed after the stop is refused when the run resumes (exit status 1), and
     so is one that was removed (exit status 2: FILE.partial, with weights of its own, is no
     stream to continue)

usage: long_runs.py HEGETCL_EXE resume|errors
"""
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import warnings

DEVICE = os.environ.get("HEGETCL_TEST_DEVICE") or os.environ.get("HEGETCL_DEVICE") or "auto"
BASE = ["--n", "2", "--adapt-iterations", "2", "--adapt-events", "20000", "--events", "50000",
        "--min-iterations", "3", "--max-iterations", "3", "--target-error", "0", "--batch", "1024",
        "--seed", "3", "--helicity", "sampled", "--device", DEVICE, "--unweighted-events", "3000",
        "--checkpoint-every", "1024", "--json", "run.json", "--quiet"]
WITH_HISTOGRAMS = BASE + ["--yoda", "run.yoda", "--csv", "run.csv", "--lhe", "ev.lhe.gz"]
PLAIN = BASE + ["--lhe", "ev.lhe"]
TIMINGS = ("seconds", "events_written_per_second")

results = []


def report(ok, what, detail=""):
    results.append((ok, what, detail))


def run(exe, folder, args, interrupt=None):
    env = dict(os.environ)
    env.pop("HEGETCL_TEST_INTERRUPT_AFTER", None)
    if interrupt:
        env["HEGETCL_TEST_INTERRUPT_AFTER"] = interrupt
    os.makedirs(folder, exist_ok=True)
    return subprocess.run([exe, "xsec"] + args, cwd=folder, env=env, capture_output=True,
                          text=True, timeout=600)


def without_timings(value):
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items()
                if not any(t in k for t in TIMINGS)}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def sigma_line(stdout):
    m = re.search(r"sigma\(.*?\) = (\S+) \+- (\S+) fb", stdout)
    return m.groups() if m else None


def same_as(reference, folder, resumed, files):
    """What differs between the uninterrupted run and the resumed one ([] when nothing does)."""
    problems = []
    if resumed.returncode != 0:
        return [f"resumed run: exit {resumed.returncode}: {resumed.stderr.strip()[-600:]}"]
    a, b = sigma_line(reference.stdout), sigma_line(resumed.stdout)
    if a is None or a != b:
        problems.append(f"printed sigma {a} vs {b}")
    ja = json.load(open(os.path.join(reference.folder, "run.json")))
    jb = json.load(open(os.path.join(folder, "run.json")))
    for key in ("sigma_fb", "error_fb"):
        if ja["result"][key] != jb["result"][key]:
            problems.append(f"JSON {key} {ja['result'][key]!r} vs {jb['result'][key]!r}")
    if without_timings(ja) != without_timings(jb):
        problems.append("the JSON records differ beyond their timings")
    for name in files:
        with open(os.path.join(reference.folder, name), "rb") as f:
            x = f.read()
        path = os.path.join(folder, name)
        y = open(path, "rb").read() if os.path.exists(path) else None
        if x != y:
            problems.append(f"{name} differs ({len(x)} vs {None if y is None else len(y)} bytes)")
    # a finished run removes its checkpoint, its lock and its temporary files
    leftovers = [f for f in os.listdir(folder)
                 if f.endswith((".tmp", ".partial", ".lock", ".ckpt")) or ".tmp." in f]
    if leftovers:
        problems.append(f"left behind: {leftovers}")
    return problems


def checkpoint_line(folder, name, key):
    for line in open(os.path.join(folder, name)):
        if line.startswith(key + " "):
            return line[len(key) + 1:].strip()
    return None


def event_blocks(text):
    return re.findall(r"<event>.*?</event>\n", text, re.S)


def without_weight(block):
    """An <event> block with its XWGTUP (the third number of its first line) left out."""
    lines = block.split("\n")
    fields = lines[1].split()
    lines[1] = " ".join(fields[:2] + fields[3:])
    return "\n".join(lines)


def init_numbers(text):
    """XSECUP, XMAXUP, neve and totxsec of an LHE file's <init> block."""
    init = text[text.index("<init>"):text.index("</init>")].split("\n")
    process = init[2].split()
    info = re.search(r'<xsecinfo neve="(\d+)" totxsec="([^"]+)"', text)
    return float(process[0]), float(process[2]), int(info.group(1)), float(info.group(2))


def partial_header_problems(text, reference, written):
    """What in FILE.partial's header and weights does not describe its events alone."""
    problems = []
    sigma, xmax, neve, total = init_numbers(text)
    ref_sigma, _, ref_neve, _ = init_numbers(reference)
    weights = [float(b.split("\n")[1].split()[2]) for b in event_blocks(text)]
    if neve != written or len(weights) != written:
        problems.append(f"neve {neve}, {len(weights)} events, the checkpoint counts {written}")
    if sigma != ref_sigma or total != ref_sigma:
        problems.append(f"XSECUP {sigma!r}, totxsec {total!r}: the run's sigma is {ref_sigma!r}")
    if weights and abs(sum(weights) / sigma - 1) > 1e-9:
        problems.append(f"the weights add up to {sum(weights)!r}, sigma is {sigma!r} (ratio - 1 = "
                        f"{sum(weights) / sigma - 1:.2e})")
    expected = sigma / max(written, 1)
    if any(abs(w / expected - 1) > 1e-15 for w in weights + [xmax]):
        problems.append(f"XMAXUP {xmax!r}, weights from {min(weights)!r} to {max(weights)!r}, "
                        f"want sigma / k = {expected!r} (the uninterrupted run's neve: {ref_neve})")
    return problems


def part_resume(exe, tmp):
    ref = run(exe, os.path.join(tmp, "ref"), WITH_HISTOGRAMS)
    ref.folder = os.path.join(tmp, "ref")
    plain = run(exe, os.path.join(tmp, "ref_plain"), PLAIN)
    plain.folder = os.path.join(tmp, "ref_plain")
    if ref.returncode != 0 or plain.returncode != 0:
        report(False, "the uninterrupted runs complete",
               f"{ref.stderr.strip()[-400:]} {plain.stderr.strip()[-400:]}")
        return
    outputs = ["run.yoda", "run.csv", "ev.lhe.gz"]
    left = sorted(os.listdir(ref.folder)) + sorted(os.listdir(plain.folder))
    report(left == ["ev.lhe.gz", "run.csv", "run.json", "run.yoda", "ev.lhe", "run.json"],
           "a finished run removes its checkpoint: only its outputs are left", f"files {left}")

    # 1: SIGTERM in the adaptation
    folder = os.path.join(tmp, "term")
    a = run(exe, folder, WITH_HISTOGRAMS, "iterations:1:TERM")
    present = sorted(os.listdir(folder))
    problems = []
    if a.returncode != 143:
        problems.append(f"exit {a.returncode} (want 143): {a.stderr.strip()[-400:]}")
    if present != ["ev.lhe.gz.ckpt"]:
        problems.append(f"files after the stop: {present}")
    if "hegetcl xsec --resume ev.lhe.gz.ckpt" not in a.stderr:
        problems.append(f"no resume hint: {a.stderr.strip()}")
    b = run(exe, folder, ["--resume", "ev.lhe.gz.ckpt", "--quiet"])
    problems += same_as(ref, folder, b, outputs)
    report(not problems, "SIGTERM in the adaptation: exit 143, nothing but the checkpoint; "
           "resumed: the same sigma, JSON, histograms and event file", "; ".join(problems))

    # 2: SIGINT in the combined iterations, with histograms
    folder = os.path.join(tmp, "combined")
    a = run(exe, folder, WITH_HISTOGRAMS, "iterations:4")
    problems = [] if a.returncode == 130 else [f"exit {a.returncode}: {a.stderr.strip()[-400:]}"]
    saved = checkpoint_line(folder, "ev.lhe.gz.ckpt", "vegas.progress")
    if saved is None or not saved.startswith("4 2 "):
        problems.append(f"checkpoint progress {saved!r} (want 4 iterations, 2 combined)")
    if checkpoint_line(folder, "ev.lhe.gz.ckpt", "histograms.state") is None:
        problems.append("the checkpoint holds no histograms.state")
    b = run(exe, folder, ["--resume", "ev.lhe.gz.ckpt"])
    problems += same_as(ref, folder, b, outputs)
    report(not problems, "SIGINT in the combined iterations with histograms: resumed from them "
           "and the histograms' sums, the same sigma, JSON, histograms and event file",
           "; ".join(problems))

    # 3: SIGINT in the combined iterations, no histograms, plain LHE
    folder = os.path.join(tmp, "combined_plain")
    a = run(exe, folder, PLAIN, "iterations:4")
    problems = [] if a.returncode == 130 else [f"exit {a.returncode}: {a.stderr.strip()[-400:]}"]
    saved = checkpoint_line(folder, "ev.lhe.ckpt", "vegas.progress")
    if saved is None or not saved.startswith("4 2 "):
        problems.append(f"checkpoint progress {saved!r} (want 4 iterations, 2 combined)")
    b = run(exe, folder, ["--resume", "ev.lhe.ckpt", "--quiet"])
    problems += same_as(plain, folder, b, ["ev.lhe"])
    report(not problems, "SIGINT in the combined iterations without histograms: resumed from "
           "them, the same sigma, JSON and plain event file", "; ".join(problems))

    # 4 and 5: SIGINT in the unweighting
    folder = os.path.join(tmp, "unweighting")
    a = run(exe, folder, WITH_HISTOGRAMS, "events:1000")
    problems = [] if a.returncode == 130 else [f"exit {a.returncode}: {a.stderr.strip()[-400:]}"]
    progress = checkpoint_line(folder, "ev.lhe.gz.ckpt", "unweight.progress")
    written = int(progress.split()[1]) if progress else -1
    partial = os.path.join(folder, "ev.lhe.gz.partial")
    present = sorted(os.listdir(folder))
    streams = [f for f in present if f.startswith("ev.lhe.gz.tmp.")]
    detail, header_problems = "", ["no FILE.partial"]
    if not os.path.exists(partial) or "ev.lhe.gz" in present or len(streams) != 1:
        problems.append(f"files after the stop: {present}")
    if os.path.exists(partial):
        import pylhe
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                events = list(pylhe.LHEFile.fromfile(partial).events)
            complete = all(len(e.particles) == 4 for e in events)
        except Exception as e:  # pylint: disable=broad-except
            events, complete = [], False
            problems.append(f"pylhe cannot read {partial}: {e}")
        with gzip.open(partial, "rt") as f:
            text = f.read()
        mine = event_blocks(text)
        with gzip.open(os.path.join(ref.folder, "ev.lhe.gz"), "rt") as f:
            reference = f.read()
        theirs = event_blocks(reference)
        same = [without_weight(x) for x in mine] == [without_weight(x) for x in theirs[:written]]
        if not (0 < written < 3000 and len(events) == written and len(mine) == written
                and complete and same):
            problems.append(f"{len(events)} events read by pylhe ({len(mine)} blocks), the "
                            f"checkpoint says {written}; complete {complete}; the same as the "
                            f"uninterrupted run's first ones but for their weights: {same}")
        header_problems = partial_header_problems(text, reference, written)
        detail = f"{written} events in the partial file"
    if "they are in ev.lhe.gz.partial, a Les Houches file of those events alone" not in a.stderr:
        problems.append(f"the stop message: {a.stderr.strip()!r}")
    b = run(exe, folder, ["--resume", "ev.lhe.gz.ckpt", "--quiet"])
    problems += same_as(ref, folder, b, outputs)
    print(f"# unweighting stopped with {detail}")
    report(not problems, "SIGINT in the unweighting: exit 130, FILE.partial readable by pylhe "
           "with exactly the completed events, those of the uninterrupted run, the stream kept "
           "for --resume; resumed: the same sigma, JSON, histograms and event file",
           "; ".join(problems))
    report(not header_problems, "FILE.partial describes its k events alone: neve = k, XSECUP "
           "and totxsec = sigma, XMAXUP and each XWGTUP = sigma / k, the weights adding up to "
           "sigma", "; ".join(header_problems))

    # 6: stopped twice in the unweighting, then resumed
    folder = os.path.join(tmp, "twice")
    a = run(exe, folder, WITH_HISTOGRAMS, "events:1000")
    first = [f for f in os.listdir(folder) if f.startswith("ev.lhe.gz.tmp.")]
    b = run(exe, folder, ["--resume", "ev.lhe.gz.ckpt", "--quiet"], "events:2000")
    problems = [f"exits {a.returncode}, {b.returncode} (want 130, 130): {b.stderr.strip()[-400:]}"
                ] if (a.returncode, b.returncode) != (130, 130) else []
    second = [f for f in os.listdir(folder) if f.startswith("ev.lhe.gz.tmp.")]
    if len(first) != 1 or len(second) != 1 or first == second:
        problems.append(f"streams after the first stop {first}, after the second {second}")
    progress = checkpoint_line(folder, "ev.lhe.gz.ckpt", "unweight.progress")
    written = int(progress.split()[1]) if progress else -1
    if os.path.exists(os.path.join(folder, "ev.lhe.gz.partial")):
        with gzip.open(os.path.join(folder, "ev.lhe.gz.partial"), "rt") as f:
            text = f.read()
        with gzip.open(os.path.join(ref.folder, "ev.lhe.gz"), "rt") as f:
            reference = f.read()
        if not 2000 <= written < 3000:
            problems.append(f"the checkpoint counts {written} events after the second stop")
        problems += partial_header_problems(text, reference, written)
    else:
        problems.append(f"no FILE.partial after the second stop: {sorted(os.listdir(folder))}")
    c = run(exe, folder, ["--resume", "ev.lhe.gz.ckpt", "--quiet"])
    problems += same_as(ref, folder, c, outputs)
    report(not problems, "stopped twice in the unweighting, then resumed: one stream kept at a "
           "time, FILE.partial of both parts, the same sigma, JSON, histograms and event file",
           "; ".join(problems))

    # 7: SIGKILL in the unweighting
    folder = os.path.join(tmp, "killed")
    a = run(exe, folder, WITH_HISTOGRAMS, "events:2000:KILL")
    present = sorted(os.listdir(folder))
    problems = [] if a.returncode == -9 else [f"exit {a.returncode} (want SIGKILL)"]
    # the killed run's own temporary name (FILE.tmp.<pid>.<random>) and its stale locks
    if not any(f.startswith("ev.lhe.gz.tmp.") for f in present) or "ev.lhe.gz.ckpt" not in present:
        problems.append(f"files after the kill: {present}")
    b = run(exe, folder, ["--resume", "ev.lhe.gz.ckpt", "--quiet"])
    problems += same_as(ref, folder, b, outputs)
    report(not problems, "SIGKILL in the unweighting: resumed from the last periodic checkpoint "
           "and the killed run's temporary event file, the same sigma, JSON, histograms and "
           "event file", "; ".join(problems))


def refused(p, *texts):
    """'' when p exited 2 with every text in its stderr, else what it did."""
    if p.returncode == 2 and all(t in p.stderr for t in texts):
        return ""
    return f"exit {p.returncode}, stderr {p.stderr.strip()!r}, want {texts!r}"


def part_errors(exe, tmp):
    # a stopped run to spoil in several ways
    folder = os.path.join(tmp, "stopped")
    a = run(exe, folder, PLAIN, "events:2500")  # after two checkpoints' flushes (every 1024)
    if a.returncode != 130:
        report(False, "a run stops on SIGINT", a.stderr.strip()[-600:])
        return
    good = open(os.path.join(folder, "ev.lhe.ckpt")).read()

    def spoil(name, text):
        with open(os.path.join(folder, name), "w") as f:
            f.write(text)
        return run(exe, folder, ["--resume", name])

    problems = []
    problems.append(refused(run(exe, folder, ["--resume", "absent.ckpt"]),
                            "hegetcl: error: --resume: cannot read the checkpoint absent.ckpt: "
                            "No such file or directory"))
    problems.append(refused(spoil("other.ckpt", "n: 2\n"),
                            "other.ckpt is not a hegetcl checkpoint: its first line is \"n: 2\", "
                            "not \"hegetcl-checkpoint xsec 1\""))
    problems.append(refused(spoil("future.ckpt", good.replace("hegetcl-checkpoint xsec 1\n",
                                                              "hegetcl-checkpoint xsec 2\n", 1)),
                            "future.ckpt is a checkpoint of format version 2; this hegetcl reads "
                            "version 1"))
    problems.append(refused(spoil("short.ckpt", good[:len(good) // 2]),
                            "short.ckpt is cut short"))
    changed = re.sub(r"^vegas\.progress (\d+)", lambda m: f"vegas.progress {int(m.group(1)) + 1}",
                     good, count=1, flags=re.M)
    line = 1 + good[:good.index("\nvegas.progress ")].count("\n") + 1
    problems.append(refused(spoil("changed.ckpt", changed),
                            "changed.ckpt is corrupt: its contents have CRC-32",
                            f"its crc32 line says", f"(line {line}, 'vegas.progress', is not what "
                            "hegetcl wrote)"))
    problems = [p for p in problems if p]
    report(not problems, "a missing, foreign, newer, truncated or changed checkpoint is refused, "
           "naming the file and the problem", " | ".join(problems))

    p = run(exe, folder, ["--resume", "ev.lhe.ckpt", "--events", "60000"])
    q = run(exe, folder, ["--resume", "ev.lhe.ckpt", "--seed", "4", "--device", DEVICE])
    problems = [refused(p, "hegetcl: error: --resume ev.lhe.ckpt: the checkpoint's run has "
                           "events: 50000, this command gives events: 60000: a resumed run keeps "
                           "the settings it started with"),
                refused(q, "the checkpoint's run has seed: 3, this command gives seed: 4")]
    problems = [p for p in problems if p]
    report(not problems, "a setting that differs from the checkpoint's is named with both values",
           " | ".join(problems))

    # 5 before 3: the changed event stream, then the real resume that finishes the run
    streams = [f for f in os.listdir(folder) if f.startswith("ev.lhe.tmp.")]
    events = os.path.join(folder, streams[0] if streams else "ev.lhe.tmp.absent")
    original = open(events).read() if streams else ""
    k = original.index("<event>") if streams else 0
    with open(events, "w") as f:
        f.write(original[:k] + original[k:].replace("+", "-", 1))
    p = run(exe, folder, ["--resume", "ev.lhe.ckpt"])
    flush = re.search(r"flushes=(\d+)", open(os.path.join(folder, "ev.lhe.ckpt")).read())
    want = f"hegetcl: error: --resume ev.lhe.ckpt: {os.path.basename(events)} does not match " \
        f"the checkpoint: bytes 0 to {flush.group(1) if flush else '?'} (the header and the " \
        "first events) are not what the run wrote"
    problem_5 = "" if len(streams) == 1 and p.returncode == 1 and want in p.stderr else \
        f"streams {streams}, exit {p.returncode}, stderr {p.stderr.strip()!r}"
    away = os.path.join(tmp, "stream-moved-away")
    os.rename(events, away)
    p = run(exe, folder, ["--resume", "ev.lhe.ckpt"])
    progress = checkpoint_line(folder, "ev.lhe.ckpt", "unweight.progress")
    written = progress.split()[1] if progress else "?"
    problem_5 += refused(p, "hegetcl: error: --resume ev.lhe.ckpt: the run stopped in its "
                            f"unweighting with {written} events written to ev.lhe, but the stopped "
                            "run's event stream is not here: no ev.lhe.tmp.<pid>.<x> (what a "
                            "stopped or killed run leaves beside it); ev.lhe.partial holds the "
                            "stopped run's events with weights of their own, which --resume does "
                            "not continue: run --resume in the folder the run started in")
    with open(events, "w") as f:
        f.write(original)
    os.remove(away)
    b = run(exe, folder, ["--resume", "ev.lhe.ckpt", "--keep-checkpoint"])
    p = run(exe, folder, ["--resume", "ev.lhe.ckpt"])
    sigma = sigma_line(b.stdout)
    problem = refused(p, "hegetcl: error: --resume ev.lhe.ckpt: the run finished (sigma = "
                         f"{sigma[0] if sigma else '?'}",
                      "3000 unweighted events written): there is nothing to resume")
    report(b.returncode == 0 and not problem, "with --keep-checkpoint a finished run keeps its "
           "checkpoint; resuming it is refused, with its sigma", problem or b.stderr.strip()[-400:])

    fresh = os.path.join(tmp, "fresh")
    a = run(exe, fresh, PLAIN, "iterations:2")
    p = run(exe, fresh, PLAIN)
    problem = refused(p, "hegetcl: error: checkpoint ev.lhe.ckpt holds an unfinished run "
                         "(integrating after 2 VEGAS iterations): continue it with `hegetcl xsec "
                         "--resume ev.lhe.ckpt`, or remove the file")
    report(a.returncode == 130 and not problem,
           "a fresh run does not replace an unfinished run's checkpoint", problem)

    report(not problem_5, "an event stream changed after the stop is refused on resuming (CRC-32), "
           "and one removed is named", problem_5)


def finish():
    print(f"1..{len(results)}")
    for i, (ok, what, detail) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {what}" + ("" if ok or not detail else f": {detail}"))
    return 0 if all(ok for ok, _, _ in results) else 1


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("resume", "errors"):
        sys.exit(__doc__)
    exe = os.path.abspath(sys.argv[1])
    tmp = tempfile.mkdtemp(prefix="hegetcl-long-runs-")
    try:
        (part_resume if sys.argv[2] == "resume" else part_errors)(exe, tmp)
    finally:
        if all(ok for ok, _, _ in results):
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"# the runs are kept in {tmp}")
    return finish()


if __name__ == "__main__":
    sys.exit(main())
