// OpenSSL's libcrypto, loaded when the first digest is computed rather than at exec (CLazyLibrary): the
// daemon hashes only downloads (each chunk as it lands, a copy checked at start-up from the loop after
// READY=1, a kept list's name), and libcrypto with the compressors it brings was a sixth of what the loader
// read from the card before main on every boot. SHA256Hasher keeps calling the EVP functions by their own
// names: digest.c defines them, hidden, forwarding to the loaded library's (LazyLibrary.h).
#ifndef STILLROOM_CDIGEST_H
#define STILLROOM_CDIGEST_H

/// Loads libcrypto.so.3 (once per process): NULL when every digest function is resolved, otherwise the
/// loader's reason.
const char *stillroom_digest_load(void);

#endif
