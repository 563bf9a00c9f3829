// libFuzzer's driver, for Sources/CatalogFuzzer. Nothing is linked here: the function is in clang's
// fuzzer runtime, which `-sanitize=fuzzer` links. The declaration is weak, so a build without the
// fuzzer links too and `cf_fuzzer_linked()` tells the two apart at run time.
#include <stddef.h>
#include <stdint.h>

extern int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size))
    __attribute__((weak));

/// 1 when the fuzzer runtime is linked into this executable.
static inline int cf_fuzzer_linked(void) {
    return LLVMFuzzerRunDriver != NULL;
}

/// Runs libFuzzer's driver: parses its flags from argv and fuzzes `callback` until it stops.
static inline int cf_run_fuzzer(int *argc, char ***argv, int (*callback)(const uint8_t *Data, size_t Size)) {
    return LLVMFuzzerRunDriver(argc, argv, callback);
}
