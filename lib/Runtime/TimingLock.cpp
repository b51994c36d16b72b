//===- TimingLock.cpp - one run at a time touches kernel data -------------===//

#include "perfdojo/Runtime/TimingLock.h"

using namespace perfdojo;

llvm::Expected<TimingLock> TimingLock::acquire(llvm::StringRef path) {
  TimingLock lock;
  if (path.empty())
    return std::move(lock);
  llvm::Expected<llvm::sys::fs::file_t> opened =
      llvm::sys::fs::openNativeFileForReadWrite(
          path, llvm::sys::fs::CD_OpenAlways, llvm::sys::fs::OF_None);
  if (!opened)
    return llvm::createStringError("cannot open the timing lock '" + path +
                                   "': " + toString(opened.takeError()));
  if (std::error_code ec = llvm::sys::fs::lockFile(*opened)) {
    llvm::sys::fs::closeFile(*opened);
    return llvm::createStringError("cannot lock '" + path +
                                   "': " + ec.message());
  }
  lock.file = *opened;
  return std::move(lock);
}

TimingLock::TimingLock(TimingLock &&other) noexcept
    : file(std::exchange(other.file, std::nullopt)) {}

TimingLock &TimingLock::operator=(TimingLock &&other) noexcept {
  if (this != &other) {
    release();
    file = std::exchange(other.file, std::nullopt);
  }
  return *this;
}

void TimingLock::release() {
  if (!file)
    return;
  (void)llvm::sys::fs::unlockFile(*file);
  llvm::sys::fs::closeFile(*file);
  file.reset();
}
