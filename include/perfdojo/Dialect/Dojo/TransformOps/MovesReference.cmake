# Writes docs/moves-reference.md: a short header, then the op documentation
# mlir-tblgen generated from DojoTransformOps.td (the one source of every
# move's description). Run as `cmake -DIN=<generated.md> -DOUT=<page> -P`.
file(READ "${IN}" generated)
file(WRITE "${OUT}" "# Move reference

<!-- Generated from include/perfdojo/Dialect/Dojo/TransformOps/DojoTransformOps.td
     by the build (target perfdojo-moves-reference); do not edit. After
     changing an op description, copy <build>/docs/moves-reference.md here:
     test/Docs/moves-reference.test fails while this file is stale. -->

Every move of the catalogue as a Transform dialect op
(`transform.dojo.<move> \"<location>\" params [...] in %kernels`): what it
rewrites, when it is legal, its inverse and its return modes. The same
moves run through `perfdojo-opt --dojo-apply` and the C++ game API; the
guide is [moves.md](moves.md).

${generated}")
