#!/bin/sh
# A perfdojo-run stand-in for the isolation tests: the original kernel (the
# candidate equal to the --baseline file) runs normally; every other
# candidate crashes (MODE=crash), hangs (MODE=hang), or runs but prints a
# report without its schema version (MODE=old-schema), or reports a
# validation mismatch (MODE=mismatch). MODE=original-crash
# and MODE=original-fail make every candidate, the original first, crash or
# fail as a lowering error would.
if [ "$MODE" = original-fail ]; then
  echo "error: cannot lower the kernel" >&2
  exit 1
fi
if [ "$MODE" = original-crash ]; then
  kill -SEGV $$
fi
candidate="$1"
for arg in "$@"; do
  case "$arg" in --baseline=*) baseline="${arg#--baseline=}" ;; esac
done
if cmp -s "$candidate" "$baseline"; then
  exec "$REAL_RUNNER" "$@"
fi
if [ "$MODE" = mismatch ]; then
  echo "perfdojo-run: outputs do not match (stand-in)" >&2
  exit 2
fi
if [ "$MODE" = old-schema ]; then
  "$REAL_RUNNER" "$@" | grep -v '"schema_version"'
  exit 0
fi
if [ "$MODE" = hang ]; then
  sleep 30
fi
kill -SEGV $$
