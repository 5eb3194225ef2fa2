#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""README's tour, run as written: every command line of its ```sh blocks, from a copy of the
repository root (each top-level entry linked, build/ a folder of links to the build's programs,
../shared beside it), one after the other in one bash, each timed. Prints TAP.

  1..k  each tour line exits 0 (a line for a GPU, `--device gpu`, is skipped with the reason
        when OpenCL lists no GPU); a failing line names its output
  then  nothing at the repository root is named python/ (the pythia8mc wheel imports the files
        of a ./python/ folder, which broke the shower from the root); the outputs the tour says
        it writes exist; the card's 1 % run stopped soon after 1 % (error <= 1 %, fewer events
        than the 3 iterations of 10^6 it used to take) and its JSON says whether the error is
        trustworthy; a run whose 3 iterations disagree (no grid training, 1000 events per
        iteration) is flagged NOT trustworthy on the terminal, with what to do, and in its JSON
With HEGETCL_TEST_EXHAUSTIVE=1 also setup.sh's closing hints as written (the shower of
build/events_n3.lhe.gz, which setup.sh makes: here a copy of the tour's events).

usage: readme_tour.py SOURCE_DIR BUILD_DIR SHARED_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

results = []


def report(ok, what, detail="", skip=None):
    results.append((ok, what, detail, skip))


def tour_lines(readme):
    """The command lines of the ```sh blocks between '## A tour' and the next '## '."""
    text = open(readme, encoding="utf-8").read()
    start = text.index("\n## A tour")
    end = text.find("\n## ", start + 1)
    section = text[start:end if end >= 0 else len(text)]
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", section, re.S):
        for line in block.splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                lines.append(line)
    return lines


def setup_hints(setup_sh):
    """The commands setup.sh's closing lines print after 'NAME: ' (python3 ... lines)."""
    hints = []
    for line in open(setup_sh, encoding="utf-8"):
        found = re.match(r'^echo "\s+[^:"]+: (python3 [^"]+)"\s*$', line.strip())
        if found:
            hints.append(found.group(1))
    return hints


def make_root(source, build, shared, tmp):
    """tmp/repo: links to the source's top-level entries, build/ with links to the build's
    entries (outputs written under build/ stay in tmp), ../shared a link to SHARED_DIR."""
    root = os.path.join(tmp, "repo")
    os.makedirs(os.path.join(root, "build"))
    for entry in os.listdir(source):
        if entry in ("build", "out", ".git") or entry.startswith("build"):
            continue
        os.symlink(os.path.join(source, entry), os.path.join(root, entry))
    for entry in os.listdir(build):
        os.symlink(os.path.join(build, entry), os.path.join(root, "build", entry))
    os.symlink(os.path.abspath(shared), os.path.join(tmp, "shared"))
    return root


def has_gpu(root, env):
    p = subprocess.run(["./build/hegetcl", "devices"], cwd=root, env=env, capture_output=True,
                       text=True, timeout=120)
    # each device's line ends in "; not a GPU]" or "; GPU]"
    return any(line.rstrip().endswith("GPU]") and "not a GPU" not in line
               for line in p.stdout.splitlines())


def run_line(line, root, env, timeout=600):
    start = time.monotonic()
    p = subprocess.run(["bash", "-c", line], cwd=root, env=env, capture_output=True, text=True,
                       timeout=timeout)
    return p, time.monotonic() - start


def defaults_a_user_expects(root, env):
    path = os.path.join(root, "out", "pp_3photons.json")
    try:
        result = json.load(open(path, encoding="utf-8"))["result"]
        ok = (result["rel_error"] <= 0.01 and result["events"] < 3000000
              and result["error_trustworthy"] == (result["chi2_probability"] >= 0.05))
        detail = json.dumps({k: result.get(k) for k in ("rel_error", "events", "iterations",
                                                        "chi2_probability",
                                                        "error_trustworthy")})
    except (OSError, ValueError, KeyError) as error:
        ok, detail = False, f"{path}: {error}"
    report(ok, "the card's 1 % run stops soon after 1 % (fewer than 3e6 events) and its JSON "
           "says whether the error is trustworthy", detail)
    args = ["./build/hegetcl", "xsec", "--n", "4", "--helicity", "sampled", "--phase-space",
            "collider", "--events", "1000", "--adapt-iterations", "0", "--min-iterations", "3",
            "--max-iterations", "3", "--batch", "1024", "--seed", "1", "--checkpoint", "none",
            "--quiet", "--json", "out/untrustworthy.json"]
    p = subprocess.run(args, cwd=root, env=env, capture_output=True, text=True, timeout=300)
    try:
        flagged = json.load(open(os.path.join(root, "out", "untrustworthy.json"),
                                 encoding="utf-8"))["result"]["error_trustworthy"] is False
    except (OSError, ValueError, KeyError):
        flagged = False
    ok = (p.returncode == 0 and "[error NOT trustworthy" in p.stdout and "--events" in p.stdout
          and flagged)
    # 3 iterations of seed 1 give chi2/dof 4.4 (probability about 1 %): flagged, with the result
    # written; iterations that disagree beyond a 1e-6 chance stop the run with an error instead
    # (tests/cli/trust.py)
    report(ok, "iterations that disagree (chi2/dof 4.4 over 3 iterations, a 1 % chance) are "
           "flagged NOT trustworthy on the terminal with what to do, and in the JSON", p.stdout[-1500:] + p.stderr[-1500:])


