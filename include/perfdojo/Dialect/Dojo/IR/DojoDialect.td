//===- DojoDialect.td - the dojo scope-tree dialect --------*- tablegen -*-===//
#ifndef PERFDOJO_DIALECT_DOJO_IR_DOJODIALECT_TD
#define PERFDOJO_DIALECT_DOJO_IR_DOJODIALECT_TD

include "mlir/IR/OpBase.td"

def Dojo_Dialect : Dialect {
  let name = "dojo";
  let cppNamespace = "::perfdojo::dojo";
  let summary = "PerfDojo scope trees: ML kernels as ordered trees of "
                "iteration scopes and scalar leaves";
  let description = [{
    A `dojo.kernel` holds buffer declarations followed by an ordered tree.
    Inner nodes (`dojo.scope`) are one-dimensional iteration scopes; leaves
    (`dojo.leaf`) are single scalar statements. Scopes carry no SSA values:
    every index is an affine map over the depths of the enclosing scopes, so
    moving a subtree only rewrites maps. The textual `.dojo` format is a
    lossless rendering of the same tree (see docs/ir.md).
  }];
  let useDefaultAttributePrinterParser = 1;
  let usePropertiesForAttributes = 1;
}

class Dojo_Op<string mnemonic, list<Trait> traits = []>
    : Op<Dojo_Dialect, mnemonic, traits>;

#endif // PERFDOJO_DIALECT_DOJO_IR_DOJODIALECT_TD
