// set_ssr streams the operands of a dot product, set_frep repeats its
// inner scope; clear_mode and clear_ssr (the inverses) restore the exact
// input, and no move changes a result.
// RUN: perfdojo-opt %s --dojo-apply="set_ssr t#1@2 1 0; set_ssr t#1@2 2 0; set_frep t#1@0" | FileCheck %s
// RUN: perfdojo-opt %s > %t.orig
// RUN: perfdojo-opt %s --dojo-apply="set_ssr t#1@2 1 0; set_ssr t#1@2 2 0; set_frep t#1@0; clear_mode t#1@0; clear_ssr t#1@2 2; clear_ssr t#1@2 1" > %t.rt
// RUN: diff %t.orig %t.rt
// RUN: perfdojo-opt %s --dojo-apply="set_ssr t#1@2 1 0; set_ssr t#1@2 2 0; set_frep t#1@0" -o %t.moved.mlir
// RUN: perfdojo-run --engine=interp %s | grep '^output' > %t.sum.orig
// RUN: perfdojo-run --engine=interp %t.moved.mlir | grep '^output' > %t.sum.moved
// RUN: diff %t.sum.orig %t.sum.moved
// The streams and the FREP run on the Snitch model and match the reference:
// RUN: perfdojo-run --engine=snitch %t.moved.mlir | FileCheck %s --check-prefix=EXEC
// Listing offers set_ssr for every operand access outside registers and
// every depth around the leaf; set_frep only once the body streams.
// RUN: perfdojo-opt %s --dojo-list-moves | FileCheck %s --check-prefix=LIST
// RUN: perfdojo-opt %t.moved.mlir --dojo-list-moves | FileCheck %s --check-prefix=LIST-MOVED

// CHECK:      dojo.scope 32:f {
// CHECK-NEXT:   dojo.scope 4:u {
// CHECK-NEXT:     dojo.leaf t[{1}] += x[{0}, {1}]:s0 * y[{0}, {1}]:s0

// EXEC: matches the f64 reference
// EXEC: snitch: {{[0-9]+}} cycles

// LIST-NOT: set_frep
// LIST:     set_ssr t#1@2 1 0
// LIST-NEXT: set_ssr t#1@2 1 1
// LIST-NEXT: set_ssr t#1@2 2 0
// LIST-NEXT: set_ssr t#1@2 2 1
// LIST-NOT: set_frep
// LIST-NOT: set_ssr

// Inside the :f scope the streams cannot be cleared (the body would load
// from memory): clear_mode first.
// LIST-MOVED-NOT: clear_ssr
// LIST-MOVED: clear_mode t#1@0
// LIST-MOVED-NOT: clear_ssr

dojo.kernel @dot {
  dojo.buffer x f64 [32, 4] heap in
  dojo.buffer y f64 [32, 4] heap in
  dojo.buffer s f64 [1] heap out
  dojo.buffer t f64 [4] reg
  dojo.scope 4:u {
    dojo.leaf t[{0}] = 0
  }
  dojo.scope 32 {
    dojo.scope 4:u {
      dojo.leaf t[{1}] += x[{0}, {1}] * y[{0}, {1}]
    }
  }
  dojo.leaf s[0] = t[0] + t[1]
  dojo.leaf s[0] += t[2]
  dojo.leaf s[0] += t[3]
}
