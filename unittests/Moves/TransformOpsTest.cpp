//===- TransformOpsTest.cpp - every move has a transform op ---------------===//

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"
#include "perfdojo/Dialect/Dojo/TransformOps/DojoTransformOps.h"
#include "perfdojo/Moves/Move.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace perfdojo;

TEST(TransformOps, EveryMoveHasAnOp) {
  DialectRegistry registry;
  registry.insert<transform::TransformDialect, dojo::DojoDialect>();
  dojo::registerTransformDialectExtension(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  for (const Move *move : getAllMoves()) {
    std::string name = "transform.dojo." + move->getName().str();
    EXPECT_TRUE(RegisteredOperationName::lookup(name, &context).has_value())
        << "no transform op for move '" << move->getName().str() << "'";
  }
}
