#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds what bench/python_overhead.py needs and runs it: the overhead of a Python call against
# the C call for one batch of |M|^2 (10^6 events by default), same momenta, same device.
#   bash bench/python_overhead.sh [--build DIR] [--out DIR] [python_overhead.py options]
# e.g., on the GPU machine (no network, no pip; the OpenCL loader from .opencl-device):
#   source .opencl-device/opencl-env.sh; bash bench/python_overhead.sh --device gpu
# Needs a C compiler, meson, ninja, python3; numpy and Python.h only where present: without
# numpy hegetcl.matrix_element is left out (the extension is timed with array('d') buffers),
# without Python.h for meson's interpreter the extension is not built and the C function is
# called through ctypes instead (HEGETCL_OVERHEAD_NO_EXTENSION=1 forces that), and the output
# says so. Builds into DIR (default build-overhead: only the library, the extension and the C
# half, not the tests), writes python_overhead.txt and .json to --out (default $OUT where set,
# else DIR).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-overhead
out=${OUT:-}
args=()
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$(realpath -m "$2"); shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '3,14p' "$0" | sed 's/^# \{0,1\}//'; exec python3 "$root/bench/python_overhead.py" --help ;;
    *) args+=("$1"); shift ;;
  esac
done
out=${out:-$build}
mkdir -p "$out"
# the C and the Python half each report a program build: both compile (the Python half would
# otherwise load what the C half stored in the disk cache); a user's own setting wins
export HEGETCL_PROGRAM_CACHE=${HEGETCL_PROGRAM_CACHE:-off}
start=$SECONDS

# The extension is built for the interpreter meson runs under (import('python')); it needs that
# interpreter's Python.h.
meson_python=$(meson runpython -c 'import sys; print(sys.executable)' 2>/dev/null || command -v python3)
python_opt=true
binding=()
if [ -n "${HEGETCL_OVERHEAD_NO_EXTENSION:-}" ]; then # to try the ctypes path where Python.h is
  python_opt=false
  echo "python_overhead.sh: HEGETCL_OVERHEAD_NO_EXTENSION is set: the extension is not built; the C function is timed through ctypes instead"
elif ! "$meson_python" -c 'import os, sys, sysconfig
sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
  python_opt=false
  echo "python_overhead.sh: $meson_python has no Python.h (python3-dev): the extension is not built; the C function is timed through ctypes instead"
fi
# an extension left in the folder by an earlier configuration is not used then
[ "$python_opt" = true ] || binding=(--binding ctypes)
if [ -f "$build/build.ninja" ]; then
  meson configure "$build" -Dpython=$python_opt > /dev/null
elif ! meson setup "$build" "$root" -Dpython=$python_opt -Dmpi=disabled > "$out/python_overhead_setup.txt" 2>&1; then
  tail -30 "$out/python_overhead_setup.txt"
  [ "$python_opt" = true ] || exit 1
  # meson's Python module may refuse for a reason other than Python.h: measure through ctypes
  echo "python_overhead.sh: meson setup with -Dpython=true failed (above); again without the extension"
  python_opt=false
  binding=(--binding ctypes)
  build=$build-without-extension
  meson setup "$build" "$root" -Dpython=false -Dmpi=disabled > "$out/python_overhead_setup.txt" 2>&1 \
    || { tail -30 "$out/python_overhead_setup.txt"; exit 1; }
fi
# only the targets the measurement uses: the C half, the shared library (ctypes), the extension
mapfile -t targets < <(meson introspect --targets "$build" | "$meson_python" -c '
import json, os, sys
build = sys.argv[1]
for t in json.load(sys.stdin):
    if t["name"] == "python-overhead-c" or t["name"].startswith("_core.") or (
            t["name"] == "hegetcl" and t["type"] == "shared library"):
        for f in t["filename"]:
            print(os.path.relpath(f, build))' "$build")
echo "python_overhead.sh: building ${targets[*]} in $build"
ninja -C "$build" "${targets[@]}" > "$out/python_overhead_build.txt" 2>&1 \
  || { tail -40 "$out/python_overhead_build.txt"; exit 1; }
echo "python_overhead.sh: built in $((SECONDS - start)) s"

# the interpreter that can load the built extension (meson's, or python3 where they agree)
py=$meson_python
for candidate in python3 "$meson_python"; do
  if "$candidate" -c 'import glob, importlib.machinery as m, sys
sys.exit(not any(f.endswith(s) for f in glob.glob(sys.argv[1] + "/bindings/python/_core*")
                 for s in m.EXTENSION_SUFFIXES))' "$build" 2>/dev/null; then
    py=$(command -v "$candidate"); break
  fi
done
"$py" "$root/bench/python_overhead.py" --build "$build" --json "$out/python_overhead.json" \
  ${binding[@]+"${binding[@]}"} ${args[@]+"${args[@]}"} 2>&1 | tee "$out/python_overhead.txt"
status=${PIPESTATUS[0]}
echo "python_overhead.sh: $((SECONDS - start)) s in all; results in $out/python_overhead.txt and .json"
exit "$status"
