#!/bin/sh
# A perfdojo-run stand-in for the isolation tests: the original kernel (the
# candidate equal to the --baseline file) runs normally; every other
# candidate crashes (MODE=crash), hangs (MODE=hang), or runs but prints a
# report without its schema version (MODE=old-schema).
candidate="$1"
for arg in "$@"; do
  case "$arg" in --baseline=*) baseline="${arg#--baseline=}" ;; esac
done
if cmp -s "$candidate" "$baseline"; then
  exec "$REAL_RUNNER" "$@"
fi
if [ "$MODE" = old-schema ]; then
  "$REAL_RUNNER" "$@" | grep -v '"schema_version"'
  exit 0
fi
if [ "$MODE" = hang ]; then
  sleep 30
fi
kill -SEGV $$
