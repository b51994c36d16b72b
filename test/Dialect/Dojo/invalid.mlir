// RUN: perfdojo-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the dojo dialect: the op verifiers and the
// kernel's region verifier (DojoVerifier.cpp), the custom assembly
// (DojoOps.cpp, the grammar of TextSyntax.h) and the attribute parsers
// (DojoDialect.cpp). Cases that need what the custom assembly cannot spell
// use the generic form.

//===----------------------------------------------------------------------===//
// dojo.buffer
//===----------------------------------------------------------------------===//

dojo.kernel @negative_buffer_name_not_identifier {
  // expected-error @below {{'dojo.buffer' op buffer name 'inf' is not an identifier ([A-Za-z_][A-Za-z0-9_]*, not 'inf' or 'nan')}}
  dojo.buffer inf f32 [4] heap
}

// -----

dojo.kernel @negative_buffer_element_type {
  // expected-error @below {{'dojo.buffer' op element type 'i128' is not supported; expected f16, bf16, f32, f64, i8, i16, i32, i64 or bool}}
  dojo.buffer x i128 [4] heap
}

// -----

dojo.kernel @negative_buffer_element_type_unsigned {
  // expected-error @below {{'dojo.buffer' op element type 'ui8' is not supported; expected f16, bf16, f32, f64, i8, i16, i32, i64 or bool}}
  dojo.buffer x ui8 [4] heap
}

// -----

dojo.kernel @negative_buffer_flags_per_dimension {
  // expected-error @below {{'dojo.buffer' op padding and reuse flags must have one entry per dimension (1)}}
  "dojo.buffer"() <{arrays = [], element_type = f32, location = 0 : i32, name = "x", padding = array<i64>, reused = array<i1: false>, role = 0 : i32, shape = array<i64: 4>}> : () -> ()
}

// -----

dojo.kernel @negative_buffer_dimension_size {
  // expected-error @below {{'dojo.buffer' op dimension 1 has size 0; sizes must be >= 1}}
  dojo.buffer x f32 [4, 0] heap
}

// -----

// The location budgets are rules of the IR (TargetDescription::getDefault):
// 1 MiB of stack, 64 register elements.
dojo.kernel @negative_buffer_stack_budget {
  // expected-error @below {{'dojo.buffer' op does not fit its location: 't' would allocate 4000000 bytes, over the stack budget of 1048576 bytes}}
  dojo.buffer t f32 [1000000] stack
}

// -----

dojo.kernel @negative_buffer_register_budget {
  // expected-error @below {{'dojo.buffer' op does not fit its location: 't' would allocate 65 elements, over the register budget of 64 elements}}
  dojo.buffer t f32 [65] reg
}

// -----

dojo.kernel @negative_buffer_storage_overflow {
  // expected-error @below {{'dojo.buffer' op the storage of 't' overflows 64-bit byte offsets}}
  dojo.buffer t f32 [100000000000, 100000000000] heap
}

// -----

dojo.kernel @negative_buffer_padding_overflow {
  // expected-error @below {{'dojo.buffer' op dimension 0 of 't' overflows 64-bit integers with its padding}}
  dojo.buffer t f32 [4+9223372036854775807] heap
}

// -----

dojo.kernel @negative_buffer_negative_padding {
  // expected-error @below {{'dojo.buffer' op dimension 0 has negative padding -1}}
  "dojo.buffer"() <{arrays = [], element_type = f32, location = 0 : i32, name = "x", padding = array<i64: -1>, reused = array<i1: false>, role = 0 : i32, shape = array<i64: 4>}> : () -> ()
}

// -----

dojo.kernel @negative_argument_not_materialized {
  // expected-error @below {{'dojo.buffer' op dimension 0 of argument buffer 'x' cannot be non-materialized (:N): the caller owns its storage}}
  dojo.buffer x f32 [4:N] heap in
}

// -----

dojo.kernel @negative_argument_padded {
  // expected-error @below {{'dojo.buffer' op dimension 1 of argument buffer 'y' cannot be padded: the caller owns its layout}}
  dojo.buffer y f32 [4, 4+1] heap out
}

// -----

