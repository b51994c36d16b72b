# Stands in for `perfdojo-gpu-launch` on a GPU machine, for the bundle of
# Inputs/gpu-mul.dojo: reads inputs/x.bin and inputs/y.bin, writes
# outputs/z.bin = x * y (f32) and a timing.json of the launcher's shape.
# It tests the bundle and results protocol of perfdojo-run, not GPU code.
import array
import json
import os
import sys

bundle = sys.argv[1]
x, y = array.array("f"), array.array("f")
with open(os.path.join(bundle, "inputs", "x.bin"), "rb") as f:
    x.frombytes(f.read())
with open(os.path.join(bundle, "inputs", "y.bin"), "rb") as f:
    y.frombytes(f.read())
z = array.array("f", (a * b for a, b in zip(x, y)))
os.makedirs(os.path.join(bundle, "outputs"), exist_ok=True)
with open(os.path.join(bundle, "outputs", "z.bin"), "wb") as f:
    f.write(z.tobytes())
with open(os.path.join(bundle, "timing.json"), "w") as f:
    json.dump({"kernel": "gpu_mul", "device": {"name": "stand-in"},
               "timesMs": [0.004, 0.003, 0.005], "medianMs": 0.004,
               "minMs": 0.003}, f)
