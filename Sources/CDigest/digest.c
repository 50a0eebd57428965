// The libcrypto functions SHA256Hasher calls, each defined here under its own name and forwarding to the
// library loaded by stillroom_digest_load() (CDigest.h says why).
#include "CDigest.h"

#include <LazyLibrary.h>
#include <openssl/evp.h>

STILLROOM_DLOPEN_NOTE(stillroom_digest_note,
    "[{\"feature\":\"digests\",\"description\":\"Checks each download against its SHA-256 (OpenSSL's "
    "libcrypto)\",\"priority\":\"recommended\",\"soname\":[\"libcrypto.so.3\"]}]");

// RETURNING(type, name, parameters, arguments) and VOID(name, parameters, arguments), one per function.
#define DIGEST_FUNCTIONS(RETURNING, VOID)                                                                    \
    RETURNING(EVP_MD_CTX *, EVP_MD_CTX_new, (void), ())                                                      \
    VOID(EVP_MD_CTX_free, (EVP_MD_CTX *ctx), (ctx))                                                          \
    RETURNING(int, EVP_MD_CTX_copy_ex, (EVP_MD_CTX *out, const EVP_MD_CTX *in), (out, in))                   \
    RETURNING(const EVP_MD *, EVP_sha256, (void), ())                                                        \
    RETURNING(int, EVP_DigestInit_ex, (EVP_MD_CTX *ctx, const EVP_MD *type, ENGINE *impl), (ctx, type, impl)) \
    RETURNING(int, EVP_DigestUpdate, (EVP_MD_CTX *ctx, const void *d, size_t cnt), (ctx, d, cnt))            \
    RETURNING(int, EVP_DigestFinal_ex, (EVP_MD_CTX *ctx, unsigned char *md, unsigned int *s), (ctx, md, s))

STILLROOM_LAZY_FORWARDERS(DIGEST_FUNCTIONS, digest, "libcrypto.so.3")

const char *stillroom_digest_load(void) { return stillroom_lazy_library_load(&digest); }
