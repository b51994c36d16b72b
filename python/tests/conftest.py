"""Shared fixtures: the repository's kernels, and the package under test.

Run from the repository root with the build tree's package:
    PYTHONPATH=build/python_packages /usr/bin/python3 -m pytest python/tests
"""

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

FIG6 = ("x f32 [8, 16] heap in\n"
        "t f32 [8, 16] heap\n"
        "y f32 [8, 16] heap out\n"
        "8 16 t[{0}, {1}] = exp(x[{0}, {1}])\n"
        "8 16 y[{0}, {1}] = t[{0}, {1}] * 2\n")


@pytest.fixture
def kernels():
    return ROOT / "kernels"


@pytest.fixture
def softmax(kernels):
    import perfdojo
    return perfdojo.Kernel.from_file(str(kernels / "small" / "softmax.dojo"))


@pytest.fixture
def fig6():
    import perfdojo
    return perfdojo.Kernel.parse(FIG6, name="fig6")


@pytest.fixture(autouse=True)
def _repository_root(monkeypatch):
    monkeypatch.chdir(ROOT)
