//===- ElementConversion.h - the IR's conversion of one element -*- C++ -*-===//
//
// What a conversion statement (a plain copy `y = x` between element types,
// ElementTypes.h isConversionStatement) makes of one value, for engines
// that run on the host (the interpreter). The lowering emits the same
// rules (emitElementConversion); docs/ir.md, "Conversions", states them:
//
//   to a float      round to nearest even (integers and bool by value)
//   float to int    truncate toward zero; NaN is 0; beyond the type's
//                   range, its minimum or maximum (saturation)
//   int to int      modulo 2^w (sign extension when widening)
//   to bool         1 where the value is not 0 (NaN is not 0)
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_RUNTIME_ELEMENTCONVERSION_H
#define PERFDOJO_RUNTIME_ELEMENTCONVERSION_H

#include "perfdojo/Runtime/HostBuffer.h"

#include <cstdint>

namespace perfdojo {

/// One element's value, exactly: integers and bool in `integer`, floats in
/// `real`.
struct ElementValue {
  bool isInteger = false;
  int64_t integer = 0;
  double real = 0;
};

/// The value stored at `element`, of type `type`.
ElementValue loadElement(ScalarType type, const void *element);

/// Stores `value`, a value of `type` (as convertElement returns), at
/// `element`.
void storeElement(ScalarType type, void *element, ElementValue value);

/// The IR's conversion of `value` to `to`: a value of `to`.
ElementValue convertElement(ElementValue value, ScalarType to);

} // namespace perfdojo

#endif // PERFDOJO_RUNTIME_ELEMENTCONVERSION_H
