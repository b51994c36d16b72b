//===- SnitchOps.td - operations of the snitch dialect -----*- tablegen -*-===//
#ifndef PERFDOJO_DIALECT_SNITCH_IR_SNITCHOPS_TD
#define PERFDOJO_DIALECT_SNITCH_IR_SNITCHOPS_TD

include "perfdojo/Dialect/Snitch/IR/SnitchDialect.td"
include "perfdojo/Dialect/Snitch/IR/SnitchAttrs.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/CommonAttrConstraints.td"

def Snitch_FunctionOp : Snitch_Op<"function", [
    Symbol, IsolatedFromAbove, NoTerminator, SingleBlock]> {
  let summary = "a function: its instructions in program order";
  let description = [{
    One assembly function. Its body holds labels, instructions and
    structured regions in program order; the function returns after the
    last of them (the assembly printer adds `ret`). Arguments arrive in
    `a0`-`a7` by the RISC-V calling convention.

    ```mlir
    snitch.function @scale {
      snitch.insn "fld" ["ft3", "0(a0)"]
      snitch.insn "fmul.d" ["ft3", "ft3", "ft3"]
      snitch.insn "fsd" ["ft3", "0(a1)"]
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name)>];
}

//===----------------------------------------------------------------------===//
// Structured level
//===----------------------------------------------------------------------===//

def Snitch_StreamingRegionOp : Snitch_Op<"streaming_region", [
    NoTerminator, SingleBlock]> {
  let summary = "a body that runs with SSR streams configured and enabled";
  let description = [{
    Configures one stream per `#snitch.stream` (data mover `dm` for
    register `ft<dm>`), enables the stream semantic registers, runs the
    body, and disables them. Inside the body an FP instruction that reads
    a read stream's register pops its next element, and one that writes a
    write stream's register pushes an element.

    ```mlir
    snitch.streaming_region [
        #snitch.stream<read "ft0" from "a0" bounds [128] strides [8]>,
        #snitch.stream<read "ft1" from "a1" bounds [128] strides [8]>]
        scratch "t0" {
      snitch.frep 128 counter "t1" {
        snitch.insn "fmadd.d" ["ft3", "ft0", "ft1", "ft3"]
      }
    }
    ```

    `scratch` names an integer register the lowering may clobber to hold
    configuration values.

    The verifier holds the core's limits (SnitchCore.h): at most as many
    streams as data movers, one per register, each register `ft<dm>` of an
    existing mover; at most four levels; 1 to 2^17 iterations per level;
    strides that are multiples of the 8-byte element; a repeat of 1 to 16,
    on read streams only. In the body a read stream's register is only
    read and a write stream's register only written, by FP instructions
    that are not loads or stores; the register of a mover without a stream
    is not used at all (with SSR enabled it would not be a plain register);
    regions do not nest.
  }];
  let arguments = (ins TypedArrayAttrBase<Snitch_StreamAttr,
                           "SSR streams">:$streams,
                       StrAttr:$scratch);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat =
      "$streams `scratch` $scratch attr-dict-with-keyword $body";
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Snitch_FrepOp : Snitch_Op<"frep", [NoTerminator, SingleBlock]> {
  let summary = "an FP-only body repeated by the FREP sequencer";
  let description = [{
    Runs its body `repetitions` times, as `frep.o`: the integer core issues
    the body once and the FP sequencer replays it. `counter` names the
    integer register the lowering loads with `repetitions - 1`. With a
    stagger count `c` and mask `m`, repetition `r` adds `r mod (c + 1)` to
    the register numbers of the operands whose bit is set in `m` (bit 0 the
    destination, bits 1-3 the sources), so a body can rotate accumulators.

    ```mlir
    snitch.frep 32 counter "t1" stagger 3 mask 9 {
      snitch.insn "fmadd.d" ["ft3", "ft0", "ft1", "ft3"]
    }
    ```

    The verifier holds the sequencer's limits (SnitchCore.h): 1 to 65536
    repetitions; a body of 1 to 16 instructions, each one the sequencer can
    repeat (an FP-subsystem instruction that is neither a load or store nor
    a direct-path instruction such as a compare, a move or conversion
    between integer and FP registers, or a CSR access); a stagger count of
    at most 7 and a mask of at most 15. FREP regions do not nest.
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntPositive]>:$repetitions,
                       StrAttr:$counter,
                       DefaultValuedAttr<I64Attr, "0">:$stagger_count,
                       DefaultValuedAttr<I64Attr, "0">:$stagger_mask);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $repetitions `counter` $counter
    (`stagger` $stagger_count^ `mask` $stagger_mask)?
    attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// ISA level: one operation per instruction
//===----------------------------------------------------------------------===//

def Snitch_LabelOp : Snitch_Op<"label"> {
  let summary = "a branch target";
  let description = [{
    ```mlir
    snitch.label "loop"
    ```
    Names the position of the next instruction; labels are unique in a
    function and printed with the function's name as a prefix.
  }];
  let arguments = (ins StrAttr:$name);
  let assemblyFormat = "$name attr-dict";
}

def Snitch_InsnOp : Snitch_Op<"insn"> {
  let summary = "one standard RV32IMAFD instruction";
  let description = [{
    A standard instruction by its assembly mnemonic and operands, each
    operand as written in assembly: a register (`a0`, `ft3`), an immediate
    (`-8`), a memory operand (`8(a0)`) or a label of the function.

    ```mlir
    snitch.insn "addi" ["a0", "a0", "8"]
    snitch.insn "bne" ["a0", "a3", "loop"]
    ```

    The verifier checks the mnemonic and its operands against the
    instruction table (perfdojo/Target/Snitch/Instructions.h), the same
    table the executable model runs by.
  }];
  let arguments = (ins StrAttr:$mnemonic, StrArrayAttr:$operands);
  let assemblyFormat = "$mnemonic $operands attr-dict";
  let hasVerifier = 1;
}

def Snitch_ScfgwiOp : Snitch_Op<"scfgwi"> {
  let summary = "write an SSR configuration word (Xssr `scfgwi`)";
  let description = [{
    Writes integer register `value` to configuration word `word` of data
    mover `dm` (31 broadcasts to every mover). Words 24-27 and 28-31 start
    a read or write stream of 1-4 dimensions at that address.

    ```mlir
    snitch.scfgwi "t0" word 2 dm 31
    ```
  }];
  let arguments = (ins StrAttr:$value,
                       ConfinedAttr<I64Attr, [IntMinValue<0>, IntMaxValue<31>]>:$word,
                       I64Attr:$dm);
  let assemblyFormat = "$value `word` $word `dm` $dm attr-dict";
  let hasVerifier = 1;
}

def Snitch_ScfgriOp : Snitch_Op<"scfgri"> {
  let summary = "read an SSR configuration word (Xssr `scfgri`)";
  let description = [{
    ```mlir
    snitch.scfgri "a0" word 0 dm 1
    ```
  }];
  let arguments = (ins StrAttr:$result,
                       ConfinedAttr<I64Attr, [IntMinValue<0>, IntMaxValue<31>]>:$word,
                       I64Attr:$dm);
  let assemblyFormat = "$result `word` $word `dm` $dm attr-dict";
  let hasVerifier = 1;
}

def Snitch_SsrEnableOp : Snitch_Op<"ssr_enable"> {
  let summary = "enable the stream semantic registers (`csrsi 0x7c0, 1`)";
  let assemblyFormat = "attr-dict";
}

def Snitch_SsrDisableOp : Snitch_Op<"ssr_disable"> {
  let summary = "disable the stream semantic registers (`csrci 0x7c0, 1`)";
  let assemblyFormat = "attr-dict";
}

def Snitch_FrepOOp : Snitch_Op<"frep_o"> {
  let summary = "repeat the next instructions (Xfrep `frep.o`)";
  let description = [{
    Repeats the `body` instructions that follow it `x[max_rep] + 1` times,
    with optional register staggering.

    ```mlir
    snitch.frep_o "t0" body 4
    ```

    The verifier checks the same limits as `snitch.frep` on the following
    `body` operations, which must be repeatable `snitch.insn`s.
  }];
  let arguments = (ins StrAttr:$max_rep,
                       ConfinedAttr<I64Attr, [IntPositive]>:$body,
                       DefaultValuedAttr<I64Attr, "0">:$stagger_count,
                       DefaultValuedAttr<I64Attr, "0">:$stagger_mask);
  let assemblyFormat = [{
    $max_rep `body` $body (`stagger` $stagger_count^ `mask` $stagger_mask)?
    attr-dict
  }];
  let hasVerifier = 1;
}

#endif // PERFDOJO_DIALECT_SNITCH_IR_SNITCHOPS_TD
