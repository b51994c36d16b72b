// RUN: perfdojo-opt %s --split-input-file --verify-diagnostics --convert-dojo-to-gpu=chip=gfx942

// Limits of the chip: AMD CDNA parts have 64 KiB of LDS per workgroup.

dojo.kernel @too_much_shared {
  dojo.buffer x f32 [2, 32768] heap in
  dojo.buffer t f32 [2:N, 32768] gpu_shared
  dojo.buffer y f32 [2, 32768] heap out
  // expected-error @below {{'dojo.scope' op launch needs 131072 bytes of block-shared memory, more than the 65536 of the gfx942 target}}
  dojo.scope 2:g {
    dojo.scope 32768 {
      dojo.leaf t[{0}, {1}] = x[{0}, {1}]
    }
    dojo.scope 32768 {
      dojo.leaf y[{0}, {1}] = t[{0}, {1}]
    }
  }
}
