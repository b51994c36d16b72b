//===- Moves.td - the catalogue of moves, one record per move -*- tablegen -*-===//
//
// The one list of moves. Every record names a move as requests write it,
// its summary and its user-facing description (Rewrite / Legality /
// Inverse). Generated from it:
//   * the C++ enum `perfdojo::MoveKind` (MoveKinds.h.inc), in catalogue
//     order, which the registry in lib/Moves (getAllMoves, lookupMove) and
//     the search use as the moves' typed identity;
//   * one `transform.dojo.<move>` op per record (DojoTransformOps.td);
//   * through the ops' documentation, docs/moves-reference.md.
// Adding a move: its file in lib/Moves (a class deriving from
// `MoveOf<MoveKind::X>` plus its `getMove<MoveKind::X>()` definition), a
// record here and its entry in Dojo_MoveCatalogue (docs/moves.md).
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_MOVES_MOVES_TD
#define PERFDOJO_MOVES_MOVES_TD

include "mlir/IR/EnumAttr.td"

/// One move. The record is named `Dojo_<CppName>Move`; `<CppName>` is the
/// MoveKind enumerator and the transform op's class name (`<CppName>Op`).
class Dojo_Move<string name, string summaryText, string body> {
  string moveName = name;
  string cppName = !substr(NAME, 5, !sub(!size(NAME), 9));
  string summary = summaryText;
  string description = body;
}

def Dojo_SplitScopeMove : Dojo_Move<"split_scope",
    "Tile a scope of size s into s/f by f", [{
  **Rewrite.** The plain scope at `location` (`a@d`) of size `s` becomes a
  scope of size `s/f` holding a scope of size `f` (`params = [f]`); inside,
  `{d}` becomes `f*{d}+{d+1}` and deeper variables shift by one.

  **Legality.** The scope has no mode; `1 < f < s` and `f` divides `s`. No
  dependence test: the instance order is unchanged.

  **Inverse.** `merge_scopes` at the same location.
}]>;

def Dojo_MergeScopesMove : Dojo_Move<"merge_scopes",
    "Collapse a perfect pair of scopes into one", [{
  **Rewrite.** A plain scope of size `p` whose only child is a plain scope of
  size `q` becomes one scope of size `p*q`.

  **Legality.** Both scopes are plain and neither has size 1 (use
  `remove_scope` for an unused size-1 scope); every index below combines the
  two variables as `q*{d}+{d+1}` (coefficient of `{d}` equals `q` times that
  of `{d+1}`), so no division or modulo is needed.

  **Inverse.** `split_scope` at the same location with `params = [q]`.
}]>;

def Dojo_CutScopeMove : Dojo_Move<"cut_scope",
    "Peel a scope into two consecutive scopes", [{
  **Rewrite and legality.** The plain scope at `location` (size `s`) becomes scopes of sizes `k` and `s-k` (`params = [k]`, `0 < k < s`); the second runs a copy of the body with `{d}` shifted by `k`. No dependence test: the execution order is unchanged.

  **Inverse.** `join_cut` on the first scope.
}]>;

def Dojo_JoinCutMove : Dojo_Move<"join_cut",
    "Join a scope with its shifted copy", [{
  **Rewrite and legality.** The plain scope at `location` and its next sibling become one scope of the summed size, when the second body equals the first shifted by the first's size: the same tree of scopes (sizes and modes) and leaves, every affine form of the second being the first's with `coeff({d}) * k` added to its constant.

  **Inverse.** `cut_scope` with `params = [size of the first scope]`.
}]>;

def Dojo_SwapNestedScopesMove : Dojo_Move<"swap_nested_scopes",
    "Interchange a scope with its only child scope", [{
  **Rewrite.** The scope at `location` and its only child scope exchange
  sizes; `{d}` and `{d+1}` swap in every index below.

  **Legality.** Both scopes are plain, and no two instances whose order the
  interchange flips conflict,
  `NODEP(sub, sub | x_<d = y_<d, x_d < y_d, x_d+1 > y_d+1)` (ordering mode;
  same-operator reductions commute under the reassociation policy).

  **Inverse.** Itself, at the same location.
}]>;

