//===- Passes.td - dojo passes -------------------------------*- tablegen -*-===//
#ifndef PERFDOJO_DIALECT_DOJO_TRANSFORMS_PASSES_TD
#define PERFDOJO_DIALECT_DOJO_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def DojoListMovesPass : Pass<"dojo-list-moves", "::perfdojo::dojo::KernelOp"> {
  let summary = "Print every legal move of each kernel, one per line";
  let description = [{
    Prints to standard output, for each kernel, every move that is legal in
    its current state, in catalogue order, exactly as `dojo-apply` accepts
    it. The kernel itself is not changed.
  }];
  let options = [
    Option<"reassociate", "reassociate", "bool", /*default=*/"true",
           "Allow reordering same-operator reductions (off: bitwise-"
           "reproducible mode)">,
  ];
}

def DojoApplyMovesPass : Pass<"dojo-apply", "::perfdojo::dojo::KernelOp"> {
  let summary = "Apply a ';'-separated sequence of moves";
  let description = [{
    `--dojo-apply="split_scope y@0 16; join_scopes t@0"` checks and applies
    each move in order. An unknown or illegal move is an error naming the
    violated condition, and the pass fails (nothing is written). The option
    may also be spelled `moves=...`. `--dojo-apply="file=PATH"` reads the
    script from a file instead (kernels/scripts/*.moves): one move per line
    or `;`-separated, `#` starts a comment; `moves=` given too runs after
    the file's moves.
  }];
  let options = [
    Option<"moves", "moves", "std::string", /*default=*/"",
           "The moves to apply, separated by ';'">,
    Option<"file", "file", "std::string", /*default=*/"",
           "A move script file (one move per line or ';'-separated, '#' "
           "comments), applied before `moves`">,
    Option<"reassociate", "reassociate", "bool", /*default=*/"true",
           "Allow reordering same-operator reductions">,
  ];
}

def DojoCheckMovePass : Pass<"dojo-check", "::perfdojo::dojo::KernelOp"> {
  let summary = "Explain whether moves are legal, as remarks";
  let description = [{
    `--dojo-check="swap_siblings s@1"` emits a remark on the kernel: either
    that the move is legal, or every reason it is not (with notes on the
    leaves, scopes and dependences involved). The kernel is not changed and
    the pass never fails, so legality can be tested on its own.
    `file=PATH` reads the moves from a script file, as for dojo-apply.
  }];
  let options = [
    Option<"moves", "moves", "std::string", /*default=*/"",
           "The moves to check, separated by ';'">,
    Option<"file", "file", "std::string", /*default=*/"",
           "A move script file (one move per line or ';'-separated, '#' "
           "comments), checked before `moves`">,
    Option<"reassociate", "reassociate", "bool", /*default=*/"true",
           "Allow reordering same-operator reductions">,
  ];
}

def DojoExportKernelsPass : Pass<"dojo-export-kernels"> {
  let summary = "Write every kernel as a .dojo file, to search or tune it";
  let description = [{
    Writes each `dojo.kernel` at or below the op as `DIR/<kernel>.dojo`
    (its canonical text, which `perfdojo-search` reads) and emits a remark
    with the path and the hash of the text, the key that
    `dojo-apply-tuned` finds the search's result by (docs/embedding.md).
    The IR is not changed.
  }];
  let options = [
    Option<"dir", "dir", "std::string", /*default=*/"\".\"",
           "The directory to write into (created if missing)">
  ];
}

#endif // PERFDOJO_DIALECT_DOJO_TRANSFORMS_PASSES_TD
