// RUN: perfdojo-opt %s --split-input-file --convert-dojo-to-scf --canonicalize --cse | FileCheck %s

// `:p` becomes scf.parallel calling the scope's body, outlined into a
// private function whose memrefs are noalias (the OpenMP lowering would
// otherwise hide that kernel buffers never alias). The stack temporary
// whose accesses all lie under the scope, at addresses independent of its
// variable, is allocated in that function: one copy per iteration (per
// thread once inlined). `:v` becomes vector operations of the scope's
// width: contiguous lanes load and store vectors, a reduction into one
// element becomes a reassociating vector.reduction.

// CHECK-LABEL: func.func private @rowsum_par0(
// CHECK-SAME:      %[[X:.*]]: memref<8x32xf32> {llvm.noalias}, %[[S:.*]]: memref<8xf32> {llvm.noalias}, %[[I:.*]]: index)
// CHECK-SAME:      attributes {llvm.linkage = #llvm.linkage<internal>}
// CHECK:         %[[T:.*]] = memref.alloca() {alignment = 64 : i64} : memref<32xf32>
// CHECK:         scf.for %[[J:.*]] =
// CHECK:           %[[OFF:.*]] = arith.muli %[[J]], %{{.*}} : index
// CHECK:           %[[V:.*]] = vector.load %[[X]][%[[I]], %[[OFF]]] : memref<8x32xf32>, vector<16xf32>
// CHECK:           %[[E:.*]] = math.exp %[[V]] : vector<16xf32>
// CHECK:           vector.store %[[E]], %[[T]][%[[OFF]]] : memref<32xf32>, vector<16xf32>
// CHECK:         memref.store %{{.*}}, %[[S]][%[[I]]]
// CHECK:         scf.for %[[J:.*]] =
// CHECK:           %[[W:.*]] = vector.load %[[T]]
// CHECK:           %[[R:.*]] = vector.reduction <add>, %[[W]] fastmath<reassoc> : vector<16xf32> into f32
// CHECK:           %[[OLD:.*]] = memref.load %[[S]][%[[I]]]
// CHECK:           %[[NEW:.*]] = arith.addf %[[OLD]], %[[R]]
// CHECK:           memref.store %[[NEW]], %[[S]][%[[I]]]
// CHECK-LABEL: func.func @rowsum(
// CHECK-SAME:      %[[X:.*]]: memref<8x32xf32> {llvm.noalias}, %[[S:.*]]: memref<8xf32> {llvm.noalias})
// CHECK:         scf.parallel (%[[I:.*]]) =
// CHECK-NEXT:      func.call @rowsum_par0(%[[X]], %[[S]], %[[I]])
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

// -----

// A heap temporary is never privatized: it is allocated once at entry and
// passed to the outlined body. A stack temporary under the `:p` scope whose
// reads are covered in each iteration is private (the moves' rule,
// Analysis/Privatization.h), even though its index already separates the
// iterations: it is allocated in the body.

// CHECK-LABEL: func.func private @shared_temporaries_par0(
// CHECK-SAME:      %[[X:[^:]*]]: memref<4xf32> {llvm.noalias}, %[[H:[^:]*]]: memref<4xf32> {llvm.noalias}, %[[Y:[^:]*]]: memref<4xf32> {llvm.noalias}, %[[I:[^:]*]]: index)
// CHECK:         %[[T:.*]] = memref.alloca() {alignment = 64 : i64} : memref<4xf32>
// CHECK:         memref.store %{{.*}}, %[[H]][%[[I]]]
// CHECK:         memref.store %{{.*}}, %[[T]][%[[I]]]
// CHECK-LABEL: func.func @shared_temporaries(
// CHECK:         %[[H:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NOT:     memref.alloca
// CHECK:         scf.parallel (%[[I:.*]]) =
// CHECK-NEXT:      func.call @shared_temporaries_par0(%{{.*}}, %[[H]], %{{.*}}, %[[I]])
dojo.kernel @shared_temporaries {
  dojo.buffer x f32 [4] heap in
  dojo.buffer h f32 [4] heap
  dojo.buffer t f32 [4] stack
  dojo.buffer y f32 [4] heap out
  dojo.scope 4:p {
    dojo.leaf h[{0}] = x[{0}]
    dojo.leaf t[{0}] = h[{0}]
    dojo.leaf y[{0}] = t[{0}]
  }
}

// -----

// `:u` repeats the body with constant indices; a lane-uniform operand is
// broadcast, a strided one gathered lane by lane, a reduction into one
// element uses vector.reduction, and index values become vectors of lane
// indices. A lane-uniform plain write keeps the last lane (here folded to
// the load of x[1, 7-7]).

// CHECK-LABEL: func.func @unroll_and_lanes(
// CHECK-SAME:      %[[X:.*]]: memref<2x8xf32> {llvm.noalias}, %[[B:.*]]: memref<2xf32> {llvm.noalias}, %[[Y:.*]]: memref<2x8xf32> {llvm.noalias}, %[[L:.*]]: memref<2xf32> {llvm.noalias})
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[B0:.*]] = memref.load %[[B]][%[[C0]]]
// CHECK:         vector.broadcast %[[B0]] : f32 to vector<8xf32>
// CHECK:         vector.step : vector<8xindex>
// CHECK:         vector.store %{{.*}}, %[[Y]][%[[C0]], %[[C0]]]
// CHECK:         vector.from_elements
// CHECK:         vector.reduction <maxnumf>
// CHECK:         arith.cmpf olt
// CHECK:         memref.store %{{.*}}, %[[L]][%[[C0]]]
// CHECK:         %[[LAST:.*]] = memref.load %[[X]][%[[C1]], %[[C0]]]
// CHECK:         memref.store %[[LAST]], %[[L]][%[[C0]]]
// CHECK:         %[[B1:.*]] = memref.load %[[B]][%[[C1]]]
// CHECK:         vector.store %{{.*}}, %[[Y]][%[[C1]], %[[C0]]]
dojo.kernel @unroll_and_lanes {
  dojo.buffer x f32 [2, 8] heap in
  dojo.buffer b f32 [2] heap in
  dojo.buffer y f32 [2, 8] heap out
  dojo.buffer l f32 [2] heap out
  dojo.scope 2:u {
    dojo.scope 8:v {
      dojo.leaf y[{0}, {1}] = b[{0}] + ({1}*2)
    }
    dojo.leaf l[{0}] = -inf
    dojo.scope 8:v {
      dojo.leaf l[{0}] max= x[1-{0}, 7-{1}]
    }
    dojo.scope 8:v {
      dojo.leaf l[{0}] = x[1-{0}, 7-{1}]
    }
  }
}
