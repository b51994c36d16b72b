// The candidates of cut_scope, join_cut, hoist_leaf, sink_leaf, add_scope
// and remove_scope that are legal, as --dojo-list-moves prints them (the
// listing is filtered to these moves).
// RUN: perfdojo-opt %s --dojo-list-moves -o /dev/null | grep -E "^(cut_scope|join_cut|hoist_leaf|sink_leaf|add_scope|remove_scope) " | FileCheck %s

// cut_scope offers f*floor(s/f) for f in {2, 4, 8, 16}: 8 for the scope of
// 9, 8 and 10 for the scope of 11 (none for a size that every f divides).
// add_scope offers the sizes of neighbouring scopes (s#0 and c sit next to
// the scope of 11, y next to leaves only). The init s#0 may not sink into
// the reduction scope, nor y (it reads s); c may, as the last child. No
// scope can go: the scope of 9 has several children and its variable is
// used, the scope of 11 holds a reduction.
// CHECK-NOT:   {{.}}
// CHECK:       cut_scope s#0@0 8
// CHECK-NEXT:  cut_scope s#1@1 8
// CHECK-NEXT:  cut_scope s#1@1 10
// CHECK-NEXT:  sink_leaf c 1
// CHECK-NEXT:  add_scope s#0@1 11
// CHECK-NEXT:  add_scope c@1 11
// CHECK-NOT:   {{.}}
dojo.kernel @rowsum {
  dojo.buffer x f32 [9, 11] heap in
  dojo.buffer n f32 [9] heap in
  dojo.buffer s f32 [9] stack
  dojo.buffer c f32 [9] stack
  dojo.buffer y f32 [9] heap out
  dojo.scope 9 {
    dojo.leaf s[{0}] = 0.0
    dojo.scope 11 {
      dojo.leaf s[{0}] += x[{0}, {1}]
    }
    dojo.leaf c[{0}] = n[{0}] * 2.0
    dojo.leaf y[{0}] = s[{0}] * c[{0}]
  }
}
