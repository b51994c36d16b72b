/* Calls the integer and bool kernels of the test library (dtypes.h, from
 * perfdojo-translate --emit=c-header) on the inputs perfdojo-run dumped and
 * prints their outputs in the --dump-outputs format, as exact integers
 * (harness.h reads floats; these values must not pass through one).
 * Usage: dtypes_main DOT_I64_INPUTS MASK_BOOL_INPUTS WRAP_I8_INPUTS */
#include "dtypes.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *message, const char *detail) {
  fprintf(stderr, "dtypes_main: %s%s\n", message, detail);
  exit(1);
}

#define ALIGNED(type, count)                                                  \
  aligned_alloc(64, 64 * (((count) * sizeof(type) + 63) / 64))

/* The `count` values of integer or bool buffer `name` in dump file `path`,
 * exactly (the caller narrows them to the buffer's type). */
static long long *read_ints(const char *path, const char *name, long count) {
  FILE *file = fopen(path, "r");
  if (!file)
    fail("cannot open ", path);
  char line[256];
  size_t length = strlen(name);
  int found = 0;
  while (!found && fgets(line, sizeof line, file))
    found = line[0] == '#' && !strncmp(line + 2, name, length) &&
            line[2 + length] == ' ';
  if (!found)
    fail("no such buffer in the inputs file: ", name);
  long long *data = malloc(count * sizeof(long long));
  for (long i = 0; i < count; ++i) {
    if (!fgets(line, sizeof line, file) || line[0] == '#')
      fail("too few values for ", name);
    data[i] = strtoll(line, NULL, 10);
  }
  fclose(file);
  return data;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s dot_i64.in mask_bool.in wrap_i8.in\n", argv[0]);
    return 2;
  }
  long long *v;

  int64_t *x = ALIGNED(int64_t, 16), *y = ALIGNED(int64_t, 16);
  int64_t *s = ALIGNED(int64_t, 2);
  v = read_ints(argv[1], "x", 16);
  for (int i = 0; i < 16; ++i)
    x[i] = v[i];
  v = read_ints(argv[1], "y", 16);
  for (int i = 0; i < 16; ++i)
    y[i] = v[i];
  dot_i64(x, y, s);
  printf("# s i64 [2]\n");
  for (int i = 0; i < 2; ++i)
    printf("%lld\n", (long long)s[i]);

  uint8_t *p = ALIGNED(uint8_t, 64), *q = ALIGNED(uint8_t, 64);
  uint8_t *r = ALIGNED(uint8_t, 64), *a = ALIGNED(uint8_t, 2);
  v = read_ints(argv[2], "p", 64);
  for (int i = 0; i < 64; ++i)
    p[i] = (uint8_t)v[i];
  v = read_ints(argv[2], "q", 64);
  for (int i = 0; i < 64; ++i)
    q[i] = (uint8_t)v[i];
  mask_bool(p, q, r, a);
  printf("# r bool [64]\n");
  for (int i = 0; i < 64; ++i)
    printf("%d\n", r[i]);
  printf("# a bool [2]\n");
  for (int i = 0; i < 2; ++i)
    printf("%d\n", a[i]);

  int8_t *xb = ALIGNED(int8_t, 64), *yb = ALIGNED(int8_t, 64);
  v = read_ints(argv[3], "x", 64);
  for (int i = 0; i < 64; ++i)
    xb[i] = (int8_t)v[i];
  wrap_i8(xb, yb);
  printf("# y i8 [64]\n");
  for (int i = 0; i < 64; ++i)
    printf("%d\n", yb[i]);
  return 0;
}
