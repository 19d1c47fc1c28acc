// libcurl (Debian: libcurl4-openssl-dev). curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot
// call; these wrappers give each argument type its own function.
#include <curl/curl.h>

/// curl_easy_setopt with a long argument.
static inline CURLcode prelude_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt with a string argument (libcurl copies it).
static inline CURLcode prelude_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt with a data pointer (CURLOPT_WRITEDATA, CURLOPT_HEADERDATA, CURLOPT_XFERINFODATA, ...).
static inline CURLcode prelude_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt with a header list (CURLOPT_HTTPHEADER).
static inline CURLcode prelude_curl_setopt_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

/// CURLOPT_WRITEFUNCTION or CURLOPT_HEADERFUNCTION.
static inline CURLcode prelude_curl_setopt_write(CURL *handle, CURLoption option, curl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}

/// CURLOPT_XFERINFOFUNCTION.
static inline CURLcode prelude_curl_setopt_progress(CURL *handle, curl_xferinfo_callback value) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}

/// CURLOPT_SOCKOPTFUNCTION.
static inline CURLcode prelude_curl_setopt_sockopt(CURL *handle, curl_sockopt_callback value) {
    return curl_easy_setopt(handle, CURLOPT_SOCKOPTFUNCTION, value);
}

/// curl_easy_getinfo for a long result (CURLINFO_RESPONSE_CODE, ...).
static inline CURLcode prelude_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// CURLOPT_CLOSESOCKETFUNCTION.
static inline CURLcode prelude_curl_setopt_closesocket(CURL *handle, curl_closesocket_callback value) {
    return curl_easy_setopt(handle, CURLOPT_CLOSESOCKETFUNCTION, value);
}

/// curl_global_init(CURL_GLOBAL_DEFAULT): the macro is an expression Swift does not import.
static inline CURLcode prelude_curl_global_init(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }

/// CURL_ERROR_SIZE, the size CURLOPT_ERRORBUFFER needs.
static const int prelude_curl_error_size = CURL_ERROR_SIZE;
