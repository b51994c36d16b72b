#!/usr/bin/env bash
# Generated kernels mapped with GPU modes and locations through the GPU
# lowering: each must give PTX (accepted by ptxas where it is installed)
# and an AMDGPU code object with no undefined symbols, or a located error
# ("file:line:col: error: ..."); a crash, an unlocated error, PTX that ptxas
# rejects or a code object with undefined symbols is a failure, kept in
# OUT/failures/.
#
#   scripts/fuzz-gpu-lowering.sh BUILD COUNT SEED OUT
#
# Prints one line per failure and a summary: "gpu lowering: N kernels, L
# lowered, R refused with a located error, F failed"; exits 1 on failures.
set -uo pipefail
BUILD=${1:?build directory}; COUNT=${2:-100}; SEED=${3:-0}; OUT=${4:?output directory}
BIN=$BUILD/bin
NM=$(command -v llvm-nm-22 || command -v llvm-nm || echo /usr/lib/llvm-22/bin/llvm-nm)
mkdir -p "$OUT/kernels" "$OUT/failures"
"$BIN/perfdojo-fuzz-kernels" --count="$COUNT" --seed="$SEED" --gpu-fraction=1 \
  --print > "$OUT/all.dojo" || { echo "the generator failed"; exit 1; }
# One file per kernel (the generator separates them by "# seed N").
awk -v dir="$OUT/kernels" '/^# seed /{f=dir "/k" $3 ".dojo"; next} {print > f}' "$OUT/all.dojo"
lowered=0; refused=0; failed=0; total=0
fail() { failed=$((failed + 1)); cp "$1" "$OUT/failures/"; echo "FAIL $(basename "$1"): $2"; }
for k in "$OUT"/kernels/*.dojo; do
  total=$((total + 1))
  timeout 120 "$BIN/perfdojo-translate" --emit=ptx --target=sm_90 "$k" -o "$OUT/k.ptx" > "$OUT/k.log" 2>&1
  rc=$?
  if [ $rc -eq 1 ]; then
    if grep -q "\.dojo:[0-9]*:[0-9]*: error:" "$OUT/k.log"; then refused=$((refused + 1)); else fail "$k" "unlocated error: $(head -1 "$OUT/k.log")"; fi
    continue
  elif [ $rc -ne 0 ]; then
    fail "$k" "exit status $rc: $(head -1 "$OUT/k.log")"; continue
  fi
  if command -v ptxas > /dev/null && ! ptxas -arch=sm_90 "$OUT/k.ptx" -o /dev/null > "$OUT/k.ptxas" 2>&1; then
    fail "$k" "ptxas: $(head -1 "$OUT/k.ptxas")"; continue
  fi
  if ! timeout 120 "$BIN/perfdojo-translate" --emit=hsaco --target=gfx942 "$k" -o "$OUT/k.hsaco" > "$OUT/k.log" 2>&1; then
    # The AMD chips have wave64: a `:w 32` kernel is refused there, located.
    grep -q "\.dojo:[0-9]*:[0-9]*: error:" "$OUT/k.log" || fail "$k" "hsaco: $(head -1 "$OUT/k.log")"
  elif [ -n "$("$NM" -u "$OUT/k.hsaco")" ]; then
    fail "$k" "hsaco has undefined symbols"; continue
  fi
  lowered=$((lowered + 1))
done
echo "gpu lowering: $total kernels, $lowered lowered, $refused refused with a located error, $failed failed"
[ $failed -eq 0 ]
