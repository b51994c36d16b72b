/* Calls every function of the tuned library (perfdojo_library.h, from
 * perfdojo-tune) on the inputs perfdojo-run dumped and prints their outputs
 * in the --dump-outputs format, one section per function.
 * Usage: main MATMUL_INPUTS RMSNORM_INPUTS */
#include "harness.h"
#include "perfdojo_library.h"

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s matmul.in rmsnorm.in\n", argv[0]);
    return 2;
  }
  const float *a = harness_input_f32(argv[1], "a", 64 * 96);
  const float *b = harness_input_f32(argv[1], "b", 96 * 80);
  float *c = harness_output_f32(64 * 80);
  matmul_t1(a, b, c);
  harness_print_f32("c", "f32 [64, 80]", c, 64 * 80);
  c = harness_output_f32(64 * 80);
  matmul_t2(a, b, c);
  harness_print_f32("c", "f32 [64, 80]", c, 64 * 80);

  const float *x = harness_input_f32(argv[2], "x", 128 * 256);
  float *y = harness_output_f32(128 * 256);
  rmsnorm_t2(x, y);
  harness_print_f32("y", "f32 [128, 256]", y, 128 * 256);
  return 0;
}
