// RUN: perfdojo-opt %s --convert-dojo-to-scf | FileCheck %s --check-prefix=V64
// RUN: perfdojo-opt %s --convert-dojo-to-scf=vector-bytes=32 | FileCheck %s --check-prefix=V64
// RUN: perfdojo-opt %s --convert-dojo-to-scf=vector-bytes=16 | FileCheck %s --check-prefix=V16
// RUN: not perfdojo-opt %s --convert-dojo-to-scf=vector-bytes=0 2>&1 | FileCheck %s --check-prefix=ZERO

// The squares of a transposing copy are the CPU's compiled for: 8 x 8 f32
// with 32- or 64-byte vectors (three squares for the 8 x 24 run of each
// of the 2 outer iterations), 4 x 4 with 16-byte vectors (NEON, SSE,
// RVV's minimum): the 8 lanes are two squares side by side, the run six
// squares deep, twelve in all.

// V64-LABEL: func.func @tc2(
// V64-COUNT-3: vector.transpose %{{.*}}, [1, 0] : vector<8x8xf32> to vector<8x8xf32>
// V64-NOT:     vector.transpose

// V16-LABEL:    func.func @tc2(
// V16:          %[[FLAT:.*]] = memref.collapse_shape %arg0
// V16-COUNT-4:  vector.load %[[FLAT]][%{{.*}}] : memref<384xf32>, vector<4xf32>
// V16:          vector.transpose %{{.*}}, [1, 0] : vector<4x4xf32> to vector<4x4xf32>
// V16-COUNT-4:  vector.store %{{.*}}, %arg1[%{{.*}}, %{{.*}}] : memref<24x16xf32>, vector<4xf32>
// V16-COUNT-11: vector.transpose %{{.*}}, [1, 0] : vector<4x4xf32> to vector<4x4xf32>
// V16-NOT:      vector.transpose

// ZERO: error: convert-dojo-to-scf: vector-bytes must be positive, not 0

dojo.kernel @tc2 {
  dojo.buffer a f32 [16, 24] heap in
  dojo.buffer b f32 [24, 16] heap out
  dojo.scope 2 {
    dojo.scope 3:u {
      dojo.scope 8:u {
        dojo.scope 8:v {
          dojo.leaf b[{1}*8+{2}, {0}*8+{3}] = a[{0}*8+{3}, {1}*8+{2}]
        }
      }
    }
  }
}
