// OpenSSL's libcrypto, for its message digests (EVP). The box already carries it: libcurl (the OpenSSL
// flavour) loads it for TLS. The headers only: the functions are CDigest's, loaded on first use.
#ifndef STILLROOM_CCRYPTO_SHIM_H
#define STILLROOM_CCRYPTO_SHIM_H

#include <openssl/evp.h>

#endif
