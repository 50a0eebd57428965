// libFuzzer's driver, called from our own main() in fuzz builds (SwiftPM gives every executable its own
// main, so libFuzzer's main cannot be used). Only referenced when built with -DFUZZING -sanitize=fuzzer.
#ifndef STILLROOM_FUZZER_DRIVER_H
#define STILLROOM_FUZZER_DRIVER_H
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
#endif
