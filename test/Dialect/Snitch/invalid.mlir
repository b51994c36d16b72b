// RUN: perfdojo-opt %s -split-input-file -verify-diagnostics
//
// One case per rejection of the snitch verifiers. The limits are the
// default core's (Target/Snitch/SnitchCore.h).

snitch.function @negative_four_streams {
  // expected-error @below {{configures 4 streams, but the core has 3 data movers}}
  snitch.streaming_region [
      #snitch.stream<read "ft0" from "a0" bounds [4] strides [8]>,
      #snitch.stream<read "ft1" from "a1" bounds [4] strides [8]>,
      #snitch.stream<read "ft2" from "a2" bounds [4] strides [8]>,
      #snitch.stream<read "ft3" from "a3" bounds [4] strides [8]>] scratch "t0" {
  }
}

// -----

snitch.function @negative_not_a_stream_register {
  // expected-error @below {{stream register 'ft5' is none of ft0-ft2}}
  snitch.streaming_region [
      #snitch.stream<read "ft5" from "a0" bounds [4] strides [8]>] scratch "t0" {
  }
}

// -----

snitch.function @negative_two_streams_one_register {
  // expected-error @below {{configures two streams on 'ft1'}}
  snitch.streaming_region [
      #snitch.stream<read "ft1" from "a0" bounds [4] strides [8]>,
      #snitch.stream<read "ft1" from "a1" bounds [4] strides [8]>] scratch "t0" {
  }
}

// -----

snitch.function @negative_no_stream {
  // expected-error @below {{configures no stream}}
  snitch.streaming_region [] scratch "t0" {
  }
}

// -----

snitch.function @negative_five_levels {
  // expected-error @below {{stream on 'ft0' has 5 levels; a data mover has 1 to 4}}
  snitch.streaming_region [
      #snitch.stream<read "ft0" from "a0" bounds [2, 2, 2, 2, 2] strides [8, 8, 8, 8, 8]>] scratch "t0" {
  }
}

// -----

snitch.function @negative_bounds_strides {
  // expected-error @below {{stream on 'ft0' has 2 bounds but 1 strides}}
  snitch.streaming_region [
      #snitch.stream<read "ft0" from "a0" bounds [2, 2] strides [8]>] scratch "t0" {
  }
}

// -----

snitch.function @negative_long_level {
  // expected-error @below {{stream on 'ft0' has a level of 131073 iterations; a level runs 1 to 131072}}
  snitch.streaming_region [
      #snitch.stream<read "ft0" from "a0" bounds [131073] strides [8]>] scratch "t0" {
  }
}

// -----

snitch.function @negative_empty_level {
  // expected-error @below {{stream on 'ft0' has a level of 0 iterations; a level runs 1 to 131072}}
  snitch.streaming_region [
      #snitch.stream<read "ft0" from "a0" bounds [0] strides [8]>] scratch "t0" {
  }
}

// -----

snitch.function @negative_unaligned_stride {
  // expected-error @below {{stream on 'ft0' has stride 4, not a multiple of the 8-byte stream element}}
  snitch.streaming_region [
      #snitch.stream<read "ft0" from "a0" bounds [4] strides [4]>] scratch "t0" {
  }
}

// -----

snitch.function @negative_repeat_too_large {
  // expected-error @below {{stream on 'ft0' repeats each element 17 times; the repeat register allows 1 to 16}}
  snitch.streaming_region [
      #snitch.stream<read "ft0" from "a0" bounds [4] strides [8] repeat 17>] scratch "t0" {
  }
}

// -----

snitch.function @negative_write_repeat {
  // expected-error @below {{write stream on 'ft2' has a repeat; only read streams repeat}}
  snitch.streaming_region [
      #snitch.stream<write "ft2" from "a0" bounds [4] strides [8] repeat 2>] scratch "t0" {
  }
}

// -----

snitch.function @negative_base_not_integer {
  // expected-error @below {{stream base 'ft4' is not an integer register}}
  snitch.streaming_region [
      #snitch.stream<read "ft0" from "ft4" bounds [4] strides [8]>] scratch "t0" {
  }
}

// -----

snitch.function @negative_scratch_is_base {
  // expected-error @below {{the scratch register 'a0' holds the base of the stream on 'ft0'}}
  snitch.streaming_region [
      #snitch.stream<read "ft0" from "a0" bounds [4] strides [8]>] scratch "a0" {
  }
}

// -----

snitch.function @negative_scratch_zero {
  // expected-error @below {{the scratch register cannot be 'zero'}}
  snitch.streaming_region [
      #snitch.stream<read "ft0" from "a0" bounds [4] strides [8]>] scratch "zero" {
  }
}

// -----

