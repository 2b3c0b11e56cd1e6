#ifndef STORERECON_CCURL_SHIM_H
#define STORERECON_CCURL_SHIM_H
#include <curl/curl.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic and do not import into Swift: one typed
   wrapper per argument type. */

static inline CURLcode storerecon_curl_setopt_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode storerecon_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode storerecon_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode storerecon_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
  return curl_easy_setopt(handle, option, value);
}

typedef size_t (*storerecon_curl_io_callback)(char *buffer, size_t size, size_t count, void *userdata);

static inline CURLcode storerecon_curl_setopt_callback(
    CURL *handle, CURLoption option, storerecon_curl_io_callback value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode storerecon_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
  return curl_easy_getinfo(handle, info, value);
}

/* CURL_GLOBAL_DEFAULT is a macro expression; Swift does not import it. */
static const long storerecon_curl_global_default = CURL_GLOBAL_DEFAULT;

/* CURL_ERROR_SIZE is a plain macro, but keep every libcurl constant the Swift side needs in one place. */
static const int storerecon_curl_error_size = CURL_ERROR_SIZE;

#endif
