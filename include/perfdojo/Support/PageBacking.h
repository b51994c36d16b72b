//===- PageBacking.h - the pages timed buffers live on ----------*- C++ -*-===//
//
// One option of every timing (perfdojo-run, the search's evaluations):
// whether large argument buffers are backed by transparent huge pages.
// Streams run faster on huge pages (fewer TLB misses, prefetchers that
// are not stopped at every 4 KiB), and which program is fastest can
// change with them, so the search times on the pages its users' buffers
// have.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_SUPPORT_PAGEBACKING_H
#define PERFDOJO_SUPPORT_PAGEBACKING_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace perfdojo {

/// Huge: buffers of 4 MiB and more are 2 MiB aligned and asked for
/// transparent huge pages (numpy's large arrays get them; so does any
/// buffer where the system's setting is `always`). Small: every buffer
/// stays on 4 KiB pages, as `malloc`'d memory and PyTorch's tensors do
/// where transparent huge pages are `madvise` only (Debian's default).
enum class PageBacking { Huge, Small };

/// "huge" or "small".
inline llvm::StringRef getPageBackingName(PageBacking pages) {
  return pages == PageBacking::Small ? "small" : "huge";
}

/// The backing called `name`, or nullopt.
inline std::optional<PageBacking> parsePageBacking(llvm::StringRef name) {
  if (name == "huge")
    return PageBacking::Huge;
  if (name == "small")
    return PageBacking::Small;
  return std::nullopt;
}

} // namespace perfdojo

#endif // PERFDOJO_SUPPORT_PAGEBACKING_H