dojo.kernel @negative_nontemporal_input {
  // expected-error @below {{'dojo.buffer' op buffer 'x' cannot be nontemporal: only an 'out' or 'inout' buffer on the heap is written past the caches}}
  dojo.buffer x f32 [4] heap in nontemporal
}

// -----

dojo.kernel @negative_nontemporal_stack {
  // expected-error @below {{'dojo.buffer' op buffer 'y' cannot be nontemporal: only an 'out' or 'inout' buffer on the heap is written past the caches}}
  dojo.buffer y f32 [4] stack out nontemporal
}

// -----

dojo.kernel @negative_argument_shared_arrays {
  // expected-error @below {{'dojo.buffer' op argument buffer 'x' cannot hold shared arrays ('->')}}
  dojo.buffer x f32 [4] heap inout -> a, b
}

// -----

dojo.kernel @negative_array_name_not_identifier {
  // expected-error @below {{'dojo.buffer' op array name 'a.b' is not an identifier}}
  dojo.buffer t f32 [4] heap -> a.b
}

// -----

//===----------------------------------------------------------------------===//
// dojo.scope
//===----------------------------------------------------------------------===//

dojo.kernel @negative_scope_size {
  dojo.buffer y f32 [4] heap out
  // expected-error @below {{'dojo.scope' op scope size must be at least 1, got 0}}
  dojo.scope 0 {
    dojo.leaf y[0] = 1
  }
}

// -----

dojo.kernel @negative_scope_empty {
  dojo.buffer y f32 [4] heap
  // expected-error @below {{'dojo.scope' op scope has no children}}
  dojo.scope 4 {
  }
}

// -----

dojo.kernel @negative_vector_not_innermost {
  dojo.buffer y f32 [4, 8] heap out
  // expected-error @below {{'dojo.scope' op a :v (vector) scope must hold exactly one leaf and nothing else}}
  dojo.scope 4:v {
    dojo.scope 8 {
      dojo.leaf y[{0}, {1}] = 1
    }
  }
}

// -----

dojo.kernel @negative_parallel_in_gpu {
  dojo.buffer y f32 [4, 8] heap out
  // expected-note @below {{the enclosing scope}}
  dojo.scope 4:g {
    // expected-error @below {{'dojo.scope' op a :p (parallel) scope cannot be nested in a :g (GPU grid) scope}}
    dojo.scope 8:p {
      dojo.leaf y[{0}, {1}] = 1
    }
  }
}

// -----

dojo.kernel @negative_unroll_encloses_parallel {
  dojo.buffer y f32 [4, 8] heap out
  // expected-note @below {{the enclosing scope}}
  dojo.scope 4:u {
    // expected-error @below {{'dojo.scope' op a :p (parallel) scope cannot be nested in a :u (unrolled) scope}}
    dojo.scope 8:p {
      dojo.leaf y[{0}, {1}] = 1
    }
  }
}

// -----

dojo.kernel @negative_grid_in_block {
  dojo.buffer y f32 [2, 4, 8] heap out
  dojo.scope 2:g {
    // expected-note @below {{the enclosing scope}}
    dojo.scope 4:b {
      // expected-error @below {{'dojo.scope' op a :g (GPU grid) scope cannot be nested in a :b (GPU block) scope}}
      dojo.scope 8:g {
        dojo.leaf y[{0}, {1}, {2}] = 1
      }
    }
  }
}

// -----

dojo.kernel @negative_block_outside_grid {
  dojo.buffer y f32 [4] heap out
  // expected-error @below {{'dojo.scope' op a :b (GPU block) scope must be nested in a :g (GPU grid) scope}}
  dojo.scope 4:b {
    dojo.leaf y[{0}] = 1
  }
}

// -----

dojo.kernel @negative_block_in_warp {
  dojo.buffer y f32 [2, 4, 8, 2] heap out
  dojo.scope 2:g {
    dojo.scope 4:b {
      // expected-note @below {{the enclosing scope}}
      dojo.scope 8:w {
        // expected-error @below {{'dojo.scope' op a :b (GPU block) scope cannot be nested in a :w (GPU warp) scope}}
        dojo.scope 2:b {
          dojo.leaf y[{0}, {1}, {2}, {3}] = 1
        }
      }
    }
  }
}

// -----

