dojo.kernel @gemm {
  dojo.buffer a f32 [16, 16] heap in
  dojo.buffer b f32 [16, 16] heap in
  dojo.buffer c f32 [16, 16] heap out
  dojo.scope 16 {
    dojo.scope 16 {
      dojo.leaf c[{0}, {1}] = 0
      dojo.scope 16 {
        dojo.leaf c[{0}, {1}] += a[{0}, {2}] * b[{2}, {1}]
      }
    }
  }
}
