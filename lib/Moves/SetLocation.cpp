//===- SetLocation.cpp - set_location (where a buffer lives) --------------===//
//
// set_location b loc       (inverse: set_location b <previous loc>)
//   Moves internal buffer b to location loc, written as its number in the
//   BufferLocation enumeration:
//     heap=0, stack=1, reg=2, gpu_shared=3, gpu_local=4, tcdm=5
//   (`set_location t 1` puts t on the stack).
//   Legality: b is internal (kernel arguments stay where the caller put
//   them); loc differs from b's location; and per location, counting the
//   allocated storage of the materialized dimensions (`:N` dimensions count
//   once, padding counts):
//     heap   always;
//     stack  at most TargetDescription::stackBytes bytes (1 MiB by default);
//     reg    at most TargetDescription::registerElements elements (64 by default,
//            e.g. four AVX-512 registers of f32);
//     gpu_shared at most TargetDescription::sharedBytes bytes, and private
//            to the blocks of one `:g` scope (getPrivatizingScope as if
//            the buffer lived there: every access inside that scope,
//            every read covered within a block); a buffer in gpu_shared
//            that is not (a hand-written or generated kernel) is not moved
//            out, since the inverse could not put it back;
//     gpu_local always (a copy per thread where private, else global);
//     a location the target lacks (TargetDescription::hasLocation; TCDM
//            on every target until Snitch lands) is refused, and a buffer
//            already there (a hand-written or generated kernel) is not
//            moved either, since the inverse could not put it back.
//   The location enters the dependence test through privatization
//   (getPrivatizingScope, Analysis/Privatization.h): a stack or reg buffer
//   whose accesses all lie in one `:p` scope, with its reads covered per
//   iteration, gets a copy per iteration; a heap buffer never does. So
//   moving a buffer to the heap can make a `:p` scope race; the post-
//   verification of every move (verifyConcurrentScopes) refuses that. The
//   budgets are re-checked by every move that grows storage (pad_dim,
//   materialize_dims).
//   reg also needs every access compile-time addressable (design B8): the
//   index of each materialized dimension uses only constants and variables
//   of `:u` scopes (or of size-1 scopes), except that the innermost
//   materialized dimension may use the variable of the leaf's `:v` scope
//   with coefficient 1 (the lanes of one vector register). So set the
//   modes first, then the location; `:N` dimensions need no address. The
//   post-verification of every move (Move.cpp) re-checks the rule on the
//   result, so clearing a `:u` mode or splitting a scope cannot leave a
//   register buffer indexed at run time.
//   Candidates: every internal buffer, to each location the target has other
//   than its own (heap, stack and reg on a CPU; gpu_shared and gpu_local
//   too where the target runs GPU modes).
//
//===----------------------------------------------------------------------===//

#include "MoveKinds.h"

#include "perfdojo/Analysis/Privatization.h"
#include "perfdojo/Dialect/Dojo/IR/TextSyntax.h"

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::dojo;
using namespace perfdojo::moves;

namespace {

bool isGpuLocation(BufferLocation location) {
  return location == BufferLocation::gpu_shared ||
         location == BufferLocation::gpu_local;
}

class SetLocation final : public MoveOf<MoveKind::SetLocation, 1> {
public:
  bool restructuresTree() const override { return false; }

  void candidates(MoveState &state,
                  SmallVectorImpl<MoveRequest> &out) const override {
    for (BufferOp buffer : state.getKernel().getBuffers()) {
      if (buffer.isArgument())
        continue;
      const TargetDescription &target = state.getOptions().target;
      for (BufferLocation loc :
           {BufferLocation::heap, BufferLocation::stack, BufferLocation::reg,
            BufferLocation::gpu_shared, BufferLocation::gpu_local})
        if (loc != buffer.getLocation() && target.hasLocation(loc) &&
            (!isGpuLocation(loc) || target.supports(Mode::gpu_grid)))
          out.push_back({getName().str(),
                         buffer.getName().str(),
                         {static_cast<int64_t>(loc)}});
    }
  }

  DiagnosedSilenceableFailure checkRequest(MoveState &state,
                                           const MoveRequest &request,
                                           Location errorLoc) const override {
    DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
    BufferOp buffer = resolveInternalBufferOrFail(
        state, request, request.location, "location", errorLoc, diag);
    if (!buffer)
      return diag;
    int64_t param = request.params[0];
    std::optional<BufferLocation> loc =
        param < 0 || param > UINT32_MAX
            ? std::nullopt
            : symbolizeBufferLocation(static_cast<uint32_t>(param));
    auto failAtBuffer = [&](const Twine &message) {
      return failWithNote(request, errorLoc, message, buffer, "declared here");
    };
    if (!loc)
      return fail(request, errorLoc,
                  "location " + Twine(param) +
                      " is not one of heap=0, stack=1, reg=2, gpu_shared=3, "
                      "gpu_local=4, tcdm=5");
    if (*loc == buffer.getLocation())
      return failAtBuffer("'" + buffer.getName() + "' is already in " +
                          stringifyBufferLocation(*loc));
    const TargetDescription &target = state.getOptions().target;
    auto unavailable = [&](BufferLocation l) {
      return !target.hasLocation(l) ||
             (isGpuLocation(l) && !target.supports(Mode::gpu_grid));
    };
    if (unavailable(*loc))
      return fail(request, errorLoc,
                  "location " + stringifyBufferLocation(*loc) +
                      " is not available for this target yet");
    // The inverse puts the buffer back where it was: that must be legal.
    if (unavailable(buffer.getLocation()))
      return failAtBuffer("'" + buffer.getName() + "' is in " +
                          stringifyBufferLocation(buffer.getLocation()) +
                          ", which is not available for this target yet, so "
                          "the move could not be undone");
    // gpu_shared needs a buffer private to the blocks of one `:g` scope;
    // one already there without (a hand-written or generated kernel) is
    // not moved out either, since the inverse could not put it back.
    auto blockPrivate = [&] {
      ScopeOp blocks = getPrivatizingScope(state.getKernel(), buffer,
                                           BufferLocation::gpu_shared);
      return blocks && blocks.getMode() == Mode::gpu_grid;
    };
    const char *whyPrivate = ": every access must lie inside that scope and "
                             "every read must read a value written by the "
                             "same block";
    if (buffer.getLocation() == BufferLocation::gpu_shared && !blockPrivate())
      return failAtBuffer("'" + buffer.getName() +
                          "' is in gpu_shared without being private to the "
                          "blocks of one ':g' scope, so the move could not be "
                          "undone" +
                          whyPrivate);
    if (std::optional<std::string> over = findCapacityViolation(
            buffer, *loc, getStorageElements(buffer), state.getOptions()))
      return failAtBuffer(*over);
    if (*loc == BufferLocation::reg)
      return checkRegisterAddressing(state.getKernel(), buffer, request,
                                     errorLoc);
    if (*loc == BufferLocation::gpu_shared && !blockPrivate())
      return failAtBuffer("'" + buffer.getName() +
                          "' is not private to the blocks of one ':g' scope" +
                          whyPrivate);
    return DiagnosedSilenceableFailure::success();
  }

  MoveRequest rewrite(MoveState &state,
                      const MoveRequest &request) const override {
    BufferOp buffer = lookupBuffer(state.getKernel(), request.location);
    int64_t previous = static_cast<int64_t>(buffer.getLocation());
    buffer.setLocation(
        *symbolizeBufferLocation(static_cast<uint32_t>(request.params[0])));
    return {getName().str(), request.location, {previous}};
  }
};

} // namespace

PERFDOJO_DEFINE_MOVE(SetLocation)
