// One case per rejection reason of unpad_scope (lib/Moves/PadScope.cpp);
// the location and mode checks are those of pad_scope. Errors sit on the
// kernel, notes on the scope or leaf. Each case is its own file so that it
// carries its own request.
// RUN: rm -rf %t && split-file %s %t

//--- negative_range.mlir
// RUN: perfdojo-opt %t/negative_range.mlir --dojo-apply="unpad_scope u@0 16" -verify-diagnostics

// expected-error @+1 {{'unpad_scope u@0 16': new size 16 must lie between 1 and 15, below the scope size 16}}
dojo.kernel @negative_range {
  dojo.buffer u f32 [13+3] stack
  dojo.buffer y f32 [13] heap out
  // expected-note @+1 {{the scope}}
  dojo.scope 16 {
    dojo.leaf u[{0}] = 1.0
  }
  dojo.scope 13 {
    dojo.leaf y[{0}] = u[{0}]
  }
}

//--- negative_argument_write.mlir
// RUN: perfdojo-opt %t/negative_argument_write.mlir --dojo-apply="unpad_scope y@0 13" -verify-diagnostics

// expected-error @+1 {{'unpad_scope y@0 13': the removed iterations would write kernel argument 'y', which has no padding (P3)}}
dojo.kernel @negative_argument_write {
  dojo.buffer y f32 [16] heap out
  dojo.scope 16 {
    // expected-note @+1 {{this leaf}}
    dojo.leaf y[{0}] = 1.0
  }
}

//--- negative_logical_write.mlir
// RUN: perfdojo-opt %t/negative_logical_write.mlir --dojo-apply="unpad_scope u@0 13" -verify-diagnostics

// u has 16 logical elements: the iterations 13 to 15 write logical data.
// expected-error @+1 {{'unpad_scope u@0 13': the removed iterations would write a logical element of 'u' in `u[{0}] = 1`; only padding may be written there (P3)}}
dojo.kernel @negative_logical_write {
  dojo.buffer u f32 [16+4] stack
  dojo.buffer y f32 [16] heap out
  dojo.scope 16 {
    // expected-note @+1 {{this leaf}}
    dojo.leaf u[{0}] = 1.0
  }
  dojo.scope 16 {
    dojo.leaf y[{0}] = u[{0}]
  }
}

//--- negative_padding_reaches_logical.mlir
// RUN: perfdojo-opt %t/negative_padding_reaches_logical.mlir --dojo-apply="unpad_scope u@0 13" -verify-diagnostics

// The iterations 13 to 15 write the padding u[13..15], and y reads it:
// removing them would change y.
// expected-error @+1 {{'unpad_scope u@0 13': padding would reach logical data: `y[{0}] = u[{0}+3]` reads the padding of 'u' (index {0}+3 on dimension 0) while writing a logical element of 'y' (P4)}}
dojo.kernel @negative_padding_reaches_logical {
  dojo.buffer u f32 [13+3] stack
  dojo.buffer y f32 [13] heap out
  dojo.scope 16 {
    dojo.leaf u[{0}] = ({0})
  }
  dojo.scope 13 {
    // expected-note @+1 {{the read}}
    dojo.leaf y[{0}] = u[{0}+3]
  }
}
