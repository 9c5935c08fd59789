#define _GNU_SOURCE 1 /* dladdr */
/* libcgn must never be unmapped while the process runs: CUDA keeps user-object destructors
 * that point into it for as long as a graph, executable or launch holds one. The library is
 * linked with -z nodelete; this checks that dlclose leaves it loaded. */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s path/to/libcgn.so\n", argv[0]);
        return 2;
    }
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        fprintf(stderr, "dlopen %s: %s\n", argv[1], dlerror());
        return 1;
    }
    void *sym = dlsym(lib, "cgn_collect");
    if (sym == NULL) {
        fprintf(stderr, "cgn_collect not exported: %s\n", dlerror());
        return 1;
    }
    if (dlclose(lib) != 0) {
        fprintf(stderr, "dlclose: %s\n", dlerror());
        return 1;
    }
    void *still = dlopen(argv[1], RTLD_NOW | RTLD_NOLOAD);
    if (still == NULL) {
        fprintf(stderr, "libcgn was unloaded by dlclose: user-object destructors would point "
                        "into unmapped code\n");
        return 1;
    }
    Dl_info info;
    if (dladdr(sym, &info) == 0) {
        fprintf(stderr, "cgn_collect's address is no longer mapped\n");
        return 1;
    }
    printf("libcgn stays loaded after dlclose (%s)\n", info.dli_fname);
    return 0;
}
