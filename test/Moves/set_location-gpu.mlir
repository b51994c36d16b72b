// RUN: perfdojo-opt %s --dojo-list-moves -o /dev/null | FileCheck %s --check-prefix=LIST
// RUN: perfdojo-opt %s --dojo-apply="set_location p 3" | FileCheck %s
// RUN: perfdojo-opt %s > %t.orig
// RUN: perfdojo-opt %s --dojo-apply="set_location p 3; set_location p 0" | diff %t.orig -

// A partial buffer private to the blocks of a `:g` scope (every access
// inside it, every read covered by a write of the same block) may live in
// block-shared memory; the GPU lowering makes it a view of the launch's
// dynamic shared memory (docs/gpu.md).

// LIST: set_location p 1
// LIST: set_location p 3
// LIST: set_location p 4

// CHECK: dojo.buffer p f32 [4, 16] gpu_shared
dojo.kernel @partials {
  dojo.buffer x f32 [4, 16] heap in
  dojo.buffer p f32 [4, 16] heap
  dojo.buffer y f32 [4] heap out
  dojo.scope 4:g {
    dojo.scope 16:b {
      dojo.leaf p[{0}, {1}] = x[{0}, {1}]
    }
    dojo.leaf y[{0}] = 0.0
    dojo.scope 16 {
      dojo.leaf y[{0}] += p[{0}, {1}]
    }
  }
}
