// RUN: perfdojo-opt %s -split-input-file --pass-pipeline='builtin.module(snitch.function(snitch-lower-to-isa))' | FileCheck %s
//
// Streaming and FREP regions become their configuration writes and
// instructions: bounds as iterations - 1 and delta strides, innermost level
// first; shared words broadcast to mover 31; constants loaded once.

// Two streams of different shapes: only the stride of level 0 is shared.
// ft1 walks 2 x 64 elements 512 bytes apart: its level-1 delta stride is
// 512 - 8 * 63 = 8.
// CHECK-LABEL: snitch.function @two_shapes
// CHECK-NEXT:  snitch.scfgwi "zero" word 1 dm 0
// CHECK-NEXT:  snitch.insn "li" ["t0", "1"]
// CHECK-NEXT:  snitch.scfgwi "t0" word 1 dm 1
// CHECK-NEXT:  snitch.insn "li" ["t0", "127"]
// CHECK-NEXT:  snitch.scfgwi "t0" word 2 dm 0
// CHECK-NEXT:  snitch.insn "li" ["t0", "63"]
// CHECK-NEXT:  snitch.scfgwi "t0" word 2 dm 1
// CHECK-NEXT:  snitch.insn "li" ["t0", "1"]
// CHECK-NEXT:  snitch.scfgwi "t0" word 3 dm 1
// CHECK-NEXT:  snitch.insn "li" ["t0", "8"]
// CHECK-NEXT:  snitch.scfgwi "t0" word 6 dm 31
// CHECK-NEXT:  snitch.scfgwi "t0" word 7 dm 1
// CHECK-NEXT:  snitch.scfgwi "a0" word 24 dm 0
// CHECK-NEXT:  snitch.scfgwi "a1" word 25 dm 1
// CHECK-NEXT:  snitch.ssr_enable
// CHECK-NEXT:  snitch.insn "li" ["t1", "31"]
// CHECK-NEXT:  snitch.frep_o "t1" body 1 stagger 3 mask 9
// CHECK-NEXT:  snitch.insn "fmadd.d" ["ft3", "ft0", "ft1", "ft3"]
// CHECK-NEXT:  snitch.ssr_disable
// CHECK-NEXT:  snitch.insn "fsd" ["ft3", "0(a2)"]
// CHECK-NEXT: }
snitch.function @two_shapes {
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

// -----

// A transposed walk: the outer level steps back over the inner one
// (delta 8 - 32 * 3 = -88), and a write stream starts at word 28 + 1.
// CHECK-LABEL: snitch.function @transpose_write
// CHECK:       snitch.insn "li" ["t3", "-88"]
// CHECK-NEXT:  snitch.scfgwi "t3" word 7 dm 2
// CHECK-NEXT:  snitch.scfgwi "a1" word 29 dm 2
// CHECK-NEXT:  snitch.ssr_enable
// CHECK-NEXT:  snitch.insn "fmv.d" ["ft2", "ft4"]
// CHECK-NEXT:  snitch.ssr_disable
snitch.function @transpose_write {
  snitch.streaming_region [
      #snitch.stream<write "ft2" from "a1" bounds [4, 4] strides [8, 32]>]
      scratch "t3" {
    snitch.insn "fmv.d" ["ft2", "ft4"]
  }
}
