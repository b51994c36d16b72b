/* Calls the kernels of the test library (kernels.h, from
 * perfdojo-translate --emit=c-header) on the inputs perfdojo-run dumped and
 * prints their outputs in the --dump-outputs format.
 * Usage: main SOFTMAX_INPUTS VEC16_INPUTS [RMSNORM_PAR_INPUTS]
 * The last kernel has a ':p' scope and is built only with -DWITH_OPENMP. */
#include "harness.h"
#include "kernels.h"

#ifndef WITH_OPENMP
#define WITH_OPENMP 0
#endif

int main(int argc, char **argv) {
  if (argc != 3 + WITH_OPENMP) {
    fprintf(stderr, "usage: %s softmax.in vec16.in%s\n", argv[0],
            WITH_OPENMP ? " rmsnorm_par.in" : "");
    return 2;
  }

  const float *x = harness_input_f32(argv[1], "x", 9 * 16);
  float *y = harness_output_f32(9 * 16);
  softmax(x, y);
  harness_print_f32("y", "f32 [9, 16]", y, 9 * 16);

  x = harness_input_f32(argv[2], "x", 8 * 16);
  const float *w = harness_input_f32(argv[2], "w", 16);
  y = harness_output_f32(8 * 16);
  vec16(x, w, y);
  harness_print_f32("y", "f32 [8, 16]", y, 8 * 16);

#if WITH_OPENMP
  x = harness_input_f32(argv[3], "x", 64 * 32);
  const float *g = harness_input_f32(argv[3], "g", 32);
  y = harness_output_f32(64 * 32);
  rmsnorm_par(x, g, y);
  harness_print_f32("y", "f32 [64, 32]", y, 64 * 32);
#endif
  return 0;
}
