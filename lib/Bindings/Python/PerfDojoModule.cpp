//===- PerfDojoModule.cpp - the perfdojo._perfdojo extension module -------===//
//
// The C++ half of the `perfdojo` Python package (python/perfdojo): kernels,
// the game, running and search. The package re-exports these names and adds
// what is Python's own (tool lookup, the gym environment).
//
//===----------------------------------------------------------------------===//

#include "PythonSupport.h"

using namespace perfdojo::python;

PYBIND11_MODULE(_perfdojo, m) {
  m.doc() = "PerfDojo: ML kernels as a game of small, checked moves (the "
            "C++ core; import `perfdojo` instead).";
  registerErrors(m);
  bindKernel(m);
  bindGame(m);
  bindRun(m);
  bindSearch(m);
}
