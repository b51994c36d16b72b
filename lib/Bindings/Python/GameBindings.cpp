//===- GameBindings.cpp - perfdojo.Move and perfdojo.Game -----------------===//

#include "PythonSupport.h"

#include "perfdojo/Moves/Game.h"
#include "perfdojo/Search/ProgramFeatures.h"

#include "llvm/ADT/StringExtras.h"

#include <pybind11/stl.h>

using namespace mlir;
using namespace perfdojo;
using namespace perfdojo::python;

namespace {
/// A game and the kernel handle whose context its IR lives in (declared
/// first, so it outlives the game).
struct PyGame {
  KernelRef original;
  std::unique_ptr<Game> game;
  std::string target;
};

/// The answer of Game.check.
struct MoveCheck {
  bool legal = true;
  std::string reason;
};
} // namespace

static MoveRequest toMove(const py::handle &move) {
  if (py::isinstance<MoveRequest>(move))
    return move.cast<MoveRequest>();
  if (!py::isinstance<py::str>(move))
    throw py::type_error("a move is a perfdojo.Move or its text, not " +
                         py::str(move.get_type()).cast<std::string>());
  llvm::Expected<MoveRequest> request =
      parseMoveRequest(move.cast<std::string>());
  if (!request)
    raise(ErrorKind::IllegalMove, llvm::toString(request.takeError()));
  return *request;
}

static MoveOptions getMoveOptions(const std::string &target, bool reassociate) {
  llvm::Expected<TargetDescription> description =
      TargetDescription::lookupOrError(target);
  if (!description)
    throw py::value_error(llvm::toString(description.takeError()));
  return MoveOptions{reassociate, *description};
}

static std::vector<MoveRequest> toVector(llvm::ArrayRef<MoveRequest> moves) {
  return std::vector<MoveRequest>(moves.begin(), moves.end());
}

static std::string getScript(llvm::ArrayRef<MoveRequest> moves) {
  return llvm::join(llvm::map_range(moves,
                                    [](const MoveRequest &move) {
                                      return move.str();
                                    }),
                    "; ");
}

static py::array_t<float> toMatrix(const std::vector<std::vector<float>> &rows) {
  size_t width = getProgramFeatureSize();
  py::array_t<float> out({rows.size(), width});
  float *data = out.mutable_data();
  for (const std::vector<float> &row : rows)
    data = std::copy(row.begin(), row.end(), data);
  return out;
}

/// Each move of `moves` (every legal move when none) applied to the
/// current state and undone: the successors' texts, or their features.
static py::object getSuccessors(PyGame &g, std::optional<py::list> moves,
                                bool features) {
  std::vector<MoveRequest> requests;
  if (moves)
    for (py::handle move : *moves)
      requests.push_back(toMove(move));
  else
    requests = toVector(g.game->legalMoves());
  if (features) {
    llvm::Expected<std::vector<std::vector<float>>> rows =
        computeSuccessorFeatures(*g.game, requests);
    if (!rows)
      raise(ErrorKind::IllegalMove, llvm::toString(rows.takeError()));
    return toMatrix(*rows);
  }
  std::vector<std::string> texts;
  for (const MoveRequest &move : requests) {
    if (llvm::Error error = g.game->apply(move))
      raise(ErrorKind::IllegalMove, llvm::toString(std::move(error)));
    texts.push_back(g.game->print());
    if (!g.game->undo())
      raise(ErrorKind::Dojo, "cannot undo '" + move.str() + "'");
  }
  return py::cast(texts);
}

