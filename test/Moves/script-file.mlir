// Move scripts from files: --dojo-apply=file=PATH and --dojo-check=file=PATH
// read one move per line or `;`-separated moves, `#` comments (a `#` right
// after a name is the selector `a#k`, not a comment); `moves=` runs after
// the file. perfdojo-translate --moves-to-transform reads the same syntax.
// RUN: rm -rf %t && split-file %s %t
// RUN: perfdojo-opt %t/kernel.mlir --dojo-apply=file=%t/fuse.moves | FileCheck %s
// RUN: perfdojo-opt %t/kernel.mlir --dojo-apply="file=%t/fuse.moves moves='set_parallel s#0@0'" | FileCheck %s --check-prefix=BOTH
// RUN: perfdojo-opt %t/kernel.mlir --dojo-check=file=%t/fuse.moves -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK-ONLY
// RUN: perfdojo-translate --moves-to-transform %t/fuse.moves | perfdojo-translate --transform-to-moves | FileCheck %s --check-prefix=TRANSFORM
// RUN: not perfdojo-opt %t/kernel.mlir --dojo-apply=file=%t/missing.moves 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not perfdojo-opt %t/kernel.mlir --dojo-apply=file=%t/bad.moves 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK:      dojo.scope 6 {
// CHECK-NEXT:   dojo.leaf s[{0}] = 0
// CHECK-NEXT:   dojo.scope 8 {
// CHECK-NEXT:     dojo.leaf s[{0}] += x[{0}, {1}]
// CHECK-NEXT:   }
// CHECK-NEXT:   dojo.scope 8:v {
// CHECK-NEXT:     dojo.leaf y[{0}, {1}] = x[{0}, {1}] / s[{0}]

// BOTH: dojo.scope 6:p {

// CHECK-ONLY: remark: 'join_scopes s#0@0' is legal
// CHECK-ONLY: remark: 'set_vector y@1' is legal

// TRANSFORM:      join_scopes s#0@0
// TRANSFORM-NEXT: set_vector y@1

// MISSING: error: cannot read move script '{{.*}}missing.moves'

// BAD: error: invalid move script '{{.*}}bad.moves': move parameter 'four' is not an integer

//--- fuse.moves
# Fuse the row loops, then vectorize the scaling.
join_scopes s#0@0   # the sum's row scope with the next one
set_vector y@1      # 8 f64: one 64-byte vector

//--- bad.moves
split_scope y@0 four

//--- kernel.mlir
dojo.kernel @rows {
  dojo.buffer x f64 [6, 8] heap in
  dojo.buffer s f64 [6] heap
  dojo.buffer y f64 [6, 8] heap out
  dojo.scope 6 {
    dojo.leaf s[{0}] = 0
    dojo.scope 8 {
      dojo.leaf s[{0}] += x[{0}, {1}]
    }
  }
  dojo.scope 6 {
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = x[{0}, {1}] / s[{0}]
    }
  }
}
