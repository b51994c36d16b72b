// Every refusal of stage_tile and unstage_tile (lib/Moves/StageTile.cpp),
// one case each.
// RUN: rm -rf %t && split-file %s %t
// RUN: perfdojo-opt %t/bad_location.mlir --dojo-apply="stage_tile x,y@1 3" -verify-diagnostics
// RUN: perfdojo-opt %t/leaf.mlir --dojo-apply="stage_tile x,y 1" -verify-diagnostics
// RUN: perfdojo-opt %t/no_read.mlir --dojo-apply="stage_tile y,t@1 1" -verify-diagnostics
// RUN: perfdojo-opt %t/writes.mlir --dojo-apply="stage_tile t,t@1 1" -verify-diagnostics
// RUN: perfdojo-opt %t/other_array.mlir --dojo-apply="stage_tile t,y@1 1" -verify-diagnostics
// RUN: perfdojo-opt %t/no_tile.mlir --dojo-apply="stage_tile x,y@1 1" -verify-diagnostics
// RUN: perfdojo-opt %t/parallel.mlir --dojo-apply="stage_tile x,y@1 1" -verify-diagnostics
// RUN: perfdojo-opt %t/undefined.mlir --dojo-apply="stage_tile t,y@1 1" -verify-diagnostics
// RUN: perfdojo-opt %t/whole.mlir --dojo-apply="stage_tile x,y@0 1" -verify-diagnostics
// RUN: perfdojo-opt %t/registers.mlir --dojo-apply="stage_tile x,y@1 2" -verify-diagnostics
// RUN: perfdojo-opt %t/unaddressable.mlir --dojo-apply="stage_tile x,y@1 2" -verify-diagnostics
// RUN: perfdojo-opt %t/unstage_unknown.mlir --dojo-apply="unstage_tile q" -verify-diagnostics
// RUN: perfdojo-opt %t/unstage_not_copy.mlir --dojo-apply="unstage_tile t" -verify-diagnostics
// RUN: perfdojo-opt %t/unstage_order.mlir --dojo-apply="stage_tile x,y@1 1; stage_tile t,y@1 1; unstage_tile x_t" -verify-diagnostics
// RUN: perfdojo-opt %t/unstage_declared.mlir --dojo-apply="unstage_tile x_t" -verify-diagnostics
// RUN: perfdojo-opt %t/unstage_not_tile.mlir --dojo-apply="unstage_tile x_t" -verify-diagnostics
// RUN: perfdojo-opt %t/unstage_parallel.mlir --dojo-apply="unstage_tile x_t" -verify-diagnostics
// RUN: perfdojo-opt %t/unstage_layout.mlir --dojo-apply="unstage_tile x_t" -verify-diagnostics

//--- bad_location.mlir
// expected-error @+1 {{'stage_tile x,y@1 3': location 3 is not one of heap=0, stack=1, reg=2 (move a tile elsewhere with set_location once its modes are set)}}
dojo.kernel @bad_location {
  dojo.buffer x f32 [8, 8] heap in
  dojo.buffer t f32 [8, 8] stack
  dojo.buffer y f32 [8, 8] heap out
  dojo.scope 8 {
    dojo.scope 8 {
      dojo.leaf t[{0}, {1}] = x[{0}, {1}] * 2
    }
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = x[{0}, {1}] + t[{0}, {1}]
    }
  }
}

//--- leaf.mlir
// expected-error @+1 {{'stage_tile x,y 1': the node is a leaf; stage_tile stages what a scope reads (promote copies one element) (SM1)}}
dojo.kernel @leaf {
  dojo.buffer x f32 [8, 8] heap in
  dojo.buffer t f32 [8, 8] stack
  dojo.buffer y f32 [8, 8] heap out
  dojo.scope 8 {
    dojo.scope 8 {
      dojo.leaf t[{0}, {1}] = x[{0}, {1}] * 2
    }
    dojo.scope 8 {
      // expected-note @+1 {{the node}}
      dojo.leaf y[{0}, {1}] = x[{0}, {1}] + t[{0}, {1}]
    }
  }
}

//--- no_read.mlir
// expected-error @+1 {{'stage_tile y,t@1 1': the node does not read 'y' (SM1)}}
dojo.kernel @no_read {
  dojo.buffer x f32 [8, 8] heap in
  dojo.buffer t f32 [8, 8] stack
  dojo.buffer y f32 [8, 8] heap out
  dojo.scope 8 {
    // expected-note @+1 {{the node}}
    dojo.scope 8 {
      dojo.leaf t[{0}, {1}] = x[{0}, {1}] * 2
    }
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = x[{0}, {1}] + t[{0}, {1}]
    }
  }
}

