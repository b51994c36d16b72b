// dojo-export-kernels writes each kernel as canonical `.dojo` text and
// names the hash dojo-apply-tuned finds it by; an unwritable directory is an
// error.
// RUN: rm -rf %t && perfdojo-opt %s --dojo-export-kernels=dir=%t -o /dev/null 2>&1 | FileCheck %s
// CHECK: remark: wrote {{.*}}scale.dojo (hash {{[0-9a-f]+}})
// CHECK: remark: wrote {{.*}}copy.dojo (hash {{[0-9a-f]+}})
// RUN: FileCheck %s --check-prefix=TEXT < %t/scale.dojo
// TEXT: 8 y[{0}] = x[{0}] * 2
// RUN: touch %t.file && not perfdojo-opt %s --dojo-export-kernels=dir=%t.file/sub -o /dev/null 2>&1 | FileCheck %s --check-prefix=DIR
// DIR: error: cannot create '{{.*}}.file/sub':

dojo.kernel @scale {
  dojo.buffer x f32 [8] heap in
  dojo.buffer y f32 [8] heap out
  dojo.scope 8 {
    dojo.leaf y[{0}] = x[{0}] * 2
  }
}
dojo.kernel @copy {
  dojo.buffer x f32 [8] heap in
  dojo.buffer y f32 [8] heap out
  dojo.scope 8 {
    dojo.leaf y[{0}] = x[{0}]
  }
}
