// RUN: perfdojo-translate --snitch-to-asm %s | FileCheck %s --check-prefix=ASM
// RUN: perfdojo-translate --snitch-to-asm %s | llvm-mc --triple=riscv32 -mattr=+m,+a,+f,+d --show-encoding | FileCheck %s --check-prefix=ENC
//
// The four-accumulator dot product of docs/snitch.md, written at the
// structured level: the printed assembly is accepted by upstream llvm-mc,
// and the custom instructions encode to the words of the Snitch ISA
// (scfgwi: I-type on CUSTOM-1 with funct3 2; frep.o: I-type on CUSTOM-0
// with the stagger in funct3 and rd; the SSR CSR 0x7c0).

// ASM-LABEL: ddot4:
// ASM:       fcvt.d.w ft3, zero
// ASM:       .insn i 0x2b, 2, x0, zero, 63    # scfgwi zero, word 1, dm 31
// ASM-NEXT:  li t0, 127
// ASM-NEXT:  .insn i 0x2b, 2, x0, t0, 95    # scfgwi t0, word 2, dm 31
// ASM-NEXT:  li t0, 8
// ASM-NEXT:  .insn i 0x2b, 2, x0, t0, 223    # scfgwi t0, word 6, dm 31
// ASM-NEXT:  .insn i 0x2b, 2, x0, a0, 768    # scfgwi a0, word 24, dm 0
// ASM-NEXT:  .insn i 0x2b, 2, x0, a1, 769    # scfgwi a1, word 24, dm 1
// ASM-NEXT:  csrsi 0x7c0, 1
// ASM-NEXT:  li t0, 31
// ASM-NEXT:  .insn i 0x0b, 0, x1, t0, 3    # frep.o t0, 4, 0, 0
// ASM-NEXT:  fmadd.d ft3, ft0, ft1, ft3
// ASM-NEXT:  fmadd.d ft4, ft0, ft1, ft4
// ASM-NEXT:  fmadd.d ft5, ft0, ft1, ft5
// ASM-NEXT:  fmadd.d ft6, ft0, ft1, ft6
// ASM-NEXT:  csrci 0x7c0, 1
// ASM:       fsd ft3, 0(a2)
// ASM-NEXT:  ret
// ASM-NEXT:  .size ddot4, .-ddot4

// The words of snitch-target facts §4.1, little-endian.
// ENC: .insn i 43, 2, zero, t0, 95 {{.*}} encoding: [0x2b,0xa0,0xf2,0x05]
// ENC: .insn i 43, 2, zero, a0, 768 {{.*}} encoding: [0x2b,0x20,0x05,0x30]
// ENC: csrsi 1984, 1 {{.*}} encoding: [0x73,0xe0,0x00,0x7c]
// ENC: .insn i 11, 0, ra, t0, 3 {{.*}} encoding: [0x8b,0x80,0x32,0x00]
// ENC: fmadd.d ft3, ft0, ft1, ft3 {{.*}} encoding: [0xc3,0x71,0x10,0x1a]
// ENC: csrci 1984, 1 {{.*}} encoding: [0x73,0xf0,0x00,0x7c]
snitch.function @ddot4 {
  snitch.insn "fcvt.d.w" ["ft3", "zero"]
  snitch.insn "fmv.d" ["ft4", "ft3"]
  snitch.insn "fmv.d" ["ft5", "ft3"]
  snitch.insn "fmv.d" ["ft6", "ft3"]
  snitch.streaming_region [
      #snitch.stream<read "ft0" from "a0" bounds [128] strides [8]>,
      #snitch.stream<read "ft1" from "a1" bounds [128] strides [8]>]
      scratch "t0" {
    snitch.frep 32 counter "t0" {
      snitch.insn "fmadd.d" ["ft3", "ft0", "ft1", "ft3"]
      snitch.insn "fmadd.d" ["ft4", "ft0", "ft1", "ft4"]
      snitch.insn "fmadd.d" ["ft5", "ft0", "ft1", "ft5"]
      snitch.insn "fmadd.d" ["ft6", "ft0", "ft1", "ft6"]
    }
  }
  snitch.insn "fadd.d" ["ft3", "ft3", "ft4"]
  snitch.insn "fadd.d" ["ft5", "ft5", "ft6"]
  snitch.insn "fadd.d" ["ft3", "ft3", "ft5"]
  snitch.insn "fsd" ["ft3", "0(a2)"]
}

// The staggered single-instruction body and a configuration read:
// facts §4.1 give 0x0002B98B for frep.o t0, 1, 3, 0b1001 and 0x0000152B
// for scfgri a0 of mover 0's status.
// ASM-LABEL: staggered:
// ASM:       .insn i 0x2b, 1, a0, x0, 0    # scfgri a0, word 0, dm 0
// ASM:       .insn i 0x0b, 3, x19, t0, 0    # frep.o t0, 1, 3, 9
// ASM:       .L{{staggered_loop}}:
// ASM:       bne a0, a1, .Lstaggered_loop
// ENC: .insn i 43, 1, a0, zero, 0 {{.*}} encoding: [0x2b,0x15,0x00,0x00]
// ENC: .insn i 11, 3, s3, t0, 0 {{.*}} encoding: [0x8b,0xb9,0x02,0x00]
snitch.function @staggered {
  snitch.scfgri "a0" word 0 dm 0
  snitch.frep_o "t0" body 1 stagger 3 mask 9
  snitch.insn "fmadd.d" ["ft3", "ft4", "ft5", "ft3"]
  snitch.label "loop"
  snitch.insn "addi" ["a0", "a0", "1"]
  snitch.insn "bne" ["a0", "a1", "loop"]
}
