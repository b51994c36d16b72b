// Where privatization by location does not apply, concurrent modes over a
// temporary race and are refused (getPrivatizingScope,
// Analysis/Privatization.h): a heap buffer, a read not covered in the same
// iteration, an access outside the parallel scope; and the post-verification
// of every move refuses results that unprivatize a buffer under `:p`.
// RUN: rm -rf %t && split-file %s %t
// RUN: perfdojo-opt %t/parallel.mlir -split-input-file --dojo-apply="set_parallel y@0" -verify-diagnostics
// RUN: perfdojo-opt %t/heap.mlir --dojo-apply="set_location t 0" -verify-diagnostics
// RUN: perfdojo-opt %t/gap.mlir --dojo-apply="set_parallel t#0@0" -verify-diagnostics
// RUN: perfdojo-opt %t/threads.mlir --dojo-apply="set_gpu_grid t@0; set_gpu_block t@1" -verify-diagnostics
// RUN: perfdojo-opt %t/not-owned.mlir --dojo-apply="set_gpu_grid t@0; set_gpu_block t@1; set_location t 4; reuse_dims t.0" -verify-diagnostics

//--- parallel.mlir
// A heap buffer is never private: every row writes the same t[{1}].
// expected-error @+1 {{'set_parallel y@0': the scope would race: two of its iterations conflict: write of 't' in `t[{1}] = exp(x[{0}, {1}])` conflicts with the write of 't' in `t[{1}] = exp(x[{0}, {1}])`}}
dojo.kernel @negative_heap {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer t f32 [8] heap
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.scope 8 {
      // expected-note @+2 {{conflicts with this leaf}}
      // expected-note @+1 {{this leaf}}
      dojo.leaf t[{1}] = exp(x[{0}, {1}])
    }
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = t[-{1}+7] * 2
    }
  }
}

// -----

// Read not covered: in step j the row reads t[7-j], which for j < 4 this row
// has not written yet (the previous row's value flows in). So t stays
// shared, and the rows race on it.
// expected-error @+1 {{'set_parallel y@0': the scope would race: two of its iterations conflict: write of 't' in `t[{1}] = x[{0}, {1}]` conflicts with the write of 't' in `t[{1}] = x[{0}, {1}]`}}
dojo.kernel @negative_not_covered {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer t f32 [8] stack
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 8 {
    dojo.leaf t[{0}] = 0.0
  }
  dojo.scope 4 {
    dojo.scope 8 {
      // expected-note @+2 {{conflicts with this leaf}}
      // expected-note @+1 {{this leaf}}
      dojo.leaf t[{1}] = x[{0}, {1}]
      dojo.leaf y[{0}, {1}] = t[-{1}+7] * 2
    }
  }
}

// -----

// An access outside the parallel scope: t carries a running sum across the
// rows, so it cannot be private to one row.
// expected-error @+1 {{'set_parallel y@0': the scope would race: two of its iterations conflict: reduction of 't' in `t[{1}] += x[{0}, {1}]` conflicts with the reduction of 't' in `t[{1}] += x[{0}, {1}]`}}
dojo.kernel @negative_outside {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer t f32 [8] stack
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 8 {
    dojo.leaf t[{0}] = 0
  }
  dojo.scope 4 {
    dojo.scope 8 {
      // expected-note @+2 {{conflicts with this leaf}}
      // expected-note @+1 {{this leaf}}
      dojo.leaf t[{1}] += x[{0}, {1}]
    }
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = t[{1}]
    }
  }
}

// -----

// A `:N` register accumulator in the heap: one slot for all rows.
// expected-error @+1 {{'set_parallel y@0': the scope would race: two of its iterations conflict: write of 't' in `t[{0}] = 0` conflicts with the write of 't' in `t[{0}] = 0`}}
dojo.kernel @negative_heap_reused {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer t f32 [4:N] heap
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-note @+2 {{conflicts with this leaf}}
    // expected-note @+1 {{this leaf}}
    dojo.leaf t[{0}] = 0
    dojo.scope 8 {
      dojo.leaf t[{0}] += x[{0}, {1}]
    }
    dojo.leaf y[{0}] = t[{0}] * 2
  }
}

