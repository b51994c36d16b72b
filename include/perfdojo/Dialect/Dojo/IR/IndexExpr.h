//===- IndexExpr.h - affine index expressions over scope depths -*- C++ -*-===//
//
// Every index in a scope tree is an affine form over the iteration variables
// of the enclosing scopes: `{k}` is the variable of the scope at depth k and
// is represented as the affine dimension `dk`. These helpers convert between
// that form, MLIR affine expressions, and the canonical text `{0}*512+{1}`.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_DIALECT_DOJO_IR_INDEXEXPR_H
#define PERFDOJO_DIALECT_DOJO_IR_INDEXEXPR_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>

namespace perfdojo {

/// An affine form `constant + sum_k coeffs[k] * {k}`.
struct LinearForm {
  llvm::SmallVector<int64_t, 4> coeffs;
  int64_t constant = 0;

  /// Coefficient of `{k}` (zero past the stored range).
  int64_t coeff(unsigned k) const { return k < coeffs.size() ? coeffs[k] : 0; }
  /// Smallest and largest value over the box `0 <= {k} < sizes[k]`. Exact
  /// for affine forms: each term is monotone in its own variable. Nullopt if
  /// the computation overflows 64-bit integers.
  std::optional<std::pair<int64_t, int64_t>>
  range(llvm::ArrayRef<int64_t> sizes) const;
};

/// Decomposes `expr` into a linear form. Fails (returns nullopt) on anything
/// that is not a sum of constants and constant multiples of dimensions.
std::optional<LinearForm> getLinearForm(mlir::AffineExpr expr);

/// The linear forms of every result of `map`, a verified index list.
llvm::SmallVector<LinearForm, 4> getIndexForms(mlir::AffineMap map);

/// Whether two index lists are the same affine forms (maps built by
/// different rewrites may differ in their dimension count).
bool isSameIndexList(mlir::AffineMap a, mlir::AffineMap b);
bool isSameIndexList(llvm::ArrayRef<LinearForm> a,
                     llvm::ArrayRef<LinearForm> b);

/// Builds the affine expression of `form` in `ctx`.
mlir::AffineExpr buildAffineExpr(const LinearForm &form,
                                 mlir::MLIRContext *ctx);

/// Returns a map with the given results and the smallest dimension count
/// that covers every dimension they use. This is the canonical map form used
/// for every index in the dialect, so equal index lists compare equal.
mlir::AffineMap makeIndexMap(llvm::ArrayRef<mlir::AffineExpr> results,
                             mlir::MLIRContext *ctx);

/// makeIndexMap of the expressions of `forms`.
mlir::AffineMap makeIndexMap(llvm::ArrayRef<LinearForm> forms,
                             mlir::MLIRContext *ctx);

/// Largest depth referenced by `expr` plus one (0 for constants).
unsigned getDepthsUsed(mlir::AffineExpr expr);

/// The depths below `depth` whose variables some result of `map` uses
/// (for a leaf's output index: the scopes that select distinct elements;
/// every other enclosing scope reduces into the same element).
llvm::SmallBitVector getUsedDepths(mlir::AffineMap map, unsigned depth);

/// Prints `expr` in canonical text form: terms by increasing depth, the
/// constant last, coefficients after the variable (`{0}*512+{1}-3`).
void printIndexExpr(llvm::raw_ostream &os, mlir::AffineExpr expr);

/// Prints `[e0, e1, ...]` for the results of `map`.
void printIndexList(llvm::raw_ostream &os, mlir::AffineMap map);

} // namespace perfdojo

#endif // PERFDOJO_DIALECT_DOJO_IR_INDEXEXPR_H