dojo.kernel @negative_warp_outside_block {
  dojo.buffer y f32 [4, 8] heap out
  dojo.scope 4:g {
    // expected-error @below {{'dojo.scope' op a :w (GPU warp) scope must be nested in a :b (GPU block) scope}}
    dojo.scope 8:w {
      dojo.leaf y[{0}, {1}] = 1
    }
  }
}

// -----

// Unrolled code and thread blocks have upper bounds in the IR.
dojo.kernel @negative_unroll_limit {
  dojo.buffer y f32 [100000] heap out
  // expected-error @below {{'dojo.scope' op scope size 100000 exceeds the unroll limit 64}}
  dojo.scope 100000:u {
    dojo.leaf y[{0}] = 1
  }
}

// -----

dojo.kernel @negative_block_size {
  dojo.buffer y f32 [2, 2048] heap out
  dojo.scope 2:g {
    // expected-error @below {{'dojo.scope' op scope size 2048 exceeds 1024 threads per block}}
    dojo.scope 2048:b {
      dojo.leaf y[{0}, {1}] = 1
    }
  }
}

// -----

//===----------------------------------------------------------------------===//
// dojo.leaf
//===----------------------------------------------------------------------===//

dojo.kernel @negative_index_not_linear {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op index 0 of output 'y' is not a sum of constants and constant multiples of {k}}}
    "dojo.leaf"() <{array = "y", indices = affine_map<(d0) -> (d0 floordiv 2)>, inputs = [1.0], kind = 0 : i32, reduce = 0 : i32}> : () -> ()
  }
}

// -----

dojo.kernel @negative_output_index_depth {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op index 0 of output 'y' uses {1} but the leaf is nested in 1 scope(s)}}
    dojo.leaf y[{1}] = 1
  }
}

// -----

dojo.kernel @negative_operand_index_depth {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y f32 [4] heap out
  // expected-error @below {{'dojo.leaf' op index 0 of operand 'x' uses {0} but the leaf is nested in 0 scope(s)}}
  dojo.leaf y[0] = x[{0}]
}

// -----

dojo.kernel @negative_index_value_depth {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op index 0 of index value operand 1 uses {2} but the leaf is nested in 1 scope(s)}}
    dojo.leaf y[{0}] = 1 + ({0}+{2})
  }
}

// -----

dojo.kernel @negative_arity {
  dojo.buffer y f32 [4] heap out
  // expected-error @below {{'dojo.leaf' op operation 'add' takes 2 operand(s) but the leaf has 1}}
  "dojo.leaf"() <{array = "y", indices = affine_map<() -> (0)>, inputs = [1.0], kind = 1 : i32, reduce = 0 : i32}> : () -> ()
}

// -----

dojo.kernel @negative_constant_nan {
  dojo.buffer y f32 [4] heap out
  // expected-error @below {{'dojo.leaf' op constant operand 0 is NaN}}
  "dojo.leaf"() <{array = "y", indices = affine_map<() -> (0)>, inputs = [0x7FF8000000000000 : f64], kind = 0 : i32, reduce = 0 : i32}> : () -> ()
}

// -----

dojo.kernel @negative_operand_kind {
  dojo.buffer y f32 [4] heap out
  // expected-error @below {{'dojo.leaf' op operand 0 must be an access, a constant or an index value}}
  "dojo.leaf"() <{array = "y", indices = affine_map<() -> (0)>, inputs = ["y"], kind = 0 : i32, reduce = 0 : i32}> : () -> ()
}

// -----

// Constants are values of the statement's type (docs/ir.md, "Numbers").
dojo.kernel @negative_integer_constant_fraction {
  dojo.buffer x i32 [4] heap in
  dojo.buffer y i32 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op constant operand 1 (0.5) is not an integer, as the statement computes in 'i32'}}
    dojo.leaf y[{0}] = x[{0}] * 0.5
  }
}

// -----

dojo.kernel @negative_integer_constant_infinity {
  dojo.buffer x i32 [4] heap in
  dojo.buffer y i32 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op constant operand 1 (inf) is not an integer, as the statement computes in 'i32'}}
    dojo.leaf y[{0}] = x[{0}] * inf
  }
}

// -----

dojo.kernel @negative_integer_constant_range {
  dojo.buffer x i8 [4] heap in
  dojo.buffer y i8 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op constant operand 1 (128) is out of the range of 'i8'}}
    dojo.leaf y[{0}] = x[{0}] + 128
  }
}

