// RUN: perfdojo-opt %s --dojo-to-llvm | FileCheck %s
// RUN: perfdojo-opt %s --dojo-to-llvm="approximate-math=false" | FileCheck %s --check-prefix=LIBM

// The whole CPU pipeline: the kernel becomes an LLVM function with one bare
// pointer per argument (the C ABI), the `:p` scope an OpenMP parallel
// region whose threads loop over their own iterations, calling the
// outlined body (internal, noalias pointers), the `:v`
// scope 16-wide vector code. With approximate-math (the
// default) exp is a polynomial in vector instructions; without it, the exp
// intrinsic that LLVM expands into libm calls.

// CHECK-LABEL: llvm.func internal @rowsum_par0(%{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: i64)
// CHECK:         llvm.alloca
// CHECK:         llvm.load %{{.*}} : !llvm.ptr -> vector<16xf32>
// CHECK-NOT:     llvm.intr.exp
// CHECK:         llvm.intr.vector.reduce.fadd{{.*}}fastmath<reassoc>
// CHECK-LABEL: llvm.func @rowsum(%{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias})
// CHECK:         omp.parallel
// CHECK-NOT:       omp.wsloop
// CHECK:           llvm.call @omp_get_thread_num()
// CHECK:           llvm.call @omp_get_num_threads()
// CHECK:           llvm.call @rowsum_par0
// CHECK-NOT:     memref.
// CHECK-NOT:     scf.

// LIBM-LABEL: llvm.func internal @rowsum_par0
// LIBM:         llvm.intr.exp(%{{.*}}) : (vector<16xf32>) -> vector<16xf32>
dojo.kernel @rowsum {
  dojo.buffer x f32 [8, 32] heap in
  dojo.buffer t f32 [8:N, 32] stack
  dojo.buffer s f32 [8] heap out
  dojo.scope 8:p {
    dojo.scope 2 {
      dojo.scope 16:v {
        dojo.leaf t[{0}, {1}*16+{2}] = exp(x[{0}, {1}*16+{2}])
      }
    }
    dojo.leaf s[{0}] = 0.0
    dojo.scope 2 {
      dojo.scope 16:v {
        dojo.leaf s[{0}] += t[{0}, {1}*16+{2}]
      }
    }
  }
}
