#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver, linked in by `-sanitize=fuzzer`. The fuzz executables start it from their own
// `main`: SwiftPM links an executable's `main` to the module's entry point, which would otherwise
// hide libFuzzer's.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
