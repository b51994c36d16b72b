//===- ValueBounds.cpp - value ranges and error bounds of statements ------===//

#include "ValueBounds.h"
#include "perfdojo/Dialect/Dojo/IR/ElementTypes.h"
#include "perfdojo/Support/InputValues.h"

#include <cmath>

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::kernelgen;
using dojo::OpKind;

Range kernelgen::mulRange(Range a, Range b) {
  double p[] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  return {*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
}

std::optional<Range> kernelgen::applyRange(OpKind kind, ArrayRef<Range> args,
                                bool integer) {
  auto monotone = [&](double (*f)(double)) {
    return Range{f(args[0].lo), f(args[0].hi)};
  };
  switch (kind) {
  case OpKind::copy:
    return args[0];
  case OpKind::add:
    return Range{args[0].lo + args[1].lo, args[0].hi + args[1].hi};
  case OpKind::sub:
    return Range{args[0].lo - args[1].hi, args[0].hi - args[1].lo};
  case OpKind::mul:
    return mulRange(args[0], args[1]);
  case OpKind::div: {
    Range d = args[1];
    if (!(d.lo >= kPositiveFloor || d.hi <= -kPositiveFloor))
      return std::nullopt;
    Range q = mulRange(args[0], Range{1 / d.hi, 1 / d.lo});
    if (integer)
      q = {std::trunc(q.lo), std::trunc(q.hi)};
    return q;
  }
  case OpKind::max:
    return Range{std::max(args[0].lo, args[1].lo),
                 std::max(args[0].hi, args[1].hi)};
  case OpKind::min:
    return Range{std::min(args[0].lo, args[1].lo),
                 std::min(args[0].hi, args[1].hi)};
  case OpKind::neg:
    return Range{-args[0].hi, -args[0].lo};
  case OpKind::abs: {
    Range a = args[0];
    if (a.lo >= 0)
      return a;
    if (a.hi <= 0)
      return Range{-a.hi, -a.lo};
    return Range{0, std::max(-a.lo, a.hi)};
  }
  case OpKind::relu:
    return Range{std::max(0.0, args[0].lo), std::max(0.0, args[0].hi)};
  case OpKind::exp:
    if (args[0].hi > 30)
      return std::nullopt;
    return monotone([](double x) { return std::exp(x); });
  case OpKind::log:
    if (!isPositive(args[0]))
      return std::nullopt;
    return monotone([](double x) { return std::log(x); });
  case OpKind::sqrt:
    if (!isPositive(args[0]))
      return std::nullopt;
    return monotone([](double x) { return std::sqrt(x); });
  case OpKind::rsqrt:
    if (!isPositive(args[0]))
      return std::nullopt;
    return Range{1 / std::sqrt(args[0].hi), 1 / std::sqrt(args[0].lo)};
  case OpKind::tanh:
    return monotone([](double x) { return std::tanh(x); });
  case OpKind::sigmoid:
    return monotone([](double x) { return 1 / (1 + std::exp(-x)); });
  case OpKind::sin:
  case OpKind::cos:
    return Range{-1, 1};
  case OpKind::tan:
    // One branch, away from the poles at +-pi/2.
    if (args[0].lo < -1.4 || args[0].hi > 1.4)
      return std::nullopt;
    return monotone([](double x) { return std::tan(x); });
  case OpKind::asin:
  case OpKind::acos:
    if (args[0].lo < -1 || args[0].hi > 1)
      return std::nullopt;
    return kind == OpKind::asin
               ? monotone([](double x) { return std::asin(x); })
               : Range{std::acos(args[0].hi), std::acos(args[0].lo)};
  case OpKind::atan:
    return monotone([](double x) { return std::atan(x); });
  case OpKind::sinh:
  case OpKind::cosh: {
    double m = std::max(std::abs(args[0].lo), std::abs(args[0].hi));
    if (m > 30)
      return std::nullopt;
    if (kind == OpKind::sinh)
      return monotone([](double x) { return std::sinh(x); });
    double inner = args[0].lo <= 0 && args[0].hi >= 0
                       ? 0
                       : std::min(std::abs(args[0].lo), std::abs(args[0].hi));
    return Range{std::cosh(inner), std::cosh(m)};
  }
  case OpKind::asinh:
    return monotone([](double x) { return std::asinh(x); });
  case OpKind::acosh:
    if (args[0].lo < 1)
      return std::nullopt;
    return monotone([](double x) { return std::acosh(x); });
  case OpKind::atanh:
    if (args[0].lo < -0.99 || args[0].hi > 0.99)
      return std::nullopt;
    return monotone([](double x) { return std::atanh(x); });
  case OpKind::erf:
    return monotone([](double x) { return std::erf(x); });
  case OpKind::floor:
    return monotone([](double x) { return std::floor(x); });
  case OpKind::ceil:
    return monotone([](double x) { return std::ceil(x); });
  case OpKind::round:
    return monotone([](double x) { return std::nearbyint(x); });
  case OpKind::sign:
    return Range{args[0].lo < 0 ? -1.0 : args[0].lo > 0 ? 1.0 : 0.0,
                 args[0].hi > 0 ? 1.0 : args[0].hi < 0 ? -1.0 : 0.0};
  case OpKind::eq:
  case OpKind::ne:
  case OpKind::lt:
  case OpKind::le:
  case OpKind::gt:
  case OpKind::ge:
    return Range{0, 1};
  case OpKind::select:
    return Range{std::min(args[1].lo, args[2].lo),
                 std::max(args[1].hi, args[2].hi)};
  }
  return std::nullopt;
}

std::optional<double> kernelgen::propagateError(OpKind kind, ArrayRef<Range> args,
                                     ArrayRef<double> errors) {
  auto sameSign = [](Range a, Range b) {
    return (a.lo >= 0 && b.lo >= 0) || (a.hi <= 0 && b.hi <= 0);
  };
  auto maxAbs = [](Range a) { return std::max(std::abs(a.lo), std::abs(a.hi)); };
  constexpr double kApproximation = 3;
  switch (kind) {
  case OpKind::copy:
  case OpKind::neg:
  case OpKind::abs:
  case OpKind::relu:
    return errors[0];
  case OpKind::add:
  case OpKind::sub: {
    Range b = kind == OpKind::sub ? Range{-args[1].hi, -args[1].lo} : args[1];
    if (sameSign(args[0], b))
      return std::max(errors[0], errors[1]) + 1;
    if (errors[0] == 0 && errors[1] == 0)
      return 1;
    return std::nullopt;
  }
  case OpKind::mul:
  case OpKind::div:
    return errors[0] + errors[1] + 1;
  case OpKind::max:
  case OpKind::min:
    return std::max(errors[0], errors[1]);
  case OpKind::exp:
  case OpKind::sigmoid:
    // d log f / d log x = x f'(x)/f(x), at most |x| for both.
    return errors[0] * maxAbs(args[0]) + kApproximation;
  case OpKind::log: {
    if (errors[0] == 0)
      return kApproximation;
    // The absolute error e of log(x) relative to |log x|.
    double m = std::min(std::abs(std::log(args[0].lo)),
                        std::abs(std::log(args[0].hi)));
    if ((args[0].lo <= 1 && args[0].hi >= 1) || m < 0.5)
      return std::nullopt;
    return errors[0] / m + kApproximation;
  }
  case OpKind::sqrt:
    return errors[0] / 2 + 1;
  case OpKind::rsqrt:
    return errors[0] / 2 + kApproximation;
  case OpKind::tanh:
    return errors[0] + kApproximation;
  case OpKind::sin:
  case OpKind::cos:
  case OpKind::tan:
  case OpKind::asin:
  case OpKind::acos:
  case OpKind::atan:
  case OpKind::sinh:
  case OpKind::cosh:
  case OpKind::asinh:
  case OpKind::acosh:
  case OpKind::atanh:
  case OpKind::erf:
    // Near their zeros and poles these amplify relative errors without
    // bound: only exact operands get a bound.
    if (errors[0] != 0)
      return std::nullopt;
    return kApproximation;
  case OpKind::floor:
  case OpKind::ceil:
  case OpKind::round:
  case OpKind::sign:
    // Steps: exact on exact operands, anything on rounded ones.
    if (errors[0] != 0)
      return std::nullopt;
    return 0.0;
  case OpKind::eq:
  case OpKind::ne:
  case OpKind::lt:
  case OpKind::le:
  case OpKind::gt:
  case OpKind::ge:
    if (errors[0] != 0 || errors[1] != 0)
      return std::nullopt;
    return 0.0;
  case OpKind::select:
    if (errors[0] != 0)
      return std::nullopt;
    return std::max(errors[1], errors[2]);
  }
  return std::nullopt;
}

Range kernelgen::getInputRange(Type type, bool positive) {
  if (isBoolType(type))
    return Range{0, 1};
  // The input generator's own bounds (Support/InputValues.h).
  InputBounds b = isIntegerElementType(type) ? getIntegerInputBounds(positive)
                                             : getFloatInputBounds(positive);
  return Range{b.lo, b.hi};
}

double kernelgen::getMagnitudeLimit(Type type) {
  if (isBoolType(type))
    return 1;
  if (type.isF16())
    return 1e3;
  if (type.isBF16())
    return 1e4;
  if (auto intType = dyn_cast<IntegerType>(type))
    return intType.getWidth() <= 8 ? 100 : intType.getWidth() <= 16 ? 1e4
                                                                     : 1e6;
  return 1e6;
}
