// One case per rejection reason of set_location (lib/Moves/SetLocation.cpp).
// Errors sit on the kernel, notes on the buffer. Each case is its own file
// so that it carries its own request.
// RUN: rm -rf %t && split-file %s %t

//--- negative_no_buffer.mlir
// RUN: perfdojo-opt %t/negative_no_buffer.mlir --dojo-apply="set_location q 1" -verify-diagnostics

// expected-error @+1 {{'set_location q 1': no buffer named 'q'}}
dojo.kernel @negative_no_buffer {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
  }
}

//--- negative_argument.mlir
// RUN: perfdojo-opt %t/negative_argument.mlir --dojo-apply="set_location y 1" -verify-diagnostics

// expected-error @+1 {{'set_location y 1': 'y' is a kernel argument; its location belongs to the caller}}
dojo.kernel @negative_argument {
  // expected-note @+1 {{declared here}}
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf y[{0}] = 1.0
  }
}

//--- negative_unknown_location.mlir
// RUN: perfdojo-opt %t/negative_unknown_location.mlir --dojo-apply="set_location t 6" -verify-diagnostics

// expected-error @+1 {{'set_location t 6': location 6 is not one of heap=0, stack=1, reg=2, gpu_shared=3, gpu_local=4, tcdm=5}}
dojo.kernel @negative_unknown_location {
  dojo.buffer t f32 [4] heap
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = 1.0
    dojo.leaf y[{0}] = t[{0}]
  }
}

//--- negative_same_location.mlir
// RUN: perfdojo-opt %t/negative_same_location.mlir --dojo-apply="set_location t 0" -verify-diagnostics

// expected-error @+1 {{'set_location t 0': 't' is already in heap}}
dojo.kernel @negative_same_location {
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [4] heap
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = 1.0
    dojo.leaf y[{0}] = t[{0}]
  }
}

//--- negative_unavailable.mlir
// RUN: perfdojo-opt %t/negative_unavailable.mlir --dojo-apply="set_location t 5" -verify-diagnostics

// expected-error @+1 {{'set_location t 5': location tcdm is not available for this target yet}}
dojo.kernel @negative_unavailable {
  dojo.buffer t f32 [4] heap
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = 1.0
    dojo.leaf y[{0}] = t[{0}]
  }
}

//--- negative_from_unavailable.mlir
// RUN: perfdojo-opt %t/negative_from_unavailable.mlir --dojo-apply="set_location t 1" -verify-diagnostics

// The inverse (set_location t 5) would be refused.
// expected-error @+1 {{'set_location t 1': 't' is in tcdm, which is not available for this target yet, so the move could not be undone}}
dojo.kernel @negative_from_unavailable {
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [4] tcdm
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = 1.0
    dojo.leaf y[{0}] = t[{0}]
  }
}

//--- negative_from_shared_unprivate.mlir
// RUN: perfdojo-opt %t/negative_from_shared_unprivate.mlir --dojo-apply="set_location t 2" -verify-diagnostics

// A generated kernel: t in gpu_shared with no ':g' scope around its
// accesses. The inverse (set_location t 3) would be refused.
// expected-error @+1 {{'set_location t 2': 't' is in gpu_shared without being private to the blocks of one ':g' scope, so the move could not be undone: every access must lie inside that scope and every read must read a value written by the same block}}
dojo.kernel @negative_from_shared_unprivate {
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [4] gpu_shared
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = 1.0
    dojo.leaf y[{0}] = t[{0}]
  }
}

//--- negative_stack_budget.mlir
// RUN: perfdojo-opt %t/negative_stack_budget.mlir --dojo-apply="set_location t 1" -verify-diagnostics

// 512 x 513 f32 elements are 1050624 bytes, just over 1 MiB.
// expected-error @+1 {{'set_location t 1': 't' would allocate 1050624 bytes, over the stack budget of 1048576 bytes}}
dojo.kernel @negative_stack_budget {
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [512, 512+1] heap
  dojo.buffer y f32 [512] heap out
  dojo.scope 512 {
    dojo.leaf t[{0}, 0] = 1.0
    dojo.leaf y[{0}] = t[{0}, 0]
  }
}

