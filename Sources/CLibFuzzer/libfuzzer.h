// libFuzzer's driver, declared for Sources/CatalogFuzzer. Nothing is linked here: the function is
// in clang's fuzzer runtime, which `-sanitize=fuzzer` links, and only the fuzzing build calls it.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
