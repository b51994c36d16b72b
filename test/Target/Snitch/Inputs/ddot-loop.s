# ddot, 64-bit: *result = sum_i x[i] * y[i], as clang -O2 emits it for a
# plain C loop on rv32imafd: two loads, one fused multiply-add, three pointer
# and counter updates and the loop branch (7 instructions per element).
# a0 = &x, a1 = &y, a2 = &result, a3 = n (all in TCDM).
    .text
    .globl  ddot
    .p2align 2
    .type   ddot,@function
ddot:
    fcvt.d.w  fa0, zero
    beqz      a3, .LBB0_2
.LBB0_1:
    fld       ft0, 0(a0)
    fld       ft1, 0(a1)
    fmadd.d   fa0, ft0, ft1, fa0
    addi      a3, a3, -1
    addi      a1, a1, 8
    addi      a0, a0, 8
    bnez      a3, .LBB0_1
.LBB0_2:
    fsd       fa0, 0(a2)
    ret
.Lfunc_end0:
    .size   ddot, .Lfunc_end0-ddot