// -----

dojo.kernel @negative_integer_division_by_zero {
  dojo.buffer x i32 [4] heap in
  dojo.buffer y i32 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op divides by the constant 0 in 'i32', which has no value}}
    dojo.leaf y[{0}] = x[{0}] / 0
  }
}

// -----

dojo.kernel @negative_i16_constant_range {
  dojo.buffer x i16 [4] heap in
  dojo.buffer y i16 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op constant operand 1 (-32769) is out of the range of 'i16'}}
    dojo.leaf y[{0}] = x[{0}] + -32769
  }
}

// -----

// 2^63 is the first double beyond the range of i64.
dojo.kernel @negative_i64_constant_range {
  dojo.buffer y i64 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op constant operand 0 (9223372036854775808) is out of the range of 'i64'}}
    dojo.leaf y[{0}] = 9223372036854775808
  }
}

// -----

dojo.kernel @negative_bool_constant_range {
  dojo.buffer y bool [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op constant operand 0 (2) is out of the range of 'bool'}}
    dojo.leaf y[{0}] = 2
  }
}

// -----

dojo.kernel @negative_bool_constant_negative {
  dojo.buffer y bool [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op constant operand 0 (-1) is out of the range of 'bool'}}
    dojo.leaf y[{0}] = -1
  }
}

// -----

// Statements have a value in their element type (docs/ir.md, "Numbers";
// ElementTypes.h).
dojo.kernel @negative_integer_exp {
  dojo.buffer x i32 [4] heap in
  dojo.buffer y i32 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op 'exp' needs a floating-point element type, but the statement computes in 'i32'}}
    dojo.leaf y[{0}] = exp(x[{0}])
  }
}

// -----

dojo.kernel @negative_integer_sigmoid {
  dojo.buffer x i64 [4] heap in
  dojo.buffer y i64 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op 'sigmoid' needs a floating-point element type, but the statement computes in 'i64'}}
    dojo.leaf y[{0}] = sigmoid(x[{0}])
  }
}

// -----

dojo.kernel @negative_integer_sin {
  dojo.buffer x i16 [4] heap in
  dojo.buffer y i16 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op 'sin' needs a floating-point element type, but the statement computes in 'i16'}}
    dojo.leaf y[{0}] = sin(x[{0}])
  }
}

// -----

// Integers are their own floor, ceil and round: the roundings are float
// functions only, as ONNX defines them.
dojo.kernel @negative_integer_floor {
  dojo.buffer x i32 [4] heap in
  dojo.buffer y i32 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op 'floor' needs a floating-point element type, but the statement computes in 'i32'}}
    dojo.leaf y[{0}] = floor(x[{0}])
  }
}

// -----

dojo.kernel @negative_bool_sign {
  dojo.buffer x bool [4] heap in
  dojo.buffer y bool [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op 'sign' has no meaning on bool}}
    dojo.leaf y[{0}] = sign(x[{0}])
  }
}

// -----

dojo.kernel @negative_bool_add {
  dojo.buffer x bool [4] heap in
  dojo.buffer y bool [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op '+' has no meaning on bool (bool statements copy, and with '*' or min, or with max), but the statement computes in 'bool'}}
    dojo.leaf y[{0}] = x[{0}] + x[{0}]
  }
}

// -----

dojo.kernel @negative_bool_div {
  dojo.buffer x bool [4] heap in
  dojo.buffer y bool [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op '/' has no meaning on bool}}
    dojo.leaf y[{0}] = x[{0}] / x[{0}]
  }
}

// -----

dojo.kernel @negative_bool_neg {
  dojo.buffer x bool [4] heap in
  dojo.buffer y bool [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op 'neg' has no meaning on bool}}
    dojo.leaf y[{0}] = neg(x[{0}])
  }
}

// -----

dojo.kernel @negative_bool_relu {
  dojo.buffer x bool [4] heap in
  dojo.buffer y bool [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op 'relu' has no meaning on bool}}
    dojo.leaf y[{0}] = relu(x[{0}])
  }
}

// -----

