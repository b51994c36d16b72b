//===- Timer.cpp - time a compiled kernel ---------------------------------===//

#include "perfdojo/ExecutionEngine/Timer.h"

#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <chrono>

using namespace perfdojo;

int64_t perfdojo::getLastLevelCacheBytes() {
  int64_t largest = 0;
  for (int index = 0; index < 8; ++index) {
    std::string path = "/sys/devices/system/cpu/cpu0/cache/index" +
                       std::to_string(index) + "/size";
    auto file = llvm::MemoryBuffer::getFile(path);
    if (!file)
      continue;
    llvm::StringRef text = (*file)->getBuffer().trim();
    int64_t scale = 1;
    if (text.consume_back("K"))
      scale = 1024;
    else if (text.consume_back("M"))
      scale = 1024 * 1024;
    int64_t value;
    if (!text.getAsInteger(10, value))
      largest = std::max(largest, value * scale);
  }
  return largest ? largest : int64_t(32) << 20;
}

llvm::Expected<TimingResult>
perfdojo::timeKernel(JitKernel &kernel, llvm::ArrayRef<HostBuffer> inputs,
                     const TimingOptions &options) {
  int64_t bytesPerSet = 0;
  for (const HostBuffer &buffer : inputs)
    bytesPerSet += buffer.size() *
                   (buffer.getType() == ScalarType::f32 ? 4 : 8);
  int64_t target = options.rotationBytes > 0 ? options.rotationBytes
                                             : 2 * getLastLevelCacheBytes();
  unsigned copies = 1;
  if (bytesPerSet > 0 && bytesPerSet < target)
    copies = static_cast<unsigned>(
        std::min<int64_t>(options.maxCopies,
                          (target + bytesPerSet - 1) / bytesPerSet));

  std::vector<std::vector<HostBuffer>> sets(copies);
  std::vector<std::vector<void *>> pointers(copies);
  for (unsigned c = 0; c < copies; ++c) {
    sets[c].assign(inputs.begin(), inputs.end());
    for (HostBuffer &buffer : sets[c])
      pointers[c].push_back(buffer.data());
  }
  if (llvm::Error error = kernel.run(sets[0]))
    return std::move(error);

  using Clock = std::chrono::steady_clock;
  unsigned next = 0;
  for (unsigned w = 0; w < options.warmup; ++w) {
    kernel.call(pointers[next].data());
    next = (next + 1) % copies;
  }
  std::vector<double> seconds;
  for (unsigned r = 0; r < std::max(1u, options.repetitions); ++r) {
    auto start = Clock::now();
    kernel.call(pointers[next].data());
    seconds.push_back(
        std::chrono::duration<double>(Clock::now() - start).count());
    next = (next + 1) % copies;
  }
  std::sort(seconds.begin(), seconds.end());
  TimingResult result;
  size_t n = seconds.size();
  result.medianSeconds =
      n % 2 ? seconds[n / 2] : 0.5 * (seconds[n / 2 - 1] + seconds[n / 2]);
  result.minSeconds = seconds.front();
  result.repetitions = n;
  result.copies = copies;
  return result;
}
