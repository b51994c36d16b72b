// RUN: perfdojo-opt %s -split-input-file -verify-diagnostics
//
// Modes and locations never change results: the kernel verifier runs the
// rules of Analysis/KernelInvariants.h on every kernel, hand-written ones
// included, and names the rule and the accesses that break it, as an
// illegal move would. One case per rule (and per condition of the `:N`
// invariant). The mode taxonomy (nesting, `:v` bodies) is in invalid.mlir.

// A reduction under a parallel scope: its iterations add into one element.
dojo.kernel @parallel_reduction {
  dojo.buffer x f32 [64, 1024] heap in
  dojo.buffer s f32 [64] heap out
  dojo.scope 64 {
    dojo.leaf s[{0}] = 0
    // expected-error @below {{'dojo.scope' op violates race freedom (the :p scope): two of its iterations conflict: reduction of 's' in `s[{0}] += x[{0}, {1}]` conflicts with the reduction of 's' in `s[{0}] += x[{0}, {1}]`}}
    dojo.scope 1024:p {
      // expected-note @below {{conflicts with this leaf}}
      // expected-note @below {{this leaf}}
      dojo.leaf s[{0}] += x[{0}, {1}]
    }
  }
}

// -----

// A heap temporary is shared by the threads: privatization needs a stack
// (or register) location.
dojo.kernel @parallel_shared_scratch {
  dojo.buffer x f32 [8, 16] heap in
  dojo.buffer t f32 [16] heap
  dojo.buffer y f32 [8, 16] heap out
  // expected-error @below {{'dojo.scope' op violates race freedom (the :p scope): two of its iterations conflict: write of 't' in `t[{1}] = x[{0}, {1}]` conflicts with the write of 't' in `t[{1}] = x[{0}, {1}]`}}
  dojo.scope 8:p {
    dojo.scope 16 {
      // expected-note @below {{conflicts with this leaf}}
      // expected-note @below {{this leaf}}
      dojo.leaf t[{1}] = x[{0}, {1}]
      dojo.leaf y[{0}, {1}] = t[{1}]
    }
  }
}

// -----

dojo.kernel @grid_write_write {
  dojo.buffer y f32 [4] heap out
  // expected-error @below {{'dojo.scope' op violates race freedom (the :g scope): two of its iterations conflict: write of 'y' in `y[{1}] = 1` conflicts with the write of 'y' in `y[{1}] = 1`}}
  dojo.scope 8:g {
    dojo.scope 4 {
      // expected-note @below {{conflicts with this leaf}}
      // expected-note @below {{this leaf}}
      dojo.leaf y[{1}] = 1
    }
  }
}

// -----

// Threads of one phase: no barrier orders the write and the read of t.
dojo.kernel @block_phase_race {
  dojo.buffer x f32 [2, 8] heap in
  dojo.buffer t f32 [2, 8] heap
  dojo.buffer y f32 [2, 8] heap out
  dojo.scope 2 {
    dojo.scope 8 {
      dojo.leaf t[{0}, {1}] = 0.0
    }
  }
  dojo.scope 2:g {
    // expected-error @below {{'dojo.scope' op violates race freedom (the :b scope): two of its iterations conflict: write of 't' in `t[{0}, {1}] = x[{0}, {1}]` conflicts with the read of 't' in `y[{0}, {1}] = t[{0}, -{1}+7]`}}
    dojo.scope 8:b {
      // expected-note @below {{this leaf}}
      dojo.leaf t[{0}, {1}] = x[{0}, {1}]
      // expected-note @below {{conflicts with this leaf}}
      dojo.leaf y[{0}, {1}] = t[{0}, -{1}+7]
    }
  }
}

// -----

dojo.kernel @block_shapes {
  dojo.buffer x f32 [2, 8] heap in
  dojo.buffer y f32 [2, 8] heap out
  dojo.buffer z f32 [2, 8] heap out
  dojo.scope 2:g {
    // expected-error @below {{'dojo.scope' op violates one block shape per GPU launch (the phases of a GPU kernel): different :b sizes: [8] in one phase and [2, 4] in another (a block has one shape per launch)}}
    // expected-note @below {{this phase}}
    dojo.scope 8:b {
      dojo.leaf y[{0}, {1}] = x[{0}, {1}]
    }
    // expected-note @below {{the other phase}}
    dojo.scope 2:b {
      dojo.scope 4:b {
        dojo.leaf z[{0}, {1}*4+{2}] = x[{0}, {1}*4+{2}]
      }
    }
  }
}

// -----

