// One case per rejection reason of pad_scope (lib/Moves/PadScope.cpp).
// Errors sit on the kernel, notes on the scope or leaf. Each case is its own
// file so that it carries its own request.
// RUN: rm -rf %t && split-file %s %t

//--- negative_leaf.mlir
// RUN: perfdojo-opt %t/negative_leaf.mlir --dojo-apply="pad_scope u@0 16" -verify-diagnostics

// expected-error @+1 {{'pad_scope u@0 16': u@0 is a leaf; pad_scope needs a scope}}
dojo.kernel @negative_leaf {
  dojo.buffer u f32 [] stack
  dojo.buffer y f32 [] heap out
  // expected-note @+1 {{the leaf}}
  dojo.leaf u[] = 1.0
  dojo.leaf y[] = u[]
}

//--- negative_mode.mlir
// RUN: perfdojo-opt %t/negative_mode.mlir --dojo-apply="pad_scope u@0 16" -verify-diagnostics

// expected-error @+1 {{'pad_scope u@0 16': the scope has a mode; pad_scope needs a plain scope (clear the mode first)}}
dojo.kernel @negative_mode {
  dojo.buffer u f32 [13+3] stack
  dojo.buffer y f32 [13] heap out
  // expected-note @+1 {{the scope}}
  dojo.scope 13:u {
    dojo.leaf u[{0}] = 1.0
  }
  dojo.scope 13 {
    dojo.leaf y[{0}] = u[{0}]
  }
}

//--- negative_not_larger.mlir
// RUN: perfdojo-opt %t/negative_not_larger.mlir --dojo-apply="pad_scope u@0 16" -verify-diagnostics

// expected-error @+1 {{'pad_scope u@0 16': new size 16 must be larger than the scope size 16}}
dojo.kernel @negative_not_larger {
  dojo.buffer u f32 [16] stack
  dojo.buffer y f32 [16] heap out
  // expected-note @+1 {{the scope}}
  dojo.scope 16 {
    dojo.leaf u[{0}] = 1.0
  }
  dojo.scope 16 {
    dojo.leaf y[{0}] = u[{0}]
  }
}

//--- negative_parallel_around.mlir
// RUN: perfdojo-opt %t/negative_parallel_around.mlir --dojo-apply="pad_scope u@1 16" -verify-diagnostics

// expected-error @+1 {{'pad_scope u@1 16': an enclosing scope has a parallel, vector or GPU mode; clear it first (P1)}}
dojo.kernel @negative_parallel_around {
  dojo.buffer u f32 [4, 13+3] stack
  dojo.buffer y f32 [4, 13] heap out
  // expected-note @+1 {{the scope with a mode}}
  dojo.scope 4:p {
    dojo.scope 13 {
      dojo.leaf u[{0}, {1}] = 1.0
    }
    dojo.scope 13 {
      dojo.leaf y[{0}, {1}] = u[{0}, {1}]
    }
  }
}

//--- negative_argument_bounds.mlir
// RUN: perfdojo-opt %t/negative_argument_bounds.mlir --dojo-apply="pad_scope u@0 16" -verify-diagnostics

// expected-error @+1 {{'pad_scope u@0 16': index {0} on dimension 0 of 'x' would leave the allocated extent 13 in the extra iterations (a kernel argument has no padding) (P2)}}
dojo.kernel @negative_argument_bounds {
  dojo.buffer x f32 [13] heap in
  dojo.buffer u f32 [13+3] stack
  dojo.buffer y f32 [13] heap out
  dojo.scope 13 {
    // expected-note @+1 {{this access}}
    dojo.leaf u[{0}] = x[{0}]
  }
  dojo.scope 13 {
    dojo.leaf y[{0}] = u[{0}]
  }
}

//--- negative_internal_bounds.mlir
// RUN: perfdojo-opt %t/negative_internal_bounds.mlir --dojo-apply="pad_scope u@0 16" -verify-diagnostics

