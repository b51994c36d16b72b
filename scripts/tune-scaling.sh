#!/usr/bin/env bash
# perfdojo-tune's throughput by rank count on this machine (docs/distributed.md):
# the same manifest tuned from scratch as one process and under mpirun with
# 2..MAX ranks (rank 0 coordinates, the others evaluate), one after the other.
# Prints evaluations per minute, rank 0's CPU per result and the rank count
# at which one coordinator would saturate.
#
# usage: scripts/tune-scaling.sh [BUILD_DIR] [MANIFEST] [MAX_RANKS]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
MANIFEST="${2:-$ROOT/benchmarks/tune/library.json}"
MAX="${3:-3}"
TUNE="$BUILD/bin/perfdojo-tune"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
MPIRUN=(mpirun --allow-run-as-root --oversubscribe --mca btl self,tcp)

summary() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1] + "/report.json"))
print(f"| {sys.argv[2]} | {r['evaluations_run']} | {r['elapsed_s']:.1f} | "
      f"{r['evaluations_per_minute']:.1f} | "
      f"{r['coordinator_s_per_result'] * 1e3:.2f} | "
      f"{r['dispatch_s_per_result'] * 1e3:.3f} | "
      f"{r['worker_s_per_evaluation']:.2f} | {r['saturation_ranks']:.0f} |")
PY
}

echo "| ranks | evaluations | elapsed s | evaluations/min | rank 0 CPU ms/result | dispatch ms/result | worker s/evaluation | saturation ranks |"
echo "|---|---|---|---|---|---|---|---|"
"$TUNE" "$MANIFEST" --out "$WORK/1" --quiet > /dev/null
summary "$WORK/1" "1 (one process)"
for n in $(seq 2 "$MAX"); do
  "${MPIRUN[@]}" -n "$n" "$TUNE" "$MANIFEST" --out "$WORK/$n" --quiet > /dev/null
  summary "$WORK/$n" "$n ($((n - 1)) evaluating)"
done
