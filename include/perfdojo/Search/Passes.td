//===- Passes.td - the optimizing passes ----------------*- tablegen -*-===//
//
// The paper's passes as ordinary MLIR passes (docs/embedding.md): the rule
// sets of the search strategies (Search/RuleCandidates.h) taking their first
// choice without timing, and the replay of a search's recorded result.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_SEARCH_PASSES_TD
#define PERFDOJO_SEARCH_PASSES_TD

include "mlir/Pass/PassBase.td"

// Every pass here runs on each `dojo.kernel` at or below the op it is
// scheduled on (kernels in parallel), so both
// `builtin.module(dojo-heuristic)` and `dojo.kernel(dojo-heuristic)` work.
class RulePass<string name> : Pass<name> {
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"host\"",
           "The target the kernel is mapped for: host (this CPU), cpu "
           "(AVX-512), snitch, a GPU chip (sm_90, gfx942, ...) or default">,
    Option<"reassociate", "reassociate", "bool", /*default=*/"true",
           "Same-operator reductions may be reordered (results then differ "
           "by rounding only)">
  ];
}

def DojoNaivePass : RulePass<"dojo-naive"> {
  let summary = "Fuse scopes and reuse buffer dimensions until exhaustion";
  let description = [{
    The paper's naive pass (4.1), the `naive` strategy of
    `perfdojo-search`: `join_scopes` and `reuse_dims` wherever legal, first
    legal move first, until none is left. Every kernel keeps its meaning:
    each step is a legal move.
  }];
}

def DojoGreedyPass : RulePass<"dojo-greedy"> {
  let summary = "The naive pass, then the target's moves wherever legal";
  let description = [{
    The `greedy` strategy of `perfdojo-search` without timing: the naive
    pass, then on a CPU every innermost scope split by the vector width,
    internal buffers in registers (else on the stack), and `set_vector`,
    `set_unroll` (scopes of at most 8 iterations) and `set_parallel`
    wherever legal; on Snitch, streams and FREP wherever legal.
  }];
}

def DojoHeuristicPass : RulePass<"dojo-heuristic"> {
  let summary = "The target's expert pass, deterministic";
  let description = [{
    The `heuristic` strategy of `perfdojo-search` without timing. Where the
    strategy proposes several programs and keeps the fastest (register
    tiles of several shapes, GPU block widths, Snitch interleaving), the
    pass takes the rules' first choice: the best-ranked register tile on a
    CPU, the first GPU variant, interleaved reductions on Snitch. The
    result is deterministic; only timing (`perfdojo-search`) can do
    better among the candidates.
  }];
}

def DojoApplyTunedPass : Pass<"dojo-apply-tuned"> {
  let summary = "Replay the best move script a search recorded for a kernel";
  let description = [{
    Looks the kernel up by the hash of its canonical `.dojo` text (the key
    `perfdojo-search` files evaluations under) in the `records` directory
    and replays the recorded moves:

    * `HASH.moves`: a move script attached to the kernel with that hash
      (16 lower-case hex digits, as `perfdojo-search` prints keys);
    * `report.json` files (`perfdojo-search --out`) and
      `*.report.json` files (`perfdojo-search --cache`), at any depth below
      the directory: the `best_moves` of the search whose original kernel
      has that hash; with several, the one searched at `threads` threads
      (any when 0) with the fastest best time.

    An attached script wins over a search report. A kernel without a record
    is left as it is, with a remark saying so; a recorded move that is not
    legal on the kernel (a record of another program version) is an error.
  }];
  let options = [
    Option<"records", "records", "std::string", /*default=*/"\"\"",
           "Directory of search outputs and attached move scripts">,
    Option<"threads", "threads", "unsigned", /*default=*/"0",
           "Prefer the search at this thread count (0: any)">,
    Option<"target", "target", "std::string", /*default=*/"\"host\"",
           "The target the recorded moves were searched for">,
    Option<"reassociate", "reassociate", "bool", /*default=*/"true",
           "Same-operator reductions may be reordered">
  ];
}

#endif // PERFDOJO_SEARCH_PASSES_TD
