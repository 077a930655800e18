// CCurl: Debian's libcurl (libcurl4-openssl-dev), for `parallax fetch` (HTTP(S) with ranges). Not API.
#include <curl/curl.h>

// curl_easy_setopt is variadic, which Swift cannot call: one typed wrapper per argument kind.
static inline CURLcode parallax_curl_set_long(CURL *c, CURLoption o, long v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode parallax_curl_set_string(CURL *c, CURLoption o, const char *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode parallax_curl_set_pointer(CURL *c, CURLoption o, void *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode parallax_curl_set_offset(CURL *c, CURLoption o, curl_off_t v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode parallax_curl_set_write(CURL *c, size_t (*f)(char *, size_t, size_t, void *)) { return curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, f); }
static inline CURLcode parallax_curl_set_progress(CURL *c, int (*f)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)) { return curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, f); }
static inline CURLcode parallax_curl_response_code(CURL *c, long *code) { return curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, code); }