dojo.kernel @negative_bool_exp {
  dojo.buffer x bool [4] heap in
  dojo.buffer y bool [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op 'exp' has no meaning on bool}}
    dojo.leaf y[{0}] = exp(x[{0}])
  }
}

// -----

dojo.kernel @negative_bool_sum {
  dojo.buffer x bool [4] heap in
  dojo.buffer y bool [] heap out
  dojo.leaf y[] = 0
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op '+=' has no meaning on bool (bool statements reduce with '*=' or 'min=' (and), 'max=' (or)), but the statement computes in 'bool'}}
    dojo.leaf y[] += x[{0}]
  }
}

// -----

dojo.kernel @negative_bool_index_value {
  dojo.buffer y bool [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op index value operand 0 is no value of bool (an index is not a truth value)}}
    dojo.leaf y[{0}] = {0}
  }
}

// -----

dojo.kernel @negative_float_constant_overflow {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op constant operand 1 (1.0e39) overflows to infinity in 'f32'}}
    dojo.leaf y[{0}] = x[{0}] + 1.0e39
  }
}

// -----

//===----------------------------------------------------------------------===//
// dojo.kernel: the tree as a whole
//===----------------------------------------------------------------------===//

dojo.kernel @negative_output_never_written {
  dojo.buffer x f32 [4] heap in
  // expected-error @below {{'dojo.buffer' op output 'y' is never written}}
  dojo.buffer y f32 [4] heap out
  dojo.buffer t f32 [4] heap
  dojo.leaf t[0] = x[0]
}

// -----

dojo.kernel @negative_buffer_after_tree {
  dojo.buffer y f32 [4] heap out
  dojo.leaf y[0] = 1
  // expected-error @below {{'dojo.buffer' op buffer declarations must precede the tree}}
  dojo.buffer t f32 [4] heap
}

// -----

dojo.kernel @negative_buffer_declared_twice {
  dojo.buffer t f32 [4] heap -> a
  // expected-error @below {{'dojo.buffer' op buffer 't' is declared twice}}
  dojo.buffer t f32 [4] heap -> b
}

// -----

dojo.kernel @negative_array_stored_twice {
  dojo.buffer t f32 [4] heap -> a, b
  // expected-error @below {{'dojo.buffer' op array 'b' is already stored in buffer 't'}}
  dojo.buffer u f32 [4] heap -> b
}

// -----

dojo.kernel @negative_op_in_tree {
  dojo.buffer y f32 [4] heap out
  dojo.leaf y[0] = 1
  // expected-error @below {{'builtin.module' op is not allowed in a kernel tree; expected dojo.scope or dojo.leaf}}
  builtin.module {
  }
}

// -----

dojo.kernel @negative_undeclared_output {
  // expected-error @below {{'dojo.leaf' op output 'z' is not a declared array}}
  dojo.leaf z[0] = 1
}

// -----

dojo.kernel @negative_undeclared_operand {
  dojo.buffer y f32 [4] heap out
  // A buffer holding shared arrays is not itself an array.
  dojo.buffer t f32 [4] heap -> t0
  dojo.leaf t0[0] = 1
  // expected-error @below {{'dojo.leaf' op operand 't' is not a declared array}}
  dojo.leaf y[0] = t[0]
}

// -----

dojo.kernel @negative_rank_mismatch {
  // expected-note @below {{declared here}}
  dojo.buffer y f32 [4, 4] heap out
  // expected-error @below {{'dojo.leaf' op output 'y' has 1 index(es) but 'y' has rank 2}}
  dojo.leaf y[0] = 1
}

// -----

dojo.kernel @negative_index_overflow {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op output 'y' index 0 overflows 64-bit integers over the iteration box}}
    dojo.leaf y[{0}*4611686018427387904] = 1
  }
}

// -----

dojo.kernel @negative_index_value_overflow {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op index value operand 1 overflows 64-bit integers over the iteration box}}
    dojo.leaf y[{0}] = 1 + ({0}*4611686018427387904)
  }
}

// -----

dojo.kernel @negative_out_of_bounds {
  dojo.buffer x f32 [8] heap in
  // Padding extends scratch buffers but not arguments.
  // expected-note @below {{declared here}}
  dojo.buffer t f32 [4+2] heap -> t0
  dojo.buffer y f32 [8] heap out
  dojo.scope 8 {
    // expected-error @below {{'dojo.leaf' op output 't0' index 0 ({0}-1) ranges over [-1, 6] but dimension 0 of 't' has extent 6}}
    dojo.leaf t0[{0}-1] = x[{0}]
  }
}

