# ddot, 64-bit, SSR + FREP with one accumulator (the snitch runtime's
# dot_seq): x and y stream through ft0/ft1, one fmadd.d repeated n times.
# Every fmadd depends on the previous one, so the FPU latency bounds it.
# a0 = &x, a1 = &y, a2 = &result, a3 = n (all in TCDM), n >= 1.
    .text
    .globl  ddot
    .p2align 2
    .type   ddot,@function
ddot:
    addi    t0, a3, -1
    .insn   i 0x2b, 2, x0, t0, 64       # scfgwi t0, bound0 of DM0 := n-1
    .insn   i 0x2b, 2, x0, t0, 65       # scfgwi t0, bound0 of DM1 := n-1
    li      t1, 8
    .insn   i 0x2b, 2, x0, t1, 192      # scfgwi t1, stride0 of DM0 := 8
    .insn   i 0x2b, 2, x0, t1, 193      # scfgwi t1, stride0 of DM1 := 8
    .insn   i 0x2b, 2, x0, a0, 768      # DM0: 1-D read from x
    .insn   i 0x2b, 2, x0, a1, 769      # DM1: 1-D read from y
    csrsi   0x7c0, 1                    # SSR on
    fcvt.d.w ft3, zero
    .insn   i 0x0b, 0, x1, t0, 0        # frep.o t0, 1, 0, 0
    fmadd.d ft3, ft0, ft1, ft3
    fsd     ft3, 0(a2)
    csrci   0x7c0, 1                    # SSR off
    ret
.Lfunc_end0:
    .size   ddot, .Lfunc_end0-ddot
