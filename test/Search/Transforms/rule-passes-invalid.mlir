// The optimizing passes name an unknown target and every known one, at the
// kernel, and change nothing.
// RUN: perfdojo-opt %s --pass-pipeline='builtin.module(dojo-heuristic{target=tpu})' -verify-diagnostics
// RUN: perfdojo-opt %s --pass-pipeline='builtin.module(dojo-greedy{target=tpu})' -verify-diagnostics
// RUN: perfdojo-opt %s --pass-pipeline='builtin.module(dojo-naive{target=tpu})' -verify-diagnostics

// expected-error @+1 {{unknown target 'tpu' (expected one of: default, cpu, host, snitch, sm_80, sm_86, sm_89, sm_90, gfx90a, gfx942, cuda, rocm)}}
dojo.kernel @scale {
  dojo.buffer x f32 [8] heap in
  dojo.buffer y f32 [8] heap out
  dojo.scope 8 {
    dojo.leaf y[{0}] = x[{0}] * 2
  }
}