void python::bindGame(py::module_ &m) {
  py::class_<MoveRequest>(m, "Move", R"(
One move as written: `name location params...` (`split_scope y@0 16`).
Build one from its text, Move("split_scope y@0 16"); str(move) is the
canonical text, which Game.apply and the move scripts of perfdojo-opt
accept. docs/moves.md has the grammar and every move kind.)")
      .def(py::init([](const std::string &text) {
             llvm::Expected<MoveRequest> request = parseMoveRequest(text);
             if (!request)
               raise(ErrorKind::IllegalMove,
                     llvm::toString(request.takeError()));
             return *request;
           }),
           py::arg("text"))
      .def_property_readonly(
          "name", [](const MoveRequest &r) { return r.name; },
          "The move kind's name, e.g. 'split_scope'.")
      .def_property_readonly(
          "kind", [](const MoveRequest &r) { return r.name; },
          "Alias of name: the kind of move.")
      .def_property_readonly(
          "location", [](const MoveRequest &r) { return r.location; },
          "Where it applies: a node selector (`y@0`) or a buffer "
          "dimension (`t.0`).")
      .def_property_readonly(
          "params",
          [](const MoveRequest &r) {
            return std::vector<int64_t>(r.params.begin(), r.params.end());
          },
          "Its integer parameters.")
      .def_property_readonly("text", &MoveRequest::str,
                             "The canonical text.")
      .def("__str__", &MoveRequest::str)
      .def("__repr__",
           [](const MoveRequest &r) {
             return "perfdojo.Move('" + r.str() + "')";
           })
      .def("__eq__", [](const MoveRequest &a,
                        const MoveRequest &b) { return a == b; })
      .def("__hash__",
           [](const MoveRequest &r) { return py::hash(py::str(r.str())); });

  py::class_<MoveCheck>(m, "MoveCheck",
                        "The answer of Game.check: `legal`, and the "
                        "`reason` when it is not. Truthy when legal.")
      .def_readonly("legal", &MoveCheck::legal)
      .def_readonly("reason", &MoveCheck::reason)
      .def("__bool__", [](const MoveCheck &c) { return c.legal; })
      .def("__repr__", [](const MoveCheck &c) {
        return c.legal ? std::string("<legal>")
                       : "<illegal: " + c.reason + ">";
      });

  py::class_<PyGame>(m, "Game", R"(
The optimization game on a copy of a kernel: legal moves, check, apply,
undo and redo, the history as a move script, and deterministic forks.

target: the modes and locations moves may use ('cpu' by default;
'default' allows everything the IR does, 'snitch', or a GPU chip such
as 'sm_90'). reassociate: whether same-operator reductions may be
reordered (False: bitwise-reproducible moves only).)")
      .def(py::init([](const py::object &kernel, const std::string &target,
                       bool reassociate) {
             KernelRef handle = toKernel(kernel);
             MoveOptions options = getMoveOptions(target, reassociate);
             return PyGame{handle,
                           std::make_unique<Game>(handle->kernel, options),
                           target};
           }),
           py::arg("kernel"), py::arg("target") = "cpu",
           py::arg("reassociate") = true)
      .def(
          "legal_moves",
          [](PyGame &g) { return toVector(g.game->legalMoves()); },
          "Every legal move in the current state, in catalogue order.")
      .def(
          "check",
          [](PyGame &g, const py::object &move) {
            MoveCheck result;
            if (llvm::Error error = g.game->check(toMove(move))) {
              result.legal = false;
              result.reason = llvm::toString(std::move(error));
            }
            return result;
          },
          py::arg("move"),
          "Whether `move` (a Move or its text) is legal now, and why not. "
          "Never changes the state.")
      .def(
          "apply",
          [](PyGame &g, const py::object &move) {
            if (llvm::Error error = g.game->apply(toMove(move)))
              raise(ErrorKind::IllegalMove, llvm::toString(std::move(error)));
          },
          py::arg("move"),
          "Checks and applies `move`; raises IllegalMoveError with the "
          "reason (the state is then unchanged).")
      .def(
          "apply_script",
          [](PyGame &g, const std::string &script) {
            llvm::Expected<llvm::SmallVector<MoveRequest>> moves =
                parseMoveScript(script);
            if (!moves)
              raise(ErrorKind::IllegalMove, llvm::toString(moves.takeError()));
            for (auto [i, move] : llvm::enumerate(*moves))
              if (llvm::Error error = g.game->apply(move)) {
                for (size_t k = 0; k < i; ++k)
                  g.game->undo();
                raise(ErrorKind::IllegalMove,
                      "move " + std::to_string(i + 1) + " ('" + move.str() +
                          "'): " + llvm::toString(std::move(error)));
              }
          },
          py::arg("script"),
          "Applies a `;`-separated move script, all or nothing.")
      .def("undo", [](PyGame &g) { return g.game->undo(); },
           "Undoes the last move; False when there is none.")
      .def("redo", [](PyGame &g) { return g.game->redo(); },
           "Applies again the move the last undo took back; False when "
           "there is none (a new move forgets the undone ones).")
      .def_property_readonly(
          "history", [](PyGame &g) { return toVector(g.game->history()); },
          "The moves applied so far, in order.")
      .def_property_readonly(
          "undone", [](PyGame &g) { return toVector(g.game->undone()); },
          "The moves redo can apply again, the next one last.")
      .def_property_readonly(
          "script", [](PyGame &g) { return getScript(g.game->history()); },
          "The history as a move script (`m1; m2`), as perfdojo-opt "
          "--dojo-apply takes it.")
      .def_property_readonly(
          "text", [](PyGame &g) { return g.game->print(); },
          "The current kernel's canonical .dojo text.")
      .def_property_readonly(
          "target", [](PyGame &g) { return g.target; },
          "The target name the moves are checked for.")
      .def_property_readonly(
          "original", [](PyGame &g) { return g.original; },
          "The kernel the game started from.")
      .def_property_readonly(
          "kernel",
          [](PyGame &g) {
            return copyKernel(g.game->getKernel(), "", g.game->print());
          },
          "A copy of the current kernel.")
      .def(
          "features",
          [](PyGame &g) {
            std::vector<float> row =
                computeProgramFeatures(g.game->getKernel(), g.game->print());
            py::array_t<float> out(row.size());
            std::copy(row.begin(), row.end(), out.mutable_data());
            return out;
          },
          "The current kernel's program features.")
      .def(
          "successors",
          [](PyGame &g, std::optional<py::list> moves, bool features) {
            return getSuccessors(g, std::move(moves), features);
          },
          py::arg("moves") = py::none(), py::arg("features") = false,
          "Every successor in one call: each of `moves` (default: every "
          "legal move) applied and undone. Returns their canonical texts, "
          "or with features=True a float32 array of one feature row each.")
      .def(
          "fork",
          [](PyGame &g) {
            return PyGame{g.original, g.game->fork(), g.target};
          },
          "An independent game in the same state, with the same history.")
      .def(
          "track",
          [](PyGame &g, const std::string &selector) {
            llvm::Expected<Game::Cursor> cursor = g.game->track(selector);
            if (!cursor)
              raise(ErrorKind::IllegalMove, llvm::toString(cursor.takeError()));
            return *cursor;
          },
          py::arg("selector"),
          "Starts following the node `selector` names; returns a cursor.")
      .def(
          "selector",
          [](PyGame &g, Game::Cursor cursor) {
            return g.game->getSelector(cursor);
          },
          py::arg("cursor"),
          "The current selector of the node `cursor` follows; None once a "
          "move removed or duplicated it.")
      .def("__len__", [](PyGame &g) { return g.game->history().size(); })
      .def("__repr__", [](PyGame &g) {
        return "<perfdojo.Game on '" +
               g.game->getKernel().getSymName().str() + "', " +
               std::to_string(g.game->history().size()) + " move(s)>";
      });

  m.def(
      "targets",
      [] {
        std::vector<std::string> names;
        for (llvm::StringRef name : TargetDescription::getNames())
          names.push_back(name.str());
        return names;
      },
      "The target names Game accepts.");
}