//--- writes.mlir
// expected-error @+1 {{'stage_tile t,t@1 1': the node writes 't'; stage_tile copies what a node only reads (stage_region stages an output) (SM1)}}
dojo.kernel @writes {
  dojo.buffer x f32 [8, 8] heap in
  dojo.buffer t f32 [8, 8] stack
  dojo.buffer y f32 [8, 8] heap out
  dojo.scope 8 {
    // expected-note @+1 {{the node}}
    dojo.scope 8 {
      dojo.leaf t[{0}, {1}] = x[{0}, {1}] * 2
    }
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = x[{0}, {1}] + t[{0}, {1}]
    }
  }
}

//--- other_array.mlir
// expected-error @+1 {{'stage_tile t,y@1 1': the node also accesses another array of the buffer of 't', which would not see the staged tile (SM2)}}
dojo.kernel @other_array {
  dojo.buffer x f32 [4, 4] heap in
  dojo.buffer t f32 [4, 4] stack -> t, u
  dojo.buffer y f32 [4, 4] heap out
  dojo.scope 4 {
    dojo.scope 4 {
      dojo.leaf t[{0}, {1}] = x[{0}, {1}]
    }
  }
  dojo.scope 4 {
    dojo.scope 4 {
      // expected-note @+1 {{the other access}}
      dojo.leaf u[{0}, {1}] = t[{0}, {1}] * 2
      dojo.leaf y[{0}, {1}] = u[{0}, {1}]
    }
  }
}

//--- no_tile.mlir
// expected-error @+1 {{'stage_tile x,y@1 1': dimension 0 of 'x' is indexed with different parts of the variables around the node, so its reads lie in no one tile per execution (SM3)}}
dojo.kernel @no_tile {
  dojo.buffer x f32 [8, 8] heap in
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    // expected-note @+1 {{the node}}
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = x[{0}, {1}] + x[{0}*2, {1}]
    }
  }
}

//--- parallel.mlir
// expected-error @+1 {{'stage_tile x,y@1 1': an enclosing scope has a parallel, vector or GPU mode; clear it first (SM4)}}
dojo.kernel @parallel {
  dojo.buffer x f32 [8, 8] heap in
  dojo.buffer y f32 [8, 8] heap out
  // expected-note @+1 {{the scope with a mode}}
  dojo.scope 8:p {
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = x[{0}, {1}]
    }
  }
}

//--- undefined.mlir
// expected-error @+1 {{'t' is no kernel input and no leaf before the node writes all of it, so the copy could read elements nothing wrote (SM5)}}
dojo.kernel @undefined {
  dojo.buffer x f32 [8, 8] heap in
  dojo.buffer t f32 [8, 8] stack
  dojo.buffer y f32 [8, 4] heap out
  dojo.scope 8 {
    dojo.scope 4 {
      dojo.leaf t[{0}, {1}*2] = x[{0}, {1}]
    }
    // expected-note @+1 {{the node}}
    dojo.scope 4 {
      dojo.leaf y[{0}, {1}] = t[{0}, {1}*2]
    }
  }
}

//--- whole.mlir
// expected-error @+1 {{'stage_tile x,y@0 1': the node reads all of 'x' (a tile of 64 elements): stage_region stages a whole array}}
dojo.kernel @whole {
  dojo.buffer x f32 [8, 8] heap in
  dojo.buffer t f32 [8, 8] stack
  dojo.buffer y f32 [8, 8] heap out
  // expected-note @+1 {{the node}}
  dojo.scope 8 {
    dojo.scope 8 {
      dojo.leaf t[{0}, {1}] = x[{0}, {1}] * 2
    }
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = x[{0}, {1}] + t[{0}, {1}]
    }
  }
}

//--- registers.mlir
// expected-error @+1 {{'stage_tile x,y@1 2': the tile of 'x' would allocate 128 elements, over the register budget of 64 elements}}
dojo.kernel @registers {
  dojo.buffer x f32 [4, 128] heap in
  dojo.buffer y f32 [4, 128] heap out
  dojo.scope 4 {
    dojo.scope 128 {
      dojo.leaf y[{0}, {1}] = x[{0}, {1}]
    }
  }
}

//--- unaddressable.mlir
// expected-error @+1 {{'x_t' cannot be addressed in registers: dimension 1 of `x_t[{1}, {2}] = x[{0}+{1}, {2}]` uses {2}, the variable of a plain scope (only constants, :u variables and the :v lane may index a register) (B8)}}
dojo.kernel @unaddressable {
  dojo.buffer x f32 [8, 8] heap in
  dojo.buffer t f32 [8, 8] stack
  dojo.buffer y f32 [8, 8] heap out
  dojo.scope 8 {
    dojo.scope 8 {
      dojo.leaf t[{0}, {1}] = x[{0}, {1}] * 2
    }
    // expected-note @+1 {{the access}}
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = x[{0}, {1}] + t[{0}, {1}]
    }
  }
}

