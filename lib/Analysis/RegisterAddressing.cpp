//===- RegisterAddressing.cpp - which buffers registers can hold ----------===//
//
// A register has no address computed at run time (design B8): every index
// of a `reg` buffer must be known when the code is generated. So a
// materialized dimension may be indexed by constants, by the variables of
// `:u` scopes (replicated code) and of size-1 scopes (always 0), and, in the
// innermost materialized dimension with coefficient 1, by the lane of a `:v`
// scope (the lanes of one vector register).
//
//===----------------------------------------------------------------------===//

#include "perfdojo/Analysis/KernelInvariants.h"
#include "perfdojo/Dialect/Dojo/IR/KernelTree.h"
#include "perfdojo/Dialect/Dojo/IR/TextSyntax.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

std::optional<InvariantViolation>
perfdojo::findRegisterAddressingViolation(KernelOp kernel, BufferOp buffer) {
  ArrayRef<bool> reused = buffer.getReused();
  int innermost = -1;
  for (unsigned j = 0; j < reused.size(); ++j)
    if (!reused[j])
      innermost = j;
  for (const ArrayAccess &access : collectArrayAccesses(kernel, buffer)) {
    SmallVector<ScopeOp, 8> path = getEnclosingScopes(access.leaf);
    for (auto [j, form] : llvm::enumerate(access.indices)) {
      if (reused[j])
        continue;
      for (auto [k, coeff] : llvm::enumerate(form.coeffs)) {
        if (coeff == 0 || k >= path.size())
          continue;
        ScopeOp scope = path[k];
        Mode mode = scope.getMode();
        if (scope.getSize() == 1 || mode == Mode::unroll)
          continue;
        if (mode == Mode::vector && int(j) == innermost && coeff == 1)
          continue;
        std::string why =
            mode == Mode::vector
                ? "the lane variable of a :v scope outside the innermost "
                  "materialized dimension or with a coefficient other than 1"
                : "the variable of a " +
                      (mode == Mode::seq
                           ? std::string("plain")
                           : ":" + getModeSuffix(mode).str()) +
                      " scope";
        InvariantViolation v{
            InvariantRule::RegisterAddressing, buffer,
            "register buffer '" + buffer.getName().str() + "'",
            "'" + buffer.getName().str() +
                "' cannot be addressed in registers: dimension " +
                std::to_string(j) + " of `" + getStatementText(access.leaf) +
                "` uses {" + std::to_string(k) + "}, " + why +
                " (only constants, :u variables and the :v lane may index a "
                "register)"};
        v.notes.push_back({access.leaf->getLoc(), "the access"});
        return v;
      }
    }
  }
  return std::nullopt;
}
