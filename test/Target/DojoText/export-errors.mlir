// RUN: perfdojo-translate --export-dojo %s -split-input-file -verify-diagnostics --no-implicit-module --allow-unregistered-dialect

// Export needs exactly one kernel: a kernel, or a module holding one.

// expected-error @below {{expected exactly one dojo.kernel, found 2}}
module {
  dojo.kernel @a {
    dojo.buffer y f32 [1] heap out
    dojo.leaf y[0] = 1
  }
  dojo.kernel @b {
    dojo.buffer y f32 [1] heap out
    dojo.leaf y[0] = 1
  }
}

// -----

// expected-error @below {{expected exactly one dojo.kernel, found 0}}
module {
}

// -----

// expected-error @below {{expected a dojo.kernel or a module holding one}}
"test.op"() : () -> ()
