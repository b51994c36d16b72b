#!/usr/bin/env bash
# Everything a GPU machine without LLVM needs to run the kernel library
# after the GPU expert pass, in one directory (docs/gpu.md, "Running the
# library on a GPU machine"):
#
#   scripts/gpu-bundle-library.sh [--generate-inputs] BUILD OUT [CHIP] [KERNEL.dojo...]
#
# OUT/<kernel>/ gets original.dojo, mapped.dojo and mapped.moves
# (perfdojo-search --map-only: the default variant of the GPU expert pass)
# and bundle/ (perfdojo-run --gpu-bundle: PTX, plan, input recipe,
# check.json, and the input files unless --generate-inputs: then the
# launcher regenerates them there, so kernels at the paper's shapes travel
# as kilobytes); every other distinct variant's program mapped-v<K>.dojo
# gets bundle-v<K>/ (candidates timed there in one go). OUT/src/ gets the launcher's
# sources and OUT/run-all.sh builds the launcher there and runs every
# bundle. Back here, scripts/gpu-validate-library.sh BUILD OUT validates the
# outputs; there, scripts/gpu-torch-check.py OUT judges them against
# PyTorch and times PyTorch eager.
set -euo pipefail
INPUTS=true
if [ "${1:-}" = "--generate-inputs" ]; then
  INPUTS=false
  shift
fi
BUILD=${1:?build directory}; OUT=${2:?output directory}; CHIP=${3:-sm_90}
shift $(( $# >= 3 ? 3 : $# ))
ROOT=$(cd "$(dirname "$0")/.." && pwd)
KERNELS=("$@")
[ ${#KERNELS[@]} -gt 0 ] || KERNELS=("$ROOT"/kernels/*.dojo)
mkdir -p "$OUT"
for k in "${KERNELS[@]}"; do
  name=$(basename "$k" .dojo)
  "$BUILD/bin/perfdojo-search" "$k" --target="$CHIP" --map-only --out="$OUT/$name" > /dev/null
  cp "$k" "$OUT/$name/original.dojo"
  # The original's reductions set the tolerances of check.json.
  for mapped in "$OUT/$name"/mapped*.dojo; do
    variant=$(basename "$mapped" .dojo); variant=${variant#mapped}
    "$BUILD/bin/perfdojo-run" "$mapped" --gpu-chip="$CHIP" \
      --baseline="$OUT/$name/original.dojo" \
      --gpu-bundle="$OUT/$name/bundle$variant" \
      --gpu-bundle-inputs="$INPUTS" > /dev/null
  done
  echo "bundled $name"
done
# The launcher's sources and run-all.sh; inputs regenerated there are
# saved for gpu-torch-check.py.
"$ROOT/scripts/gpu-write-run-all.sh" --save-inputs "$OUT"
echo "wrote $OUT: ${#KERNELS[@]} bundle(s) and run-all.sh"