def Dojo_SwapSiblingsMove : Dojo_Move<"swap_siblings",
    "Exchange a node with its next sibling", [{
  **Rewrite.** The scope or leaf at `location` and its next sibling swap
  places.

  **Legality.** No instance of one conflicts with an instance of the other
  in the same iteration of the enclosing scopes,
  `NODEP(leaves(N), leaves(M) | x_<d = y_<d)` (flow, anti and output
  dependences all count; same-operator reductions commute under the
  reassociation policy).

  **Inverse.** `swap_siblings` on the node that moved first.
}]>;

def Dojo_JoinScopesMove : Dojo_Move<"join_scopes",
    "Fuse a scope with its next sibling scope", [{
  **Rewrite.** The plain scope at `location` and its next sibling, a plain
  scope of the same size, become one scope running both bodies in order.

  **Legality.** Both scopes are plain and of equal size, and no instance of
  the second body at an earlier iteration conflicts with an instance of the
  first body at a later one, `NODEP(X, Y | x_<d = y_<d, x_d > y_d)`
  (physical addresses: `:N` slots and shared arrays alias).

  **Inverse.** `split_off` at the gap between the two bodies.
}]>;

def Dojo_SplitOffMove : Dojo_Move<"split_off",
    "Fission: move the children after a gap into a new scope", [{
  **Rewrite.** `location` `a@d` names a plain scope and, through leaf `a`,
  the child after which to cut; the later children move into a new scope of
  the same size placed right after.

  **Legality.** As for `join_scopes` on the result.

  **Inverse.** `join_scopes` on the first part.
}]>;

def Dojo_HoistLeafMove : Dojo_Move<"hoist_leaf",
    "Move a loop-invariant leaf out of its scope", [{
  **Rewrite and legality.** The leaf at `location` (`a`), first or last child of a plain scope with at least two children, moves just before or after the scope. Legal when the leaf does not use the scope's variable (H1), is idempotent: no reduction, no input reads the element the instance writes (H2), nothing else in the scope writes what it reads or writes in the same iteration of the enclosing scopes (H3) and, on the last-child side, nothing else in the scope reads its output (H4).

  **Inverse.** `sink_leaf` with `params = [0]` (first) or `[1]` (last).
}]>;

def Dojo_SinkLeafMove : Dojo_Move<"sink_leaf",
    "Move a leaf into a neighbouring scope", [{
  **Rewrite and legality.** The leaf at `location` (`a`) moves, with `params = [0]`, into its next sibling, a plain scope, as its first child; with `[1]`, into its previous sibling, a plain scope, as its last child. Legality: H2-H4 of `hoist_leaf` on the result.

  **Inverse.** `hoist_leaf`.
}]>;

def Dojo_AddScopeMove : Dojo_Move<"add_scope",
    "Wrap a node in a redundant scope", [{
  **Rewrite and legality.** The node at `location` (`a@d`) is wrapped in a new plain scope of size `s >= 1` (`params = [s]`) whose variable it does not use; deeper variables shift by one. Legal when the node is idempotent as a block: no reduction, and every read either sees a value the node wrote earlier in the same execution or precedes every write of the node to its element. A node directly inside a `:v` scope cannot be wrapped.

  **Inverse.** `remove_scope` on the new scope.
}]>;

def Dojo_RemoveScopeMove : Dojo_Move<"remove_scope",
    "Remove a scope whose variable is unused", [{
  **Rewrite and legality.** The plain scope at `location` (`a@d`), with exactly one child whose subtree does not use `{d}`, is replaced by that child; deeper variables shift up by one. Legal when the child is idempotent as a block (as for `add_scope`).

  **Inverse.** `add_scope` with the scope's size.
}]>;

def Dojo_ReuseDimsMove : Dojo_Move<"reuse_dims",
    "Stop materializing a dimension of an internal buffer", [{
  **Rewrite.** Dimension `k` of buffer `b` (`location` `b.k`) gets the `:N`
  mark: all its slots share storage.

  **Legality.** The `:N` invariant, with `r` the deepest depth a
  dimension-`k` index uses: `b` is internal (NM1); every access sits below
  depth `r`, its ancestor there being its reuse scope (NM2); one
  dimension-`k` index per reuse scope (NM3); every read is covered by an
  earlier plain write in the same reuse-scope iteration (NM4). Concurrency
  is left to the post-verification: the mark is refused where iterations of
  a `:p`, `:v` or GPU scope would share the folded slots (unless `b` is
  private to them by its location).

  **Inverse.** `materialize_dims` at the same location.
}]>;

