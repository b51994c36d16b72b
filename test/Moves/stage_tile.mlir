// stage_tile (lib/Moves/StageTile.cpp): a scope reads a staged copy of the
// one tile of an array it reads per execution. The kernel is a 16x16x16
// GEMM tiled as a GPU block runs it (Inputs/stage-tile/tile.moves): the
// node at depth 3 (one k tile of one 8x8 block) reads an 8x4 tile of a at
// ({0}*8, {2}*4) and a 4x8 tile of b at ({2}*4, {1}*8).
// RUN: rm -rf %t && mkdir -p %t
// RUN: perfdojo-opt %S/Inputs/stage-tile/gemm.mlir --dojo-apply="file=%S/Inputs/stage-tile/tile.moves" -o %t/tiled.mlir
// RUN: perfdojo-opt %t/tiled.mlir --dojo-apply="stage_tile a,c#1@3 1; stage_tile b,c#1@3 1" -o %t/staged.mlir
// RUN: FileCheck %s --input-file=%t/staged.mlir
//
// The interpreter gives the same outputs.
// RUN: perfdojo-run --engine=interp %S/Inputs/stage-tile/gemm.mlir | grep '^output' > %t/gemm.sum
// RUN: perfdojo-run --engine=interp %t/staged.mlir | grep '^output' > %t/staged.sum
// RUN: diff %t/gemm.sum %t/staged.sum
//
// unstage_tile restores the kernel, the last staging first (a_t's copy is
// right before b_t's, not before the node, until b_t is unstaged).
// RUN: perfdojo-opt %t/tiled.mlir > %t/tiled.orig
// RUN: perfdojo-opt %t/staged.mlir --dojo-apply="unstage_tile b_t; unstage_tile a_t" > %t/rt
// RUN: diff %t/tiled.orig %t/rt
//
// The move list offers the tiles (not the whole arrays, which are
// stage_region's), and unstage_tile on the result; the fuzzer's checks hold
// on every prefix of the staging.
// RUN: perfdojo-opt %t/tiled.mlir --dojo-list-moves -o /dev/null | FileCheck %s --check-prefix=LIST
// RUN: perfdojo-opt %t/staged.mlir --dojo-list-moves -o /dev/null | FileCheck %s --check-prefix=LIST-STAGED --implicit-check-not="unstage_tile a_t"
// RUN: echo "stage_tile a,c#1@3 1; stage_tile b,c#1@3 1" > %t/stage.moves
// RUN: perfdojo-fuzz-moves %t/tiled.mlir --script=%t/stage.moves | FileCheck %s --check-prefix=REPLAY
//
// The GPU mapping (Inputs/stage-tile/gpu.moves): the tiles in block-shared
// memory, filled by every thread of the block (one tile after the other,
// no barrier between the two: they share nothing), results unchanged.
// RUN: perfdojo-opt %t/tiled.mlir --dojo-apply="file=%S/Inputs/stage-tile/gpu.moves" -o %t/gpu.mlir
// RUN: FileCheck %s --check-prefix=GPU --input-file=%t/gpu.mlir
// RUN: perfdojo-run --engine=interp %t/gpu.mlir | grep '^output' > %t/gpu.sum
// RUN: diff %t/gemm.sum %t/gpu.sum
// RUN: perfdojo-opt %t/gpu.mlir --convert-dojo-to-gpu=chip=sm_90 -canonicalize | FileCheck %s --check-prefix=LOWERED
//
// With the output staged too (Inputs/stage-tile/*-staged-output.moves): the
// classic shared-memory GEMM, each thread's accumulators in its own
// registers across the k loop, then one store of its outputs.
// RUN: perfdojo-opt %S/Inputs/stage-tile/gemm.mlir --dojo-apply="file=%S/Inputs/stage-tile/tile-staged-output.moves" -o %t/tiled-output.mlir
// RUN: perfdojo-opt %t/tiled-output.mlir --dojo-apply="file=%S/Inputs/stage-tile/gpu-staged-output.moves" -o %t/gpu-output.mlir
// RUN: FileCheck %s --check-prefix=OUTPUT --input-file=%t/gpu-output.mlir
// RUN: perfdojo-run --engine=interp %t/gpu-output.mlir | grep '^output' > %t/gpu-output.sum
// RUN: diff %t/gemm.sum %t/gpu-output.sum
// RUN: perfdojo-opt %t/gpu-output.mlir --convert-dojo-to-gpu=chip=sm_90 -canonicalize | FileCheck %s --check-prefix=OUTPUT-LOWERED