// expected-error @+1 {{'pad_scope u@0 16': index {0} on dimension 0 of 'u' would leave the allocated extent 14 in the extra iterations (pad the dimension first) (P2)}}
dojo.kernel @negative_internal_bounds {
  dojo.buffer u f32 [13+1] stack
  dojo.buffer y f32 [13] heap out
  dojo.scope 13 {
    // expected-note @+1 {{this access}}
    dojo.leaf u[{0}] = 1.0
  }
  dojo.scope 13 {
    dojo.leaf y[{0}] = u[{0}]
  }
}

//--- negative_argument_write.mlir
// RUN: perfdojo-opt %t/negative_argument_write.mlir --dojo-apply="pad_scope u@0 16" -verify-diagnostics

// expected-error @+1 {{'pad_scope u@0 16': the extra iterations would write kernel argument 'y', which has no padding (P3)}}
dojo.kernel @negative_argument_write {
  dojo.buffer u f32 [13+3] stack
  dojo.buffer y f32 [] heap out
  dojo.scope 13 {
    dojo.leaf u[{0}] = 1.0
    // expected-note @+1 {{this leaf}}
    dojo.leaf y[] = u[{0}]
  }
}

//--- negative_logical_write.mlir
// RUN: perfdojo-opt %t/negative_logical_write.mlir --dojo-apply="pad_scope v@0 16" -verify-diagnostics

// The extra iterations write v[16..18], which are logical elements of v
// (its logical extent is 19), not padding.
// expected-error @+1 {{'pad_scope v@0 16': the extra iterations would write a logical element of 'v' in `v[{0}+3] = 2`; only padding may be written there (P3)}}
dojo.kernel @negative_logical_write {
  dojo.buffer v f32 [19+3] stack
  dojo.buffer y f32 [13] heap out
  dojo.scope 13 {
    // expected-note @+1 {{this leaf}}
    dojo.leaf v[{0}+3] = 2.0
  }
  dojo.scope 13 {
    dojo.leaf y[{0}] = v[{0}+3]
  }
}

//--- negative_padding_reaches_logical.mlir
// RUN: perfdojo-opt %t/negative_padding_reaches_logical.mlir --dojo-apply="pad_scope u@0 16" -verify-diagnostics

// y reads u[{0}+3], which reaches the padding u[13..15] that the extra
// iterations would fill, while writing a logical element of y.
// expected-error @+1 {{'pad_scope u@0 16': padding would reach logical data: `y[{0}] = u[{0}+3]` reads the padding of 'u' (index {0}+3 on dimension 0) while writing a logical element of 'y' (P4)}}
dojo.kernel @negative_padding_reaches_logical {
  dojo.buffer u f32 [13+3] stack
  dojo.buffer y f32 [13] heap out
  dojo.scope 13 {
    dojo.leaf u[{0}] = 1.0
  }
  dojo.scope 13 {
    // expected-note @+1 {{the read}}
    dojo.leaf y[{0}] = u[{0}+3]
  }
}

//--- negative_reads_unwritten.mlir
// RUN: perfdojo-opt %t/negative_reads_unwritten.mlir --dojo-apply="pad_scope m#1@0 12" -verify-diagnostics

// m_p has 17 logical rows of which only 9 are written: the extra
// iterations would read rows 9..11, which nothing writes (P5). (A state the
// move fuzzer and the learned agent reached, privatize_reduction having
// sized m_p by m's allocation.)
// expected-error @+1 {{'pad_scope m#1@0 12': the result reads m_p[9, 0] at {0}=9, {1}=0, which no earlier leaf writes (scratch buffers start undefined)}}
dojo.kernel @negative_reads_unwritten {
  dojo.buffer x f32 [9, 16] heap in
  dojo.buffer m f32 [9+8] stack
  // expected-note @+1 {{'m_p' is declared here}}
  dojo.buffer m_p f32 [17, 16] stack
  dojo.buffer y f32 [9] heap out
  dojo.scope 9 {
    dojo.leaf m[{0}] = -inf
    dojo.scope 16 {
      // expected-note @+1 {{writes 'm_p' here}}
      dojo.leaf m_p[{0}, {1}] = x[{0}, {1}]
    }
  }
  dojo.scope 9 {
    dojo.scope 16 {
      dojo.leaf m[{0}] max= m_p[{0}, {1}]
    }
  }
  dojo.scope 9 {
    dojo.leaf y[{0}] = m[{0}]
  }
}
