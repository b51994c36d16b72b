// Privatization by location (getPrivatizingScope, docs/moves.md section 5):
// a stack/reg/gpu_local temporary whose accesses all lie under one `:p`
// (or GPU thread) scope, with every read covered in the same iteration, is
// private to each iteration; a gpu_shared one is private to each block.
// Modes over such temporaries are legal, `:N` marks on them too, and the
// interpreter gives the same outputs.
// RUN: rm -rf %t && split-file %s %t
//
// Cutting the scope that writes a private row temporary keeps it private:
// the two parts cover the read together (coverReadTogether), the parts of a
// copy whose remainder was cut off (the GPU expert pass's halo tiles).
// RUN: perfdojo-opt %t/cut.mlir --dojo-apply="cut_scope t@1 4" | FileCheck %s --check-prefix=CUT
// RUN: perfdojo-opt %t/cut.mlir --dojo-apply="cut_scope t@1 4" -o %t/cut.moved.mlir
// RUN: perfdojo-run --engine=interp %t/cut.mlir | grep '^output' > %t/cut.sum
// RUN: perfdojo-run --engine=interp %t/cut.moved.mlir | grep '^output' > %t/cut.moved.sum
// RUN: diff %t/cut.sum %t/cut.moved.sum
//
// A row temporary without a row index: private per `:p` iteration (its
// scopes unrolled, so that it is addressable in registers).
// RUN: perfdojo-opt %t/row.mlir --dojo-apply="set_parallel t@0; set_unroll t@1; set_unroll y@1; set_location t 2" | FileCheck %s --check-prefix=ROW
// RUN: perfdojo-opt %t/row.mlir --dojo-apply="set_parallel t@0; set_unroll t@1; set_unroll y@1; set_location t 2" -o %t/row.moved.mlir
// RUN: perfdojo-run --engine=interp %t/row.mlir | grep '^output' > %t/row.sum
// RUN: perfdojo-run --engine=interp %t/row.moved.mlir | grep '^output' > %t/row.moved.sum
// RUN: diff %t/row.sum %t/row.moved.sum
// And the inverses restore the input.
// RUN: perfdojo-opt %t/row.mlir > %t/row.orig
// RUN: perfdojo-opt %t/row.mlir --dojo-apply="set_parallel t@0; set_unroll t@1; set_unroll y@1; set_location t 2; set_location t 1; clear_mode y@1; clear_mode t@1; clear_mode t@0" > %t/row.rt
// RUN: diff %t/row.orig %t/row.rt
//
// A scalar register accumulator, `:N` over the rows: the mark and the mode
// in either order (reuse_dims under an existing `:p` is post-verified),
// then the register (addressable once the row dimension is `:N`).
// RUN: perfdojo-opt %t/acc.mlir --dojo-apply="reuse_dims t.0; set_parallel t#0@0; set_location t 2" | FileCheck %s --check-prefix=ACC
// RUN: perfdojo-opt %t/acc.mlir --dojo-apply="set_parallel t#0@0; reuse_dims t.0; set_location t 2" | FileCheck %s --check-prefix=ACC
// RUN: perfdojo-opt %t/acc.mlir --dojo-apply="set_parallel t#0@0; reuse_dims t.0; set_location t 2" -o %t/acc.moved.mlir
// RUN: perfdojo-run --engine=interp %t/acc.mlir | grep '^output' > %t/acc.sum
// RUN: perfdojo-run --engine=interp %t/acc.moved.mlir | grep '^output' > %t/acc.moved.sum
// RUN: diff %t/acc.sum %t/acc.moved.sum
// The move list offers both; the fuzzer's checks hold on every prefix.
// RUN: perfdojo-opt %t/acc.mlir --dojo-apply="reuse_dims t.0" | perfdojo-opt --dojo-list-moves -o /dev/null | FileCheck %s --check-prefix=LIST
// RUN: echo "reuse_dims t.0; set_parallel t#0@0; set_location t 2" > %t/acc.moves
// RUN: perfdojo-fuzz-moves %t/acc.mlir --script=%t/acc.moves | FileCheck %s --check-prefix=REPLAY
//
// GPU: gpu_shared per block (the threads of one block share it; the phases
// are separate `:b` scopes), gpu_local per thread.
// RUN: perfdojo-opt %t/gpu.mlir --dojo-apply="set_gpu_grid t@0; set_gpu_block t@1; set_gpu_block y@1" | FileCheck %s --check-prefix=SHARED
// RUN: perfdojo-opt %t/gpu.mlir --dojo-apply="set_gpu_grid t@0; set_gpu_block t@1; set_gpu_block y@1" -o %t/gpu.moved.mlir
// RUN: perfdojo-run --engine=interp %t/gpu.mlir | grep '^output' > %t/gpu.sum
// RUN: perfdojo-run --engine=interp %t/gpu.moved.mlir | grep '^output' > %t/gpu.moved.sum
// RUN: diff %t/gpu.sum %t/gpu.moved.sum
// RUN: perfdojo-opt %t/local.mlir --dojo-apply="set_gpu_grid u@0; set_gpu_block u@1" | FileCheck %s --check-prefix=LOCAL
//
// Threads that own their elements across phases (Privatization::threadDims):
// t is indexed by the `:b` variable in both phases, so each thread keeps its
// own element from one phase to the next, and the grid dimension can be
// reused: one value per thread, a scalar alloca in the lowering, with no
// barrier between the phases (nothing they share is visible to other
// threads). The interpreter gives the same outputs.
// RUN: perfdojo-opt %t/owned.mlir --dojo-apply="set_gpu_grid t@0; set_gpu_block t@1; set_gpu_block y@1; set_location t 4; reuse_dims t.0" -o %t/owned.moved.mlir
// RUN: FileCheck %s --check-prefix=OWNED --input-file=%t/owned.moved.mlir
// RUN: perfdojo-run --engine=interp %t/owned.mlir | grep '^output' > %t/owned.sum
// RUN: perfdojo-run --engine=interp %t/owned.moved.mlir | grep '^output' > %t/owned.moved.sum
// RUN: diff %t/owned.sum %t/owned.moved.sum
// RUN: perfdojo-opt %t/owned.moved.mlir --convert-dojo-to-gpu=chip=sm_90 | FileCheck %s --check-prefix=OWNED-GPU

