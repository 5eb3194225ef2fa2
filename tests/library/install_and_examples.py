#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`meson install` into a temporary folder, then the C examples built from what was installed,
with `pkg-config --cflags --libs hegetcl` alone (no path into the source or build tree). Prints TAP.

  1  the install holds libhegetcl.so.MAJOR.MINOR.PATCH with soname libhegetcl.so.MAJOR, the
     static library, every public header of include/hegetcl (and version.h), hegetcl.pc, the
     programs hegetcl and hegetcl-bench, and the HEGET sources share/hegetcl/cl/helas/*.cl
  2  the shared library exports hegetcl_* symbols only (nm -D), and every function the headers
     declare
  3  `hegetcl --version` prints the project's version, which version.h's HEGETCL_VERSION holds
  4  examples/amplitude.c, built against the install, agrees with MadGraph (n = 2, 3, 4) through
     host arrays and through its own OpenCL buffers
  5  examples/user_kernel.c builds examples/uu_aa.cl (HELAS by hand) through the library and
     agrees with the analytic u u~ -> a a formula
  6  a user kernel that does not compile: the message names the user's file and line
  7  examples/user_kernel on a file without its kernel (empty, another name, other arguments):
     the failed call named, exit 1, no crash
  8  the installed programs carry the run path PREFIX/LIBDIR and hegetcl.pc adds it to the
     programs it links (-Wl,-rpath,${libdir}), so neither needs LD_LIBRARY_PATH

With HEGETCL_TEST_EXHAUSTIVE=1, the install as README describes it, from a fresh build folder:
  9  `meson setup B` then `meson configure B --prefix P` (a folder made before, as setup.sh
     makes build/) takes the prefix P, and `meson install -C B` puts bin/hegetcl and
     bin/hegetcl-bench under P
 10  P/bin/hegetcl --version and P/bin/hegetcl-bench --help run with no LD_LIBRARY_PATH
 11  examples/amplitude.c built with PKG_CONFIG_PATH=P/.../pkgconfig alone runs with no
     LD_LIBRARY_PATH and agrees with MadGraph

usage: install_and_examples.py BUILD_DIR SOURCE_DIR PROJECT_VERSION REFS_DIR
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

results = []


def report(ok, what, detail=""):
    results.append((ok, what, detail))


def run(args, env=None, cwd=None):
    return subprocess.run(args, capture_output=True, text=True, env=env, cwd=cwd, timeout=600)


def main():
    build, source, version, refs = sys.argv[1:5]
    major = version.split(".")[0]
    tmp = tempfile.mkdtemp(prefix="hegetcl-install-")
    try:
        check(build, source, version, major, refs, tmp)
        if os.environ.get("HEGETCL_TEST_EXHAUSTIVE") == "1":
            install_as_readme_says(source, refs, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"1..{len(results)}")
    for i, (ok, what, detail) in enumerate(results, start=1):
        print(f"{'ok' if ok else 'not ok'} {i} - {what}" + ("" if ok else f": {detail}"))
    return 0


def check(build, source, version, major, refs, tmp):
    destdir = os.path.join(tmp, "dest")
    p = run(["meson", "install", "-C", build, "--no-rebuild", "--quiet", "--destdir", destdir])
    if p.returncode != 0:
        report(False, "meson install --destdir", p.stdout[-2000:] + p.stderr[-2000:])
        return
    libs = glob.glob(os.path.join(destdir, "**", f"libhegetcl.so.{version}"), recursive=True)
    missing = []
    if len(libs) != 1:
        missing.append(f"libhegetcl.so.{version}")
        report(False, "the install holds the libraries, headers, pkg-config file, programs and "
               "HEGET sources", f"found {libs}")
        return
    libdir = os.path.dirname(libs[0])
    prefix = os.path.dirname(os.path.dirname(glob.glob(os.path.join(destdir, "**", "bin",
                                                                    "hegetcl"),
                                                       recursive=True)[0]))
    soname = run(["readelf", "-d", libs[0]]).stdout
    if f"[libhegetcl.so.{major}]" not in soname:
        missing.append(f"soname libhegetcl.so.{major}")
    wanted = [os.path.join(libdir, n) for n in ("libhegetcl.a", "libhegetcl.so",
                                                 f"libhegetcl.so.{major}")]
    wanted += [os.path.join(libdir, "pkgconfig", "hegetcl.pc"),
               os.path.join(prefix, "bin", "hegetcl"), os.path.join(prefix, "bin", "hegetcl-bench"),
               os.path.join(prefix, "include", "hegetcl", "version.h"),
               os.path.join(prefix, "share", "hegetcl", "cl", "helas", "ffv.cl"),
               os.path.join(prefix, "share", "hegetcl", "cl", "helas", "external.cl")]
    headers = sorted(os.path.basename(h) for h in glob.glob(os.path.join(source, "include",
                                                                          "hegetcl", "*.h")))
    wanted += [os.path.join(prefix, "include", "hegetcl", h) for h in headers]
    missing += [os.path.relpath(w, destdir) for w in wanted if not os.path.exists(w)]
    report(not missing, f"the install holds libhegetcl.so.{version} (soname libhegetcl.so.{major}), "
           f"libhegetcl.a, {len(headers) + 1} headers, hegetcl.pc, the programs and the HEGET "
           f"sources", f"missing: {missing}")

    # 2: exports
    nm = run(["nm", "-D", "--defined-only", libs[0]]).stdout.split("\n")
    exported = sorted({line.split()[-1] for line in nm if line.strip()})
    foreign = [s for s in exported if not s.startswith("hegetcl_")]
    declared = set()  # functions: declarations start at the line's beginning with their type
    for h in headers:
        text = open(os.path.join(source, "include", "hegetcl", h), encoding="utf-8").read()
        declared |= set(re.findall(r"^[a-z][\w \*]*?\b(hegetcl_\w+)\(", text, re.M))
    absent = sorted(d for d in declared if d not in exported)
    report(not foreign and not absent,
           f"nm -D: the shared library exports {len(exported)} symbols, all hegetcl_*, among them "
           f"every function the headers declare",
           f"not hegetcl_*: {foreign[:20]}; declared but not exported: {absent[:20]}")

    # 3: versions
    env = dict(os.environ, LD_LIBRARY_PATH=libdir)
    p = run([os.path.join(prefix, "bin", "hegetcl"), "--version"], env=env)
    header = open(os.path.join(prefix, "include", "hegetcl", "version.h"), encoding="utf-8").read()
    m = re.search(r'#define HEGETCL_VERSION "([^"]+)"', header)
    report(p.stdout.strip() == f"hegetcl {version}" and m is not None and m.group(1) == version,
           f"hegetcl --version prints 'hegetcl {version}', the HEGETCL_VERSION of version.h",
           f"printed {p.stdout.strip()!r} {p.stderr.strip()!r}, version.h says "
           f"{m.group(1) if m else None!r}")

    # 4, 5: the examples, built from a copy outside the trees with pkg-config alone
    work = os.path.join(tmp, "examples")
    shutil.copytree(os.path.join(source, "examples"), work)
    env["PKG_CONFIG_PATH"] = os.path.join(libdir, "pkgconfig")
    env["PKG_CONFIG_SYSROOT_DIR"] = destdir  # the .pc file names the prefix, the files lie under destdir
    flags = run(["pkg-config", "--cflags", "--libs", "hegetcl"], env=env)
    if flags.returncode != 0:
        report(False, "pkg-config --cflags --libs hegetcl", flags.stderr)
        return
    for tree in (source, build):
        if os.path.abspath(tree) in flags.stdout:
            report(False, "pkg-config names no source or build path", flags.stdout)
    cc = os.environ.get("CC", "cc")
    for name in ("amplitude", "user_kernel"):
        p = run([cc, "-std=c17", "-Wall", "-Wextra", "-Werror", f"{name}.c", "-o", name]
                + flags.stdout.split() + ["-lm"], env=env, cwd=work)
        if p.returncode != 0:
            report(False, f"examples/{name}.c builds against the install", p.stderr[-3000:])
            return
    env["HEGETCL_DEVICE"] = os.environ.get("HEGETCL_TEST_DEVICE") or os.environ.get(
        "HEGETCL_DEVICE") or "auto"
    outputs = []
    ok = True
    for n in (2, 3, 4):
        p = run(["./amplitude", os.path.join(refs, f"me_points_n{n}.txt")], env=env, cwd=work)
        ok &= p.returncode == 0 and "all points agree with MadGraph" in p.stdout
        outputs.append(p.stdout + p.stderr)
    for out in outputs:
        for line in out.splitlines()[:3]:
            print(f"# {line}")
    report(ok, "examples/amplitude, built with pkg-config only, agrees with MadGraph to 1e-10 for "
           "n = 2, 3, 4, on host arrays and on its own cl_mem buffers", "\n".join(outputs)[-3000:])
    p = run(["./user_kernel", "uu_aa.cl"], env=env, cwd=work)
    for line in p.stdout.splitlines()[:3]:
        print(f"# {line}")
    report(p.returncode == 0 and "agrees with the formula" in p.stdout,
           "examples/user_kernel: u u~ -> a a written with ixxxx1, oxxxx2, vxxxx0, fvixx0 and "
           "iovxxx agrees with (eQ)^4/3 (t/u + u/t) to 1e-12", p.stdout[-2000:] + p.stderr[-2000:])

    # 8: run paths, so that nothing needs LD_LIBRARY_PATH
    prefix_libdir = run(["meson", "introspect", "--buildoptions", build]).stdout
    options = {o["name"]: o["value"] for o in json.loads(prefix_libdir)}
    expected = os.path.join(options["prefix"], options["libdir"])
    runpaths = {}
    for program in ("hegetcl", "hegetcl-bench"):
        dynamic = run(["readelf", "-d", os.path.join(prefix, "bin", program)]).stdout
        found = re.search(r"\((?:RUNPATH|RPATH)\)\s+Library (?:runpath|rpath): \[([^]]*)\]",
                          dynamic)
        runpaths[program] = found.group(1) if found else None
    pc_text = open(os.path.join(libdir, "pkgconfig", "hegetcl.pc"), encoding="utf-8").read()
    system = expected in ("/usr/lib", "/usr/lib64", "/usr/lib/x86_64-linux-gnu")
    ok = all(r is not None and expected in r.split(":") for r in runpaths.values()) and (
        system or "-Wl,-rpath,${libdir}" in pc_text)
    report(ok, f"the installed programs' run path is {expected} and hegetcl.pc links with "
           f"-Wl,-rpath,${{libdir}}", f"run paths {runpaths}; hegetcl.pc: {pc_text[-400:]}")

    # 6: a broken user kernel: the log names the user's file and line
    with open(os.path.join(work, "broken.cl"), "w", encoding="utf-8") as out:
        out.write('#include "helas/ffv.cl"\n\n__kernel void k(__global REAL *x) {\n'
                  '  x[0] = undefined_name;\n}\n')
    p = run(["./user_kernel", "broken.cl"], env=env, cwd=work)
    report(p.returncode == 1 and "HEGETCL_ERR_PROGRAM_BUILD" in p.stderr
           and "broken.cl:4" in p.stderr and "undefined_name" in p.stderr,
           "a user kernel that does not compile fails with HEGETCL_ERR_PROGRAM_BUILD and the log "
           "naming broken.cl:4", p.stderr[-2000:])

    # 7: a kernel file without the kernel the example runs: an empty file, another kernel's name,
    # the right name with other arguments; a clear message and exit 1, never a crash
    with open(os.path.join(work, "empty.cl"), "w", encoding="utf-8") as out:
        out.write("")
    with open(os.path.join(work, "other.cl"), "w", encoding="utf-8") as out:
        out.write('#include "helas/ffv.cl"\n\n__kernel void other(__global REAL *x) {\n'
                  '  x[0] = (REAL)1;\n}\n')
    with open(os.path.join(work, "arguments.cl"), "w", encoding="utf-8") as out:
        out.write('#include "helas/ffv.cl"\n\n__kernel void uu_aa(__global REAL *x) {\n'
                  '  x[0] = (REAL)1;\n}\n')
    bad = []
    for name, words in (("empty.cl", "empty.cl has no kernel named uu_aa"),
                        ("other.cl", "other.cl has no kernel named uu_aa"),
                        ("arguments.cl", "clSetKernelArg failed with CL_INVALID_ARG_INDEX")):
        p = run(["./user_kernel", name], env=env, cwd=work)
        print(f"# {name}: exit {p.returncode}: {p.stderr.strip()[:200]}")
        if p.returncode != 1 or words not in p.stderr:
            bad.append(f"{name}: exit {p.returncode}, expected 1 and '{words}': {p.stderr[-500:]}")
    report(not bad, "examples/user_kernel on a file without its kernel (empty, another name, other "
           "arguments) says which call failed and why, and exits 1", "; ".join(bad))


def install_as_readme_says(source, refs, tmp):
    """9-11: a fresh build folder, its prefix set afterwards with meson configure (README's
    command), installed for real and run with no LD_LIBRARY_PATH."""
    build = os.path.join(tmp, "b")
    prefix = os.path.join(tmp, "prefix")
    env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    # README's options (tests on: hegetcl-bench is built with them), MPI left out
    steps = [(["meson", "setup", build, source, "-Dmpi=disabled"], None),
             (["meson", "configure", build, "--prefix", prefix], None),
             (["ninja", "-C", build, "-j2"], None),
             (["meson", "install", "-C", build, "--quiet"], None)]
    for args, _ in steps:
        p = run(args, env=env)
        if p.returncode != 0:
            report(False, f"{' '.join(args[:2])} for an install as README describes it",
                   p.stdout[-2000:] + p.stderr[-2000:])
            return
    bins = [os.path.join(prefix, "bin", n) for n in ("hegetcl", "hegetcl-bench")]
    report(all(os.access(b, os.X_OK) for b in bins),
           "meson configure B --prefix P after meson setup B takes P: meson install puts "
           "bin/hegetcl and bin/hegetcl-bench there", f"{bins} missing")
    if not all(os.access(b, os.X_OK) for b in bins):
        return
    version = run([bins[0], "--version"], env=env)
    helped = run([bins[1], "--help"], env=env)
    report(version.returncode == 0 and helped.returncode == 0,
           "P/bin/hegetcl --version and P/bin/hegetcl-bench --help run with no LD_LIBRARY_PATH",
           version.stderr + helped.stderr)
    pcs = glob.glob(os.path.join(prefix, "**", "pkgconfig", "hegetcl.pc"), recursive=True)
    if len(pcs) != 1:
        report(False, "one hegetcl.pc under P", f"found {pcs}")
        return
    env["PKG_CONFIG_PATH"] = os.path.dirname(pcs[0])
    flags = run(["pkg-config", "--cflags", "--libs", "hegetcl"], env=env)
    work = os.path.join(tmp, "readme-examples")
    shutil.copytree(os.path.join(source, "examples"), work)
    p = run([os.environ.get("CC", "cc"), "-std=c17", "amplitude.c", "-o", "amplitude"]
            + flags.stdout.split() + ["-lm"], env=env, cwd=work)
    if p.returncode == 0:
        env["HEGETCL_DEVICE"] = os.environ.get("HEGETCL_TEST_DEVICE") or "auto"
        p = run(["./amplitude", os.path.join(refs, "me_points_n2.txt")], env=env, cwd=work)
    report(p.returncode == 0 and "all points agree with MadGraph" in p.stdout,
           "examples/amplitude.c built with pkg-config from P alone runs with no "
           "LD_LIBRARY_PATH and agrees with MadGraph", p.stdout[-1500:] + p.stderr[-1500:])


if __name__ == "__main__":
    sys.exit(main())
