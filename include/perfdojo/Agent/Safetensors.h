//===- Safetensors.h - tensors from a .safetensors file ---------*- C++ -*-===//
//
// The weight format of the packaged language model: an 8-byte little-endian
// header length, a JSON header naming each tensor's dtype, shape and byte
// range, then the bytes. Only what the sentence encoder needs is read:
// F32 tensors (others are skipped).
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_AGENT_SAFETENSORS_H
#define PERFDOJO_AGENT_SAFETENSORS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <torch/torch.h>

#include <map>
#include <string>

namespace perfdojo::agent {

/// Every F32 tensor of the file at `path`, by name. Fails with the reason
/// on a malformed header, a range outside the file or a size that does not
/// match the shape.
llvm::Expected<std::map<std::string, torch::Tensor>>
readSafetensors(llvm::StringRef path);

} // namespace perfdojo::agent

#endif // PERFDOJO_AGENT_SAFETENSORS_H
