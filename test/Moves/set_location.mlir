// set_location b loc (lib/Moves/SetLocation.cpp): internal buffer b moves
// to location loc, written as its BufferLocation number (heap=0, stack=1,
// reg=2, gpu_shared=3, gpu_local=4, tcdm=5). The inverse moves it back.
// RUN: perfdojo-opt %s --dojo-apply="set_location t 1" | FileCheck %s --check-prefix=STACK
// RUN: perfdojo-opt %s --dojo-apply="set_location t 2; set_location s 0" | FileCheck %s --check-prefix=REG
// RUN: perfdojo-opt %s > %t.orig
// RUN: perfdojo-opt %s --dojo-apply="set_location t 1; set_location t 0" | diff %t.orig -
// RUN: perfdojo-opt %s --dojo-apply="set_location t 2; set_location t 0; set_location s 0; set_location s 1" | diff %t.orig -
//
// Locations change where storage lives, never values:
// RUN: perfdojo-translate --export-dojo %s > %t.dojo
// RUN: perfdojo-opt %s --dojo-apply="set_location t 2; set_location s 0" | perfdojo-translate --export-dojo > %t.moved.dojo
// RUN: perfdojo-run --engine=interp %t.dojo > %t.out
// RUN: perfdojo-run --engine=interp %t.moved.dojo >> %t.out
// RUN: FileCheck %s --check-prefix=INTERP < %t.out
//
// --dojo-list-moves offers heap, stack and reg (if the budget allows) for
// every internal buffer other than its own; u (2 x 64 elements) does not
// fit the 64-element register budget, while s does (its `:N` dimension
// counts once), and arguments never move. Registers also need every index
// known at compile time (B8): t and s are `:N` over the rows and s's
// columns are unrolled.
// RUN: perfdojo-opt %s --dojo-list-moves -o /dev/null | FileCheck %s --check-prefix=LIST

// STACK: dojo.buffer t f32 [8:N] stack
// STACK: dojo.buffer s f32 [8:N, 4] stack

// REG: dojo.buffer t f32 [8:N] reg
// REG: dojo.buffer s f32 [8:N, 4] heap

// INTERP: output y f32 [8]: sum [[SUM:[-+.0-9e]+]], l2 [[L2:[-+.0-9e]+]]
// INTERP: output y f32 [8]: sum [[SUM]], l2 [[L2]]

// The default target runs GPU modes: gpu_local (4) is offered too, and
// gpu_shared (3) nowhere, since no buffer here is private to the blocks of
// a `:g` scope (test/Moves/set_location-gpu.mlir).
// LIST-NOT: set_location x
// LIST:     set_location t 1
// LIST-NEXT: set_location t 2
// LIST-NEXT: set_location t 4
// LIST-NEXT: set_location s 0
// LIST-NEXT: set_location s 2
// LIST-NEXT: set_location s 4
// LIST-NEXT: set_location u 1
// LIST-NEXT: set_location u 4
// LIST-NOT: set_location
dojo.kernel @locations {
  dojo.buffer x f32 [8, 4] heap in
  dojo.buffer t f32 [8:N] heap
  dojo.buffer s f32 [8:N, 4] stack
  dojo.buffer u f32 [2, 64] heap
  dojo.buffer y f32 [8] heap out
  dojo.scope 2 {
    dojo.scope 64 {
      dojo.leaf u[{0}, {1}] = ({1})
    }
  }
  dojo.scope 8 {
    dojo.leaf t[{0}] = u[1, {0}]
    dojo.scope 4:u {
      dojo.leaf s[{0}, {1}] = x[{0}, {1}] * 2
      dojo.leaf t[{0}] += s[{0}, {1}]
    }
    dojo.leaf y[{0}] = t[{0}]
  }
}
