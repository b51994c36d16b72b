// set_nontemporal b and clear_nontemporal b (lib/Moves/SetNontemporal.cpp):
// a mark on an output buffer, which the CPU lowering turns into
// non-temporal vector stores. It changes no result, and the inverse gives
// the input back.
// RUN: rm -rf %t && split-file %s %t
// RUN: perfdojo-opt %t/relu.mlir --dojo-apply="set_nontemporal y" | FileCheck %t/relu.mlir
// RUN: perfdojo-opt %t/relu.mlir > %t/relu.orig
// RUN: perfdojo-opt %t/relu.mlir --dojo-apply="set_nontemporal y; clear_nontemporal y" | diff %t/relu.orig -
//
// Offered for the output a `:v` leaf writes, not for the one written lane by
// lane (legal there, but no store would stream) nor for the input.
// RUN: perfdojo-opt %t/relu.mlir --dojo-list-moves | FileCheck %t/relu.mlir --check-prefix=LIST
//
// The .dojo text spells the mark after the role, and reads it back.
// RUN: perfdojo-opt %t/relu.mlir --dojo-apply="set_nontemporal y" | perfdojo-translate --export-dojo > %t/relu.dojo
// RUN: FileCheck %t/relu.mlir --check-prefix=TEXT < %t/relu.dojo
// RUN: perfdojo-translate --import-dojo %t/relu.dojo | perfdojo-translate --export-dojo | diff %t/relu.dojo -
//
// Results are unchanged on one and two threads (the JIT's stores stream).
// RUN: perfdojo-run --engine=jit --reps=1 %t/relu.dojo | FileCheck %t/relu.mlir --check-prefix=RESULT
// RUN: perfdojo-run --engine=jit --reps=1 --threads=2 %t/relu.dojo | FileCheck %t/relu.mlir --check-prefix=RESULT

//--- relu.mlir
// CHECK: dojo.buffer y f32 [8, 64] heap out nontemporal
// CHECK: dojo.buffer z f32 [8, 3] heap out{{$}}

// LIST:     set_nontemporal y
// LIST-NOT: set_nontemporal

// TEXT: y f32 [8, 64] heap out nontemporal

// RESULT: output y f32 [8, 64]
// RESULT-NEXT: matches the f64 reference
// RESULT: output z f32 [8, 3]
// RESULT-NEXT: matches the f64 reference
dojo.kernel @relu {
  dojo.buffer x f32 [8, 64] heap in
  dojo.buffer y f32 [8, 64] heap out
  dojo.buffer z f32 [8, 3] heap out
  dojo.scope 8:p {
    dojo.scope 4 {
      dojo.scope 16:v {
        dojo.leaf y[{0}, {1}*16+{2}] = relu(x[{0}, {1}*16+{2}])
      }
    }
  }
  dojo.scope 8 {
    dojo.scope 3 {
      dojo.leaf z[{0}, {1}] = x[{0}, {1}]
    }
  }
}
