// Post-verification (lib/Moves/Move.cpp): a move that restructures the tree
// must leave every `:N` mark valid, so that materialize_dims keeps
// reuse_dims as its exact inverse. The rewrite is tried on a copy; the
// kernel itself is never touched.
// RUN: perfdojo-opt %s -split-input-file --dojo-apply="swap_nested_scopes t#0@0" -verify-diagnostics

// The interchange is legal on its own (no instance pair changes order on
// the same physical element), but it moves the variable that indexes t.0 to
// depth 1; the second nest's accesses at depth 1 would then sit outside the
// reuse scope.
// expected-error @+1 {{'swap_nested_scopes t#0@0': the result would break the non-materialized dimension t.0: an access sits outside the reuse scope at depth 1 (NM2); materialize it first (materialize_dims t.0)}}
dojo.kernel @negative_breaks_reuse {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer t f32 [4:N, 8] stack
  dojo.buffer y f32 [4, 8] heap out
  dojo.buffer w f32 [4] heap out
  dojo.scope 4 {
    dojo.scope 8 {
      dojo.leaf t[{0}, {1}] = x[{0}, {1}]
      dojo.leaf y[{0}, {1}] = t[{0}, {1}]
    }
  }
  dojo.scope 4 {
    // expected-note @+1 {{this leaf}}
    dojo.leaf t[{0}, 0] = x[{0}, 1]
    dojo.leaf w[{0}] = t[{0}, 0]
  }
}
