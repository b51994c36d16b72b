"""`cmake --install` gives a package that imports and finds its tools."""

import os
import pathlib
import subprocess
import sys

import pytest

import perfdojo


def test_installed_package_imports_and_searches(tmp_path):
    build = pathlib.Path(perfdojo.__file__).resolve().parents[2]
    if not (build / "CMakeCache.txt").exists():
        pytest.skip("perfdojo is not imported from a build tree")
    subprocess.run(["cmake", "--install", str(build), "--prefix",
                    str(tmp_path)], check=True, capture_output=True)
    packages = next(tmp_path.glob("lib/python3*/dist-packages"))
    env = dict(os.environ, PYTHONPATH=str(packages))
    env.pop("PERFDOJO_BIN_DIR", None)
    script = (
        "import perfdojo\n"
        "print(perfdojo.__file__)\n"
        "print(perfdojo.find_tool('perfdojo-run'))\n"
        "k = perfdojo.Kernel.parse('x f32 [8] heap in\\ny f32 [8] heap out\\n"
        "8 y[{0}] = x[{0}] * 2\\n')\n"
        "print(perfdojo.Evaluator(k, repetitions=1).evaluate()['status'])\n")
    out = subprocess.run([sys.executable, "-c", script], env=env, check=True,
                         capture_output=True, text=True, cwd=tmp_path).stdout
    module, tool, status = out.split()
    assert module.startswith(str(packages))
    assert tool == str(tmp_path / "bin" / "perfdojo-run")
    assert status == "ok"
