// --dojo-list-moves prints every legal move, one per line, in catalogue
// order and exactly as --dojo-apply accepts it (the kernel is printed to
// -o). This test pins down the moves of docs/moves.md; the listing is
// filtered to them so that other move kinds can be added without touching it.
// RUN: perfdojo-opt %s --dojo-list-moves -o /dev/null | grep -E "^(split_scope|merge_scopes|swap_nested_scopes|swap_siblings|join_scopes|split_off|reuse_dims|materialize_dims) " > %t
// RUN: FileCheck %s < %t
// RUN: perfdojo-opt %s --dojo-apply="reuse_dims t.0" --dojo-list-moves -o /dev/null | grep -E "^(split_scope|merge_scopes|swap_nested_scopes|swap_siblings|join_scopes|split_off|reuse_dims|materialize_dims) " > %t.reused
// RUN: FileCheck %s --check-prefix=REUSED < %t.reused

// Absent: swap_siblings (t[{0}] = 0, the += and the read of t[{0}] depend on
// each other in every iteration), join_scopes, swap_nested_scopes and
// merge_scopes (no adjacent equal scopes, no perfect nest) and
// materialize_dims (nothing is `:N`).
// CHECK-NOT:   {{.}}
// CHECK:       split_scope t#0@0 2
// CHECK-NEXT:  split_scope t#0@0 3
// CHECK-NEXT:  split_scope t#1@1 2
// CHECK-NEXT:  split_off t#0@0
// CHECK-NEXT:  split_off t#1@0
// CHECK-NEXT:  reuse_dims t.0
// CHECK-NOT:   {{.}}

// Once t.0 shares one slot, the dependence test compares physical slots:
// t[{0}] of one row and t[{0}] of another are the same element, so neither
// fission is legal any more. materialize_dims is.
// REUSED-NOT:  {{.}}
// REUSED:      split_scope t#0@0 2
// REUSED-NEXT: split_scope t#0@0 3
// REUSED-NEXT: split_scope t#1@1 2
// REUSED-NEXT: materialize_dims t.0
// REUSED-NOT:  {{.}}
dojo.kernel @rowsum {
  dojo.buffer x f32 [6, 4] heap in
  dojo.buffer t f32 [6] stack
  dojo.buffer y f32 [6] heap out
  dojo.scope 6 {
    dojo.leaf t[{0}] = 0
    dojo.scope 4 {
      dojo.leaf t[{0}] += x[{0}, {1}]
    }
    dojo.leaf y[{0}] = t[{0}] * 2.0
  }
}
