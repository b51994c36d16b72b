//===- SnitchDialect.td - the snitch machine dialect -------*- tablegen -*-===//
#ifndef PERFDOJO_DIALECT_SNITCH_IR_SNITCHDIALECT_TD
#define PERFDOJO_DIALECT_SNITCH_IR_SNITCHDIALECT_TD

include "mlir/IR/OpBase.td"

def Snitch_Dialect : Dialect {
  let name = "snitch";
  let cppNamespace = "::perfdojo::snitch";
  let summary = "Snitch RISC-V cores with stream semantic registers (Xssr) "
                "and the FREP sequencer (Xfrep), after register allocation";
  let description = [{
    A machine-level dialect: operations name physical RISC-V registers, so
    a function of this dialect prints line by line as RISC-V assembly that
    upstream `llvm-mc` assembles (custom instructions as `.insn`).

    Two levels share the dialect (docs/snitch.md):
    * the structured level, `snitch.streaming_region` (up to three SSR
      streams with their stride patterns around a body) and `snitch.frep`
      (a hardware-repeated FP-only body), whose verifiers hold every
      hardware limit of the core (perfdojo/Target/Snitch/SnitchCore.h);
    * the ISA level, one operation per instruction: `snitch.scfgwi`,
      `snitch.scfgri`, `snitch.ssr_enable`, `snitch.ssr_disable`,
      `snitch.frep_o` and `snitch.insn` for every standard RV32IMAFD
      instruction.
    `--snitch-lower-to-isa` rewrites the first level into the second.
  }];
  let useDefaultAttributePrinterParser = 1;
  let usePropertiesForAttributes = 1;
}

class Snitch_Op<string mnemonic, list<Trait> traits = []>
    : Op<Snitch_Dialect, mnemonic, traits>;

#endif // PERFDOJO_DIALECT_SNITCH_IR_SNITCHDIALECT_TD