// Lanes read before they write: lane i+1 would not see lane i's value.
dojo.kernel @vector_lane_reads_earlier_lane {
  dojo.buffer y f32 [17] heap inout
  // expected-error @below {{'dojo.scope' op violates race freedom (the :v scope): a lane would read what an earlier lane writes, but lanes read before they write: write of 'y' in `y[{0}+1] = y[{0}]` conflicts with the read of 'y' in `y[{0}+1] = y[{0}]`}}
  dojo.scope 16:v {
    // expected-note @below {{conflicts with this leaf}}
    // expected-note @below {{this leaf}}
    dojo.leaf y[{0}+1] = y[{0}]
  }
}

// -----

dojo.kernel @reuse_outside_scope {
  dojo.buffer x f32 [4, 8] heap in
  // expected-error @below {{'dojo.buffer' op violates the :N invariant (dimension 0 of 't'): an access sits outside the reuse scope at depth 0 (NM2)}}
  dojo.buffer t f32 [4:N, 8] stack
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.scope 8 {
      dojo.leaf t[{0}, {1}] = x[{0}, {1}]
      dojo.leaf y[{0}, {1}] = t[{0}, {1}]
    }
  }
  // expected-note @below {{this leaf}}
  dojo.leaf y[0, 0] = t[0, 0]
}

// -----

dojo.kernel @reuse_two_indices {
  dojo.buffer x f32 [4, 8] heap in
  // expected-error @below {{'dojo.buffer' op violates the :N invariant (dimension 0 of 't'): two accesses in one reuse scope index dimension 0 differently, so they would share a slot (NM3)}}
  dojo.buffer t f32 [5:N] stack
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.scope 8 {
      // expected-note @below {{this access}}
      dojo.leaf t[{0}] = x[{0}, {1}]
      // expected-note @below {{and this one}}
      dojo.leaf y[{0}, {1}] = t[{0}+1]
    }
  }
}

// -----

// Row i is read after the producer's last iteration left row 3 in the slot.
dojo.kernel @reuse_uncovered_read {
  dojo.buffer x f32 [4] heap in
  // expected-error @below {{'dojo.buffer' op violates the :N invariant (dimension 0 of 't'): a read of 't' is not covered by an earlier write in the same iteration of its reuse scope at depth 0, so it would see another slot's value (NM4)}}
  dojo.buffer t f32 [4:N] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = x[{0}]
  }
  dojo.scope 4 {
    // expected-note @below {{the read}}
    dojo.leaf y[{0}] = t[{0}]
  }
}

// -----

dojo.kernel @reuse_constants {
  dojo.buffer x f32 [2] heap in
  // expected-error @below {{'dojo.buffer' op violates the :N invariant (dimension 0 of 't'): dimension 0 is indexed by different constants, which would share one slot}}
  dojo.buffer t f32 [2:N] stack
  dojo.buffer y f32 [2] heap out
  dojo.leaf t[0] = x[0]
  // expected-note @below {{this access}}
  dojo.leaf t[1] = x[1]
  dojo.leaf y[0] = t[0]
  dojo.leaf y[1] = t[1]
}

// -----

dojo.kernel @register_plain_index {
  dojo.buffer x f32 [8] heap in
  // expected-error @below {{'dojo.buffer' op violates register addressing (register buffer 't'): 't' cannot be addressed in registers: dimension 0 of `t[{0}] = x[{0}]` uses {0}, the variable of a plain scope (only constants, :u variables and the :v lane may index a register)}}
  dojo.buffer t f32 [8] reg
  dojo.buffer y f32 [8] heap out
  dojo.scope 8 {
    // expected-note @below {{the access}}
    dojo.leaf t[{0}] = x[{0}]
    dojo.leaf y[{0}] = t[{0}]
  }
}

// -----

// The lane may index a register only in its innermost dimension.
dojo.kernel @register_lane_outer_dim {
  dojo.buffer x f32 [16, 2] heap in
  // expected-error @below {{'dojo.buffer' op violates register addressing (register buffer 't'): 't' cannot be addressed in registers: dimension 0 of `t[{1}, {0}] = x[{1}, {0}]` uses {1}, the lane variable of a :v scope outside the innermost materialized dimension or with a coefficient other than 1}}
  dojo.buffer t f32 [16, 2] reg
  dojo.buffer y f32 [16, 2] heap out
  dojo.scope 2:u {
    dojo.scope 16:v {
      // expected-note @below {{the access}}
      dojo.leaf t[{1}, {0}] = x[{1}, {0}]
    }
  }
  dojo.scope 16:u {
    dojo.scope 2:u {
      dojo.leaf y[{0}, {1}] = t[{0}, {1}]
    }
  }
}

// -----

dojo.kernel @vector_two_leaves {
  dojo.buffer x f32 [16] heap in
  dojo.buffer y f32 [16] heap out
  // expected-error @below {{'dojo.scope' op a :v (vector) scope must hold exactly one leaf and nothing else}}
  dojo.scope 16:v {
    dojo.leaf y[{0}] = x[{0}]
    dojo.leaf y[{0}] = exp(y[{0}])
  }
}
