// The functions of CCurl.h, each a call into libcurl.so.4 through a pointer resolved by
// stillroom_curl_load(). Callers load first (CurlGlobal.ensureInitialized); a call before that would
// jump through a null pointer, so every Swift path into curl starts with the load.
#include "CCurl.h"

#include <LazyLibrary.h>

STILLROOM_DLOPEN_NOTE(stillroom_curl_note,
    "[{\"feature\":\"downloads\",\"description\":\"Fetches the session lists and the sessions they offer "
    "(HTTP and HTTPS)\",\"priority\":\"recommended\",\"soname\":[\"libcurl.so.4\"]}]");

enum {
    GLOBAL_INIT, EASY_STRERROR, MULTI_STRERROR, EASY_INIT, EASY_CLEANUP, EASY_SETOPT, EASY_GETINFO,
    MULTI_INIT, MULTI_CLEANUP, MULTI_ADD_HANDLE, MULTI_REMOVE_HANDLE, MULTI_SOCKET_ACTION, MULTI_INFO_READ,
    MULTI_SETOPT, SYMBOL_COUNT
};

static const char *const symbols[SYMBOL_COUNT] = {
    [GLOBAL_INIT] = "curl_global_init",
    [EASY_STRERROR] = "curl_easy_strerror",
    [MULTI_STRERROR] = "curl_multi_strerror",
    [EASY_INIT] = "curl_easy_init",
    [EASY_CLEANUP] = "curl_easy_cleanup",
    [EASY_SETOPT] = "curl_easy_setopt",
    [EASY_GETINFO] = "curl_easy_getinfo",
    [MULTI_INIT] = "curl_multi_init",
    [MULTI_CLEANUP] = "curl_multi_cleanup",
    [MULTI_ADD_HANDLE] = "curl_multi_add_handle",
    [MULTI_REMOVE_HANDLE] = "curl_multi_remove_handle",
    [MULTI_SOCKET_ACTION] = "curl_multi_socket_action",
    [MULTI_INFO_READ] = "curl_multi_info_read",
    [MULTI_SETOPT] = "curl_multi_setopt",
};

static void *slots[SYMBOL_COUNT];
static struct stillroom_lazy_library curl = {
    .soname = "libcurl.so.4", .symbols = symbols, .slots = slots, .count = SYMBOL_COUNT,
};

const char *stillroom_curl_load(void) { return stillroom_lazy_library_load(&curl); }

// The variadic three are called through pointers of their own variadic type, as the ABI requires.
typedef CURLcode (*easy_setopt_function)(CURL *, CURLoption, ...);
typedef CURLcode (*easy_getinfo_function)(CURL *, CURLINFO, ...);
typedef CURLMcode (*multi_setopt_function)(CURLM *, CURLMoption, ...);

CURLcode stillroom_curl_global_init(void) {
    return ((CURLcode (*)(long))slots[GLOBAL_INIT])(CURL_GLOBAL_DEFAULT);
}

const char *stillroom_curl_easy_strerror(CURLcode code) {
    return ((const char *(*)(CURLcode))slots[EASY_STRERROR])(code);
}

const char *stillroom_curl_multi_strerror(CURLMcode code) {
    return ((const char *(*)(CURLMcode))slots[MULTI_STRERROR])(code);
}

CURL *stillroom_curl_easy_init(void) { return ((CURL *(*)(void))slots[EASY_INIT])(); }

void stillroom_curl_easy_cleanup(CURL *easy) { ((void (*)(CURL *))slots[EASY_CLEANUP])(easy); }

CURLcode stillroom_easy_setopt_long(CURL *easy, CURLoption option, long value) {
    return ((easy_setopt_function)slots[EASY_SETOPT])(easy, option, value);
}

CURLcode stillroom_easy_setopt_offset(CURL *easy, CURLoption option, curl_off_t value) {
    return ((easy_setopt_function)slots[EASY_SETOPT])(easy, option, value);
}

CURLcode stillroom_easy_setopt_string(CURL *easy, CURLoption option, const char *value) {
    return ((easy_setopt_function)slots[EASY_SETOPT])(easy, option, value);
}

CURLcode stillroom_easy_setopt_pointer(CURL *easy, CURLoption option, void *value) {
    return ((easy_setopt_function)slots[EASY_SETOPT])(easy, option, value);
}

CURLcode stillroom_easy_setopt_write_function(CURL *easy, CURLoption option, curl_write_callback function) {
    return ((easy_setopt_function)slots[EASY_SETOPT])(easy, option, function);
}

CURLcode stillroom_easy_getinfo_offset(CURL *easy, CURLINFO info, curl_off_t *value) {
    return ((easy_getinfo_function)slots[EASY_GETINFO])(easy, info, value);
}

CURLM *stillroom_curl_multi_init(void) { return ((CURLM *(*)(void))slots[MULTI_INIT])(); }

CURLMcode stillroom_curl_multi_cleanup(CURLM *multi) {
    return ((CURLMcode (*)(CURLM *))slots[MULTI_CLEANUP])(multi);
}

CURLMcode stillroom_curl_multi_add_handle(CURLM *multi, CURL *easy) {
    return ((CURLMcode (*)(CURLM *, CURL *))slots[MULTI_ADD_HANDLE])(multi, easy);
}

CURLMcode stillroom_curl_multi_remove_handle(CURLM *multi, CURL *easy) {
    return ((CURLMcode (*)(CURLM *, CURL *))slots[MULTI_REMOVE_HANDLE])(multi, easy);
}

CURLMcode stillroom_curl_multi_socket_action(CURLM *multi, curl_socket_t socket, int flags, int *running) {
    return ((CURLMcode (*)(CURLM *, curl_socket_t, int, int *))slots[MULTI_SOCKET_ACTION])(multi, socket, flags, running);
}

CURLMsg *stillroom_curl_multi_info_read(CURLM *multi, int *remaining) {
    return ((CURLMsg *(*)(CURLM *, int *))slots[MULTI_INFO_READ])(multi, remaining);
}

CURLMcode stillroom_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *value) {
    return ((multi_setopt_function)slots[MULTI_SETOPT])(multi, option, value);
}

CURLMcode stillroom_multi_setopt_socket_function(CURLM *multi, curl_socket_callback function) {
    return ((multi_setopt_function)slots[MULTI_SETOPT])(multi, CURLMOPT_SOCKETFUNCTION, function);
}

CURLMcode stillroom_multi_setopt_timer_function(CURLM *multi, curl_multi_timer_callback function) {
    return ((multi_setopt_function)slots[MULTI_SETOPT])(multi, CURLMOPT_TIMERFUNCTION, function);
}
