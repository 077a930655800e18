// COpenSSLDigest: Debian's OpenSSL libcrypto (libssl-dev), for SHA-256 of downloads. Not API.
#include <openssl/evp.h>
