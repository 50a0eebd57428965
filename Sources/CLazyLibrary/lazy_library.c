#include "LazyLibrary.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static void load(struct stillroom_lazy_library *library);

/// One lock for every lazy library: loads are rare (once each per process), and the daemon has one
/// thread; tests call from several.
static pthread_mutex_t loading = PTHREAD_MUTEX_INITIALIZER;

const char *stillroom_lazy_library_load(struct stillroom_lazy_library *library) {
    pthread_mutex_lock(&loading);
    if (!library->tried) {
        library->tried = 1;
        load(library);
    }
    const char *error = library->error;
    pthread_mutex_unlock(&loading);
    return error;
}

void *stillroom_lazy_library_function(struct stillroom_lazy_library *library, size_t index) {
    void *function = library->slots[index];
    if (function != NULL) return function;
    const char *error = stillroom_lazy_library_load(library);
    if (error != NULL) {
        fprintf(stderr, "stillroom: %s called without its library: %s\n", library->symbols[index], error);
        abort();
    }
    return library->slots[index];
}

static void load(struct stillroom_lazy_library *library) {
    // RTLD_NOW: a missing symbol is found here, in one place, not at some later call. RTLD_LOCAL: the
    // library's symbols do not become the process's.
    void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(library->message, sizeof library->message, "%s", reason ? reason : library->soname);
        library->error = library->message;
        return;
    }
    for (size_t index = 0; index < library->count; index++) {
        void *symbol = dlsym(handle, library->symbols[index]);
        if (symbol == NULL) {
            snprintf(library->message, sizeof library->message, "%s has no %s (an older version?)",
                     library->soname, library->symbols[index]);
            library->error = library->message;
            return; // left open: nothing of it will be called
        }
        library->slots[index] = symbol;
    }
    library->error = NULL;
}