//--- negative_register_budget.mlir
// RUN: perfdojo-opt %t/negative_register_budget.mlir --dojo-apply="set_location t 2" -verify-diagnostics

// expected-error @+1 {{'set_location t 2': 't' would allocate 65 elements, over the register budget of 64 elements}}
dojo.kernel @negative_register_budget {
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [4:N, 64+1] stack
  dojo.buffer y f32 [4, 64] heap out
  dojo.scope 4 {
    dojo.scope 64 {
      dojo.leaf t[{0}, {1}] = 1.0
      dojo.leaf y[{0}, {1}] = t[{0}, {1}]
    }
  }
}

//--- negative_register_plain_index.mlir
// A register must be addressable at compile time (B8): t.1 is indexed by
// the variable of a plain scope. Unrolling it (set_unroll t@1) first makes
// the move legal.
// RUN: perfdojo-opt %t/negative_register_plain_index.mlir --dojo-apply="set_location t 2" -verify-diagnostics
// RUN: perfdojo-opt %t/negative_register_plain_index.mlir --dojo-apply="set_unroll t@1; set_location t 2" | FileCheck %t/negative_register_plain_index.mlir
// CHECK: dojo.buffer t f32 [4:N, 8] reg

// expected-error @+1 {{'set_location t 2': 't' cannot be addressed in registers: dimension 1 of `t[{0}, {1}] = 1` uses {1}, the variable of a plain scope (only constants, :u variables and the :v lane may index a register) (B8)}}
dojo.kernel @negative_register_plain_index {
  dojo.buffer t f32 [4:N, 8] stack
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.scope 8 {
      // expected-note @+1 {{the access}}
      dojo.leaf t[{0}, {1}] = 1.0
      dojo.leaf y[{0}, {1}] = t[{0}, {1}]
    }
  }
}

//--- negative_register_lane.mlir
// The lanes of a :v scope may index only the innermost materialized
// dimension: here they index dimension 0 of t.
// RUN: perfdojo-opt %t/negative_register_lane.mlir --dojo-apply="set_location t 2" -verify-diagnostics

// expected-error @+1 {{'set_location t 2': 't' cannot be addressed in registers: dimension 0 of `t[{1}, 0] = x[{0}, {1}]` uses {1}, the lane variable of a :v scope outside the innermost materialized dimension or with a coefficient other than 1 (only constants, :u variables and the :v lane may index a register) (B8)}}
dojo.kernel @negative_register_lane {
  dojo.buffer x f32 [4, 16] heap in
  dojo.buffer t f32 [16, 2] stack
  dojo.buffer y f32 [4, 16] heap out
  dojo.scope 4 {
    dojo.scope 16:v {
      // expected-note @+1 {{the access}}
      dojo.leaf t[{1}, 0] = x[{0}, {1}]
    }
    dojo.scope 16:v {
      dojo.leaf y[{0}, {1}] = t[{1}, 0]
    }
  }
}

//--- negative_shared_not_private.mlir
// RUN: perfdojo-opt %t/negative_shared_not_private.mlir --dojo-apply="set_location t 3" -verify-diagnostics

// Block-shared memory holds values of one block: t is written and read in
// two different kernels (`:g` scopes).
// expected-error @+1 {{'set_location t 3': 't' is not private to the blocks of one ':g' scope: every access must lie inside that scope and every read must read a value written by the same block}}
dojo.kernel @negative_shared_not_private {
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [4] heap
  dojo.buffer y f32 [4] heap out
  dojo.scope 4:g {
    dojo.leaf t[{0}] = 1.0
  }
  dojo.scope 4:g {
    dojo.leaf y[{0}] = t[{0}]
  }
}
