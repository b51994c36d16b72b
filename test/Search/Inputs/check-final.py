"""Checks the final selection of a perfdojo-search report: the original
first, then N distinct programs ordered by their new times, each timed in
ROUNDS rounds (default 1) whose median is its time, and the result
(best_time_s, naive_time_s, best_moves) taken from those times."""
import json
import sys

report = json.load(open(sys.argv[1]))
expected = int(sys.argv[2])
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 1
final = report["final"]
assert report["final_repetitions"] > 0, report
assert final[0]["moves"] == 0, final
assert len(final) == expected + 1, final
keys = [f["key"] for f in final]
assert len(set(keys)) == len(keys), keys
times = [f["time_s"] for f in final[1:] if f["status"] == "ok"]
assert times == sorted(times), final
ok = [f for f in final if f["status"] == "ok"]
for f in ok:
    r = sorted(f["round_times_s"])
    assert len(r) == rounds, f
    n = len(r)
    median = r[n // 2] if n % 2 else 0.5 * (r[n // 2 - 1] + r[n // 2])
    assert abs(f["time_s"] - median) <= 1e-12 * median, f
fastest = min(ok, key=lambda f: f["time_s"])
assert report["best_time_s"] == fastest["time_s"], (report["best_time_s"], final)
assert report["naive_time_s"] == final[0]["time_s"], final
assert len(report["best_moves"]) == fastest["moves"], (report["best_moves"], fastest)
# Every program of the selection is one the search evaluated.
searched = {r["key"] for r in report["records"] if r["status"] == "ok"}
assert all(k in searched for k in keys), keys
print("final selection ok")
