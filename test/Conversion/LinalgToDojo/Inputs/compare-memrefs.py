"""Compares the memrefs two runs printed with printMemrefF32.

Usage: compare-memrefs.py ACTUAL EXPECTED [TOLERANCE]

Every printed memref must have the same number of values, each within
TOLERANCE (1e-4) relative to max(1, |expected|): the kernels may reassociate
reductions, so results agree up to rounding, not bit for bit.
"""
import re
import sys

NUMBER = r"-?(?:\d+(?:\.\d*)?(?:e[-+]?\d+)?|inf|nan)"


def memrefs(path):
    blocks = open(path).read().split("Unranked Memref")[1:]
    return [[float(x) for x in re.findall(NUMBER, block.split("data =", 1)[1])]
            for block in blocks]


actual, expected = memrefs(sys.argv[1]), memrefs(sys.argv[2])
tolerance = float(sys.argv[3]) if len(sys.argv) > 3 else 1e-4
if not expected or len(actual) != len(expected):
    sys.exit(f"printed {len(actual)} memrefs, expected {len(expected)}")
for i, (a, e) in enumerate(zip(actual, expected)):
    if len(a) != len(e):
        sys.exit(f"memref {i}: {len(a)} values, expected {len(e)}")
    worst = max(abs(x - y) / max(1.0, abs(y)) for x, y in zip(a, e))
    print(f"memref {i}: {len(a)} values, max relative difference {worst:.1e}")
    if not worst <= tolerance:
        sys.exit(f"memref {i} differs by {worst:.2e} > {tolerance:.0e}")
