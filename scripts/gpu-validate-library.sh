#!/usr/bin/env bash
# Validates the outputs and reports the times that OUT/run-all.sh (written
# by scripts/gpu-bundle-library.sh) left on a GPU machine: each mapped
# kernel (every variant's bundle that has outputs) against the f64
# reference of its original, on the bundle's inputs.
#
#   scripts/gpu-validate-library.sh BUILD OUT [CHIP]
set -uo pipefail
BUILD=${1:?build directory}; OUT=${2:?output directory}; CHIP=${3:-sm_90}
status=0
for dir in "$OUT"/*/bundle "$OUT"/*/bundle-v*; do
  [ -d "$dir" ] || continue
  k=$(dirname "$dir")
  variant=$(basename "$dir"); variant=${variant#bundle}
  echo "== $(basename "$k") $(basename "$dir")"
  if [ ! -d "$dir/outputs" ]; then
    echo "skipped: no outputs (not run there, or not brought back)"
    continue
  fi
  "$BUILD/bin/perfdojo-run" "$k/mapped$variant.dojo" --engine=cuda \
    --gpu-chip="$CHIP" --baseline="$k/original.dojo" --gpu-results="$dir" ||
    status=1
done
exit $status
