/* aead_example.c -- the ChaCha20-Poly1305 seal and open of the README and
 *                   polymac(3), checked against libsodium's AEAD */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include <stdio.h>
#include <string.h>

/* ---- the example, as the README and the man page show it ---- */
#include <polymac.h>
#include <sodium.h>     /* ChaCha20 only: libpolymac has no cipher */

/* ChaCha20-Poly1305 (RFC 8439): a fresh nonce for every message */
int seal(uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len,
         const uint8_t *aad, size_t aadlen, const uint8_t nonce[12], const uint8_t key[32])
{
    uint8_t otk[32];                                   /* block 0: the one-time key */
    crypto_stream_chacha20_ietf(otk, sizeof otk, nonce, key);
    crypto_stream_chacha20_ietf_xor_ic(ct, pt, len, nonce, 1, key);
    int rc = polymac_aead_auth(tag, aad, aadlen, ct, len, otk);
    sodium_memzero(otk, sizeof otk);
    return rc;
}

int open_ct(uint8_t *pt, const uint8_t *ct, size_t len, const uint8_t tag[16],
            const uint8_t *aad, size_t aadlen, const uint8_t nonce[12], const uint8_t key[32])
{
    uint8_t otk[32];
    crypto_stream_chacha20_ietf(otk, sizeof otk, nonce, key);
    int rc = polymac_aead_verify(tag, aad, aadlen, ct, len, otk);
    sodium_memzero(otk, sizeof otk);
    if (rc == 0)                                       /* decrypt only what is authentic */
        crypto_stream_chacha20_ietf_xor_ic(pt, ct, len, nonce, 1, key);
    return rc;
}
/* ---- end of the example ---- */

int main(void)
{
    static const char text[] = "the example seals and opens like libsodium's AEAD";
    const size_t len = sizeof text - 1;
    uint8_t key[32], nonce[12], aad[13], ct[64], tag[16], ref[64 + 16], pt[64];
    unsigned long long reflen;
    if (sodium_init() < 0)
        return 1;
    for (int i = 0; i < 32; i++)
        key[i] = (uint8_t)(3 * i + 1);
    memset(nonce, 0x4e, sizeof nonce);
    memset(aad, 0xad, sizeof aad);
    crypto_aead_chacha20poly1305_ietf_encrypt(ref, &reflen, (const uint8_t *)text, len, aad,
                                              sizeof aad, NULL, nonce, key);
    if (seal(ct, tag, (const uint8_t *)text, len, aad, sizeof aad, nonce, key) != 0
        || reflen != len + 16 || memcmp(ct, ref, len) != 0 || memcmp(tag, ref + len, 16) != 0) {
        printf("FAIL: seal differs from crypto_aead_chacha20poly1305_ietf_encrypt\n");
        return 1;
    }
    if (open_ct(pt, ct, len, tag, aad, sizeof aad, nonce, key) != 0 || memcmp(pt, text, len)) {
        printf("FAIL: open refused or garbled its own message\n");
        return 1;
    }
    ct[len / 2] ^= 1;
    memset(pt, 0, sizeof pt);
    if (open_ct(pt, ct, len, tag, aad, sizeof aad, nonce, key) != POLYMAC_EBADTAG || pt[0]) {
        printf("FAIL: open accepted a changed ciphertext, or decrypted it\n");
        return 1;
    }
    printf("seal: libsodium's ciphertext and tag; open: the text back, a changed byte refused\n");
    return 0;
}