// -----

dojo.kernel @negative_out_of_bounds_operand {
  // expected-note @below {{declared here}}
  dojo.buffer x f32 [8] heap in
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op operand 'x' index 0 ({0}*2+2) ranges over [2, 8] but dimension 0 of 'x' has extent 8}}
    dojo.leaf y[{0}] = x[{0}*2+2]
  }
}

// -----

dojo.kernel @negative_element_type_mismatch {
  dojo.buffer x f64 [4] heap in
  dojo.buffer y f32 [4] heap out
  // expected-error @below {{'dojo.leaf' op operand 'x' has element type 'f64' but the statement computes in 'f32' (only a plain copy `y = x` converts between types)}}
  dojo.leaf y[0] = x[0] + 1
}

// -----

dojo.kernel @negative_conversion_with_reduction {
  dojo.buffer x f64 [4] heap in
  dojo.buffer y f32 [] heap out
  dojo.leaf y[] = 0
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op operand 'x' has element type 'f64' but the statement computes in 'f32' (only a plain copy `y = x` converts between types)}}
    dojo.leaf y[] += x[{0}]
  }
}

// -----

dojo.kernel @negative_read_output_before_write {
  // expected-note @below {{'y' is declared here}}
  dojo.buffer y f32 [4] heap out
  // expected-error @below {{'dojo.leaf' op reads y[1], which no earlier leaf writes (outputs start undefined)}}
  dojo.leaf y[0] = y[1]
}

// -----

dojo.kernel @negative_read_scratch_before_write {
  // expected-note @below {{'t' is declared here}}
  dojo.buffer t f32 [4] heap -> t0, t1
  dojo.buffer y f32 [4] heap out
  // expected-note @below {{writes 't0' here}}
  dojo.leaf t0[0] = 1
  // Writing t0[0] defines t[0] for every array of the buffer; nothing
  // writes t[1].
  // expected-error @below {{'dojo.leaf' op reads t1[1], which no earlier leaf writes (scratch buffers start undefined)}}
  dojo.leaf y[0] = t1[1]
}

// -----

dojo.kernel @negative_reduce_before_write {
  // expected-note @below {{'y' is declared here}}
  dojo.buffer y f32 [4] heap out
  // A reduction reads its output.
  // expected-error @below {{'dojo.leaf' op reduces into y[0], which no earlier leaf writes (outputs start undefined)}}
  dojo.leaf y[0] += 1
}

// -----

dojo.kernel @negative_writes_input {
  // expected-note @below {{declared 'in' here}}
  dojo.buffer x f32 [4] heap in
  // expected-error @below {{'dojo.leaf' op writes input 'x'}}
  dojo.leaf x[0] = 1
}

// -----

//===----------------------------------------------------------------------===//
// Custom assembly: dojo.scope
//===----------------------------------------------------------------------===//

dojo.kernel @negative_unknown_scope_mode {
  dojo.buffer y f32 [4] heap out
  // expected-error @below {{unknown scope mode ':x'; expected one of u, p, v, g, b, w}}
  dojo.scope 4:x {
    dojo.leaf y[{0}] = 1
  }
}

// -----

//===----------------------------------------------------------------------===//
// Custom assembly: buffer declarations (TextSyntax.h)
//===----------------------------------------------------------------------===//

dojo.kernel @negative_missing_buffer_name {
  // expected-error @below {{expected a buffer name}}
  dojo.buffer [4] heap
}

// -----

dojo.kernel @negative_missing_dimension_list {
  // expected-error @below {{expected '[' to open the dimension list}}
  dojo.buffer x f32 4 heap
}

// -----

dojo.kernel @negative_missing_dimension_size {
  // expected-error @below {{expected a dimension size}}
  dojo.buffer x f32 [4, ] heap
}

// -----

dojo.kernel @negative_negative_dimension_size {
  // expected-error @below {{unexpected negative integer}}
  dojo.buffer x f32 [-4] heap
}

// -----

dojo.kernel @negative_dimension_size_too_large {
  // expected-error @below {{integer value too large}}
  dojo.buffer x f32 [99999999999999999999] heap
}

