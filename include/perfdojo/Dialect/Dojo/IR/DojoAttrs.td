//===- DojoAttrs.td - attributes of the dojo dialect -------*- tablegen -*-===//
#ifndef PERFDOJO_DIALECT_DOJO_IR_DOJOATTRS_TD
#define PERFDOJO_DIALECT_DOJO_IR_DOJOATTRS_TD

include "perfdojo/Dialect/Dojo/IR/DojoDialect.td"
include "mlir/IR/AttrTypeBase.td"

class Dojo_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Dojo_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Dojo_AccessAttr : Dojo_Attr<"Access", "access"> {
  let summary = "an affine access to an array: `name[index, ...]`";
  let description = [{
    A leaf operand that reads element `indices(d0, ..., dn-1)` of array
    `array`, where `dk` is the iteration variable of the enclosing scope at
    depth `k`. Printed as `#dojo.access<x[{0}*4+{1}, {2} ]>`.
  }];
  let parameters = (ins "::mlir::StringAttr":$array,
                        "::mlir::AffineMap":$indices);
  let hasCustomAssemblyFormat = 1;
}

def Dojo_IndexValueAttr : Dojo_Attr<"IndexValue", "index"> {
  let summary = "an affine function of the iteration variables used as a value";
  let description = [{
    A leaf operand whose value is an affine expression of the enclosing
    scopes' iteration variables, converted to the leaf's element type.
    Printed as `#dojo.index<({0}*24+{1})>`.
  }];
  let parameters = (ins "::mlir::AffineMap":$expr);
  let hasCustomAssemblyFormat = 1;
}

#endif // PERFDOJO_DIALECT_DOJO_IR_DOJOATTRS_TD
