// RUN: perfdojo-opt %s --convert-dojo-to-scf --canonicalize | FileCheck %s

// A `nontemporal` output: its whole-vector stores are non-temporal; its
// scalar tail and the stores of other buffers stay ordinary. One full
// fence before the kernel returns makes the weakly ordered stores visible
// to the caller; the parallel body has none (the region's closing barrier
// orders them).

// CHECK-LABEL: func.func private @nt_par0(
// CHECK:         vector.store {{.*}} {nontemporal = true}
// CHECK-NOT:     llvm.fence
// CHECK:         return
// CHECK-LABEL: func.func @nt(
// CHECK:         scf.parallel
// CHECK:         memref.store
// CHECK-NOT:     nontemporal = true
// CHECK:         vector.store
// CHECK-NOT:     nontemporal = true
// CHECK:         llvm.fence seq_cst
// CHECK-NEXT:    return
dojo.kernel @nt {
  dojo.buffer x f32 [4, 36] heap in
  dojo.buffer y f32 [4, 36] heap out nontemporal
  dojo.buffer z f32 [4, 32] heap out
  dojo.scope 4:p {
    dojo.scope 2 {
      dojo.scope 16:v {
        dojo.leaf y[{0}, {1}*16+{2}] = relu(x[{0}, {1}*16+{2}])
      }
    }
  }
  dojo.scope 4 {
    dojo.scope 4 {
      dojo.leaf y[{0}, {1}+32] = x[{0}, {1}+32]
    }
    dojo.scope 2 {
      dojo.scope 16:v {
        dojo.leaf z[{0}, {1}*16+{2}] = x[{0}, {1}*16+{2}]
      }
    }
  }
}
