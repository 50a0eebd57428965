// The libcrypto functions SHA256Hasher and the Ed25519 keys call, each defined here under its own name and forwarding to the
// library loaded by stillroom_digest_load() (CDigest.h says why).
#include "CDigest.h"

#include <LazyLibrary.h>
#include <openssl/evp.h>

STILLROOM_DLOPEN_NOTE(stillroom_digest_note,
    "[{\"feature\":\"digests\",\"description\":\"Checks each download against its SHA-256 and each list "
    "of sessions against the maker's Ed25519 signature (OpenSSL's libcrypto)\",\"priority\":\"recommended\",\"soname\":[\"libcrypto.so.3\"]}]");

// RETURNING(type, name, parameters, arguments) and VOID(name, parameters, arguments), one per function.
#define DIGEST_FUNCTIONS(RETURNING, VOID)                                                                    \
    RETURNING(EVP_MD_CTX *, EVP_MD_CTX_new, (void), ())                                                      \
    VOID(EVP_MD_CTX_free, (EVP_MD_CTX *ctx), (ctx))                                                          \
    RETURNING(int, EVP_MD_CTX_copy_ex, (EVP_MD_CTX *out, const EVP_MD_CTX *in), (out, in))                   \
    RETURNING(const EVP_MD *, EVP_sha256, (void), ())                                                        \
    RETURNING(int, EVP_DigestInit_ex, (EVP_MD_CTX *ctx, const EVP_MD *type, ENGINE *impl), (ctx, type, impl)) \
    RETURNING(int, EVP_DigestUpdate, (EVP_MD_CTX *ctx, const void *d, size_t cnt), (ctx, d, cnt))            \
    RETURNING(int, EVP_DigestFinal_ex, (EVP_MD_CTX *ctx, unsigned char *md, unsigned int *s), (ctx, md, s))  \
    RETURNING(EVP_PKEY *, EVP_PKEY_new_raw_public_key,                                                       \
              (int type, ENGINE *e, const unsigned char *key, size_t keylen), (type, e, key, keylen))        \
    RETURNING(EVP_PKEY *, EVP_PKEY_new_raw_private_key,                                                      \
              (int type, ENGINE *e, const unsigned char *key, size_t keylen), (type, e, key, keylen))        \
    RETURNING(int, EVP_PKEY_get_raw_public_key, (const EVP_PKEY *pkey, unsigned char *pub, size_t *len),     \
              (pkey, pub, len))                                                                              \
    VOID(EVP_PKEY_free, (EVP_PKEY *pkey), (pkey))                                                            \
    RETURNING(int, EVP_DigestVerifyInit,                                                                     \
              (EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e, EVP_PKEY *pkey),         \
              (ctx, pctx, type, e, pkey))                                                                    \
    RETURNING(int, EVP_DigestVerify,                                                                         \
              (EVP_MD_CTX *ctx, const unsigned char *sigret, size_t siglen, const unsigned char *tbs,        \
               size_t tbslen), (ctx, sigret, siglen, tbs, tbslen))                                           \
    RETURNING(int, EVP_DigestSignInit,                                                                       \
              (EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e, EVP_PKEY *pkey),         \
              (ctx, pctx, type, e, pkey))                                                                    \
    RETURNING(int, EVP_DigestSign,                                                                           \
              (EVP_MD_CTX *ctx, unsigned char *sigret, size_t *siglen, const unsigned char *tbs,             \
               size_t tbslen), (ctx, sigret, siglen, tbs, tbslen))

STILLROOM_LAZY_FORWARDERS(DIGEST_FUNCTIONS, digest, "libcrypto.so.3")

const char *stillroom_digest_load(void) { return stillroom_lazy_library_load(&digest); }
