//===- InputRecipe.cpp - regenerating a bundle's inputs ----------------===//

#include "perfdojo/GpuRuntime/InputRecipe.h"
#include "perfdojo/Support/Float16.h"
#include "perfdojo/Support/InputValues.h"

#include <cstring>
#include <sstream>

using namespace perfdojo;
using namespace perfdojo::gpu;

namespace {
const char *kHeader = "perfdojo-input-recipe";
constexpr int kVersion = 1;

bool parseUnsigned(const std::string &text, uint64_t &value) {
  if (text.empty() || text.size() > 20 ||
      text.find_first_not_of("0123456789") != std::string::npos)
    return false;
  value = 0;
  for (char c : text) {
    uint64_t digit = uint64_t(c - '0');
    if (value > (~uint64_t(0) - digit) / 10)
      return false;
    value = value * 10 + digit;
  }
  return true;
}

/// Stores an element of `dtype` from the draw `u`, as HostBuffer::set and
/// setInt store fillInputs' values, and returns its size in bytes (0 for
/// an unknown type).
size_t storeElement(const std::string &dtype, double u, bool positive,
                    char *element) {
  size_t size = 0;
  auto put = [&](auto value) {
    std::memcpy(element, &value, sizeof(value));
    size = sizeof(value);
  };
  if (dtype == "f32")
    put(static_cast<float>(getFloatInput(u, positive)));
  else if (dtype == "f64")
    put(getFloatInput(u, positive));
  else if (dtype == "f16")
    put(doubleToHalf(getFloatInput(u, positive)));
  else if (dtype == "bf16")
    put(doubleToBFloat16(getFloatInput(u, positive)));
  else if (dtype == "bool")
    put(static_cast<uint8_t>(getBoolInput(u)));
  else if (dtype == "i8")
    put(static_cast<int8_t>(getIntegerInput(u, positive)));
  else if (dtype == "i16")
    put(static_cast<int16_t>(getIntegerInput(u, positive)));
  else if (dtype == "i32")
    put(static_cast<int32_t>(getIntegerInput(u, positive)));
  else if (dtype == "i64")
    put(static_cast<int64_t>(getIntegerInput(u, positive)));
  return size;
}
} // namespace

std::string InputRecipe::print() const {
  std::string text = std::string(kHeader) + " " + std::to_string(kVersion) +
                     "\nseed " + std::to_string(seed) + "\n";
  for (const std::string &name : positive)
    text += "positive " + name + "\n";
  return text;
}

bool InputRecipe::parse(const std::string &text, InputRecipe &recipe,
                        std::string &error) {
  recipe = InputRecipe();
  std::istringstream lines(text);
  std::string line;
  int number = 0;
  bool sawHeader = false, sawSeed = false;
  while (std::getline(lines, line)) {
    ++number;
    std::istringstream words(line);
    std::vector<std::string> tokens;
    for (std::string word; words >> word;)
      tokens.push_back(word);
    if (tokens.empty() || tokens[0][0] == '#')
      continue;
    auto fail = [&](const std::string &why) {
      error = "line " + std::to_string(number) + ": " + why;
      return false;
    };
    if (!sawHeader) {
      if (tokens[0] != kHeader)
        return fail(std::string("expected '") + kHeader + "', found '" +
                    tokens[0] + "'");
      if (tokens.size() != 2 || tokens[1] != std::to_string(kVersion))
        return fail("this launcher reads version " + std::to_string(kVersion) +
                    " of the input recipe");
      sawHeader = true;
      continue;
    }
    if (tokens.size() != 2)
      return fail("expected 'seed N' or 'positive NAME'");
    if (tokens[0] == "seed") {
      if (sawSeed)
        return fail("a second seed");
      if (!parseUnsigned(tokens[1], recipe.seed))
        return fail("the seed '" + tokens[1] +
                    "' is no unsigned 64-bit decimal number");
      sawSeed = true;
    } else if (tokens[0] == "positive") {
      if (!recipe.positive.insert(tokens[1]).second)
        return fail("'" + tokens[1] + "' is positive twice");
    } else {
      return fail("unknown statement '" + tokens[0] + "'");
    }
  }
  if (!sawHeader) {
    error = "an empty input recipe";
    return false;
  }
  if (!sawSeed) {
    error = "the input recipe has no seed";
    return false;
  }
  return true;
}

bool gpu::generateInputs(const LaunchPlan &plan, const InputRecipe &recipe,
                         std::vector<std::vector<char>> &arguments,
                         std::string &error) {
  arguments.clear();
  std::set<std::string> inputs;
  for (const PlanBuffer &buffer : plan.buffers)
    if (buffer.role == PlanBuffer::Role::In ||
        buffer.role == PlanBuffer::Role::InOut)
      inputs.insert(buffer.name);
  for (const std::string &name : recipe.positive)
    if (!inputs.count(name)) {
      error = "the input recipe makes '" + name +
              "' positive, which is no input buffer of the plan";
      return false;
    }
  char probe[16];
  for (const PlanBuffer &buffer : plan.buffers) {
    if (!buffer.isArgument())
      continue;
    arguments.emplace_back();
    if (buffer.role == PlanBuffer::Role::Out)
      continue;
    bool positive = recipe.positive.count(buffer.name) != 0;
    size_t size = storeElement(buffer.dtype, 0.0, positive, probe);
    if (size == 0 || int64_t(size) != buffer.elementBytes) {
      error = "buffer " + buffer.name + ": the input generator has no '" +
              buffer.dtype + "' elements of " +
              std::to_string(buffer.elementBytes) + " bytes";
      return false;
    }
    std::vector<char> &bytes = arguments.back();
    bytes.resize(size_t(buffer.getBytes()));
    SplitMix64 stream = getInputStream(recipe.seed, buffer.name);
    for (int64_t i = 0; i < buffer.elements; ++i)
      storeElement(buffer.dtype, stream.uniform(), positive,
                   bytes.data() + i * buffer.elementBytes);
  }
  return true;
}
