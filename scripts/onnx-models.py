#!/usr/bin/python3
"""Writes the example ONNX models of docs/onnx.md, at model-like sizes.

Usage: onnx-models.py OUTDIR [--small]

  gemm_relu.onnx   Y = Relu(X W + B): X [256, 1024], W [1024, 1024] (W and B
                   initializers, as a framework exports them)
  layernorm.onnx   LayerNormalization over the last axis of [2048, 1024]
  conv.onnx        Conv 3x3, 64 -> 64 channels, pads 1, on [1, 64, 56, 56],
                   then Relu

--small writes the same graphs at sizes a test runs in a second.
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def save(model, path):
    onnx.checker.check_model(model)
    onnx.save(model, path)


def gemm_relu(m, k, n):
    rng = np.random.default_rng(0)
    w = numpy_helper.from_array((rng.standard_normal((k, n)) / np.sqrt(k)).astype(np.float32), "W")
    b = numpy_helper.from_array(rng.standard_normal(n).astype(np.float32), "B")
    graph = helper.make_graph(
        [helper.make_node("Gemm", ["X", "W", "B"], ["H"]),
         helper.make_node("Relu", ["H"], ["Y"])],
        "gemm_relu",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, [m, k])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [m, n])],
        initializer=[w, b])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def layernorm(rows, cols):
    rng = np.random.default_rng(1)
    scale = numpy_helper.from_array(rng.standard_normal(cols).astype(np.float32), "S")
    bias = numpy_helper.from_array(rng.standard_normal(cols).astype(np.float32), "B")
    graph = helper.make_graph(
        [helper.make_node("LayerNormalization", ["X", "S", "B"], ["Y"], axis=-1, epsilon=1e-5)],
        "layernorm",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, [rows, cols])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [rows, cols])],
        initializer=[scale, bias])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def conv(channels, size):
    rng = np.random.default_rng(2)
    w = numpy_helper.from_array(
        (rng.standard_normal((channels, channels, 3, 3)) / np.sqrt(9 * channels)).astype(np.float32), "W")
    b = numpy_helper.from_array(rng.standard_normal(channels).astype(np.float32), "B")
    graph = helper.make_graph(
        [helper.make_node("Conv", ["X", "W", "B"], ["H"], pads=[1, 1, 1, 1]),
         helper.make_node("Relu", ["H"], ["Y"])],
        "conv",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, channels, size, size])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [1, channels, size, size])],
        initializer=[w, b])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    small = "--small" in sys.argv[2:]
    save(gemm_relu(*((8, 16, 12) if small else (256, 1024, 1024))), f"{out}/gemm_relu.onnx")
    save(layernorm(*((6, 32) if small else (2048, 1024))), f"{out}/layernorm.onnx")
    save(conv(*((4, 6) if small else (64, 56))), f"{out}/conv.onnx")


if __name__ == "__main__":
    main()
