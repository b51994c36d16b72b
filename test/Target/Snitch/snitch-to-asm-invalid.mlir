// RUN: perfdojo-translate --snitch-to-asm %s -verify-diagnostics -split-input-file
//
// Emission needs valid functions; the translation lowers structured ops
// itself, so only verifier errors reach the user.

snitch.function @negative_long_body {
  // expected-error @below {{repeats 17 instructions, but 0 follow it}}
  snitch.frep_o "t0" body 17
}

// -----

// expected-error @below {{no snitch.function to emit}}
module {
}
