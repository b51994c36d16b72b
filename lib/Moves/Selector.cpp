//===- Selector.cpp - naming locations in a scope tree -------------------===//

#include "perfdojo/Moves/Selector.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;

/// Leaves writing `array`, in execution order.
static SmallVector<LeafOp> writersOf(KernelOp kernel, StringRef array) {
  SmallVector<LeafOp> writers;
  kernel.walk<WalkOrder::PreOrder>([&](LeafOp leaf) {
    if (leaf.getArray() == array)
      writers.push_back(leaf);
  });
  return writers;
}

LeafOp perfdojo::getFirstLeaf(Operation *node) {
  if (auto leaf = dyn_cast<LeafOp>(node))
    return leaf;
  LeafOp first;
  node->walk<WalkOrder::PreOrder>([&](LeafOp leaf) {
    first = leaf;
    return WalkResult::interrupt();
  });
  return first;
}

std::string perfdojo::getPathSelector(LeafOp leaf, unsigned depth) {
  auto kernel = leaf->getParentOfType<KernelOp>();
  std::string selector = leaf.getArray().str();
  SmallVector<LeafOp> writers = writersOf(kernel, leaf.getArray());
  if (writers.size() > 1)
    selector +=
        "#" + std::to_string(llvm::find(writers, leaf) - writers.begin());
  return selector + "@" + std::to_string(depth);
}

std::string perfdojo::getNodeSelector(Operation *node) {
  return getPathSelector(getFirstLeaf(node), getNodeDepth(node));
}

llvm::Expected<Operation *> perfdojo::resolveNode(KernelOp kernel,
                                            StringRef selector) {
  auto [leafPart, depthPart] = selector.split('@');
  auto [array, occurrence] = leafPart.split('#');
  if (array.empty())
    return llvm::createStringError("expected a location like 'a@1' or 'a#0@1' "
                                   "but found '%s'",
                                   selector.str().c_str());
  SmallVector<LeafOp> writers = writersOf(kernel, array);
  if (writers.empty())
    return llvm::createStringError("no leaf writes '%s'", array.str().c_str());
  unsigned index = 0;
  if (leafPart.contains('#')) {
    if (occurrence.getAsInteger(10, index))
      return llvm::createStringError("expected a leaf number after '#' in '%s'",
                                     selector.str().c_str());
    if (index >= writers.size())
      return llvm::createStringError(
          "'%s#%u' does not exist: %zu leaf(s) write '%s'",
          array.str().c_str(), index, writers.size(), array.str().c_str());
  } else if (writers.size() > 1) {
    return llvm::createStringError("%zu leaves write '%s'; name one as "
                                   "'%s#0' to '%s#%zu'",
                                   writers.size(), array.str().c_str(),
                                   array.str().c_str(), array.str().c_str(),
                                   writers.size() - 1);
  }
  LeafOp leaf = writers[index];
  unsigned leafDepth = getNodeDepth(leaf);
  if (!selector.contains('@'))
    return leaf.getOperation();
  unsigned depth;
  if (depthPart.getAsInteger(10, depth))
    return llvm::createStringError("expected a depth after '@' in '%s'",
                                   selector.str().c_str());
  if (depth > leafDepth)
    return llvm::createStringError(
        "depth %u is below leaf '%s', which is at depth %u",
        depth, leafPart.str().c_str(), leafDepth);
  Operation *node = leaf;
  for (unsigned d = leafDepth; d > depth; --d)
    node = node->getParentOp();
  return node;
}

llvm::Expected<std::pair<BufferOp, unsigned>>
perfdojo::resolveBufferDim(KernelOp kernel, StringRef selector) {
  auto [name, dimText] = selector.rsplit('.');
  unsigned dim;
  if (name.empty() || dimText.getAsInteger(10, dim))
    return llvm::createStringError("expected a buffer dimension like 't.0' "
                                   "but found '%s'",
                                   selector.str().c_str());
  for (BufferOp buffer : kernel.getBuffers()) {
    if (buffer.getName() != name)
      continue;
    if (dim >= buffer.getRank())
      return llvm::createStringError("buffer '%s' has rank %lld; no "
                                     "dimension %u",
                                     name.str().c_str(),
                                     (long long)buffer.getRank(), dim);
    return std::make_pair(buffer, dim);
  }
  return llvm::createStringError("no buffer named '%s'", name.str().c_str());
}

std::string perfdojo::getBufferDimSelector(BufferOp buffer, unsigned dim) {
  return buffer.getName().str() + "." + std::to_string(dim);
}

StringRef perfdojo::stripScriptComment(StringRef line) {
  for (size_t i = 0; i < line.size(); ++i)
    if (line[i] == '#' &&
        (i == 0 || !(llvm::isAlnum(line[i - 1]) || line[i - 1] == '_')))
      return line.take_front(i);
  return line;
}
