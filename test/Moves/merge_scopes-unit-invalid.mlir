// merge_scopes refuses a scope of size 1 (lib/Moves/SplitScope.cpp): the
// inverse split_scope would need the factor 1 or the whole size. Such a
// scope comes from cut_scope or add_scope; remove_scope drops it.
// RUN: perfdojo-opt %s -split-input-file --dojo-apply="merge_scopes y@0" -verify-diagnostics

// expected-error @+1 {{'merge_scopes y@0': sizes 4 and 1: a merge with a scope of size 1 cannot be undone by split_scope (use remove_scope)}}
dojo.kernel @negative_unit_inner {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-note @+1 {{the scope of size 1}}
    dojo.scope 1 {
      dojo.leaf y[{0}] = 1.0
    }
  }
}

// -----

// expected-error @+1 {{'merge_scopes y@0': sizes 1 and 4: a merge with a scope of size 1 cannot be undone by split_scope (use remove_scope)}}
dojo.kernel @negative_unit_outer {
  dojo.buffer y f32 [4] heap out
  // expected-note @+1 {{the scope of size 1}}
  dojo.scope 1 {
    dojo.scope 4 {
      dojo.leaf y[{1}] = 1.0
    }
  }
}
