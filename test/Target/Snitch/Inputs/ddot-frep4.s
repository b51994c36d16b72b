# ddot, 64-bit, SSR + FREP with four accumulators (xDSL's snitch_stream
# ddot; snitch-target.md §4.2): four independent fmadd.d chains hide the FPU
# latency, then three fadd.d reduce them.
# a0 = &x, a1 = &y, a2 = &result, a3 = n (all in TCDM), n a multiple of 4.
    .text
    .globl  ddot
    .p2align 2
    .type   ddot,@function
ddot:
    addi    t0, a3, -1
    .insn   i 0x2b, 2, x0, t0, 95       # bound0 := n-1, all streamers
    li      t1, 8
    .insn   i 0x2b, 2, x0, t1, 223      # stride0 := 8, all streamers
    .insn   i 0x2b, 2, x0, zero, 63     # repeat := 0, all streamers
    .insn   i 0x2b, 2, x0, a0, 768      # DM0: 1-D read from x
    .insn   i 0x2b, 2, x0, a1, 769      # DM1: 1-D read from y
    csrsi   0x7c0, 1
    fcvt.d.w ft3, zero
    fmv.d   ft4, ft3
    fmv.d   ft5, ft3
    fmv.d   ft6, ft3
    srli    t2, a3, 2
    addi    t2, t2, -1
    .insn   i 0x0b, 0, x1, t2, 3        # frep.o t2, 4, 0, 0
    fmadd.d ft3, ft0, ft1, ft3
    fmadd.d ft4, ft0, ft1, ft4
    fmadd.d ft5, ft0, ft1, ft5
    fmadd.d ft6, ft0, ft1, ft6
    fadd.d  ft3, ft3, ft4
    fadd.d  ft5, ft5, ft6
    fadd.d  ft3, ft3, ft5
    fsd     ft3, 0(a2)
    csrci   0x7c0, 1
    ret
.Lfunc_end0:
    .size   ddot, .Lfunc_end0-ddot
