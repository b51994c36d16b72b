#!/usr/bin/python3
"""Write the generality benchmark's kernels: one naive .dojo per shape.

For every entry of shapes.json (next to this script) this writes
OUTDIR/<id>/<operator>.dojo, the library's kernel of that operator
(kernels/<operator>.dojo, kernels/README.md) with only the sizes changed.
The file is named after the operator, so perfdojo-search --torch and
perfdojo-run-torch pick libtorch's operator of that name.

  /usr/bin/python3 make_kernels.py OUTDIR [--only id1,id2]
  /usr/bin/python3 make_kernels.py --self-check

--self-check regenerates every kernels/*.dojo (paper shapes) and
kernels/small/*.dojo from the templates below and compares them byte for
byte; it also checks that no benchmark shape reproduces a kernels/ or
kernels/bench/ file. Standard library only.
"""
import json
import os
import string
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, "..", "..", "kernels")

# Templates: $NAME is a size (or a derived one, see derived()).
T = {}
T["matmul"] = """\
a f32 [$M, $K] heap in
b f32 [$K, $N] heap in
c f32 [$M, $N] heap out
$M $N c[{0}, {1}] = 0
| | $K c[{0}, {1}] += a[{0}, {2}] * b[{2}, {1}]
"""
T["bmm"] = """\
a f32 [$B, $M, $K] heap in
b f32 [$B, $K, $N] heap in
c f32 [$B, $M, $N] heap out
$B $M $N c[{0}, {1}, {2}] = 0
| | | $K c[{0}, {1}, {2}] += a[{0}, {1}, {3}] * b[{0}, {3}, {2}]
"""
T["conv"] = """\
x f32 [$N, $Cin, $H, $W] heap in
w f32 [$Cout, $Cin, $K, $K] heap in
y f32 [$N, $Cout, $Ho, $Wo] heap out
$N $Cout $Ho $Wo y[{0}, {1}, {2}, {3}] = 0
| | | | $Cin $K $K y[{0}, {1}, {2}, {3}] += x[{0}, {4}, {2}+{5}, {3}+{6}] * w[{1}, {4}, {5}, {6}]
"""
T["softmax"] = """\
x f32 [$rows, $cols] heap in
m f32 [$rows] heap
s f32 [$rows] heap
y f32 [$rows, $cols] heap out
$rows m[{0}] = -inf
| $cols m[{0}] max= x[{0}, {1}]
$rows $cols y[{0}, {1}] = x[{0}, {1}] - m[{0}]
| | y[{0}, {1}] = exp(y[{0}, {1}])
$rows s[{0}] = 0
| $cols s[{0}] += y[{0}, {1}]
$rows $cols y[{0}, {1}] = y[{0}, {1}] / s[{0}]
"""
T["layernorm"] = """\
x f32 [$rows, $cols] heap in
g f32 [$cols] heap in
b f32 [$cols] heap in
m f32 [$rows] heap
v f32 [$rows] heap
y f32 [$rows, $cols] heap out
$rows m[{0}] = 0
| $cols m[{0}] += x[{0}, {1}]
| m[{0}] = m[{0}] / $cols
$rows $cols y[{0}, {1}] = x[{0}, {1}] - m[{0}]
$rows v[{0}] = 0
| $cols v[{0}] += y[{0}, {1}] * y[{0}, {1}]
| v[{0}] = v[{0}] / $cols
| v[{0}] = v[{0}] + 1.0e-5
| v[{0}] = rsqrt(v[{0}])
$rows $cols y[{0}, {1}] = y[{0}, {1}] * v[{0}]
| | y[{0}, {1}] = y[{0}, {1}] * g[{1}]
| | y[{0}, {1}] = y[{0}, {1}] + b[{1}]
"""
T["rmsnorm"] = """\
x f32 [$rows, $cols] heap in
g f32 [$cols] heap in
s f32 [$rows] heap
y f32 [$rows, $cols] heap out
$rows s[{0}] = 0
| $cols s[{0}] += x[{0}, {1}] * x[{0}, {1}]
| s[{0}] = s[{0}] / $cols
| s[{0}] = s[{0}] + 1.0e-5
| s[{0}] = rsqrt(s[{0}])
$rows $cols y[{0}, {1}] = x[{0}, {1}] * s[{0}]
| | y[{0}, {1}] = y[{0}, {1}] * g[{1}]
"""
T["batchnorm"] = """\
x f32 [$N, $C, $H, $W] heap in
g f32 [$C] heap in
b f32 [$C] heap in
m f32 [$C] heap
v f32 [$C] heap
y f32 [$N, $C, $H, $W] heap out
$C m[{0}] = 0
| $N $H $W m[{0}] += x[{1}, {0}, {2}, {3}]
| m[{0}] = m[{0}] / $count
$N $C $H $W y[{0}, {1}, {2}, {3}] = x[{0}, {1}, {2}, {3}] - m[{1}]
$C v[{0}] = 0
| $N $H $W v[{0}] += y[{1}, {0}, {2}, {3}] * y[{1}, {0}, {2}, {3}]
| v[{0}] = v[{0}] / $count
| v[{0}] = v[{0}] + 1.0e-5
| v[{0}] = rsqrt(v[{0}])
$N $C $H $W y[{0}, {1}, {2}, {3}] = y[{0}, {1}, {2}, {3}] * v[{1}]
| | | | y[{0}, {1}, {2}, {3}] = y[{0}, {1}, {2}, {3}] * g[{1}]
| | | | y[{0}, {1}, {2}, {3}] = y[{0}, {1}, {2}, {3}] + b[{1}]
"""
T["swiglu"] = """\
x f32 [$B, $T, $D] heap in
wg f32 [$D, $F] heap in
wu f32 [$D, $F] heap in
g f32 [$B, $T, $F] heap
u f32 [$B, $T, $F] heap
y f32 [$B, $T, $F] heap out
$B $T $F g[{0}, {1}, {2}] = 0
| | | $D g[{0}, {1}, {2}] += x[{0}, {1}, {3}] * wg[{3}, {2}]
$B $T $F u[{0}, {1}, {2}] = 0
| | | $D u[{0}, {1}, {2}] += x[{0}, {1}, {3}] * wu[{3}, {2}]
$B $T $F y[{0}, {1}, {2}] = sigmoid(g[{0}, {1}, {2}])
| | | y[{0}, {1}, {2}] = g[{0}, {1}, {2}] * y[{0}, {1}, {2}]
| | | y[{0}, {1}, {2}] = y[{0}, {1}, {2}] * u[{0}, {1}, {2}]
"""
_BINARY = """\
x f32 [$rows, $cols] heap in
y f32 [$rows, $cols] heap in
z f32 [$rows, $cols] heap out
$rows $cols z[{0}, {1}] = x[{0}, {1}] OP y[{0}, {1}]
"""
T["add"] = _BINARY.replace("OP", "+")
T["mul"] = _BINARY.replace("OP", "*")
T["relu"] = """\
x f32 [$rows, $cols] heap in
y f32 [$rows, $cols] heap out
$rows $cols y[{0}, {1}] = relu(x[{0}, {1}])
"""
T["relu_ffn"] = """\
x f32 [$N, $C, $P] heap in
w f32 [$C, $C] heap in
y f32 [$N, $C, $P] heap out
$N $C $P y[{0}, {1}, {2}] = 0
| | | $C y[{0}, {1}, {2}] += w[{1}, {3}] * x[{0}, {3}, {2}]
$N $C $P y[{0}, {1}, {2}] = relu(y[{0}, {1}, {2}])
"""
T["reducemean"] = """\
x f32 [$rows, $cols] heap in
y f32 [$rows] heap out
$rows y[{0}] = 0
| $cols y[{0}] += x[{0}, {1}]
| y[{0}] = y[{0}] / $cols
"""


