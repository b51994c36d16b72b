//===- DojoEnums.td - enumerations of the dojo dialect -----*- tablegen -*-===//
#ifndef PERFDOJO_DIALECT_DOJO_IR_DOJOENUMS_TD
#define PERFDOJO_DIALECT_DOJO_IR_DOJOENUMS_TD

include "mlir/IR/EnumAttr.td"

// Where a buffer lives. Only heap and stack lower today; the others are the
// targets of `set_location` on GPUs, register files and Snitch.
def Dojo_BufferLocation : I32EnumAttr<"BufferLocation", "buffer storage location", [
    I32EnumAttrCase<"heap", 0>,
    I32EnumAttrCase<"stack", 1>,
    I32EnumAttrCase<"reg", 2>,
    I32EnumAttrCase<"gpu_shared", 3>,
    I32EnumAttrCase<"gpu_local", 4>,
    I32EnumAttrCase<"tcdm", 5>]> {
  let cppNamespace = "::perfdojo::dojo";
}

// How a buffer relates to the caller. `internal` buffers are scratch space.
def Dojo_Role : I32EnumAttr<"Role", "buffer role", [
    I32EnumAttrCase<"internal", 0>,
    I32EnumAttrCase<"in", 1>,
    I32EnumAttrCase<"out", 2>,
    I32EnumAttrCase<"inout", 3>]> {
  let cppNamespace = "::perfdojo::dojo";
}

// Execution mode of a scope. Modes are hints: they never change results.
def Dojo_Mode : I32EnumAttr<"Mode", "scope execution mode", [
    I32EnumAttrCase<"seq", 0>,
    I32EnumAttrCase<"unroll", 1>,
    I32EnumAttrCase<"parallel", 2>,
    I32EnumAttrCase<"vector", 3>,
    I32EnumAttrCase<"gpu_grid", 4>,
    I32EnumAttrCase<"gpu_block", 5>,
    I32EnumAttrCase<"gpu_warp", 6>,
    I32EnumAttrCase<"frep", 7>]> {
  let cppNamespace = "::perfdojo::dojo";
}

// The scalar operation a leaf performs.
def Dojo_OpKind : I32EnumAttr<"OpKind", "leaf operation", [
    I32EnumAttrCase<"copy", 0>,
    I32EnumAttrCase<"add", 1>,
    I32EnumAttrCase<"sub", 2>,
    I32EnumAttrCase<"mul", 3>,
    I32EnumAttrCase<"div", 4>,
    I32EnumAttrCase<"max", 5>,
    I32EnumAttrCase<"min", 6>,
    I32EnumAttrCase<"neg", 7>,
    I32EnumAttrCase<"abs", 8>,
    I32EnumAttrCase<"exp", 9>,
    I32EnumAttrCase<"log", 10>,
    I32EnumAttrCase<"sqrt", 11>,
    I32EnumAttrCase<"rsqrt", 12>,
    I32EnumAttrCase<"tanh", 13>,
    I32EnumAttrCase<"sigmoid", 14>,
    I32EnumAttrCase<"relu", 15>,
    // Elementary functions of floats (ElementTypes.h needsFloatType).
    I32EnumAttrCase<"sin", 16>,
    I32EnumAttrCase<"cos", 17>,
    I32EnumAttrCase<"tan", 18>,
    I32EnumAttrCase<"asin", 19>,
    I32EnumAttrCase<"acos", 20>,
    I32EnumAttrCase<"atan", 21>,
    I32EnumAttrCase<"sinh", 22>,
    I32EnumAttrCase<"cosh", 23>,
    I32EnumAttrCase<"asinh", 24>,
    I32EnumAttrCase<"acosh", 25>,
    I32EnumAttrCase<"atanh", 26>,
    I32EnumAttrCase<"erf", 27>,
    // Rounding to an integer value: `round` rounds halves to even.
    I32EnumAttrCase<"floor", 28>,
    I32EnumAttrCase<"ceil", 29>,
    I32EnumAttrCase<"round", 30>,
    // -1, 0 or 1 (floats keep -0 and NaN); floats and integers.
    I32EnumAttrCase<"sign", 31>,
    // Comparisons: two operands of one type, a bool result (ElementTypes.h
    // getOperandType); floats compare as IEEE (NaN is unequal to all).
    I32EnumAttrCase<"eq", 32>,
    I32EnumAttrCase<"ne", 33>,
    I32EnumAttrCase<"lt", 34>,
    I32EnumAttrCase<"le", 35>,
    I32EnumAttrCase<"gt", 36>,
    I32EnumAttrCase<"ge", 37>,
    // select(c, a, b): a where the bool c is 1, else b.
    I32EnumAttrCase<"select", 38>]> {
  let cppNamespace = "::perfdojo::dojo";
}

// How a leaf combines its value with the output element.
def Dojo_ReduceKind : I32EnumAttr<"ReduceKind", "leaf reduction", [
    I32EnumAttrCase<"none", 0>,
    I32EnumAttrCase<"add", 1>,
    I32EnumAttrCase<"mul", 2>,
    I32EnumAttrCase<"max", 3>,
    I32EnumAttrCase<"min", 4>]> {
  let cppNamespace = "::perfdojo::dojo";
}

#endif // PERFDOJO_DIALECT_DOJO_IR_DOJOENUMS_TD
