#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Sets hegetcl up on a Debian machine and runs the main job:
#   1. installs the Debian packages it needs (OpenCL ICD loader and headers, PoCL for the CPU,
#      Meson, ninja, cmocka, Random123, libyaml, zlib, libhdf5 (LHEH5 event files), Python's
#      headers (the Python package's extension, built for the tests), OpenMPI for hegetcl-mpi;
#      clang with its sanitizer and libFuzzer runtimes for tests/run --sanitizers; Oclgrind for
#      tests/run --oclgrind), unless they are there already, and the
#      Python packages parton, pylhe, pyhepmc, h5py and babyyoda (the tests' independent PDF,
#      event and histogram readers), hist (the analysis example), numpy and pytest (the Python package's tests),
#      matplotlib and mplhep (plots) and Pythia 8 (pythia8mc, a binary wheel: the shower test
#      and example) from PyPI;
#   2. makes the PDF set cteq6l1 (LHAPDF ID 10042) available in the LHAPDF data path: copied
#      from ../shared/pdfsets when that exists (offline), else fetched from the LHAPDF server;
#   3. configures and builds into build/;
#   4. runs the main job: lists the OpenCL devices, evaluates u ubar -> n photons with every
#      engine at MadGraph5_aMC@NLO's reference points (n = 2..6) and prints the agreement,
#      integrates sigma(p p -> 2 and 3 photons) in the HEGET paper's set-up and prints each
#      beside the paper's value with the pull, makes 3-photon distributions (YODA, CSV, plots)
#      and 10^4 unweighted events (build/events_n3.lhe.gz), times every engine with
#      hegetcl-bench, and ends with the list of its outputs.
# With --intel-opencl: also installs Intel's OpenCL CPU runtime, without root, from its PyPI wheels
# (pinned below) into HEGETCL_INTEL_OPENCL_DIR (default ~/.local/share/hegetcl/intel-opencl-VERSION)
# and writes env.sh there: `. DIR/env.sh` shows it beside the system's OpenCL devices
# (docs/opencl-implementations.md).
# usage: bash setup.sh [--deps-only] [--intel-opencl] [--device SPEC]
set -euo pipefail
cd "$(dirname "$0")"

deps_only=0
intel_opencl=0
device=auto
while [ $# -gt 0 ]; do
  case "$1" in
    --deps-only) deps_only=1 ;;
    --intel-opencl) intel_opencl=1 ;;
    --device) device="${2:?--device needs a value}"; shift ;;
    *) echo "setup.sh: unknown option $1 (use --deps-only, --intel-opencl or --device SPEC)" >&2; exit 2 ;;
  esac
  shift
done

# clang's libFuzzer and sanitizer runtimes are in libclang-rt-dev (Debian 12: libclang-rt-14-dev),
# which clang only recommends (apt may be set to skip recommendations).
packages=(ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd clinfo meson ninja-build
          pkg-config libcmocka-dev librandom123-dev libyaml-dev zlib1g-dev libhdf5-dev python3
          python3-pip python3-dev
          gcc clang libclang-rt-dev curl openmpi-bin libopenmpi-dev oclgrind)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup.sh: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi
# PyPI: parton (the tests' independent PDF reader), pylhe, pyhepmc and h5py (read the event files
# back in the tests), babyyoda (its pure-Python reader reads the YODA files back), hist (examples/analyse_events.py), matplotlib and mplhep
# (plot/hegetcl_plot.py), pythia8mc (tests/events/pythia_shower.py), numpy and pytest (the Python
# package's tests on the extension the build makes)
python_packages=()
for p in parton pylhe pyhepmc h5py hist matplotlib mplhep numpy pytest babyyoda; do
  python3 -c "import $p" 2>/dev/null || python_packages+=("$p")
done
# Pythia 8.317's binary wheel: its version pinned, as the shower test's expectations are its
pythia=pythia8mc==8.317.2
python3 -c "import importlib.metadata as m, sys; sys.exit(m.version('pythia8mc') != '${pythia#*==}')" \
  2>/dev/null || python_packages+=("$pythia")