def derived(op, s):
    s = dict(s)
    if op == "conv":
        s["Ho"], s["Wo"] = s["H"] - s["K"] + 1, s["W"] - s["K"] + 1
    if op == "batchnorm":
        s["count"] = s["N"] * s["H"] * s["W"]
    if op == "relu_ffn":
        s.setdefault("P", s.get("H", 1) * s.get("W", 1))
    if op == "swiglu":
        s.setdefault("B", 1)
    return s


def render(op, sizes):
    return string.Template(T[op]).substitute(derived(op, sizes))


# The library's files (kernels/README.md's table): stem -> (operator, paper
# sizes, small-twin sizes).
LIBRARY = {
    "add": ("add", dict(rows=3072, cols=4096), dict(rows=12, cols=20)),
    "batchnorm": ("batchnorm", dict(N=8, C=3, H=2048, W=2048), dict(N=2, C=3, H=4, W=7)),
    "batchnorm_large_c": ("batchnorm", dict(N=8, C=64, H=300, W=300), dict(N=3, C=8, H=5, W=3)),
    "bmm": ("bmm", dict(B=192, M=256, K=128, N=256), dict(B=3, M=7, K=16, N=5)),
    "conv": ("conv", dict(N=8, Cout=10, Cin=3, H=512, W=512, K=5), dict(N=2, Cout=3, Cin=3, H=9, W=12, K=5)),
    "conv_large_c": ("conv", dict(N=8, Cout=64, Cin=64, H=56, W=56, K=3), dict(N=2, Cout=6, Cin=5, H=7, W=10, K=3)),
    "layernorm": ("layernorm", dict(rows=16384, cols=1024), dict(rows=6, cols=16)),
    "layernorm_wide": ("layernorm", dict(rows=4096, cols=4096), dict(rows=5, cols=31)),
    "matmul": ("matmul", dict(M=768, K=1024, N=1024), dict(M=9, K=16, N=12)),
    "mul": ("mul", dict(rows=6, cols=14336), dict(rows=3, cols=29)),
    "reducemean": ("reducemean", dict(rows=4096, cols=4096), dict(rows=11, cols=16)),
    "relu": ("relu", dict(rows=4096, cols=4096), dict(rows=13, cols=24)),
    "relu_ffn": ("relu_ffn", dict(N=8, C=64, H=112, W=112), dict(N=2, C=16, P=13)),
    "rmsnorm": ("rmsnorm", dict(rows=3072, cols=4096), dict(rows=7, cols=16)),
    "softmax": ("softmax", dict(rows=24576, cols=512), dict(rows=9, cols=16)),
    "swiglu": ("swiglu", dict(T=256, D=4096, F=448), dict(T=6, D=16, F=7)),
}