// CUT:      dojo.scope 4:p {
// CUT-NEXT:   dojo.scope 4 {
// CUT-NEXT:     dojo.leaf t[{1}] = x[{0}, {1}]
// CUT:        dojo.scope 4 {
// CUT-NEXT:     dojo.leaf t[{1}+4] = x[{0}, {1}+4]

// ROW:      dojo.buffer t f32 [8] reg
// ROW:      dojo.scope 4:p {
// ROW-NEXT:   dojo.scope 8:u {
// ROW-NEXT:     dojo.leaf t[{1}] = exp(x[{0}, {1}])
// ROW:        dojo.leaf y[{0}, {1}] = t[-{1}+7] * 2

// ACC:      dojo.buffer t f32 [4:N] reg
// ACC:      dojo.scope 4:p {
// ACC-NEXT:   dojo.leaf t[{0}] = 0

// LIST-DAG: set_parallel t#0@0
// LIST-DAG: set_location t 2

// REPLAY: walks=1 moves=3 mismatches=0 inverse-failures=0 illegal=0
// REPLAY: script: all 3 moves legal; every prefix matches the original

// SHARED:      dojo.buffer t f32 [8] gpu_shared
// SHARED:      dojo.scope 4:g {
// SHARED-NEXT:   dojo.scope 8:b {
// SHARED-NEXT:     dojo.leaf t[{1}] = x[{0}, {1}]
// SHARED:        dojo.scope 8:b {
// SHARED-NEXT:     dojo.leaf y[{0}, {1}] = t[-{1}+7] + 1

// LOCAL:      dojo.scope 4:g {
// LOCAL-NEXT:   dojo.scope 8:b {
// LOCAL-NEXT:     dojo.leaf u[] = x[{0}, {1}] * 2

// OWNED:      dojo.buffer t f32 [4:N, 8] gpu_local
// OWNED:      dojo.scope 4:g {
// OWNED-NEXT:   dojo.scope 8:b {
// OWNED-NEXT:     dojo.leaf t[{0}, {1}] = x[{0}, {1}] * 2
// OWNED:        dojo.scope 8:b {
// OWNED-NEXT:     dojo.leaf y[{0}, {1}] = t[{0}, {1}] + 1

// OWNED-GPU: memref.alloca() {alignment = 16 : i64} : memref<f32, #gpu.address_space<private>>
// OWNED-GPU-NOT: gpu.barrier
// OWNED-GPU: memref.load %alloca[] : memref<f32, #gpu.address_space<private>>

//--- cut.mlir
dojo.kernel @cut {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer t f32 [8] stack
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4:p {
    dojo.scope 8 {
      dojo.leaf t[{1}] = x[{0}, {1}]
    }
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = t[{1}] * 2
    }
  }
}

//--- row.mlir
dojo.kernel @row {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer t f32 [8] stack
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.scope 8 {
      dojo.leaf t[{1}] = exp(x[{0}, {1}])
    }
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = t[-{1}+7] * 2
    }
  }
}
//--- acc.mlir
dojo.kernel @acc {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer t f32 [4] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    dojo.leaf t[{0}] = 0
    dojo.scope 8 {
      dojo.leaf t[{0}] += x[{0}, {1}]
    }
    dojo.leaf y[{0}] = t[{0}] * 2
  }
}
//--- gpu.mlir
dojo.kernel @gpu {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer t f32 [8] gpu_shared
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.scope 8 {
      dojo.leaf t[{1}] = x[{0}, {1}]
    }
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = t[-{1}+7] + 1
    }
  }
}
//--- local.mlir
dojo.kernel @local {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer u f32 [] gpu_local
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.scope 8 {
      dojo.leaf u[] = x[{0}, {1}] * 2
      dojo.leaf y[{0}, {1}] = u[] + 1
    }
  }
}

//--- owned.mlir
dojo.kernel @owned {
  dojo.buffer x f32 [4, 8] heap in
  dojo.buffer t f32 [4, 8] heap
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4 {
    dojo.scope 8 {
      dojo.leaf t[{0}, {1}] = x[{0}, {1}] * 2
    }
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = t[{0}, {1}] + 1
    }
  }
}
