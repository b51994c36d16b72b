//===- Passes.td - snitch passes ---------------------------*- tablegen -*-===//
#ifndef PERFDOJO_DIALECT_SNITCH_TRANSFORMS_PASSES_TD
#define PERFDOJO_DIALECT_SNITCH_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def SnitchLowerToIsaPass
    : Pass<"snitch-lower-to-isa", "::perfdojo::snitch::FunctionOp"> {
  let summary = "Rewrite streaming regions and FREP regions into the "
                "instructions that configure and run them";
  let description = [{
    Each `snitch.streaming_region` becomes its configuration writes, then
    `snitch.ssr_enable`, its body and `snitch.ssr_disable`:
    * per stream, the bound and stride words of each level (innermost level
      0; the hardware holds `iterations - 1` and *delta* strides: level `k`
      adds `stride[k] - sum_{j<k} stride[j] * (bound[j] - 1)`), the repeat
      word, then the pointer word that starts a read (24 + rank - 1) or
      write (28 + rank - 1) stream;
    * a value every stream of the region writes to the same word is written
      once to the broadcast mover 31;
    * values are loaded into the region's `scratch` register with `li`
      (zero is written from `zero`).
    Each `snitch.frep` becomes `li counter, repetitions - 1`, `snitch.frep_o`
    over the body's instruction count, and the body.
  }];
}

#endif // PERFDOJO_DIALECT_SNITCH_TRANSFORMS_PASSES_TD
