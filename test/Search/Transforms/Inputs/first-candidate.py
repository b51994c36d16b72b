"""Prints the move script of the program a rule-based search proposed first.

Usage: first-candidate.py REPORT.json naive|greedy|heuristic

The naive and heuristic strategies evaluate the original, then their
candidates in order of preference; greedy evaluates its phases in order, so
its preferred (last-phase) program is its last record.
"""
import json
import sys

records = [r for r in json.load(open(sys.argv[1]))["records"] if r["moves"]]
if records:
    chosen = records[-1] if sys.argv[2] == "greedy" else records[0]
    print("\n".join(chosen["moves"]))
