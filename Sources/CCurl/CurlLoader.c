// Loads libcurl.so.4 with dlopen and calls it through the pointers dlsym returns (include/CCurl.h says why).
#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#if defined(__APPLE__)
static const char *const library_names[] = {"libcurl.4.dylib", "libcurl.dylib", NULL};
#else
static const char *const library_names[] = {"libcurl.so.4", NULL};
#endif

static int (*global_init)(long flags);
static PreludeCurlHandle *(*easy_init)(void);
static void (*easy_cleanup)(PreludeCurlHandle *);
static prelude_curl_code (*easy_perform)(PreludeCurlHandle *);
static const char *(*easy_strerror)(prelude_curl_code);
static prelude_curl_slist *(*slist_append)(prelude_curl_slist *, const char *);
static void (*slist_free_all)(prelude_curl_slist *);
// The variadic functions keep their variadic type: calling them through a fixed-argument type would be undefined.
static prelude_curl_code (*easy_setopt)(PreludeCurlHandle *, int, ...);
static prelude_curl_code (*easy_getinfo)(PreludeCurlHandle *, int, ...);

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_failure = NULL;
static char load_failure_text[512];

static void *symbol(void *library, const char *name) {
    void *address = dlsym(library, name);
    if (address == NULL && load_failure == NULL) {
        const char *reason = dlerror();
        snprintf(load_failure_text, sizeof load_failure_text, "libcurl has no %s: %s", name,
                 reason ? reason : "symbol not found");
        load_failure = load_failure_text;
    }
    return address;
}

static void load(void) {
    void *library = NULL;
    const char *reason = NULL;
    for (const char *const *name = library_names; *name != NULL && library == NULL; name++) {
        library = dlopen(*name, RTLD_NOW | RTLD_LOCAL);
        if (library == NULL) reason = dlerror();
    }
    if (library == NULL) {
        snprintf(load_failure_text, sizeof load_failure_text,
                 "cannot load %s (Debian: the libcurl4 package): %s", library_names[0],
                 reason ? reason : "not found");
        load_failure = load_failure_text;
        return;
    }
    // The library stays loaded for the process's life: no dlclose.
    *(void **)&global_init = symbol(library, "curl_global_init");
    *(void **)&easy_init = symbol(library, "curl_easy_init");
    *(void **)&easy_cleanup = symbol(library, "curl_easy_cleanup");
    *(void **)&easy_perform = symbol(library, "curl_easy_perform");
    *(void **)&easy_strerror = symbol(library, "curl_easy_strerror");
    *(void **)&slist_append = symbol(library, "curl_slist_append");
    *(void **)&slist_free_all = symbol(library, "curl_slist_free_all");
    *(void **)&easy_setopt = symbol(library, "curl_easy_setopt");
    *(void **)&easy_getinfo = symbol(library, "curl_easy_getinfo");
    if (load_failure != NULL) return;
    // curl_global_init is not thread-safe against other libcurl calls: it runs here, once, before any handle.
    int code = global_init(PRELUDE_CURL_GLOBAL_DEFAULT);
    if (code != PRELUDE_CURLE_OK) {
        snprintf(load_failure_text, sizeof load_failure_text, "curl_global_init failed: %s", easy_strerror(code));
        load_failure = load_failure_text;
    }
}

const char *prelude_curl_load(void) {
    pthread_once(&load_once, load);
    return load_failure;
}

PreludeCurlHandle *prelude_curl_easy_init(void) { return easy_init(); }
void prelude_curl_easy_cleanup(PreludeCurlHandle *handle) { easy_cleanup(handle); }
prelude_curl_code prelude_curl_easy_perform(PreludeCurlHandle *handle) { return easy_perform(handle); }
const char *prelude_curl_easy_strerror(prelude_curl_code code) { return easy_strerror(code); }
prelude_curl_slist *prelude_curl_slist_append(prelude_curl_slist *list, const char *line) {
    return slist_append(list, line);
}
void prelude_curl_slist_free_all(prelude_curl_slist *list) { slist_free_all(list); }

prelude_curl_code prelude_curl_setopt_long(PreludeCurlHandle *handle, int option, long value) {
    return easy_setopt(handle, option, value);
}
prelude_curl_code prelude_curl_setopt_string(PreludeCurlHandle *handle, int option, const char *value) {
    return easy_setopt(handle, option, value);
}
prelude_curl_code prelude_curl_setopt_pointer(PreludeCurlHandle *handle, int option, void *value) {
    return easy_setopt(handle, option, value);
}
prelude_curl_code prelude_curl_setopt_list(PreludeCurlHandle *handle, int option, prelude_curl_slist *value) {
    return easy_setopt(handle, option, value);
}
prelude_curl_code prelude_curl_setopt_write(PreludeCurlHandle *handle, int option, prelude_curl_write_callback value) {
    return easy_setopt(handle, option, value);
}
prelude_curl_code prelude_curl_setopt_progress(PreludeCurlHandle *handle, prelude_curl_xferinfo_callback value) {
    return easy_setopt(handle, PRELUDE_CURLOPT_XFERINFOFUNCTION, value);
}
prelude_curl_code prelude_curl_setopt_sockopt(PreludeCurlHandle *handle, prelude_curl_sockopt_callback value) {
    return easy_setopt(handle, PRELUDE_CURLOPT_SOCKOPTFUNCTION, value);
}
prelude_curl_code prelude_curl_setopt_closesocket(PreludeCurlHandle *handle, prelude_curl_closesocket_callback value) {
    return easy_setopt(handle, PRELUDE_CURLOPT_CLOSESOCKETFUNCTION, value);
}
prelude_curl_code prelude_curl_getinfo_long(PreludeCurlHandle *handle, int info, long *value) {
    return easy_getinfo(handle, info, value);
}
