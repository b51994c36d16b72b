//===- DojoText.h - `.dojo` text import and export -------------*- C++ -*-===//
//
// The `.dojo` format is the human-readable rendering of a dojo kernel (see
// docs/ir.md). Import builds a module holding one `dojo.kernel` with a
// file:line:col location on every op and verifies it; export prints the
// canonical text, so export(import(text)) == text for canonical input.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_TARGET_DOJOTEXT_DOJOTEXT_H
#define PERFDOJO_TARGET_DOJOTEXT_DOJOTEXT_H

#include "perfdojo/Dialect/Dojo/IR/Dojo.h"

#include "mlir/Tools/mlir-translate/Translation.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/MemoryBuffer.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace perfdojo {

/// Parses the main buffer of `sourceMgr` as `.dojo` text into a module with
/// one kernel named `kernelName` (derived from the buffer's file name when
/// empty). Errors are emitted through the context's diagnostic engine with
/// the location of the offending text; returns null on any error, including
/// a verifier failure.
mlir::OwningOpRef<mlir::ModuleOp> importDojo(llvm::SourceMgr &sourceMgr,
                                             mlir::MLIRContext *context,
                                             llvm::StringRef kernelName = "");

/// importDojo of `text` held in memory, named `bufferName` in locations
/// (tests, bindings, generated kernels).
mlir::OwningOpRef<mlir::ModuleOp> importDojoString(llvm::StringRef text,
                                                   mlir::MLIRContext *context,
                                                   llvm::StringRef bufferName =
                                                       "k.dojo");

/// Prints `kernel` as canonical `.dojo` text.
void exportDojo(dojo::KernelOp kernel, llvm::raw_ostream &os);

/// The hash of a kernel's canonical `.dojo` text (16 lower-case hex
/// digits): the key the search's evaluations, its records and move scripts
/// attached to a kernel (`HASH.moves`, docs/embedding.md) are filed under.
/// The text leaves out the kernel's name, so the hash does too.
std::string hashKernelText(llvm::StringRef text);
/// hashKernelText of `kernel`'s canonical text.
std::string hashKernel(dojo::KernelOp kernel);

/// Prints the single kernel found in `op` (a kernel or a module holding
/// exactly one); emits an error and fails otherwise.
mlir::LogicalResult exportDojo(mlir::Operation *op, llvm::raw_ostream &os);

/// Reads a kernel from `path` into `sourceMgr`: `.dojo` text, or MLIR for
/// any other extension (`-` is MLIR from stdin). `kernelName` names the
/// kernel of a `.dojo` file (default: the file's stem). Returns null after
/// emitting diagnostics on failure. Callers that keep `sourceMgr` alive with
/// a SourceMgrDiagnosticHandler get source excerpts in later diagnostics
/// (verifier, interpreter) too.
mlir::OwningOpRef<mlir::ModuleOp>
loadKernelFile(llvm::SourceMgr &sourceMgr, llvm::StringRef path,
               mlir::MLIRContext *context, llvm::StringRef kernelName = "");

/// As above, with a source manager and diagnostic handler of its own that
/// live only while loading.
mlir::OwningOpRef<mlir::ModuleOp>
loadKernelFile(llvm::StringRef path, mlir::MLIRContext *context,
               llvm::StringRef kernelName = "");

/// Reads every file of `paths` (as loadKernelFile) and gathers their
/// top-level operations, in order, into one module: a kernel library, as
/// `perfdojo-translate --emit` compiles it. Two kernels of one name are an
/// error at the second with a note at the first. Returns null after
/// emitting diagnostics on failure.
mlir::OwningOpRef<mlir::ModuleOp>
loadKernelLibrary(llvm::ArrayRef<std::string> paths,
                  mlir::MLIRContext *context, llvm::StringRef kernelName = "");

/// The one kernel in `module`, or null after emitting an error.
dojo::KernelOp getSingleKernel(mlir::ModuleOp module);

/// Whether `text` reads like `.dojo` text: its first line that is not blank
/// or a comment declares a buffer (`name type [...`), which no MLIR text
/// does. Tools that expect MLIR use it to name the slip.
bool looksLikeDojoText(llvm::StringRef text);

/// The offset of the first bracket of MLIR `text` that opens more than
/// 4 x kMaxScopeDepth nested brackets (`{ ( [`, outside strings and
/// comments), if any. MLIR's parser recurses once per nesting level before
/// any verifier runs, so drivers refuse such text up front instead of
/// risking the parser's stack on it; no kernel within the IR's nesting
/// bound comes near.
std::optional<size_t> findExcessiveBraceNesting(llvm::StringRef text);

/// Emits the located error for findExcessiveBraceNesting on the main buffer
/// of `sourceMgr` and fails, or succeeds where the nesting is within it.
mlir::LogicalResult checkBraceNesting(llvm::SourceMgr &sourceMgr,
                                      mlir::MLIRContext *context);

/// Registers an mlir-translate translation from MLIR, as
/// mlir::TranslateFromMLIRRegistration does (the dialects, parse, verify,
/// then `function`), except that input whose brackets nest too deep is
/// refused by checkBraceNesting before MLIR's parser runs on it.
void registerCheckedTranslationFromMLIR(
    llvm::StringRef name, llvm::StringRef description,
    const mlir::TranslateFromMLIRFunction &function,
    const mlir::DialectRegistrationFunction &dialects);

/// The `.dojo` text of the main buffer of `sourceMgr`, imported (as
/// importDojo) and printed as MLIR with its locations, so that an MLIR
/// driver that parses its input itself (perfdojo-opt) reports later errors
/// at the `.dojo` line and column. Null after diagnostics on failure.
std::unique_ptr<llvm::MemoryBuffer>
translateDojoToMLIRBuffer(llvm::SourceMgr &sourceMgr,
                          mlir::MLIRContext *context);

/// Registers `--import-dojo` and `--export-dojo` with mlir-translate.
void registerDojoTranslations();

} // namespace perfdojo

#endif // PERFDOJO_TARGET_DOJOTEXT_DOJOTEXT_H
