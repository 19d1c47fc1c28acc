// libcurl, loaded at run time (docs/http.md, "The outbound client"): the product needs no libcurl headers to build,
// only the shared library `libcurl.so.4` when it first sends a request. Debian's `libcurl4` (the OpenSSL build)
// is on every machine the toolchain runs on, because the toolchain's FoundationNetworking links it too; the
// development package with `curl/curl.h` is not (issue 35: a fresh machine failed to build).
//
// Declared here is the part of libcurl's stable ABI (SONAME libcurl.so.4, unchanged since curl 7.16) that the
// client calls: the functions it needs, and the numbers of the options, info codes and result codes it uses, each
// as curl.h defines it. scripts/check-curl-abi.sh compiles this header against Debian's curl.h and fails on any
// number that differs.
#ifndef PRELUDE_CCURL_H
#define PRELUDE_CCURL_H

#include <stddef.h>
#include <stdint.h>

/// An easy handle (`CURL *`).
typedef void PreludeCurlHandle;
/// A header list (`struct curl_slist *`), only ever passed back to libcurl.
typedef struct prelude_curl_slist prelude_curl_slist;
/// A result code (`CURLcode`).
typedef int prelude_curl_code;

/// `curl_write_callback`: CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
typedef size_t (*prelude_curl_write_callback)(char *bytes, size_t size, size_t count, void *context);
/// `curl_xferinfo_callback` (`curl_off_t` is a 64-bit signed integer on every platform libcurl.so.4 ships for).
typedef int (*prelude_curl_xferinfo_callback)(void *context, int64_t dltotal, int64_t dlnow, int64_t ultotal,
                                              int64_t ulnow);
/// `curl_sockopt_callback` (`curl_socket_t` is an int on POSIX systems).
typedef int (*prelude_curl_sockopt_callback)(void *context, int socket, int purpose);
/// `curl_closesocket_callback`.
typedef int (*prelude_curl_closesocket_callback)(void *context, int socket);

/// `CURLoption` numbers: the option type's base (long 0, object pointer 10000, function pointer 20000, curl_off_t
/// 30000) plus the option's number.
static const int PRELUDE_CURLOPT_WRITEDATA = 10001;
static const int PRELUDE_CURLOPT_URL = 10002;
static const int PRELUDE_CURLOPT_PROXY = 10004;
static const int PRELUDE_CURLOPT_ERRORBUFFER = 10010;
static const int PRELUDE_CURLOPT_WRITEFUNCTION = 20011;
static const int PRELUDE_CURLOPT_HTTPHEADER = 10023;
static const int PRELUDE_CURLOPT_HEADERDATA = 10029;
static const int PRELUDE_CURLOPT_CUSTOMREQUEST = 10036;
static const int PRELUDE_CURLOPT_NOPROGRESS = 43;
static const int PRELUDE_CURLOPT_NOBODY = 44;
static const int PRELUDE_CURLOPT_FOLLOWLOCATION = 52;
static const int PRELUDE_CURLOPT_XFERINFODATA = 10057;
static const int PRELUDE_CURLOPT_POSTFIELDSIZE = 60;
static const int PRELUDE_CURLOPT_SSL_VERIFYPEER = 64;
static const int PRELUDE_CURLOPT_CAINFO = 10065;
static const int PRELUDE_CURLOPT_MAXREDIRS = 68;
static const int PRELUDE_CURLOPT_FORBID_REUSE = 75;
static const int PRELUDE_CURLOPT_HEADERFUNCTION = 20079;
static const int PRELUDE_CURLOPT_HTTPGET = 80;
static const int PRELUDE_CURLOPT_SSL_VERIFYHOST = 81;
static const int PRELUDE_CURLOPT_HTTP_VERSION = 84;
static const int PRELUDE_CURLOPT_NOSIGNAL = 99;
static const int PRELUDE_CURLOPT_MAXFILESIZE = 114;
static const int PRELUDE_CURLOPT_TCP_NODELAY = 121;
static const int PRELUDE_CURLOPT_SOCKOPTFUNCTION = 20148;
static const int PRELUDE_CURLOPT_SOCKOPTDATA = 10149;
static const int PRELUDE_CURLOPT_TIMEOUT_MS = 155;
static const int PRELUDE_CURLOPT_CONNECTTIMEOUT_MS = 156;
static const int PRELUDE_CURLOPT_COPYPOSTFIELDS = 10165;
static const int PRELUDE_CURLOPT_CLOSESOCKETFUNCTION = 20208;
static const int PRELUDE_CURLOPT_CLOSESOCKETDATA = 10209;
static const int PRELUDE_CURLOPT_XFERINFOFUNCTION = 20219;
static const int PRELUDE_CURLOPT_PROTOCOLS_STR = 10318;
static const int PRELUDE_CURLOPT_REDIR_PROTOCOLS_STR = 10319;

/// `CURLINFO_RESPONSE_CODE` (CURLINFO_LONG, 0x200000, plus 2).
static const int PRELUDE_CURLINFO_RESPONSE_CODE = 0x200002;

