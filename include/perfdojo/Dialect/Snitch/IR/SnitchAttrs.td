//===- SnitchAttrs.td - attributes of the snitch dialect ---*- tablegen -*-===//
#ifndef PERFDOJO_DIALECT_SNITCH_IR_SNITCHATTRS_TD
#define PERFDOJO_DIALECT_SNITCH_IR_SNITCHATTRS_TD

include "perfdojo/Dialect/Snitch/IR/SnitchDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Snitch_StreamDirection : I32EnumAttr<"StreamDirection",
    "whether a stream feeds or drains FP registers", [
    I32EnumAttrCase<"read", 0>,
    I32EnumAttrCase<"write", 1>]> {
  let cppNamespace = "::perfdojo::snitch";
  let genSpecializedAttr = 0;
}

def Snitch_StreamAttr : AttrDef<Snitch_Dialect, "Stream"> {
  let mnemonic = "stream";
  let summary = "one SSR stream: its register, base pointer and stride pattern";
  let description = [{
    A stream of data mover `dm` bound to FP register `ft<dm>`. It starts at
    the address held by the integer register `base` and walks a loop nest
    of up to four levels, listed outermost first: level `k` runs
    `bounds[k]` iterations and advances the address by `strides[k]` bytes
    (absolute strides; the lowering computes the hardware's delta strides).
    A read stream may deliver each element `repeat` times.

    ```mlir
    #snitch.stream<read "ft0" from "a0" bounds [16, 8] strides [64, 8]>
    #snitch.stream<read "ft1" from "a1" bounds [128] strides [8] repeat 4>
    ```
  }];
  let parameters = (ins
    EnumParameter<Snitch_StreamDirection>:$direction,
    StringRefParameter<"the FP register the stream is bound to">:$reg,
    StringRefParameter<"the integer register holding the base address">:$base,
    ArrayRefParameter<"int64_t", "iterations per level, outermost first">:$bounds,
    ArrayRefParameter<"int64_t", "byte strides per level, outermost first">:$strides,
    DefaultValuedParameter<"int64_t", "1", "deliveries of each element">:$repeat);
  let assemblyFormat = [{
    `<` $direction $reg `from` $base `bounds` ` ` `[` $bounds `]`
    `strides` ` ` `[` $strides `]` (`repeat` $repeat^)? `>`
  }];
  let extraClassDeclaration = [{
    /// Elements the stream moves: the product of its bounds times repeat.
    int64_t getElementCount() const;
  }];
}

#endif // PERFDOJO_DIALECT_SNITCH_IR_SNITCHATTRS_TD