// -----

dojo.kernel @negative_missing_padding {
  // expected-error @below {{expected the padding after '+'}}
  dojo.buffer x f32 [4+] heap
}

// -----

dojo.kernel @negative_missing_reuse_flag {
  // expected-error @below {{expected 'N' after ':' in a dimension}}
  dojo.buffer x f32 [4:] heap
}

// -----

dojo.kernel @negative_wrong_reuse_flag {
  // expected-error @below {{expected 'N' after ':' in a dimension}}
  dojo.buffer x f32 [4:M] heap
}

// -----

dojo.kernel @negative_unclosed_dimension_list {
  // expected-error @below {{expected ',' or ']' in the dimension list}}
  dojo.buffer x f32 [4 8] heap
}

// -----

dojo.kernel @negative_missing_location {
  dojo.buffer x f32 [4]
// expected-error @below {{expected a buffer location (heap, stack, reg, gpu_shared, gpu_local, tcdm)}}
}

// -----

dojo.kernel @negative_unknown_location {
  // expected-error @below {{unknown buffer location 'rom'; expected heap, stack, reg, gpu_shared, gpu_local or tcdm}}
  dojo.buffer x f32 [4] rom
}

// -----

dojo.kernel @negative_missing_array_name {
  // expected-error @below {{expected an array name after '->'}}
  dojo.buffer t f32 [4] heap -> a, 3
}

// -----

//===----------------------------------------------------------------------===//
// Custom assembly: statements (TextSyntax.h)
//===----------------------------------------------------------------------===//

dojo.kernel @negative_missing_output {
  dojo.buffer y f32 [4] heap out
  // expected-error @below {{expected the name of the output array}}
  dojo.leaf [0] = 1
}

// -----

dojo.kernel @negative_missing_index_list {
  dojo.buffer y f32 [] heap out
  // expected-error @below {{expected '[' to open an index list}}
  dojo.leaf y = 1
}

// -----

dojo.kernel @negative_unclosed_index_list {
  dojo.buffer y f32 [4, 4] heap out
  // expected-error @below {{expected ',' or ']' in index list}}
  dojo.leaf y[0 1] = 1
}

// -----

dojo.kernel @negative_missing_depth {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{expected a scope depth after '{'}}
    dojo.leaf y[{}] = 1
  }
}

// -----

dojo.kernel @negative_depth_limit {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{scope depth 4294967296 exceeds the limit of 256}}
    dojo.leaf y[{4294967296}] = 1
  }
}

// -----

dojo.kernel @negative_unclosed_depth {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{expected '}' after scope depth}}
    dojo.leaf y[{0] = 1
  }
}

// -----

dojo.kernel @negative_missing_coefficient {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{expected an integer coefficient after '*'}}
    dojo.leaf y[{0}*] = 1
  }
}

// -----

dojo.kernel @negative_missing_term {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{expected '{k}' or an integer in index expression}}
    dojo.leaf y[{0}+] = 1
  }
}

// -----

dojo.kernel @negative_missing_depth_after_star {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{expected '{k}' after '*'}}
    dojo.leaf y[2*3] = 1
  }
}

// -----

dojo.kernel @negative_index_expression_overflow {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{index expression overflows 64-bit integers}}
    dojo.leaf y[{0}*9223372036854775807+{0}] = 1
  }
}

// -----

dojo.kernel @negative_unknown_reduction {
  dojo.buffer y f32 [4] heap out
  // expected-error @below {{expected '=', '+=', '*=', 'max=' or 'min=' but found 'sum'}}
  dojo.leaf y[0] sum= 1
}

// -----

dojo.kernel @negative_missing_assignment {
  dojo.buffer y f32 [4] heap out
  // expected-error @below {{expected '=', '+=', '*=', 'max=' or 'min='}}
  dojo.leaf y[0] - 1
}

// -----

dojo.kernel @negative_unknown_function {
  dojo.buffer y f32 [4] heap out
  // expected-error @below {{unknown function 'gelu'}}
  dojo.leaf y[0] = gelu(1)
}

// -----

dojo.kernel @negative_unclosed_call {
  dojo.buffer y f32 [4] heap out
  // expected-error @below {{expected ',' or ')' after function operand}}
  dojo.leaf y[0] = exp(1 2)
}

