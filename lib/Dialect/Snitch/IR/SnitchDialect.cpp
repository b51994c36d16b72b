//===- SnitchDialect.cpp - snitch dialect registration --------------------===//

#include "perfdojo/Dialect/Snitch/IR/Snitch.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace perfdojo::snitch;

#include "perfdojo/Dialect/Snitch/IR/SnitchOpsDialect.cpp.inc"

#include "perfdojo/Dialect/Snitch/IR/SnitchEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "perfdojo/Dialect/Snitch/IR/SnitchAttrs.cpp.inc"

void SnitchDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "perfdojo/Dialect/Snitch/IR/SnitchOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "perfdojo/Dialect/Snitch/IR/SnitchAttrs.cpp.inc"
      >();
}

int64_t StreamAttr::getElementCount() const {
  int64_t count = getRepeat();
  for (int64_t bound : getBounds())
    count *= bound;
  return count;
}
