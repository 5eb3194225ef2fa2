#!/usr/bin/env bash
# Run on the development machine (Debian 12), from the project root:  bash bench/pocl_bundle.sh
# Builds .pocl-device/ (git-ignored): a relocatable PoCL 3.1 (CPU OpenCL driver, LLVM 15) as one
# .tar.xz plus pocl-env.sh, for the GPU machine that has no PoCL and cannot install packages.
# Carry `.pocl-device` together with `.opencl-device`, and start the device command with
#   source .opencl-device/opencl-env.sh; source .pocl-device/pocl-env.sh;
#
# Size: the .debs are 67 MB; the tarball is 39.6 MB (37.7 MiB; 237 MB unpacked) because
#  * libz3.so.4 (23 MB, only for clang's static analyser) and libxml2.so.2 (+ libicu72, 33 MB, only
#    for LLVM's Windows-manifest merger) are replaced by generated stubs that export the same symbols
#    and abort if ever called -- PoCL never calls them; a real system copy is preferred if present;
#  * only the x86-64 kernel libraries PoCL can pick on a modern server CPU are kept (see KEEP_BC);
#  * docs, i18n/ICU extras and the pocl/llvm symlink farm are dropped.
# At run time PoCL also spawns the system linker (/usr/bin/ld with -lm -lgcc -lgcc_s -lc, found
# through the gcc installation) to turn each kernel into a .so: the GPU machine's gcc 13 provides it.
# Unpacking needs xz, or python3 (pocl-env.sh falls back to Python's tarfile).
set -eu
ROOT=$(pwd)
OUT=$ROOT/.pocl-device
KEEP_BC=${KEEP_BC:-"GENERIC avx2 avx512 avx avx_f16c sse41"}
mkdir -p "$OUT"
grep -qx '/.pocl-device/' .git/info/exclude 2>/dev/null || echo '/.pocl-device/' >> .git/info/exclude
WORK=$(mktemp -d /tmp/pocl-bundle.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/debs" "$WORK/x" "$WORK/b/usr/lib/x86_64-linux-gnu/pocl" "$WORK/b/usr/share/pocl" "$WORK/b/fallback"
cd "$WORK/debs"
apt-get download libpocl2 libpocl2-common libllvm15 libclang-cpp15 libhwloc15 libz3-4 libxml2 \
  libedit2 libffi8 libtinfo6 libbsd0 libmd0 libudev1 zlib1g liblzma5 >/dev/null 2>&1
for d in *.deb; do dpkg -x "$d" "$WORK/x"; done
X=$WORK/x; B=$WORK/b; L=$B/usr/lib/x86_64-linux-gnu
# real file behind a soname, wherever Debian put it (/lib or /usr/lib)
so() { readlink -f "$(ls "$X"/usr/lib/x86_64-linux-gnu/"$1" "$X"/lib/x86_64-linux-gnu/"$1" 2>/dev/null | head -1)"; }

# core: always taken from the bundle
for s in libpocl.so.2 libLLVM-15.so.1 libclang-cpp.so.15; do cp "$(so $s)" "$L/$s"; done
cp "$X"/usr/lib/x86_64-linux-gnu/pocl/libpocl-devices-*.so "$L/pocl/"
cp -r "$X"/usr/share/pocl/include "$B/usr/share/pocl/"
for v in $KEEP_BC; do cp "$X/usr/share/pocl/kernel-x86_64-pc-linux-gnu-$v.bc" "$B/usr/share/pocl/"; done
# fallbacks: pocl-env.sh uses them only where the system lacks that soname
for s in libhwloc.so.15 libedit.so.2 libffi.so.8 libtinfo.so.6 libbsd.so.0 libmd.so.0 libudev.so.1 libz.so.1 liblzma.so.5; do
  cp "$(so $s)" "$B/fallback/$s"
done

# stubs for libz3.so.4 and libxml2.so.2: every symbol that the bundle imports from them, same
# symbol versions; functions abort, the one data symbol (xmlFree) is a pointer to free().
undef() { for o in "$L"/*.so* "$L"/pocl/*.so "$B"/fallback/*; do nm -D --undefined-only "$o"; done | awk '{print $2}' | sed 's/@.*//' | sort -u; }
undef > "$WORK/undef"
mkstub() { # soname realfile
  printf '#include <stdio.h>\n#include <stdlib.h>\nstatic void die(const char *f) { fprintf(stderr, "pocl-bundle: stub %s: %%s called\\n", f); abort(); }\n' "$1" > "$WORK/stub.c"
  : > "$WORK/stub.map"
  while read -r t sv; do
    s=${sv%%@*}; v=${sv##*@}; [ "$v" = "$sv" ] && v=""
    grep -qx "$s" "$WORK/undef" || continue
    case $t in
      T|W|i) echo "void $s(void) { die(\"$s\"); }" >> "$WORK/stub.c" ;;
      D|B) echo "void (*$s)(void *) = free;" >> "$WORK/stub.c" ;;
      *) echo "unexpected symbol type $t $s" >&2; exit 1 ;;
    esac
    [ -n "$v" ] && echo "$v $s" >> "$WORK/stub.map"
  done < <(nm -D --defined-only "$2" | awk '{print $2, $3}' | sed 's/@@/@/')
  local vs=""
  if [ -s "$WORK/stub.map" ]; then   # keep the original symbol versions
    awk '{ if (!($1 in a)) k[n++] = $1; a[$1] = a[$1] $2 "; " } END { for (i = 0; i < n; i++) print k[i] " { global: " a[k[i]] "};" }' "$WORK/stub.map" > "$WORK/vs"
    vs="-Wl,--version-script=$WORK/vs"
  fi
  gcc -shared -fPIC -O1 -s -o "$B/fallback/$1" -Wl,-soname,"$1" $vs "$WORK/stub.c"
  echo "stub $1: $(grep -c '^void' "$WORK/stub.c") symbols"
}
mkstub libz3.so.4 "$(so libz3.so.4)"
mkstub libxml2.so.2 "$(so libxml2.so.2)"

# check: every NEEDED of the bundle is in the bundle or is plain glibc/libstdc++/libgcc
for o in "$L"/*.so* "$L"/pocl/*.so "$B"/fallback/*; do readelf -d "$o" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p'; done | sort -u |
  while read -r n; do
    [ -e "$L/$n" ] || [ -e "$L/pocl/$n" ] || [ -e "$B/fallback/$n" ] || case $n in libc.so.6|libm.so.6|libstdc++.so.6|libgcc_s.so.1|ld-linux-x86-64.so.2|libpthread.so.0|libdl.so.2) ;; *) echo "MISSING $n" >&2; exit 1;; esac
  done
# the pocl-devices-*.so plugins need libpocl.so.2 by soname: it is in $L

tar -C "$B" -cf - usr fallback | xz -9e -T0 > "$OUT/pocl-bundle.tar.xz"
cp "$ROOT/bench/pocl-env.sh" "$OUT/pocl-env.sh"
echo "unpacked: $(du -sh "$B" | cut -f1)   tarball: $(du -h "$OUT/pocl-bundle.tar.xz" | cut -f1)"
ls -la "$OUT"
