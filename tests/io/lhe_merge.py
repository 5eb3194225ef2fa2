#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`hegetcl merge-lhe` makes one LHE file of the files of one run (one per MPI rank), checked by
two independent readers, xml.etree and pylhe, and against the inputs' own text; bad inputs are
refused with a message naming the file and the problem, and leave no output behind.

The inputs come from lhef_example (hegetcl's LHEF writer): rank 0 writes events 0..4 (plain),
rank 1 events 100..106 (gzip, its comment reworded), rank 2 events 200..203 (plain, its run card
reworded): the ranks' files may differ before <init>, and the merge keeps rank 0's text there.
The expected merged file is built here from the inputs' text, not by the code under test.
Prints TAP.

usage: lhe_merge.py HEGETCL_EXE LHEF_EXAMPLE_EXE
"""
import gzip
import os
import re
import subprocess
import sys
import tempfile
import warnings
import xml.etree.ElementTree as ET

RANKS = (("rank0.lhe", 5, 0), ("rank1.lhe.gz", 7, 100), ("rank2.lhe", 4, 200))
TOTAL = sum(n for _, n, _ in RANKS)
ERROR_PREFIX = "hegetcl: error: merge-lhe: "

results = []  # (ok, description, details)


def report(ok, description, details=()):
    results.append((bool(ok), description, list(details)))


def read_text(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        return f.read().decode("utf-8")


def write_text(path, text):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "wb") as f:
        f.write(text.encode("utf-8"))


def split_lhe(text):
    """(text before <init>, the <init> block, the <event> blocks, what follows the last one)."""
    init_at = text.index("<init>\n")
    init_end = text.index("</init>\n") + len("</init>\n")
    events = re.findall(r"<event>\n.*?</event>\n", text[init_end:], re.S)
    return text[:init_at], text[init_at:init_end], events, text[init_end + sum(map(len, events)):]


def particles(pylhe, path):
    """Every event as pylhe reads it: the weight and each particle's id, status and momentum."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # pylhe reports an XML parse error as a warning
        lhe = pylhe.LHEFile.fromfile(path, generator=False)
        events = [(e.eventinfo.weight,
                   [(p.id, p.status, p.px, p.py, p.pz, p.e, p.m) for p in e.particles])
                  for e in lhe.events]
    return lhe.init, events


def first_difference(got, want):
    for k, (a, b) in enumerate(zip(got, want)):
        if a != b:
            return f"entry {k} differs: {a!r:.300} against {b!r:.300}"
    return f"{len(got)} entries, want {len(want)}" if len(got) != len(want) else None


def run(args, cwd):
    return subprocess.run(args, capture_output=True, text=True, timeout=120, cwd=cwd)


def make_inputs(example, tmp):
    """The three ranks' files; returns their paths, or None after reporting a failure."""
    paths = []
    for name, n, first in RANKS:
        path = os.path.join(tmp, name)
        p = run([example, path, str(n), str(n), str(first)], tmp)
        if p.returncode != 0:
            report(False, f"lhef_example writes {name}", [p.stderr.strip()])
            return None
        paths.append(path)
    text = read_text(paths[1])
    write_text(paths[1], text.replace("a test file", "rank 1 of 3"))
    text = read_text(paths[2])
    write_text(paths[2], text.replace("cuts: pt", "cuts on rank 2: pt"))
    return paths


def check_merge(exe, pylhe, tmp, inputs):
    names = [os.path.basename(p) for p in inputs]
    texts = [read_text(p) for p in inputs]
    parts = [split_lhe(t) for t in texts]
    want_events = [e for part in parts for e in part[2]]
    want_init = re.sub(r'neve="\d+"', f'neve="{TOTAL}"', parts[0][1])
    want = parts[0][0] + want_init + "".join(want_events) + "</LesHouchesEvents>\n"
    report(len(want_events) == TOTAL and want_init != parts[0][1],
           f"the inputs hold {TOTAL} events and rank 0's neve is not yet the total",
           [f"{len(want_events)} events"])

    out = os.path.join(tmp, "merged.lhe")
    p = run([exe, "merge-lhe", "-o", "merged.lhe"] + names, tmp)
    said = f"merged {TOTAL} events from 3 files into merged.lhe"
    report(p.returncode == 0 and p.stdout == said + "\n",
           "merge-lhe exits 0 and says how many events from how many files went where",
           [f"exit {p.returncode}, stdout {p.stdout!r}, stderr {p.stderr.strip()!r}"])
    if p.returncode != 0:
        return
    got = read_text(out)
    g_prelude, g_init, g_events, g_rest = split_lhe(got)
    report(g_prelude == parts[0][0], "the merged file starts with rank 0's text before <init>",
           [first_difference(g_prelude.splitlines(), parts[0][0].splitlines()) or ""])
    report(g_init == want_init,
           f"its <init> block is rank 0's with neve=\"{TOTAL}\" (totxsec kept)",
           [f"got {g_init!r}"])
    report(g_events == want_events,
           "its <event> blocks are the inputs' own, verbatim, input by input in order",
           [first_difference(g_events, want_events) or ""])
    report(g_rest == "</LesHouchesEvents>\n" and got == want,
           "it ends with </LesHouchesEvents> and holds nothing else",
           [f"after the events: {g_rest!r}; whole file against the expected: "
            f"{first_difference(got.splitlines(), want.splitlines())}"])

    try:
        root = ET.fromstring(got.encode("utf-8"))
        xsecinfo = root.find("init/xsecinfo")
        events = root.findall("event")
        problems = []
        if root.tag != "LesHouchesEvents" or root.get("version") != "3.0":
            problems.append(f"root <{root.tag} version={root.get('version')}>")
        if xsecinfo is None or xsecinfo.get("neve") != str(TOTAL) or \
                float(xsecinfo.get("totxsec")) != 12.5:
            problems.append(f"xsecinfo {xsecinfo.attrib if xsecinfo is not None else None}")
        want_bodies = [e[len("<event>"):-len("</event>\n")] for e in want_events]
        if [e.text for e in events] != want_bodies:
            texts = [e.text for e in events]
            problems.append(f"<event> texts: {first_difference(texts, want_bodies)}")
    except ET.ParseError as error:
        problems = [f"not well-formed XML: {error}"]
    report(not problems, f"xml.etree parses it: LHEF 3.0, neve=\"{TOTAL}\", the events' text",
           problems)

    try:
        init, merged = particles(pylhe, out)
        inputs_read = [e for path in inputs for e in particles(pylhe, path)[1]]
        problems = []
        if len(merged) != TOTAL:
            problems.append(f"{len(merged)} events, want {TOTAL}")
        difference = first_difference(merged, inputs_read)
        if difference:
            problems.append(f"events: {difference}")
        info = init.initInfo
        if (info.beamA, info.beamB, info.energyA, info.PDFsetA, info.weightingStrategy) != \
                (2212, 2212, 6500.0, 10042, 3):
            problems.append(f"HEPRUP {info}")
    except Exception as error:  # pylint: disable=broad-except
        problems = [f"{type(error).__name__}: {error}"]
    report(not problems, f"pylhe {pylhe.__version__} reads {TOTAL} events, each particle as in "
           "the inputs, in order", problems)

    p = run([exe, "merge-lhe", "-o", "merged.lhe.gz"] + names, tmp)
    gz = os.path.join(tmp, "merged.lhe.gz")
    magic = b""
    if os.path.exists(gz):
        with open(gz, "rb") as f:
            magic = f.read(2)
    report(p.returncode == 0 and magic == b"\x1f\x8b" and read_text(gz) == got,
           "merging into OUT.gz writes gzip holding the same text",
           [f"exit {p.returncode}, magic {magic!r}, stderr {p.stderr.strip()!r}"])

    p = run([exe, "merge-lhe", "--output", "alone.lhe", names[0]], tmp)
    alone = os.path.join(tmp, "alone.lhe")
    report(p.returncode == 0 and os.path.exists(alone) and read_text(alone) == texts[0],
           "merging one file alone gives that file back byte for byte",
           [f"exit {p.returncode}, stderr {p.stderr.strip()!r}"])
    left = [n for n in os.listdir(tmp) if n.endswith(".tmp")]
    report(not left, "no temporary file is left after the merges", left)


def bad_inputs(tmp, rank0_text):
    """Files that must be refused: name -> text (a name ending in .gz: bytes, written as is)."""
    prelude, init, events, _ = split_lhe(rank0_text)
    whole = gzip.compress(rank0_text.encode("utf-8"))
    files = {
        "not_lhe.txt": "hello\nthis is no LHE file\n",
        "other_run.lhe": rank0_text.replace(" +1.2500000000000000e+01 +2.5",
                                            " +1.2600000000000000e+01 +2.5", 1),
        "no_end.lhe": prelude + init + "".join(events),
        "cut_in_event.lhe": prelude + init + "".join(events[:2]) + events[2][:120],
        "cut.lhe.gz": whole[:len(whole) // 2],
    }
    for name, content in files.items():
        mode = "wb" if isinstance(content, bytes) else "w"
        with open(os.path.join(tmp, name), mode) as f:
            f.write(content)


def check_errors(exe, example, tmp, names):
    rank0_text = read_text(os.path.join(tmp, names[0]))
    bad_inputs(tmp, rank0_text)
    p = run([example, "partial.lhe", "3", "5", "300"], tmp)  # neve 5, 3 events
    if p.returncode != 0:
        report(False, "lhef_example writes partial.lhe", [p.stderr.strip()])
        return
    good = names[:2]
    # (label, inputs, words the message must hold); the bad file comes last, so that a problem
    # found while the events are copied is found with the output partly written
    cases = [
        ("an input that cannot be opened", good + ["missing.lhe"],
         ["cannot open missing.lhe", "No such file"]),
        ("an input that is not an LHE file", good + ["not_lhe.txt"],
         ["not_lhe.txt is not an LHE file", "no <LesHouchesEvents>"]),
        ("an <init> block of another run", good + ["other_run.lhe"],
         ["other_run.lhe line 13 is \" +1.2600000000000000e+01",
          f"{names[0]} line 13 is \" +1.2500000000000000e+01", "differs", "cannot be merged"]),
        ("a partial file: fewer <event> blocks than its neve", good + ["partial.lhe"],
         ["partial.lhe holds 3 <event> blocks", "neve=\"5\"", "partial"]),
        ("a file cut off between events", good + ["no_end.lhe"],
         ["no_end.lhe ends at line", "without </LesHouchesEvents>", "cut off"]),
        ("a file cut off inside an event", good + ["cut_in_event.lhe"],
         ["cut_in_event.lhe ends at line", "inside an <event>", "after 2 complete", "cut off"]),
        ("a gzip file cut off", good + ["cut.lhe.gz"],
         ["cut.lhe.gz: its gzip stream ends early", "cut off"]),
    ]
    for label, inputs, words in cases:
        for name in ("OUT.lhe", "OUT.lhe.tmp"):
            if os.path.exists(os.path.join(tmp, name)):
                os.remove(os.path.join(tmp, name))
        p = run([exe, "merge-lhe", "-o", "OUT.lhe"] + inputs, tmp)
        left = [n for n in ("OUT.lhe", "OUT.lhe.tmp") if os.path.exists(os.path.join(tmp, n))]
        missing = [w for w in words if w not in p.stderr]
        print(f"# {label}: {p.stderr.strip()}")
        report(p.returncode == 1 and p.stderr.startswith(ERROR_PREFIX) and not missing
               and not left and p.stdout == "",
               f"refused with exit 1, the file and the problem named, no output left: {label}",
               [f"exit {p.returncode}, missing words {missing}, left behind {left}, "
                f"stderr {p.stderr.strip()!r}"])

    # a failed merge leaves an earlier file under OUT as it was
    existing = os.path.join(tmp, "existing.lhe")
    with open(existing, "w") as f:
        f.write("an earlier merge\n")
    p = run([exe, "merge-lhe", "-o", "existing.lhe"] + good + ["partial.lhe"], tmp)
    with open(existing) as f:
        kept = f.read()
    report(p.returncode == 1 and kept == "an earlier merge\n"
           and not os.path.exists(existing + ".tmp"),
           "a failed merge leaves a file already under OUT unchanged",
           [f"exit {p.returncode}, OUT now {kept[:80]!r}"])

    # the output is an input, by the same name or another
    for label, out in (("the same name", names[0]), ("another name", "./" + names[0])):
        p = run([exe, "merge-lhe", "-o", out] + names, tmp)
        print(f"# the output is an input ({label}): {p.stderr.strip()}")
        report(p.returncode == 1 and p.stderr.startswith(ERROR_PREFIX)
               and f"the output {out} is also input 1 ({names[0]})" in p.stderr
               and read_text(os.path.join(tmp, names[0])) == rank0_text
               and not os.path.exists(os.path.join(tmp, names[0] + ".tmp")),
               f"an output that is an input ({label}) is refused and the input left as it was",
               [f"exit {p.returncode}, stderr {p.stderr.strip()!r}"])

    for label, args, words in (("no input files", ["-o", "OUT.lhe"], ["no input files"]),
                               ("no -o", names, ["no output file: give -o OUT"])):
        p = run([exe, "merge-lhe"] + args, tmp)
        print(f"# {label}: {p.stderr.splitlines()[0] if p.stderr else ''}")
        report(p.returncode == 2 and all(ERROR_PREFIX + w in p.stderr for w in words)
               and "usage: hegetcl merge-lhe -o OUT IN..." in p.stderr
               and not os.path.exists(os.path.join(tmp, "OUT.lhe")),
               f"bad usage ({label}) exits 2 with the usage text",
               [f"exit {p.returncode}, stderr {p.stderr.strip()[:300]!r}"])


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    exe, example = (os.path.abspath(a) for a in sys.argv[1:])
    try:
        import pylhe
    except ImportError as error:
        print("1..1")
        print(f"not ok 1 - the independent reader pylhe can be imported ({error}): "
              "pip install pylhe")
        return 1
    with tempfile.TemporaryDirectory(prefix="hegetcl_lhe_merge_") as tmp:
        inputs = make_inputs(example, tmp)
        if inputs is not None:
            check_merge(exe, pylhe, tmp, inputs)
            check_errors(exe, example, tmp, [os.path.basename(p) for p in inputs])
    print(f"1..{len(results)}")
    for number, (ok, description, details) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {number} - {description}")
        if not ok:
            for detail in details:
                print(f"# {detail}")
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