//--- heap.mlir
// Moving a private temporary to the heap would make the `:p` scope race.
// expected-error @+1 {{'set_location t 0': the result would make the :p scope race: two of its iterations conflict: write of 't' in `t[{1}] = exp(x[{0}, {1}])` conflicts with the write of 't' in `t[{1}] = exp(x[{0}, {1}])`}}
dojo.kernel @negative_to_heap {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer t f32 [8] stack
  dojo.buffer y f32 [4, 8] heap out
  // expected-note @+1 {{the scope}}
  dojo.scope 4:p {
    dojo.scope 8 {
      // expected-note @+2 {{conflicts with this leaf}}
      // expected-note @+1 {{this leaf}}
      dojo.leaf t[{1}] = exp(x[{0}, {1}])
    }
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = t[-{1}+7] * 2
    }
  }
}

//--- gap.mlir
// Two writes cover a read together only where their ranges join: here t[4]
// is written by neither in the row's iteration (the first leaf writes it in
// row 0 only), so t is shared and the rows race. With the first inner
// scope 5 wide they join and the scope becomes `:p`.
// expected-error @+1 {{'set_parallel t#0@0': the scope would race: two of its iterations conflict: write of 't' in `t[{0}+4] = x[{0}, 4]` conflicts with the write of 't' in `t[{1}+5] = x[{0}, {1}+5]`}}
dojo.kernel @negative_gap {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer t f32 [8] stack
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    // expected-note @+1 {{this leaf}}
    dojo.leaf t[{0}+4] = x[{0}, 4]
    dojo.scope 4 {
      dojo.leaf t[{1}] = x[{0}, {1}]
    }
    dojo.scope 3 {
      // expected-note @+1 {{conflicts with this leaf}}
      dojo.leaf t[{1}+5] = x[{0}, {1}+5]
    }
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = t[{1}] * 2
    }
  }
}

//--- threads.mlir
// A register belongs to one GPU thread. Under the grid scope alone, t is
// private per grid iteration; once the first phase becomes a block scope,
// its threads would need one copy each, so t is shared and the grid races.
// expected-error @+1 {{'set_gpu_block t@1': the result would make the :g scope race: two of its iterations conflict: write of 't' in `t[{1}] = x[{0}, {1}]` conflicts with the write of 't' in `t[{1}] = x[{0}, {1}]`}}
dojo.kernel @negative_local_threads {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer t f32 [8] gpu_local
  dojo.buffer y f32 [4, 8] heap out
  // expected-note @+1 {{the scope}}
  dojo.scope 4 {
    dojo.scope 8 {
      // expected-note @+2 {{conflicts with this leaf}}
      // expected-note @+1 {{this leaf}}
      dojo.leaf t[{1}] = x[{0}, {1}]
    }
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = t[{1}] + 1
    }
  }
}

//--- not-owned.mlir
// Threads own a buffer's elements only if every phase indexes it by the
// same thread coordinates: here the second phase runs on thread 0 and reads
// every thread's element, so t stays shared, one copy for the whole grid,
// and reusing its grid dimension would make the grid's iterations race.
// expected-error @+1 {{'reuse_dims t.0': the result would make the :g scope race: two of its iterations conflict: write of 't' in `t[{0}, {1}] = x[{0}, {1}] * 2` conflicts with the write of 't' in `t[{0}, {1}] = x[{0}, {1}] * 2`}}
dojo.kernel @not_owned {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer t f32 [4, 8] heap
  dojo.buffer y f32 [4, 8] heap out
  // expected-note @+1 {{the scope}}
  dojo.scope 4 {
    dojo.scope 8 {
      // expected-note @+2 {{conflicts with this leaf}}
      // expected-note @+1 {{this leaf}}
      dojo.leaf t[{0}, {1}] = x[{0}, {1}] * 2
    }
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = t[{0}, {1}] + 1
    }
  }
}
