"""Writes each candidate of a perfdojo-search report as a .dojo program.

usage: candidate-programs.py REPORT KERNEL OUTDIR TRANSLATE OPT

Every record must be valid; OUTDIR/<i>.dojo is record i's program (the
original's moves applied to KERNEL), record 0 (the original) included.
"""
import json
import os
import subprocess
import sys

report, kernel, outdir, translate, opt = sys.argv[1:6]
records = json.load(open(report))["records"]
assert all(r["status"] == "ok" for r in records), records
os.makedirs(outdir, exist_ok=True)
for i, record in enumerate(records):
    moves = os.path.join(outdir, f"{i}.moves")
    with open(moves, "w") as f:
        f.write(";".join(record["moves"]))
    mlir = subprocess.run([translate, "--import-dojo", kernel], check=True,
                          capture_output=True, text=True).stdout
    moved = subprocess.run([opt, f"--dojo-apply=file={moves}"], input=mlir,
                           check=True, capture_output=True, text=True).stdout
    dojo = subprocess.run([translate, "--export-dojo"], input=moved,
                          check=True, capture_output=True, text=True).stdout
    with open(os.path.join(outdir, f"{i}.dojo"), "w") as f:
        f.write(dojo)
