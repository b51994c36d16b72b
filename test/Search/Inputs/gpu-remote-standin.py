# Stands in for a GPU machine running DIR/run-all.sh for a
# `perfdojo-search --gpu-remote=DIR` round: every bundle below DIR without
# a timing.json gets the outputs of its kernel.dojo run by the interpreter
# here (same seed, so the same inputs as the launcher's recipe) and a
# timing.json of the launcher's shape whose times are the interpreter's.
# It tests the rounds' protocol, not GPU code.
#
#   gpu-remote-standin.py PERFDOJO_RUN DIR             # one GPU visit
#   gpu-remote-standin.py PERFDOJO_RUN DIR SEARCH...   # the whole search:
#       SEARCH (a perfdojo-search --gpu-remote=DIR command), then a visit
#       and SEARCH again while DIR/pending.txt exists
import array
import json
import os
import subprocess
import sys
import tempfile

TYPECODES = {"f32": "f", "f64": "d", "i32": "i", "i64": "q"}


def visit(runner, root):
    """Runs every bundle below `root` that has not run yet."""
    ran = 0
    for directory, _, files in sorted(os.walk(root)):
        if not any(f.endswith(".plan") for f in files) or "timing.json" in files:
            continue
        with open(os.path.join(directory, "inputs.recipe")) as f:
            seed = next(line.split()[1] for line in f if line.startswith("seed "))
        with tempfile.TemporaryDirectory() as tmp:
            dump = os.path.join(tmp, "outputs.txt")
            report = subprocess.run(
                [runner, os.path.join(directory, "kernel.dojo"), "--engine=interp",
                 "--seed=" + seed, "--dump-outputs=" + dump, "--json"],
                check=True, capture_output=True, text=True).stdout
            buffers, current = {}, None
            with open(dump) as f:
                for line in f:
                    if line.startswith("#"):
                        name, dtype = line[1:].split()[:2]
                        current = buffers[name] = array.array(TYPECODES[dtype])
                    else:
                        value = line.strip()
                        current.append(float(value) if current.typecode in "fd"
                                       else int(value))
        os.makedirs(os.path.join(directory, "outputs"), exist_ok=True)
        for name, values in buffers.items():
            with open(os.path.join(directory, "outputs", name + ".bin"), "wb") as f:
                f.write(values.tobytes())
        ms = json.loads(report)["time_median_s"] * 1e3
        with open(os.path.join(directory, "timing.json"), "w") as f:
            json.dump({"device": {"name": "stand-in"}, "timesMs": [ms],
                       "medianMs": ms, "minMs": ms}, f)
        ran += 1
    print("stand-in ran %d bundle(s)" % ran, flush=True)


runner, root, search = sys.argv[1], sys.argv[2], sys.argv[3:]
if not search:
    visit(runner, root)
    sys.exit(0)
for round in range(1, 100):
    subprocess.run(search, check=True)
    if not os.path.exists(os.path.join(root, "pending.txt")):
        print("search ended after %d round(s)" % round)
        break
    visit(runner, root)