/// `CURL_HTTP_VERSION_1_1`, `CURL_SOCKOPT_OK`, `CURL_SOCKOPT_ERROR`, `CURL_ERROR_SIZE`, `CURL_GLOBAL_DEFAULT`.
static const long PRELUDE_CURL_HTTP_VERSION_1_1 = 2;
static const int PRELUDE_CURL_SOCKOPT_OK = 0;
static const int PRELUDE_CURL_SOCKOPT_ERROR = 1;
static const int PRELUDE_CURL_ERROR_SIZE = 256;
static const long PRELUDE_CURL_GLOBAL_DEFAULT = 3;

/// The `CURLcode` values the client tells apart.
static const prelude_curl_code PRELUDE_CURLE_OK = 0;
static const prelude_curl_code PRELUDE_CURLE_UNSUPPORTED_PROTOCOL = 1;
static const prelude_curl_code PRELUDE_CURLE_URL_MALFORMAT = 3;
static const prelude_curl_code PRELUDE_CURLE_COULDNT_RESOLVE_HOST = 6;
static const prelude_curl_code PRELUDE_CURLE_COULDNT_CONNECT = 7;
static const prelude_curl_code PRELUDE_CURLE_OPERATION_TIMEDOUT = 28;
static const prelude_curl_code PRELUDE_CURLE_SSL_CONNECT_ERROR = 35;
static const prelude_curl_code PRELUDE_CURLE_ABORTED_BY_CALLBACK = 42;
static const prelude_curl_code PRELUDE_CURLE_BAD_FUNCTION_ARGUMENT = 43;
static const prelude_curl_code PRELUDE_CURLE_SSL_CERTPROBLEM = 58;
static const prelude_curl_code PRELUDE_CURLE_SSL_CIPHER = 59;
static const prelude_curl_code PRELUDE_CURLE_PEER_FAILED_VERIFICATION = 60;
static const prelude_curl_code PRELUDE_CURLE_FILESIZE_EXCEEDED = 63;
static const prelude_curl_code PRELUDE_CURLE_SSL_CACERT_BADFILE = 77;
static const prelude_curl_code PRELUDE_CURLE_SSL_ISSUER_ERROR = 83;
static const prelude_curl_code PRELUDE_CURLE_SSL_PINNEDPUBKEYNOTMATCH = 90;
static const prelude_curl_code PRELUDE_CURLE_SSL_INVALIDCERTSTATUS = 91;

/// Loads libcurl and runs `curl_global_init(CURL_GLOBAL_DEFAULT)`, once per process (later calls return the first
/// call's answer). NULL when libcurl is ready; otherwise why not (the loader's message), valid for the process's
/// life. Every other function here may be called only after this returned NULL.
const char *prelude_curl_load(void);

/// `curl_easy_init`.
PreludeCurlHandle *prelude_curl_easy_init(void);
/// `curl_easy_cleanup`.
void prelude_curl_easy_cleanup(PreludeCurlHandle *handle);
/// `curl_easy_perform`.
prelude_curl_code prelude_curl_easy_perform(PreludeCurlHandle *handle);
/// `curl_easy_strerror`.
const char *prelude_curl_easy_strerror(prelude_curl_code code);
/// `curl_slist_append` (copies `line`).
prelude_curl_slist *prelude_curl_slist_append(prelude_curl_slist *list, const char *line);
/// `curl_slist_free_all`.
void prelude_curl_slist_free_all(prelude_curl_slist *list);

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one function per argument type.

/// curl_easy_setopt with a long argument.
prelude_curl_code prelude_curl_setopt_long(PreludeCurlHandle *handle, int option, long value);
/// curl_easy_setopt with a string argument (libcurl copies it).
prelude_curl_code prelude_curl_setopt_string(PreludeCurlHandle *handle, int option, const char *value);
/// curl_easy_setopt with a data pointer (CURLOPT_WRITEDATA, CURLOPT_HEADERDATA, CURLOPT_ERRORBUFFER, ...).
prelude_curl_code prelude_curl_setopt_pointer(PreludeCurlHandle *handle, int option, void *value);
/// curl_easy_setopt with a header list (CURLOPT_HTTPHEADER).
prelude_curl_code prelude_curl_setopt_list(PreludeCurlHandle *handle, int option, prelude_curl_slist *value);
/// CURLOPT_WRITEFUNCTION or CURLOPT_HEADERFUNCTION.
prelude_curl_code prelude_curl_setopt_write(PreludeCurlHandle *handle, int option, prelude_curl_write_callback value);
/// CURLOPT_XFERINFOFUNCTION.
prelude_curl_code prelude_curl_setopt_progress(PreludeCurlHandle *handle, prelude_curl_xferinfo_callback value);
/// CURLOPT_SOCKOPTFUNCTION.
prelude_curl_code prelude_curl_setopt_sockopt(PreludeCurlHandle *handle, prelude_curl_sockopt_callback value);
/// CURLOPT_CLOSESOCKETFUNCTION.
prelude_curl_code prelude_curl_setopt_closesocket(PreludeCurlHandle *handle, prelude_curl_closesocket_callback value);
/// curl_easy_getinfo for a long result (CURLINFO_RESPONSE_CODE).
prelude_curl_code prelude_curl_getinfo_long(PreludeCurlHandle *handle, int info, long *value);

#endif
