#!/usr/bin/env bash
# Makes a directory of GPU bundles (perfdojo-run --gpu-bundle) ready for a
# GPU machine without LLVM: copies the launcher's sources to OUT/src/ and
# writes OUT/run-all.sh, which builds perfdojo-gpu-launch there and runs
# every bundle below OUT that has not run yet (docs/gpu.md). Used by
# scripts/gpu-bundle-library.sh and by perfdojo-search --gpu-remote rounds.
#
#   scripts/gpu-write-run-all.sh [--save-inputs] OUT
#
# --save-inputs: bundles whose inputs come from a recipe keep them in
# inputs/ (for scripts/gpu-torch-check.py; large at the paper's shapes).
set -euo pipefail
SAVE=false
if [ "${1:-}" = "--save-inputs" ]; then
  SAVE=true
  shift
fi
OUT=${1:?output directory}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$OUT/src/scripts"
# The launcher builds from its sources alone (scripts/build-gpu-launcher.sh).
rm -rf "$OUT/src/include" "$OUT/src/lib" "$OUT/src/tools"
cp -r "$ROOT/include" "$ROOT/lib" "$ROOT/tools" "$OUT/src/"
cp "$ROOT/scripts/build-gpu-launcher.sh" "$ROOT/scripts/gpu-torch-check.py" \
  "$OUT/src/scripts/"
{
  echo '#!/usr/bin/env bash'
  echo "SAVE_INPUTS=$SAVE"
  cat <<'RUN'
# On the GPU machine: build the launcher, run every bundle below this
# directory that has no timing.json yet (a finished bundle is never run
# twice: delete its timing.json to run it again). Inputs come from the
# bundle's files or its recipe. A bundle that fails, or runs longer than
# PERFDOJO_BUNDLE_TIMEOUT seconds (default 300), gets failed.txt with the
# reason; the others still run.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
"$HERE/src/scripts/build-gpu-launcher.sh" "$HERE/bin" || exit 1
status=0
while IFS= read -r plan; do
  b=$(dirname "$plan")
  [ -e "$b/timing.json" ] && continue
  module=$(ls "$b"/*.ptx "$b"/*.hsaco 2>/dev/null | head -n 1)
  if [ -d "$b/inputs" ]; then inputs=(--inputs inputs)
  elif $SAVE_INPUTS; then inputs=(--generate-inputs inputs.recipe --save-inputs inputs)
  else inputs=(--generate-inputs inputs.recipe); fi
  echo "== ${b#"$HERE"/}"
  rm -f "$b/failed.txt"
  if [ -z "$module" ]; then
    echo "no module (.ptx or .hsaco) in the bundle" | tee "$b/failed.txt"
    status=1
    continue
  fi
  (cd "$b" && timeout "${PERFDOJO_BUNDLE_TIMEOUT:-300}" \
     "$HERE/bin/perfdojo-gpu-launch" "$(basename "$plan")" "$module" \
     "${inputs[@]}" --outputs outputs --json timing.json --warmup 3 \
     --reps 20) > "$b/launch.log" 2>&1
  rc=$?
  cat "$b/launch.log"
  if [ $rc -ne 0 ]; then
    status=1
    rm -f "$b/timing.json"
    { [ $rc -eq 124 ] && echo "stopped after ${PERFDOJO_BUNDLE_TIMEOUT:-300} s" \
        || echo "perfdojo-gpu-launch exited with $rc"
      tail -n 5 "$b/launch.log"; echo; } > "$b/failed.txt"
  fi
done < <(find "$HERE" -path "$HERE/src" -prune -o -path "$HERE/bin" -prune \
           -o -name '*.plan' -print | sort)
exit $status
RUN
} > "$OUT/run-all.sh"
chmod +x "$OUT/run-all.sh"