//--- unstage_unknown.mlir
// expected-error @+1 {{'unstage_tile q': no buffer 'q' in the kernel}}
dojo.kernel @unstage_unknown {
  dojo.buffer x f32 [8, 8] heap in
  dojo.buffer t f32 [8, 8] stack
  dojo.buffer y f32 [8, 8] heap out
  dojo.scope 8 {
    dojo.scope 8 {
      dojo.leaf t[{0}, {1}] = x[{0}, {1}] * 2
    }
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = x[{0}, {1}] + t[{0}, {1}]
    }
  }
}

//--- unstage_not_copy.mlir
// expected-error @+1 {{'t' is not written by one copy nest right before a node that only reads it, as stage_tile creates}}
dojo.kernel @unstage_not_copy {
  dojo.buffer x f32 [8, 8] heap in
  // expected-note @+1 {{declared here}}
  dojo.buffer t f32 [8, 8] stack
  dojo.buffer y f32 [8, 8] heap out
  dojo.scope 8 {
    dojo.scope 8 {
      dojo.leaf t[{0}, {1}] = x[{0}, {1}] * 2
    }
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = x[{0}, {1}] + t[{0}, {1}]
    }
  }
}

//--- unstage_order.mlir
// expected-error @+1 {{'unstage_tile x_t': 'x_t' is not written by one copy nest right before a node that only reads it, as stage_tile creates}}
dojo.kernel @unstage_order {
  // expected-note @+1 {{declared here}}
  dojo.buffer x f32 [8, 8] heap in
  dojo.buffer t f32 [8, 8] stack
  dojo.buffer y f32 [8, 8] heap out
  dojo.scope 8 {
    dojo.scope 8 {
      dojo.leaf t[{0}, {1}] = x[{0}, {1}] * 2
    }
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = x[{0}, {1}] + t[{0}, {1}]
    }
  }
}

//--- unstage_declared.mlir
// expected-error @+1 {{'x_t' is not declared right after 'x', as stage_tile declares it}}
dojo.kernel @unstage_declared {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer y f32 [4, 8] heap out
  // expected-note @+1 {{declared here}}
  dojo.buffer x_t f32 [1, 8] stack
  dojo.scope 4 {
    dojo.scope 1 {
      dojo.scope 8 {
        dojo.leaf x_t[{1}, {2}] = x[{0}+{1}, {2}]
      }
    }
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = x_t[0, {1}]
    }
  }
}

//--- unstage_not_tile.mlir
// expected-error @+1 {{'x_t' is not the tile stage_tile would stage (its extents or origin differ from what the node reads)}}
dojo.kernel @unstage_not_tile {
  dojo.buffer x f32 [4, 8] heap in
  // expected-note @+1 {{declared here}}
  dojo.buffer x_t f32 [1, 8] stack
  dojo.buffer y f32 [4, 4] heap out
  dojo.scope 4 {
    dojo.scope 1 {
      dojo.scope 8 {
        dojo.leaf x_t[{1}, {2}] = x[{0}+{1}, {2}]
      }
    }
    dojo.scope 4 {
      dojo.leaf y[{0}, {1}] = x_t[0, {1}]
    }
  }
}

//--- unstage_parallel.mlir
// expected-error @+1 {{'unstage_tile x_t': stage_tile could not stage the restored kernel back, so the move could not be undone}}
dojo.kernel @unstage_parallel {
  dojo.buffer x f32 [4, 8] heap in
  // expected-note @+1 {{declared here}}
  dojo.buffer x_t f32 [1, 8] stack
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4:p {
    dojo.scope 1 {
      dojo.scope 8 {
        dojo.leaf x_t[{1}, {2}] = x[{0}+{1}, {2}]
      }
    }
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = x_t[0, {1}]
    }
  }
}

//--- unstage_layout.mlir
// expected-error @+1 {{'unstage_tile x_t': 'x_t' is not stored as stage_tile stores a tile (alone in its buffer, no padding, no :N, heap, stack or reg)}}
dojo.kernel @unstage_layout {
  dojo.buffer x f32 [4, 8] heap in
  // expected-note @+1 {{declared here}}
  dojo.buffer x_t f32 [1, 8+4] stack
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.scope 1 {
      dojo.scope 8 {
        dojo.leaf x_t[{1}, {2}] = x[{0}+{1}, {2}]
      }
    }
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = x_t[0, {1}]
    }
  }
}
