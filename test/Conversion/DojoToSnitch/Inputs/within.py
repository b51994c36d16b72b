"""Checks that the `snitch: N cycles` line of a perfdojo-run report is
within a relative tolerance of an expected cycle count.

usage: within.py REPORT EXPECTED TOLERANCE
"""
import re
import sys

report, expected, tolerance = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
with open(report) as f:
    match = re.search(r"^snitch: (\d+) cycles", f.read(), re.MULTILINE)
if not match:
    sys.exit(f"{report}: no 'snitch: N cycles' line")
cycles = int(match.group(1))
error = abs(cycles - expected) / expected
print(f"{cycles} cycles against {expected:g}: {100 * error:.1f}% off")
if error > tolerance:
    sys.exit(f"{cycles} cycles is more than {100 * tolerance:g}% off {expected:g}")