if [ ${#python_packages[@]} -gt 0 ]; then
  echo "setup.sh: installing the Python packages ${python_packages[*]} (PyPI)"
  python3 -m pip install --quiet "${python_packages[@]}" 2>/dev/null ||
    python3 -m pip install --quiet --break-system-packages "${python_packages[@]}"
fi

# The PDF set: LHAPDF_DATA_PATH's first folder, else the user's LHAPDF folder.
pdf_set=cteq6l1
pdf_dir=${LHAPDF_DATA_PATH:-${XDG_DATA_HOME:-$HOME/.local/share}/LHAPDF}
pdf_dir=${pdf_dir%%:*}
if [ ! -f "$pdf_dir/$pdf_set/$pdf_set.info" ]; then
  mkdir -p "$pdf_dir"
  if [ -f "../shared/pdfsets/$pdf_set/$pdf_set.info" ]; then
    echo "setup.sh: copying the PDF set $pdf_set from ../shared/pdfsets into $pdf_dir"
    cp -r "../shared/pdfsets/$pdf_set" "$pdf_dir/"
  else
    url="https://lhapdfsets.web.cern.ch/current/$pdf_set.tar.gz"
    echo "setup.sh: fetching the PDF set $pdf_set from $url into $pdf_dir"
    curl -fsSL "$url" | tar -xz -C "$pdf_dir" ||
      { echo "setup.sh: could not fetch $url: put $pdf_set/ into $pdf_dir by hand" >&2; exit 1; }
  fi
fi
export LHAPDF_DATA_PATH=$pdf_dir${LHAPDF_DATA_PATH:+:$LHAPDF_DATA_PATH}

# Intel's OpenCL CPU runtime (a third OpenCL compiler, beside PoCL and a GPU's): three wheels
# unzipped into one folder (libintelocl.so finds its neighbours; tbb and the compiler runtime go
# on LD_LIBRARY_PATH), the wheel's own ICD loader left out (the system's stays in charge), and an
# ICD folder for OCL_ICD_VENDORS that names libintelocl.so and links the system's ICD files, so
# that PoCL stays visible. Versions pinned: tried together (tests/run --intel in .ci/run).
if [ "$intel_opencl" -eq 1 ]; then
  intel_version=2026.2.0
  intel_wheels=("intel-opencl-rt==$intel_version" "intel-cmplr-lib-rt==$intel_version" "tbb==2023.2.0")
  intel_dir=${HEGETCL_INTEL_OPENCL_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/hegetcl/intel-opencl-$intel_version}
  if [ ! -f "$intel_dir/env.sh" ]; then
    echo "setup.sh: installing Intel's OpenCL CPU runtime $intel_version (PyPI wheels) into $intel_dir"
    wheels=$(mktemp -d)
    python3 -m pip download --quiet --no-deps --dest "$wheels" "${intel_wheels[@]}" ||
      { echo "setup.sh: pip could not download ${intel_wheels[*]} from PyPI" >&2; rm -rf "$wheels"; exit 1; }
    mkdir -p "$intel_dir/lib" "$intel_dir/vendors"
    for w in "$wheels"/*.whl; do
      python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$w" "$wheels/x"
    done
    cp -a "$wheels"/x/*.data/data/lib/. "$intel_dir/lib/"
    rm -rf "$wheels" "$intel_dir"/lib/libOpenCL.so*
    echo "$intel_dir/lib/libintelocl.so" >"$intel_dir/vendors/intel-cpu.icd"
    for icd in /etc/OpenCL/vendors/*.icd; do
      [ -e "$icd" ] && ln -sf "$icd" "$intel_dir/vendors/"
    done
    cat >"$intel_dir/env.sh" <<EOF_ENV
# Shows Intel's OpenCL CPU runtime (platform "Intel(R) OpenCL") beside the system's OpenCL
# devices; source it: . $intel_dir/env.sh
export OCL_ICD_VENDORS=$intel_dir/vendors
export LD_LIBRARY_PATH=$intel_dir/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
EOF_ENV
  fi
fi
[ "$deps_only" -eq 1 ] && exit 0

[ -f build/build.ninja ] || meson setup build
ninja -C build

echo "== OpenCL devices"
./build/hegetcl devices
refs=../shared/refs/mg5
if [ -d "$refs" ]; then
  echo "== |M|^2 against MadGraph5_aMC@NLO ($refs)"
  ./build/hegetcl me --device "$device" "$refs"/me_points_n{2,3,4,5,6}.txt | grep largest
else
  echo "== |M|^2 against MadGraph5_aMC@NLO: left out, no $refs beside this checkout (the tests"
  echo "   need it too: clone the project next to its shared/ folder)"
fi
echo "== sigma(p p -> n photons) in the HEGET paper's set-up (14 TeV, cteq6l1, mu = 20 GeV,"
echo "   pT > 20 GeV, |eta| < 2.5, Delta R > 0.4), counting as the paper's table does: the u"
echo "   quark from proton 1 and the anti-u from proton 2 only (--orientation u-first)"
for n in 2 3; do
  ./build/hegetcl xsec --n "$n" --device "$device" --orientation u-first --target-error 0.003 \
    --quiet --json "build/xsec_n$n.json" | sed 's/^/  /'
done
python3 bench/compare_with_paper.py build/xsec_n2.json build/xsec_n3.json
echo "== p p -> 3 photons, the u quark from either proton (the p p cross section, twice the"
echo "   above): distributions and 10^4 unweighted Les Houches events"
./build/hegetcl xsec --n 3 --device "$device" --helicity sampled --target-error 0.005 --quiet \
  --yoda build/distributions_n3.yoda --csv build/distributions_n3.csv \
  --unweighted-events 10000 --lhe build/events_n3.lhe.gz --json build/events_n3.json |
  sed 's/^/  /'
python3 bench/compare_with_paper.py build/events_n3.json
python3 plot/hegetcl_plot.py build/distributions_n3.yoda:weighted \
  --events build/events_n3.lhe.gz:"unweighted events" --histograms pt_1,dr_min,eta_1,m_photons \
  --out build/plots_n3 >/dev/null
echo "== matrix-element throughput (hegetcl-bench; JSON in build/bench.json)"
# n up to 7: the diagram engine's n = 8 program takes minutes to compile (docs/performance.md,
# "Throughput")
./build/bench/hegetcl-bench --device "$device" --n 2-7 --precision double --mode summed \
  --max-seconds 4 --json build/bench.json
echo "== outputs (in build/)"
echo "  sigma with every input, device and iteration (JSON): build/xsec_n2.json, build/xsec_n3.json"
echo "  3-photon histograms: build/distributions_n3.yoda (YODA, for Rivet), build/distributions_n3.csv"
echo "  10^4 unweighted events (Les Houches 3.0): build/events_n3.lhe.gz, its run: build/events_n3.json"
echo "  plots: $(ls build/plots_n3/*.png | tr '\n' ' ')"
echo "  throughput: build/bench.json"
echo "  showering the events with Pythia 8: python3 examples/shower_with_pythia.py build/events_n3.lhe.gz"
echo "next: export LHAPDF_DATA_PATH=$pdf_dir in each shell that runs hegetcl xsec, then README's"
echo "  tour (./build/hegetcl ...) from this folder; bash tests/run runs the tests"
