"""perfdojo.Kernel: parsing, errors, printing, buffers."""

import pytest

import perfdojo
from conftest import FIG6


def test_parse_prints_canonical_text(fig6):
    assert str(fig6) == FIG6
    assert fig6.text == FIG6
    assert fig6.name == "fig6"
    assert fig6.path == ""
    assert "dojo.kernel @fig6" in fig6.mlir


def test_parse_names_text_of_no_file_kernel():
    assert perfdojo.Kernel.parse(FIG6).name == "kernel"
    assert perfdojo.Kernel.parse(FIG6, filename="lib/gelu.dojo").name == "gelu"


def test_from_file_is_named_after_the_file(softmax, kernels):
    assert softmax.name == "softmax"
    assert softmax.path.endswith("softmax.dojo")
    assert softmax.text == (kernels / "small" / "softmax.dojo").read_text()


def test_mlir_round_trip(fig6, tmp_path):
    again = perfdojo.Kernel.parse(fig6.mlir, mlir=True)
    assert again.text == fig6.text and again.name == "fig6"
    path = tmp_path / "k.mlir"
    path.write_text(fig6.mlir)
    assert perfdojo.Kernel.from_file(str(path)).text == fig6.text


def test_parse_error_carries_file_line_column():
    text = "x f32 [4] heap in\ny f32 [4] heap out\n4 y[{0}] = z[{0}]\n"
    with pytest.raises(perfdojo.ParseError) as info:
        perfdojo.Kernel.parse(text, filename="bad.dojo")
    error = info.value
    assert isinstance(error, perfdojo.DojoError)
    assert isinstance(error, ValueError)
    assert (error.file, error.line, error.column) == ("bad.dojo", 3, 3)
    assert "'z' is not a declared array" in error.message
    # The message shows the line with a caret under the column.
    assert str(error).startswith("bad.dojo:3:3: error: ")
    assert "\n4 y[{0}] = z[{0}]\n  ^" in str(error)


def test_parse_error_notes():
    text = "x f32 [9, 16] heap in\ny f32 [9, 16] heap out\n" \
           "9 16 y[{0}, {1}] = x[{0}, {1}+1]\n"
    with pytest.raises(perfdojo.ParseError) as info:
        perfdojo.Kernel.parse(text, filename="shift.dojo")
    assert info.value.line == 3
    assert info.value.notes == [("shift.dojo", 1, 1, "declared here")]


def test_malformed_mlir_is_located():
    with pytest.raises(perfdojo.ParseError) as info:
        perfdojo.Kernel.parse("module {\n  dojo.kernel @k {\n", mlir=True,
                              filename="k.mlir")
    assert info.value.file == "k.mlir" and info.value.line >= 2


def test_excessive_nesting_is_refused_before_parsing():
    text = "module {" + "{" * 100000 + "}" * 100000 + "}"
    with pytest.raises(perfdojo.ParseError) as info:
        perfdojo.Kernel.parse(text, mlir=True)
    assert "nest" in info.value.message


def test_missing_file_is_an_os_error():
    with pytest.raises(FileNotFoundError):
        perfdojo.Kernel.from_file("no/such/kernel.dojo")


def test_buffers_and_arguments(softmax):
    names = [b["name"] for b in softmax.buffers]
    assert names == ["x", "m", "s", "y"]
    x = softmax.buffers[0]
    assert x == {"name": "x", "dtype": "f32", "shape": (9, 16),
                 "padding": (0, 0), "location": "heap", "role": "in",
                 "arrays": ["x"]}
    assert [(b["name"], b["role"]) for b in softmax.arguments] == \
        [("x", "in"), ("y", "out")]


def test_verify_and_work(softmax):
    softmax.verify()
    work = softmax.work
    # Two initializations of 9 rows, five row passes of 9 x 16.
    assert work["leaf_evaluations"] == 2 * 9 + 5 * 9 * 16
    assert work["compulsory_bytes"] == 2 * 9 * 16 * 4


def test_features_are_deterministic_and_named(softmax, fig6):
    f = softmax.features()
    assert f.dtype.name == "float32"
    assert len(f) == len(perfdojo.feature_names())
    assert (f == softmax.features()).all()
    assert (f != fig6.features()).any()
    assert perfdojo.FEATURE_VERSION >= 1


def test_copy_is_independent(softmax):
    copy = softmax.copy()
    assert copy.text == softmax.text and copy is not softmax


def test_a_long_line_is_excerpted_around_the_column():
    text = ("x f32 [1] heap in\ny f32 [1] heap out\n" +
            " ".join(["1"] * 300) + " y[{0}] = x[{0}]\n")
    with pytest.raises(perfdojo.ParseError) as info:
        perfdojo.Kernel.parse(text)
    assert "exceeds the limit of 256" in info.value.message
    source, caret = str(info.value).split("\n")[1:3]
    assert source.startswith("...") and len(source) <= 166
    assert caret.index("^") == 83 and source[83] == "1"
