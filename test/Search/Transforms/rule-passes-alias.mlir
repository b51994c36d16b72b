// A vendor's alias names the chip it stands for in every tool, not only in
// perfdojo-search: `cuda` is sm_90, `rocm` gfx942 (TargetDescription::lookup).
// RUN: perfdojo-opt %s --dojo-heuristic=target=cuda > %t.cuda
// RUN: perfdojo-opt %s --dojo-heuristic=target=sm_90 > %t.sm_90
// RUN: diff %t.cuda %t.sm_90
// RUN: perfdojo-opt %s --dojo-heuristic=target=rocm > %t.rocm
// RUN: perfdojo-opt %s --dojo-heuristic=target=gfx942 > %t.gfx942
// RUN: diff %t.rocm %t.gfx942
// RUN: FileCheck %s < %t.cuda

// CHECK: dojo.scope {{[0-9]+}}:g
dojo.kernel @scale {
  dojo.buffer x f32 [4096] heap in
  dojo.buffer y f32 [4096] heap out
  dojo.scope 4096 {
    dojo.leaf y[{0}] = x[{0}] * 2
  }
}
