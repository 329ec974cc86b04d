#ifndef CFUZZERDRIVER_H
#define CFUZZERDRIVER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver, for a program whose `main` is its own (SwiftPM gives every executable target one):
/// parses libFuzzer's flags from argv and runs `callback` on each input; returns the exit code.
/// Defined in the runtime that `-sanitize=fuzzer` links (compiler-rt's FuzzerDriver.cpp).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
