// CCurl: Debian's libcurl (libcurl4-openssl-dev), for `parallax fetch` (HTTP(S) with ranges). Not API.
#include <curl/curl.h>
#include <stdio.h>

// curl_easy_setopt is variadic, which Swift cannot call: one typed wrapper per argument kind.
static inline CURLcode parallax_curl_set_long(CURL *c, CURLoption o, long v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode parallax_curl_set_string(CURL *c, CURLoption o, const char *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode parallax_curl_set_pointer(CURL *c, CURLoption o, void *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode parallax_curl_set_offset(CURL *c, CURLoption o, curl_off_t v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode parallax_curl_set_write(CURL *c, size_t (*f)(char *, size_t, size_t, void *)) { return curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, f); }
static inline CURLcode parallax_curl_set_progress(CURL *c, int (*f)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)) { return curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, f); }
static inline CURLcode parallax_curl_response_code(CURL *c, long *code) { return curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, code); }
// The first value of a response header of the last request (curl_easy_header, libcurl ≥ 7.83),
// copied into `out` (NUL-terminated, cut at `size`); 0 when the response has no such header.
static inline int parallax_curl_header(CURL *c, const char *name, char *out, size_t size) {
    struct curl_header *h = NULL;
    if (size == 0 || curl_easy_header(c, name, 0, CURLH_HEADER, -1, &h) != CURLHE_OK || h == NULL || h->value == NULL) return 0;
    snprintf(out, size, "%s", h->value);
    return 1;
}