// -----

dojo.kernel @negative_call_arity {
  dojo.buffer y f32 [4] heap out
  // expected-error @below {{function 'exp' takes 1 operand(s) but 2 were given}}
  dojo.leaf y[0] = exp(1, 2)
}

// -----

dojo.kernel @negative_unclosed_index_value {
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{expected ')' to close an index value}}
    dojo.leaf y[{0}] = ({0} 1)
  }
}

// -----

dojo.kernel @negative_negated_access {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y f32 [4] heap out
  // expected-error @below {{expected a number or 'inf' after '-'}}
  dojo.leaf y[0] = -x[0]
}

// -----

//===----------------------------------------------------------------------===//
// Attribute parsers (DojoDialect.cpp)
//===----------------------------------------------------------------------===//

// expected-error @below {{expected an array name}}
dojo.kernel @negative_access_attr_name attributes {a = #dojo.access<[0]>} {
}

// -----

// expected-error @below {{expected '{k}' or an integer in index expression}}
dojo.kernel @negative_index_attr_expr attributes {a = #dojo.index<(x)>} {
}

// -----

// A plain copy into scratch may move an undefined value (staging does); a
// conversion computes a new value and reads like any other statement.
dojo.kernel @negative_conversion_reads_undefined_scratch {
  // expected-note @below {{'t' is declared here}}
  dojo.buffer t f32 [4] heap
  dojo.buffer u i32 [4] heap
  dojo.buffer y i32 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op reads t[0] at {0}=0, which no earlier leaf writes (scratch buffers start undefined)}}
    dojo.leaf u[{0}] = t[{0}]
  }
  dojo.scope 4 {
    dojo.leaf y[{0}] = u[{0}]
  }
}

// -----

// Comparisons give bool (docs/ir.md, "Comparisons and selects").
dojo.kernel @negative_comparison_to_float {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op 'lt' gives a bool, but the statement computes in 'f32'}}
    dojo.leaf y[{0}] = lt(x[{0}], 0)
  }
}

// -----

dojo.kernel @negative_comparison_of_two_types {
  dojo.buffer x f32 [4] heap in
  dojo.buffer n i32 [4] heap in
  dojo.buffer y bool [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op operand 'n' has element type 'i32' but the comparison compares 'f32' (both operands have one type)}}
    dojo.leaf y[{0}] = eq(x[{0}], n[{0}])
  }
}

// -----

dojo.kernel @negative_ordered_bool {
  dojo.buffer a bool [4] heap in
  dojo.buffer y bool [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op 'lt' has no meaning on bool (bool operands compare with eq and ne)}}
    dojo.leaf y[{0}] = lt(a[{0}], 1)
  }
}

// -----

dojo.kernel @negative_comparison_constant {
  dojo.buffer n i32 [4] heap in
  dojo.buffer y bool [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op constant operand 1 (0.5) is not an integer, as the statement computes in 'i32'}}
    dojo.leaf y[{0}] = lt(n[{0}], 0.5)
  }
}

// -----

dojo.kernel @negative_reducing_comparison {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y bool [1] heap out
  dojo.leaf y[0] = 0
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op 'gt' does not reduce (a comparison or select writes its value; reduce the array it writes), but the statement computes in 'bool'}}
    dojo.leaf y[0] max= gt(x[{0}], 0)
  }
}

// -----

dojo.kernel @negative_float_condition {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op operand 'x' has element type 'f32' but select's condition is a bool}}
    dojo.leaf y[{0}] = select(x[{0}], x[{0}], 0)
  }
}

// -----

dojo.kernel @negative_index_condition {
  dojo.buffer x f32 [4] heap in
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{'dojo.leaf' op index value operand 0 is no value of bool (an index is not a truth value)}}
    dojo.leaf y[{0}] = select({0}, x[{0}], 0)
  }
}

// -----

dojo.kernel @negative_select_arity {
  dojo.buffer c bool [4] heap in
  dojo.buffer y f32 [4] heap out
  dojo.scope 4 {
    // expected-error @below {{function 'select' takes 3 operand(s) but 2 were given}}
    dojo.leaf y[{0}] = select(c[{0}], 1)
  }
}
