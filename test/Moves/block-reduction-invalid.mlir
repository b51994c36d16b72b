// Block reductions that set_gpu_block refuses (Analysis/Concurrency.h
// isBlockReduction, TargetDescription::findBlockReductionViolation): values
// that warp shuffles do not move (not 32-bit), a leaf that reads
// the element its threads reduce into, and, without reassociation, any
// reduction of threads into one element. Any thread count a block holds
// is combined (other than a power of two up to the warp or whole warps,
// over lanes padded to whole warps: test/Conversion/DojoToGPU/
// block-reduction-padded.dojo).
// RUN: rm -rf %t && split-file %s %t
// RUN: perfdojo-opt %t/type.mlir --dojo-apply="set_gpu_grid y#0@0; set_gpu_block y#1@1" -verify-diagnostics
// RUN: perfdojo-opt %t/reads.mlir --dojo-apply="set_gpu_grid y#0@0; set_gpu_block y#1@1" -verify-diagnostics
// RUN: perfdojo-opt %t/exact.mlir -o /dev/null -verify-diagnostics --dojo-check="moves='set_gpu_block y#1@1' reassociate=false"

//--- type.mlir
// expected-error @below {{'set_gpu_block y#1@1': its threads would reduce into one element: threads combine a reduction by warp shuffles of 32-bit values (f32, i32), not f64}}
dojo.kernel @f64_rows {
  dojo.buffer x f64 [8, 32] heap in
  dojo.buffer y f64 [8] heap out
  dojo.scope 8 {
    dojo.leaf y[{0}] = 0
    // expected-note @below {{the scope}}
    dojo.scope 32 {
      dojo.leaf y[{0}] += x[{0}, {1}]
    }
  }
}

//--- reads.mlir
// expected-error @below {{'set_gpu_block y#1@1': the scope would race: two of its threads conflict: reduction of 'y' in `y[{0}] += x[{0}, {1}] * y[{0}]` conflicts with the read of 'y' in `y[{0}] += x[{0}, {1}] * y[{0}]`}}
dojo.kernel @reads_total {
  dojo.buffer x f32 [8, 32] heap in
  dojo.buffer y f32 [8] heap out
  dojo.scope 8 {
    dojo.leaf y[{0}] = 1
    dojo.scope 32 {
      // expected-note @+2 {{conflicts with this leaf}}
      // expected-note @+1 {{this leaf}}
      dojo.leaf y[{0}] += x[{0}, {1}] * y[{0}]
    }
  }
}

//--- exact.mlir
// expected-remark @below {{illegal: 'set_gpu_block y#1@1': the scope would race: its threads reduce into one element, which reorders the reduction (reassociation is off): reduction of 'y' in `y[{0}] += x[{0}, {1}]` conflicts with the reduction of 'y' in `y[{0}] += x[{0}, {1}]`}}
dojo.kernel @exact {
  dojo.buffer x f32 [8, 32] heap in
  dojo.buffer y f32 [8] heap out
  dojo.scope 8:g {
    dojo.leaf y[{0}] = 0
    dojo.scope 32 {
      // expected-note @+2 {{conflicts with this leaf}}
      // expected-note @+1 {{this leaf}}
      dojo.leaf y[{0}] += x[{0}, {1}]
    }
  }
}
