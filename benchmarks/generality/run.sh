#!/bin/bash
# Generality benchmark: PerfDojo's heuristic pass against libtorch on
# operator shapes from real models (shapes.json), not the paper's.
#
#   benchmarks/generality/run.sh [BUILD_DIR] [THREADS...]
#
# BUILD_DIR defaults to the repository's build/, THREADS to "1 2". For each
# shape and thread count it runs
#   perfdojo-search <id>/<operator>.dojo --strategy=heuristic --torch ...
# and then prints a markdown table (summarize.py) of libtorch's time, the
# result's time and the speedup, with a geomean per thread count.
# Environment: ONLY=id1,id2 runs only those shapes; WORK=DIR keeps kernels,
# logs and report.json files there (default: a new temporary directory).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=$(cd "${1:-$HERE/../../build}" && pwd)
[ $# -gt 0 ] && shift
THREADS=("$@")
[ ${#THREADS[@]} -eq 0 ] && THREADS=(1 2)
WORK=${WORK:-$(mktemp -d -t perfdojo-generality.XXXXXX)}
ONLY=${ONLY:-}

# A WORK directory of an earlier run keeps its results; only this run's
# shapes are rerun and summarized.
rm -rf "$WORK/kernels"
/usr/bin/python3 "$HERE/make_kernels.py" "$WORK/kernels" ${ONLY:+--only "$ONLY"}
echo "kernels, logs and reports: $WORK" >&2

for t in "${THREADS[@]}"; do
  for kernel in "$WORK"/kernels/*/*.dojo; do
    id=$(basename "$(dirname "$kernel")")
    out="$WORK/results/$id/t$t"
    mkdir -p "$out"
    echo "[$(date +%T)] $id, $t thread(s)" >&2
    "$BUILD/bin/perfdojo-search" "$kernel" --strategy=heuristic --threads="$t" \
      --torch --jobs=1 --reps=5 --final-candidates=3 --final-reps=10 \
      --plot=false --best-path=false --quiet --out="$out" >"$out/search.log" 2>&1 ||
      echo "  perfdojo-search failed (exit $?), see $out/search.log" >&2
  done
done

/usr/bin/python3 "$HERE/summarize.py" "$HERE/shapes.json" "$WORK/results" $ONLY
