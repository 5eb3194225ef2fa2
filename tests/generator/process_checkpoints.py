#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Long runs of a process run (`hegetcl xsec --process`) on the device under test: stopped by a
signal at a point fixed by HEGETCL_TEST_INTERRUPT_AFTER (independent of timing), then resumed
from its checkpoint, it gives what a run never stopped gives. Every run works in its own folder
with the same relative paths, so that the run cards the outputs carry are one text. Prints TAP.

p p > t t~ has three groups (g g, u u~, d d~), each integrated with its own VEGAS grid after the
pilot; iterations are counted over the groups (2 adapting + 3 combined each).
  1  SIGTERM in the first group's adaptation: exit status 143, the checkpoint kept (the VEGAS
     state of group 0), no event file, no JSON; resumed: sigma and error printed and in the JSON,
     every JSON number but the timings (per group, per channel, per variation), the histograms
     (YODA, with every variation's) and the event file are identical, byte for byte
  2  SIGINT in the second group's combined iterations: the checkpoint holds group 0 complete and
     group 1's VEGAS state (generator.groups 3 1, generator.current 1); the same identities, and
     the resumed run replays group 1's two saved iterations (marked "(checkpoint)") and runs
     neither the pilot nor group 0 again (in 1: one saved iteration of group 0 replayed)
  3  SIGINT in the third group, resumed on two devices (--device D,D: the rest of the run shared
     batch by batch): the same identities
  4  SIGINT in the unweighting: exit status 130, FILE.partial holds exactly the events the
     checkpoint counts, each the uninterrupted run's event but for its weight; resumed: the same
     identities, FILE.partial and the stream gone
  5  SIGKILL in the unweighting (no checkpoint on the way out): resumed from the last periodic
     checkpoint (--checkpoint-every) and the killed run's stream: the same identities
  6  stopped in the unweighting, resumed and killed before the resumed run's first checkpoint
     (which keeps the stop's checkpoint and event stream), resumed again: the same identities
  7  a fresh run refuses to replace the unfinished run's checkpoint; --resume with another
     setting names it and both values; --resume from another folder names the `cd` to run
  8  the uninterrupted run's JSON: each group's events are its largest-remainder share of sigma
     (computed here) and add up to the events written; each group sampled at least what it
     tried, in batches of at most --batch, and the sums are the unweighting's

usage: process_checkpoints.py HEGETCL_EXE
"""
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

DEVICE = os.environ.get("HEGETCL_TEST_DEVICE") or os.environ.get("HEGETCL_DEVICE") or "auto"
BASE = ["--process", "p p > t t~", "--scale", "173", "--adapt-iterations", "2",
        "--adapt-events", "8000", "--events", "20000", "--min-iterations", "3",
        "--max-iterations", "3", "--target-error", "0", "--batch", "1024", "--seed", "3",
        "--device", DEVICE, "--json", "run.json", "--lhe", "ev.lhe", "--yoda", "hist.yoda",
        "--unweighted-events", "3000", "--checkpoint-every", "1024"]
TIMINGS = ("seconds",)

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


def checkpoint_line(folder, key):
    with open(os.path.join(folder, "ev.lhe.ckpt")) as f:
        for line in f:
            if line.startswith(key + " "):
                return line[len(key) + 1:].strip()
    return None


def same_as(reference, folder, resumed):
    """What differs between the uninterrupted run and the resumed one ([] when nothing does)."""
    if resumed.returncode != 0:
        return [f"resumed run: exit {resumed.returncode}: {resumed.stderr.strip()[-600:]}"]
    problems = []
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
    x = open(os.path.join(reference.folder, "ev.lhe"), "rb").read()
    path = os.path.join(folder, "ev.lhe")
    y = open(path, "rb").read() if os.path.exists(path) else None
    if x != y:
        problems.append(f"ev.lhe differs ({len(x)} vs {None if y is None else len(y)} bytes)")
    # the header names the devices, which case 3's resumed run changes on purpose
    def yoda(path):
        if not os.path.exists(path):
            return None
        return b"".join(line for line in open(path, "rb") if not line.startswith(b"# device:"))
    x = yoda(os.path.join(reference.folder, "hist.yoda"))
    y = yoda(os.path.join(folder, "hist.yoda"))
    if x != y:
        problems.append(f"hist.yoda differs ({len(x)} vs {None if y is None else len(y)} bytes)")
    leftovers = [f for f in os.listdir(folder)
                 if f.endswith((".tmp", ".partial", ".lock", ".ckpt")) or ".tmp." in f]
    if leftovers:
        problems.append(f"left behind: {leftovers}")
    return problems


def event_blocks(text):
    return re.findall(r"<event>.*?</event>\n", text, re.S)


def without_weight(block):
    lines = block.split("\n")
    fields = lines[1].split()
    lines[1] = " ".join(fields[:2] + fields[3:])
    return "\n".join(lines)


def stopped_in_integration(exe, tmp, reference, name, interrupt, code, group, restored,
                           more=()):
    folder = os.path.join(tmp, name)
    stopped = run(exe, folder, BASE, interrupt)
    problems = []
    if stopped.returncode != code:
        problems.append(f"exit {stopped.returncode}, not {code}: {stopped.stderr[-400:]}")
    files = sorted(os.listdir(folder))
    if files != ["ev.lhe.ckpt"]:
        problems.append(f"files after the stop: {files}")
    else:
        groups = checkpoint_line(folder, "generator.groups")
        current = checkpoint_line(folder, "generator.current")
        if groups != f"3 {group}" or current != str(group):
            problems.append(f"checkpoint: generator.groups {groups}, generator.current {current}")
        resumed = run(exe, folder, ["--resume", "ev.lhe.ckpt"] + list(more))
        problems += same_as(reference, folder, resumed)
        # the state is read back, not made again: the group being integrated replays its saved
        # iterations (marked), the complete groups none, and the rest run
        lines = [l for l in resumed.stdout.splitlines() if l.startswith("iteration")]
        marked = [l for l in lines if l.endswith("(checkpoint)")]
        if (len(lines), len(marked)) != (15 - 5 * group, restored):
            problems.append(f"the resumed run printed {len(lines)} iterations, {len(marked)} from "
                            f"the checkpoint; expected {15 - 5 * group}, {restored}")
    report(not problems, f"{name}: stopped ({interrupt}) and resumed = never stopped",
           "; ".join(problems))


def check_group_counts(j):
    """8: the groups' events, tried and sampled events and batches in the JSON."""
    u, groups = j["unweighting"], j["groups"]
    total = sum(g["sigma_fb"] for g in groups)
    exact = [u["requested"] * g["sigma_fb"] / total for g in groups]
    share = [math.floor(x) for x in exact]
    for k in sorted(range(len(groups)), key=lambda k: -(exact[k] - share[k]))[:u["requested"] -
                                                                            sum(share)]:
        share[k] += 1
    batch = int(BASE[BASE.index("--batch") + 1])
    problems = []
    for g, want in zip(groups, share):
        w = g["unweighting"]
        if w["events"] != want:
            problems.append(f"{g['process']}: {w['events']} events, its share {want}")
        if not w["events"] <= w["tried"] <= w["sampled"] <= w["batches"] * batch:
            problems.append(f"{g['process']}: {w['events']} events, {w['tried']} tried, "
                            f"{w['sampled']} sampled in {w['batches']} batches of at most {batch}")
    for key in ("tried", "sampled", "batches"):
        if sum(g["unweighting"][key] for g in groups) != u[key]:
            problems.append(f"the groups' {key} do not add up to the unweighting's {u[key]}")
    if sum(g["unweighting"]["events"] for g in groups) != u["written"]:
        problems.append(f"the groups' events do not add up to {u['written']}")
    report(not problems, "the JSON counts each group's share of the events and its batches",
           "; ".join(problems))


def main():
    exe = os.path.abspath(sys.argv[1])
    tmp = tempfile.mkdtemp(prefix="hegetcl-process-ckpt-")
    try:
        reference = run(exe, os.path.join(tmp, "reference"), BASE)
        reference.folder = os.path.join(tmp, "reference")
        left = sorted(os.listdir(reference.folder))
        report(reference.returncode == 0 and left == ["ev.lhe", "hist.yoda", "run.json"],
               "the uninterrupted run finishes and leaves no checkpoint",
               f"exit {reference.returncode}, files {left}: {reference.stderr[-400:]}")
        if reference.returncode != 0:
            return
        check_group_counts(json.load(open(os.path.join(reference.folder, "run.json"))))
        stopped_in_integration(exe, tmp, reference, "adapting", "iterations:1:TERM", 143, 0, 1)
        stopped_in_integration(exe, tmp, reference, "second_group", "iterations:7:INT", 130, 1, 2)
        stopped_in_integration(exe, tmp, reference, "resumed_on_two_devices", "iterations:12:INT",
                               130, 2, 2, ["--device", f"{DEVICE},{DEVICE}"])

        # SIGINT in the unweighting: FILE.partial holds the events the checkpoint counts
        folder = os.path.join(tmp, "unweighting")
        stopped = run(exe, folder, BASE, "events:1500:INT")
        problems = []
        if stopped.returncode != 130:
            problems.append(f"exit {stopped.returncode}: {stopped.stderr[-400:]}")
        elif checkpoint_line(folder, "phase") != "unweighting":
            problems.append(f"phase {checkpoint_line(folder, 'phase')}")
        else:
            counted = int(checkpoint_line(folder, "generator.events"))
            partial = event_blocks(open(os.path.join(folder, "ev.lhe.partial")).read())
            full = event_blocks(open(os.path.join(reference.folder, "ev.lhe")).read())
            if not 1500 <= counted < 3000 or len(partial) != counted:
                problems.append(f"{len(partial)} events in ev.lhe.partial, {counted} counted")
            elif [without_weight(b) for b in partial] != [without_weight(b)
                                                          for b in full[:counted]]:
                problems.append("ev.lhe.partial's events are not the run's first ones")
            problems += same_as(reference, folder, run(exe, folder, ["--resume", "ev.lhe.ckpt"]))
        report(not problems, "stopped in the unweighting and resumed = never stopped",
               "; ".join(problems))

        # SIGKILL in the unweighting: the last periodic checkpoint and the stream
        folder = os.path.join(tmp, "killed")
        killed = run(exe, folder, BASE, "events:1500:KILL")
        problems = []
        if killed.returncode != -9:
            problems.append(f"exit {killed.returncode}")
        elif checkpoint_line(folder, "generator.events") != "1024":
            problems.append(f"generator.events {checkpoint_line(folder, 'generator.events')}")
        else:
            problems += same_as(reference, folder, run(exe, folder, ["--resume", "ev.lhe.ckpt"]))
        report(not problems, "killed in the unweighting and resumed = never stopped",
               "; ".join(problems))

        # stopped, resumed and killed before the resumed run's first checkpoint, resumed again: the
        # checkpoint the first stop wrote (its event count and stream) is the one that goes on
        folder = os.path.join(tmp, "twice")
        first = run(exe, folder, BASE, "events:1100:INT")
        counted = checkpoint_line(folder, "generator.events") if first.returncode == 130 else None
        killed = run(exe, folder, ["--resume", "ev.lhe.ckpt"], "events:1300:KILL")
        problems = []
        if first.returncode != 130 or killed.returncode != -9:
            problems.append(f"exits {first.returncode} and {killed.returncode}")
        elif checkpoint_line(folder, "generator.events") != counted:
            problems.append(f"the killed run's checkpoint counts "
                            f"{checkpoint_line(folder, 'generator.events')} events, the stop's "
                            f"{counted}")
        else:
            problems += same_as(reference, folder, run(exe, folder, ["--resume", "ev.lhe.ckpt"]))
        report(not problems, "stopped in the unweighting, resumed and killed before its next "
               "checkpoint, resumed again = never stopped", "; ".join(problems))

        # refusals
        folder = os.path.join(tmp, "refusals")
        run(exe, folder, BASE, "iterations:3:INT")
        fresh = run(exe, folder, BASE)
        other = run(exe, folder, ["--resume", "ev.lhe.ckpt", "--seed", "4"])
        elsewhere = run(exe, os.path.join(tmp, "elsewhere"),
                        ["--resume", os.path.join("..", "refusals", "ev.lhe.ckpt")])
        problems = []
        if fresh.returncode != 2 or "holds an unfinished run" not in fresh.stderr or \
                "--resume ev.lhe.ckpt" not in fresh.stderr:
            problems.append(f"fresh run over the checkpoint: exit {fresh.returncode}: "
                            f"{fresh.stderr.strip()}")
        if other.returncode != 2 or "the checkpoint's run has seed: 3, this command gives " \
                "seed: 4" not in other.stderr:
            problems.append(f"--resume --seed 4: exit {other.returncode}: {other.stderr.strip()}")
        if elsewhere.returncode != 2 or "run `cd ../refusals && hegetcl xsec --resume " \
                "ev.lhe.ckpt` instead" not in elsewhere.stderr:
            problems.append(f"--resume from another folder: exit {elsewhere.returncode}: "
                            f"{elsewhere.stderr.strip()}")
        report(not problems, "an unfinished run's checkpoint is not replaced, nor resumed with "
               "another setting or from another folder", "; ".join(problems))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    try:
        main()
    except Exception as failure:  # a crash of the test itself is one failed line
        report(False, "the test ran", repr(failure))
    print(f"1..{len(results)}")
    for i, (ok, what, detail) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {what}")
        if not ok and detail:
            for line in detail.splitlines():
                print(f"# {line}")
    sys.exit(0 if all(ok for ok, _, _ in results) else 1)
