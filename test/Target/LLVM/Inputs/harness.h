/* Helpers for C programs that call kernels compiled by
 * `perfdojo-translate --emit=obj`: read the inputs that
 * `perfdojo-run --dump-inputs=FILE` wrote, and print outputs in the
 * `--dump-outputs` format, so that compare_dumps.py can check them against
 * the interpreter. Plain C99, built for the host and the cross targets. */
#ifndef PERFDOJO_TEST_HARNESS_H
#define PERFDOJO_TEST_HARNESS_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void harness_fail(const char *message, const char *detail) {
  fprintf(stderr, "harness: %s%s\n", message, detail);
  exit(1);
}

/* The `count` values of buffer `name` in dump file `path`, as floats. */
static float *harness_input_f32(const char *path, const char *name,
                                long count) {
  FILE *file = fopen(path, "r");
  if (!file)
    harness_fail("cannot open ", path);
  char line[256];
  size_t length = strlen(name);
  int found = 0;
  while (fgets(line, sizeof line, file))
    if (line[0] == '#' && !strncmp(line + 2, name, length) &&
        line[2 + length] == ' ') {
      found = 1;
      break;
    }
  if (!found)
    harness_fail("no such buffer in the inputs file: ", name);
  /* 64-byte aligned, like the buffers perfdojo-run passes. */
  float *data = aligned_alloc(64, ((count * sizeof(float) + 63) / 64) * 64);
  for (long i = 0; i < count; ++i) {
    if (!fgets(line, sizeof line, file) || line[0] == '#')
      harness_fail("too few values for ", name);
    data[i] = strtof(line, NULL);
  }
  if (fgets(line, sizeof line, file) && line[0] != '#')
    harness_fail("too many values for ", name);
  fclose(file);
  return data;
}

/* Storage for an output, filled with NaN so an element never written
 * shows. */
static float *harness_output_f32(long count) {
  float *data = aligned_alloc(64, ((count * sizeof(float) + 63) / 64) * 64);
  for (long i = 0; i < count; ++i)
    data[i] = NAN;
  return data;
}

/* Prints `data` like `perfdojo-run --dump-outputs`: a `# name type [shape]`
 * line, then one value per line. */
static void harness_print_f32(const char *name, const char *typeAndShape,
                              const float *data, long count) {
  printf("# %s %s\n", name, typeAndShape);
  for (long i = 0; i < count; ++i)
    printf("%.9g\n", data[i]);
}

#endif /* PERFDOJO_TEST_HARNESS_H */
