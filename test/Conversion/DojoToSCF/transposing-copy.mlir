// RUN: perfdojo-opt %s --split-input-file --convert-dojo-to-scf | FileCheck %s

// A transposing copy: `:u` scopes around an 8-lane `:v` copy that writes
// consecutive elements along its lanes and reads, along the unrolled
// variables, a run of consecutive source elements (3 x 8 = 24, three
// squares). Each lane's run is read from a flat view of the source one
// vector at a time, each 8 x 8 square is transposed in registers, and
// each row is stored as one vector.

// CHECK-LABEL: func.func @tc2(
// CHECK:         %[[FLAT:.*]] = memref.collapse_shape %arg0 {{\[\[}}0, 1]] : memref<16x24xf32> into memref<384xf32>
// CHECK-COUNT-8: vector.load %[[FLAT]][%{{.*}}] : memref<384xf32>, vector<8xf32>
// CHECK:         vector.transpose %{{.*}}, [1, 0] : vector<8x8xf32> to vector<8x8xf32>
// CHECK-COUNT-8: vector.store %{{.*}}, %arg1[%{{.*}}, %{{.*}}] : memref<24x16xf32>, vector<8xf32>
// CHECK-COUNT-8: vector.load %[[FLAT]]
// CHECK:         vector.transpose
// CHECK-COUNT-8: vector.store
// CHECK-COUNT-8: vector.load %[[FLAT]]
// CHECK:         vector.transpose
// CHECK-COUNT-8: vector.store
// CHECK-NOT:     vector.transpose
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

// -----

// 16 lanes move as two 8 x 8 squares side by side (a 16 x 16 square's
// shuffles measured slower than the lanes' gather on Zen 4): each square
// stores the first or the second half of its rows, 4 squares for the
// 16 x 16 run.

// CHECK-LABEL: func.func @tc3(
// CHECK:         %[[FLAT:.*]] = memref.collapse_shape %arg0 {{\[\[}}0, 1]] : memref<32x16xf32> into memref<512xf32>
// CHECK-COUNT-8: vector.load %[[FLAT]][%{{.*}}] : memref<512xf32>, vector<8xf32>
// CHECK:         vector.transpose %{{.*}}, [1, 0] : vector<8x8xf32> to vector<8x8xf32>
// CHECK-COUNT-8: vector.store %{{.*}}, %arg1[%{{.*}}, %{{.*}}] : memref<16x32xf32>, vector<8xf32>
// CHECK-COUNT-3: vector.transpose
// CHECK-NOT:     vector.transpose
  dojo.kernel @tc3 {
    dojo.buffer a f32 [32, 16] heap in
    dojo.buffer b f32 [16, 32] heap out
    dojo.scope 2 {
      dojo.scope 16:u {
        dojo.scope 16:v {
          dojo.leaf b[{1}, {0}*16+{2}] = a[{0}*16+{2}, {1}]
        }
      }
    }
  }

// -----

// Not a transposing copy: a run of 12 elements, not a whole number of
// 8 x 8 squares. It keeps lane-by-lane loads.

// CHECK-LABEL: func.func @tc5(
// CHECK-NOT:     memref.collapse_shape
// CHECK-NOT:     vector.transpose
// CHECK:         vector.from_elements
  dojo.kernel @tc5 {
    dojo.buffer a f32 [32, 16] heap in
    dojo.buffer c f32 [12, 32] heap out
    dojo.scope 4 {
      dojo.scope 12:u {
        dojo.scope 8:v {
          dojo.leaf c[{1}, {0}*8+{2}] = a[{0}*8+{2}, {1}]
        }
      }
    }
  }

// -----

// A transposing copy within one buffer stays lane by lane: a later row
// reads elements an earlier row wrote.

// CHECK-LABEL: func.func @tc4(
// CHECK-NOT:     memref.collapse_shape
// CHECK-NOT:     vector.transpose
// CHECK:         vector.from_elements
  dojo.kernel @tc4 {
    dojo.buffer a f32 [8, 8] heap inout
    dojo.scope 8:u {
      dojo.scope 8:v {
        dojo.leaf a[{0}, {1}] = a[{1}, {0}]
      }
    }
  }