def Dojo_MaterializeDimsMove : Dojo_Move<"materialize_dims",
    "Give a non-materialized dimension its storage back", [{
  **Rewrite.** Clears the `:N` mark of dimension `k` of buffer `b`.

  **Legality.** The dimension is marked `:N` (semantically always legal);
  refused only when the grown storage exceeds the budget of `b`'s location
  (stack bytes, register elements) or would change the lane stride of a
  `:v` leaf.

  **Inverse.** `reuse_dims` at the same location.
}]>;

def Dojo_SwapDimsMove : Dojo_Move<"swap_dims",
    "Swap two adjacent dimensions of an internal buffer", [{
  **Rewrite and legality.** Dimensions `k` and `k+1` of buffer `b` (`location` `b.k`, `k+1 < rank`) exchange places with their extents, padding and `:N` flags; every access swaps its indices. Internal buffers only; no dependence test (the permutation is a bijection of storage); `:v` lane strides are re-checked.

  **Inverse.** Itself.
}]>;

def Dojo_PadDimMove : Dojo_Move<"pad_dim",
    "Allocate padding after a buffer dimension", [{
  **Rewrite and legality.** Dimension `k` of internal buffer `b` (`location` `b.k`) gets `p >= 1` more allocated elements (`params = [p]`); indices are unchanged. Legal when the dimension is materialized, the grown storage fits the location's budget, and `:v` lane strides are kept.

  **Inverse.** `unpad_dim` with the same `p`.
}]>;

