// --dojo-check: legality on its own. Every move of the script is checked
// against the unchanged kernel and reported as a remark on the kernel,
// "'<move>' is legal" or "illegal: <reason>" with notes on the leaves; the
// pass never fails. The two files check the same moves under the two
// reassociation policies.
// RUN: rm -rf %t && split-file %s %t
// RUN: perfdojo-opt %t/reassociate.mlir -o /dev/null -verify-diagnostics --dojo-check="swap_nested_scopes s#1@1; swap_siblings s#1@1; join_scopes s#1@1; swap_siblings s#2@1"
// RUN: perfdojo-opt %t/exact.mlir -o /dev/null -verify-diagnostics --dojo-check="moves='swap_nested_scopes s#1@1; swap_siblings s#1@1; join_scopes s#1@1; swap_siblings s#2@1' reassociate=false"

//--- reassociate.mlir
// reassociate=true (the default): the two += updates of s[i] may be
// reordered (results then differ by rounding only), so interchanging the
// reduction scopes, swapping and fusing the two += nests are legal. A +=
// and a max= into the same element never commute.
// expected-remark @+4 {{'swap_nested_scopes s#1@1' is legal}}
// expected-remark @+3 {{'swap_siblings s#1@1' is legal}}
// expected-remark @+2 {{'join_scopes s#1@1' is legal}}
// expected-remark @+1 {{illegal: 'swap_siblings s#2@1': the siblings depend on each other: reduction of 's' in `s[{0}] += x[{0}, {1}, 0]` conflicts with the reduction of 's' in `s[{0}] max= 0`}}
dojo.kernel @policy {
  dojo.buffer x f32 [4, 3, 5] heap in
  dojo.buffer s f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 0
    dojo.scope 3 {
      dojo.scope 5 {
        dojo.leaf s[{0}] += x[{0}, {1}, {2}]
      }
    }
    dojo.scope 3 {
      // expected-note @+1 {{this leaf}}
      dojo.leaf s[{0}] += x[{0}, {1}, 0]
    }
    // expected-note @+1 {{conflicts with this leaf}}
    dojo.leaf s[{0}] max= 0.0
  }
}

//--- exact.mlir
// reassociate=false (bitwise-reproducible mode): reduction updates of one
// element are ordinary conflicts, so none of the moves is legal.
// expected-remark @+4 {{illegal: 'swap_nested_scopes s#1@1': interchange would reorder dependent instances: reduction of 's' in `s[{0}] += x[{0}, {1}, {2}]` conflicts with the reduction of 's' in `s[{0}] += x[{0}, {1}, {2}]`}}
// expected-remark @+3 {{illegal: 'swap_siblings s#1@1': the siblings depend on each other: reduction of 's' in `s[{0}] += x[{0}, {1}, {2}]` conflicts with the reduction of 's' in `s[{0}] += x[{0}, {1}, 0]`}}
// expected-remark @+2 {{illegal: 'join_scopes s#1@1': a later iteration of the first part conflicts with an earlier iteration of the second: reduction of 's' in `s[{0}] += x[{0}, {1}, {2}]` conflicts with the reduction of 's' in `s[{0}] += x[{0}, {1}, 0]`}}
// expected-remark @+1 {{illegal: 'swap_siblings s#2@1': the siblings depend on each other: reduction of 's' in `s[{0}] += x[{0}, {1}, 0]` conflicts with the reduction of 's' in `s[{0}] max= 0`}}
dojo.kernel @policy {
  dojo.buffer x f32 [4, 3, 5] heap in
  dojo.buffer s f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf s[{0}] = 0
    dojo.scope 3 {
      dojo.scope 5 {
        // ("depends on this leaf" first: "this leaf" would also match it.)
        // expected-note @+3 {{depends on this leaf}}
        // expected-note @+2 {{this leaf}}
        // expected-note @+1 {{first part}}
        dojo.leaf s[{0}] += x[{0}, {1}, {2}]
      }
    }
    dojo.scope 3 {
      // expected-note @+3 {{conflicts with this leaf}}
      // expected-note @+2 {{second part}}
      // expected-note @+1 {{this leaf}}
      dojo.leaf s[{0}] += x[{0}, {1}, 0]
    }
    // expected-note @+1 {{conflicts with this leaf}}
    dojo.leaf s[{0}] max= 0.0
  }
}