def load_shapes():
    with open(os.path.join(HERE, "shapes.json")) as f:
        return json.load(f)


def self_check():
    bad = 0
    for stem, (op, paper, small) in sorted(LIBRARY.items()):
        for sub, sizes in (("", paper), ("small", small)):
            path = os.path.join(KERNELS, sub, stem + ".dojo")
            with open(path) as f:
                ok = f.read() == render(op, sizes)
            bad += not ok
            print("%-4s %s" % ("ok" if ok else "DIFF", os.path.relpath(path, KERNELS)))
    existing = {}
    for sub in ("", "bench"):
        d = os.path.join(KERNELS, sub)
        for name in os.listdir(d):
            if name.endswith(".dojo"):
                with open(os.path.join(d, name)) as f:
                    existing[f.read()] = os.path.join(sub, name)
    shapes = load_shapes()
    for e in shapes:
        if render(e["operator"], e["sizes"]) in existing:
            bad += 1
            print("SAME %s as kernels/%s" % (e["id"], existing[render(e["operator"], e["sizes"])]))
    ids = [e["id"] for e in shapes]
    if len(set(ids)) != len(ids):
        bad += 1
        print("duplicate ids in shapes.json")
    print("self-check:", "FAILED (%d)" % bad if bad else "passed (%d library files, %d shapes distinct)" % (2 * len(LIBRARY), len(shapes)))
    return 1 if bad else 0


def main(argv):
    if argv[1:] == ["--self-check"]:
        return self_check()
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--only"):
        sys.stderr.write(__doc__)
        return 2
    only = set(argv[3].split(",")) if len(argv) == 4 else None
    shapes = [e for e in load_shapes() if only is None or e["id"] in only]
    if only is not None and len(shapes) != len(only):
        sys.stderr.write("unknown id(s): %s\n" % ", ".join(sorted(only - {e["id"] for e in shapes})))
        return 2
    for e in shapes:
        d = os.path.join(argv[1], e["id"])
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, e["operator"] + ".dojo"), "w") as f:
            f.write(render(e["operator"], e["sizes"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
