# Source on the GPU machine AFTER .opencl-device/opencl-env.sh:
#   source .opencl-device/opencl-env.sh; source .pocl-device/pocl-env.sh
# Unpacks the PoCL 3.1 bundle made by bench/pocl_bundle.sh into /tmp/pocl (never into /), adds a
# pocl.icd next to NVIDIA's in /tmp/ocl/vendors, so that both the GPU and the CPU (PoCL) platforms
# are listed. PoCL finds its kernel libraries and headers relative to libpocl.so
# (/tmp/pocl/usr/lib/x86_64-linux-gnu/../../share/pocl) and its device plugins in .../pocl/.
_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
_lib=/tmp/pocl/usr/lib/x86_64-linux-gnu
if [ ! -e "$_lib/libpocl.so.2" ] || [ "$_here/pocl-bundle.tar.xz" -nt "$_lib/libpocl.so.2" ]; then
  rm -rf /tmp/pocl && mkdir -p /tmp/pocl
  if xz --version >/dev/null 2>&1; then tar -C /tmp/pocl -xJf "$_here/pocl-bundle.tar.xz"
  else python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1], "r:xz").extractall(sys.argv[2])' "$_here/pocl-bundle.tar.xz" /tmp/pocl
  fi
  touch "$_lib/libpocl.so.2"
  # libraries a stock system normally has (hwloc, libedit, libffi, zlib ...) are used from the system
  # when it has that soname; the bundle's copy (or, for libz3/libxml2, a stub) only fills gaps.
  _cache=$( { /sbin/ldconfig -p || ldconfig -p; } 2>/dev/null)
  for _f in /tmp/pocl/fallback/*; do
    _s=$(basename "$_f")
    _sys=$(printf '%s\n' "$_cache" | awk -v s="$_s" '$1 == s && /x86-64/ {print $NF; exit}')
    [ -n "$_sys" ] || _sys=$(ls /lib/x86_64-linux-gnu/"$_s" /usr/lib/x86_64-linux-gnu/"$_s" 2>/dev/null | head -1)
    if [ -z "$_sys" ] || [ ! -f "$(readlink -f "$_sys")" ] || [ ! -s "$(readlink -f "$_sys")" ]; then
      ln -sf "$_f" "$_lib/$_s"
    fi
  done
fi
mkdir -p /tmp/ocl/vendors
echo "$_lib/libpocl.so.2" > /tmp/ocl/vendors/pocl.icd
export OCL_ICD_VENDORS=${OCL_ICD_VENDORS:-/tmp/ocl/vendors}
[ "$OCL_ICD_VENDORS" = /tmp/ocl/vendors ] || cp /tmp/ocl/vendors/pocl.icd "$OCL_ICD_VENDORS/" 2>/dev/null
export LD_LIBRARY_PATH=$_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-/tmp/pocl-cache}
# the device has 16 cores; PoCL uses them all unless POCL_MAX_PTHREAD_COUNT says otherwise
echo "pocl-env: bundled libs in use: $(cd "$_lib" && ls | tr '\n' ' ')"
if command -v clinfo >/dev/null; then clinfo -l 2>/dev/null || echo "pocl-env: clinfo found no platform"; fi
unset _here _lib _f _s _sys _cache
