//===- MoveKind.h - the typed identity of a move ----------------*- C++ -*-===//
//
// `perfdojo::MoveKind`, one enumerator per move in catalogue order, with
// `stringifyMoveKind` (the name requests write) and `symbolizeMoveKind`.
// Generated from the one list of moves, perfdojo/Moves/Moves.td.
//
//===----------------------------------------------------------------------===//
#ifndef PERFDOJO_MOVES_MOVEKIND_H
#define PERFDOJO_MOVES_MOVEKIND_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

#include "perfdojo/Moves/MoveKinds.h.inc"

#endif // PERFDOJO_MOVES_MOVEKIND_H
