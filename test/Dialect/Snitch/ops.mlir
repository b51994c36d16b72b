// RUN: perfdojo-opt %s | perfdojo-opt | FileCheck %s
//
// Both levels of the snitch dialect print and parse back unchanged.

// CHECK-LABEL: snitch.function @ddot_structured
// CHECK: snitch.streaming_region [#snitch.stream<read "ft0" from "a0" bounds [128] strides [8]>, #snitch.stream<read "ft1" from "a1" bounds [2, 64] strides [512, 8] repeat 2>] scratch "t0"
// CHECK: snitch.frep 32 counter "t1" stagger 3 mask 9
// CHECK: snitch.insn "fmadd.d" ["ft3", "ft0", "ft1", "ft3"]
snitch.function @ddot_structured {
  snitch.insn "fcvt.d.w" ["ft3", "zero"]
  snitch.streaming_region [
      #snitch.stream<read "ft0" from "a0" bounds [128] strides [8]>,
      #snitch.stream<read "ft1" from "a1" bounds [2, 64] strides [512, 8] repeat 2>]
      scratch "t0" {
    snitch.frep 32 counter "t1" stagger 3 mask 9 {
      snitch.insn "fmadd.d" ["ft3", "ft0", "ft1", "ft3"]
    }
  }
  snitch.insn "fsd" ["ft3", "0(a2)"]
}

// CHECK-LABEL: snitch.function @isa_level
// CHECK: snitch.label "loop"
// CHECK: snitch.scfgwi "t0" word 2 dm 31
// CHECK: snitch.scfgri "a5" word 0 dm 1
// CHECK: snitch.ssr_enable
// CHECK: snitch.frep_o "t2" body 1 stagger 1 mask 1
// CHECK: snitch.ssr_disable
// CHECK: snitch.insn "bne" ["a0", "a3", "loop"]
snitch.function @isa_level {
  snitch.label "loop"
  snitch.scfgwi "t0" word 2 dm 31
  snitch.scfgri "a5" word 0 dm 1
  snitch.ssr_enable
  snitch.frep_o "t2" body 1 stagger 1 mask 1
  snitch.insn "fadd.d" ["ft4", "ft4", "ft5"]
  snitch.ssr_disable
  snitch.insn "addi" ["a0", "a0", "1"]
  snitch.insn "bne" ["a0", "a3", "loop"]
}
