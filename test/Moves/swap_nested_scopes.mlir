// swap_nested_scopes a@d (lib/Moves/SwapNestedScopes.cpp): a scope and its
// only child scope exchange sizes; {d} and {d+1} swap in every form below.
// The move is its own inverse at the same location: applying it twice must
// give the input back.
// RUN: rm -rf %t && split-file %s %t

//--- interchange.mlir
// RUN: perfdojo-opt %t/interchange.mlir --dojo-apply="swap_nested_scopes y@0" | FileCheck %t/interchange.mlir
// RUN: perfdojo-opt %t/interchange.mlir > %t/interchange.orig
// RUN: perfdojo-opt %t/interchange.mlir --dojo-apply="swap_nested_scopes y@0; swap_nested_scopes y@0" | diff %t/interchange.orig -

// CHECK-LABEL: dojo.kernel @interchange
// CHECK:         dojo.scope 8 {
// CHECK-NEXT:      dojo.scope 4 {
// CHECK-NEXT:        dojo.leaf y[{1}, {0}] = x[{1}, {0}] + 1
dojo.kernel @interchange {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = x[{0}, {1}] + 1.0
    }
  }
}

//--- inner.mlir
// RUN: perfdojo-opt %t/inner.mlir --dojo-apply="swap_nested_scopes y@1" | FileCheck %t/inner.mlir
// RUN: perfdojo-opt %t/inner.mlir > %t/inner.orig
// RUN: perfdojo-opt %t/inner.mlir --dojo-apply="swap_nested_scopes y@1; swap_nested_scopes y@1" | diff %t/inner.orig -

// A pair at depth 1 above a third scope: only {1} and {2} swap, also in
// index values; {0} and {3} keep their place.
// CHECK-LABEL: dojo.kernel @inner
// CHECK:         dojo.scope 2 {
// CHECK-NEXT:      dojo.scope 4 {
// CHECK-NEXT:        dojo.scope 3 {
// CHECK-NEXT:          dojo.scope 5 {
// CHECK-NEXT:            dojo.leaf y[{0}, {2}, {1}, {3}] = ({1}+{2}*4)
dojo.kernel @inner {
  dojo.buffer y f32 [2, 3, 4, 5] heap out
  dojo.scope 2 {
    dojo.scope 3 {
      dojo.scope 4 {
        dojo.scope 5 {
          dojo.leaf y[{0}, {1}, {2}, {3}] = ({1}*4+{2})
        }
      }
    }
  }
}

//--- reduction.mlir
// RUN: perfdojo-opt %t/reduction.mlir --dojo-apply="swap_nested_scopes s#1@1" | FileCheck %t/reduction.mlir
// RUN: perfdojo-opt %t/reduction.mlir > %t/reduction.orig
// RUN: perfdojo-opt %t/reduction.mlir --dojo-apply="swap_nested_scopes s#1@1; swap_nested_scopes s#1@1" | diff %t/reduction.orig -

// Both swapped scopes reduce into s[{0}]: legal because same-operator
// reductions may be reordered (reassociate=true, the default; see
// legality-remarks.mlir for reassociate=false).
// CHECK-LABEL: dojo.kernel @reduction
// CHECK:         dojo.scope 4 {
// CHECK-NEXT:      dojo.leaf s[{0}] = 0
// CHECK-NEXT:      dojo.scope 5 {
// CHECK-NEXT:        dojo.scope 3 {
// CHECK-NEXT:          dojo.leaf s[{0}] += x[{0}, {2}, {1}]
dojo.kernel @reduction {
  dojo.buffer x f32 [4, 3, 5] heap in
  dojo.buffer s f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 0
    dojo.scope 3 {
      dojo.scope 5 {
        dojo.leaf s[{0}] += x[{0}, {1}, {2}]
      }
    }
  }
}
