/* dlopen_check [--host LIB] LIBRARY SYMBOL...: loads LIBRARY with the C library this program
 * was linked against (scripts/dist/verify-musl.sh builds it for musl), binding every symbol at
 * once and running its static constructors, and looks up each SYMBOL in it. Exits 1, naming
 * what failed, when the library or a symbol cannot be had.
 *
 * A JNI library needs nothing else (the JVM's functions come through JNIEnv). A Node addon
 * calls napi_* functions that only a Node process defines: --host LIB loads LIB first, with
 * RTLD_GLOBAL, to stand in for that process (the script generates one whose napi_* functions
 * abort, from the addon's own undefined napi_* symbols, so nothing else is stood in for). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    int first = 1;
    if (argc > 2 && strcmp(argv[1], "--host") == 0) {
        if (dlopen(argv[2], RTLD_NOW | RTLD_GLOBAL) == NULL) {
            fprintf(stderr, "dlopen_check: FAIL host %s\n", dlerror());
            return 1;
        }
        first = 3;
    }
    if (argc <= first) {
        fprintf(stderr, "usage: dlopen_check [--host LIB] LIBRARY SYMBOL...\n");
        return 2;
    }
    void *lib = dlopen(argv[first], RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        fprintf(stderr, "dlopen_check: FAIL %s\n", dlerror());
        return 1;
    }
    for (int i = first + 1; i < argc; i++) {
        if (dlsym(lib, argv[i]) == NULL) {
            fprintf(stderr, "dlopen_check: FAIL %s has no %s\n", argv[first], argv[i]);
            return 1;
        }
    }
    printf("dlopen_check: loaded %s, every symbol bound, %d entry point(s) found\n", argv[first],
           argc - first - 1);
    return 0;
}
