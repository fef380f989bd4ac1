/* peers.c -- libsodium, OpenSSL 3, libgcrypt and Nettle one-shot Poly1305
 *            for polymac bench, each built in when found at configure time */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include <string.h>

#include "peers.h"

#ifdef HAVE_SODIUM
#include <sodium.h>
static int sodium_auth(uint8_t tag[16], const uint8_t *msg, size_t len, const uint8_t key[32])
{
    return crypto_onetimeauth_poly1305(tag, msg, len, key);
}
#endif

#ifdef HAVE_OPENSSL
#include <openssl/evp.h>
#include <openssl/core_names.h>
/* EVP_MAC fetched once, one reused context; per message init with the
 * key, update, final. */
static EVP_MAC_CTX *ossl_ctx;
static int openssl_auth(uint8_t tag[16], const uint8_t *msg, size_t len, const uint8_t key[32])
{
    size_t out = 0;
    if (!EVP_MAC_init(ossl_ctx, key, 32, NULL) || !EVP_MAC_update(ossl_ctx, msg, len)
        || !EVP_MAC_final(ossl_ctx, tag, &out, 16))
        return -1;
    return out == 16 ? 0 : -1;
}
static int openssl_load(void)
{
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "POLY1305", NULL);
    if (!mac)
        return 0;
    ossl_ctx = EVP_MAC_CTX_new(mac);
    EVP_MAC_free(mac);
    return ossl_ctx != NULL;
}
#endif

#ifdef HAVE_GCRYPT
#include <gcrypt.h>
/* one handle; per message reset, setkey, write, read */
static gcry_mac_hd_t gcry_hd;
static int gcry_used;   /* gcry_mac_reset refuses a handle that never had a key */
static int gcrypt_auth(uint8_t tag[16], const uint8_t *msg, size_t len, const uint8_t key[32])
{
    size_t out = 16;
    if ((gcry_used && gcry_mac_reset(gcry_hd)) || gcry_mac_setkey(gcry_hd, key, 32)
        || gcry_mac_write(gcry_hd, msg, len) || gcry_mac_read(gcry_hd, tag, &out))
        return -1;
    gcry_used = 1;
    return 0;
}
static int gcrypt_load(void)
{
    if (!gcry_check_version(NULL))
        return 0;
    gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
    gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    return gcry_mac_open(&gcry_hd, GCRY_MAC_POLY1305, 0, NULL) == 0;
}
#endif

#ifdef HAVE_NETTLE
#include <nettle/poly1305.h>
/* Nettle's public API offers Poly1305-AES only; its plain Poly1305 block
 * functions are exported under its internal symbol version. */
void _nettle_poly1305_set_key(struct poly1305_ctx *ctx, const uint8_t key[16]);
void _nettle_poly1305_block(struct poly1305_ctx *ctx, const uint8_t *m, unsigned high);
void _nettle_poly1305_digest(struct poly1305_ctx *ctx, union nettle_block16 *s);
static int nettle_auth(uint8_t tag[16], const uint8_t *msg, size_t len, const uint8_t key[32])
{
    struct poly1305_ctx ctx;
    union nettle_block16 s;
    _nettle_poly1305_set_key(&ctx, key);
    for (; len >= 16; len -= 16, msg += 16)
        _nettle_poly1305_block(&ctx, msg, 1);
    if (len) {
        uint8_t last[16] = {0};
        memcpy(last, msg, len);
        last[len] = 1;
        _nettle_poly1305_block(&ctx, last, 0);
    }
    memcpy(s.b, key + 16, 16);
    _nettle_poly1305_digest(&ctx, &s);
    memcpy(tag, s.b, 16);
    return 0;
}
#endif

size_t peers_load(struct peer *out, size_t cap)
{
    size_t n = 0;
    (void)out;
    (void)cap;
#ifdef HAVE_SODIUM
    if (n < cap && sodium_init() >= 0)
        out[n++] = (struct peer){"libsodium", sodium_auth};
#endif
#ifdef HAVE_OPENSSL
    if (n < cap && openssl_load())
        out[n++] = (struct peer){"openssl", openssl_auth};
#endif
#ifdef HAVE_GCRYPT
    if (n < cap && gcrypt_load())
        out[n++] = (struct peer){"libgcrypt", gcrypt_auth};
#endif
#ifdef HAVE_NETTLE
    if (n < cap)
        out[n++] = (struct peer){"nettle", nettle_auth};
#endif
    return n;
}