snitch.function @negative_write_read_stream {
  snitch.streaming_region [
      #snitch.stream<read "ft0" from "a0" bounds [4] strides [8]>] scratch "t0" {
    // expected-error @below {{writes 'ft0', which is a read stream}}
    snitch.insn "fadd.d" ["ft0", "ft3", "ft3"]
  }
}

// -----

snitch.function @negative_read_write_stream {
  snitch.streaming_region [
      #snitch.stream<write "ft2" from "a0" bounds [4] strides [8]>] scratch "t0" {
    // expected-error @below {{reads 'ft2', which is a write stream}}
    snitch.insn "fadd.d" ["ft3", "ft2", "ft3"]
  }
}

// -----

snitch.function @negative_unconfigured_mover {
  snitch.streaming_region [
      #snitch.stream<read "ft0" from "a0" bounds [4] strides [8]>] scratch "t0" {
    // expected-error @below {{uses 'ft1', whose data mover has no stream in this region}}
    snitch.insn "fadd.d" ["ft3", "ft1", "ft3"]
  }
}

// -----

snitch.function @negative_stream_load {
  snitch.streaming_region [
      #snitch.stream<read "ft0" from "a0" bounds [4] strides [8]>] scratch "t0" {
    // expected-error @below {{moves 'ft0' to or from memory; a stream register is only read or written by FP computations}}
    snitch.insn "fsd" ["ft0", "0(a1)"]
  }
}

// -----

snitch.function @negative_nested_regions {
  snitch.streaming_region [
      #snitch.stream<read "ft0" from "a0" bounds [4] strides [8]>] scratch "t0" {
    // expected-error @below {{is nested in another streaming region}}
    snitch.streaming_region [
        #snitch.stream<read "ft1" from "a1" bounds [4] strides [8]>] scratch "t1" {
    }
  }
}

// -----

snitch.function @negative_reconfigure_inside {
  snitch.streaming_region [
      #snitch.stream<read "ft0" from "a0" bounds [4] strides [8]>] scratch "t0" {
    // expected-error @below {{reconfigures the streams inside a streaming region}}
    snitch.scfgwi "t1" word 2 dm 0
  }
}

// -----

snitch.function @negative_frep_too_many_repetitions {
  // expected-error @below {{repeats its body 65537 times; the sequencer repeats at most 65536}}
  snitch.frep 65537 counter "t0" {
    snitch.insn "fadd.d" ["ft3", "ft3", "ft4"]
  }
}

// -----

snitch.function @negative_frep_zero_repetitions {
  // expected-error @below {{attribute 'repetitions' failed to satisfy constraint}}
  snitch.frep 0 counter "t0" {
    snitch.insn "fadd.d" ["ft3", "ft3", "ft4"]
  }
}

// -----

snitch.function @negative_frep_stagger_count {
  // expected-error @below {{has stagger count 8; the sequencer allows 0 to 7}}
  snitch.frep 4 counter "t0" stagger 8 mask 1 {
    snitch.insn "fadd.d" ["ft3", "ft3", "ft4"]
  }
}

// -----

snitch.function @negative_frep_stagger_mask {
  // expected-error @below {{has stagger mask 16; the sequencer allows 0 to 15}}
  snitch.frep 4 counter "t0" stagger 1 mask 16 {
    snitch.insn "fadd.d" ["ft3", "ft3", "ft4"]
  }
}

// -----

snitch.function @negative_frep_empty {
  // expected-error @below {{has an empty body}}
  snitch.frep 4 counter "t0" {
  }
}

// -----

snitch.function @negative_frep_long_body {
  // expected-error @below {{has a body of 17 instructions; the sequencer holds at most 16}}
  snitch.frep 4 counter "t0" {
    snitch.insn "fadd.d" ["ft3", "ft3", "ft4"]
    snitch.insn "fadd.d" ["ft3", "ft3", "ft4"]
    snitch.insn "fadd.d" ["ft3", "ft3", "ft4"]
    snitch.insn "fadd.d" ["ft3", "ft3", "ft4"]
    snitch.insn "fadd.d" ["ft3", "ft3", "ft4"]
    snitch.insn "fadd.d" ["ft3", "ft3", "ft4"]
    snitch.insn "fadd.d" ["ft3", "ft3", "ft4"]
    snitch.insn "fadd.d" ["ft3", "ft3", "ft4"]
    snitch.insn "fadd.d" ["ft3", "ft3", "ft4"]
    snitch.insn "fadd.d" ["ft3", "ft3", "ft4"]
    snitch.insn "fadd.d" ["ft3", "ft3", "ft4"]
    snitch.insn "fadd.d" ["ft3", "ft3", "ft4"]
    snitch.insn "fadd.d" ["ft3", "ft3", "ft4"]
    snitch.insn "fadd.d" ["ft3", "ft3", "ft4"]
    snitch.insn "fadd.d" ["ft3", "ft3", "ft4"]
    snitch.insn "fadd.d" ["ft3", "ft3", "ft4"]
    snitch.insn "fadd.d" ["ft3", "ft3", "ft4"]
  }
}