def Dojo_UnpadDimMove : Dojo_Move<"unpad_dim",
    "Remove padding from a buffer dimension", [{
  **Rewrite and legality.** Removes `p` padding elements of dimension `k` of internal buffer `b` (`location` `b.k`, `params = [p]`, `1 <= p <=` its padding) when the dimension is materialized, no access reaches into them (exact over each leaf's box), and `:v` lane strides are kept.

  **Inverse.** `pad_dim` with the same `p`.
}]>;

def Dojo_SplitDimMove : Dojo_Move<"split_dim",
    "Split a buffer dimension into two", [{
  **Rewrite and legality.** Dimension `k` (extent `n`) of internal buffer `b` (`location` `b.k`) becomes `[n/f, f]` (`params = [f]`, `f` divides `n`); every index `e` becomes `[e div f, e mod f]`. Legal when the dimension has no padding and both parts stay affine over each access's box; a `:N` dimension splits into two `:N` dimensions.

  **Inverse.** `merge_dims` at the same location.
}]>;

def Dojo_MergeDimsMove : Dojo_Move<"merge_dims",
    "Merge two buffer dimensions into one", [{
  **Rewrite and legality.** Dimensions `k` and `k+1` (extents `p`, `q`) of internal buffer `b` (`location` `b.k`) become one of extent `p*q`; `[e1, e2]` becomes `q*e1+e2`. Legal when both are materialized or both `:N`, neither is padded, and in every access `e2` shares no variable with `e1` and has no term whose coefficient is a multiple of `q`, so the split recovers both exactly.

  **Inverse.** `split_dim` with `params = [q]`.
}]>;

def Dojo_ExpandDimMove : Dojo_Move<"expand_dim",
    "Give a buffer one copy per iteration of a scope", [{
  **Rewrite and legality.** Inserts a dimension of extent `n` at position `k` (`0 <= k <= rank`) of internal buffer `b` (`location` `b.k`, `params = [n, d]`), indexed by `{d}` in every access. Legal when `b` is accessed, every access lies below one and the same depth-`d` scope and it has size `n`, no value crosses between the copies (the `:N` rules NM2-NM4 on the new dimension), the grown storage fits `b`'s location, and every `:v` leaf keeps its lane strides.

  **Inverse.** `collapse_dim`.
}]>;

def Dojo_CollapseDimMove : Dojo_Move<"collapse_dim",
    "Remove a per-iteration dimension of a buffer", [{
  **Rewrite and legality.** Removes dimension `k` (extent `n`, `location` `b.k`) of internal buffer `b`. Legal when the dimension is materialized and unpadded, every access indexes it by exactly `{d}` (coefficient 1, no constant) for one `d`, below one and the same scope of size `n`, the dimension satisfies the `:N` rules NM2-NM4 (no value crosses between the copies), and every `:v` leaf keeps its lane strides. Copies that iterations of a concurrent scope would then share are refused by the post-verification.

  **Inverse.** `expand_dim`.
}]>;

def Dojo_SetLocationMove : Dojo_Move<"set_location",
    "Move an internal buffer to another memory", [{
  **Rewrite and legality.** Internal buffer `b` (`location` is its name) moves to the location numbered `params = [loc]` (heap=0, stack=1, reg=2, gpu_shared=3, gpu_local=4, tcdm=5), which differs from its current one, within the location's budget (stack 1 MiB, reg 64 elements by default; allocated storage, `:N` dimensions once). `gpu_shared` (within the target's block-shared memory) takes only a buffer private to the blocks of one `:g` scope: every access inside it, every read covered by a write of the same block. A location the target lacks (GPU locations on a CPU target; Snitch's `tcdm` everywhere for now) is refused, and so is moving a buffer out of one (the inverse would be refused). The location decides privatization, so a move to the heap is refused where a concurrent scope would then race.
  In `reg`, every access must be addressable at compile time: each
  materialized dimension is indexed only by constants and `:u` variables,
  except the innermost, which may use the `:v` lane with coefficient 1;
  every later move re-checks this on its result.

  **Inverse.** `set_location` back to the old location.
}]>;

def Dojo_PadScopeMove : Dojo_Move<"pad_scope",
    "Round a scope's size up into padding", [{
  **Rewrite.** The plain scope at `location` (`a@d`) of size `s` runs `s'`
  iterations (`params = [s']`, `s' > s`); the body is unchanged.

  **Legality.** The scope is plain and every scope around it is plain or
  `:u` (P1); every access stays inside the allocated extents over the grown
  box, kernel arguments inside their logical extents (P2: pad the buffers
  first);
  the extra iterations write only padding of internal buffers; and no
  instance that writes a logical element reads a padding element of a
  buffer written under the scope. Decided exactly over each leaf's box.
  Finally the extra iterations read nothing unwritten (P5): the result keeps
  the rule that no element of an internal array is read before it is
  written, checked on a copy.

  **Inverse.** `unpad_scope` at the same location with `params = [s]`.
}]>;

def Dojo_UnpadScopeMove : Dojo_Move<"unpad_scope",
    "Drop the trailing iterations of a scope that only compute padding", [{
  **Rewrite.** The plain scope at `location` of size `s'` runs `s < s'`
  iterations (`params = [s]`).

  **Legality.** `1 <= s < s'`; P1 and P3-P4 of `pad_scope` on the kernel as
  it is: the removed iterations write only padding, which no instance
  writing a logical element reads; and P5 on the result (padding they wrote
  may be read by the extra iterations of another padded scope).

  **Inverse.** `pad_scope` at the same location with `params = [s']`.
}]>;

def Dojo_ShareBufferMove : Dojo_Move<"share_buffer",
    "Store an array in another array's buffer", [{
  **Rewrite.** `location` is `a,c`: array `c`, stored alone in its own
  buffer `c`, moves into the buffer that stores `a` (appended to its `->`
  list); the buffer `c` is removed. Array names and indices are kept.

  **Legality.** `c`'s buffer is named `c` and stores only `c`, and `a`'s
  buffer does not list only its own name (S1); both buffers are internal
  with identical element type,
  extents, padding, `:N` flags and location; the lifetimes are disjoint per
  element (every access through one array precedes every conflicting
  access through the other, by the shared dependence test on the shared
  storage); no parallel, vector or GPU scope gets iterations that conflict
  through the shared storage.

  **Inverse.** `unshare_buffer c` with `params = [k]`, the declaration
  position `c`'s buffer had.
}]>;

def Dojo_UnshareBufferMove : Dojo_Move<"unshare_buffer",
    "Give an array its own buffer again", [{
  **Rewrite.** Array `c` (`location`), the last array of a shared buffer,
  gets its own buffer `c` with the same declaration, inserted as buffer
  declaration number `k` (`params = [k]`).

  **Legality.** `c` is the last array of its buffer and not the buffer's
  own name, `0 <= k <=` the number of buffers, and the arrays do not
  communicate through the shared storage: the disjoint-lifetime condition
  of `share_buffer` holds as the kernel is.

  **Inverse.** `share_buffer` with `location` `a,c`, `a` the first array of
  the host buffer.
}]>;

def Dojo_PromoteMove : Dojo_Move<"promote",
    "Keep one element of an array in a private copy around a node", [{
  **Rewrite.** `location` is `a,N`: node `N` (a node selector) accesses array
  `a` only through one index list `I` that is invariant in `N`. A new buffer
  `<a>_r` (a's element type, extents and padding; on the stack when it fits
  the stack budget, else on the heap; declared right after a's buffer)
  holds the element: `<a>_r[I] = a[I]` before `N` (when the first access
  to `a` in `N` reads it), every access in `N` uses `<a>_r`, and
  `a[I] = <a>_r[I]` after `N` (when `N` writes or reduces into `a`). No
  parameters.

  **Legality.** `N` accesses `a` always through the identical index list,
  which uses no variable of `N` or below (C1); no other array of a's buffer
  is accessed in `N` (C2); every scope around `N` is plain or `:u` (C3). No
  dependence test.

  **Inverse.** `unpromote <a>_r`.
}]>;

def Dojo_UnpromoteMove : Dojo_Move<"unpromote",
    "Undo a promotion", [{
  **Rewrite and legality.** Recognizes exactly the pattern `promote`
  produces around a node `N` for the array at `location` (an internal array
  stored alone in a buffer of its own name, declared as `promote` would
  declare it; copies right before and after `N`, every other access inside
  it with the one index list; `N` not accessing a's buffer) and restores the
  original accesses, removing the copies and the buffer; C1-C3 hold on the
  result.

  **Inverse.** `promote`.
}]>;

def Dojo_StageRegionMove : Dojo_Move<"stage_region",
    "Let a node work on a staged copy of an array", [{
  **Rewrite.** `location` is `a,N`: node `N` (a node selector) at depth `d`
  works on a new buffer `<a>_s` (a's element type and extents, at location
  `params = [loc]`: heap 0, stack 1, reg 2, declared right after a's
  buffer). A copy nest over a's extents, `<a>_s[I] = a[I]` with `I` the
  nest's variables `{d}`, `{d+1}`, ..., runs right before `N` when `N`
  does not write all of `a` or reads an element of it that no earlier
  write in the same iteration of `N` covers (the `:N` invariant's NM4
  test); every access to `a` in `N` uses `<a>_s` with its index
  unchanged; the reverse copy nest runs right after `N` when `N` writes `a`.

  **Legality.** `N` accesses `a` (ST1); no other array of a's buffer is
  accessed in `N` (ST2); a's buffer has no padding and no `:N` dimension
  (ST3); every scope around `N` is plain or `:u` (ST4); with a copy-in, `a`
  is a kernel input or written all over by one leaf before `N` (ST5); the
  copy fits the location's budget, and in `reg` every access to it is
  addressable (so only single-element copies qualify: stage to the stack,
  set the modes, then move it). No dependence test: the copies are total.

  **Inverse.** `unstage <a>_s`.
}]>;

def Dojo_UnstageMove : Dojo_Move<"unstage",
    "Undo a staging", [{
  **Rewrite and legality.** Recognizes exactly the pattern `stage_region`
  produces around a node for the array at `location` (copy nests right
  before and after the node, every other access inside it, the declaration
  as `stage_region` creates it, the copies present being the ones it would
  create, `N` not accessing a's buffer) and restores the original accesses,
  removing the copy nests and the buffer; ST3-ST4 hold on the result, and
  ST5 when there is a copy-in, so that `stage_region` stays legal as the
  inverse.

  **Inverse.** `stage_region` with the buffer's location as `params`.
}]>;

def Dojo_PrivatizeReductionMove : Dojo_Move<"privatize_reduction",
    "Accumulate a reduction in private partial results (rfactor)", [{
  **Rewrite and legality.** The reduction leaf named by `location` (`a@e`) accumulates into a new buffer `<a>_p` with one slot per iteration of its depth-`e` scope, initialized to the identity by a scope placed before its depth-`d` ancestor (`params = [d]`, `d <= e`), and a scope after it combines the slots into the output. The new buffer gets the output's allocated extents plus a last dimension of extent `n`, on the stack when it fits the stack budget, on the heap otherwise, declared right after the output's buffer. Legal when reassociation is on (R1), the output index uses only depths below `d` (R2), the leaf's operands do not read the output's buffer and anything else under the placement scope that accesses it is an update with the same operator that does not read it (more terms of the same reduction) (R3), the operator has an identity for the element type (`+ *`; `max min` on floating point only, identity `-inf`/`inf`) (R4), and the placement scope and every scope down to the leaf is plain or `:u` (R5).

  **Inverse.** `unprivatize_reduction`.
}]>;

def Dojo_UnprivatizeReductionMove : Dojo_Move<"unprivatize_reduction",
    "Undo a reduction privatization", [{
  **Rewrite and legality.** `location` names the update leaf of the partial results (`p#k@n`). Recognizes exactly the pattern `privatize_reduction` produces (the init, update and combine leaves, the identity, the operator, and the buffer as it would create it in the restored kernel) and restores the original reduction; R1-R5 hold for the restored leaf.

  **Inverse.** `privatize_reduction`.
}]>;

def Dojo_SetUnrollMove : Dojo_Move<"set_unroll",
    "Mark a small scope for full unrolling (:u)", [{
  **Rewrite.** The plain scope at `location` gets mode `:u`.

  **Legality.** Size at most the unroll limit (64); no parallel or GPU
  scope inside.

  **Inverse.** `clear_mode`.
}]>;

def Dojo_SetParallelMove : Dojo_Move<"set_parallel",
    "Run a scope's iterations on CPU threads (:p)", [{
  **Rewrite.** The plain scope at `location` gets mode `:p`.

  **Legality.** No parallel, GPU or unrolled scope around it, no parallel
  or GPU scope inside, and no two iterations conflict,
  `NODEP(sub, sub | x_<d = y_<d, x_d != y_d)` (concurrency mode: reductions
  into one element race). A stack, `reg` or `gpu_local` temporary whose
  accesses all lie in the scope and whose reads are covered per iteration
  is private to each iteration and creates no conflict; heap buffers are
  shared.

  **Inverse.** `clear_mode`.
}]>;

def Dojo_SetVectorMove : Dojo_Move<"set_vector",
    "Run a single-leaf scope as one SIMD operation (:v)", [{
  **Rewrite.** The plain scope at `location` gets mode `:v`.

  **Legality.** The scope holds exactly one leaf; its size is the target's
  vector width for the output's element type (vector bytes / element size:
  16 f32 lanes in 64 bytes) or a power of two of at least 2 below it (a
  narrow vector, for the tail of a row); the output moves by one element
  per lane and every operand by zero or one in the physical layout; no two
  lanes conflict.

  **Inverse.** `clear_mode`.
}]>;

def Dojo_SetGpuGridMove : Dojo_Move<"set_gpu_grid",
    "Map a scope to GPU thread blocks (:g)", [{
  **Rewrite.** The plain scope at `location` gets mode `:g`.

  **Legality.** Not inside a block, warp, parallel or unrolled scope; no
  parallel scope inside; no two iterations conflict.

  **Inverse.** `clear_mode`.
}]>;

def Dojo_SetGpuBlockMove : Dojo_Move<"set_gpu_block",
    "Map a scope to the threads of a block (:b)", [{
  **Rewrite.** The plain scope at `location` gets mode `:b`.

  **Legality.** Inside a grid scope, not inside a warp or unrolled scope, no
  grid or parallel scope inside; size at most 1024. Every phase of the
  kernel (subtree of an outermost `:b` scope under the outermost `:g`) keeps
  the same `:b` sizes, a phase not completely mapped yet agreeing with a
  prefix. The phase rule: no two threads of the scope's phase that differ at
  this depth conflict, in any iterations of the plain and `:u` scopes of the
  kernel around them (a barrier separates consecutive phases and only
  them); threads of different phases never conflict. A *block reduction*
  (the scope's phase is one reduction leaf, directly in it, whose output
  misses the scope's variable) may have its threads reduce into one
  element: they combine as a tree (warp shuffles), which needs the
  reduction policy to allow reordering and the target to combine the
  scope's size and the output's type (32-bit values; a power of two up to
  the warp, or whole warps).

  **Inverse.** `clear_mode`.
}]>;

def Dojo_SetGpuWarpMove : Dojo_Move<"set_gpu_warp",
    "Map a scope to the lanes of a warp (:w)", [{
  **Rewrite.** The plain scope at `location` gets mode `:w`.

  **Legality.** Inside a block scope, not inside an unrolled scope, no grid,
  block or parallel scope inside; size 32; no two iterations conflict.

  **Inverse.** `clear_mode`.
}]>;

def Dojo_SetFrepMove : Dojo_Move<"set_frep",
    "Repeat a scope's FP body with Snitch's FREP sequencer (:f)", [{
  **Rewrite.** The plain scope at `location` gets mode `:f`: the integer
  core issues its body once and the FP sequencer repeats it.

  **Legality.** A Snitch target. The body is straight-line: leaves and `:u`
  scopes only, no index value, no transcendental; every array operand of
  every leaf is an SSR stream whose region encloses the scope or an element
  of a `reg` buffer, in the output's type; the unrolled body has at most 16
  FP instructions and the scope at most 65536 iterations (the FREP body
  rule, Analysis/SnitchRules.h).

  **Inverse.** `clear_mode`.
}]>;

def Dojo_SetSsrMove : Dojo_Move<"set_ssr",
    "Stream an operand of a leaf through an SSR", [{
  **Rewrite.** Operand `params[0]` (0 the output, `i` input `i`) of the leaf
  at `location` becomes an SSR stream that starts at the scope of depth
  `params[1]` on the leaf's path (`x[{0} ]:s0` in the text): the lowering
  configures a data mover with the operand's address walk before that
  scope and the leaf reads or writes the stream register instead of
  memory.

  **Legality.** A target with stream data movers (Snitch). The operand is
  an access to an f64 array outside `reg`, not yet streamed; the leaf's
  streams all start at one depth below the leaf; the scopes from there to
  the leaf are a perfect chain of plain, `:u` or `:f` scopes with at most 4
  of size > 1, each of at most 2^17 iterations; a streamed output is
  written, not reduced, and the leaf reads nothing of its buffer; a
  streamed input's buffer is not the output's (the stream rule,
  Analysis/SnitchRules.h).

  **Inverse.** `clear_ssr`.
}]>;

def Dojo_ClearSsrMove : Dojo_Move<"clear_ssr",
    "Read or write a streamed operand from memory again", [{
  **Rewrite.** Operand `params[0]` of the leaf at `location` loses its
  stream mark.

  **Legality.** The operand is streamed, and no `:f` scope around the leaf
  needs the stream (its body would load from memory).

  **Inverse.** `set_ssr` with the old start depth.
}]>;

def Dojo_ClearModeMove : Dojo_Move<"clear_mode",
    "Make a scope plain again", [{
  **Rewrite.** The scope at `location` loses its mode.

  **Legality.** The scope has a mode, and it is not the only grid around a
  block scope or the only block around a warp scope. Clearing the outer
  `:b` of a phase changes its block shape, which the post-verification
  compares with the kernel's other phases. A `:v` scope whose leaf does
  not have the lane shape `set_vector` makes (a hand-written lane-invariant
  store, say) keeps its mode: the inverse would be refused.

  **Inverse.** The `set_*` move of the old mode.
}]>;

def Dojo_SetNontemporalMove : Dojo_Move<"set_nontemporal",
    "Write a buffer's vector stores past the caches", [{
  **Rewrite.** Buffer `b` (`location` is its name) is marked `nontemporal`:
  the CPU lowering writes its whole-vector stores with non-temporal stores,
  which skip reading the line into the cache before writing it, and fences
  them before the kernel or a parallel body returns. Partial and scalar
  stores and reductions stay ordinary. No result changes.

  **Legality.** A CPU target; `b` is an `out` or `inout` buffer on the heap
  (the IR's rule for the mark) and not marked yet. Offered where a `:v`
  leaf writes `b` without reducing into it: results streamed to memory
  that the kernel does not read back soon.

  **Inverse.** `clear_nontemporal`.
}]>;

def Dojo_ClearNontemporalMove : Dojo_Move<"clear_nontemporal",
    "Write a buffer's stores through the caches again", [{
  **Rewrite.** Buffer `b` loses its `nontemporal` mark.

  **Legality.** `b` is marked.

  **Inverse.** `set_nontemporal`.
}]>;

def Dojo_StageTileMove : Dojo_Move<"stage_tile",
    "Let a scope read a staged copy of the tile of an array it reads", [{
  **Rewrite.** `location` is `a,N`: scope `N` at depth `d` reads `a` in
  one tile per execution, every index `j` being `o_j + i_j` with `o_j` the
  same form of the variables around `N` in every access and `i_j` ranging
  over `[lo_j, hi_j]` with `N`'s own variables. A new buffer `<a>_t` (a's
  element type, extents `hi_j - lo_j + 1`, at location `params = [loc]`:
  heap 0, stack 1, reg 2, declared right after a's buffer) is filled by a
  copy nest right before `N`, `<a>_t[{d}, ...] = a[o_0 + lo_0 + {d}, ...]`,
  and `N` reads `<a>_t[i_j - lo_j]` instead: Exo's `stage_mem` for read-only
  data, the block-shared tile of a GEMM (then the modes, then
  `set_location` to `gpu_shared`).

  **Legality.** `N` is a scope that reads `a` and does not write it (SM1);
  no other array of a's buffer is accessed in `N` (SM2); every index
  splits as above (SM3); every scope around `N` is plain or `:u` (SM4); `a`
  is a kernel input or written all over by one leaf before `N` (SM5); the
  tile is smaller than `a` (else `stage_region`), fits the location's
  budget, and in `reg` every access to it is addressable. No dependence
  test: nothing writes `a` between the copy and `N`'s reads.

  **Inverse.** `unstage_tile <a>_t`.
}]>;

def Dojo_UnstageTileMove : Dojo_Move<"unstage_tile",
    "Undo a tile staging", [{
  **Rewrite and legality.** Recognizes exactly the pattern `stage_tile`
  produces: the buffer alone, declared right after the source's (heap,
  stack or reg, no padding, no `:N`), written only by one copy nest of
  plain scopes right before a scope `N` that holds every other access to
  it (reads) and none to the source's buffer, the copy's source index being
  an origin of the variables around the nest plus the nest's own
  variables. `N`'s reads `t[f]` become `a[f + origin]`, and the copy and the
  buffer are removed; staging the result again must give the kernel back
  (the same tile, name and copy), so the two stay each other's inverse.

  **Inverse.** `stage_tile` with the buffer's location as `params`.
}]>;

/// The moves in catalogue order: the order of enumeration (listing, search)
/// and of the MoveKind values.
defvar Dojo_MoveCatalogue = [
  Dojo_SplitScopeMove, Dojo_MergeScopesMove, Dojo_CutScopeMove,
  Dojo_JoinCutMove, Dojo_SwapNestedScopesMove, Dojo_SwapSiblingsMove,
  Dojo_JoinScopesMove, Dojo_SplitOffMove, Dojo_HoistLeafMove,
  Dojo_SinkLeafMove, Dojo_AddScopeMove, Dojo_RemoveScopeMove,
  Dojo_ReuseDimsMove, Dojo_MaterializeDimsMove, Dojo_SwapDimsMove,
  Dojo_PadDimMove, Dojo_UnpadDimMove, Dojo_SplitDimMove, Dojo_MergeDimsMove,
  Dojo_ExpandDimMove, Dojo_CollapseDimMove, Dojo_SetLocationMove,
  Dojo_PadScopeMove, Dojo_UnpadScopeMove, Dojo_ShareBufferMove,
  Dojo_UnshareBufferMove, Dojo_PromoteMove, Dojo_UnpromoteMove,
  Dojo_StageRegionMove, Dojo_UnstageMove, Dojo_PrivatizeReductionMove,
  Dojo_UnprivatizeReductionMove, Dojo_SetUnrollMove, Dojo_SetParallelMove,
  Dojo_SetVectorMove, Dojo_SetGpuGridMove, Dojo_SetGpuBlockMove,
  Dojo_SetGpuWarpMove, Dojo_SetFrepMove, Dojo_SetSsrMove, Dojo_ClearSsrMove,
  Dojo_ClearModeMove, Dojo_SetNontemporalMove, Dojo_ClearNontemporalMove,
  Dojo_StageTileMove, Dojo_UnstageTileMove,
];

/// `perfdojo::MoveKind`: enumerator `<CppName>`, value the catalogue
/// position, string form the move's name (`stringifyMoveKind`,
/// `symbolizeMoveKind`).
def Dojo_MoveKind : I32EnumAttr<"MoveKind", "the kind of a move",
    !foreach(i, !range(Dojo_MoveCatalogue),
             I32EnumAttrCase<Dojo_MoveCatalogue[i].cppName, i,
                             Dojo_MoveCatalogue[i].moveName>)> {
  let cppNamespace = "::perfdojo";
  let genSpecializedAttr = 0;
}

#endif // PERFDOJO_MOVES_MOVES_TD
