#!/usr/bin/env bash
# Runs every PerfDojo test suite against a build directory and prints the
# combined counts. Exit status is non-zero if any suite fails.
set -uo pipefail
BUILD=${1:-build}
LIT=/usr/lib/llvm-22/bin/lit

status=0
passed=0
failed=0

echo "== lit (check-perfdojo) =="
lit_out=$(mktemp)
"$LIT" -sv "$BUILD/test" | tee "$lit_out"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
lp=$(sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p' "$lit_out" | head -1)
lf=$(awk -F: '/^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed) *:/ {n += $2} END {print n + 0}' "$lit_out")
passed=$((passed + ${lp:-0}))
failed=$((failed + ${lf:-0}))
rm -f "$lit_out"

echo "== GoogleTest (ctest) =="
ct_out=$(mktemp)
(cd "$BUILD" && ctest --output-on-failure) | tee "$ct_out"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
total=$(sed -n 's/.*tests passed, \([0-9]*\) tests failed out of \([0-9]*\).*/\2/p' "$ct_out")
cf=$(sed -n 's/.*tests passed, \([0-9]*\) tests failed out of \([0-9]*\).*/\1/p' "$ct_out")
passed=$((passed + ${total:-0} - ${cf:-0}))
failed=$((failed + ${cf:-0}))
rm -f "$ct_out"

echo "== pytest (the Python package) =="
if [ -d "$BUILD/python_packages/perfdojo" ]; then
  # The project's venv (Debian's Python plus gymnasium) when it exists.
  py=/usr/bin/python3
  [ -x .venv/bin/python ] && py=.venv/bin/python
  pt_out=$(mktemp)
  PYTHONPATH="$BUILD/python_packages" "$py" -m pytest -q -p no:cacheprovider \
    python/tests | tee "$pt_out"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  summary=$(tail -1 "$pt_out")
  pp=$(echo "$summary" | sed -n 's/.* \([0-9]*\) passed.*/\1/p; s/^\([0-9]*\) passed.*/\1/p' | head -1)
  pf=$(echo "$summary" | grep -o '[0-9]* \(failed\|error\|errors\)' | awk '{n += $1} END {print n + 0}')
  passed=$((passed + ${pp:-0}))
  failed=$((failed + ${pf:-0}))
  rm -f "$pt_out"
else
  echo "skipped: the Python package is not built (PERFDOJO_ENABLE_PYTHON=OFF)"
fi

for extra in scripts/check-*.sh; do
  [ -x "$extra" ] || continue
  echo "== $extra =="
  if "$extra" "$BUILD"; then passed=$((passed + 1)); else failed=$((failed + 1)); status=1; fi
done

echo
echo "check: $passed passed, $failed failed"
exit $status
