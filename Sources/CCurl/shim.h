// libcurl. curl_easy_setopt, curl_multi_setopt and curl_easy_getinfo are variadic, and a few constants
// are macros Swift cannot import; these typed inline functions are how Swift calls them.
// No _GNU_SOURCE here: it would change <sys/select.h>'s fd_set and clash with Swift's Glibc module.
#ifndef STILLROOM_CCURL_SHIM_H
#define STILLROOM_CCURL_SHIM_H

#include <curl/curl.h>

static inline CURLcode stillroom_curl_global_init(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }

static inline CURLcode stillroom_easy_setopt_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode stillroom_easy_setopt_offset(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}

/// libcurl copies strings passed to curl_easy_setopt (since 7.17.0), so `value` may be temporary.
static inline CURLcode stillroom_easy_setopt_string(CURL *easy, CURLoption option, const char *value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode stillroom_easy_setopt_pointer(CURL *easy, CURLoption option, void *value) {
    return curl_easy_setopt(easy, option, value);
}

/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION share this signature.
static inline CURLcode stillroom_easy_setopt_write_function(CURL *easy, CURLoption option, curl_write_callback function) {
    return curl_easy_setopt(easy, option, function);
}

static inline CURLcode stillroom_easy_getinfo_long(CURL *easy, CURLINFO info, long *value) {
    return curl_easy_getinfo(easy, info, value);
}

static inline CURLcode stillroom_easy_getinfo_offset(CURL *easy, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(easy, info, value);
}

static inline CURLMcode stillroom_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *value) {
    return curl_multi_setopt(multi, option, value);
}

static inline CURLMcode stillroom_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

static inline CURLMcode stillroom_multi_setopt_socket_function(CURLM *multi, curl_socket_callback function) {
    return curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, function);
}

static inline CURLMcode stillroom_multi_setopt_timer_function(CURLM *multi, curl_multi_timer_callback function) {
    return curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, function);
}

/// CURL_SOCKET_TIMEOUT: the "socket" curl_multi_socket_action takes when a timeout expired.
static inline curl_socket_t stillroom_socket_timeout(void) { return CURL_SOCKET_TIMEOUT; }

/// CURL_ERROR_SIZE: the size of the buffer CURLOPT_ERRORBUFFER writes to.
static inline int stillroom_error_size(void) { return CURL_ERROR_SIZE; }

/// The result of a finished transfer (CURLMsg.data.result; the union is awkward from Swift).
static inline CURLcode stillroom_message_result(const CURLMsg *message) { return message->data.result; }

#endif