// CHECK:      dojo.buffer a f32 [16, 16] heap in
// CHECK-NEXT: dojo.buffer a_t f32 [8, 4] stack
// CHECK-NEXT: dojo.buffer b f32 [16, 16] heap in
// CHECK-NEXT: dojo.buffer b_t f32 [4, 8] stack
// CHECK:        dojo.scope 8 {
// CHECK-NEXT:     dojo.scope 4 {
// CHECK-NEXT:       dojo.leaf a_t[{3}, {4}] = a[{0}*8+{3}, {2}*4+{4}]
// CHECK:        dojo.scope 4 {
// CHECK-NEXT:     dojo.scope 8 {
// CHECK-NEXT:       dojo.leaf b_t[{3}, {4}] = b[{2}*4+{3}, {1}*8+{4}]
// CHECK:        dojo.leaf c[{0}*8+{3}*2+{6}, {1}*8+{4}*2+{7}] += a_t[{3}*2+{6}, {5}] * b_t[{5}, {4}*2+{7}]

// LIST-DAG: stage_tile a,c#1@3 1
// LIST-DAG: stage_tile b,c#1@3 1
// LIST-DAG: stage_tile a,c#1@2 1
// LIST-NOT: stage_tile a,c#1@0

// LIST-STAGED: unstage_tile b_t

// REPLAY: script: all 2 moves legal; every prefix matches the original

// GPU:      dojo.buffer a_t f32 [8, 4] gpu_shared
// GPU:      dojo.buffer b_t f32 [4, 8] gpu_shared
// GPU:      dojo.scope 2:g {
// GPU-NEXT:   dojo.scope 2:g {
// GPU:            dojo.leaf a_t[{3}*4+{4}, {5}] = a[{0}*8+{3}*4+{4}, {2}*4+{5}]
// GPU:            dojo.leaf b_t[{3}, {4}*2+{5}] = b[{2}*4+{3}, {1}*8+{4}*2+{5}]
// GPU:            dojo.leaf c[{0}*8+{3}*2+{6}, {1}*8+{4}*2+{7}] += a_t[{3}*2+{6}, {5}] * b_t[{5}, {4}*2+{7}]

// LOWERED: memref.view %{{.*}} to memref<8x4xf32, #gpu.address_space<workgroup>>
// LOWERED: memref.view %{{.*}} to memref<4x8xf32, #gpu.address_space<workgroup>>
// LOWERED: scf.for
// LOWERED:   memref.store %{{.*}}, %view
// LOWERED-NOT: gpu.barrier
// LOWERED:   vector.store %{{.*}}, %view_0
// LOWERED:   gpu.barrier
// LOWERED:   memref.load %view
// LOWERED:   vector.load %view_0
// LOWERED:   gpu.barrier
// LOWERED: gpu.launch_func @gemm_device::@gemm_k0 blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1) dynamic_shared_memory_size %c256_i32

// OUTPUT:      dojo.buffer c_s f32 [2:N, 4, 2, 2:N, 4, 2] gpu_local
// OUTPUT:      dojo.leaf c_s[{0}, {2}, {4}, {1}, {3}, {5}] = 0
// OUTPUT:      dojo.leaf c_s[{0}, {3}, {6}, {1}, {4}, {7}] += a_t[{3}*2+{6}, {5}] * b_t[{5}, {4}*2+{7}]
// OUTPUT:      dojo.leaf c[{0}*8+{2}*2+{4}, {1}*8+{3}*2+{5}] = c_s[{0}, {2}, {4}, {1}, {3}, {5}]

// OUTPUT-LOWERED: memref.alloca() {alignment = 16 : i64} : memref<2x2xf32, #gpu.address_space<private>>
// OUTPUT-LOWERED: scf.for
// OUTPUT-LOWERED:   gpu.barrier
// OUTPUT-LOWERED:   vector.load %alloca
// OUTPUT-LOWERED:   vector.store %{{.*}}, %alloca
// OUTPUT-LOWERED:   gpu.barrier
// OUTPUT-LOWERED: vector.load %alloca
// OUTPUT-LOWERED: vector.store %{{.*}}, %arg2