// -----

snitch.function @negative_frep_integer_body {
  // expected-error @below {{cannot repeat 'addi': it is not executed by the FP subsystem}}
  snitch.frep 4 counter "t0" {
    // expected-note @below {{here}}
    snitch.insn "addi" ["a0", "a0", "8"]
  }
}

// -----

snitch.function @negative_frep_load {
  // expected-error @below {{cannot repeat 'fld': the sequencer replays loads and stores at one address}}
  snitch.frep 4 counter "t0" {
    // expected-note @below {{here}}
    snitch.insn "fld" ["ft3", "0(a0)"]
  }
}

// -----

snitch.function @negative_frep_direct_path {
  // expected-error @below {{cannot repeat 'flt.d': it exchanges data with the integer core (direct path)}}
  snitch.frep 4 counter "t0" {
    // expected-note @below {{here}}
    snitch.insn "flt.d" ["a0", "ft3", "ft4"]
  }
}

// -----

snitch.function @negative_frep_structured_body {
  // expected-error @below {{body holds 'snitch.label'; only FP instructions repeat}}
  snitch.frep 4 counter "t0" {
    // expected-note @below {{here}}
    snitch.label "inside"
  }
}

// -----

snitch.function @negative_frep_counter_zero {
  // expected-error @below {{the counter register cannot be 'zero'}}
  snitch.frep 4 counter "zero" {
    snitch.insn "fadd.d" ["ft3", "ft3", "ft4"]
  }
}

// -----

snitch.function @negative_frep_o_short {
  // expected-error @below {{repeats 2 instructions, but 1 follow it}}
  snitch.frep_o "t0" body 2
  snitch.insn "fadd.d" ["ft3", "ft3", "ft4"]
}

// -----

snitch.function @negative_unknown_mnemonic {
  // expected-error @below {{unknown instruction 'vadd.vv'}}
  snitch.insn "vadd.vv" ["v0", "v1", "v2"]
}

// -----

snitch.function @negative_operand_count {
  // expected-error @below {{'fadd.d' takes 3 operands, got 2}}
  snitch.insn "fadd.d" ["ft3", "ft4"]
}

// -----

snitch.function @negative_operand_kind {
  // expected-error @below {{operand 2 of 'fadd.d' must be an FP register, got 'a0'}}
  snitch.insn "fadd.d" ["ft3", "a0", "ft4"]
}

// -----

snitch.function @negative_immediate_kind {
  // expected-error @below {{operand 3 of 'addi' must be an integer, got 'abc'}}
  snitch.insn "addi" ["a0", "a0", "abc"]
}

// -----

snitch.function @negative_memory_kind {
  // expected-error @below {{operand 2 of 'fld' must be a memory operand 'offset(register)', got '8(ft1)'}}
  snitch.insn "fld" ["ft3", "8(ft1)"]
}

// -----

snitch.function @negative_label_kind {
  // expected-error @below {{operand 3 of 'bne' must be a label, got '8'}}
  snitch.insn "bne" ["a0", "a1", "8"]
}

// -----

snitch.function @negative_unknown_label {
  // expected-error @below {{branches to 'nowhere', which is no label of this function}}
  snitch.insn "bne" ["a0", "a1", "nowhere"]
}

// -----

snitch.function @negative_duplicate_label {
  snitch.label "loop"
  // expected-error @below {{label 'loop' is defined twice in this function}}
  snitch.label "loop"
}

// -----

snitch.function @negative_register_label {
  // expected-error @below {{label 'a0' is a register name}}
  snitch.label "a0"
}

// -----

snitch.function @negative_scfgwi_mover {
  // expected-error @below {{names data mover 3; the core has 0-2 and broadcast 31}}
  snitch.scfgwi "t0" word 2 dm 3
}

// -----

snitch.function @negative_scfgwi_word {
  // expected-error @below {{attribute 'word' failed to satisfy constraint}}
  snitch.scfgwi "t0" word 32 dm 0
}

// -----

snitch.function @negative_scfgwi_value {
  // expected-error @below {{value 'ft0' is not an integer register}}
  snitch.scfgwi "ft0" word 2 dm 0
}

// -----

snitch.function @negative_scfgri_broadcast {
  // expected-error @below {{cannot read from the broadcast mover}}
  snitch.scfgri "a0" word 0 dm 31
}
