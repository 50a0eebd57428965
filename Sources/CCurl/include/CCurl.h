// libcurl, loaded on first use (CLazyLibrary: downloads do not serve PLAY, and libcurl brings 24 libraries
// of its own). The daemon is not linked with libcurl: every call goes through these functions, which
// call libcurl.so.4's own, and stillroom_curl_load() must have succeeded first. <curl/curl.h> gives the
// types and constants; calling its functions directly would fail to link, on purpose.
//
// curl_easy_setopt, curl_multi_setopt and curl_easy_getinfo are variadic, and a few constants are macros
// Swift cannot import; these typed functions are how Swift reaches them.
// No _GNU_SOURCE here: it would change <sys/select.h>'s fd_set and clash with Swift's Glibc module.
#ifndef STILLROOM_CCURL_H
#define STILLROOM_CCURL_H

#include <curl/curl.h>

/// Loads libcurl.so.4 (once per process): NULL when it is ready, otherwise the loader's reason.
const char *stillroom_curl_load(void);

CURLcode stillroom_curl_global_init(void);
const char *stillroom_curl_easy_strerror(CURLcode code);
const char *stillroom_curl_multi_strerror(CURLMcode code);

CURL *stillroom_curl_easy_init(void);
void stillroom_curl_easy_cleanup(CURL *easy);
CURLcode stillroom_easy_setopt_long(CURL *easy, CURLoption option, long value);
CURLcode stillroom_easy_setopt_offset(CURL *easy, CURLoption option, curl_off_t value);
/// libcurl copies strings passed to curl_easy_setopt (since 7.17.0), so `value` may be temporary.
CURLcode stillroom_easy_setopt_string(CURL *easy, CURLoption option, const char *value);
CURLcode stillroom_easy_setopt_pointer(CURL *easy, CURLoption option, void *value);
/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION share this signature.
CURLcode stillroom_easy_setopt_write_function(CURL *easy, CURLoption option, curl_write_callback function);
CURLcode stillroom_easy_getinfo_offset(CURL *easy, CURLINFO info, curl_off_t *value);

CURLM *stillroom_curl_multi_init(void);
CURLMcode stillroom_curl_multi_cleanup(CURLM *multi);
CURLMcode stillroom_curl_multi_add_handle(CURLM *multi, CURL *easy);
CURLMcode stillroom_curl_multi_remove_handle(CURLM *multi, CURL *easy);
CURLMcode stillroom_curl_multi_socket_action(CURLM *multi, curl_socket_t socket, int flags, int *running);
CURLMsg *stillroom_curl_multi_info_read(CURLM *multi, int *remaining);
CURLMcode stillroom_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *value);
CURLMcode stillroom_multi_setopt_socket_function(CURLM *multi, curl_socket_callback function);
CURLMcode stillroom_multi_setopt_timer_function(CURLM *multi, curl_multi_timer_callback function);

/// CURL_SOCKET_TIMEOUT: the "socket" curl_multi_socket_action takes when a timeout expired.
static inline curl_socket_t stillroom_socket_timeout(void) { return CURL_SOCKET_TIMEOUT; }

/// CURL_ERROR_SIZE: the size of the buffer CURLOPT_ERRORBUFFER writes to.
static inline int stillroom_error_size(void) { return CURL_ERROR_SIZE; }

/// The result of a finished transfer (CURLMsg.data.result; the union is awkward from Swift).
static inline CURLcode stillroom_message_result(const CURLMsg *message) { return message->data.result; }

#endif
