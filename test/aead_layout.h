/* aead_layout.h -- the bytes the AEAD tag of RFC 8439 section 2.8 stands
 *                  for, written out, for the programs that hold it
 *                  against polymac_auth or libsodium's Poly1305 of them
 *                  (the fuzzer, the benchmark, the lab) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_TEST_AEAD_LAYOUT_H
#define POLYMAC_TEST_AEAD_LAYOUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* AAD and ciphertext each padded with zeros to 16 bytes, then 16 */
static inline size_t aead_layout_len(size_t alen, size_t clen)
{
    return (alen + 15) / 16 * 16 + (clen + 15) / 16 * 16 + 16;
}

/* AAD || zeros || ct || zeros || le64(alen) || le64(clen) into out
 * (aead_layout_len bytes); returns that length */
static inline size_t aead_layout(uint8_t *out, const uint8_t *aad, size_t alen,
                                 const uint8_t *ct, size_t clen)
{
    const size_t pa = (alen + 15) / 16 * 16, pc = (clen + 15) / 16 * 16;
    memset(out, 0, pa + pc);
    if (alen)
        memcpy(out, aad, alen);
    if (clen)
        memcpy(out + pa, ct, clen);
    for (unsigned b = 0; b < 8; b++) {
        out[pa + pc + b] = (uint8_t)((uint64_t)alen >> (8 * b));
        out[pa + pc + 8 + b] = (uint8_t)((uint64_t)clen >> (8 * b));
    }
    return pa + pc + 16;
}

#endif
