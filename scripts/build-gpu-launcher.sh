#!/usr/bin/env bash
# Builds perfdojo-gpu-launch from the GpuRuntime sources with a bare C++17
# compiler: no CMake, no LLVM, no CUDA toolkit. For a GPU machine that has
# only a compiler, libc and libdl (docs/gpu-runtime.md, "The launcher").
#
#   scripts/build-gpu-launcher.sh OUTDIR     -> OUTDIR/perfdojo-gpu-launch
#
# CXX (default c++) and CXXFLAGS (default -O2) are honoured. libstdc++ and
# libgcc are linked statically where the toolchain has them, so the binary
# needs only libc and libdl (and libm) at run time.
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 OUTDIR" >&2
  exit 2
fi
out=$1
root=$(cd "$(dirname "$0")/.." && pwd)
cxx=${CXX:-c++}
read -r -a flags <<< "${CXXFLAGS:--O2}"
mkdir -p "$out"

static=()
# -print-file-name prints a bare name when the archive is not there.
if [ "$("$cxx" -print-file-name=libstdc++.a)" != "libstdc++.a" ]; then
  static=(-static-libstdc++ -static-libgcc)
else
  echo "note: no static libstdc++; the launcher will need libstdc++.so" >&2
fi

"$cxx" -std=c++17 "${flags[@]}" -I"$root/include" \
  "$root"/lib/GpuRuntime/*.cpp \
  "$root/tools/perfdojo-gpu-launch/perfdojo-gpu-launch.cpp" \
  -o "$out/perfdojo-gpu-launch" "${static[@]}" -ldl
echo "built $out/perfdojo-gpu-launch"
