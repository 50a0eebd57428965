// OpenSSL's libcrypto, for its message digests (EVP). The box already carries it: libcurl (the OpenSSL
// flavour) loads it for TLS. Everything used is a plain function, so nothing needs wrapping here.
#ifndef STILLROOM_CCRYPTO_SHIM_H
#define STILLROOM_CCRYPTO_SHIM_H

#include <openssl/evp.h>

#endif
