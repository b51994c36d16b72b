// Every mode move, then clear_mode restores the exact input.
// RUN: split-file %s %t
// RUN: perfdojo-opt %t/cpu.mlir --dojo-apply="split_scope y@1 16; set_vector y@2; set_unroll y@1; set_parallel y@0" | FileCheck %s --check-prefix=CPU
// RUN: perfdojo-opt %t/cpu.mlir > %t/cpu.orig
// RUN: perfdojo-opt %t/cpu.mlir --dojo-apply="set_parallel y@0; set_unroll y@1; clear_mode y@1; clear_mode y@0" > %t/cpu.rt
// RUN: diff %t/cpu.orig %t/cpu.rt
// RUN: perfdojo-opt %t/gpu.mlir --dojo-apply="set_gpu_grid y@0; set_gpu_block y@1; set_gpu_warp y@2" | FileCheck %s --check-prefix=GPU
// RUN: perfdojo-opt %t/gpu.mlir > %t/gpu.orig
// RUN: perfdojo-opt %t/gpu.mlir --dojo-apply="set_gpu_grid y@0; set_gpu_block y@1; set_gpu_warp y@2; clear_mode y@2; clear_mode y@1; clear_mode y@0" > %t/gpu.rt
// RUN: diff %t/gpu.orig %t/gpu.rt
// The modes change no result.
// RUN: perfdojo-opt %t/cpu.mlir --dojo-apply="split_scope y@1 16; set_vector y@2; set_unroll y@1; set_parallel y@0" -o %t/cpu.moved.mlir
// RUN: perfdojo-run --engine=interp %t/cpu.mlir | grep '^output' > %t/sum.orig
// RUN: perfdojo-run --engine=interp %t/cpu.moved.mlir | grep '^output' > %t/sum.moved
// RUN: diff %t/sum.orig %t/sum.moved

// CPU:      dojo.scope 8:p {
// CPU-NEXT:   dojo.scope 4:u {
// CPU-NEXT:     dojo.scope 16:v {
// CPU-NEXT:       dojo.leaf y[{0}, {1}*16+{2}] = exp(x[{0}, {1}*16+{2}])

// GPU:      dojo.scope 4:g {
// GPU-NEXT:   dojo.scope 8:b {
// GPU-NEXT:     dojo.scope 32:w {
// GPU-NEXT:       dojo.leaf y[{0}, {1}, {2}] = x[{0}, {1}, {2}] * 2

//--- cpu.mlir
dojo.kernel @cpu {
  dojo.buffer x f32 [8, 64] heap in
  dojo.buffer y f32 [8, 64] heap out
  dojo.scope 8 {
    dojo.scope 64 {
      dojo.leaf y[{0}, {1}] = exp(x[{0}, {1}])
    }
  }
}
//--- gpu.mlir
dojo.kernel @gpu {
  dojo.buffer x f32 [4, 8, 32] heap in
  dojo.buffer y f32 [4, 8, 32] heap out
  dojo.scope 4 {
    dojo.scope 8 {
      dojo.scope 32 {
        dojo.leaf y[{0}, {1}, {2}] = x[{0}, {1}, {2}] * 2
      }
    }
  }
}