def main():
    source, build, shared = (os.path.abspath(a) for a in sys.argv[1:4])
    exhaustive = os.environ.get("HEGETCL_TEST_EXHAUSTIVE") == "1"
    tmp = tempfile.mkdtemp(prefix="hegetcl-tour-")
    try:
        root = make_root(source, build, shared, tmp)
        # the tour's own export names the PDF folder; the tests give theirs
        env = dict(os.environ, HOME=os.environ.get("HOME", tmp), MPLBACKEND="Agg")
        gpu = has_gpu(root, env)
        lines = tour_lines(os.path.join(source, "README.md"))
        report(len(lines) >= 8, f"README's tour has {len(lines)} command lines",
               "\n".join(lines))
        # one bash for the whole tour, so that `export` carries; each line timed by itself
        state = os.path.join(tmp, "env.sh")
        open(state, "w").close()
        for line in lines:
            if "--device gpu" in line and not gpu:
                report(True, line, skip="OpenCL lists no GPU here")
                continue
            if line.startswith("export LHAPDF_DATA_PATH=") and os.environ.get("LHAPDF_DATA_PATH"):
                # the test's PDF folder stands in for the one setup.sh made
                line_run = f"export LHAPDF_DATA_PATH={os.environ['LHAPDF_DATA_PATH']}"
            else:
                line_run = line
            # on lines of their own: a tour line may end in a # comment
            p, seconds = run_line(f". {state}\n{line_run}\nrc=$?\nexport -p > {state}.new\n"
                                  f"exit $rc", root, env)
            if p.returncode == 0 and os.path.exists(state + ".new"):
                os.replace(state + ".new", state)
            print(f"# {seconds:6.1f} s  {line}")
            report(p.returncode == 0, f"{line}  ({seconds:.1f} s)",
                   f"exit {p.returncode}: {(p.stdout + p.stderr)[-2500:]}")
        report(not os.path.exists(os.path.join(source, "python")),
               "no folder python/ at the repository root (the pythia8mc wheel would import it)",
               "python/ exists")
        wanted = ["out/pp_3photons.json", "out/pp_3photons.yoda", "out/pp_3photons.lhe.gz",
                  "out/plots/pt_1.png", "out/plots/dr_min.png"]
        missing = [w for w in wanted if not os.path.isfile(os.path.join(root, w))]
        report(not missing, "the tour's outputs exist: " + ", ".join(wanted), f"missing {missing}")
        defaults_a_user_expects(root, env)
        if exhaustive:
            events = os.path.join(root, "out", "pp_3photons.lhe.gz")
            target = os.path.join(root, "build", "events_n3.lhe.gz")
            if os.path.isfile(events) and not os.path.exists(target):
                shutil.copy(events, target)
            for hint in setup_hints(os.path.join(source, "setup.sh")):
                p, seconds = run_line(hint, root, env)
                print(f"# {seconds:6.1f} s  {hint}")
                report(p.returncode == 0, f"setup.sh's hint: {hint}  ({seconds:.1f} s)",
                       f"exit {p.returncode}: {(p.stdout + p.stderr)[-2500:]}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"1..{len(results)}")
    for i, (ok, what, detail, skip) in enumerate(results, 1):
        if skip is not None:
            print(f"ok {i} - {what} # SKIP {skip}")
        else:
            detail = " ".join(detail.split())
            print(f"{'ok' if ok else 'not ok'} {i} - {what}" + ("" if ok else f": {detail}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
