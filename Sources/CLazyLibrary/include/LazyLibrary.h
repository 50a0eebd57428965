// A shared library loaded on first use (dlopen) rather than at exec.
//
// Downloads (libcurl) and speech (libespeak-ng) serve neither PLAY nor the first frame, yet linked normally
// they and their dependencies were 48 of the daemon's 106 libraries (the development host's build), all
// mapped and relocated before main on every boot. Loaded here, they cost nothing until the first download
// or the first spoken word, and a box without them still plays: the feature reports the loader's words.
#ifndef STILLROOM_LAZY_LIBRARY_H
#define STILLROOM_LAZY_LIBRARY_H

#include <stddef.h>
#include <stdint.h>

struct stillroom_lazy_library {
    /// The soname to dlopen ("libcurl.so.4"): the ABI the headers were written for.
    const char *soname;
    /// The symbols to resolve, in the order of `slots`.
    const char *const *symbols;
    void **slots;
    size_t count;
    /// Whether the load was tried (under the loader's lock): it is tried once per process.
    int tried;
    /// NULL once loaded; otherwise why not, in `message`.
    const char *error;
    char message[320];
};

/// Loads `library` once per process (safe from any thread); NULL when every symbol is resolved,
/// otherwise the reason ("libcurl.so.4: cannot open shared object file: …"), the same on every call.
const char *stillroom_lazy_library_load(struct stillroom_lazy_library *library);

/// The function in slot `index` of `library`, loading the library first when that has not been done. For
/// forwarders (below): their callers load first and handle a failure; a call that comes before that loads
/// here, and a library that cannot be loaded then stops the process with the loader's words rather than a
/// jump through a null pointer.
void *stillroom_lazy_library_function(struct stillroom_lazy_library *library, size_t index);

// Forwarders: a library's functions defined in the binary under their own names, hidden (no library loaded
// later can bind to them), each calling the function loaded from the library. Callers then use the
// library's own headers and names, and the binary is not linked with it. LIST(RETURNING, VOID) names each
// function once, as RETURNING(type, name, parameters, arguments) or VOID(name, parameters, arguments);
// the compiler checks each against the library's header. STILLROOM_LAZY_FORWARDERS(LIST, variable, soname)
// defines the library `variable` (for stillroom_lazy_library_load) and the forwarders; one per file.
#define STILLROOM_LAZY_SLOT(name) stillroom_lazy_slot_##name
#define STILLROOM_LAZY_ENUMERATE_RETURNING(type, name, parameters, arguments) STILLROOM_LAZY_SLOT(name),
#define STILLROOM_LAZY_ENUMERATE_VOID(name, parameters, arguments) STILLROOM_LAZY_SLOT(name),
#define STILLROOM_LAZY_NAME_RETURNING(type, name, parameters, arguments) [STILLROOM_LAZY_SLOT(name)] = #name,
#define STILLROOM_LAZY_NAME_VOID(name, parameters, arguments) [STILLROOM_LAZY_SLOT(name)] = #name,
#define STILLROOM_LAZY_FORWARD_RETURNING(type, name, parameters, arguments)                                   \
    __attribute__((visibility("hidden"))) type name parameters {                                             \
        return ((type(*) parameters)stillroom_lazy_library_function(stillroom_lazy_forwarded,                \
                                                                     STILLROOM_LAZY_SLOT(name)))arguments;   \
    }
#define STILLROOM_LAZY_FORWARD_VOID(name, parameters, arguments)                                              \
    __attribute__((visibility("hidden"))) void name parameters {                                             \
        ((void(*) parameters)stillroom_lazy_library_function(stillroom_lazy_forwarded,                       \
                                                              STILLROOM_LAZY_SLOT(name)))arguments;          \
    }
#define STILLROOM_LAZY_FORWARDERS(LIST, variable, library_soname)                                             \
    enum { LIST(STILLROOM_LAZY_ENUMERATE_RETURNING, STILLROOM_LAZY_ENUMERATE_VOID) variable##_symbol_count }; \
    static const char *const variable##_symbols[variable##_symbol_count] = {                                 \
        LIST(STILLROOM_LAZY_NAME_RETURNING, STILLROOM_LAZY_NAME_VOID)};                                      \
    static void *variable##_slots[variable##_symbol_count];                                                  \
    static struct stillroom_lazy_library variable = {                                                        \
        .soname = library_soname, .symbols = variable##_symbols, .slots = variable##_slots,                  \
        .count = variable##_symbol_count};                                                                   \
    static struct stillroom_lazy_library *const stillroom_lazy_forwarded = &variable;                        \
    LIST(STILLROOM_LAZY_FORWARD_RETURNING, STILLROOM_LAZY_FORWARD_VOID)

// The ELF dlopen metadata note (https://systemd.io/ELF_DLOPEN_METADATA/): a .note.dlopen section with
// owner "FDO", type 0x407c0c0a and a JSON array naming the sonames, so that image/build (and any packaging
// tool) learns what the binary loads at run time, as it learns the rest from DT_NEEDED.
#define STILLROOM_DLOPEN_NOTE_TYPE UINT32_C(0x407c0c0a)
#define STILLROOM_DLOPEN_NOTE(variable, json)                                                              \
    __attribute__((used, section(".note.dlopen"), aligned(4))) static const struct {                       \
        uint32_t name_size, description_size, type;                                                        \
        char name[4];                                                                                      \
        __attribute__((aligned(4))) char description[(sizeof(json) + 3) & ~(size_t)3];                     \
    } variable = {sizeof("FDO"), sizeof(json), STILLROOM_DLOPEN_NOTE_TYPE, "FDO", json}

#endif
