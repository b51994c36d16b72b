"""Running kernels on NumPy arrays: run, interpret, compile, emit."""

import subprocess

import numpy as np
import pytest

import perfdojo


def softmax_of(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def test_generate_inputs_is_deterministic(softmax):
    a = perfdojo.generate_inputs(softmax, seed=3)
    b = perfdojo.generate_inputs(softmax, seed=3)
    c = perfdojo.generate_inputs(softmax, seed=4)
    assert list(a) == ["x"]
    assert a["x"].dtype == np.float32 and a["x"].shape == (9, 16)
    assert np.array_equal(a["x"], b["x"]) and not np.array_equal(a["x"], c["x"])
    assert a["x"].min() >= -1 and a["x"].max() < 1


def test_run_validates_and_times(softmax):
    result = perfdojo.run(softmax, repetitions=3)
    assert result.passed and result.seconds > 0
    report = result.report
    assert report["kernel"] == "softmax" and report["engine"] == "jit"
    assert report["outputs"][0]["name"] == "y"
    assert "matches the f64 reference" in result.text
    # The outputs are those of the generated inputs.
    x = perfdojo.generate_inputs(softmax)["x"]
    assert np.allclose(result.outputs["y"], softmax_of(x.astype(np.float64)),
                       rtol=1e-5, atol=1e-6)


def test_run_on_given_inputs_every_engine(softmax):
    x = np.linspace(-2, 2, 9 * 16).reshape(9, 16)  # float64, converted
    expected = softmax_of(x)
    for engine in ("jit", "interp"):
        result = perfdojo.run(softmax, {"x": x}, engine=engine, repetitions=1)
        assert result.passed
        assert result.outputs["y"].dtype == np.float32
        assert np.allclose(result.outputs["y"], expected, atol=1e-6)


def test_run_refuses_bad_arguments(softmax):
    with pytest.raises(ValueError, match="shape"):
        perfdojo.run(softmax, {"x": np.zeros((16, 9))})
    with pytest.raises(ValueError, match="no argument 'z'"):
        perfdojo.run(softmax, {"x": np.zeros((9, 16)), "z": 1})
    with pytest.raises(ValueError, match="no input for argument 'x'"):
        perfdojo.run(softmax, {})
    with pytest.raises(ValueError, match="'y' is an `out` argument"):
        perfdojo.run(softmax, {"x": np.zeros((9, 16)), "y": np.zeros((9, 16))})
    with pytest.raises(ValueError, match="jit"):
        perfdojo.run(softmax, engine="gpu")


def test_run_against_a_baseline_catches_a_wrong_kernel(softmax):
    # Not a move: a different computation validated against the original.
    wrong = perfdojo.Kernel.parse(softmax.text.replace("exp(", "abs("),
                                  name="softmax")
    result = perfdojo.run(wrong, baseline=softmax, repetitions=1)
    assert not result.passed
    assert "does not match" in result.text or "mismatch" in result.text


def test_interpret_matches_numpy(softmax):
    x = np.random.default_rng(0).standard_normal((9, 16)).astype(np.float32)
    y = perfdojo.interpret(softmax, {"x": x})["y"]
    assert np.allclose(y, softmax_of(x.astype(np.float64)), atol=1e-6)
    reference = perfdojo.interpret(softmax, {"x": x}, reference=True)["y"]
    assert reference.dtype == np.float64
    assert np.allclose(reference, softmax_of(x.astype(np.float64)), atol=1e-12)


def test_moved_kernel_runs_like_the_original(softmax):
    game = perfdojo.Game(softmax)
    rng = np.random.default_rng(1)
    for _ in range(8):
        moves = game.legal_moves()
        game.apply(moves[rng.integers(len(moves))])
    inputs = perfdojo.generate_inputs(softmax)
    want = perfdojo.interpret(softmax, inputs)["y"]
    got = perfdojo.interpret(game.kernel, inputs)["y"]
    assert np.allclose(got, want, rtol=1e-5, atol=1e-6)
    assert perfdojo.run(game.kernel, baseline=softmax, repetitions=1).passed


def test_compiled_kernel_works_in_place(softmax):
    compiled = perfdojo.compile(softmax, threads=1)
    assert compiled.compile_ms > 0 and compiled.kernel.name == "softmax"
    x = np.random.default_rng(2).random((9, 16), dtype=np.float32)
    y = np.zeros((9, 16), np.float32)
    out = compiled(x=x, y=y)
    assert out["y"] is y
    assert np.allclose(y, softmax_of(x.astype(np.float64)), atol=1e-6)
    # `out` arguments left out are allocated; `in` arrays are converted.
    fresh = compiled(x=x.astype(np.float64))["y"]
    assert np.allclose(fresh, y, atol=1e-7)
    with pytest.raises(TypeError, match="C-contiguous float32"):
        compiled(x=x, y=np.zeros((9, 16)))
    with pytest.raises(TypeError, match="C-contiguous float32"):
        compiled(x=x, y=np.zeros((16, 9), np.float32).T)
    with pytest.raises(ValueError, match="no array for argument 'x'"):
        compiled(y=y)


def test_dtypes_round_trip():
    kernel = perfdojo.Kernel.parse(
        "a i8 [4] heap in\nb f16 [4] heap in\nc bf16 [4] heap in\n"
        "d bool [4] heap in\ne i8 [4] heap out\nf f16 [4] heap out\n"
        "g bf16 [4] heap out\nh bool [4] heap out\n"
        "4 e[{0}] = a[{0}]\n4 f[{0}] = b[{0}] * 2\n4 g[{0}] = c[{0}]\n"
        "4 h[{0}] = d[{0}]\n", name="dtypes")
    inputs = {"a": np.array([-3, 0, 5, 7], np.int8),
              "b": np.array([0.5, 1, 1.5, -2], np.float16),
              # bf16 comes as its 16-bit patterns: 1.0, 2.0, -1.0, 0.5.
              "c": np.array([0x3F80, 0x4000, 0xBF80, 0x3F00], np.uint16),
              "d": np.array([True, False, True, True])}
    out = perfdojo.interpret(kernel, inputs)
    assert out["e"].dtype == np.int8 and list(out["e"]) == [-3, 0, 5, 7]
    assert out["f"].dtype == np.float16 and list(out["f"]) == [1, 2, 3, -4]
    assert out["g"].dtype == np.uint16 and list(out["g"]) == \
        [0x3F80, 0x4000, 0xBF80, 0x3F00]
    assert out["h"].dtype == np.bool_ and list(out["h"]) == \
        [True, False, True, True]
    assert perfdojo.run(kernel, inputs, repetitions=1).passed


def test_run_error_is_a_run_error():
    huge = perfdojo.Kernel.parse("x f32 [100000000000] heap in\n"
                                 "y f32 [100000000000] heap out\n"
                                 "100000000000 y[{0}] = x[{0}]\n")
    with pytest.raises(perfdojo.RunError, match="2\\^36"):
        perfdojo.run(huge)


def test_emit_object_and_header(softmax, tmp_path):
    obj, header = tmp_path / "softmax.o", tmp_path / "softmax.h"
    perfdojo.emit(softmax, str(obj))
    perfdojo.emit([softmax], str(header), kind="c-header")
    assert obj.read_bytes()[:4] == b"\x7fELF"
    text = header.read_text()
    assert "void softmax(" in text and "const float *x," in text
    symbols = subprocess.run(["/usr/lib/llvm-22/bin/llvm-nm", str(obj)],
                             capture_output=True, text=True, check=True)
    assert " T softmax" in symbols.stdout
    with pytest.raises(ValueError, match="unknown kind"):
        perfdojo.emit(softmax, str(obj), kind="exe")
    with pytest.raises(perfdojo.RunError, match="two kernels"):
        perfdojo.emit([softmax, softmax], str(obj))
